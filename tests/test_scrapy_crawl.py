"""Real Scrapy crawls of the local test site with the add-on on.

Each crawl runs in a subprocess (see ``conftest.run_crawl``); crawls shared by
several tests are run once per module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import (
    ARTICLE1_SENTENCES,
    ARTICLE2_SENTENCES,
    COMMENT_SENTENCES,
    COMMENTED_SENTENCES,
    LATIN1_SENTENCES,
    TWO_ITEMS_SENTENCES,
    CrawlResult,
    assert_article,
    assert_clean_log,
    run_crawl,
)

from scrapy_bte.formats import csv_columns
from scrapy_bte.result import SCORE_KEYS

# One item per page; item kinds and opt-outs chosen per request.
MAIN_PAGES: list[dict[str, Any]] = [
    {"path": "/article1.html"},
    {"path": "/article2.html", "item": "scrapy"},
    {"path": "/latin1.html", "item": "dataclass"},
    {"path": "/gzip.html", "item": "attrs"},
    {"path": "/untyped"},
    {"path": "/xhtml"},
    {"path": "/two_items.html"},
    {"path": "/redirect"},
    {"path": "/slow.html"},
    {"path": "/broken.html"},
    {"path": "/empty.html"},
    {"path": "/huge.html"},
    {"path": "/doc.pdf"},
    {"path": "/image.png"},
    {"path": "/data.json"},
    {"path": "/untyped.bin"},
    {"path": "/missing.html"},
    {"path": "/article1.html?opt-out", "dont_bte": True},
    {"path": "/article2.html?preset", "preset": "preset by spider"},
]
EXTRACTED_PAGES = 11  # HTML responses above whose items need text (one empty)
FILLED_ITEMS = 12  # items that get text: not the preset one, two from two_items
MAIN_SETTINGS = {"BTE_MAX_BYTES": 200_000}
NON_HTML = ("/doc.pdf", "/image.png", "/data.json", "/untyped.bin")


@pytest.fixture(scope="module")
def main_crawls(site: str, tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], CrawlResult]:
    """``main_crawls(workers)``: the main crawl with that many workers, run once."""
    done: dict[int, CrawlResult] = {}

    def get(workers: int) -> CrawlResult:
        if workers not in done:
            out = tmp_path_factory.mktemp(f"main-workers{workers}")
            done[workers] = run_crawl(site, out, MAIN_PAGES, settings={**MAIN_SETTINGS, "BTE_WORKERS": workers})
        return done[workers]

    return get


@pytest.fixture(scope="module", params=[2, 0], ids=["workers2", "inline"])
def main(request: pytest.FixtureRequest, main_crawls: Callable[[int], CrawlResult]) -> CrawlResult:
    return main_crawls(request.param)


def assert_scores(item: dict[str, Any], *, error: bool = False) -> None:
    scores = item["bte"]
    assert set(SCORE_KEYS) <= set(scores), scores
    assert ("error" in scores) is error, scores
    for key in ("bte_score", "density", "text_ratio", "confidence"):
        assert 0.0 <= scores[key] <= 1.0, (key, scores)


def test_articles_get_main_text_and_scores(main: CrawlResult) -> None:
    article = main.one("/article1.html")
    assert_article(article["text"], ARTICLE1_SENTENCES)
    assert_scores(article)
    assert article["bte"]["title"] == "River otters return to the Elbe valley"
    for path in ("/untyped", "/xhtml", "/slow.html"):
        assert_article(main.one(path)["text"], ARTICLE2_SENTENCES)
        assert_scores(main.one(path))


@pytest.mark.parametrize(
    ("path", "sentences"),
    [
        ("/article2.html", ARTICLE2_SENTENCES),  # scrapy.Item
        ("/latin1.html", LATIN1_SENTENCES),  # dataclass, windows-1252 body
        ("/gzip.html", ARTICLE1_SENTENCES),  # attrs, gzip-encoded body
    ],
)
def test_every_item_kind_is_filled(main: CrawlResult, path: str, sentences: tuple[str, ...]) -> None:
    item = main.one(path)
    assert_article(item["text"], sentences)
    assert_scores(item)


def test_redirect_and_several_items_per_page(main: CrawlResult) -> None:
    (redirected,) = [item for item in main.items if item["url"].endswith("?via=redirect")]
    assert_article(redirected["text"], ARTICLE2_SENTENCES)
    parts = main.by_path("/two_items.html")
    assert sorted(item["part"] for item in parts) == [1, 2]
    for item in parts:
        assert_article(item["text"], TWO_ITEMS_SENTENCES)
        assert_scores(item)
    assert parts[0]["text"] == parts[1]["text"]


def test_broken_and_empty_pages_do_not_break_the_crawl(main: CrawlResult) -> None:
    broken = main.one("/broken.html")
    assert "lighthouse keepers" in broken["text"]
    assert_scores(broken)
    empty = main.one("/empty.html")
    assert empty["text"] == ""
    assert_scores(empty)


def test_items_of_skipped_responses_say_why_they_have_no_text(main: CrawlResult) -> None:
    reasons = {**dict.fromkeys(NON_HTML, "non_html"), "/huge.html": "too_large", "/article1.html?opt-out": "dont_bte"}
    for path, reason in reasons.items():
        item = main.one(path)
        assert item["text"] == "", item
        assert item["bte"]["error"] == f"skipped: {reason}"
        assert set(SCORE_KEYS) <= set(item["bte"]) and all(item["bte"][key] is None for key in SCORE_KEYS)
    assert main.by_path("/missing.html") == []  # 404: HttpErrorMiddleware's business
    preset = [item for item in main.items if item["url"].endswith("?preset")]
    assert preset == [{"url": preset[0]["url"], "text": "preset by spider"}]


def test_stats_and_summary(main: CrawlResult) -> None:
    assert main.returncode == 0, main.log[-3000:]
    # The 404 never reaches a callback, so no item asks for its text (BTE_EXTRACT = "items").
    assert main.stat("bte/skipped/non_html") == len(NON_HTML)
    assert main.stat("bte/skipped/too_large") == 1
    assert main.stat("bte/skipped/dont_bte") == 1
    # The preset page's item has its text already: its response is never extracted.
    assert main.stat("bte/extracted") == EXTRACTED_PAGES - 1
    assert main.stat("bte/extractions_saved") == 1
    assert main.stat("bte/empty") == 1
    assert main.stat("bte/errors") == 0
    assert main.stat("bte/timeouts") == 0
    assert main.stat("bte/words") > 500
    assert 0 < main.stat("bte/milliseconds") < 60_000
    # Integers only: stats collectors such as scrapy-redis's take nothing else.
    assert all(type(value) is int for key, value in main.stats.items() if key.startswith("bte/")), main.stats
    assert main.stat("bte/items") == FILLED_ITEMS
    assert main.stat("bte/gc_frozen") > 10_000  # Scrapy, numpy and the model left out of full collections
    summaries = [line for line in main.log_lines("INFO") if "page(s) extracted" in line]
    assert len(summaries) == 1, summaries
    # Extraction time and the wait for a free worker are reported apart, each from its own stat.
    extracting, waiting = re.search(
        r"([\d.]+) s extracting .*, ([\d.]+) s waiting for a free worker", summaries[0]
    ).groups()
    assert float(extracting) == round(main.stat("bte/milliseconds") / 1000, 2)
    assert float(waiting) == round(main.stat("bte/wait_milliseconds") / 1000, 2)
    assert_clean_log(main)


def test_inline_extraction_never_waits_for_a_worker(main_crawls: Callable[[int], CrawlResult]) -> None:
    assert "bte/wait_milliseconds" not in main_crawls(0).stats
    assert main_crawls(0).stat("bte/milliseconds") > 0


def test_worker_processes_are_started_and_stopped(main_crawls: Callable[[int], CrawlResult]) -> None:
    pooled = main_crawls(2)
    assert len(pooled.pids) == 2
    assert pooled.orphans == []
    assert 0.0 <= pooled.max_reactor_lag < 0.25  # starting and stopping them included
    assert main_crawls(0).pids == []


def test_inline_and_pool_export_the_same_text(main_crawls: Callable[[int], CrawlResult]) -> None:
    def texts(result: CrawlResult) -> dict[tuple[str, Any], Any]:
        return {(item["url"], item.get("part")): (item.get("text"), item.get("bte")) for item in result.items}

    assert texts(main_crawls(2)) == texts(main_crawls(0))


def test_non_asyncio_reactor(crawl: Callable[..., CrawlResult]) -> None:
    """Under a plain Twisted reactor the pool's futures are awaited as Deferreds."""
    result = crawl(
        ["/article1.html", "/two_items.html", "/doc.pdf"],
        settings={"TWISTED_REACTOR": "twisted.internet.selectreactor.SelectReactor", "BTE_WORKERS": 1},
    )
    assert "SelectReactor" in result.log
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    assert len(result.by_path("/two_items.html")) == 2
    assert result.stat("bte/extracted") == 2
    assert result.orphans == [] and len(result.pids) == 1
    assert 0.0 <= result.max_reactor_lag < 0.25
    assert_clean_log(result)


