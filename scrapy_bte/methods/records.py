"""Records: the runs of same-shaped sibling elements that hold a page's items.

A listing, a shop's collection, a forum thread or a service page's feature
grid shows its content as records: one element per card, post or result,
all with the same tag and class, side by side under one parent. The block
model scores each block on its own evidence, and a card's short title link,
price or byline looks like furniture there; an article page's body is one
run of paragraphs and never needs this. So on those page types one kept
block in a record is evidence for its siblings: the records' blocks whose
probability clears a lower bar join the kept text.

A record group is an element's parent together with its shape: its tag
name and its class words with digits removed (``card card-3`` and
``card card-7`` are one shape). List items are no elements of the
document's skeleton (it keeps containers, not paragraphs), so a list
element in which at least :data:`MIN_MEMBERS` blocks begin a ``<li>`` is
a group too, its items the records. The group chosen is the one, among
those that some block's first :data:`LEVELS` ancestors belong to, whose
members hold the most kept words.
"""

from __future__ import annotations

import re

import numpy as np

from ..core.document import Document

#: How many elements up from a block's container a record may sit (card > body > title > link; a
#: forum post's text sits eight deep in its post: cell > content > wrapper > body > text).
LEVELS = 10
#: Siblings of one shape needed to call them records.
MIN_MEMBERS = 3

_CLASS_RE = re.compile(r"""(?:^|\s)class\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_DIGITS_RE = re.compile(r"\d+")
#: Class words per distinct attribute string (templates repeat theirs; a full memo is replaced).
_CLASS_MEMO: dict[str, str] = {}
_MEMO_SIZE = 50_000


def _class_words(raw: str) -> str:
    found = _CLASS_MEMO.get(raw)
    if found is None:
        m = _CLASS_RE.search(raw)
        value = (m.group(1) or m.group(2) or m.group(3) or "") if m else ""
        found = " ".join(sorted(_DIGITS_RE.sub("", value).split()))
        if len(_CLASS_MEMO) >= _MEMO_SIZE:
            _CLASS_MEMO.clear()
        _CLASS_MEMO[raw] = found
    return found


def element_shapes(doc: Document) -> np.ndarray:
    """Per element, an id shared by the elements of one tag name and one set of class words."""
    sk = doc.skeleton
    ids: dict[str, int] = {}
    per_string = np.fromiter(
        (ids.setdefault(_class_words(raw), len(ids)) for raw in sk.attr_strings), np.int64, len(sk.attr_strings)
    )
    return sk.el_name_id.astype(np.int64) * (len(ids) + 1) + per_string[sk.el_attr_id]


def record_mask(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Per block, whether it lies in a member of the record group holding the most kept words.

    All ``False`` when no kept block lies in a group of :data:`MIN_MEMBERS` or more.
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0 or not keep.any():
        return out
    parents = doc.skeleton.parents
    shape = element_shapes(doc)
    group_key = np.maximum(parents, 0) * (int(shape.max()) + 1) + shape
    _, group, members = np.unique(group_key, return_inverse=True, return_counts=True)
    is_record = members[group] >= MIN_MEMBERS
    is_record[0] = False  # the root has no siblings
    n_groups = len(members)
    container = np.asarray(doc.container, dtype=np.int64)
    items = doc.starts_element("li")
    is_list = np.bincount(container[items], minlength=len(parents)) >= MIN_MEMBERS
    is_list[0] = False
    words = np.asarray(doc.words, dtype=np.float64)
    element = container.copy()
    best_words, best_group, best_list = 0.0, -1, -1
    ancestors: list[np.ndarray] = []
    for _ in range(LEVELS):
        ancestors.append(element)
        inside = keep & is_record[element]
        if inside.any():
            kept_words = np.bincount(group[element[inside]], words[inside], n_groups)
            g = int(np.argmax(kept_words))
            if kept_words[g] > best_words:
                best_words, best_group, best_list = float(kept_words[g]), g, -1
        inside = keep & is_list[element]
        if inside.any():
            kept_words = np.bincount(element[inside], words[inside], len(parents))
            g = int(np.argmax(kept_words))
            if kept_words[g] > best_words:
                best_words, best_group, best_list = float(kept_words[g]), -1, g
        element = np.maximum(parents[element], 0)
    # A block belongs to the group when one of its first LEVELS ancestors is a member.
    if best_group >= 0:
        for element in ancestors:
            out |= is_record[element] & (group[element] == best_group)
    elif best_list >= 0:
        for element in ancestors:
            out |= element == best_list
    return out


def extend(doc: Document, keep: np.ndarray, q: np.ndarray, low: float) -> np.ndarray:
    """``keep`` plus the blocks of the main record group whose probability ``q`` is at least ``low``."""
    records = record_mask(doc, keep)
    if not records.any():
        return keep
    return keep | (records & (q >= low))
