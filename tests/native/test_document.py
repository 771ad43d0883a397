"""The C passes (``scrapy_bte._native.document``) build exactly the Python reference's document.

Every array, text, name and attribute of the document model is compared
between ``build`` with the C passes and ``build`` under ``native(False)`` on the
torture cases, the language fixtures, the bundled sample, the example site
and random markup soup that aims at the rules both implement: case folding
(including U+0130 and U+212A), Unicode white space, comments, unclosed
scripts, script weights and separators.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED
from scrapy_bte.core import document
from scrapy_bte.core.accel import native
from scrapy_bte.core.document import Document, build
from scrapy_bte.methods import bte
from scrapy_bte.testing import torture as tc

from .cases import MARKUPS, needs_c, soup_st

# CI sets SCRAPY_BTE_REQUIRE_ACCEL: there a missing build fails these tests instead of skipping them.
pytestmark = needs_c("core.document")

ARRAYS = ("words", "chars", "tags", "bytes", "link_words", "seg_words", "seg_link_words", "seg_block")
VALUES = ("texts", "opener", "title_tag", "meta", "total_tags", "source_chars", "segments")
SKELETON = (
    "container",
    "depth",
    "el_name",
    "el_attrs",
    "el_parent",
    "parents",
    "el_tag",
    "el_name_id",
    "name_strings",
    "el_attr_id",
    "attr_strings",
)


def assert_same(fast: Document, ref: Document) -> None:
    for name in VALUES:
        assert getattr(fast, name) == getattr(ref, name), name
    for name in ARRAYS:
        a, b = getattr(fast, name), getattr(ref, name)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
    if ref.n_blocks:
        for name in SKELETON:
            a, b = getattr(fast.skeleton, name), getattr(ref.skeleton, name)
            assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b, name


def check(markup: str) -> None:
    with native(False):  # the reference document, its skeleton (built lazily) and its token runs
        ref = build(markup)
        _ = ref.skeleton if ref.n_blocks else None
        ref_runs = {weight: bte.token_runs(ref, weight) for weight in WEIGHTS}
    with native():
        fast = build(markup)
        assert_same(fast, ref)
        # BTE's token runs (scrapy_bte._native.bte) and the span searched over them.
        for weight in WEIGHTS:
            for a, b in zip(bte.token_runs(fast, weight), ref_runs[weight]):
                assert a.dtype == b.dtype and np.array_equal(a, b), weight
            runs = ref_runs[weight][0]
            assert bte.max_span(runs) == bte.max_span_reference(np.ascontiguousarray(runs, dtype=np.float64))
            assert bte.document_span(fast, weight) == bte.document_span_reference(fast, weight), weight


WEIGHTS = (1.0, 0.0, 0.5)


def test_accelerator_is_built() -> None:
    assert ACCELERATED["core.document"] and ACCELERATED["methods.bte"]
    if os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"):
        assert sorted(ACCELERATED) == [
            "core.document",
            "core.entities",
            "core.fingerprint",
            "core.hidden",
            "core.marks",
            "evidence.hints",
            "evidence.labels",
            "learned.auto",
            "learned.features",
            "learned.page_type",
            "methods.bte",
            "methods.density",
            "methods.records",
        ]
        assert all(ACCELERATED.values())


@pytest.mark.parametrize("name,markup", MARKUPS, ids=[n for n, _ in MARKUPS])
def test_same_document_on_cases_and_fixtures(name: str, markup: str) -> None:
    check(markup)


@pytest.mark.parametrize("size", [200_000, 1_000_000])
def test_same_document_on_large_generated_pages(size: int) -> None:
    for markup in (tc.minified(size), tc.many_lt(size), tc.huge_attributes(size), tc.unclosed(size // 50)):
        check(markup)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(soup_st)
def test_same_document_on_markup_soup(markup: str) -> None:
    check(markup)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=300))
def test_same_document_on_random_text(markup: str) -> None:
    check(markup)


EDGES = (
    "<script>x</\u212a>text<p>more</p>",  # KELVIN SIGN folds to "k": an end tag ends the unclosed script
    "<p>_</p><p>|</p><p> \u00bb </p><p>\u3000</p>",  # "_" is a word character, the rest separators
    "<d\u0130v>x</div><scr\u0130pt>y</script>z",  # U+0130 folds to "i" for step 0 only
    "<p>\u65e5\u672c\u8a9e \u0e44\u0e17\u0e22 words\x1cmore\x85end</p>",
    "<!---->a<!-->b<!--->c<!-- x --!>d<!-- never closed",
    "<title>one</title><title>two</title><p>t</p>",
    "<style>unclosed <div>kept</div>",
    "<iframe>unclosed <p>kept</p>",
    "<a href=x>link<div>block</div>after<a>stray",
    "<table><tr><td>a<td>b<th>c<tr><td>d</table><frame><div>e</section></div>",  # implied ends, void, stray end
    "<div>" * 60 + "deep" + "</span>" + "</div>" * 3 + "<nav>after</nav>",  # an end tag beyond the search depth
    '<a href="x>y">t</a><img alt="a > b"><a x="1>2" <b>c</b><a href="x"">d<p t="open>e',  # quoted "<" and ">"
    "<p title = 'it''s'>f<p data-x=\"{'a': '<i>'}\">g<svg path=\"M0>1\"><p>h",
    "]]>\u1781\u17d2\u1798\u17c2\u179a<b><a<b>\u1781\u17d2\u1798\u17c2\u179a",  # fractions merged across <b>: order of sums
    # Wide text is searched a word of code units at a time: "<", "&", quotes and "&nbsp;" at every offset.
    "".join(f'\u0100{"x" * k}<p a="{"y" * k}">&nbsp;{k}&amp<!--{k}--></p><script>{k}</script>' for k in range(9)),
    "".join(f"\U0001f35e{'x' * k}<p a='{'y' * k}'>{k}&nbsp;</p><style>{k}</style>" for k in range(9)) + "&nbsp",
    # Pieces parted at an element boundary, in each storage width: alone, nested, spaced, at a block.
    "<span>899 EUR</span><span>17 x</span><b>T</b>he<i>Wel</i></a><a><img>Come</a><span> abc</span><span>DEF </span>"
    "<span> Same 1</span><span>Same 1 </span><span>Same 1</span><span>Same 12</span>",
    "\u0100<span>abc</span><span>Def</span><p>ghi</p><span>Jkl</span></b> <b>mno</b><b>Pqr</b><span>\u00e9t\u00e9</span><b>St",
    "\U0001f35e<span>abc</span><i></i><span>9de</span></span></span><span><span>fgh\u3000</span><span>\u3000ijk</span>",
)


@pytest.mark.parametrize("markup", EDGES)
def test_same_document_on_edges(markup: str) -> None:
    check(markup)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(["\x00", " ", "\u3000", "\x85", "a", "\u0100", "\U00010000", "\n"]), max_size=40),
    st.data(),
)
def test_split_blocks_keeps_the_listed_pieces(text: str, data: st.DataObject) -> None:
    """Listed pieces come out with white space collapsed; the rest, and everything after them, are skipped."""
    pieces = text.split("\x00")
    keep = sorted(data.draw(st.sets(st.integers(0, len(pieces) - 1))))
    found = document._SCAN.module.split_blocks(text, np.array(keep, dtype=np.int64))
    assert found == [" ".join(pieces[i].split()) for i in keep]


@pytest.mark.parametrize("keep", [[3], [1, 1], [2, 0]])
def test_split_blocks_refuses_indices_out_of_order_or_past_the_end(keep: list[int]) -> None:
    with pytest.raises(ValueError, match="out of order or past the last piece"):
        document._SCAN.module.split_blocks("a\x00b\x00c", np.array(keep, dtype=np.int64))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["&nbsp;", "&", "nbsp;", "&nbsp", "&nb", ";", "a", "\u0100", "\U0001f35e"]), max_size=30)
)
def test_step0_replaces_nbsp_as_str_replace(pieces: list[str]) -> None:
    markup = "".join(pieces)
    assert document.step0(markup) == document.step0_reference(markup)


def test_step0_title_and_removal_agree() -> None:
    markup = "<TITLE>A &amp; B</title><p>x<script>var a</script>y</p><!-- c --><style>s"
    assert document.step0(markup) == document.step0_reference(markup)
    assert document.step0(markup)[1] == "A & B"


_STEP0_PIECES = [
    '<span class="sr-only">',
    "</span>",
    "<script>",
    "</script>",
    "<!--",
    "-->",
    "<title>",
    "</title>",
    "<button>",
    "</button>",
    "<p>",
    "x ",
    "&nbsp;",
    "\u0100",
    "\U0001f35e",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_STEP0_PIECES), min_size=1, max_size=30), st.data())
def test_step0_leaves_out_spans_as_the_reference(pieces: list[str], data: st.DataObject) -> None:
    # Spans start at a "<" and end anywhere after; one that starts inside something dropped
    # (a comment, a script, another span) goes with it, in both implementations.
    markup = "".join(pieces)
    starts = sorted(data.draw(st.sets(st.sampled_from([i for i, c in enumerate(markup) if c == "<"] or [0]))))
    spans, last = [], 0
    for start in starts:
        if start >= last and markup.startswith("<", start):
            last = data.draw(st.integers(start + 1, len(markup)))
            spans.append((start, last))
    assert document.step0(markup, spans) == document.step0_reference(markup, spans)


@pytest.mark.parametrize(
    ("spans", "error"),
    [
        ([(5, 3)], ValueError),
        ([(0, 4), (2, 6)], ValueError),
        ([(0, 99)], ValueError),
        ([(1,)], TypeError),
        (3, TypeError),
    ],
)
def test_step0_refuses_spans_out_of_order_or_bounds(spans: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        document._SCAN.module.step0("<p>abc</p>", spans)
