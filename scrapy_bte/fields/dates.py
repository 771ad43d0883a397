"""Dates as pages write them, turned into ISO 8601.

Machine-readable values (JSON-LD, meta tags, ``<time datetime>``) are
ISO 8601 or RFC 2822 in practice; a dateline the page shows to readers is
written in the page's language ("28 February 2025, 14:05", "28. Februar
2025", "28 lutego 2025", "2025年2月28日"). Output keeps what the page
gives: a date alone stays a date, a time without an offset stays local.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

from ..evidence.words import MONTH_NAMES

_ISO = re.compile(
    r"(\d{4})-?(\d{1,2})-?(\d{1,2})"
    r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?|UTC|GMT)?)?",
    re.IGNORECASE,
)
# The same, as a reader sees it in a line of text: separators required.
_ISO_TEXT = re.compile(
    r"(?<!\d)(\d{4})-(\d{2})-(\d{2})"
    r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?|UTC|GMT)?)?(?!\d)",
    re.IGNORECASE,
)
_EPOCH = re.compile(r"\d{10}(\d{3})?")
#: Month name -> number, from the one table (:data:`~scrapy_bte.evidence.words.MONTH_NAMES`).
_MONTHS: dict[str, int] = {}
for _month, _names in enumerate(MONTH_NAMES, start=1):
    for _name in _names.split():
        _MONTHS.setdefault(_name, _month)
#: Longest first, so that "marzo" is read whole rather than as "mar".
_MONTH_NAMES = sorted(_MONTHS, key=len, reverse=True)


def _month_alternation(names: list[str]) -> str:
    """``names`` as one alternation that prefers them in their order, grouped by first letter.

    Python's ``re`` enters every branch of a case-blind alternation at every position it is tried
    (its first-letter shortcut is for case-sensitive literals only); grouped, one test of the first
    letter skips a whole group. A position can match only the group of its first letter (the names
    are lower case, and no two ASCII letters match each other case-blind), and a group keeps the
    names' order, so the grouped alternation prefers the same name wherever the flat one would.
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(name[0], []).append(re.escape(name[1:]))
    return "|".join(re.escape(first) + "(?:" + "|".join(rests) + ")" for first, rests in groups.items())


_MONTH_ALT = _month_alternation(_MONTH_NAMES)
_TIME = r"(?:[,\s]+(?:um|à|a las|alle|o|at|-|—|–|\|)?\s*(\d{1,2})[:.h](\d{2})(?:\s*([aApP])\.?[mM]\.?)?(?:\s*(Uhr|h|hrs|GMT|UTC|[ECMP][SD]T|CES?T))?)?"
# 28 February 2025 / 28. Februar 2025 / 28 de febrero de 2025 / 28 lutego 2025. The year ends at a
# non-digit, not at a word's end: a page that joins two elements prints "April 26, 2024Updated on: ...".
_DMY_TEXT = re.compile(
    r"\b(\d{1,2})\.?\s*(?:de\s+)?(" + _MONTH_ALT + r")\.?,?\s*(?:de\s+)?(\d{4})(?!\d)" + _TIME, re.IGNORECASE
)
# February 28, 2025
_MDY_TEXT = re.compile(
    r"\b(" + _MONTH_ALT + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)" + _TIME, re.IGNORECASE
)
# 2025年2月28日 (Chinese, Japanese), 2025년 2월 28일 (Korean)
_CJK = re.compile(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]" r"(?:\D{0,6}?(\d{1,2})[:時시](\d{2}))?")
# 28.02.2025, 28/02/2025, 2025/02/28, 2025.02.28 (numeric, with an optional time)
_NUMERIC = re.compile(r"\b(\d{1,4})([./])\s?(\d{1,2})\2\s?(\d{2,4})\b" + _TIME)
# A run of four digits: the year every date but a numeric one writes out.
_YEAR = re.compile(r"\d{4}")


def _searches(text: str) -> tuple[re.Match[str] | None, ...]:
    """The first match in ``text`` of _DMY_TEXT, _MDY_TEXT, _CJK, _ISO_TEXT and _NUMERIC, in that order,
    each run only where its necessary condition holds. A tuple, not a dict keyed by pattern: a
    pattern's hash reads its whole compiled code (microseconds for the month alternations)."""
    numeric = _NUMERIC.search(text) if ("." in text or "/" in text) else None
    if _YEAR.search(text) is None:
        return None, None, None, None, numeric
    return (
        _DMY_TEXT.search(text),
        _MDY_TEXT.search(text),
        _CJK.search(text) if ("年" in text or "년" in text) else None,
        _ISO_TEXT.search(text),
        numeric,
    )


def _valid(y: int, m: int, d: int) -> bool:
    return 1990 <= y <= 2100 and 1 <= m <= 12 and 1 <= d <= 31


