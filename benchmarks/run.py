"""Quality and speed benchmark of scrapy_bte against peer extractors.

    python benchmarks/run.py [--data DIR] [--sets a,b] [--extractors x,y]
                             [--limit N] [--repeat K] [--loso]
                             [--plugin MODULE] [--json out.json]

For every extractor (see ``extractors.py``; names accept globs such as
``'scrapy_bte.*'``) and every set it scores each page with the metric of
``scrapy_bte.training.evaluation`` and times the extraction calls only (files are read
beforehand; the first ``--warmup`` pages are run once untimed). The process
pins itself to one core so pages/s is a one-core figure; with ``--repeat K``
the timed pass is repeated and the fastest pass is kept (scores come from the
first). Extractors get the raw bytes and decode them themselves. An
exception on a page counts as an empty output and is counted as an error.

``--loso`` scores rows registered with ``register_factory`` leave-one-set-out:
the factory is called with the name of the set being scored and returns the
variant that was tuned without it (see ``extractors.py``).

Output: a Markdown table (stdout) with, per set, F1/P/R, the number of empty
outputs and pages/s and MB/s (10^6 bytes of HTML per second), then the mean
F1 over sets, pages/s and MB/s over all sets together, the Spearman correlation between ``Extraction.confidence`` and
per-page F1 over all scored pages (scrapy_bte rows), and the number of
pages that raised. Then two speed tables: per set and over all sets, and
by page size (under 50 KB, 50-200 KB, over 200 KB, all sets together), each
with the ratio to ``resiliparse`` when that row ran (its time divided by
the row's: 2.00 means twice as fast). ``--json`` also writes the per-page
scores and times.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: no thread pools fighting over it

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import extractors  # noqa: E402

from scrapy_bte.training.evaluation import Page, PageScore, aggregate, load_dataset, score_page, spearman  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "datasets"


@dataclass
class SetRun:
    """Scores and timing of one extractor on one set."""

    scores: list[PageScore]
    confidences: list[float | None]
    errors: list[str | None]
    seconds: float
    nbytes: int
    page_seconds: list[float] = field(default_factory=list)  # of the fastest pass
    page_bytes: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        agg = aggregate(self.scores)
        return {
            **asdict(agg),
            "errors": sum(e is not None for e in self.errors),
            "seconds": self.seconds,
            "pages_per_s": len(self.scores) / self.seconds if self.seconds else math.inf,
            "mb_per_s": self.nbytes / 1e6 / self.seconds if self.seconds else math.inf,
        }


@dataclass
class Row:
    """All sets of one extractor."""

    name: str
    entry: extractors.Entry
    runs: dict[str, SetRun] = field(default_factory=dict)

    def pooled_speed(self) -> tuple[float, float]:
        """(pages/s, MB/s) over all sets together."""
        seconds = sum(r.seconds for r in self.runs.values())
        pages = sum(len(r.scores) for r in self.runs.values())
        nbytes = sum(r.nbytes for r in self.runs.values())
        return (pages / seconds, nbytes / 1e6 / seconds) if seconds else (math.inf, math.inf)

    def mean_f1(self) -> float:
        f1s = [aggregate(r.scores).f1 for r in self.runs.values()]
        return sum(f1s) / len(f1s) if f1s else 0.0

    def confidence_spearman(self) -> float | None:
        """Spearman(confidence, page F1) over pages with gold text, if any."""
        pairs = [
            (c, s.f1)
            for run in self.runs.values()
            for s, c in zip(run.scores, run.confidences)
            if c is not None and not s.gold_empty
        ]
        if not pairs:
            return None
        conf, f1 = zip(*pairs)
        return spearman(conf, f1)


def pin_to_one_core() -> int:
    """Restrict this process to its first allowed CPU; return that CPU."""
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


#: The clock of the timed calls: elapsed time by default, the thread's CPU time with --clock cpu.
CLOCK = time.perf_counter


def call(extractor: extractors.Extractor, html: bytes) -> tuple[Any, float, str | None]:
    """Run one extraction: (output, seconds, error or None)."""
    start = CLOCK()
    try:
        output = extractor(html)
        error = None
    except Exception as exc:  # noqa: BLE001 - a crash is a result, not a bug here
        output, error = None, f"{type(exc).__name__}: {exc}"[:200]
    return output, CLOCK() - start, error


def run_set(extractor: extractors.Extractor, pages: list[Page], repeat: int, warmup: int) -> SetRun:
    """Warm up, then score the first timed pass and keep the fastest pass."""
    for page in pages[:warmup]:
        call(extractor, page.html)
    scores, confidences, errors, best, best_pages = [], [], [], math.inf, []
    for attempt in range(max(1, repeat)):
        elapsed = 0.0
        times = []
        for page in pages:
            output, seconds, error = call(extractor, page.html)
            elapsed += seconds
            times.append(seconds)
            if attempt == 0:
                scores.append(score_page(extractors.output_text(output), page.gold))
                confidences.append(extractors.output_confidence(output))
                errors.append(error)
        if elapsed < best:
            best, best_pages = elapsed, times
    sizes = [len(p.html) for p in pages]
    return SetRun(scores, confidences, errors, best, sum(sizes), best_pages, sizes)


def run_set_interleaved(
    extractors_: list[extractors.Extractor], pages: list[Page], repeat: int, warmup: int
) -> list[SetRun]:
    """Every page through every extractor before the next page, ``repeat`` calls each, fastest kept.

    Load that comes and goes on a shared machine then hits every row alike,
    page by page, instead of whichever row happened to run during it.
    """
    for page in pages[:warmup]:
        for extractor in extractors_:
            call(extractor, page.html)
    k = len(extractors_)
    scores: list[list[PageScore]] = [[] for _ in range(k)]
    confidences: list[list[float | None]] = [[] for _ in range(k)]
    errors: list[list[str | None]] = [[] for _ in range(k)]
    times: list[list[float]] = [[] for _ in range(k)]
    for page in pages:
        for i, extractor in enumerate(extractors_):
            output, best, error = call(extractor, page.html)
            scores[i].append(score_page(extractors.output_text(output), page.gold))
            confidences[i].append(extractors.output_confidence(output))
            errors[i].append(error)
            for _ in range(max(1, repeat) - 1):
                best = min(best, call(extractor, page.html)[1])
            times[i].append(best)
    sizes = [len(p.html) for p in pages]
    return [SetRun(scores[i], confidences[i], errors[i], sum(times[i]), sum(sizes), times[i], sizes) for i in range(k)]


def list_sets(data: Path, wanted: list[str]) -> list[str]:
    available = sorted(p.name for p in data.iterdir() if p.is_dir() and any(p.glob("*.txt")))
    missing = [s for s in wanted if s not in available]
    if missing:
        raise SystemExit(f"unknown set(s) {missing}; available: {available}")
    return wanted or available


def fmt(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}"


def speed(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def table(rows: list[Row], sets: list[str]) -> str:
    """The Markdown result table (one row per extractor)."""
    head = ["extractor"]
    for name in sets:
        head += [f"{name} F1", "P", "R", "empty", "p/s", "MB/s"]
    head += ["mean F1", "all p/s", "all MB/s", "ρ(conf,F1)", "errors"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1)]
    for row in rows:
        cells = [row.name]
        errors = 0
        for name in sets:
            s = row.runs[name].summary()
            errors += s["errors"]
            cells += [
                fmt(s["f1"]),
                fmt(s["precision"]),
                fmt(s["recall"]),
                str(s["empty"]),
                speed(s["pages_per_s"]),
                speed(s["mb_per_s"]),
            ]
        cells += [fmt(row.mean_f1()), *map(speed, row.pooled_speed()), fmt(row.confidence_spearman(), 2), str(errors)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: Page size bins of the size table, in bytes of HTML: (label, low, high).
SIZE_BINS = (("< 50 KB", 0, 50_000), ("50-200 KB", 50_000, 200_000), ("> 200 KB", 200_000, math.inf))
#: The reference row of the speed ratios, when it ran.
REFERENCE = "resiliparse"


def _reference(rows: list[Row]) -> Row | None:
    return next((r for r in rows if r.name == REFERENCE), None)


def speed_table(rows: list[Row], sets: list[str]) -> str:
    """MB/s per set and over all sets, and each as a multiple of the reference row's."""
    ref = _reference(rows)
    head = ["extractor"]
    for name in sets:
        head += [f"{name} p/s", "MB/s"] + ([f"× {REFERENCE}"] if ref else [])
    head += ["all p/s", "all MB/s"] + ([f"all × {REFERENCE}"] if ref else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1)]
    for row in rows:
        cells = [row.name]
        for name in sets:
            s = row.runs[name].summary()
            cells += [speed(s["pages_per_s"]), speed(s["mb_per_s"])]
            if ref:
                cells.append(f"{ref.runs[name].seconds / row.runs[name].seconds:.2f}")
        pages_s, mb_s = row.pooled_speed()
        cells += [speed(pages_s), speed(mb_s)]
        if ref:
            cells.append(f"{sum(r.seconds for r in ref.runs.values()) / sum(r.seconds for r in row.runs.values()):.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def size_table(rows: list[Row], sets: list[str]) -> str:
    """Speed by page size, all sets together: costs that grow faster than the
    page show in the large bins long before they move the average."""
    ref = _reference(rows)

    def binned(row: Row, low: float, high: float) -> tuple[int, int, float]:
        pages = nbytes = 0
        seconds = 0.0
        for name in sets:
            run = row.runs[name]
            for size, secs in zip(run.page_bytes, run.page_seconds):
                if low <= size < high:
                    pages += 1
                    nbytes += size
                    seconds += secs
        return pages, nbytes, seconds

    counts = [binned(rows[0], low, high)[:2] for _, low, high in SIZE_BINS]
    head = ["extractor"]
    for (label, _, _), (n, nbytes) in zip(SIZE_BINS, counts):
        head += [f"{label} ({n} pages, {nbytes / max(n, 1) / 1e3:.0f} KB avg) p/s", "MB/s"]
        head += [f"× {REFERENCE}"] if ref else []
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1)]
    for row in rows:
        cells = [row.name]
        for _, low, high in SIZE_BINS:
            n, nbytes, seconds = binned(row, low, high)
            cells += [speed(n / seconds), speed(nbytes / 1e6 / seconds)] if seconds else ["—", "—"]
            if ref:
                ref_seconds = binned(ref, low, high)[2]
                cells.append(f"{ref_seconds / seconds:.2f}" if seconds else "—")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def to_json(rows: list[Row], pages: dict[str, list[Page]], args: argparse.Namespace) -> dict[str, Any]:
    """Everything needed to re-analyse a run without re-running it."""
    out: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}, "rows": {}}
    for row in rows:
        sets = {}
        for name, run in row.runs.items():
            per_page = [
                {
                    "page": p.name,
                    "precision": s.precision,
                    "recall": s.recall,
                    "f1": s.f1,
                    "empty": s.empty,
                    "gold_empty": s.gold_empty,
                    "confidence": c,
                    "error": e,
                    "bytes": b,
                    "seconds": t,
                }
                for p, s, c, e, b, t in zip(
                    pages[name], run.scores, run.confidences, run.errors, run.page_bytes, run.page_seconds
                )
            ]
            sets[name] = {**run.summary(), "per_page": per_page}
        out["rows"][row.name] = {
            "kind": row.entry.kind,
            "version": row.entry.version,
            "mean_f1": row.mean_f1(),
            "spearman_confidence_f1": row.confidence_spearman(),
            "sets": sets,
        }
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the sets (default: %(default)s)")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--extractors", default="", help="comma-separated names or globs (default: all available)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=1, help="timed passes; the fastest is reported")
    parser.add_argument("--warmup", type=int, default=3, help="untimed pages run first per set")
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="each page through every extractor in turn, fastest of --repeat calls per page (shared machines)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: elapsed time; cpu: this thread's CPU time (steadier on a loaded machine)",
    )
    parser.add_argument("--loso", action="store_true", help="leave-one-set-out for factory rows")
    parser.add_argument("--plugin", action="append", default=[], help="module that registers more rows")
    parser.add_argument("--json", type=Path, help="write summaries and per-page scores here")
    return parser.parse_args(argv)


