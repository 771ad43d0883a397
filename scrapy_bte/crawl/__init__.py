"""The Scrapy layer: the add-on, its middlewares and pipeline, and what they share.

The add-on (:mod:`.addon`) enables the downloader and spider middlewares
(:mod:`.middlewares`) and the item pipeline (:mod:`.pipelines`); they share
one per-crawler runtime (:mod:`.runtime`: worker pool, skip rules), which
fills items (:mod:`.filler`), reads the ``BTE_*`` settings (:mod:`.settings`)
and counts into the crawler's stats (:mod:`.crawl_stats`). The only package
that imports Scrapy, itemadapter, parsel or Twisted. Nothing is imported
here, so loading the add-on does not load the components before the reactor
is installed. The documented import paths are ``scrapy_bte.Addon``,
``scrapy_bte.BTEDownloaderMiddleware``, ``scrapy_bte.BTESpiderMiddleware``
and ``scrapy_bte.BTEItemPipeline``; ``scrapy_bte.addon``,
``scrapy_bte.middlewares`` and ``scrapy_bte.pipelines`` (the paths of 0.1.0)
keep working.
"""
