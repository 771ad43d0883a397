"""SimHash fingerprints (``scrapy_bte._native.fingerprint``): the C pass gives the reference's value."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.core.accel import native
from scrapy_bte.core.fingerprint import (
    MIN_WORDS,
    simhash,
    simhash_reference,
)

from .cases import needs_c

_needs_c = needs_c("core.fingerprint")

# The news vocabulary of tests/test_fingerprint.py's stories.
_VOCAB = (
    "harbour council ferry timetable bridge river engineers budget winter repairs volunteers museum "
    "station library school teachers parents survey market farmers weather storm flood road traffic "
    "cyclists report minister hospital nurses patients village festival music theatre fishing boats"
).split()


@_needs_c
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["harbour", "Ferry", "9", "é", "日本", "ก", "\U0001f600", " ", "  ", "\n", ",", ".", "-", "\ud800"]
        ),
        max_size=120,
    )
)
def test_c_pass_gives_the_reference_value(pieces: list[str]) -> None:
    text = " ".join(pieces)
    assert simhash(text) == simhash_reference(text)


@_needs_c
def test_c_pass_matches_on_article_length_texts() -> None:
    rng = random.Random(11)
    for words in (MIN_WORDS - 1, MIN_WORDS, 21, 300, 5000):
        text = " ".join(rng.choice(_VOCAB) for _ in range(words))
        assert simhash(text) == simhash_reference(text)
        with native(False):
            assert simhash(text) == simhash_reference(text)
