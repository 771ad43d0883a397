"""The record shapes' class words (``scrapy_bte._native.records``) number a page's attribute
strings as their Python reference does: on the torture cases, the language fixtures and the
example site, and on attribute soup that aims at the rules (the word "class" in every case and
place, quotes left open, Python's white space and digits beyond ASCII, U+0130 and the long s,
characters of one, two and four bytes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.api import parse
from scrapy_bte.methods import records

from .cases import MARKUPS, needs_c

pytestmark = needs_c("methods.records")

_PIECES = [
    " class=",
    "class",
    "CLASS",
    "Cla\u017f\u017f",
    "data-",
    "=",
    " = ",
    '"',
    "'",
    ">",
    " ",
    "\t",
    "\u00a0",
    "\u2003",
    "\x1c",
    "card",
    "card-",
    "7",
    "\u0663",
    "\uff11",
    "\u0130",
    "\u212a",
    "é",
    "日本",
    "\U0001f600",
    "b a",
]


def _both(strings: list[str]) -> tuple[tuple[int, list[int]], tuple[int, list[int]]]:
    c_out = np.full(len(strings), -1, dtype=np.int64)
    ref_out = c_out.copy()
    got = records._RECORDS.module.class_shapes(strings, c_out)
    want = records.class_shapes_reference(strings, ref_out)
    return (got, c_out.tolist()), (want, ref_out.tolist())


@pytest.mark.parametrize(("name", "markup"), MARKUPS)
def test_cases_agree(name: str, markup: str) -> None:
    doc = parse(markup)
    if doc.n_blocks:
        got, want = _both(doc.skeleton.attr_strings)
        assert got == want


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join), max_size=20))
def test_soup_agrees(strings: list[str]) -> None:
    got, want = _both(strings)
    assert got == want


def test_the_long_s_is_an_s_only_beside_u0130() -> None:
    got, want = _both(['Cla\u017f\u017f="a b"', 'Cla\u017f\u017f="a b" \u0130', 'class="b a"'])
    assert got == want == (2, [0, 1, 1])


def test_strings_and_out_are_checked() -> None:
    with pytest.raises(TypeError, match="hold str"):
        records._RECORDS.module.class_shapes(["a", b"b"], np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="expected 2"):
        records._RECORDS.module.class_shapes(["a", "b"], np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="int64"):
        records._RECORDS.module.class_shapes(["a"], np.zeros(1, dtype=np.float64))
