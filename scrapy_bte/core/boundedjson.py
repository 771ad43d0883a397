"""JSON from untrusted sources, refused before parsing when it nests too deep.

Python's ``json`` decoder recurses once per level of nesting and raises
``RecursionError`` somewhere near a thousand levels: a 2 KB page of
``[[[[...`` would otherwise escape every ``except ValueError`` around it.
Pages (JSON-LD), HTTP bodies (the label server) and model metadata all go
through :func:`loads`, which measures the nesting first, in one linear pass
that does not recurse, and raises :class:`TooDeep` (a ``ValueError``) past
``max_depth``.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Deeper than any real JSON-LD, request body or model metadata (they nest
#: fewer than 15 levels) and far below the interpreter's recursion limit.
MAX_DEPTH = 64

# Strings first (brackets inside them do not count), then single brackets. A string is its
# runs of plain characters between escapes, each run one step of the matcher (an alternation
# tried per character costs a page's large JSON-LD graphs several times more).
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


class TooDeep(ValueError):
    """The JSON text nests deeper than allowed."""


def depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The deepest bracket nesting of ``text`` (stops counting just past ``limit``).

    Brackets inside strings are not counted; unbalanced text is measured
    as far as it goes (the parser reports its own errors later).
    """
    level = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
        elif token in "]}":
            level = max(level - 1, 0)
    return deepest


def check(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`TooDeep` when ``text`` nests deeper than ``max_depth``."""
    # The usual case needs no scan: fewer brackets than levels allowed.
    if text.count("[") + text.count("{") > max_depth and depth(text, max_depth) > max_depth:
        raise TooDeep(f"JSON nested deeper than {max_depth} levels")


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH, strict: bool = True) -> Any:
    """``json.loads`` that raises :class:`TooDeep` instead of recursing past ``max_depth``."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    check(text, max_depth)
    return json.loads(text, strict=strict)
