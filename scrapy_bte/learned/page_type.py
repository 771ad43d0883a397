"""What kind of page this is: article, forum, product, collection, listing, documentation or service.

Main content means something else on each kind of page (every post of a
thread, every card of a listing, every section of a service page), so the
selection asks first what the page is. The answer comes from a small
classifier (multinomial logistic regression or a one-layer MLP in numpy,
:class:`~scrapy_bte.learned.estimators.SoftmaxClassifier`) over cheap page
evidence, :func:`page_evidence`, read from the document model that is
already built, never from a second parse:

- **structure**: counts of ``article``, ``section``, ``li``, ``table``,
  ``pre``/``code``, ``form``, ``h1``-``h3``, ``time``, ``nav``, ``aside``
  and a few more elements, and the share of the text inside them;
- **repeated siblings**: the share of the text in runs of three or more
  same-shaped siblings (cards, posts, rows), the largest such run and its
  words per item;
- **declared types**: schema.org types of the JSON-LD scripts and microdata
  (Product/Offer, DiscussionForumPosting, QAPage, Article, ItemList,
  CollectionPage, FAQPage, TechArticle, SoftwareApplication, Service, ...)
  and ``og:type``;
- **URL path shape**: depth, slug length, year/month, file suffix, query
  string and words such as ``/product/``, ``/t/``, ``/questions/``,
  ``/category/``, ``/docs/``, ``/blog/``;
- **text and links**: words, blocks, words per block, link-word share,
  short blocks, the largest container's share;
- **class/id words**: the share of the text under elements whose
  attributes name furniture (:data:`~scrapy_bte.evidence.words.GROUPS`) or a
  kind of page (:data:`~scrapy_bte.evidence.words.PAGE_GROUPS`: post, reply,
  product, price, cart, card, item, grid, docs, code, pricing, ...).

Files: ``models/page_type.npz`` holds only float arrays (loaded with
``allow_pickle=False``); ``models/page_type.json`` beside it holds the
class names, the evidence names and version, the hyper-parameters, the
training command and the fold accuracy. ``scrapy-bte train-page-type``
writes both.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from ..core import accel
from ..core.document import HEADING_TAGS, Document
from ..core.scripts import weighted_words
from ..core.tree import path_or, strings_mentioning
from ..errors import ModelError
from ..evidence import hints as _hints
from ..fields import markup as _markup
from ..fields.read import read_document
from .estimators import SoftmaxClassifier
from .model import read_arrays, read_metadata

#: The page types, in the order of the classifier's outputs.
PAGE_TYPES: tuple[str, ...] = ("article", "forum", "product", "collection", "listing", "documentation", "service")

FORMAT = "scrapy-bte-page-type-model"
FORMAT_VERSION = 1
#: Bump whenever an evidence column changes meaning or order: models record it and refuse to load against another.
EVIDENCE_VERSION = 2

#: Elements counted anywhere in the tag stream (log of 1 + count).
COUNTED_TAGS = (
    "article",
    "section",
    "li",
    "table",
    "tr",
    "pre",
    "code",
    "form",
    "input",
    "h1",
    "h2",
    "h3",
    "time",
    "nav",
    "aside",
    "img",
    "a",
    "p",
    "dl",
    "blockquote",
    "main",
    "header",
    "footer",
    "figure",
    "details",
    "label",
)
#: Block openers whose share of the page's words is evidence (a list page is mostly ``li``, a forum ``p``).
OPENER_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("p", frozenset({"p"})),
    ("li", frozenset({"li"})),
    ("cell", frozenset({"td", "th", "/td", "tr"})),
    ("pre", frozenset({"pre"})),
    ("heading", HEADING_TAGS),
    ("dt-dd", frozenset({"dt", "dd"})),
    ("div", frozenset({"div", "/div"})),
    ("br", frozenset({"br"})),
)
#: Containers whose share of the page's words is evidence (any ancestor of the block).
CONTAINER_TAGS = ("article", "main", "section", "table", "ul", "ol", "nav", "aside", "form", "header", "footer", "dl")
_CONTAINER_BIT = {name: 1 << i for i, name in enumerate(CONTAINER_TAGS)}

#: schema.org types (JSON-LD ``@type``, microdata ``itemtype``) grouped by what they say of the page.
SCHEMA_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("product", ("product", "productgroup", "individualproduct", "productmodel", "car", "vehicle")),
    ("offer", ("offer", "aggregateoffer", "offercatalog")),
    ("forum", ("discussionforumposting", "socialmediaposting")),
    ("qa", ("qapage", "question", "answer")),
    ("comment", ("comment",)),
    (
        "article",
        (
            "article",
            "newsarticle",
            "blogposting",
            "reportagenewsarticle",
            "analysisnewsarticle",
            "opinionnewsarticle",
            "liveblogposting",
            "scholarlyarticle",
            "report",
            "blog",
        ),
    ),
    ("techarticle", ("techarticle", "apireference", "softwaresourcecode")),
    ("itemlist", ("itemlist", "listitem")),
    ("collectionpage", ("collectionpage", "searchresultspage")),
    ("faq", ("faqpage",)),
    ("software", ("softwareapplication", "webapplication", "mobileapplication")),
    (
        "service",
        (
            "service",
            "professionalservice",
            "localbusiness",
            "financialservice",
            "legalservice",
            "homeandconstructionbusiness",
            "medicalbusiness",
            "medicalclinic",
            "store",
        ),
    ),
    ("course", ("course", "educationaloccupationalprogram", "courseinstance", "event")),
    ("howto", ("howto", "recipe")),
    ("review", ("review", "aggregaterating", "rating")),
    ("breadcrumb", ("breadcrumblist",)),
    ("webpage", ("webpage", "itempage")),
    ("profile", ("aboutpage", "contactpage", "profilepage", "person")),
    ("video", ("videoobject",)),
)
_SCHEMA_INDEX = {t: i for i, (_g, types) in enumerate(SCHEMA_GROUPS) for t in types}
_TYPE_RE = re.compile(r'"@type"\s*:\s*(?:"([^"]{1,80})"|\[([^\]]{1,400})\])')
_ITEMTYPE_RE = re.compile(r"""itemtype\s*=\s*["']?[^"'>\s]*?schema\.org/([A-Za-z]+)""", re.IGNORECASE)
#: ``og:type`` values, grouped.
OG_TYPES: tuple[tuple[str, frozenset[str]], ...] = (
    ("article", frozenset({"article", "blog", "news", "og:article"})),
    ("product", frozenset({"product", "product.item", "og:product", "product.group", "books.book"})),
    ("website", frozenset({"website", "webpage", "site"})),
)

#: URL path words (whole segments, or a segment's words), grouped by the page type they suggest.
#: Each group's English words come first, then the same words in German, French, Spanish,
#: Italian, Dutch, Portuguese and Polish, without accents (a segment's words are ASCII letter
#: runs). The classifier learned each group's weight from English sites, where the other
#: words never occur; a shop's ``/produkte/`` then counts as its ``/products/`` does. Words two
#: types share (German ``artikel``: a shop's item and a newspaper's article) are left out.
URL_WORDS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (group, frozenset(words.split()))
    for group, words in (
        (
            "product",
            "product products p dp item itm pdp shop store buy sku "
            "produkt produkte produkty produit produits producto productos prodotto prodotti produto produtos "
            "tienda negozio winkel loja sklep kaufen acheter comprar",
        ),
        (
            "forum",
            "forum forums thread threads t topic topics questions q community discussion viewtopic showthread r "
            "foren diskussion diskussionen fragen communaute comunidad comunita discussione discussioni vragen",
        ),
        (
            "collection",
            "category categories collections collection c tag tags catalog search "
            "kategorie kategorien categorie categoria categorias rubrik rubriken suche recherche busqueda ricerca "
            "zoeken kollektion collectie coleccion colecciones collezione collezioni sortiment",
        ),
        (
            "docs",
            "docs doc documentation api reference manual guide guides wiki learn tutorial "
            "dokumentation doku handbuch anleitung anleitungen hilfe ayuda aiuto handleiding documentacion "
            "documentazione documentatie dokumentacja",
        ),
        (
            "article",
            "blog news article articles post posts story stories "
            "nachrichten aktuelles meldungen actualites actualite noticias noticia notizie notizia nieuws artigo "
            "artigos articulo articulos articolo articoli wiadomosci",
        ),
        (
            "service",
            "services service pricing solutions about contact features plans programs "
            "leistungen dienstleistungen loesungen unternehmen kontakt preise ueber prestations entreprise tarifs "
            "propos contacto servicios precios soluciones empresa quienes servizi prezzi contatti siamo diensten "
            "oplossingen prijzen uslugi",
        ),
        (
            "list",
            "list lists all index archive events courses programs latest "
            "liste archiv termine veranstaltungen evenements eventos eventi kurse cours cursos "
            "corsi alle tous todos tutti",
        ),
    )
)
#: Host name prefixes, grouped the same way.
HOST_WORDS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (group, frozenset(words.split()))
    for group, words in (
        ("forum", "forum forums community discuss discourse answers users"),
        ("docs", "docs doc developer developers help support wiki learn api"),
        ("shop", "shop store"),
        ("blog", "blog news"),
    )
)
#: Title words, grouped by the page type they suggest (class names and titles are English on most
#: sites; the other languages' words as in :data:`URL_WORDS`, none an English word).
TITLE_WORDS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (group, frozenset(words.split()))
    for group, words in (
        (
            "product",
            "buy shop price sale order store online "
            "kaufen bestellen preis preise acheter comprar precio precios comprare prezzo kopen prijs",
        ),
        (
            "forum",
            "forum forums thread question questions help reddit community discussion reply topic "
            "frage fragen antwort antworten diskussion pregunta respuesta domanda risposta vraag discussione",
        ),
        (
            "docs",
            "documentation docs reference manual api guide tutorial introduction chapter "
            "dokumentation handbuch anleitung documentacion documentazione handleiding hilfe ayuda",
        ),
        (
            "article",
            "how why what best top ways tips vs review "
            "warum beste tipps pourquoi meilleurs conseils mejores consejos migliori consigli",
        ),
        (
            "service",
            "services service company agency professional solutions pricing contact near hire expert "
            "leistungen dienstleistungen unternehmen agentur firma kontakt entreprise agence prestations "
            "servicios empresa agencia servizi azienda agenzia diensten bedrijf",
        ),
        (
            "list",
            "news latest archive category categories collection collections all results page shop "
            "nachrichten archiv kategorie alle ergebnisse categorie categoria noticias tutti risultati nieuws "
            "resultats resultados actualites",
        ),
    )
)
_TITLE_SEPARATORS = re.compile(r"\s[|\-\u2013\u2014:\u00b7]\s")
_YEAR_RE = re.compile(r"/(?:19|20)\d\d/(?:\d\d?/)?")
_SUFFIX_RE = re.compile(r"\.(?:html?|php|aspx?|jsp|cfm)$")
_SEGMENT_WORDS = re.compile(r"[a-z]+")
_NUMERIC_RE = re.compile(r"\d{3,}")

