"""In-process tests of the Scrapy components: settings, add-on, item filling.

No reactor runs here (``get_crawler`` builds crawlers in Scrapy's reactorless
mode); the crawls themselves are in ``test_scrapy_crawl.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import Future
from typing import Any, ClassVar

import attrs
import pytest
import scrapy
from itemadapter import ItemAdapter
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.core.spidermw import SpiderMiddlewareManager
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.pipelines import ItemPipelineManager
from scrapy.settings import Settings
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from scrapy_bte import Addon, BTEDownloaderMiddleware, BTEItemPipeline, BTESpiderMiddleware, ConfigError
from scrapy_bte.core.decode import looks_like_html
from scrapy_bte.crawl.addon import LARGE_PAGE_BYTES
from scrapy_bte.crawl.runtime import BTERuntime, _await_future
from scrapy_bte.crawl.settings import (
    DEFAULT_ITEM_FIELDS,
    DEFAULTS,
    FLAT_SCORE_FIELDS,
    SETTINGS,
    BTEConfig,
    default_workers,
    settings_table,
)
from scrapy_bte.learned.model import DEFAULT_MODEL as _MODEL_PATH
from scrapy_bte.result import Extraction

EXTRACTION = Extraction(
    text="Main text.", paragraphs=["Main text."], title="T", method="hybrid", confidence=0.5, words=2, page_type="forum"
)


# -- settings ----------------------------------------------------------------


def test_defaults() -> None:
    config = BTEConfig.from_settings({})
    assert config.method == "auto"
    assert config.workers == default_workers() >= 1
    assert config.timeout == 10.0
    assert config.max_bytes == 10 * 1024 * 1024
    assert config.text_field == "text" and config.scores_field == "bte"
    assert config.max_pending >= config.workers
    assert not config.flat_scores and config.html_field is None and config.options == {}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BTE_ENABLED", "maybe"),
        ("BTE_METHOD", "magic"),
        ("BTE_MODEL_PATH", "/nonexistent/model.npz"),
        ("BTE_WORKERS", -1),
        ("BTE_WORKERS", "two"),
        ("BTE_WORKERS", 1.5),
        ("BTE_TIMEOUT", 0),
        ("BTE_TIMEOUT", "soon"),
        ("BTE_MAX_PENDING", 0),
        ("BTE_WORKER_MAX_MEMORY", 2**20),
        ("BTE_WORKER_MAX_MEMORY", "lots"),
        ("BTE_WORKER_NICE", -1),
        ("BTE_WORKER_NICE", 20),
        ("BTE_WORKER_NICE", "low"),
        ("BTE_MAX_BYTES", 0),
        ("BTE_MIN_WORDS", -5),
        ("BTE_TEXT_FIELD", ""),
        ("BTE_TEXT_FIELD", 3),
        ("BTE_SCORES_FIELD", "text"),
        ("BTE_HTML_FIELD", "text"),
        ("BTE_FLAT_SCORES", "sometimes"),
        ("BTE_DROP_HTML_FIELD", 7),
        ("BTE_OPTIONS", "{not json"),
        ("BTE_OPTIONS", ["a"]),
        ("BTE_OPTIONS", {"url": "x"}),
        ("BTE_OPTIONS", {"page_type": False}),
        ("BTE_COMMENTS", "sometimes"),
        ("BTE_COMMENTS", 2),
        ("BTE_EXTRACT", "everything"),
        ("BTE_DEDUPLICATE", "maybe"),
        ("BTE_DEDUPLICATE_DISTANCE", 16),
        ("BTE_DEDUPLICATE_DISTANCE", -1),
    ],
)
def test_bad_value_names_the_setting(name: str, value: Any) -> None:
    with pytest.raises(ConfigError, match=name):
        BTEConfig.from_settings(Settings({name: value}))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"BTE_SCORES_FIELD": "title"}, "BTE_SCORES_FIELD .'title'. is also a field scrapy-bte writes"),
        ({"BTE_TEXT_FIELD": "author", "BTE_FIELDS": ["author"]}, "BTE_TEXT_FIELD .'author'. is also"),
        ({"BTE_HTML_FIELD": "language"}, "BTE_HTML_FIELD .'language'. is also"),
        ({"BTE_FLAT_SCORES": True, "BTE_TEXT_FIELD": "bte_words"}, "BTE_TEXT_FIELD .'bte_words'. is also"),
        (
            {"BTE_METHOD": "hybrid", "BTE_MODEL_PATH": str(_MODEL_PATH)},
            "BTE_MODEL_PATH is the block model of BTE_METHOD",
        ),
    ],
)
def test_settings_that_contradict_each_other_are_refused(settings: dict[str, Any], message: str) -> None:
    """The scores written over the title (BTE_SCORES_FIELD="title") were accepted; a model path
    with BTE_METHOD="hybrid" was refused as "unknown option(s) model_path"."""
    with pytest.raises(ConfigError, match=message):
        BTEConfig.from_settings(Settings(settings))
    assert BTEConfig.from_settings(Settings({"BTE_METHOD": "auto", "BTE_MODEL_PATH": str(_MODEL_PATH)})).model_path


def test_an_unknown_bte_setting_is_named_with_the_nearest_one(caplog: pytest.LogCaptureFixture) -> None:
    """Scrapy keeps any setting name: ``BTE_WORKER = 0`` left the default worker count in force
    without a word. The crawl now warns once per unknown name, and leaves other names alone."""
    crawler = get_crawler(settings_dict={"BTE_WORKER": 0, "BTE_ZZZZ_QQQQ": 1, "MY_SETTING": 1, "BTE_METHOD": "bte"})
    with caplog.at_level("WARNING", logger="scrapy_bte.crawl.settings"):
        config = BTEConfig.from_crawler(crawler)
    assert config.method == "bte"
    messages = [r.getMessage() for r in caplog.records if r.name == "scrapy_bte.crawl.settings"]
    assert messages == [
        "BTE_WORKER is no scrapy-bte setting (did you mean BTE_WORKERS?); it is ignored",
        "BTE_ZZZZ_QQQQ is no scrapy-bte setting; it is ignored",
    ]
    caplog.clear()
    with caplog.at_level("WARNING", logger="scrapy_bte.crawl.settings"):
        BTEConfig.from_crawler(get_crawler(settings_dict={"BTE_WORKERS": 0}))
    assert not caplog.records


@pytest.mark.parametrize(("value", "expected"), [(None, None), (0, None), ("0", None), ("536870912", 2**29)])
def test_worker_memory_cap_setting(value: Any, expected: int | None) -> None:
    assert BTEConfig.from_settings(Settings({})).worker_max_memory == 2**30
    assert BTEConfig.from_settings(Settings({"BTE_WORKER_MAX_MEMORY": value})).worker_max_memory == expected


def test_worker_priority_decides_the_default_workers() -> None:
    """Niced workers get every CPU; workers at the crawl's priority leave one to the reactor."""
    niced = BTEConfig.from_settings(Settings({}))
    level = BTEConfig.from_settings(Settings({"BTE_WORKER_NICE": "0"}))
    assert niced.worker_nice == 10 and level.worker_nice == 0
    assert niced.workers == default_workers(nice=10)
    assert level.workers == default_workers(nice=0)
    assert BTEConfig.from_settings(Settings({"BTE_WORKER_NICE": 0, "BTE_WORKERS": 3})).workers == 3


