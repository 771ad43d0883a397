"""Block and context features for the learned classifier, computed from the one document model.

The columns (names, order, groups, version) are declared in
:mod:`.feature_schema`; this module computes them. Everything is a handful
of numpy operations over the block arrays; the only Python loops run once
per *element* on the path of a block (ancestor names and attribute marks,
memoised per element; attribute strings parsed once per process) and over a
few headline candidates.

The numeric groups (shape, neighbours, wide window, page context, BTE and
hybrid span, opener, path names and marks, depth, container groups, text
statistics) are filled in one C pass, ``scrapy_bte._native.features``,
when it is built, else by :func:`block_features_reference`; the
page-furniture groups (class/id/role hint words on the path and on the
block's own tag from :mod:`scrapy_bte.evidence.hints`, label-like text from
:mod:`scrapy_bte.evidence.labels`) are written by :func:`_furniture_columns`
on both paths.

Tried and dropped: hashed class and id tokens of the ancestors (2x64
buckets) and an open list of ~140 template words. Leave-one-set-out they
memorised the training sites' templates and conventions (comments are
content in one set, boilerplate in another): mean F1 0.871 (hashed) and
0.866 (word list) against 0.885 without with an MLP, 0.882 against 0.894
with logistic regression; dragnet alone lost 0.04 with the word list. The
hint columns kept instead use a small fixed vocabulary of the words
templates name their furniture with (:data:`scrapy_bte.evidence.words.GROUPS`).
"""

from __future__ import annotations

import re
from itertools import repeat
from types import ModuleType
from typing import Protocol

import numpy as np

from ..core import accel
from ..core.document import HEADING_TAGS, Document
from ..core.scripts import WORD_RE
from ..core.tree import AttributeReader, path_or
from ..evidence import hints as _hints
from ..evidence import labels as _furniture
from ..methods import hybrid as _hybrid
from ..methods.bte import Span, document_span
from .feature_schema import (
    ANCESTORS,
    CONTEXT_NAMES,
    GROUP_LEVELS,
    MARKS,
    N_FEATURES,
    N_FURNITURE,
    N_NUMERIC,
    OPENERS,
    WIDE,
    WINDOW,
)

#: The C pass of the text statistics.
_TEXTSTATS = accel.load("learned.features")
#: The C pass that fills the numeric columns of the block and context features.
_FEATURES = accel.load("learned.features")

_OPENER_INDEX: dict[str, int] = {}
for _i, _name in enumerate(OPENERS):
    for _tag in _name.split("-") if _name in ("dd-dt", "ul-ol") else [_name]:
        _OPENER_INDEX[_tag] = _i
for _tag in ("h4", "h5", "h6"):
    _OPENER_INDEX[_tag] = OPENERS.index("h4-6")
_OTHER_OPENER = OPENERS.index("other")

_MARK_BIT = {name: 1 << (len(ANCESTORS) + i) for i, name in enumerate(MARKS)}
_ROLE_BITS = {
    "main": "role=main",
    "article": "role=main",
    "navigation": "role=navigation",
    "menu": "role=navigation",
    "menubar": "role=navigation",
    "complementary": "role=complementary",
    "contentinfo": "role=contentinfo",
    "banner": "role=banner",
}
#: Searched in the attribute string after a space (:func:`_mark_bits`): a leading ``\s`` lets the
#: search skip to the next whitespace in C, where ``(?:^|\s)`` is tried at every position (the
#: same matches, 1.6 times as fast on the development pages' strings).
_MARK_RE = re.compile(
    r"""\s(role|itemprop|hidden|aria-hidden|style)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""",
    re.IGNORECASE,
)
# Words without which an attribute string carries no mark: the cheap test before _MARK_RE. A
# style marks only with "display" in it (most inline styles set sizes and colours, and are not read).
_MARK_WORDS = ("role", "itemprop", "hidden", "display")


_ANCESTOR_BIT = {name: 1 << i for i, name in enumerate(ANCESTORS)}
_ANCESTOR_BIT["dir"] = _ANCESTOR_BIT["menu"]
_ANCESTOR_BIT["th"] = _ANCESTOR_BIT["td"]

