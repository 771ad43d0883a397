"""The value every extraction method returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .core.fingerprint import fingerprint as simhash
from .fields.record import FIELD_NAMES

SCORE_KEYS = ("bte_score", "density", "text_ratio", "confidence", "method", "title", "words", "fingerprint")

#: Score key -> its column in a flat record: the crawl's ``BTE_FLAT_SCORES`` items and
#: ``scrapy-bte extract --format csv`` write the same names, so one reader takes both.
FLAT_SCORE_FIELDS = {
    "bte_score": "bte_score",
    "density": "bte_density",
    "text_ratio": "bte_text_ratio",
    "confidence": "bte_confidence",
    "method": "bte_method",
    "title": "bte_title",
    "words": "bte_words",
    "fingerprint": "bte_fingerprint",
    "error": "bte_error",
}


@dataclass(frozen=True)
class Extraction:
    """Main text of one page plus the evidence behind it.

    ``kept_blocks`` are indices into the document's text blocks and ``span``
    is BTE's ``(first_block, last_block)`` (inclusive) so reports can draw
    what was kept; both are empty/``None`` for a page without text.
    ``fingerprint`` is the text's 64-bit SimHash in hex (see
    :mod:`scrapy_bte.core.fingerprint`), ``None`` for texts too short to compare;
    it is computed from ``text`` when first read (``to_dict``, ``scores``, the
    crawl's items), so a caller that wants the text alone does not pay for it.

    The article's fields (``title``, ``author``, ``date``, ``modified``,
    ``description``, ``image``, ``site_name``, ``language``,
    ``canonical_url``) are ``None`` where the page does not state them or
    they were not asked for; ``field_sources`` names where each value was
    read (see :mod:`scrapy_bte.fields`).

    ``page_type`` is what kind of page this is, one of
    :data:`~scrapy_bte.learned.page_type.PAGE_TYPES` (article, forum,
    product, collection, listing, documentation, service), as the page-type
    classifier decided; ``None`` when extraction did not happen.
    """

    text: str
    paragraphs: list[str]
    title: str | None
    method: str
    bte_score: float = 0.0
    density: float = 0.0
    text_ratio: float = 0.0
    confidence: float = 0.0
    words: int = 0
    kept_blocks: list[int] = field(default_factory=list)
    span: tuple[int, int] | None = None
    n_blocks: int = 0
    error: str | None = None
    author: str | None = None
    date: str | None = None
    modified: str | None = None
    description: str | None = None
    image: str | None = None
    site_name: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    field_sources: dict[str, str] = field(default_factory=dict)
    #: The readers' comments, one per line, when asked for with ``comments=True`` (else None).
    comments: str | None = None
    page_type: str | None = None

    @cached_property
    def fingerprint(self) -> str | None:
        """The text's SimHash, read once (a frozen instance's ``__dict__`` holds it after)."""
        return simhash(self.text)

    @property
    def empty(self) -> bool:
        return not self.text

    def fields(self) -> dict[str, str | None]:
        """The article's fields by name, in :data:`~scrapy_bte.fields.record.FIELD_NAMES` order."""
        return {name: getattr(self, name) for name in FIELD_NAMES}

    def scores(self) -> dict[str, Any]:
        """The compact score dict attached to Scrapy items."""
        out: dict[str, Any] = {k: getattr(self, k) for k in SCORE_KEYS}
        if self.error is not None:
            out["error"] = self.error
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe representation (plain str/int/float/list/None values)."""
        return {
            "text": self.text,
            "paragraphs": list(self.paragraphs),
            "title": self.title,
            "method": self.method,
            "bte_score": float(self.bte_score),
            "density": float(self.density),
            "text_ratio": float(self.text_ratio),
            "confidence": float(self.confidence),
            "words": int(self.words),
            "kept_blocks": [int(i) for i in self.kept_blocks],
            "span": list(self.span) if self.span is not None else None,
            "n_blocks": int(self.n_blocks),
            "error": self.error,
            "fingerprint": self.fingerprint,
            **{name: getattr(self, name) for name in FIELD_NAMES if name != "title"},
            "field_sources": dict(self.field_sources),
            "comments": self.comments,
            "page_type": self.page_type,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Extraction:
        """Inverse of :meth:`to_dict` (used to pass results between processes)."""
        span = data.get("span")
        out = cls(
            text=data.get("text", ""),
            paragraphs=list(data.get("paragraphs", [])),
            title=data.get("title"),
            method=data.get("method", ""),
            bte_score=float(data.get("bte_score", 0.0)),
            density=float(data.get("density", 0.0)),
            text_ratio=float(data.get("text_ratio", 0.0)),
            confidence=float(data.get("confidence", 0.0)),
            words=int(data.get("words", 0)),
            kept_blocks=list(data.get("kept_blocks", [])),
            span=tuple(span) if span is not None else None,
            n_blocks=int(data.get("n_blocks", 0)),
            error=data.get("error"),
            **{name: data.get(name) for name in FIELD_NAMES if name != "title"},
            field_sources=dict(data.get("field_sources") or {}),
            comments=data.get("comments"),
            page_type=data.get("page_type"),
        )
        if "fingerprint" in data:  # as it was computed, not again
            out.__dict__["fingerprint"] = data["fingerprint"]
        return out

    @classmethod
    def failed(cls, error: str, method: str = "") -> Extraction:
        """An empty result that records why extraction did not happen."""
        return cls(text="", paragraphs=[], title=None, method=method, error=error)
