"""Article fields read from markup: each source, their order, cleaning, and the byline blocks."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from scrapy_bte import extract
from scrapy_bte.core.document import build
from scrapy_bte.evidence import labels
from scrapy_bte.evidence.labels import byline_opener, byline_start
from scrapy_bte.evidence.zones import find_headline, find_headline_held, fold, repeats_title
from scrapy_bte.fields import dates, values
from scrapy_bte.fields import title as title_rule
from scrapy_bte.fields import zones as zones_module
from scrapy_bte.fields.jsonld import Graph, parse
from scrapy_bte.fields.read import read_markup, read_page, read_page_zones
from scrapy_bte.fields.record import FIELD_NAMES, Fields
from scrapy_bte.fields.title import strip_site
from scrapy_bte.fields.zones import page_zones
from scrapy_bte.learned.profiles import PROFILES

FIXTURES = Path(__file__).parent / "fixtures" / "fields"
#: A body of text below the headline, for the pages these tests build.
_BODY = "<p>" + "The council voted on the new ferry timetable after a long evening of debate. " * 6 + "</p>"
URL = "https://www.example.org/section/page.html"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_json_ld_graph_with_references_and_relative_urls():
    f = read_page(fixture("graph.html"), url=URL)
    assert f.title == "Harbour crane returns after restoration"  # JSON-LD headline, not og:title
    assert f.author == "Mirela Ostrowska, Tobias Fenwick"  # two @id references resolved
    assert f.date == "2024-05-03T09:15:00+02:00"  # offset kept
    assert f.modified == "2024-05-04T18:00:00+00:00"  # Z written as an offset
    assert f.description == "The steam crane is working again."
    assert f.image == "https://www.example.org/img/crane-lead.jpg"  # ImageObject by @id, resolved
    assert f.canonical_url == "https://www.example.org/news/harbour-crane"
    assert f.site_name == "The Quayside Courier"
    assert f.language == "en-GB"  # html lang "en-gb" in BCP 47 case
    assert f.sources["title"] == "json-ld" and f.sources["canonical_url"] == "link"


def test_without_a_page_url_relative_urls_resolve_against_an_absolute_canonical():
    page = fixture("graph.html").replace('href="/news/harbour-crane"', 'href="https://quay.example.com/n/1"')
    f = read_markup(page)
    assert f.image == "https://quay.example.com/img/crane-lead.jpg"
    assert read_markup(fixture("graph.html")).canonical_url == "/news/harbour-crane"  # nothing to resolve against


def test_json_ld_array_and_author_list():
    f = read_page(fixture("array.html"), url=URL)
    assert f.title == "Le marché du samedi"
    assert f.author == "Camille Roussel, Jonas Lefèvre"  # a Person and a plain string
    assert f.image == "https://cdn.example.org/marche-1.jpg"  # first of a list
    assert f.date == "2022-06-11T07:30:00+00:00"
    assert f.language == "fr"


def test_broken_json_ld_is_repaired_or_read_for_its_pairs():
    f = read_page(fixture("broken.html"))
    assert (f.title, f.author, f.date) == ("Notes from the allotment", "Ines Valcourt", "2023-11-30")
    # The unrepairable script still yields its string pairs.
    pairs = parse('{"@type": "NewsArticle", "headline": "Still "read" here", "datePublished": "2020-02-02", ')
    assert pairs and pairs[0]["datePublished"] == "2020-02-02"


def test_open_graph_twitter_article_and_dublin_core():
    f = read_page(fixture("meta.html"), url=URL)
    assert f.title == "Winter timetable for the island ferry"
    assert f.author == "Hedda Lindqvist"  # article:author is a profile URL: skipped; "By" dropped
    assert f.date == "2024-11-05T16:20:00+00:00"  # RFC 2822 in article:published_time
    assert f.modified == "2024-11-06T08:00:00"  # no offset on the page, none invented
    assert f.image == "https://img.example.net/ferry.jpg"
    assert f.language == "en" and f.sources["language"] == "dc"
    assert f.canonical_url == "https://lakeside.example.net/ferry-winter"
    assert f.sources["author"] == "meta" and f.sources["date"] == "article"


def test_meta_value_attribute_is_read_where_content_is_missing():
    page = "<html><head><meta property='og:title' value='Written as value'></head><body><p>x</p></body></html>"
    assert read_markup(page).title == "Written as value"


def test_microdata_takes_the_first_author_and_the_time_datetime():
    f = read_page(fixture("microdata.html"), url=URL)
    assert f.title == "Neue Brücke über den Kanal eröffnet"
    assert f.author == "Greta Holmfeld"  # the comment's itemprop=author later on is not the article's
    assert f.date == "2021-09-14T11:00:00+02:00"
    assert f.modified == "2021-09-15"
    assert f.image == "https://www.example.org/section/bilder/bruecke.jpg"
    assert f.language == "de-DE"


def test_byline_and_dateline_blocks_fill_what_the_markup_lacks():
    markup = fixture("byline.html")
    f, zones = read_page_zones(markup)
    assert f.author == "Dmitri Vossberg" and f.sources["author"] == "byline-block"
    assert f.date == "2025-02-28T14:05:00" and f.sources["date"] == "dateline-block"
    doc = build(markup)
    assert doc.texts[zones.headline] == "Village hall gets a new roof"
    assert [doc.texts[i] for i in zones.byline] == ["By Dmitri Vossberg - 28 February 2025, 14:05"]
    assert zones.dateline == zones.byline
    assert set(zones.blocks) == {zones.headline, *zones.byline}
    assert not any("slate roof" in doc.texts[i] for i in zones.blocks)


def test_a_lone_by_block_takes_the_names_from_the_next_block():
    markup = fixture("lone_by.html")
    f, zones = read_page_zones(markup)
    doc = build(markup)
    assert f.author == "Ana Beltrán"
    assert [doc.texts[i] for i in zones.byline] == ["By", "Ana Beltrán"]
    # Language detected as English: the numeric date is read month first, with its clock.
    assert f.language == "en" and f.date == "2025-03-04T23:30:00"


@pytest.mark.parametrize(
    ("markup", "author"),
    [
        ("<h1>Ferry timetable changes</h1><p>By: Ana Beltrán</p>", "Ana Beltrán"),
        ("<h1>Ferry timetable changes</h1><p>Written by:</p><p>Ana Beltrán</p>", "Ana Beltrán"),
        ("<h1>Ferry timetable changes</h1><p>Autor: Ana Beltrán</p>", "Ana Beltrán"),
    ],
)
def test_the_byline_zone_reads_the_label_features_openers(markup: str, author: str) -> None:
    """The fields' byline zone and the ``byline_start`` flag share one rule (evidence.labels.byline_opener)."""
    page = (
        "<html><body>" + markup + "<p>" + "The council met on Monday to discuss the ferry. " * 6 + "</p></body></html>"
    )
    assert page_zones(build(page), "Ferry timetable changes").author == author


