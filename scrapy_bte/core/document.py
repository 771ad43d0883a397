"""The document model every method reads, built in one pass over the markup.

Why not a DOM: a full lxml tree per page costs about as much as the fastest
extractors spend in total, and libxml2 silently drops content nested deeper
than 255 levels. Instead the markup is cut at tags by one C-level regex split;
everything after that is array arithmetic (numpy) plus one short Python loop
over block-level tags only, to keep the open-element stack.

Stages:

1. **Step 0** (improved BTE): drop what never holds main text: comments,
   ``<script>``, ``<style>``, ``<noscript>``, ``<template>``, ``<svg>``,
   ``<iframe>``, form controls, media, ``<marquee>``, ``<title>`` (kept
   aside for the title). A ``<noscript>`` that holds a page's worth of text
   is kept (:func:`noscript_content`). Before it, elements only screen
   readers read are left out (:mod:`.hidden`).
2. **Tokens** (Finn): each tag is a token worth -1, each word +1 (letters of
   scripts without spaces count a fraction, see :mod:`scrapy_bte.core.scripts`);
   consecutive tokens of one kind are run-length encoded (Baroni).
3. **Blocks**: text between block-level tags (and ``<br>``) forms a block
   with its features: words, characters, markup bytes and tags that produced
   it (markup of empty blocks is carried into the next text block, as in the
   text-density write-up), link words, container element and depth.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, count, repeat
from operator import add

import numpy as np

from . import accel, scripts
from .entities import unescape
from .hidden import SCREEN_READER_WORDS, cut, screen_reader_elements
from .marks import Marks
from .meta import meta_content, meta_tags
from .scripts import counted_text, has_spaceless, weighted_words

#: The C passes of step 0, the cut at tags, the block texts and the element skeleton.
_SCAN = accel.load("core.document")

# Elements whose content is dropped in step 0: code, styling, form
# controls and frames. Media elements (video, audio, object, canvas) and
# marquee keep their text: measured on the development sets, dropping their
# fallback text cut BTE spans in two on pages whose article starts under a
# player, and marquee text is running text CleanEval keeps.
_DROP = frozenset(
    {"script", "style", "title", "template", "svg", "math", "noscript", "select", "button", "textarea", "iframe"}
)
_OPEN_RE = re.compile(r"<(?:!|\?|(" + "|".join(sorted(_DROP)) + r")(?=[\s/>]))")
#: The end tags that end an open ``<button>`` as browsers parse one: an element that holds the
#: button closes (HTML's "in body" end tags of these names pop it), where the button was opened
#: inside that element, not within the button. A page that never closes a button (a poll's last
#: answer) would otherwise lose everything up to the next button's end tag: the rest of an
#: article, its footer and all. A ``<button>`` start tag ends the open one too.
BUTTON_ENDS = tuple(
    sorted(
        """address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption
        figure footer form h1 h2 h3 h4 h5 h6 header hgroup html li listing main menu nav ol pre search section
        summary table tbody td tfoot th thead tr ul""".split()
    )
)
_BUTTON_END_SET = frozenset(BUTTON_ENDS)
_TAG_NAME_RE = re.compile(r"<(/?)([a-z][a-z0-9]*)(?=[ \t\n\r\f/>]|$)")
_COMMENT_END_RE = re.compile(r"--!?>")
_SCRIPTLIKE = frozenset({"script", "style"})
# Where an unclosed script or style ends: the next end tag, or a start tag
# that only markup would contain.
_RESUME = (
    "div",
    "p",
    "table",
    "article",
    "section",
    "main",
    "body",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "header",
    "footer",
    "nav",
)
_ANY_END_RE = re.compile(r"</[a-z]|<(?:" + "|".join(_RESUME) + r")[\s>]")
# Attributes must start with a space or "/" so the name and attribute parts
# never compete for the same characters: a long "<word" without ">" then
# fails in linear time instead of quadratic backtracking. A quoted value
# after "=" may hold "<" and ">" (inline SVG, JSON in data attributes,
# "a > b" in alt text); a quote anywhere else, or one never closed, is an
# ordinary character. The attribute run is matched inside a look-ahead and
# taken back by reference, which makes it atomic: no backtracking into the
# quotes, so a failed match costs one pass over the run.
_TAG_RE = re.compile(
    r"<(/?[A-Za-z][^\s/<>]*)"
    r"((?:[\s/](?=((?:[^<>\"'=]|=\s*\"[^\"]*\"|=\s*'[^']*'|=|[\"'])*))\3)?)>"
)
# Cheap pre-check before the exact script test: anything at or above Thai at all?
_HAS_WORD = re.compile(r"\w")
_HIGH_RE = re.compile("[\u0e01-\U0002fa1f]")

BLOCK_TAGS = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 header hgroup hr
    html legend li main menu nav noframes ol p pre section summary table tbody td tfoot th
    thead tr ul""".split()
)
_VOID_BLOCKS = frozenset({"br", "hr", "frame"})
#: The section headings: a block these open is a heading (the features, the page type, the repeats).
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Block-level tags (start and end) map to the separator that cuts blocks.
_SEP = "\x00"  # decoding removes NUL from pages, so it cannot occur in text
_BLOCK_SEP = {name: _SEP for t in BLOCK_TAGS for name in (t, "/" + t)}
# Elements tracked on the open-element stack: containers, not paragraphs or
# list items (a block's own opening tag is recorded separately), which keeps
# the one Python loop of the build short.
STRUCTURE_TAGS = (
    BLOCK_TAGS - HEADING_TAGS - frozenset("p li br hr dt dd caption legend summary figcaption pre address".split())
)
_STRUCTURE_OR_END = STRUCTURE_TAGS | frozenset("/" + t for t in STRUCTURE_TAGS)
#: HTML 4's font style elements and ``font``: they change how a few words
#: look inside a sentence, not the page's structure, so BTE's token sequence
#: does not count them as tags (old pages wrap every paragraph in several).
#: Not ``small``: HTML5 made it the mark of side comments and small print
#: (copyright lines, disclaimers), a hint of boilerplate worth its weight.
STYLE_TAGS = frozenset("font basefont b i u s strike tt big".split())
_STYLE_OR_END = STYLE_TAGS | frozenset("/" + t for t in STYLE_TAGS)
# Per tag name, what the build needs to know: bit flags shared with _scan.c.
FLAG_BLOCK, FLAG_LINK_OPEN, FLAG_LINK_CLOSE, FLAG_STRUCTURE, FLAG_STYLE = 1, 2, 4, 8, 16
TAG_FLAGS: dict[str, int] = {
    name: FLAG_BLOCK * (name in _BLOCK_SEP)
    | FLAG_LINK_OPEN * (name == "a")
    | FLAG_LINK_CLOSE * (name == "/a")
    | FLAG_STRUCTURE * (name in _STRUCTURE_OR_END)
    | FLAG_STYLE * (name in _STYLE_OR_END)
    for name in _BLOCK_SEP.keys() | {"a", "/a"} | _STYLE_OR_END
}
# A start tag that implicitly closes an open element of these names.
_AUTOCLOSE = {
    "p": frozenset({"p"}),
    "li": frozenset({"li", "p"}),
    "dt": frozenset({"dt", "dd", "p"}),
    "dd": frozenset({"dt", "dd", "p"}),
    "tr": frozenset({"tr", "td", "th"}),
    "td": frozenset({"td", "th"}),
    "th": frozenset({"td", "th"}),
}
# How far down the stack an end tag may look for its element; bounds the
# work per tag on pages with thousands of unclosed elements.
_CLOSE_SEARCH = 48


