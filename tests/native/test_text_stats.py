"""The text statistics of the block features (``scrapy_bte._native.features``): C against numpy,
and the title overlap against Python."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.learned import features

from .cases import needs_c

# As when these tests were in one file with the document's: skipped where core._scan is not built.
pytestmark = needs_c("core.document")


block_texts_st = st.lists(
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=40)
    .map(str.strip)
    .filter(bool)
    | st.sampled_from(["İstanbul.", "ΣΟΦΙΑΣ", "“Done.”", "a", ".", "»", "Ǆ ǅ ǆ", "𐐀𐐨 end!", "x,y;z"]),
    min_size=1,
    max_size=20,
)


needs_textstats = needs_c("learned.features")


@needs_textstats
@settings(max_examples=300, deadline=None)
@given(block_texts_st, st.sampled_from([1.0, 0.3, 0.0, float("nan")]))
def test_text_stats_in_c_match_numpy(texts: list[str], scale: float) -> None:
    doc = SimpleNamespace(texts=texts, chars=np.array([len(t) for t in texts], dtype=np.int64), n_blocks=len(texts))
    # Word counts under 1 and NaN as well: the divisor is numpy's maximum of them and 1.0.
    words = np.array([len(t.split()) for t in texts], dtype=np.float64) * scale
    fast = features._text_stats(doc, words)
    ref = features._text_stats_reference(doc, words)
    assert fast.dtype == ref.dtype and fast.shape == ref.shape and fast.tobytes() == ref.tobytes()


@needs_textstats
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "A", "1", ".", ",", " ", "É", "é", "\u00d7", "\u2019", "İ", "中", "😀", "Σ"]),
            st.integers(1, 900),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_text_stats_of_long_texts_in_c_match_numpy(runs: list[tuple[str, int]]) -> None:
    """Texts of thousands of characters (the C pass sums 1,023 at a time), in one, two and four
    bytes per character, runs of one class each."""
    texts = ["".join(ch * n for ch, n in runs), "".join(ch * n for ch, n in reversed(runs)) + "a" * 1023, "x" * 3070]
    doc = SimpleNamespace(texts=texts, chars=np.array([len(t) for t in texts], dtype=np.int64), n_blocks=len(texts))
    words = np.array([len(t.split()) for t in texts], dtype=np.float64)
    fast = features._text_stats(doc, words)
    ref = features._text_stats_reference(doc, words)
    assert fast.tobytes() == ref.tobytes()


def check_title_overlap(
    texts: list[str], openers: list[str], words: list[float], first: int | None, title: str
) -> None:
    doc = SimpleNamespace(texts=texts, opener=openers, meta={"og:title": title}, title_tag=None, n_blocks=len(texts))
    span = None if first is None else SimpleNamespace(first_block=first)
    w = np.array(words, dtype=np.float64)
    fast = features._title_overlap(doc, w, span)
    ref = features._title_overlap_reference(doc, w, span)
    assert fast.dtype == ref.dtype and fast.tobytes() == ref.tobytes()


word_soup = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\x00")
    | st.sampled_from("aAzZ_09 İıΣσςﬃẞß\u0307\u0301\u200d\u0660١²½Ⅻǅ𐐀😀中-'.,"),
    max_size=30,
)


titled_blocks_st = st.lists(
    st.tuples(
        word_soup | st.sampled_from(["İstanbul İSTANBUL", "ΟΔΟΣ οδος", "Straße STRASSE", "ﬁre FIRE", "a_b A_B"]),
        st.sampled_from(["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h0", "H1", "h", "p", "div", "h4-6", ""]),
        st.sampled_from([0.0, 1.0, 2.0, 3.0, 40.0, 41.0, float("nan")]),
    ),
    min_size=1,
    max_size=25,
)


@needs_textstats
@settings(max_examples=400, deadline=None)
@given(titled_blocks_st, st.none() | st.integers(-3, 40), word_soup)
def test_title_overlap_in_c_matches_python(blocks, first, title) -> None:
    texts, openers, words = (list(x) for x in zip(*blocks))
    # The title's words among the blocks' too, so that some are hits.
    check_title_overlap(texts, openers, words, first, title + " " + " ".join(texts[::2]))


@needs_textstats
def test_title_overlap_words_as_re_finds_them() -> None:
    """Every code point, inside a word, alone and in upper case: the same words and hits as ``re``'s \\w+."""
    cps = [chr(cp) for cp in range(1, 0x110000)]
    texts = [" ".join(f"q{c}z {c}" for c in cps[k : k + 512]) for k in range(0, len(cps), 512)]
    n = len(texts)
    check_title_overlap(texts, ["h1"] * n, [2.0] * n, None, "Q Z " + "".join(cps[::7]).upper())
    check_title_overlap(texts, ["h2"] * n, [2.0] * n, None, " ".join(cps[1::3]))


@needs_textstats
@pytest.mark.parametrize("unit", ["1.", "a ", "Bridge ", "中 ", "x_y-"])
def test_title_overlap_on_a_title_of_one_word_repeated(unit: str) -> None:
    """Each repeat of a word went into the title's table, one probe chain of all the equal words (200,000 of them: 11 s)
    walked to its end at every insertion: seconds. Each distinct word is in it once."""
    title = unit * 200_000
    texts = ["Bridge over 1 river", "a b 中", "x_y z", "nothing here at all"]
    check_title_overlap(texts, ["h1", "h2", "p", "h3"], [4.0, 3.0, 2.0, 4.0], 2, title)