def test_worker_timeout_crash_and_error_are_exported(crawl: Callable[..., CrawlResult]) -> None:
    """Hostile pages (via the pool's ``target`` hook) fail alone, the crawl goes
    on, and the reactor keeps running while a worker is stuck on a page."""
    result = crawl(
        ["/sleep.html", "/crash.html", "/killed.html", "/raise.html", "/article1.html", "/article2.html"],
        settings={"BTE_WORKERS": 1, "BTE_TIMEOUT": 1.5},
        target="bte_test_targets:hostile",
    )
    timed_out = result.one("/sleep.html")
    assert timed_out["text"] == ""
    assert timed_out["bte"]["error"].startswith("WorkerTimeout")
    assert result.one("/crash.html")["bte"]["error"].startswith("WorkerCrashed")
    killed = result.one("/killed.html")["bte"]["error"]
    assert killed.startswith("WorkerCrashed") and "killed by signal SIGKILL" in killed
    assert "hostile page" in result.one("/raise.html")["bte"]["error"]
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    assert_article(result.one("/article2.html")["text"], ARTICLE2_SENTENCES)
    assert result.stat("bte/timeouts") == 1
    assert result.stat("bte/errors/worker_crashed") == 2
    assert result.stat("bte/errors") == 4
    assert result.stat("bte/extracted") == 2
    assert result.orphans == []
    assert 0.0 <= result.max_reactor_lag < 0.25  # a worker stuck for 1.5 s never held the reactor
    warnings = [line for line in result.log_lines("WARNING") if "extraction failed" in line]
    assert len(warnings) == 4, warnings
    assert any("4 errors, 1 timeouts, 2 worker crash(es)" in line for line in result.log_lines("INFO"))
    assert_clean_log(result)