#: Block openers that start an item when a container holds several: a card's heading, a list item, a term.
SLOTS: tuple[tuple[str, frozenset[str]], ...] = (
    ("heading", frozenset({"h2", "h3", "h4", "h5", "h6"})),
    ("li", frozenset({"li"})),
    ("dt", frozenset({"dt"})),
)
SLOT_NAMES = tuple(name for name, _ in SLOTS)
_SLOT_OF = {opener: i + 1 for i, (_name, openers) in enumerate(SLOTS) for opener in openers}
#: Up to this many levels above a block's container, a run of same-shaped siblings holds it.
SIBLING_REACH = 4
#: Same-shaped siblings with text from this many on are a run (cards, posts, rows).
RUN_MIN = 3
#: A block of fewer words is short (a label, a link, a price).
SHORT_WORDS = 10


def _names() -> list[str]:
    names = ["log_tags"]
    names += [f"count_{t}" for t in COUNTED_TAGS]
    names += [f"opener_share_{g}" for g, _ in OPENER_GROUPS]
    names += [f"in_{t}_share" for t in CONTAINER_TAGS]
    names += ["run_share", "run_link_share", "largest_run_items", "largest_run_share", "largest_run_item_words", "runs"]
    for slot in SLOT_NAMES:
        names += [f"{slot}_slot_share", f"{slot}_slot_item_words"]
    names += [f"schema_{g}" for g, _ in SCHEMA_GROUPS]
    names += ["schema_types"]
    names += [f"og_{g}" for g, _ in OG_TYPES] + ["og_other"]
    names += ["has_url", "url_depth", "url_slug_words", "url_last_numeric", "url_year", "url_suffix", "url_query"]
    names += ["url_trailing_slash", "url_root"]
    names += [f"url_{g}" for g, _ in URL_WORDS] + [f"host_{g}" for g, _ in HOST_WORDS]
    names += ["log_words", "log_blocks", "log_block_words", "link_share", "short_share", "largest_container_share"]
    names += ["linked_block_share", "title_words"]
    names += [f"title_{g}" for g, _ in TITLE_WORDS] + ["title_parts"]
    names += [f"hint_{g}" for g in _hints.GROUP_NAMES] + [f"hint_{g}" for g in _hints.PAGE_GROUP_NAMES]
    names += [f"hint_count_{g}" for g in _hints.PAGE_GROUP_NAMES]
    return names


