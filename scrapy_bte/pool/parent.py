"""A small process pool that runs extraction off the reactor thread.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: it cannot stop a task
that is already running (a hostile page would hold a worker forever) and one
dead worker breaks the whole executor (``BrokenProcessPool`` for every other
future). Here each job runs on one long-lived worker process at a time; a job
that overruns ``timeout`` gets its worker killed and replaced, a worker that
dies fails only its own job, and the pool keeps going.

Design:

* Workers are started with ``forkserver`` (or ``spawn``), never ``fork``: the
  parent runs a reactor and threads, which ``fork`` would copy half-locked.
  A worker imports its target once, then loops over jobs read from its pipe.
  Jobs carry the raw body and headers, never parsed trees.
* One daemon dispatcher thread owns every pipe and process: it waits on the
  worker connections, the process sentinels and a wake-up pipe with
  :func:`multiprocessing.connection.wait`, with a timeout computed from the
  nearest job deadline. Futures are completed from that thread, so callbacks
  added to them must be quick and thread-safe (``asyncio.wrap_future`` and
  ``reactor.callFromThread`` are).
* :meth:`WorkerPool.submit` never blocks: it appends to a queue and wakes the
  dispatcher. At most ``max_pending`` jobs are queued or running; past that it
  raises :class:`PoolFull`, and :meth:`WorkerPool.wait_for_capacity` gives a
  future to await before trying again.

* Workers exit by themselves when the pool's process dies (even SIGKILL):
  a lifeline pipe whose only writer is that process reads EOF. They ignore
  SIGINT, so Ctrl-C leaves the decision to the pool's ``close``.

As with any spawn/forkserver multiprocessing, workers import the parent's
``__main__`` module: a script that starts a crawl itself must do so under
``if __name__ == "__main__":`` (``scrapy crawl`` needs nothing).

The module imports neither Scrapy nor Twisted: the Scrapy layer adapts the
:class:`concurrent.futures.Future` objects to whatever its reactor awaits.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from ..errors import BTEError, ConfigError, ExtractionError
from ..result import Extraction
from .child import describe_error, worker_main

__all__ = [
    "DEFAULT_TARGET",
    "PoolClosed",
    "PoolFull",
    "WorkerCrashed",
    "WorkerPool",
    "WorkerTimeout",
    "suggested_max_pending",
]

logger = logging.getLogger(__name__)

DEFAULT_TARGET = "scrapy_bte.pool.child:run_extract"
#: Seconds between SIGTERM and SIGKILL for a worker being stopped.
KILL_GRACE = 0.5
#: Upper bound on one dispatcher wait, so a missed wake-up costs little.
_POLL = 0.5
#: Workers dying before they are ready this many times in a row break the pool
#: (a crash loop would otherwise spin forever re-importing a broken target).
_MAX_STARTUP_FAILURES = 3
#: Imported once by the fork server, so a (re)started worker is ready in
#: milliseconds instead of re-importing numpy and lxml for every restart.
_FORKSERVER_PRELOAD = ("scrapy_bte.pool.child", "scrapy_bte.api")


class WorkerTimeout(ExtractionError):
    """A job ran longer than the pool's ``timeout``; its worker was killed."""


class WorkerCrashed(ExtractionError):
    """The worker running a job died (segfault, ``os._exit``, OOM kill)."""


class PoolFull(BTEError):
    """``max_pending`` jobs are already queued or running; nothing was queued.

    Await :meth:`WorkerPool.wait_for_capacity` and submit again.
    """


class PoolClosed(BTEError, RuntimeError):
    """The pool is closed (or broke) and accepts or finishes no more work."""