def clean_text(raw: str) -> str:
    """Entities decoded, white space collapsed: how a block's text is shown."""
    if "&" in raw:
        raw = unescape(raw)
    return " ".join(raw.split())


def _find_end_tag(low: str, name: str, pos: int) -> tuple[int, int] | None:
    """(start, end) of the next ``</name ...>`` in lower-cased markup."""
    needle = "</" + name
    while True:
        k = low.find(needle, pos)
        if k < 0:
            return None
        after = k + len(needle)
        if after >= len(low) or low[after] in " \t\n\r\f/>":
            close = low.find(">", after)
            return (k, len(low) if close < 0 else close + 1)
        pos = after


#: A ``<noscript>`` element holding at least this many words is the page's content as shown
#: without scripts, not a "please enable JavaScript" notice: forum engines (Discourse) serve
#: the whole thread there and render it with scripts. 15 of WCXB's 106 forum pages have no
#: other copy of their posts; no development page holds a notice this long.
NOSCRIPT_CONTENT_WORDS = 100
_NOSCRIPT_OPEN_RE = re.compile(r"<noscript\b[^>]*>", re.IGNORECASE)
_NOSCRIPT_CLOSE_RE = re.compile(r"</noscript\s*>", re.IGNORECASE)
_ANY_TAG_RE = re.compile(r"<[^>]*>")
_NOSCRIPT_WORDS = ("<noscript", "<NOSCRIPT")


def noscript_content(markup: str, marks: Marks | None = None) -> str:
    """``markup`` with each content-sized ``<noscript>`` element opened up as a ``<div>``.

    Step 0 drops ``<noscript>``; a page whose only copy of its text lies
    there would otherwise come back empty. Elements under
    :data:`NOSCRIPT_CONTENT_WORDS` words (tracking pixels, notices) stay as
    they are. The start tags are those written in lower or upper case, found
    with the document's other marks (``marks``, the page's
    :class:`~scrapy_bte.core.marks.Marks`): a page without one costs no search of its own.
    """
    if marks is None:
        marks = Marks(markup, _NOSCRIPT_WORDS)
    starts = marks.at["<noscript"] + marks.at["<NOSCRIPT"]
    if not starts:
        return markup
    out: list[str] = []
    pos = 0
    # The end of the last element read: a start tag before it lies inside that element, whose
    # text up to its end tag is a part of the text just counted (too few words as well). Not
    # read again, a page of 20,000 nested ``<noscript>`` start tags is read once, not 20,000 times.
    seen = 0
    for start in sorted(starts):
        if start < seen:
            continue
        m = _NOSCRIPT_OPEN_RE.match(markup, start)
        if m is None:
            continue  # "<noscripts", or no ">"
        close = _NOSCRIPT_CLOSE_RE.search(markup, m.end())
        if close is None:
            break
        seen = close.end()
        inner = markup[m.end() : close.start()]
        # A cheap bound first: a hundred words take more than 400 characters.
        if len(inner) < 4 * NOSCRIPT_CONTENT_WORDS:
            continue
        if len(_ANY_TAG_RE.sub(" ", inner).split()) < NOSCRIPT_CONTENT_WORDS:
            continue
        out += (markup[pos : m.start()], "<div>", inner, "</div>")
        pos = close.end()
    if not out:
        return markup
    out.append(markup[pos:])
    return "".join(out)


def _shown_markup(markup: str, marks: Marks) -> tuple[str, list[tuple[int, int]]]:
    """The markup step 0 reads and the spans it leaves out: the elements only screen readers
    read (:mod:`.hidden`); content-sized ``<noscript>`` elements opened up.

    Step 0 skips the spans as it copies the page: cutting them first costs a copy of the page,
    a pass over it for its widest character included. Only where a ``<noscript>`` is opened up
    too (its rewrite moves the offsets) is the markup cut first, the ``<noscript>`` start tags
    found by the marks moved past the cut (:meth:`~.marks.Marks.cut`).
    """
    found = [at for word in SCREEN_READER_WORDS for at in marks.at[word]]
    spans = screen_reader_elements(markup, found) if found else []
    opened = noscript_content(markup, marks)
    if opened is markup or not spans:
        return opened, spans if opened is markup else []
    return noscript_content(cut(markup, spans), marks.cut(spans, _NOSCRIPT_WORDS)), []


def step0(markup: str, spans: Sequence[tuple[int, int]] = ()) -> tuple[str, str | None]:
    """Drop comments and content-free elements; return (markup, <title> text).

    ``spans``: (start, end) pairs left out as well (increasing, disjoint, each starting at a
    ``<``; :func:`.hidden.screen_reader_elements`); one inside something dropped goes with it.
    ``&nbsp;`` becomes a plain space in the returned markup: a non-breaking
    space separates words like any other, and turning it into one here
    spares the cut at tags a second pass over the page.
    """
    c = _SCAN.use()
    if c is None:
        return step0_reference(markup, spans)
    cleaned, start, end = c.step0(markup, spans) if spans else c.step0(markup)
    return cleaned, (clean_text(markup[start:end]) if start >= 0 else None)