#: Ordered evidence names: column ``i`` of :func:`page_evidence` is ``EVIDENCE_NAMES[i]``.
EVIDENCE_NAMES: tuple[str, ...] = tuple(_names())
_COLUMN = {name: i for i, name in enumerate(EVIDENCE_NAMES)}
_OPENER_GROUP = {name: k for k, (_group, names) in enumerate(OPENER_GROUPS) for name in names}
_HINT_COUNT = _COLUMN[f"hint_count_{_hints.PAGE_GROUP_NAMES[0]}"] + np.arange(len(_hints.PAGE_GROUP_NAMES))
#: Row v: the page-group bits set in v (the element bits above the furniture groups).
_PAGE_BIT_TABLE = (
    (np.arange(1 << len(_hints.PAGE_GROUP_NAMES))[:, None] >> np.arange(len(_hints.PAGE_GROUP_NAMES))) & 1
).astype(np.float64)
_SCHEMA_COLUMNS = _COLUMN[f"schema_{SCHEMA_GROUPS[0][0]}"] + np.arange(len(SCHEMA_GROUPS))
_COUNTED_COLUMNS = _COLUMN[f"count_{COUNTED_TAGS[0]}"] + np.arange(len(COUNTED_TAGS))
#: The columns :func:`_url_evidence` and :func:`_title_evidence` write, looked up once.
_URL_SHAPE = tuple(
    _COLUMN[name]
    for name in (
        "has_url",
        "url_depth",
        "url_slug_words",
        "url_last_numeric",
        "url_year",
        "url_suffix",
        "url_query",
        "url_trailing_slash",
        "url_root",
    )
)
_URL_WORD_COLUMNS = tuple((_COLUMN[f"url_{group}"], words) for group, words in URL_WORDS)
_HOST_WORD_COLUMNS = tuple((_COLUMN[f"host_{group}"], words) for group, words in HOST_WORDS)
_TITLE_WORD_COLUMNS = tuple((_COLUMN[f"title_{group}"], words) for group, words in TITLE_WORDS)
_TITLE_PARTS = _COLUMN["title_parts"]
#: Per ``og:type`` value, its group's column (the first group that lists it); any other value: ``og_other``.
_OG_COLUMN: dict[str, int] = {}
for _group, _values in OG_TYPES:
    for _value in _values:
        _OG_COLUMN.setdefault(_value, _COLUMN[f"og_{_group}"])