def test_page_over_the_worker_memory_cap_fails_alone(crawl: Callable[..., CrawlResult]) -> None:
    """A page that needs more than BTE_WORKER_MAX_MEMORY gets an error and a stat; its
    worker is replaced and the next pages are extracted."""
    result = crawl(
        ["/hog.html", "/article1.html", "/article2.html"],
        settings={"BTE_WORKERS": 1, "BTE_WORKER_MAX_MEMORY": 384 * 2**20, "CONCURRENT_REQUESTS": 1},
        target="bte_test_targets:hostile",
    )
    hog = result.one("/hog.html")
    assert hog["text"] == ""
    assert hog["bte"]["error"].startswith("WorkerOutOfMemory") and "memory cap" in hog["bte"]["error"]
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    assert_article(result.one("/article2.html")["text"], ARTICLE2_SENTENCES)
    assert result.stat("bte/memory_errors") == 1
    assert result.stat("bte/errors") == 1
    assert result.stat("bte/extracted") == 2
    assert result.orphans == []


def test_flat_scores_in_a_csv_feed(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        ["/article1.html", "/empty.html", "/doc.pdf"],
        settings={"BTE_FLAT_SCORES": True, "BTE_WORKERS": 0},
        feed_format="csv",
    )
    article = result.one("/article1.html")
    flat = {"bte_score", "bte_confidence", "bte_density", "bte_text_ratio", "bte_method", "bte_title", "bte_error"}
    assert flat <= set(article)
    assert "bte" not in article
    assert_article(article["text"], ARTICLE1_SENTENCES)
    assert 0.0 < float(article["bte_confidence"]) <= 1.0
    assert article["bte_title"] == "River otters return to the Elbe valley"
    assert article["bte_error"] == ""
    assert result.one("/empty.html")["text"] == ""
    # A skipped response's item has the same columns, so the CSV header
    # does not depend on which item happens to be exported first.
    pdf = result.one("/doc.pdf")
    assert flat <= set(pdf) and pdf["text"] == ""
    assert pdf["bte_error"] == "skipped: non_html"
    # `scrapy-bte extract --format csv` writes these columns too, its `source` in place of the spider's `url`.
    assert list(article) == ["url", *csv_columns()[1:]]


