"""Label-like blocks: the C pass (``scrapy_bte._native.labels``) and the pattern shortcuts give the
flags of the one-test-after-another Python reference.

Compared on texts aimed at the string rules both implement (``str.strip`` with the label tail,
``partition`` at ':' and '：', ``rstrip``/``split`` on Unicode white space, prefix tuples, the
``\\d`` and ``[^\\W\\d_]`` classes), on every code point in a few positions, on random texts, and on
whole documents: the fixtures, the bundled samples and the example site.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED, extract
from scrapy_bte.core.accel import native, native_built
from scrapy_bte.core.decode import to_unicode
from scrapy_bte.core.document import build
from scrapy_bte.evidence import labels, words, zones
from scrapy_bte.learned import never_body

ROOT = Path(__file__).resolve().parents[2]

# CI sets SCRAPY_BTE_REQUIRE_ACCEL: there a missing build fails these tests instead of skipping them.
_needs_c = pytest.mark.skipif(
    not ACCELERATED["evidence.labels"] and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="scrapy_bte._native.labels is not built",
)

#: The date pattern as first written, one branch per form: the spec of ``words.NUMERIC_DATE_RE``.
_PLAIN_DATE_RE = re.compile(
    r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}|\d{4}\s*年|\d{1,2}\s*月\s*\d{1,2}\s*日|\d+\s*(?:分|時間|日)前"
)

_WORDS = sorted(
    words.LABEL_SET
    | words.LABEL_COLON
    | words.BYLINE_START_WORDS
    | words.CREDIT_WORDS
    | words.DATE_WORDS
    | set(words.BYLINE_PREFIXES)
    | set(words.CREDIT_STARTS)
    | set(words.READ_TIME_WORDS)
)
_SPACES = [" ", "\t", "\n", "\x0b", "\x1c", "\x85", "\u00a0", "\u2003", "\u3000"]
_TRICKY = [
    "",
    " ",
    ":",
    "：",
    "/",
    "\t",
    "\n",
    words.LABEL_TAIL,
    words.LABEL_TAIL[::-1] + "件",
    "0123456789",
    "…»",
    "advertisement",
    "advertisement »",
    "  advertisement\t",
    "» advertisement (3)",
    "comments (12)",
    "comments（12）",
    "【広告】",
    "広告",
    "广告 →",
    "반응 댓글",
    "댓글 5",
    "quảng cáo",
    "โฆษณา",
    "share this article",
    "share\u00a0this",
    "tags: economy, politics",
    "tags ：経済",
    "タグ：経済",
    "tags:",
    "tags",
    "tags :",
    "tags\t:",
    "schlagwörter: x",
    "foto: dpa",
    "foto / reuters",
    "foto/reuters",
    "foto /",
    "bild:",
    "credit\u3000: x",
    "写真：共同",
    "by jane doe",
    "by",
    "by ",
    " by jane",
    "by\tjane",
    "by\njane",
    "by\u00a0jane",
    "by\u2003jane",
    "by\x1cjane",
    "by\u200bjane",
    "von: x",
    "autor: x",
    "autor x",
    "author:",
    "tác giả: minh",
    "автор: иван",
    "yazar: ali",
    "written by jane",
    "文/记者",
    "文／記者 王",
    "記者",
    "© reuters",
    "(c) 2024 x",
    "(c)",
    "getty images",
    "reuters/x",
    "afp",
    "afp/",
    "dpa ",
    "5 min read",
    "5 min. read",
    "lesezeit: 3 min",
    "3 minuten lesezeit",
    "reading time: 4",
    "3分で読める",
    "12 may 2024",
    "may 12",
    "may2024",
    "5may",
    "may²5",
    "ⅻmay 5",
    "mai_5",
    "il 5",
    "5 il",
    "5 fa",
    "hace 3 horas",
    "3 hours ago",
    "vor 3 stunden",
    "3時間前",
    "3 時間前",
    "2024年5月1日",
    "2024 年",
    "5 月 1 日",
    "5\n月1日",
    "1.5.2024",
    "2024-05-01",
    "05/01/24",
    "12:30",
    "1:3",
    "12：30",
    "١٢:٣٠",
    "٢٠٢٤-٠٥-٠١",
    "²:30",
    "12\u3000:30",
    "\ud800 5 may",
    "5\udfff",
    "version 2.0",
    "route 66",
    "3.5",
    "3-",
    "3年",
    "月",
    "前",
]


def _cased(texts: list[str]) -> list[str]:
    """The texts and their decorated forms, lower-cased as label_features does."""
    out: list[str] = []
    for t in texts:
        out += [t, t + ":", t + " : x", t + " / x", t + "/x", t + " (3)", "» " + t, t + " x", t + "\u3000", t + " 5"]
    return [t.lower() for t in out]


def _old_dates(lows: list[str]) -> tuple[list[bool], list[bool]]:
    """Columns date_like and read_time as first written: every pattern on every text with a digit."""
    date, read = [], []
    for t in lows:
        digit = labels._DIGIT_RE.search(t) is not None
        date.append(
            digit
            and (
                _PLAIN_DATE_RE.search(t) is not None or not words.DATE_WORDS.isdisjoint(labels._DATE_SPLIT_RE.split(t))
            )
        )
        read.append(
            digit and labels._READ_TIME_WORD_RE.search(t) is not None and words.READ_TIME_RE.search(t) is not None
        )
    return date, read


def check_texts(lows: list[str]) -> None:
    ref = labels.text_flags_reference(lows)
    assert ref.dtype == np.uint8 and ref.shape == (len(lows),)
    date, read = labels._date_columns(lows, ref)
    assert (date.tolist(), read.tolist()) == _old_dates(lows)
    for t, bits in zip(lows, ref.tolist()):
        assert bool(bits & labels._DIGIT) == (labels._DIGIT_RE.search(t) is not None), t
        assert (words.NUMERIC_DATE_RE.search(t) is None) == (_PLAIN_DATE_RE.search(t) is None), t
        assert bool(bits & labels._NUMERIC_DATE) == (_PLAIN_DATE_RE.search(t) is not None), t
    if ACCELERATED["evidence.labels"] or os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"):
        fast = labels.text_flags(lows)
        for t, a, b in zip(lows, fast.tolist(), ref.tolist()):
            assert a == b, (t, a, b)


def test_flags_on_tricky_texts() -> None:
    check_texts(_cased(_TRICKY))


def test_flags_on_every_word_of_the_lexicon() -> None:
    check_texts(_cased(_WORDS + [w.upper() for w in _WORDS] + [s + w for w in _WORDS[:40] for s in _SPACES]))


def test_flags_single_texts_and_empty_list() -> None:
    assert labels.text_flags_reference([]).shape == (0,)
    check_texts([])
    for t in ("advertisement", "tags: x", "by jane", "foto: x", "12 may", ""):
        check_texts([t])


def test_flags_mark_the_label_kinds() -> None:
    lows = [
        "advertisement »",
        "tags: a, b",
        "by jane doe",
        "foto: dpa",
        "12 may 2024",
        "5 min read",
        "share prices fall",
    ]
    bits = labels.text_flags_reference(lows).tolist()
    assert bits[0] & 1 and bits[1] & 2 and bits[2] & 4 and bits[3] & 8
    assert bits[4] & labels._DATE_WORD and bits[5] & labels._READ_TIME_WORD
    assert bits[6] == 0


def test_labels_opened_by_bullets_and_marks() -> None:
    lows = ["・関連記事", "■ related articles", "▼ anzeige", "【広告】", "★ most read", "・一覧の記事を読む"]
    for flags in (labels.text_flags_reference(lows), labels.text_flags(lows)):
        assert [bool(b & 1) for b in flags.tolist()] == [True, True, True, True, True, False]


@_needs_c
def test_c_pass_on_every_code_point() -> None:
    """Each code point between a byline word, a digit and a month: white space (split, rstrip), decimal
    digits, letters of the date-word split and date marks all read as Python reads them."""
    points = list(range(0x30000)) + list(range(0x30000, 0x110000, 97))
    lows = [f"by{c}5{c}may{c}" for c in map(chr, points)]
    fast = labels.text_flags(lows)
    ref = labels.text_flags_reference(lows)
    wrong = np.flatnonzero(fast != ref)
    assert not len(wrong), [(hex(points[i]), fast[i], ref[i]) for i in wrong[:10]]


#: Each date form of ``_NUMERIC_DATE_RE`` with ``{}`` where a code point goes: at a repetition's edges,
#: inside ``\\s*`` runs, in place of a separator.
_DATE_FORMS = (
    "1{}2.5.2024", "12{}.5.24", "1.{}5.2024", "1.5{}.2024", "1.05.{}24", "12345.6.78", "1.234.56", "1.2.3",
    "1{}:30", "12:{}30", "123:45", "1:3{}", "2024{}年", "202{}4年", "5{}月{}1{}日", "12月{}123日", "5月1{}2日",
    "3{}時間前", "3{}分{}前", "12{}日前", "3時{}間前", "{}5年", "5{}月", "1{}2{}3",
)  # fmt: skip


@_needs_c
def test_c_date_pattern_on_every_code_point() -> None:
    """The date pattern in C reads each code point (digits, white space, separators) as ``re`` does."""
    points = list(range(0x3100)) + list(range(0x3100, 0x110000, 61))
    lows = [form.replace("{}", chr(c)) for c in points for form in _DATE_FORMS]
    fast = labels.text_flags(lows)
    ref = labels.text_flags_reference(lows)
    wrong = np.flatnonzero(fast != ref)
    assert not len(wrong), [(lows[i], fast[i], ref[i]) for i in wrong[:10]]
    assert bool(ref[0] & labels._NUMERIC_DATE)  # "1\x002.5.2024"


_PIECES = st.sampled_from(
    _WORDS[::3] + _SPACES + list(words.LABEL_TAIL) + list("5٣²Ⅻ:：/_-.年月日前分xéİ\ud800") + ["12", "時間"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=8).map("".join), max_size=12))
def test_flags_on_random_texts(texts: list[str]) -> None:
    check_texts([t.lower() for t in texts])


@_needs_c
def test_c_pass_rejects_what_is_not_a_list_of_str() -> None:
    c = labels._FURNITURE.module
    with pytest.raises(TypeError):
        c.flags(("by jane",))
    with pytest.raises(TypeError):
        c.flags(["by jane", b"by jane"])
    with pytest.raises(TypeError):
        c.configure(
            "", frozenset(), frozenset(), frozenset(), frozenset(), ("",), frozenset(), (), frozenset(), "", "", ()
        )
    assert c.flags(["tags: x"]) == bytes([labels.text_flags_reference(["tags: x"])[0]])  # still configured


@_needs_c
def test_c_lowered_texts() -> None:
    texts = ["", "ABC", "abc", "Mixed Case 12", "ÉTÉ", "İstanbul", "ΟΔΟΣ", "\u212a", "日本", "A\nB", "x" * 300 + "Y"]
    rows = list(range(len(texts))) + [3, 0]
    fast = labels._lowered(texts, rows)
    with native(False):
        assert fast == labels._lowered(texts, rows) == [texts[i].lower() for i in rows]
    assert all(type(t) is str for t in fast)
    with pytest.raises(IndexError):
        labels._lowered(texts, [len(texts)])


@_needs_c
@pytest.mark.parametrize(
    "texts", [[], ["a"], ["a", "b"], ["a", "b", "a", "", "", "a", "b" * 3, "bbb"], ["x"] * 5, list("abcabcddé")]
)
def test_c_repeats(texts: list[str]) -> None:
    texts = [(t + "#")[:-1] for t in texts]  # equal texts that are different objects
    fast = labels._repeats(texts)
    with native(False):
        ref = labels._repeats(texts)
    assert (fast is None) == (ref is None) == (len(set(texts)) == len(texts))
    if ref is not None:
        assert fast.dtype == ref.dtype and fast.tobytes() == ref.tobytes()


class _Folded(str):
    """A str that equals any text of the same letters in another case (and hashes as its lower case)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __hash__(self) -> int:
        return hash(self.lower())


