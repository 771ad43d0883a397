"""Text only screen readers read stays out of the document model."""

from __future__ import annotations

import random
import time

import pytest

from scrapy_bte import extract
from scrapy_bte.core.document import build
from scrapy_bte.core.hidden import MAX_ELEMENT_CHARS, SCREEN_READER_WORDS, cut, screen_reader_elements, undoubled
from scrapy_bte.core.marks import Marks

_BODY = "The river rose through the night and the town woke to water in every street. " * 6


def _drop(markup: str) -> str:
    marks = Marks(markup)
    return cut(markup, screen_reader_elements(markup, [at for w in SCREEN_READER_WORDS for at in marks.at[w]]))


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ('<p>Shirt <span class="visually-hidden">Regular price</span>$36</p>', "<p>Shirt $36</p>"),
        ("<p>a<span class='x sr-only y'>b</span>c</p>", "<p>ac</p>"),
        ("<h2 class=screen-reader-text>Breadcrumb</h2><p>x</p>", "<p>x</p>"),
        # nested elements of the same name close the right one
        ('<div class="sr-only"><div>a</div><div>b</div></div><p>c</p>', "<p>c</p>"),
        ('<SPAN CLASS="sr-only">a<span>b</span>c</SPAN>d', "d"),
    ],
)
def test_screen_reader_elements_are_dropped(markup: str, expected: str) -> None:
    assert _drop(markup) == expected


@pytest.mark.parametrize(
    "markup",
    [
        "<p>The hedge was visually pleasing and the sr-only option is off.</p>",  # words in text
        '<p class="clipped">Text cut short on screen</p>',  # not a screen-reader class
        '<p data-x="sr-only">a</p>',  # another attribute
        '<span class="sr-only-focusable">Skip</span>',  # a class that only starts like one
        '<span class="sr-only">never closed <p>text</p>',
        '<span class="sr-only"><script>var a = "</span>";</script>',  # would cross a script
        '<div class="visually-hidden">' + "<p>word</p>" * (MAX_ELEMENT_CHARS // 10) + "</div>",  # too long
        '<input class="sr-only" value="a"><p>b</p>',  # void element
        '<i class="" data-x="sr-only">a</i>',  # an empty class attribute before the word
    ],
)
def test_what_is_not_a_screen_reader_element_stays(markup: str) -> None:
    assert _drop(markup) == markup


def test_a_label_written_twice_for_eye_and_ear_reads_once() -> None:
    page = (
        "<html><body><article><h1>Flood in the valley</h1>"
        "<p><span>Seller's other items<span class=\"visually-hidden\">Seller's other items</span></span></p>"
        f"<p>{_BODY}<a href='/next'>Next story<span class='sr-only'>Opens in a new tab</span></a></p>"
        "</article></body></html>"
    )
    text = extract(page).text
    assert "Seller's other items" in text
    assert "itemsSeller" not in text
    assert "Opens in a new tab" not in text
    assert "Next story" in text


def test_a_label_printed_twice_under_a_class_of_its_own_reads_once() -> None:
    # eBay's second copy sits in a class this module does not know ("clipped"): the block reads once
    page = (
        "<html><body><article><h1>Flood in the valley</h1>"
        "<p><span>Seller's other items</span><span class=\"clipped\">Seller's other items</span></p>"
        f"<p>{_BODY}</p><p>________________________</p></article></body></html>"
    )
    found = extract(page, method="bte")
    assert "Seller's other items" in found.paragraphs and "itemsSeller" not in found.text
    assert found.words == len(found.text.split())
    assert undoubled("EUR 20.99EUR 20.99") == "EUR 20.99"
    assert undoubled("--------") == "--------" and undoubled("Yes Yes") == "Yes Yes"
    assert undoubled("AnnAnn") == "AnnAnn" and undoubled("AnnAnn", 2) == "Ann"
    assert undoubled("A sentence. " * 4) == "A sentence. " * 4  # a text repeated, not printed twice


def test_noscript_after_a_dropped_element_is_still_opened_up() -> None:
    # The marks' offsets are the page's as it came: once an element is dropped,
    # the <noscript> search is made again on what is left.
    thread = "".join(f"<div class='post'><p>{_BODY}</p></div>" for _ in range(3))
    page = (
        f"<html><body><h2 class='sr-only'>Main menu</h2><div id='app'></div><noscript>{thread}</noscript></body></html>"
    )
    doc = build(page)
    assert "Main menu" not in " ".join(doc.texts)
    assert _BODY.split(".")[0] in " ".join(doc.texts)


def test_hostile_markup_costs_a_bounded_time() -> None:
    pages = [
        '<span class="sr-only">x ' * 100_000,  # never closed
        '<div class="sr-only">' * 20_000 + "x" + "</div>" * 20_000,  # too deep to close in bounds
        '<i class="sr-only"><script>x</script></i>' * 50_000,  # every one crosses a script
        "visually " * 200_000,  # class words in text
    ]
    for page in pages:
        start = time.process_time()
        assert _drop(page) == page
        assert time.process_time() - start < 2.0


def test_marks_of_the_cut_markup_are_the_marks_moved() -> None:
    # The <noscript> search after a cut reads the page's marks moved back, not a second pass:
    # they must be what a search of the cut markup finds, words across a cut's edge included,
    # save a word the cut itself makes by joining two pieces.
    rng = random.Random(7)
    words = ("<noscript", "<NOSCRIPT", "sr-only")
    alphabet = ["<noscript", "<NOSCRIPT", "sr-only", "<", "no", "script", "x", " "]
    for _ in range(300):
        markup = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40)))
        points = sorted(rng.sample(range(len(markup) + 1), min(len(markup) + 1, 2 * rng.randrange(0, 4)) // 2 * 2))
        spans = [(a, b) for a, b in zip(points[::2], points[1::2]) if a < b]
        shown = cut(markup, spans)
        joins = {a - sum(e - s for s, e in spans if e <= a) for a, _ in spans}
        moved = Marks(markup, words).cut(spans, words).at
        for word, found in Marks(shown, words).at.items():
            made = [at for at in found if any(at < j < at + len(word) for j in joins)]
            assert moved[word] == [at for at in found if at not in made]