_OG_OTHER = _COLUMN["og_other"]


def _schema_counts(doc: Document) -> np.ndarray:
    """Per :data:`SCHEMA_GROUPS` group, how often the page declares one of its types (JSON-LD and microdata)."""
    counts = np.zeros(len(SCHEMA_GROUPS), dtype=np.float64)
    markup = doc.markup
    marks = doc.marks  # found with the document, in the one pass over the page
    if marks.has("ld+json"):
        for script in _markup.jsonld_scripts(markup, marks):
            for one, several in _TYPE_RE.findall(script):
                for kind in (one,) if one else several.split(","):
                    group = _SCHEMA_INDEX.get(kind.strip().strip('"').lower().rsplit("/", 1)[-1])
                    if group is not None:
                        counts[group] += 1
    return counts


def _microdata_counts(doc: Document, counts: np.ndarray) -> None:
    """Adds the ``itemtype`` declarations on structural elements to ``counts``."""
    skeleton = doc.skeleton
    strings = skeleton.attr_strings
    search = skeleton.attr_search
    if search is not None:
        # The strings lowered and joined once per page, which the attribute readers of the
        # features search too (the join is made once, not here and there): one search of it,
        # and on the few pages that name the word in any case, the strings that do and the
        # test itself on those.
        if "itemtype" not in search[0]:
            return
        found = strings_mentioning(search, ("itemtype",))
        with_type = [i for i in found if "itemtype" in strings[i] or "ITEMTYPE" in strings[i]]
    else:
        joined = "\x00".join(strings)
        if "itemtype" not in joined and "ITEMTYPE" not in joined:  # two C-level searches, not one per string
            return
        with_type = [i for i, raw in enumerate(strings) if "itemtype" in raw or "ITEMTYPE" in raw]
    if not with_type:
        return
    uses = np.bincount(skeleton.el_attr_id, minlength=len(strings))
    for i in with_type:
        for kind in _ITEMTYPE_RE.findall(strings[i]):
            group = _SCHEMA_INDEX.get(kind.lower())
            if group is not None:
                counts[group] += uses[i]


def _og_type(doc: Document) -> str | None:
    """The head's ``og:type``, read with the document (:data:`~scrapy_bte.core.document.HEAD_META_KEYS`)."""
    value = doc.meta.get("og:type")
    return value.strip().lower() if value else None


def _url_evidence(url: str | None, out: np.ndarray) -> None:
    if not url or not isinstance(url, str):
        return
    try:
        parts = urlsplit(url)
    except ValueError:
        return
    path = parts.path or "/"
    segments = [s for s in path.lower().split("/") if s]
    last = segments[-1] if segments else ""
    # ``out`` starts at zero (page_evidence): only the columns that are not are written.
    has_url, depth, slug, numeric, year, suffix, query, trailing, root = _URL_SHAPE
    out[has_url] = 1.0
    out[depth] = len(segments)
    out[slug] = last.count("-") + last.count("_") + (1 if last else 0)
    out[numeric] = _NUMERIC_RE.search(last) is not None
    out[year] = _YEAR_RE.search(path) is not None
    out[suffix] = _SUFFIX_RE.search(last) is not None
    out[query] = bool(parts.query)
    out[trailing] = path.endswith("/") and bool(segments)
    out[root] = not segments
    words = set(segments)
    for segment in segments:
        words.update(_SEGMENT_WORDS.findall(segment))
    for column, vocabulary in _URL_WORD_COLUMNS:
        if not words.isdisjoint(vocabulary):
            out[column] = 1.0
    host = (parts.hostname or "").split(".")
    if len(host) > 2:
        host_words = set(host[:-2])
        for column, vocabulary in _HOST_WORD_COLUMNS:
            if not host_words.isdisjoint(vocabulary):
                out[column] = 1.0


def _title_evidence(title: str, out: np.ndarray) -> float:
    """The title's columns but its word count, into ``out`` (at zero); returns the word count
    (:func:`page_evidence` takes its logarithm with the other counts'), counted as the blocks'
    words are (:func:`~scrapy_bte.core.scripts.weighted_words`): split at spaces, a Japanese or
    Chinese title of thirty letters was one or two words, the count of a list's short heading."""
    low = title.lower()
    out[_TITLE_PARTS] = len(_TITLE_SEPARATORS.findall(low))
    words = set(_SEGMENT_WORDS.findall(low))
    for column, vocabulary in _TITLE_WORD_COLUMNS:
        if not words.isdisjoint(vocabulary):
            out[column] = 1.0
    return weighted_words(low)


