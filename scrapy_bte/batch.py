"""Extraction over many pages for the command line, in input order.

With ``jobs = 0`` pages are extracted here, one after another. With
``jobs >= 1`` they go to a :class:`~scrapy_bte.pool.WorkerPool`: the same
per-page timeout and crash isolation as in a crawl, so one hostile page in a
corpus of millions costs its own result, not the run. Results still come out
in input order (a window of at most ``4 * jobs`` pages in flight), so output
files are reproducible and line up with their inputs.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TextIO

from .api import extract
from .errors import BTEError, ExtractionError
from .pool import PoolFull, WorkerPool
from .result import Extraction
from .sources import BadInput, Item, Page, Skipped

# forkserver where the platform has it (POSIX); spawn elsewhere (Windows).
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
PAGES_IN_FLIGHT_PER_JOB = 4


@dataclass(frozen=True)
class Outcome:
    """What became of one item: its extraction, or why there is none."""

    item: Item
    extraction: Extraction | None = None
    error: str | None = None


def _error_text(exc: BaseException) -> str:
    """One line, in the form the worker pool reports the errors raised in a worker."""
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _inline(items: Iterable[Item], method: str, options: dict[str, Any], encoding: str | None) -> Iterator[Outcome]:
    for item in items:
        if not isinstance(item, Page):
            yield Outcome(item)
            continue
        try:
            result = extract(
                item.body, method=method, encoding=encoding, content_type=item.content_type, url=item.url, **options
            )
        except ExtractionError as exc:
            yield Outcome(item, error=_error_text(exc))
        except Exception as exc:  # noqa: BLE001 - MemoryError, RecursionError, a bug: this page's error, not the run's end
            yield Outcome(item, error=f"unexpected error: {_error_text(exc)}")
        else:
            yield Outcome(item, extraction=result)


def _settle(item: Item, future: Future[Extraction] | None) -> Outcome:
    if future is None:
        return Outcome(item)
    try:
        result = future.result()
    except BTEError as exc:  # timeout, crashed worker, closed pool
        return Outcome(item, error=_error_text(exc))
    if result.error is not None:
        return Outcome(item, error=result.error)
    return Outcome(item, extraction=result)


def _pooled(
    items: Iterable[Item], jobs: int, timeout: float, method: str, options: dict[str, Any], encoding: str | None
) -> Iterator[Outcome]:
    window: deque[tuple[Item, Future[Extraction] | None]] = deque()
    with WorkerPool(
        jobs,
        timeout=timeout,
        max_pending=PAGES_IN_FLIGHT_PER_JOB * jobs,
        method=method,
        options=options,
        start_method=_START_METHOD,
    ) as pool:
        for item in items:
            future = None
            if isinstance(item, Page):
                while True:
                    try:
                        # The URL names the page in the pool's timeout and crash messages.
                        future = pool.submit(item.body, encoding=encoding, content_type=item.content_type, url=item.url)
                        break
                    except PoolFull:
                        if window[0][1] is None or window[0][1].done():
                            yield _settle(*window.popleft())
                        else:
                            pool.wait_for_capacity().result()
            window.append((item, future))
            while window and (window[0][1] is None or window[0][1].done()):
                yield _settle(*window.popleft())
        while window:
            yield _settle(*window.popleft())


def extract_all(
    items: Iterable[Item],
    *,
    jobs: int = 0,
    timeout: float = 10.0,
    method: str,
    options: dict[str, Any] | None = None,
    encoding: str | None = None,
) -> Iterator[Outcome]:
    """One :class:`Outcome` per item, in order; never raises for a bad page."""
    options = dict(options or {})
    if jobs <= 0:
        return _inline(items, method, options, encoding)
    return _pooled(items, jobs, timeout, method, options, encoding)


@dataclass
class Summary:
    """Counts for the closing line (and the exit code)."""

    pages: int = 0  # pages handed to extraction
    empty: int = 0
    errors: int = 0  # pages whose extraction failed
    bad_inputs: int = 0  # paths or records that could not be read
    skipped: int = 0  # WARC records that are not pages
    started: float = 0.0

    def __post_init__(self) -> None:
        self.started = time.perf_counter()

    def add(self, outcome: Outcome) -> None:
        item = outcome.item
        if isinstance(item, BadInput):
            self.bad_inputs += 1
        elif isinstance(item, Skipped):
            self.skipped += 1
        else:
            self.pages += 1
            if outcome.error is not None:
                self.errors += 1
            elif outcome.extraction is not None and outcome.extraction.empty:
                self.empty += 1

    @property
    def with_text(self) -> int:
        return self.pages - self.empty - self.errors

    def rate(self) -> float:
        elapsed = time.perf_counter() - self.started
        return self.pages / elapsed if elapsed > 0 else 0.0

    def counts(self) -> str:
        extra = ""
        if self.bad_inputs:
            extra += f", {self.bad_inputs} unreadable"
        if self.skipped:
            extra += f", {self.skipped} records skipped"
        return f"{self.pages} pages, {self.empty} empty, {self.errors} errors{extra}"

    def line(self) -> str:
        return f"{self.counts()}, {self.rate():.1f} pages/s"


def _size(stream: TextIO) -> tuple[int, int]:
    """The terminal's columns and lines; 80 x 24 where it reports none (a fresh pseudo-terminal
    says 0 x 0, and tqdm then draws nothing)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError):
        return 80, 24
    return size.columns or 80, size.lines or 24


class Progress:
    """A progress bar on stderr (tqdm), only when it is a terminal (never in a log file or pipe).

    The bar counts inputs (files, and each WARC file as one), since the
    number of pages in a WARC file is not known before it is read; tqdm
    gives their rate and the time left, and the counts of the summary line
    follow it.
    """

    INTERVAL = 0.2

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty()
        self._bar: Any = None
        if self.enabled:
            from tqdm import tqdm  # only on a terminal: a piped run never imports it

            columns, lines = _size(self.stream)
            self._bar = tqdm(
                total=total,
                file=self.stream,
                unit="input",
                mininterval=self.INTERVAL,
                ncols=columns,
                nrows=lines,
                leave=False,
            )

    def update(self, summary: Summary, inputs_read: int, *, final: bool = False) -> None:
        """Move the bar to ``inputs_read`` with the page counts beside it (redrawn at most every ``INTERVAL`` s)."""
        bar = self._bar
        if bar is None or (inputs_read == bar.n and not final):
            return
        bar.set_postfix_str(summary.counts(), refresh=False)
        bar.update(inputs_read - bar.n)
        if final:
            bar.refresh()

    def clear(self) -> None:
        """Take the bar off the line for a message; the next update draws it again."""
        if self._bar is not None:
            self._bar.clear()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
