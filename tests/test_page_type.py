"""The page-type classifier: its evidence, its shipped model and where its answer goes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from scrapy_bte import extract
from scrapy_bte.api import parse
from scrapy_bte.core.scripts import weighted_words
from scrapy_bte.errors import ConfigError, ModelError
from scrapy_bte.fields import read
from scrapy_bte.learned import page_type as pt
from scrapy_bte.learned.estimators import SoftmaxClassifier
from scrapy_bte.result import Extraction

WORDS = (
    "the river valley holds old mills and stone bridges where farmers once carried grain to market "
    "while travellers rested under chestnut trees before crossing the pass toward the northern towns"
).split()


def sentence(i: int, n: int = 18) -> str:
    return " ".join(WORDS[(i + k) % len(WORDS)] for k in range(n)).capitalize() + "."


NAV = (
    '<header><nav class="menu"><ul>'
    + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(8))
    + "</ul></nav></header>"
)
FOOTER = '<footer class="footer"><p>Copyright 2025 Example Media. All rights reserved.</p></footer>'


def article_page() -> str:
    body = "".join(f"<p>{sentence(i, 30)} {sentence(i + 3, 25)}</p>" for i in range(9))
    ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Mills of the valley"})
    return (
        f'<html><head><title>Mills of the valley</title><meta property="og:type" content="article">'
        f'<script type="application/ld+json">{ld}</script></head><body>{NAV}<main><article>'
        f'<h1>Mills of the valley</h1><p class="byline">By Ann Writer</p><time datetime="2025-03-02">2 March</time>'
        f"{body}</article></main>{FOOTER}</body></html>"
    )


def forum_page() -> str:
    posts = "".join(
        f'<article class="post topic-post" id="post_{i}"><div class="post-author"><a class="username" href="/u/u{i}">'
        f'user{i}</a><span class="user-title">Member</span></div><div class="post-body cooked"><p>{sentence(i, 22)}</p>'
        f'<p>{sentence(i + 5, 15)}?</p></div><div class="post-controls"><button>Reply</button>'
        f'<span class="likes">{i} likes</span></div></article>'
        for i in range(7)
    )
    ld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "DiscussionForumPosting",
            "headline": "Grain mill bearings keep failing",
            "comment": [{"@type": "Comment", "text": "x"} for _ in range(6)],
        }
    )
    return (
        f"<html><head><title>Grain mill bearings keep failing - Support - Mill Forum</title>"
        f'<script type="application/ld+json">{ld}</script></head><body>{NAV}<div id="main-outlet">'
        f'<h1 class="thread-title">Grain mill bearings keep failing</h1><div class="topic-posts">{posts}</div>'
        f"</div>{FOOTER}</body></html>"
    )


def product_page() -> str:
    ld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Product",
            "name": "Stone Grain Mill 200",
            "sku": "SGM-200",
            "offers": {"@type": "Offer", "price": "349.00", "priceCurrency": "USD"},
        }
    )
    return (
        f'<html><head><title>Stone Grain Mill 200 | Mill Shop</title><meta property="og:type" content="product">'
        f'<script type="application/ld+json">{ld}</script></head><body>{NAV}<main class="product-page">'
        f'<div class="product-gallery"><img src="a.jpg" alt=""></div><div class="product-info">'
        f'<h1 class="product-title">Stone Grain Mill 200</h1><div class="price"><span class="money">$349.00</span></div>'
        f'<form class="add-to-cart" action="/cart/add"><label>Quantity</label><input name="qty" value="1">'
        f'<button class="btn-cart">Add to cart</button></form><div class="product-description"><p>{sentence(1, 25)}</p>'
        f"<ul><li>Granite stones, 20 cm</li><li>Motor 400 W</li><li>Weight 9 kg</li></ul></div></div></main>"
        f'<section class="recommended"><h2>You may also like</h2><div class="product-grid">'
        + "".join(
            f'<div class="product-card"><a href="/products/p{i}">Mill part {i}</a><span class="price">${i}9.00</span></div>'
            for i in range(4)
        )
        + f"</div></section>{FOOTER}</body></html>"
    )


def listing_page() -> str:
    cards = "".join(
        f'<li class="card news-item"><a class="card-link" href="/news/story-{i}"><h3>{sentence(i, 7)}</h3></a>'
        f'<p class="card-summary">{sentence(i + 2, 14)}</p><span class="date">March {i + 1}, 2025</span></li>'
        for i in range(14)
    )
    return (
        f"<html><head><title>News | Valley Mills Association</title></head><body>{NAV}<main>"
        f'<h1>Latest news</h1><ul class="card-grid items">{cards}</ul><nav class="pagination"><a href="?page=2">2</a>'
        f'<a href="?page=3">3</a><a href="?page=2">Next</a></nav></main>{FOOTER}</body></html>'
    )


def docs_page() -> str:
    toc = "".join(f'<li class="toctree-l1"><a href="/docs/ch{i}.html">Chapter {i}</a></li>' for i in range(12))
    sections = "".join(
        f'<section id="s{i}"><h2>Step {i}</h2><p>{sentence(i, 20)}</p>'
        f'<div class="highlight-python"><pre><code>mill = Mill(stones={i})\nmill.grind("wheat")</code></pre></div>'
        f"<p>{sentence(i + 4, 15)} Call <code>mill.stop()</code> afterwards.</p></section>"
        for i in range(5)
    )
    return (
        f"<html><head><title>Quickstart - millkit 2.1 documentation</title></head><body>"
        f'<div class="sphinxsidebar" role="navigation"><h3>Table of contents</h3><ul>{toc}</ul>'
        f'<select class="version-picker"><option>2.1</option></select></div>'
        f'<div class="document"><div class="body" role="main"><h1>Quickstart</h1>{sections}'
        f'<table class="docutils"><tr><th>Option</th><th>Meaning</th></tr><tr><td>stones</td><td>count</td></tr></table>'
        f"</div></div>{FOOTER}</body></html>"
    )


PAGES = {
    "article": (article_page, "https://news.example.com/2025/03/02/mills-of-the-valley-reopen-after-restoration"),
    "forum": (forum_page, "https://forum.example.org/t/grain-mill-bearings-keep-failing/48213"),
    "product": (product_page, "https://shop.example.com/products/stone-grain-mill-200"),
    "listing": (listing_page, "https://valleymills.example.org/news/"),
    "documentation": (docs_page, "https://docs.example.dev/millkit/2.1/quickstart.html"),
}


@pytest.mark.parametrize("expected", sorted(PAGES))
def test_fixture_pages_are_classified(expected: str) -> None:
    build, url = PAGES[expected]
    result = pt.classify(parse(build()), url)
    assert result.name == expected, result.probabilities
    assert set(result.probabilities) == set(pt.PAGE_TYPES)
    assert abs(sum(result.probabilities.values()) - 1.0) < 1e-4
    assert result.probabilities[expected] == max(result.probabilities.values())


def test_extraction_carries_the_page_type_for_every_method() -> None:
    build, url = PAGES["forum"]
    html = build()
    for method in ("bte", "density", "hybrid", "model", "auto"):
        assert extract(html, url=url, method=method).page_type == "forum"


@pytest.mark.parametrize("method", ["bte", "density", "hybrid", "model", "auto"])
def test_without_page_type_only_the_learned_methods_classify(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    build, url = PAGES["forum"]
    html = build()
    typed = extract(html, url=url, method=method)
    calls: list[str | None] = []
    classify = pt.classify

    def counted(*args: object, **kwargs: object) -> pt.PageType:
        calls.append(url)
        return classify(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pt, "classify", counted)
    untyped = extract(html, url=url, method=method, page_type=False)
    learned = method in ("model", "auto")
    assert untyped.page_type == ("forum" if learned else None)
    assert calls == ([url] if learned else [])  # bte, density and hybrid never build the element tree for it
    assert (untyped.text, untyped.title, untyped.kept_blocks) == (typed.text, typed.title, typed.kept_blocks)
    assert untyped.to_dict()["page_type"] == untyped.page_type


def test_page_type_option_must_be_a_bool() -> None:
    with pytest.raises(ConfigError, match="page_type must be True or False"):
        extract("<p>Some text here.</p>", method="bte", page_type="no")  # type: ignore[arg-type]


def test_page_type_round_trips_through_to_dict() -> None:
    build, url = PAGES["product"]
    result = extract(build(), url=url)
    data = result.to_dict()
    assert data["page_type"] == "product"
    assert Extraction.from_dict(json.loads(json.dumps(data))) == result
    assert Extraction.failed("boom").to_dict()["page_type"] is None


def test_evidence_reads_declared_types_and_repeated_cards() -> None:
    names = pt.EVIDENCE_NAMES
    forum = pt.page_evidence(parse(forum_page()), None)
    article = pt.page_evidence(parse(article_page()), None)
    listing = pt.page_evidence(parse(listing_page()), "https://valleymills.example.org/news/?page=2")
    assert forum.dtype == np.float32 and forum.shape == (len(names),)
    col = {n: i for i, n in enumerate(names)}
    assert forum[col["schema_forum"]] > 0 and article[col["schema_forum"]] == 0
    assert article[col["schema_article"]] > 0 and article[col["og_article"]] == 1
    assert forum[col["schema_comment"]] > 0
    # Seven posts whose ids differ are a run of same-shaped siblings (same tag, same class words);
    # fourteen <li> cards are items of one container; an article's paragraphs are neither.
    assert forum[col["run_share"]] > 0.5 and forum[col["largest_run_items"]] == pytest.approx(np.log1p(7))
    assert listing[col["heading_slot_share"]] > 0.8 and article[col["heading_slot_share"]] == 0
    assert 2.5 < listing[col["heading_slot_item_words"]] < 4  # 7 + 14 words and a date per card
    assert article[col["run_share"]] < 0.2
    assert listing[col["url_query"]] == 1 and listing[col["url_depth"]] == 1
    assert listing[col["hint_card"]] > 0.5 and article[col["hint_card"]] == 0
    # Without a URL, the URL columns stay zero.
    assert not forum[[i for n, i in col.items() if n.startswith(("url_", "host_", "has_url"))]].any()


def test_empty_and_odd_pages_get_a_type() -> None:
    for html, url in (("<html><body></body></html>", None), ("<p>Hi</p>", "not a url"), ("<p>x</p>", "http://[::1")):
        result = extract(html, url=url)
        assert result.page_type in pt.PAGE_TYPES


def test_shipped_model_loads_without_pickle() -> None:
    with np.load(pt.DEFAULT_MODEL, allow_pickle=False) as data:
        assert all(data[name].dtype.kind == "f" for name in data.files)
    meta = json.loads(pt.DEFAULT_MODEL.with_suffix(".json").read_text())
    assert meta["page_types"] == list(pt.PAGE_TYPES) and meta["evidence"] == list(pt.EVIDENCE_NAMES)
    assert "train-page-type" in meta["command"] and meta["metrics"]["fold_accuracy"] > 0.75
    assert isinstance(pt.load(pt.DEFAULT_MODEL), pt.PageTypeModel)


def _copy_model(tmp_path: Path) -> Path:
    target = tmp_path / "page_type.npz"
    shutil.copy(pt.DEFAULT_MODEL, target)
    shutil.copy(pt.DEFAULT_MODEL.with_suffix(".json"), target.with_suffix(".json"))
    return target


def test_load_refuses_pickles_and_mismatches(tmp_path: Path) -> None:
    target = _copy_model(tmp_path)
    meta_path = target.with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "evidence_version": pt.EVIDENCE_VERSION + 1}))
    with pytest.raises(ModelError, match="retrain"):
        pt.load(target)
    meta_path.write_text(json.dumps({**meta, "evidence": meta["evidence"][:-1]}))
    with pytest.raises(ModelError, match="evidence list"):
        pt.load(target)
    meta_path.write_text(json.dumps(meta))
    np.savez(target, mean=np.array([object()], dtype=object))
    with pytest.raises(ModelError, match="pickled"):
        pt.load(target)
    with pytest.raises(ModelError, match="not found"):
        pt.load(tmp_path / "missing.npz")


def test_a_saved_model_classifies_as_trained(tmp_path: Path) -> None:
    pages = [(build(), url, name) for name, (build, url) in PAGES.items()]
    X = np.array([pt.page_evidence(parse(html), url) for html, url, _ in pages])
    y = np.array([pt.PAGE_TYPES.index(name) for _, _, name in pages])
    clf = SoftmaxClassifier(len(pt.PAGE_TYPES), (8,), epochs=300, learning_rate=0.02, l2=1e-4).fit(X, y)
    model = pt.PageTypeModel(clf)
    model.save(tmp_path / "m.npz", {"command": "test"})
    loaded = pt.load(tmp_path / "m.npz")
    for (html, url, name), row in zip(pages, X):
        assert pt.classify(parse(html), url, loaded).name == name
        np.testing.assert_allclose(loaded.probabilities(row), model.probabilities(row), rtol=1e-5)


def test_selection_follows_the_type_only_when_the_classifier_is_sure_or_the_page_is_no_article() -> None:
    from scrapy_bte.learned.profiles import ARTICLE_UNLIKELY, selection_type

    sure = {"article": 0.1, "listing": 0.8}
    assert selection_type("listing", sure) == "listing"
    # Unsure of the type, and the page may well be an article: read as one.
    maybe_article = {"article": ARTICLE_UNLIKELY + 0.05, "collection": 0.5}
    assert selection_type("collection", maybe_article) == "article"
    # Split between shop types, the article type unlikely: the most probable type's profile.
    split = {"article": 0.25, "collection": 0.4, "listing": 0.2, "product": 0.15}
    assert selection_type("collection", split) == "collection"
    # A forum needs its own bar: an article with a comment thread looks like one.
    assert selection_type("forum", {"article": 0.3, "forum": 0.7}) == "article"
    assert selection_type("forum", {"article": 0.1, "forum": 0.85}) == "forum"
    # ... unless the page's markup marks the thread's posts: asked only where the bar is missed.
    asked: list[str] = []

    def marked() -> bool:
        asked.append("forum")
        return True

    assert selection_type("forum", {"article": 0.3, "forum": 0.7}, marked) == "forum"
    assert selection_type("forum", {"article": 0.1, "forum": 0.85}, marked) == "forum"
    assert selection_type("forum", {"article": 0.3, "forum": 0.7}, lambda: False) == "article"
    assert selection_type("collection", maybe_article, marked) == "article"  # forums only
    assert asked == ["forum"]
    assert selection_type("article", {"article": 0.2, "listing": 0.1}) == "article"
    # A listing asks for less: its profile falls back to the article's reading when what the
    # article profile keeps is one body (a blog's front page, listing 0.59 and article 0.39).
    assert selection_type("listing", {"article": 0.39, "listing": 0.59}) == "listing"
    assert selection_type("listing", {"article": 0.52, "listing": 0.48}) == "article"
    assert selection_type("service", {"article": 0.42, "service": 0.55}) == "service"


@pytest.mark.parametrize(
    ("english", "other"),
    [
        ("https://shop.example/products/oak-chair", "https://laden.example.de/produkte/eichenstuhl"),
        ("https://shop.example/category/chairs", "https://boutique.example.fr/categorie/chaises"),
        ("https://help.example/docs/install", "https://hilfe.example.de/dokumentation/installation"),
        ("https://agency.example/services/web-design", "https://agentur.example.de/leistungen/webdesign"),
        ("https://town.example/about-us", "https://stadt.example.de/ueber-uns"),
        ("https://club.example/news/season-opens", "https://verein.example.de/nachrichten/saisonstart"),
        ("https://board.example/forum/threads/42", "https://tablero.example.es/comunidad/42"),
    ],
)
def test_url_words_of_other_languages_count_as_their_english_ones(english: str, other: str) -> None:
    """The classifier learned its URL weights from English sites: ``/produkte/`` reads as ``/products/``."""
    doc = parse(article_page())
    url_columns = [i for i, n in enumerate(pt.EVIDENCE_NAMES) if n.startswith("url_") and n[4:] in dict(pt.URL_WORDS)]
    a, b = pt.page_evidence(doc, english), pt.page_evidence(doc, other)
    assert a[url_columns].any()
    assert (a[url_columns] == b[url_columns]).all()


@pytest.mark.parametrize(
    ("english", "other"),
    [
        ("Buy oak chairs online", "Eichenstühle kaufen"),
        ("Services of our agency", "Leistungen unserer Agentur"),
        ("Forum: question about the boiler", "Frage zur Heizung"),
        ("All news", "Alle Nachrichten"),
    ],
)
def test_title_words_of_other_languages_count_as_their_english_ones(english: str, other: str) -> None:
    columns = [i for i, n in enumerate(pt.EVIDENCE_NAMES) if n.startswith("title_") and n[6:] in dict(pt.TITLE_WORDS)]

    def row(title: str) -> np.ndarray:
        return pt.page_evidence(parse(article_page().replace("<title>", f"<title>{title} ", 1)), None)[columns]

    assert row(english).any()
    assert (row(english) == row(other)).all()


def test_microdata_types_count_where_the_attribute_is_spelled_in_one_case() -> None:
    col = {n: i for i, n in enumerate(pt.EVIDENCE_NAMES)}
    item = '<div {attr}="https://schema.org/Product"><p>{text}</p></div>'
    cards = "".join(
        item.format(attr=attr, text=sentence(i))
        for i, attr in enumerate(("itemtype", "ITEMTYPE", "itemType", "itemtype"), start=1)
    )
    html = f"<html><head><title>Mill stones</title></head><body>{cards}</body></html>"
    evidence = pt.page_evidence(parse(html), None)
    assert evidence[col["schema_product"]] == np.float32(np.log1p(3))  # the camel-case one is not read
    # The same page where lower-casing the attributes changes their length (U+0130): the
    # evidence is read without the lowered strings, to the same values.
    odd = html.replace("<body>", '<body data-x="\u0130">')
    doc = parse(odd)
    assert doc.skeleton.attr_search is None
    assert pt.page_evidence(doc, None)[col["schema_product"]] == evidence[col["schema_product"]]
    plain = pt.page_evidence(parse(html.replace("itemtype", "data-kind").replace("ITEMTYPE", "data-kind")), None)
    assert plain[col["schema_product"]] == 0


@pytest.mark.parametrize(
    "og,column",
    [("article", "og_article"), ("product.item", "og_product"), ("website", "og_website"), ("video.movie", "og_other")],
)
def test_og_type_values_land_in_their_group(og: str, column: str) -> None:
    html = article_page().replace('content="article"', f'content="{og}"')
    evidence = pt.page_evidence(parse(html), None)
    og_columns = [n for n in pt.EVIDENCE_NAMES if n.startswith("og_")]
    assert [evidence[pt.EVIDENCE_NAMES.index(n)] for n in og_columns] == [float(n == column) for n in og_columns]


def test_count_columns_hold_the_logarithm_of_their_counts() -> None:
    col = {n: i for i, n in enumerate(pt.EVIDENCE_NAMES)}
    doc = parse(listing_page())
    evidence = pt.page_evidence(doc, None)
    assert evidence[col["count_li"]] == np.float32(np.log1p(doc.tag_names.count("li")))
    assert evidence[col["title_words"]] == np.float32(np.log1p(len(doc.title_tag.split())))
    assert evidence[col["heading_slot_item_words"]] > 0 and evidence[col["dt_slot_item_words"]] == 0
    untitled = pt.page_evidence(
        parse(listing_page().replace("<title>News | Valley Mills Association</title>", "")), None
    )
    assert untitled[col["title_words"]] == 0


def test_title_words_count_the_letters_of_scripts_without_spaces_as_the_blocks_do() -> None:
    # A Japanese title of 30 letters is 12 words as the blocks count them, not the 2 its one
    # space makes: split at spaces, it read as the short heading of a list.
    title = "緑町商店街の空き店舗に若い店主が続々と出店 通りに三十年ぶりの活気"
    col = pt.EVIDENCE_NAMES.index("title_words")
    doc = parse(re.sub("<title>[^<]*</title>", f"<title>{title}</title>", article_page()))
    assert doc.title_tag == title
    evidence = pt.page_evidence(doc, None)
    assert evidence[col] == np.float32(np.log1p(weighted_words(title)))
    assert evidence[col] > np.float32(np.log1p(10)) and len(title.split()) == 2


def test_a_page_without_its_url_is_typed_by_the_address_it_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    """The canonical link stands in for a missing URL, read once with the fields, and is no
    field of the result unless asked for."""
    posts = "".join(
        f"<div class='post'><div class='author'>member{i}</div><p>Reply number {i}: the lever on my "
        f"old gearbox still sticks in third, and the oil I used was the one the manual names.</p></div>"
        for i in range(5)
    )
    body = f"<html><head><title>Gearbox lever sticks</title>{{head}}</head><body>{posts}</body></html>"
    url = "https://forum.example.org/t/gearbox-lever-sticks/4711"
    declared = parse(body.format(head=f"<link rel='canonical' href='{url}'>"))
    bare = parse(body.format(head=""))
    assert pt.declared_url(declared) == url and pt.declared_url(bare) is None
    # The URL's words and shape are evidence: the declared address counts as the URL would.
    typed = pt.classify(declared, None)
    assert typed == pt.classify(declared, url) == pt.classify(declared, url, declared=True)
    assert typed.probabilities != pt.classify(declared, None, declared=True).probabilities
    # extract() reads the head once: the title and the declared address together.
    made = []
    real_init = read.Page.__init__
    monkeypatch.setattr(read.Page, "__init__", lambda self, *a, **k: made.append(1) or real_init(self, *a, **k))
    result = extract(body.format(head=f"<link rel='canonical' href='{url}'>"))
    assert len(made) == 1
    monkeypatch.undo()
    assert result.page_type == extract(body.format(head=""), url=url).page_type
    assert result.canonical_url is None and "canonical_url" not in result.field_sources
    asked = extract(body.format(head=f"<link rel='canonical' href='{url}'>"), fields=["canonical_url"])
    assert asked.canonical_url == url and asked.field_sources["canonical_url"] == "link"


_BYLINE_HEAD = (
    '<head><meta name="author" content="Anna Kerr">'
    '<meta property="article:published_time" content="2025-03-02T08:00:00+00:00">'
)


@pytest.mark.parametrize("name", ["article", "listing", "product"])
def test_a_shops_item_and_a_list_give_no_author_nor_date(name: str) -> None:
    build, url = PAGES[name]
    html = build().replace("<head>", _BYLINE_HEAD, 1)
    assert _BYLINE_HEAD in html
    result = extract(html, url=url, fields=("author", "date", "description"))
    assert result.page_type == name
    if name == "article":
        assert (result.author, result.date) == ("Anna Kerr", "2025-03-02T08:00:00+00:00")
        assert {"author", "date"} <= set(result.field_sources)
    else:
        # What a reader finds there is a card's, a review's or the shop's, not the page's byline.
        assert (result.author, result.date) == (None, None)
        assert not {"author", "date"} & set(result.field_sources)
        assert result.to_dict()["author"] is None
    # Without the page type, nothing says the page has no byline.
    untyped = extract(html, url=url, method="hybrid", page_type=False, fields=("author", "date"))
    assert (untyped.author, untyped.date) == ("Anna Kerr", "2025-03-02T08:00:00+00:00")


def test_bit_sums_are_the_product_and_a_block_soup_is_classified_in_bounded_memory() -> None:
    """The page type's hint sums made an n-by-40 float matrix at once: 80 MB on a 1.7 MB page of
    260,000 one-character blocks ("中<br>"), the classifier's peak 73 MiB over the document's."""
    import tracemalloc

    import numpy as np

    from scrapy_bte.api import parse
    from scrapy_bte.learned import page_type as pt

    rng = np.random.default_rng(3)
    for n in (5, pt.BIT_ROWS, 3 * pt.BIT_ROWS + 17):
        weights, values = rng.random(n), rng.integers(0, 2**40, n)
        expected = weights @ pt._bit_columns(values, 40)
        got = pt._bit_sums(weights, values, 40)
        assert np.allclose(got, expected, rtol=1e-12) and (n > pt.BIT_ROWS or np.array_equal(got, expected))
    html = ("<html><body>" + "\u4e2d<br>" * 260_000 + "</body></html>").encode()
    doc = parse(html)
    doc.skeleton  # noqa: B018 - built before the measure
    tracemalloc.start()
    try:
        kind = pt.classify(doc, None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kind.name in pt.PAGE_TYPES and peak < 10 * len(html)
