"""Memory-growth check: RSS must stay flat over thousands of extractions;
and the peak memory of one extraction on torture and large modern pages.

    python benchmarks/memory.py [--data DIR] [--pages 2000] [--method M]
                                [--max-growth-mb 10]
    python benchmarks/memory.py --peaks [--method M] [--largest 5] [--max-multiple X]

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

``--peaks`` measures what one page costs at its worst instead: for each
torture page (generated: a million one-word paragraphs, ten megabytes of
table cells, deep nesting, a minified 20 MB page...) and the ``--largest``
pages of every set, it frees what it can, resets the kernel's high-water
mark of this process's RSS (``/proc/self/clear_refs``), extracts the page
once and reads the high-water mark back (``VmHWM``). The table gives the
page's size, its blocks, the method that ran (``Extraction.method``), the
peak above the RSS before the call, that peak as a multiple of the body's
size, and the seconds taken. With ``--max-multiple X`` the exit status is 1
when a page's peak exceeds X times its size (plus 16 MiB for the pages so
small that allocator slack dominates).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import gzip
import itertools
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from common import DEFAULT_DATA

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
    parser.add_argument("--peaks", action="store_true", help="peak memory per torture and large page instead")
    parser.add_argument("--largest", type=int, default=3, help="with --peaks: the N largest pages of each set")
    parser.add_argument(
        "--max-multiple",
        type=float,
        default=None,
        help="with --peaks: fail when a peak exceeds this multiple of the page's size",
    )
    return parser.parse_args(argv)


# -- peaks ------------------------------------------------------------------------------------


def one_word_paragraphs(size: int) -> bytes:
    """About ``size`` bytes of one-word paragraphs: the most blocks per byte HTML allows."""
    unit = b"<p>ab</p>\n"
    return b"<html><body>" + unit * (size // len(unit)) + b"</body></html>"


def table_cells(size: int) -> bytes:
    """About ``size`` bytes of a data table: short cells, many tags per word."""
    row = b"<tr><td>17</td><td>harbour ledger</td><td>3.5</td><td><a href='/x'>more</a></td></tr>\n"
    return b"<html><body><table>" + row * (size // len(row)) + b"</table></body></html>"


def torture_pages() -> list[tuple[str, bytes]]:
    """Generated pages that stress memory per byte, including the torture suite's large cases."""
    pages = [
        ("one-word paragraphs, 10 MB", one_word_paragraphs(10 * 10**6)),
        ("table cells, 9.7 MB", table_cells(9_700_000)),
        ("one-character lines, 1.7 MB", ("<html><body>" + "\u4e2d<br>" * 260_000 + "</body></html>").encode()),
    ]
    from scrapy_bte.testing import torture

    for case in torture.large_cases():
        html = case.data()
        pages.append((case.name.replace("_", " "), html.encode("utf-8") if isinstance(html, str) else html))
    return pages


def largest_pages(data: Path, count: int) -> list[tuple[str, bytes]]:
    """The ``count`` largest pages of each set (WCXB's gzip-compressed pages by their compressed size)."""
    out = []
    for folder in sorted(d for d in data.iterdir() if d.is_dir()):
        files = [*folder.glob("*.html"), *folder.glob("*.html.gz")]
        for path in sorted(files, key=lambda p: p.stat().st_size, reverse=True)[:count]:
            raw = path.read_bytes()
            html = gzip.decompress(raw) if path.suffix == ".gz" else raw
            out.append((f"{folder.name}/{path.name.split('.')[0][:40]}", html))
    return out


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise OSError(f"no {field} in /proc/self/status")


def peak_of(call: Any) -> tuple[Any, float, float]:
    """(result, peak bytes above the RSS before the call, seconds) of ``call()``."""
    release_free_memory()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM to the current RSS
    before = _status_kib("VmRSS")
    start = time.perf_counter()
    result = call()
    seconds = time.perf_counter() - start
    peak = _status_kib("VmHWM")
    return result, (peak - before) * 1024.0, seconds


def run_peaks(args: argparse.Namespace) -> int:
    from scrapy_bte import extract

    options: dict[str, Any] = {"max_bytes": None}
    if args.method is not None:
        options["method"] = args.method
    extract(one_word_paragraphs(200_000), **options)  # imports, model and caches loaded first
    pages = torture_pages() + largest_pages(args.data, args.largest)
    print(f"method {args.method or 'default'}: peak RSS of one extract() above the RSS before it\n")
    print("| page | KB | blocks | method | peak MiB | peak / size | s |")
    print("|---|---:|---:|---|---:|---:|---:|")
    failed = 0
    worst = 0.0
    for name, html in pages:
        try:
            result, peak, seconds = peak_of(lambda html=html: extract(html, **options))
            blocks, method = str(result.n_blocks), result.method
        except Exception as exc:  # noqa: BLE001 - reported in the row
            result, blocks, method, peak, seconds = None, "—", type(exc).__name__, 0.0, 0.0
        multiple = peak / len(html)
        if len(html) >= 1_000_000:
            worst = max(worst, multiple)
        if args.max_multiple is not None and peak > args.max_multiple * len(html) + 16 * MIB:
            failed += 1
        print(
            f"| {name} | {len(html) / 1e3:.0f} | {blocks} | {method} | {peak / MIB:.1f} | {multiple:.1f} | "
            f"{seconds:.2f} |",
            flush=True,
        )
    print(f"\nLargest peak / size among pages of 1 MB or more: {worst:.1f}")
    if failed:
        print(f"FAIL: {failed} page(s) above {args.max_multiple} times their size")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.peaks:
        return run_peaks(args)
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