@pytest.mark.parametrize(
    ("fields", "typed"), [(None, True), ("title,page_type", True), ("title,author", False), ([], False)]
)
def test_the_page_type_is_asked_for_when_the_fields_name_it(fields: Any, typed: bool) -> None:
    settings = Settings({} if fields is None else {"BTE_FIELDS": fields})
    assert BTEConfig.from_settings(settings).extract_options()["page_type"] is typed


def test_values_from_the_command_line_are_parsed() -> None:
    config = BTEConfig.from_settings(
        Settings({"BTE_WORKERS": "0", "BTE_TIMEOUT": "2.5", "BTE_FLAT_SCORES": "true", "BTE_OPTIONS": '{"k": 1}'})
    )
    assert (config.workers, config.timeout, config.flat_scores, config.options) == (0, 2.5, True, {"k": 1})


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("", None),
        ("auto", None),
        (True, True),
        ("keep", True),
        ("true", True),
        (False, False),
        ("drop", False),
        ("0", False),
    ],
)
def test_comments_setting_reaches_the_extract_options(value: Any, expected: bool | None) -> None:
    config = BTEConfig.from_settings(Settings({"BTE_COMMENTS": value}))
    assert config.comments is expected
    assert config.extract_options().get("comments", None) is expected
    assert ("comments" in config.extract_options()) is (expected is not None)