# Code point classes for the text features, one table lookup per character.
_END, _COMMA, _PUNCT, _DIGIT = 1, 2, 4, 8
_CP_CLASS = np.zeros(0x10000, dtype=np.uint8)
for _lo, _hi in ((33, 47), (58, 64), (91, 96), (123, 126), (0x2010, 0x205F), (0x3000, 0x303F), (0xFF01, 0xFF0F)):
    _CP_CLASS[_lo : _hi + 1] |= _PUNCT
_CP_CLASS[48:58] |= _DIGIT
_CP_CLASS[[ord(c) for c in ".!?\u3002\uff01\uff1f\u0964\u061f\u037e\u2026"]] |= _END | _PUNCT
_CP_CLASS[[ord(c) for c in ",\u3001\u060c\uff0c;"]] |= _COMMA | _PUNCT
_UPPER, _SPACE = 16, 32
# Which of the 64 codes carry each counted class: digit, punct, comma, end, upper, space.
_CODE_BITS = np.array(
    [[(c & bit) > 0 for bit in (_DIGIT, _PUNCT, _COMMA, _END, _UPPER, _SPACE)] for c in range(64)], dtype=np.int64
)
_CLOSERS = np.zeros(0x10000, dtype=bool)
_CLOSERS[[0x22, 0x27, 0x29, 0xBB, 0x201D, 0x2019]] = True
_CP_CLASS_BYTES = _CP_CLASS.tobytes()
_CLOSERS_BYTES = _CLOSERS.astype(np.uint8).tobytes()


def _mark_bits(raw: str) -> int:
    """:data:`MARKS` bits of one element's raw attributes (0 unless they mention a mark's name)."""
    bits = 0
    for m in _MARK_RE.finditer(" " + raw):
        key = m.group(1).lower()
        value = (m.group(2) or m.group(3) or m.group(4) or "").lower()
        if key == "role":
            for role in value.split():
                if role in _ROLE_BITS:
                    bits |= _MARK_BIT[_ROLE_BITS[role]]
        elif key == "itemprop":
            if "articlebody" in value or value == "text" or "reviewbody" in value:
                bits |= _MARK_BIT["itemprop=articleBody"]
        elif (
            key == "hidden"
            or (key == "aria-hidden" and value == "true")
            or (key == "style" and "display" in value and "none" in value.replace(" ", "").split("display:", 1)[-1][:5])
        ):
            bits |= _MARK_BIT["hidden"]
    return bits


#: :func:`_mark_bits` per distinct attribute string.
_MARKS = AttributeReader(_mark_bits, _MARK_WORDS)


def _ancestor_bits(doc: Document) -> np.ndarray:
    """Per block, the bits of :data:`ANCESTORS` names and :data:`MARKS` on its container's path.

    Each element's own bits come from its name and its attributes' marks
    (:func:`_mark_bits`, read once per distinct string); :func:`path_or` ORs them down the tree.
    """
    skeleton = doc.skeleton
    names = skeleton.name_strings
    own = np.fromiter(map(_ANCESTOR_BIT.get, names, repeat(0)), np.int64, len(names))[skeleton.el_name_id]
    own |= _MARKS.per_element(doc)
    acc = path_or(doc, own)
    return acc[doc.container]


#: :func:`hidden_blocks` looks this many elements up from a block's container.
HIDDEN_LEVELS = 64


def hidden_blocks(doc: Document, blocks: list[int]) -> np.ndarray:
    """Per block of ``blocks``, whether markup hides it: its own opening tag or an element on
    its container's path says ``hidden``, ``aria-hidden="true"`` or ``display: none``
    (:func:`_mark_bits`). The block features read the path only; the block's own tag (a
    ``<pre hidden>`` holding the page again for machines) counts here too. For a few blocks:
    each walks its own path, where :func:`_ancestor_bits` reads the whole tree, and no further
    than :data:`HIDDEN_LEVELS` elements up (a page nested thousands deep costs no more)."""
    out = np.zeros(len(blocks), dtype=bool)
    for i, b in enumerate(blocks):
        raws = doc.path_attributes(b, HIDDEN_LEVELS)
        out[i] = bool(np.bitwise_or.reduce(_MARKS.values(raws)) & _MARK_BIT["hidden"])
    return out


