"""Where the page holds a few words, found in one pass over the markup as it came.

Several readers start from a substring of the raw page: the ``<noscript>``
check before step 0, the page-type classifier's JSON-LD types, and every
article-field scan (``ld+json``, ``itemprop``, ``<time``, ...). Each search
on its own is a pass over the whole page, most of them finding nothing, and
a page seen once pays for every one. The document model finds them all in
one pass when it is built (:attr:`scrapy_bte.core.document.Document.marks`)
and every reader asks it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

from . import accel
from .hidden import SCREEN_READER_WORDS

#: The C pass that finds every word of :data:`PAGE_WORDS` in one read of the page.
_MARKS = accel.load("core.marks")

#: The words the readers of the raw page start from: the ``<noscript>`` start tags
#: (:func:`scrapy_bte.core.document.noscript_content`), JSON-LD scripts (the
#: page-type classifier and the fields), the article fields' other scans
#: (:mod:`scrapy_bte.fields.markup`) and the class names of text only screen
#: readers read (:mod:`scrapy_bte.core.hidden`).
PAGE_WORDS = (
    "ld+json",
    "itemprop",
    "<time",
    "author",
    "<html",
    "<HTML",
    "<body",
    "canonical",
    "<noscript",
    "<NOSCRIPT",
    *SCREEN_READER_WORDS,
)


def find_all(markup: str, words: tuple[str, ...]) -> list[list[int]]:
    """Per word (ASCII, at least 2 characters), every offset where ``markup`` holds it, overlaps included."""
    c = _MARKS.use()
    if c is None:
        return find_all_reference(markup, words)
    return c.find_all(markup, words)


def find_all_reference(markup: str, words: tuple[str, ...]) -> list[list[int]]:
    """The Python reference of :func:`find_all`: one substring search per occurrence."""
    out: list[list[int]] = []
    for word in words:
        found: list[int] = []
        at = markup.find(word)
        while at >= 0:
            found.append(at)
            at = markup.find(word, at + 1)
        out.append(found)
    return out


def find_strings(text: str, words: tuple[str, ...], ends: list[int]) -> list[list[int]]:
    """Per word (as :func:`find_all`'s), the strings of ``text`` that hold it, in increasing order:
    ``text`` is strings joined by a separator no word holds, ``ends`` where each one ends
    (increasing, the last ``len(text)``), and a string's index is ``bisect_right(ends, at)`` of
    an offset in it. The C pass maps offsets to strings without a Python int per offset; else
    :func:`find_strings_reference`.
    """
    c = _MARKS.use()
    if c is None:
        return find_strings_reference(text, words, ends)
    return c.find_strings(text, words, ends)


def find_strings_reference(text: str, words: tuple[str, ...], ends: list[int]) -> list[list[int]]:
    """The Python reference of :func:`find_strings`: per word, one search per string that holds
    it, resumed past that string's end."""
    out: list[list[int]] = []
    for word in words:
        found: list[int] = []
        at = text.find(word)
        while at >= 0:
            i = bisect_right(ends, at)
            found.append(i)
            at = text.find(word, ends[i] + 1) if i < len(ends) else -1
        out.append(found)
    return out


class Marks:
    """Where the page holds each of ``words`` (:data:`PAGE_WORDS`), found in one pass."""

    def __init__(self, markup: str, words: tuple[str, ...] = PAGE_WORDS) -> None:
        self.at = dict(zip(words, find_all(markup, words)))

    def cut(self, spans: list[tuple[int, int]], words: tuple[str, ...]) -> Marks:
        """The marks of ``words`` in the markup with ``spans`` cut out (increasing, disjoint
        (start, end) pairs, :func:`scrapy_bte.core.hidden.cut`): each offset moved back by what
        was cut before it, a word that lay in a span, or across its start, gone; a word the
        cut makes by joining two pieces is not found. No second search of the page."""
        starts = [start for start, _ in spans]
        before = [0, *accumulate(end - start for start, end in spans)]
        moved = Marks.__new__(Marks)
        moved.at = {}
        for word in words:
            kept: list[int] = []
            for at in self.at[word]:
                k = bisect_right(starts, at)  # spans starting at or before the word
                if (k and at < spans[k - 1][1]) or (k < len(spans) and at + len(word) > starts[k]):
                    continue
                kept.append(at - before[k])
            moved.at[word] = kept
        return moved

    def find(self, word: str, start: int = 0, end: int | None = None) -> int:
        """What ``markup.find(word, start, end)`` returns (``word`` one of the words, ``start`` >= 0)."""
        found = self.at[word]
        k = bisect_left(found, start)
        if k == len(found) or (end is not None and found[k] + len(word) > end):
            return -1
        return found[k]

    def has(self, word: str) -> bool:
        """Whether the page holds ``word`` at all."""
        return bool(self.at[word])
