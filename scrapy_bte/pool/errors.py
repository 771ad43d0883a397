"""What the worker pool raises, or fails a job's future with."""

from __future__ import annotations

from ..errors import BTEError, ExtractionError


class WorkerTimeout(ExtractionError):
    """A job ran longer than the pool's ``timeout``; its worker was killed."""


class WorkerCrashed(ExtractionError):
    """The worker running a job died (segfault, ``os._exit``, OOM kill)."""


class WorkerOutOfMemory(ExtractionError):
    """A job needed more than the pool's ``max_memory``; its worker was replaced."""


class PoolFull(BTEError):
    """``max_pending`` jobs are already queued or running; nothing was queued.

    Await :meth:`WorkerPool.wait_for_capacity` and submit again.
    """


class PoolClosed(BTEError, RuntimeError):
    """The pool is closed (or broke) and accepts or finishes no more work."""
