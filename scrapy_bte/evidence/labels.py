"""Label-like blocks: the short texts of page furniture, in many languages.

Around an article body stand short blocks that are not prose: ad labels
("Advertisement", "Anzeige", "広告"), share bars ("Share", "Teilen"),
list headings ("Related articles", "Mehr zum Thema", "Lee también"), tag
lines ("TAGS: ..."), photo credits ("Foto: ...", "Imagen: ..."), bylines
("By ...", "Von ...", "Por ...", "文/..."), a date or time alone. Their
words are the same on every site of a language, so a small fixed lexicon
(:mod:`.words`) finds them where markup does not; the model weighs the flags
against the block's other evidence (a heading "Share prices fall" is not a
label: only whole short blocks and block openings count). The same rules
serve ``auto``'s never-body rules, training's body labels and, for bylines
(:func:`byline_opener`), the article fields' byline zone.

Only blocks of at most :data:`MAX_WORDS` words are read, with set look-ups
and prefix tests; the date patterns run only on blocks with a digit and a
character they need. Those tests, a few microseconds per block in Python and
run on every short block of every page, are one C pass over each text
(``evidence/_labels.c``) when it is built; :func:`text_flags_reference` is the
Python twin.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ..core import accel
from ..core.document import TAG_FLAGS, Document
from .memo import LastDocument
from .words import (
    BYLINE_FIRST,
    BYLINE_HEADS,
    BYLINE_PREFIXES,
    CREDIT_STARTS,
    CREDIT_WORDS,
    DATE_AFTER_DIGIT,
    DATE_MARKS,
    DATE_WORDS,
    LABEL_COLON,
    LABEL_SET,
    LABEL_TAIL,
    NUMERIC_DATE_RE,
    READ_TIME_RE,
    READ_TIME_WORDS,
)

#: Blocks with more words than this are never label-like.
MAX_WORDS = 20

_DATE_SPLIT_RE = re.compile(r"[\W\d_]+")
_DIGIT_RE = re.compile(r"\d")
#: Any of :data:`READ_TIME_WORDS` (plain substrings), in one search.
_READ_TIME_WORD_RE = re.compile("|".join(map(re.escape, READ_TIME_WORDS)))
#: From a line's first digit to its end: one match per line holding a digit.
_DIGIT_LINE_RE = re.compile(r"\d[^\n]*")


def _lines_with_digits(lows: list[str]) -> list[int]:
    """Indices of the texts holding a digit: one regex pass over all of them (joined by line
    breaks) rather than one search per block."""
    joined = "\n".join(lows)
    if joined.count("\n") != len(lows) - 1:  # a text holding a line break
        return [i for i, t in enumerate(lows) if _DIGIT_RE.search(t) is not None]
    starts = np.cumsum(np.fromiter(map(len, lows), np.int64, len(lows)) + 1)
    found = [m.start() for m in _DIGIT_LINE_RE.finditer(joined)]
    return np.searchsorted(starts, found, "right").tolist()


#: The last document's flags: features and the body rules read them for the same page.
_last = LastDocument()
#: Column names of :func:`label_features`.
NAMES = (
    "label",
    "label_colon",
    "byline_start",
    "credit_start",
    "date_like",
    "read_time",
    "log_repeats",
    "after_image",
    "before_image",
)


#: Bits of :func:`text_flags` beyond the first four (columns 0-3 of :func:`label_features`): the
#: date evidence, and which texts the reading-time pattern needs to read. Set on texts holding a digit only.
_DIGIT = 16  # a decimal digit (``\d``)
_DATE_WORD = 32  # one of DATE_WORDS, as a whole run of letters
_NUMERIC_DATE = 64  # NUMERIC_DATE_RE matches
_READ_TIME_WORD = 128  # one of READ_TIME_WORDS
_FURNITURE = accel.load("evidence.labels")
if _FURNITURE.module is not None:  # the C pass reads this module's word lists, never copies of them
    _FURNITURE.module.configure(
        LABEL_TAIL,
        LABEL_SET,
        LABEL_COLON,
        BYLINE_FIRST,
        BYLINE_HEADS,
        BYLINE_PREFIXES,
        CREDIT_WORDS,
        CREDIT_STARTS,
        DATE_WORDS,
        DATE_AFTER_DIGIT,
        DATE_MARKS,
        READ_TIME_WORDS,
    )


#: :data:`~scrapy_bte.evidence.words.BYLINE_PREFIXES` as one tuple for ``str.startswith``.
_PREFIXES = tuple(BYLINE_PREFIXES)


def byline_opener(low: str, *, word_colon: bool = False) -> int | None:
    """Where the words that open a byline end in a lower-cased text, or None when it opens none:
    a first word followed by more ("by jane doe", "von ..."), a word and its colon ("autor: ...",
    "author" alone too), a prefix ("written by", "文/"). The rule of the ``byline_start`` flag
    (:func:`byline_start`; the C pass tests the same words) and of the article fields' byline
    zone, which also wants a name after the opener (:mod:`scrapy_bte.fields.zones`).

    ``word_colon``: a first word may carry a colon ("by: jane doe"), as the fields' zone reads it;
    the flag does not, and the learned model was trained on the flag as it is.
    """
    first = low.split(None, 1)
    if len(first) > 1 and (first[0] in BYLINE_FIRST or (word_colon and first[0].rstrip(":：") in BYLINE_FIRST)):
        return len(low) - len(first[1])
    head = low.partition(":")[0].partition("：")[0]
    if head.rstrip() in BYLINE_HEADS:
        return min(len(head) + 1, len(low))  # past the colon, where there is one
    if low.startswith(_PREFIXES):  # one C-level test; the loop only finds which prefix it was
        for prefix in BYLINE_PREFIXES:
            if low.startswith(prefix):
                return len(prefix)
    return None


def byline_start(low: str) -> bool:
    """Whether a lower-cased text opens like a byline (:func:`byline_opener`)."""
    return byline_opener(low) is not None


def text_flags(lows: list[str]) -> np.ndarray:
    """One byte of flags per lower-cased short text (bits: label, label_colon, byline_start,
    credit_start, then ``_DIGIT`` ... ``_READ_TIME_WORD``).

    One C pass over each text when ``scrapy_bte._native.labels`` is built (the Python tests
    build a dozen small strings per text), else :func:`text_flags_reference`; the two agree.
    """
    c = _FURNITURE.use()
    if c is None:
        return text_flags_reference(lows)
    return np.frombuffer(c.flags(lows), np.uint8)


def is_label(text: str, labels: frozenset[str] = LABEL_SET) -> bool:
    """Whether a block's whole text is one of ``labels`` (lower case), with the punctuation, arrows
    and counts of :data:`~scrapy_bte.evidence.words.LABEL_TAIL` around it: "Related articles »",
    "Comments (4)", "Best seller", "You may also like"."""
    return text.lower().strip(LABEL_TAIL) in labels


def text_flags_reference(lows: list[str]) -> np.ndarray:
    """The Python reference of :func:`text_flags`."""
    # "Tags: ...", "Foto: ...": the words before a colon (or a slash, for credits).
    heads = [t.partition(":")[0].partition("：")[0].rstrip() for t in lows]
    slash = [t.partition("/")[0].rstrip() for t in lows]
    label = [t.strip(LABEL_TAIL) in LABEL_SET for t in lows]
    colon = [h in LABEL_COLON and len(h) < len(t) for h, t in zip(heads, lows)]
    byline = [byline_start(t) for t in lows]
    credit = [
        (h in CREDIT_WORDS and len(h) < len(t))
        or (c in CREDIT_WORDS and len(c) < len(t))
        or t.startswith(CREDIT_STARTS)
        for h, c, t in zip(heads, slash, lows)
    ]
    bits = np.packbits(np.array([label, colon, byline, credit], dtype=bool).reshape(4, -1), axis=0, bitorder="little")
    bits = bits.reshape(-1)
    for i in _lines_with_digits(lows):
        t = lows[i]
        bits[i] |= (
            _DIGIT
            | (_DATE_WORD if not DATE_WORDS.isdisjoint(_DATE_SPLIT_RE.split(t)) else 0)
            | (_NUMERIC_DATE if NUMERIC_DATE_RE.search(t) is not None else 0)
            | (_READ_TIME_WORD if _READ_TIME_WORD_RE.search(t) is not None else 0)
        )
    return bits


def _date_columns(lows: list[str], bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Columns ``date_like`` and ``read_time`` of the texts ``lows`` with flags ``bits``: the
    reading-time pattern runs only where the flags say it can match."""
    date = (bits & (_DATE_WORD | _NUMERIC_DATE)) != 0
    read = np.zeros(len(lows), dtype=bool)
    maybe = (bits & _READ_TIME_WORD).nonzero()[0].tolist()
    if maybe:
        read[maybe] = [READ_TIME_RE.search(lows[i]) is not None for i in maybe]
    return date, read


