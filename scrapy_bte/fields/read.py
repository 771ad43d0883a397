"""Choose each field's value from the sources a page offers, in a measured order.

Sources are read lazily: a field stops at the first source in
:data:`ORDER` whose value survives cleaning, and a scan of the whole
page (microdata, ``<time>``, ``rel=author``) runs only when some field
still needs it. Most pages are answered by their head alone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import Any

from ..core.document import Document, build
from ..core.marks import Marks
from ..core.meta import meta_content, meta_tags
from . import dates, values
from . import language as _language
from . import markup as _markup
from . import title as _title
from .author_links import author_from_links
from .jsonld import Graph
from .record import FIELD_NAMES, Fields
from .zones import Zones, page_zones


def _organization(node: dict[str, Any]) -> bool:
    """Whether a JSON-LD node's ``@type`` is an organization (``Organization``, ``NewsMediaOrganization``, ...)."""
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k.endswith(("Organization", "Corporation")) for k in kinds)


def _node_names(graph: Graph, value: Any, organizations: bool = False) -> str | None:
    """Author names of a JSON-LD ``author``/``creator``: a string, a Person, or a list of them;
    with ``organizations``, the names of the organizations among them instead. A site that names
    itself as the author ("USA TODAY", "Cleveland Clinic") often prints the writer's name in the
    byline: the organization is the author only where no other source names one."""
    out: list[str] = []
    for item in value if isinstance(value, list) else [value]:
        item = graph.resolve(item)
        if isinstance(item, dict):
            if _organization(item) != organizations:
                continue
            item = item.get("name")
            if isinstance(item, list):
                item = ", ".join(x for x in item if isinstance(x, str))
        elif organizations:
            continue
        if isinstance(item, str) and item.strip():
            out.append(item)
    return ", ".join(out) or None


def _authors(page: Page) -> Any:
    """The article node's ``author`` (or ``creator``), as the page's JSON-LD gives it."""
    return page.article.get("author") or page.article.get("creator")