def test_comments_setting_needs_a_block_method() -> None:
    with pytest.raises(ConfigError, match=r"BTE_COMMENTS.*bte"):
        BTEConfig.from_settings(Settings({"BTE_COMMENTS": False, "BTE_METHOD": "bte"}))
    assert BTEConfig.from_settings(Settings({"BTE_METHOD": "bte"})).comments is None


def test_scores_field_can_be_turned_off() -> None:
    config = BTEConfig.from_settings(Settings({"BTE_SCORES_FIELD": None}))
    assert config.scores_field is None
    assert config.wanted_fields() == ("text",)
    flat = BTEConfig.from_settings(Settings({"BTE_FLAT_SCORES": True}))
    assert flat.wanted_fields() == ("text", *FLAT_SCORE_FIELDS.values())


@pytest.mark.parametrize("setting", [{"BTE_MIN_WORDS": 50}, {"BTE_DEDUPLICATE": True}])
def test_item_filters_need_scores_on_items(setting: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="need scores on items"):
        BTEConfig.from_settings(Settings({**setting, "BTE_SCORES_FIELD": None}))
    assert BTEConfig.from_settings(Settings({**setting, "BTE_SCORES_FIELD": None, "BTE_FLAT_SCORES": True}))


def test_settings_table_lists_every_setting() -> None:
    table = settings_table()
    for spec in SETTINGS:
        assert f"`{spec.name}`" in table
    assert set(DEFAULTS) == {spec.name for spec in SETTINGS}


# -- add-on and components ------------------------------------------------------


def test_addon_enables_the_components_at_their_priorities() -> None:
    settings = Settings({"BTE_TIMEOUT": 3})
    Addon().update_settings(settings)
    assert settings.getdict("DOWNLOADER_MIDDLEWARES")[BTEDownloaderMiddleware] == 540
    assert settings.getdict("SPIDER_MIDDLEWARES")[BTESpiderMiddleware] == 950
    assert settings.getdict("ITEM_PIPELINES")[BTEItemPipeline] == 100
    assert settings["BTE_TIMEOUT"] == 3  # project settings win over the add-on's defaults
    assert settings["BTE_METHOD"] == "auto"


SCRAPY_SCRAPER_BUDGET = Settings().getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE")


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        # "items" mode with workers: room for a large page per concurrent request (16 by Scrapy's default)
        ({}, SCRAPY_SCRAPER_BUDGET + 16 * LARGE_PAGE_BYTES),
        ({"CONCURRENT_REQUESTS": 64}, SCRAPY_SCRAPER_BUDGET + 64 * LARGE_PAGE_BYTES),
        ({"CONCURRENT_REQUESTS": 64, "BTE_WORKERS": "2"}, SCRAPY_SCRAPER_BUDGET + 64 * LARGE_PAGE_BYTES),
        # the project's own value wins
        ({"SCRAPER_SLOT_MAX_ACTIVE_SIZE": 1_000_000}, 1_000_000),
        # no response waits in the scraper for its extraction
        ({"BTE_EXTRACT": "responses"}, SCRAPY_SCRAPER_BUDGET),
        ({"BTE_WORKERS": 0}, SCRAPY_SCRAPER_BUDGET),
        ({"BTE_WORKERS": "0"}, SCRAPY_SCRAPER_BUDGET),
        # a bad value is left for the runtime's error, which names it
        ({"BTE_WORKERS": "many"}, SCRAPY_SCRAPER_BUDGET),
    ],
)
def test_addon_makes_room_in_the_scraper_for_pages_waiting_for_extraction(
    settings: dict[str, Any], expected: int
) -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 100}, **settings})
    assert crawler.settings.getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE") == expected


@pytest.mark.parametrize(
    "settings", [{"CONCURRENT_REQUESTS": "many"}, {"SCRAPER_SLOT_MAX_ACTIVE_SIZE": "big"}, {"BTE_WORKERS": [2]}]
)
def test_scraper_budget_leaves_unreadable_settings_as_set(settings: dict[str, Any]) -> None:
    """The add-on does not fail on them while loading: Scrapy or the runtime names the bad value."""
    merged = Settings(settings)
    Addon().update_settings(merged)
    assert merged.get("SCRAPER_SLOT_MAX_ACTIVE_SIZE") == Settings(settings).get("SCRAPER_SLOT_MAX_ACTIVE_SIZE")


