"""``extract()`` end to end: inputs, decoding, document model, methods, titles, scores."""

from __future__ import annotations

import json
from itertools import accumulate
from pathlib import Path

import numpy as np
import pytest
from conftest import SAMPLES

from scrapy_bte import ACCELERATED, ConfigError, Extraction, ExtractionError, extract
from scrapy_bte.api import METHODS, extract_document, parse
from scrapy_bte.core import tree
from scrapy_bte.core.accel import native
from scrapy_bte.core.document import STYLE_TAGS, build, step0
from scrapy_bte.core.scripts import char_f1, weighted_words
from scrapy_bte.core.tree import AttributeReader
from scrapy_bte.fields.title import title_parts
from scrapy_bte.methods.bte import brute_force, document_span, max_span, token_runs
from scrapy_bte.methods.letterless import letterless
from scrapy_bte.methods.reasons import Reason, Trace

HERE = Path(__file__).parent
SAMPLE = (SAMPLES / "article.html").read_bytes()
ARTICLE_SENTENCE = "granite blocks salvaged from a demolished railway viaduct"
BOILERPLATE = ("All rights reserved", "We use cookies", "Ferry timetable changes", "Subscribe")


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


ARTICLE = (
    "<div class='nav'><ul>"
    + "".join(f"<li><a href='/{i}'>Section {i}</a></li>" for i in range(12))
    + "</ul></div><div class='story'><h1>Heading of the story</h1>"
    + "".join(
        f"<p>Paragraph {i} tells a long and careful story about the town council and its budget for the year.</p>"
        for i in range(6)
    )
    + "</div><div class='footer'>"
    + "".join(f"<a href='/f{i}'>Footer link {i}</a> " for i in range(10))
    + "</div>"
)


@pytest.mark.parametrize("method", METHODS)
def test_sample_page_keeps_article_and_drops_boilerplate(method):
    result = extract(SAMPLE, method=method)
    assert ARTICLE_SENTENCE in result.text
    assert "We use cookies" not in result.text
    assert result.method == method
    assert result.text == "\n".join(result.paragraphs)
    assert 0.0 <= result.confidence <= 1.0
    assert 0.0 < result.text_ratio < 1.0


def test_default_method_drops_related_links_and_sidebar():
    result = extract(SAMPLE)
    for junk in BOILERPLATE:
        assert junk not in result.text


def test_bytes_str_and_lxml_element_give_the_same_result():
    import lxml.html
    from lxml import etree

    html = page(ARTICLE, "<title>T</title>")
    tree = lxml.html.fromstring(html)
    before = etree.tostring(tree)
    from_tree = extract(tree)
    assert etree.tostring(tree) == before, "the caller's tree must not be modified"
    from_bytes = extract(html.encode("utf-8"))
    from_str = extract(html)
    assert from_tree.text == from_bytes.text == from_str.text
    assert from_tree.kept_blocks == from_bytes.kept_blocks
    assert "Paragraph 3 tells a long" in from_bytes.text


def test_decoding_from_header_meta_bom_and_sniffing():
    text = "Müller prüft die Brücke über den Fluß und schreibt einen langen Bericht darüber."
    body = f"<p>{text}</p>"
    latin = page(body).encode("cp1252")
    assert text in extract(latin, content_type="text/html; charset=windows-1252").text
    meta = page(body, "<meta charset='iso-8859-1'>").encode("iso-8859-1")
    assert text in extract(meta).text
    assert text in extract(b"\xef\xbb\xbf" + page(body).encode("utf-8")).text
    assert text in extract(latin).text, "undeclared non-UTF-8 bytes fall back to windows-1252"
    assert text in extract(page(body).encode("utf-16")).text
    assert text in extract(latin, encoding="cp1252").text


def test_invalid_bytes_and_nul_never_crash():
    junk = b"<p>caf\xc3 \xff\xfe broken \x00 bytes in a paragraph of text that goes on</p>"
    result = extract(junk, content_type="text/html; charset=utf-8")
    assert "\x00" not in result.text
    result.text.encode("utf-8")  # valid Unicode
    assert "broken" in result.text


@pytest.mark.parametrize(
    "body",
    [
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
    ],
)
def test_binary_bodies_raise_extraction_error(body):
    with pytest.raises(ExtractionError, match="binary"):
        extract(body + bytes(range(256)) * 4, content_type="text/html")


