"""The page-type evidence's tag counts and block and element sums (``scrapy_bte._native.page_type``):
C against the Python reference, bit for bit, on the shared pages, random markup soup, generated
card grids and lists, and pages the C pass declines."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte.core.accel import native
from scrapy_bte.core.document import build
from scrapy_bte.evidence import hints
from scrapy_bte.learned import page_type
from scrapy_bte.testing import torture as tc

from .cases import MARKUPS, needs_c, soup_st

pytestmark = needs_c("learned.page_type")

URLS = (None, "https://shop.example.com/product/blue-shoe-42.html?ref=1")


def check(markup: str) -> bool:
    """Same evidence with the C passes and with every reference; returns whether the C sums ran."""
    doc = build(markup)
    for url in URLS:
        fast = page_type.page_evidence(doc, url)
        with native(False):
            ref = page_type.page_evidence(doc, url)
        assert fast.dtype == ref.dtype == np.float32
        differ = [page_type.EVIDENCE_NAMES[i] for i in np.flatnonzero(fast.view(np.uint32) != ref.view(np.uint32))]
        assert not differ, f"the C pass and the reference differ in {differ}"
    counts = page_type.tag_counts(doc)
    assert list(counts) == page_type.tag_counts_reference(doc)
    if doc.n_blocks == 0:
        return False
    elements = hints.element_bits(doc) & hints.MODEL_BITS
    path, own = hints.block_hints(doc)
    want = page_type.block_evidence_reference(doc, elements, path, own)
    got = page_type.block_evidence(doc)
    assert got.dtype == np.float64 and np.array_equal(got.view(np.uint64), want.view(np.uint64))
    return _c_sums(doc) is not None


def _c_sums(doc) -> bytearray | None:
    """The C pass's own answer (None: declined), called as :func:`page_type.block_evidence` calls it."""
    c = page_type._PAGE_TYPE.use()
    assert c is not None
    sk = doc.skeleton
    names = sk.name_strings
    return c.block_evidence(
        np.asarray(doc.words, dtype=np.float64),
        np.asarray(doc.link_words, dtype=np.float64),
        np.asarray(doc.container, dtype=np.int64),
        doc.opener,
        page_type._OPENER_CODES,
        sk.parents,
        sk.el_name_id,
        np.array([page_type._CONTAINER_BIT.get(name, 0) for name in names], dtype=np.int64),
        hints.element_bits(doc) & hints.MODEL_BITS,
        *hints.block_hints(doc),
        page_type._SIZES,
    )


@pytest.mark.parametrize("name,markup", MARKUPS, ids=[n for n, _ in MARKUPS])
def test_same_evidence_on_cases_and_fixtures(name: str, markup: str) -> None:
    check(markup)


def test_the_c_sums_run_on_most_shared_pages() -> None:
    """Not a parity test of a pass that always declines: most shared pages have whole word counts
    (the example site's pages do not: their language menu says 中文)."""
    ran = [check(markup) for _, markup in MARKUPS]
    assert sum(ran) >= len(ran) // 2


def test_same_evidence_on_large_generated_pages() -> None:
    for markup in (tc.minified(200_000), tc.unclosed(4000), tc.many_lt(200_000), "<p>one</p>"):
        check(markup)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(soup_st)
def test_same_evidence_on_markup_soup(markup: str) -> None:
    check(markup)


# Card grids and lists: siblings of few shapes (runs of three or more, ties between groups of
# equal words), slots opened by headings, list items and terms, containers the evidence counts.
_item = st.tuples(
    st.sampled_from(["div", "li", "article", "section", "h2", "h3", "p", "dt", "dd", "td", "aside", "nav", "span"]),
    st.sampled_from(["", " class='card'", " class='post'", " class='item price'", " class='menu'", " id='c1'"]),
    st.integers(0, 6),
    st.booleans(),
)
_grid_st = st.lists(
    st.tuples(
        st.sampled_from(["div", "ul", "main", "table", "form", "header", "footer", "dl", "section"]),
        st.sampled_from(["", " class='grid'", " class='comments'", " class='products'"]),
        st.lists(_item, max_size=8),
    ),
    min_size=1,
    max_size=6,
)


def _grid(groups: list) -> str:
    out = []
    for outer, outer_attrs, items in groups:
        out.append(f"<{outer}{outer_attrs}>")
        for tag, attrs, n_words, linked in items:
            text = " ".join(f"w{k}" for k in range(n_words))
            if linked:
                text = f"<a href='/x'>{text}</a>"
            out.append(f"<{tag}{attrs}>{text}</{tag}>")
        out.append(f"</{outer}>")
    return "<html><head><title>Shop</title></head><body>" + "".join(out) + "</body></html>"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_grid_st)