def test_byline_opener_is_the_byline_start_flag() -> None:
    for low in ("by ana", "by", "written by", "autor: ana", "author", "文/王", "by: ana", "bylines"):
        assert byline_start(low) == bool(labels.text_flags_reference([low])[0] & 4), low
    assert byline_opener("by: ana") is None and byline_opener("by: ana", word_colon=True) == 4


def test_page_zones_signature_for_body_selection():
    doc = build(fixture("byline.html"))
    zones = page_zones(doc, ["Village hall gets a new roof"])
    assert zones.headline == doc.opener.index("h1")
    assert zones.author == "Dmitri Vossberg"
    assert page_zones(build("<html><body></body></html>")).blocks == ()


def _headline_plain(doc, titles):
    """find_headline without its lazy scan: every heading listed and folded first."""
    heads = [i for i, name in enumerate(doc.opener) if name in ("h1", "h2")]
    titles = [titles] if isinstance(titles, str) else titles
    wanted = [w for w in map(fold, titles) if w] if titles and heads else []
    folded = [fold(doc.texts[i]) for i in heads]
    for reworded in (False, True):
        for want in wanted:
            for i, got in zip(heads, folded):
                if repeats_title(got, want, reworded):
                    return i
    return next((i for i in heads if doc.opener[i] == "h1"), None)


_HEADLINE = "Harbour council backs new ferry timetable"


@pytest.mark.parametrize(
    "text,title,reworded,repeats",
    [
        # The site's name or a section around the headline, or run on without a space.
        (_HEADLINE, "Harbour Council Backs New Ferry Timetable | The Gazette", False, True),
        (_HEADLINE, "News: " + _HEADLINE, False, True),
        ("Recap from Google I/O 2012", "Recap from Google I/O 2012Rob Tiffany", False, True),
        # Held, but less than half of the longer: a section name is no headline.
        ("Ferries", "Ferries: harbour council backs new timetable", True, False),
        # Held from inside a word: not from one of its words on.
        ("arbour council backs new ferry timetable", _HEADLINE, False, False),
        # The same headline reworded: most words in common both ways, the order aside.
        ("Council backs new harbour ferry timetable", _HEADLINE, True, True),
        ("Council backs new harbour ferry timetable", _HEADLINE, False, False),
        # A heading sharing a few words only, and an unrelated one.
        ("Ferry timetable for the winter", _HEADLINE, True, False),
        ("Weather", _HEADLINE, True, False),
        ("", _HEADLINE, True, False),
    ],
)
def test_repeats_title(text, title, reworded, repeats):
    assert repeats_title(fold(text), fold(title), reworded) is repeats
    assert repeats_title(fold(title), fold(text), reworded) is repeats  # whichever is the title


def test_fold_keeps_words_only():
    assert fold("  Café: the_best — 3 TIPS!  ") == "café the best 3 tips"
    assert fold("!!! …") == ""


def test_find_headline_scans_headings_lazily_with_the_plain_result():
    pages = [
        "<h2>Weather</h2><p>Sunny spells later today.</p><h1>Village hall gets a new roof</h1><h2>Parish notes</h2>",
        "<h2>Village hall roof work begins again</h2><p>Text of the page.</p><h1>Other news</h1>",
        "<p>No headings on this page at all.</p>",
        "<h2>Only a second-level heading</h2><p>Body text.</p>",
    ]
    titles = [
        None,
        "",
        "!!!",
        "Village hall gets a new roof",
        "Village hall gets a new roof | The Parish Courier",
        ["Nothing like it", "Parish notes"],
        "The village hall roof work begins",
        ["Weather", "Village hall gets a new roof"],
    ]
    for page in pages:
        doc = build(f"<html><body>{page}</body></html>")
        for title in titles:
            assert find_headline(doc, title) == _headline_plain(doc, title), (page, title)


