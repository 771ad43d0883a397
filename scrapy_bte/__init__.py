"""scrapy-bte: the main text of every page a Scrapy crawl fetches.

The core (``extract`` and the modules it reads) never imports Scrapy; the
Scrapy components are loaded lazily so ``import scrapy_bte`` stays cheap in
worker processes.
"""

from __future__ import annotations

from typing import Any

from .api import extract
from .errors import BTEError, ConfigError, ExtractionError, ModelError
from .result import Extraction

__version__ = "0.1.0"

__all__ = [
    "Addon",
    "BTEError",
    "BTEDownloaderMiddleware",
    "BTEItemPipeline",
    "BTESpiderMiddleware",
    "ConfigError",
    "Extraction",
    "ExtractionError",
    "ModelError",
    "extract",
]

_LAZY = {
    "Addon": ("scrapy_bte.addon", "Addon"),
    "BTEDownloaderMiddleware": ("scrapy_bte.middlewares", "BTEDownloaderMiddleware"),
    "BTESpiderMiddleware": ("scrapy_bte.middlewares", "BTESpiderMiddleware"),
    "BTEItemPipeline": ("scrapy_bte.pipelines", "BTEItemPipeline"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'scrapy_bte' has no attribute {name!r}")