def test_scraper_budget_follows_a_spider_s_concurrency() -> None:
    class Spider(scrapy.Spider):
        name = "budget"
        custom_settings: ClassVar[dict[str, Any]] = {"CONCURRENT_REQUESTS": 32}

    crawler = get_crawler(Spider, settings_dict={"ADDONS": {Addon: 100}})
    assert crawler.settings.getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE") == SCRAPY_SCRAPER_BUDGET + 32 * LARGE_PAGE_BYTES


def test_addon_keeps_components_the_project_configured() -> None:
    settings = Settings({"ITEM_PIPELINES": {"scrapy_bte.pipelines.BTEItemPipeline": None}})
    Addon().update_settings(settings)
    assert settings.getdict("ITEM_PIPELINES") == {"scrapy_bte.pipelines.BTEItemPipeline": None}


# Every import path of a component: the documented one (README.md, docs/scrapy.md), the paths
# of 0.1.0 (kept working by one-line modules) and the canonical one in scrapy_bte.crawl.
# tests/test_docs.py checks the paths the documentation gives.
COMPONENT_PATHS: dict[str, type] = {
    "scrapy_bte.Addon": Addon,
    "scrapy_bte.BTEDownloaderMiddleware": BTEDownloaderMiddleware,
    "scrapy_bte.BTESpiderMiddleware": BTESpiderMiddleware,
    "scrapy_bte.BTEItemPipeline": BTEItemPipeline,
    "scrapy_bte.addon.Addon": Addon,
    "scrapy_bte.middlewares.BTEDownloaderMiddleware": BTEDownloaderMiddleware,
    "scrapy_bte.middlewares.BTESpiderMiddleware": BTESpiderMiddleware,
    "scrapy_bte.pipelines.BTEItemPipeline": BTEItemPipeline,
    "scrapy_bte.crawl.addon.Addon": Addon,
    "scrapy_bte.crawl.middlewares.BTEDownloaderMiddleware": BTEDownloaderMiddleware,
    "scrapy_bte.crawl.middlewares.BTESpiderMiddleware": BTESpiderMiddleware,
    "scrapy_bte.crawl.pipelines.BTEItemPipeline": BTEItemPipeline,
}


@pytest.mark.parametrize("path", sorted(COMPONENT_PATHS))
def test_every_component_path_loads_the_same_class(path: str) -> None:
    assert load_object(path) is COMPONENT_PATHS[path]


@pytest.mark.parametrize("path", [path for path, cls in COMPONENT_PATHS.items() if cls is BTEItemPipeline])
def test_addon_keeps_a_component_listed_by_any_of_its_paths(path: str) -> None:
    settings = Settings({"ITEM_PIPELINES": {path: 300}})
    Addon().update_settings(settings)
    assert settings.getdict("ITEM_PIPELINES") == {path: 300}


def test_addon_disabled() -> None:
    with pytest.raises(NotConfigured):
        Addon().update_settings(Settings({"BTE_ENABLED": False}))


@pytest.mark.parametrize("component", [BTEDownloaderMiddleware, BTESpiderMiddleware, BTEItemPipeline])
def test_components_disabled_by_bte_enabled(component: Any) -> None:
    with pytest.raises(NotConfigured):
        component.from_crawler(get_crawler(settings_dict={"BTE_ENABLED": False}))


def test_managers_accept_the_components_without_deprecation_warnings() -> None:
    """pytest turns ScrapyDeprecationWarning into errors (see pyproject)."""
    crawler = get_crawler(settings_dict={"ADDONS": {Addon: 100}, "BTE_WORKERS": 0})
    downloader = DownloaderMiddlewareManager.from_crawler(crawler)
    spider = SpiderMiddlewareManager.from_crawler(crawler)
    pipelines = ItemPipelineManager.from_crawler(crawler)
    assert any(isinstance(mw, BTEDownloaderMiddleware) for mw in downloader.middlewares)
    assert any(isinstance(mw, BTESpiderMiddleware) for mw in spider.middlewares)
    assert any(isinstance(mw, BTEItemPipeline) for mw in pipelines.middlewares)
    runtimes = {
        mw.runtime
        for mw in (*downloader.middlewares, *spider.middlewares, *pipelines.middlewares)
        if hasattr(mw, "runtime")
    }
    assert len(runtimes) == 1  # one shared runtime (and pool) per crawler


