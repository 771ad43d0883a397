"""The pool's dispatcher thread: the one owner of the worker processes and their pipes.

It waits on the worker connections, the process sentinels and the wake-up
pipe with :func:`multiprocessing.connection.wait`, with a timeout computed
from the nearest job deadline; it starts and replaces workers, hands them
jobs, completes the jobs' futures, kills workers that overrun ``timeout``
and shuts everything down when the pool closes. Its state lives in
:class:`Dispatcher` and no other thread touches it (the pool's constructor
starts the first workers before the thread runs).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from ..errors import ConfigError
from ..result import Extraction
from .child import OUT_OF_MEMORY, SINGLE_THREAD_ENV, describe_error, worker_main
from .errors import PoolClosed, WorkerCrashed, WorkerOutOfMemory, WorkerTimeout
from .state import Job, Lifecycle, Shared, settle

logger = logging.getLogger("scrapy_bte.pool")

#: Seconds between SIGTERM and SIGKILL for a worker being stopped.
KILL_GRACE = 0.5
#: Upper bound on one dispatcher wait, so a missed wake-up costs little.
_POLL = 0.5
#: Workers dying before they are ready this many times in a row break the pool
#: (a crash loop would otherwise spin forever re-importing a broken target).
_MAX_STARTUP_FAILURES = 3
#: Workers killed (SIGKILL, SIGTERM) before they are ready: the OOM killer or an operator, not a
#: broken target. A busy machine, whose workers start slowly at nice +10, saw three in a row and
#: lost its pool for the rest of the crawl; this many in a row still ends a loop that never starts.
_MAX_STARTUP_KILLS = 20
_KILLED = frozenset((signal.SIGKILL, signal.SIGTERM))


@contextlib.contextmanager
def _single_threaded_children() -> Iterator[None]:
    """Start a process (and a fork server, the first time) with numeric
    libraries limited to one thread, unless the user chose otherwise.

    A worker runs one page at a time, so BLAS threads would only compete
    for the cores the other workers use, and each reserves memory that
    counts against the worker's cap. The variables are set only around the
    start, so this process and its other children keep their environment.
    """
    added = [name for name in SINGLE_THREAD_ENV if name not in os.environ]
    for name in added:
        os.environ[name] = "1"
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "exit status unknown"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name} ({code})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


@dataclass(eq=False)
class _Worker:
    process: Any  # multiprocessing.process.BaseProcess
    conn: Connection
    ready: bool = False
    conn_open: bool = True
    job: Job | None = None
    deadline: float = float("inf")


class Dispatcher:
    """Everything the dispatcher thread owns, and the loop it runs."""

    def __init__(
        self,
        shared: Shared,
        *,
        size: int,
        timeout: float | None,
        method: str | None,
        options: dict[str, Any],
        target: str,
        ctx: Any,  # a multiprocessing context
        on_stopped: Callable[[], None],
        max_memory: int | None = None,
        nice: int = 0,
    ) -> None:
        self.shared = shared
        self.size = size
        self.timeout = timeout
        self.method = method
        self.options = options
        self.target = target
        self.ctx = ctx
        self.on_stopped = on_stopped
        self.max_memory = max_memory
        self.nice = nice
        self.workers: list[_Worker] = []
        self.dying: list[tuple[Any, float]] = []
        self.startup_failures = 0
        self.startup_kills = 0
        self.lifeline_r, self.lifeline_w = ctx.Pipe(duplex=False)
        self.thread = threading.Thread(target=self.run, name="bte-worker-pool", daemon=True)

    def run(self) -> None:
        shared = self.shared
        try:
            while True:
                with shared.lock:
                    state = shared.state
                    idle = not shared.queue
                if state is not Lifecycle.OPEN and (
                    state is not Lifecycle.DRAINING or (idle and all(w.job is None for w in self.workers))
                ):
                    break
                self.top_up()  # a drain, too, needs workers to finish the queue
                self.dispatch()
                self.wait_once()
        except BaseException as exc:  # never leave futures hanging
            logger.exception("scrapy-bte worker pool dispatcher failed")
            self.shared.request_close(PoolClosed(f"worker pool dispatcher failed: {describe_error(exc)}"), drain=False)
        finally:
            self.shutdown()

    def top_up(self) -> None:
        while len(self.workers) < self.size:
            try:
                self.start_worker()
            except Exception as exc:  # noqa: BLE001 - a worker that cannot start closes the pool with the reason
                self.shared.request_close(
                    PoolClosed(f"cannot start a worker process: {describe_error(exc)}"), drain=False
                )
                return
            self.shared.count("restarts")

    def start_worker(self) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        process = self.ctx.Process(
            target=worker_main,
            args=(child, self.lifeline_r, self.target, self.method, self.options, self.max_memory, self.nice),
            name="bte-worker",
            daemon=True,
        )
        try:
            with _single_threaded_children():
                process.start()
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        self.workers.append(_Worker(process, parent))

    def dispatch(self) -> None:
        for worker in self.workers:
            if not (worker.ready and worker.conn_open and worker.job is None):
                continue
            job = self.next_job()
            if job is None:
                return
            try:
                worker.conn.send((job.id,) + job.payload)
            except OSError:  # worker just died; its sentinel will report it
                worker.conn_open = False
                with self.shared.lock:
                    self.shared.queue.appendleft(job)
                continue
            worker.job = job
            job.dispatched = time.monotonic()
            worker.deadline = job.dispatched + self.timeout if self.timeout is not None else float("inf")

    def next_job(self) -> Job | None:
        while True:
            with self.shared.lock:
                if not self.shared.queue:
                    return None
                job = self.shared.queue.popleft()
            if job.future.running() or job.future.set_running_or_notify_cancel():
                return job

    def wait_once(self) -> None:
        now = time.monotonic()
        deadlines = [w.deadline for w in self.workers] + [t for _, t in self.dying]
        timeout = min([_POLL] + [max(0.0, d - now) for d in deadlines])
        by_handle: dict[Any, _Worker] = {}
        for w in self.workers:
            by_handle[w.process.sentinel] = w
            if w.conn_open:
                by_handle[w.conn] = w
        handles = [self.shared.wake_r, *by_handle, *(p.sentinel for p, _ in self.dying)]
        ready = wait(handles, timeout)
        if self.shared.wake_r in ready:
            try:
                while os.read(self.shared.wake_r, 4096):
                    pass
            except BlockingIOError:
                pass
        for handle in ready:
            worker = by_handle.get(handle)
            if worker is not None and handle is worker.conn and worker.conn_open:
                self.read(worker)
        for handle in ready:
            worker = by_handle.get(handle)
            if worker is not None and handle == worker.process.sentinel and worker in self.workers:
                self.on_exit(worker)
        self.enforce_deadlines()
        self.reap_dying()

    def read(self, worker: _Worker) -> None:
        try:
            msg = worker.conn.recv()
        except (EOFError, OSError):
            worker.conn_open = False  # exiting; the sentinel tells how
            return
        kind = msg[0]
        if kind == "ready":
            worker.ready = True
            self.startup_failures = self.startup_kills = 0
        elif kind == "fatal":
            self.shared.request_close(ConfigError(msg[1]), drain=False)
        elif worker.job is not None and kind == worker.job.id:
            job, worker.job, worker.deadline = worker.job, None, float("inf")
            job.ran_until(time.monotonic())
            ok, payload = msg[1], msg[2]
            if not ok and len(msg) > 3 and msg[3] == OUT_OF_MEMORY:
                # The worker exits after this reply; its sentinel brings the replacement.
                worker.conn_open = False
                self.shared.count("memory_errors")
                settle(
                    job.future,
                    exc=WorkerOutOfMemory(
                        f"extraction of {job.describe()} needed more than the worker memory cap"
                        f" ({self.max_memory} bytes); worker replaced ({payload})"
                    ),
                )
                return
            if ok:
                try:
                    result = Extraction.from_dict(payload)
                except Exception as exc:  # noqa: BLE001 - a malformed reply fails its job, not the dispatcher
                    ok, payload = False, f"malformed worker result: {describe_error(exc)}"
            if not ok:
                result = Extraction.failed(payload, method=self.method or "")
                self.shared.count("errors")
            self.shared.count("completed")
            settle(job.future, result)

    def on_exit(self, worker: _Worker) -> None:
        while worker.conn_open and worker.conn.poll():  # a reply sent just before dying
            self.read(worker)
        worker.process.join(1.0)  # sentinel is ready: this only reaps
        self.forget(worker)
        code = worker.process.exitcode
        if worker.job is not None:
            self.shared.count("crashes")
            worker.job.ran_until(time.monotonic())
            settle(
                worker.job.future,
                exc=WorkerCrashed(
                    f"worker pid {worker.process.pid} died ({_describe_exit(code)}) while extracting {worker.job.describe()}"
                ),
            )
        elif not worker.ready and self.shared.state is Lifecycle.OPEN:
            if code is not None and code < 0 and -code in _KILLED:
                self.startup_kills += 1
            else:
                self.startup_failures += 1
            if self.startup_failures >= _MAX_STARTUP_FAILURES or self.startup_kills >= _MAX_STARTUP_KILLS:
                self.shared.request_close(
                    WorkerCrashed(f"workers keep dying at startup (last: {_describe_exit(code)})"), drain=False
                )

    def forget(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.conn.close()
        worker.conn_open = False

    def enforce_deadlines(self) -> None:
        now = time.monotonic()
        for worker in [w for w in self.workers if w.deadline <= now]:
            job = worker.job
            assert job is not None
            self.forget(worker)
            self.kill_later(worker.process)
            self.shared.count("timeouts")
            job.ran_until(now)
            settle(
                job.future,
                exc=WorkerTimeout(f"extraction of {job.describe()} exceeded {self.timeout:g}s; worker killed"),
            )

    def kill_later(self, process: Any) -> None:
        if process.exitcode is None:
            process.terminate()
        self.dying.append((process, time.monotonic() + KILL_GRACE))

    def reap_dying(self) -> None:
        now = time.monotonic()
        still = []
        for process, kill_at in self.dying:
            if process.exitcode is not None:
                process.join()
            elif now >= kill_at:
                process.kill()
                still.append((process, float("inf")))
            else:
                still.append((process, kill_at))
        self.dying = still

    def shutdown(self) -> None:
        with self.shared.lock:
            queued, self.shared.queue = list(self.shared.queue), deque()
        for job in queued:
            settle(job.future, exc=self.shared.fresh_close_error())
        for worker in list(self.workers):
            if worker.job is not None:
                worker.job.ran_until(time.monotonic())
                settle(worker.job.future, exc=self.shared.fresh_close_error())
                self.kill_later(worker.process)
            else:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
                self.dying.append((worker.process, time.monotonic() + KILL_GRACE))
            self.forget(worker)
        while self.dying:
            self.reap_dying()
            if self.dying:
                wait([p.sentinel for p, _ in self.dying], 0.05)
        self.lifeline_w.close()
        self.lifeline_r.close()
        self.shared.stop()
        self.on_stopped()