#: SVG and MathML, where a start tag closed with "/>" is an empty element (HTML ignores the slash).
_FOREIGN = frozenset({"svg", "math"})


def self_closing(low: str, name_end: int, close: int) -> bool:
    """Whether the start tag whose name ends at ``name_end`` and whose ``>`` is at ``close`` ends
    with "/>": the slash right after the name, white space or a quoted value (in an unquoted
    value, as in ``<svg a=b/>``, it is part of the value)."""
    slash = close - 1
    return slash >= name_end and low[slash] == "/" and (slash == name_end or low[slash - 1] in " \t\n\r\f\"'")


def button_end(low: str, start: int, stop: int) -> int:
    """Where a ``<button>`` whose content starts at ``start`` in lower-cased markup, and whose end
    tag is at ``stop``, ends as browsers read it: at the first end tag of :data:`BUTTON_ENDS` not
    opened inside it, or at another ``<button>`` start tag; -1 where its content is all its own."""
    opened: dict[str, int] = {}
    for m in _TAG_NAME_RE.finditer(low, start, stop):
        name = m.group(2)
        if m.group(1):
            if name in _BUTTON_END_SET:
                if not opened.get(name):
                    return m.start()
                opened[name] -= 1
        elif name == "button":
            return m.start()
        elif name in _BUTTON_END_SET:
            opened[name] = opened.get(name, 0) + 1
    return -1


def step0_reference(markup: str, spans: Sequence[tuple[int, int]] = ()) -> tuple[str, str | None]:
    """The Python reference of :func:`step0`."""
    # Searching a lower-cased copy keeps every scan in C; U+0130 is the one
    # character whose lower case is longer, so it is mapped first to keep
    # offsets aligned.
    low = markup.replace("\u0130", "i").lower()
    out: list[str] = []
    title: str | None = None
    pos = 0
    n = len(markup)
    search = _OPEN_RE.search
    unclosed: set[str] = set()  # names with no end tag left: never search again
    button_close: tuple[int, int] | None = None
    cuts = iter(spans)
    span = next(cuts, None)
    while True:
        while span is not None and span[0] < pos:  # inside something dropped: gone with it
            span = next(cuts, None)
        m = search(low, pos)
        if span is not None and (m is None or span[0] <= m.start()):
            out.append(markup[pos : span[0]])
            pos = span[1]
            continue
        if m is None:
            break
        start = m.start()
        out.append(markup[pos:start])
        lead = low[start + 1]
        if lead == "!" and low.startswith("!--", start + 1):
            body = start + 4
            if low.startswith(">", body) or low.startswith("->", body):
                pos = low.index(">", body) + 1  # "<!-->" and "<!--->" close at once
                continue
            end = _COMMENT_END_RE.search(low, body)
            pos = n if end is None else end.end()
            continue
        if lead in "!?":  # doctype, CDATA, bogus comment, processing instruction
            gt = low.find(">", start)
            pos = n if gt < 0 else gt + 1
            continue
        name = m.group(1)
        open_end = low.find(">", m.end())
        if open_end < 0:
            pos = n
            break
        if name in _FOREIGN and self_closing(low, m.end(), open_end):
            pos = open_end + 1  # "<svg/>": an empty element, as foreign content reads it
            continue
        if name in unclosed:
            close = None
        elif name == "button" and button_close is not None and button_close[0] > open_end:
            close = button_close  # buttons that end before it share one end tag: found once
        else:
            close = _find_end_tag(low, name, open_end + 1)
            if name == "button":
                button_close = close
        if close is None:
            unclosed.add(name)
            # Unclosed: scripts and styles end where markup resumes (libxml2
            # ends them at any end tag), so an article after them survives;
            # other elements lose only their start tag.
            if name in _SCRIPTLIKE:
                nxt = _ANY_END_RE.search(low, open_end + 1)
                pos = n if nxt is None else nxt.start()
            else:
                pos = open_end + 1
            continue
        if name == "button":
            ends = button_end(low, open_end + 1, close[0])
            if ends >= 0:
                pos = ends  # its end lies before its end tag: the markup after it stays
                continue
        if name == "title" and title is None:
            title = clean_text(markup[open_end + 1 : close[0]])
        pos = close[1]
    out.append(markup[pos:])
    cleaned = "".join(out)
    return (cleaned.replace("&nbsp;", " ") if "&nbsp;" in cleaned else cleaned), title


@dataclass
class Skeleton:
    """The element tree's skeleton: elements, their parents, each block's container.

    Replayed from the tag stream on first use: only the learned methods and
    the comment finder read it.
    """

    #: Per block, the innermost open structural element (0 = the root).
    container: np.ndarray
    #: Per block, the depth of its container.
    depth: np.ndarray
    #: Per element, its tag name (``"#root"`` for element 0).
    el_name: list[str]
    #: Per element, its raw attribute string (long ``data-*`` values emptied, see :func:`without_data_blobs`).
    el_attrs: list[str]
    #: Per element, its parent (-1 for the root) ...
    el_parent: list[int]
    #: ... and as an int64 array, for array steps over the tree.
    parents: np.ndarray
    #: Per element, the index of the tag that opened it (-1 for the root), increasing.
    el_tag: np.ndarray
    #: Per element, the index of its name in :attr:`name_strings`, the distinct names in
    #: order of first occurrence ...
    el_name_id: np.ndarray
    name_strings: list[str]
    #: ... and of its attribute string in :attr:`attr_strings`: a template repeats its
    #: strings, so readers read each distinct one once and gather per element.
    el_attr_id: np.ndarray
    attr_strings: list[str]

    @cached_property
    def ancestor_jumps(self) -> list[np.ndarray]:
        """Pointer jumping's steps: round k's array holds each element's 2^k-th ancestor (0 past
        the root). Every value OR-ed down the tree (:func:`scrapy_bte.core.tree.path_or`) takes
        the same steps, so a page computes them once."""
        jump = self.parents.copy()
        jump[0] = 0
        steps = []
        while jump.any():
            steps.append(jump)
            jump = jump[jump]
        return steps

    @cached_property
    def attr_search(self) -> tuple[str, list[int]] | None:
        """The attribute strings joined by NUL in lower case, and where each one ends (its NUL):
        every reader of words in the strings (:class:`~scrapy_bte.core.tree.AttributeReader`)
        searches this one string, lowered once per page. None where lower-casing changes a
        length (U+0130), which would shift the offsets."""
        joined = "\x00".join(self.attr_strings)  # NUL never occurs in decoded markup
        low = joined.lower()
        if len(low) != len(joined):
            return None
        # String i ends after the lengths of strings 0..i and the i NULs between them
        # (summed in C: no Python step per string).
        return low, list(map(add, accumulate(map(len, self.attr_strings)), count()))