def _node_image(graph: Graph, value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    value = graph.resolve(value)
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl") or value.get("@id")
    return value if isinstance(value, str) else None


def _node_name(graph: Graph, value: Any) -> str | None:
    value = graph.resolve(value)
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name")
    return value if isinstance(value, str) else None


class Page:
    """One page's markup and what has been read from it so far (each scan at most once)."""

    def __init__(
        self, markup: str, doc: Document | None = None, meta_keys: tuple[str, ...] = _markup.META_KEYS
    ) -> None:
        self.markup = markup
        self.doc = doc
        #: The ``<meta>`` keys :attr:`meta` reads: fewer when fewer fields are wanted (see :func:`meta_keys`).
        self.meta_keys = meta_keys

    @cached_property
    def marks(self) -> Marks:
        # The document found them when it was built, in the markup it holds.
        doc = self._same_markup_doc
        return doc.marks if doc is not None else Marks(self.markup)

    @property
    def _same_markup_doc(self) -> Document | None:
        """The document, when it was built from this very markup (its marks then hold for it)."""
        return self.doc if self.doc is not None and self.doc.markup is self.markup else None

    @cached_property
    def head_end(self) -> int:
        end = self.marks.find("<body")
        return end if end >= 0 else min(len(self.markup), 200_000)

    @cached_property
    def meta(self) -> dict[str, str]:
        tags = self.doc.meta_tags if self.doc is not None else meta_tags(self.markup)
        return meta_content(self.markup, self.meta_keys, values=("content", "value"), tags=tags)

    @cached_property
    def graph(self) -> Graph:
        # Without a document, one word is found as fast by a plain search: the pass over all the
        # words is paid for only by a call that reads the other scans too (and then it was made first).
        marks = self.marks if self._same_markup_doc is not None else self.__dict__.get("marks")
        return Graph(_markup.jsonld_scripts(self.markup, marks))

    @cached_property
    def article(self) -> dict[str, Any]:
        return self.graph.article() or {}

    @cached_property
    def webpage(self) -> dict[str, Any]:
        return self.graph.page() or {}

    @cached_property
    def props(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for prop, value in _markup.itemprops(self.markup, self.marks):
            found.setdefault(prop, []).append(value)
        return found

    def prop(self, name: str) -> str | None:
        got = self.props.get(name)
        return got[0] if got else None  # the first: later ones are often comments' or related posts'

    @cached_property
    def times(self) -> list[tuple[str, str]]:
        return _markup.times(self.markup, self.marks)

    def time_published(self) -> str | None:
        for value, raw in self.times:
            low = raw.lower()
            if "pubdate" in low or "datepublished" in low or "publish" in low:
                return value
        return None

    def first_time(self) -> str | None:
        return self.times[0][0] if self.times else None

    def rel_author(self) -> str | None:
        names = _markup.rel_authors(self.markup, self.marks)
        return ", ".join(dict.fromkeys(names)) or None

    def title_tag(self) -> str | None:
        if self.doc is not None:
            return self.doc.title_tag
        return _markup.title_tag(self.markup, self.head_end)

    @cached_property
    def canonical_link(self) -> str | None:
        # Read twice by a reader of the canonical URL: for the base URL, then as the field's value.
        return _markup.canonical(self.markup, self.head_end, self.marks)

    def canonical(self) -> str | None:
        return self.canonical_link

    def html_lang(self) -> str | None:
        return _markup.html_lang(self.markup, self.marks)

    def main_entity(self) -> Any:
        main = self.article.get("mainEntityOfPage")
        return main.get("@id") if isinstance(main, dict) else main or self.article.get("url")


Source = Callable[[Page], Any]


class _Meta:
    """The reader of the first of some ``<meta>`` keys (which it names, so a page reads only the keys wanted)."""

    def __init__(self, *keys: str) -> None:
        self.keys = keys

    def __call__(self, p: Page) -> str | None:
        meta = p.meta
        for key in self.keys:
            if key in meta:
                return meta[key]
        return None


_meta = _Meta


def _art(*keys: str) -> Source:
    def read(p: Page) -> Any:
        article = p.article
        for key in keys:
            value = article.get(key)
            if value:
                return value
        return None

    return read


#: Per field, each source's reader, in the order the sources are trusted
#: (measured on the mercury set with ``benchmarks/fields.py --sources``,
#: checked on the older sets; JSON-LD first as the most specific where a
#: page has it). A field takes the first value that survives cleaning.
SOURCES: dict[str, dict[str, Source]] = {
    "title": {
        "json-ld": _art("headline", "name"),
        "og": _meta("og:title"),
        "twitter": _meta("twitter:title"),
        "microdata": lambda p: p.prop("headline"),
        "dc": _meta("dc.title", "dcterms.title"),
        "title-tag": Page.title_tag,
    },
    "author": {
        "json-ld": lambda p: _node_names(p.graph, _authors(p)),
        "meta": _meta("author"),
        "article": _meta("article:author"),
        "dc": _meta("dc.creator", "dcterms.creator"),
        "microdata": lambda p: p.prop("author"),
        "rel-author": Page.rel_author,
    },
    "date": {
        "json-ld": _art("datePublished", "dateCreated"),
        "article": _meta("article:published_time", "article:published", "og:article:published_time"),
        "dc": _meta("dc.date.issued", "dcterms.issued", "dcterms.created", "dc.date", "dcterms.date"),
        "meta": _meta(*_markup.PUBLISHED_META_KEYS),
        # what analytics, newsletter and scholarly-index tags state (Parse.ly, Sailthru, Cxense, Highwire)
        "tags": _meta(
            "parsely-pub-date",
            "sailthru.date",
            "cxenseparse:publishtime",
            "og:publish_date",
            "citation_publication_date",
            "citation_date",
        ),
        "microdata": lambda p: p.prop("datepublished"),
        "time-published": Page.time_published,
        "json-ld-page": lambda p: p.webpage.get("datePublished"),
        "time": Page.first_time,
    },
    "modified": {
        "json-ld": _art("dateModified"),
        "article": _meta("article:modified_time", "article:modified"),
        "og": _meta("og:updated_time"),
        "dc": _meta("dcterms.modified"),
        "microdata": lambda p: p.prop("datemodified"),
        "json-ld-page": lambda p: p.webpage.get("dateModified"),
    },
    "description": {
        "json-ld": _art("description"),
        "og": _meta("og:description"),
        "twitter": _meta("twitter:description"),
        "meta": _meta("description"),
        "dc": _meta("dc.description", "dcterms.description"),
        "microdata": lambda p: p.prop("description"),
    },
    "image": {
        "json-ld": lambda p: _node_image(p.graph, p.article.get("image") or p.article.get("thumbnailUrl")),
        "og": _meta("og:image:secure_url", "og:image", "og:image:url"),
        "twitter": _meta("twitter:image", "twitter:image:src"),
        "microdata": lambda p: p.prop("image"),
    },
    "site_name": {
        "og": _meta("og:site_name"),
        "json-ld": lambda p: _node_name(p.graph, p.article.get("publisher")),
        "json-ld-site": lambda p: (p.graph.website() or {}).get("name"),
        "dc": _meta("dc.publisher"),
    },
    "language": {
        "html": Page.html_lang,
        "json-ld": _art("inLanguage"),
        "json-ld-page": lambda p: p.webpage.get("inLanguage"),
        "og": _meta("og:locale"),
        "dc": _meta("dc.language", "dcterms.language"),
        "meta": _meta("language"),
        "microdata": lambda p: p.prop("inlanguage"),
    },
    "canonical_url": {
        "link": Page.canonical,
        "og": _meta("og:url"),
        "json-ld": Page.main_entity,
    },
}
#: Per field, the source names in trust order.
ORDER: dict[str, tuple[str, ...]] = {name: tuple(SOURCES[name]) for name in FIELD_NAMES}


@lru_cache(maxsize=64)
def meta_keys(wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The ``<meta>`` keys the wanted fields' sources read (a title also reads the site's name, to strip it)."""
    names = set(wanted) | ({"site_name"} if "title" in wanted else set())
    keys = {key for name in names for read in SOURCES[name].values() if isinstance(read, _Meta) for key in read.keys}
    return tuple(key for key in _markup.META_KEYS if key in keys)


def clean(fieldname: str, value: Any, base: str | None) -> str | None:
    """One raw value cleaned for its field; None when it is not a usable value."""
    if not isinstance(value, str) or not value.strip():
        return None
    if fieldname == "author":
        parts = value.split(", ") if ", " in value else [value]
        return values.join_authors([a for a in map(values.author, parts) if a])
    if fieldname in ("date", "modified"):
        return dates.normalize(value)
    if fieldname in ("image", "canonical_url"):
        return values.url(value, base)
    if fieldname == "language":
        return values.language(value)
    return values.text(value)


def candidates(page: Page, fieldname: str, base: str | None) -> list[tuple[str, str]]:
    """Every source's cleaned value of one field, in trust order (for reports and the benchmark)."""
    out = []
    for source, read in SOURCES[fieldname].items():
        value = clean(fieldname, read(page), base)
        if value:
            out.append((source, value))
    return out


def _first(page: Page, fieldname: str, base: str | None) -> tuple[str, str] | None:
    for source, read in SOURCES[fieldname].items():
        raw = read(page)
        if raw is None:  # most sources of most pages: nothing to clean
            continue
        value = clean(fieldname, raw, base)
        if value:
            return source, value
    return None


def _base(url: str | None, page: Page) -> str | None:
    """What relative URLs resolve against: the page's URL, else an absolute canonical URL."""
    if url and values.is_absolute(url):
        return url
    for read in SOURCES["canonical_url"].values():
        raw = read(page)
        if isinstance(raw, str) and values.is_absolute(raw.strip()):
            return raw.strip()
    return url


def choose(page: Page, url: str | None, wanted: tuple[str, ...] = FIELD_NAMES) -> Fields:
    """The first usable value of each wanted field, in :data:`ORDER`."""
    base = _base(url, page) if ("image" in wanted or "canonical_url" in wanted) else url
    chosen: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for fieldname in wanted:
        hit = _first(page, fieldname, base)
        if hit is not None:
            sources[fieldname], chosen[fieldname] = hit
    return Fields(**chosen, sources=sources)


def read_markup(markup: str, url: str | None = None) -> Fields:
    """The fields the markup states (no block or text fallback)."""
    return choose(Page(markup), url)


#: Title sources read from the page head alone: what headings are compared with.
_HEAD_TITLES = ("json-ld", "og", "twitter", "dc", "title-tag")
#: Per title source, the head's sources after it in :data:`ORDER`.
_HEAD_TITLES_AFTER = {
    name: tuple(s for s in ORDER["title"][k + 1 :] if s in _HEAD_TITLES) for k, name in enumerate(ORDER["title"])
}


def titles(page: Page, chosen: str | None = None, after: str | None = None) -> list[str]:
    """The markup's title candidates from the head, most trusted first (and ``chosen`` first of all).

    ``after`` is the source ``chosen`` was read from where, as :func:`choose` reads it, no source
    before it gave a title: only the sources after it are read (the others would give nothing new).
    """
    out = [chosen] if chosen else []
    read = SOURCES["title"]
    for source in _HEAD_TITLES_AFTER.get(after, _HEAD_TITLES) if after is not None else _HEAD_TITLES:
        raw = read[source](page)
        value = None if raw is None else clean("title", raw, None)
        if value and value not in out:
            out.append(value)
    return out


#: Days a printed dateline must differ from the markup's date by to replace it (time zones move a day).
DATELINE_DAYS = 1


def _printed_date_wins(markup_date: str | None, zones: Zones, doc: Document) -> bool:
    """Whether the date printed next to the headline replaces the markup's: its block is a bare
    date (:func:`~.dates.is_dateline`, not an "Updated ..." line) and the days differ. CMSs keep
    a first draft's or a re-published copy's date in their markup; readers see the printed one."""
    if not markup_date or not zones.date or not _bare_dateline(zones, doc):
        return False
    a, b = dates.day(markup_date), dates.day(zones.date)
    return a is not None and b is not None and abs((a - b).days) > DATELINE_DAYS


def _printed_time_adds(markup_date: str | None, zones: Zones, doc: Document) -> bool:
    """Whether the date printed next to the headline is the markup's day with its time: the markup
    gives the day alone (``<meta name="displaydate" content="2012-11-06">``), the page prints
    "Nov. 6, 2012 2:57 PM". A bare date, as for :func:`_printed_date_wins`."""
    if not markup_date or len(markup_date) != 10 or not zones.date or len(zones.date) <= 10:
        return False
    if not _bare_dateline(zones, doc):
        return False
    return dates.day(markup_date) == dates.day(zones.date)


def _bare_dateline(zones: Zones, doc: Document) -> bool:
    """Whether the date printed next to the headline stands alone in its blocks (not "Updated ...")."""
    return all(dates.is_dateline(doc.texts[i]) for i in zones.dateline)


def read_page(
    markup: str, url: str | None = None, doc: Document | None = None, wanted: tuple[str, ...] = FIELD_NAMES
) -> Fields:
    """All wanted fields of a page: the markup's, then its headline, byline and dateline blocks,
    then the text's language.

    ``doc`` is the page's :class:`~scrapy_bte.document.Document` (built
    when not given); ``url`` is the page's address, which resolves
    relative URLs and is never a source of values itself.
    """
    return read_page_zones(markup, url, doc, wanted)[0]


def read_document(doc: Document, url: str | None = None, wanted: tuple[str, ...] = FIELD_NAMES) -> Fields:
    """:func:`read_page` over a built document (whose ``markup`` it reads); byline and dateline
    blocks are looked for only where the markup lacks the author or date."""
    page = Page(doc.markup, doc, meta_keys(wanted))
    fields = choose(page, url, wanted)
    return fields if _BLOCK_FIELDS.isdisjoint(wanted) else complete(fields, page, wanted, url=url)[0]


def read_page_zones(
    markup: str, url: str | None = None, doc: Document | None = None, wanted: tuple[str, ...] = FIELD_NAMES
) -> tuple[Fields, Zones]:
    """:func:`read_page` and the page's headline, byline and dateline blocks (for the body to leave out).

    The byline and dateline are looked for even where the markup states
    the author and date, so their blocks are known.
    """
    doc = build(markup) if doc is None else doc
    page = Page(markup, doc)
    return complete(choose(page, url, wanted), page, wanted, all_zones=True, url=url)


#: The fields whose values may come from the page's blocks (:func:`complete`): the others need no block read.
_BLOCK_FIELDS = frozenset({"title", "author", "date", "language"})


def complete(
    fields: Fields,
    page: Page,
    wanted: tuple[str, ...] = FIELD_NAMES,
    *,
    all_zones: bool = False,
    url: str | None = None,
) -> tuple[Fields, Zones]:
    """``fields`` completed from the page's blocks, and the blocks that were read.

    The language comes from the text where the markup declares none
    (first: it decides how a numeric date is read); the title becomes the
    headline block's text where a heading repeats a markup title with
    the site's name or a section around it; author and date come from the
    byline and dateline blocks where the markup says nothing (those are
    looked for only then, unless ``all_zones``). Without ``all_zones``,
    fields that need no block (description, image, ...) read none.
    """
    if not all_zones and _BLOCK_FIELDS.isdisjoint(wanted):
        return fields, Zones()  # no field asked for needs a block (the canonical URL of the page type)
    doc = page.doc if page.doc is not None else build(page.markup)
    out = fields.values()
    sources = dict(fields.sources)
    if "language" in wanted and out["language"] is None and doc.n_blocks:
        lang, _ = _language.detect(_language.sample(doc.texts, doc.words))
        if lang:
            out["language"], sources["language"] = lang, "text"
    # The site's own name as the author gives way to a person the page names elsewhere.
    site_author: tuple[str, str] | None = None
    sites: tuple[str | None, ...] = ()
    if "author" in wanted and out["author"] is not None:
        sites = (out["site_name"] or (_first(page, "site_name", None) or ("", ""))[1], values.host_name(url))
        if values.names_site(out["author"], sites):
            site_author = (sources.pop("author"), out["author"])
            out["author"] = None
            for other, name in candidates(page, "author", url):
                if not values.names_site(name, sites):
                    out["author"], sources["author"] = name, other
                    break
    need_author = "author" in wanted and out["author"] is None
    need_date = "date" in wanted and (out["date"] is None or sources.get("date") == "time")
    if not (all_zones or need_author or need_date or "title" in wanted):
        return Fields(**out, sources=sources), Zones()  # no field asked for needs a block
    # The title, where the markup gave one, first; the sources before its own gave none.
    markup_titles = titles(page, out["title"], sources["title"]) if "title" in sources else titles(page)
    zones = page_zones(
        doc,
        markup_titles or doc.title_tag,
        month_first=dates.month_first(out["language"]),
        byline=all_zones or need_author,
        dateline=all_zones or "date" in wanted,
    )
    if "title" in wanted:
        out["title"], source = _title.settle(
            doc,
            out["title"],
            sources.get("title"),
            zones.headline,
            markup_titles,
            lambda: out["site_name"] or (_first(page, "site_name", None) or ("", ""))[1],
            # The headline was searched for among the markup's titles (else the title tag's):
            # where there are none, no heading repeats one.
            zones.headline_held if markup_titles else False,
            url or out["canonical_url"],
        )
        if source is not None:
            sources["title"] = source
    if need_author and zones.author and not (site_author and values.names_site(zones.author, sites)):
        out["author"], sources["author"] = zones.author, "byline-block"
    elif need_author:
        linked = author_from_links(doc, zones.headline)
        if linked:
            out["author"], sources["author"] = linked, "author-link"
        else:
            named = clean("author", _node_names(page.graph, _authors(page), organizations=True), None)
            if named:
                out["author"], sources["author"] = named, "json-ld"
            elif site_author is not None:
                sources["author"], out["author"] = site_author
    for name in ("date", "modified"):
        value = out[name]
        if name in wanted and value and len(value) == 19:  # a local time: a <time> may say its zone
            out[name] = dates.with_offset(value, [time for time, _ in page.times])
    printed_wins = "date" in wanted and (
        _printed_date_wins(out["date"], zones, doc) or _printed_time_adds(out["date"], zones, doc)
    )
    if zones.date and (need_date or printed_wins):
        out["date"], sources["date"] = zones.date, "dateline-block"
    return Fields(**out, sources=sources), zones
