"""Page-furniture hints in markup: a fixed vocabulary of class/id/role words.

Why a fixed vocabulary and not learned class tokens: hashed class and id
tokens memorised the training sites' templates, while the words that
templates use to name their furniture are the same on every site and in
every language (class names are written in English almost everywhere):
``share``, ``related``, ``newsletter``, ``byline``, ``caption``,
``comments``, ``footer``, ... Each word belongs to one of
:data:`GROUPS`; an element's attributes (``class``, ``id``, ``role``,
``itemprop``, ``rel``, ``aria-label`` and ``data-*`` component names) set the
bits of the groups their words name, and a block gets the bits of the
elements around it (its container's path) and of its own opening tag.
The same pass reads the words of :data:`PAGE_GROUPS` (for the page-type
evidence) and :data:`ZONE_GROUPS` (an element named for an author or a
date, for the article fields' byline and dateline zones) into the bits
above, so every reader of class/id words reads them here; the word lists
are :mod:`scrapy_bte.evidence.words`'.

Attribute strings repeat across a template and across a site's pages, so
each distinct string is read once per process (:data:`_cache`). A crawl that
keeps meeting new sites still reads a hundred-odd new strings per page; the C
pass ``scrapy_bte._native.hints`` reads the ASCII ones (nearly all) from the
same tables.
"""

from __future__ import annotations

import re

import numpy as np

from ..core import accel
from ..core.document import Document
from .memo import LastDocument
from .words import GROUPS, PAGE_GROUPS, ZONE_GROUPS

GROUP_NAMES: tuple[str, ...] = tuple(g[0] for g in GROUPS)
N_GROUPS = len(GROUPS)
PAGE_GROUP_NAMES: tuple[str, ...] = tuple(g[0] for g in PAGE_GROUPS)
ZONE_GROUP_NAMES: tuple[str, ...] = tuple(g[0] for g in ZONE_GROUPS)
#: The bits of :data:`GROUPS` and :data:`PAGE_GROUPS`, what the learned model and the page-type
#: evidence read (the zones' bits above them are the article fields').
MODEL_BITS = (1 << (N_GROUPS + len(PAGE_GROUPS))) - 1

_WORD_BITS: dict[str, int] = {}
for _bit, (_name, _words, _stems) in enumerate(GROUPS + PAGE_GROUPS + ZONE_GROUPS):
    for _w in _words:
        _WORD_BITS[_w] = _WORD_BITS.get(_w, 0) | (1 << _bit)
_STEMS: tuple[tuple[str, int], ...] = tuple(
    (stem, 1 << bit) for bit, (_name, _words, stems) in enumerate(GROUPS + PAGE_GROUPS + ZONE_GROUPS) for stem in stems
)

#: The attributes whose values are read, and the endings of the ``data-*`` names that are
#: (``data-component``, ``data-testid``, ``data-block-type``, ...).
_NAMES = ("class", "id", "role", "itemprop", "rel", "aria-label")
_DATA_SUFFIXES = ("component", "module", "testid", "type", "block")
#: Searched in the attribute string after a space: a leading ``\s`` lets the search skip to the
#: next whitespace in C, where ``(?:^|\s)`` is tried at every position.
_VALUE_RE = re.compile(
    rf"""\s(?:{"|".join(_NAMES)}|data-[\w-]*(?:{"|".join(_DATA_SUFFIXES)}))"""
    r"""\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""",
    re.IGNORECASE,
)
#: The joined values are read up to here, which bounds the time one string can take (a list of
#: hundreds of utility classes).
_MAX_VALUES = 600
_SPLIT_RE = re.compile(r"[^a-z]+")

_cache: dict[str, int] = {}
#: The last document's result: features and the body rules read it for the same page.
_last = LastDocument()
#: The last document's distinct attribute strings' bits: the block hints and the page-type evidence read them.
_last_strings = LastDocument()


#: Longest first, so that at each position the alternation takes the longest stem that matches.
_STEM_ORDER = tuple(sorted({stem for stem, _bit in _STEMS}, key=len, reverse=True))
_STEM_RE = re.compile("|".join(_STEM_ORDER))
_STEM_BITS: dict[str, int] = {}
for _stem, _b in _STEMS:
    _STEM_BITS[_stem] = _STEM_BITS.get(_stem, 0) | _b


_WORD_KEYS = frozenset(_WORD_BITS)
#: How many distinct strings :data:`_cache` holds before it starts over.
_CACHE_SIZE = 100_000

