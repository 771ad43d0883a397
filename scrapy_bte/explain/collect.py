"""Gather a :class:`~scrapy_bte.explain.record.Report` from one page.

The page runs through the same :func:`~scrapy_bte.api.extract_document`
as a crawl, with a :class:`~scrapy_bte.methods.reasons.Trace` asking the selection
for the rule behind each block, so the report shows what extraction did
rather than a re-enactment of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..api import extract_document, parse
from ..core.document import Document
from ..fields.record import FIELD_NAMES
from ..methods.bte import document_span, token_runs
from ..methods.density import densities, threshold
from ..methods.reasons import Trace, describe
from ..result import Extraction
from .record import BlockRow, Curve, FieldRow, Report
from .svg import MAX_POINTS

#: The density rule drawn in the density figure (the ``density`` method's default).
DENSITY_RULE = "gaussian"
#: Curve vertices kept in the report before drawing (drawing thins them to ``MAX_POINTS``).
CURVE_POINTS = 4 * MAX_POINTS


def tag_curve(doc: Document, limit: int = CURVE_POINTS) -> Curve:
    """Finn's cumulative tag count against token position, and BTE's span on it.

    Vertices sit at run boundaries (exact: inside a run the curve is a
    straight line); beyond ``limit`` runs evenly spaced ones are kept.
    """
    runs = token_runs(doc)[0]
    if len(runs) == 0:
        return Curve([(0.0, 0.0)], None)
    position = np.concatenate(([0.0], np.cumsum(np.abs(runs))))
    tags = np.concatenate(([0.0], np.cumsum(np.maximum(-runs, 0.0))))
    span = document_span(doc)
    where = None if span is None else (float(position[span.first_run]), float(position[span.last_run + 1]))
    if len(position) > limit:
        keep = np.unique(np.linspace(0, len(position) - 1, limit).round().astype(np.int64))
        position, tags = position[keep], tags[keep]
    return Curve(list(zip(position.tolist(), tags.tolist())), where)


def page_fields(result: Extraction) -> list[FieldRow]:
    """The fields the page states, each with the markup it was read from."""
    sources = result.field_sources
    return [FieldRow(name, value, sources.get(name, "")) for name, value in result.fields().items() if value]


def build_report(doc: Document, source: str, *, method: str = "auto", url: str | None = None, **options: Any) -> Report:
    """Extract ``doc`` with ``method`` (every field read) and collect everything the report shows."""
    trace = Trace()
    result = extract_document(doc, method=method, url=url, fields=FIELD_NAMES, trace=trace, **options)
    kept = np.zeros(doc.n_blocks, dtype=bool)
    kept[result.kept_blocks] = True
    d = densities(doc, "ratio")
    words = doc.words.astype(np.float64)
    link = np.divide(doc.link_words, words, out=np.zeros_like(words), where=words > 0)
    probs = trace.probability
    blocks = []
    for i, code in enumerate(trace.reasons.tolist()):
        rule, reason = describe(code)
        blocks.append(
            BlockRow(
                text=doc.texts[i],
                kept=bool(kept[i]),
                words=round(words[i]),
                density=float(d[i]),
                link_density=float(link[i]),
                probability=None if probs is None else float(probs[i]),
                rule=rule,
                reason=reason,
            )
        )
    scores: dict[str, float | int | str | None] = {
        "confidence": result.confidence,
        "bte_score": result.bte_score,
        "density": result.density,
        "text_ratio": result.text_ratio,
        "words": result.words,
        "kept_blocks": len(result.kept_blocks),
        "blocks": result.n_blocks,
        "span": None if result.span is None else f"blocks {result.span[0]}-{result.span[1]}",
    }
    return Report(
        source=source,
        method=result.method,  # the learned methods hand block soups to hybrid
        blocks=blocks,
        density_threshold=threshold(d, DENSITY_RULE),
        density_rule=DENSITY_RULE,
        curve=tag_curve(doc),
        probability_threshold=trace.threshold,
        fields=page_fields(result),
        scores=scores,
    )


def explain(
    html: bytes | str,
    source: str,
    *,
    method: str = "auto",
    encoding: str | None = None,
    url: str | None = None,
    **options: Any,
) -> Report:
    """The report of one page's markup (bytes are decoded as :func:`~scrapy_bte.extract` does;
    ``url`` resolves relative URLs in the fields)."""
    return build_report(parse(html, encoding=encoding), source, method=method, url=url, **options)
