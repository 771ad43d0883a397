"""Cleaning of raw field values: names, titles, URLs, language tags."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urljoin, urlsplit

from ..core.document import clean_text
from ..core.hidden import undoubled
from ..evidence.words import BYLINE_PREFIX_RE as _BY
from ..evidence.words import BYLINE_START_CJK, BYLINE_START_WORDS, MONTHS, WEEKDAYS
from ..evidence.words import CREDIT_CUT_RE as _CREDIT_CUT
from ..evidence.words import JOB_LEAD_WORDS as _JOB_LEADS
from ..evidence.words import JOB_WORDS as _JOBS

# A job title glued to the name without a space ("Howard BlumeStaff Writer", "Ann LeeUpdated: May 2"): a
# lower-case letter, then a capitalised job-title word (or a date label) where the page joined two elements.
_GLUED = re.compile(
    r"(?<=\w{2})(?=(?:(?:" + _JOB_LEADS + r")\s+)*(?:" + _JOBS + r"|updated|published|posted)\b)",
    re.IGNORECASE,
)
_JOB_WORD = re.compile(r"^(?:" + _JOBS + r")$", re.IGNORECASE)
_JOB_LEAD = re.compile(r"^(?:" + _JOB_LEADS + r")$", re.IGNORECASE)
# A number standing alone after a name: a user card's counts ("drat 1,655 1 gold badge").
_COUNT = re.compile(r"\s\d[\d,.]*k?(?:\s|$)")
_NAME_SPLIT = re.compile(r"\s*(?:,|;|\||\band\b|\bund\b|\bet\b|\by\b|\bi\b|\bog\b|\boch\b|&)\s*", re.IGNORECASE)
_URLISH = re.compile(r"^(?:https?:|www\.|/)|\.(?:com|org|net)/|@\w+\.\w", re.IGNORECASE)
_LANG = re.compile(r"^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{4}))?(?:[-_]([a-zA-Z]{2}|\d{3}))?(?:[-_].*)?$")
# URLs urllib reads without a step of its own (one pattern match instead of a split, the most
# common URLs of a page): "http" or "https" in any case, "://", then a host of printable ASCII
# without brackets (urllib checks bracketed and non-ASCII hosts), ending where the path, query
# or fragment starts. ``_PLAIN_URL`` is one urllib leaves as it is when it joins it to a base:
# a lower-case scheme, a host, then a path at most, without parameters, spaces or controls.
_HTTP_HOST = re.compile(r"[hH][tT][tT][pP][sS]?://([^\x00-\x20\x7f-\U0010ffff/?#\[\]]*)(?:[/?#]|\Z)")
_PLAIN_URL = re.compile(r"https?://[^\x00-\x20\x7f-\U0010ffff/?#;\[\]]+(?:/[^\x00-\x20\x7f-\U0010ffff?#;]*)?")
# A template's variable printed instead of its value ("page.head.extra.author", "{{ author }}", "%AUTHOR%").
_PLACEHOLDER = re.compile(
    r"\{\{|\}\}|\$\{|<%|%>|^[\w.$%\[\]:-]*\b(?:author|creator|byline)\b[\w.$%\[\]:-]*$", re.IGNORECASE
)
# A line of the page's metadata, labelled as a byline is not ("Language: Spanish", "content: MarketingSherpa").
_OTHER_LABEL = re.compile(r"^[^\W\d_]+\s*:\s")
#: A byline's label standing alone ("By", "Author"), read where the name is an image or a link's
#: title, and a month's or a weekday's name alone ("Sep", "Friday"): a dateline's first word read
#: where a name was wanted.
_LABEL_ONLY = frozenset(
    word.rstrip(":：/／").casefold() for word in (*BYLINE_START_WORDS, *BYLINE_START_CJK)
) | frozenset(f"{MONTHS}|{WEEKDAYS}".split("|"))
#: What a name's ends lose: separators and the bullets a byline sets between its parts ("Meaghan Weeden ●").
NAME_EDGES = " ,;:|-–—•·●▪■"
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
    raw = _BY.sub("", raw).strip(NAME_EDGES)
    credit = _CREDIT_CUT.search(raw)
    if credit is not None:
        raw = raw[: credit.start()].strip(NAME_EDGES)
    raw = without_job_title(raw)
    count = _COUNT.search(raw)
    if count is not None:
        raw = raw[: count.start()].strip(NAME_EDGES)
    raw = undoubled(raw, 2)  # the name twice without a space: a visible and a screen-reader copy
    head, _, last = raw.rpartition(" ")
    if len(last) == 1 and head and " " not in head and last.casefold() == head[0].casefold():
        raw = head  # "JosephF J": a forum user's name, then the letter of their avatar
    if len(raw) < 2 or len(raw) > MAX_AUTHOR_CHARS or _URLISH.search(raw) or raw.startswith("@"):
        return None  # nothing, an avatar's initial, a sentence, an address or a handle
    if (
        raw.casefold().rstrip(".,") in _LABEL_ONLY
        # (the pattern only where it can match: one word, or template braces or percent signs)
        or ((" " not in raw or "{" in raw or "}" in raw or "%" in raw) and _PLACEHOLDER.search(raw))
        or (":" in raw and _OTHER_LABEL.match(raw))
    ):
        return None
    if not any(ch.isalpha() for ch in raw):
        return None
    return raw


def site_key(text: str) -> str:
    """``text`` as a site's name compares: case, spaces and marks folded away ("Home Advisor",
    "homeadvisor", "HomeAdvisor" are one name; "bcbs.com" is "bcbscom")."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def names_site(name: str, sites: Iterable[str | None]) -> bool:
    """Whether an author value is the site's own name ("Rapid7", "Paperium.net" on the site
    "Paperium", "HomeAdvisor" on "Home Advisor"): equal to one of ``sites`` (its name, its host's
    name) once case, spaces and marks are folded away, or, five letters or more, inside one or holding
    one ("About Sara Harberson" on her own site; "npr" is not inside "Dan Price")."""
    key = site_key(name)
    if len(key) < 3:
        return False
    for site in sites:
        other = site_key(site or "")
        if len(other) >= 3 and (key == other or (len(other) >= 5 and other in key) or (len(key) >= 5 and key in other)):
            return True
    return False