def suggested_max_pending(workers: int, concurrent_requests: int) -> int:
    """A ``max_pending`` for a pool fed by one Scrapy downloader middleware.

    Responses inside the downloader middleware chain still count against
    ``CONCURRENT_REQUESTS``, so that many jobs can never be exceeded from there
    and the middleware never sees :class:`PoolFull`; ``4 * workers`` more keeps
    workers busy when other components (pipelines) submit too. Queued jobs only
    reference bodies Scrapy already holds, so the bound costs no extra memory.
    """
    return concurrent_requests + 4 * workers


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "exit status unknown"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name} ({code})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _target_spec(target: str | Callable[..., Any] | None) -> str:
    """``module:qualname`` for a target, checked for shape in the parent."""
    if target is None:
        return DEFAULT_TARGET
    if callable(target):
        module = getattr(target, "__module__", None)
        qualname = getattr(target, "__qualname__", "")
        if not module or module == "__main__" or "<" in qualname:
            raise ConfigError(f"target {target!r} must be a module-level function of an importable module")
        return f"{module}:{qualname}"
    module, sep, attr = str(target).partition(":")
    if not (module and sep and attr):
        raise ConfigError(f"target must look like 'package.module:function', got {target!r}")
    return str(target)


# --------------------------------------------------------------------------- parent side


@dataclass(eq=False)
class _Job:
    id: int
    future: Future
    payload: tuple[bytes, str | None, str | None, str | None]


@dataclass(eq=False)
class _Worker:
    process: Any  # multiprocessing.process.BaseProcess
    conn: Connection
    ready: bool = False
    conn_open: bool = True
    job: _Job | None = None
    deadline: float = float("inf")


def _settle(fut: Future, result: Any = None, exc: BaseException | None = None) -> None:
    """Complete ``fut`` unless the caller cancelled it meanwhile."""
    try:
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)
    except InvalidStateError:
        pass


def _preload_in_forkserver() -> None:
    """Add our modules to the fork server's preload list, keeping any others.

    Takes effect only if the fork server has not started yet (it is one per
    process); otherwise workers just import the modules themselves.
    """
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    modules = list(getattr(server, "_preload_modules", None) or ["__main__"])
    missing = [m for m in _FORKSERVER_PRELOAD if m not in modules]
    if missing:
        forkserver.set_forkserver_preload(modules + missing)


_POOLS: weakref.WeakSet[WorkerPool] = weakref.WeakSet()


@atexit.register
def _close_all_pools() -> None:
    for pool in list(_POOLS):
        pool.close(wait=False)