def test_the_headline_search_tells_whether_the_headline_holds_a_title_as_the_title_rule_asks():
    """``held`` is the title rule's own test (a title held or holding, not reworded), so the rule
    takes it from the search instead of folding and comparing again."""
    pages = [
        "<h2>Weather</h2><p>Sunny spells later today.</p><h1>Village hall gets a new roof</h1><h2>Parish notes</h2>",
        "<h2>Village hall roof work begins again</h2><p>Text of the page.</p><h1>Other news</h1>",
        "<h1>The village hall roof work begins</h1><h2>Village hall roof work begins again</h2>",
        "<h2>Only a second-level heading</h2><p>Body text.</p>",
    ]
    titles = [
        ["!!!"],
        ["Village hall gets a new roof"],
        ["Village hall gets a new roof | The Parish Courier", "Weather"],
        ["Nothing like it", "Parish notes"],
        ["The village hall roof work begins"],
        ["Village hall roof work begins again today", "The village hall roof work begins"],
    ]
    docs = [build(f"<html><body>{page}</body></html>") for page in pages]
    docs += [build(fixture(path.name)) for path in sorted(FIXTURES.glob("*.html"))]
    checked = 0
    for doc in docs:
        for title in [*titles, [doc.title_tag or ""]]:
            headline, held = find_headline_held(doc, title)
            assert headline == find_headline(doc, title)
            if headline is None:
                assert not held
                continue
            folded = fold(doc.texts[headline])
            assert held == any(repeats_title(folded, fold(t), False) for t in title), (doc.texts[headline], title)
            for markup_title, source in ((title[0], "json-ld"), (None, None), ("Other", "title-tag")):
                settled = [
                    title_rule.settle(doc, markup_title, source, headline, title, lambda: "Site", h)
                    for h in (None, held)
                ]
                assert settled[0] == settled[1]
            checked += held
    assert checked >= 4  # the rule's shortcut is taken, not only its fallback


def test_missing_fields_are_none_and_never_guessed_from_the_url():
    f = read_page(fixture("bare.html"), url="https://news.example.com/2024/01/02/great-headline-here")
    assert f.title is None and f.author is None and f.date is None and f.image is None
    assert f.language == "es" and f.sources == {"language": "text"}  # from the text, said so


def test_fields_round_trip_and_order():
    f = read_page(fixture("graph.html"), url=URL)
    assert tuple(f.values()) == FIELD_NAMES
    assert Fields.from_dict(f.to_dict()) == f


@pytest.mark.parametrize(
    "raw, iso",
    [
        ("2025-02-28T16:45:00.000Z", "2025-02-28T16:45:00+00:00"),
        ("2025-06-10T15:48:24+0530", "2025-06-10T15:48:24+05:30"),
        ("2025-06-10T15:48:24-04:00", "2025-06-10T15:48:24-04:00"),
        ("2016-12-16 21:19:00", "2016-12-16T21:19:00"),
        ("Fri, 16 Dec 2016 21:19:00 +0100", "2016-12-16T21:19:00+01:00"),
        ("20161216", "2016-12-16"),
        ("1700000000", "2023-11-14T22:13:20+00:00"),
        ("28. Februar 2025 um 14:05 Uhr", "2025-02-28T14:05:00"),
        ("28 de febrero de 2025", "2025-02-28"),
        ("28 lutego 2025", "2025-02-28"),
        ("2025年2月28日 14:05", "2025-02-28T14:05:00"),
        ("February 28, 2025 at 2:05 p.m.", "2025-02-28T14:05:00"),
        ("Published: 28.02.2025, 09:30 GMT", "2025-02-28T09:30:00+00:00"),
        ("2025-13-01", None),
        ("soon", None),
    ],
)
def test_dates(raw, iso):
    assert dates.normalize(raw) == iso


@pytest.mark.parametrize(
    ("meta", "date"),
    [
        ('<meta name="ptime" content="20120724093957"><meta name="pdate" content="20120724">', "2012-07-24"),
        ('<meta name="published" content="July 17, 2025">', "2025-07-17"),
        ('<meta name="ms.date" content="2025-03-06T00:00:00Z">', "2025-03-06T00:00:00+00:00"),
        ('<meta name="originalpublicationdate" content="2012/07/24 16:59:42">', "2012-07-24T16:59:00"),
        ('<meta name="published-date" content="2021-02-16">', "2021-02-16"),
    ],
)
def test_the_publication_date_under_other_cmss_names(meta: str, date: str) -> None:
    body = _BODY
    f = read_page(f"<html><head>{meta}</head><body><h1>Ferry timetable approved</h1>{body}</body></html>")
    assert f.date is not None and f.date.startswith(date) and f.sources["date"] == "meta"


def test_a_printed_time_completes_the_markups_day() -> None:
    body = _BODY
    head = '<meta name="displaydate" content="2012-11-06">'
    f = read_page(
        f"<html><head>{head}</head><body><h1>Ferry timetable approved</h1><p>Nov. 6, 2012 2:57 PM</p>{body}</body></html>"
    )
    assert f.date == "2012-11-06T14:57:00" and f.sources["date"] == "dateline-block"
    # another day printed within the markup's margin keeps the markup's
    f = read_page(
        f"<html><head>{head}</head><body><h1>Ferry timetable approved</h1><p>Nov. 7, 2012 2:57 PM</p>{body}</body></html>"
    )
    assert f.date == "2012-11-06" and f.sources["date"] == "meta"


def test_a_date_glued_to_the_next_label_is_read_first() -> None:
    # two elements joined without a space: the published date, then the update
    assert dates.from_text("April 26, 2024Updated on: October 28, 2024", month_first=True) == "2024-04-26"
    assert dates.from_text("26. April 2024Aktualisiert am 28. Oktober 2024") == "2024-04-26"
    assert dates.from_text("April 26, 20245") is None  # a longer number is no year


def test_ambiguous_numeric_dates_follow_the_language():
    assert dates.from_text("03/04/2025") == "2025-04-03"
    assert dates.from_text("03/04/2025", month_first=True) == "2025-03-04"
    assert dates.from_text("13/04/2025", month_first=True) == "2025-04-13"  # 13 cannot be a month


