"""Quality and speed benchmark of scrapy_bte against peer extractors.

    python benchmarks/run.py [--data DIR] [--sets a,b] [--extractors x,y]
                             [--limit N] [--types t,u] [--repeat K] [--loso]
                             [--plugin MODULE] [--json out.json]

For every extractor (see ``extractors.py``; names accept globs such as
``'scrapy_bte.*'``) and every set it scores each page and times the
extraction calls only (files are read beforehand). Extractors get the raw
bytes and decode them themselves; an exception on a page counts as an empty
output and as an error.

**Timing: a single pass.** The headline speed is what a corpus job or a
crawl of many sites sees: each page is extracted once by every extractor,
interleaved page by page (the order of the extractors rotates from page to
page), timed in the thread's CPU time on one pinned core. Before the first
set each extractor runs ``--warmup`` times on pages that are in no set (a
probe page and the package's sample article), so imports and lazy set-up
are not timed but no page of a set is seen before it is timed. With
``--repeat K`` (K > 1) a second, *warm* table follows: after the single
pass each page goes through every extractor K more times and the fastest
call counts, with the per-site caches and the CPU's caches warm; it is
labelled as such and is not the headline.

**Quality.** Sets in the common layout (``<id>.html`` + ``<id>.txt``) are
scored with the shingle metric of ``scrapy_bte.training.evaluation``; sets
in WCXB's layout (``<id>.html.gz``, ``<id>.txt``, ``<id>.meta.json``) with
WCXB's own word metric, per page type (``wcxb.py``), and their pages'
``url`` is passed to the rows that take one (the scrapy_bte rows), as a
crawl would. ``--types`` keeps only those WCXB page types.

``--loso`` scores rows registered with ``register_factory`` leave-one-set-out:
the factory is called with the name of the set being scored and returns the
variant that was tuned without it (see ``extractors.py``).

Output (Markdown on stdout): the quality table of the common-layout sets
(per set F1/P/R, empty outputs, pages/s, MB/s; mean F1 over those sets;
the Spearman correlation between ``Extraction.confidence`` and per-page
F1; errors); the WCXB tables; the single-pass speed per set and over all
sets (WCXB included) and by page size, each row with pages/s, MB/s, the
speed as a multiple of ``resiliparse``'s (its time divided by the row's:
2.00 = twice as fast) and the distribution of the per-page time ratio to
``resiliparse`` (median, 90th percentile, worst); then the warm table with
``--repeat``. ``--json`` also writes the per-page scores and times.
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
    os.environ.setdefault(_var, "1")  # one core: set before numpy starts its thread pool

# Sibling modules import as top-level ones: Python puts a script's folder first on sys.path.
import extractors  # noqa: E402
import numpy as np  # noqa: E402
import wcxb  # noqa: E402
from common import DEFAULT_DATA, SetData, list_sets, load_set, pin_to_one_core, warmup_pages  # noqa: E402

from scrapy_bte.training.evaluation import PageScore, aggregate, score_page, spearman  # noqa: E402


@dataclass
class SetRun:
    """Scores and timing of one extractor on one set (one entry per page)."""

    scores: list[PageScore]
    confidences: list[float | None]
    errors: list[str | None]
    page_seconds: list[float]  # the single pass: each page's only timed call
    page_bytes: list[int]
    records: list[dict[str, Any]] = field(default_factory=list)  # WCXB sets: wcxb.page_record per page
    warm_seconds: list[float] = field(default_factory=list)  # --repeat: fastest warm call per page

    @property
    def seconds(self) -> float:
        return sum(self.page_seconds)

    def summary(self) -> dict[str, Any]:
        agg = aggregate(self.scores)
        seconds, nbytes = self.seconds, sum(self.page_bytes)
        return {
            **asdict(agg),
            "errors": sum(e is not None for e in self.errors),
            "seconds": seconds,
            "pages_per_s": len(self.page_seconds) / seconds if seconds else math.inf,
            "mb_per_s": nbytes / 1e6 / seconds if seconds else math.inf,
        }


@dataclass
class Row:
    """All sets of one extractor."""

    name: str
    entry: extractors.Entry
    runs: dict[str, SetRun] = field(default_factory=dict)

    def pooled_speed(self, sets: list[str]) -> tuple[float, float]:
        """(pages/s, MB/s) over the given sets together."""
        runs = [self.runs[name] for name in sets]
        seconds = sum(r.seconds for r in runs)
        pages = sum(len(r.page_seconds) for r in runs)
        nbytes = sum(sum(r.page_bytes) for r in runs)
        return (pages / seconds, nbytes / 1e6 / seconds) if seconds else (math.inf, math.inf)

    def mean_f1(self, sets: list[str]) -> float:
        f1s = [aggregate(self.runs[name].scores).f1 for name in sets]
        return sum(f1s) / len(f1s) if f1s else 0.0

    def confidence_spearman(self, sets: list[str]) -> float | None:
        """Spearman(confidence, page F1) over pages with gold text, if any."""
        pairs = [
            (c, s.f1)
            for name in sets
            for s, c in zip(self.runs[name].scores, self.runs[name].confidences)
            if c is not None and not s.gold_empty
        ]
        if not pairs:
            return None
        conf, f1 = zip(*pairs)
        return spearman(conf, f1)


#: The clock of the timed calls: the thread's CPU time by default, elapsed time with --clock wall.
CLOCK = time.thread_time


@dataclass(frozen=True)
class Runner:
    """One row's extractor for one set, and whether it takes the page's URL."""

    extractor: extractors.Extractor
    takes_url: bool

    def __call__(self, html: bytes, url: str | None) -> tuple[Any, float, str | None]:
        """Run one extraction: (output, seconds, error or None)."""
        start = CLOCK()
        try:
            output = self.extractor(html, url=url) if self.takes_url else self.extractor(html)
            error = None
        except Exception as exc:  # noqa: BLE001 - a crash is a result, not a bug here
            output, error = None, f"{type(exc).__name__}: {exc}"[:200]
        return output, CLOCK() - start, error


def warm_up(runners: list[Runner], times: int) -> None:
    """Imports, models and lazy set-up, on pages that are in no set."""
    for html in warmup_pages(extractors.PROBE_PAGE) * max(times, 0):
        for runner in runners:
            runner(html, None)


def _order(k: int, index: int) -> list[int]:
    """Extractor order for page ``index``: rotated, so none always follows the same one."""
    return [(index + j) % k for j in range(k)]


def single_pass(runners: list[Runner], data: SetData) -> list[SetRun]:
    """Every page once through every extractor before the next page, each call timed.

    Load that comes and goes on a shared machine hits every row alike, page
    by page; no page is seen twice, so per-site caches are as cold as on a
    crawl's first visit.
    """
    k = len(runners)
    sizes = [len(p.html) for p in data.pages]
    runs = [SetRun([], [], [], [0.0] * len(data.pages), sizes) for _ in range(k)]
    outputs: list[Any] = [None] * k
    for index, (page, url) in enumerate(zip(data.pages, data.urls)):
        for i in _order(k, index):
            outputs[i], runs[i].page_seconds[index], error = runners[i](page.html, url)
            runs[i].errors.append(error)
        for i, run in enumerate(runs):  # scoring is never timed
            text = extractors.output_text(outputs[i])
            run.scores.append(score_page(text, page.gold))
            run.confidences.append(extractors.output_confidence(outputs[i]))
            if data.wcxb is not None:
                predicted = getattr(outputs[i], "page_type", None)
                run.records.append(wcxb.page_record(text, predicted, data.wcxb[index]))
        outputs = [None] * k
    return runs


def warm_pass(runners: list[Runner], data: SetData, runs: list[SetRun], repeat: int) -> None:
    """After the single pass: ``repeat`` more calls per page and extractor, fastest kept."""
    k = len(runners)
    for run in runs:
        run.warm_seconds = [0.0] * len(data.pages)
    for index, (page, url) in enumerate(zip(data.pages, data.urls)):
        for i in _order(k, index):
            runs[i].warm_seconds[index] = min(runners[i](page.html, url)[1] for _ in range(repeat))


def fmt(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}"


def speed(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def table(rows: list[Row], sets: list[str]) -> str:
    """The Markdown quality table of the common-layout sets (one row per extractor)."""
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
        cells += [
            fmt(row.mean_f1(sets)),
            *map(speed, row.pooled_speed(sets)),
            fmt(row.confidence_spearman(sets), 2),
            str(errors),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: Page size bins of the size table, in bytes of HTML: (label, low, high). Fixed
#: costs per page show in the small bins, costs that grow faster than the page in the large ones.
SIZE_BINS = (
    ("< 25 KB", 0, 25_000),
    ("25-50 KB", 25_000, 50_000),
    ("50-100 KB", 50_000, 100_000),
    ("100-200 KB", 100_000, 200_000),
    ("200-500 KB", 200_000, 500_000),
    ("> 500 KB", 500_000, math.inf),
)
#: The reference row of the speed ratios, when it ran.
REFERENCE = "resiliparse"


def _reference(rows: list[Row]) -> Row | None:
    return next((r for r in rows if r.name == REFERENCE), None)


def _times(row: Row, sets: list[str], kind: str) -> np.ndarray:
    return np.array([t for name in sets for t in getattr(row.runs[name], kind)], dtype=float)


def speed_table(rows: list[Row], sets: list[str], kind: str = "page_seconds") -> str:
    """Per set, all sets together, then per size bin of all sets: one line per extractor.

    Columns: pages/s, MB/s, the speed as a multiple of the reference row's
    (its total time over the row's) and the per-page time ratio to the
    reference (row / reference: median, 90th percentile, worst), so a few
    slow pages show even where the total looks fine.
    """
    ref = _reference(rows)
    sizes = np.array([b for name in sets for b in rows[0].runs[name].page_bytes], dtype=float)
    set_of_page = np.array([name for name in sets for _ in rows[0].runs[name].page_bytes], dtype=object)
    groups: list[tuple[str, np.ndarray]] = [(name, set_of_page == name) for name in sets]
    if len(sets) > 1:
        groups.append(("all sets", np.ones(len(sizes), dtype=bool)))
    groups += [(f"all · {label}", (sizes >= low) & (sizes < high)) for label, low, high in SIZE_BINS]
    times = {row.name: _times(row, sets, kind) for row in rows}
    head = ["pages", "KB/page", "extractor", "p/s", "MB/s"]
    if ref:
        head += [f"× {REFERENCE}", "page time ÷ ref: median", "p90", "worst"]
    lines = ["| group | " + " | ".join(head) + " |", "|---|" + "---:|" * 2 + "---|" + "---:|" * (len(head) - 3)]
    for label, mask in groups:
        n = int(mask.sum())
        if not n:
            continue
        nbytes = float(sizes[mask].sum())
        for row in rows:
            seconds = float(times[row.name][mask].sum())
            cells = [label, str(n), f"{nbytes / n / 1e3:.0f}", row.name]
            cells += [speed(n / seconds), speed(nbytes / 1e6 / seconds)] if seconds else ["—", "—"]
            if ref:
                ref_times = times[ref.name][mask]
                ok = (ref_times > 0) & (times[row.name][mask] > 0)
                ratios = times[row.name][mask][ok] / ref_times[ok]
                cells.append(f"{float(ref_times.sum()) / seconds:.2f}" if seconds else "—")
                if len(ratios):
                    median, p90 = np.percentile(ratios, [50, 90])
                    cells += [f"{median:.2f}", f"{p90:.2f}", f"{ratios.max():.2f}"]
                else:
                    cells += ["—"] * 3
            lines.append(f"| {' | '.join(cells)} |")
    return "\n".join(lines)


def wcxb_rows(rows: list[Row], name: str) -> dict[str, tuple[list[dict[str, Any]], list[float]]]:
    return {row.name: (row.runs[name].records, row.runs[name].page_seconds) for row in rows}


def to_json(rows: list[Row], data: dict[str, SetData], args: argparse.Namespace) -> dict[str, Any]:
    """Everything needed to re-analyse a run without re-running it."""
    quality_sets = [name for name, d in data.items() if d.wcxb is None]
    out: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}, "rows": {}}
    for row in rows:
        sets = {}
        for name, run in row.runs.items():
            per_page = []
            for i, page in enumerate(data[name].pages):
                s = run.scores[i]
                entry = {
                    "page": page.name,
                    "precision": s.precision,
                    "recall": s.recall,
                    "f1": s.f1,
                    "empty": s.empty,
                    "gold_empty": s.gold_empty,
                    "confidence": run.confidences[i],
                    "error": run.errors[i],
                    "bytes": run.page_bytes[i],
                    "seconds": run.page_seconds[i],
                }
                if run.warm_seconds:
                    entry["warm_seconds"] = run.warm_seconds[i]
                if run.records:
                    entry["wcxb"] = run.records[i]
                per_page.append(entry)
            sets[name] = {**run.summary(), "per_page": per_page}
            if run.records:
                sets[name]["wcxb"] = wcxb.summaries({row.name: (run.records, run.page_seconds)})[row.name]
        out["rows"][row.name] = {
            "kind": row.entry.kind,
            "version": row.entry.version,
            "mean_f1": row.mean_f1(quality_sets),
            "spearman_confidence_f1": row.confidence_spearman(quality_sets),
            "sets": sets,
        }
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the sets (default: %(default)s)")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--extractors", default="", help="comma-separated names or globs (default: all available)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--types", default="", help="comma-separated WCXB page types to keep (default: all)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="K > 1 adds the warm table: fastest of K further calls per page"
    )
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls on the warm-up pages (in no set)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="cpu",
        help="cpu: this thread's CPU time (default; steadier on a loaded machine); wall: elapsed time",
    )
    # Timing is always interleaved now; the flag of older commands is accepted and changes nothing.
    parser.add_argument("--interleave", action="store_true", help=argparse.SUPPRESS)
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
    data = {name: load_set(args.data / name, args.limit, split(args.types)) for name in sets}
    print(f"cpu {cpu}; sets: " + ", ".join(f"{n} ({len(d.pages)})" for n, d in data.items()), file=sys.stderr)
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" else time.perf_counter
    rows = [Row(e.name + (" (loso)" if args.loso and e.loso else ""), e) for e in entries]
    warm_up([Runner(e.factory(None), e.takes_url) for e in entries], args.warmup)
    for name in sets:
        runners = [Runner(e.factory(name if args.loso and e.loso else None), e.takes_url) for e in entries]
        runs = single_pass(runners, data[name])
        if args.repeat > 1:
            warm_pass(runners, data[name], runs, args.repeat)
        for row, run in zip(rows, runs):
            row.runs[name] = run
            s = run.summary()
            print(
                f"{row.name:<24} {name:<16} F1 {s['f1']:.3f}  {s['seconds']:7.1f} s  errors {s['errors']}",
                file=sys.stderr,
                flush=True,
            )
    quality_sets = [name for name in sets if data[name].wcxb is None]
    if quality_sets:
        print("Quality (shingle metric) and single-pass speed of the common-layout sets:\n")
        print(table(rows, quality_sets))
    for name in sets:
        if data[name].wcxb is not None:
            print("\n" + wcxb.report(wcxb_rows(rows, name), name))
    clock = "thread CPU time" if args.clock == "cpu" else "elapsed time"
    print(
        f"\nSpeed, single pass (the headline): each page once per extractor, interleaved page by page, "
        f"{clock}, one core (cpu {cpu}); × {REFERENCE} = how many times as fast; page time ÷ ref = "
        "per-page time over the reference's (1.00 = as fast, above = slower):\n"
    )
    print(speed_table(rows, sets))
    if args.repeat > 1:
        print(
            f"\nSpeed, warm repeats (not the headline): after the single pass, fastest of {args.repeat} "
            "further calls per page, per-site and CPU caches warm:\n"
        )
        print(speed_table(rows, sets, kind="warm_seconds"))
    versions = ", ".join(f"{e.name} {e.version}" for e in entries if e.version)
    print(f"\nVersions: {versions}. Warm-up {args.warmup} on pages in no set, limit {args.limit}.")
    if args.json:
        args.json.write_text(json.dumps(to_json(rows, data, args), indent=1, allow_nan=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