def _same_ends(middle: str) -> str:
    return "Share this" + middle + "on Facebook now and here"


@_needs_c
@pytest.mark.parametrize(
    "texts",
    [
        # the same length and the same first, middle and last bytes, other bytes between them
        [_same_ends(m) for m in ("ab.cd.ef.gh.ij", "ab.cx.ef.gh.ij", "ab.cd.ef.gh.ij", "ab.cd.ef.gh.ix")],
        # the same bytes read as other kinds of str (Latin-1, UCS-2, UCS-4) are other texts
        ["\u00e9t\u00e9", "\u00e9t\u00e9", "\u0169t\u0169", "\U0001f600", "\U0001f600", "ab", "ab\x00"],
        ["x" * n for n in (7, 8, 9, 16, 24, 25, 40, 8, 25)] + ["", "", "y" * 25],
        [str(i % 37) * (i % 5) for i in range(500)],
    ],
)
def test_c_repeats_tells_texts_with_a_shared_key_apart(texts: list[str]) -> None:
    texts = [(t + "#")[:-1] for t in texts]
    out = labels._repeats(texts)
    counts = [texts.count(t) for t in texts]
    if len(set(texts)) == len(texts):
        assert out is None
    else:
        assert out.tolist() == counts


@_needs_c
def test_c_repeats_of_str_subclasses_compare_as_they_say() -> None:
    texts = [_Folded("Share"), "share", "SHARE", "Print", _Folded("print")]
    fast = labels._repeats(texts)
    with native(False):
        ref = labels._repeats(texts)
    # A dict's answer: "share" finds the folded "Share" (same hash, equal), "SHARE" hashes elsewhere.
    assert fast.tolist() == ref.tolist() == [2.0, 2.0, 1.0, 1.0, 1.0]


