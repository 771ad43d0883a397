"""The Scrapy add-on: ``ADDONS = {"scrapy_bte.Addon": 100}`` enables everything."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from .settings import SETTINGS, as_bool

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

DOWNLOADER_MIDDLEWARE_PRIORITY = 540
"""Below HttpCompressionMiddleware (590) and RetryMiddleware (550): the
middleware sees decompressed bodies of final (not retried) responses."""

SPIDER_MIDDLEWARE_PRIORITY = 950
"""Close to the spider, so other spider middlewares already see filled items."""

ITEM_PIPELINE_PRIORITY = 100
"""Early, so the project's own pipelines see text and scores."""

LARGE_PAGE_BYTES = 1_000_000
"""A large HTML page (98 % of the 3,667 development pages are smaller, 94 % of WCXB's pages of
2025): the room per concurrent request the add-on adds to Scrapy's scraper budget (:func:`scraper_budget`).
A crawl of mercury's and WCXB's pages (258 kB on average, 64 concurrent requests) ran at 91-96 % of
its speed without the add-on with 400 kB a request (30.6 MB), at 97-98 % with this (69 MB)."""


class Addon:
    """Enables the downloader middleware, spider middleware and item pipeline.

    Components the project already lists (by class or import path, with any
    priority, or ``None`` to disable one) are left as listed, and the
    ``BTE_*`` defaults are set with ``"addon"`` priority so project, spider
    and command-line settings win.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        if not as_bool("BTE_ENABLED", settings.get("BTE_ENABLED", True)):
            raise NotConfigured("BTE_ENABLED is False")
        # Imported here: the add-on is loaded before the reactor is installed,
        # and the components must not be imported earlier than needed.
        from .middlewares import BTEDownloaderMiddleware, BTESpiderMiddleware
        from .pipelines import BTEItemPipeline

        for spec in SETTINGS:
            settings.set(spec.name, copy.deepcopy(spec.default), priority="addon")
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", BTEDownloaderMiddleware, DOWNLOADER_MIDDLEWARE_PRIORITY
        )
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", BTESpiderMiddleware, SPIDER_MIDDLEWARE_PRIORITY
        )
        settings.setdefault_in_component_priority_dict("ITEM_PIPELINES", BTEItemPipeline, ITEM_PIPELINE_PRIORITY)
        budget = scraper_budget(settings)
        if budget is not None:
            settings.set("SCRAPER_SLOT_MAX_ACTIVE_SIZE", budget, priority="addon")


def scraper_budget(settings: BaseSettings) -> int | None:
    """``SCRAPER_SLOT_MAX_ACTIVE_SIZE`` with room for the responses waiting for their extraction,
    or None where none wait there.

    With ``BTE_EXTRACT = "items"`` a response is extracted while it sits in
    Scrapy's scraper, so its bytes count against the scraper's budget
    (5 MB by default) for the time it waits for a free worker and is
    extracted. Above the budget the engine pauses new requests: a burst of
    large pages then stalls downloads that the worker pool could have
    queued (its own bound is ``BTE_MAX_PENDING``). The add-on adds a large
    page per concurrent request, which is how many responses the downloader
    can hand over while earlier ones wait. With ``BTE_WORKERS = 0`` pages are
    extracted inline and never wait; in ``"responses"`` mode they wait in
    the downloader's slots. A value the project, spider or command line
    sets wins (the add-on's priority is lower).
    """
    if settings.get("BTE_EXTRACT") != "items":
        return None
    try:
        inline = settings.get("BTE_WORKERS") is not None and int(settings.get("BTE_WORKERS")) == 0
        base = settings.getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE")
        concurrency = max(1, settings.getint("CONCURRENT_REQUESTS"))
    except (TypeError, ValueError):
        return None  # left as set: BTEConfig (or Scrapy) names the bad value when the crawl starts
    return None if inline else base + concurrency * LARGE_PAGE_BYTES
