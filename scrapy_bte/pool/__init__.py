"""A process pool that runs extraction off the reactor thread.

The parent side: :class:`WorkerPool` (:mod:`.parent`), its dispatcher
thread (:mod:`.dispatcher`) and the state the two share, with the pool's
lifecycle (:mod:`.state`); the child side: the loop each worker process
runs (:mod:`.child`); what the pool raises (:mod:`.errors`); and how many
CPUs the process may really use, the default pool size (:mod:`.cpus`).

Imports: :mod:`scrapy_bte.api` (in the workers), :mod:`scrapy_bte.result`
and :mod:`scrapy_bte.errors`. Never Scrapy or Twisted: the Scrapy layer
adapts the pool's futures to its reactor.
"""

from .child import run_extract
from .errors import PoolClosed, PoolFull, WorkerCrashed, WorkerOutOfMemory, WorkerTimeout
from .parent import DEFAULT_TARGET, MIN_WORKER_MEMORY, WorkerPool, suggested_max_pending
from .state import JobFuture, Lifecycle

__all__ = [
    "DEFAULT_TARGET",
    "MIN_WORKER_MEMORY",
    "JobFuture",
    "Lifecycle",
    "PoolClosed",
    "PoolFull",
    "WorkerCrashed",
    "WorkerOutOfMemory",
    "WorkerPool",
    "WorkerTimeout",
    "run_extract",
    "suggested_max_pending",
]