_DATELINES = [
    "7 marzo 2025",
    "7 mar 2025",
    "7 marde 2025",  # "mar" then "de 2025": the longer names fail, the short one is read
    "1. Mär. 2024, 10:15 Uhr",
    "3 de Octubre de 2019 a las 9.15",
    "Sept. 3, 2021",
    "SEPT 3 2021",
    "\u017fept 3, 2021",  # long s: matches "s" case-blind
    "3 \u212awietnia 2020",  # Kelvin sign: matches "k" case-blind
    "3 października 2020 o 12:00",
    "Jänner 5, 2020",
    "14 juil. 2020",
    "31 décembre 2020 à 10h30",
    "Oct 10th, 2019 at 9:15 pm EST",
    "By Ann Lee - Updated May 2, 2024 | 3 June 2024",
    "xjan 5, 2025 and 12jan 2025 then 1 janvier 2025",
    "2025年2月28日 14:05 / 28.02.2025",
]


def _spliced(count: int) -> list[str]:
    pieces = "1 12 2025 . , de DE mar Mars maj jan Juni st 2nd x _ é \u017f \u212a okt października 10:30 / - 2020-01-02".split()
    pieces += [" ", " pm", " GMT", "年", "月", "日"]
    rng = random.Random(7)
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))) for _ in range(count)]


def test_dateline_search_reads_what_the_plain_month_alternation_reads(monkeypatch):
    """The month names are searched as an alternation grouped by first letter (cheaper in ``re``);
    every match, and so every date read, is the one the plain longest-first alternation gives."""
    plain = "|".join(sorted((re.escape(m) for m in dates._MONTHS), key=len, reverse=True))
    texts = _DATELINES + _spliced(4000)
    grouped = [(dates._searches(t), dates.from_text(t), dates.from_text(t, True), dates.first_at(t)) for t in texts]
    for name in ("_DMY_TEXT", "_MDY_TEXT"):
        rx = getattr(dates, name)
        assert rx.pattern.count(dates._MONTH_ALT) == 1
        monkeypatch.setattr(dates, name, re.compile(rx.pattern.replace(dates._MONTH_ALT, plain), rx.flags))
    found = 0
    for text, (hits, dmy, mdy, at) in zip(texts, grouped):
        want = dates._searches(text)
        assert [m and (m.span(), m.groups()) for m in hits] == [m and (m.span(), m.groups()) for m in want], text
        assert (dmy, mdy, at) == (dates.from_text(text), dates.from_text(text, True), dates.first_at(text)), text
        found += dmy is not None
    assert found > 100  # the texts hold dates


