"""Queries over the element skeleton of a document.

Which elements' attributes mention a word, and values OR-ed from every
ancestor down to each element: what features and the comment finder ask
of the tree, in array steps instead of a Python loop per element.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .document import Document
from .marks import find_strings, find_strings_reference


def _find_all(text: str, word: str) -> list[int]:
    out = []
    at = text.find(word)
    while at >= 0:
        out.append(at)
        at = text.find(word, at + 1)
    return out


def elements_mentioning(raws: list[str], words: tuple[str, ...]) -> list[int]:
    """Elements whose raw attribute string holds one of ``words`` (lower-case ASCII) in any case.

    One search of all attribute strings joined, not one per element: the
    cheap test before a regex reads the few elements it finds.
    """
    joined = "\x00".join(raws)  # NUL never occurs in decoded markup
    low = joined.lower()
    if len(low) != len(joined):  # a character whose lower case is longer (U+0130) shifts offsets
        return [el for el, raw in enumerate(raws) if any(w in raw.lower() for w in words)]
    hits = [at for word in words for at in _find_all(low, word)]
    if not hits:
        return []
    ends = np.cumsum(np.fromiter(map(len, raws), np.int64, len(raws)) + 1)
    return sorted(set(np.searchsorted(ends, hits, side="right").tolist()))


class AttributeReader:
    """A reading of raw attribute strings that is 0 unless a string mentions one of ``words``
    (lower-case ASCII, in any case), remembered per distinct string.

    Templates and a site's pages repeat their attribute strings: those seen before are
    dictionary look-ups in C. The new ones are searched together for the words
    (:func:`elements_mentioning`) and only those that mention one are read. A full memo is
    replaced, not cleared, so a reader in another thread keeps the one it looks up in.
    """

    def __init__(self, read: Callable[[str], int], words: tuple[str, ...], size: int = 50_000) -> None:
        self.read = read
        self.words = words
        self.size = size
        self._memo: dict[str, int] = {}

    def values(self, raws: list[str]) -> np.ndarray:
        """``read(raw)`` for each of ``raws``, as int64."""
        memo = self._memo
        # Most strings were read before (a template's repeats, a site's next pages): one pass of
        # look-ups, and only a miss pays for the set of new strings.
        try:
            return np.fromiter(map(memo.__getitem__, raws), np.int64, len(raws))
        except KeyError:
            pass
        new = set(raws).difference(memo)
        if new:
            if len(memo) + len(new) > self.size:
                memo, new = {}, set(raws)
                self._memo = memo
            strings = list(new)
            found = dict.fromkeys(strings, 0)
            for i in elements_mentioning(strings, self.words):
                found[strings[i]] = self.read(strings[i])
            memo.update(found)
        return np.fromiter(map(memo.__getitem__, raws), np.int64, len(raws))

    def per_element(self, doc: Document) -> np.ndarray:
        """``read`` of each element's attribute string, as int64: a template repeats its
        strings, so only the document's distinct ones are read, then gathered.

        The same values as :meth:`values` of the document's strings, found the other way
        round: the words are searched in the page's strings lowered once
        (:attr:`~scrapy_bte.core.document.Skeleton.attr_search`, shared by every reader),
        and only the strings that mention one are looked up or read. A page seen for the
        first time costs a few searches, not a look-up and a memo entry per string.
        """
        skeleton = doc.skeleton
        strings = skeleton.attr_strings
        search = skeleton.attr_search
        if search is None:
            return self.values(strings)[skeleton.el_attr_id]
        found = strings_mentioning(search, self.words)
        if not found:
            return np.zeros(len(skeleton.el_attr_id), dtype=np.int64)
        memo = self._memo
        if len(memo) + len(found) > self.size:
            memo = self._memo = {}
        out = np.zeros(len(strings), dtype=np.int64)
        for i in found:
            raw = strings[i]
            value = memo.get(raw)
            if value is None:
                value = memo[raw] = self.read(raw)
            out[i] = value
        return out[skeleton.el_attr_id]


class _PageWords:
    """Per word asked of one page's attribute strings, the strings that hold it (see :func:`strings_mentioning`)."""

    __slots__ = ("asked", "search", "strings")

    def __init__(self, search: tuple[str, list[int]]) -> None:
        self.search = search  # held, so that its identity names this page
        self.strings: dict[str, list[int]] = {}
        self.asked: dict[str, None] = {}


#: Joined attribute strings this long are read once for every word asked of them (:func:`_strings_of`).
ONE_READ_FROM = 4096
#: The page the readers last asked about, and the words asked of the page before it.
_page: _PageWords | None = None
_expected: tuple[str, ...] = ()
#: The most words one read of the strings looks for (:func:`~scrapy_bte.core.marks.find_strings`).
_MAX_WORDS = 32


