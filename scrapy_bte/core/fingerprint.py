"""Near-duplicate texts: a 64-bit SimHash of the word shingles, and a banded index.

Crawls meet the same article many times: syndicated copies, print and AMP
versions, URLs that differ by a tracking parameter, pages whose only change is
a date or a view counter. Exact hashes miss all of these. SimHash (Charikar
2002; Manku, Jain and Das Sarma 2007 for web pages) gives each text one
64-bit number in which texts that share most of their shingles differ in few
bits, so a crawl needs to keep only one integer per item to find them.

Hex, not an integer, is what leaves the package: a 64-bit integer loses
precision in JavaScript and in JSON readers that parse numbers as doubles.

Texts with fewer than :data:`MIN_WORDS` words get no fingerprint: short
texts ("Page not found", a caption) share most of their few shingles with
unrelated pages, and empty texts would all share one fingerprint.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np

from . import accel

#: The C pass of :func:`simhash`: one loop over the bytes instead of a dozen array passes.
_FINGERPRINT = accel.load("core.fingerprint")

MIN_WORDS = 20
"""Texts with fewer words (see :func:`word_count`) get no fingerprint."""

SHINGLE = 3
"""Words per shingle: short enough that one edited word changes few shingles."""

DEFAULT_DISTANCE = 5
"""Hamming distance at most which two fingerprints are near-duplicates.

Measured on the gold texts of the development sets: one changed word, an
added line or a date line in front stay within 5 bits for 87-93 % of the
texts (within 3 bits: 67-79 %; texts of a few hundred words have few
shingles, so each weighs more), and the pairs of different pages found
within 6 bits were all syndicated copies or one template's test pages."""

# Bytes of the UTF-8 text after folding: ASCII letters lower-cased, other
# ASCII bytes (punctuation, white space) a space; non-ASCII bytes stay.
_FOLD = np.arange(256, dtype=np.uint8)
_FOLD[:128] = [b if chr(b).isalnum() else 32 for b in range(128)]
_FOLD[ord("A") : ord("Z") + 1] += 32
_SPACE = 32
_LEAD3 = 0xE0  # first byte of a 3- or 4-byte UTF-8 sequence
_Q = np.uint64(0x100000001B3)  # odd, so it has an inverse modulo 2**64
_QINV = np.uint64(pow(int(_Q), -1, 2**64))
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every input bit flips about half the output bits."""
    values = values ^ (values >> np.uint64(30))
    values = values * _M1
    values = values ^ (values >> np.uint64(27))
    values = values * _M2
    return values ^ (values >> np.uint64(31))


def _folded(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Folded bytes with runs of spaces collapsed, and where each word starts.

    Words are runs of letters and digits; in scripts written without spaces
    (whose letters take three or four UTF-8 bytes: Han, kana, Thai, ...)
    each letter starts a word, as the document model counts them.
    """
    data = _FOLD[np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)]
    space = data == _SPACE
    after_space = np.empty_like(space)
    after_space[:1] = True
    after_space[1:] = space[:-1]
    keep = ~(space & after_space)
    data, space, after_space = data[keep], space[keep], np.empty(int(keep.sum()), dtype=bool)
    after_space[:1] = True
    after_space[1:] = space[:-1]
    starts = (~space & after_space) | (data >= _LEAD3)
    return data, np.flatnonzero(starts)


def word_count(text: str) -> int:
    """Words as :func:`simhash` counts them (each letter in scripts without spaces)."""
    return len(_folded(text)[1])


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.int64)
_POWERS = np.ones(1, dtype=np.uint64)
_INVERSE = np.ones(1, dtype=np.uint64)
_CACHE_LIMIT = 1 << 20  # powers kept for texts up to 1 MiB (16 MiB of tables)


def _powers(size: int) -> tuple[np.ndarray, np.ndarray]:
    """``Q**i`` and ``Q**-i`` modulo 2**64 for i <= size (kept between calls)."""
    global _POWERS, _INVERSE
    if len(_POWERS) > size:
        return _POWERS, _INVERSE
    length = max(size + 1, min(2 * len(_POWERS), _CACHE_LIMIT))
    with np.errstate(over="ignore"):
        powers = np.full(length, _Q, dtype=np.uint64)
        inverse = np.full(length, _QINV, dtype=np.uint64)
        powers[0] = inverse[0] = 1
        powers, inverse = np.cumprod(powers, dtype=np.uint64), np.cumprod(inverse, dtype=np.uint64)
    if length <= _CACHE_LIMIT:
        _POWERS, _INVERSE = powers, inverse
    return powers, inverse