@pytest.mark.parametrize(
    "raw, tag",
    [
        ("en_us", "en-US"),
        ("EN", "en"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("pt-BR, en", "pt-BR"),
        ("und", None),
        ("english please", None),
    ],
)
def test_language_tags(raw, tag):
    assert values.language(raw) == tag


def test_authors_are_cleaned_not_invented():
    assert values.author("By Ann Lee") == "Ann Lee"
    assert values.author("https://www.facebook.com/someone") is None
    assert values.author("@handle") is None
    assert values.author("Andrea WongAndrea Wong") == "Andrea Wong"
    assert values.name_words("By Ann Lee and Bo Li") == values.name_words("Ann Lee, Bo Li")


def test_site_name_is_stripped_from_titles():
    assert strip_site("Ferry news | Lakeside Gazette", ["Lakeside Gazette"]) == "Ferry news"
    assert strip_site("Lakeside Gazette: Ferry news", ["lakeside gazette"]) == "Ferry news"
    assert strip_site("Ferry news - and more", ["Lakeside Gazette"]) == "Ferry news - and more"


def test_the_address_names_the_site_at_a_titles_end_only():
    hosts = values.host_names("https://shop.samsonite.com/luggage/")
    assert hosts == ("samsonite", "samsonite.com")
    assert values.host_names("https://www.bbc.co.uk/news/1") == ("bbc", "bbc.co.uk")
    assert values.host_names(None) == () and values.host_names("not a url") == ()
    assert values.host_names("http://[::1") == () and not values.is_absolute("http://[::1")
    assert strip_site("Carry-On Luggage | Samsonite", [], hosts) == "Carry-On Luggage"
    assert (
        strip_site("Family Insurance | bcbs.com", [], values.host_names("https://www.bcbs.com/x")) == "Family Insurance"
    )
    assert strip_site("Data Agency | Punto Rojo", [], values.host_names("https://puntorojo.com/en/")) == "Data Agency"
    # A brand before a home page's slogan is its title; a part that only mentions the host stays.
    talkspace = values.host_names("https://www.talkspace.com/")
    assert strip_site("Talkspace - Online Therapy", [], talkspace) == "Talkspace - Online Therapy"
    assert strip_site("Therapy tips | Talkspace blog", [], talkspace) == "Therapy tips | Talkspace blog"
    # A logo's heading matches as printed, not folded: "Quickstart¶" is no site name.
    assert strip_site("Quickstart — Flask Docs", ["Quickstart¶"], ("palletsprojects",)) == "Quickstart — Flask Docs"


def _blog(after_body: str) -> str:
    paragraphs = "".join(
        f"<p>Day {k}: we walked along the ridge and watched the leaves turn over the valley below, then we"
        " stopped for tea at the old mill and talked about the long winter ahead.</p>"
        for k in range(20)
    )
    return (
        "<html><head><title>Autumn walks</title></head><body>"
        f"<article><h1>Autumn walks</h1>{paragraphs}</article>{after_body}</body></html>"
    )


def test_a_dateline_under_the_body_gives_the_date():
    """A blog prints "Posted on April 13, 2023" under its twenty paragraphs, far below the headline
    whose neighbours the byline search reads: the dateline at the body's edge gives the date."""
    page = _blog("<p>Posted on April 13, 2023</p>")
    found = extract(page, fields=FIELD_NAMES)
    assert (found.date, found.field_sources["date"]) == ("2023-04-13", "body-dateline")
    assert extract(page).date is None  # fields not asked for are not read
    # A comment section after the body is a section of its own: its dates are its comments'.
    comments = (
        "<div class='comments'><h3>3 Responses to Autumn walks</h3><ol><li><p>Ann Lee says:</p>"
        "<p>May 2, 2024</p><p>Lovely walk, thanks for sharing it with us all.</p></li></ol></div>"
    )
    assert extract(_blog(comments), fields=FIELD_NAMES).date is None
    # A revision's date, a version or a sentence with a date in it is no dateline.
    doc = build(_blog("<p>Last updated May 2, 2024</p><p>Version 2.4.12 of the guide, May 2024.</p>"))
    blocks = list(range(1, doc.n_blocks - 2))
    assert zones_module.body_dateline(doc, blocks) is None
    assert not PROFILES["documentation"].body_dateline and PROFILES["forum"].body_dateline


def test_a_markup_title_keeps_the_part_a_heading_repeats():
    """``og:title`` "Flexbox - Learn web development" on a page whose heading reads "Flexbox¶": the
    heading's part is the title (documentation and shops name the section or the site after it); a
    title no heading repeats a part of stays whole, where a ``<title>`` keeps its longest part."""
    headings = ["Flexbox¶", "Related topics"]
    assert title_rule.title_tag_part("Flexbox - Learn web development", headings, longest=False) == "Flexbox"
    assert title_rule.title_tag_part("Grid - Learn web development", headings, longest=False) == (
        "Grid - Learn web development"
    )
    assert title_rule.title_tag_part("Grid - Learn web development", headings) == "Learn web development"
    body = "<p>" + "A flexible box lays out its items in one direction and spreads the free space. " * 6 + "</p>"
    # The page's menus come first, as on MDN's pages (an h1 among the first blocks may be a logo).
    menu = "".join(f"<li><a href='/{k}'>Guide {k}</a></li>" for k in range(60))
    html = (
        "<html><head><meta property='og:title' content='Flexbox - Learn web development'></head>"
        f"<body><nav><ul>{menu}</ul></nav><main><h1>Flexbox</h1>{body}</main></body></html>"
    )
    assert extract(html).title == "Flexbox"
    # A logo printed as the site's name ends the title with marks of its own: it goes, the headline stays.
    logo = "<html><head><title>Autumn colours :: Hill Blog ::</title></head><body><h1>Hill Blog</h1>"
    assert extract(logo + body + "</body></html>").title == "Autumn colours"


@pytest.mark.parametrize(
    "markup,title",
    [
        ("Auth | Supabase Docs", "Auth"),  # a bar: the page's name, then the site's
        ("Stripe Payments | Global Payment Processing Platform", "Stripe Payments"),  # then a tagline
        ("Nörd Zero ｜ minimalist sandals", "Nörd Zero"),  # a full-width bar
        (
            "Best Moving Companies in New York – Top Local Movers",
            "Best Moving Companies in New York – Top Local Movers",
        ),
        ("Fall 2025: What Experts Eat", "Fall 2025: What Experts Eat"),  # a colon is part of a headline
    ],
)
def test_a_markup_title_a_bar_parts_keeps_its_first_part(markup: str, title: str) -> None:
    """An ``og:title`` parted by a bar names the page first and a tagline or the site after it; a
    dash or a colon in one is as often part of the headline, and the title stays whole. A ``<title>``
    keeps its longest part as before."""
    assert title_rule.title_tag_part(markup, [], longest=False) == title
    body = "<p>" + "Sign in once and manage every user of the service from one dashboard with roles. " * 5 + "</p>"
    html = f"<html><head><meta property='og:title' content='{markup}'></head><body><main>{body}</main></body></html>"
    assert extract(html).title == title
    assert title_rule.title_tag_part("Auth | Supabase Docs and guides", []) == "Supabase Docs and guides"


@pytest.mark.parametrize(
    "top,title",
    [
        # A shop's category page: the h1 under the menus names the page, not the site.
        (
            "<header><a href='/'>Gadget Shop</a></header><nav><a href='/l'>Laptops</a> <a href='/f'>Forum</a></nav>"
            "<main><h1>Laptops</h1>",
            "Laptops",
        ),
        # A banner: an h1 that is all link (to the home page) is the site's name, however far down.
        (
            "<nav><a href='/a'>Archive</a></nav><div>Menu</div><div>Search</div><h1><a href='/'>Laptops</a></h1>"
            "<main><h2>Gadget Shop</h2>",
            "Gadget Shop",
        ),
        # An h1 the page opens with is the site's name without a link too.
        ("<h1>Laptops</h1><nav><a href='/a'>Archive</a></nav><main><h2>Gadget Shop</h2>", "Gadget Shop"),
    ],
)
def test_an_h1_is_the_sites_logo_only_at_the_top_or_as_a_banner_link(top: str, title: str) -> None:
    """A title part equal to a logo's ``h1`` is the site's name and goes; an ``h1`` below the page's
    first blocks that is not all link is the page's own heading, and its part is the title."""
    body = "<p>" + "Light laptops with long battery life for work and travel, sold with a two-year warranty. " * 5
    html = f"<html><head><title>Laptops | Gadget Shop</title></head><body>{top}{body}</p></main></body></html>"
    assert extract(html).title == title


@pytest.mark.parametrize("address", ["http://[::1", "https://[zz]/page", "//[::1", "http://[::1]:99999/x"])
def test_an_address_urllib_cannot_read_reads_no_fields_from_it(address: str) -> None:
    """An unreadable URL given for the page, or declared by it as its canonical address, neither
    resolves the page's links nor names its site; the fields are read all the same."""
    head = f"<head><link rel='canonical' href='{address}'><meta property='og:image' content='{address}/a.png'></head>"
    html = f"<html>{head}<body><h1>Ferry news</h1><p>{'The ferry runs again from the harbour. ' * 8}</p></body></html>"
    for url in (address, None):
        for method in ("auto", "bte"):
            found = extract(html, url=url, method=method, fields=FIELD_NAMES)
            assert found.title == "Ferry news" and "ferry runs again" in found.text


def test_a_pages_title_loses_the_site_its_address_names():
    # A dash: without the address the title stays whole (a bar would part it anyway).
    head = "<head><meta property='og:title' content='Quality Carry-On Luggage – Samsonite'></head>"
    html = f"<html>{head}<body><p>{'Light cases for short trips and long weekends away. ' * 8}</p></body></html>"
    assert extract(html, url="https://shop.samsonite.com/carry-on/").title == "Quality Carry-On Luggage"
    assert extract(html).title == "Quality Carry-On Luggage – Samsonite"
    canonical = head.replace("</head>", "<link rel='canonical' href='https://www.samsonite.com/carry-on'></head>")
    assert extract(html.replace(head, canonical)).title == "Quality Carry-On Luggage"


def test_graph_picks_the_article_node_among_others():
    graph = Graph(['{"@graph": [{"@type": "WebPage", "name": "Page"}, {"@type": "Article", "headline": "H"}]}'])
    assert graph.article()["headline"] == "H"
    assert graph.page()["name"] == "Page"


@pytest.mark.parametrize(
    ("byline", "author"),
    [
        # a job title in the element next to the name, joined without a space
        (
            '<div class="byline"><span class="name">Howard Blume</span><span class="role">Staff Writer</span></div>',
            "Howard Blume",
        ),
        ('<div class="byline">By Emma Ryan Writer</div>', "Emma Ryan"),
        ('<div class="byline">Guide by Will Judd Former Deputy Tech Editor</div>', "Will Judd"),
        ('<div class="byline">Chris Jones ⋅ Founder and Editor</div>', "Chris Jones"),
        ('<div class="byline">by Lena Fischer » Tue Aug 27, 2019 1:47 am</div>', "Lena Fischer"),
        ('<div class="author"><p>Author</p><p>Isaiah Shelton</p></div>', "Isaiah Shelton"),
    ],
)
def test_a_byline_gives_the_name_without_job_title_or_labels(byline: str, author: str) -> None:
    body = _BODY
    markup = f"<html><body><h1>Ferry timetable approved after debate</h1>{byline}{body}</body></html>"
    f = read_page(markup)
    assert f.author == author and f.sources["author"] == "byline-block"


def test_a_date_alone_in_an_author_element_is_no_author() -> None:
    body = _BODY
    markup = f'<html><body><h1>Ferry timetable approved</h1><div class="author"><p>August 28, 2025</p></div>{body}</body></html>'
    f = read_page(markup)
    assert f.author is None and f.date == "2025-08-28"


def test_job_titles_and_user_cards_are_cut_from_author_values() -> None:
    assert values.author("Howard BlumeStaff Writer") == "Howard Blume"
    assert values.author("Mateusz HabernyFounder at Oakywood") == "Mateusz Haberny"
    assert values.author("Rasmus Barslund Founder & Lead Reviewer") == "Rasmus Barslund"
    assert values.author("Recipe by PJ Hamel") == "PJ Hamel"
    assert values.author("Authored by: Dr. Ehsan Jazini") == "Dr. Ehsan Jazini"
    assert values.author("drat 1,655 1 1 gold badge 14 14 silver badges") == "drat"
    assert values.author("Staff Writer") is None  # a job title alone names nobody
    # names that hold capitals or job-like letters inside stay whole
    for name in ("Rachel MacDonald", "LeBron James", "Ann McEditor", "The Editors", "Maria Byrne", "TMZ Staff"):
        assert values.author(name) == name


def test_author_values_that_name_no_one_give_way_to_the_next_source() -> None:
    # an avatar's initial, a template's variable, a label alone, a line of other metadata
    for raw in ("K", "page.head.extra.author", "{{ author }}", "%AUTHOR%", "By", "Author", "Language: Spanish"):
        assert values.author(raw) is None, raw
    # user names with dots, initials and short names stay
    for name in ("sara.r.peter", "hayley.p", "JGD", "Bo Li", "julian", "Dr. Smith"):
        assert values.author(name) == name
    assert values.author("Authors:Aniruddha Roy, Jyoti Patel") == "Aniruddha Roy, Jyoti Patel"
    # a forum user's name, then the letter of their avatar
    assert values.author("JosephF J") == "JosephF" and values.author("xJewishNinjax X") == "xJewishNinjax"
    assert values.author("Malcolm X") == "Malcolm X" and values.author("Mary Ann M") == "Mary Ann M"
    assert values.author("Autoren: Anna Weber") == "Anna Weber"
    # the reviewer or the illustrator is not the author; an editor named with the authors stays
    assert values.author("Shelby Loos, DVM. Reviewed by Molly Price, DVM") == "Shelby Loos, DVM"
    assert values.author("Ann Lee | Fact checked by Bo Li") == "Ann Lee"
    assert values.author("Written by Ann Lee, medically reviewed by Dr. Bo Li") == "Ann Lee"
    assert values.author("The Team, edited by Walter") == "The Team, edited by Walter"
    markup = (
        '<html><head><meta name="author" content="page.head.extra.author"></head><body>'
        '<h1>Ferry timetable approved</h1><div class="byline">By Ana Beltrán</div>'
        "<p>"
        + "The council voted on the new ferry timetable after a long evening of debate. " * 6
        + "</p></body></html>"
    )
    f = read_page(markup)
    assert f.author == "Ana Beltrán" and f.sources["author"] == "byline-block"


def test_an_organization_named_as_author_gives_way_to_the_printed_byline() -> None:
    ld = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Ferry timetable approved",'
        ' "author": {"@type": "NewsMediaOrganization", "name": "The Coast Gazette"}}</script>'
    )
    page = "<html><head>{}</head><body><h1>Ferry timetable approved</h1>{}" + _BODY + "</body></html>"
    f = read_page(page.format(ld, '<div class="byline">By Ana Beltrán</div>'))
    assert f.author == "Ana Beltrán" and f.sources["author"] == "byline-block"
    # where no other source names one, the organization is the author
    f = read_page(page.format(ld, ""))
    assert f.author == "The Coast Gazette" and f.sources["author"] == "json-ld"
    person = ld.replace("NewsMediaOrganization", "Person")
    f = read_page(page.format(person, '<div class="byline">By Ana Beltrán</div>'))
    assert f.author == "The Coast Gazette" and f.sources["author"] == "json-ld"
    # a Person whose name is given as a list keeps it
    listed = person.replace('"name": "The Coast Gazette"', '"name": ["Ana Beltrán | The Coast Gazette"]')
    f = read_page(page.format(listed, ""))
    assert f.author == "Ana Beltrán | The Coast Gazette" and f.sources["author"] == "json-ld"


