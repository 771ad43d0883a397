"""Article fields on Scrapy items: real crawls of the local test site with the add-on on."""

from __future__ import annotations

from collections.abc import Callable

from conftest import CrawlResult, assert_clean_log

from scrapy_bte.fields.record import DEFAULT_FIELDS
from scrapy_bte.result import SCORE_KEYS

TITLE = "Harbour crane returns after restoration"
AUTHORS = "Mirela Ostrowska, Tobias Fenwick"


def test_items_get_the_default_fields_at_the_top_level(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        [
            "/fields.html",
            {"path": "/fields.html?set", "set": {"title": "Set by the spider", "author": ""}},
            "/forum.html",
        ],
        settings={"BTE_WORKERS": 1},
    )
    item = result.one("/fields.html")
    assert item["page_type"] == "article"  # computed in the worker, on every item by default
    forum = result.one("/forum.html")
    assert forum["page_type"] == "forum" and "Grain mill bearings" in forum["title"]
    base = item["url"].rsplit("/", 1)[0]
    assert item["title"] == TITLE
    assert item["author"] == AUTHORS
    assert item["date"] == "2024-05-03T09:15:00+02:00"
    assert item["description"] == "The steam crane is working again."
    assert item["language"] == "en-GB"
    assert item["image"] == base + "/img/crane-lead.jpg"  # resolved against the page's URL in the worker
    assert set(DEFAULT_FIELDS) <= set(item) and "modified" not in item and "canonical_url" not in item
    assert set(item["bte"]) == set(SCORE_KEYS)  # the scores dict keeps its keys
    assert "steam crane that unloaded coal" in item["text"]
    preset = result.one("/fields.html?set")
    assert preset["title"] == "Set by the spider"  # never overwritten
    assert preset["author"] == AUTHORS  # an empty value counts as unset
    assert_clean_log(result)


def test_flat_mode_and_chosen_fields_in_a_csv_feed(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        ["/fields.html", "/doc.pdf"],
        settings={"BTE_FLAT_SCORES": True, "BTE_FIELDS": "title,canonical_url,modified", "BTE_WORKERS": 0},
        feed_format="csv",
    )
    item = result.one("/fields.html")
    assert item["title"] == TITLE and item["bte_title"] == TITLE
    assert item["canonical_url"].endswith("/news/harbour-crane") and item["canonical_url"].startswith("http://")
    assert item["modified"] == "2024-05-04T18:00:00+00:00"
    assert "author" not in item and "language" not in item and "page_type" not in item
    pdf = result.one("/doc.pdf")  # a skipped response's row has the same columns
    assert {"title", "canonical_url", "modified"} <= set(pdf) and pdf["title"] == ""
    assert_clean_log(result)


def test_fixed_item_class_gets_only_the_fields_it_declares(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        [{"path": "/fields.html", "item": "news"}, {"path": "/article1.html", "item": "scrapy"}],
        settings={"BTE_WORKERS": 0},
    )
    news = result.one("/fields.html")
    assert (news["title"], news["author"], news["date"]) == (TITLE, AUTHORS, "2024-05-03T09:15:00+02:00")
    assert "language" not in news and "description" not in news  # not declared: not an error
    assert "steam crane that unloaded coal" in news["text"]
    article = result.one("/article1.html")  # declares none of the fields: still its text
    assert article["text"] and "title" not in article
    assert result.log_lines("ERROR") == []
    assert result.stat("bte/errors/item_fields") == 0


def test_no_fields_when_the_setting_is_empty(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/fields.html"], settings={"BTE_FIELDS": [], "BTE_WORKERS": 0})
    item = result.one("/fields.html")
    assert not set(DEFAULT_FIELDS) & set(item) and "page_type" not in item
    assert item["bte"]["title"]  # the scores keep the page's title


def test_page_type_alone_in_process(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/forum.html", "/article1.html"], settings={"BTE_FIELDS": "page_type", "BTE_WORKERS": 0})
    forum, article = result.one("/forum.html"), result.one("/article1.html")
    assert (forum["page_type"], article["page_type"]) == ("forum", "article")
    assert not set(DEFAULT_FIELDS) & (set(forum) | set(article))  # no article field was asked for
    assert "chestnut trees" in forum["text"]
    assert_clean_log(result)