def _pages() -> list[tuple[str, str]]:
    files = sorted((ROOT / "tests" / "fixtures").rglob("*.htm*"))
    files += sorted((ROOT / "example_project").rglob("*.html"))[:40]
    pages = [(str(p.relative_to(ROOT)), to_unicode(p.read_bytes())[0]) for p in files]
    pages += [(f"samples/{p.name}", to_unicode(p.read_bytes())[0]) for p in sorted(SAMPLES.glob("*.html"))]
    return pages


PAGES = _pages()


def check_document(markup: str) -> None:
    doc = build(markup)
    ref = labels.label_features_reference(doc)
    assert ref.shape == (doc.n_blocks, len(labels.NAMES))
    for on in (False, True) if native_built() else (False,):
        with native(on):
            out = labels.label_features(doc)
            assert out.dtype == ref.dtype and out.tobytes() == ref.tobytes(), on
            assert labels.label_features(doc) is out  # cached for the document, under the same switch


@pytest.mark.parametrize("name,markup", PAGES, ids=[n for n, _ in PAGES])
def test_same_features_on_fixtures(name: str, markup: str) -> None:
    check_document(markup)


def test_same_features_on_a_page_of_tricky_blocks() -> None:
    blocks = "".join(f"<p>{t}</p><img src=x.png>" if i % 5 == 0 else f"<div>{t}</div>" for i, t in enumerate(_TRICKY))
    check_document(f"<html><body>{blocks}<pre>by jane\ntags: x</pre><p>by jane</p><p>by jane</p></body></html>")