@dataclass
class Document:
    """Text blocks with features, BTE's token sequence and the element tree's skeleton.

    Arrays are indexed by block (only blocks with words exist). Per raw text
    segment (the text between two tags) the model keeps its words and link
    words, from which :func:`scrapy_bte.methods.bte.token_runs` derives BTE's token sequence.
    """

    texts: list[str]
    words: np.ndarray
    chars: np.ndarray
    tags: np.ndarray
    bytes: np.ndarray
    link_words: np.ndarray
    opener: list[str]
    seg_words: np.ndarray
    seg_link_words: np.ndarray
    seg_block: np.ndarray
    title_tag: str | None = None
    meta: dict[str, str] = field(default_factory=dict)
    #: The head's raw ``<meta>`` tags, for readers of other keys (article fields).
    meta_tags: list[str] = field(default_factory=list)
    #: The decoded markup the model was built from (a reference, not a copy):
    #: article fields read what step 0 drops (JSON-LD scripts, ``<time>``).
    markup: str = field(default="", repr=False)
    total_tags: int = 0
    source_chars: int = 0
    # Step 0's output and where segments and attribute strings lie in it,
    # sliced on first use. The element skeleton is replayed on first use
    # (only the learned methods need it) from the tag names and flags and
    # the tag index that starts each block (-1 for the first).
    _source: str = field(default="", repr=False)
    _seg_start: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _seg_len: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _lnames: list[str] = field(default_factory=list, repr=False)
    _flags: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8), repr=False)
    _attr_end: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _attr_len: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _start_tag: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _marks: Marks | None = field(default=None, repr=False)

    @cached_property
    def marks(self) -> Marks:
        """Where :attr:`markup` holds each of :data:`~scrapy_bte.core.marks.PAGE_WORDS`, found once
        when the model is built: the readers of the raw page start there instead of a search each."""
        return self._marks if self._marks is not None else Marks(self.markup)

    def segment_texts(self, first: int, last: int) -> list[str]:
        """Raw text of segments ``first..last`` (the text between two tags)."""
        src = self._source
        starts = self._seg_start[first : last + 1].tolist()
        lengths = self._seg_len[first : last + 1].tolist()
        return [src[a : a + n] for a, n in zip(starts, lengths)]

    @property
    def segments(self) -> list[str]:
        return self.segment_texts(0, len(self._seg_len) - 1)

    @cached_property
    def skeleton(self) -> Skeleton:
        """The element skeleton, replayed once per document."""
        return _skeleton(self)

    @property
    def container(self) -> np.ndarray:
        """Per block, the innermost open structural element (0 = root)."""
        return self.skeleton.container

    @property
    def depth(self) -> np.ndarray:
        """Per block, the depth of its container."""
        return self.skeleton.depth

    @property
    def el_name(self) -> list[str]:
        return self.skeleton.el_name

    @property
    def el_attrs(self) -> list[str]:
        """Raw attribute string of each element."""
        return self.skeleton.el_attrs

    @property
    def el_parent(self) -> list[int]:
        return self.skeleton.el_parent

    @property
    def n_blocks(self) -> int:
        return len(self.texts)

    @property
    def total_words(self) -> float:
        return float(self.words.sum())

    @property
    def tag_flags(self) -> np.ndarray:
        """Per tag, its ``FLAG_*`` bits (uint8), for passes that test several kinds of tag at once
        (BTE reads :data:`FLAG_STYLE` here instead of building :attr:`style_tags`)."""
        return self._flags

    @property
    def tag_names(self) -> list[str]:
        """Per tag of step 0's output, its lower-case name (``"/p"`` for an end tag)."""
        return self._lnames

    @property
    def block_start_tag(self) -> np.ndarray:
        """Per block, the index of the tag that opens it (-1 for a block before any tag)."""
        return self._start_tag

    def tag_attribute_spans(self) -> tuple[str, np.ndarray, np.ndarray]:
        """Where each tag's raw attribute string lies: step 0's output, and per tag the end and
        the length of its attribute string in it. For passes that slice the strings in C;
        :attr:`opening_attrs` gives the strings of the blocks' opening tags."""
        return self._source, self._attr_end, self._attr_len

    @cached_property
    def opening_attrs(self) -> list[str]:
        """Per block, the raw attribute string of its opening tag (``""`` for a block without one)."""
        src, ends, lens = self._source, self._attr_end.tolist(), self._attr_len.tolist()
        return [src[ends[t] - lens[t] : ends[t]] if t >= 0 else "" for t in self._start_tag.tolist()]

    @cached_property
    def style_tags(self) -> np.ndarray | None:
        """Per tag, 1 for a :data:`STYLE_TAGS` tag (not a tag to BTE); None when the page has none."""
        mask = np.ascontiguousarray((self._flags & FLAG_STYLE) > 0, dtype=np.uint8)
        return mask if mask.any() else None

    def starts_element(self, name: str) -> np.ndarray:
        """Per block, whether a ``<name>`` start tag lies after the previous block's opening tag
        and at or before its own: the block begins a new ``name`` element (a list item whose
        text a heading or link opens) even where another tag is its opener."""
        # Where the tag stream holds ``name``: ``list.index`` steps over the other tags in C.
        names = self._lnames
        at, found = -1, []
        for _ in range(names.count(name)):
            at = names.index(name, at + 1)
            found.append(at)
        # Per block, the ``name`` tags at or before its opening tag.
        seen = np.searchsorted(np.array(found, dtype=np.int64), self._start_tag, side="right")
        return np.diff(seen, prepend=0) > 0

    def path_attributes(self, block: int, levels: int | None = None) -> list[str]:
        """The raw attribute strings of the block's opening tag (``""`` without one), then of its
        container and the elements above it (``levels`` of them; all up to the root when None):
        for the rules that read a few blocks' markup, where a pass over every element costs more."""
        skeleton = self.skeleton
        strings, attr_id, parents = skeleton.attr_strings, skeleton.el_attr_id, skeleton.el_parent
        t = int(self._start_tag[block])
        out = [self._source[self._attr_end[t] - self._attr_len[t] : self._attr_end[t]] if t >= 0 else ""]
        el = int(self.container[block])
        while el > 0 and (levels is None or len(out) <= levels):
            out.append(strings[attr_id[el]])
            el = parents[el]
        return out

    def first_block_opened_by(self, name: str) -> int | None:
        """First block whose opening tag is ``name`` (e.g. the first ``h1``)."""
        try:
            return self.opener.index(name)
        except ValueError:
            return None


