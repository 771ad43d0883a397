"""Property tests (hypothesis) of the tokeniser, BTE and the density threshold.

Pages are generated as element trees together with an independent reading
of them: the words a reader sees, in order, and Finn's token sequence (+1
per word, -1 per tag; scripts and comments contribute nothing). Checked:

- kept text is drawn from the page's text, in order, for every method;
- ``max_span`` equals the literal O(n^3) ``brute_force`` (score and tie
  rule) on random sequences with ties, all tags, all words, empty input;
- ``document_span`` over the run-length encoded tokens scores exactly the
  token-level optimum of the generated page;
- output is valid Unicode without NUL and extraction is repeatable, for
  random markup soup, random bytes and generated pages;
- ``equal_posterior`` finds t with p N(t; m1, s1) = (1 - p) N(t; m0, s0)
  between the means whenever a root lies there.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte.api import _span_paragraphs, parse
from scrapy_bte.core.document import SEPARATOR_CHARS, STYLE_TAGS, clean_text
from scrapy_bte.core.scripts import weighted_words
from scrapy_bte.errors import ExtractionError
from scrapy_bte.methods import bte, density
from scrapy_bte.testing import torture as tc

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Words that stress the tokeniser without being markup: entities, "<" not
# followed by a letter, scripts with and without spaces, RTL, emoji.
VOCAB = (
    "ship",
    "lamp",
    "keeper",
    "storm",
    "I",
    "x",
    "café",
    "naïve",
    "ß",
    "İstanbul",
    "Ωmega",
    "日本語",
    "ไทย",
    "שלום",
    "مرحبا",
    "🍞",
    "👨‍👩‍👧",
    "&amp;",
    "&lt;",
    "<",
    "a<3",
    "<-",
    "1<2",
    "—",
    "\u200f",
)
SCRIPT_WORD = "jsonlyword"
COMMENT_WORD = "commentonlyword"
TAGS = (
    "div",
    "p",
    "span",
    "a",
    "b",
    "li",
    "ul",
    "table",
    "tr",
    "td",
    "h1",
    "section",
    "article",
    "em",
    "font",
    "pre",
    "i",
    "small",
)
_TAG_NAME = re.compile(r"</?([a-zA-Z0-9]+)")
ATTRS = (
    "",
    ' class="post body"',
    " id=main",
    " href='/x?a=1&amp;b=2'",
    ' data-x="a b c"',
    " hidden",
    ' style="color: red"',
)


@dataclass
class Rendered:
    """A generated page and what a reader sees in it."""

    html: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)  # visible words, entities decoded
    tokens: list[float] = field(default_factory=list)  # +weight per word, -1 per tag but font style tags
    segment: list[str] = field(default_factory=list)  # raw text since the last tag

    def text(self, words: list[str]) -> None:
        self.html.append(" " + " ".join(words) + " ")
        self.words.extend(w.replace("&amp;", "&").replace("&lt;", "<") for w in words)
        self.segment.append(" " + " ".join(words) + " ")

    def tag(self, markup: str) -> None:
        self.end_segment()
        self.html.append(markup)
        if _TAG_NAME.match(markup).group(1).lower() not in STYLE_TAGS:  # font style tags weigh nothing
            self.tokens.append(-1.0)

    def end_segment(self) -> None:
        """Words of the text between two tags; a short one without a letter or
        digit is a separator and counts none (the document model's rule)."""
        raw = "".join(self.segment)
        self.segment.clear()
        if len(raw) <= SEPARATOR_CHARS and not re.search(r"\w", raw):
            return
        self.tokens.extend(weighted_words(w) for w in raw.split())


words_st = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=10)
leaf_st = st.one_of(
    st.tuples(st.just("text"), words_st),
    st.tuples(st.just("br"), st.sampled_from(("<br>", "<br/>", "<hr />"))),
    st.tuples(st.just("script"), st.integers(1, 5)),
    st.tuples(st.just("comment"), st.integers(1, 5)),
)
tree_st = st.recursive(
    leaf_st,
    lambda kids: st.tuples(
        st.just("el"), st.sampled_from(TAGS), st.sampled_from(ATTRS), st.lists(kids, max_size=5), st.booleans()
    ),
    max_leaves=40,
)
page_st = st.lists(tree_st, max_size=6)


