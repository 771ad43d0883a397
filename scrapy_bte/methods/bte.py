"""Body Text Extraction (Finn et al.), solved exactly in O(n).

Finn's objective for a token sequence with ``B[n] = 1`` for tags and ``0``
for words is ``T(i, j) = sum(B[:i]) + sum(1 - B[i:j+1]) + sum(B[j+1:])``.
Rewritten, ``T(i, j) = total_tags + sum(v[i:j+1])`` with ``v = +1`` for a
word and ``-1`` for a tag, so maximising ``T`` is the maximum-sum subarray
problem: one pass with prefix sums and a running minimum. The same holds for
any real token weights (fractional words of scripts without spaces) and for
the run-length encoded sequence, whose optimum starts and ends on word runs.

The document's sequence gives the font style tags (``b``, ``i``, ``font``,
... see ``document.STYLE_TAGS``) no weight: they restyle words inside a
sentence rather than separate text from markup.

Tie-breaking: among spans of equal score the earliest start wins, then the
latest end (the longest of the earliest spans), so ties err toward recall.
A sequence without a positive value (no words) yields the single best token,
which for an all-tag page is the first tag; :func:`document_span` reports
such pages as having no span.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import accel
from ..core.document import FLAG_STYLE, Document

#: The C passes of the run encoding and the span search.
_BTE = accel.load("methods.bte")


def max_span(values: np.ndarray) -> tuple[float, int, int]:
    """Best ``(sum, i, j)`` over non-empty ``values[i:j+1]``; ``(0.0, -1, -1)`` if empty.

    One C loop when ``scrapy_bte._native.bte`` is built (unless the switch of :mod:`scrapy_bte.core.accel` is off),
    else :func:`max_span_reference`;
    both give equal results.
    """
    v = np.ascontiguousarray(values, dtype=np.float64)
    c = _BTE.use()
    return c.max_span(v) if c is not None else max_span_reference(v)


def max_span_reference(v: np.ndarray) -> tuple[float, int, int]:
    """The numpy reference of :func:`max_span` (``v``: contiguous float64)."""
    n = len(v)
    if n == 0:
        return 0.0, -1, -1
    prefix = np.empty(n + 1, dtype=np.float64)
    prefix[0] = 0.0
    np.cumsum(v, out=prefix[1:])
    # For end j, the best start i minimises prefix[i] over i <= j.
    head = prefix[:-1]
    run_min = np.minimum.accumulate(head)
    best_end = prefix[1:] - run_min
    score = float(best_end.max())
    # Exact ties in floating point: compare with a tolerance relative to the scale.
    tol = 1e-9 * max(1.0, float(np.abs(v).max()))
    # Earliest start of a minimum: the first index where each new minimum
    # appears (a value within the tolerance of the old minimum is a tie, not new).
    previous = np.concatenate(([np.inf], run_min[:-1]))
    first_min = np.maximum.accumulate(np.where(head < previous - tol, np.arange(n), 0))
    tied = np.flatnonzero(best_end >= score - tol)
    start = int(first_min[tied].min())
    end = int(tied[first_min[tied] == start].max())
    return float(prefix[end + 1] - prefix[start]), start, end


def brute_force(values: list[float] | np.ndarray) -> tuple[float, int, int]:
    """Finn's three sums evaluated literally for every ``i <= j`` (tests only: O(n^3)).

    Takes +1/-1 (or weighted) values; tags are the negative entries.
    """
    v = [float(x) for x in values]
    n = len(v)
    if n == 0:
        return 0.0, -1, -1
    tag = [1.0 if x < 0 else 0.0 for x in v]
    word = [x if x > 0 else 0.0 for x in v]
    total_tags = sum(tag)
    best: tuple[float, int, int] | None = None
    for i in range(n):
        for j in range(i, n):
            t = sum(tag[:i]) + sum(word[i : j + 1]) + sum(tag[j + 1 :])
            # Same tie rule: earliest i, then latest j.
            if best is None or t > best[0] + 1e-9 or (abs(t - best[0]) <= 1e-9 and i == best[1]):
                best = (t, i, j)
    assert best is not None
    return best[0] - total_tags, best[1], best[2]


def token_runs(doc: Document, link_weight: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length encoded tokens (words > 0, tags < 0) and each run's segments.

    ``link_weight`` scales words inside links: 1 is Finn's original
    sequence; 0 lets link text count as neither words nor tags.
    """
    words = doc.seg_words
    if link_weight != 1.0:
        words = words - (1.0 - link_weight) * doc.seg_link_words
    return run_encoding(words, doc.total_tags, doc.style_tags)