def test_html_field_is_extracted_and_dropped(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        ["/article1.html", {"path": "/article2.html", "item": "scrapy"}],
        settings={"BTE_HTML_FIELD": "html", "BTE_DROP_HTML_FIELD": True, "BTE_WORKERS": 1},
        mode="html",
    )
    for path, sentences in (("/article1.html", ARTICLE1_SENTENCES), ("/article2.html", ARTICLE2_SENTENCES)):
        item = result.one(path)
        assert "html" not in item
        assert_article(item["text"], sentences)
        assert_scores(item)
    assert result.stat("bte/items") == 2
    assert_clean_log(result)


@pytest.mark.parametrize("workers", [0, 1])
def test_frozen_items_are_filled_in_copies_and_none_is_lost(crawl: Callable[..., CrawlResult], workers: int) -> None:
    """Writing into a frozen dataclass or attrs item raised out of the spider middleware: the
    item and every later item of its callback were lost (two_items yields two; a PDF's item is
    filled with its skip reason)."""
    pages = [
        {"path": "/two_items.html", "item": "frozen"},
        {"path": "/article1.html", "item": "frozen_attrs"},
        {"path": "/doc.pdf", "item": "frozen"},
    ]
    result = crawl(pages, settings={"BTE_WORKERS": workers})
    assert len(result.items) == 4
    for item in result.by_path("/two_items.html"):
        assert_article(item["text"], TWO_ITEMS_SENTENCES)
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    assert result.one("/doc.pdf")["bte"]["error"] == "skipped: non_html"
    assert result.stat("bte/items") == 3
    assert_clean_log(result)


@pytest.mark.parametrize("workers", [0, 1])
def test_html_of_an_item_says_what_became_of_it(crawl: Callable[..., CrawlResult], workers: int) -> None:
    """HTML an item carries: a lone surrogate (``json.loads`` of "\\ud800") failed with workers
    (UnicodeEncodeError) and not without; a value that is no text (an int) and HTML over
    ``BTE_MAX_BYTES`` went through without text, error or stat, the large one extracted anyway."""
    sentence = "The lone surrogate stays out of the way of this sentence about the harbour."
    pages = [
        {"path": "/article1.html", "set": {"html": "\ud800<html><body><p>" + sentence * 3 + "</p></body></html>"}},
        {"path": "/article2.html", "set": {"html": 12345}},
        {"path": "/two_items.html", "set": {"html": "<p>" + "word " * 100_000 + "</p>"}},
    ]
    settings = {"BTE_HTML_FIELD": "html", "BTE_DROP_HTML_FIELD": True, "BTE_WORKERS": workers, "BTE_MAX_BYTES": 200_000}
    result = crawl(pages, settings=settings)  # (a feed cannot write the lone surrogate itself)
    assert len(result.items) == 4
    carried = result.one("/article1.html")
    assert sentence in carried["text"] and "error" not in carried["bte"]
    assert result.one("/article2.html")["bte"]["error"] == "skipped: html_not_text"
    assert [item["bte"]["error"] for item in result.by_path("/two_items.html")] == ["skipped: too_large"] * 2
    assert result.stat("bte/skipped/html_not_text") == 1 and result.stat("bte/skipped/too_large") == 2
    assert result.stat("bte/errors") == 0


