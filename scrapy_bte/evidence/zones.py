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

import numpy as np

from ..core.document import Document
from .hints import block_hints, group_bit
from .labels import label_features

_TOKEN_RE = re.compile(r"\w+")
#: Blocks before the article's first paragraph that may hold its headline, kicker, byline and date.
TOP_REACH = 8
#: Longest byline or dateline block, in words.
BYLINE_WORDS = 25


#: The characters outside ASCII whose lower case holds an ASCII letter ("İ" -> "i̇", "K" (Kelvin) -> "k").
_LOWER_TO_ASCII = ("\u0130", "\u212a")


def _texts_holding(texts: list[str], words: list[str]) -> set[int]:
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


def headline_mask(doc: Document, title: str | None, end: int | None = None) -> np.ndarray:
    """Blocks that repeat the page title (the headline): at least 80 % of the words in common both ways;
    with ``end``, only among the blocks before it (the rest of the mask stays false).

    Only blocks holding one of the title's longest words can: a block missing all of the
    ``k - ceil(0.8 k) + 1`` longest of the title's ``k`` words misses too many. Finding those
    words in the candidates' joined text leaves a few blocks to tokenise instead of every one
    of about the title's length (:func:`headline_mask_reference`, the same mask).
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    wanted = set(_TOKEN_RE.findall(title.lower())) if title else set()
    if title is None or len(wanted) < 2:
        return out
    # Only blocks of about the title's length can share 80 % of its words both ways.
    size = len(title)
    words, chars = (doc.words, doc.chars) if end is None else (doc.words[:end], doc.chars[:end])
    near = (words >= 1) & (words <= 40) & (chars >= 0.4 * size) & (chars <= 2.5 * size + 20)
    blocks = near.nonzero()[0].tolist()
    if not blocks:
        return out
    texts = doc.texts
    spare = len(wanted) - math.ceil(0.8 * len(wanted))
    found = _texts_holding([texts[b] for b in blocks], sorted(wanted, key=len, reverse=True)[: spare + 1])
    need = 0.8 * len(wanted)
    for i in sorted(found):
        b = blocks[i]
        text = texts[b].lower()
        # A word in common is a substring too: counting substrings rules most candidates out untokenised.
        if sum(map(text.__contains__, wanted)) < need:
            continue
        have = set(_TOKEN_RE.findall(text))
        common = len(have & wanted)
        if common >= 0.8 * len(wanted) and common >= 0.8 * len(have):
            out[b] = True
    return out


def headline_mask_reference(doc: Document, title: str | None) -> np.ndarray:
    """The Python reference of :func:`headline_mask`: every block of about the title's length tokenised."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    wanted = set(_TOKEN_RE.findall(title.lower())) if title else set()
    if title is None or len(wanted) < 2:
        return out
    size = len(title)
    near = (doc.words >= 1) & (doc.words <= 40) & (doc.chars >= 0.4 * size) & (doc.chars <= 2.5 * size + 20)
    for b in np.flatnonzero(near).tolist():
        have = set(_TOKEN_RE.findall(doc.texts[b].lower()))
        common = len(have & wanted)
        out[b] = common >= 0.8 * len(wanted) and common >= 0.8 * len(have)
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
# :func:`headline_mask` above marks every block that shares most of its words with the title
# (the furniture before the body); :func:`find_headline` picks the one ``h1``/``h2`` that repeats
# one of the markup's titles (the headline the fields and the title read).

#: A title may exceed its heading by this many characters (" | Site Name") and still repeat it.
SITE_CHARS = 30

_NOT_WORD = re.compile(r"[^\w\s]|_")


def fold(text: str) -> str:
    """Case, punctuation and symbols folded away, for comparing a heading with a title."""
    return " ".join(_NOT_WORD.sub(" ", text.casefold()).split())


def similar_folded(got: str, want: str, overlap: bool) -> bool:
    """Whether a heading repeats a title, both :func:`fold`-ed: equal, or one inside the other (a
    title with the site's name or a section around the headline); with ``overlap``, also most words
    shared (the same headline reworded)."""
    if not got or not want:
        return False
    if got == want:
        return True
    shorter, longer = (got, want) if len(got) <= len(want) else (want, got)
    if shorter in longer and (
        len(shorter) >= 0.5 * len(longer)
        or (
            (longer.startswith(shorter) or longer.endswith(shorter))
            and len(longer) - len(shorter) <= min(SITE_CHARS, len(shorter) // 2)
        )
    ):
        return True
    if not overlap:
        return False
    a, b = set(got.split()), set(want.split())
    common = len(a & b)
    return common >= 3 and common >= 0.6 * min(len(a), len(b))


_HEADLINE_TAGS = frozenset({"h1", "h2"})


def find_headline(doc: Document, titles: list[str] | str | None) -> int | None:
    """The ``h1``/``h2`` block that repeats one of ``titles`` (the markup's, in trust order), else the first ``h1``."""
    opener = doc.opener
    # Headings are found and folded as the search reaches them: the headline usually stands in the
    # first third of the page, and the scan of the openers stops there.
    heads = compress(range(len(opener)), map(_HEADLINE_TAGS.__contains__, opener))
    first = next(heads, None)
    if first is None:
        return None
    seen = [first]
    if isinstance(titles, str):
        titles = [titles]
    # A title that folds to nothing repeats no heading.
    wanted = [want for want in map(fold, titles) if want] if titles else []
    if wanted:
        texts = doc.texts
        folded: list[str] = []
        for overlap in (False, True):
            for want in wanted:
                for k in count():
                    if k == len(seen):
                        i = next(heads, None)
                        if i is None:
                            break
                        seen.append(i)
                    if k == len(folded):
                        folded.append(fold(texts[seen[k]]))
                    if similar_folded(folded[k], want, overlap):
                        return seen[k]
    for i in chain(seen, heads):
        if opener[i] == "h1":
            return i
    return None
