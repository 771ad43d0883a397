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

import re
from collections import Counter

import numpy as np

from ..core.document import Document

#: Blocks of fewer words neither start a copy nor end one (separators, "Share", single labels).
SHORT_WORDS = 3
MIN_BLOCKS = 4
MIN_WORDS = 150
MIN_SHARE = 0.3
MIN_BRANCH = 2

#: :func:`covered_blocks`: a block of at least this many words, this share of whose words
#: (counted as a multiset, as WCXB counts them) the other kept blocks hold.
COVERED_WORDS = 150
COVERED_SHARE = 0.9
_WORD = re.compile(r"\w+")


def _ancestor(jumps: list[np.ndarray], el: int, steps: int) -> int:
    """The element ``steps`` levels above ``el`` (the root past the top), by the skeleton's
    pointer-jumping steps: log2(depth) look-ups, however deep the page nests."""
    bit = 0
    while steps and el:
        if steps & 1:
            if bit >= len(jumps):
                return 0
            el = int(jumps[bit][el])
        steps >>= 1
        bit += 1
    return el


def _near(doc: Document, first: int, copy: int) -> bool:
    """Whether the two blocks' containers meet fewer than :data:`MIN_BRANCH` elements above
    one of them: one of the few elements above either container holds the other."""
    jumps = doc.skeleton.ancestor_jumps
    containers, depths = doc.container, doc.depth
    a, b = int(containers[first]), int(containers[copy])
    da, db = int(depths[first]), int(depths[copy])
    for up in range(MIN_BRANCH):
        for el, depth, other, other_depth in ((a, da, b, db), (b, db, a, da)):
            if up <= depth <= other_depth + up and _ancestor(jumps, other, other_depth - depth + up) == _ancestor(
                jumps, el, up
            ):
                return True
    return False


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
        pairs = [(original[b], b) for b in run if b in original]
        # Most of the run (its median block) lies in another branch than its first copy.
        if sum(_near(doc, first, copy) for first, copy in pairs) <= len(pairs) // 2:
            copies.extend(run)
    if not copies:
        return out
    copied = int(words[copies].sum())
    if copied < MIN_SHARE * (int(words[kept].sum()) - copied):
        return out
    out[copies] = True
    return out


def covered_blocks(doc: Document, keep: np.ndarray, blocks: list[int] | None = None) -> list[int]:
    """The kept blocks (of ``blocks``, when given) of :data:`COVERED_WORDS` words or more whose
    words the rest of the kept text already holds (:data:`COVERED_SHARE` of them, each word as
    often): the whole body again in one block, as a page's raw Markdown for machines or a print
    copy. Alone this is no proof (a summary repeats what it sums up): the caller adds that markup
    hides the block, and asks about those blocks only (counting the kept words costs)."""
    words = doc.words
    if blocks is None:
        blocks = np.flatnonzero(keep).tolist()
    rest = float(words[keep].sum())
    # The rest of the kept text must be as long first: only then are the words counted.
    big = [b for b in blocks if keep[b] and COVERED_WORDS <= words[b] <= (rest - words[b]) / COVERED_SHARE]
    if not big:
        return []
    texts = doc.texts
    counts = {b: Counter(_WORD.findall(texts[b].lower())) for b in keep.nonzero()[0].tolist()}
    total: Counter[str] = Counter()
    for c in counts.values():
        total.update(c)
    out = []
    for b in big:
        own = counts[b]
        n = sum(own.values())
        held = sum(min(v, total[w] - v) for w, v in own.items())
        if n and held >= COVERED_SHARE * n:
            out.append(b)
    return out
