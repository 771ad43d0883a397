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
