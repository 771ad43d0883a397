"""Records (same-shaped sibling cards, posts, rows), repeated paragraphs and
``<noscript>`` content: the selection rules for pages that are not articles."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from conftest import FixedModel

from scrapy_bte import extract
from scrapy_bte.api import parse
from scrapy_bte.core.document import NOSCRIPT_CONTENT_WORDS, Document, noscript_content
from scrapy_bte.core.marks import Marks
from scrapy_bte.learned import auto, never_body
from scrapy_bte.learned.model import BlockModel, default_model
from scrapy_bte.learned.profiles import PROFILES, profile
from scrapy_bte.methods import comments, records
from scrapy_bte.methods.bte import document_span
from scrapy_bte.methods.reasons import KEEPING, Reason

_SUMMARIES = [
    "The council approved a plan to rebuild the harbour wall with stone from the old viaduct this spring.",
    "A new cycle path will link the two villages along the river before the end of the summer holidays.",
    "Volunteers counted more seals on the sandbanks this year than in any survey since records began.",
    "The library reopens after a long refurbishment with a reading room for children and a small cafe.",
    "Fishermen say the late storms kept boats in port for three weeks and prices rose at the market.",
    "The school choir won the regional competition with a programme of folk songs from the coast.",
]


_MENU = ["Home", "News", "Sport", "Business", "Culture", "Weather", "Jobs", "Property", "Motors", "Contact us"]


def _card(i: int, tag: str) -> str:
    return (
        f"<{tag} class='card card-{i}'><h3><a href='/story/{i}'>Story number {i} about the town</a></h3>"
        f"<p>{_SUMMARIES[i]}</p><p>By Local Desk • Dec. {i + 1}, 2025</p></{tag}>"
    )


def _listing(tag: str, wrapper: str) -> str:
    menu = "".join(f"<li><a href='/{m.lower()}'>{m}</a></li>" for m in _MENU)
    return (
        "<html><head><title>Local news</title></head><body>"
        f"<nav><ul>{menu}</ul></nav>"
        f"<main><h1>Local news</h1><{wrapper} class='feed'>"
        + "".join(_card(i, tag) for i in range(6))
        + f"</{wrapper}></main>"
        f"<aside><ul>{menu}</ul></aside>"
        "<footer><p>Copyright 2025 The Coast Gazette. All rights reserved.</p></footer></body></html>"
    )


#: Cards as elements of their own (``<article>``/``<div>``) ...
LISTING = _listing("article", "div")
#: ... and as list items, which the skeleton does not hold as elements.
LIST_ITEMS = _listing("li", "ul")


#: Attribute strings for the record shapes' class words: every case of "class", quotes left open,
#: later class attributes, values that name no class, Unicode digits, wide characters, and U+0130,
#: whose lower case is one character longer.
CLASS_ATTRIBUTE_CASES = (
    ' class="card card-3" id="a1"',
    " class='card-7 card'",
    " CLASS=teaser data-x=1",
    ' data-class="no" title="x"',
    ' class="open',
    "",
    ' class="a" class="b"',
    ' id="x" class = "sp aced"',
    " class=",
    ' class="" class="late"',
    'class="first"',
    ' href="/a?class=x"',
    ' class="tab\tsep" ',
    ' title="a class=b" class="c"',
    ' class="\u0663\u0664col 日本-2 \U0001f600"',
    " class='Wide\u212a \uff11'",
    "\u0130 CLASS='Dotted-2 x'",
)


def _class_words_one_by_one(raw: str) -> str:
    """What a search of each attribute string on its own finds: the first class attribute."""
    m = re.search(r"""(?:^|\s)class\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", raw, re.IGNORECASE)
    value = (m.group(1) or m.group(2) or m.group(3) or "") if m else ""
    return " ".join(sorted(re.sub(r"\d+", "", value).split()))


def test_class_words_match_a_case_blind_search_from_a_space() -> None:
    expected = [_class_words_one_by_one(raw) for raw in CLASS_ATTRIBUTE_CASES]
    assert [records.class_words(raw) for raw in CLASS_ATTRIBUTE_CASES] == expected
    assert expected[:3] == ["card card-", "card card-", "teaser"] and expected[4] == ""
    assert expected[14] == "col 日本- \U0001f600" and expected[-1] == "Dotted- x"


@pytest.mark.parametrize("page", [LISTING, LIST_ITEMS], ids=["elements", "list-items"])
def test_record_mask_finds_the_cards_and_nothing_around_them(page: str) -> None:
    doc = parse(page)
    keep = np.zeros(doc.n_blocks, dtype=bool)
    keep[[i for i, t in enumerate(doc.texts) if t == _SUMMARIES[2]]] = True
    mask = records.record_mask(doc, keep)
    inside = {doc.texts[b] for b in np.flatnonzero(mask)}
    for i in range(6):
        assert f"Story number {i} about the town" in inside
        assert _SUMMARIES[i] in inside
    assert not inside & {*_MENU, "Local news", "Copyright 2025 The Coast Gazette. All rights reserved."}


def test_record_mask_needs_a_kept_block_in_a_group_of_siblings() -> None:
    doc = parse(LISTING)
    assert not records.record_mask(doc, np.zeros(doc.n_blocks, dtype=bool)).any()
    # The heading alone is in no group of three same-shaped siblings.
    keep = np.array([t == "Local news" for t in doc.texts])
    assert not records.record_mask(doc, keep).any()