_IMAGE_PAGES = [
    "<img src=a.png>",
    "<p>only text</p>",
    "<img src=a.png><p>caption below</p><p>body text</p><img src=b.png>",
    "<p>text <img src=a.png> inside one block</p><p>next</p>",
    "<p>one</p><img src=a.png><img src=b.png><p>two</p><IMG SRC=c.png><p>three</p>",
    "<div><span>a</span><img src=a.png><span>b</span></div><div>c</div><img src=d.png>",
    "<figure><img src=a.png><figcaption>Photo: x</figcaption></figure><p>body</p>",
    "<p>a</p><p> </p><img src=a.png><p>&#8203;</p><p>b</p>",
]


@pytest.mark.parametrize("body", _IMAGE_PAGES)
def test_images_next_to_blocks(body: str) -> None:
    doc = build(f"<html><body>{body}</body></html>")
    ref = labels._next_to_images_reference(doc)
    assert np.array_equal(labels._next_to_images(doc), ref)
    with native(False):
        assert np.array_equal(labels._next_to_images(doc), ref)
    check_document(f"<html><body>{body}</body></html>")


_MARKUP = st.sampled_from(
    ["<p>", "</p>", "<div>", "</div>", "<img src=x>", "<IMG>", "<img/>", "</img>", "<span>", "</span>", "<br>"]
    + ["<li>", "<h2>", "<td>", "<figure>", "<script>x</script>", "<!-- c -->", "&#8203;", "|", "word", " ", "a b"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_MARKUP, max_size=30))