def test_the_sites_own_name_as_author_gives_way_to_the_writer() -> None:
    head = '<meta property="og:site_name" content="Rapid7"><meta name="author" content="{}">'
    page = "<html><head>{}</head><body><h1>Metasploit weekly wrap-up</h1>{}" + _BODY + "</body></html>"
    f = read_page(page.format(head.format("Rapid7"), '<div class="byline">By Spencer McIntyre ●</div>'))
    assert f.author == "Spencer McIntyre" and f.sources["author"] == "byline-block"
    # the site's name is the author where no one else is named, and on a person's own site
    f = read_page(page.format(head.format("Rapid7"), ""))
    assert f.author == "Rapid7" and f.sources["author"] == "meta"
    assert values.names_site("Paperium.net", ["Paperium"]) and values.names_site("HomeAdvisor", ["Home Advisor"])
    assert values.host_name("https://www.rapid7.com/blog/post/x") == "rapid7"
    assert not values.names_site("Ann Lee", ["Rapid7", "rapid7"])
    # a month's or a weekday's name alone is a dateline's word, not a name
    for word in ("Sep", "May", "Oct.", "Friday", "Mittwoch"):
        assert values.author(word) is None, word
    assert zones_module.byline_author("But guess what?") == ""


def test_a_sentence_in_the_authors_element_is_no_byline_nor_is_what_follows() -> None:
    assert zones_module.byline_author("Jump to explainer Seven deep mysteries of history") == ""
    assert zones_module.byline_author("By Ludwig van Beethoven and Ann Lee") == "Ludwig van Beethoven and Ann Lee"
    assert zones_module.byline_author("julian") == "julian"
    body = _BODY
    markup = (
        "<html><body><h1>Ferry timetable approved</h1>"
        '<div class="author"><p>Thinking of taking the ferry? here is what changes</p></div>'
        f'<div class="author-links"><p>Related links</p></div>{body}</body></html>'
    )
    doc = build(markup)
    zones = page_zones(doc, "Ferry timetable approved")
    assert zones.author is None and zones.byline == ()