#: The ``<meta>`` keys read with the document, in the one pass over the head's tags: the title
#: rule's (``og:title``, ``og:site_name``, ``twitter:title``) and the page-type classifier's
#: (``og:type``). Other readers (the article fields) read theirs from :attr:`Document.meta_tags`.
HEAD_META_KEYS = ("og:title", "og:site_name", "twitter:title", "og:type")


def _empty_document(
    title: str | None, meta: dict[str, str], markup: str, tags: list[str], marks: Marks | None = None
) -> Document:
    f = np.zeros(0, dtype=np.float64)
    i = np.zeros(0, dtype=np.int64)
    return Document(
        texts=[],
        words=f,
        chars=i,
        tags=i,
        bytes=i,
        link_words=f,
        opener=[],
        seg_words=f,
        seg_link_words=f,
        seg_block=i,
        title_tag=title,
        meta=meta,
        meta_tags=tags,
        markup=markup,
        source_chars=len(markup),
        _marks=marks,
    )


def _block_texts(all_text: str, keep: np.ndarray) -> list[str]:
    """Normalised text of the kept raw blocks, without a Python loop per block.

    ``all_text`` has a separator at each block-level tag. (Decoding maps
    ``&#0;`` to U+FFFD, so it cannot forge a separator.)
    """
    if len(keep) == 0:
        return []
    c = _SCAN.use()
    if c is None:
        return _block_texts_reference(all_text, keep)
    # Decoding the whole text gives the kept pieces the same result: no
    # entity name holds NUL, so none reaches across a separator.
    if "&" in all_text:
        all_text = unescape(all_text)
    return c.split_blocks(all_text, np.ascontiguousarray(keep, dtype=np.int64))


def _block_texts_reference(all_text: str, keep: np.ndarray) -> list[str]:
    """The Python reference of :func:`_block_texts` (``keep`` not empty)."""
    raw = all_text.split(_SEP)
    kept = _SEP.join([raw[b] for b in keep.tolist()])
    if "&" in kept:
        kept = unescape(kept)
    return list(map(str.strip, " ".join(kept.split()).split(_SEP)))


def open_elements_reference(events: list[int], lnames: list[str]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Replay the open-element stack over structural tags (``events``): the
    Python reference of the C pass the element skeleton runs.

    Returns, per element, its tag index, parent and depth, and per event the
    innermost open element after it. Misnested end tags look at most
    ``_CLOSE_SEARCH`` levels down, which bounds the work per tag on pages
    with thousands of unclosed elements; depth itself is unlimited.
    """
    el_tag = [-1]
    el_parent = [-1]
    el_depth = [0]
    stack = [0]
    names = ["#root"]
    top = []
    for t in events:
        name = lnames[t]
        if name[0] == "/":
            name = name[1:]
            if names[-1] == name:
                stack.pop()
                names.pop()
            else:
                for k in range(len(names) - 2, max(0, len(names) - _CLOSE_SEARCH), -1):
                    if names[k] == name:
                        del stack[k:]
                        del names[k:]
                        break
        elif name not in _VOID_BLOCKS:
            closes = _AUTOCLOSE.get(name)
            if closes is not None and names[-1] in closes:
                stack.pop()
                names.pop()
            el_parent.append(stack[-1])
            el_depth.append(len(stack))
            stack.append(len(el_tag))
            el_tag.append(t)
            names.append(name)
        top.append(stack[-1])
    return el_tag, el_parent, el_depth, top


#: Text between two tags of at most this many characters, none of them a
#: letter or digit, is a separator ("|", "»", "·", "-"), not words.
SEPARATOR_CHARS = 24


def _drop_separators(seg_words: np.ndarray, segments: list[str]) -> None:
    """Separators between menu links are not words, so BTE must not count
    them: a segment of at most ``SEPARATOR_CHARS`` characters without a
    letter or digit (``\\w``) counts zero words."""
    lengths = np.fromiter(map(len, segments), np.int64, len(segments))
    for k in np.flatnonzero((seg_words > 0) & (lengths <= SEPARATOR_CHARS)).tolist():
        if _HAS_WORD.search(segments[k]) is None:
            seg_words[k] = 0.0


def _distinct(strings: list[str]) -> tuple[np.ndarray, list[str]]:
    """Per string its id (int64) into the distinct strings in order of first occurrence, and those."""
    table: dict[str, int] = {}
    ids = [table.setdefault(s, len(table)) for s in strings]
    return np.array(ids, dtype=np.int64), list(table)


#: A ``data-*`` value this long is data (a component's serialised props, a thread's posts as JSON).
DATA_BLOB_CHARS = 1024
_DATA_BLOB_RE = re.compile(
    rf"""(\sdata-[\w.:-]*\s*=\s*)(?:"[^"]{{{DATA_BLOB_CHARS},}}"|'[^']{{{DATA_BLOB_CHARS},}}')"""
)


