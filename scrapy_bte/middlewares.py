"""The downloader and spider middlewares: where responses meet the runtime.

The downloader middleware extracts every accepted response into
``request.meta["bte"]``; the spider middleware fills the items a callback
yields. Both delegate the work to the crawler's
:class:`~scrapy_bte.runtime.BTERuntime`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from itemadapter import is_item
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response

from .result import Extraction
from .runtime import BTERuntime

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from scrapy.crawler import Crawler

    # typing.Self requires Python 3.11
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class BTEDownloaderMiddleware:
    """Extracts every final 2xx HTML response into ``request.meta["bte"]``.

    Runs below HttpCompressionMiddleware (590) and RetryMiddleware (550) so it
    sees decompressed bodies of responses that will not be retried; callbacks
    read ``response.meta["bte"]``.
    """

    def __init__(self, runtime: BTERuntime) -> None:
        self.runtime = runtime
        runtime.downloader_enabled = True

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(BTERuntime.for_crawler(crawler))

    async def process_response(self, request: Request, response: Response) -> Response:
        runtime = self.runtime
        if runtime.skip_reason(request, response) is not None:
            return response
        extraction = await runtime.extract_response(response)
        request.meta["bte"] = extraction
        min_words = runtime.config.min_words
        if min_words and extraction.error is None and extraction.words < min_words:
            runtime.stats.inc("bte/dropped/too_short")
            logger.debug(
                "scrapy-bte: dropped %s: %d word(s) < BTE_MIN_WORDS=%d", response.url, extraction.words, min_words
            )
            raise IgnoreRequest(f"main text has {extraction.words} word(s) < BTE_MIN_WORDS={min_words}")
        return response


class BTESpiderMiddleware:
    """Fills the items a callback yields with its response's text and scores.

    This is the zero-code path: a spider yielding ``{"url": response.url}``
    gets ``text`` and ``bte`` without touching ``response.meta``. Because the
    middleware sees each response together with its callback's output, it
    needs no URL cache, and redirects and several items per page just work.
    Without the downloader middleware it extracts the response itself, lazily,
    only when the callback yields an item that needs text.
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
                    filler.fill(obj, extraction)
                elif response.request is not None:
                    filler.fill_skipped(obj, response.request.meta.get("bte_skipped", "not extracted"))
            yield obj

    async def _extraction_for(self, response: Response) -> Extraction | None:
        request = response.request
        meta = request.meta if request is not None else {}
        found = meta.get("bte")
        if isinstance(found, Extraction) or self.runtime.downloader_enabled or request is None:
            # With the downloader middleware on, a missing result means the
            # response was skipped on purpose (non-HTML, too large, dont_bte).
            return found if isinstance(found, Extraction) else None
        if self.runtime.skip_reason(request, response) is not None:
            return None
        extraction = await self.runtime.extract_response(response)
        meta["bte"] = extraction
        return extraction
