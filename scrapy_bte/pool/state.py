"""What the pool's callers and its dispatcher thread share, behind one lock.

Callers on any thread queue jobs, wait for capacity and close the pool; the
dispatcher thread takes jobs and completes their futures. Everything here
is read and written under :attr:`Shared.lock`; the wake-up pipe lets a
caller interrupt the dispatcher's wait.
"""

from __future__ import annotations

import enum
import os
import threading
from collections import deque
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import Any

from .errors import PoolClosed

#: The counters :meth:`WorkerPool.stats` reports.
STATS = ("submitted", "completed", "errors", "timeouts", "crashes", "memory_errors", "restarts")


class Lifecycle(enum.Enum):
    """The pool's life, in the only order it moves: open, then draining or
    aborting (draining may still turn into aborting), then stopped."""

    #: Accepting jobs.
    OPEN = "open"
    #: ``close(wait=True)``: no new jobs; queued and running ones finish.
    DRAINING = "draining"
    #: ``close(wait=False)`` or a failure: queued and running jobs fail, busy workers are killed.
    ABORTING = "aborting"
    #: The dispatcher has shut everything down.
    STOPPED = "stopped"


class JobFuture(Future):
    """The future :meth:`WorkerPool.submit` returns, with the page's time in a worker.

    ``worker_seconds`` is set before the future completes: seconds from
    handing the page to a worker to its reply, timeout or crash; ``None``
    if the page never reached one (the pool closed first). What a caller
    waits beyond it was spent in the queue, waiting for a free worker.
    """

    worker_seconds: float | None = None


@dataclass(eq=False)
class Job:
    """One page on its way through the pool."""

    id: int
    future: JobFuture
    payload: tuple[bytes, str | None, str | None, str | None]  # body, encoding, content type, URL
    dispatched: float | None = None  # time.monotonic() when a worker took it

    def ran_until(self, now: float) -> None:
        """Record the page's time in its worker on the future, before it completes."""
        if self.dispatched is not None:
            self.future.worker_seconds = now - self.dispatched

    def describe(self) -> str:
        """The page's URL for messages, or the job's number."""
        url = self.payload[3]
        return repr(url) if url else f"job {self.id}"


def settle(fut: Future, result: Any = None, exc: BaseException | None = None) -> None:
    """Complete ``fut`` unless the caller cancelled it meanwhile."""
    try:
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)
    except InvalidStateError:
        pass


class Shared:
    """The queue, the counters and the lifecycle, guarded by :attr:`lock`."""

    def __init__(self, max_pending: int | None = None) -> None:
        self.lock = threading.Lock()
        self.queue: deque[Job] = deque()
        self.pending = 0
        self.max_pending = max_pending
        self.next_id = 0
        self.waiters: deque[Future[None]] = deque()
        self.stats = dict.fromkeys(STATS, 0)
        self.state = Lifecycle.OPEN
        self.close_error: BaseException = PoolClosed("the worker pool is closed")
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)

    def wake(self) -> None:
        """Interrupt the dispatcher's wait (call with :attr:`lock` held)."""
        if self.state is not Lifecycle.STOPPED:
            try:
                os.write(self.wake_w, b"x")
            except BlockingIOError:  # pipe full: the dispatcher is awake anyway
                pass

    def fresh_close_error(self) -> BaseException:
        """A new instance of the error closed pools raise (one per caller)."""
        err = self.close_error
        return type(err)(*err.args)

    def request_close(self, error: BaseException | None, *, drain: bool) -> None:
        """Move to draining or aborting (``error`` says why, the first time);
        a later request without ``drain`` escalates a drain."""
        with self.lock:
            if self.state is Lifecycle.OPEN:
                self.state = Lifecycle.DRAINING if drain else Lifecycle.ABORTING
                if error is not None:
                    self.close_error = error
            elif not drain and self.state is Lifecycle.DRAINING:
                self.state = Lifecycle.ABORTING
            waiters, self.waiters = self.waiters, deque()
            self.wake()
        for w in waiters:
            settle(w)

    def job_done(self, _fut: Future) -> None:
        """A job's future completed: its slot is free, and the longest waiting caller may retry.

        One waiter per free slot, oldest first, skipping those their callers
        cancelled: waking every waiter for one slot (a crawl can have hundreds
        waiting) made each finished page cost a retry of every waiting page,
        all but one of them failing again.
        """
        woken = []
        with self.lock:
            self.pending -= 1
            free = 1 if self.max_pending is None else self.max_pending - self.pending
            while free > 0 and self.waiters:
                w = self.waiters.popleft()
                if not w.done():
                    woken.append(w)
                    free -= 1
        for w in woken:
            settle(w)

    def count(self, key: str) -> None:
        with self.lock:
            self.stats[key] += 1

    def stop(self) -> None:
        """The dispatcher's last step: nothing will wake it again."""
        with self.lock:
            self.state = Lifecycle.STOPPED
            os.close(self.wake_r)
            os.close(self.wake_w)
