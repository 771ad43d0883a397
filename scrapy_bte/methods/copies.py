"""Copies: a page that holds its body twice, in two branches of its layout.

Site builders and server rendering put a whole article on the page more than
once, in sibling branches only one of which a reader is shown: Framer's
responsive variants (one copy per screen width), Webflow's conditional
layouts (a gated copy hidden by a class), a ``<noscript>`` copy of a page
whose scripts render it again. The block model scores every copy as body
text. The text is there once for a reader, and WCXB's gold holds it once.

An article may also quote a passage twice on purpose (a list, then the same
list to print), and the older sets' gold keeps both; those repeats sit in one
branch of the layout, a few elements apart. So a run of repeated blocks goes
only when it is long (:data:`MIN_BLOCKS` blocks, :data:`MIN_WORDS` words), a
large part of the page (:data:`MIN_SHARE` of the words kept besides it) and
in another branch than the first copy: the two copies' containers meet
:data:`MIN_BRANCH` or more elements above each of them. Measured on WCXB's
development split by five folds grouped by site: four article pages gain
0.32-0.48 F1 (0.8788 to 0.8800 overall, article pages 0.9549 to 0.9570), no page loses; of the older sets
(left out of training one at a time) one mercury page gains 0.28 and no
other page changes. A repeated run within one container (dragnet, L3S-GN1)
stays, and so do the terms a travel page repeats under each offer (a small
share of its text).
"""

from __future__ import annotations

import numpy as np

from ..core.document import Document

#: Blocks of fewer words neither start a copy nor end one (separators, "Share", single labels).
SHORT_WORDS = 3
MIN_BLOCKS = 4
MIN_WORDS = 150
MIN_SHARE = 0.3
MIN_BRANCH = 2


def _branch_distance(doc: Document, first: int, copy: int) -> int:
    """Elements between the two blocks' containers and the nearest element holding both,
    counted from the nearer side."""
    parents = doc.el_parent
    chain = [int(doc.container[first])]
    while chain[-1] > 0:
        chain.append(parents[chain[-1]])
    depth_of = {el: i for i, el in enumerate(chain)}
    el, steps = int(doc.container[copy]), 0
    while el not in depth_of:
        el, steps = parents[el], steps + 1
    return min(depth_of[el], steps)


def copy_mask(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Per block, whether it is kept and belongs to a second (or third) copy of the body."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    texts, words = doc.texts, doc.words
    first: dict[str, int] = {}
    original: dict[int, int] = {}
    for b in (keep & (words >= SHORT_WORDS)).nonzero()[0].tolist():
        o = first.setdefault(texts[b].lower(), b)
        if o != b:
            original[b] = o
    if len(original) < MIN_BLOCKS:
        return out
    kept = keep.nonzero()[0].tolist()
    runs: list[list[int]] = []
    run: list[int] = []
    for b in kept:
        if b in original or (run and words[b] < SHORT_WORDS):
            run.append(b)
        elif words[b] >= SHORT_WORDS:
            runs.append(run)
            run = []
    runs.append(run)
    copies: list[int] = []
    for run in runs:
        if len(run) < MIN_BLOCKS or int(words[run].sum()) < MIN_WORDS:
            continue
        distances = sorted(_branch_distance(doc, original[b], b) for b in run if b in original)
        if distances[len(distances) // 2] >= MIN_BRANCH:
            copies.extend(run)
    if not copies:
        return out
    copied = int(words[copies].sum())
    if copied < MIN_SHARE * (int(words[kept].sum()) - copied):
        return out
    out[copies] = True
    return out