def simhash(text: str) -> int | None:
    """64-bit SimHash of the text's shingles of :data:`SHINGLE` words; None if too short.

    One C loop over the text's UTF-8 bytes when ``scrapy_bte._native.fingerprint``
    is built, else :func:`simhash_reference`; the two give the same value.
    """
    c = _FINGERPRINT.use()
    if c is None:
        return simhash_reference(text)
    result: int | None = c.simhash(text.encode("utf-8", "surrogatepass"), SHINGLE, MIN_WORDS)
    return result


def simhash_reference(text: str) -> int | None:
    """The Python reference of :func:`simhash`.

    Runs on the folded UTF-8 bytes in numpy, without a Python loop per word:
    a shingle's hash is a polynomial hash of its bytes, read from prefix sums
    (multiplying by the inverse power of the base aligns every window), then
    mixed; bit *i* of the result is set when most shingle hashes have it set
    (counted per byte value with ``bincount``). Stable across processes and
    Python versions, unlike ``hash()``.
    """
    data, starts = _folded(text)
    if len(starts) < MIN_WORDS:
        return None
    size = len(data)
    powers, inverse = _powers(size)
    with np.errstate(over="ignore"):
        prefix = np.zeros(size + 1, dtype=np.uint64)
        np.cumsum(data.astype(np.uint64) * powers[:size], dtype=np.uint64, out=prefix[1:])
        bounds = np.append(starts, size)
        first, last = bounds[: len(bounds) - SHINGLE], bounds[SHINGLE:]
        hashes = _mix((prefix[last] - prefix[first]) * inverse[first])
    n = len(hashes)
    columns = hashes.astype("<u8").view(np.uint8).reshape(n, 8)
    counts = np.concatenate([np.bincount(columns[:, byte], minlength=256) @ _BYTE_BITS for byte in range(8)])
    majority = counts * 2 > n
    return int.from_bytes(np.packbits(majority, bitorder="little").tobytes(), "little")


def to_hex(value: int | None) -> str | None:
    """Sixteen lower-case hex digits (None stays None)."""
    return None if value is None else f"{value:016x}"


def from_hex(value: str) -> int:
    """Inverse of :func:`to_hex`; raises ``ValueError`` for anything but 1-16 hex digits."""
    if not isinstance(value, str) or not 0 < len(value) <= 16:
        raise ValueError(f"not a 64-bit hex fingerprint: {value!r}")
    return int(value, 16)


def fingerprint(text: str) -> str | None:
    """The hex SimHash of *text*, or None when it is too short to compare."""
    return to_hex(simhash(text))


def distance(a: int, b: int) -> int:
    """Hamming distance: the number of bits in which two fingerprints differ."""
    return (a ^ b).bit_count()


class NearDuplicateIndex:
    """Fingerprints seen so far, looked up by bands instead of one by one.

    The 64 bits are cut into ``max_distance + 1`` bands. Two fingerprints
    that differ in at most ``max_distance`` bits cannot differ in every band
    (pigeonhole), so some band of the pair is equal: candidates are the
    fingerprints sharing a band value, and only they are compared bit by bit.
    """

    def __init__(self, max_distance: int = DEFAULT_DISTANCE) -> None:
        if not 0 <= max_distance <= 15:
            raise ValueError(f"max_distance must be within 0..15, got {max_distance}")
        self.max_distance = max_distance
        count = max_distance + 1
        edges = [round(64 * i / count) for i in range(count + 1)]
        self._bands = [(low, (1 << (high - low)) - 1) for low, high in itertools.pairwise(edges)]
        self._tables: list[defaultdict[int, list[int]]] = [defaultdict(list) for _ in self._bands]
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def _keys(self, value: int) -> list[int]:
        return [(value >> shift) & mask for shift, mask in self._bands]

    def find(self, value: int) -> int | None:
        """An indexed fingerprint within ``max_distance`` bits of *value*, or None."""
        for table, key in zip(self._tables, self._keys(value)):
            for seen in table.get(key, ()):
                if distance(seen, value) <= self.max_distance:
                    return seen
        return None

    def add(self, value: int) -> None:
        for table, key in zip(self._tables, self._keys(value)):
            table[key].append(value)
        self._size += 1

    def check(self, value: int) -> int | None:
        """The near-duplicate of *value* seen before; else None, and *value* is indexed."""
        seen = self.find(value)
        if seen is None:
            self.add(value)
        return seen