def test_bad_arguments_raise_documented_errors():
    with pytest.raises(ExtractionError, match="bytes, str or an lxml element"):
        extract(12345)
    with pytest.raises(ConfigError, match="unknown method"):
        extract("<p>x</p>", method="nope")
    with pytest.raises(ConfigError, match="unknown option"):
        extract("<p>x</p>", method="density", bogus=1)
    with pytest.raises(ExtractionError, match="unknown encoding"):
        extract(b"<p>x</p>", encoding="no-such-codec")
    with pytest.raises(ExtractionError, match="max_bytes"):
        extract(b"<p>" + b"a " * 100 + b"</p>", max_bytes=50)


@pytest.mark.parametrize("html", ["", "   \n\t ", "<html></html>", "<!-- only a comment -->", "<script>x=1</script>"])
def test_pages_without_text_give_an_empty_result(html):
    result = extract(html)
    assert result.text == "" and result.paragraphs == []
    assert result.confidence == 0.0 and result.span is None


def test_text_after_100k_nested_elements_is_found_and_libxml2_loses_it():
    depth = 100_000
    html = (
        "<html><body>" + "<div>" * depth + "<p>" + "deep sentence " * 30 + "</p>" + "</div>" * depth + "</body></html>"
    )
    result = extract(html, method="bte")
    assert "deep sentence deep sentence" in result.text
    # A parser with a depth cap (libxml2: 256 levels) silently drops the text.
    import lxml.html

    parsed = lxml.html.fromstring(html)
    assert "deep sentence" not in parsed.text_content()