#: The C pass of :func:`read_bits`, given the tables above once.
_HINTS = accel.load("evidence.hints")
if _HINTS.module is not None:
    _HINTS.module.configure(
        _NAMES,
        _DATA_SUFFIXES,
        tuple(_WORD_BITS.items()),
        tuple((stem, _STEM_BITS[stem]) for stem in _STEM_ORDER),
        _MAX_VALUES,
    )


def attribute_bits(raw: str) -> int:
    """The :data:`GROUPS` bits one element's raw attribute string names (cached per string)."""
    bits = _cache.get(raw)
    if bits is not None:
        return bits
    bits = read_bits(raw)
    if len(_cache) >= _CACHE_SIZE:
        _cache.clear()
    _cache[raw] = bits
    return bits


def read_bits(raw: str) -> int:
    """:func:`attribute_bits` without the cache.

    In C when ``scrapy_bte._native.hints`` is built and ``raw`` is ASCII, else
    :func:`attribute_bits_reference`; the two give the same bits.
    """
    c = _HINTS.use()
    bits: int | None = None if c is None else c.attribute_bits(raw)
    return attribute_bits_reference(raw) if bits is None else bits


def attribute_bits_reference(raw: str) -> int:
    """The Python reference of :func:`read_bits`."""
    bits = 0
    # Every named value follows an "="; most attribute strings without one are bare flags.
    if "=" in raw:
        # All named values at once (exactly one group of a match is non-empty); camelCase
        # compounds are found by their stems.
        values = " ".join(map("".join, _VALUE_RE.findall(" " + raw)))[:_MAX_VALUES].lower()
        if values:
            for token in _WORD_KEYS.intersection(_SPLIT_RE.split(values)):
                bits |= _WORD_BITS[token]
            for stem in set(_STEM_RE.findall(values)):
                bits |= _STEM_BITS[stem]
    return bits


def _bits_of(raws: list[str]) -> np.ndarray:
    """:func:`attribute_bits` of many strings: each distinct string is read once, and the
    repeats of a template are C-level dictionary look-ups, not Python calls (with the C pass,
    one call for the whole list)."""
    c = _HINTS.use()
    if c is None:
        return bits_of_reference(raws)
    out = np.empty(len(raws), np.int64)
    c.bits_of(raws, out, _cache, _CACHE_SIZE, attribute_bits_reference)
    return out


def bits_of_reference(raws: list[str]) -> np.ndarray:
    """The Python reference of :func:`_bits_of`."""
    cache = _cache
    if len(cache) + len(raws) >= _CACHE_SIZE:
        return np.fromiter(map(attribute_bits, raws), np.int64, len(raws))
    for raw in set(raws).difference(cache):
        attribute_bits(raw)
    return np.fromiter(map(cache.__getitem__, raws), np.int64, len(raws))


def _slice_bits(src: str, stop: np.ndarray, size: np.ndarray) -> np.ndarray:
    """:func:`_bits_of` of the strings ``src[stop - size : stop]``: with the C pass each is sliced
    in C, not in a Python loop (else :func:`slice_bits_reference`)."""
    c = _HINTS.use()
    if c is None:
        return slice_bits_reference(src, stop, size)
    out = np.empty(len(stop), np.int64)
    stop = np.ascontiguousarray(stop, dtype=np.int64)
    size = np.ascontiguousarray(size, dtype=np.int64)
    c.slice_bits(src, stop, size, out, _cache, _CACHE_SIZE, attribute_bits_reference)
    return out


def slice_bits_reference(src: str, stop: np.ndarray, size: np.ndarray) -> np.ndarray:
    """The Python reference of :func:`_slice_bits`."""
    raws = [src[e - k : e] for e, k in zip(stop.tolist(), size.tolist())]
    return bits_of_reference(raws)


#: How many elements up from a block's container count as "around" it. The
#: whole path would reach ``<body class="... has-comments cookie-consent">``,
#: which names furniture for every block of the page.
REACH = 4


def block_hints(doc: Document) -> tuple[np.ndarray, np.ndarray]:
    """Per block, (bits of its container and the :data:`REACH` - 1 elements above it, bits of its own
    opening tag). Cached on the document.

    One C loop over the blocks when ``scrapy_bte._native.hints`` is built (the array steps of
    :func:`block_hints_reference` are a dozen numpy calls on arrays of a few hundred items).
    """
    cached = _last.get(doc)
    if cached is not None:
        return cached
    c = _HINTS.use()
    if c is None:
        result = block_hints_reference(doc)
    else:
        skeleton = doc.skeleton
        n = doc.n_blocks
        src, ends, lens = doc.tag_attribute_spans()
        path = np.empty(n, np.int64)
        own = np.empty(n, np.int64)
        c.block_bits(
            _string_bits(doc),
            skeleton.el_attr_id,
            skeleton.parents,
            np.ascontiguousarray(doc.container, dtype=np.int64),
            skeleton.el_tag,
            np.ascontiguousarray(doc.block_start_tag, dtype=np.int64),
            np.ascontiguousarray(ends, dtype=np.int64),
            np.ascontiguousarray(lens, dtype=np.int64),
            REACH,
            src,
            path,
            own,
            _cache,
            _CACHE_SIZE,
            attribute_bits_reference,
        )
        result = (path, own)
    _last.put(doc, result)
    return result


