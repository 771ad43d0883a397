"""Record shapes' class words (``scrapy_bte._native.records``) against the Python form, string by string."""

from __future__ import annotations

from conftest import CLASS_ATTRIBUTE_CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.core.accel import native
from scrapy_bte.methods import records

from .cases import needs_c

pytestmark = needs_c("methods.records")

#: Pieces attribute strings are made of, and the characters the search treats apart: every case of
#: "class", Unicode spaces and digits (Arabic-Indic, fullwidth), quotes, ``=`` and ``>``, a long s
#: and U+0130 (whose lower case is longer), the Kelvin sign, characters of every width.
PIECES = (
    "class",
    "CLASS",
    "cLaSs",
    "claſs",
    "data-class",
    "=",
    " = ",
    '"',
    "'",
    ">",
    " ",
    "\t",
    "\n",
    "\u00a0",
    "\u2003",
    "\x1c",
    "card",
    "card-3",
    "x12y",
    "\u0663\u0664",
    "\uff11",
    "\u0130",
    "\u212a",
    "é",
    "日本",
    "\U0001f600",
    "-",
    "_",
    "id=a",
)

attribute_strings = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def _both(strings: list[str]) -> tuple[list[str], list[str]]:
    fast = records.page_class_words(strings)
    with native(False):
        reference = records.page_class_words(strings)
    return fast, reference


@settings(max_examples=2000, deadline=None)
@given(st.lists(attribute_strings, max_size=8))
def test_class_words_in_c_equal_the_python_form(strings: list[str]) -> None:
    fast, reference = _both(strings)
    assert fast == reference
    # Equal strings of one width: CPython compares a str's width before its characters.
    assert all(type(a) is str and a == b for a, b in zip(fast, reference))


def test_class_words_in_c_on_written_cases() -> None:
    fast, reference = _both(list(CLASS_ATTRIBUTE_CASES))
    assert fast == reference
    # The one-character-wide result of a wide string is an ordinary ASCII str.
    assert fast[0] == "card card-" and fast[0].isascii() and {"card card-": 1}.get(fast[0]) == 1