#: Labels a country's registry puts under its code ("co.uk", "com.au"): the name stands before them.
_SECOND_LEVEL = frozenset(("co", "com", "org", "net", "gov", "edu", "ac", "or", "ne", "go"))


def host_name(url: str | None) -> str | None:
    """The name a host stands for: "rapid7" for ``https://www.rapid7.com/blog/...``."""
    names = host_names(url)
    return names[0] if names else None


def host_names(url: str | None) -> tuple[str, ...]:
    """The names a title may give its site by the address: the host's name ("bcbs") and the
    domain ("bcbs.com" of ``https://www.bcbs.com/...``); none for an address without a domain."""
    if not url:
        return ()
    labels = _host_labels(url)
    # "bbc" of bbc.co.uk, not "co"
    at = len(labels) - 3 if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL else len(labels) - 2
    if at < 0:
        return ()
    return labels[at], ".".join(labels[at:])


def _host_labels(url: str) -> list[str]:
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return []
    return [label for label in host.split(".") if label not in ("www", "blog", "m")]


def without_job_title(name: str) -> str:
    """``name`` without the job title a page prints after it: "Emma Ryan Writer", "Howard BlumeStaff
    Writer" and "Will Judd Former Deputy Tech Editor" give the name alone; a job title alone gives ""."""
    glued = _glued_at(name)
    if glued is not None:
        name = name[:glued]
    words = name.split()
    for k, word in enumerate(words):
        if _JOB_WORD.match(word.strip(",;:")) is not None:
            start = k
            while start > 0 and _JOB_LEAD.match(words[start - 1]) is not None:
                start -= 1
            return " ".join(words[:start]).strip(NAME_EDGES)
    return name


def _glued_at(name: str) -> int | None:
    """Where a capitalised job title or date label starts glued to the word before it, if it does."""
    for m in _GLUED.finditer(name):
        at = m.start()
        if name[at].isupper() and name[at - 3 : at].islower():
            return at
    return None


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
        if _PLAIN_URL.fullmatch(raw) is not None and _HTTP_HOST.match(base) is not None:
            return raw  # what urljoin returns: an absolute URL joined to a base urllib reads
        try:
            return urljoin(base, raw)
        except ValueError:
            return None
    return raw


def is_absolute(value: str | None) -> bool:
    if not value:
        return False
    plain = _HTTP_HOST.match(value)
    if plain is not None:
        return plain.group(1) != ""  # the host urlsplit finds
    try:
        parts = urlsplit(value)
    except ValueError:  # "http://[::1": an address urllib cannot read is no base to resolve against
        return False
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