def run_encoding(
    seg_words: np.ndarray, n_tags: int, weightless: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length encode the token sequence: word runs > 0, tag runs < 0.

    Returns the run values and, per run, the first and last text segment it
    touches (tag runs report the segments around them). Tags marked in
    ``weightless`` (uint8 per tag) count as nothing, so the words on both
    sides join one run. One C loop (``scrapy_bte._native.bte``, where built and
    the switch of :mod:`scrapy_bte.core.accel` is on) or :func:`run_encoding_reference`.
    """
    if len(seg_words) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0), empty, empty
    c = _BTE.use()
    if c is None:
        return run_encoding_reference(seg_words, n_tags, weightless)
    vals, first, last = c.runs(np.ascontiguousarray(seg_words, dtype=np.float64), n_tags, weightless)
    return np.frombuffer(vals), np.frombuffer(first, np.int64), np.frombuffer(last, np.int64)


def run_encoding_reference(
    seg_words: np.ndarray, n_tags: int, weightless: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The numpy reference of :func:`run_encoding` (``seg_words`` not empty)."""
    seq = np.empty(2 * n_tags + 1, dtype=np.float64)
    seq[0::2] = seg_words
    seq[1::2] = -1.0 if weightless is None else np.where(np.asarray(weightless) > 0, 0.0, -1.0)
    nz = np.flatnonzero(seq)
    vals = seq[nz]
    if len(vals) == 0:  # only empty segments and weightless tags
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0), empty, empty
    positive = vals > 0
    starts = np.flatnonzero(np.concatenate(([True], positive[1:] != positive[:-1])))
    runs = np.add.reduceat(vals, starts)
    ends = np.concatenate((starts[1:], [len(nz)])) - 1
    if weightless is not None:
        # Merged segments: reduceat may add three or more values in another
        # order than the C loop; where fractions (script weights) make the
        # order matter, add them left to right as the C loop does.
        fractional = np.add.reduceat((vals != np.floor(vals)).astype(np.int64), starts) > 0
        for k in np.flatnonzero(fractional & (ends - starts >= 2)).tolist():
            total = 0.0
            for v in vals[starts[k] : ends[k] + 1].tolist():
                total += v
            runs[k] = total
    return runs, nz[starts] // 2, nz[ends] // 2


@dataclass(frozen=True)
class Span:
    """BTE's optimum on a document: runs ``[first_run, last_run]``.

    ``first_block``/``last_block`` are the text blocks the span touches;
    ``first_segment``/``last_segment`` the raw text segments, for exact cuts.
    """

    score: float
    first_run: int
    last_run: int
    first_segment: int
    last_segment: int
    first_block: int
    last_block: int
    words: float
    tags: float


def span_score(span: Span | None, total_words: float) -> float:
    """BTE's score of a page, in [0, 1]: the span's words minus its tags per word of the page.

    Near 1 when one stretch holds most of the page's words with little
    markup inside (a clear text plateau); 0 without a span.
    """
    if span is None or total_words <= 0:
        return 0.0
    return max(0.0, min(1.0, (span.words - span.tags) / total_words))


def document_span(doc: Document, link_weight: float = 1.0) -> Span | None:
    """Run BTE over a document's token runs; ``None`` for a page without words.

    Not cached: one extraction asks once per link weight (Finn's sequence
    for the span, links weightless for ``hybrid``), and callers pass the
    span on. One C call (``scrapy_bte._native.bte.span``) on a document the
    C passes built, else (or when it declines) :func:`document_span_reference`.
    """
    c = _BTE.use()
    if c is not None and len(doc.seg_words):
        words = doc.seg_words
        if link_weight != 1.0:
            words = words - (1.0 - link_weight) * doc.seg_link_words
        # The tag flags themselves rather than ``doc.style_tags``: the mask costs more to
        # build than the C pass costs to run.
        found = c.span(
            np.ascontiguousarray(words, dtype=np.float64),
            doc.total_tags,
            np.ascontiguousarray(doc.tag_flags, dtype=np.uint8),
            FLAG_STYLE,
            np.ascontiguousarray(doc.seg_block, dtype=np.int64),
        )
        if found is not False:
            return None if found is None else Span(*found)
    return document_span_reference(doc, link_weight)


def document_span_reference(doc: Document, link_weight: float = 1.0) -> Span | None:
    """:func:`document_span` from :func:`token_runs` and :func:`max_span`, with numpy sums."""
    runs, run_first, run_last = token_runs(doc, link_weight)
    if len(runs) == 0 or not (runs > 0).any():
        return None
    score, i, j = max_span(runs)
    seg_first = int(run_first[i])
    seg_last = int(run_last[j])
    inside = runs[i : j + 1]
    blocks = doc.seg_block[seg_first : seg_last + 1]
    blocks = blocks[blocks >= 0]
    return Span(
        score=score,
        first_run=i,
        last_run=j,
        first_segment=seg_first,
        last_segment=seg_last,
        first_block=int(blocks[0]),
        last_block=int(blocks[-1]),
        words=float(inside[inside > 0].sum()),
        tags=float(-inside[inside < 0].sum()),
    )
