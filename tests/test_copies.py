"""Copies: a body the page holds twice, in two branches of its layout, is kept once."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_bte import extract
from scrapy_bte.api import parse
from scrapy_bte.learned import auto
from scrapy_bte.learned.model import default_model
from scrapy_bte.methods import copies
from scrapy_bte.methods.bte import document_span
from scrapy_bte.methods.reasons import Reason

_PARAGRAPHS = [
    f"Paragraph {topic} of the renovation guide explains how {topic} changes what a kitchen remodel "
    f"costs, which permits a contractor needs for {topic}, and how long the work on it usually takes."
    for topic in ("plumbing", "wiring", "flooring", "cabinets", "lighting", "windows")
]
_BODY = "".join(f"<p>{p}</p>" for p in _PARAGRAPHS)


def _variants(copies_shown: int) -> str:
    """A site builder's page: one copy of the article per screen width, in sibling branches."""
    variant = f"<div class='variant'><div class='frame'><div class='rich-text'>{_BODY}</div></div></div>"
    return (
        "<html><head><title>Kitchen remodel costs</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<main><section><div class='stack'>{variant * copies_shown}</div></section></main>"
        "<footer><a href='/privacy'>Privacy</a></footer></body></html>"
    )


def _quoted_twice() -> str:
    """An article that quotes its list twice inside one body (the second time to print)."""
    listing = "".join(f"<blockquote><p>{p}</p></blockquote>" for p in _PARAGRAPHS)
    intro = "".join(f"<p>{p.replace('Paragraph', 'Note')}</p>" for p in _PARAGRAPHS)
    return (
        "<html><head><title>Our list</title></head><body><article>"
        f"{intro}{listing}<p>Here it is again, to print and put on the fridge.</p>{listing}"
        "</article></body></html>"
    )


def _mask(html: str) -> tuple[object, np.ndarray]:
    doc = parse(html)
    keep = np.array([w >= 10 for w in doc.words], dtype=bool)  # every paragraph kept, as the model does
    return doc, copies.copy_mask(doc, keep)


def test_second_and_third_copy_in_sibling_branches_go() -> None:
    doc, mask = _mask(_variants(3))
    left = [t for t, m in zip(doc.texts, mask) if not m and t in _PARAGRAPHS]
    assert left == _PARAGRAPHS  # the first copy stays, whole
    assert int(mask.sum()) == 2 * len(_PARAGRAPHS)


def test_a_passage_quoted_twice_in_one_body_stays() -> None:
    _, mask = _mask(_quoted_twice())
    assert not mask.any()


def test_a_short_repeat_stays() -> None:
    """Three repeated paragraphs, long as they are, are a repeat, not a copy of the body (``MIN_BLOCKS``)."""
    long = [f"{p} {p.replace('Paragraph', 'In short, paragraph')}" for p in _PARAGRAPHS[:3]]
    short = _variants(2).replace(_BODY, "".join(f"<p>{p}</p>" for p in long))
    _, mask = _mask(short)
    assert not mask.any()


def test_a_copy_that_is_a_small_part_of_the_page_stays() -> None:
    """Terms repeated under each offer of a long page are a small share of its text (``MIN_SHARE``)."""
    other = "".join(f"<p>{p.replace('renovation', f'garden {i}')}</p>" for i, p in enumerate(_PARAGRAPHS * 3))
    page = _variants(2).replace("<div class='stack'>", f"<div class='stack'><div class='intro'>{other}</div>")
    _, mask = _mask(page)
    assert not mask.any()


def test_extract_keeps_the_body_once_and_says_why() -> None:
    html = _variants(2)
    text = extract(html).text
    for p in _PARAGRAPHS:
        assert text.count(p) == 1, p
    doc = parse(html)
    reasons = np.zeros(doc.n_blocks, dtype=np.int64)
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, reasons=reasons)
    second = [b for b, t in enumerate(doc.texts) if t in _PARAGRAPHS][len(_PARAGRAPHS) :]
    assert len(second) == len(_PARAGRAPHS)
    assert not keep[second].any()
    assert (reasons[second] == Reason.REPEATED).all()


def test_a_few_lines_repeated_stay() -> None:
    """Four one-line paragraphs in both variants are too little text to be a copy of a body (``MIN_WORDS``)."""
    lines = [
        f"Opening hours on {day} are from nine in the morning until five at night."
        for day in ("Monday", "Tuesday", "Friday", "Sunday")
    ]
    _, mask = _mask(_variants(2).replace(_BODY, "".join(f"<p>{line}</p>" for line in lines)))
    assert not mask.any()