def test_shapes_ignore_digits_in_class_names() -> None:
    doc = parse(LISTING)
    shapes = records.element_shapes(doc)
    names = doc.skeleton.el_name
    cards = [e for e, attrs in enumerate(doc.skeleton.el_attrs) if "card-" in attrs and names[e] == "article"]
    assert len(cards) == 6
    assert len(set(shapes[cards].tolist())) == 1


@pytest.mark.parametrize("page", [LISTING, LIST_ITEMS], ids=["elements", "list-items"])
def test_listing_profile_keeps_every_card_article_profile_does_not_extend(page: str) -> None:
    doc = parse(page)
    model = default_model()
    span = document_span(doc)
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep_listing, q = auto.select(doc, span, model, smooth=True, page_type="listing", reasons=reasons)
    kept = {doc.texts[b] for b in np.flatnonzero(keep_listing)}
    assert all(s in kept for s in _SUMMARIES)
    assert sum(f"Story number {i} about the town" in kept for i in range(6)) == 6
    # What the records rule added lies in the cards, never in the menus beside them.
    added = {doc.texts[b] for b in np.flatnonzero(reasons == Reason.RECORD)}
    assert not added & set(_MENU)
    # The article profile never extends over records: what it keeps passed its own threshold.
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep_article, _ = auto.select(doc, span, model, smooth=True, page_type="article", reasons=reasons)
    assert not (reasons == Reason.RECORD).any()
    assert (q[keep_article] >= model.threshold).all() or (reasons[keep_article] != Reason.PROBABILITY).any()


def test_records_reason_is_recorded() -> None:
    doc = parse(LISTING)
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep, q = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="listing", reasons=reasons)
    joined = reasons == Reason.RECORD
    # Blocks the records rule added passed only the records' bar, not the listing threshold.
    assert (keep[joined]).all()
    assert (q[joined] >= PROFILES["listing"].records).all()


def test_unknown_page_type_reads_as_article() -> None:
    assert profile(None) is PROFILES["article"]
    assert profile("no-such-type") is PROFILES["article"]


def test_repeated_paragraph_is_kept_once() -> None:
    para = "The wool runner is soft inside, durable outside and machine washable for everyday wear."
    page = (
        "<html><body><main><h1>Wool Runner</h1>"
        f"<div class='summary'><p>{para}</p></div>"
        "<p>Sugarcane foam soles give cushioned support for long days on your feet in the city.</p>"
        f"<div class='tab'><p>{para.upper()}</p></div>"
        "</main></body></html>"
    )
    doc = parse(page)
    keep = np.ones(doc.n_blocks, dtype=bool)
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    out = auto.drop_repeats(doc, keep, reasons)
    texts = [doc.texts[b] for b in np.flatnonzero(out)]
    assert texts.count(para) == 1
    assert para.upper() not in texts
    assert (reasons == Reason.REPEATED).sum() == 1
    # Short repeats ("Reply", "Share") are not paragraphs: they stay.
    short = parse("<div><p>Reply</p><p>Some words here in between.</p><p>Reply</p></div>")
    assert auto.drop_repeats(short, np.ones(short.n_blocks, dtype=bool)).all()


def test_a_documentation_pages_tabs_keep_their_repeated_steps_and_drop_repeated_code() -> None:
    """A quickstart gives the same step in each language's tab, and its gold keeps each: on
    documentation pages a repeated paragraph stays, while code shown twice (the source and its
    live example) is one copy too many. Other profiles drop both."""
    step = "Replace the value for the sender with the phone number you were given in your console."
    code = "<pre>client = Client(account, token)\nclient.messages.create(body='Hello there', to=number)</pre>"
    tabs = "".join(
        f"<div role='tabpanel' class='tab-{lang}'><p>{step}</p><pre>{lang} install helper-library --save</pre></div>"
        for lang in ("node", "python", "ruby")
    )
    html = f"<html><body><main><h1>Send a message</h1>{tabs}{code}<p>The sample again:</p>{code}</main></body></html>"
    doc = parse(html)
    keep = np.ones(doc.n_blocks, dtype=bool)
    texts = doc.texts
    docs = [texts[b] for b in np.flatnonzero(auto.drop_repeats(doc, keep, prose=False))]
    sample = next(t for t in texts if t.startswith("client = "))
    assert docs.count(step) == 3 and docs.count(sample) == 1
    other = [texts[b] for b in np.flatnonzero(auto.drop_repeats(doc, keep))]
    assert other.count(step) == 1 and other.count(sample) == 1
    assert not PROFILES["documentation"].drop_repeated_prose
    assert all(PROFILES[t].drop_repeated_prose for t in PROFILES if t != "documentation")
    model = FixedModel([0.9] * doc.n_blocks)
    kept, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="documentation")  # type: ignore[arg-type]
    assert [texts[b] for b in np.flatnonzero(kept)].count(step) == 3


_SECTIONS = ["Installing the command line tool", "Setting up the project", "Running the first crawl"]


def _documented(contents: str) -> str:
    """A documentation page: ``contents`` (its table of contents), then a section per heading."""
    body = "".join(f"<h2 id='s{i}'>{h}</h2><p>{_SUMMARIES[i]}</p>" for i, h in enumerate(_SECTIONS))
    return f"<html><body><main><h1>Getting started</h1>{contents}{body}</main></body></html>"


