"""Choose each field's value from the sources a page offers, in a measured order."""

from __future__ import annotations

from typing import Any

from ..core.document import Document, build
from . import dates, values
from . import language as _language
from .jsonld import Graph
from .markup import Markup, scan
from .record import FIELD_NAMES, Fields
from .zones import Zones, _fold, _similar, page_zones

Candidates = dict[str, list[tuple[str, str]]]


def _node_names(graph: Graph, value: Any) -> list[str]:
    """Author names of a JSON-LD ``author``/``creator``: a string, a Person, or a list of them."""
    out: list[str] = []
    items = value if isinstance(value, list) else [value]
    for item in items:
        item = graph.resolve(item)
        if isinstance(item, dict):
            item = item.get("name")
            if isinstance(item, list):
                item = ", ".join(x for x in item if isinstance(x, str))
        name = values.author(item)
        if name:
            out.append(name)
    return out


def _node_image(graph: Graph, value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    value = graph.resolve(value)
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl") or value.get("@id")
    return value if isinstance(value, str) else None


def _node_name(value: Any, graph: Graph) -> str | None:
    value = graph.resolve(value)
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name")
    return values.text(value)


def candidates(m: Markup) -> Candidates:
    """Every source's raw value per field, sources named, before any choice."""
    out: Candidates = {name: [] for name in FIELD_NAMES}

    def add(fieldname: str, source: str, value: Any) -> None:
        if isinstance(value, str) and value.strip():
            out[fieldname].append((source, value))

    graph = Graph(m.jsonld)
    art = graph.article()
    page = graph.page()
    if art is not None:
        add("title", "json-ld", art.get("headline") or art.get("name"))
        names = _node_names(graph, art.get("author") or art.get("creator"))
        if names:
            out["author"].append(("json-ld", ", ".join(names)))
        add("date", "json-ld", art.get("datePublished") or art.get("dateCreated"))
        add("modified", "json-ld", art.get("dateModified"))
        add("description", "json-ld", art.get("description"))
        add("image", "json-ld", _node_image(graph, art.get("image") or art.get("thumbnailUrl")))
        add("site_name", "json-ld", _node_name(art.get("publisher"), graph))
        add("language", "json-ld", art.get("inLanguage"))
        main = art.get("mainEntityOfPage")
        add("canonical_url", "json-ld", main.get("@id") if isinstance(main, dict) else main or art.get("url"))
    if page is not None:
        add("date", "json-ld-page", page.get("datePublished"))
        add("modified", "json-ld-page", page.get("dateModified"))
        add("language", "json-ld-page", page.get("inLanguage"))
    site = graph.website()
    if site is not None:
        add("site_name", "json-ld-site", site.get("name"))
    meta = m.meta
    for source, keys in (
        ("og", ("og:title",)), ("twitter", ("twitter:title",)), ("dc", ("dc.title", "dcterms.title")),
    ):
        for key in keys:
            add("title", source, meta.get(key))
    for source, key in (("article", "article:author"), ("meta", "author"), ("dc", "dc.creator"),
                        ("dc", "dcterms.creator")):
        add("author", source, meta.get(key))
    for source, key in (("article", "article:published_time"), ("article", "article:published"),
                        ("dc", "dc.date.issued"), ("dc", "dcterms.issued"), ("dc", "dcterms.created"),
                        ("dc", "dc.date"), ("dc", "dcterms.date"), ("meta", "date"), ("meta", "pubdate"),
                        ("meta", "publishdate"), ("meta", "publish-date")):
        add("date", source, meta.get(key))
    for source, key in (("article", "article:modified_time"), ("article", "article:modified"),
                        ("og", "og:updated_time"), ("dc", "dcterms.modified")):
        add("modified", source, meta.get(key))
    for source, key in (("og", "og:description"), ("twitter", "twitter:description"), ("meta", "description"),
                        ("dc", "dc.description"), ("dc", "dcterms.description")):
        add("description", source, meta.get(key))
    for source, key in (("og", "og:image:secure_url"), ("og", "og:image"), ("og", "og:image:url"),
                        ("twitter", "twitter:image"), ("twitter", "twitter:image:src")):
        add("image", source, meta.get(key))
    add("site_name", "og", meta.get("og:site_name"))
    add("site_name", "dc", meta.get("dc.publisher"))
    add("canonical_url", "link", m.canonical)
    add("canonical_url", "og", meta.get("og:url"))
    add("language", "html", m.html_lang)
    for source, key in (("og", "og:locale"), ("dc", "dc.language"), ("dc", "dcterms.language"),
                        ("meta", "language")):
        add("language", source, meta.get(key))
    props: dict[str, list[str]] = {}
    for prop, value in m.itemprops:
        props.setdefault(prop, []).append(value)
    for fieldname, prop in (("title", "headline"), ("date", "datepublished"), ("modified", "datemodified"),
                            ("description", "description"), ("image", "image"), ("language", "inlanguage")):
        if prop in props:
            add(fieldname, "microdata", props[prop][0])
    if "author" in props:  # the first: later ones are often comments' or related posts' authors
        out["author"].append(("microdata", props["author"][0]))
    for value, raw in m.times:
        low = raw.lower()
        if "pubdate" in low or "datepublished" in low or "publish" in low:
            add("date", "time-published", value)
            break
    if m.times:
        add("date", "time", m.times[0][0])
    if m.rel_authors:
        out["author"].append(("rel-author", ", ".join(dict.fromkeys(m.rel_authors))))
    add("title", "title-tag", m.title_tag)
    return out


#: Per field, the sources in the order they are trusted (measured on the
#: mercury set with ``benchmarks/fields.py --sources``); a field takes the
#: first source whose value survives cleaning.
ORDER: dict[str, tuple[str, ...]] = {
    "title": ("json-ld", "og", "twitter", "microdata", "dc", "title-tag"),
    "author": ("json-ld", "microdata", "rel-author", "article", "meta", "dc"),
    "date": ("json-ld", "article", "microdata", "time-published", "dc", "meta", "json-ld-page", "time"),
    "modified": ("json-ld", "article", "microdata", "og", "dc", "json-ld-page"),
    "description": ("json-ld", "og", "twitter", "meta", "microdata", "dc"),
    "image": ("json-ld", "og", "twitter", "microdata"),
    "site_name": ("og", "json-ld", "json-ld-site", "dc"),
    "language": ("html", "json-ld", "json-ld-page", "microdata", "og", "dc", "meta"),
    "canonical_url": ("link", "og", "json-ld"),
}


def clean(fieldname: str, value: str, base: str | None) -> str | None:
    """One candidate value cleaned for its field; None when it is not a usable value."""
    if fieldname == "author":
        parts = [values.author(p) for p in value.split(", ")] if ", " in value else [values.author(value)]
        return values.join_authors([p for p in parts if p])
    if fieldname in ("date", "modified"):
        return dates.normalize(value)
    if fieldname in ("image", "canonical_url"):
        return values.url(value, base)
    if fieldname == "language":
        return values.language(value)
    return values.text(value)


def choose(found: Candidates, base: str | None) -> Fields:
    """The first usable candidate of each field, in :data:`ORDER`."""
    chosen: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for fieldname in FIELD_NAMES:
        by_source = found.get(fieldname, [])
        for source in ORDER[fieldname]:
            value = None
            for src, raw in by_source:
                if src == source:
                    value = clean(fieldname, raw, base)
                    if value:
                        break
            if value:
                chosen[fieldname] = value
                sources[fieldname] = source
                break
    return Fields(**chosen, sources=sources)


def _base(url: str | None, found: Candidates) -> str | None:
    """What relative URLs resolve against: the page's URL, else an absolute canonical URL."""
    if values.is_absolute(url):
        return url
    for _, raw in found["canonical_url"]:
        if values.is_absolute(raw):
            return raw
    return url


def read_markup(markup: str, url: str | None = None) -> Fields:
    """The fields the markup states (no text-based fallback)."""
    found = candidates(scan(markup))
    return choose(found, _base(url, found))


#: Headings among the first blocks that may be the site's logo (a title part equal to one is the site's name).
LOGO_BLOCKS = 40
#: Whether a heading that rewords the markup's title (most words shared) replaces it.
TITLE_OVERLAP = False


def _month_first(language: str | None) -> bool:
    return language in ("en", "en-US")


def read_page(markup: str, url: str | None = None, doc: Document | None = None) -> Fields:
    """All fields of a page: the markup's, then its headline, byline and dateline blocks, then the text's language.

    ``doc`` is the page's :class:`~scrapy_bte.document.Document` (built
    when not given); ``url`` is the page's address, which resolves
    relative URLs and is never a source of values itself.
    """
    return read_page_zones(markup, url, doc)[0]


def read_page_zones(markup: str, url: str | None = None, doc: Document | None = None) -> tuple[Fields, Zones]:
    """:func:`read_page` and the headline, byline and dateline blocks it read (for the body to leave out)."""
    found = candidates(scan(markup))
    fields = choose(found, _base(url, found))
    return complete(fields, build(markup) if doc is None else doc, _titles(found))


def _titles(found: Candidates) -> list[str]:
    """The markup's title candidates, most trusted first."""
    rank = {source: k for k, source in enumerate(ORDER["title"])}
    ordered = sorted(found["title"], key=lambda sv: rank.get(sv[0], len(rank)))
    return [t for t in (values.text(raw) for _, raw in ordered) if t]


def complete(fields: Fields, doc: Document, titles: list[str]) -> tuple[Fields, Zones]:
    """``fields`` completed from the page's blocks, and the blocks that were read.

    The language comes from the text where the markup declares none
    (first: it decides how a numeric date is read); the title becomes the
    headline block's text where a heading repeats a markup title with
    the site's name or a section around it; author and date come from the
    byline and dateline blocks where the markup says nothing.
    """
    out = fields.values()
    sources = dict(fields.sources)
    if out["language"] is None and doc.n_blocks:
        lang, _ = _language.detect(_language.sample(doc.texts, doc.words.tolist()))
        if lang:
            out["language"], sources["language"] = lang, "text"
    zones = page_zones(doc, titles or doc.title_tag, month_first=_month_first(out["language"]))
    if zones.headline is not None:
        heading = doc.texts[zones.headline]
        if any(_similar(heading, t, TITLE_OVERLAP) for t in titles):
            if out["title"] is None or _fold(out["title"]) != _fold(heading):
                out["title"], sources["title"] = heading, "headline-block"
        elif out["title"] is None:
            out["title"], sources["title"] = heading, "h1"
    if sources.get("title") not in ("headline-block", "h1") and out["title"]:
        logos = [doc.texts[i] for i, name in enumerate(doc.opener[:LOGO_BLOCKS]) if name == "h1"]
        out["title"] = values.strip_site(out["title"], [out["site_name"] or "", *logos])
    if out["author"] is None and zones.author:
        out["author"], sources["author"] = zones.author, "byline-block"
    if zones.date and (out["date"] is None or sources.get("date") == "time"):
        out["date"], sources["date"] = zones.date, "dateline-block"
    return Fields(**out, sources=sources), zones
