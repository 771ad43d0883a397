"""The downloader and spider middlewares: where responses meet the runtime.

The downloader middleware extracts accepted responses into
``request.meta["bte"]`` before their callback (``BTE_EXTRACT = "responses"``,
or ``meta["bte_extract"]``); the spider middleware fills the items a callback
yields, extracting the response at the first item that needs text when that
has not happened yet. Both delegate the work to the crawler's
:class:`~scrapy_bte.crawl.runtime.BTERuntime`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from itemadapter import is_item
from scrapy.http import Request, Response

from ..result import Extraction
from .runtime import BTERuntime

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from scrapy.crawler import Crawler

    # typing.Self requires Python 3.11
    from typing_extensions import Self


class BTEDownloaderMiddleware:
    """Extracts final 2xx HTML responses into ``request.meta["bte"]`` before their callback runs.

    Every response with ``BTE_EXTRACT = "responses"``; with ``"items"`` only
    those whose request has ``meta["bte_extract"] = True`` (the others are
    left to the spider middleware, which extracts where an item needs text).
    Runs below HttpCompressionMiddleware (590) and RetryMiddleware (550) so it
    sees decompressed bodies of responses that will not be retried; callbacks
    read ``response.meta["bte"]``. It never drops a response: the pages a
    crawl follows links from must reach their callbacks whatever their text.
    """

    def __init__(self, runtime: BTERuntime) -> None:
        self.runtime = runtime

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(BTERuntime.for_crawler(crawler))

    async def process_response(self, request: Request, response: Response) -> Response:
        runtime = self.runtime
        if not runtime.extracts_early(request) or runtime.skip_reason(request, response) is not None:
            return response
        request.meta["bte"] = await runtime.extract_response(response)
        return response


class BTESpiderMiddleware:
    """Fills the items a callback yields with its response's text and scores.

    This is the zero-code path: a spider yielding ``{"url": response.url}``
    gets ``text`` and ``bte`` without touching ``response.meta``. Because the
    middleware sees each response together with its callback's output, it
    needs no URL cache, and redirects and several items per page just work.
    Unless the downloader middleware extracted the response already
    (``BTE_EXTRACT = "responses"``, or ``meta["bte_extract"]``), it extracts
    the response itself, at the first item that needs text, and sets
    ``response.meta["bte"]`` then; a response no item needs is never
    extracted (``bte/extractions_saved``).
    """

    def __init__(self, runtime: BTERuntime) -> None:
        self.runtime = runtime

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(BTERuntime.for_crawler(crawler))

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        filler = self.runtime.filler
        extraction: Extraction | None = None
        looked_up = False
        async for obj in result:
            if not isinstance(obj, Request) and is_item(obj) and filler.needs_text(obj) and filler.check(obj):
                if not looked_up:
                    extraction = await self._extraction_for(response)
                    looked_up = True
                if extraction is not None:
                    obj = filler.fill(obj, extraction)
                else:
                    meta = response.request.meta if response.request is not None else {}
                    obj = filler.fill_skipped(obj, meta.get("bte_skipped", "not extracted"))
            yield obj
        if not looked_up:
            self._count_saved(response)

    def _count_saved(self, response: Response) -> None:
        """An HTML response that no item needed text from, left unextracted: count it."""
        request = response.request
        if request is None or isinstance(request.meta.get("bte"), Extraction) or "bte_skipped" in request.meta:
            return
        if self.runtime.classify(request, response) is None:
            self.runtime.stats.inc("bte/extractions_saved")

    async def _extraction_for(self, response: Response) -> Extraction | None:
        request = response.request
        if request is None:
            return None
        found = request.meta.get("bte")
        if isinstance(found, Extraction):
            return found
        if "bte_skipped" in request.meta or self.runtime.skip_reason(request, response) is not None:
            return None
        extraction = await self.runtime.extract_response(response)
        request.meta["bte"] = extraction
        return extraction
