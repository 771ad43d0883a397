"""Crawl benchmark on scrapy-redis: pages/s with one and with two crawler processes.

    python benchmarks/redis_crawl.py [--pages 2000] [--delay 0.2] [--jitter 0.5]
                                     [--processes 1,2] [--repeat N] [--no-baseline] [--no-local] [--data DIR]

Needs ``redis-server`` on PATH and the ``redis`` extra. A throwaway
redis-server (127.0.0.1, free port, no persistence) holds the shared request
queue, dupefilter and stats; the page server of ``benchmarks/crawl.py``
serves ``--pages`` pages of the labelled sets in ``--data`` and answers each
request after ``--delay`` seconds ± ``--jitter``, as remote sites do.

Each run starts N crawler processes at once, all with the same spider: it
requests every page URL, and the Redis dupefilter lets each URL into the
shared queue once, so the processes split the pages between them. Every
process runs with ``CONCURRENT_REQUESTS=64`` (so two processes keep twice
as many requests open), ``CONCURRENT_ITEMS=1`` and the add-on's defaults
(``BTE_WORKERS`` = usable CPUs − 1 per process). Pages/s counts the items of
all processes between the first and the last item, so start-up is left out.
CPU ms/page is the CPU time (user + system) of the crawler processes and
their extraction workers from the first item to the close, per page after
the first, and the part of it spent in the crawler processes themselves
(Scrapy's reactor thread and what runs in it: scrapy-redis's Redis commands,
the add-on's side of extraction), the rest being the workers'; redis-server's
own CPU time is a column of its own. On a machine
shared with other work, pages/s moves with the load and CPU per page much
less. Rows without the add-on (the same crawl, scrapy-redis alone) show what the
machine allows (``--no-baseline`` skips them), and one process with Scrapy's
own scheduler, dupefilter and stats (no Redis) shows what scrapy-redis costs
(``--no-local`` skips it). The check column says whether every page was
exported exactly once across the processes (in every run of the row, with
``--repeat N``, where the fastest of N runs is reported).

Other processes on the machine skew every number: the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crawl import DEFAULT_DATA, PageServer, load_bodies

from scrapy_bte.testing.redis_server import RedisServer

CONCURRENT_REQUESTS = 64
_TICK = os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of a process and all its descendants alive now (its extraction workers)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    parents[int(entry)] = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    total = 0.0
    for pid in parents:
        ancestor = pid
        while ancestor and ancestor != root:
            ancestor = parents.get(ancestor, 0)
        if ancestor == root:
            total += process_cpu_seconds(pid)
    return total


def crawl_child(config: dict[str, Any]) -> None:
    """One crawler process (run by the parent with ``--child``)."""
    import scrapy
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    port, pages, result = config["port"], config["pages"], Path(config["result"])
    times: list[float] = []

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> Any:
            for i in range(pages):
                yield scrapy.Request(f"http://127.0.0.1:{port}/p/{i}")

        def parse(self, response: Any, **kwargs: Any) -> Any:
            yield {"url": response.url}

    settings: dict[str, Any] = {
        "CONCURRENT_REQUESTS": CONCURRENT_REQUESTS,
        "CONCURRENT_REQUESTS_PER_DOMAIN": CONCURRENT_REQUESTS,
        "CONCURRENT_ITEMS": 1,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "LOGSTATS_INTERVAL": 0,  # scrapy-redis 0.9 cannot read Scrapy's float start_time back
        "FEEDS": {config["feed"]: {"format": "jsonlines", "overwrite": True}},
        "ADDONS": {"scrapy_bte.Addon": 100} if config["addon"] else {},
    }
    if config["redis"]:
        settings.update(
            {
                "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
                "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
                "STATS_CLASS": "scrapy_redis.stats.RedisStatsCollector",
                "SCHEDULER_PERSIST": True,
                "REDIS_URL": config["redis_url"],
            }
        )
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)

    # CPU seconds of this process with its workers, and of this process alone, at the first item and at close
    cpu: list[tuple[float, float]] = []

    def item_scraped() -> None:
        times.append(time.time())  # wall clock: comparable across the processes
        if len(times) == 1:
            cpu.append((tree_cpu_seconds(os.getpid()), process_cpu_seconds(os.getpid())))

    def spider_closed() -> None:  # connected first: runs before the add-on stops its workers
        cpu.append((tree_cpu_seconds(os.getpid()), process_cpu_seconds(os.getpid())))

    crawler.signals.connect(spider_closed, signal=signals.spider_closed)

    crawler.signals.connect(item_scraped, signal=signals.item_scraped)  # a weak reference: kept alive here
    process.crawl(crawler)
    process.start()
    result.write_text(json.dumps({"items": times, "cpu": cpu}), encoding="utf-8")


@dataclass
class Run:
    redis: bool
    processes: int
    addon: bool
    items: int
    per_process: list[int]
    pages_per_s: float
    wall_s: float
    exported_once: bool
    cpu_ms_per_page: float  # crawler processes and their workers, first item to close
    crawler_ms_per_page: float  # the crawler processes alone (Scrapy's reactor thread, scrapy-redis, the add-on's side)
    redis_ms_per_page: float  # redis-server, whole run


def run(
    server: PageServer,
    redis: RedisServer,
    args: argparse.Namespace,
    processes: int,
    addon: bool,
    tmp: Path,
    on_redis: bool = True,
) -> Run:
    redis.client().flushall()
    name = f"{'redis' if on_redis else 'local'}-{processes}-{'addon' if addon else 'plain'}"
    children, configs = [], []
    assert redis.process is not None
    redis_cpu = process_cpu_seconds(redis.process.pid)
    started = time.perf_counter()
    for n in range(processes):
        config = {
            "port": server.port,
            "pages": args.pages,
            "addon": addon,
            "redis": on_redis,
            "redis_url": redis.url,
            "feed": str(tmp / f"{name}-{n}.jsonl"),
            "result": str(tmp / f"{name}-{n}.json"),
        }
        configs.append(config)
        children.append(
            subprocess.Popen(
                [sys.executable, __file__, "--child", json.dumps(config)], stderr=subprocess.PIPE, text=True
            )
        )
    errors = [child.communicate(timeout=1800)[1] for child in children]
    wall = time.perf_counter() - started
    redis_cpu = process_cpu_seconds(redis.process.pid) - redis_cpu
    for child, error in zip(children, errors):
        if child.returncode != 0:
            raise SystemExit(f"crawl {name} failed:\n{error[-4000:]}")
    results = [json.loads(Path(c["result"]).read_text()) for c in configs]
    times = sorted(t for r in results for t in r["items"])
    per_process = [len(r["items"]) for r in results]
    measured = [r for r in results if len(r["cpu"]) == 2]
    cpu = sum(r["cpu"][1][0] - r["cpu"][0][0] for r in measured)
    own = sum(r["cpu"][1][1] - r["cpu"][0][1] for r in measured)
    after_first = sum(len(r["items"]) - 1 for r in measured)
    urls = Counter(json.loads(line)["url"] for c in configs for line in Path(c["feed"]).read_text().splitlines())
    span = times[-1] - times[0] if len(times) > 1 else 0.0
    return Run(
        redis=on_redis,
        processes=processes,
        addon=addon,
        items=len(times),
        per_process=per_process,
        pages_per_s=(len(times) - 1) / span if span else 0.0,
        wall_s=wall,
        exported_once=len(urls) == args.pages and set(urls.values()) == {1},
        cpu_ms_per_page=1000 * cpu / after_first if after_first > 0 else 0.0,
        crawler_ms_per_page=1000 * own / after_first if after_first > 0 else 0.0,
        redis_ms_per_page=1000 * redis_cpu / len(times) if on_redis and times else 0.0,
    )


def table(runs: list[Run]) -> str:
    rows = [
        "| scheduler | processes | add-on | items | items per process | pages/s | CPU ms/page | of it crawler "
        "| redis-server ms/page | wall s | every page once |",
        "| --- | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in runs:
        rows.append(
            f"| {'scrapy-redis' if r.redis else 'Scrapy (no Redis)'} | {r.processes} | {'on' if r.addon else 'off'} | {r.items} | "
            f"{' + '.join(map(str, r.per_process))} | {r.pages_per_s:.0f} | {r.cpu_ms_per_page:.1f} | "
            f"{r.crawler_ms_per_page:.1f} | "
            f"{r.redis_ms_per_page:.1f} | {r.wall_s:.1f} | "
            f"{'yes' if r.exported_once else 'NO'} |"
        )
    return "\n".join(rows)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000, help="pages per crawl (default 2000)")
    parser.add_argument("--delay", type=float, default=0.2, help="server response delay in seconds (default 0.2)")
    parser.add_argument("--jitter", type=float, default=0.5, help="relative spread of the delay (default 0.5)")
    parser.add_argument("--processes", default="1,2", help="crawler process counts to run (default 1,2)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the runs without the add-on")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the fastest is reported (default 1)")
    parser.add_argument("--no-local", action="store_true", help="skip the one-process runs with Scrapy's own scheduler")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"labelled sets (default {DEFAULT_DATA})")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        crawl_child(json.loads(args.child))
        return 0
    counts = [int(n) for n in args.processes.split(",")]
    runs: list[Run] = []
    with (
        PageServer(load_bodies(args.data, args.pages), delay=args.delay, jitter=args.jitter) as server,
        RedisServer() as redis,
        tempfile.TemporaryDirectory() as tmp,
    ):
        addons = ([False] if not args.no_baseline else []) + [True]
        plan = [(False, 1, addon) for addon in addons if not args.no_local]
        plan += [(True, processes, addon) for processes in counts for addon in addons]
        # Rounds of every row in turn: load from elsewhere drifts, and each
        # row should see the same drift.
        tries: dict[tuple[bool, int, bool], list[Run]] = {row: [] for row in plan}
        for _ in range(args.repeat):
            for row in plan:
                on_redis, processes, addon = row
                tries[row].append(run(server, redis, args, processes, addon, Path(tmp), on_redis=on_redis))
                print(
                    f"  done: {'scrapy-redis' if on_redis else 'no Redis'}, {processes} process(es), "
                    f"add-on {'on' if addon else 'off'}: {tries[row][-1].pages_per_s:.0f} pages/s",
                    file=sys.stderr,
                )
        for row in plan:
            best = max(tries[row], key=lambda r: r.pages_per_s)
            best.exported_once = all(r.exported_once for r in tries[row])
            # CPU per page is what other load disturbs least: the lowest seen.
            best.cpu_ms_per_page = min(r.cpu_ms_per_page for r in tries[row])
            best.crawler_ms_per_page = min(r.crawler_ms_per_page for r in tries[row])
            best.redis_ms_per_page = min(r.redis_ms_per_page for r in tries[row])
            runs.append(best)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"scrapy-redis crawl benchmark: {args.pages} pages from {args.data}, delay {args.delay * 1000:g} ms "
        f"±{args.jitter:.0%}, CONCURRENT_REQUESTS={CONCURRENT_REQUESTS} per process, {os.cpu_count()} CPUs, "
        f"load average {load} at the end\n"
    )
    print(table(runs))
    return 0 if all(r.exported_once for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
