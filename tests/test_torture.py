"""``extract()`` on the torture corpus: nothing but ExtractionError escapes.

Every case either returns an Extraction that honours the output contract
(:func:`scrapy_bte.testing.torture.check_result`: valid Unicode, no NUL, consistent
fields) or raises the documented :class:`ExtractionError`; where the page
holds an article, its sentences are in the result; extracting twice gives
the same result. Large cases (100k nested elements, a 20 MB single-line
page...) run once with the default method.
"""

from __future__ import annotations

from typing import Any

import pytest
from lxml import html as lxml_html

from scrapy_bte import extract
from scrapy_bte.errors import ConfigError, ExtractionError
from scrapy_bte.testing import torture as tc

SMALL = tc.small_cases()
LARGE = tc.large_cases()


def _check_case(case: tc.Case, method: str, data: Any) -> None:
    result = tc.run(data, method, **case.options)
    if case.outcome == "error":
        assert result is None, f"{case.name}: expected ExtractionError"
        return
    if case.outcome == "text":
        assert result is not None, f"{case.name}: unexpected ExtractionError"
    if result is None:
        return
    if method in case.methods:
        missing = [s for s in case.sentences if s not in result.text]
        assert not missing, f"{case.name}/{method}: missing {missing!r} in {result.text[:500]!r}"
    again = tc.run(data, method, **case.options)
    assert again is not None and again.to_dict() == result.to_dict()


@pytest.mark.parametrize("method", tc.METHODS)
@pytest.mark.parametrize("case", SMALL, ids=[c.name for c in SMALL])
def test_small_case(case: tc.Case, method: str) -> None:
    _check_case(case, method, case.data())


@pytest.mark.parametrize("case", LARGE, ids=[c.name for c in LARGE])
def test_large_case(case: tc.Case) -> None:
    data = case.data()
    result = tc.run(data, **case.options)
    assert result is not None
    missing = [s for s in case.sentences if s not in result.text]
    assert not missing, f"{case.name}: missing {missing!r}"


def test_minified_generator_makes_one_line() -> None:
    data = tc.minified(2 * tc.MB)
    assert "\n" not in data and len(data) >= 2 * tc.MB


@pytest.mark.parametrize("case", [c for c in SMALL if isinstance(c.data(), str)], ids=lambda c: c.name)
def test_str_and_utf8_bytes_agree(case: tc.Case) -> None:
    """A page given as str and as its UTF-8 bytes (declared so) gives the same text."""
    text = case.data()
    assert isinstance(text, str)
    if text.isascii():
        as_bytes = tc.run(text.encode(), content_type="text/html; charset=utf-8")
        as_str = tc.run(text)
        assert as_bytes is not None and as_str is not None
        assert as_bytes.text == as_str.text


@pytest.mark.parametrize("value", [None, 42, 3.5, ["<p>x</p>"], {"html": "x"}, object()])
def test_wrong_input_types_raise_extraction_error(value: Any) -> None:
    with pytest.raises(ExtractionError):
        extract(value)


@pytest.mark.parametrize("wrap", [bytearray, memoryview])
def test_buffer_inputs(wrap: Any) -> None:
    result = tc.run(wrap(tc.ARTICLE_PAGE.encode()))
    assert result is not None and tc.SENTENCES[0] in result.text


def test_max_bytes_refuses_large_input() -> None:
    with pytest.raises(ExtractionError):
        extract(b"<p>" + b"x " * 1000, max_bytes=100)
    with pytest.raises(ExtractionError):
        extract("<p>" + "x " * 1000, max_bytes=100)


@pytest.mark.parametrize("name", ["frameset.html", "xhtml_namespaces.xhtml", "rtl_arabic.html", "emoji.html"])
def test_lxml_element_input(name: str) -> None:
    """An lxml tree of a torture page: extracted, and the tree left as it was."""
    tree = lxml_html.document_fromstring((tc.TORTURE_DIR / name).read_bytes())
    before = lxml_html.tostring(tree)
    result = tc.run(tree)
    assert result is not None and result.text
    assert lxml_html.tostring(tree) == before


def test_binary_bodies_named_in_the_error() -> None:
    with pytest.raises(ExtractionError, match="binary"):
        extract(tc.pdf(), content_type="text/html")


@pytest.mark.parametrize(
    ("method", "options"),
    [
        ("hybrid", {"gap": "x"}),
        ("hybrid", {"gap": -1}),
        ("hybrid", {"max_link": float("nan")}),
        ("hybrid", {"min_chars": None}),
        ("hybrid", {"link_weight": "0.5"}),
        ("hybrid", {"threshold": 0.3}),
        ("density", {"min_chars": True}),
        ("density", {"form": None}),
        ("bte", {"gap": 1}),
        ("nope", {}),
    ],
)
def test_bad_options_raise_config_error(method: str, options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        extract(tc.ARTICLE_PAGE, method=method, **options)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"fields": 1}, "fields must be a list"),
        ({"fields": ["title", 3]}, "fields must be a list"),
        ({"url": b"https://example.com/", "fields": ["image"]}, "url must be a str"),
        ({"url": 5, "fields": ["canonical_url"]}, "url must be a str"),
        ({"url": 5}, "url must be a str"),
        ({"max_bytes": "5"}, "max_bytes must be a whole number"),
        ({"max_bytes": 2.5}, "max_bytes must be a whole number"),
        ({"max_bytes": True}, "max_bytes must be a whole number"),
    ],
)
def test_wrong_argument_types_raise_config_error(arguments: dict[str, Any], message: str) -> None:
    """These raised a bare TypeError from deep inside (a regex given bytes, ``int > str``)."""
    with pytest.raises(ConfigError, match=message):
        extract(tc.ARTICLE_PAGE, **arguments)


def test_fields_may_be_any_iterable_of_names() -> None:
    import numpy as np

    assert extract(tc.ARTICLE_PAGE, fields=iter(["title", "language"])).language is not None
    assert extract(tc.ARTICLE_PAGE, max_bytes=np.int64(10**6)).words > 0