def test_a_table_of_contents_goes_its_headings_stay() -> None:
    """Each entry of a table of contents repeats its section's heading further on (in any case and
    spacing): on the profiles that drop repeats the entry goes and the heading stays, even where the
    heading is long enough to be a repeat of the entry itself."""
    entries = "".join(f"<li><a href='#s{i}'>{h.upper()}  </a></li>" for i, h in enumerate(_SECTIONS))
    doc = parse(_documented(f"<nav class='toc'><p>On this page</p><ul>{entries}</ul></nav>"))
    keep = np.ones(doc.n_blocks, dtype=bool)
    found = auto.contents_entries(doc, keep)
    assert [doc.texts[b] for b in found] == [h.upper() for h in _SECTIONS]
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    kept = [doc.texts[b] for b in np.flatnonzero(auto.drop_repeats(doc, keep, reasons))]
    assert all(kept.count(h) == 1 for h in _SECTIONS) and not any(h.upper() in kept for h in _SECTIONS)
    assert (reasons[found] == Reason.REPEATED).all()
    # Only kept headings after the entry count: a heading's text repeated after it (a "back to"
    # link) stays, and so does an entry whose heading was not kept.
    later = parse(_documented("").replace("</main>", f"<p>{_SECTIONS[0]}</p></main>"))
    assert auto.contents_entries(later, np.ones(later.n_blocks, dtype=bool)) == []
    heads = [b for b in range(doc.n_blocks) if doc.texts[b] in _SECTIONS]
    assert auto.contents_entries(doc, keep & ~np.isin(np.arange(doc.n_blocks), heads)) == []
    # Articles keep them (the older sets' article gold holds a contents list), forums have none.
    assert not PROFILES["article"].drop_repeats


_POST = "I moved my containers to a new network and now name resolution fails between them sometimes. "


def _thread(posts: int) -> str:
    return "".join(f"<div class='post'><p>user{i} wrote:</p><p>{_POST * 3}</p></div>" for i in range(posts))


def test_noscript_holding_a_thread_is_kept() -> None:
    page = (
        "<html><head><title>Thread</title></head><body><div id='app'></div>"
        f"<noscript data-path='/t/1'>{_thread(4)}</noscript></body></html>"
    )
    assert "<noscript" not in noscript_content(page)
    text = extract(page).text
    assert _POST.strip() in text


@pytest.mark.parametrize(
    "inner",
    [
        "Please enable JavaScript to use this site.",
        "<img src='/pixel.gif' alt='tracking'>",
        "<iframe src='https://tags.example/ns.html'></iframe>",
    ],
)
def test_small_noscript_stays_dropped(inner: str) -> None:
    page = f"<html><body><p>{_POST * 2}</p><noscript>{inner}</noscript></body></html>"
    assert noscript_content(page) == page
    assert "enable JavaScript" not in extract(page).text


def test_noscript_threshold_is_in_words_not_characters() -> None:
    long_markup = "<noscript>" + "<span class='x'></span>" * 500 + "few words</noscript>"
    assert noscript_content(long_markup) == long_markup
    words = " ".join(["word"] * NOSCRIPT_CONTENT_WORDS)
    opened = noscript_content(f"<p>a</p><NOSCRIPT>{words}</NOSCRIPT><p>b</p>")
    assert opened == f"<p>a</p><div>{words}</div><p>b</p>"


def test_noscript_start_tags_are_read_from_the_marks_given() -> None:
    words = " ".join(["word"] * NOSCRIPT_CONTENT_WORDS)
    page = f"<p>a</p><noscripts>{words}</noscripts><noscript class='x'>{words}</noscript>"
    # "<noscripts" is no noscript start tag; the element after it is opened up.
    assert noscript_content(page) == f"<p>a</p><noscripts>{words}</noscripts><div>{words}</div>"
    # With the page's marks, the start tags are where they say: marks of another page open nothing up.
    assert noscript_content(page, Marks("no tags here")) == page
    assert noscript_content(page, Marks(page)) == noscript_content(page)


def test_unclosed_noscript_is_left_to_step0() -> None:
    page = "<p>text</p><noscript>" + "word " * 300
    assert noscript_content(page) == page


def test_template_texts_every_record_repeats_go_with_templates_on() -> None:
    posts = "".join(
        f"<div class='post'><p>Posts: {100 + i}</p><p>{_SUMMARIES[i]}</p><p>Like {i + 3}</p><p>Quote</p>"
        f"<p>{i + 1} March 2025</p></div>"
        for i in range(4)
    )
    doc = parse(f"<html><body><main>{posts}</main></body></html>")
    keep = np.ones(doc.n_blocks, dtype=bool)
    kept = {doc.texts[b] for b in np.flatnonzero(auto.drop_repeats(doc, keep, templates=True, first_template=False))}
    assert all(s in kept for s in _SUMMARIES[:4])
    assert not any(t.startswith(("Posts:", "Like ")) or t == "Quote" for t in kept)
    # Elsewhere than on forums the first copy stays: a slider's clones, a pricing table's features.
    firsts = [doc.texts[b] for b in np.flatnonzero(auto.drop_repeats(doc, keep, templates=True))]
    assert [t for t in firsts if t.startswith(("Posts:", "Like ")) or t == "Quote"] == ["Posts: 100", "Like 3", "Quote"]
    assert all(s in firsts for s in _SUMMARIES[:4])
    assert not PROFILES["forum"].template_first_stays and PROFILES["service"].template_first_stays
    # A date is never a template: the posts of one day print one date, and each is its post's.
    same_day = parse(
        f"<html><body><main>{posts.replace('March 2025', 'March 2025</p><p>Sep 21, 2024')}</main></body></html>"
    )
    every = np.ones(same_day.n_blocks, dtype=bool)
    dates = [
        same_day.texts[b]
        for b in np.flatnonzero(auto.drop_repeats(same_day, every, templates=True, first_template=False))
    ]
    assert dates.count("Sep 21, 2024") == 4 and "Quote" not in dates
    # Dates hold two numbers: each is its own text, not a template.
    assert {f"{i + 1} March 2025" for i in range(4)} <= kept
    # Without templates (articles, collections) the short texts stay.
    assert auto.drop_repeats(doc, keep).all()