def _repeats(texts: list[str]) -> np.ndarray | None:
    """How many times each text occurs (float64), or None when every text occurs once; a C pass
    when built (``collections.Counter`` and a look-up per text cost about 60 ns a block)."""
    c = _FURNITURE.use()
    if c is None:
        counts = Counter(texts)
        if len(counts) == len(texts):
            return None
        return np.fromiter(map(counts.__getitem__, texts), np.float64, len(texts))
    out = np.empty(len(texts))
    return out if c.repeats(texts, out) < len(texts) else None


def _lowered(texts: list[str], rows: list[int]) -> list[str]:
    """``[texts[i].lower() for i in rows]``; in C when built (an ASCII text is lowered there
    without a method call, itself when it has no capital)."""
    c = _FURNITURE.use()
    if c is None:
        return [texts[i].lower() for i in rows]
    return c.lowered(texts, rows)


def _flag_columns(out: np.ndarray, rows: np.ndarray, lows: list[str], bits: np.ndarray) -> None:
    """Columns 0-5 of :func:`label_features` for the blocks ``rows`` (texts ``lows``, flags ``bits``):
    written by one C call when built (else a fancy-index assignment per column), the reading-time
    pattern run where the flags say it can match."""
    c = _FURNITURE.use()
    if c is None:
        out[rows, :4] = np.unpackbits(bits[:, None], axis=1, count=4, bitorder="little")
        out[rows, 4], out[rows, 5] = _date_columns(lows, bits)
        return
    for i in c.columns(bits, rows, out):
        if READ_TIME_RE.search(lows[i]) is not None:
            out[rows[i], 5] = 1.0


