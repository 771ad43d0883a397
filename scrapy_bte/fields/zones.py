"""The headline, byline and dateline blocks of a page, found among its text blocks.

Where the markup states no author or date, readers still see them: a
short line near the headline that starts "By ..." or sits in an element
named for the author, a line that is a date. The same blocks are what an
article body leaves out, so this returns their indices with the values.

Rules are site-independent: the headline is the ``h1`` (or ``h2``) that
repeats the title, falling back to the first ``h1``
(:func:`scrapy_bte.evidence.zones.find_headline`); bylines and
datelines are looked for in a window around it, by the words that open
a byline in the languages of the pages measured (the openers of the
``byline_start`` flag, :func:`scrapy_bte.evidence.labels.byline_opener`), by
``class``/``id`` words every CMS uses (byline, author, date, time, publish:
:data:`scrapy_bte.evidence.words.ZONE_GROUPS`, read by the one hint reader
:mod:`scrapy_bte.evidence.hints`), and by a date that fills most of the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.document import HEADING_TAGS, Document
from ..evidence.hints import element_bits, group_bit
from ..evidence.labels import byline_opener
from ..evidence.words import BYLINE_LABEL_RE as _BY_LABEL
from ..evidence.words import MEMBER_SINCE_RE, NAME_PARTICLES
from ..evidence.zones import find_headline_held
from . import dates, values

#: Blocks before and after the headline searched for a byline or dateline.
BEFORE, AFTER = 4, 14
#: A byline's names (:func:`~scrapy_bte.fields.values.author`: without "By" and the credits after them)
#: with this many lower-case words, not :data:`~scrapy_bte.evidence.words.NAME_PARTICLES`, are a
#: sentence. A user name alone ("julian") is one such word.
SENTENCE_WORDS = 3
#: A byline or dateline is short: at most this many words and characters.
MAX_WORDS, MAX_CHARS = 24, 220
# A block that is only a byline's label ("Author", "Topic Author", "Article by:"): the names follow.
# Where an author's name ends inside a byline: a separator, a digit, a date word.
_NAME_END = re.compile(r"\s+[-–—|•·/]\s+|\s*[|•·⋅»›]\s*|\d|\b(?:[Uu]pdated|[Pp]ublished|on|am|le|el|il|em|in)\b")
_WORD = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class Zones:
    """Indices of the headline, byline and dateline blocks, and the values read from them."""

    headline: int | None = None
    byline: tuple[int, ...] = ()
    dateline: tuple[int, ...] = ()
    author: str | None = None
    date: str | None = None
    #: Whether the headline holds one of the titles or is held by one (found so by
    #: :func:`~scrapy_bte.evidence.zones.find_headline_held`), not reworded nor the first ``h1``.
    headline_held: bool = False

    @property
    def blocks(self) -> tuple[int, ...]:
        """Every block found, sorted: what an article body leaves out."""
        found = set(self.byline) | set(self.dateline)
        if self.headline is not None:
            found.add(self.headline)
        return tuple(sorted(found))


def _lone_opener(low: str) -> bool:
    """Whether a lower-cased block is only the words that open a byline ("by", "written by"): the
    names follow in the next block."""
    opener = byline_opener(low + " x", word_colon=True)
    return opener is not None and opener >= len(low.rstrip())


#: The zones' bits of :func:`~scrapy_bte.evidence.hints.element_bits`: an element named for its
#: author, for its date (:data:`~scrapy_bte.evidence.words.ZONE_GROUPS`).
_AUTHOR_BIT, _DATE_BIT = group_bit("author"), group_bit("dated")
#: How many elements up from a block's container are read for the zones' bits (the block
#: features read :data:`~scrapy_bte.evidence.hints.REACH`; one more level names too much here).
HINT_DEPTH = 3


class _ZoneHints:
    """The zones' bits of a block: of its container and the elements above it, up to
    :data:`HINT_DEPTH`; the page's element bits are read when a block first asks."""

    __slots__ = ("_container", "_doc", "_elements", "_parents")

    def __init__(self, doc: Document) -> None:
        self._doc = doc
        self._elements: list[int] | None = None
        self._parents: list[int] = []
        self._container: list[int] = []

    def __call__(self, block: int) -> int:
        if self._elements is None:
            doc = self._doc
            self._elements = (element_bits(doc) & (_AUTHOR_BIT | _DATE_BIT)).tolist()
            self._parents, self._container = doc.el_parent, doc.container.tolist()
        elements, parents = self._elements, self._parents
        el, bits = self._container[block], 0
        for _ in range(HINT_DEPTH):
            if el <= 0:
                break
            bits |= elements[el]
            el = parents[el]
        return bits