def test_a_microdata_author_cut_by_the_text_window_holds_no_markup() -> None:
    avatar = '<img src="/a.png" alt="">' * 40
    markup = f'<html><body><div itemprop="author"><span>{avatar}<div class="user-card-details-long"></div></span></div></body></html>'
    assert "<" not in (read_markup(markup).author or "")


def test_a_naive_meta_date_takes_the_zone_a_time_element_gives() -> None:
    head = '<meta property="article:published_time" content="2025-10-25T17:52:00">'
    body = '<h1>Haushalt beschlossen</h1><time datetime="2025-10-25T17:52:00+02:00">25. Oktober 2025, 17.52 Uhr</time>'
    f = read_page(f"<html><head>{head}</head><body>{body}<p>Der Rat hat beraten.</p></body></html>")
    assert f.date == "2025-10-25T17:52:00+02:00" and f.sources["date"] == "article"
    # another moment's zone is not borrowed
    other = body.replace("17:52:00+02:00", "09:00:00+02:00")
    f = read_page(f"<html><head>{head}</head><body>{other}<p>Der Rat hat beraten.</p></body></html>")
    assert f.date == "2025-10-25T17:52:00"


def test_the_printed_dateline_wins_over_a_markup_date_of_another_day() -> None:
    head = '<script type="application/ld+json">{"@type": "Article", "datePublished": "2025-06-24"}</script>'
    body = "<p>" + "Yoga teachers set their prices by city, experience and class size, as this guide shows. " * 5
    page = "<html><head>{}</head><body><h1>How much to charge for a yoga class</h1>{}{}</p></body></html>"
    f = read_page(page.format(head, "<div>August 25, 2024</div>", body))
    assert f.date == "2024-08-25" and f.sources["date"] == "dateline-block"
    # an "Updated ..." line is a revision's date: the markup's stays
    f = read_page(page.format(head, "<div>Updated August 25, 2024</div>", body))
    assert f.date == "2025-06-24" and f.sources["date"] == "json-ld"
    # the same day within a day's time zones: the markup's, which has the clock
    f = read_page(
        page.format(head.replace("2025-06-24", "2024-08-25T23:30:00-05:00"), "<div>August 26, 2024</div>", body)
    )
    assert f.date == "2024-08-25T23:30:00-05:00"


