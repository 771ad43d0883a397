"""Text only a screen reader reads: left out before step 0.

Sites label their controls and cards for screen readers with elements a
stylesheet moves out of sight ("Regular price", "Rated 4 stars out of 5",
"Opens in a new tab", "Skip to content", a heading "Breadcrumb"), and some
write a visible label twice, once for the eye and once for the ear (the two
copies then run together without a space). A reader of the page never
sees them. The class names that do it are a handful shared by the common
stylesheets (Bootstrap, Tailwind, WordPress, Drupal, Foundation, the GOV.UK
and USWDS design systems), so the markup says what the screen shows
without running the stylesheet.

Measured on WCXB's 1,297 pages (574 pages of 1,131 sites have elements of
these classes and their kin): 24,670 words in them, about 6 % of which also stand in the gold
text somewhere (mostly the single words "Yes", "No", "Close"); none of the
1,350 words in elements of more than 20 words. Amazon's ``a-offscreen``
price is left alone: its visible copy is split into whole and fraction.
So is eBay's ``clipped``: a name other sites give to text cut short on
screen, still shown.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import accel

#: The C pass of :func:`screen_reader_elements` (its Python twin: :func:`screen_reader_elements_reference`).
_HIDDEN = accel.load("core.hidden")

#: The words the page is searched for (found with the document's other marks,
#: :data:`scrapy_bte.core.marks.PAGE_WORDS`): every class of
#: :data:`SCREEN_READER_CLASSES` holds one. Each word more slows that search
#: on every page, so one word stands for a family ("visually").
SCREEN_READER_WORDS = (
    "sr-only",
    "visually",
    "screen-reader",
    "screenreader",
    "show-for-sr",
    "element-invisible",
)

#: Class names that hide an element from the eye and leave it to screen readers.
SCREEN_READER_CLASSES = frozenset(
    {
        "sr-only",  # Bootstrap 3-4, Tailwind
        "usa-sr-only",  # USWDS
        "visually-hidden",  # Bootstrap 5, Shopify themes
        "visually-hidden-focusable",  # Bootstrap 5's skip links, shown on focus only
        "u-visually-hidden",
        "is-visually-hidden",
        "govuk-visually-hidden",
        "visuallyhidden",  # HTML5 Boilerplate
        "screen-reader-text",  # WordPress
        "screen-reader-only",
        "screenreader",
        "show-for-sr",  # Foundation
        "element-invisible",  # Drupal 7
    }
)

#: ... as a tuple, for the C pass.
_CLASSES = tuple(sorted(SCREEN_READER_CLASSES))
# Markup is read with ASCII rules, as HTML reads it: white space, letters and case folding.
_START_RE = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)((?:\s[^<>]*)?)>", re.ASCII)
_CLASS_RE = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE | re.ASCII)
_TOKEN_RE = re.compile(r"\S+", re.ASCII)
# An element dropped here never runs past a script, a style or a comment:
# the class word stood inside one, or the page nests badly.
_BOUNDARY_RE = re.compile(r"</?(?:script|style)\b|-->", re.IGNORECASE | re.ASCII)
#: HTML's void elements: a start tag of one has no element to drop. Handed to the C pass as
#: the classes are, so the list has this one home.
VOID_ELEMENTS = ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr")
_VOID = frozenset(VOID_ELEMENTS)
#: An element longer than this (characters of markup, end tag included) stays: labels for
#: screen readers are a few words, and the bound keeps the work per element constant.
MAX_ELEMENT_CHARS = 10_000
#: A class word further than this from its tag's ``<`` is not looked at.
MAX_TAG_CHARS = 4_000
#: At most this many class words are looked at per page (the most seen on WCXB: 232).
MAX_CANDIDATES = 2_000


@lru_cache(maxsize=64)
def _tag_re(name: str) -> re.Pattern[str]:
    """Start and end tags of one element name, any case: the nesting count of :func:`_element_end`."""
    return re.compile(r"<(/?)" + re.escape(name) + r"(?=[\s/>])", re.IGNORECASE | re.ASCII)


def _element_end(markup: str, name: str, pos: int) -> int | None:
    """Where the element of ``name`` whose start tag ends at ``pos`` ends (after its end tag),
    if it ends within :data:`MAX_ELEMENT_CHARS`."""
    depth = 1
    for m in _tag_re(name).finditer(markup, pos, pos + MAX_ELEMENT_CHARS):
        if m.group(1):
            depth -= 1
            if depth == 0:
                close = markup.find(">", m.end())
                return None if close < 0 else close + 1
        else:
            depth += 1
    return None


def screen_reader_elements(markup: str, found: list[int]) -> list[tuple[int, int]]:
    """:func:`screen_reader_elements_reference` by its C pass where built."""
    first = sorted(found)[:MAX_CANDIDATES]
    c = _HIDDEN.use()
    if c is None:
        return screen_reader_elements_reference(markup, first)
    return c.screen_reader_elements(markup, first, _CLASSES, VOID_ELEMENTS, MAX_TAG_CHARS, MAX_ELEMENT_CHARS)


def screen_reader_elements_reference(markup: str, found: list[int]) -> list[tuple[int, int]]:
    """Where ``markup`` holds elements of :data:`SCREEN_READER_CLASSES`: (start, end) pairs,
    increasing and disjoint, end tags included.

    ``found``: every offset where the markup holds one of
    :data:`SCREEN_READER_WORDS` (the document's marks), in any order. A word
    counts only inside the class attribute of the start tag it stands in;
    an element never closed, one longer than :data:`MAX_ELEMENT_CHARS` and one
    that would cross a script, a style or a comment stay. The first
    :data:`MAX_CANDIDATES` words are looked at, each searched at most that far,
    so the work per page is bounded whatever the markup.
    """
    spans: list[tuple[int, int]] = []
    pos = 0
    for at in sorted(found)[:MAX_CANDIDATES]:
        if at < pos:
            continue  # inside an element already dropped
        lt = markup.rfind("<", max(pos, at - MAX_TAG_CHARS), at)
        if lt < 0 or markup.find(">", lt, at) >= 0:
            continue  # in text, not in a tag
        m = _START_RE.match(markup, lt)
        if m is None or m.end() <= at:
            continue
        name = m.group(1).lower()
        if name in _VOID or m.group(2).endswith("/"):
            continue
        cls = _CLASS_RE.search(m.group(2))
        if cls is None:
            continue
        value = next(v for v in cls.groups() if v is not None)
        if SCREEN_READER_CLASSES.isdisjoint(_TOKEN_RE.findall(value)):
            continue
        end = _element_end(markup, name, m.end())
        if end is None or _BOUNDARY_RE.search(markup, lt, end) is not None:
            continue
        spans.append((lt, end))
        pos = end
    return spans


def cut(markup: str, spans: list[tuple[int, int]]) -> str:
    """``markup`` without ``spans`` (increasing, disjoint (start, end) pairs)."""
    if not spans:
        return markup
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out.append(markup[pos:start])
        pos = end
    out.append(markup[pos:])
    return "".join(out)


#: A text shorter than this is not read as two copies ("aa", "Yes Yes").
UNDOUBLED_MIN = 8


def undoubled(text: str, shortest: int = UNDOUBLED_MIN) -> str:
    """``text`` once where the page printed it twice without a space: a visible copy and one for
    screen readers (or a second template slot) run together when a class this module does not know
    hides the second ("Get Protection NowGet Protection Now", eBay's "EUR 20.99EUR 20.99", an
    author's "Andrea WongAndrea Wong"). On WCXB's development pages ``auto`` kept 17 such blocks on
    12 pages; WCXB's gold holds the single copy of 13 of them and the double of none (the other
    two are rows of dots, which stay as they are). ``shortest``: the shortest text read as two copies."""
    half = len(text) // 2
    # The first letters compared before the halves: most texts part at once, without a copy of either.
    if (
        len(text) >= shortest
        and len(text) % 2 == 0
        and text[0] == text[half]
        and text[-1] == text[half - 1]
        and text[:half] == text[half:]
    ):
        once = text[:half]
        # Two copies, not a text that repeats a shorter one (a sentence forty times, a rule of dots).
        if (text + text).find(text, 1) == half and any(map(str.isalnum, once)):
            return once
    return text
