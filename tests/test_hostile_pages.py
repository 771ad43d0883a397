"""Pages built to break each reader: ``extract()`` returns an Extraction or raises a documented error.

Every page-controlled structure (JSON-LD, microdata, nested markup) is
read without recursion the page can drive; binary bodies are refused as
``ExtractionError("binary body ...")``, as bytes and as already decoded
text. The hypothesis strategies generate JSON-LD of any depth and shape
(the budget is fixed and small, so the suite stays fast).
"""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte import extract
from scrapy_bte.core.boundedjson import MAX_DEPTH, TooDeep, depth, loads
from scrapy_bte.errors import ConfigError, ExtractionError
from scrapy_bte.fields import jsonld
from scrapy_bte.fields.record import FIELD_NAMES
from scrapy_bte.result import Extraction

DEEP = 100_000
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ARTICLE = "<p>" + " ".join(["The river rose slowly over the old stone bridge."] * 8) + "</p>"


def _ld(body: str) -> str:
    return f'<html><head><script type="application/ld+json">{body}</script></head><body>{ARTICLE}</body></html>'


HOSTILE = {
    "jsonld_arrays_1000": _ld("[" * 1000 + "]" * 1000),
    "jsonld_objects_1e5": _ld('{"a":' * DEEP + "1" + "}" * DEEP),
    "jsonld_unclosed_1e5": _ld("[" * DEEP),
    "jsonld_entities_deep": _ld("&#91;" * 5000 + "&#93;" * 5000),
    "jsonld_graph_cycle": _ld(
        '{"@graph":[{"@id":"a","@type":"NewsArticle","headline":"H","author":{"@id":"b"},"publisher":{"@id":"a"},'
        '"mainEntityOfPage":{"@id":"a"},"image":{"@id":"b"}},{"@id":"b","@type":"Person","name":{"@id":"a"}}]}'
    ),
    "jsonld_many_scripts": '<script type="application/ld+json">{"@type":"Article","headline":"h"}</script>' * 20_000
    + ARTICLE,
    "divs_1e5": "<div>" * DEEP + ARTICLE + "</div>" * DEEP,
    "divs_unclosed_1e5": "<div>" * DEEP + ARTICLE,
    "inline_unclosed_1e5": "<p>" + "<span><b>" * DEEP + "text",
    "tables_unclosed": "<table><tr><td>" * 20_000 + ARTICLE,
    "lists_unclosed_1e5": "<ul><li>" * DEEP + ARTICLE,
    "microdata_1e5": '<div itemscope itemtype="http://schema.org/Article">'
    + '<div itemprop="author" itemscope>' * DEEP
    + '<span itemprop="name">X</span>'
    + "</div>" * DEEP,
    "itemprops_1e5": "<div itemscope>" + '<span itemprop="name">x</span>' * DEEP + "</div>",
    "attributes_1e5": "<p " + " ".join(f"a{i}=1" for i in range(DEEP)) + ">x</p>" + ARTICLE,
    "comments_unclosed": "<!--" * DEEP + ARTICLE,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("method", ["auto", "bte"])
def test_hostile_page_gives_extraction_or_documented_error(name: str, method: str) -> None:
    try:
        result = extract(HOSTILE[name], method=method, fields=FIELD_NAMES)
    except (ExtractionError, ConfigError):
        return
    assert isinstance(result, Extraction)


def test_deep_jsonld_is_ignored_and_the_text_kept() -> None:
    """The 2 KB page of the report: 1,000 nested arrays used to raise RecursionError."""
    result = extract(HOSTILE["jsonld_arrays_1000"], fields=FIELD_NAMES)
    assert "stone bridge" in result.text
    assert jsonld.parse("[" * 1000 + "]" * 1000) == []


def test_jsonld_within_the_depth_limit_is_still_read() -> None:
    value = {"@type": "NewsArticle", "headline": "Deep enough"}
    for _ in range(MAX_DEPTH - 2):
        value = {"x": value}
    assert jsonld.parse(json.dumps(value)) == [value]


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"headline": "[" * 10_000})
    assert depth(text) == 1
    assert loads(text) == {"headline": "[" * 10_000}
    with pytest.raises(TooDeep):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab[]{}"\\:,@ ', max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(["@type", "@id", "@graph", "headline", "author", "x"]), children, max_size=3)
    ),
    max_leaves=40,
)


