"""Crawl benchmark: does the add-on slow a real Scrapy crawl down or stall its reactor?

    python benchmarks/crawl.py [--pages 2000] [--delay 0.2] [--jitter 0.5] [--workers N]
                               [--method M] [--data DIR] [--sets a,b] [--runs K]
                               [--no-ceiling] [--json out.json]
                               [--extract responses,items] [--item-share 1.0]

A local HTTP server (asyncio, keep-alive, bodies preloaded in memory) on
127.0.0.1 serves ``--pages`` pages of the labelled sets in ``--data`` (raw
bytes as published, ``Content-Type: text/html``) and answers every request
after ``--delay`` seconds on average without blocking the others, as remote
sites do. Like theirs, the delay varies: uniformly within ``--jitter`` of it
(default ±50 %, seeded); with ``--jitter 0`` all 64 connections answer in
lock-step waves, and working through each wave of 64 bodies at once costs
the crawl about 10 % of its rate.

Each crawl runs in its own subprocess with ``CONCURRENT_REQUESTS=64``,
``CONCURRENT_REQUESTS_PER_DOMAIN=64``, ``DOWNLOAD_DELAY=0``, no AutoThrottle
and ``CONCURRENT_ITEMS=1`` (one item per response; Scrapy 2.19 starts
``CONCURRENT_ITEMS`` asyncio tasks for every response, a fixed cost that
would otherwise dominate both crawls). Its spider requests every page URL
directly and yields ``{"url": ...}``, which the add-on (when on) fills with
``text`` and ``bte``. A tiny extension inside the crawl ticks every 10 ms,
records how late each tick runs (reactor stalls) and when each item is done.

``--extract`` lists the ``BTE_EXTRACT`` modes crawled with the add-on:
``responses`` extracts every HTML response in the downloader middleware,
before the callback runs; ``items`` extracts in the spider middleware, only
responses whose callback yields an item that needs text. ``--item-share``
is the share of pages whose callback yields an item (the others stand for
index and section pages, which only lead to articles); with 0.55 the crawl
looks like the example project's (30 items from 54 pages). Per run the table
also shows how many pages were extracted and saved, how often a page found
the worker pool full (``bte/pool_full_waits``), and the bytes of
responses waiting in Scrapy's scraper (sampled every tick, as Scrapy counts
them against ``SCRAPER_SLOT_MAX_ACTIVE_SIZE``, 5 MB by default: above it the
engine stops pulling new requests): in ``items`` mode responses are
extracted while they sit there.

RSS growth is the memory of the crawl process and its workers at the end
minus after the first 10 % of items (the memory target: under 10 MiB over a
5,000-page crawl: ``--pages 5000``). CPU ms/item is the CPU time of the
crawl process and, apart, of its worker processes over the same items
(after the first 10 %) per item: on a machine whose cores are all busy,
what the add-on adds to the crawl process is what slows the crawl.

``--sets`` picks the sets served (default: all, in turn; ``--sets mercury``
serves modern article pages only, repeated up to ``--pages``).

Runs: without and with the add-on at ``--delay``, then both again at delay 0
(the ceiling; ``--no-ceiling`` skips them); ``--runs K`` repeats the crawls
of each delay K times (without, then with, again and again), so that a
change of machine load hits both sides of a ratio alike. Each run's ratio
is to the run without the add-on of its repetition; the targets use the
median of the K ratios. Reported per run: pages/s (items
between the first and the last item over that time, so process and worker
start-up are left out), wall seconds of the crawl process, the longest
reactor stall (over the whole crawl, and from the first item on), the 99th
percentile lateness and, with the add-on, how many exported texts equal
``scrapy_bte.extract()`` of the same bytes. Then whether the targets are met:
>= 280 pages/s without the add-on at 200 ms (otherwise the machine is too
busy and the run is not valid), with workers >= 90 % of that throughput with
the add-on, and a longest stall at most 50 ms above the crawl without it.
The exit status is 1 when a target is missed. Other processes on the machine
skew every number, so the load average is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from common import DEFAULT_DATA, load_set

CONTENT_TYPE = "text/html"
TICK = 0.01  # stall probe interval (s)

MIN_BASE_RATE = 280.0  # pages/s without the add-on at 200 ms for a valid run
MIN_RATIO = 0.90  # throughput with / without the add-on
MAX_EXTRA_STALL_MS = 50.0


# -- the server (parent process) ------------------------------------------------------------


def load_bodies(data: Path, count: int, names: list[str] | None = None) -> list[bytes]:
    """``count`` raw pages from the sets in ``data`` (or those of ``names``), taken from each set in turn."""
    folders = [folder for folder in sorted(data.iterdir()) if folder.is_dir()]
    if names:
        missing = sorted(set(names) - {f.name for f in folders})
        if missing:
            raise SystemExit(f"unknown set(s) {missing} in {data}")
        folders = [f for f in folders if f.name in names]
    sets = [load_set(folder).pages for folder in folders]
    bodies = [page.html for row in zip_longest(*sets) for page in row if page is not None]
    if not bodies:
        raise SystemExit(f"no pages found in {data}")
    return [bodies[i % len(bodies)] for i in range(count)]  # repeat pages if asked for more


class PageServer:
    """HTTP/1.1 server for ``GET /p/<i>`` in a background thread.

    Each response waits ``delay * (1 ± jitter)`` seconds (uniform; both are
    read per request, so one server serves runs with different delays).
    """

    def __init__(self, bodies: list[bytes], delay: float = 0.0, jitter: float = 0.0, seed: int = 0) -> None:
        self.bodies = bodies
        self.delay = delay
        self.jitter = jitter
        self._rng = random.Random(seed)
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="page-server", daemon=True)

    def __enter__(self) -> PageServer:
        self._thread.start()
        self._ready.wait()
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=512))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        server.close()

    def _response(self, target: bytes) -> tuple[bytes, bytes]:
        try:
            body, status = self.bodies[int(target.rsplit(b"/", 1)[1])], b"200 OK"
        except (ValueError, IndexError):
            body, status = b"not found", b"404 Not Found"
        head = b"HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (
            status,
            CONTENT_TYPE.encode(),
            len(body),
        )
        return head, body

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:  # keep-alive: one request after another on this connection
                request = await reader.readuntil(b"\r\n\r\n")
                if self.delay:
                    await asyncio.sleep(self.delay * (1 + self.jitter * (2 * self._rng.random() - 1)))
                head, body = self._response(request.split(b" ", 2)[1])
                writer.writelines((head, body))
                await writer.drain()
                if b"connection: close" in request.lower():
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


# -- the crawl (child process) --------------------------------------------------------------


def _descendants(root: int) -> list[list[bytes]]:
    """The ``/proc/<pid>/stat`` fields (after the command name) of a process and all its descendants."""
    stats: dict[int, list[bytes]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stats[int(entry)] = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
    out = []
    for pid, fields in stats.items():
        p = pid
        while p and p != root:
            p = int(stats[p][1]) if p in stats else 0
        if p == root:
            out.append(fields)
    return out


def tree_rss_mb(root: int) -> float:
    """Resident memory of a process and all its descendants (worker pools), in MiB."""
    page = os.sysconf("SC_PAGE_SIZE")
    return sum(int(fields[21]) * page for fields in _descendants(root)) / 2**20


def tree_cpu_s(root: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by a process and, apart, by its descendants (the workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{root}/stat", "rb") as fh:
        own = sum(int(x) for x in fh.read().rsplit(b")", 1)[1].split()[11:13])
    tree = sum(int(fields[11]) + int(fields[12]) for fields in _descendants(root))
    return own / tick, (tree - own) / tick


class StallProbe:
    """Scrapy extension: a 10 ms tick that records reactor lateness, plus the time of each item.

    Writes ``{"ticks": [[t, lateness], ...], "items": [t, ...], "opened": t,
    "closed": t, "rss": [mb_after_10_percent, mb_at_end], "cpu": [[items,
    crawl_s, workers_s], ...]}`` (perf_counter seconds; memory and CPU seconds
    of the crawl process and of its worker processes, after 10 % of the items
    and at the end) to the
    ``BENCH_RESULT`` path when the spider closes.
    """

    def __init__(self, crawler: Any) -> None:
        from scrapy import signals

        self.crawler = crawler
        self.path = crawler.settings["BENCH_RESULT"]
        self.active: list[int] = []
        self.tenth = max(1, int(crawler.settings.getint("BENCH_PAGES", 0) * 0.1))
        self.rss: list[float] = []
        self.cpu: list[tuple[int, float, float]] = []  # (items, crawl process CPU s, workers' CPU s)
        self.ticks: list[tuple[float, float]] = []
        self.items: list[float] = []
        self.opened = self.closed = self._last = 0.0
        self._loop: Any = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)

    @classmethod
    def from_crawler(cls, crawler: Any) -> StallProbe:
        return cls(crawler)

    def spider_opened(self) -> None:
        from twisted.internet.task import LoopingCall

        self.opened = self._last = time.perf_counter()
        self._loop = LoopingCall(self._tick)
        self._loop.start(TICK, now=False)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.ticks.append((now, max(0.0, now - self._last - TICK)))
        self._last = now
        slot = getattr(getattr(self.crawler.engine, "scraper", None), "slot", None)
        if slot is not None:
            self.active.append(slot.active_size)

    def item_scraped(self) -> None:
        self.items.append(time.perf_counter())
        if len(self.items) == self.tenth:
            self.rss.append(tree_rss_mb(os.getpid()))
            self.cpu.append((len(self.items), *tree_cpu_s(os.getpid())))

    def spider_closed(self) -> None:
        self.closed = time.perf_counter()
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self.rss.append(tree_rss_mb(os.getpid()))
        self.cpu.append((len(self.items), *tree_cpu_s(os.getpid())))
        stats = self.crawler.stats.get_stats() if self.crawler.stats else {}
        data = {
            "ticks": self.ticks,
            "items": self.items,
            "opened": self.opened,
            "closed": self.closed,
            "rss": self.rss,
            "cpu": self.cpu,
            "active": self.active,
            "bte": {k: v for k, v in stats.items() if k.startswith("bte/") and isinstance(v, (int, float))},
        }
        Path(self.path).write_text(json.dumps(data), encoding="utf-8")


def crawl_child(config: dict[str, Any]) -> None:
    """Run one crawl as configured by the parent (``--child`` JSON)."""
    import scrapy
    from scrapy.crawler import CrawlerProcess

    port, pages = config["port"], config["pages"]
    share = config.get("item_share", 1.0)

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> Any:
            for i in range(pages):
                yield scrapy.Request(f"http://127.0.0.1:{port}/p/{i}")

        def parse(self, response: Any, **kwargs: Any) -> Any:
            # Pages without an item stand for index pages: spread evenly, same pages in every run.
            page = int(response.url.rsplit("/", 1)[1])
            if int((page + 1) * share) > int(page * share):
                yield {"url": response.url}

    settings: dict[str, Any] = {
        "CONCURRENT_REQUESTS": 64,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 64,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_ITEMS": 1,  # one item per response; Scrapy starts this many tasks per response
        "LOG_LEVEL": "INFO",
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "EXTENSIONS": {StallProbe: 0},
        "BENCH_RESULT": config["result"],
        "BENCH_PAGES": pages,
        "FEEDS": {config["feed"]: {"format": "jsonlines"}},
        "FEED_EXPORT_ENCODING": "utf-8",
        "ADDONS": {"scrapy_bte.Addon": 100} if config["addon"] else {},
    }
    if config["workers"] is not None:
        settings["BTE_WORKERS"] = config["workers"]
    if config["method"] is not None:
        settings["BTE_METHOD"] = config["method"]
    if config.get("extract") is not None:
        settings["BTE_EXTRACT"] = config["extract"]
    settings.update(config.get("settings", {}))
    process = CrawlerProcess(settings, install_root_handler=True)
    process.crawl(BenchSpider)
    process.start()


# -- running and reporting (parent process) -------------------------------------------------


@dataclass
class Run:
    """Measurements of one crawl."""

    delay: float
    addon: bool
    workers: int | None
    extract: str | None
    items: int
    pages_per_s: float
    wall_s: float
    max_stall_ms: float
    steady_stall_ms: float  # longest stall from the first item on (start-up excluded)
    p99_lag_ms: float
    rss_growth_mb: float | None = None  # process tree RSS at the end minus after 10 % of items
    same_text: int | None = None  # exported texts equal to extract() (add-on runs)
    compared: int | None = None
    extracted: int | None = None  # pages the add-on extracted (with text, empty or failed)
    saved: int | None = None  # bte/extractions_saved
    full_waits: int | None = None  # bte/pool_full_waits: pages that found the worker pool full
    active_max_mb: float = 0.0  # bytes of responses in the scraper, at most and on average
    active_mean_mb: float = 0.0
    crawl_cpu_ms: float | None = None  # CPU per item of the crawl process, after the first 10 % of items
    worker_cpu_ms: float | None = None  # ... and of its worker processes
    ratio: float | None = None  # pages/s over that of the run without the add-on just before


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run_crawl(
    server: PageServer, args: argparse.Namespace, delay: float, addon: bool, mode: str | None, tmp: Path
) -> Run:
    """One crawl in a subprocess (``mode``: BTE_EXTRACT, None for the default); with
    the add-on, exported texts are checked against ``extract()``."""
    server.delay = delay
    name = f"{(mode or 'default') if addon else 'plain'}-{delay:g}"
    feed, result = tmp / f"{name}.jsonl", tmp / f"{name}.json"
    feed.unlink(missing_ok=True)  # feeds append: a repeated run starts empty
    config = {
        "port": server.port,
        "pages": args.pages,
        "addon": addon,
        "workers": args.workers,
        "method": args.method,
        "feed": str(feed),
        "result": str(result),
        "extract": mode,
        "item_share": args.item_share,
        "settings": extra_settings(args.set),
    }
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(config)], capture_output=True, text=True, timeout=1800
    )
    wall = time.perf_counter() - started
    if proc.returncode != 0 or not result.exists():
        raise SystemExit(f"crawl {name} failed:\n{proc.stderr[-4000:]}")
    data = json.loads(result.read_text(encoding="utf-8"))
    items = data["items"]
    span = items[-1] - items[0] if len(items) > 1 else 0.0
    lags = [lag for _, lag in data["ticks"]]
    steady = [lag for t, lag in data["ticks"] if items and t >= items[0]]
    active = data.get("active") or [0]
    run = Run(
        delay=delay,
        addon=addon,
        workers=args.workers if addon else None,
        extract=mode,
        items=len(items),
        pages_per_s=(len(items) - 1) / span if span else 0.0,
        wall_s=wall,
        max_stall_ms=1000 * max(lags, default=0.0),
        steady_stall_ms=1000 * max(steady, default=0.0),
        p99_lag_ms=1000 * _percentile(lags, 0.99),
        rss_growth_mb=data["rss"][-1] - data["rss"][0] if len(data.get("rss", [])) == 2 else None,
        active_max_mb=max(active) / 2**20,
        active_mean_mb=sum(active) / len(active) / 2**20,
    )
    cpu = data.get("cpu") or []
    if len(cpu) == 2 and cpu[1][0] > cpu[0][0]:
        count = cpu[1][0] - cpu[0][0]
        run.crawl_cpu_ms = 1000 * (cpu[1][1] - cpu[0][1]) / count
        run.worker_cpu_ms = 1000 * (cpu[1][2] - cpu[0][2]) / count
    if addon:
        bte = data.get("bte", {})
        run.extracted = int(sum(bte.get(k, 0) for k in ("bte/extracted", "bte/empty", "bte/errors")))
        run.saved = int(bte.get("bte/extractions_saved", 0))
        run.full_waits = int(bte.get("bte/pool_full_waits", 0))
        run.same_text, run.compared = compare_texts(feed, server.bodies, args.method)
    return run


def extra_settings(pairs: list[str]) -> dict[str, Any]:
    """``--set NAME=VALUE`` pairs as settings (JSON values where they parse: numbers, true, lists)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise SystemExit(f"--set takes NAME=VALUE, got {pair!r}")
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value
    return out