def test_analytics_tags_state_the_publication_date() -> None:
    head = '<meta name="parsely-pub-date" content="2020-02-10T16:48:12Z">'
    assert read_markup(f"<html><head>{head}</head><body><p>x</p></body></html>").date == "2020-02-10T16:48:12+00:00"


def test_a_sort_by_label_is_no_byline_and_a_join_date_no_dateline() -> None:
    """A listing's "Sort by" took the first card's title as the author; a forum poster's
    "Joined:" date was read as the thread's date."""
    listing = (
        "<html><head><title>Environment</title></head><body><h1>Environment</h1>"
        "<label>Sort by</label><ul><li><h2><a href='/a'>Upstream provinces agree to share the water</a></h2>"
        "<p>Three provinces sign a provisional deal that ties reservoir releases to river flow.</p></li>"
        "</ul></body></html>"
    )
    assert extract(listing, fields=("author",)).author is None
    thread = (
        "<html><head><title>Which tram route?</title></head><body><h1>Which tram route?</h1>"
        "<dl><dt>gardenpath</dt><dd>Joined: Mon Mar 04, 2019 8:12 pm</dd></dl>"
        "<p>Posted Wed Mar 19, 2025 7:12 am</p>"
        "<p>The city has published two options for taking line 3 out to the Millbrook estate.</p>"
        "</body></html>"
    )
    assert (extract(thread, fields=("date",)).date or "").startswith("2025-03-19")
    # A byline label of another first word still opens a byline.
    byline = (
        "<html><head><title>Harbour wall</title></head><body><h1>Harbour wall</h1><p>Written by</p>"
        "<p>Mara Ellison</p><p>The small fishing town has begun rebuilding its sea wall with old granite.</p>"
        "</body></html>"
    )
    assert extract(byline, fields=("author",)).author == "Mara Ellison"


# -- the author a link to the author's page names -----------------------------------------------

_PROSE = "<p>" + " ".join(["The harbour board met on Tuesday and agreed the plan for the new quay."] * 4) + "</p>"


def _linked_page(byline: str, later: str = "") -> str:
    return (
        "<html><head><title>Quay plan agreed | Coast Times</title></head><body>"
        '<nav><a href="/authors/">Our authors</a> <a href="/">Home</a></nav>'
        f"<main><h1>Quay plan agreed</h1><div class='meta'>{byline}</div>{_PROSE}{_PROSE}</main>{later}</body></html>"
    )


@pytest.mark.parametrize(
    ("byline", "author"),
    [
        ('<span><a href="/authors/trevor-jackins">Trevor Jackins</a></span>', "Trevor Jackins"),
        ('<a href="https://example.org/author/Faith%20Katunga">Faith Katunga</a>', "Faith Katunga"),
        ('<a href="/de/autoren/bence-kovacs/">Bence Kovács</a>', "Bence Kovács"),
        # The link's text must name the page it points to, and be a name.
        ('<a href="/author/juliette-carreiro">Articles by Juliette</a>', None),
        ('<a href="/author/juliette-carreiro">2 articles</a>', None),
        # A link elsewhere in the path, or to the list of authors, names no one.
        ('<a href="/topics/trevor-jackins">Trevor Jackins</a>', None),
    ],
)
def test_a_link_to_the_authors_page_beside_the_headline_names_the_author(byline: str, author: str | None) -> None:
    f = read_page(_linked_page(byline))
    assert f.author == author
    assert f.sources.get("author") == ("author-link" if author else None)


def test_author_links_far_from_the_headline_name_no_one() -> None:
    cards = "".join(
        f'<article><h3>Story {i}</h3><p>Summary of story {i} in a few words here.</p><a href="/author/ann-lee">Ann Lee</a></article>'
        for i in range(20)
    )
    f = read_page(_linked_page("<span>Staff</span>", later=f"<section>{cards}</section>"))
    assert f.author is None
    # Beside the headline the same link names her; a byline that says "By" still comes first.
    assert read_page(_linked_page('<a href="/author/ann-lee">Ann Lee</a>')).author == "Ann Lee"
    assert read_page(_linked_page('By Bo Li <a href="/author/ann-lee">Ann Lee</a>')).sources["author"] == "byline-block"


@pytest.mark.parametrize(
    ("tail", "author"),
    [
        ('<a href="/authors/ann-lee"', None),  # the tag itself cut off
        ('<a href="/authors/ann-lee">Ann Lee', "Ann Lee"),  # its end tag cut off: the text still stands
        ('<a href="/authors/">', None),
        ("<a href=/author/>>", None),
    ],
)
def test_an_author_link_the_page_cuts_off_raises_nothing(tail: str, author: str | None) -> None:
    markup = "<html><body><h1>Quay plan agreed</h1><div>" + tail
    assert read_page(markup).author == author
    # The default reads the page too; a page of four words is no article to the page-type
    # classifier (listing 0.64), and a listing gives no author (Profile.byline).
    assert extract(markup.encode(), fields=FIELD_NAMES).author in (author, None)
    assert extract(markup.encode(), method="hybrid", page_type=False, fields=FIELD_NAMES).author == author
