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
* One daemon dispatcher thread owns every pipe and process
  (:mod:`.dispatcher`): it waits on the worker connections, the process
  sentinels and a wake-up pipe with :func:`multiprocessing.connection.wait`,
  with a timeout computed from the nearest job deadline. Futures are
  completed from that thread, so callbacks added to them must be quick and
  thread-safe (``asyncio.wrap_future`` and ``reactor.callFromThread`` are).
  Callers and the dispatcher share only the queue, the counters and the
  lifecycle (:mod:`.state`), behind one lock.
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
import multiprocessing
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from ..errors import ConfigError
from .child import describe_error
from .dispatcher import Dispatcher
from .errors import PoolClosed, PoolFull, WorkerCrashed, WorkerOutOfMemory, WorkerTimeout
from .state import Job, JobFuture, Lifecycle, Shared

__all__ = [
    "DEFAULT_TARGET",
    "MIN_WORKER_MEMORY",
    "Lifecycle",
    "PoolClosed",
    "PoolFull",
    "WorkerCrashed",
    "WorkerOutOfMemory",
    "WorkerPool",
    "WorkerTimeout",
    "suggested_max_pending",
]

DEFAULT_TARGET = "scrapy_bte.pool.child:run_extract"
#: The smallest ``max_memory`` accepted: a worker needs about 150 MiB
#: of heap for Python, numpy, lxml and the model before its first page.
MIN_WORKER_MEMORY = 256 * 2**20
#: Imported once by the fork server, so a (re)started worker is ready in
#: milliseconds instead of re-importing numpy and lxml for every restart.
_FORKSERVER_PRELOAD = ("scrapy_bte.pool.child", "scrapy_bte.api")


def suggested_max_pending(workers: int, concurrent_requests: int) -> int:
    """A ``max_pending`` for a pool fed by one Scrapy downloader middleware.

    Responses inside the downloader middleware chain still count against
    ``CONCURRENT_REQUESTS``, so that many jobs can never be exceeded from there
    and the middleware never sees :class:`PoolFull`; ``4 * workers`` more keeps
    workers busy when other components (pipelines) submit too. Queued jobs only
    reference bodies Scrapy already holds, so the bound costs no extra memory.
    """
    return concurrent_requests + 4 * workers


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


