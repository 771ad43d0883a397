"""Character references: the C pass and its Python reference decode exactly as ``html.unescape``.

Compared on the corners of html.unescape's pattern (numeric references
with and without ";", hexadecimal case, names without ";" that start with
a known name, 32-character names, invalid and out-of-range code points,
"&" alone) and on random text built from the characters those rules read.
"""

from __future__ import annotations

import html
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED
from scrapy_bte.core import entities
from scrapy_bte.core.accel import native
from scrapy_bte.core.entities import unescape, unescape_reference

CORNERS = [
    "",
    "no reference",
    "AT&T and R&D",
    "&",
    "&&",
    "x&",
    "&;",
    "&amp;&amp;",
    "&amp",
    "&ampxyz",
    "&notit;",
    "&not",
    "&nbsp&nbsp;",
    "&lt;&LT&lt",
    "&" + "a" * 40,
    "&#",
    "&#;",
    "&#x",
    "&#xg",
    "&#X41;",
    "&#65",
    "&#00000000000000000065;",
    "&#x0000000041",
    "&#0;",
    "&#129;",
    "&#x110000;",
    "&#xD800;",
    "&#1114111;",
    "&a\rb;",
    "&\r;",
    "é&eacute;ü&#x1F600;\u3042&#x3042;",
    "\U0001f600&amp;\U0001f600",
]

needs_c = pytest.mark.skipif(
    not ACCELERATED["core.entities"] and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="scrapy_bte._native.entities is not built",
)


@pytest.mark.parametrize("text", CORNERS)
def test_reference_decodes_as_html_unescape(text: str) -> None:
    with native(False):
        assert unescape(text) == html.unescape(text)
    assert unescape_reference(text) == html.unescape(text)


@needs_c
@pytest.mark.parametrize("text", CORNERS)
def test_c_pass_decodes_as_html_unescape(text: str) -> None:
    assert unescape(text) == html.unescape(text)


@needs_c
@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("&#;xX0123456789abcdefAmpltgq \t\n\f\r<é\u3042\U0001f600"), max_size=40))
def test_random_text_decodes_the_same_three_ways(text: str) -> None:
    expected = html.unescape(text)
    assert unescape(text) == expected
    assert unescape_reference(text) == expected


def test_the_table_of_seen_references_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entities, "SEEN_MAX", 50)
    entities._SEEN.clear()
    for k in range(200):
        text = f"&word{k}; &#{k};"
        assert unescape(text) == html.unescape(text)
        assert len(entities._SEEN) <= 50 + 2


@needs_c
def test_c_pass_reads_the_table_it_is_given_each_time() -> None:
    """The pass keeps the text of references it has seen, never their values: each call reads its own table."""
    c = entities._ENTITIES.module
    for value in ("Z", "Y", "\U0001f600"):
        assert c.unescape("&amp;x&amp;", {"amp;": value}, html.unescape) == f"{value}x{value}"
    seen: dict[str, str] = {}
    assert c.unescape("&amp; &amp", seen, lambda ref: html.unescape("&" + ref)) == "& &"
    assert seen == {"amp;": "&", "amp": "&"}
