"""scrapy-bte: the main text of every page a Scrapy crawl fetches.

Bytes become a document model (:mod:`.core`), methods pick its main text
(:mod:`.methods`, :mod:`.learned`), :func:`extract` returns an
:class:`Extraction`; the worker pool (:mod:`.pool`), training
(:mod:`.training`), the command line and the Scrapy layer (:mod:`.crawl`:
add-on, settings, middlewares, pipeline, runtime) sit on top. Only the Scrapy layer
imports Scrapy; its components are loaded lazily so ``import scrapy_bte``
stays cheap in worker processes.
"""

from __future__ import annotations

from typing import Any

from .api import extract
from .core.accel import ACCELERATED, warn_if_missing
from .errors import BTEError, ConfigError, ExtractionError, ModelError
from .result import Extraction

__version__ = "0.1.0"

warn_if_missing()

__all__ = [
    "ACCELERATED",
    "Addon",
    "BTEDownloaderMiddleware",
    "BTEError",
    "BTEItemPipeline",
    "BTESpiderMiddleware",
    "ConfigError",
    "Extraction",
    "ExtractionError",
    "ModelError",
    "PoolFull",
    "WorkerPool",
    "extract",
]

_LAZY = {
    "Addon": ("scrapy_bte.crawl.addon", "Addon"),
    "BTEDownloaderMiddleware": ("scrapy_bte.crawl.middlewares", "BTEDownloaderMiddleware"),
    "BTESpiderMiddleware": ("scrapy_bte.crawl.middlewares", "BTESpiderMiddleware"),
    "BTEItemPipeline": ("scrapy_bte.crawl.pipelines", "BTEItemPipeline"),
    "PoolFull": ("scrapy_bte.pool", "PoolFull"),
    "WorkerPool": ("scrapy_bte.pool", "WorkerPool"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'scrapy_bte' has no attribute {name!r}")