def byline_author(text: str) -> str | None:
    """The names in a byline line: "By Ann Lee and Bo Li - 3 May 2024, 14:05" gives "Ann Lee and Bo Li";
    None where the line holds no name, "" where it is a sentence (:data:`SENTENCE_WORDS`): then the
    element the page names for its author holds other text, and no later block is read as the byline
    (on the development sets the next one was a link or a heading: "Related links", "Search Site")."""
    body = text
    at = dates.first_at(body)
    if at == 0:
        return None  # a dateline ("August 28, 2025"), whatever element it sits in
    if at is not None:
        body = body[:at]
    cut = _NAME_END.search(body)
    if cut is not None and cut.start() > 0:
        body = body[: cut.start()]
    body = body.strip(values.NAME_EDGES)
    words = body.split()
    if not words or len(words) > 12 or len(body) > values.MAX_AUTHOR_CHARS:
        return None
    if body.endswith("?"):
        return ""  # a question ("But guess what?"): a teaser's line in the author's element
    name = values.author(body)
    if (
        name is not None
        and sum(1 for w in name.split() if w[0].islower() and w not in NAME_PARTICLES) >= SENTENCE_WORDS
    ):
        return ""  # "Jump to explainer", "Di Montezemolo insists that ...": a sentence in the author's element
    return name


#: Openers of blocks that are captions and credits, never the article's byline.
_CAPTIONS = frozenset({"figcaption", "caption"})

#: :func:`body_dateline`: blocks searched before the body's first kept block and after its last, ...
BODY_BEFORE, BODY_AFTER = 3, 5
#: ... and the most words of a dateline there.
BODY_DATE_WORDS = 10


def body_dateline(doc: Document, blocks: list[int], month_first: bool = False) -> str | None:
    """The date of the first dateline (:func:`~.dates.is_dateline`: a date and at most two other
    words, none a revision's) among the kept ``blocks`` and the few around them, as ISO 8601.

    Read where neither the markup nor the blocks around the headline give a date: blogs print
    "Posted on April 13, 2023" under the article, or the date above the first paragraph far below
    the headline, and forum threads the first post's date in its header. On WCXB's pages read with
    the article and forum profiles, 11 dates right where none was given, 3 where WCXB gives none,
    none wrong; on documentation pages it reads versions and build stamps ("2.4.12", "Last
    checked"), and their profile does not ask for it."""
    if not blocks:
        return None
    texts, words, opener = doc.texts, doc.words, doc.opener
    for i in range(max(0, blocks[0] - BODY_BEFORE), min(doc.n_blocks, blocks[-1] + BODY_AFTER + 1)):
        if i > blocks[-1] and opener[i] in HEADING_TAGS:
            return None  # a section after the body ("40 Responses to ...", "Related"): its dates are its own
        text = texts[i]
        if (
            words[i] <= BODY_DATE_WORDS
            and opener[i] not in _CAPTIONS
            and _DIGIT.search(text) is not None
            and MEMBER_SINCE_RE.match(text) is None
            and dates.is_dateline(text)
        ):
            found = dates.from_text(text, month_first=month_first)
            if found is not None:
                return found
    return None


