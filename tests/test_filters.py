"""A listing's search controls (checkbox labels, the result count) are not its items."""

from __future__ import annotations

from typing import Any

import numpy as np
from conftest import FixedModel

from scrapy_bte.api import parse
from scrapy_bte.learned import auto
from scrapy_bte.methods.bte import document_span
from scrapy_bte.methods.filters import card_label_mask, filter_mask, tab_label_mask

_CARDS = [
    (
        "Upstream provinces agree to share the river's water in dry summers",
        "After four years of talks, three provinces sign a deal that ties reservoir releases to river flow.",
    ),
    (
        "Wildflower verges doubled bee numbers, three-year study finds",
        "Roadside strips mown only twice a year attracted far more pollinators than those cut every few weeks.",
    ),
    (
        "Sleeper train between two capitals returns after eleven years",
        "The overnight service was cancelled for lack of passengers; its operators bet on travellers tired of airports.",
    ),
]


def _listing(count: str = "Showing 1–3 of 21 stories") -> str:
    boxes = "".join(
        f"<label><input type='checkbox' name='section' value='{s.lower()}'> {s}</label>"
        for s in ("World", "Science", "Business", "Local")
    )
    cards = "".join(
        f"<li class='card'><h2><a href='/a/{i}'>{title}</a></h2><p class='summary'>{summary}</p></li>"
        for i, (title, summary) in enumerate(_CARDS)
    )
    return (
        f"<html><body><form class='search'><fieldset>{boxes}</fieldset></form>"
        f"<section><p class='count'>{count}</p><ul class='cards'>{cards}</ul></section></body></html>"
    )


def test_checkbox_labels_and_the_result_count_are_filters() -> None:
    doc = parse(_listing())
    found = {doc.texts[b] for b in np.flatnonzero(filter_mask(doc))}
    assert found == {"World Science Business Local", "Showing 1–3 of 21 stories"}


def test_result_counts_in_their_usual_forms_and_not_other_numbers() -> None:
    for count in ("1–30 of 338 products", "514 results", "Displaying 25 of 1,024 items", "Results: 1 - 10 of 87"):
        doc = parse(_listing(count))
        assert count in {doc.texts[b] for b in np.flatnonzero(filter_mask(doc))}, count
    for line in ("Top 10 of 2024", "3 of the best walks in the hills this spring"):
        doc = parse(f"<html><body><p>{line}</p></body></html>")
        assert not filter_mask(doc).any(), line


def test_a_listing_keeps_its_cards_without_its_filters() -> None:
    doc = parse(_listing())
    model: Any = FixedModel([0.8] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="listing")
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert {t for card in _CARDS for t in card} <= kept
    assert "World Science Business Local" not in kept and "Showing 1–3 of 21 stories" not in kept
    # The article profile leaves them to the model.
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="article")
    assert "Showing 1–3 of 21 stories" in {doc.texts[b] for b in np.flatnonzero(keep)}


def test_a_dropdowns_label_is_a_filter_and_a_long_label_is_not() -> None:
    # Step 0 drops the <select>: its label is left alone in its block ("Sort by").
    html = (
        "<html><body><div class='bar'><label class='order'>Sort by <select name='s'><option>Newest</option>"
        "</select></label></div><p><label for='q'>Size</label> <input id='q' type='number'></p>"
        "<p><label>I agree that the newsletter may write to me about events in my town each month</label></p>"
        "</body></html>"
    )
    doc = parse(html)
    assert {doc.texts[b] for b in np.flatnonzero(filter_mask(doc))} == {"Sort by", "Size"}


def test_a_listings_breadcrumb_trail_goes_and_a_page_wrapper_named_for_it_stays() -> None:
    cards = "".join(
        f"<li class='card'><h2><a href='/a/{i}'>{title}</a></h2><p class='summary'>{summary}</p></li>"
        for i, (title, summary) in enumerate(_CARDS)
    )
    trail = "<nav class='breadcrumb'><ol><li><a href='/'>Home</a></li><li><a href='/topics/'>Topics</a></li></ol></nav>"
    for page_type in ("listing", "article"):
        doc = parse(f"<html><body>{trail}<ul class='cards'>{cards}</ul></body></html>")
        model: Any = FixedModel([0.8] * doc.n_blocks)
        keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type=page_type)
        kept = {doc.texts[b] for b in np.flatnonzero(keep)}
        assert {summary for _, summary in _CARDS} <= kept, page_type
        assert not kept & {"Home", "Topics"}, page_type
    # A layout named for the trail that holds the page's text is no trail.
    doc = parse(f"<html><body><div class='with-breadcrumbs'><ul class='cards'>{cards}</ul></div></body></html>")
    model = FixedModel([0.8] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="listing")
    assert {t for card in _CARDS for t in card} <= {doc.texts[b] for b in np.flatnonzero(keep)}


