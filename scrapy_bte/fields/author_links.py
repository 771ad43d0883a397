"""The author named by a link to the author's page, where no byline says "By".

Many sites print the author's name alone beside the headline, as a link to
the author's page (``<a href="/authors/trevor-jackins">Trevor Jackins</a>``),
in an element whose name says nothing either: neither the markup's fields
nor the byline zone (:func:`~scrapy_bte.fields.zones.page_zones`) read it.
The link's path says what the name is. A link counts when its path has a
segment of an author word (:data:`~scrapy_bte.evidence.words.ZONE_GROUPS`'
author stems: ``/author/``, ``/autoren/``, ``/contributors/``, ...) and a
page after it, at least half of its text's words are in that page's name
(the slug: "Articles by Juliette" does not name ``juliette-carreiro``), and
its text stands in a block of the headline's zone before the body's first
paragraph, where a byline would be (not the related stories' or a listing's
cards further down, nor a sidebar's authors). On WCXB's
pages that have an author and where none was read before, it names 5
rightly and none wrongly (the sixth, "Paul Frew" for "Paul Frew, Home and
Digital Security Expert", leaves out the job title on purpose).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

from ..core.document import Document
from ..core.meta import attributes
from ..evidence.words import ZONE_GROUPS
from . import values
from .markup import inner_text
from .zones import AFTER, BEFORE

#: The author stems of the byline zone's element names, as path segments.
_STEMS = next(words for name, _, words in ZONE_GROUPS if name == "author")
#: An author page's path: a segment made of a stem (and its plural) followed by the page's name.
_AUTHOR_PATH = re.compile(r"/(?:" + "|".join(map(re.escape, _STEMS)) + r")[a-z]*/([^/?#\s]+)", re.IGNORECASE)
#: A block of this many words is the body's first paragraph: the zone ends there.
BODY_WORDS = 20
#: At most this many words in a name read from a link.
MAX_NAME_WORDS = 5
_LETTERS = re.compile(r"[^\W\d_]+")


def _plain(text: str) -> str:
    """Lower case without accents: "Kovács" as its slug writes it."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def names_slug(name: str, slug: str) -> bool:
    """Whether at least half of ``name``'s words of two letters or more are in ``slug``."""
    page = _plain(unquote(slug))
    words = [w for w in _LETTERS.findall(_plain(name)) if len(w) > 1]
    return bool(words) and 2 * sum(w in page for w in words) >= len(words)


def author_links(doc: Document, first_tag: int, end_tag: int) -> list[tuple[str, str]]:
    """(text, slug) of the ``<a>`` links to an author's page among the document's tags
    ``first_tag`` to ``end_tag`` (excluded), in page order: the tags of a few blocks are read,
    not the page."""
    source, ends, lengths = doc.tag_attribute_spans()
    names = doc.tag_names
    out: list[tuple[str, str]] = []
    for t in range(max(first_tag, 0), min(end_tag, len(names))):
        if names[t] != "a":
            continue
        end = int(ends[t])
        raw = source[end - int(lengths[t]) : end]
        m = _AUTHOR_PATH.search(attributes(raw).get("href", "")) if "/" in raw else None
        if m is None:
            continue
        gt = source.find(">", end)
        text = inner_text(source, gt + 1, "a") if gt >= 0 else ""  # a tag the page cut off names no one
        if text:
            out.append((text, m.group(1)))
    return out


def author_from_links(doc: Document, headline: int | None) -> str | None:
    """The first name a link to its author's page gives (see the module) in the headline's zone
    before the body's first paragraph (the first blocks where there is no headline); None without one."""
    n = doc.n_blocks
    lo, hi = (
        (max(0, headline - BEFORE), min(n, headline + AFTER + 1)) if headline is not None else (0, min(n, AFTER + 1))
    )
    if lo >= hi:
        return None
    # Up to the body's first paragraph: a byline stands above it, related stories' authors below.
    long = (doc.words[lo:hi] >= BODY_WORDS).nonzero()[0].tolist()
    after = [lo + k for k in long if headline is None or lo + k > headline]
    end = after[0] if after else hi
    starts = doc.block_start_tag
    end_tag = int(starts[end]) if end < n else len(doc.tag_names)
    window = [text.lower() for text in doc.texts[lo:end]]
    for text, slug in author_links(doc, int(starts[lo]), end_tag):
        name = values.author(text)
        if (
            name is None
            or len(name.split()) > MAX_NAME_WORDS
            or any(c.isdigit() for c in name)
            or not names_slug(name, slug)
        ):
            continue
        low = name.lower()
        if any(low in block for block in window):
            return name
    return None
