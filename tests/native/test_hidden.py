"""The screen-reader element search (``scrapy_bte._native.hidden``) finds what its Python
reference finds: on the torture cases, the language fixtures and the example site, and on
markup soup that aims at its rules (class tokens, nesting, case, the bounds, script and
comment edges, characters of one, two and four bytes)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.core import hidden
from scrapy_bte.core.marks import Marks

from .cases import MARKUPS, needs_c

pytestmark = needs_c("core.hidden")

_PIECES = [
    '<span class="sr-only">',
    "<SPAN CLASS=sr-only>",
    "<div class='x visually-hidden y'>",
    '<h2 class="screen-reader-text">',
    "</h2>",
    "</span>",
    "</SPAN >",
    "</div>",
    "<div>",
    "<span>",
    "<script>",
    "</script>",
    "<stylex>",
    "</style>",
    "<!--",
    "-->",
    '<br class="sr-only">',
    '<p class="sr-only"/>',
    '<i class="" data-x="sr-only">',
    "</i>",
    '<span\u00a0class="sr-only">',  # no ASCII white space: not an attribute
    "<span class=sr-only\x0b>",
    '<b class="sr-only\u00a0x">',  # U+00A0 joins the token: not the class
    '<a class="sr-only-focusable">',
    "</a>",
    "x",
    ">",
    "<",
    " ",
    "\u212a",
    "\u0130",
    "é",
    "中",
    "\U0001f600",
]


def _both(markup: str, max_tag: int, max_element: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    marks = Marks(markup)
    found = sorted(at for word in hidden.SCREEN_READER_WORDS for at in marks.at[word])
    c = hidden._HIDDEN.module.screen_reader_elements(
        markup, found, hidden._CLASSES, hidden.VOID_ELEMENTS, max_tag, max_element
    )
    saved = hidden.MAX_TAG_CHARS, hidden.MAX_ELEMENT_CHARS
    hidden.MAX_TAG_CHARS, hidden.MAX_ELEMENT_CHARS = max_tag, max_element
    try:
        return c, hidden.screen_reader_elements_reference(markup, found)
    finally:
        hidden.MAX_TAG_CHARS, hidden.MAX_ELEMENT_CHARS = saved


@pytest.mark.parametrize(("name", "markup"), MARKUPS)
def test_cases_agree(name: str, markup: str) -> None:
    c, reference = _both(markup, hidden.MAX_TAG_CHARS, hidden.MAX_ELEMENT_CHARS)
    assert c == reference


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=30), st.integers(5, 80), st.integers(5, 120))
def test_soup_agrees(pieces: list[str], max_tag: int, max_element: int) -> None:
    # Small bounds, so elements and tags run past them in short markup.
    c, reference = _both("".join(pieces), max_tag, max_element)
    assert c == reference


def test_found_must_be_increasing_offsets_in_the_markup() -> None:
    search = hidden._HIDDEN.module.screen_reader_elements
    voids = hidden.VOID_ELEMENTS
    with pytest.raises(ValueError, match="increasing offsets"):
        search("<p>ab</p>", [5, 2], hidden._CLASSES, voids, 10, 10)
    with pytest.raises(ValueError, match="increasing offsets"):
        search("<p>ab</p>", [99], hidden._CLASSES, voids, 10, 10)
    with pytest.raises(TypeError, match="classes must be ASCII"):
        search("<p>ab</p>", [], ("sr-only", "vis\u00e9"), voids, 10, 10)
    with pytest.raises(TypeError, match="voids must be ASCII"):
        search("<p>ab</p>", [], hidden._CLASSES, ("br", "\u00e9"), 10, 10)


def test_the_void_elements_are_the_python_module_s() -> None:
    """The C pass reads the void names it is handed (``hidden.VOID_ELEMENTS``), not a list of its own."""
    search = hidden._HIDDEN.module.screen_reader_elements
    markup = '<p>a <SPAN class="sr-only">b</span> c</p>'
    found = [markup.index("sr-only")]
    assert search(markup, found, hidden._CLASSES, hidden.VOID_ELEMENTS, 4000, 10_000) == [(5, 35)]
    assert search(markup, found, hidden._CLASSES, ("br", "span"), 4000, 10_000) == []
    assert "span" not in hidden.VOID_ELEMENTS and {"br", "img", "wbr"} <= set(hidden.VOID_ELEMENTS)