def _runs(doc: Document, words: np.ndarray, total: float, elements: np.ndarray, out: np.ndarray) -> None:
    """Repeated sibling shapes: how much text sits in runs of same-shaped siblings (cards, posts, rows),
    into ``out`` (the sums of :func:`block_evidence_reference`).

    An element's shape is its tag name and the class-hint bits of its
    attributes (``elements``, :mod:`scrapy_bte.evidence.hints`): a template
    repeats both for each card or post, even where it numbers their ids.
    Siblings share a parent. Blocks count as in a run when their container
    or one of the :data:`SIBLING_REACH` - 1 elements above it has at least
    :data:`RUN_MIN` siblings of its shape that hold text. (The exact
    attribute string as the shape added nothing by site folds.)
    """
    skeleton = doc.skeleton
    parents = skeleton.parents
    n_el = len(parents)
    if n_el < 2 or total <= 0:
        return
    up = np.maximum(parents, 0)
    levels = np.empty((SIBLING_REACH, len(words)), dtype=np.int64)
    levels[0] = doc.container
    for k in range(1, SIBLING_REACH):
        levels[k] = up[levels[k - 1]]
    has_text = np.zeros(n_el, dtype=np.float64)
    has_text[levels.ravel()] = 1.0
    has_text[0] = 0.0
    shape = elements * len(skeleton.name_strings) + skeleton.el_name_id
    # Siblings of one shape: the same (parent, shape) pair, numbered densely by sorting once.
    key = parents.astype(np.float64) * float(int(shape.max()) + 1) + shape
    order = np.argsort(key, kind="stable")
    starts = np.empty(n_el, dtype=bool)
    starts[0] = True
    np.not_equal(key[order[1:]], key[order[:-1]], out=starts[1:])
    group = np.empty(n_el, dtype=np.int64)
    group[order] = np.cumsum(starts) - 1
    text_members = np.bincount(group, weights=has_text)
    is_run = text_members[group] >= RUN_MIN
    is_run[0] = False
    hit = is_run[levels]  # (levels, blocks)
    in_run = hit.any(axis=0)
    runs = int(np.count_nonzero(text_members >= RUN_MIN))
    if not runs or not in_run.any():
        return
    # Each block belongs to the run of its lowest level that is one.
    lowest = levels[hit.argmax(axis=0), np.arange(len(words))]
    run_words = float(words[in_run].sum())
    per_group = np.bincount(group[lowest[in_run]], weights=words[in_run], minlength=len(text_members))
    g = int(per_group.argmax())
    out[_SUM["run_share"]] = run_words / total
    out[_SUM["run_link_share"]] = float(doc.link_words[in_run].sum()) / run_words
    out[_SUM["largest_run_items"]] = math.log1p(text_members[g])
    out[_SUM["largest_run_share"]] = per_group[g] / total
    out[_SUM["largest_run_item_words"]] = math.log1p(per_group[g] / text_members[g])
    out[_SUM["runs"]] = math.log1p(runs)


def _slots(doc: Document, words: np.ndarray, total: float, out: np.ndarray) -> None:
    """Items a container repeats without an element of their own (``<li>`` cards, ``<h3>`` + ``<p>`` entries).

    Per :data:`SLOTS` kind: the share of the page's words in containers that
    hold at least :data:`RUN_MIN` blocks opened by it, and their words per item
    (into ``out``, the sums of :func:`block_evidence_reference`; the caller takes its logarithm).
    """
    width = len(SLOTS) + 1
    slot = np.fromiter(map(_SLOT_OF.get, doc.opener, repeat(0)), np.int64, len(words))
    container = np.asarray(doc.container, dtype=np.int64)
    n_el = int(container.max()) + 1
    counts = np.bincount(container * width + slot, minlength=n_el * width).reshape(n_el, width)
    per_container = np.bincount(container, weights=words, minlength=n_el)
    for k, name in enumerate(SLOT_NAMES, start=1):
        repeated = counts[:, k] >= RUN_MIN
        if not repeated.any():
            continue
        slot_words = float(per_container[repeated].sum())
        out[_SUM[f"{name}_slot_share"]] = slot_words / total
        out[_SLOT_RATIO + k - 1] = slot_words / float(counts[repeated, k].sum())


def page_evidence(doc: Document, url: str | None) -> np.ndarray:
    """The page's evidence vector (float32, :data:`EVIDENCE_NAMES` order) from the built document.

    Reads the document's arrays, its element skeleton, the class hints of
    :mod:`scrapy_bte.evidence.hints` (computed once per document and shared with
    the block features), its JSON-LD scripts' ``@type`` values and the URL;
    ``url`` may be None (URL columns stay 0). The counts and sums over the
    tags, blocks and elements run in C where it is built (:func:`tag_counts`,
    :func:`block_evidence`), the same values as their Python references.
    """
    out = np.zeros(len(EVIDENCE_NAMES), dtype=np.float32)
    _url_evidence(url, out)
    out[_COLUMN["log_tags"]] = math.log1p(doc.total_tags)
    tags = tag_counts(doc)
    schema = _schema_counts(doc)
    og = _og_type(doc)
    if og is not None:
        out[_OG_COLUMN.get(og, _OG_OTHER)] = 1.0
    n = doc.n_blocks
    if n == 0:
        out[_COUNTED_COLUMNS] = np.log1p(tags)
        out[_SCHEMA_COLUMNS] = np.log1p(schema)
        return out
    _microdata_counts(doc, schema)
    out[_COLUMN["schema_types"]] = np.count_nonzero(schema)

    sums = block_evidence(doc)
    total = float(sums[0])
    out[_COLUMN["log_words"]] = math.log1p(total)
    out[_COLUMN["log_blocks"]] = math.log1p(n)
    out[_COLUMN["log_block_words"]] = math.log1p(total / n)
    title_words = _title_evidence(doc.title_tag, out) if doc.title_tag else 0
    out[_SUM_COLUMNS] = sums[1:_SLOT_RATIO]
    # Every count's logarithm in one call (a call costs more than its few values): the tags, the
    # schema types, the title's words, the words per item of each slot kind (-1, none, reads 0)
    # and the elements per page group.
    counts = (tags, schema, (title_words,), np.maximum(sums[_SLOT_RATIO:_PAGE_COUNTS], 0.0), sums[_PAGE_COUNTS:])
    out[_LOG_COLUMNS] = np.log1p(np.concatenate(counts, dtype=np.float64))
    return out


