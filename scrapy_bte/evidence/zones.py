"""The headline and the blocks around it: which blocks repeat the title, the headline
block itself, and the kicker, byline, dateline and credit blocks just before the article's
first paragraph.

The same evidence serves several readers: ``auto``'s never-body rules
(:mod:`scrapy_bte.learned.never_body`), the body labels of training
(:mod:`scrapy_bte.training.labels`), the article fields' zones and title
(:mod:`scrapy_bte.fields.zones`, :mod:`scrapy_bte.fields.title`) and the
benchmarks, so each rule is written here once.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from itertools import accumulate, chain, compress, count
from typing import Any

import numpy as np

from ..core.document import Document
from ..core.scripts import has_spaceless, weighted_words
from .hints import block_hints, group_bit
from .labels import label_features

#: Blocks before the article's first paragraph that may hold its headline, kicker, byline and date.
TOP_REACH = 8
#: Longest byline or dateline block, in words.
BYLINE_WORDS = 25


#: The characters outside ASCII whose lower case holds an ASCII letter ("İ" -> "i̇", "K" (Kelvin) -> "k").
_LOWER_TO_ASCII = ("\u0130", "\u212a")


def texts_holding(texts: list[str], words: list[str]) -> set[int]:
    """Indices of the texts whose lower case holds one of ``words``, and maybe a few more.

    Lower-casing a page's worth of text outside ASCII costs about 3 ns a character. ASCII words
    are looked for in the UTF-8 bytes of the joined texts lowered as ASCII instead: a character
    outside ASCII, but for :data:`_LOWER_TO_ASCII`, lowers to no ASCII letter and is encoded
    in bytes outside ASCII, so every text whose lower case holds the word holds it there too.
    """
    joined = "\n".join(texts)
    lines = joined.count("\n") == len(texts) - 1  # no text holds a line break
    if lines and all(map(str.isascii, words)) and not any(c in joined for c in _LOWER_TO_ASCII):
        raw = joined.encode("utf-8", "surrogatepass").lower()
        found: set[int] = set()
        for needle in map(str.encode, words):
            line = last = 0
            at = raw.find(needle)
            while at >= 0:
                line += raw.count(b"\n", last, at)
                found.add(line)
                last = raw.find(b"\n", at)  # on to the next text
                if last < 0:
                    break
                at = raw.find(needle, last)
        return found
    low = joined.lower()
    if len(low) != len(joined):  # a character whose lower case is longer shifts offsets
        texts = [t.lower() for t in texts]
        low = "\n".join(texts)
    ends = list(accumulate(len(t) + 1 for t in texts))
    found = set()
    for word in words:
        at = low.find(word)
        while at >= 0:
            found.add(bisect_right(ends, at))
            at = low.find(word, at + 1)
    return found


# ---- Whether a text repeats the page title: the one test of every headline rule ---------------------

_WORD_RE = re.compile(r"[^\W_]+")
#: Share of a text's words that are the title's, and of the title's words that are the text's, for
#: the text to repeat the title reworded ("Council backs new ferry timetable" for "Harbour council
#: backs new ferry timetable").
SHARED_WORDS = 0.8
#: Share of the longer's length the shorter of a text and a title must have where the longer holds it.
HELD_SHARE = 0.5


def fold(text: str) -> str:
    """The words of ``text`` (runs of letters and digits) lowercased, one space apart: the form in
    which :func:`repeats_title` compares a text with a title."""
    return " ".join(_WORD_RE.findall(text.lower()))


def names_a_headline(folded: str) -> bool:
    """Whether a :func:`fold`-ed title is long enough for a block repeating it to be the headline:
    two distinct words or more, or as many as the blocks count in it where it holds letters of a
    script written without spaces (:func:`~scrapy_bte.core.scripts.weighted_words`). A one-word
    title is a site's name; a Japanese or Chinese title written without a space or a mark is one
    token of twenty letters, eight words."""
    words = folded.split()
    if len(words) >= 2 and len(set(words)) >= 2:
        return True
    return has_spaceless(folded) and weighted_words(folded) >= 2


def repeats_title(text: str, title: str, reworded: bool = True) -> bool:
    """Whether ``text`` repeats ``title``, both :func:`fold`-ed: the one test of the headline rules
    (:func:`headline_mask`, :func:`find_headline` and :func:`scrapy_bte.fields.title.settle`).

    One holds the other from one of its words on and has at least :data:`HELD_SHARE` of its
    length: a title with the site's name or a section around the headline ("Headline | Site",
    "Site: Headline", the site's name run on without a space: "HeadlineSite"); or, with
    ``reworded``, the two have :data:`SHARED_WORDS` of their words in common both ways: the same
    headline reworded.
    """
    if not text or not title:
        return False
    shorter, longer = (text, title) if len(text) <= len(title) else (title, text)
    if len(shorter) >= HELD_SHARE * len(longer) and f" {shorter}" in f" {longer}":
        return True
    if not reworded:
        return False
    have, wanted = set(text.split()), set(title.split())
    common = len(have & wanted)
    return common >= SHARED_WORDS * len(wanted) and common >= SHARED_WORDS * len(have)


def _needles(title: str, longest: list[str]) -> list[str]:
    """Pieces of the folded ``title`` (its distinct words ``longest``, longest first) of which every
    text repeating it (:func:`repeats_title`) holds one.

    A text that rewords the title holds all but ``k - ceil(SHARED_WORDS k)`` of its ``k`` words, and
    one that holds the title all of them: it holds one of the ``k - ceil(SHARED_WORDS k) + 1`` longest.
    A text the title holds is the title's characters from the start of a word on, :data:`HELD_SHARE`
    of them at least: it holds every word ending within that many characters of its first, or,
    where its first word is longer, that word's first characters. Each such run needs one of its
    words among the pieces: one already there, else its longest (a long word is in fewer blocks).
    """
    needles = longest[: len(longest) - math.ceil(SHARED_WORDS * len(longest)) + 1]
    words = title.split()
    run = math.ceil(HELD_SHARE * len(title))
    last = 0
    start = end = -1  # where this word starts, and where words[last - 1] ends (before the first: -1)
    for i, word in enumerate(words):
        start += 1
        if start > len(title) - run:
            break
        while last < len(words) and end + 1 + len(words[last]) <= start + run:
            end += 1 + len(words[last])
            last += 1
        # The shortest run from this word holds words[i:last].
        if last <= i:
            needles.append(word[:run])  # that run is a piece of this word
        elif not any(map(needles.__contains__, words[i:last])):
            needles.append(max(words[i:last], key=len))
        start += len(word)
    return needles


def title_sized(words: Any, chars: Any, title: str) -> Any:
    """Per block (of ``words`` and ``chars``, arrays or one block's numbers), whether it is of about
    ``title``'s length, the only blocks compared with it: 1 to 40 words, 0.4 to 2.5 times its
    characters and 20 more."""
    size = len(title)
    return (words >= 1) & (words <= 40) & (chars >= 0.4 * size) & (chars <= 2.5 * size + 20)


def headline_mask(doc: Document, title: str | None, end: int | None = None) -> np.ndarray:
    """Blocks that repeat the page title (the headline, :func:`repeats_title`); with ``end``, only
    among the blocks before it (the rest of the mask stays false).

    Only blocks holding one of the title's pieces :func:`_needles` picks can: finding those in the
    candidates' joined text leaves a few blocks to fold instead of every one of about the title's
    length (:func:`headline_mask_reference`, the same mask).
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    folded = fold(title) if title else ""
    if title is None or not names_a_headline(folded):
        return out
    wanted = set(folded.split())
    # Only blocks of about the title's length are compared with it.
    words, chars = (doc.words, doc.chars) if end is None else (doc.words[:end], doc.chars[:end])
    blocks = title_sized(words, chars, title).nonzero()[0].tolist()
    if not blocks:
        return out
    # A word a block holds is a substring of it too, and substrings rule most candidates out unfolded:
    # a block repeating the title reworded holds ceil(0.8 k) of its k words, and one the title holds is
    # made of the title's words, its last maybe cut short, to at least HELD_SHARE of the title's length.
    longest = sorted(wanted, key=len, reverse=True)
    need_words = SHARED_WORDS * len(wanted)
    need_chars = HELD_SHARE * len(folded) - len(longest[0])
    title_words = folded.split()
    texts = doc.texts
    for i in texts_holding([texts[b] for b in blocks], _needles(folded, longest)):
        b = blocks[i]
        held = list(filter(texts[b].lower().__contains__, wanted))
        # The title's words a block it holds is made of count with their spaces, as often as the title has them.
        if len(held) >= need_words or sum(title_words.count(w) * (len(w) + 1) for w in held) >= need_chars:
            out[b] = repeats_title(fold(texts[b]), folded)
    return out


def subject_mask(doc: Document, title: str | None) -> np.ndarray:
    """Blocks that are the page's title as a thread prints it: above the first post and as each
    reply's subject line ("Re: ..."). They are :func:`headline_mask`'s blocks that, a leading "Re"
    aside, are no longer than the title: a line that quotes the title among more words ("@JonB said
    in <title>:") is a post's text."""
    out = headline_mask(doc, title)
    if title is None or not out.any():
        return out
    size = len(fold(title))
    texts = doc.texts
    for b in out.nonzero()[0].tolist():
        text = fold(texts[b])
        out[b] = len(text[3:] if text.startswith("re ") else text) <= size
    return out


def headline_mask_reference(doc: Document, title: str | None) -> np.ndarray:
    """The Python reference of :func:`headline_mask`: every block of about the title's length
    (1 to 40 words, 0.4 to 2.5 times the title's characters and 20 more) that repeats a title
    of two words or more (:func:`names_a_headline`)."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    folded = fold(title) if title else ""
    if title is None or not names_a_headline(folded):
        return out
    for b in np.flatnonzero(title_sized(doc.words, doc.chars, title)).tolist():
        out[b] = repeats_title(fold(doc.texts[b]), folded)
    return out


def top_furniture(doc: Document, first: int, title: str | None) -> np.ndarray:
    """Headline, kicker, byline and dateline blocks standing just before block ``first`` (the
    article's first paragraph): the headline anywhere before it, and the short blocks of the
    :data:`TOP_REACH` before it that read as a byline, date, reading time or credit or sit in
    markup named byline/author/date."""
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0 or first <= 0:
        return out
    # Only a headline before ``first`` counts: the blocks after it are not searched.
    head = headline_mask(doc, title, first)
    out[:first] = head[:first]
    lo = max(0, first - TOP_REACH)
    heads = head[:first].nonzero()[0]
    if len(heads):
        lo = min(lo, int(heads[-1]))
    # Only the blocks lo..first-1 are read, about TOP_REACH of them: a Python test per block
    # costs less than a dozen array operations of a few microseconds each.
    flags = label_features(doc)[lo:first, 2:6].tolist()
    path, own = block_hints(doc)
    byline = ((path[lo:first] | own[lo:first]) & group_bit("byline")).tolist()
    words = doc.words[lo:first].tolist()
    for b, (byline_start, credit, date, read_time), hint, size in zip(count(lo), flags, byline, words):
        if size <= BYLINE_WORDS and (
            byline_start > 0 or credit > 0 or read_time > 0 or hint > 0 or (date > 0 and size <= 8)
        ):
            out[b] = True
    return out


# ---- The headline block the fields and ``auto``'s zones read -----------------------------------
# :func:`headline_mask` above marks every block that repeats the title (the furniture before the
# body); :func:`find_headline` picks the one ``h1``/``h2`` that repeats one of the markup's titles
# (the headline the fields and the title read), by the same test.

_HEADLINE_TAGS = frozenset({"h1", "h2"})


def find_headline(doc: Document, titles: list[str] | str | None) -> int | None:
    """The ``h1``/``h2`` block that repeats one of ``titles`` (the markup's, in trust order), else the first ``h1``.

    A heading that holds a title or is held by it (:func:`repeats_title` without ``reworded``) wins
    over one that rewords a title more trusted: the first search covers every title.
    """
    return find_headline_held(doc, titles)[0]


def find_headline_held(doc: Document, titles: list[str] | str | None) -> tuple[int | None, bool]:
    """:func:`find_headline`, and whether the block holds one of ``titles`` or is held by it
    (:func:`repeats_title` without ``reworded``): the test the title's rule makes next, answered
    by the search (the first search covers every title, so it found no such block where it says False)."""
    opener = doc.opener
    # Headings are found and folded as the search reaches them: the headline usually stands in the
    # first third of the page, and the scan of the openers stops there.
    heads = compress(range(len(opener)), map(_HEADLINE_TAGS.__contains__, opener))
    first = next(heads, None)
    if first is None:
        return None, False
    seen = [first]
    if isinstance(titles, str):
        titles = [titles]
    # A title that folds to nothing repeats no heading.
    wanted = [want for want in map(fold, titles) if want] if titles else []
    if wanted:
        texts = doc.texts
        folded: list[str] = []
        for reworded in (False, True):
            for want in wanted:
                for k in count():
                    if k == len(seen):
                        i = next(heads, None)
                        if i is None:
                            break
                        seen.append(i)
                    if k == len(folded):
                        folded.append(fold(texts[seen[k]]))
                    if repeats_title(folded[k], want, reworded):
                        return seen[k], not reworded
    for i in chain(seen, heads):
        if opener[i] == "h1":
            return i, False
    return None, False
