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
CJK_RANGES = (
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x3041, 0x3096),
    (0x309D, 0x309F),
    (0x30A1, 0x30FA),
    (0x30FC, 0x30FF),
    (0xFF66, 0xFF9D),
    (0x20000, 0x2FA1F),
)
# Thai, Lao, Khmer and Myanmar letters, excluding their combining marks.
SEA_RANGES = (
    (0x0E01, 0x0E30),
    (0x0E32, 0x0E33),
    (0x0E40, 0x0E46),
    (0x0E81, 0x0EB0),
    (0x0EB2, 0x0EB3),
    (0x0EBD, 0x0EBD),
    (0x0EC0, 0x0EC6),
    (0x0EDC, 0x0EDF),
    (0x1780, 0x17B3),
    (0x1000, 0x102A),
    (0x103F, 0x103F),
    (0x1050, 0x1055),
    (0x105A, 0x105D),
    (0x1061, 0x1061),
    (0x1065, 0x1066),
    (0x106E, 0x1070),
    (0x1075, 0x1081),
    (0x108E, 0x108E),
)


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


_CJK = _char_class(CJK_RANGES)
_SEA = _char_class(SEA_RANGES)

CJK_RE = re.compile(f"[{_CJK}]")
SEA_RE = re.compile(f"[{_SEA}]")
SPACELESS_RE = re.compile(f"[{_CJK}{_SEA}]")
#: A word token in any script: what the metric, the labels and the title matches compare.
WORD_RE = re.compile(r"\w+")

#: Words per Han/kana character: best hybrid F1 in the sweep (0.2 suits plain BTE a little better).
CJK_WEIGHT = 0.4
#: Words per Thai/Lao/Khmer/Myanmar letter (flat between 0.1 and 0.3 in the sweep).
SEA_WEIGHT = 0.2


#: A numeric character reference, as HTML reads one: the longest digit run, ";" optional.
_NUMERIC_REF = re.compile(r"&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));?")


def counted_codepoint(value: int) -> bool:
    """Whether a numeric reference to ``value`` decodes to that very character.

    HTML maps the C1 range through windows-1252, drops other controls and
    non-characters and replaces surrogates; such references are counted as
    the text they are written as.
    """
    if value < 0x20:
        return value in (0x09, 0x0A, 0x0C, 0x0D)
    if value < 0xA0:
        return value < 0x7F
    if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF or 0xFDD0 <= value <= 0xFDEF:
        return False
    return value & 0xFFFE != 0xFFFE


def _referenced(match: re.Match[str]) -> str:
    decimal, hexadecimal = match.groups()
    digits = (decimal if decimal is not None else hexadecimal).lstrip("0") or "0"
    value = 0x110000 if len(digits) > 7 else int(digits, 10 if decimal is not None else 16)
    return chr(value) if counted_codepoint(value) else match[0]


def counted_text(segment: str) -> str:
    """The segment as its words are counted: numeric references read as their characters.

    Pages written by some serialisers spell every non-ASCII character as a
    reference (``&#x6587;&#x5316;`` for Japanese): counted raw, a whole
    Japanese paragraph would be one "word" and no letter of it space-less.
    """
    return _NUMERIC_REF.sub(_referenced, segment) if "&#" in segment else segment


def tokens(text: str) -> list[str]:
    """``\\w+`` tokens: language-neutral and blind to punctuation and layout."""
    return WORD_RE.findall(text or "")


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
