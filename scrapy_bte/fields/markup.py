"""Targeted scans of the raw markup for the places article fields live.

Why not a tree: a parse per page would cost more than the whole
extraction. Every scan here starts from the places a word occurs
(``itemprop``, ``<time``, ...; found for all of them in one pass over the
page when the document is built, see :mod:`scrapy_bte.core.marks`) and
parses only the few tags it lands on, with the attribute parser the
document model already uses. What
step 0 removes (``<script type="application/ld+json">``, ``<title>``,
``<head>`` metadata) is read here from the markup as it came.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..core.document import clean_text
from ..core.marks import Marks
from ..core.meta import attributes

#: ``<meta name=...>`` keys that give the publication date, in the order they are trusted: the
#: common ones, then the names other CMSs give it (the New York Times' ``ptime`` and ``pdate``,
#: Microsoft's documentation's ``ms.date``). Read by :data:`scrapy_bte.fields.read.SOURCES`.
PUBLISHED_META_KEYS = (
    "date",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "published_at",
    "pub_date",
    "published",
    "published-date",
    "published_date",
    "publication_date",
    "publicationdate",
    "originalpublicationdate",
    "article_date_original",
    "displaydate",
    "date-pub",
    "rnews:datepublished",
    "ptime",
    "pdate",
    "ms.date",
)
#: ``<meta property|name>`` keys read from the page head: OpenGraph,
#: Twitter cards, ``article:*``, Dublin Core and the plain HTML names.
META_KEYS = (
    "og:title",
    "og:description",
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "og:site_name",
    "og:url",
    "og:locale",
    "og:updated_time",
    "twitter:title",
    "twitter:description",
    "twitter:image",
    "twitter:image:src",
    "article:published_time",
    "article:modified_time",
    "article:author",
    "article:published",
    "article:modified",
    "dc.title",
    "dc.creator",
    "dc.date",
    "dc.date.issued",
    "dc.description",
    "dc.language",
    "dc.publisher",
    "dcterms.title",
    "dcterms.creator",
    "dcterms.created",
    "dcterms.issued",
    "dcterms.modified",
    "dcterms.date",
    "dcterms.description",
    "dcterms.language",
    "author",
    "description",
    *PUBLISHED_META_KEYS,
    "og:article:published_time",
    "og:publish_date",
    "parsely-pub-date",
    "sailthru.date",
    "cxenseparse:publishtime",
    "citation_publication_date",
    "citation_date",
    "language",
)
#: ``itemprop`` names read from microdata anywhere in the page.
ITEMPROPS = frozenset({"headline", "author", "datepublished", "datemodified", "description", "image", "inlanguage"})
_TAG_AT = re.compile(r"<([a-zA-Z][\w:-]*)((?:\s[^>]*)?)/?>")
_STRIP_TAGS = re.compile(r"<[^>]*>")
# A tag the window cuts in two: never text.
_CUT_TAG = re.compile(r"<[^>]*$")
# Elements whose value is an attribute, not their text (microdata's rules).
_VALUE_ATTR = {
    "meta": "content",
    "time": "datetime",
    "link": "href",
    "a": "href",
    "img": "src",
    "source": "src",
    "data": "value",
}
#: How many characters after a microdata element or ``<a rel=author>`` are read for its text.
TEXT_WINDOW = 600
# A rel attribute holding "author" (the literal prefix keeps the scan at memory speed).
_REL_AUTHOR = re.compile(r"""rel\s*=\s*["']?(?:[\w-]+\s+)*author\b""")
#: ``<a rel="author">`` links further apart than this many characters belong to different bylines.
AUTHOR_GAP = 400
#: At most this many microdata elements and ``rel=author`` links are read per page.
MAX_HITS = 40
#: At most this many ``<time>`` elements: the article's own come first, lists of other articles' later.
MAX_TIMES = 12


#: ``find(word, start, end)``: the next offset of ``word``, as :meth:`str.find` gives it.
Find = Callable[..., int]


def _finder(markup: str, marks: Marks | None) -> Find:
    return markup.find if marks is None else marks.find


def _tag_at(markup: str, lt: int) -> tuple[str, dict[str, str], int] | None:
    """(lower-case name, attributes, end offset) of the tag starting at ``lt``."""
    m = _TAG_AT.match(markup, lt)
    if m is None:
        return None
    return m.group(1).lower(), attributes(m.group(2)), m.end()


def inner_text(markup: str, start: int, name: str, window: int = TEXT_WINDOW) -> str:
    """Text of the element whose start tag ends at ``start`` (up to its first end tag, within ``window``)."""
    stop = markup.find("</" + name, start, start + window)
    chunk = markup[start : start + window if stop < 0 else stop]
    return clean_text(_STRIP_TAGS.sub(" ", _CUT_TAG.sub("", chunk)))


def jsonld_scripts(markup: str, marks: Marks | None = None) -> list[str]:
    find = _finder(markup, marks)
    out: list[str] = []
    at = find("ld+json")
    while at >= 0:
        lt = markup.rfind("<", 0, at)
        gt = markup.find(">", at)
        if lt >= 0 and gt >= 0 and markup.startswith("script", lt + 1):
            end = markup.find("</script", gt)
            if end < 0:
                end = len(markup)
            out.append(markup[gt + 1 : end])
            at = find("ld+json", end)
        else:
            at = find("ld+json", at + 7)
    return out