_SPEC = "The tent sleeps four, packs to 2.1 kg and pitches inner and fly together in under five minutes."
_REVIEW = "Took it up the fells in October and it kept us dry through two nights of sideways rain."


def _product_page() -> str:
    return (
        "<html><body><main><h1>Ridgeline 4 tent</h1>"
        f"<div class='product-description'><p>{_SPEC}</p><p>{_SPEC.replace('four', 'three')}</p></div>"
        f"<section id='customer-reviews'><h2>Reviews</h2><p>{_REVIEW}</p><p>{_REVIEW.replace('October', 'May')}</p>"
        "</section><div class='also-bought'><p>Customers also bought these pegs, mallets and footprints.</p></div>"
        "</main></body></html>"
    )


def test_product_profile_drops_reviews_and_recommendations_only() -> None:
    doc = parse(_product_page())
    shop = comments.shop_furniture_mask(doc)
    named = {doc.texts[b] for b in np.flatnonzero(shop)}
    assert _REVIEW in named and "Customers also bought these pegs, mallets and footprints." in named
    assert _SPEC not in named
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="product")
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert not kept & named
    assert _SPEC in kept
    assert PROFILES["product"].drop_shop_sections and not PROFILES["article"].drop_shop_sections


def test_one_body_is_paragraphs_in_one_element_not_a_run_of_links() -> None:
    prose = " ".join(_SUMMARIES)
    body = parse(f"<html><body><div class='story'><p>{prose}</p><p>{prose}</p></div></body></html>")
    assert auto.one_body(body, np.ones(body.n_blocks, dtype=bool))
    # A country picker: over a hundred words in one element, every one a link.
    countries = "<br>".join(f"<a href='/c/{i}'>Country number {i} of the world list</a>" for i in range(20))
    picker = parse(f"<html><body><div class='filters'>{countries}</div></body></html>")
    keep = np.ones(picker.n_blocks, dtype=bool)
    assert float(np.asarray(picker.words)[keep].sum()) >= auto.BODY_WORDS
    assert not auto.one_body(picker, keep)


def test_post_furniture_is_the_user_card_signature_and_buttons_of_a_post() -> None:
    post = (
        "<div class='post'><dl class='postprofile'><dt>gardenpath</dt><dd>Posts: 3517</dd>"
        "<dd>Joined: Mon Jan 06, 2020</dd></dl><div class='postbody'><ul class='post-buttons'><li>Quote</li></ul>"
        f"<div class='content'><p>{_SUMMARIES[0]}</p></div>"
        "<div class='signature'>Cycling the coast since 1998, one puncture at a time.</div></div></div>"
    )
    doc = parse(f"<html><body>{post}</body></html>")
    inside = comments.post_furniture_mask(doc)
    texts = dict(zip(doc.texts, inside.tolist()))
    assert texts[_SUMMARIES[0]] is False
    assert texts["Posts: 3517"] and texts["gardenpath"] and texts["Quote"]
    assert texts["Cycling the coast since 1998, one puncture at a time."]
    assert PROFILES["forum"].drop_post_furniture
    assert not any(PROFILES[t].drop_post_furniture for t in PROFILES if t != "forum")


def test_invisions_author_pane_is_post_furniture() -> None:
    post = (
        "<article class='cPost ipsBox'><aside class='ipsComment_author cAuthorPane ipsColumn'>"
        "<h3 class='cAuthorPane_author'>gardenpath</h3><ul class='cAuthorPane_info'><li>Members</li>"
        "<li>3.5k posts</li></ul></aside><div class='ipsColumn_fluid'><div class='cPost_contentWrap'>"
        f"<div data-role='commentContent' class='ipsType_normal'><p>{_SUMMARIES[1]}</p></div></div></div></article>"
    )
    doc = parse(f"<html><body>{post}</body></html>")
    inside = dict(zip(doc.texts, comments.post_furniture_mask(doc).tolist()))
    assert inside["gardenpath"] and inside["Members"] and inside["3.5k posts"]
    assert inside[_SUMMARIES[1]] is False


def test_reviews_leave_the_decision_so_a_product_page_keeps_its_specs() -> None:
    """A shop page whose only confident text is its reviews: without them, the specs are the content."""
    specs = ["Body: Alder", "Neck: Maple", "Frets: 22 medium jumbo", "Scale: 648 mm", "Pickups: three single coils"]
    reviews = " ".join(f"<p>{_REVIEW.replace('October', month)} {_SPEC}</p>" for month in ("May", "June", "July"))
    html = (
        "<html><body><nav><a href='/'>Home</a> <a href='/shop'>Shop</a></nav><main><ul class='specs'>"
        + "".join(f"<li>{s}</li>" for s in specs)
        + f"</ul><section class='reviews'>{reviews}</section></main></body></html>"
    )
    doc = parse(html)
    assert doc.n_blocks == 1 + len(specs) + 3
    # The model is sure of the reviews only; the specs sit under its threshold.
    model = FixedModel([0.05] + [0.45] * len(specs) + [0.95] * 3)
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="product", reasons=reasons)  # type: ignore[arg-type]
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    shop = comments.shop_furniture_mask(doc)
    assert shop.sum() == 3 and not kept & {doc.texts[b] for b in np.flatnonzero(shop)}
    # The specs are what is left: BTE's plateau over them, the first line (a label to BTE) aside.
    assert len(set(specs) & kept) >= 4 and kept <= set(specs)
    assert (reasons[shop] == Reason.FURNITURE).all()


