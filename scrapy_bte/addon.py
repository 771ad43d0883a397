"""``scrapy_bte.addon.Addon``: the add-on's documented path since 0.1.0, kept working; the code is in :mod:`scrapy_bte.crawl.addon`."""

from .crawl.addon import Addon

__all__ = ["Addon"]
