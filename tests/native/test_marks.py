"""The one-pass word search of the field readers (``scrapy_bte._native.marks``) finds what
``str.find`` finds, and the markup scans that start from it read the same values."""

from __future__ import annotations

import os
from bisect import bisect_right
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED
from scrapy_bte.core.decode import to_unicode
from scrapy_bte.core.document import build
from scrapy_bte.core.marks import PAGE_WORDS as WORDS
from scrapy_bte.core.marks import Marks, find_all, find_all_reference, find_strings, find_strings_reference
from scrapy_bte.core.meta import _candidates, _key_pattern
from scrapy_bte.errors import ExtractionError
from scrapy_bte.fields import markup
from scrapy_bte.fields.markup import META_KEYS
from scrapy_bte.testing import torture as tc

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# CI sets SCRAPY_BTE_REQUIRE_ACCEL: there a missing build fails these tests instead of skipping them.
needs_c = pytest.mark.skipif(
    not ACCELERATED["core.marks"] and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="scrapy_bte._native.marks is not built",
)

# Characters of the words and their neighbours, wide ones (one, two and four bytes per character)
# and the character past 255 whose low byte is "<" (U+013C), which must not read as "<".
_ALPHABET = st.sampled_from(list('<>ltimeauhorcnpd+jsb HTMLx"=/') + ["\u013c", "é", "中", "\U0001f600", "\u0130"])
_WORD = st.text(st.sampled_from(list("<ltimeauhorxab+")), min_size=2, max_size=9)


def _pages() -> list[str]:
    pages = [to_unicode(p.read_bytes())[0] for p in sorted(FIXTURES.glob("**/*.html"))]
    for case in tc.small_cases():
        data = case.data()
        try:
            pages.append(data if isinstance(data, str) else to_unicode(data)[0])
        except ExtractionError:  # binary bodies never reach the field readers
            continue
    return pages


@needs_c
@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=9000).map("".join), st.lists(_WORD, max_size=8).map(tuple))
def test_c_finds_every_offset_the_reference_finds(text: str, words: tuple[str, ...]) -> None:
    assert find_all(text, words) == find_all_reference(text, words)


@needs_c
@settings(max_examples=200, deadline=None)
@given(st.integers(4096, 20000), st.integers(-12, 12), st.sampled_from(WORDS))
def test_c_finds_words_across_the_stretches_it_searches_side_by_side(size: int, delta: int, word: str) -> None:
    """Long pages are cut in four stretches searched side by side: a word that starts
    just before, at or after a cut is found once, in order."""
    chars = ["x"] * size
    starts = [size * t // 4 + delta for t in (1, 2, 3)]
    for at in starts:
        chars[at : at + len(word)] = word
    got = find_all("".join(chars), WORDS)
    assert got == find_all_reference("".join(chars), WORDS)
    assert got[WORDS.index(word)] == starts


@needs_c
def test_c_finds_the_words_on_every_fixture_and_torture_page() -> None:
    for page in _pages():
        assert find_all(page, WORDS) == find_all_reference(page, WORDS)


@needs_c
@pytest.mark.parametrize("words", [("é!",), ("a",), ("a\x00b",), tuple("ab" for _ in range(33)), ("ok", 3)])
def test_c_refuses_words_it_cannot_search(words: tuple) -> None:
    with pytest.raises(ValueError):
        find_all("text", words)


def _joined(strings: list[str]) -> tuple[str, list[int]]:
    """Strings joined by NUL and where each ends, as ``Skeleton.attr_search`` gives them."""
    return "\x00".join(strings), [end - 1 for end in accumulate(len(s) + 1 for s in strings)]


@needs_c
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(_ALPHABET, max_size=700).map("".join), min_size=1, max_size=40),
    st.lists(_WORD, max_size=8).map(tuple),
)
def test_c_finds_the_strings_that_hold_each_word(strings: list[str], words: tuple[str, ...]) -> None:
    """Short and long joins (the four stretches from 4,096 characters on), words in several
    strings, twice in one, at a string's ends, in one-, two- and four-byte text."""
    text, ends = _joined(strings)
    got = find_strings(text, words, ends)
    assert got == find_strings_reference(text, words, ends)
    assert got == [[i for i, s in enumerate(strings) if word in s] for word in words]