def _strings_of(search: tuple[str, list[int]], words: tuple[str, ...]) -> dict[str, list[int]]:
    """Per word of ``words`` (and maybe others), the strings of ``search`` that hold it.

    Several readers ask the same page for their own words (the features' marks, the comment,
    footer and dialog names). The first to ask reads the strings once for its words and for
    every word the previous page was asked (:func:`~scrapy_bte.core.marks.find_strings`), so
    the others find theirs looked up: on the development pages of 4 KB of attributes or more,
    one read of the nine words costs 15 us where four reads cost 26; a word asked of no other
    page is read when it is asked. One page at a time, for the process: a thread that asks of
    another page starts the record over, which costs time but never changes an answer.
    """
    global _page, _expected
    page = _page
    if page is None or page.search is not search:
        if page is not None:
            _expected = tuple(page.asked)
        page = _page = _PageWords(search)
    strings = page.strings
    page.asked.update(dict.fromkeys(words))
    missing = [w for w in words if w not in strings]
    if missing:
        low, ends = search
        ask = list(dict.fromkeys(missing + [w for w in _expected if w not in strings]))
        for at in range(0, len(ask), _MAX_WORDS):
            chunk = tuple(ask[at : at + _MAX_WORDS])
            strings.update(zip(chunk, find_strings(low, chunk, ends)))
    return strings


def strings_mentioning(search: tuple[str, list[int]], words: tuple[str, ...]) -> list[int]:
    """The strings of ``search`` (:attr:`~scrapy_bte.core.document.Skeleton.attr_search`) that
    hold one of ``words`` (lower-case ASCII, 2 characters or more), in order.

    On a page of :data:`ONE_READ_FROM` characters of attributes or more, the words the
    readers ask are found in one read of its strings (:func:`_strings_of`), not one read per
    reader: the features' marks and the comment, footer and dialog names ask nine words of
    every page. Shorter strings are searched per word, resumed past the end of the string a
    word is found in (:func:`~scrapy_bte.core.marks.find_strings_reference`): there setting up
    one read costs more than the searches.
    """
    low, ends = search
    if len(low) < ONE_READ_FROM:
        per_word = find_strings_reference(low, words, ends)
        if len(words) == 1:
            return per_word[0]
        return sorted({i for found in per_word for i in found})
    strings = _strings_of(search, words)
    if len(words) == 1:
        return list(strings[words[0]])
    found: set[int] = set()
    for word in words:
        found.update(strings[word])
    return sorted(found)


def positions(names: list[str], name: str, start: int = 0) -> list[int]:
    """Where ``name`` occurs in ``names`` (the skeleton's element names, the tag stream's tag
    names) from ``start`` on: ``list.index`` steps over the others in C."""
    out: list[int] = []
    at = start - 1
    for _ in range(names.count(name)):
        try:
            at = names.index(name, at + 1)
        except ValueError:
            break
        out.append(at)
    return out


def path_or(doc: Document, own: np.ndarray) -> np.ndarray:
    """Per element, ``own`` (int64) OR-ed over the element and all its ancestors.

    The root (element 0) contributes nothing. Pointer jumping: after round k
    every element holds the values of its 2^k nearest ancestors, so a page of
    depth d takes log2(d) array steps and no Python loop per element; the
    steps are the skeleton's (:attr:`~scrapy_bte.core.document.Skeleton.ancestor_jumps`),
    found once per page. (A C pass did it in one forward pass, and saved 0.9 %
    of ``extract()``'s time: less than a second implementation costs, see
    ``docs/evaluation.md``.)
    """
    acc = own.copy()
    acc[0] = 0
    for jump in doc.skeleton.ancestor_jumps:
        acc |= acc[jump]
    return acc


def nearest_marked(doc: Document, marked: np.ndarray) -> np.ndarray:
    """Per element, the nearest of itself and its ancestors that ``marked`` (bool) marks, 0 for none:
    the deepest, and so the last in document order, found by :func:`path_or`'s pointer jumping
    with ``max`` in place of OR (a reply's post item nested in the post it answers is its own)."""
    acc = np.where(marked, np.arange(len(marked), dtype=np.int64), 0)
    acc[0] = 0
    for jump in doc.skeleton.ancestor_jumps:
        np.maximum(acc, acc[jump], out=acc)
    return acc


#: Sectioning elements and ``<main>``: a ``<header>`` or ``<footer>`` inside one is its own, not
#: the page's (the rule of HTML's accessibility mapping for the banner and contentinfo landmarks).
SECTIONING = ("article", "aside", "main", "nav", "section")


def page_level(doc: Document, names: tuple[str, ...]) -> np.ndarray:
    """Per element, whether it is one of ``names`` (``header``, ``footer``) and no sectioning
    element (:data:`SECTIONING`) holds it: the page's own header or footer, not an article's,
    a section's or a card's."""
    sk = doc.skeleton
    strings = sk.name_strings

    def named(wanted: tuple[str, ...]) -> np.ndarray:
        return np.fromiter((name in wanted for name in strings), bool, len(strings))[sk.el_name_id]

    edges = named(names)
    if not edges.any():
        return edges
    sectioned = path_or(doc, named(SECTIONING).astype(np.int64))[np.maximum(sk.parents, 0)] > 0
    return edges & ~sectioned