def render(nodes: list, out: Rendered | None = None) -> Rendered:
    top = out is None
    out = Rendered() if out is None else out
    for node in nodes:
        kind = node[0]
        if kind == "text":
            out.text(node[1])
        elif kind == "br":
            out.tag(node[1])
        elif kind == "script":  # dropped whole by step 0: neither words nor tags
            out.html.append("<script>var a = '" + " ".join([SCRIPT_WORD] * node[1]) + "';</script>")
        elif kind == "comment":
            out.html.append("<!-- " + " ".join([COMMENT_WORD] * node[1]) + " -->")
        else:
            _, name, attrs, children, close = node
            out.tag(f"<{name}{attrs}>")
            render(children, out)
            if close:
                out.tag(f"</{name}>")
    if top:
        out.end_segment()
    return out


def assert_drawn_in_order(paragraphs: list[str], words: list[str]) -> None:
    """Each paragraph is a run of the page's words, and the runs come in page order."""
    reading = " " + " ".join(" ".join(words).split()) + " "
    pos = 0
    for paragraph in paragraphs:
        assert SCRIPT_WORD not in paragraph and COMMENT_WORD not in paragraph
        found = reading.find(" " + paragraph + " ", pos)
        assert found >= 0, f"{paragraph!r} not in page text after {pos}: {reading!r}"
        pos = found + len(paragraph) + 1


@QUICK
@given(page_st, st.sampled_from(tc.METHODS))
def test_kept_text_is_page_text_in_order(nodes: list, method: str) -> None:
    rendered = render(nodes)
    html = "".join(rendered.html)
    result = tc.run(html, method)
    assert result is not None
    assert_drawn_in_order(result.paragraphs, rendered.words)
    again = tc.run(html, method)
    assert again is not None and again.to_dict() == result.to_dict()


@settings(max_examples=200, deadline=None)
@given(page_st)
def test_document_span_equals_token_level_optimum(nodes: list) -> None:
    rendered = render(nodes)
    doc = parse("".join(rendered.html))
    assert_drawn_in_order(doc.texts, rendered.words)  # every block, not only the kept ones
    span = bte.document_span(doc)
    if not any(t > 0 for t in rendered.tokens):
        assert span is None
        return
    assert span is not None
    best = bte.max_span(np.array(rendered.tokens))[0]
    assert math.isclose(span.score, best, rel_tol=1e-9, abs_tol=1e-9)
    if len(rendered.tokens) <= 24:
        assert math.isclose(bte.brute_force(rendered.tokens)[0], best, rel_tol=1e-9, abs_tol=1e-9)


# Word weights of the scripts with and without spaces, and Finn's tags.
token_st = st.lists(st.sampled_from((1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 0.3, 0.6, 1.2)), max_size=14)


@settings(max_examples=1000, deadline=None)
@given(token_st.filter(lambda v: any(x > 0 for x in v)))
def test_run_length_encoding_keeps_the_optimum(values: list[float]) -> None:
    runs: list[float] = []
    for v in values:
        if runs and (runs[-1] > 0) == (v > 0):
            runs[-1] += v
        else:
            runs.append(v)
    assert math.isclose(bte.max_span(np.array(runs))[0], bte.max_span(np.array(values))[0], abs_tol=1e-9)


SOUP = (
    "<p>",
    "</p>",
    "<div class='a'>",
    "</div>",
    "<a href=x>",
    "</a>",
    "<br>",
    "<script>",
    "</script>",
    "<style>",
    "<!--",
    "-->",
    "--!>",
    "<!-->",
    "<![CDATA[",
    "]]>",
    "<title>",
    "</title>",
    "<table><tr><td>",
    "<",
    ">",
    "&amp;",
    "&#0;",
    "&#xD800;",
    "&nbsp;",
    "\x00",
    "\ud800",
    "\udfff",
    "\u0130",
    "<meta charset=utf-16>",
    "<svg:svg>",
    "<o:p>",
    " ",
    "\n",
    "word",
    "مرحبا",
    "日本語",
    "🍞",
)
soup_st = st.lists(st.one_of(st.sampled_from(SOUP), st.text(max_size=12)), max_size=60).map("".join)


