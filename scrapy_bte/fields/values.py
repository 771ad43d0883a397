"""Cleaning of raw field values: names, titles, URLs, language tags."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from ..core.document import clean_text

# Words that introduce a byline in the languages the pages come in.
_BY = re.compile(
    r"^(?:(?:written|posted|reported|text|words|story|photos?)\s+)?"
    r"(?:by|von|par|por|door|av|af|από|autor(?:in|a)?|author|auteur|text|tekst|redacción|redakcja|more stories by)"
    r"\s*[:\-–—]?\s+|^(?-i:di|de)\s+(?=(?-i:[A-Z]))",
    re.IGNORECASE,
)
_NAME_SPLIT = re.compile(r"\s*(?:,|;|\||\band\b|\bund\b|\bet\b|\by\b|\bi\b|\bog\b|\boch\b|&)\s*", re.IGNORECASE)
_URLISH = re.compile(r"^(?:https?:|www\.|/)|\.(?:com|org|net)/|@\w+\.\w", re.IGNORECASE)
_LANG = re.compile(r"^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{4}))?(?:[-_]([a-zA-Z]{2}|\d{3}))?(?:[-_].*)?$")
#: A name longer than this is a sentence, not a byline.
MAX_AUTHOR_CHARS = 120


def text(value: object) -> str | None:
    """A string value with entities decoded and white space collapsed; None when empty."""
    if not isinstance(value, str):
        return None
    out = clean_text(value)
    return out or None


def author(value: object) -> str | None:
    """One author string as the page gives it, without "By" and without URLs or handles."""
    raw = text(value)
    if raw is None:
        return None
    raw = _BY.sub("", raw).strip(" ,;:|-–—")
    half = len(raw) // 2
    if len(raw) % 2 == 0 and raw[:half] == raw[half:]:
        raw = raw[:half]  # the name twice without a space: a visible and a screen-reader copy
    if not raw or len(raw) > MAX_AUTHOR_CHARS or _URLISH.search(raw) or raw.startswith("@"):
        return None
    if not any(ch.isalpha() for ch in raw):
        return None
    return raw


def join_authors(names: list[str]) -> str | None:
    """Names joined by ", ", each once (a page often repeats a name across sources)."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        key = name.casefold()
        if key not in seen:
            seen.add(key)
            out.append(name)
    return ", ".join(out) or None


def name_words(value: str) -> set[str]:
    """The words of a list of names, folded: how two author values are compared."""
    return {w.casefold() for part in _NAME_SPLIT.split(_BY.sub("", value)) for w in re.findall(r"\w+", part)} - {
        "by",
        "and",
    }


def url(value: object, base: str | None) -> str | None:
    """An absolute URL: ``value`` resolved against ``base``; relative stays relative without a base."""
    raw = text(value)
    if raw is None or raw.startswith(("data:", "javascript:")):
        return None
    if raw.startswith("//") and not base:
        return "https:" + raw
    if base:
        try:
            return urljoin(base, raw)
        except ValueError:
            return None
    return raw


def is_absolute(value: str | None) -> bool:
    if not value:
        return False
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def language(value: object) -> str | None:
    """A BCP 47 tag in its usual case (``en-US``, ``zh-Hant-TW``) from ``en_us``, ``EN`` and kin."""
    raw = text(value)
    if raw is None:
        return None
    m = _LANG.match(raw.split(",")[0].strip())
    if m is None:
        return None
    lang, script, region = m.group(1).lower(), m.group(2), m.group(3)
    if lang in ("und", "xx", "mul", "zxx"):
        return None
    parts = [lang]
    if script:
        parts.append(script.title())
    if region:
        parts.append(region.upper())
    return "-".join(parts)
