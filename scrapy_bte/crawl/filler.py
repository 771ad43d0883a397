"""Putting extractions into items: one set of rules for every component.

The spider middleware fills the items a callback yields from the
response's extraction; the item pipeline fills items that carry their own
HTML or an :class:`~scrapy_bte.result.Extraction`. Both go through one
:class:`ItemFiller`, so the rules (which fields, which items are left
alone, the one error for a bad item class) are the same whichever
component fills an item.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

from ..result import SCORE_KEYS, Extraction
from .settings import FLAT_SCORE_FIELDS, BTEConfig

if TYPE_CHECKING:
    from .crawl_stats import CrawlStats

logger = logging.getLogger(__name__)


def with_values(item: Any, changes: dict[str, Any]) -> Any:
    """*item* with the fields of ``changes`` set: written into it, or, where its class is frozen
    (``@dataclass(frozen=True)``, ``@attrs.frozen``), a copy made with them. Writing into a frozen
    item raised out of the spider middleware and lost it with every later item of its callback."""
    adapter = ItemAdapter(item)
    try:
        for name, value in changes.items():
            adapter[name] = value
    except AttributeError:  # FrozenInstanceError, dataclasses' and attrs' alike
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return dataclasses.replace(item, **changes)
        import attrs  # installed with Twisted, as Scrapy is

        if attrs.has(type(item)):
            return attrs.evolve(item, **changes)
        raise
    return item


def is_unset(value: Any) -> bool:
    """A text field counts as unset when missing, None or empty."""
    return value is None or (isinstance(value, (str, bytes)) and not value)


class ItemFiller:
    """Writes an :class:`Extraction` into any item type itemadapter supports."""

    def __init__(self, config: BTEConfig, stats: CrawlStats) -> None:
        self.config = config
        self.stats = stats
        self._missing_by_class: dict[type, tuple[str, ...]] = {}
        self._fields_by_class: dict[type, tuple[str, ...]] = {}

    def missing_fields(self, item: Any) -> tuple[str, ...]:
        """Fields this crawl writes that the item's class does not declare.

        Free-form items (dicts) never miss a field. The answer is cached per
        class and the first time a class misses fields one ERROR is logged:
        without it every item would fail later, deep inside an exporter.
        """
        cls = type(item)
        missing = self._missing_by_class.get(cls)
        if missing is None:
            declared = ItemAdapter.get_field_names_from_class(cls)
            missing = (
                () if declared is None else tuple(name for name in self.config.wanted_fields() if name not in declared)
            )
            self._missing_by_class[cls] = missing
            if missing:
                logger.error(
                    "scrapy-bte: item class %s.%s lacks the field(s) %s that scrapy-bte"
                    " writes; its items are exported without text or scores. Declare"
                    " the fields or change BTE_TEXT_FIELD / BTE_SCORES_FIELD /"
                    " BTE_FLAT_SCORES.",
                    cls.__module__,
                    cls.__qualname__,
                    ", ".join(missing),
                )
        return missing

    def article_fields(self, item: Any) -> tuple[str, ...]:
        """The ``BTE_FIELDS`` this item can take: all for free-form items, the declared ones otherwise.

        Not declaring an article field is a choice, not an error: the item
        still gets its text and scores.
        """
        cls = type(item)
        names = self._fields_by_class.get(cls)
        if names is None:
            declared = ItemAdapter.get_field_names_from_class(cls)
            names = self.config.fields if declared is None else tuple(n for n in self.config.fields if n in declared)
            self._fields_by_class[cls] = names
        return names

    def _fill_fields(self, changes: dict[str, Any], adapter: ItemAdapter, extraction: Extraction | None) -> None:
        """Article fields the spider has not set, from ``extraction`` (None: empty columns)."""
        for name in self.article_fields(adapter.item):
            if is_unset(adapter.get(name)):
                changes[name] = getattr(extraction, name) if extraction is not None else None

    def has_text(self, item: Any) -> bool:
        """Items whose text field is already set are left alone."""
        return not is_unset(ItemAdapter(item).get(self.config.text_field))

    def needs_text(self, item: Any) -> bool:
        """Whether the *response's* extraction should go into *item*.

        Items that carry their own HTML (``BTE_HTML_FIELD``) are left to the
        pipeline, which extracts from that HTML instead.
        """
        if self.has_text(item):
            return False
        html_field = self.config.html_field
        return html_field is None or is_unset(ItemAdapter(item).get(html_field))

    def check(self, item: Any) -> bool:
        """Whether *item* can take the fields; counts ``bte/errors/item_fields`` if not."""
        if self.missing_fields(item):
            self.stats.inc("bte/errors/item_fields")
            return False
        return True

    def fill(self, item: Any, extraction: Extraction) -> Any:
        """Write text, scores and the article fields into *item* (call :meth:`check` first);
        returns the item, a copy where its class is frozen (:func:`with_values`)."""
        adapter = ItemAdapter(item)
        changes: dict[str, Any] = {self.config.text_field: extraction.text}
        self._scores(changes, extraction.scores())
        self._fill_fields(changes, adapter, extraction)
        if extraction.comments is not None and self.config.comments:
            # An optional field: classes that do not declare it still get their text.
            declared = ItemAdapter.get_field_names_from_class(type(item))
            if (declared is None or "comments" in declared) and is_unset(adapter.get("comments")):
                changes["comments"] = extraction.comments
        item = with_values(item, changes)
        self.stats.inc("bte/items")
        return item

    def fill_skipped(self, item: Any, reason: str) -> Any:
        """Say in *item* why it has no text: empty text, and scores that are
        all None but ``error = "skipped: <reason>"``. Nested and flat alike,
        so every exported item explains itself, and a CSV exporter (which
        takes its columns from the first item it sees) gets every column.
        Returns the item, as :meth:`fill` does."""
        changes: dict[str, Any] = {self.config.text_field: ""}
        scores: dict[str, Any] = dict.fromkeys(SCORE_KEYS)
        scores["error"] = f"skipped: {reason}"
        self._scores(changes, scores)
        self._fill_fields(changes, ItemAdapter(item), None)
        return with_values(item, changes)

    def _scores(self, changes: dict[str, Any], scores: dict[str, Any]) -> None:
        if self.config.flat_scores:
            # Every flat field is always written (bte_error = None on success)
            # so a CSV exporter that takes its columns from the first item
            # still has a bte_error column for later failures.
            for key, name in FLAT_SCORE_FIELDS.items():
                changes[name] = scores.get(key)
        elif self.config.scores_field is not None:
            changes[self.config.scores_field] = scores

    def scores_of(self, item: Any) -> dict[str, Any] | None:
        """The scores this crawl wrote into *item* (nested or flat), or None if it wrote none."""
        adapter = ItemAdapter(item)
        if self.config.flat_scores:
            if FLAT_SCORE_FIELDS["method"] not in adapter:
                return None
            return {key: adapter.get(name) for key, name in FLAT_SCORE_FIELDS.items()}
        if self.config.scores_field is None:
            return None
        scores = adapter.get(self.config.scores_field) if self.config.scores_field in adapter else None
        return scores if isinstance(scores, dict) else None