@pytest.mark.parametrize(
    ("settings", "named"),
    [({"BTE_OPTIONS": {"no_such_option": 1}}, "BTE_OPTIONS"), ({"BTE_METHOD": "nope"}, "BTE_METHOD")],
)
def test_a_bad_setting_fails_at_start_up_with_a_line_of_its_own(
    caplog: pytest.LogCaptureFixture, settings: dict[str, Any], named: str
) -> None:
    """An asyncio crawl reported the ConfigError only as "Task exception was never retrieved" under a
    traceback: the message now has a CRITICAL line of its own."""
    crawler = get_crawler(settings_dict={**settings, "BTE_WORKERS": 0})
    with caplog.at_level("CRITICAL", logger="scrapy_bte"), pytest.raises(ConfigError, match=named):
        BTEDownloaderMiddleware.from_crawler(crawler)
    (record,) = [r for r in caplog.records if r.levelname == "CRITICAL"]
    assert record.getMessage().startswith("scrapy-bte cannot start: ") and named in record.getMessage()


# -- deciding what to extract ------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"<!DOCTYPE html><html><body>x</body></html>", True),
        (b"\xef\xbb\xbf  <html lang=en>", True),
        (b"<?xml version='1.0'?>\n<!-- c --><html>", True),
        (b"<p>fragment</p>", True),
        (b"%PDF-1.4", False),
        (b'{"json": true}', False),
        (b"\x89PNG\r\n", False),
        (b"plain words", False),
    ],
)
def test_sniffing(body: bytes, expected: bool) -> None:
    assert looks_like_html(body) is expected


def _runtime(**settings: Any) -> BTERuntime:
    return BTERuntime.for_crawler(get_crawler(settings_dict={"BTE_WORKERS": 0, **settings}))


@pytest.mark.parametrize(
    ("status", "content_type", "body", "meta", "reason"),
    [
        (200, b"text/html; charset=utf-8", b"<html>", {}, None),
        (200, b"application/xhtml+xml", b"<html>", {}, None),
        (200, None, b"<html><body>", {}, None),
        (200, b"application/octet-stream", b"<!doctype html>", {}, None),
        (200, b"application/pdf", b"<html>", {}, "non_html"),
        (200, None, b"\x00\x01binary", {}, "non_html"),
        (404, b"text/html", b"<html>", {}, "non_html"),
        (200, b"text/html", b"<html>" + b"x" * 100, {}, "too_large"),
        (200, b"text/html", b"<html>", {"dont_bte": True}, "dont_bte"),
    ],
)
def test_skip_reason(status: int, content_type: bytes | None, body: bytes, meta: dict, reason: str | None) -> None:
    runtime = _runtime(BTE_MAX_BYTES=50)
    headers = {"Content-Type": content_type} if content_type else {}
    request = Request("http://example.com/", meta=meta)
    response = Response("http://example.com/", status=status, headers=headers, body=body, request=request)
    assert runtime.skip_reason(request, response) == reason
    if reason:
        assert runtime.stats.get(f"bte/skipped/{reason}") == 1


# -- items -------------------------------------------------------------------


class ScrapyArticle(scrapy.Item):
    url = scrapy.Field()
    text = scrapy.Field()
    bte = scrapy.Field()
    html = scrapy.Field()


@dataclasses.dataclass
class DataclassArticle:
    url: str
    text: str | None = None
    bte: dict | None = None
    html: str | None = None


@attrs.define
class AttrsArticle:
    url: str
    text: str | None = None
    bte: dict | None = None
    html: str | None = None


@dataclasses.dataclass(frozen=True)
class FrozenDataclassArticle:
    url: str
    text: str | None = None
    bte: dict | None = None
    html: str | None = None


@attrs.frozen
class FrozenAttrsArticle:
    url: str
    text: str | None = None
    bte: dict | None = None
    html: str | None = None


ITEM_KINDS = [dict, ScrapyArticle, DataclassArticle, AttrsArticle, FrozenDataclassArticle, FrozenAttrsArticle]