def test_item_class_missing_fields_logs_one_error(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(
        [{"path": "/article1.html", "item": "bare"}, {"path": "/two_items.html", "item": "bare"}],
        settings={"BTE_WORKERS": 0},
    )
    assert len(result.items) == 3  # nothing lost
    assert all(set(item) <= {"url", "part"} for item in result.items)
    errors = result.log_lines("ERROR")
    assert len(errors) == 1, errors
    assert "BareItem" in errors[0] and "text, bte" in errors[0]
    assert result.stat("bte/errors/item_fields") == 3


def test_gc_freeze_can_be_turned_off(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/article1.html"], settings={"BTE_GC_FREEZE": False, "BTE_WORKERS": 0})
    assert len(result.items) == 1 and result.items[0]["text"]
    assert result.stat("bte/gc_frozen") == 0
    assert_clean_log(result)


def test_min_words_drops_short_pages(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/article1.html", "/short.html"], settings={"BTE_MIN_WORDS": 20, "BTE_WORKERS": 0})
    assert [item["url"].rsplit("/", 1)[1] for item in result.items] == ["article1.html"]
    assert result.stat("bte/dropped/too_short") == 1
    assert_clean_log(result)


def test_comments_setting_fills_a_comments_field_and_never_the_text(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/comments.html", "/article1.html"], settings={"BTE_COMMENTS": True, "BTE_WORKERS": 1})
    item = result.one("/comments.html")
    assert_article(item["text"], COMMENTED_SENTENCES)
    assert not any(sentence in item["text"] for sentence in COMMENT_SENTENCES)
    assert all(sentence in item["comments"] for sentence in COMMENT_SENTENCES)
    assert result.one("/article1.html")["comments"] == ""
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    assert_clean_log(result)


@pytest.mark.parametrize(
    ("components", "mode", "settings", "pages"),
    [
        (
            {"DOWNLOADER_MIDDLEWARES": {"scrapy_bte.BTEDownloaderMiddleware": 540}},
            "meta",
            {"BTE_EXTRACT": "responses"},
            ["/article1.html", "/doc.pdf"],
        ),
        (
            {"SPIDER_MIDDLEWARES": {"scrapy_bte.BTESpiderMiddleware": 950}},
            "zero",
            {"BTE_WORKERS": 1},
            ["/article1.html", "/doc.pdf"],
        ),
        (
            {"ITEM_PIPELINES": {"scrapy_bte.pipelines.BTEItemPipeline": 100}},
            "html",
            {"BTE_HTML_FIELD": "html", "BTE_DROP_HTML_FIELD": True},
            ["/article1.html"],
        ),
    ],
    ids=["downloader-middleware", "spider-middleware", "pipeline"],
)
def test_each_component_alone(
    crawl: Callable[..., CrawlResult], components: dict[str, Any], mode: str, settings: dict[str, Any], pages: list[str]
) -> None:
    result = crawl(pages, settings={"BTE_WORKERS": 0, **settings, **components}, addon=False, mode=mode)
    assert result.returncode == 0
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    if "/doc.pdf" in pages:
        pdf = result.one("/doc.pdf")
        if mode == "meta":  # the callback read response.meta["bte"] itself: there was none
            assert pdf.get("text") is None
        else:
            assert pdf["text"] == "" and pdf["bte"]["error"] == "skipped: non_html"
        assert result.stat("bte/skipped/non_html") == 1
    assert "html" not in result.one("/article1.html")
    assert result.stat("bte/extracted") == 1
    assert_clean_log(result)


def test_invalid_setting_stops_the_crawl_naming_it(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/article1.html"], settings={"BTE_TIMEOUT": "soon"})
    assert result.items == []
    assert "BTE_TIMEOUT" in result.log


def test_disabled_addon_changes_nothing(crawl: Callable[..., CrawlResult]) -> None:
    result = crawl(["/article1.html"], settings={"BTE_ENABLED": False})
    assert result.items == [{"url": result.items[0]["url"]}]
    assert not any(key.startswith("bte/") for key in result.stats)
