"""Real crawls: which responses are extracted (BTE_EXTRACT, meta opt-in), and which items
are dropped (BTE_MIN_WORDS, BTE_DEDUPLICATE) while every kept item says why it has no text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import (
    ARTICLE1_SENTENCES,
    ARTICLE2_SENTENCES,
    CrawlResult,
    assert_article,
    assert_clean_log,
    build_routes,
    run_crawl,
)

from scrapy_bte import extract
from scrapy_bte.core.fingerprint import DEFAULT_DISTANCE, distance, from_hex

ARTICLES = ["/article1-copy.html", "/article1.html", "/article2.html"]


def paths(result: CrawlResult) -> list[str]:
    return sorted("/" + item["url"].split("//", 1)[1].split("/", 1)[1] for item in result.items)


def test_min_words_drops_short_items_and_still_follows_their_links(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/index.html", "/doc.pdf"], mode="follow", settings={"BTE_MIN_WORDS": 40, "BTE_WORKERS": 0})
    # The front and section pages are too short, but their links were followed.
    assert paths(result) == [*ARTICLES, "/doc.pdf"]
    assert result.stat("bte/dropped/too_short") == 2
    # The skipped PDF is not "too short": it is kept and says why it has no text.
    pdf = result.one("/doc.pdf")
    assert pdf["text"] == "" and pdf["bte"]["error"] == "skipped: non_html"
    dropped = [line for line in result.log.splitlines() if "Dropped:" in line]
    assert len(dropped) == 2 and all("] DEBUG: Dropped:" in line and "BTE_MIN_WORDS=40" in line for line in dropped)
    assert_clean_log(result)


@pytest.fixture(scope="module")
def site_crawls(site: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, CrawlResult]:
    """The same site crawl in both BTE_EXTRACT modes: items for the articles only."""
    return {
        mode: run_crawl(
            site,
            tmp_path_factory.mktemp(f"site-{mode}"),
            ["/index.html"],
            mode="site",
            settings={"BTE_EXTRACT": mode, "BTE_WORKERS": 0},
        )
        for mode in ("items", "responses")
    }


def test_items_mode_extracts_only_where_items_need_text(site_crawls: dict[str, CrawlResult]) -> None:
    lazy, eager = site_crawls["items"], site_crawls["responses"]
    assert paths(lazy) == paths(eager) == ARTICLES
    assert lazy.stat("bte/extracted") == 3 and lazy.stat("bte/extractions_saved") == 2  # front and section page
    assert eager.stat("bte/extracted") == 5 and eager.stat("bte/extractions_saved") == 0
    for result in (lazy, eager):
        assert_article(result.one("/article2.html")["text"], ARTICLE2_SENTENCES)
        assert_clean_log(result)


def test_both_modes_export_the_same_items(site_crawls: dict[str, CrawlResult]) -> None:
    def by_url(result: CrawlResult) -> dict[str, Any]:
        return {item["url"]: item for item in result.items}

    assert by_url(site_crawls["items"]) == by_url(site_crawls["responses"])


def test_meta_opt_in_extracts_before_the_callback(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        [{"path": "/article1.html", "bte_extract": True}, {"path": "/article2.html"}],
        mode="meta",
        settings={"BTE_WORKERS": 0},
    )
    opted_in, lazy = result.one("/article1.html"), result.one("/article2.html")
    # The callback read response.meta["bte"] itself for the opted-in request...
    assert opted_in["words"] > 50
    assert_article(opted_in["text"], ARTICLE1_SENTENCES)
    # ...and found nothing for the other, whose item the spider middleware filled afterwards.
    assert lazy["words"] is None
    assert_article(lazy["text"], ARTICLE2_SENTENCES)
    assert result.stat("bte/extracted") == 2
    assert_clean_log(result)


def test_deduplicate_drops_near_duplicates_once(crawl: Callable[..., CrawlResult]) -> None:
    pages = ["/article1.html", "/article1-copy.html", "/article2.html", "/short.html", "/short-copy.html", "/doc.pdf"]
    routes = build_routes()
    expected = {path: extract(routes[path].body).fingerprint for path in pages[:-1]}
    original, copy = from_hex(expected["/article1.html"]), from_hex(expected["/article1-copy.html"])
    assert original != copy and distance(original, copy) <= DEFAULT_DISTANCE
    assert distance(original, from_hex(expected["/article2.html"])) > 3 * DEFAULT_DISTANCE
    # Too short to compare: no fingerprint, so never dropped as duplicates of each other.
    assert expected["/short.html"] is None and expected["/short-copy.html"] is None

    result = crawl(pages, settings={"BTE_WORKERS": 0, "BTE_DEDUPLICATE": True})
    exported = paths(result)
    assert len(exported) == len(pages) - 1
    assert ("/article1.html" in exported) != ("/article1-copy.html" in exported)  # whichever came first stays
    for item in result.items:
        path = "/" + item["url"].split("//", 1)[1].split("/", 1)[1]
        assert item["bte"]["fingerprint"] == expected.get(path)  # None for the skipped PDF
    assert result.stat("bte/dropped/duplicate") == 1
    assert any("] DEBUG: Dropped:" in line and "near-duplicate" in line for line in result.log.splitlines())
    assert_clean_log(result)


def test_flat_scores_skip_reasons_json_labelled_html_and_nul_padding(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        ["/article1.html", "/doc.pdf", "/json-as-html", "/padded.html"],
        settings={"BTE_FLAT_SCORES": True, "BTE_WORKERS": 0},
        feed_format="csv",
    )
    article, pdf, data = result.one("/article1.html"), result.one("/doc.pdf"), result.one("/json-as-html")
    assert int(article["bte_words"]) > 50 and len(article["bte_fingerprint"]) == 16 and article["bte_error"] == ""
    assert pdf["bte_error"] == "skipped: non_html" and pdf["bte_fingerprint"] == "" and pdf["text"] == ""
    # JSON served as text/html is skipped as non-HTML and counted; a NUL-padded page is a page.
    assert data["bte_error"] == "skipped: non_html" and data["text"] == ""
    assert result.stat("bte/skipped/non_html") == 2
    assert_article(result.one("/padded.html")["text"], ARTICLE2_SENTENCES)
    assert result.stat("bte/errors") == 0
    assert_clean_log(result)