@pytest.mark.parametrize("make", ITEM_KINDS)
def test_filler_fills_every_item_kind(make: Any) -> None:
    runtime = _runtime()
    item = make(url="u")
    assert runtime.filler.needs_text(item) and runtime.filler.check(item)
    item = runtime.filler.fill(item, EXTRACTION)
    adapter = ItemAdapter(item)
    assert adapter["text"] == "Main text."
    assert adapter["bte"] == EXTRACTION.scores()
    assert not runtime.filler.needs_text(item)  # filled items are left alone


def test_filler_flat_scores() -> None:
    runtime = _runtime(BTE_FLAT_SCORES=True)
    item: dict[str, Any] = {"url": "u"}
    runtime.filler.fill(item, Extraction.failed("ExtractionError: binary", method="auto"))
    assert item["bte_error"] == "ExtractionError: binary" and item["text"] == ""
    assert set(FLAT_SCORE_FIELDS.values()) <= set(item) and "bte" not in item


def test_filler_reports_a_class_missing_fields_once(caplog: pytest.LogCaptureFixture) -> None:
    class Bare(scrapy.Item):
        url = scrapy.Field()

    runtime = _runtime()
    assert [runtime.filler.check(Bare(url=str(i))) for i in range(3)] == [False] * 3
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1
    assert "Bare" in errors[0].getMessage() and "text, bte" in errors[0].getMessage()
    assert runtime.stats.get("bte/errors/item_fields") == 3


@pytest.mark.parametrize("make", ITEM_KINDS)
def test_pipeline_extracts_from_the_html_field_and_drops_it(make: Any) -> None:
    crawler = get_crawler(settings_dict={"BTE_WORKERS": 0, "BTE_HTML_FIELD": "html", "BTE_DROP_HTML_FIELD": True})
    pipeline = BTEItemPipeline.from_crawler(crawler)
    nav = (
        "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a> <a href='/about'>About</a></nav>"
    )
    html = "<html><body>" + nav + "<p>" + "A real sentence of the article. " * 20 + "</p></body></html>"
    item = asyncio.run(pipeline.process_item(make(url="http://example.com/", html=html)))
    adapter = ItemAdapter(item)
    assert "A real sentence of the article." in adapter["text"]
    assert "Home" not in adapter["text"]
    assert adapter.get("html") is None
    assert "error" not in adapter["bte"]


def test_pipeline_expands_an_extraction_put_in_the_item() -> None:
    pipeline = BTEItemPipeline.from_crawler(get_crawler(settings_dict={"BTE_WORKERS": 0}))
    item = asyncio.run(pipeline.process_item({"url": "u", "bte": EXTRACTION}))
    # title "T", page_type "forum", the others None
    fields = {name: getattr(EXTRACTION, name) for name in DEFAULT_ITEM_FIELDS}
    assert item == {"url": "u", "text": "Main text.", "bte": EXTRACTION.scores(), **fields}


def test_spider_middleware_fills_items_from_the_response() -> None:
    crawler = get_crawler(settings_dict={"BTE_WORKERS": 0})
    middleware = BTESpiderMiddleware.from_crawler(crawler)
    BTEDownloaderMiddleware.from_crawler(crawler)
    request = Request("http://example.com/", meta={"bte": EXTRACTION})
    response = HtmlResponse("http://example.com/", body=b"<html></html>", request=request)

    async def output() -> Any:
        yield {"url": 1}
        yield Request("http://example.com/next")
        yield {"url": 2, "text": "mine"}
        yield ScrapyArticle(url=3)

    async def collect() -> list[Any]:
        return [obj async for obj in middleware.process_spider_output(response, output())]

    first, follow, preset, article = asyncio.run(collect())
    fields = {name: getattr(EXTRACTION, name) for name in DEFAULT_ITEM_FIELDS}
    assert first == {"url": 1, "text": "Main text.", "bte": EXTRACTION.scores(), **fields}
    assert isinstance(follow, Request)
    assert preset == {"url": 2, "text": "mine"}
    assert article["text"] == "Main text."


def test_await_future_under_asyncio() -> None:
    async def wait() -> Extraction:
        future: Future[Extraction] = Future()
        asyncio.get_running_loop().call_later(0.01, future.set_result, EXTRACTION)
        return await _await_future(future)

    assert asyncio.run(wait()) is EXTRACTION