def test_a_forum_threads_replies_are_its_posts_however_low_the_model_scores_comments() -> None:
    question = " ".join(_SUMMARIES[:3])
    replies = [_SUMMARIES[3], _SUMMARIES[4], _SUMMARIES[5]]
    html = (
        f"<html><body><div class='discussion'><p>{question}</p></div><ul class='comments'>"
        + "".join(
            f"<li class='comment'><a href='/u/{i}'>member{i}</a><p>{text}</p><span>Reply</span></li>"
            for i, text in enumerate(replies)
        )
        + "</ul></body></html>"
    )
    doc = parse(html)
    p = [0.95 if doc.texts[b] == question else 0.05 for b in range(doc.n_blocks)]  # comments scored low
    for page_type, kept_replies in (("forum", True), ("article", False)):
        reasons = np.zeros(doc.n_blocks, dtype=np.int8)
        keep, _ = auto.select(doc, document_span(doc), FixedModel(p), smooth=True, page_type=page_type, reasons=reasons)  # type: ignore[arg-type]
        kept = {doc.texts[b] for b in np.flatnonzero(keep)}
        assert question in kept
        assert (set(replies) <= kept) is kept_replies, page_type
        # Names, dates and "Reply" links of the section are no posts.
        assert not kept & {"member0", "Reply"}
        if kept_replies:
            assert {Reason(r) for r in reasons[[doc.texts.index(t) for t in replies]]} == {Reason.THREAD}


_CONSENT = (
    "We and our partners store and access information on your device, such as cookies and unique "
    "identifiers, and process personal data such as browsing data to measure the delivery of content."
)


def _consent_listing(body_class: str = "", dialog_id: str = "onetrust-consent-sdk") -> str:
    dialog = (
        f"<div id='{dialog_id}'><div role='dialog'><div class='policy-text'>"
        f"<p>{_CONSENT}</p><p>{_CONSENT.replace('partners', 'vendors')}</p></div></div></div>"
    )
    return _listing("article", "div").replace("<body>", f"<body class='{body_class}'>{dialog}", 1)


def test_a_consent_dialog_leaves_the_decision_and_the_cards_stay() -> None:
    doc = parse(_consent_listing())
    named = {doc.texts[b] for b in np.flatnonzero(comments.consent_mask(doc))}
    assert named == {_CONSENT, _CONSENT.replace("partners", "vendors")}
    for page_type in ("listing", "article"):
        keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type=page_type)
        kept = {doc.texts[b] for b in np.flatnonzero(keep)}
        assert not kept & named
        assert _SUMMARIES[0] in kept


def test_consent_names_count_on_parts_of_the_page_only() -> None:
    # A page's state on <body>, and feature flags inside a longer name, name no dialog.
    doc = parse(_consent_listing("cookie-consent-shown", "enableInlineConsent filterNonGdprEmbeds"))
    assert not comments.consent_mask(doc).any()
    # Other platforms' and generic names; a bakery's grid of cookies is no dialog.
    for name in ("iubenda-cs-banner", "cmplz-cookiebanner", "cookiemessage", "CybotCookiebotDialog"):
        assert comments.consent_mask(parse(_consent_listing(dialog_id=name))).any()
    for name in ("cookies-grid", "cookie-box", "recipe-cookies"):
        assert not comments.consent_mask(parse(_consent_listing(dialog_id=name))).any()
    # Only what the dialog holds; a page that is all dialog keeps its text.
    only = f"<html><body><div class='cookie-banner'><p>{_CONSENT}</p></div></body></html>"
    assert comments.consent_mask(parse(only)).all()
    assert _CONSENT in extract(only).text


_TILES = [
    "Ridgeline four person tunnel tent",
    "Summit down sleeping bag, long",
    "Trailhead hiking poles with cork grips",
    "Canyon waterproof day pack 28 litres",
    "Harbour merino base layer crew",
    "Fellside insulated camping mug",
    "Northface gaiters for wet moorland",
    "Tarn inflatable sleeping mat, wide",
]


def _shop_grid(n_tiles: int = len(_TILES)) -> str:
    mega = "".join(
        f"<div class='menu-col'><p><a href='/c/{i}'>Tents and shelters</a></p><p><a href='/c/{i}/a'>Sleeping bags "
        f"and mats</a></p><p><a href='/c/{i}/b'>Camp kitchen and stoves</a></p></div>"
        for i in range(8)
    )
    tiles = "".join(
        f"<div class='product-tile'><h3><a href='/p/{i}'>{name}</a></h3><p class='price'>${20 + 7 * i}.00</p></div>"
        for i, name in enumerate(_TILES[:n_tiles])
    )
    return (
        f"<html><head><title>Camping kit</title></head><body><header><nav>{mega}</nav></header>"
        f"<main><h1>Camping kit</h1><div class='grid'>{tiles}</div></main>"
        "<footer><p>Free delivery on orders over $50. Returns within 60 days.</p></footer></body></html>"
    )


