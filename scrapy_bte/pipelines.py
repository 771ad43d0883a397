"""``scrapy_bte.pipelines.BTEItemPipeline``: the pipeline's documented path since 0.1.0, kept working; the code is in :mod:`scrapy_bte.crawl.pipelines`."""

from .crawl.pipelines import BTEItemPipeline

__all__ = ["BTEItemPipeline"]
