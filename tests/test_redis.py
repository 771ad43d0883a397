"""The add-on under scrapy-redis, against a real redis-server on 127.0.0.1.

Several crawler processes share one request queue, one dupefilter and one
stats hash in Redis (``SCHEDULER_PERSIST = True``). Each crawler runs
``tests/fixtures/redis_crawl.py`` in its own process: scrapy-redis passes
``spider=`` to the stats methods, which Scrapy warns about, and this suite
turns Scrapy's deprecation warnings into errors.

Without redis-server (or the ``redis`` extra) these tests are skipped with
the reason; with the environment variable ``CI`` set they fail instead.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from linked_site import LinkedSite, marker

from scrapy_bte.testing.redis_server import RedisServer, redis_server_path

REPO = Path(__file__).resolve().parent.parent
CRAWLER = REPO / "tests" / "fixtures" / "redis_crawl.py"
START_KEY = "site:start_urls"
STATS_KEY = "site:stats"
QUEUE_KEY = "site:requests"
DUPEFILTER_KEY = "site:dupefilter"
CONCURRENT_REQUESTS = 8


def _missing() -> str | None:
    if redis_server_path() is None:
        return "redis-server is not installed (Debian: apt-get install redis-server)"
    try:
        import redis  # noqa: F401
        import scrapy_redis  # noqa: F401
    except ImportError as exc:
        return f"the redis extra is not installed (pip install -e '.[redis]'): {exc}"
    return None


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Redis tests: {reason}")
        pytest.skip(reason)
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_db(redis_server: RedisServer) -> Any:
    """A client on an empty database."""
    client = redis_server.client()
    client.flushall()
    return client


def _descendants(root: int) -> list[int]:
    """Pids of every process below *root* (the worker pool's fork server and workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


class Crawler:
    """One crawler process of the shared crawl."""

    def __init__(self, name: str, tmp: Path, server: RedisServer, batch_size: int = 1, **settings: Any) -> None:
        self.out = tmp / name
        self.out.mkdir(parents=True)
        config = {
            "out": str(self.out),
            "redis_url": server.url,
            "heartbeat": 0.5,
            "max_idle": 1,
            "batch_size": batch_size,  # start URLs taken at a time: 1 spreads the sections over the processes
            "settings": {"CONCURRENT_REQUESTS": CONCURRENT_REQUESTS, **settings},
        }
        config_path = self.out / "config.json"
        config_path.write_text(json.dumps(config))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        self.stderr = (self.out / "stderr.txt").open("w")
        self.process = subprocess.Popen(
            [sys.executable, str(CRAWLER), str(config_path)], env=env, stderr=self.stderr, cwd=self.out
        )

    def wait(self, timeout: float = 60) -> int:
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.stderr.close()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    @property
    def log(self) -> str:
        path = self.out / "crawl.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def items(self) -> tuple[list[dict[str, Any]], int]:
        """Exported items, and how many trailing lines were cut short (0 or 1)."""
        path = self.out / "items.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        items, cut = [], 0
        for number, line in enumerate(lines):
            try:
                items.append(json.loads(line))
            except ValueError:
                assert number == len(lines) - 1, f"line {number} of {len(lines)} is broken: {line[:200]!r}"
                cut = 1
        return items, cut


def _load_crawler_module() -> Any:
    """The crawler script as a module (its spider serialises requests for the queue)."""
    spec = importlib.util.spec_from_file_location("redis_crawl", CRAWLER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seed(client: Any, urls: list[str]) -> None:
    client.rpush(START_KEY, *(json.dumps({"url": url}) for url in urls))


def _assert_integer_stats(stats: dict[str, str]) -> dict[str, int]:
    ours = {key: value for key, value in stats.items() if key.startswith("bte/")}
    for key, value in ours.items():
        assert value.lstrip("-").isdigit(), f"{key} = {value!r} is not an integer"
    return {key: int(value) for key, value in ours.items()}


def _assert_clean(crawler: Crawler) -> None:
    log = crawler.log
    assert "Traceback" not in log, log[-4000:]
    assert "] ERROR: " not in log, [line for line in log.splitlines() if "] ERROR: " in line][:5]
    assert "scrapy-bte: the stats collector" not in log


def _close_within(expected: int, value: int, processes: int, step: int = 1) -> bool:
    """scrapy-redis creates a stats key with HEXISTS, then HSET to the start
    value, then HINCRBY: when two processes create the same key at the same
    moment, the second HSET can wipe the first one's increment. So each key
    may fall short by up to ``processes - 1`` increments of at most *step*."""
    return expected - (processes - 1) * step <= value <= expected


def test_crawl_stats_under_redis_stats_collector(
    redis_db: Any, redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    from scrapy.utils.test import get_crawler
    from scrapy_redis.stats import RedisStatsCollector

    from scrapy_bte.crawl.crawl_stats import CrawlStats

    collector = RedisStatsCollector(get_crawler(settings_dict={"REDIS_URL": redis_server.url}))
    key = collector._get_key()
    stats = CrawlStats(collector)
    for _ in range(1024):  # 2**-11 s = 0.48828125 ms each, exact in binary: rounding each call would record 0
        stats.add_seconds("bte/milliseconds", 2.0**-11)
    stats.inc("bte/words", 17)
    stats.inc("bte/words", 3)
    stats.set("bte/gc_frozen", 12345)
    assert redis_db.hgetall(key) == {"bte/milliseconds": "500", "bte/words": "20", "bte/gc_frozen": "12345"}
    assert stats.get("bte/words") == 20 and stats.failures == 0

    # A key that once held a float refuses even integer increments: logged once, never raised.
    redis_db.hset(key, "bte/extracted", "0.0")
    with caplog.at_level(logging.WARNING, logger="scrapy_bte"):
        stats.inc("bte/extracted")
        stats.inc("bte/extracted")
        assert stats.get("bte/extracted", -1) == -1
    assert stats.failures == 3
    warnings = [r for r in caplog.records if "stats collector RedisStatsCollector failed" in r.getMessage()]
    assert len(warnings) == 1, warnings


def test_two_processes_share_one_queue(redis_db: Any, redis_server: RedisServer, tmp_path: Path) -> None:
    from scrapy_bte import extract

    with LinkedSite(articles=60, delay=0.05) as site:
        _seed(redis_db, [site.url(f"/section-{s}.html") for s in range(6)])
        started = time.monotonic()
        crawlers = [Crawler(name, tmp_path, redis_server) for name in ("first", "second")]
        try:
            codes = [crawler.wait(timeout=120) for crawler in crawlers]
            wall_ms = 1000 * (time.monotonic() - started)
        finally:
            for crawler in crawlers:
                crawler.kill()
        served = list(site.served)
    assert codes == [0, 0], [c.log[-3000:] for c in crawlers]
    for crawler in crawlers:
        _assert_clean(crawler)

    # 1. Every page was extracted: each article's item holds its own sentence.
    outputs = [crawler.items() for crawler in crawlers]
    assert [cut for _, cut in outputs] == [0, 0]
    items = [item for found, _ in outputs for item in found]
    assert all(found for found, _ in outputs), "both processes took part"
    for item in items:
        number = int(item["url"].rsplit("-", 1)[1].split(".")[0])
        assert marker(number) in item["text"], item
        assert "error" not in item["bte"] and item["bte"]["confidence"] > 0, item

    # 2. ... and exported exactly once across both outputs.
    counts = Counter(item["url"] for item in items)
    assert set(counts) == set(site.article_urls())
    assert set(counts.values()) == {1}, [url for url, n in counts.items() if n > 1]

    # 3. The bte/ stats in Redis add up (see _close_within for the tolerance).
    stats = _assert_integer_stats(redis_db.hgetall(STATS_KEY))
    html = [path for path, status in served if status == 200]
    # Responses are extracted when their callback yields an item (BTE_EXTRACT
    # = "items"): the articles; the section pages are counted as saved.
    articles = [path for path in html if path.startswith("/article-")]
    words = {path: extract(site.pages[path]).words for path in set(articles)}
    assert _close_within(len(articles), stats["bte/extracted"], 2), (len(articles), stats)
    assert _close_within(len(html) - len(articles), stats["bte/extractions_saved"], 2), (len(html), stats)
    assert _close_within(site.articles, stats["bte/items"], 2), stats
    # 404s stop at HttpErrorMiddleware; counted as skipped only where something looked at them.
    assert stats.get("bte/skipped/non_html", 0) <= len(served) - len(html), stats
    assert _close_within(sum(words[p] for p in articles), stats["bte/words"], 2, step=max(words.values())), stats
    assert stats.get("bte/errors", 0) == stats.get("bte/empty", 0) == 0
    assert 0 < stats["bte/milliseconds"] < len(articles) * wall_ms  # each page's time within the crawl's
    assert redis_db.zcard(QUEUE_KEY) == 0  # the queue was worked off
    assert redis_db.scard(DUPEFILTER_KEY) > 0  # and persisted with its dupefilter


def test_sigkill_loses_in_flight_pages_which_requeueing_recovers(
    redis_db: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    from scrapy.http import Request
    from scrapy_redis.dupefilter import RFPDupeFilter
    from scrapy_redis.queue import PriorityQueue

    with LinkedSite(articles=40, delay=0.05) as site:
        site.hold_after = 15
        _seed(redis_db, [site.url(f"/section-{s}.html") for s in range(4)])
        killed = Crawler("killed", tmp_path, redis_server)
        survivor = Crawler("survivor", tmp_path, redis_server)
        try:
            # Kill while the site holds more requests than one process may
            # have open: some of them are the victim's.
            deadline = time.monotonic() + 90
            while site.held <= CONCURRENT_REQUESTS:
                running = killed.process.poll() is None and survivor.process.poll() is None
                assert running and time.monotonic() < deadline, (site.held, killed.log[-3000:])
                time.sleep(0.05)
            workers = _descendants(killed.process.pid)
            assert workers, "the extraction workers run below the crawler process"
            killed.process.send_signal(signal.SIGKILL)
            killed.wait()
            site.release()

            # No worker process of the killed crawler is left running.
            deadline = time.monotonic() + 10
            while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert [pid for pid in workers if _running(pid)] == []

            # The survivor works off the rest of the shared queue.
            assert survivor.wait(timeout=120) == 0, survivor.log[-3000:]
        finally:
            killed.kill()
            survivor.kill()
        assert redis_db.zcard(QUEUE_KEY) == 0
        _assert_clean(survivor)

        killed_items, _ = killed.items()  # the last line may be cut short
        survivor_items, cut = survivor.items()
        assert cut == 0
        exported = Counter(item["url"] for item in killed_items + survivor_items)
        assert set(exported.values()) == {1}
        lost = sorted(set(site.article_urls()) - set(exported))
        # Lost: requests the killed process had taken from the queue (being
        # downloaded, extracted or parsed) and items still in its feed's
        # write buffer. Their fingerprints are in the dupefilter, so neither
        # the survivor nor a restarted process would fetch them again.
        assert lost, "the killed process had pages in flight"
        log = killed.log
        crawled = {
            line.split("Crawled (200) <GET ", 1)[1].split(">", 1)[0]
            for line in log.splitlines()
            if "Crawled (200) <GET " in line
        }
        scraped = {
            line.split("Scraped from <200 ", 1)[1].split(">", 1)[0]
            for line in log.splitlines()
            if "Scraped from <200 " in line
        }
        buffered = scraped - {item["url"] for item in killed_items}
        assert set(lost) >= buffered
        fingerprint = RFPDupeFilter(server=None, key="").request_fingerprint
        taken = [url for url in lost if url in crawled]
        assert all(redis_db.sismember(DUPEFILTER_KEY, fingerprint(Request(url))) for url in taken)

        # Recovery: requests pushed straight into the shared queue keep their
        # callback (URLs pushed to the start key would go to parse, the
        # default one, and yield no item). Marking them seen first drops links
        # to them that the recovery crawl finds.
        spider = _load_crawler_module().SiteSpider()
        raw = redis_server.client(decode_responses=False)
        seen = RFPDupeFilter(server=raw, key=DUPEFILTER_KEY)
        queue = PriorityQueue(server=raw, spider=spider, key=QUEUE_KEY)
        for url in lost:
            request = Request(url, callback=spider.parse_article, dont_filter=True)
            seen.request_seen(request)
            queue.push(request)
        recovery = Crawler("recovery", tmp_path, redis_server)
        try:
            assert recovery.wait(timeout=120) == 0, recovery.log[-3000:]
        finally:
            recovery.kill()
        _assert_clean(recovery)
        recovered, cut = recovery.items()
        assert cut == 0
        assert sorted(item["url"] for item in recovered) == lost
        for item in recovered:
            assert marker(int(item["url"].rsplit("-", 1)[1].split(".")[0])) in item["text"]
    print(f"SIGKILL: {len(lost)} of {site.articles} articles lost ({len(buffered)} in the feed buffer), all recovered")


def test_example_project_on_scrapy_redis(redis_db: Any, redis_server: RedisServer, tmp_path: Path) -> None:
    """The news spider with ``news.settings_redis``, as the README runs it: two processes."""
    project = REPO / "example_project"
    manifest = json.loads((project / "site" / "manifest.json").read_text(encoding="utf-8"))
    articles = {Path(entry["page"]).name for entry in manifest["articles"] + manifest["pages"]}
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="news.settings_redis", REDIS_URL=redis_server.url)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(project), str(REPO), env.get("PYTHONPATH")]))
    outputs = [tmp_path / f"part-{n}.jsonl" for n in (1, 2)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out), "-s", "LOG_LEVEL=INFO"],
            cwd=project,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for out in outputs
    ]
    try:
        logs = [process.communicate(timeout=180)[1] for process in processes]
    finally:
        for process in processes:
            process.kill()
    assert [process.returncode for process in processes] == [0, 0], [log[-3000:] for log in logs]
    for log in logs:
        assert "Traceback" not in log and "] ERROR: " not in log, log[-3000:]
    items = [
        json.loads(line) for out in outputs if out.exists() for line in out.read_text(encoding="utf-8").splitlines()
    ]
    counts = Counter(Path(item["url"]).name for item in items)
    assert set(counts) == articles and set(counts.values()) == {1}
    assert all(item["text"] and "error" not in item["bte"] for item in items)
    stats = _assert_integer_stats(redis_db.hgetall("news:stats"))
    assert _close_within(len(articles), stats["bte/items"], 2), stats