def test_largest_group_is_the_cards_not_the_menu() -> None:
    doc = parse(_shop_grid())
    allowed = np.ones(doc.n_blocks, dtype=bool)
    found = {doc.texts[b] for b in np.flatnonzero(records.largest_group(doc, allowed))}
    assert set(_TILES) <= found
    assert not any("Tents and shelters" in t or "Free delivery" in t for t in found)
    # Blocks a named-furniture mask took out neither count nor join.
    allowed[[b for b, t in enumerate(doc.texts) if t == _TILES[0]]] = False
    assert _TILES[0] not in {doc.texts[b] for b in np.flatnonzero(records.largest_group(doc, allowed))}
    # Three cards are no listing, and a group of one-word items is a menu.
    few = parse(_shop_grid(3))
    assert not records.largest_group(few, np.ones(few.n_blocks, dtype=bool)).any()
    words = parse(
        "<html><body><ul>" + "".join(f"<li><div class='x'>{w}</div></li>" for w in _MENU) + "</ul></body></html>"
    )
    assert not records.largest_group(words, np.ones(words.n_blocks, dtype=bool)).any()
    # Columns of one-word links hold words enough per column, but not per block.
    towns = "".join(f"<p><a href='/t/{i}'>Town{i}</a></p>" for i in range(12))
    columns = parse(
        f"<html><body><main>{''.join(f'<div class=col>{towns}</div>' for _ in range(5))}</main></body></html>"
    )
    assert not records.largest_group(columns, np.ones(columns.n_blocks, dtype=bool)).any()


def _grid_under_text(paragraphs: int) -> str:
    """A shop's grid under its category text: every tile a link, the model keeps the text only."""
    text = "".join(f"<p>{s}</p>" for s in _SUMMARIES[:paragraphs])
    intro = f"<h1>Camping kit</h1><div class='intro'>{text}</div>"
    page = _shop_grid().replace("<h1>Camping kit</h1>", intro).replace("<p class='price'>", "<p class='price'><a>")
    return page.replace(".00</p>", ".00</a></p>")


def test_listing_profile_keeps_cards_the_model_scores_low() -> None:
    doc = parse(_grid_under_text(1))
    span, shipped = document_span(doc), default_model()
    # The shipped model without its lists model: a model that misses the cards, the rule's case.
    model = BlockModel(shipped.stage1, shipped.stage2, threshold=shipped.threshold)
    tiles = np.array([t in _TILES for t in doc.texts])
    # With its lists model, the shipped one keeps every card as well.
    assert auto.select(doc, span, shipped, smooth=True, page_type="listing")[0][tiles].all()
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep, q = auto.select(doc, span, model, smooth=True, page_type="listing", reasons=reasons)
    low = tiles & (q < PROFILES["listing"].threshold)
    assert low.sum() >= 0.75 * tiles.sum()  # the model misses most cards ...
    # ... and the group brings in every one whose probability clears the records' bar, and no other
    bar = PROFILES["listing"].records
    assert bar is not None and (low & (q >= bar)).sum() >= tiles.sum() / 2
    assert (keep[tiles] == (q[tiles] >= bar)).all() and (reasons[low & (q >= bar)] == Reason.RECORD).all()
    assert not any("Tents and shelters" in doc.texts[b] for b in np.flatnonzero(reasons == Reason.RECORD))
    assert PROFILES["listing"].largest_records and PROFILES["collection"].largest_records
    assert not any(PROFILES[t].largest_records for t in ("article", "forum", "product", "documentation", "service"))


def test_cards_join_only_where_the_model_kept_little() -> None:
    # Beside a kept text longer than half of them, the group is a sidebar: it stays out.
    doc = parse(_grid_under_text(6))
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="listing")
    kept_words = float(np.asarray(doc.words)[keep].sum())
    tiles = np.array([t in _TILES for t in doc.texts])
    assert float(np.asarray(doc.words)[tiles].sum()) < auto.CARDS_OVER_KEPT * kept_words
    assert not keep[tiles].any()


def test_largest_group_reads_a_grid_of_rows_as_one_group() -> None:
    # Rows of three cards each under their own row element: no row alone is a listing.
    rows = "".join(
        "<div class='row'>"
        + "".join(
            f"<div class='card'><h3><a href='/p/{3 * r + i}'>{_TILES[(3 * r + i) % len(_TILES)]}</a></h3></div>"
            for i in range(3)
        )
        + "</div>"
        for r in range(3)
    )
    doc = parse(f"<html><body><h1>Camping kit</h1><main>{rows}</main></body></html>")
    found = records.largest_group(doc, np.ones(doc.n_blocks, dtype=bool))
    assert int(found.sum()) == 9
    assert "Camping kit" not in {doc.texts[b] for b in np.flatnonzero(found)}