def without_data_blobs(raw: str) -> str:
    """``raw`` (an element's attribute string) with every ``data-*`` value of :data:`DATA_BLOB_CHARS`
    characters or more emptied.

    Frameworks put whole JSON documents there (Discourse serves a thread's
    posts in ``data-preloaded``, shops a product's variants): hundreds of
    kilobytes that no attribute reader wants (they read ``class``, ``id``,
    ``role``, ``itemprop``, ``style`` and short ``data-*`` names), yet each
    of them would search. Only ``data-*`` values go: a ``class`` list may be
    kilobytes long and is read.
    """
    return _DATA_BLOB_RE.sub(r'\1""', raw)


def _skeleton(doc: Document) -> Skeleton:
    """The element skeleton: elements, their parents, and each block's container."""
    lnames = doc._lnames
    events = np.flatnonzero(doc._flags & FLAG_STRUCTURE)
    c = _SCAN.use()
    src = doc._source
    if c is not None:
        tags, parents, depths_, tops = c.open_elements(events.astype(np.int64), lnames)
        el_tag = np.frombuffer(tags, np.int64)
        parents_arr = np.frombuffer(parents, np.int64)
        el_parent = parents_arr.tolist()
        depths = np.frombuffer(depths_, np.int64)
        top = np.frombuffer(tops, np.int64)
        el_name, el_attrs, name_id, name_strings, attr_id, attr_strings = c.element_strings(
            el_tag,
            lnames,
            np.ascontiguousarray(doc._attr_end, dtype=np.int64),
            np.ascontiguousarray(doc._attr_len, dtype=np.int64),
            src,
        )
        el_name_id = np.frombuffer(name_id, np.int64)
        el_attr_id = np.frombuffer(attr_id, np.int64)
    else:
        tag_list, el_parent, depth_list, top_list = open_elements_reference(events.tolist(), lnames)
        depths, top = np.array(depth_list, dtype=np.int64), np.array(top_list, dtype=np.int64)
        ends = doc._attr_end[tag_list[1:]].tolist()
        lens = doc._attr_len[tag_list[1:]].tolist()
        el_name = ["#root"] + [lnames[t] for t in tag_list[1:]]
        el_attrs = [""] + [src[e - n : e] for e, n in zip(ends, lens)]
        el_tag = np.array(tag_list, dtype=np.int64)
        parents_arr = np.array(el_parent, dtype=np.int64)
        el_name_id, name_strings = _distinct(el_name)
        el_attr_id, attr_strings = _distinct(el_attrs)
    if attr_strings and max(map(len, attr_strings)) > DATA_BLOB_CHARS:
        short = {raw: without_data_blobs(raw) for raw in attr_strings if len(raw) > DATA_BLOB_CHARS}
        attr_strings = [short.get(raw, raw) for raw in attr_strings]
        el_attrs = [short.get(raw, raw) for raw in el_attrs]
    # A block starts after its start tag; its container is the stack top
    # after the last structural event at or before that tag.
    event_idx = np.searchsorted(events, doc._start_tag, side="right") - 1
    top_arr = np.array(top, dtype=np.int64)
    container = np.where(event_idx >= 0, top_arr[np.maximum(event_idx, 0)] if len(top_arr) else 0, 0)
    el_depth = np.array(depths, dtype=np.int64)
    return Skeleton(
        container=container,
        depth=el_depth[container],
        el_name=el_name,
        el_attrs=el_attrs,
        el_parent=el_parent,
        parents=parents_arr,
        el_tag=el_tag,
        el_name_id=el_name_id,
        name_strings=name_strings,
        el_attr_id=el_attr_id,
        attr_strings=attr_strings,
    )


#: What :func:`scan` returns.
Scan = tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, str, bool]


def scan(cleaned: str) -> Scan:
    """Cut step 0's output at tags (see :func:`scan_reference`)."""
    c = _SCAN.use()
    if c is None:
        return scan_reference(cleaned)
    names, flags, tag_len, attr_len, seg_len, seg_chars, seg_words, woven, has_text = c.scan(cleaned)
    return (
        names,
        np.frombuffer(flags, np.uint8),
        np.frombuffer(tag_len, np.int64),
        np.frombuffer(attr_len, np.int64),
        np.frombuffer(seg_len, np.int64),
        np.frombuffer(seg_chars, np.int64),
        np.frombuffer(seg_words, np.float64),  # a bytearray: writable
        woven,
        has_text,
    )


def scan_reference(cleaned: str) -> Scan:
    """The Python reference of :func:`scan`: the cut at tags.

    Returns the lower-cased tag names (end tags keep their "/"), their
    ``FLAG_*`` bits, the lengths of each tag, its attribute string and each
    text segment (the text between two tags) and its counted characters
    (numeric references read as the characters they name), each segment's
    words (script weights; separators count zero), the segments' text with a
    NUL at every block-level tag, and whether any segment is more than white
    space.
    """
    parts = _TAG_RE.split(cleaned)
    del parts[3::4]  # the look-ahead's group: the attributes again
    segments = parts[0::3]
    lnames = list(map(str.lower, parts[1::3]))  # end tags keep their "/"
    n_tags = len(lnames)
    flags = np.fromiter(map(TAG_FLAGS.get, lnames, repeat(0)), np.uint8, n_tags)
    lengths = np.fromiter(map(len, parts), np.int64, len(parts))
    attr_len = lengths[2::3]
    all_text = weave_reference(segments, lnames, flags)
    counted, text, seg_len = segments, all_text, lengths[0::3]
    seg_chars = seg_len
    if "&#" in all_text:
        counted = list(map(counted_text, segments))
        text = "".join(counted)
        seg_chars = np.fromiter(map(len, counted), np.int64, n_tags + 1)
    if not text.isascii() and _HIGH_RE.search(text) and has_spaceless(text):
        seg_words = np.fromiter(map(weighted_words, counted), np.float64, n_tags + 1)
    else:
        seg_words = np.fromiter(map(len, map(str.split, counted)), np.float64, n_tags + 1)
    _drop_separators(seg_words, counted)
    has_text = any(map(str.strip, counted))
    return lnames, flags, lengths[1::3] + attr_len + 2, attr_len, seg_len, seg_chars, seg_words, all_text, has_text