def test_same_evidence_on_card_grids(groups: list) -> None:
    check(_grid(groups))


EDGES = (
    "<p>one</p>",
    "words without any tag",
    "<div><p>one two</p></div><div><p>three four</p></div><div><p>five six</p></div>",
    # Two runs of equal words: the first in the reference's key order wins.
    "<ul>" + "<li class='a'>x y</li>" * 3 + "</ul><ol>" + "<li class='a'>x y</li>" * 3 + "</ol>",
    "<section>" + "<h3>Title</h3><p>one two three</p>" * 4 + "</section>",
    "<dl>" + "<dt>term</dt><dd>its meaning here</dd>" * 5 + "</dl>",
    "<div>" * 40 + "deep text" + "</div>" * 40 + "<p>shallow text</p>",
    "<nav>" + "<a href=x>link</a> " * 30 + "</nav>",
)


@pytest.mark.parametrize("markup", EDGES)
def test_same_evidence_on_edges(markup: str) -> None:
    assert check(markup)


def test_fractional_words_take_the_reference() -> None:
    """Scripts without spaces count fractions of words: the C pass declines, the evidence is the same."""
    markup = (
        "<html><body><div class='post'><p>新电脑已可利用记忆自学，人工智能迈上新台阶。</p></div>"
        + "<li>一二三</li>" * 4
    )
    doc = build(markup + "</body></html>")
    assert np.any(doc.words != np.floor(doc.words))
    assert _c_sums(doc) is None
    assert not check(markup)


def test_the_c_pass_checks_its_arrays_and_ids() -> None:
    """Wrong dtypes and lengths, ids outside the page: an error, never a read past an array."""
    c = page_type._PAGE_TYPE.use()
    assert c is not None
    doc = build("<html><body><div class='card'><p>one two</p></div><ul><li>three</li></ul></body></html>")
    sk = doc.skeleton
    names = np.array([page_type._CONTAINER_BIT.get(name, 0) for name in sk.name_strings], dtype=np.int64)
    elements = hints.element_bits(doc) & hints.MODEL_BITS
    path, own = hints.block_hints(doc)
    args = [doc.words, doc.link_words, doc.container, doc.opener, page_type._OPENER_CODES, sk.parents]
    args += [sk.el_name_id, names, elements, path, own, page_type._SIZES]
    assert c.block_evidence(*args) is not None

    def call(at: int, value: object) -> None:
        c.block_evidence(*args[:at], value, *args[at + 1 :])

    with pytest.raises(TypeError, match="words must be a contiguous float64 array"):
        call(0, doc.words.astype(np.float32))
    with pytest.raises(ValueError, match="link_words has"):
        call(1, np.zeros(len(doc.words) + 1))
    with pytest.raises(ValueError, match="container ids must be elements"):
        call(2, np.full(len(doc.words), len(sk.parents), dtype=np.int64))
    with pytest.raises(ValueError, match="opener has"):
        call(3, doc.opener[:-1])
    with pytest.raises(ValueError, match="opener codes out of range"):
        call(4, dict.fromkeys(doc.opener, 255))
    with pytest.raises(ValueError, match="element names and bits out of range"):
        call(6, np.full(len(sk.parents), len(names), dtype=np.int64))
    with pytest.raises(ValueError, match="sizes out of range"):
        call(11, (0, *page_type._SIZES[1:]))
    # Parents after their children: declined (the reference reads them), not misread.
    assert c.block_evidence(*args[:5], np.zeros(len(sk.parents), dtype=np.int64) - 1, *args[6:]) is None
    with pytest.raises(ValueError, match="index columns"):
        c.count_tags(doc.tag_names, {"div": 5}, 3)
    assert list(np.frombuffer(c.count_tags(["li", "div", "li", "p"], {"li": 0, "p": 1}, 2), np.int64)) == [2, 1]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([f"t{i}" for i in range(400)] + ["li", "div", "p", "h2", ""]), max_size=3000))
def test_c_tag_counts_are_the_counts_of_equal_names(names: list[str]) -> None:
    """The C pass remembers each name object's column by its address: names equal but not the
    same object, hundreds of distinct names sharing its table's slots, names of no column."""
    c = page_type._PAGE_TYPE.use()
    assert c is not None
    copies = [(name + "#")[:-1] if i % 3 else name for i, name in enumerate(names)]
    index = {"li": 0, "p": 1, **{f"t{i}": 2 + i % 5 for i in range(0, 400, 7)}}
    want = [sum(index.get(name, -1) == col for name in names) for col in range(7)]
    assert np.frombuffer(c.count_tags(copies, index, 7), np.int64).tolist() == want
