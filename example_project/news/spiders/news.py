"""The ``news`` spider: article pages of the bundled offline site, or of any site."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Response
from scrapy.linkextractors import LinkExtractor

#: Home page of the offline news site shipped with the project.
SITE_HOME = Path(__file__).resolve().parents[2] / "site" / "index.html"
#: Folders of the bundled site whose pages are items: the articles, and a forum thread, a topic
#: listing and a shop's product page (each item's ``page_type`` tells them apart).
BUNDLED_ITEM_FOLDERS = ("articles", "forum", "topics", "shop")


class NewsSpider(scrapy.Spider):
    """Yield ``{"url", "title"}`` per article; the scrapy-bte add-on adds ``text`` and ``bte``.

    Without arguments it crawls the bundled site (``example_project/site``)
    from its home page, follows the index and pagination links and yields the
    pages under ``articles/`` and its forum thread, topic listing and product
    page (``forum/``, ``topics/``, ``shop/``). With ``-a start_url=https://...``
    it crawls that site instead, following same-domain links and yielding an
    item for every HTML page, or only for URLs matching
    ``-a article_pattern=REGEX``. Bound such crawls with
    ``-s DEPTH_LIMIT=N -s CLOSESPIDER_PAGECOUNT=N`` (defaults in settings.py).
    """

    name = "news"

    def __init__(self, start_url: str | None = None, article_pattern: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bundled = start_url is None
        url = self.start_url = start_url or SITE_HOME.as_uri()
        parts = urlsplit(url)
        if parts.scheme == "file":
            folder = re.escape(url.rsplit("/", 1)[0] + "/")  # the start page's folder and below
            self.link_extractor = LinkExtractor(allow=[f"^{folder}"])
            if self.bundled:
                article_pattern = f"^{folder}(?:{'|'.join(BUNDLED_ITEM_FOLDERS)})/"
        else:
            # Same host and its subdomains; a port is part of what LinkExtractor compares.
            host = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname or ""
            self.link_extractor = LinkExtractor(allow_domains=[host])
        self.article_re = re.compile(article_pattern) if article_pattern else None

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        if spider.bundled:
            # Local files: no server to be polite to and a site small enough to crawl whole.
            # Priority "spider" still lets -s on the command line win.
            for name, value in {
                "DOWNLOAD_DELAY": 0,
                "AUTOTHROTTLE_ENABLED": False,
                "DEPTH_LIMIT": 0,
                "CLOSESPIDER_PAGECOUNT": 0,
            }.items():
                crawler.settings.set(name, value, priority="spider")
        return spider

    async def start(self) -> AsyncIterator[Any]:
        yield scrapy.Request(self.start_url)  # filtered like any link, so it is crawled once

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        if not isinstance(response, HtmlResponse):
            return  # images, PDFs, JSON, feeds ...: nothing to read or follow
        if self.article_re is None or self.article_re.search(response.url):
            yield {"url": response.url, "title": response.xpath("normalize-space(//h1)").get() or None}
        yield from response.follow_all(self.link_extractor.extract_links(response), callback=self.parse)
