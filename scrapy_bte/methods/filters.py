"""Filters: a listing's search controls are not its items.

A listing or search page puts its controls above the items: checkboxes
and radio buttons that narrow the list (sections, dates, price bands) and
the count of what matched ("Showing 1–8 of 21 stories"). Their labels are
short texts in a run of siblings, and the records rule that keeps a
listing's short card titles keeps them too. The markup says what they are:
the labels sit beside ``<input type="checkbox">`` and ``type="radio"``.
On WCXB's development split, 18 of the 218 such labels of its listing
pages are in the gold (638 of 2,601 on collection pages, whose facets
sometimes name what the shop sells). A form's other short labels are its
controls too: a dropdown's "Sort by" (step 0 drops the ``<select>`` and
leaves the label), "Size", "Qty:". Of the 71 words the block model keeps in
such labels on WCXB's listing and collection pages, 7 are gold (WCXB by
site folds: collection 0.7141 to 0.7145, listing 0.7627 to 0.7628). On
product pages the labels name the variants and are gold: this is the list
profiles' rule. A card's rating or review count ("17 reviews", "Rated 4.8 out
of 5 stars"), its badges and its calls to action ("Best seller", "Shop now")
say nothing of its item either (:func:`card_label_mask`, the list and product
profiles), and nor do the labels of a product page's tab strip ("Description",
"Details", "Reviews (38)": :func:`tab_label_mask`).
"""

from __future__ import annotations

import re

import numpy as np

from ..core.document import Document
from ..core.tree import positions
from ..evidence.labels import is_label
from ..evidence.words import CARD_BADGES, RATING_RE, RESULT_COUNT_RE

_CHOICE_RE = re.compile(r"""\btype\s*=\s*["']?(?:checkbox|radio)\b""", re.IGNORECASE)
#: Words a block may hold per checkbox or radio button among its tags and still be their labels.
WORDS_PER_CHOICE = 4
#: A result count is a short line.
COUNT_WORDS = 8
#: :func:`tab_label_mask`: a tab's label is a few words, and its ``role`` stands on its own tag or
#: at most this many elements above it (``<ul role="tablist"><li role="tab"><a>``).
TAB_WORDS = 6
TAB_LEVELS = 3
_TAB_ROLE_RE = re.compile(r"""(?:^|\s)role\s*=\s*["']?tab(?:list)?\b""", re.IGNORECASE)


def filter_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it is the labels of checkboxes or radio buttons (a block with one such
    input or more among its tags and at most :data:`WORDS_PER_CHOICE` words per input), a form's
    short labels (as many words per ``<label>``) or a result count
    (:data:`~scrapy_bte.evidence.words.RESULT_COUNT_RE`); with ``keep``, result counts are
    looked for among the kept blocks only (a list page has hundreds of short blocks)."""
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    words = np.asarray(doc.words, dtype=np.float64)
    short = ((words <= COUNT_WORDS) if keep is None else (keep & (words <= COUNT_WORDS))).nonzero()[0].tolist()
    texts = doc.texts
    out[[b for b in short if RESULT_COUNT_RE.match(texts[b])]] = True
    names = doc.tag_names
    inputs = positions(names, "input")
    if inputs:
        src, ends, lens = doc.tag_attribute_spans()
        choices = [t for t in inputs if _CHOICE_RE.search(src[int(ends[t]) - int(lens[t]) : int(ends[t])])]
        out |= _labelled(doc, choices, words)
    # A form's other labels: "Sort by" (its ``<select>`` is gone with step 0), "Size", "Qty:".
    out |= _labelled(doc, positions(names, "label"), words)
    return out


def card_label_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it is only a rating or a review count
    (:data:`~scrapy_bte.evidence.words.RATING_RE`) or a badge or call to action
    (:data:`~scrapy_bte.evidence.words.CARD_BADGES`: "Best seller", "Sold out", "Shop now"):
    what a card says of its reviews and its offer, not of its item. With ``keep``, per kept block
    (the others are ``False``): a test costs a third of a microsecond, and a collection page
    has hundreds of short blocks, most of them dropped already."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    texts = doc.texts
    short = doc.words <= COUNT_WORDS
    for b in (short if keep is None else keep & short).nonzero()[0].tolist():
        text = texts[b]
        if is_label(text, CARD_BADGES) or RATING_RE.match(text):
            out[b] = True
    return out


def tab_label_mask(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Per kept block, whether it is a tab's label: :data:`TAB_WORDS` words or fewer, under
    ``role="tab"`` or ``role="tablist"`` (its own tag or :data:`TAB_LEVELS` elements above). The
    strip names the panels below it; the panels' own headings say it again where it is content.
    Product pages only (WCXB by site folds: product 0.6889 to 0.6892, 3 pages better and 1 worse
    by 0.003; on every type, documentation's code tabs ("Bash", "npm") and a service page's
    section tabs are gold, 10 pages better and 6 worse)."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    for b in (keep & (doc.words <= TAB_WORDS)).nonzero()[0].tolist():
        out[b] = any(_TAB_ROLE_RE.search(raw) for raw in doc.path_attributes(b, TAB_LEVELS) if "role" in raw)
    return out


def _labelled(doc: Document, tags: list[int], words: np.ndarray) -> np.ndarray:
    """Per block, whether it holds one of ``tags`` or more and at most :data:`WORDS_PER_CHOICE`
    words per such tag."""
    if not tags:
        return np.zeros(doc.n_blocks, dtype=bool)
    # A block's tags run from the tag that opens it to the next block's.
    owner = np.searchsorted(np.asarray(doc.block_start_tag, dtype=np.int64), np.asarray(tags), side="right") - 1
    count = np.bincount(owner[owner >= 0], minlength=doc.n_blocks)
    return (count > 0) & (words <= WORDS_PER_CHOICE * count)
