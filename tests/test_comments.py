"""Comment sections: which blocks they hold, and the ``comments`` option."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import COMMENT_SENTENCES, COMMENTED_SENTENCES, FIXTURES

from scrapy_bte import ConfigError, extract
from scrapy_bte.api import parse
from scrapy_bte.methods import comments as _comments

PAGE = (FIXTURES / "comments.html").read_bytes()
BLOCK_METHODS = ("auto", "model", "hybrid", "density")


def _blocks_with(doc, *needles: str) -> list[int]:
    return [b for b, text in enumerate(doc.texts) if any(n in text for n in needles)]


def test_section_holds_the_comments_and_nothing_of_the_article() -> None:
    doc = parse(PAGE)
    inside = _comments.section_mask(doc)
    assert inside.dtype == bool and len(inside) == doc.n_blocks
    for b in _blocks_with(doc, *COMMENT_SENTENCES, "Leave a Reply", "Jonas says"):
        assert inside[b], doc.texts[b]
    for b in _blocks_with(doc, *COMMENTED_SENTENCES, "By Marta Lind", "Most read", "Copyright"):
        assert not inside[b], doc.texts[b]


@pytest.mark.parametrize(
    ("attrs", "is_section"),
    [
        ('id="comments"', True),
        ("class='post-comments wide'", True),
        ("class=commentlist", True),
        ('class="comment-body"', True),
        ('class="replies"', True),
        ('CLASS="Comments"', True),
        ('class="commentary"', False),  # a column, not readers' comments
        ('data-id="comments"', False),  # not the id attribute
        ('title="comments"', False),
        ('class="article"', False),
    ],
)
def test_which_names_make_a_section(attrs: str, is_section: bool) -> None:
    html = f"<html><body><div {attrs}><p>Some words in a paragraph here.</p></div></body></html>"
    doc = parse(html)
    assert _comments.section_mask(doc).tolist() == [is_section]


@pytest.mark.parametrize("method", BLOCK_METHODS)
@pytest.mark.parametrize("value", [None, False, True])
def test_text_is_the_article_without_the_comments(method: str, value: bool | None) -> None:
    result = extract(PAGE, method=method, comments=value)
    for sentence in COMMENTED_SENTENCES:
        assert sentence in result.text
    for sentence in COMMENT_SENTENCES + ("Reply",):
        assert sentence not in result.text


@pytest.mark.parametrize("method", BLOCK_METHODS)
def test_comments_true_fills_the_comments_field_and_leaves_text_alone(method: str) -> None:
    plain = extract(PAGE, method=method)
    asked = extract(PAGE, method=method, comments=True)
    assert plain.comments is None and extract(PAGE, method=method, comments=False).comments is None
    assert asked.text == plain.text and asked.kept_blocks == plain.kept_blocks
    lines = asked.comments.splitlines()
    for sentence in COMMENT_SENTENCES:
        assert any(sentence in line for line in lines)
    assert not any(line in ("Reply", "Jonas says:", "Leave a Reply") or "14 May at" in line for line in lines)
    assert asked.to_dict()["comments"] == asked.comments
    assert type(asked).from_dict(asked.to_dict()) == asked


def test_apply_removes_the_section_and_lists_comment_blocks() -> None:
    doc = parse(PAGE)
    inside = _comments.section_mask(doc)
    everything = np.ones(doc.n_blocks, dtype=bool)
    body, none = _comments.apply(doc, everything, False)
    assert none == [] and not body[inside].any() and body[~inside].all()
    body2, thread = _comments.apply(doc, everything, True)
    assert body2.tolist() == body.tolist()
    assert thread and all(inside[b] for b in thread)


def test_drop_never_empties_a_page_that_is_all_comments() -> None:
    html = (
        "<html><body><div id='comments'><p>"
        + "A reader writes at some length about the article. " * 5
        + "</p></div></body></html>"
    )
    assert "A reader writes" in extract(html, comments=False).text


def test_pages_without_a_section_are_unchanged() -> None:
    html = "<html><body><article><p>" + "Plain article text without any readers. " * 8 + "</p></article></body></html>"
    for value in (True, False):
        assert extract(html, comments=value).kept_blocks == extract(html).kept_blocks
    assert extract(html, comments=True).comments == ""


def test_bad_values_and_bte_are_refused() -> None:
    with pytest.raises(ConfigError, match="comments must be True, False or None"):
        extract(PAGE, comments="yes")
    with pytest.raises(ConfigError, match="block method"):
        extract(PAGE, method="bte", comments=False)
    with pytest.raises(ConfigError, match=r"allowed: .*comments"):
        extract(PAGE, method="hybrid", colour="red")


def _blob(words: str, size: int) -> str:
    """A ``data-*`` value as frameworks serialise props: JSON with markup inside, ``size`` characters."""
    item = "{&quot;html&quot;: &quot;<div id=\\&quot;comments\\&quot; hidden>" + words + "</div>&quot;}, "
    return "[" + item * (size // len(item) + 1) + "]"


@pytest.mark.parametrize("size", [2_000, 600_000])
def test_attributes_inside_a_data_blob_are_not_read(size: int) -> None:
    # A data-* value holding markup (" id=\"comments\"", " hidden") is data, not the element's attributes.
    body = " ".join(COMMENTED_SENTENCES)
    page = (
        "<html><body><main>"
        f"<div class='post-body' data-preloaded='{_blob('Some words of a reply.', size)}'><p>{body}</p></div>"
        "</main></body></html>"
    )
    doc = parse(page)
    raws = doc.skeleton.attr_strings
    assert " class='post-body' data-preloaded=\"\"" in raws  # the blob is gone, the class stays
    assert max(map(len, raws)) < 100
    assert not _comments.section_mask(doc).any()
    assert COMMENTED_SENTENCES[0] in extract(page).text


def _naive_holders(doc: Any, keep: np.ndarray) -> list[int]:
    """Every kept block's words added to each of its ancestors, one walk per block."""
    held: dict[int, float] = {}
    for b in np.flatnonzero(keep).tolist():
        el = int(doc.container[b])
        while el > 0:
            held[el] = held.get(el, 0.0) + float(doc.words[b])
            el = doc.el_parent[el]
    bar = _comments.HOLDER_SHARE * float(doc.words[keep].sum())
    return sorted(el for el, got in held.items() if got >= bar)


def test_holders_sum_each_elements_words_as_a_walk_per_block_would() -> None:
    paragraphs = "".join(
        f"<div class='post'><p>Reply {i} says the boiler needs a new valve.</p></div>" for i in range(40)
    )
    deep = f"<html><body>{'<div>' * 3000}<div class='review-wrap'>{paragraphs}</div>{'</div>' * 3000}</body></html>"
    shallow = (
        f"<html><body><main><div class='review-wrap'>{paragraphs}</div><p>Other text here.</p></main></body></html>"
    )
    rng = np.random.default_rng(7)
    for html in (deep, shallow):
        doc = parse(html)
        for share in (0.1, 0.5, 1.0):
            keep = rng.random(doc.n_blocks) < share
            assert sorted(_comments._holders(doc, keep)) == _naive_holders(doc, keep)