def _naive_near(doc: object, first: int, copy: int) -> bool:
    """The branch test by walking parents one by one (the readable form of ``_near``)."""
    parents = doc.el_parent  # type: ignore[attr-defined]
    chain = [int(doc.container[first])]  # type: ignore[attr-defined]
    while chain[-1] > 0:
        chain.append(parents[chain[-1]])
    el, steps = int(doc.container[copy]), 0  # type: ignore[attr-defined]
    while el not in chain:
        el, steps = parents[el], steps + 1
    return min(chain.index(el), steps) < copies.MIN_BRANCH


def test_the_branch_test_equals_a_walk_up_the_tree_at_any_depth() -> None:
    """Pointer jumping answers as a walk would, on a page nested thousands of levels deep too."""
    deep = _variants(2).replace("<main>", "<main>" + "<div>" * 3000).replace("</main>", "</div>" * 3000 + "</main>")
    for html in (_variants(3), _quoted_twice(), deep):
        doc = parse(html)
        for first in range(doc.n_blocks):
            for copy in range(doc.n_blocks):
                assert copies._near(doc, first, copy) == _naive_near(doc, first, copy)
    _, mask = _mask(deep)
    assert int(mask.sum()) == len(_PARAGRAPHS)


def _markdown_copy(attributes: str) -> str:
    """An article that also holds its whole text as Markdown in one ``<pre>`` (for machines)."""
    markdown = "# Kitchen remodel costs\n\n" + "\n\n".join(_PARAGRAPHS)
    return (
        "<html><head><title>Kitchen remodel costs</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<main><article>{_BODY}</article><pre{attributes}>{markdown}</pre></main>"
        "<footer><a href='/privacy'>Privacy</a></footer></body></html>"
    )


def test_covered_blocks_are_long_blocks_whose_words_the_rest_holds() -> None:
    doc = parse(_markdown_copy(""))
    keep = np.array([w >= 10 for w in doc.words], dtype=bool)
    pre = [b for b, t in enumerate(doc.texts) if t.startswith("# Kitchen")]
    assert pre and copies.covered_blocks(doc, keep) == pre
    keep[[b for b, t in enumerate(doc.texts) if t == _PARAGRAPHS[0]]] = False
    assert copies.covered_blocks(doc, keep) == []  # five paragraphs of six: 83 % held, under the share


@pytest.mark.parametrize("attributes", [" hidden", ' aria-hidden="true"', ' style="display: none"'])
def test_a_hidden_copy_of_the_body_goes(attributes: str) -> None:
    html = _markdown_copy(attributes)
    text = extract(html).text
    for p in _PARAGRAPHS:
        assert text.count(p) == 1, p
    assert "# Kitchen" not in text
    doc = parse(html)
    reasons = np.zeros(doc.n_blocks, dtype=np.int64)
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, reasons=reasons)
    pre = [b for b, t in enumerate(doc.texts) if t.startswith("# Kitchen")]
    assert not keep[pre].any() and (reasons[pre] == Reason.REPEATED).all()


def test_a_hidden_copy_inside_a_hidden_element_goes_and_a_shown_one_stays() -> None:
    hidden = _markdown_copy("").replace("<pre>", "<div hidden><pre>").replace("</pre>", "</pre></div>")
    assert "# Kitchen" not in extract(hidden).text
    doc = parse(_markdown_copy(""))
    keep = np.array([w >= 10 for w in doc.words], dtype=bool)
    assert auto.hidden_copies(doc, keep) == []  # shown on the page: a summary, a print copy


def test_the_hidden_mark_is_looked_for_a_bounded_way_up() -> None:
    """A page nested thousands deep costs a few steps per long block: the walk stops HIDDEN_LEVELS up."""
    from scrapy_bte.learned.features import HIDDEN_LEVELS

    for depth, found in ((10, True), (HIDDEN_LEVELS + 5, False)):
        opened = "<div hidden>" + "<div>" * depth
        closed = "</div>" * (depth + 1)
        html = _markdown_copy("").replace("<pre>", opened + "<pre>").replace("</pre>", "</pre>" + closed)
        doc = parse(html)
        keep = np.array([w >= 10 for w in doc.words], dtype=bool)
        assert bool(auto.hidden_copies(doc, keep)) is found, depth