def _dense_labels(ids: np.ndarray, size: int) -> tuple[int, np.ndarray]:
    """(count, labels): ids in ``0..size-1`` relabelled ``0..count-1`` in increasing
    order, as ``np.unique(ids, return_inverse=True)`` does, without sorting."""
    present = np.flatnonzero(np.bincount(ids, minlength=size))
    slot = np.empty(size, dtype=np.int64)
    slot[present] = np.arange(len(present))
    return len(present), slot[ids]


def _opener_index(doc: Document) -> np.ndarray:
    """Per block, the :data:`OPENERS` column of its opening tag: in C where built (each distinct
    name object looked up once), else :func:`_opener_index_reference`."""
    c = _FEATURES.use()
    if c is None or not isinstance(doc.opener, list):
        return _opener_index_reference(doc)
    return np.frombuffer(c.opener_index(doc.opener, _OPENER_INDEX, _OTHER_OPENER), np.int64)


def _opener_index_reference(doc: Document) -> np.ndarray:
    """The Python reference of :func:`_opener_index`."""
    return np.fromiter(map(_OPENER_INDEX.get, doc.opener, repeat(_OTHER_OPENER)), np.int64, doc.n_blocks)


def _bits_matrix(values: np.ndarray, width: int) -> np.ndarray:
    """Rows of 0/1 from int64 bitmasks (little-endian bit order)."""
    raw = values.astype("<i8").view(np.uint8).reshape(len(values), 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :width]


def _shift(a: np.ndarray, off: int, fill: float = 0.0) -> np.ndarray:
    """``a[i + off]`` with ``fill`` beyond the ends."""
    out = np.full_like(a, fill)
    n = len(a)
    if off > 0 and off < n:
        out[: n - off] = a[off:]
    elif off < 0 and -off < n:
        out[-off:] = a[: n + off]
    elif off == 0:
        out[:] = a
    return out


def window_mean(a: np.ndarray, half: int) -> np.ndarray:
    """Mean of ``a`` (rows = blocks, 1-D or 2-D) over the blocks ``i-half..i+half`` that exist."""
    n = len(a)
    # Running sums with ``half`` copies of the first (zero) and last sum on either side: the
    # window of block i is then the difference of two slices, with no index arrays.
    c = np.zeros((n + 1 + 2 * half,) + a.shape[1:])
    np.cumsum(a, axis=0, out=c[half + 1 : half + 1 + n])
    c[half + 1 + n :] = c[half + n]
    # The blocks in each window, the same differences over the running count of blocks.
    count = np.arange(-half, n + half + 1, dtype=np.float64)
    np.maximum(count, 0.0, out=count)
    np.minimum(count, n, out=count)
    count = count[2 * half + 1 :] - count[:n]
    sums = c[2 * half + 1 :] - c[:n]
    sums /= count[:, None] if a.ndim == 2 else count
    return sums