#: The fewest characters (white space at the outer ends left out) each of two pieces of text needs
#: for :func:`weave_reference` to part them at an element boundary: a drop cap, a superscript
#: ("km<sup>2</sup>") and a word set one letter per element stay whole.
JOIN_PIECE = 3


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def parted(before: str, after: str) -> bool:
    """Whether two pieces of text that meet where one element ends and another starts
    (``<span>899 EUR</span><span>17 reviews</span>``) are read as two words.

    A browser joins them, but pages style such elements as separate boxes (a price beside a
    rating, a card's title beside its date, a tag list), and their readers see words apart:
    joined, "EUR17" is one word that matches neither. So the pieces part when both sides of the
    seam are ASCII letters or digits that do not continue one word ("Mar" after "Radtke", a
    number after a word, a word after a number; not "he" after a capital "T"), each piece being
    :data:`JOIN_PIECE` characters or more. A piece that repeats the one before (a visible label and
    its screen-reader copy) stays joined, for :func:`~scrapy_bte.core.hidden.undoubled` to read once.
    """
    a, b = before[-1:], after[:1]
    if not (_ascii_alnum(a) and _ascii_alnum(b)) or (a.isupper() and b.islower()):
        return False
    # Both pieces are stripped at the seam already (letters or digits meet there).
    before, after = before.lstrip(), after.rstrip()
    return len(before) >= JOIN_PIECE and len(after) >= JOIN_PIECE and before != after


def weave_reference(segments: list[str], lnames: list[str], flags: np.ndarray) -> str:
    """The segments' text with a NUL at every block-level tag, and a space where an end tag and
    then a start tag, with nothing between them, part two pieces (:func:`parted`): the Python
    reference of the C scan's weave."""
    out = [segments[0]]
    before = segments[0]
    seen_end = seam = False
    for name, flag, seg in zip(lnames, flags.tolist(), segments[1:]):
        if flag & FLAG_BLOCK:
            out.append(_SEP)
            before, seen_end, seam = "", False, False
        elif name.startswith("/"):
            seen_end = True
        elif seen_end:
            seam = True
        if seg:
            if seam and parted(before, seg):
                out.append(" ")
            out.append(seg)
            before, seen_end, seam = seg, False, False
    return "".join(out)


RawBlocks = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def raw_blocks(
    flags: np.ndarray,
    seg_words: np.ndarray,
    seg_chars: np.ndarray,
    tag_len: np.ndarray,
) -> RawBlocks:
    """Per segment its raw block and whether a link holds it; per raw block its totals.

    Raw blocks are the text between two block-level tags, empty or not;
    their bytes are the tags' and the text's counted characters (a numeric
    reference is one), so a page written in references measures as the
    same page written out.
    Returns ``(seg_rawblock, in_link, raw_words, raw_link, raw_tags,
    raw_bytes)``; the C pass counts all of them in one loop over the tags
    instead of some twenty array operations (see :func:`raw_blocks_reference`).
    """
    c = _SCAN.use()
    if c is None:
        return raw_blocks_reference(flags, seg_words, seg_chars, tag_len)
    seg_raw, in_link, words, link, tags, nbytes = c.raw_blocks(
        np.ascontiguousarray(flags, dtype=np.uint8),
        np.ascontiguousarray(seg_words, dtype=np.float64),
        np.ascontiguousarray(seg_chars, dtype=np.int64),
        np.ascontiguousarray(tag_len, dtype=np.int64),
        FLAG_BLOCK,
        FLAG_LINK_OPEN,
        FLAG_LINK_CLOSE,
    )
    return (
        np.frombuffer(seg_raw, np.int64),
        np.frombuffer(in_link, bool),
        np.frombuffer(words, np.float64),
        np.frombuffer(link, np.float64),
        np.frombuffer(tags, np.int64),
        np.frombuffer(nbytes, np.float64),
    )


def raw_blocks_reference(
    flags: np.ndarray, seg_words: np.ndarray, seg_chars: np.ndarray, tag_len: np.ndarray
) -> RawBlocks:
    """The Python reference of :func:`raw_blocks`."""
    n_tags = len(flags)
    is_block = (flags & FLAG_BLOCK) > 0

    # Segment k lies after tag k-1: its raw block is the number of block tags before it.
    seg_rawblock = np.zeros(n_tags + 1, dtype=np.int64)
    np.cumsum(is_block, out=seg_rawblock[1:])
    tag_rawblock = seg_rawblock[:-1]
    n_raw = int(seg_rawblock[-1]) + 1

    # Inside a link: the last <a> or </a> before the segment was an opening one.
    # An <a> never closed (the next link tag is another <a>, or none) ends
    # with its block, or one stray anchor would make the rest of the page links.
    link_tag = np.zeros(n_tags, dtype=np.int8)  # +1 <a>, -1 </a>
    link_tag[(flags & FLAG_LINK_OPEN) > 0] = 1
    link_tag[(flags & FLAG_LINK_CLOSE) > 0] = -1
    in_link = np.zeros(n_tags + 1, dtype=bool)
    link_at = np.flatnonzero(link_tag)
    if len(link_at):
        last_a = np.maximum.accumulate(np.where(link_tag != 0, np.arange(n_tags), -1))
        closed = np.zeros(n_tags, dtype=bool)
        closed[link_at[:-1]] = link_tag[link_at[1:]] < 0
        last = np.maximum(last_a, 0)
        in_link[1:] = (
            (last_a >= 0) & (link_tag[last] > 0) & (closed[last] | (seg_rawblock[1:] == seg_rawblock[last + 1]))
        )

    raw_words = np.bincount(seg_rawblock, seg_words, n_raw)
    raw_link = np.bincount(seg_rawblock, seg_words * in_link, n_raw)
    raw_tags = np.bincount(tag_rawblock, minlength=n_raw) if n_tags else np.zeros(n_raw, np.int64)
    raw_bytes = np.bincount(seg_rawblock, seg_chars, n_raw) + (
        np.bincount(tag_rawblock, tag_len, n_raw) if n_tags else 0
    )
    return seg_rawblock, in_link, raw_words, raw_link, raw_tags, raw_bytes


