"""Product and collection pages: the shop furniture ``auto`` leaves out of their text
(a list's filters and sorting, the page's footer), and the parts it keeps."""

from __future__ import annotations

import numpy as np
from conftest import FixedModel

from scrapy_bte.api import parse
from scrapy_bte.learned import auto
from scrapy_bte.learned.profiles import PROFILES
from scrapy_bte.methods import comments
from scrapy_bte.methods.bte import document_span

_ITEMS = [
    ("Merino Trail Sock", "Cushioned wool sock for long days on rough paths and wet ground."),
    ("Alpine Hiking Boot", "Waterproof leather boot with a stiff sole for scree and snow."),
    ("Canvas Day Pack", "Twenty litre pack with a padded back and a pocket for a flask."),
    ("Down Sleeping Bag", "Light bag that packs small and keeps you warm down to freezing."),
]
_FACETS = ["Black (12)", "Blue (7)", "$25 to $50 (31)", "4 & up (18)", "Sort: Best Match"]


def _select(html: str, p: list[float], page_type: str) -> tuple[object, set[str]]:
    doc = parse(html)
    assert doc.n_blocks == len(p), [doc.texts[b] for b in range(doc.n_blocks)]
    keep, _ = auto.select(doc, document_span(doc), FixedModel(p), smooth=True, page_type=page_type)  # type: ignore[arg-type]
    return doc, {doc.texts[b] for b in np.flatnonzero(keep)}


def _collection(wrapper: str) -> str:
    cards = "".join(f"<li class='product-card'><h3>{name}</h3><p>{text}</p></li>" for name, text in _ITEMS)
    facets = "".join(f"<li>{f}</li>" for f in _FACETS[:-1])
    return (
        f"<html><body><div class='{wrapper}'><aside class='filter-sidebar'><ul class='facet-list'>{facets}</ul>"
        f"<div class='sort-by'>{_FACETS[-1]}</div></aside>"
        f"<ul class='product-grid'>{cards}</ul></div></body></html>"
    )


def test_a_collections_filters_facets_and_sorting_leave_its_text() -> None:
    # The model is as sure of the facet values as of the cards: only their elements' names tell.
    doc, kept = _select(_collection("page"), [0.8] * (len(_FACETS) + 2 * len(_ITEMS)), "collection")
    assert kept == {t for item in _ITEMS for t in item}
    named = comments.list_controls_mask(doc)
    assert {doc.texts[b] for b in np.flatnonzero(named)} == set(_FACETS)
    assert PROFILES["collection"].drop_list_controls and not PROFILES["article"].drop_list_controls


def test_a_wrapper_named_for_its_filters_keeps_the_cards_it_holds() -> None:
    """A shop may name the element around its grid for the filters (``page-with-filter``):
    an element holding half the kept words is the content's, not a filter's."""
    _, kept = _select(_collection("page-with-filter"), [0.8] * (len(_FACETS) + 2 * len(_ITEMS)), "collection")
    assert {t for item in _ITEMS for t in item} <= kept
    assert not kept & set(_FACETS)


def test_results_named_for_the_filter_are_no_control() -> None:
    html = "<html><body><div class='filter-results'><p>Alpine Hiking Boot, waterproof leather.</p></div></body></html>"
    assert not comments.list_controls_mask(parse(html)).any()


_GUIDE = [
    "What should I look for in a trail sock?",
    "Look for merino wool, which stays warm when wet and keeps odour away on long days outside.",
    "A cushioned heel and toe help on rough ground, while a thin sock suits a warm summer walk.",
]


def test_a_guide_in_an_element_named_for_filters_is_no_filter() -> None:
    """A shop's buying guide (a question and its answers) inside elements named ``filters`` and
    ``facet-row``: sentences are no filter's labels, so the guide stays with the cards; the facet
    panel named on its own inside the same row still goes."""
    cards = "".join(f"<li class='product-card'><h3>{name}</h3><p>{text}</p></li>" for name, text in _ITEMS)
    facets = "".join(f"<li>{f}</li>" for f in _FACETS[:-1])
    guide = f"<h5>{_GUIDE[0]}</h5>" + "".join(f"<p>{t}</p>" for t in _GUIDE[1:])
    html = (
        f"<html><body><div class='facet-row'><aside class='filter-sidebar'><ul class='facet-list'>{facets}</ul></aside>"
        f"<ul class='product-grid'>{cards}</ul>"
        f"<div class='expandable-section filters'>{guide}</div></div></body></html>"
    )
    _, kept = _select(html, [0.8] * (len(_FACETS) - 1 + 2 * len(_ITEMS) + len(_GUIDE)), "collection")
    assert kept == {t for item in _ITEMS for t in item} | set(_GUIDE)
    assert comments.is_prose(_GUIDE[1]) and not comments.is_prose(_GUIDE[0])
    assert not comments.is_prose(
        "Barbecook (14) Broil King (5) Char-Broil (6) Campingaz (11) Weber (40) and more brands."
    )