def test_largest_group_reads_list_item_cards_whose_parts_lie_at_different_depths() -> None:
    # Each <li> card: a header naming it, a rating two levels down, a price; the skeleton holds
    # no <li>, so only the list gathers the parts. A card's own <header> is no page chrome.
    cards = "".join(
        f"<li><header class='tile-head'><a href='/p/{i}'>{name}</a></header>"
        f"<div class='meta'><div class='rating'><span>({10 + i}) reviews, 4.{i} out of 5 stars</span></div></div>"
        f"<div class='price'>${20 + i}.95</div></li>"
        for i, name in enumerate(_TILES)
    )
    page = f"<html><body><header><p>Free delivery over $50</p></header><main><ul class='grid'>{cards}</ul></main></body></html>"
    doc = parse(page)
    found = {doc.texts[b] for b in np.flatnonzero(records.largest_group(doc, np.ones(doc.n_blocks, dtype=bool)))}
    assert set(_TILES) <= found
    assert "(10) reviews, 4.0 out of 5 stars" in found and "$20.95" in found
    assert "Free delivery over $50" not in found


def test_filler_that_repeats_a_few_words_leaves_the_decision() -> None:
    marquee = "<div class='ticker'><p>" + "Book Now * " * 60 + "</p></div>"
    doc = parse(_grid_under_text(1).replace("<footer>", marquee + "<footer>", 1))
    filler = auto.filler_mask(doc)
    assert [doc.texts[b][:10] for b in np.flatnonzero(filler)] == ["Book Now *"]
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="listing")
    assert not (keep & filler).any()
    # Prose repeats its common words, never this much.
    prose = parse(f"<html><body><p>{' '.join(_SUMMARIES * 3)}</p></body></html>")
    assert not auto.filler_mask(prose).any()


def test_a_consent_dialog_that_alone_passes_the_threshold_goes_after_the_decision() -> None:
    # A thread the model scores low beside a confident consent text: zeroed before the decision,
    # nothing would pass and the fallback would skip the thread's own rule; it goes after it.
    posts = "".join(
        f"<div class='comment'><p>Reply {i}: same here, mine rattles too at idle.</p></div>" for i in range(4)
    )
    menu = "".join(f"<li><a href='/{m}'>{m}</a></li>" for m in _MENU)
    page = (
        f"<html><body><div id='onetrust-consent-sdk'><p>{_CONSENT}</p><p>{_CONSENT.replace('partners', 'vendors')}"
        f"</p></div><nav><ul>{menu}</ul></nav><main><div class='comments'>{posts}</div></main></body></html>"
    )
    doc = parse(page)
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="forum", reasons=reasons)
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert not kept & {_CONSENT, _CONSENT.replace("partners", "vendors")}
    replies = [b for b, t in enumerate(doc.texts) if t.startswith("Reply ")]
    assert len(replies) == 4 and keep[replies].all()
    assert (reasons[replies] == Reason.THREAD).all()  # the thread's rule, not the fallback


def test_a_shops_recommendations_go_by_their_heading_whatever_their_box_is_called() -> None:
    """Other products' cards under "You may also like" go on product pages, in a box named for
    nothing (``x-slot``); the product's description, which the heading does not open, stays."""
    cards = "".join(
        f"<div class='c-{i}'><a href='/p/{i}'>Trail tent number {i} for two hikers</a><span>$ {i}9.00</span></div>"
        for i in range(4)
    )
    html = (
        "<html><body><main><div class='pdp'><h1>Ridge tent</h1>"
        f"<div class='product-description'><p>{_SPEC}</p><p>{_SPEC.replace('four', 'three')}</p></div></div>"
        f"<div class='x-slot'><h2>You may also like</h2><div class='row'>{cards}</div></div></main></body></html>"
    )
    doc = parse(html)
    heads = never_body.shop_headings(doc)
    assert [doc.texts[b] for b in heads] == ["You may also like"]
    model = FixedModel([0.9] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="product")  # type: ignore[arg-type]
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert _SPEC in kept
    assert not any(text.startswith("Trail tent") for text in kept) and "You may also like" not in kept
    # The box is the heading's: the description, which it does not open, stays.
    box = never_body.boxed_furniture(doc, np.ones(doc.n_blocks, dtype=bool), heads)
    assert {doc.texts[b] for b in np.flatnonzero(box)} == {"You may also like"} | {
        doc.texts[b] for b in range(doc.n_blocks) if doc.texts[b].startswith(("Trail tent", "$"))
    }
    assert not PROFILES["collection"].drop_shop_sections


_TENT = "Ridge tent for two hikers"


def _named_product_page(between: int) -> str:
    """A shop page: the name (``<h1>``), ``between`` short blocks (rating, price, buttons), the description."""
    shorts = "".join(f"<p class='meta-{i}'>Option {i}</p>" for i in range(between))
    return (
        f"<html><head><title>{_TENT}</title></head><body><main><div class='pdp'>"
        f"<h1>{_TENT}</h1>{shorts}<div class='product-description'><p>{_SPEC}</p>"
        f"<p>{_SPEC.replace('four', 'three')}</p></div></div></main></body></html>"
    )


def _select(doc: Document, model: Any, page_type: str, reasons: np.ndarray | None = None) -> np.ndarray:
    """``auto``'s selection of ``doc`` by the given block model, with the tent's title."""
    keep, _ = auto.select(
        doc, document_span(doc), model, smooth=True, page_type=page_type, title=_TENT, reasons=reasons
    )
    return keep