def test_learned_methods_fall_back_to_hybrid_on_block_soup():
    from scrapy_bte.api import LEARNED_BYTES_PER_BLOCK, LEARNED_MIN_BLOCKS

    article = "".join(f"<p>{'The harbour keeper wrote the season down in the ledger. ' * 6}</p>" for _ in range(8))
    soup = "<html><body>" + article + "<p>ab</p>" * (LEARNED_MIN_BLOCKS + 100) + "</body></html>"
    doc = parse(soup)
    assert doc.n_blocks > max(LEARNED_MIN_BLOCKS, len(soup) // LEARNED_BYTES_PER_BLOCK)
    for method in ("auto", "model"):
        result = extract(soup, method=method, comments=False)
        assert result.method == "hybrid"
        assert result == extract(soup, method="hybrid", comments=False)
    # Under the bound (fewer blocks, or as many in a larger page) the model runs.
    assert extract("<html><body>" + article + "<p>ab</p>" * 100 + "</body></html>").method == "auto"
    padded = soup.replace("<p>ab</p>", "<p title='" + "x" * LEARNED_BYTES_PER_BLOCK + "'>ab</p>")
    assert extract(padded, method="model").method == "model"


def test_step0_removes_content_free_elements():
    cleaned, title = step0(
        "<head><title>The title</title><style>p{}</style></head><body><script>var x='<p>';</script>"
        "<!-- a comment --><p>kept</p><noscript>js off</noscript><select><option>opt</option></select>"
        "<!--> closed at once <p>after</p><svg><text>drawn</text></svg><iframe src=x>frame</iframe></body>"
    )
    assert title == "The title"
    for gone in ("var x", "a comment", "js off", "opt", "drawn", "frame", "p{}"):
        assert gone not in cleaned
    assert "kept" in cleaned and "closed at once" in cleaned and "after" in cleaned


@pytest.mark.parametrize(
    "inline,text",
    [
        ("<span>899 EUR</span><span>17 reviews</span>", "899 EUR 17 reviews"),  # a price beside a rating
        ("<a>Kayak</a> <a>Haven</a>", "Kayak Haven"),  # white space was there already
        ("<span>Radtke</span></a><a href=x><i></i>Mar 3</a>", "Radtke Mar 3"),  # nested ends and starts
        ("<span>trail</span><span>shoes</span>", "trail shoes"),
        ("<b>Gear</b><i>s</i>", "Gears"),  # a piece under three characters
        ("<span class=drop>T</span>he cap", "The cap"),  # no start tag after the end
        ("<span>Wel</span><span>Come</span>", "Wel Come"),
        ("<span>KM</span><span>toGo</span>", "KMtoGo"),  # a capital then a lower-case letter
        ("area km<sup>2</sup>", "area km2"),  # no end tag before the start
        ("<span>area km</span><sup>2</sup>", "area km2"),  # a piece under three characters
        ("<span>F</span><span>L</span><span>O</span><span>W</span>", "FLOW"),  # a letter per element
        ("<a>the Guide</a><span>.</span>", "the Guide."),  # punctuation joins
        ("<span>Caf\u00e9</span><span>Bar</span>", "Caf\u00e9Bar"),  # ASCII letters only
        ("<span>EUR 20.99</span><span>EUR 20.99</span>", "EUR 20.99EUR 20.99"),  # a copy: extract() reads it once
    ],
)
def test_pieces_meeting_at_an_element_boundary_part_as_their_readers_see_them(inline: str, text: str) -> None:
    """Where one element ends and the next starts, a browser joins the two texts, but pages style
    such elements as boxes of their own (prices, ratings, tags), so a word that ends one and a
    word, number or capital that starts the other stay apart; parts of one word stay one."""
    assert build(f"<p>{inline}</p>").texts == [text]


def test_unclosed_script_ends_at_next_end_tag_so_article_survives():
    html = "<body><script>var a = 1;<div><p>" + "An article sentence that matters. " * 10 + "</p></div></body>"
    assert "An article sentence that matters." in extract(html).text


def test_an_unclosed_button_ends_where_its_container_closes_so_the_article_survives():
    """A poll whose last answer's ``<button>`` is never closed: browsers end the button where the
    markup closes an element around it, and so does step 0, instead of dropping everything up to
    the next button's end tag (the rest of the article). A button's own content stays out."""
    said = "The history of project management spans thousands of years of building. " * 4
    html = (
        "<html><body><article><h1>Guide</h1><p>" + "Planning a project starts with its goals. " * 5 + "</p>"
        "<aside class='poll'><h3>How do you begin a project?</h3><div class='answers'>"
        "<div><button data-answer='1'><span>Set goals</span></button></div>"
        "<div><button data-answer='2'><span>Choose teams</span></div></div></aside>"
        f"<h2>A brief history</h2><p>{said}</p><p>{said.replace('history', 'practice')}</p></article>"
        "<footer><button type='button'>Back to top</button><p>Imprint</p></footer></body></html>"
    )
    cleaned = step0(html)[0]
    assert "A brief history" in cleaned and "Imprint" in cleaned
    assert "Set goals" not in cleaned and "Choose teams" not in cleaned and "Back to top" not in cleaned
    text = extract(html).text
    assert said.strip() in text and "practice of project management" in text
    # Elements opened inside the button close inside it; another button's start tag ends the open one.
    assert step0("<button>a<div>in</div>b</button>c")[0] == "c"
    assert step0("<p><button>a<button>b</button>c</p>")[0] == "<p>c</p>"
    assert step0("<ul><li><button>x</li><li>y</li></ul><button>z</button>")[0] == "<ul><li></li><li>y</li></ul>"


def test_a_self_closed_svg_is_empty_and_the_text_after_it_stays():
    """SVG and MathML honour "/>": ``<svg .../>`` is an empty icon, not the start of a drawing that
    runs to the next ``</svg>`` (the article between them). HTML's own elements ignore the slash."""
    body = "An article paragraph that sits between two icons and must survive them. " * 4
    html = f"<html><body><article><h1>Title</h1><svg class='icon' /><p>{body}</p><svg><path d='M0'/>drawn</svg></article></body></html>"
    cleaned = step0(html)[0]
    assert body in cleaned and "drawn" not in cleaned
    assert body.strip() in extract(html).text
    # A slash inside an unquoted value is part of the value; a button's slash is ignored.
    assert step0("<svg a=b/>gone</svg>after")[0] == "after"
    assert step0("<button/>label</button>after")[0] == "after"


def test_blocks_carry_features():
    doc = build(page("<div><p>one two <a href='#'>three four</a></p><p>five six seven</p><br>eight</div>"))
    assert doc.texts == ["one two three four", "five six seven", "eight"]
    assert list(doc.words) == [4, 3, 1]
    assert list(doc.link_words) == [2, 0, 0]
    assert doc.opener[:2] == ["p", "p"]
    assert doc.el_name[int(doc.container[0])] == "div"
    assert all(doc.bytes >= doc.chars)


def test_bte_on_document_matches_brute_force_over_tokens():
    html = page("<a>x</a><b><i>one two three four five</i></b><p>six seven</p><u></u><s>eight</s><span>nine</span>")
    doc = build(html)
    # The token sequence of Finn's paper, literally: +1 per word, -1 per tag,
    # except that font style tags (b, i, u, s, font, ...) count as nothing.
    import re

    tokens: list[int] = []
    for piece in re.split(r"(<[^>]+>)", step0(html)[0]):
        if piece.startswith("<"):
            if re.match(r"</?([a-z]+)", piece).group(1) not in STYLE_TAGS:
                tokens.append(-1)
        else:
            tokens.extend([1] * len(piece.split()))
    score, i, j = brute_force(tokens)
    span = document_span(doc)
    assert span is not None
    assert span.score == score == max_span(np.array(tokens))[0]
    assert span.words == sum(1 for t in tokens[i : j + 1] if t > 0)


def test_font_style_tags_do_not_cut_bte_runs():
    styled = build("<p>one <b>two</b> <font color=red><i>three</i></font> four</p>")
    spans = build("<p>one <span>two</span> <em><small>three</small></em> four</p>")
    assert token_runs(styled)[0].tolist() == [-1.0, 4.0, -1.0]  # <p>, the words, </p>
    assert token_runs(spans)[0].tolist() == [-1.0, 1.0, -1.0, 1.0, -3.0, 1.0, -2.0, 1.0, -1.0]
    assert styled.total_tags == 8  # still tags of the page, for density and the features
    # Every other word in bold: counted as tags, the markup would outweigh the
    # article and BTE would settle for the footer's one clean line.
    para = "<p><font face=arial>" + " ".join(["plain <b>bold</b>"] * 10) + "</font></p>"
    menu = "".join(f"<a href=/{k}>Home</a><br>" for k in range(12))
    footer = "<p>Copyright notice of the site goes here</p>"
    result = extract("<html><body>" + menu + para * 8 + menu + footer + "</body></html>", method="bte")
    assert result.text.count("plain bold") == 80 and "Home" not in result.text and "Copyright" not in result.text


def test_bte_tie_break_and_no_word_pages():
    assert max_span(np.array([1, -1, 1])) == (1.0, 0, 2)  # ties: earliest start, then latest end
    assert max_span(np.array([-1, -1, -1])) == (-1.0, 0, 0)
    assert max_span(np.array([])) == (0.0, -1, -1)
    assert document_span(build("<p></p><div></div>")) is None


def test_link_text_can_be_discounted_in_bte():
    doc = build(page(ARTICLE))
    finn = document_span(doc)
    no_links = document_span(doc, link_weight=0.0)
    assert finn is not None and no_links is not None
    assert no_links.words < finn.words or no_links.first_block >= finn.first_block


def _head_page(head: str, body: str) -> bytes:
    return f"<html><head>{head}</head><body>{body}<p>{'Stone by stone the wall went up again. ' * 20}</p></body></html>".encode()


@pytest.mark.parametrize(
    ("head", "body", "title"),
    [
        # og:title before <title>; the site name stripped from either
        ('<meta property="og:title" content="OG headline"><title>Tag | Site</title>', "", "OG headline"),
        ("<title>Council approves budget | Daily Planet</title>", "", "Council approves budget"),
        (
            '<meta property="og:site_name" content="Daily Planet"><title>Daily Planet - Council approves it</title>',
            "",
            "Council approves it",
        ),
        # a colon inside a headline does not split it; one setting off the site's name does
        ("<title>Fall 2025: what cooks eat - Section - Daily Planet</title>", "", "Fall 2025: what cooks eat"),
        (
            '<meta property="og:site_name" content="Daily Planet"><title>Daily Planet: Ferry news</title>',
            "",
            "Ferry news",
        ),
        # the headline block that repeats the markup's title with the site around it wins
        (
            '<meta property="og:title" content="Ferry service returns this spring | Daily Planet">',
            "<h1>Ferry service returns this spring</h1>",
            "Ferry service returns this spring",
        ),
        ("", "<h1>Only the h1</h1>", "Only the h1"),
        ("", "", None),
    ],
)
def test_titles_follow_the_documented_preference_order(head: str, body: str, title: str | None) -> None:
    html = _head_page(head, body)
    assert extract(html).title == title
    assert extract(html, fields=["title"]).title == title  # one rule with or without fields
    assert extract(html, fields=["author"]).title == title


def test_title_parts_split_at_strong_separators_only():
    assert title_parts("Fall 2025: What Experts Eat | Site") == ["Fall 2025: What Experts Eat", "Site"]
    assert title_parts("Headline :: Section / Site") == ["Headline", "Section", "Site"]
    assert title_parts("No separator here") == ["No separator here"]


def test_other_checks_of_titles_and_names():
    assert extract(SAMPLE).title == "Harbour town rebuilds its sea wall with recycled stone"
    assert extract(page("<h1>Fallback heading</h1><p>text text</p>")).title == "Fallback heading"


TITLE_FIXTURES = [
    (
        "<meta property='og:title' content='Storm closes bridge'><title>Storm closes bridge | Gazette</title>",
        "Storm closes bridge",
    ),
    ("<title>Gazette » Local » Bakery wins national award</title>", "Bakery wins national award"),
    (
        "<title>Ferry fares rise again — The Island Times</title><meta property='og:site_name' content='The Island Times'>",
        "Ferry fares rise again",
    ),
]


@pytest.mark.parametrize("head,expected", TITLE_FIXTURES)
def test_title_fixtures(head, expected):
    assert extract(page("<p>body text here</p>", head)).title == expected


LANG_DIR = HERE / "fixtures" / "lang"


@pytest.mark.parametrize("lang", ["zh", "ja", "th", "vi"])
def test_languages_without_and_with_spaces(lang):
    html = (LANG_DIR / f"{lang}.html").read_bytes()
    gold = (LANG_DIR / f"{lang}.txt").read_text(encoding="utf-8")
    body = gold.splitlines()[1:]  # the article paragraphs without the headline
    # Plain BTE keeps some long-titled link lists after the article (its
    # known recall/precision trade-off); the hybrid trims them.
    for method, floor in (("bte", 0.75), ("hybrid", 0.9)):
        out = extract(html, method=method).text
        # Scored on character shingles: words are not separated in zh/ja/th.
        assert char_f1(out, "\n".join(body)) >= floor, (lang, method, out[:200])


def test_spaceless_letters_count_as_fractions_of_words():
    assert weighted_words("one two three") == 3
    han = weighted_words("老城区启动雨水花园改造工程")
    assert 0 < han < 13
    thai = weighted_words("ชุมชนริมน้ำ")
    # Thai combining marks (U+0E31, U+0E34-U+0E3A, U+0E47-U+0E4E) do not count.
    assert thai < len("ชุมชนริมน้ำ")
    assert weighted_words("Hà Nội mở thêm tuyến") == 5


JAPANESE_PAGE = page(
    "<nav><ul>"
    + "".join(
        f"<li><a href='/{i}'>{name}</a></li>" for i, name in enumerate(["速報", "社会", "経済", "政治", "国際"] * 6)
    )
    + "</ul></nav><article><h1>メディア芸術祭賞の発表</h1>"
    + "<p>文化庁は１日、アート、エンターテインメント、アニメーション、マンガの４部門で優れた作品を顕彰する"
    + "今年度のメディア芸術祭賞を発表した。エンターテインメント部門の大賞はテレビ番組が受賞した。</p>"
    + "<p>アート部門はサウンドインスタレーション、アニメーション部門は短編、マンガ部門は長編が大賞に選ばれた。"
    + "贈呈式は来月、東京都内で開かれる予定だという。</p></article>"
    + "<footer>"
    + "".join(f"<a href='/f{i}'>利用規約</a> &#160;|&#160; " for i in range(8))
    + "</footer>"
)


def as_references(markup: str) -> str:
    """Every non-ASCII character written as a numeric reference, as some serialisers save pages."""
    return "".join(ch if ch.isascii() else f"&#x{ord(ch):X};" for ch in markup)


@pytest.mark.parametrize("on", [False, True])
def test_numeric_references_count_as_the_characters_they_name(on):
    if on and not ACCELERATED["core.document"]:
        pytest.skip("scrapy_bte._native.document is not built")
    with native(on):
        written = build(as_references(JAPANESE_PAGE))
        plain = build(JAPANESE_PAGE.replace("&#160;", "\u00a0"))
    assert written.texts == plain.texts
    assert np.array_equal(written.words, plain.words)
    # A reference is one character of text: density and markup bytes measure the page as written out.
    assert np.array_equal(written.bytes, plain.bytes) and np.array_equal(written.chars, plain.chars)
    # A Japanese paragraph is many words, not the one "token" its references spell without a space.
    paragraph = written.texts.index(next(t for t in written.texts if t.startswith("文化庁")))
    assert written.words[paragraph] > 40
    assert np.array_equal(written.seg_words, plain.seg_words)


def test_a_page_written_in_references_extracts_like_the_same_page_in_utf8():
    plain = extract(JAPANESE_PAGE)
    written = extract(as_references(JAPANESE_PAGE))
    assert written.text == plain.text
    assert "文化庁は１日" in written.text and "速報" not in written.text and "利用規約" not in written.text


def test_extraction_to_dict_is_json_safe_and_round_trips():
    result = extract(SAMPLE)
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = Extraction.from_dict(data)
    assert again == result
    scores = result.scores()
    assert set(scores) == {
        "bte_score",
        "density",
        "text_ratio",
        "confidence",
        "method",
        "title",
        "words",
        "fingerprint",
    }
    assert Extraction.failed("timeout").scores()["error"] == "timeout"


def test_scores_are_in_range_and_mean_something():
    good = extract(SAMPLE)
    nav_only = extract(page("".join(f"<li><a href='/{i}'>Link {i}</a></li>" for i in range(40))))
    assert 0 <= good.bte_score <= 1 and 0 <= good.text_ratio <= 1 and 0 < good.density <= 1
    assert good.confidence > nav_only.confidence


def test_density_method_threshold_rules():
    for rule in ("fixed", "mean", "half-minus-std", "gaussian"):
        result = extract(page(ARTICLE), method="density", threshold=rule)
        assert "Paragraph 2 tells a long" in result.text, rule
    with pytest.raises(ConfigError):
        extract(page(ARTICLE), method="density", threshold="median")


def test_parse_exposes_the_document():
    doc = parse(SAMPLE)
    assert doc.n_blocks > 10
    assert doc.title_tag and doc.meta.get("og:site_name") == "The Coastal Courier"


def test_utf8_bytes_win_over_a_stale_meta_charset():
    text = "新电脑已可利用记忆自学，人工智能迈上新台阶。" * 3
    body = page(f"<p>{text}</p>", "<meta http-equiv='Content-Type' content='text/html; charset=gb2312'>")
    assert text in extract(body.encode("utf-8"), method="bte").text
    # Bytes really in the declared encoding still decode with it.
    assert text in extract(body.encode("gb18030"), method="bte").text


def test_attribute_reader_reads_each_new_string_once_and_stays_right_when_full():
    read: list[str] = []

    def hidden(raw: str) -> int:
        read.append(raw)
        return 1 if "display:none" in raw.replace(" ", "").lower() else 2

    reader = AttributeReader(hidden, ("style",), size=3)
    page = [' class="a"', ' STYLE="display: none"', ' style="color:red"', ' class="a"', ""]
    assert reader.values(page).tolist() == [0, 1, 2, 0, 0]
    assert sorted(read) == sorted([' STYLE="display: none"', ' style="color:red"'])  # only strings naming a style
    assert reader.values(page).tolist() == [0, 1, 2, 0, 0]
    assert len(read) == 2  # seen strings are looked up, not read again
    # More new strings than the memo holds: it starts over and still answers every string.
    other = [' style="x"', ' id="b"', ' Style="display:none"', ' class="a"']
    assert reader.values(other).tolist() == [2, 0, 1, 0]
    assert reader.values(page).tolist() == [0, 1, 2, 0, 0]


def test_attribute_reader_per_element_equals_its_values_of_every_string() -> None:
    """The page-wide search (:attr:`Skeleton.attr_search`) finds the strings :meth:`values` reads:
    words in any case, at a string's start or end, several in one string, none, and a page whose
    lower case changes a length (U+0130) that falls back to :meth:`values`."""
    read: list[str] = []

    def named(raw: str) -> int:
        read.append(raw)
        return 1 + raw.lower().count("comment")

    bodies = [
        "<div class='Comments'><p>one</p></div><div id='x'><p>two</p></div><div class='REPLY comment'><p>3</p></div>"
        "<div data-x='commentary' class='c'><p>four</p></div><span class='comment'>five</span><p>six</p>",
        "<div class='a'><p>no word here</p></div>",
        "<div class='\u0130stanbul'><p>one</p></div><div class='comment'><p>two</p></div>",
    ]
    for body in bodies:
        doc = build(page(body))
        sk = doc.skeleton
        reader = AttributeReader(named, ("comment", "repl"))
        want = AttributeReader(named, ("comment", "repl")).values(sk.attr_strings)[sk.el_attr_id]
        read.clear()
        assert reader.per_element(doc).tolist() == want.tolist()
        assert len(read) == len(set(read))  # each string read once
        assert reader.per_element(doc).tolist() == want.tolist()
    assert build(page(bodies[2])).skeleton.attr_search is None


@pytest.mark.parametrize("long", [False, True])
def test_strings_mentioning_finds_every_string_holding_a_word(long: bool) -> None:
    """The one read of a page's strings (short and long, with and without the C pass) finds the
    strings that hold a word: at a string's start or end, twice in one string, words
    overlapping, strings of one-, two- and four-byte characters."""
    strings = [
        ' class="comment"',
        "",
        ' id="x"',
        "comment",
        ' class="replies comment-list"',
        ' data-x="repl\u00e9"',
        ' class="\u4e2d\u6587 comment"',
        ' class="\U0001f600 x"',
        ' class="commentcomment"',
        "repl",
        ' title="co mment"',
    ]
    if long:
        strings += [f' class="filler-{i} x{i}"' for i in range(400)] + [' class="comment last"']
    low = "\x00".join(strings).lower()
    ends = [end - 1 for end in accumulate(len(raw) + 1 for raw in strings)]
    words = ("comment", "repl", "mentc")
    want = [i for i, raw in enumerate(strings) if any(word in raw for word in words)]
    for accelerated in (True, False):
        with native(accelerated):
            assert tree.strings_mentioning((low, ends), words) == want
            assert tree.strings_mentioning((low, ends), ("absent",)) == []


def test_readers_of_one_page_share_its_read_and_pages_do_not_share_answers() -> None:
    """Readers asking one page in turn, pages asking other words than the page before, more
    words than one read takes: every answer is the page's own."""

    def page(names: list[str]) -> tuple[str, list[int]]:
        # Long enough to be read once for every word asked of it (tree.ONE_READ_FROM).
        strings = [f' class="{name}"' for name in names] + [f' id="pad{i}"' for i in range(400)]
        return "\x00".join(strings), [end - 1 for end in accumulate(len(raw) + 1 for raw in strings)]

    def want(search: tuple[str, list[int]], words: tuple[str, ...]) -> list[int]:
        low = search[0]
        strings = low.split("\x00")
        return [i for i, raw in enumerate(strings) if any(word in raw for word in words)]

    many = tuple(f"word{i:02d}" for i in range(40))
    asks = [("role", "hidden"), ("comment", "repl"), ("dialog",), many, ("role", "hidden")]
    pages = [
        page(["role-a", "x", "comment-b", "dialog c", "hidden", *many[::3]]),
        page(["y", "replies", "z"] * 50),
        page(["dialog", "role", "word39 word01"]),
        page([]),
    ]
    assert all(len(low) >= tree.ONE_READ_FROM for low, _ in pages)
    for search in pages + pages[::-1]:
        for words in asks:
            assert tree.strings_mentioning(search, words) == want(search, words)
        # The answer is the caller's own list: changing it changes no later answer.
        tree.strings_mentioning(search, ("role",)).append(10**6)
        assert tree.strings_mentioning(search, ("role",)) == want(search, ("role",))


def test_starts_element_marks_the_blocks_a_new_name_tag_opens() -> None:
    """Against the tag stream read tag by tag: a block begins a ``name`` element when such a start
    tag lies after the previous block's opening tag and at or before its own."""
    fixtures = Path(__file__).parent / "fixtures"
    pages = [(SAMPLES / "article.html").read_text(encoding="utf-8")]
    pages += [(fixtures / name).read_text(encoding="utf-8") for name in ("forum.html", "comments.html", "broken.html")]
    pages += [page("<ul><li><a href=x>one</a> two</li><li>three <b>four</b></li></ul><p>five</p>"), "no tags", ""]
    for markup in pages:
        doc = build(markup)
        for name in ("li", "p", "a", "h2", "absent", "/li"):
            hit = np.array([tag == name for tag in doc.tag_names], dtype=bool)
            seen = np.concatenate(([0], np.cumsum(hit)))[doc.block_start_tag + 1]
            got = doc.starts_element(name)
            assert got.dtype == bool and got.tolist() == (np.diff(seen, prepend=0) > 0).tolist(), name


def test_path_or_and_nearest_marked_with_the_skeletons_steps_are_the_forward_pass() -> None:
    """Values OR-ed down the tree, and the nearest marked element of each element and its ancestors,
    by the skeleton's pointer-jumping steps equal a forward pass."""
    from scrapy_bte.core.document import build
    from scrapy_bte.core.tree import nearest_marked, path_or

    rng = np.random.default_rng(5)
    for depth in (1, 3, 17):
        html = "<div><section><p>x</p></section>" * 3 + "<div>" * depth + "<p>deep</p>" + "</div>" * depth + "</div>"
        doc = build(f"<html><body>{html}</body></html>")
        parents = doc.skeleton.parents
        for _ in range(5):
            own = rng.integers(0, 1 << 6, size=len(parents)).astype(np.int64)
            want = own.copy()
            want[0] = 0
            marked = own % 3 == 0
            nearest = np.zeros(len(parents), dtype=np.int64)
            for i in range(1, len(parents)):
                want[i] |= want[parents[i]]
                nearest[i] = i if marked[i] else nearest[parents[i]]
            assert np.array_equal(path_or(doc, own), want)
            assert np.array_equal(path_or(doc, own), want)  # the cached steps again
            assert np.array_equal(nearest_marked(doc, marked), nearest)


def _calendar_page(comments: str = "") -> str:
    """A blog page whose only text left is a calendar widget's day numbers."""
    days = range(1, 36)
    rows = "".join(
        "<tr>" + "".join(f"<td>{d}</td>" if d <= 31 else "<td></td>" for d in days[w * 7 : w * 7 + 7]) + "</tr>"
        for w in range(5)
    )
    return (
        "<html><head><title>July 2012</title></head><body>"
        f"<table id='wp-calendar'>{rows}</table>{comments}</body></html>"
    )


@pytest.mark.parametrize("method", METHODS)
def test_a_selection_without_a_letter_is_no_text(method: str) -> None:
    # A calendar's days kept as a column of numbers; the page reads as empty instead.
    result = extract(_calendar_page(), method=method)
    assert (result.text, result.paragraphs, result.kept_blocks, result.words) == ("", [], [], 0)
    assert result.text_ratio == 0.0 and result.confidence == 0.0


def test_the_trace_says_why_a_letterless_selection_went() -> None:
    doc = parse(_calendar_page())
    trace = Trace()
    result = extract_document(doc, method="auto", trace=trace)
    assert result.text == ""
    gone = [b for b in range(doc.n_blocks) if trace.reasons[b] == Reason.NO_LETTERS]
    assert len(gone) >= 20 and all(doc.texts[b].isdigit() for b in gone)


def test_letterless_reads_letters_of_any_script_and_words_as_the_blocks_count_them() -> None:
    def read(*texts: str) -> bool:
        return letterless(list(texts), [weighted_words(text) for text in texts])

    assert read("2", "3", "17.07.2012") and not read("2", "März") and not read()
    assert not read("七月")  # Han letters are letters
    # A calendar with its language links is no text; one beside a sentence is the sentence's page.
    calendar = [str(day) for day in range(1, 32)]
    assert read("Espanol", "Deutsch", *calendar)
    assert not read("The harbour council met on Tuesday to discuss the ferry timetable.", *calendar)
    assert not read("緑町商店街の空き店舗に若い店主", *calendar)  # 15 letters: 6 words