def _codepoints(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _text_stats(doc: Document, words: np.ndarray) -> np.ndarray:
    """Digit, uppercase, punctuation, comma and sentence-end shares per block, on code points.

    Each character gets a 6-bit class code (table lookup plus case and space
    bits) and one integer ``bincount`` of (block, code) pairs counts every
    class of every block at once (:func:`_text_stats_reference`);
    ``scrapy_bte._native.features`` counts the same and divides in one C
    pass when built (unless the switch of :mod:`scrapy_bte.core.accel` is off).
    """
    c = _TEXTSTATS.use()
    if c is None:
        return _text_stats_reference(doc, words)
    chars = np.ascontiguousarray(doc.chars, dtype=np.int64)
    words = np.ascontiguousarray(words, dtype=np.float64)
    raw = c.text_stats(doc.texts, chars, words, _CP_CLASS_BYTES, _CLOSERS_BYTES)
    return np.frombuffer(raw, np.float64).reshape(doc.n_blocks, 6)


def _text_stats_reference(doc: Document, words: np.ndarray) -> np.ndarray:
    """The numpy reference of :func:`_text_stats`."""
    chars = np.maximum(doc.chars, 1).astype(np.float64)
    w = np.maximum(words, 1.0)
    n = doc.n_blocks
    joined = "\n".join(doc.texts).replace("\u0130", "I")
    cp = _codepoints(joined)
    lower = joined.lower()
    bmp = np.minimum(cp, 0xFFFF)
    code = _CP_CLASS[bmp]
    # A character whose lower case has another length (rare) drops the case feature.
    if len(lower) == len(joined):
        code = code | ((cp != _codepoints(lower)).view(np.uint8) << 4)
    code = code | ((cp == 32).view(np.uint8) << 5)
    owner = np.repeat(np.arange(n), doc.chars + 1)[: len(cp)]
    counts = np.bincount(owner * 64 + code, minlength=n * 64).reshape(n, 64) @ _CODE_BITS
    digit, punct, commas, stops, upper, spaces = counts.T
    letters = np.maximum(doc.chars - digit - punct - spaces, 1)
    last = np.cumsum(doc.chars + 1) - 2  # index of each block's last character
    ends = (code & _END) > 0
    ends_sentence = ends[last] | (_CLOSERS[bmp[last]] & ends[np.maximum(last - 1, 0)])
    return np.column_stack((digit / chars, upper / letters, punct / chars, commas / w, stops / w, ends_sentence))


def _group_features(doc: Document, words: np.ndarray, chars: np.ndarray, nbytes: np.ndarray) -> list[np.ndarray]:
    """Totals of the block's group at each of :data:`GROUP_LEVELS` (readability's container scoring).

    Main text shares a container with other main text: a paragraph is more
    likely content when its container, or the container's parent, holds a
    large, low-link, dense share of the page.
    """
    parents = doc.skeleton.parents
    ids = doc.container.astype(np.int64)
    total_words = max(float(words.sum()), 1.0)
    cols: list[np.ndarray] = []
    for level in range(len(GROUP_LEVELS)):
        if level:
            ids = np.where(ids > 0, parents[ids], 0)
        k, inv = _dense_labels(ids, len(parents))
        g_words = np.bincount(inv, words, k)
        g_link = np.bincount(inv, doc.link_words, k)
        g_chars = np.bincount(inv, chars, k)
        g_bytes = np.bincount(inv, nbytes, k)
        g_blocks = np.bincount(inv, minlength=k).astype(np.float64)
        largest = (np.arange(k) == int(np.argmax(g_words))).astype(np.float64)
        cols += [
            np.log1p(g_words)[inv],
            (g_words / total_words)[inv],
            (g_link / np.maximum(g_words, 1.0))[inv],
            (g_chars / np.maximum(g_bytes, 1.0))[inv],
            np.log1p(g_blocks)[inv],
            largest[inv],
        ]
    return cols


def _title_overlap(doc: Document, words: np.ndarray, span: Span | None) -> np.ndarray:
    """Share of a candidate headline's tokens that occur in the page title.

    Candidates (to bound the loop): heading blocks, and short blocks among the
    ten before BTE's span, where headlines sit when they are not headings.
    ``scrapy_bte._native.features`` tokenises and counts without a str per
    token when built (unless the switch of :mod:`scrapy_bte.core.accel` is off),
    else :func:`_title_overlap_reference` does.
    """
    c = _TEXTSTATS.use()
    if c is None:
        return _title_overlap_reference(doc, words, span)
    out = np.zeros(doc.n_blocks)
    title = doc.meta.get("og:title") or doc.title_tag
    if title:
        first = span.first_block if span is not None else -1
        c.title_overlap(doc.texts, doc.opener, np.ascontiguousarray(words, dtype=np.float64), first, title, out)
    return out


def _title_overlap_reference(doc: Document, words: np.ndarray, span: Span | None) -> np.ndarray:
    """The Python reference of :func:`_title_overlap`."""
    n = doc.n_blocks
    out = np.zeros(n)
    title = doc.meta.get("og:title") or doc.title_tag
    if not title:
        return out
    title_tokens = set(WORD_RE.findall(title.lower()))
    if not title_tokens:
        return out
    heading = np.fromiter(map(HEADING_TAGS.__contains__, doc.opener), bool, n)
    if span is not None:
        heading[max(0, span.first_block - 10) : span.first_block + 1] = True
    texts = doc.texts
    for b in np.flatnonzero(heading & (words >= 2) & (words <= 40)).tolist():
        toks = WORD_RE.findall(texts[b].lower())
        if toks:
            out[b] = sum(map(title_tokens.__contains__, toks)) / len(toks)
    return out


def block_features(doc: Document, span: Span | None = None, *, use_span: bool = True) -> np.ndarray:
    """Feature matrix ``(n_blocks, N_FEATURES)`` as float32 (see the module docstring).

    The columns are filled in C by ``scrapy_bte._native.features`` when
    built (unless the switch of :mod:`scrapy_bte.core.accel` is off),
    else by :func:`block_features_reference`. Both take the same Python-side
    inputs.
    """
    c = _FEATURES.use()
    if doc.n_blocks == 0:
        return np.zeros((0, N_FEATURES), dtype=np.float32)
    if use_span and span is None:
        span = document_span(doc)
    if c is not None:
        return _block_features_c(c, doc, span)
    return block_features_reference(doc, span)


def block_features_reference(doc: Document, span: Span | None) -> np.ndarray:
    """The numpy reference of :func:`block_features` (``doc`` has blocks)."""
    n = doc.n_blocks
    words = doc.words.astype(np.float64)
    chars = doc.chars.astype(np.float64)
    nbytes = np.maximum(doc.bytes.astype(np.float64), chars)
    tags = doc.tags.astype(np.float64)
    density = np.divide(chars, nbytes, out=np.zeros(n), where=nbytes > 0)
    link = np.divide(doc.link_words, words, out=np.zeros(n), where=words > 0)
    log_chars = np.log1p(chars)
    cols: list[np.ndarray] = [
        np.log1p(words),
        log_chars,
        np.log1p(nbytes),
        density,
        tags / np.maximum(words, 1.0),
        link,
        chars / np.maximum(words, 1.0) / 10.0,
    ]
    # Neighbours: slices of one padded matrix (density, log chars, link density, outside flag).
    padded = np.zeros((n + 2 * WINDOW, 4))
    padded[:, 3] = 1.0
    padded[WINDOW : WINDOW + n] = np.column_stack((density, log_chars, link, np.zeros(n)))
    cols += [padded[WINDOW + off : WINDOW + off + n] for off in range(-WINDOW, WINDOW + 1) if off]
    cols.append(window_mean(np.column_stack((density, link, log_chars, chars < 40)), WIDE))

    total_chars = max(float(chars.sum()), 1.0)
    weighted_density = float((density * chars).sum()) / total_chars
    idx = np.arange(n, dtype=np.float64)
    cum = np.cumsum(chars) - chars / 2
    cols += [
        density - weighted_density,
        log_chars - float(np.median(log_chars)),
        idx / max(n - 1, 1),
        cum / total_chars,
        np.full(n, np.log1p(n)),
        np.full(n, np.log1p(float(words.sum()))),
        np.full(n, float(doc.link_words.sum()) / max(float(words.sum()), 1.0)),
    ]

    if span is not None:
        first, last = span.first_block, span.last_block
        in_bte = ((idx >= first) & (idx <= last)).astype(np.float64)
        dist = np.where(idx < first, first - idx, np.where(idx > last, idx - last, 0.0))
        share = float(words[first : last + 1].sum()) / max(float(words.sum()), 1.0)
        cols += [
            in_bte,
            np.log1p(dist),
            (idx < first).astype(np.float64),
            (idx > last).astype(np.float64),
            np.full(n, share),
        ]
    else:
        cols += [np.zeros(n)] * 5
    # The hybrid method's verdict (it already applies the page's density threshold).
    hybrid = _hybrid.select(doc, span).astype(np.float64)
    kept = np.flatnonzero(hybrid)
    if len(kept):
        nearest = np.abs(idx[:, None] - kept[None, [0, -1]]).min(axis=1)
        cols += [hybrid, np.log1p(np.where(hybrid > 0, 0.0, nearest))]
    else:
        cols += [hybrid, np.full(n, np.log1p(n))]

    opener_idx = _opener_index(doc)
    openers = np.zeros((n, len(OPENERS)))
    openers[np.arange(n), opener_idx] = 1.0

    anc = _bits_matrix(_ancestor_bits(doc), len(ANCESTORS) + len(MARKS))
    depth = doc.depth.astype(np.float64)
    same_prev = np.zeros(n)
    same_next = np.zeros(n)
    if n > 1:
        same = (doc.container[1:] == doc.container[:-1]).astype(np.float64)
        same_prev[1:] = same
        same_next[:-1] = same
    tag_cols = [depth / 10.0, depth - float(np.median(depth)), same_prev, same_next]

    group_cols = _group_features(doc, words, chars, nbytes)
    text = _text_stats(doc, words)
    title = _title_overlap(doc, words, span)
    # One copy into a (features, blocks) array: cheaper than stacking ~100 columns.
    rows = [
        c
        for part in cols + [openers, anc] + tag_cols + group_cols + [text, title]
        for c in (part.T if part.ndim == 2 else (part,))
    ]
    return np.hstack((np.array(rows, dtype=np.float32).T, _furniture_columns(doc)))


def _furniture_columns(doc: Document, out: np.ndarray | None = None) -> np.ndarray:
    """The page-furniture evidence: markup hints on the path and own tag, label-like text.

    Written into ``out`` (float32, ``(n_blocks, N_FURNITURE)``, e.g. the tail of the feature
    matrix) when given: each part is cast once, straight into place.
    """
    path, own = _hints.block_hints(doc)
    if out is None:
        out = np.empty((doc.n_blocks, N_FURNITURE), dtype=np.float32)
    _hints.write_bits(path, own, out)
    out[:, 2 * _hints.N_GROUPS :] = _furniture.label_features(doc)
    return out


def _block_features_c(c: ModuleType, doc: Document, span: Span | None) -> np.ndarray:
    """:func:`block_features` with the numeric columns filled in one C call."""
    n = doc.n_blocks
    words = np.ascontiguousarray(doc.words, dtype=np.float64)
    container = np.ascontiguousarray(doc.container, dtype=np.int64)
    anc = _ancestor_bits(doc)
    opener_idx = _opener_index(doc)
    hybrid = np.ascontiguousarray(_hybrid.select(doc, span), dtype=np.uint8)
    text = np.ascontiguousarray(_text_stats(doc, words), dtype=np.float64)
    title = np.ascontiguousarray(_title_overlap(doc, words, span), dtype=np.float64)
    first, last = (span.first_block, span.last_block) if span is not None else (-1, -1)
    out = np.empty((n, N_FEATURES), dtype=np.float32)
    c.block_features(
        words,
        np.ascontiguousarray(doc.chars, dtype=np.int64),
        np.ascontiguousarray(doc.bytes, dtype=np.int64),
        np.ascontiguousarray(doc.tags, dtype=np.int64),
        np.ascontiguousarray(doc.link_words, dtype=np.float64),
        container,
        np.ascontiguousarray(doc.depth, dtype=np.int64),
        doc.skeleton.parents,
        opener_idx,
        anc,
        hybrid,
        text,
        title,
        first,
        last,
        N_NUMERIC,
        len(OPENERS),
        len(ANCESTORS) + len(MARKS),
        out,
    )
    _furniture_columns(doc, out[:, N_NUMERIC:])
    return out


class BlockArrays(Protocol):
    """What :func:`context_features` reads of a page: a :class:`Document` or training's page blocks."""

    @property
    def words(self) -> np.ndarray: ...

    @property
    def container(self) -> np.ndarray: ...


def context_features(p: np.ndarray, doc: BlockArrays) -> np.ndarray:
    """First-stage probabilities of the block, its neighbours, its container and the page.

    Content comes in runs inside one container; a second stage that sees
    these learns it (a cheap stand-in for a sequence model). ``doc`` needs
    only ``words`` and ``container``. In C as
    :func:`block_features`; :func:`context_features_reference` is the numpy
    reference.
    """
    c = _FEATURES.use()
    n = len(p)
    if n == 0:
        return np.zeros((0, len(CONTEXT_NAMES)), dtype=np.float32)
    if c is None:
        return context_features_reference(p, doc)
    raw = c.context_features(
        np.ascontiguousarray(p, dtype=np.float64),
        np.ascontiguousarray(doc.words, dtype=np.float64),
        np.ascontiguousarray(doc.container, dtype=np.int64),
        len(CONTEXT_NAMES),
    )
    return np.frombuffer(raw, dtype=np.float32).reshape(len(CONTEXT_NAMES), n).T


def context_features_reference(p: np.ndarray, doc: BlockArrays) -> np.ndarray:
    """The numpy reference of :func:`context_features` (``p`` not empty)."""
    n = len(p)
    p = p.astype(np.float64)
    words = doc.words.astype(np.float64)
    _, inv = _dense_labels(doc.container, int(doc.container.max()) + 1)
    g_count = np.bincount(inv)
    g_mean = (np.bincount(inv, p) / g_count)[inv]
    g_words = np.bincount(inv, words)
    g_wmean = (np.bincount(inv, p * words) / np.maximum(g_words, 1e-9))[inv]
    top = float(p.max())
    kept = p >= 0.5
    cols = [
        p,
        window_mean(p, 1),
        window_mean(p, 3),
        window_mean(p, 8),
        _shift(p, -1),
        _shift(p, 1),
        np.maximum.accumulate(p[::-1])[::-1],
        np.maximum.accumulate(p),
        g_mean,
        g_wmean,
        np.full(n, top),
        p / max(top, 1e-6),
        np.full(n, float(kept.mean())),
        np.full(n, float(words[kept].sum()) / max(float(words.sum()), 1.0)),
    ]
    return np.array(cols + _run_features(kept, words), dtype=np.float32).T


def _run_features(kept: np.ndarray, words: np.ndarray) -> list[np.ndarray]:
    """Where a block stands relative to the runs of consecutive kept blocks.

    The main run (most words) is usually the article: blocks in it, and
    short gaps between kept runs near it, are content more often than
    their own probability says.
    """
    n = len(kept)
    total = max(float(words.sum()), 1.0)
    start = kept & ~np.concatenate(([False], kept[:-1]))
    run_id = np.cumsum(start) - 1  # id of the last run started at or before each block
    if not kept.any():
        zero = np.zeros(n)
        return [zero, zero, np.full(n, np.log1p(n)), zero]
    run_words = np.bincount(run_id[kept], words[kept])
    share = np.where(kept, run_words[np.maximum(run_id, 0)] / total, 0.0)
    main = int(np.argmax(run_words))
    in_main = kept & (run_id == main)
    idx = np.arange(n)
    main_idx = idx[in_main]
    distance = np.where(in_main, 0, np.minimum(np.abs(idx - main_idx[0]), np.abs(idx - main_idx[-1])))
    # Words of the gap (between two kept runs) a dropped block sits in.
    gap = ~kept
    gap_id = np.cumsum(gap & np.concatenate(([True], kept[:-1])))
    gap_words = np.bincount(gap_id[gap], words[gap], int(gap_id.max()) + 1)
    enclosed = gap & (run_id >= 0) & (idx < idx[kept][-1])
    gap_share = np.where(enclosed, gap_words[gap_id] / total, 0.0)
    return [share, in_main.astype(np.float64), np.log1p(distance), gap_share]