#: The evidence :func:`block_evidence` sums over the blocks and elements, in its order (after the
#: page's words); then per :data:`SLOTS` kind the words per item (-1 where no container repeats
#: it), and per page group of the class hints the elements that name it.
_SUM_NAMES = (
    "link_share",
    "short_share",
    "linked_block_share",
    "largest_container_share",
    *(f"opener_share_{g}" for g, _ in OPENER_GROUPS),
    *(f"in_{t}_share" for t in CONTAINER_TAGS),
    "run_share",
    "run_link_share",
    "largest_run_items",
    "largest_run_share",
    "largest_run_item_words",
    "runs",
    *(f"{slot}_slot_share" for slot in SLOT_NAMES),
    *(f"hint_{g}" for g in (*_hints.GROUP_NAMES, *_hints.PAGE_GROUP_NAMES)),
)
_SUM = {name: 1 + i for i, name in enumerate(_SUM_NAMES)}
_SUM_COLUMNS = np.array([_COLUMN[name] for name in _SUM_NAMES])
_SLOT_RATIO = 1 + len(_SUM_NAMES)
_SLOT_ITEM_COLUMNS = [_COLUMN[f"{slot}_slot_item_words"] for slot in SLOT_NAMES]
_PAGE_COUNTS = _SLOT_RATIO + len(SLOTS)
_N_SUMS = _PAGE_COUNTS + len(_hints.PAGE_GROUP_NAMES)
#: Where :func:`page_evidence` writes the logarithms of its counts, in the order it lists them.
_LOG_COLUMNS = np.concatenate(
    (_COUNTED_COLUMNS, _SCHEMA_COLUMNS, [_COLUMN["title_words"]], _SLOT_ITEM_COLUMNS, _HINT_COUNT)
)
#: Per block opener, its :data:`OPENER_GROUPS` group (its index; the rest: one past the last) and
#: 16 times its :data:`SLOTS` kind (its index + 1; 0: none), for the C pass.
_OPENER_CODES = {
    name: _OPENER_GROUP.get(name, len(OPENER_GROUPS)) + 16 * _SLOT_OF.get(name, 0)
    for name in sorted({*_OPENER_GROUP, *_SLOT_OF})
}
_COUNTED_INDEX = {tag: i for i, tag in enumerate(COUNTED_TAGS)}
#: The sizes and bars the C pass reads, from the constants above.
_SIZES = (
    len(OPENER_GROUPS),
    len(SLOTS),
    len(CONTAINER_TAGS),
    _hints.N_GROUPS + len(_hints.PAGE_GROUP_NAMES),
    len(_hints.PAGE_GROUP_NAMES),
    _hints.N_GROUPS,
    RUN_MIN,
    SIBLING_REACH,
    float(SHORT_WORDS),
)
_PAGE_TYPE = accel.load("learned.page_type")


def tag_counts(doc: Document) -> np.ndarray | list[int]:
    """Per :data:`COUNTED_TAGS` name, how many tags of the page have it (one C pass where built)."""
    c = _PAGE_TYPE.use()
    names = doc.tag_names
    if c is not None and isinstance(names, list):
        return np.frombuffer(c.count_tags(names, _COUNTED_INDEX, len(COUNTED_TAGS)), dtype=np.int64)
    return tag_counts_reference(doc)


def tag_counts_reference(doc: Document) -> list[int]:
    """:func:`tag_counts` in Python."""
    counts = Counter(doc.tag_names)
    return [counts.get(t, 0) for t in COUNTED_TAGS]


def block_evidence(doc: Document) -> np.ndarray:
    """The page's words and the evidence summed over its blocks and elements (float64, see
    :func:`block_evidence_reference`), for a document with blocks.

    One C pass where it is built; on a page it declines (a fractional word count, which
    the reference's numpy sums could round otherwise) and without it, the reference.
    """
    c = _PAGE_TYPE.use()
    elements = _hints.element_bits(doc) & _hints.MODEL_BITS
    path, own = _hints.block_hints(doc)
    if c is not None and isinstance(doc.opener, list):
        skeleton = doc.skeleton
        names = skeleton.name_strings
        found = c.block_evidence(
            np.ascontiguousarray(doc.words, dtype=np.float64),
            np.ascontiguousarray(doc.link_words, dtype=np.float64),
            np.ascontiguousarray(doc.container, dtype=np.int64),
            doc.opener,
            _OPENER_CODES,
            np.ascontiguousarray(skeleton.parents, dtype=np.int64),
            np.ascontiguousarray(skeleton.el_name_id, dtype=np.int64),
            np.fromiter(map(_CONTAINER_BIT.get, names, repeat(0)), np.int64, len(names)),
            np.ascontiguousarray(elements, dtype=np.int64),
            np.ascontiguousarray(path, dtype=np.int64),
            np.ascontiguousarray(own, dtype=np.int64),
            _SIZES,
        )
        if found is not None:
            return np.frombuffer(found, dtype=np.float64)
    return block_evidence_reference(doc, elements, path, own)