def label_features(doc: Document) -> np.ndarray:
    """``(n_blocks, len(NAMES))`` flags of label-like blocks (see the module docstring).

    Cached for the last document; in C where built, as :func:`text_flags`. :func:`label_features_reference` gives the same array.
    """
    cached = _last.get(doc)
    if cached is not None:
        return cached
    n = doc.n_blocks
    out = np.zeros((n, len(NAMES)), dtype=np.float64)
    texts = doc.texts
    rows = (doc.words <= MAX_WORDS).nonzero()[0]
    if len(rows):
        # One call per text: only the texts with a non-ASCII character take str.lower's slow path
        # (one joined string would take it for all of them).
        lows = _lowered(texts, rows.tolist())
        _flag_columns(out, rows, lows, text_flags(lows))
    repeats = _repeats(texts)
    if repeats is not None:
        out[:, 6] = np.log(repeats)
    out[:, 7:9] = _next_to_images(doc)
    _last.put(doc, out)
    return out


def label_features_reference(doc: Document) -> np.ndarray:
    """The Python reference of :func:`label_features` (not cached): one test after another per text."""
    n = doc.n_blocks
    out = np.zeros((n, len(NAMES)), dtype=np.float64)
    texts = doc.texts
    rows = np.flatnonzero(doc.words <= MAX_WORDS)
    if len(rows):
        short = [texts[b] for b in rows.tolist()]
        lows = "\n".join(short).lower().split("\n")
        if len(lows) != len(short):  # a block holding a line break
            lows = [t.lower() for t in short]
        out[rows, 0] = [t.strip(LABEL_TAIL) in LABEL_SET for t in lows]
        # "Tags: ...", "Foto: ...": the words before a colon (or a slash, for credits).
        heads = [t.partition(":")[0].partition("：")[0].rstrip() for t in lows]
        slash = [t.partition("/")[0].rstrip() for t in lows]
        out[rows, 1] = [h in LABEL_COLON and len(h) < len(t) for h, t in zip(heads, lows)]
        out[rows, 2] = [byline_start(t) for t in lows]
        out[rows, 3] = [
            (h in CREDIT_WORDS and len(h) < len(t))
            or (c in CREDIT_WORDS and len(c) < len(t))
            or t.startswith(CREDIT_STARTS)
            for h, c, t in zip(heads, slash, lows)
        ]
        digits = _lines_with_digits(lows)
        if digits:
            at = rows[digits]
            out[at, 4] = [
                NUMERIC_DATE_RE.search(lows[i]) is not None or not DATE_WORDS.isdisjoint(_DATE_SPLIT_RE.split(lows[i]))
                for i in digits
            ]
            out[at, 5] = [
                _READ_TIME_WORD_RE.search(lows[i]) is not None and READ_TIME_RE.search(lows[i]) is not None
                for i in digits
            ]
    counts = Counter(texts)
    if len(counts) < n:
        out[:, 6] = np.log(np.fromiter(map(counts.__getitem__, texts), np.float64, n))
    out[:, 7:9] = _next_to_images_reference(doc)
    return out