def page_zones(
    doc: Document,
    titles: list[str] | str | None = None,
    *,
    month_first: bool = False,
    byline: bool = True,
    dateline: bool = True,
    before: int | None = None,
) -> Zones:
    """Headline, byline and dateline blocks of ``doc`` (a :class:`~scrapy_bte.core.document.Document`).

    ``titles`` are the headline as the markup gives it (to find its block),
    most trusted first; ``month_first`` reads ambiguous numeric dates the
    US way. Blocks after the headline are searched before those above it.
    ``byline=False`` / ``dateline=False`` skip looking for those (a reader
    that has the value from the markup saves the time). With ``before``, only the blocks
    before it are wanted: the search stops where no later block can change which of them
    are found (the values read may then be missing).
    """
    n = doc.n_blocks
    if n == 0:
        return Zones()
    headline, held = find_headline_held(doc, titles)
    if not byline and not dateline:
        return Zones(headline, headline_held=held)
    if headline is not None:
        lo, hi = max(0, headline - BEFORE), min(n, headline + AFTER + 1)
        if before is not None and lo >= before:
            return Zones(headline, headline_held=held)  # every block searched stands at or after ``before``
        order = [*range(headline + 1, hi), *range(headline - 1, lo - 1, -1)]
    else:
        # Searched in page order: a block at or after ``before`` comes after every wanted one.
        lo, hi = 0, min(n, AFTER + 1, n if before is None else before)
        order = list(range(hi))
    words = doc.words[lo:hi].tolist()
    texts = doc.texts
    opener = doc.opener
    by_blocks: list[int] = []
    date_blocks: list[int] = []
    author = None if byline else ""  # "": not looked for
    date = None if dateline else ""
    pending_by: int | None = None  # a lone "By" block: the names follow
    hints_of = _ZoneHints(doc)
    for i in order:
        if author is not None and date is not None:
            break
        text = texts[i]
        if words[i - lo] > MAX_WORDS or len(text) > MAX_CHARS or opener[i] in _CAPTIONS:
            continue
        digit = _DIGIT.search(text) is not None
        if author is not None and not digit:
            continue  # only a dateline is still wanted, and a date needs a digit
        # Once the date is known, the one other reader of ``found`` (the names after a lone
        # "By") wants a block without digits, where there is no date to read.
        found = (
            dates.from_text(text, month_first=month_first)
            if digit and date is None and MEMBER_SINCE_RE.match(text) is None
            else None
        )
        if author is not None and found is None:
            continue  # only a dateline is still wanted, and this block is none (a lone "By" leads to names only)
        low = text.lower()
        by_end = byline_opener(low, word_colon=True)
        # The words that open a byline, and a name after them in the same block.
        by_words = by_end is not None and low[by_end:].strip(" :：") != ""
        if not by_words and (by_end is not None or _lone_opener(low) or _BY_LABEL.match(text) is not None):
            pending_by = i  # only "By" or "Author": the names follow in the next block
            continue
        hints = 0 if by_words else hints_of(i)
        if (
            author is None
            and pending_by is not None
            and i > pending_by
            and found is None
            and any(ch.isalpha() for ch in text)
            and not any(ch.isdigit() for ch in text)
        ):
            name = byline_author(text)
            if name:
                by_blocks.extend((pending_by, i))
                author = name
                pending_by = None
            elif name == "":
                author = ""  # a sentence where the names should be: no byline
        elif author is None and (by_words or hints & _AUTHOR_BIT or opener[i] == "address"):
            name = byline_author(text)
            if name == "":
                author = ""  # the author's element holds a sentence: no byline
            elif name is not None and (
                by_words or len(_WORD.findall(name)) >= len(_WORD.findall(values.without_job_title(text))) // 2
            ):
                by_blocks.append(i)
                author = name
        if (
            found is not None
            and date is None
            and (len(_WORD.findall(text)) <= 12 or hints & _DATE_BIT or i in by_blocks)
        ):
            date_blocks.append(i)
            date = found
    return Zones(headline, tuple(sorted(by_blocks)), tuple(sorted(date_blocks)), author or None, date or None, held)
