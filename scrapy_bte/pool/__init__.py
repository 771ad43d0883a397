"""A process pool that runs extraction off the reactor thread.

The parent side (:mod:`.parent`: :class:`WorkerPool` and its dispatcher)
and the child side (:mod:`.child`: the loop each worker process runs).

Imports: :mod:`scrapy_bte.api` (in the workers), :mod:`scrapy_bte.result`
and :mod:`scrapy_bte.errors`. Never Scrapy or Twisted: the Scrapy layer
adapts the pool's futures to its reactor.
"""

from .child import run_extract
from .parent import (
    DEFAULT_TARGET,
    PoolClosed,
    PoolFull,
    WorkerCrashed,
    WorkerPool,
    WorkerTimeout,
    suggested_max_pending,
)

__all__ = [
    "DEFAULT_TARGET",
    "PoolClosed",
    "PoolFull",
    "WorkerCrashed",
    "WorkerPool",
    "WorkerTimeout",
    "run_extract",
    "suggested_max_pending",
]