def split(csv: str) -> list[str]:
    return [x.strip() for x in csv.split(",") if x.strip()]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.disable(logging.CRITICAL)  # peers log a traceback per failed page; errors are counted
    cpu = pin_to_one_core()
    for module in args.plugin:
        importlib.import_module(module)
    entries = extractors.select(split(args.extractors))
    for note in extractors.NOTES:
        print(f"note: {note}", file=sys.stderr)
    if not entries:
        raise SystemExit("no extractor to run")
    sets = list_sets(args.data, split(args.sets))
    pages = {name: load_dataset(args.data / name, args.limit) for name in sets}
    print(f"cpu {cpu}; sets: " + ", ".join(f"{n} ({len(p)})" for n, p in pages.items()), file=sys.stderr)
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" else time.perf_counter
    rows = [Row(e.name + (" (loso)" if args.loso and e.loso else ""), e) for e in entries]
    if args.interleave:
        for name in sets:
            made = [e.factory(name if args.loso and e.loso else None) for e in entries]
            for row, run in zip(rows, run_set_interleaved(made, pages[name], args.repeat, args.warmup)):
                row.runs[name] = run
                s = run.summary()
                print(
                    f"{row.name:<24} {name:<16} F1 {s['f1']:.3f}  {s['seconds']:7.1f} s  errors {s['errors']}",
                    file=sys.stderr,
                    flush=True,
                )
    for row in [] if args.interleave else rows:
        entry = row.entry
        loso = args.loso and entry.loso
        for name in sets:
            extractor = entry.factory(name if loso else None)
            row.runs[name] = run_set(extractor, pages[name], args.repeat, args.warmup)
            s = row.runs[name].summary()
            print(
                f"{row.name:<24} {name:<16} F1 {s['f1']:.3f}  {s['seconds']:7.1f} s  errors {s['errors']}",
                file=sys.stderr,
                flush=True,
            )
    print(table(rows, sets))
    print("\nSpeed per set (one core; × = how many times as fast as the reference):\n")
    print(speed_table(rows, sets))
    print("\nSpeed by page size, all sets together:\n")
    print(size_table(rows, sets))
    versions = ", ".join(f"{e.name} {e.version}" for e in entries if e.version)
    timing = "interleaved page by page, fastest call per page" if args.interleave else "fastest pass per set"
    print(
        f"\nVersions: {versions}. One core (cpu {cpu}), repeat {args.repeat} ({timing}), {args.clock} clock, "
        f"limit {args.limit}."
    )
    if args.json:
        args.json.write_text(json.dumps(to_json(rows, pages, args), indent=1, allow_nan=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
