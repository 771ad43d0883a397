"""Filters: a listing's search controls are not its items.

A listing or search page puts its controls above the items: checkboxes
and radio buttons that narrow the list (sections, dates, price bands) and
the count of what matched ("Showing 1–8 of 21 stories"). Their labels are
short texts in a run of siblings, and the records rule that keeps a
listing's short card titles keeps them too. The markup says what they are:
the labels sit beside ``<input type="checkbox">`` and ``type="radio"``.
On WCXB's development split, 18 of the 218 such labels of its listing
pages are in the gold (638 of 2,601 on collection pages, whose facets
sometimes name what the shop sells).
"""

from __future__ import annotations

import re

import numpy as np

from ..core.document import Document
from ..evidence.words import RESULT_COUNT_RE

_CHOICE_RE = re.compile(r"""\btype\s*=\s*["']?(?:checkbox|radio)\b""", re.IGNORECASE)
#: Words a block may hold per checkbox or radio button among its tags and still be their labels.
WORDS_PER_CHOICE = 4
#: A result count is a short line.
COUNT_WORDS = 8


def filter_mask(doc: Document) -> np.ndarray:
    """Per block, whether it is the labels of checkboxes or radio buttons (a block with one such
    input or more among its tags and at most :data:`WORDS_PER_CHOICE` words per input) or a
    result count (:data:`~scrapy_bte.evidence.words.RESULT_COUNT_RE`)."""
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    words = np.asarray(doc.words, dtype=np.float64)
    short = (words <= COUNT_WORDS).nonzero()[0].tolist()
    texts = doc.texts
    out[[b for b in short if RESULT_COUNT_RE.match(texts[b])]] = True
    names = doc.tag_names
    # Where the tag stream holds ``input``: ``list.index`` steps over the other tags in C.
    inputs: list[int] = []
    for _ in range(names.count("input")):
        inputs.append(names.index("input", inputs[-1] + 1 if inputs else 0))
    if not inputs:
        return out
    src, ends, lens = doc.tag_attribute_spans()
    choices = [t for t in inputs if _CHOICE_RE.search(src[int(ends[t]) - int(lens[t]) : int(ends[t])])]
    if not choices:
        return out
    # A block's tags run from the tag that opens it to the next block's.
    owner = np.searchsorted(np.asarray(doc.block_start_tag, dtype=np.int64), np.asarray(choices), side="right") - 1
    owner = owner[owner >= 0]
    count = np.bincount(owner, minlength=n)
    out |= (count > 0) & (words <= WORDS_PER_CHOICE * count)
    return out
