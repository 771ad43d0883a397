"""The per-crawl extraction runtime shared by every scrapy-bte component.

:class:`BTERuntime` is the one place that decides whether a response is
extracted, runs the extraction (worker pool, or inline with
``BTE_WORKERS = 0``), turns every failure into an ``Extraction.failed`` and
keeps the ``bte/*`` stats. Every scrapy-bte component of a crawler shares
it, so the pool is started once whichever components are enabled.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import time
import weakref
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy import signals
from scrapy.http import Request, Response
from scrapy.utils.asyncio import is_asyncio_available, run_in_thread

from .. import pool as _pool
from ..api import extract, without_surrogates
from ..core.decode import is_html
from ..errors import BTEError, ConfigError, ModelError
from ..result import Extraction
from .crawl_stats import CrawlStats
from .filler import ItemFiller
from .settings import BTEConfig

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

# forkserver where the platform has it (POSIX); spawn elsewhere (Windows).
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
_PROBE_HTML = "<html><head><title>probe</title></head><body><p>A short probe paragraph.</p></body></html>"


def error_text(exc: BaseException) -> str:
    """One-line, traceback-free description stored in ``Extraction.error``."""
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


class BTERuntime:
    """Shared per-crawler state: config, stats, worker pool, item filler."""

    def __init__(self, crawler: Crawler, config: BTEConfig) -> None:
        self.crawler = crawler
        self.config = config
        assert crawler.stats is not None
        self.stats = CrawlStats(crawler.stats)
        self.filler = ItemFiller(config, self.stats)
        self.pool: _pool.WorkerPool | None = None
        self._probe()
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def for_crawler(cls, crawler: Crawler) -> BTERuntime:
        """The crawler's runtime, created by whichever component asks first.

        Raises ``NotConfigured`` (BTE_ENABLED=False) or ``ConfigError``.
        """
        runtime = _RUNTIMES.get(crawler)
        if runtime is None:
            try:
                runtime = cls(crawler, BTEConfig.from_crawler(crawler))
            except ConfigError as exc:
                # Raised while Scrapy builds its engine: an asyncio crawl reports it as "Task exception
                # was never retrieved" under a traceback, so the setting's message gets a line of its own.
                logger.critical("scrapy-bte cannot start: %s", exc)
                raise
            _RUNTIMES[crawler] = runtime
        return runtime

    def _probe(self) -> None:
        """Fail at start-up, naming the settings, if ``extract()`` rejects the
        method, options or model: otherwise every page would fail one by one."""
        try:
            extract(_PROBE_HTML, method=self.config.method, **self.config.extract_options())
        except (ConfigError, ModelError) as exc:
            raise ConfigError(
                f"extract() rejects BTE_METHOD={self.config.method!r}, BTE_OPTIONS={self.config.options!r},"
                f" BTE_MODEL_PATH={self.config.model_path!r}: {exc}"
            ) from None

    # -- lifecycle ---------------------------------------------------------

    async def spider_opened(self) -> None:
        """Start the worker processes before the first page arrives, then
        freeze the start-up heap (``BTE_GC_FREEZE``).

        Starting processes takes a fraction of a second, so it runs in a
        thread; Scrapy waits for this handler before it crawls, so the pool
        is ready for the first response.
        """
        if self.config.workers and self.pool is None:
            await self._start_pool()
        if self.config.gc_freeze:
            # A full collection scans every tracked object: with Scrapy, numpy
            # and the model loaded that is 60-90 ms with the reactor stopped.
            # Objects alive now live as long as the crawl, so leave them out.
            gc.freeze()
            self.stats.set("bte/gc_frozen", gc.get_freeze_count())

    async def _start_pool(self) -> None:
        config = self.config
        try:
            self.pool = await run_in_thread(
                _pool.WorkerPool,
                config.workers,
                timeout=config.timeout,
                max_pending=config.max_pending,
                method=config.method,
                options=config.extract_options(),
                start_method=_START_METHOD,
                max_memory=config.worker_max_memory,
                nice=config.worker_nice,
            )
        except Exception as exc:  # noqa: BLE001 - e.g. no processes allowed: one clear line
            logger.error("scrapy-bte: cannot start the extraction workers, pages will get an error: %s", exc)
            return
        logger.info(
            "scrapy-bte: started %d extraction worker(s) (timeout %.3g s, method %s, niceness +%d)",
            config.workers,
            config.timeout,
            config.method,
            config.worker_nice,
        )

    async def spider_closed(self) -> None:
        """Stop the workers (no orphan processes) and log the summary line."""
        pool, self.pool = self.pool, None
        if pool is not None:
            # Nothing is in flight after a normal finish; after a forced stop a
            # hung page must not delay shutdown. Joining takes a moment: thread.
            await run_in_thread(pool.close, wait=False)
        get = self.stats.get
        pages = sum(get(key) for key in ("bte/extracted", "bte/empty", "bte/errors"))
        seconds = get("bte/milliseconds") / 1000.0
        waiting = get("bte/wait_milliseconds") / 1000.0
        logger.info(
            "scrapy-bte: %d page(s) extracted (%d with text, %d empty, %d errors, %d timeouts,"
            " %d worker crash(es)),"
            " %d word(s), %d item(s) filled; skipped %d non-HTML, %d too large;"
            " %d extraction(s) saved (no item needed them); items dropped: %d too short, %d near-duplicate;"
            " %.2f s extracting (%.3f s/page, %d worker(s)), %.2f s waiting for a free worker (%.3f s/page;"
            " sums over pages that wait side by side)",
            pages,
            get("bte/extracted"),
            get("bte/empty"),
            get("bte/errors"),
            get("bte/timeouts"),
            get("bte/errors/worker_crashed"),
            get("bte/words"),
            get("bte/items"),
            get("bte/skipped/non_html"),
            get("bte/skipped/too_large"),
            get("bte/extractions_saved"),
            get("bte/dropped/too_short"),
            get("bte/dropped/duplicate"),
            seconds,
            seconds / pages if pages else 0.0,
            self.config.workers,
            waiting,
            waiting / pages if pages else 0.0,
        )
        if self.stats.failures:
            logger.warning(
                "scrapy-bte: the stats collector failed %d time(s); the bte/ stats of this crawl are incomplete",
                self.stats.failures,
            )

    # -- deciding ----------------------------------------------------------

    def classify(self, request: Request, response: Response) -> str | None:
        """Why *response* would not be extracted, or None to extract it (counts nothing)."""
        if request.meta.get("dont_bte"):
            return "dont_bte"
        if not 200 <= response.status < 300 or not is_html(response.headers.get(b"Content-Type"), response.body):
            return "non_html"
        return "too_large" if len(response.body) > self.config.max_bytes else None

    def skip_reason(self, request: Request, response: Response) -> str | None:
        """:meth:`classify`, counted in the stats and remembered in ``meta["bte_skipped"]``."""
        reason = self.classify(request, response)
        if reason is not None:
            self.stats.inc(f"bte/skipped/{reason}")
            request.meta["bte_skipped"] = reason
        return reason

    def extracts_early(self, request: Request) -> bool:
        """Whether the downloader middleware extracts this request's response
        (``BTE_EXTRACT = "responses"``, or the request opted in with ``bte_extract``)."""
        return self.config.extract == "responses" or bool(request.meta.get("bte_extract"))

    # -- extracting --------------------------------------------------------

    async def extract_response(self, response: Response) -> Extraction:
        """Extract the main text of an (already accepted) response.

        Only the raw body and Content-Type go to the extractor, which decodes
        (BOM, header, ``<meta charset>``, sniffing) in the worker: asking
        Scrapy for ``response.encoding`` could decode the whole body in the
        reactor thread just to guess.
        """
        content_type = response.headers.get(b"Content-Type")
        return await self.extract(
            response.body,
            url=response.url,
            content_type=content_type.decode("latin-1") if content_type else None,
        )

    async def extract(
        self,
        html: bytes | str,
        *,
        url: str | None = None,
        encoding: str | None = None,
        content_type: str | None = None,
    ) -> Extraction:
        """Extract without ever raising: failures become ``Extraction.failed``.

        With workers the page goes to the pool and is awaited without blocking
        the reactor; with ``BTE_WORKERS = 0`` it is extracted right here.
        """
        started = time.perf_counter()
        future: _pool.JobFuture | None = None
        try:
            if self.config.workers == 0:
                result = self._extract_inline(html, url=url, encoding=encoding, content_type=content_type)
            else:
                if self.pool is None:
                    raise BTEError("the extraction worker pool is not running")
                # As extract() reads a str: its lone surrogates are U+FFFD, not an encoding error.
                body = without_surrogates(html).encode("utf-8") if isinstance(html, str) else html
                if isinstance(html, str):
                    encoding = "utf-8"
                future = await self._submit(self.pool, body, encoding=encoding, content_type=content_type, url=url)
                result = await _await_future(future)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bad page must never break the crawl
            result = self._failed(exc)
        self._time(time.perf_counter() - started, future)
        self._count(result, url)
        return result

    def _time(self, seconds: float, future: _pool.JobFuture | None) -> None:
        """Split a page's time into extraction (``bte/milliseconds``) and waiting for a worker.

        Inline, all of it is extraction. With workers, extraction is the
        page's time in its worker; the rest (a full pool, the queue, the
        hand-over) is ``bte/wait_milliseconds``, so the summary's seconds per
        page are the extraction's cost, not the crawl's backlog.
        """
        if self.config.workers == 0:
            self.stats.add_seconds("bte/milliseconds", seconds)
            return
        worker = min(seconds, future.worker_seconds or 0.0) if future is not None else 0.0
        self.stats.add_seconds("bte/milliseconds", worker)
        self.stats.add_seconds("bte/wait_milliseconds", seconds - worker)

    async def _submit(self, pool: _pool.WorkerPool, body: bytes, **kwargs: Any) -> _pool.JobFuture:
        """Submit to the pool, waiting (without blocking) while it is full."""
        while True:
            try:
                return pool.submit(body, **kwargs)
            except _pool.PoolFull:
                self.stats.inc("bte/pool_full_waits")
                await _await_future(pool.wait_for_capacity())

    def _extract_inline(self, html: bytes | str, **kwargs: Any) -> Extraction:
        return extract(html, method=self.config.method, **kwargs, **self.config.extract_options())

    def _failed(self, exc: Exception) -> Extraction:
        if isinstance(exc, _pool.WorkerTimeout):
            self.stats.inc("bte/timeouts")
        elif isinstance(exc, _pool.WorkerOutOfMemory):
            self.stats.inc("bte/memory_errors")
        elif isinstance(exc, _pool.WorkerCrashed):  # its error says how the worker died (exit code or signal)
            self.stats.inc("bte/errors/worker_crashed")
        if not isinstance(exc, BTEError):
            # Not a deliberate error: still one line, no traceback in the log.
            self.stats.inc("bte/errors/unexpected")
        return Extraction.failed(error_text(exc), method=self.config.method)

    def _count(self, result: Extraction, url: str | None) -> None:
        if result.error is not None:
            self.stats.inc("bte/errors")
            logger.warning("scrapy-bte: extraction failed for %s: %s", url or "<item html>", result.error)
        elif result.empty:
            self.stats.inc("bte/empty")
        else:
            self.stats.inc("bte/extracted")
            self.stats.inc("bte/words", result.words)


async def _await_future(future: Future[_T]) -> _T:
    """Await a ``concurrent.futures.Future`` under whichever reactor runs.

    Under the asyncio reactor (Scrapy's default) ``asyncio.wrap_future``
    resumes us on the event loop; under another Twisted reactor coroutines are
    driven by Deferreds, so a Deferred is fired from the reactor thread via
    ``callFromThread`` when the pool's thread completes the future.
    """
    if is_asyncio_available():
        return await asyncio.wrap_future(future)

    # Imported here: importing the reactor module installs a reactor, which
    # must be whichever one Scrapy chose, not a default.
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    def cancel(_: Deferred[_T]) -> None:
        future.cancel()

    deferred: Deferred[_T] = Deferred(cancel)

    def fire(done: Future[_T]) -> None:
        if deferred.called:
            return
        if done.cancelled():
            deferred.cancel()
            return
        exc = done.exception()
        if exc is not None:
            deferred.errback(exc)
        else:
            deferred.callback(done.result())

    future.add_done_callback(lambda done: reactor.callFromThread(fire, done))  # type: ignore[attr-defined]
    return await deferred


_RUNTIMES: weakref.WeakKeyDictionary[Crawler, BTERuntime] = weakref.WeakKeyDictionary()
