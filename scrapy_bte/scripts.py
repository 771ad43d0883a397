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

#: Words per Han/kana character: best hybrid F1 in the sweep (0.2 suits plain BTE a little better).
CJK_WEIGHT = 0.4
#: Words per Thai/Lao/Khmer/Myanmar letter (flat between 0.1 and 0.3 in the sweep).
SEA_WEIGHT = 0.2


def has_spaceless(text: str) -> bool:
    return SPACELESS_RE.search(text) is not None


def weighted_words(text: str) -> float:
    """Word count where each space-less letter counts as a fraction of a word."""
    cjk = len(CJK_RE.findall(text))
    sea = len(SEA_RE.findall(text))
    if not cjk and not sea:
        return float(len(text.split()))
    rest = len(SPACELESS_RE.sub(" ", text).split())
    return rest + cjk * CJK_WEIGHT + sea * SEA_WEIGHT


def char_shingles(text: str, n: int = 5) -> set[str]:
    """Character n-grams of the text without white space: a metric for scripts
    whose words are not separated."""
    flat = "".join(text.split())
    return {flat[i : i + n] for i in range(max(len(flat) - n + 1, 1))} if flat else set()


def char_f1(output: str, gold: str, n: int = 5) -> float:
    a, b = char_shingles(output, n), char_shingles(gold, n)
    if not a or not b:
        return 1.0 if a == b else 0.0
    tp = len(a & b)
    p, r = tp / len(a), tp / len(b)
    return 2 * p * r / (p + r) if tp else 0.0