def test_images_next_to_blocks_in_random_markup(parts: list[str]) -> None:
    doc = build("<html><body>" + "".join(parts) + "</body></html>")
    ref = labels._next_to_images_reference(doc)
    assert np.array_equal(labels._next_to_images(doc), ref)
    with native(False):
        assert np.array_equal(labels._next_to_images(doc), ref)


_HEADLINE_TEXTS = [
    "Harbour council backs new ferry timetable",
    "HARBOUR COUNCIL BACKS NEW FERRY TIMETABLE",
    "Harbour council backs new ferry timetable for the winter months ahead",
    "harbour council",
    "Council backs harbour ferry",
    "İstanbul harbour council backs new ferry timetable",
    "\u212aelvin harbour council backs new ferry timetable",
    "Café harbour council backs new ferry timetable",
    "Straße harbour council backs new ferry timetable",
    "ΟΔΟΣ harbour council backs new ferry timetable",
    "東京 harbour council backs new ferry timetable",
    "\u212a" * 12 + " zz",  # lowers to "kkkkkkkkkkkk zz"
    "Harbourcouncilbacksnewferry",
]
_HEADLINE_TITLES = [
    None,
    "",
    "Ferry",
    "Harbour council backs new ferry timetable",
    "Harbour Council Backs New Ferry Timetable | Gazette",
    "İstanbul harbour council backs new ferry timetable",
    "Kelvin harbour council backs new ferry timetable",
    "Café harbour council backs new ferry timetable",
    "Strasse harbour council backs new ferry timetable",
    "οδος harbour council backs new ferry timetable",
    "東京 harbour council backs new ferry timetable",
    "kkkkkkkkkkkk zz",
    "Harbour council backs new ferry timetableGazette",  # the site's name run on
    "Harbour council backs new ferry",  # holds a block's text
    "Harbourcouncilbacksnewferrytimetable ferry",  # one long word: a block may be a piece of it
]


@pytest.mark.parametrize("title", _HEADLINE_TITLES)
def test_headline_mask_matches_reference(title: str | None) -> None:
    body = "".join(f"<p>{t}</p>" for t in _HEADLINE_TEXTS)
    pre = "<pre>harbour council\nbacks new ferry timetable</pre>"
    for markup in (body, body + pre, pre + body):
        doc = build(f"<html><body>{markup}</body></html>")
        ref = zones.headline_mask_reference(doc, title)
        assert np.array_equal(zones.headline_mask(doc, title), ref), (title, markup)
        assert ref.any() == (title is not None and len(title) > 5), title


@pytest.mark.parametrize("name,markup", PAGES[:30], ids=[n for n, _ in PAGES[:30]])
def test_headline_mask_matches_reference_on_fixtures(name: str, markup: str) -> None:
    doc = build(markup)
    for title in (doc.title_tag, doc.texts[0] if doc.texts else None, "İ " + (doc.title_tag or "")):
        assert np.array_equal(zones.headline_mask(doc, title), zones.headline_mask_reference(doc, title))


@pytest.mark.parametrize(
    "title,block",
    [("Ab zz ab harbour", "ab zz ab"), ("Council harbour ab", "harbour ab"), ("Timetable ferry ferry", "Ferry, ferry")],
)
def test_headline_mask_finds_a_block_the_title_holds_without_its_longest_words(title: str, block: str) -> None:
    doc = build(f"<html><body><p>{block}</p><p>Other words here</p></body></html>")
    assert zones.headline_mask(doc, title).tolist() == [True, False]
    assert zones.headline_mask_reference(doc, title).tolist() == [True, False]


