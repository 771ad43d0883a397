"""A tag's attributes read in one C call, decoded as the match-by-match reading decodes them."""

from __future__ import annotations

import random

from scrapy_bte.core import meta
from scrapy_bte.core.entities import unescape


def attributes_by_match(raw: str) -> dict[str, str]:
    """The plain form of the rule: each match's value is the group that took part in it."""
    out: dict[str, str] = {}
    for m in meta._ATTR_RE.finditer(raw):
        key = m.group(1).lower()
        if key not in out:
            val = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
            out[key] = unescape(val)
    return out


def test_attributes_are_those_read_match_by_match() -> None:
    rnd = random.Random(11)
    pieces = [" ", "=", '"', "'", "a", "B", "-", ":", "&amp;", "&#1;", "x", ">", "\n", "content", "name"]
    for _ in range(5000):
        raw = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 25)))
        assert meta.attributes(raw) == attributes_by_match(raw), raw
        assert list(meta.attributes(raw)) == list(attributes_by_match(raw))


def test_empty_values_in_every_form_and_first_name_wins() -> None:
    assert meta.attributes("""a="" b='' c=x A="late" d='&lt;b&gt;'""") == {"a": "", "b": "", "c": "x", "d": "<b>"}


def test_meta_content_decodes_only_to_test_and_keeps_the_first_usable_value() -> None:
    tags = [
        '<meta property="og:title" content="&#1;" value="Second">',  # content decodes to "": value is used
        '<meta name="OG:TITLE" content="Later">',
        '<meta property="&#1;" name="description" content="Desc &amp; more">',  # property decodes to "": name is the key
    ]
    found = meta.meta_content("", ("og:title", "description"), values=("content", "value"), tags=tags)
    assert found == {"og:title": "Second", "description": "Desc & more"}
