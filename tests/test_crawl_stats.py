"""A stats collector that fails never costs a page or an item.

Real crawls of the local test site with a collector that raises on every
``bte/`` key (``tests/fixtures/failing_stats.py``); the Redis tests cover
a real remote collector.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import ARTICLE1_SENTENCES, ARTICLE2_SENTENCES, CrawlResult, assert_article

PAGES = ["/article1.html", "/article2.html", "/two_items.html", "/doc.pdf", "/empty.html"]


@pytest.mark.parametrize(
    ("mode", "settings"),
    [("zero", {}), ("html", {"BTE_HTML_FIELD": "html"})],
    ids=["spider-middleware", "item-pipeline"],
)
def test_failing_stats_collector_loses_no_page_and_no_item(
    crawl: Callable[..., CrawlResult], mode: str, settings: dict[str, object]
) -> None:
    result = crawl(
        PAGES, mode=mode, settings={"STATS_CLASS": "failing_stats.FailingStatsCollector", "BTE_WORKERS": 1, **settings}
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.log, result.log[-4000:]
    assert not [key for key in result.stats if key.startswith("bte/")]
    assert result.stat("item_scraped_count") == 6  # two items from two_items.html
    assert_article(result.one("/article1.html")["text"], ARTICLE1_SENTENCES)
    assert_article(result.one("/article2.html")["text"], ARTICLE2_SENTENCES)
    assert all("text" in item for item in result.by_path("/two_items.html"))
    assert result.one("/empty.html")["text"] == ""
    # One warning per key, not one per page, and the summary says the stats are incomplete.
    warnings = [
        line for line in result.log_lines("WARNING") if "the stats collector FailingStatsCollector failed" in line
    ]
    assert len(warnings) == len({line.split("failed on ", 1)[1].split(" ", 1)[0] for line in warnings}) >= 2
    assert any("bte/ stats of this crawl are incomplete" in line for line in result.log_lines("WARNING"))