#: The flag bits of an ``<img>`` tag in a document's tag flags.
_IMG_FLAGS = TAG_FLAGS.get("img", 0)


def _next_to_images(doc: Document) -> np.ndarray:
    """Per block, whether an ``<img>`` stands between it and the previous (column 0) or next (column 1)
    block of text: where captions and credits sit, whatever their markup is called.

    :func:`_next_to_images_reference` gives the same array. One C pass over the tags when built
    (as :func:`text_flags`); else only the tags with an image's flag bits are
    compared by name. A block's segments are one run, so tag ``t`` (between segments ``t`` and
    ``t + 1``) is inside a block when both segments belong to it, and the block before it is the
    running maximum of the segments' blocks: no per-block search.
    """
    n = doc.n_blocks
    out = np.zeros((n, 2))
    names = doc.tag_names
    flags = doc.tag_flags
    if len(flags) != len(names):  # a document without the tag flags
        return _next_to_images_reference(doc)
    c = _FURNITURE.use()
    if c is not None:
        c.beside(names, "img", np.ascontiguousarray(doc.seg_block, dtype=np.int64), out)
        return out
    images = [t for t in np.flatnonzero(flags == _IMG_FLAGS).tolist() if names[t] == "img"]
    if not images:
        return out
    blocks = doc.seg_block
    tags = np.array(images)
    here = blocks[tags]
    outside = (here < 0) | (blocks[tags + 1] != here)
    prev = np.maximum.accumulate(blocks)[tags[outside]]
    after = prev + 1
    out[after[after < n], 0] = 1.0
    out[prev[prev >= 0], 1] = 1.0
    return out


def _next_to_images_reference(doc: Document) -> np.ndarray:
    """The Python reference of :func:`_next_to_images`: each block's first and last segments."""
    n = doc.n_blocks
    out = np.zeros((n, 2))
    names = doc.tag_names
    images: list[int] = []
    at = -1
    for _ in range(names.count("img")):  # list.index runs in C
        at = names.index("img", at + 1)
        images.append(at)
    if not images:
        return out
    with_text = np.flatnonzero(doc.seg_block >= 0)
    owner = doc.seg_block[with_text]
    blocks = np.arange(n)
    first_seg = with_text[np.searchsorted(owner, blocks, "left")]
    last_seg = with_text[np.searchsorted(owner, blocks, "right") - 1]
    tags = np.array(images)
    after = np.searchsorted(first_seg, tags, "right")  # the block the image stands before
    prev = after - 1
    outside = (prev < 0) | (last_seg[np.maximum(prev, 0)] <= tags)  # not inside the previous block's text
    out[after[outside & (after < n)], 0] = 1.0
    out[prev[outside & (prev >= 0)], 1] = 1.0
    return out