class WorkerPool:
    """Extraction in ``workers`` processes, with timeouts and crash isolation.

    ``target`` names the function a worker calls per job (``"module:function"``
    or a module-level function); it defaults to real extraction and exists so
    tests can run slow or crashing functions without test hooks in the
    product path. Workers inherit the parent's ``sys.path`` (multiprocessing
    sends it to every spawned or forkserver child), so anything importable in
    the parent is importable as a target. ``method=None`` uses ``extract()``'s
    default method.

    The constructor starts the workers (the first forkserver pool of a process
    also starts the fork server, well under a second), so a pool that cannot
    start fails here rather than on the first page.
    """

    def __init__(
        self,
        workers: int,
        *,
        timeout: float | None,
        max_pending: int,
        method: str | None = None,
        options: dict[str, Any] | None = None,
        start_method: str = "forkserver",
        target: str | Callable[..., dict[str, Any]] | None = None,
    ) -> None:
        if workers < 1:
            raise ConfigError(f"workers must be >= 1, got {workers}")
        if max_pending < 1:
            raise ConfigError(f"max_pending must be >= 1, got {max_pending}")
        if timeout is not None and not timeout > 0:
            raise ConfigError(f"timeout must be > 0 or None, got {timeout}")
        if start_method not in ("forkserver", "spawn"):
            raise ConfigError(
                f"start_method must be 'forkserver' or 'spawn', got {start_method!r}"
                " (fork would copy the reactor's threads and locks)"
            )
        self.workers = workers
        self.timeout = timeout
        self.max_pending = max_pending
        self.method = method
        self.options = dict(options or {})
        self._target = _target_spec(target)
        self._ctx = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            _preload_in_forkserver()

        self._lock = threading.Lock()
        self._queue: deque[_Job] = deque()
        self._pending = 0
        self._next_id = 0
        self._waiters: list[Future] = []
        self._stats = dict.fromkeys(("submitted", "completed", "errors", "timeouts", "crashes", "restarts"), 0)
        self._closing = False
        self._drain = True
        self._close_error: BaseException = PoolClosed("the worker pool is closed")
        self._stopped = False
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

        # Owned by the dispatcher thread only.
        self._workers: list[_Worker] = []
        self._dying: list[tuple[Any, float]] = []
        self._startup_failures = 0
        self._lifeline_r, self._lifeline_w = self._ctx.Pipe(duplex=False)

        self._thread = threading.Thread(target=self._run, name="bte-worker-pool", daemon=True)
        _POOLS.add(self)
        try:  # up front, so a pool that cannot start says so here
            for _ in range(workers):
                self._start_worker()
        except Exception as exc:
            self.close(wait=False)  # the dispatcher cleans up what did start
            raise PoolClosed(f"cannot start a worker process: {describe_error(exc)}") from exc
        # From here on the dispatcher thread alone touches workers and pipes.
        self._thread.start()

    # ------------------------------------------------------------------ public API

    def submit(
        self,
        body: bytes,
        *,
        encoding: str | None = None,
        content_type: str | None = None,
        url: str | None = None,
    ) -> Future[Extraction]:
        """Queue one page; never blocks.

        The future resolves to an :class:`Extraction` (with ``error`` set when
        the target raised), or fails with :class:`WorkerTimeout`,
        :class:`WorkerCrashed` or :class:`PoolClosed`. Raises :class:`PoolFull`
        when ``max_pending`` jobs are in flight and the closing error when the
        pool is closed.
        """
        if not isinstance(body, (bytes, bytearray, memoryview)):
            raise TypeError(f"body must be bytes, got {type(body).__name__}")
        fut: Future[Extraction] = Future()
        with self._lock:
            if self._closing:
                raise self._fresh_close_error()
            if self._pending >= self.max_pending:
                raise PoolFull(f"{self._pending} jobs in flight (max_pending={self.max_pending})")
            self._pending += 1
            self._next_id += 1
            self._stats["submitted"] += 1
            self._queue.append(_Job(self._next_id, fut, (bytes(body), encoding, content_type, url)))
            self._wake()
        # Runs first among the future's callbacks, so capacity is back before
        # the caller's own callbacks (which may submit again) run.
        fut.add_done_callback(self._job_done)
        return fut

    @property
    def pending(self) -> int:
        """Jobs queued or running."""
        return self._pending

    @property
    def capacity(self) -> int:
        """How many more jobs :meth:`submit` accepts right now."""
        return max(0, self.max_pending - self._pending)

    @property
    def closed(self) -> bool:
        return self._closing

    @property
    def pids(self) -> list[int]:
        """Process ids of the current workers (for monitoring and tests)."""
        return [w.process.pid for w in list(self._workers) if w.process.pid is not None]

    def wait_for_capacity(self) -> Future[None]:
        """A future that completes when :meth:`submit` may succeed again.

        It completes as soon as one job finishes (or the pool closes); another
        caller may take the freed slot first, so loop: submit, and on
        :class:`PoolFull` await this and retry.
        """
        fut: Future[None] = Future()
        with self._lock:
            if self._pending < self.max_pending or self._closing:
                fut.set_result(None)
            else:
                self._waiters.append(fut)
        return fut

    def stats(self) -> dict[str, int]:
        """Counters: submitted, completed (results, errors included), errors
        (target raised), timeouts, crashes, restarts; plus pending and workers."""
        with self._lock:
            out = dict(self._stats)
            out["pending"] = self._pending
        out["workers"] = len(self._workers)
        return out

    def close(self, wait: bool = True) -> None:
        """Stop accepting work and shut the workers down; idempotent.

        ``wait=True`` lets queued and running jobs finish (each still bounded
        by ``timeout``); ``wait=False`` fails them with :class:`PoolClosed` and
        kills busy workers. A later ``close(wait=False)`` (e.g. a second
        Ctrl-C, or ``atexit``) escalates a waiting close. Called from a future
        callback (the dispatcher thread) it only starts the shutdown.
        """
        self._request_close(None, drain=wait)
        if threading.current_thread() is not self._thread:
            if self._thread.ident is None:  # __init__ failed before starting it
                self._thread.start()
            self._thread.join()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(wait=exc_info[0] is None)

    def __repr__(self) -> str:
        return f"<WorkerPool workers={self.workers} pending={self._pending} closed={self._closing}>"

    # ------------------------------------------------------------------ shared helpers

    def _wake(self) -> None:
        if not self._stopped:
            try:
                os.write(self._wake_w, b"x")
            except BlockingIOError:  # pipe full: the dispatcher is awake anyway
                pass

    def _fresh_close_error(self) -> BaseException:
        err = self._close_error
        return type(err)(*err.args)

    def _request_close(self, error: BaseException | None, *, drain: bool) -> None:
        with self._lock:
            if not self._closing:
                self._closing = True
                self._drain = drain
                if error is not None:
                    self._close_error = error
            elif not drain:
                self._drain = False
            waiters, self._waiters = self._waiters, []
            self._wake()
        for w in waiters:
            _settle(w)

    def _job_done(self, _fut: Future) -> None:
        with self._lock:
            self._pending -= 1
            waiters, self._waiters = self._waiters, []
        for w in waiters:
            _settle(w)

    def _count(self, key: str) -> None:
        with self._lock:
            self._stats[key] += 1

    # ------------------------------------------------------------------ dispatcher thread

    def _run(self) -> None:
        try:
            while True:
                with self._lock:
                    closing, drain = self._closing, self._drain
                    idle = not self._queue
                if closing and (not drain or (idle and all(w.job is None for w in self._workers))):
                    break
                if not closing or drain:  # a drain needs workers to finish the queue
                    self._top_up()
                self._dispatch()
                self._wait_once()
        except BaseException as exc:  # never leave futures hanging
            logger.exception("scrapy-bte worker pool dispatcher failed")
            self._request_close(PoolClosed(f"worker pool dispatcher failed: {describe_error(exc)}"), drain=False)
        finally:
            self._shutdown()

    def _top_up(self) -> None:
        while len(self._workers) < self.workers:
            try:
                self._start_worker()
            except Exception as exc:  # noqa: BLE001 - a worker that cannot start closes the pool with the reason
                self._request_close(PoolClosed(f"cannot start a worker process: {describe_error(exc)}"), drain=False)
                return
            self._count("restarts")

    def _start_worker(self) -> None:
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=worker_main,
            args=(child, self._lifeline_r, self._target, self.method, self.options),
            name="bte-worker",
            daemon=True,
        )
        try:
            process.start()
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        self._workers.append(_Worker(process, parent))

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not (worker.ready and worker.conn_open and worker.job is None):
                continue
            job = self._next_job()
            if job is None:
                return
            try:
                worker.conn.send((job.id,) + job.payload)
            except OSError:  # worker just died; its sentinel will report it
                worker.conn_open = False
                with self._lock:
                    self._queue.appendleft(job)
                continue
            worker.job = job
            worker.deadline = time.monotonic() + self.timeout if self.timeout is not None else float("inf")

    def _next_job(self) -> _Job | None:
        while True:
            with self._lock:
                if not self._queue:
                    return None
                job = self._queue.popleft()
            if job.future.running() or job.future.set_running_or_notify_cancel():
                return job

    def _wait_once(self) -> None:
        now = time.monotonic()
        deadlines = [w.deadline for w in self._workers] + [t for _, t in self._dying]
        timeout = min([_POLL] + [max(0.0, d - now) for d in deadlines])
        by_handle: dict[Any, _Worker] = {}
        for w in self._workers:
            by_handle[w.process.sentinel] = w
            if w.conn_open:
                by_handle[w.conn] = w
        handles = [self._wake_r, *by_handle, *(p.sentinel for p, _ in self._dying)]
        ready = wait(handles, timeout)
        if self._wake_r in ready:
            try:
                while os.read(self._wake_r, 4096):
                    pass
            except BlockingIOError:
                pass
        for handle in ready:
            worker = by_handle.get(handle)
            if worker is not None and handle is worker.conn and worker.conn_open:
                self._read(worker)
        for handle in ready:
            worker = by_handle.get(handle)
            if worker is not None and handle == worker.process.sentinel and worker in self._workers:
                self._on_exit(worker)
        self._enforce_deadlines()
        self._reap_dying()

    def _read(self, worker: _Worker) -> None:
        try:
            msg = worker.conn.recv()
        except (EOFError, OSError):
            worker.conn_open = False  # exiting; the sentinel tells how
            return
        kind = msg[0]
        if kind == "ready":
            worker.ready = True
            self._startup_failures = 0
        elif kind == "fatal":
            self._request_close(ConfigError(msg[1]), drain=False)
        elif worker.job is not None and kind == worker.job.id:
            job, worker.job, worker.deadline = worker.job, None, float("inf")
            ok, payload = msg[1], msg[2]
            if ok:
                try:
                    result = Extraction.from_dict(payload)
                except Exception as exc:  # noqa: BLE001 - a malformed reply fails its job, not the dispatcher
                    ok, payload = False, f"malformed worker result: {describe_error(exc)}"
            if not ok:
                result = Extraction.failed(payload, method=self.method or "")
                self._count("errors")
            self._count("completed")
            _settle(job.future, result)

    def _on_exit(self, worker: _Worker) -> None:
        while worker.conn_open and worker.conn.poll():  # a reply sent just before dying
            self._read(worker)
        worker.process.join(1.0)  # sentinel is ready: this only reaps
        self._forget(worker)
        code = worker.process.exitcode
        if worker.job is not None:
            self._count("crashes")
            _settle(
                worker.job.future,
                exc=WorkerCrashed(
                    f"worker pid {worker.process.pid} died ({_describe_exit(code)}) while extracting {_url(worker.job)}"
                ),
            )
        elif not worker.ready and not self._closing:
            self._startup_failures += 1
            if self._startup_failures >= _MAX_STARTUP_FAILURES:
                self._request_close(
                    WorkerCrashed(f"workers keep dying at startup (last: {_describe_exit(code)})"), drain=False
                )

    def _forget(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        worker.conn.close()
        worker.conn_open = False

    def _enforce_deadlines(self) -> None:
        now = time.monotonic()
        for worker in [w for w in self._workers if w.deadline <= now]:
            job = worker.job
            assert job is not None
            self._forget(worker)
            self._kill_later(worker.process)
            self._count("timeouts")
            _settle(
                job.future,
                exc=WorkerTimeout(f"extraction of {_url(job)} exceeded {self.timeout:g}s; worker killed"),
            )

    def _kill_later(self, process: Any) -> None:
        if process.exitcode is None:
            process.terminate()
        self._dying.append((process, time.monotonic() + KILL_GRACE))

    def _reap_dying(self) -> None:
        now = time.monotonic()
        still = []
        for process, kill_at in self._dying:
            if process.exitcode is not None:
                process.join()
            elif now >= kill_at:
                process.kill()
                still.append((process, float("inf")))
            else:
                still.append((process, kill_at))
        self._dying = still

    def _shutdown(self) -> None:
        with self._lock:
            queued, self._queue = list(self._queue), deque()
        for job in queued:
            _settle(job.future, exc=self._fresh_close_error())
        for worker in list(self._workers):
            if worker.job is not None:
                _settle(worker.job.future, exc=self._fresh_close_error())
                self._kill_later(worker.process)
            else:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
                self._dying.append((worker.process, time.monotonic() + KILL_GRACE))
            self._forget(worker)
        while self._dying:
            self._reap_dying()
            if self._dying:
                wait([p.sentinel for p, _ in self._dying], 0.05)
        self._lifeline_w.close()
        self._lifeline_r.close()
        with self._lock:
            self._stopped = True
            os.close(self._wake_r)
            os.close(self._wake_w)
        _POOLS.discard(self)


def _url(job: _Job) -> str:
    url = job.payload[3]
    return repr(url) if url else f"job {job.id}"
