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
members hold the most kept words. When the model kept none of a listing's
cards, :func:`largest_group` finds them without it: the group of card-sized
members (one shape, parents of one shape) that holds the most words outside
the page's chrome.
"""

from __future__ import annotations

import re

import numpy as np

from ..core import accel
from ..core.arrays import distinct
from ..core.document import Document
from ..core.tree import page_level, path_or

#: The C pass of :func:`class_shapes` (its Python twin: :func:`class_shapes_reference`).
_RECORDS = accel.load("methods.records")

#: How many elements up from a block's container a record may sit (card > body > title > link; a
#: forum post's text sits eight deep in its post: cell > content > wrapper > body > text).
LEVELS = 10
#: Siblings of one shape needed to call them records.
MIN_MEMBERS = 3
#: :func:`largest_group`: members with text, words per member and share of the page's words
#: the group needs (WCXB by site folds, with ``auto``'s guard
#: :data:`~scrapy_bte.learned.auto.CARDS_OVER_KEPT`: all types 0.8636 with a share of 0.3,
#: 0.8648 with 0.15, 0.1 or 0.05).
CARD_MEMBERS = 4
CARD_WORDS = 4
CARD_BLOCK_WORDS = 2.0
GROUP_SHARE = 0.15
#: Page chrome: a group inside these is never the page's records; nor inside a header or
#: footer outside the sectioning elements (:func:`_inside_chrome`).
_CHROME = ("nav", "aside")
_PAGE_EDGES = ("header", "footer")

#: A class attribute, searched in an attribute string's lower case: the pattern starts with
#: its literal word, which the engine finds with a fast scan (a leading ``(?:^|\s)`` and
#: IGNORECASE made it try every position, a third of the rule's time on a page seen once).
_CLASS = r"""class(?<![^\s]class)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"""
_CLASS_RE = re.compile(_CLASS)
#: ... and in a string as written, where lower-casing changes its length (U+0130).
_CLASS_ANY_CASE_RE = re.compile(_CLASS, re.IGNORECASE)
_DIGITS_RE = re.compile(r"\d+")
#: Class words per class value. A page's attribute strings are distinct (an id, a link), its
#: class values repeat: half of a page's values were seen before, where almost no string was.
#: (A full memo is replaced.)
_WORDS_MEMO: dict[str, str] = {}
_MEMO_SIZE = 50_000


def class_words(raw: str) -> str:
    """The words of an attribute string's (first) class attribute, as written, digits removed
    and sorted (``card card-3`` and ``card-7 card`` are one shape); ``""`` without one."""
    low = raw.lower()
    m = _CLASS_RE.search(low) if len(low) == len(raw) else _CLASS_ANY_CASE_RE.search(raw)
    if m is None or not m.lastindex:
        return ""
    # One of the three groups (quoted twice, unquoted) matched: its span in the string as written.
    value = raw[slice(*m.span(m.lastindex))]
    found = _WORDS_MEMO.get(value)
    if found is None:
        found = " ".join(sorted(_DIGITS_RE.sub("", value).split()))
        if len(_WORDS_MEMO) >= _MEMO_SIZE:
            _WORDS_MEMO.clear()
        _WORDS_MEMO[value] = found
    return found


def class_shapes_reference(strings: list[str], out: np.ndarray) -> int:
    """Writes into ``out`` the number of each string's :func:`class_words`, numbered in the
    order the words first occur, and returns how many distinct words there are."""
    words = list(map(class_words, strings))
    index = {found: i for i, found in enumerate(dict.fromkeys(words))}
    out[:] = np.fromiter(map(index.__getitem__, words), np.int64, len(words))
    return len(index)


def class_shapes(strings: list[str], out: np.ndarray) -> int:
    """:func:`class_shapes_reference` by its C pass where built: a page's hundred or so
    attribute strings cost a search each in Python (0.2 ms a listing page seen once)."""
    c = _RECORDS.use()
    if c is None:
        return class_shapes_reference(strings, out)
    return int(c.class_shapes(strings, out))


def element_shapes(doc: Document) -> np.ndarray:
    """Per element, an id shared by the elements of one tag name and one set of class words
    (numbered in the order the words first occur among the page's attribute strings)."""
    sk = doc.skeleton
    per_string = np.empty(len(sk.attr_strings), dtype=np.int64)
    shapes = class_shapes(sk.attr_strings, per_string)
    return sk.el_name_id.astype(np.int64) * (shapes + 1) + per_string[sk.el_attr_id]


def _groups(doc: Document, *, across_parents: bool = False) -> tuple[np.ndarray, int, np.ndarray]:
    """Per element its record group, the number of groups, and per element whether its
    group has :data:`MIN_MEMBERS` or more members. A group is a parent and a shape, or
    (``across_parents``) a shape and its parent's shape: the cards of every row of a grid."""
    parents = doc.skeleton.parents
    shape = element_shapes(doc)
    parent = np.maximum(parents, 0)
    group_key = (shape[parent] if across_parents else parent) * (int(shape.max()) + 1) + shape
    _, group, members = np.unique(group_key, return_inverse=True, return_counts=True)
    is_record = members[group] >= MIN_MEMBERS
    is_record[0] = False  # the root has no siblings
    return group, len(members), is_record


def record_mask(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Per block, whether it lies in a member of the record group holding the most kept words.

    All ``False`` when no kept block lies in a group of :data:`MIN_MEMBERS` or more.
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0 or not keep.any():
        return out
    parents = doc.skeleton.parents
    group, n_groups, is_record = _groups(doc)
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


def largest_group(doc: Document, allowed: np.ndarray) -> np.ndarray:
    """Per block, whether it lies in the record group whose ``allowed`` blocks hold the most
    words, whatever the model made of them: a listing's cards, when the model kept none.
    Its members are the elements of one shape whose parents share a shape too, under any
    parent: a news front's rows of four cards each are one group (WCXB by site folds:
    listing 0.7180 with siblings of one parent, 0.7330 with this, no other page changed);
    or the items of one ``<ul>``/``<ol>`` (a shop's grid of ``<li>`` cards, each a name, a
    rating and a price at different depths). A block belongs to a candidate when one of
    its first :data:`LEVELS` ancestors does, so a card's deeper blocks count with it
    (collection 0.6578 to 0.6747 with both, listing 0.7334 to 0.7370).

    The group needs :data:`CARD_MEMBERS` members with allowed text, :data:`CARD_WORDS` words
    a member and :data:`CARD_BLOCK_WORDS` a block on average (a card's title and summary, not
    a menu's one-word links, nor a column of place names: L3S-GN1's regional news links) and
    :data:`GROUP_SHARE` of the page's words; blocks inside ``<nav>``, ``<header>``,
    ``<footer>`` or ``<aside>`` (a shop's mega menu is the largest group of many pages)
    neither count nor join. All ``False`` when no group qualifies.
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    sk = doc.skeleton
    parents = sk.parents
    group, n_groups, is_record = _groups(doc, across_parents=True)
    names = sk.name_strings
    is_list = np.fromiter((name in ("ul", "ol") for name in names), bool, len(names))[sk.el_name_id]
    allowed = allowed & ~_inside_chrome(doc)
    # Candidates: a record group (key: the group) or a list element (key: n_groups + the
    # element). A block belongs to every candidate one of its first LEVELS ancestors is in.
    element = np.asarray(doc.container, dtype=np.int64).copy()
    found_blocks, found_keys, found_members = [], [], []
    for _ in range(LEVELS):
        for inside, key, member in (
            (allowed & is_record[element], group[element], element),
            (allowed & is_list[element], n_groups + element, np.full(n, -1, dtype=np.int64)),
        ):
            at = np.flatnonzero(inside)
            found_blocks.append(at)
            found_keys.append(key[at])
            found_members.append(member[at])
        element = np.maximum(parents[element], 0)
    blocks = np.concatenate(found_blocks)
    if len(blocks) == 0:
        return out
    keys = np.concatenate(found_keys)
    members = np.concatenate(found_members)
    # One block once per candidate, though two of its ancestors are members.
    size = n_groups + len(parents)
    pair = distinct(keys * n + blocks)
    keys, blocks = pair // n, pair % n
    words = np.asarray(doc.words, dtype=np.float64)
    key_words = np.bincount(keys, words[blocks], size)
    key_blocks = np.bincount(keys, minlength=size)
    # Members with text: a group's distinct member elements, a list's items.
    record = members >= 0
    member_keys = distinct(np.concatenate(found_keys)[record] * len(parents) + members[record])
    key_members = np.bincount(member_keys // len(parents), minlength=size)
    key_members += np.bincount(keys, doc.starts_element("li")[blocks] & (keys >= n_groups), size).astype(np.int64)
    best, best_words = _best_cards(key_words, key_members, key_blocks)
    if best < 0 or best_words < GROUP_SHARE * float(words.sum()):
        return out
    out[blocks[keys == best]] = True
    return out


def _best_cards(found_words: np.ndarray, members: np.ndarray, blocks: np.ndarray) -> tuple[int, float]:
    """The candidate holding the most words among those whose members look like cards
    (:data:`CARD_MEMBERS`, :data:`CARD_WORDS`, :data:`CARD_BLOCK_WORDS`), and its words; -1 if none."""
    cards = (members >= CARD_MEMBERS) & (found_words >= CARD_WORDS * members)
    cards &= found_words >= CARD_BLOCK_WORDS * blocks
    g = int(np.argmax(np.where(cards, found_words, 0.0)))
    return (g, float(found_words[g])) if cards[g] else (-1, 0.0)


def _inside_chrome(doc: Document) -> np.ndarray:
    """Per block, whether it lies inside the page's chrome: a ``<nav>`` or ``<aside>``, or a
    ``<header>`` or ``<footer>`` of the page, not one of a sectioning element
    (:func:`~scrapy_bte.core.tree.page_level`: a product card's own header holds its name)."""
    sk = doc.skeleton
    names = sk.name_strings
    own = np.fromiter((name in _CHROME for name in names), bool, len(names))[sk.el_name_id]
    own |= page_level(doc, _PAGE_EDGES)
    if not own.any():
        return np.zeros(doc.n_blocks, dtype=bool)
    return path_or(doc, own.astype(np.int64))[doc.container] > 0


def extend(doc: Document, keep: np.ndarray, q: np.ndarray, low: float) -> np.ndarray:
    """``keep`` plus the blocks of the main record group whose probability ``q`` is at least ``low``."""
    records = record_mask(doc, keep)
    if not records.any():
        return keep
    return keep | (records & (q >= low))
