"""Decoding edge cases: NUL padding, and data or code served as HTML."""

from __future__ import annotations

import json

import pytest

from scrapy_bte import ExtractionError, extract
from scrapy_bte.core.decode import looks_binary, non_html_format

ARTICLE = (
    "<html><head><title>Tide gauges</title></head><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav>"
    "<article><h1>Tide gauges return to the estuary</h1>"
    + "".join(
        f"<p>Paragraph {i}: volunteers read the restored tide gauges at the old pier every morning and "
        f"send the levels to the harbour office, which publishes them for the fishing boats.</p>"
        for i in range(16)
    )
    + "</article><footer>Contact the harbour office</footer></body></html>"
)
SENTENCE = "volunteers read the restored tide gauges at the old pier"


def test_nul_padding_after_a_document_is_not_binary():
    body = ARTICLE.encode("utf-8")
    assert 2500 < len(body) < 4096
    padded = body + b"\x00" * 2048
    assert not looks_binary(padded)
    result = extract(padded, content_type="text/html")
    assert SENTENCE in result.text and "\x00" not in result.text
    # Padding in front (a pre-allocated record) is the same.
    assert SENTENCE in extract(b"\x00" * 2048 + body).text


def test_control_bytes_other_than_nul_still_mean_binary():
    noise = bytes(b for b in range(1, 32) if b not in (9, 10, 12, 13)) * 60
    assert looks_binary(noise + ARTICLE.encode())
    with pytest.raises(ExtractionError, match="binary"):
        extract(noise + ARTICLE.encode())


def test_utf16_without_bom_is_still_recognised_by_its_nuls():
    for codec in ("utf-16-le", "utf-16-be"):
        data = ARTICLE.encode(codec)
        assert not looks_binary(data)
        assert SENTENCE in extract(data).text


JSON_BODY = json.dumps({"title": "not a page", "items": [{"id": i, "text": "words " * 20} for i in range(50)]}).encode()


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (JSON_BODY, "json"),
        (b"\xef\xbb\xbf  \n" + JSON_BODY, "json"),
        (b'[{"id": 1}, {"id": 2}]', "json"),
        (b"[1, 2, 3]", "json"),
        (b"{}", "json"),
        (b"/*! bundle v1 */\n!function(e){var t={};e.x=t}([]);", "javascript"),
        (b'"use strict";\nvar a = 1;', "javascript"),
        (b"(function () { document.title = 'x'; })();", "javascript"),
        (b"const config = { a: 1 };\nexport default config;", "javascript"),
        (b"import { a } from './a.js';\n", "javascript"),
        (b"window.dataLayer = window.dataLayer || [];", "javascript"),
        (b'jsonp_callback({"id": 1, "name": "x"});', "javascript"),
        (b"function init(a, b) { return a + b; }", "javascript"),
    ],
)
def test_json_and_script_bodies_are_recognised_and_refused(body, kind):
    assert non_html_format(body) == kind
    assert non_html_format(body.decode("utf-8")) == kind
    with pytest.raises(ExtractionError, match=f"{kind} body: not an HTML document"):
        extract(body, content_type="text/html")
    with pytest.raises(ExtractionError, match=kind):
        extract(body.decode("utf-8"))


@pytest.mark.parametrize(
    "body",
    [
        ARTICLE,
        "  \n" + ARTICLE,
        "[1] Footnotes come first on this page. " + ARTICLE,
        "{Draft} " + ARTICLE,
        "Function of the harbour: " + ARTICLE,
        "// a stray comment line\n" + ARTICLE,  # a page after all: page tags follow
        "var" + ARTICLE,
        "",
    ],
)
def test_pages_are_not_mistaken_for_data_or_code(body):
    assert non_html_format(body) is None
    assert non_html_format(body.encode()) is None
    if body:
        assert SENTENCE in extract(body.encode()).text