@QUICK
@given(soup_st, st.sampled_from(tc.METHODS))
def test_markup_soup_str_and_bytes(markup: str, method: str) -> None:
    for data in (markup, markup.encode("utf-8", "surrogatepass")):
        first = tc.run(data, method)
        second = tc.run(data, method)
        assert (first is None) == (second is None)
        if first is not None and second is not None:
            assert first.to_dict() == second.to_dict()


def _span_paragraphs_oracle(doc: Any, span: bte.Span) -> tuple[list[str], list[int]]:
    """BTE's span read segment by segment: each block's segments in the span joined and cleaned."""
    segs = doc.segment_texts(span.first_segment, span.last_segment)
    owners = doc.seg_block[span.first_segment : span.last_segment + 1].tolist()
    paragraphs: list[str] = []
    blocks: list[int] = []
    for owner, group in groupby(zip(owners, segs), key=lambda pair: pair[0]):
        text = clean_text("".join(seg for _, seg in group)) if owner >= 0 else ""
        if text:
            paragraphs.append(text)
            blocks.append(owner)
    return paragraphs, blocks


@QUICK
@given(st.one_of(page_st.map(lambda nodes: "".join(render(nodes).html)), soup_st), st.data())
def test_span_paragraphs_are_the_span_read_segment_by_segment(html: str, data: st.DataObject) -> None:
    # The blocks a span holds whole are read from the model's texts, the edge blocks from their
    # segments: the same words as joining every segment in the span anew, for BTE's span and for
    # spans that start and end anywhere, inside blocks, between them or in the same block.
    try:
        doc = parse(html)
    except ExtractionError:
        return  # soup that reads as a binary body
    span = bte.document_span(doc)
    if span is None:
        return
    assert _span_paragraphs(doc, span) == _span_paragraphs_oracle(doc, span)
    last = len(doc.seg_block) - 1
    first = data.draw(st.integers(0, last))
    cut = replace(span, first_segment=first, last_segment=data.draw(st.integers(first, last)))
    assert _span_paragraphs(doc, cut) == _span_paragraphs_oracle(doc, cut)


@QUICK
@given(
    st.binary(max_size=2000),
    st.sampled_from(tc.METHODS),
    st.sampled_from((None, "text/html", "text/html; charset=utf-16", "text/html; charset=base64")),
)
def test_random_bytes(data: bytes, method: str, content_type: str | None) -> None:
    tc.run(data, method, content_type=content_type)


def _log_ratio(t: float, m0: float, s0: float, m1: float, s1: float, p: float) -> float:
    """log(p N(t; m1, s1)) - log((1 - p) N(t; m0, s0))."""

    def log_normal(x: float, m: float, s: float) -> float:
        return -0.5 * ((x - m) / s) ** 2 - math.log(s)

    return math.log(p) + log_normal(t, m1, s1) - math.log(1 - p) - log_normal(t, m0, s0)


@settings(max_examples=2000, deadline=None)
@given(
    st.floats(-5, 5),
    st.floats(1e-3, 5),
    st.floats(1e-2, 3),
    st.one_of(st.floats(1e-2, 3), st.just(None)),
    st.floats(1e-3, 1 - 1e-3),
    st.floats(-1e-6, 1e-6),
)
def test_equal_posterior_solves_the_equation(
    m0: float, gap: float, s0: float, s1: float | None, p: float, jitter: float
) -> None:
    m1 = m0 + gap
    s1 = s0 * (1 + jitter) if s1 is None else s1  # equal and nearly equal variances too
    t = density.equal_posterior(m0, s0, m1, s1, p)
    assert m0 <= t <= m1
    lo, hi = _log_ratio(m0, m0, s0, m1, s1, p), _log_ratio(m1, m0, s0, m1, s1, p)
    if lo * hi < 0:  # a root lies between the means: t must be one
        slope = abs(hi - lo) / gap
        assert abs(_log_ratio(t, m0, s0, m1, s1, p)) <= 1e-9 * (1 + slope * (abs(m0) + abs(m1) + 1)), (t, lo, hi)


@QUICK
@given(st.lists(st.floats(0, 1), max_size=200))
def test_gaussian_threshold_is_finite_and_inside_the_data(values: list[float]) -> None:
    d = np.array(values, dtype=np.float64)
    t = density.gaussian_threshold(d)
    assert math.isfinite(t)
    if len(d):
        assert d.min() - 1e-9 <= t <= d.max() + 1e-9
