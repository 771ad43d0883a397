"""Memory-growth check: RSS must stay flat over thousands of extractions.

    python benchmarks/memory.py [--data DIR] [--pages 2000] [--method M]
                                [--max-growth-mb 10]

Runs ``scrapy_bte.extract()`` on ``--pages`` pages taken in turn from every
set (round-robin, cycling when the sets run out; each file is read just
before its extraction so the inputs do not inflate RSS), and prints the
resident set size after page 200, after the first 10% of the pages and at
the end, plus the differences. A leak in a long crawl shows as steady growth
after the warm-up (caches filling, the first large pages), so the check
fails (exit status 1) when RSS grows by more than ``--max-growth-mb`` MiB
between the 10% point and the end. Before each reading a full
``gc.collect()`` and glibc's ``malloc_trim(0)`` run, so uncollected cycles
and freed-but-cached heap do not count as growth. Use ``--pages 10000``
for the long run.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DATA = ROOT.parent / "shared" / "datasets"
MIB = 2**20


def rss_bytes() -> int:
    """Resident set size of this process."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import psutil

        return psutil.Process().memory_info().rss


def release_free_memory() -> None:
    """Collect cycles and hand freed heap back to the OS (glibc keeps it
    otherwise), so RSS tracks live memory rather than allocator slack."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def page_paths(data: Path) -> list[Path]:
    """HTML files of all sets, interleaved so every prefix mixes the sets."""
    sets = [sorted(d.glob("*.html")) for d in sorted(data.iterdir()) if d.is_dir()]
    mixed = itertools.chain.from_iterable(itertools.zip_longest(*sets))
    return [p for p in mixed if p is not None]


def cycle(paths: list[Path], count: int) -> Iterator[tuple[int, Path]]:
    """(1-based index, path) for ``count`` pages, cycling through ``paths``."""
    return zip(range(1, count + 1), itertools.cycle(paths))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--method", default=None, help="extract() method (default: the library's)")
    parser.add_argument("--max-growth-mb", type=float, default=10.0)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from scrapy_bte import extract

    options = {} if args.method is None else {"method": args.method}
    paths = page_paths(args.data)
    if not paths:
        raise SystemExit(f"no pages under {args.data}")
    marks = {"after page 200": min(200, args.pages), "after 10%": max(1, args.pages // 10), "at the end": args.pages}
    readings: dict[str, float] = {}
    errors = 0
    release_free_memory()
    start = rss_bytes() / MIB
    print(f"before the first page: {start:8.1f} MiB")
    for index, path in cycle(paths, args.pages):
        try:
            extract(path.read_bytes(), **options)
        except Exception:  # noqa: BLE001 - counted; memory is what is checked here
            errors += 1
        labels = [label for label, at in marks.items() if at == index]
        if labels:
            release_free_memory()
            rss = rss_bytes() / MIB
            for label in labels:
                readings[label] = rss
                print(f"{label:>21} (page {index:>6}): {rss:8.1f} MiB", flush=True)
    end = readings["at the end"]
    growth = end - readings["after 10%"]
    print(f"growth since page 200: {end - readings['after page 200']:+.1f} MiB")
    print(f"growth since 10%:      {growth:+.1f} MiB (limit {args.max_growth_mb} MiB)")
    print(f"growth since start:    {end - start:+.1f} MiB; {errors} page(s) raised")
    if growth > args.max_growth_mb:
        print("FAIL: memory keeps growing after warm-up")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