def block_evidence_reference(doc: Document, elements: np.ndarray, path: np.ndarray, own: np.ndarray) -> np.ndarray:
    """:func:`block_evidence` in numpy: the page's words, then the values of :data:`_SUM_NAMES`
    (0 where a page has none), the words per item of each slot kind (-1: none) and the
    elements per page group. ``elements`` are the elements' hint bits (:data:`MODEL_BITS`),
    ``path`` and ``own`` the blocks' (:func:`~scrapy_bte.evidence.hints.block_hints`)."""
    sums = np.zeros(_N_SUMS, dtype=np.float64)
    sums[_SLOT_RATIO:_PAGE_COUNTS] = -1.0
    n = doc.n_blocks
    words = np.asarray(doc.words, dtype=np.float64)
    total = float(words.sum())
    sums[0] = total
    share = 1.0 / total if total > 0 else 0.0
    link = np.asarray(doc.link_words, dtype=np.float64)
    sums[_SUM["link_share"]] = float(link.sum()) * share
    sums[_SUM["short_share"]] = float(words[words < SHORT_WORDS].sum()) * share
    sums[_SUM["linked_block_share"]] = np.count_nonzero(link > 0.5 * words) / n

    opener = np.fromiter(map(_OPENER_GROUP.get, doc.opener, repeat(len(OPENER_GROUPS))), np.int64, n)
    sums[_OPENER_SHARE_SUMS] = np.bincount(opener, weights=words, minlength=len(OPENER_GROUPS) + 1)[:-1] * share

    skeleton = doc.skeleton
    container = np.asarray(doc.container, dtype=np.int64)
    per_container = np.bincount(container, weights=words)
    sums[_SUM["largest_container_share"]] = float(per_container.max()) * share
    names = skeleton.name_strings
    named = np.fromiter(map(_CONTAINER_BIT.get, names, repeat(0)), np.int64, len(names))[skeleton.el_name_id]
    named[0] = 0
    sums[_CONTAINER_SUMS] = _bit_sums(words, path_or(doc, named)[container], len(CONTAINER_TAGS)) * share

    _runs(doc, words, total, elements, sums)
    if total > 0:
        _slots(doc, words, total, sums)

    n_hints = _hints.N_GROUPS + len(_hints.PAGE_GROUP_NAMES)
    sums[_HINT_SUMS] = _bit_sums(words, path | own, n_hints) * share
    # Elements per page-group bit: a histogram of the page bits taken together, then one product.
    page_bits = np.bincount(elements >> _hints.N_GROUPS, minlength=len(_PAGE_BIT_TABLE))
    sums[_PAGE_COUNTS:] = page_bits @ _PAGE_BIT_TABLE
    return sums


_OPENER_SHARE_SUMS = _SUM[f"opener_share_{OPENER_GROUPS[0][0]}"] + np.arange(len(OPENER_GROUPS))
_CONTAINER_SUMS = _SUM[f"in_{CONTAINER_TAGS[0]}_share"] + np.arange(len(CONTAINER_TAGS))
_HINT_SUMS = _SUM[f"hint_{_hints.GROUP_NAMES[0]}"] + np.arange(_hints.N_GROUPS + len(_hints.PAGE_GROUP_NAMES))


#: Rows of 0/1 columns :func:`_bit_sums` makes at a time: a block soup of 260,000 one-character
#: blocks made them all at once, 80 MB of float64 (a page of 1.7 MB); every development page has
#: fewer blocks, so its sums are the one product they always were.
BIT_ROWS = 8192


def _bit_sums(weights: np.ndarray, values: np.ndarray, width: int) -> np.ndarray:
    """``weights @ _bit_columns(values, width)``: per bit, the weights of the rows that set it,
    :data:`BIT_ROWS` rows at a time."""
    if len(values) <= BIT_ROWS:
        return weights @ _bit_columns(values, width)
    out = np.zeros(width, dtype=np.float64)
    for start in range(0, len(values), BIT_ROWS):
        stop = start + BIT_ROWS
        out += weights[start:stop] @ _bit_columns(values[start:stop], width)
    return out


def _bit_columns(values: np.ndarray, width: int) -> np.ndarray:
    """Rows of 0/1 (float64) per bit ``0..width-1`` of int64 ``values``."""
    raw = np.ascontiguousarray(values, dtype="<i8").view(np.uint8).reshape(len(values), 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :width].astype(np.float64)


@dataclass(frozen=True)
class PageType:
    """The classifier's answer: ``name`` (one of :data:`PAGE_TYPES`) and the probability of each type."""

    name: str
    probabilities: dict[str, float] = field(default_factory=dict)


