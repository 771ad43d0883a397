"""``scrapy_bte.middlewares.*``: the middlewares' documented paths since 0.1.0, kept working; the code is in :mod:`scrapy_bte.crawl.middlewares`."""

from .crawl.middlewares import BTEDownloaderMiddleware, BTESpiderMiddleware

__all__ = ["BTEDownloaderMiddleware", "BTESpiderMiddleware"]
