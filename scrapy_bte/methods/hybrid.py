"""BTE anchored, density extended: the ``hybrid`` method.

BTE returns one clean stretch and misses content outside it (its recall
problem) and its ends pick up half sentences and bits of boilerplate. So:
take the blocks the span touches whole, trim link-heavy or markup-heavy
blocks off its ends, then grow it block by block into neighbours that pass
the page's density threshold and are not mostly links, tolerating a short
gap (a caption, an ad slot) between them.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from . import bte as _bte
from . import density as _density
from .reasons import Reason


def select(
    doc,
    span,
    *,
    threshold: str = "gaussian",
    form: str = "ratio",
    max_link: float = 0.5,
    min_chars: int = 10,
    gap: int = 2,
    link_weight: float = 0.0,
    reasons: np.ndarray | None = None,
) -> np.ndarray:
    """Boolean mask over blocks; ``span`` is Finn's, re-run here when ``link_weight`` differs.

    ``reasons``, when given, gets per block whether it lies in the span,
    was trimmed off its ends, or was added by the extension.
    """
    n = doc.n_blocks
    keep = np.zeros(n, dtype=bool)
    if link_weight != 1.0:
        span = _bte.document_span(doc, link_weight)
    if span is None or n == 0:
        if reasons is not None:
            reasons[:] = Reason.OUTSIDE_SPAN
        return keep
    d = _density.densities(doc, form)
    thr = _density.threshold(d, threshold)
    link = np.divide(doc.link_words, doc.words, out=np.zeros(n), where=doc.words > 0)
    good = (d >= thr) & (link <= max_link) & (doc.chars >= min_chars)
    junk = (link > max_link) | ((d < thr) & (doc.chars < 4 * max(min_chars, 1)))

    # Python lists: the walks below read single blocks, which numpy indexing makes slow.
    good_at, junk_at = good.tolist(), junk.tolist()
    first, last = span.first_block, span.last_block
    while first < last and junk_at[first]:
        first += 1
    while last > first and junk_at[last]:
        last -= 1
    keep[first : last + 1] = True
    if reasons is not None:
        reasons[:] = Reason.OUTSIDE_SPAN
        reasons[span.first_block : span.last_block + 1] = Reason.SPAN_END_TRIMMED
        reasons[first : last + 1] = Reason.IN_SPAN

    for step, edge in ((-1, first), (1, last)):
        misses = 0
        b = edge + step
        while 0 <= b < n and misses <= gap:
            if good_at[b]:
                lo, hi = min(edge, b), max(edge, b)
                # Blocks skipped inside a gap join only when text follows them.
                if hi - lo > 1:
                    keep[lo + 1 : hi] |= ~junk[lo + 1 : hi]
                keep[b] = True
                edge, misses = b, 0
            else:
                misses += 1
            b += step
    if reasons is not None:
        reasons[keep & (reasons != Reason.IN_SPAN)] = Reason.EXTENDED
    return keep


#: The options of :func:`select` and their defaults, read from its signature.
DEFAULTS: dict[str, Any] = {
    name: param.default
    for name, param in inspect.signature(select).parameters.items()
    if param.kind is inspect.Parameter.KEYWORD_ONLY
}