def html_lang(markup: str, marks: Marks | None = None) -> str | None:
    find = _finder(markup, marks)
    at = find("<html")
    if at < 0:
        at = find("<HTML")
    if at < 0:
        return None
    tag = _tag_at(markup, at)
    if tag is None:
        return None
    attrs = tag[1]
    return (attrs.get("lang") or attrs.get("xml:lang") or "").strip() or None


def canonical(markup: str, head_end: int, marks: Marks | None = None) -> str | None:
    """``<link rel=canonical href>`` in the head."""
    find = _finder(markup, marks)
    at = find("canonical", 0, head_end)
    while at >= 0:
        lt = markup.rfind("<", 0, at)
        tag = _tag_at(markup, lt) if lt >= 0 else None
        if tag is not None and tag[0] == "link" and "canonical" in tag[1].get("rel", "").lower().split():
            href = tag[1].get("href", "").strip()
            if href:
                return href
        at = find("canonical", at + 9, head_end)
    return None


def itemprops(markup: str, marks: Marks | None = None) -> list[tuple[str, str]]:
    find = _finder(markup, marks)
    out: list[tuple[str, str]] = []
    at = find("itemprop")
    while at >= 0 and len(out) < MAX_HITS:
        lt = markup.rfind("<", 0, at)
        tag = _tag_at(markup, lt) if lt >= 0 else None
        nxt = at + 8
        if tag is not None and tag[2] > at:
            name, attrs, end = tag
            props = attrs.get("itemprop", "").lower().split()
            for prop in props:
                if prop not in ITEMPROPS:
                    continue
                attr = None if (prop == "author" and name == "a") else _VALUE_ATTR.get(name)
                if attr is not None and (attrs.get(attr) or (name == "meta" and attrs.get("value"))):
                    value = " ".join((attrs.get(attr) or attrs["value"]).split())
                elif name in ("meta", "link", "img"):
                    continue
                elif prop == "author" and "itemscope" in attrs:
                    value = _scoped_name(markup, end)
                else:
                    value = inner_text(markup, end, name)
                if value:
                    out.append((prop, value))
            nxt = end
        at = find("itemprop", nxt)
    return out


def _scoped_name(markup: str, start: int) -> str:
    """The ``itemprop="name"`` inside an author's ``itemscope`` that starts at ``start``."""
    at = markup.find("itemprop", start, start + TEXT_WINDOW)
    while at >= 0:
        lt = markup.rfind("<", 0, at)
        tag = _tag_at(markup, lt) if lt >= 0 else None
        if tag is not None and tag[2] > at and "name" in tag[1].get("itemprop", "").lower().split():
            name, attrs, end = tag
            return (
                " ".join(attrs["content"].split())
                if name == "meta" and attrs.get("content")
                else (inner_text(markup, end, name))
            )
        at = markup.find("itemprop", at + 8, start + TEXT_WINDOW)
    return ""


def times(markup: str, marks: Marks | None = None) -> list[tuple[str, str]]:
    find = _finder(markup, marks)
    out: list[tuple[str, str]] = []
    at = find("<time")
    while at >= 0 and len(out) < MAX_TIMES:
        m = _TAG_AT.match(markup, at)
        if m is not None and m.group(1).lower() == "time":
            raw = m.group(2)
            value = attributes(raw).get("datetime", "").strip()
            if value:
                out.append((value, raw))
        at = find("<time", at + 5)
    return out


def _rel_author_matches(markup: str, marks: Marks | None = None) -> Iterator[re.Match[str]]:
    """What ``_REL_AUTHOR.finditer(markup)`` finds, searched only around the word "author".

    A match holds no ``<`` or ``>``, so it lies between two of them, in a
    stretch that holds "author": the pattern runs over those stretches
    alone, where a plain substring search found the word (a pattern's own
    scan of a whole page costs several times more).
    """
    find = _finder(markup, marks)
    at = find("author")
    while at >= 0:
        start = max(markup.rfind("<", 0, at), markup.rfind(">", 0, at)) + 1
        stops = [k for k in (markup.find("<", at), markup.find(">", at)) if k >= 0]
        stop = min(stops) if stops else len(markup)
        yield from _REL_AUTHOR.finditer(markup, start, stop)
        at = find("author", stop)


def rel_authors(markup: str, marks: Marks | None = None) -> list[str]:
    """Texts of the first run of ``<a rel="author">`` links (one byline's names)."""
    out: list[str] = []
    last = 0
    for m in _rel_author_matches(markup, marks):
        lt = markup.rfind("<", 0, m.start())
        tag = _tag_at(markup, lt) if lt >= 0 else None
        if tag is None or tag[0] != "a" or tag[2] <= m.start():
            continue
        if out and lt - last > AUTHOR_GAP:
            break  # a later cluster: related posts' or comments' authors
        text = inner_text(markup, tag[2], "a")
        if text:
            out.append(text)
        last = tag[2]
        if len(out) >= MAX_HITS:
            break
    return out


def title_tag(markup: str, head_end: int) -> str | None:
    """Text of the head's ``<title>`` (when no document model has it already)."""
    at = markup.find("<title", 0, head_end)
    tag = _tag_at(markup, at) if at >= 0 else None
    if tag is None or tag[0] != "title":
        return None
    stop = markup.find("</title", tag[2])
    return (clean_text(markup[tag[2] : stop]) or None) if stop >= 0 else None
