"""Names and messages made safe for a terminal.

File names, WARC target URIs and error texts come from the input: an escape
sequence in one would otherwise reach the terminal raw (move the cursor,
retitle the window, hide earlier lines). Control characters (C0, DEL, C1)
are written as ``\\xNN`` escapes instead.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with every control character escaped (``\\x1b`` for ESC)."""
    if text.isprintable():
        return text
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