@needs_c
def test_c_strings_refuse_ends_that_are_not_ints() -> None:
    with pytest.raises(TypeError):
        find_strings("ab\x00ab", ("ab",), [2, "5"])
    with pytest.raises(TypeError):
        find_strings("ab\x00ab", ("ab",), (2, 5))
    with pytest.raises(ValueError):
        find_strings("ab\x00ab", ("a",), [2, 5])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=300).map("".join), st.integers(0, 320), st.one_of(st.none(), st.integers(0, 320)))
def test_marks_find_is_str_find(text: str, start: int, end: int | None) -> None:
    marks = Marks(text)
    for word in WORDS:
        assert marks.find(word, start, end) == text.find(word, start, end)


def test_scans_read_the_same_values_with_and_without_marks() -> None:
    for page in _pages():
        marks = Marks(page)
        head_end = page.find("<body")
        assert markup.jsonld_scripts(page, marks) == markup.jsonld_scripts(page)
        assert markup.itemprops(page, marks) == markup.itemprops(page)
        assert markup.times(page, marks) == markup.times(page)
        assert markup.rel_authors(page, marks) == markup.rel_authors(page)
        assert markup.html_lang(page, marks) == markup.html_lang(page)
        assert markup.canonical(page, head_end, marks) == markup.canonical(page, head_end)


def test_the_document_holds_the_marks_of_the_markup_it_was_built_from() -> None:
    for page in _pages()[:40]:
        doc = build(page)
        assert doc.marks.at == Marks(page).at
        for word in WORDS:
            assert doc.marks.find(word) == page.find(word)
            assert doc.marks.has(word) == (word in page)


def _any_case(word: str) -> st.SearchStrategy[str]:
    return st.lists(st.booleans(), min_size=len(word), max_size=len(word)).map(
        lambda upper: "".join(c.upper() if u else c for c, u in zip(word, upper))
    )


_META_ATTR = st.tuples(
    st.sampled_from(["property", "name", "data-name", "nam"]).flatmap(_any_case),
    st.sampled_from(["=", " = ", "=\n", ""]),
    st.sampled_from(['"', "'", ""]),
    st.sampled_from(
        [
            "og:title",
            "author",
            "dc.date",
            "og:titles",
            "x",
            "\u0130",
            "\u212a",
            "\u0131",
            "\u017f",
            "é",
            "og:t\u0131tle",
            "og:t\u0130tle",
            "de\u017fcription",
            "keywords",
            "\u212aeywords",
        ]
    ).flatmap(_any_case),
    st.sampled_from(['"', "'", " ", "", "x", ">"]),
).map("".join)
_META_TAG = st.lists(
    st.one_of(_META_ATTR, st.sampled_from([" ", ' content="a"', "\u212a", "Σ", "\u0130"])), max_size=4
).map(lambda parts: "<meta " + "".join(parts) + ">")


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_META_TAG, max_size=6),
    st.sampled_from([frozenset((*META_KEYS, "keywords")), frozenset(("og:title", "og:site_name", "twitter:title"))]),
)
def test_meta_candidates_are_those_of_the_case_blind_pattern(tags: list[str], keys: frozenset[str]) -> None:
    """Heads are matched lower-cased with a case-sensitive pattern where that is exact, and for a few keys only
    where a key occurs: the same tags must come out."""
    joined = "\n".join(tags)
    hits = {
        bisect_right(list(accumulate(len(t) + 1 for t in tags)), m.start()) for m in _key_pattern(keys).finditer(joined)
    }
    assert _candidates(tags, keys) == [tag for i, tag in enumerate(tags) if i in hits]
