"""Character references decoded as :func:`html.unescape` does, without a Python call per reference.

Why not ``html.unescape`` itself: it calls a Python function for every
reference, and pages whose text is written as numeric references
(``&#x306E;`` for each Japanese character, ``&#x2019;`` for each
apostrophe) hold tens of thousands of them: on such a page decoding took
longer than the rest of the document build. The same few hundred distinct
references repeat, so each distinct one is decoded once, by
``html.unescape`` (every rule of HTML5's table and of invalid code points
stays the standard library's), and kept in a table; the C pass
(``scrapy_bte._native.entities``) finds the references and looks them up.
"""

from __future__ import annotations

import html
import re

from . import accel

#: The C pass that finds references and looks them up.
_ENTITIES = accel.load("core.entities")

# html.unescape's own pattern: a reference is "&" and what this group matches.
_CHARREF = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")
#: Decoded references kept between calls (at most 34 characters each): the
#: common ones recur on every page. Emptied when full, so text full of
#: "&word" never grows it without bound.
_SEEN: dict[str, str] = {}
SEEN_MAX = 8192


#: Digits past which a decimal reference names no character (U+10FFFF is 1114111): int() of
#: a run of more than 4,300 digits raises (Python's limit on decimal conversions), so such a
#: reference, its leading zeros aside, decodes as html.unescape decodes any out of range one.
_MAX_CODE_DIGITS = 7
_DIGITS = frozenset("0123456789")


def _decode(ref: str) -> str:
    """One reference, given without its "&"."""
    if ref[:1] == "#" and ref[1:2] in _DIGITS:
        digits = ref[1:].rstrip(";").lstrip("0")
        if len(digits) > _MAX_CODE_DIGITS:
            return "\ufffd"
        ref = "#" + (digits or "0") + (";" if ref.endswith(";") else "")
    return html.unescape("&" + ref)


def unescape(text: str) -> str:
    """``html.unescape(text)``, decoding each distinct reference once.

    A reference decodes the same alone as in context: the pattern takes the
    longest run its first matching alternative allows, and that run is all
    the standalone string offers.
    """
    if "&" not in text:
        return text
    if len(_SEEN) > SEEN_MAX:
        _SEEN.clear()
    c = _ENTITIES.use()
    if c is None:
        return unescape_reference(text)
    return c.unescape(text, _SEEN, _decode)


def unescape_reference(text: str) -> str:
    """The Python reference of :func:`unescape`: one regular-expression split."""
    parts = _CHARREF.split(text)
    if len(parts) == 1:
        return text
    refs = parts[1::2]
    try:
        parts[1::2] = map(_SEEN.__getitem__, refs)
    except KeyError:  # the slice is assigned only once every lookup succeeded
        decoded = {ref: _SEEN.get(ref) or _decode(ref) for ref in set(refs)}
        _SEEN.update(decoded)
        parts[1::2] = map(decoded.__getitem__, refs)
    return "".join(parts)