#: What :func:`kept_blocks` returns.
KeptBlocks = tuple[np.ndarray, list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def kept_blocks(
    keep: np.ndarray,
    flags: np.ndarray,
    seg_rawblock: np.ndarray,
    seg_len: np.ndarray,
    tag_len: np.ndarray,
    raw_bytes: np.ndarray,
    raw_tags: np.ndarray,
    lnames: list[str],
) -> KeptBlocks:
    """Per kept raw block its starting tag, that tag's name, markup bytes and tags; per segment its
    kept block and offset; per tag the offset of its ``>``.

    Returns ``(start_tag, opener, bytes, tags, seg_block, seg_start,
    attr_end)``: the C pass walks the tags and raw blocks once instead of a
    dozen array operations and a list built per block (see
    :func:`kept_blocks_reference`).
    """
    c = _SCAN.use()
    if c is None:
        return kept_blocks_reference(keep, flags, seg_rawblock, seg_len, tag_len, raw_bytes, raw_tags, lnames)
    start_tag, opener, blk_bytes, blk_tags, seg_block, seg_start, attr_end = c.kept_blocks(
        np.ascontiguousarray(keep, dtype=np.int64),
        np.ascontiguousarray(flags, dtype=np.uint8),
        np.ascontiguousarray(seg_rawblock, dtype=np.int64),
        np.ascontiguousarray(seg_len, dtype=np.int64),
        np.ascontiguousarray(tag_len, dtype=np.int64),
        np.ascontiguousarray(raw_bytes, dtype=np.float64),
        np.ascontiguousarray(raw_tags, dtype=np.int64),
        lnames,
        FLAG_BLOCK,
    )
    return (
        np.frombuffer(start_tag, np.int64),
        opener,
        np.frombuffer(blk_bytes, np.float64),
        np.frombuffer(blk_tags, np.int64),
        np.frombuffer(seg_block, np.int64),
        np.frombuffer(seg_start, np.int64),
        np.frombuffer(attr_end, np.int64),
    )


def kept_blocks_reference(
    keep: np.ndarray,
    flags: np.ndarray,
    seg_rawblock: np.ndarray,
    seg_len: np.ndarray,
    tag_len: np.ndarray,
    raw_bytes: np.ndarray,
    raw_tags: np.ndarray,
    lnames: list[str],
) -> KeptBlocks:
    """The Python reference of :func:`kept_blocks`."""
    start_tag = np.concatenate(([-1], np.flatnonzero(flags & FLAG_BLOCK)))[keep]
    opener = [lnames[t] if t >= 0 else "" for t in start_tag.tolist()]
    # Markup of empty blocks counts toward the next block with text: each
    # kept block takes the running totals since the previous kept one.
    blk_bytes = np.cumsum(raw_bytes)[keep]
    blk_bytes[1:] -= blk_bytes[:-1].copy()
    blk_tags = np.cumsum(raw_tags)[keep]
    blk_tags[1:] -= blk_tags[:-1].copy()
    # Map raw blocks to kept-block indices (-1 for empty ones) for segments.
    raw_to_block = np.full(len(raw_bytes), -1, dtype=np.int64)
    raw_to_block[keep] = np.arange(len(keep))
    # Offsets in step 0's output: segment k, then tag k.
    tag_end = np.cumsum(seg_len[:-1]) + np.cumsum(tag_len)
    seg_start = np.concatenate(([0], tag_end))
    return start_tag, opener, blk_bytes, blk_tags, raw_to_block[seg_rawblock], seg_start, tag_end - 1


def build(markup: str) -> Document:
    """Build the document model from decoded markup.

    The C passes where built, unless the switch of :mod:`scrapy_bte.core.accel`
    is off (then every step's Python reference).
    """
    head_meta = meta_tags(markup)
    meta = meta_content(markup, HEAD_META_KEYS, tags=head_meta)
    marks = Marks(markup)
    cleaned, title = step0(*_shown_markup(markup, marks))
    lnames, flags, tag_len, attr_len, seg_len, seg_chars, seg_words, all_text, has_text = scan(cleaned)
    if not has_text:
        return _empty_document(title, meta, markup, head_meta, marks)
    n_tags = len(lnames)
    seg_rawblock, in_link, raw_words, raw_link, raw_tags, raw_bytes = raw_blocks(flags, seg_words, seg_chars, tag_len)

    keep = np.flatnonzero(raw_words > 0)
    texts = _block_texts(all_text, keep)
    if "" in texts:
        # Words that vanish when entities are decoded ("&#5", "&#8203;"):
        # such a block has no text, so it is neither a block nor BTE words.
        shown = np.fromiter(map(bool, texts), bool, len(texts))
        seg_words[np.isin(seg_rawblock, keep[~shown])] = 0.0
        keep, texts = keep[shown], [t for t in texts if t]
    if len(keep) == 0:  # text, but no words (only separators such as "|")
        return _empty_document(title, meta, markup, head_meta, marks)
    start_tag, opener, blk_bytes, blk_tags, seg_block, seg_start, attr_end = kept_blocks(
        keep, flags, seg_rawblock, seg_len, tag_len, raw_bytes, raw_tags, lnames
    )
    chars = np.fromiter(map(len, texts), np.int64, len(texts))

    return Document(
        texts=texts,
        words=raw_words[keep],
        chars=chars,
        tags=blk_tags,
        bytes=blk_bytes,
        link_words=raw_link[keep],
        opener=opener,
        seg_words=seg_words,
        seg_link_words=seg_words * in_link,
        seg_block=seg_block,
        title_tag=title,
        meta=meta,
        meta_tags=head_meta,
        markup=markup,
        total_tags=n_tags,
        source_chars=len(markup),
        _source=cleaned,
        _seg_start=seg_start,
        _seg_len=seg_len,
        _lnames=lnames,
        _flags=flags,
        _attr_end=attr_end,
        _attr_len=attr_len,
        _start_tag=start_tag,
        _marks=marks,
    )


if _SCAN.module is not None:
    _SCAN.module.configure(
        sorted(_DROP),
        _RESUME,
        BUTTON_ENDS,
        scripts.CJK_RANGES,
        scripts.SEA_RANGES,
        scripts.CJK_WEIGHT,
        scripts.SEA_WEIGHT,
        SEPARATOR_CHARS,
        TAG_FLAGS,
        _VOID_BLOCKS,
        _AUTOCLOSE,
        _CLOSE_SEARCH,
        JOIN_PIECE,
    )