@pytest.mark.parametrize("between", [0, 3, auto.NAME_REACH - 1])
def test_a_product_pages_name_joins_its_description(between: int) -> None:
    """The product's name is one of the details its page states: the ``<h1>`` repeating the title,
    a few blocks (rating, price, buttons) before the kept description, joins it, however low the
    model scored it; an article's headline stays out."""
    doc = parse(_named_product_page(between))
    model = FixedModel([0.1] * (1 + between) + [0.9, 0.9])
    reasons = np.zeros(doc.n_blocks, dtype=np.int8)
    keep = _select(doc, model, "product", reasons)
    assert [doc.texts[b] for b in np.flatnonzero(keep)] == [_TENT, _SPEC, _SPEC.replace("four", "three")]
    assert reasons[0] == Reason.NAME and Reason.NAME in KEEPING
    assert not keep[1 : 1 + between].any()
    assert not _select(doc, model, "article")[0]
    assert PROFILES["product"].keep_name and not any(PROFILES[t].keep_name for t in PROFILES if t != "product")


def test_a_name_far_from_the_kept_text_or_unlike_the_title_stays_out() -> None:
    """An ``<h1>`` more than :data:`~scrapy_bte.learned.auto.NAME_REACH` blocks from the kept text heads
    another part of the page; one that does not repeat the page's title names something else."""
    model = FixedModel([0.1] * (2 + auto.NAME_REACH) + [0.9, 0.9])
    keep = _select(parse(_named_product_page(auto.NAME_REACH + 1)), model, "product")
    assert not keep[0] and keep[-2:].all()
    near = parse(_named_product_page(1))
    assert auto.name_block(near, np.arange(near.n_blocks) >= 2, _TENT) == 0
    assert auto.name_block(near, np.arange(near.n_blocks) >= 2, "Lightweight camping stoves") is None
    assert auto.name_block(near, np.zeros(near.n_blocks, dtype=bool), _TENT) is None


@pytest.mark.parametrize("heading", ["Delivery & returns", "Shipping and returns", "Versand & Rückgabe"])
def test_a_delivery_and_returns_box_is_the_shops_terms_and_does_not_part_the_name(heading: str) -> None:
    """The shop's delivery and returns terms say what every product of the shop gets, not what this
    one is: the box its heading opens goes, and its blocks do not count as distance between the
    product's name and its description (the name, then a price, then the box, then the text)."""
    terms = "".join(f"<li>Free returns within {d} days of the order</li>" for d in (14, 30, 60))
    html = (
        f"<html><head><title>{_TENT}</title></head><body><main><div class='pdp'><h1>{_TENT}</h1>"
        "<p class='price'>$ 129.00</p><p class='stock'>In stock</p>"
        f"<div class='box-7'><h3>{heading}</h3><ul>{terms}</ul></div>"
        f"<div class='product-description'><p>{_SPEC}</p><p>{_SPEC.replace('four', 'three')}</p></div>"
        "</div></main></body></html>"
    )
    doc = parse(html)
    assert [doc.texts[b] for b in never_body.shop_headings(doc)] == [heading]
    reach = auto.NAME_REACH
    assert doc.texts.index(_SPEC) - doc.texts.index(_TENT) > reach  # near only without the box
    model = FixedModel([0.1, 0.1, 0.1] + [0.9] * (doc.n_blocks - 3))
    kept = [doc.texts[b] for b in np.flatnonzero(_select(doc, model, "product"))]
    assert kept == [_TENT, _SPEC, _SPEC.replace("four", "three")]
    # On an article, a heading of that name is no shop's box.
    assert heading in [doc.texts[b] for b in np.flatnonzero(_select(doc, model, "article"))]


def test_testimonials_on_a_product_page_are_its_reviews() -> None:
    """A slider of buyers' quotes named ``testimonials`` is the product's reviews under another name."""
    quotes = "".join(
        f"<div class='glide__slide'><p>Bought this for my {who} and we use it every single morning now.</p></div>"
        for who in ("father", "sister", "neighbour")
    )
    html = (
        "<html><body><main><h1>Ridgeline 4 tent</h1>"
        f"<div class='product-description'><p>{_SPEC}</p></div>"
        f"<div class='bb-slider-testimonials'>{quotes}</div></main></body></html>"
    )
    doc = parse(html)
    named = {doc.texts[b] for b in np.flatnonzero(comments.shop_furniture_mask(doc))}
    assert named == {t for t in doc.texts if t.startswith("Bought this")} and len(named) == 3
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="product")
    assert not {doc.texts[b] for b in np.flatnonzero(keep)} & named


def test_a_carousel_on_a_product_page_is_other_products() -> None:
    """A strip of sponsored or similar items: its cards are records, yet not this product's text."""
    cards = "".join(
        f"<li class='carousel__item'><a href='/itm/{i}'>Trail tent number {i} for two walkers</a>"
        f"<p>${100 + i}.00</p><p>Advertiser: seller_{i}</p></li>"
        for i in range(6)
    )
    html = (
        "<html><body><main><h1>Ridgeline 4 tent</h1>"
        f"<div class='product-description'><p>{_SPEC}</p><p>{_SPEC.replace('four', 'three')}</p></div>"
        f"<div class='carousel carousel--slides'><ul class='carousel__list'>{cards}</ul></div>"
        "</main></body></html>"
    )
    doc = parse(html)
    shop = comments.shop_furniture_mask(doc)
    named = {doc.texts[b] for b in np.flatnonzero(shop)}
    assert "Trail tent number 3 for two walkers" in named and "Advertiser: seller_5" in named
    assert _SPEC not in named and "Ridgeline 4 tent" not in named
    keep, _ = auto.select(doc, document_span(doc), default_model(), smooth=True, page_type="product")
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert _SPEC in kept and not kept & named
    # Other page types read their carousels as the model and the record rules decide.
    assert not PROFILES["collection"].drop_shop_sections and not PROFILES["service"].drop_shop_sections