def compare_texts(feed: Path, bodies: list[bytes], method: str | None) -> tuple[int, int]:
    """(equal, compared): exported ``text`` vs ``extract()`` of the same bytes, headers and URL.

    ``extract()`` runs with the method the add-on used (``BTE_METHOD``'s default when ``None``),
    and the response's URL, which the add-on passes too (the page type reads its path).
    """
    from scrapy_bte import extract
    from scrapy_bte.crawl.settings import DEFAULTS

    method = method or DEFAULTS["BTE_METHOD"]
    same = total = 0
    for line in feed.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        body = bodies[int(item["url"].rsplit("/", 1)[1])]
        expected = extract(body, method=method, content_type=CONTENT_TYPE, url=item["url"]).text
        same += item.get("text") == expected
        total += 1
    return same, total


def table(runs: list[Run]) -> str:
    rows = [
        "| delay | add-on | workers | items | extracted | saved | pool full | pages/s | ratio | wall s | max stall ms "
        "| after 1st item ms | p99 lag ms | scraper MB max / mean | CPU ms/item crawl + workers | RSS growth MiB "
        "| text = extract() |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| --- |",
    ]
    for run in runs:
        ratio = 1.0 if not run.addon else run.ratio or 0.0
        same = f"{run.same_text}/{run.compared}" if run.compared is not None else "-"
        workers = "-" if not run.addon else ("default" if run.workers is None else str(run.workers))
        growth = "-" if run.rss_growth_mb is None else f"{run.rss_growth_mb:+.1f}"
        addon = f"on, {run.extract or 'default'}" if run.addon else "off"
        extracted = "-" if run.extracted is None else str(run.extracted)
        saved = "-" if run.saved is None else str(run.saved)
        full = "-" if run.full_waits is None else str(run.full_waits)
        cpu = "-" if run.crawl_cpu_ms is None else f"{run.crawl_cpu_ms:.2f} + {run.worker_cpu_ms:.2f}"
        rows.append(
            f"| {run.delay * 1000:g} ms | {addon} | {workers} | {run.items} | {extracted} | {saved} | {full} | "
            f"{run.pages_per_s:.0f} | {ratio:.2f} | {run.wall_s:.1f} | {run.max_stall_ms:.0f} | {run.steady_stall_ms:.0f} | "
            f"{run.p99_lag_ms:.1f} | {run.active_max_mb:.1f} / {run.active_mean_mb:.1f} | {cpu} | {growth} | {same} |"
        )
    return "\n".join(rows)


