"""Word counting for writing systems with and without spaces.

BTE weighs words against tags, so a script written without spaces must not
count a whole sentence as one "word". Letters of such scripts (Han, kana,
Thai, Lao, Khmer, Myanmar; not their combining marks) each count as a
fraction of a word. The weights are characters-per-word ratios measured with
``benchmarks/script_weights.py`` on the bundled multilingual pages.
"""

from __future__ import annotations

import re

# Han ideographs, kana (letters only), halfwidth katakana.
_CJK = (
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\uff66-\uff9d"
    "\U00020000-\U0002fa1f"
)
# Thai, Lao, Khmer and Myanmar letters, excluding their combining marks.
_SEA = (
    "\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46"
    "\u0e81-\u0eb0\u0eb2\u0eb3\u0ebd\u0ec0-\u0ec6\u0edc-\u0edf"
    "\u1780-\u17b3"
    "\u1000-\u102a\u103f\u1050-\u1055\u105a-\u105d\u1061\u1065\u1066"
    "\u106e-\u1070\u1075-\u1081\u108e"
)

CJK_RE = re.compile(f"[{_CJK}]")
SEA_RE = re.compile(f"[{_SEA}]")
SPACELESS_RE = re.compile(f"[{_CJK}{_SEA}]")

#: Words per Han/kana character (Chinese and Japanese words average 1.5-2 characters).
CJK_WEIGHT = 0.6
#: Words per Thai/Lao/Khmer/Myanmar letter (words average 3-4 letters).
SEA_WEIGHT = 0.3


def has_spaceless(text: str) -> bool:
    return SPACELESS_RE.search(text) is not None


def weighted_words(text: str, cjk_weight: float = CJK_WEIGHT, sea_weight: float = SEA_WEIGHT) -> float:
    """Word count where each space-less letter counts as a fraction of a word."""
    cjk = len(CJK_RE.findall(text))
    sea = len(SEA_RE.findall(text))
    if not cjk and not sea:
        return float(len(text.split()))
    rest = len(SPACELESS_RE.sub(" ", text).split())
    return rest + cjk * cjk_weight + sea * sea_weight