def test_a_cards_rating_review_count_and_badges_go_on_shop_and_list_pages_a_reviews_score_stays() -> None:
    ratings = ["(12) 12 reviews", "Rated 4.8 out of 5 stars", "1,204 Ratings"]
    badges = ["Best seller", "Shop now ›", "Neu"]
    cards = "".join(
        f"<li class='card'><span class='badge'>{badge}</span><h3><a href='/p/{i}'>{title}</a></h3><p>{summary}</p>"
        f"<span class='stars'>{rating}</span></li>"
        for i, ((title, summary), rating, badge) in enumerate(zip(_CARDS, ratings, badges))
    )
    html = f"<html><body><ul class='grid'>{cards}</ul><p>Our verdict: 8.5/10</p></body></html>"
    doc = parse(html)
    masked = {doc.texts[b] for b in np.flatnonzero(card_label_mask(doc))}
    ratings += badges
    assert masked == set(ratings)  # a review's score ("8.5/10") is no card's rating
    # A badge is the whole block: a title that starts with one of its words is the item's.
    assert not card_label_mask(parse("<html><body><h3>New bridge opens to cyclists</h3></body></html>")).any()
    for page_type, dropped in (("collection", True), ("listing", True), ("product", True), ("article", False)):
        model: Any = FixedModel([0.8] * doc.n_blocks)
        keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type=page_type)
        kept = {doc.texts[b] for b in np.flatnonzero(keep)}
        assert {summary for _, summary in _CARDS} <= kept, page_type
        assert (not kept & set(ratings)) is dropped, (page_type, kept & set(ratings))


def test_with_keep_the_masks_answer_for_the_kept_blocks_as_without() -> None:
    doc = parse(_listing() + "<ul>" + "".join(f"<li>{n} reviews</li><li>Sold out</li>" for n in range(5)) + "</ul>")
    rng = np.random.default_rng(7)
    for _ in range(20):
        keep = rng.random(doc.n_blocks) < 0.5
        for mask in (filter_mask, card_label_mask):
            assert np.array_equal(mask(doc, keep)[keep], mask(doc)[keep]), mask.__name__
        assert not card_label_mask(doc, keep)[~keep].any()
    assert card_label_mask(doc).sum() == 10 and filter_mask(doc).any()


def _product_tabs(strip: str) -> str:
    """A product page: a tab strip over the panels, each panel headed by its own name."""
    panels = "".join(
        f"<section id='{name.lower()}' role='tabpanel'><h2>{name}</h2><p>{text}</p></section>"
        for name, text in (
            ("Description", "A hand-thrown stoneware mug with a speckled glaze that keeps tea hot for longer."),
            ("Details", "Holds 350 ml, safe in the dishwasher and the microwave, made in a small pottery in Wales."),
        )
    )
    return f"<html><body><main><h1>Speckled mug</h1>{strip}{panels}</main></body></html>"


def test_a_product_pages_tab_labels_go_and_its_panels_headings_stay() -> None:
    strip = (
        "<ul class='tabs' role='tablist'><li role='tab'><a href='#description'>Description</a></li>"
        "<li role='tab'><a href='#details'>Details</a></li><li role='tab'><a href='#reviews'>Reviews (38)</a></li></ul>"
    )
    doc = parse(_product_tabs(strip))
    everything = np.ones(doc.n_blocks, dtype=bool)
    labels = np.flatnonzero(tab_label_mask(doc, everything)).tolist()
    assert [doc.texts[b] for b in labels] == ["Description", "Details", "Reviews (38)"]
    assert all(doc.opener[b] != "h2" for b in labels)  # the panels' headings are not the strip's
    assert not tab_label_mask(doc, ~everything).any()  # kept blocks only
    for page_type, dropped in (("product", True), ("documentation", False), ("article", False)):
        model: Any = FixedModel([0.8] * doc.n_blocks)
        keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type=page_type)
        kept = [doc.texts[b] for b in np.flatnonzero(keep)]
        assert ("Reviews (38)" not in kept) is dropped, (page_type, kept)
        assert kept.count("Details") >= 1 and any(t.startswith("Holds 350 ml") for t in kept), page_type


def test_tab_labels_need_the_tab_role_near_them() -> None:
    plain = (
        "<ul class='tabs'><li><a href='#description'>Description</a></li><li><a href='#details'>Details</a></li></ul>"
    )
    doc = parse(_product_tabs(plain))
    assert not tab_label_mask(doc, np.ones(doc.n_blocks, dtype=bool)).any()  # a list of links, no tabs
    far = "<div role='tablist'><div><div><div><div><span>Description</span></div></div></div></div></div>"
    doc = parse(_product_tabs(far))
    assert not tab_label_mask(doc, np.ones(doc.n_blocks, dtype=bool)).any()  # the role four elements up
    long = "<div role='tablist'><button role='tab'>Everything you need to know before you buy this mug</button></div>"
    doc = parse(_product_tabs(long))
    assert not tab_label_mask(doc, np.ones(doc.n_blocks, dtype=bool)).any()  # no label is ten words


def test_path_attributes_are_the_blocks_tag_then_its_elements_up_to_the_root() -> None:
    doc = parse(
        "<html><body class='b'><main id='m'><div class='card'><p class='x'>Some words here</p></div></main></body></html>"
    )
    (b,) = [i for i, t in enumerate(doc.texts) if t == "Some words here"]
    path = doc.path_attributes(b)
    assert path[0].strip() == "class='x'"
    assert [raw.strip() for raw in path[1:]][:3] == ["class='card'", "id='m'", "class='b'"]
    assert doc.path_attributes(b, 1) == path[:2]