class PageTypeModel:
    """The classifier and its metadata (:data:`PAGE_TYPES` order of outputs, evidence names)."""

    def __init__(self, classifier: SoftmaxClassifier, metadata: dict[str, Any] | None = None) -> None:
        self.classifier = classifier
        self.metadata = metadata or {}

    def probabilities(self, evidence: np.ndarray) -> np.ndarray:
        """Per row of ``evidence`` (one page's vector or a matrix), the probability of each page type."""
        return self.classifier.predict_proba(np.atleast_2d(evidence))

    def classify(self, evidence: np.ndarray) -> PageType:
        p = self.probabilities(evidence)[0]
        return PageType(PAGE_TYPES[int(p.argmax())], dict(zip(PAGE_TYPES, p.tolist())))

    def save(self, path: str | Path, metadata: dict[str, Any] | None = None) -> None:
        """Write the .npz (float arrays only) and the JSON metadata beside it."""
        meta = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "evidence_version": EVIDENCE_VERSION,
            "page_types": list(PAGE_TYPES),
            "evidence": list(EVIDENCE_NAMES),
            "hidden": list(self.classifier.hidden),
            "hyperparameters": self.classifier.get_params(),
            **(metadata if metadata is not None else self.metadata),
        }
        path = Path(path)
        with open(path, "wb") as fh:
            arrays: dict[str, Any] = {k: np.asarray(v, dtype=np.float32) for k, v in self.classifier.arrays().items()}
            np.savez_compressed(fh, **arrays)
        path.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        self.metadata = meta


def load(path: str | Path) -> PageTypeModel:
    """Load and validate a page-type model; refuses with :class:`ModelError` what does not match."""
    path = Path(path)
    meta_file = path.with_suffix(".json")
    if not path.is_file():
        raise ModelError(f"page-type model not found: {path}")
    if not meta_file.is_file():
        raise ModelError(f"page-type model metadata not found: {meta_file}")
    meta = read_metadata(meta_file)
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelError(f"{meta_file} is not scrapy-bte page-type metadata")
    if meta.get("format_version") != FORMAT_VERSION or meta.get("evidence_version") != EVIDENCE_VERSION:
        raise ModelError(
            f"{path}: format {meta.get('format_version')!r} / evidence {meta.get('evidence_version')!r}, this version "
            f"reads {FORMAT_VERSION} / {EVIDENCE_VERSION}: retrain it with 'scrapy-bte train-page-type'"
        )
    if list(meta.get("page_types", [])) != list(PAGE_TYPES) or list(meta.get("evidence", [])) != list(EVIDENCE_NAMES):
        raise ModelError(f"{path}: the model's page types or evidence list differ from this version's")
    hidden = meta.get("hidden")
    if not isinstance(hidden, list) or not all(isinstance(h, int) and h > 0 for h in hidden):
        raise ModelError(f"{path}: metadata 'hidden' must be a list of positive integers")
    arrays = read_arrays(path)
    sizes = [len(EVIDENCE_NAMES), *hidden, len(PAGE_TYPES)]
    expected: dict[str, tuple[int, ...]] = {"mean": (sizes[0],), "scale": (sizes[0],)}
    for i in range(len(sizes) - 1):
        expected[f"W{i}"] = (sizes[i], sizes[i + 1])
        expected[f"b{i}"] = (sizes[i + 1],)
    if set(arrays) != set(expected):
        raise ModelError(f"{path}: arrays {sorted(arrays)}, expected {sorted(expected)}")
    for name, shape in expected.items():
        if arrays[name].shape != shape:
            raise ModelError(f"{path}: array {name!r} has shape {arrays[name].shape}, expected {shape}")
    if np.any(arrays["scale"] <= 0):
        raise ModelError(f"{path}: evidence scales must be positive")
    clf = SoftmaxClassifier(len(PAGE_TYPES), hidden)
    clf.mean_, clf.scale_ = arrays["mean"], arrays["scale"]
    clf.weights_ = [arrays[f"W{i}"] for i in range(len(sizes) - 1)]
    clf.biases_ = [arrays[f"b{i}"] for i in range(len(sizes) - 1)]
    return PageTypeModel(clf, meta)


DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "page_type.npz"
_default: PageTypeModel | None = None


def default_model() -> PageTypeModel:
    """The page-type model shipped in the package (see its JSON for how it was trained)."""
    global _default
    if _default is None:
        _default = load(DEFAULT_MODEL)
    return _default


def declared_url(doc: Document) -> str | None:
    """The address a page read without one declares: its ``canonical_url`` field (canonical
    link, ``og:url``, JSON-LD). A page read from a file or a WARC without its address still
    names itself in most cases, and the path's shape is strong evidence of its type."""
    return read_document(doc, None, ("canonical_url",)).canonical_url


def classify(doc: Document, url: str | None, model: PageTypeModel | None = None, *, declared: bool = False) -> PageType:
    """The page type of ``doc`` (fetched from ``url``, or None: then the address the page
    declares, if any: :func:`declared_url`) by ``model`` (default: the shipped one).
    ``declared``: ``url`` already is what the page declares (None where it declares none),
    read by the caller with the fields it reads.

    ``probabilities`` maps every name of :data:`PAGE_TYPES` to its probability;
    ``name`` is the most probable.
    """
    if not url and not declared:
        url = declared_url(doc)
    return (model or default_model()).classify(page_evidence(doc, url))
