"""Block labels from gold text, a CSS selector and template markers."""

from __future__ import annotations

import pytest

from scrapy_bte.api import parse
from scrapy_bte.errors import ConfigError
from scrapy_bte.training.labels import (
    container_text,
    gold_labels,
    marker_labels,
    page_labels,
    parse_markers,
    selector_labels,
)

PAGE = """<html><body>
<div class="nav"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="post-body">
<h1>River otters are back</h1>
<p>Otters have settled again in the lower valley after decades of absence, surveyors said.</p>
<!-- content start -->
<p>Two holts were found under the roots of old alder trees near the mill.</p>
<p>Volunteers will count tracks every month during the coming winter season.</p>
<!-- content end -->
</div>
<div class="footer">Copyright 2024 Valley News. All rights reserved.</div>
</body></html>"""

GOLD = """River otters are back
Otters have settled again in the lower valley after decades of absence, surveyors said.
Two holts were found under the roots of old alder trees near the mill.
Volunteers will count tracks every month during the coming winter season."""


def _kept(doc, labels) -> list[str]:
    return [t for t, keep in zip(doc.texts, labels) if keep]


def test_gold_labels_mark_blocks_inside_the_gold_text() -> None:
    doc = parse(PAGE)
    kept = _kept(doc, gold_labels(doc, GOLD))
    assert kept[0] == "River otters are back"
    assert len(kept) == 4
    assert not any("Home" in t or "Copyright" in t for t in kept)


def test_short_block_repeated_on_the_page_is_claimed_once() -> None:
    doc = parse("<p>Weather</p><p>Weather</p><p>The weather was fine and warm all day long.</p>")
    labels = gold_labels(doc, "Weather. The weather was fine and warm all day long.")
    assert labels.sum() == 2


def test_short_text_goes_to_the_copy_beside_the_content() -> None:
    # A listing's menu names the items its cards name: the gold holds each name once (its
    # card's), and the menu's copies come first on the page.
    menu = "".join(f"<li><a href='/{n}'>{n}</a></li>" for n in ("Arkansas Stones", "Water Stones"))
    cards = "".join(
        f"<div class='card'><h2>{n}</h2><p>{d}</p></div>"
        for n, d in (
            ("Arkansas Stones", "The stones that built America, in large sizes."),
            ("Water Stones", "Quality water stones made in the USA for every kitchen."),
        )
    )
    doc = parse(f"<html><body><ul class='menu'>{menu}</ul><main>{cards}</main></body></html>")
    gold = "Arkansas Stones\nThe stones that built America, in large sizes.\nWater Stones\n"
    gold += "Quality water stones made in the USA for every kitchen."
    labels = gold_labels(doc, gold)
    names = [b for b, t in enumerate(doc.texts) if t in ("Arkansas Stones", "Water Stones")]
    assert len(names) == 4
    assert [bool(labels[b]) for b in names] == [False, False, True, True]
    assert labels.sum() == 4


def test_selector_labels_use_the_container_text() -> None:
    doc = parse(PAGE)
    assert "Two holts" in container_text(PAGE, "div.post-body")
    kept = _kept(doc, selector_labels(doc, PAGE, "div.post-body"))
    assert len(kept) == 4 and kept[-1].startswith("Volunteers")
    assert not selector_labels(doc, PAGE, "div.missing").any()


def test_invalid_selector_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        container_text(PAGE, "div[")


def test_marker_labels_follow_comments_that_step_zero_strips() -> None:
    doc = parse(PAGE)
    kept = _kept(doc, marker_labels(doc, PAGE))
    assert [t[:9] for t in kept] == ["Two holts", "Volunteer"]


def test_user_markers_and_pages_without_markers() -> None:
    page = PAGE.replace("content start", "BEGIN ARTICLE").replace("content end", "END ARTICLE")
    doc = parse(page)
    assert marker_labels(doc, page) is None
    kept = _kept(doc, marker_labels(doc, page, parse_markers("BEGIN ARTICLE,END ARTICLE")))
    assert len(kept) == 2


def test_marker_inside_a_paragraph_is_aligned_back() -> None:
    page = "<div><p>Menu</p><p>Intro text <!-- content start -->goes on here</p><p>Body text of the story.</p><!-- content end --><p>Footer</p></div>"
    doc = parse(page)
    labels = marker_labels(doc, page)
    assert len(labels) == doc.n_blocks
    assert labels[doc.texts.index("Body text of the story.")]
    assert not labels[doc.texts.index("Footer")]


def test_page_labels_prefer_selector_then_markers_then_gold() -> None:
    doc = parse(PAGE)
    assert page_labels(doc, PAGE, GOLD, use_markers=True).sum() == 2
    assert page_labels(doc, PAGE, GOLD).sum() == 4
    assert page_labels(doc, PAGE, None) is None


@pytest.mark.parametrize("value", ["only-one", "a,b,c", ",end"])
def test_parse_markers_rejects_bad_pairs(value: str) -> None:
    with pytest.raises(ConfigError):
        parse_markers(value)
