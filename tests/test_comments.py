"""Comment sections: which blocks they hold, and the ``comments`` option."""

from __future__ import annotations

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
def test_drop_removes_the_comments_and_keeps_the_article(method: str) -> None:
    result = extract(PAGE, method=method, comments=False)
    for sentence in COMMENTED_SENTENCES:
        assert sentence in result.text
    for sentence in COMMENT_SENTENCES + ("Reply",):
        assert sentence not in result.text


@pytest.mark.parametrize("method", BLOCK_METHODS)
def test_keep_adds_and_drop_removes_relative_to_the_method(method: str) -> None:
    plain = set(extract(PAGE, method=method).kept_blocks)
    kept = set(extract(PAGE, method=method, comments=True).kept_blocks)
    dropped = set(extract(PAGE, method=method, comments=False).kept_blocks)
    assert dropped <= plain <= kept
    inside = _comments.section_mask(parse(PAGE))
    assert not any(inside[b] for b in dropped)
    assert all(inside[b] for b in kept - plain)


def test_keep_adds_comment_text_but_not_bylines_or_reply_links() -> None:
    doc = parse(PAGE)
    article = np.zeros(doc.n_blocks, dtype=bool)
    article[_blocks_with(doc, *COMMENTED_SENTENCES)] = True
    kept = _comments.apply(doc, article, True)
    texts = [doc.texts[b] for b in np.flatnonzero(kept)]
    for sentence in COMMENT_SENTENCES:
        assert any(sentence in t for t in texts)
    assert not any(t in ("Reply", "Jonas says:", "Leave a Reply") or "14 May at" in t for t in texts)
    assert _comments.apply(doc, article, None) is article


def _substantial(doc) -> np.ndarray:
    words = doc.words
    return _comments.section_mask(doc) & (words >= _comments.MIN_WORDS) & (doc.link_words <= _comments.MAX_LINK * words)


def test_by_default_a_thread_the_method_started_is_kept_whole() -> None:
    doc = parse(PAGE)
    substantial = _substantial(doc)
    assert substantial.sum() == len(COMMENT_SENTENCES)
    article = np.zeros(doc.n_blocks, dtype=bool)
    article[_blocks_with(doc, *COMMENTED_SENTENCES)] = True
    one_comment = article.copy()
    one_comment[_blocks_with(doc, COMMENT_SENTENCES[0])] = True
    completed = _comments.apply(doc, one_comment, None)
    assert completed[substantial].all()
    assert (completed & ~substantial).tolist() == (one_comment & ~substantial).tolist()  # nothing else added
    assert _comments.apply(doc, one_comment, None).tolist() == _comments.apply(doc, one_comment, True).tolist()


def test_by_default_short_section_blocks_do_not_start_a_thread() -> None:
    doc = parse(PAGE)
    keep = np.zeros(doc.n_blocks, dtype=bool)
    keep[_blocks_with(doc, *COMMENTED_SENTENCES, "Leave a Reply", "Jonas says")] = True
    assert _comments.apply(doc, keep, None) is keep


@pytest.mark.parametrize("method", BLOCK_METHODS)
def test_by_default_every_method_keeps_all_or_none_of_the_comments(method: str) -> None:
    doc = parse(PAGE)
    substantial = _substantial(doc)
    kept = np.zeros(doc.n_blocks, dtype=bool)
    kept[extract(PAGE, method=method).kept_blocks] = True
    assert kept[substantial].sum() in (0, substantial.sum())


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


def test_bad_values_and_bte_are_refused() -> None:
    with pytest.raises(ConfigError, match="comments must be True, False or None"):
        extract(PAGE, comments="yes")
    with pytest.raises(ConfigError, match="block method"):
        extract(PAGE, method="bte", comments=False)
    with pytest.raises(ConfigError, match=r"allowed: .*comments"):
        extract(PAGE, method="hybrid", colour="red")