def targets(bases: list[Run], with_addons: list[Run]) -> list[tuple[str, bool]]:
    """The project's targets for the runs at the requested delay, as (description, met).

    With several repetitions the median run of each kind stands for them.
    """
    base = sorted(bases, key=lambda r: r.pages_per_s)[len(bases) // 2]
    ratios = sorted(r.ratio or 0.0 for r in with_addons)
    ratio = ratios[len(ratios) // 2]
    with_addon = next(r for r in with_addons if (r.ratio or 0.0) == ratio)
    each = "" if len(ratios) == 1 else f" (median of {', '.join(f'{r:.1%}' for r in ratios)})"
    extra = with_addon.max_stall_ms - base.max_stall_ms
    return [
        (
            f"valid run: without the add-on {base.pages_per_s:.0f} pages/s >= {MIN_BASE_RATE:.0f}"
            + ("" if base.delay == 0.2 else f" (target is defined at 200 ms; this run used {base.delay * 1000:g} ms)"),
            base.pages_per_s >= MIN_BASE_RATE,
        ),
        (
            f"throughput with the add-on {ratio:.1%} of without >= {MIN_RATIO:.0%}{each}"
            + (" (workers = 0: inline extraction, target is for workers on)" if with_addon.workers == 0 else ""),
            ratio >= MIN_RATIO,
        ),
        (
            f"longest stall with the add-on {extra:+.0f} ms vs without <= +{MAX_EXTRA_STALL_MS:.0f} ms",
            extra <= MAX_EXTRA_STALL_MS,
        ),
        (
            f"exported text equals extract(): {with_addon.same_text}/{with_addon.compared}",
            all(r.same_text == r.compared for r in with_addons),
        ),
    ]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000, help="pages per crawl (default 2000)")
    parser.add_argument("--delay", type=float, default=0.2, help="server response delay in seconds (default 0.2)")
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="relative spread of the delay, uniform (default 0.5: 100-300 ms at 200 ms)",
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="BTE_WORKERS for the add-on runs (default: the add-on's)"
    )
    parser.add_argument(
        "--method", help="BTE_METHOD of the add-on runs and the extract() check (default: the add-on's)"
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"labelled sets (default {DEFAULT_DATA})")
    parser.add_argument("--sets", default="", help="comma-separated sets to serve (default: all)")
    parser.add_argument(
        "--runs", type=int, default=1, help="repetitions of the crawls (without, then with) per delay (default 1)"
    )
    parser.add_argument("--no-ceiling", action="store_true", help="skip the delay-0 runs")
    parser.add_argument(
        "--extract",
        default=None,
        help="comma-separated BTE_EXTRACT modes crawled with the add-on (default: the add-on's default)",
    )
    parser.add_argument(
        "--item-share",
        type=float,
        default=1.0,
        help="share of pages whose callback yields an item (default 1.0; 0.55 is like the example project)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a Scrapy setting for every crawl, with and without the add-on (repeatable; VALUE is read as JSON "
        "when it parses, else as a string)",
    )
    parser.add_argument("--json", type=Path, help="also write the runs as JSON here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        crawl_child(json.loads(args.child))
        return 0
    delays = [args.delay] + ([] if args.no_ceiling or args.delay == 0 else [0.0])
    runs: list[Run] = []
    if not 0 <= args.jitter <= 1:
        raise SystemExit("--jitter must be within 0..1")
    if not 0 < args.item_share <= 1:
        raise SystemExit("--item-share must be within (0, 1]")
    modes: list[str | None] = [None, *(args.extract.split(",") if args.extract else [""])]
    names = [x.strip() for x in args.sets.split(",") if x.strip()]
    bodies = load_bodies(args.data, args.pages, names)
    with PageServer(bodies, jitter=args.jitter) as server, tempfile.TemporaryDirectory() as tmp:
        for delay in delays:
            for _ in range(max(1, args.runs)):
                base: Run | None = None
                for mode in modes:
                    run = run_crawl(server, args, delay, mode is not None, mode or None, Path(tmp))
                    if mode is None:
                        base = run
                    elif base is not None and base.pages_per_s:
                        run.ratio = run.pages_per_s / base.pages_per_s
                    runs.append(run)
                    print(
                        f"  done: delay {delay:g} s, add-on {'off' if mode is None else mode or 'on'}: "
                        f"{run.pages_per_s:.0f} pages/s",
                        file=sys.stderr,
                        flush=True,
                    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"Crawl benchmark: {args.pages} pages from {args.data} ({', '.join(names) if names else 'all sets'}; "
        f"{len(set(bodies))} distinct pages, {sum(map(len, bodies)) / len(bodies) / 1e3:.0f} KB average), "
        f"items from {args.item_share:.0%} of them, delay ±{args.jitter:.0%}, "
        f"CONCURRENT_REQUESTS=64{''.join(', ' + pair for pair in args.set)}, {os.cpu_count()} CPUs, "
        f"load average {load} at the end\n"
    )
    print(table(runs))
    results: list[tuple[str, bool]] = []
    first = [run for run in runs if run.delay == delays[0]]
    bases = [run for run in first if not run.addon]
    for mode in modes[1:]:
        same_mode = [run for run in first if run.addon and run.extract == (mode or None)]
        results += [(f"{mode or 'default'}: {text}", met) for text, met in targets(bases, same_mode)]
    print()
    for text, met in results:
        print(f"- [{'x' if met else ' '}] {text}")
    if args.json:
        args.json.write_text(json.dumps([asdict(run) for run in runs], indent=1) + "\n", encoding="utf-8")
    return 0 if all(met for _, met in results) else 1


if __name__ == "__main__":
    sys.exit(main())