@FUZZ
@given(
    value=json_values,
    wrap=st.integers(min_value=0, max_value=3 * MAX_DEPTH),
    cut=st.integers(min_value=0, max_value=40),
)
def test_fuzzed_jsonld_never_escapes(value: object, wrap: int, cut: int) -> None:
    """Any JSON value, nested in any number of arrays, whole or cut short: a list of values back."""
    text = "[" * wrap + json.dumps(value) + "]" * wrap
    for script in (text, text[: len(text) - cut]):
        assert isinstance(jsonld.parse(script), list)
        result = extract(_ld(script), fields=FIELD_NAMES)
        assert "stone bridge" in result.text


# Heads of binary formats servers have sent as text/html.
SIGNATURES = {
    "elf": b"\x7fELF\x02\x01\x01\x00" + bytes(56),
    "macho": b"\xcf\xfa\xed\xfe\x07\x00\x00\x01",
    "pe": b"MZ\x90\x00\x03\x00\x00\x00",
    "zip": b"PK\x03\x04\x14\x00",
    "pdf": b"%PDF-1.7\n",
    "png": b"\x89PNG\r\n\x1a\n",
    "mp4": b"\x00\x00\x00\x20ftypisom",
    "webm": b"\x1aE\xdf\xa3\x9fB\x86\x81",
    "mp3": b"ID3\x04\x00\x00",
    "wasm": b"\x00asm\x01\x00\x00\x00",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_binary_signatures_are_refused(name: str) -> None:
    body = SIGNATURES[name] + b"<html><body><p>" + b"words " * 200 + b"</p></body></html>"
    with pytest.raises(ExtractionError, match=r"^binary body"):
        extract(body)


def test_random_bytes_and_executables_are_refused() -> None:
    """100 random bytes and an ELF binary named .html used to come out as thousands of words."""
    rng = random.Random(26)
    for size in (100, 1000, 20_000):
        for _ in range(20):
            with pytest.raises(ExtractionError, match=r"^binary body"):
                extract(bytes(rng.getrandbits(8) for _ in range(size)))
    executable = open(os.path.realpath("/proc/self/exe"), "rb").read(200_000)  # noqa: SIM115
    with pytest.raises(ExtractionError, match=r"^binary body"):
        extract(executable)
    with pytest.raises(ExtractionError, match=r"^binary body"):
        extract(executable.decode("latin-1"))  # already decoded: the same rule


def test_text_with_a_few_control_characters_is_still_a_page() -> None:
    page = "<html><body><p>" + "A sentence of the article. \x0b\x1b" * 40 + "</p></body></html>"
    assert extract(page).words > 100


@pytest.mark.parametrize("method", ["auto", "bte"])
def test_decimal_references_past_pythons_digit_limit(method: str) -> None:
    """int() refuses decimal strings of more than 4,300 digits: a reference that long raised
    ValueError in the text and in a JSON-LD script. It reads as html.unescape reads any
    reference past U+10FFFF, and its leading zeros count for nothing, as they always did."""
    huge, zeros = "&#" + "9" * 5000 + ";", "&#" + "0" * 5000 + "65;"
    result = extract(f"<p>{ARTICLE} {huge} {zeros}</p>", method=method)
    assert "\ufffd A" in result.text
    page = _ld('{"@type": "NewsArticle", "headline": "Bridge &#' + "0" * 5000 + '66;ridge", "x": &quot;&#' + "9" * 5000)
    assert extract(page, method=method, fields=("title",)).title == "Bridge Bridge"


@pytest.mark.parametrize("key", ["author", "image", "publisher", "mainEntityOfPage"])
@pytest.mark.parametrize("ref", [[], ["a"], {"a": 1}, 7])
def test_jsonld_references_whose_id_is_not_a_string(key: str, ref: object) -> None:
    """``{"@id": [...]}`` raised TypeError (unhashable) where a reference is resolved."""
    node = {"@type": "NewsArticle", "headline": "Bridge", key: {"@id": ref}}
    result = extract(_ld(json.dumps(node)), fields=FIELD_NAMES, url="https://example.com/a")
    assert result.title == "Bridge" and result.words > 50


def test_nested_noscript_start_tags_are_read_once() -> None:
    """Each of 20,000 nested ``<noscript>`` start tags searched to the one end tag and counted
    the words of all the markup between: about 20 s. Start tags inside an element already
    counted are not read again; the text after them is found."""
    page = "<html><body>" + "<noscript>" * 20_000 + "note</noscript>" + ARTICLE + "</body></html>"
    assert "old stone bridge" in extract(page, method="bte", page_type=False).text


def _shop(card_text: str) -> str:
    cards = "".join(
        f'<div class="product-card"><h3><a href="/products/p{i}">Widget number {i} deluxe</a></h3><p>{card_text}</p>'
        '<span class="price">$19.99</span><button>Add to cart</button></div>'
        for i in range(12)
    )
    return (
        '<html><head><title>Widget Deluxe | Shop</title><meta property="og:type" content="product"></head><body>'
        '<h1>Widget Deluxe</h1><p class="price">$19.99</p><button>Add to cart</button><p>This widget is a wonderful '
        f"widget made of the finest materials for everyday use in the kitchen.</p>{cards}</body></html>"
    )


def _thread(note: str) -> str:
    posts = "".join(
        f'<div class="post" itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
        f'<div class="username">user{i}</div><div class="post-content" itemprop="text"><p>Reply {i}: {ARTICLE}</p>'
        f'</div><div class="likes">{note}</div></div>'
        for i in range(6)
    )
    return (
        "<html><head><title>Tram extension: which route? - Forum</title></head><body><h1>Tram extension</h1>"
        f'<div itemscope itemtype="https://schema.org/DiscussionForumPosting">{posts}</div></body></html>'
    )


PI = "3." + "1415926535897932384626433832795028841971" * 5_000  # 200,000 digits

#: Pages whose text a pattern or a rule read again from each of its characters: each took from
#: seconds (pi's 200,000 digits, 80 s) to hours (a card's 40-digit number, where a rating's pattern
#: tried every way of cutting it into numbers) before it read each character once or a few times.
#: A regression shows as a test run that does not end.
BACKTRACKING = {
    "pi_digits": (f"<html><body><h1>Pi</h1><p>{ARTICLE}</p><p>{PI}</p></body></html>", {}),
    "digits_then_minutes": (f"<html><body>{ARTICLE}<p>{'7' * 100_000} min</p></body></html>", {}),
    "digits_then_kanji_ago": (f"<html><body>{ARTICLE}<p>{'7' * 100_000} 分</p></body></html>", {}),
    "card_of_digits": (_shop("1" * 40 + "x"), {"url": "https://shop.example.com/collections/all"}),
    "card_of_spaced_digits": (_shop("1 " * 40 + "x"), {"url": "https://shop.example.com/collections/all"}),
    "post_note_of_commas": (_thread("," * 100_000 + " likes x"), {"url": "https://forum.example.com/t/tram/1"}),
    "author_of_dots": (f'<html><head><meta name="author" content="A{"." * 50_000}B"></head>{ARTICLE}</html>', {}),
    "author_of_bars": (f'<html><head><meta name="author" content="A{"|" * 50_000}B"></head>{ARTICLE}</html>', {}),
    "title_of_bars": (f"<html><head><title>A{'|' * 50_000}B</title></head>{ARTICLE}</html>", {"url": "https://b.com/"}),
    "title_of_colons": (
        f"<html><head><title>A{' :: ' * 20_000}</title></head>{ARTICLE}</html>",
        {"url": "https://a.com/"},
    ),
}


@pytest.mark.parametrize("name", sorted(BACKTRACKING))
@pytest.mark.parametrize("method", ["auto", "bte"])
def test_pages_that_made_a_pattern_backtrack(name: str, method: str) -> None:
    html, options = BACKTRACKING[name]
    result = extract(html, method=method, fields=FIELD_NAMES, **options)
    assert "old stone bridge" in result.text or "wonderful widget" in result.text
    if name.startswith("title_of"):
        assert result.title  # a title of its own odd parts: still read


def test_the_date_and_rating_patterns_on_long_runs_as_the_c_pass_reads_them() -> None:
    """The patterns, read alone (the Python reference), on the runs that made them backtrack,
    and the C pass of the text flags agreeing with its reference there."""
    from scrapy_bte.evidence import labels
    from scrapy_bte.evidence.words import CREDIT_CUT_RE, NUMERIC_DATE_RE, RATING_RE, READ_TIME_RE

    digits = "7" * 200_000
    assert NUMERIC_DATE_RE.search(digits + "x") is None
    assert NUMERIC_DATE_RE.search(digits + " 分前").span() == (0, len(digits) + 3)
    assert READ_TIME_RE.search(digits + " min") is None
    assert READ_TIME_RE.search(digits + " min read").span() == (0, len(digits) + 9)
    assert RATING_RE.match("1" * 60 + "x") is None and RATING_RE.match("1 " * 60 + "x") is None
    assert RATING_RE.match("(1,204) reviews") and RATING_RE.match("4.8k ratings")
    assert CREDIT_CUT_RE.search("A" + ";" * 200_000 + "B") is None
    assert CREDIT_CUT_RE.search("Ann Lee, ;; reviewed by Bo Li").start() == 7
    texts = [digits + "x", "3." + digits, digits + " 分前", "2024-05-01 " + digits, digits + " min read"]
    assert labels.text_flags(texts).tolist() == labels.text_flags_reference(texts).tolist()
