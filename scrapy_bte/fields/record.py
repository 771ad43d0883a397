"""The article fields one page yields, and where each value came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import fields as _dc_fields
from typing import Any

#: Every field, in the order reports and items list them.
FIELD_NAMES = ("title", "author", "date", "modified", "description", "image", "site_name", "language", "canonical_url")

#: The fields read when nobody says which: what an article's reader cites and filters by.
DEFAULT_FIELDS = ("title", "author", "date", "description", "language", "image")

#: What an item (``BTE_FIELDS``) or a CSV row may hold: the article fields read from the markup,
#: and ``page_type``, which every extraction computes (see :mod:`scrapy_bte.learned.page_type`).
ITEM_FIELDS = (*FIELD_NAMES, "page_type")
#: ``BTE_FIELDS`` by default, and the fields of a CSV row.
DEFAULT_ITEM_FIELDS = (*DEFAULT_FIELDS, "page_type")


@dataclass(frozen=True)
class Fields:
    """Values read from the page (``None`` where the page says nothing).

    ``sources`` names, per field that has a value, the markup it was read
    from (``"json-ld"``, ``"og"``, ``"byline-block"``, ...), so a report
    can explain a wrong value without re-running the readers.
    """

    title: str | None = None
    author: str | None = None
    date: str | None = None
    modified: str | None = None
    description: str | None = None
    image: str | None = None
    site_name: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    sources: dict[str, str] = field(default_factory=dict)

    def values(self) -> dict[str, str | None]:
        """The field values alone, in :data:`FIELD_NAMES` order."""
        return {name: getattr(self, name) for name in FIELD_NAMES}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = self.values()
        out["sources"] = dict(self.sources)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fields:
        known = {f.name for f in _dc_fields(cls)}
        values = {k: v for k, v in data.items() if k in known and k != "sources"}
        return cls(**values, sources=dict(data.get("sources") or {}))