def _preload_in_forkserver(extra: tuple[str, ...] = ()) -> None:
    """Add our modules (and ``extra``) to the fork server's preload list, keeping any others.

    Takes effect only if the fork server has not started yet (it is one per
    process); otherwise workers just import the modules themselves.
    """
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    modules = list(getattr(server, "_preload_modules", None) or ["__main__"])
    missing = [m for m in (*_FORKSERVER_PRELOAD, *extra) if m not in modules]
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

    ``max_memory`` caps each worker's heap in bytes (``RLIMIT_DATA``, set
    inside the worker): a page that needs more fails alone with
    :class:`WorkerOutOfMemory` and its worker is replaced, as after a
    timeout, instead of the machine swapping or the kernel's OOM killer
    picking a process. ``None`` leaves workers uncapped.

    ``nice`` lowers each worker's CPU priority by that much (``os.nice``
    inside the worker, 0-19): busy workers then yield a shared core to the
    process that submits pages, so a pool can have as many workers as CPUs.

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
        max_memory: int | None = None,
        nice: int = 0,
    ) -> None:
        if workers < 1:
            raise ConfigError(f"workers must be >= 1, got {workers}")
        if max_pending < 1:
            raise ConfigError(f"max_pending must be >= 1, got {max_pending}")
        if timeout is not None and not timeout > 0:
            raise ConfigError(f"timeout must be > 0 or None, got {timeout}")
        if max_memory is not None and (
            isinstance(max_memory, bool) or not isinstance(max_memory, int) or max_memory < MIN_WORKER_MEMORY
        ):
            raise ConfigError(f"max_memory must be None or an int >= {MIN_WORKER_MEMORY} bytes, got {max_memory!r}")
        if isinstance(nice, bool) or not isinstance(nice, int) or not 0 <= nice <= 19:
            raise ConfigError(f"nice must be an int from 0 to 19, got {nice!r}")
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
        self.max_memory = max_memory
        self.nice = nice
        ctx = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            wants_language = "language" in (self.options.get("fields") or ())
            _preload_in_forkserver(("scrapy_bte.fields.identifier",) if wants_language else ())
        self._shared = Shared(max_pending)
        self._dispatcher = Dispatcher(
            self._shared,
            size=workers,
            timeout=timeout,
            method=method,
            options=self.options,
            target=_target_spec(target),
            ctx=ctx,
            on_stopped=lambda: _POOLS.discard(self),
            max_memory=max_memory,
            nice=nice,
        )
        _POOLS.add(self)
        try:  # up front, so a pool that cannot start says so here
            for _ in range(workers):
                self._dispatcher.start_worker()
        except Exception as exc:
            self.close(wait=False)  # the dispatcher cleans up what did start
            raise PoolClosed(f"cannot start a worker process: {describe_error(exc)}") from exc
        # From here on the dispatcher thread alone touches workers and pipes.
        self._dispatcher.thread.start()

    # ------------------------------------------------------------------ public API

    def submit(
        self,
        body: bytes,
        *,
        encoding: str | None = None,
        content_type: str | None = None,
        url: str | None = None,
    ) -> JobFuture:
        """Queue one page; never blocks.

        The future resolves to an :class:`Extraction` (with ``error`` set when
        the target raised), or fails with :class:`WorkerTimeout`,
        :class:`WorkerCrashed`, :class:`WorkerOutOfMemory` or :class:`PoolClosed`; its ``worker_seconds``
        tells how long of that the page spent in a worker. Raises :class:`PoolFull`
        when ``max_pending`` jobs are in flight and the closing error when the
        pool is closed.
        """
        if not isinstance(body, (bytes, bytearray, memoryview)):
            raise TypeError(f"body must be bytes, got {type(body).__name__}")
        fut = JobFuture()
        shared = self._shared
        with shared.lock:
            if shared.state is not Lifecycle.OPEN:
                raise shared.fresh_close_error()
            if shared.pending >= self.max_pending:
                raise PoolFull(f"{shared.pending} jobs in flight (max_pending={self.max_pending})")
            shared.pending += 1
            shared.next_id += 1
            shared.stats["submitted"] += 1
            shared.queue.append(Job(shared.next_id, fut, (bytes(body), encoding, content_type, url)))
            shared.wake()
        # Runs first among the future's callbacks, so capacity is back before
        # the caller's own callbacks (which may submit again) run.
        fut.add_done_callback(shared.job_done)
        return fut

    @property
    def pending(self) -> int:
        """Jobs queued or running."""
        return self._shared.pending

    @property
    def capacity(self) -> int:
        """How many more jobs :meth:`submit` accepts right now."""
        return max(0, self.max_pending - self._shared.pending)

    @property
    def closed(self) -> bool:
        return self._shared.state is not Lifecycle.OPEN

    @property
    def state(self) -> Lifecycle:
        """Where the pool is in its life: open, draining, aborting or stopped."""
        return self._shared.state

    @property
    def pids(self) -> list[int]:
        """Process ids of the current workers (for monitoring and tests)."""
        return [w.process.pid for w in list(self._dispatcher.workers) if w.process.pid is not None]

    def wait_for_capacity(self) -> Future[None]:
        """A future that completes when :meth:`submit` may succeed again.

        It completes when a job finishes and this caller is the longest
        waiting one (or when the pool closes); another caller may still take
        the freed slot first, so loop: submit, and on :class:`PoolFull` await
        this and retry.
        """
        fut: Future[None] = Future()
        shared = self._shared
        with shared.lock:
            if shared.pending < self.max_pending or shared.state is not Lifecycle.OPEN:
                fut.set_result(None)
            else:
                shared.waiters.append(fut)
        return fut

    def stats(self) -> dict[str, int]:
        """Counters: submitted, completed (results, errors included), errors
        (target raised), timeouts, crashes, memory_errors (pages over
        ``max_memory``), restarts; plus pending and workers."""
        with self._shared.lock:
            out = dict(self._shared.stats)
            out["pending"] = self._shared.pending
        out["workers"] = len(self._dispatcher.workers)
        return out

    def close(self, wait: bool = True) -> None:
        """Stop accepting work and shut the workers down; idempotent.

        ``wait=True`` lets queued and running jobs finish (each still bounded
        by ``timeout``); ``wait=False`` fails them with :class:`PoolClosed` and
        kills busy workers. A later ``close(wait=False)`` (e.g. a second
        Ctrl-C, or ``atexit``) escalates a waiting close. Called from a future
        callback (the dispatcher thread) it only starts the shutdown.
        """
        self._shared.request_close(None, drain=wait)
        thread = self._dispatcher.thread
        if threading.current_thread() is not thread:
            if thread.ident is None:  # __init__ failed before starting it
                thread.start()
            thread.join()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(wait=exc_info[0] is None)

    def __repr__(self) -> str:
        return f"<WorkerPool workers={self.workers} pending={self.pending} state={self.state.value}>"
