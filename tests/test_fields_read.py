"""The fields' reader of a page: what it reads once, and what it need not read at all."""

from __future__ import annotations

import pytest

from scrapy_bte.core.document import build
from scrapy_bte.fields.read import Page, choose, read_document, titles


def _head(*tags: str) -> str:
    return f"<html><head>{''.join(tags)}</head><body><h1>Lead story</h1><p>Some words of the body.</p></body></html>"


@pytest.mark.parametrize(
    "markup",
    [
        _head("<title>Tag title | Site</title>"),
        _head('<meta property="og:title" content="Og title">', "<title>Tag title | Site</title>"),
        _head(
            '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Ld title"}</script>',
            '<meta property="og:title" content="Og title"><meta name="twitter:title" content="Og title">',
            '<meta name="dc.title" content="Dc title"><title>Tag title</title>',
        ),
        _head('<meta property="og:title" content="  "><meta name="twitter:title" content="Tw title"><title>T</title>'),
        _head('<span itemprop="headline">Micro title</span><meta name="dc.title" content="Dc"><title>T</title>'),
        _head("<meta name='other' content='x'>"),
    ],
)
def test_head_titles_after_the_chosen_source_are_all_titles(markup: str) -> None:
    """Read after the source :func:`choose` took the title from, the head's titles are those
    read from every source: the sources before it gave none."""
    page = Page(markup, build(markup))
    fields = choose(page, None, ("title",))
    source = fields.sources.get("title")
    full = titles(page, fields.title if source not in (None, "title-tag") else None)
    assert (titles(page, fields.title, source) if source else titles(page)) == full


def test_fields_read_from_markup_alone_read_no_block() -> None:
    """A call for fields no block gives (the page type's canonical URL) returns the markup's
    values as they are, and the same values as a call that also reads the blocks."""
    markup = _head('<link rel="canonical" href="/a/b">', '<meta property="og:url" content="https://e.org/a/b">')
    doc = build(markup)
    alone = read_document(doc, None, ("canonical_url", "description"))
    assert alone.canonical_url == "https://e.org/a/b" and alone.sources == {"canonical_url": "link"}
    assert read_document(doc, None, ("canonical_url", "title")).canonical_url == alone.canonical_url


def test_a_page_scans_once_and_keeps_what_it_found() -> None:
    markup = _head('<script type="application/ld+json">{"@type": "Article", "headline": "H"}</script>')
    page = Page(markup, build(markup))
    assert "graph" not in vars(page)
    graph = page.graph
    assert page.graph is graph and vars(page)["graph"] is graph
    assert page.article == {"@type": "Article", "headline": "H"}
    assert type(page).graph.__doc__ == type(page).graph.func.__doc__