def _offset(text: str | None) -> timezone | None:
    if not text:
        return None
    t = text.upper()
    if t in ("Z", "UTC", "GMT"):
        return timezone.utc
    sign = -1 if t[0] == "-" else 1
    digits = t[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 14 or minutes > 59:
        return None
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _format(
    y: int, m: int, d: int, hh: int | None = None, mm: int = 0, ss: int = 0, tz: timezone | None = None
) -> str | None:
    if not _valid(y, m, d):
        return None
    try:
        if hh is None:
            return datetime(y, m, d).date().isoformat()
        return datetime(y, m, d, hh, mm, ss, tzinfo=tz).isoformat()
    except ValueError:
        return None


def _from_iso(m: re.Match[str]) -> str | None:
    y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if m.group(4) is None:
        return _format(y, mo, d)
    return _format(y, mo, d, int(m.group(4)), int(m.group(5)), int(m.group(6) or 0), _offset(m.group(7)))


def normalize(value: str | None) -> str | None:
    """A machine-readable date (ISO 8601, RFC 2822, epoch seconds) as ISO 8601; None when unreadable."""
    if not value:
        return None
    text = value.strip()
    m = _ISO.match(text)
    out = _from_iso(m) if m is not None else None
    if out is not None:
        return out
    if _EPOCH.fullmatch(text):
        seconds = int(text[:10])
        return datetime.fromtimestamp(seconds, timezone.utc).isoformat()
    try:
        parsed = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        parsed = None
    if parsed is not None and _valid(parsed.year, parsed.month, parsed.day):
        return parsed.isoformat()
    return from_text(text)


def _clock(hh: str | None, mm: str | None, ampm: str | None) -> tuple[int | None, int]:
    if hh is None or mm is None:
        return None, 0
    h, minute = int(hh), int(mm)
    if ampm:
        if h == 12:
            h = 0
        if ampm.lower() == "p":
            h += 12
    if h > 23 or minute > 59:
        return None, 0
    return h, minute


def _zone(name: str | None) -> timezone | None:
    return timezone.utc if name and name.upper() in ("GMT", "UTC") else None


def first_at(text: str) -> int | None:
    """Where the first written-out date in ``text`` starts (to cut a byline before it)."""
    starts = [m.start() for m in _searches(text) if m]
    return min(starts) if starts else None


#: Words that make a dated line a revision's, not the publication's ("Updated May 2, 2025").
_REVISION = re.compile(
    r"\b(?:updated?|modified|edited|revised|last|aktualisiert|geändert|actualizad[oa]|modifié|mis à jour|aggiornato)\b",
    re.IGNORECASE,
)
_WORDS = re.compile(r"\w+")
#: Words besides the date a printed dateline may hold ("Published", "On", a weekday).
DATELINE_EXTRA_WORDS = 2


def with_offset(value: str, others: list[str]) -> str:
    """``value`` with the UTC offset one of ``others`` gives the same local time (to the minute),
    when ``value`` is a local time without one: a naive ``<meta>`` and a ``<time datetime>``
    stating the same moment with its zone."""
    if len(value) != 19 or value[10] != "T":  # a date alone, or already with an offset
        return value
    for other in others:
        full = normalize(other)
        if full is not None and len(full) > 19 and full[:16] == value[:16] and full[19] in "+-":
            return value + full[19:]
    return value


def day(value: str) -> date | None:
    """The calendar day of an ISO 8601 value (as :func:`normalize` writes it)."""
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def month_first(language: str | None) -> bool:
    """Whether a page in ``language`` writes an ambiguous numeric date (03/04/2025) month first:
    US English, and English without a region."""
    return language in ("en", "en-US")


def is_dateline(text: str) -> bool:
    """Whether ``text`` is a printed publication date: a date and at most
    :data:`DATELINE_EXTRA_WORDS` other words, none saying it is a revision's."""
    if _REVISION.search(text) is not None:
        return False
    rest = text
    for m in _searches(text):
        if m is not None:
            rest = rest.replace(m.group(0), " ")
    return len(rest) < len(text) and len(_WORDS.findall(rest)) <= DATELINE_EXTRA_WORDS


def from_text(text: str, month_first: bool = False) -> str | None:
    """The first date a reader sees in ``text`` (a dateline), as ISO 8601; None when there is none.

    ``month_first`` reads an ambiguous numeric date (03/04/2025) the US way.
    """
    found: list[tuple[int, str]] = []
    dmy, mdy, cjk, iso, numeric = _searches(text)
    for m, order in ((dmy, "dmy"), (mdy, "mdy")):
        if m is not None:
            if order == "dmy":
                d, mo, y = int(m.group(1)), _MONTHS.get(m.group(2).lower()), int(m.group(3))
            else:
                mo, d, y = _MONTHS.get(m.group(1).lower()), int(m.group(2)), int(m.group(3))
            hh, mm = _clock(m.group(4), m.group(5), m.group(6))
            out = _format(y, mo or 0, d, hh, mm, tz=_zone(m.group(7))) if mo else None
            if out:
                found.append((m.start(), out))
    if cjk is not None:
        hh, mm = _clock(cjk.group(4), cjk.group(5), None)
        out = _format(int(cjk.group(1)), int(cjk.group(2)), int(cjk.group(3)), hh, mm)
        if out:
            found.append((cjk.start(), out))
    if iso is not None:
        out = _from_iso(iso)
        if out:
            found.append((iso.start(), out))
    m = numeric
    if m is not None:
        a, b, c = int(m.group(1)), int(m.group(3)), int(m.group(4))
        if len(m.group(1)) == 4:
            y, mo, d = a, b, c
        else:
            y = c if c > 100 else 2000 + c
            if a > 12 or (not month_first and b <= 12):
                d, mo = a, b
            else:
                mo, d = a, b
        hh, mm = _clock(m.group(5), m.group(6), m.group(7))
        out = _format(y, mo, d, hh, mm, tz=_zone(m.group(8)))
        if out:
            found.append((m.start(), out))
    return min(found)[1] if found else None