_PIECES = [*"a ab abc harbour harb our ferry Ferry timetable K \u212a zz _ -".split(), " | "]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8), min_size=1, max_size=12),
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10),
    st.sampled_from(["", " ", "|"]),
)
def test_headline_mask_matches_reference_on_any_blocks(blocks: list[list[str]], title: list[str], glue: str) -> None:
    # Words, pieces of words and words run together, in blocks and titles alike: every way a block
    # can repeat a title (reworded, holding it, held by it from a word on, its last word cut short).
    doc = build("<html><body>" + "".join(f"<p>{' '.join(b)}</p>" for b in blocks) + "</body></html>")
    for text in (glue.join(title), " ".join(title), "".join(title), *doc.texts[:3]):
        assert np.array_equal(zones.headline_mask(doc, text), zones.headline_mask_reference(doc, text)), text


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(["a", "B", "ab", "İ", "\u212a", "é", "É", "x", "\n"]), max_size=6), max_size=8)
)
def test_texts_holding_finds_every_text_holding_a_word(parts: list[list[str]]) -> None:
    texts = [" ".join(p) for p in parts]
    for needles in (["ab", "b"], ["k", "i"], ["é"], ["x"]):
        found = zones.texts_holding(texts, needles)
        assert {i for i, t in enumerate(texts) if any(w in t.lower() for w in needles)} <= found


_BOXED_PAGE = (
    "<html><body><article><h1>Ferry timetable</h1><p>" + "The council met to discuss the ferry. " * 8 + "</p>"
    "<div class=related><h3>Related articles</h3><ul><li><a>One</a></li><li><div><span>Two</span><p>x</p></div>"
    "</li></ul><p>after the list</p></div><p>Back in the article body text.</p></article>"
    "<section><h2>Comments (4)</h2><div><p>first</p><div><p>reply</p></div></div><p>second</p></section>"
    "<div><p>Tags</p></div><p>outside</p><h4>Share</h4><footer><p>Read more</p><p>foot</p></footer></body></html>"
)


@pytest.mark.parametrize(
    "name,markup", PAGES[:40] + [("boxed", _BOXED_PAGE)], ids=[n for n, _ in PAGES[:40]] + ["boxed"]
)
def test_boxed_furniture_matches_reference(name: str, markup: str) -> None:
    doc = build(markup)
    rng = np.random.default_rng(len(markup))
    for keep in (doc.words >= 10, np.ones(doc.n_blocks, dtype=bool), rng.random(doc.n_blocks) < 0.5):
        fast = never_body.boxed_furniture(doc, keep)
        assert np.array_equal(fast, never_body.boxed_furniture_reference(doc, keep))
    if name == "boxed":
        assert fast.any()


@_needs_c
def test_flag_columns_in_c_check_their_arrays() -> None:
    out = np.zeros((3, len(labels.NAMES)))
    rows = np.array([0, 2], np.int64)
    bits = np.array([labels._READ_TIME_WORD | 1, labels._DATE_WORD], np.uint8)
    labels._flag_columns(out, rows, ["5 min read", "may 3"], bits)
    want = np.zeros_like(out)
    with native(False):
        labels._flag_columns(want, rows, ["5 min read", "may 3"], bits)
    assert out.tobytes() == want.tobytes() and out[0, 5] == 1.0 and out[2, 4] == 1.0
    with pytest.raises(IndexError):
        labels._flag_columns(out, np.array([0, 3], np.int64), ["a", "b"], bits)
    with pytest.raises(ValueError):
        labels._flag_columns(out, rows[:1], ["a"], bits)


def test_a_heading_inside_the_body_element_marks_the_links_after_it() -> None:
    # No element of its own: the related list is a run of links in the article's element.
    body = "".join(
        f"<p>Paragraph {i} of the story explains how the harbour council voted on the new ferry timetable "
        f"and what the islanders said about it at the meeting on Tuesday evening.</p>"
        for i in range(6)
    )
    links = "<br>".join(
        f"<a href='/n{i}'>Island ferry fares rise again as the council reviews its budget for year {i}</a>"
        for i in range(5)
    )
    markup = f"<html><body><div class='story'>{body}<p>・関連記事<br>{links}</p><p>Back to the story's end.</p></div></body></html>"
    doc = build(markup)
    keep = np.ones(doc.n_blocks, dtype=bool)
    for marks in (never_body.boxed_furniture(doc, keep), never_body.boxed_furniture_reference(doc, keep)):
        marked = [doc.texts[i] for i in np.flatnonzero(marks)]
        assert marked[0] == "・関連記事" and len(marked) == 6
        assert all(t.startswith("Island ferry fares") for t in marked[1:])
    text = extract(markup).text
    assert "Paragraph 5 of the story" in text and "Island ferry fares" not in text