def block_hints_reference(doc: Document) -> tuple[np.ndarray, np.ndarray]:
    """The numpy reference of :func:`block_hints` (not cached)."""
    skeleton = doc.skeleton
    own_el = bits_of_reference(skeleton.attr_strings)[skeleton.el_attr_id]
    own_el[0] = 0
    parents = doc.skeleton.parents.copy()
    parents[0] = 0
    near = own_el.copy()
    up = parents
    for _ in range(REACH - 1):
        near |= own_el[up]
        up = parents[up]
    path = near[doc.container]
    src, ends, lens = doc.tag_attribute_spans()
    starts = doc.block_start_tag
    # A block opened by an element's own start tag has that element's attribute string, already
    # read; only the other opening tags (inline, void) are sliced. The root (tag -1) reads 0, as a
    # block without an opening tag does.
    el_tag = doc.skeleton.el_tag
    at = np.minimum(np.searchsorted(el_tag, starts), len(el_tag) - 1)
    is_el = el_tag[at] == starts
    own = np.where(is_el, own_el[at], 0)
    tags = np.maximum(starts, 0)
    with_attrs = np.flatnonzero(~is_el & (lens[tags] > 0)) if len(lens) else tags[:0]
    if len(with_attrs):
        own[with_attrs] = slice_bits_reference(src, ends[tags[with_attrs]], lens[tags[with_attrs]])
    return path, own


def bits_matrix(values: np.ndarray) -> np.ndarray:
    """Rows of 0/1 per :data:`GROUPS` bit."""
    raw = values.astype("<i8").view(np.uint8).reshape(len(values), 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :N_GROUPS]


def write_bits(path: np.ndarray, own: np.ndarray, out: np.ndarray) -> None:
    """``out[:, :N_GROUPS] = bits_matrix(path)`` and ``out[:, N_GROUPS:2 * N_GROUPS] = bits_matrix(own)``
    into a float32 ``out`` (a slice of the feature matrix): in C when built, with no (n, 64) byte
    arrays between."""
    c = _HINTS.use()
    if c is None:
        out[:, :N_GROUPS] = bits_matrix(path)
        out[:, N_GROUPS : 2 * N_GROUPS] = bits_matrix(own)
        return
    c.unpack(path, own, out, N_GROUPS)


def group_bit(name: str) -> int:
    """The bit of a :data:`GROUPS`, :data:`PAGE_GROUPS` or :data:`ZONE_GROUPS` name."""
    if name in PAGE_GROUP_NAMES:
        return 1 << (N_GROUPS + PAGE_GROUP_NAMES.index(name))
    if name in ZONE_GROUP_NAMES:
        return 1 << (N_GROUPS + len(PAGE_GROUP_NAMES) + ZONE_GROUP_NAMES.index(name))
    return 1 << GROUP_NAMES.index(name)


def _string_bits(doc: Document) -> np.ndarray:
    """:func:`_bits_of` the skeleton's distinct attribute strings, once per document."""
    bits = _last_strings.get(doc)
    if bits is None:
        bits = _bits_of(doc.skeleton.attr_strings)
        _last_strings.put(doc, bits)
    return bits


def element_bits(doc: Document) -> np.ndarray:
    """Per element of the skeleton, the bits its own attribute string names (0 for the root)."""
    out = _string_bits(doc)[doc.skeleton.el_attr_id]
    out[0] = 0
    return out


__all__ = [
    "GROUPS",
    "GROUP_NAMES",
    "MODEL_BITS",
    "N_GROUPS",
    "PAGE_GROUPS",
    "PAGE_GROUP_NAMES",
    "ZONE_GROUPS",
    "ZONE_GROUP_NAMES",
    "attribute_bits",
    "attribute_bits_reference",
    "bits_matrix",
    "block_hints",
    "block_hints_reference",
    "element_bits",
    "group_bit",
    "read_bits",
    "write_bits",
]
