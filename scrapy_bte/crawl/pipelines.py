"""The item pipeline: extraction from an item's HTML field, and items finished for export.

It handles what only a pipeline can see: raw HTML carried in an item field
(``BTE_HTML_FIELD``) and :class:`~scrapy_bte.result.Extraction` objects a
spider put into the scores field itself. Items are filled by the
crawler's shared :class:`~scrapy_bte.crawl.filler.ItemFiller`. ``BTE_MIN_WORDS``
and ``BTE_DEDUPLICATE`` drop items here, with ``DropItem``: only a pipeline
can, and a dropped item must never take the response (and the links the
crawl follows from it) with it.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from ..core.fingerprint import NearDuplicateIndex, from_hex
from ..result import Extraction
from .filler import is_unset, with_values
from .runtime import BTERuntime

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    # typing.Self requires Python 3.11
    from typing_extensions import Self


class BTEItemPipeline:
    """Extracts from an item's HTML field and finishes items for export.

    * ``BTE_HTML_FIELD``: items carrying raw HTML get text and scores from it
      (extracted in the worker pool like responses), and with
      ``BTE_DROP_HTML_FIELD`` the HTML is removed before export.
    * An :class:`Extraction` placed in the scores field by a spider (e.g.
      ``{"bte": response.meta["bte"]}`` when only the downloader middleware
      is enabled) is turned into text and scores, so exporters never see an
      object they cannot serialise.
    * ``BTE_MIN_WORDS`` and ``BTE_DEDUPLICATE`` drop items here, never
      responses (whose links the crawl still needs), and only items that
      were extracted without error: an item of a skipped or failed page
      keeps its reason and is exported.
    """

    def __init__(self, runtime: BTERuntime) -> None:
        self.runtime = runtime
        self.config = runtime.config
        self.filler = runtime.filler
        self.seen = NearDuplicateIndex(self.config.deduplicate_distance) if self.config.deduplicate else None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(BTERuntime.for_crawler(crawler))

    async def process_item(self, item: Any) -> Any:
        item = await self._finish(item)
        if self.config.min_words or self.seen is not None:
            self._filter(item)
        return item

    def _filter(self, item: Any) -> None:
        """Raise ``DropItem`` (logged at DEBUG, counted) for a short or near-duplicate text."""
        scores = self.filler.scores_of(item)
        if scores is None or scores.get("error") is not None:
            return
        words = scores.get("words")
        min_words = self.config.min_words
        if min_words and isinstance(words, (int, float)) and words < min_words:
            self.runtime.stats.inc("bte/dropped/too_short")
            raise DropItem(f"main text has {words} word(s) < BTE_MIN_WORDS={min_words}", log_level="DEBUG")
        fingerprint = scores.get("fingerprint")
        if self.seen is not None and isinstance(fingerprint, str):
            try:
                value = from_hex(fingerprint)
            except ValueError:
                return
            earlier = self.seen.check(value)
            if earlier is not None:
                self.runtime.stats.inc("bte/dropped/duplicate")
                raise DropItem(
                    f"near-duplicate text: fingerprint {fingerprint} is close to {earlier:016x}", log_level="DEBUG"
                )

    async def _finish(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        filler = self.filler
        carried_field = self.config.scores_field or "bte"
        carried = adapter.get(carried_field) if carried_field in adapter else None
        if isinstance(carried, Extraction):
            # Never let the object itself reach an exporter.
            if self.config.flat_scores or self.config.scores_field is None:
                item = self._remove(item, carried_field)
            else:
                item = with_values(item, {carried_field: carried.scores()})
            if not filler.has_text(item) and filler.check(item):
                item = filler.fill(item, carried)
            return item
        html_field = self.config.html_field
        if html_field is None or html_field not in adapter:
            return item
        html = adapter.get(html_field)
        if not is_unset(html) and not filler.has_text(item) and filler.check(item):
            # Every item with HTML of its own says what became of it: its text, or why none.
            if isinstance(html, (str, bytes)) and len(html) <= self.config.max_bytes:
                url = adapter.get("url")
                extraction = await self.runtime.extract(html, url=url if isinstance(url, str) else None)
                item = filler.fill(item, extraction)
            else:
                reason = "too_large" if isinstance(html, (str, bytes)) else "html_not_text"
                self.runtime.stats.inc(f"bte/skipped/{reason}")
                item = filler.fill_skipped(item, reason)
        if self.config.drop_html_field:
            item = self._remove(item, html_field)
        return item

    @staticmethod
    def _remove(item: Any, name: str) -> Any:
        """Remove a field: dicts and scrapy Items lose the key; dataclass and
        attrs items get None (deleting their attribute would break them), frozen ones in a copy."""
        if isinstance(item, MutableMapping):
            item.pop(name, None)
            return item
        return with_values(item, {name: None})