_DESCRIPTION = [
    "A lightweight laptop with a fanless design, a bright display and a battery for a full day of work.",
    "The keyboard is backlit and the trackpad is large enough for gestures with two hands.",
]
_LEGAL = [
    "Trade-in values will vary based on the condition, year and configuration of your eligible device.",
    "Pricing includes a discount for education customers and is subject to change without notice.",
    "Battery life varies by use and configuration; see the support site for more information.",
]


def test_the_pages_footer_leaves_a_product_page_whatever_it_holds() -> None:
    # The footer's legal notes hold more words than the description: still no content.
    for footer in ("<footer class='globalfooter'>{}</footer>", "<div role='contentinfo'>{}</div>"):
        notes = footer.format("".join(f"<p>{t}</p>" for t in _LEGAL))
        html = f"<html><body><main>{''.join(f'<p>{t}</p>' for t in _DESCRIPTION)}</main>{notes}</body></html>"
        for page_type in ("product", "collection", "service", "article"):
            _, kept = _select(html, [0.9] * (len(_DESCRIPTION) + len(_LEGAL)), page_type)
            assert kept == set(_DESCRIPTION), (footer, page_type)


def test_a_page_whose_text_is_all_footer_keeps_it() -> None:
    html = f"<html><body><footer>{''.join(f'<p>{t}</p>' for t in _LEGAL)}</footer></body></html>"
    _, kept = _select(html, [0.9] * len(_LEGAL), "product")
    assert kept == set(_LEGAL)


_BANNER = [
    "Free delivery on every order over fifty pounds, and free returns within thirty days of purchase.",
    "Shop our spring collection of waterproof jackets, boots and packs before the season starts.",
]


def test_the_pages_banner_leaves_the_text_and_an_articles_or_sections_header_stays() -> None:
    promo = "".join(f"<p>{t}</p>" for t in _BANNER)
    body = "".join(f"<p>{t}</p>" for t in _DESCRIPTION)
    for banner in ("<header class='site-header'>{}</header>", "<div role='banner'>{}</div>"):
        html = f"<html><body>{banner.format(promo)}<main>{body}</main></body></html>"
        for page_type in ("product", "collection", "service", "article"):
            _, kept = _select(html, [0.9] * (len(_BANNER) + len(_DESCRIPTION)), page_type)
            assert kept == set(_DESCRIPTION), (banner, page_type)
    # A header inside the main element, a section or an article is theirs: its text stays.
    for wrapper in ("main", "section", "article"):
        html = f"<html><body><{wrapper}><header>{promo}</header>{body}</{wrapper}></body></html>"
        doc = parse(html)
        assert not comments.page_header_mask(doc).any(), wrapper
        _, kept = _select(html, [0.9] * (len(_BANNER) + len(_DESCRIPTION)), "service")
        assert kept == set(_BANNER + _DESCRIPTION), wrapper
    # The banner's blocks are all the page holds: they stay (no rule empties a page).
    html = f"<html><body><header>{promo}</header></body></html>"
    _, kept = _select(html, [0.9] * len(_BANNER), "product")
    assert kept == set(_BANNER)


def test_the_pages_banner_is_found_at_any_depth_and_a_sections_header_is_not() -> None:
    deep = 3000
    html = (
        "<html><body>"
        + "<div>" * deep
        + f"<header><p>{_BANNER[0]}</p></header>"
        + "</div>" * deep
        + f"<main><p>{_DESCRIPTION[0]}</p></main></body></html>"
    )
    doc = parse(html)
    assert [doc.texts[b] for b in np.flatnonzero(comments.page_header_mask(doc))] == [_BANNER[0]]
    sectioned = html.replace("<div>" * deep, "<section>" + "<div>" * deep).replace(
        "</div>" * deep, "</div>" * deep + "</section>"
    )
    assert not comments.page_header_mask(parse(sectioned)).any()
