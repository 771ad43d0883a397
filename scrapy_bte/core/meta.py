"""The page head's ``<meta>`` tags, read by key, and a tag's attributes as a dict.

The document reads three keys for itself (``og:title``, ``og:site_name``,
``twitter:title``) and keeps the head's raw meta tags; the article fields
and the page-type evidence ask for dozens more. Reading them is its own
concern, apart from the document model: one search for the tags, then
only the candidate tags' attributes parsed (:func:`meta_content`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate

from .entities import unescape

_META_RE = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
# The property or name value of a meta tag: the cheap test before its attributes are parsed.
_META_KEY_RE = re.compile(r"""(?:property|name)\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
# The look-behind starts names only at a word boundary: without it a long
# run of name characters without "=" costs quadratic time.
_ATTR_RE = re.compile(r"""(?<![-\w:.])([a-zA-Z_:][-\w:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


def attributes(raw: str) -> dict[str, str]:
    """A tag's attributes from its raw attribute string: names lower-cased, first one wins, entities decoded."""
    return {key: unescape(value) for key, value in raw_attributes(raw).items()}


def raw_attributes(raw: str) -> dict[str, str]:
    """:func:`attributes` with entities not yet decoded: a reader of a few attributes decodes only those."""
    out: dict[str, str] = {}
    # One C call finds every attribute; of a value's three forms, the one that matched is the
    # non-empty one (an empty value is "" in whichever form it was written).
    for key, double, single, bare in _ATTR_RE.findall(raw):
        key = key.lower()
        if key not in out:
            out[key] = double or single or bare
    return out


def _decoded(attrs: dict[str, str], name: str) -> str | None:
    raw = attrs.get(name)
    return None if raw is None else unescape(raw)


def meta_tags(markup: str, limit: int = 200_000) -> list[str]:
    """The raw ``<meta ...>`` tags of the page head (one pass; the document keeps them for other readers)."""
    head_end = markup.find("<body")
    stop = limit if head_end < 0 else min(limit, head_end + 1)
    return _META_RE.findall(markup, 0, stop)


#: The characters past ASCII that a case-blind ASCII pattern matches (as i, i and s) while their
#: lower case is not that letter (U+0130 even lower-cases to two characters). Every other
#: character lower-cases to one character that an ASCII letter matches exactly when it matched
#: before (the Kelvin sign lower-cases to k).
_CASE_BLIND_EXTRA = ("\u0130", "\u0131", "\u017f")


@lru_cache(maxsize=32)
def _key_pattern(keys: frozenset[str], folded: bool = False) -> re.Pattern[str]:
    """:data:`_META_KEY_RE` matching only the values that are one of ``keys`` (ASCII keys, any case).

    ``folded``: the pattern for text already lower-cased, which matches
    where the case-blind one matches in the text as it was (when the text
    holds none of :data:`_CASE_BLIND_EXTRA`), at several times its speed (a
    case-blind pattern tests every character both ways).
    """
    names = "|".join(re.escape(k.lower() if folded else k) for k in sorted(keys, key=len, reverse=True))
    pattern = rf"""(?:property|name)\s*=\s*["']?(?:{names})(?![^"'\s>])"""
    return re.compile(pattern) if folded else re.compile(pattern, re.IGNORECASE)


def _candidates(tags: list[str], keys: frozenset[str]) -> list[str]:
    """The tags, in order, whose ``property`` or ``name`` may be one of ``keys`` (a superset: the
    caller parses each one's attributes).

    The tags are joined, not looked at one per tag or per key: a page head
    holds dozens of meta tags and readers ask for up to forty keys. Every
    tag ends with ``>``, which no match can cross, so a tag is a candidate
    exactly when the pattern matches inside it. Lower-cased, a match holds
    its key as written: for a few keys (the document's own three), one
    substring search per key finds the tags that hold one, and the pattern
    runs only over those; a pass of the pattern over the whole head costs
    as much as some twenty substring searches.
    """
    if not tags:
        return []
    joined = "\n".join(tags)
    ends = list(accumulate(len(tag) + 1 for tag in tags))
    if not joined.isascii() and any(ch in joined for ch in _CASE_BLIND_EXTRA):
        found = [m.start() for m in _key_pattern(keys).finditer(joined)]
    elif len(keys) > _FEW_KEYS:
        found = [m.start() for m in _key_pattern(keys, True).finditer(joined.lower())]
    else:
        return _few_key_candidates(tags, keys, joined.lower(), ends)
    return [tags[i] for i in dict.fromkeys(bisect_right(ends, at) for at in found)]


#: Up to this many keys, :func:`_candidates` finds them by substring search.
_FEW_KEYS = 16


def _few_key_candidates(tags: list[str], keys: frozenset[str], low: str, ends: list[int]) -> list[str]:
    """:func:`_candidates` of ASCII-foldable tags joined and lower-cased (``low``), tag ``i`` ending before ``ends[i]``."""
    holding = set()
    for key in keys:
        key = key.lower()
        at = low.find(key)
        while at >= 0:
            holding.add(bisect_right(ends, at))
            at = low.find(key, at + 1)
    search = _key_pattern(keys, True).search
    return [tags[i] for i in sorted(holding) if search(low, ends[i] - len(tags[i]) - 1, ends[i] - 1)]


def meta_content(
    markup: str,
    keys: tuple[str, ...],
    limit: int = 200_000,
    values: tuple[str, ...] = ("content",),
    tags: list[str] | None = None,
) -> dict[str, str]:
    """First value of ``<meta property|name=KEY>`` for each lower-case key (page head only).

    The value is the first non-empty attribute of ``values``: ``content``
    by the standard; article readers also accept ``value``, which some
    page normalisers (and pages) write instead. ``tags`` are the head's
    meta tags when :func:`meta_tags` already found them.
    """
    found: dict[str, str] = {}
    wanted = frozenset(keys)
    if tags is None:
        tags = meta_tags(markup, limit)
    for tag in _candidates(tags, wanted):  # parse attributes only of candidate tags
        attrs = raw_attributes(tag[5:-1])
        key = (_decoded(attrs, "property") or _decoded(attrs, "name") or "").lower()
        if key in keys and key not in found:
            value = next(filter(None, (_decoded(attrs, v) for v in values)), None)
            if value:
                found[key] = " ".join(value.split())
    return found
