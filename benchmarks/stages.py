"""Where the time of one extraction goes: seconds per stage, per set, and the fixed cost per page.

    python benchmarks/stages.py [--data DIR] [--sets a,b] [--method auto]
                                [--limit N] [--repeat K] [--smallest N] [--minimal N]

Runs ``scrapy_bte.extract()`` on every page of each set on one pinned core
(files read first; the warm-up runs on pages that are in no set) and
attributes the time to stages by timing the library's own stage functions
as they are called, so the table follows the code rather than a copy of it:

| stage | function(s) timed |
| --- | --- |
| decode | bytes to text (``core.decode.to_unicode``) |
| step 0 | dropping comments, scripts, styles (``core.document.step0``, ``core.meta.meta_content``) |
| cut | cutting the markup at tags (``core.document.scan``) |
| blocks | the rest of ``core.document.build``: block arrays and texts |
| span | BTE's token runs and best span (``methods.bte.document_span``) |
| tree | the element skeleton and its class hints, built on first use and shared by the page type, the features and the rules (``core.document._skeleton``, ``evidence.hints.element_bits``, ``evidence.hints.block_hints``) |
| page type | the page-type classifier's own evidence and model (``learned.page_type.classify``) |
| features | the learned features (``learned.features.block_features``) |
| model | both model stages (``BlockModel.predict_document``, features excluded) |
| selection | the method's choice of blocks once it has its inputs (rest of ``auto.select``, ``hybrid.select``, ...) |
| fields | article fields and title read from markup (every ``scrapy_bte.fields`` function ``api`` calls) |
| other | the rest of ``extract()``: options, result, confidence |

A stage called inside another is counted once, in the inner stage, except
inside the features, which own the BTE and ``hybrid`` columns they compute.

**Single pass** (the default): each page is extracted once, timed in the
thread's CPU time, as a crawl of many sites first sees it (per-site caches
cold). ``--repeat K`` (K > 1) instead keeps the fastest of K passes per set,
with the caches warm from the first pass, and says so in the heading.

**Fixed cost per page**: what does not grow with the page (option checks,
dispatch, object creation, set-up of fields and fingerprints, cache misses
on a page's first strings), per stage, three ways: ``extract()`` on
``--minimal`` distinct minimal pages (a few hundred bytes, each with its own
words and class names so that no cache hits); the intercept of a
least-squares line of each page's stage time against its size over the
single pass (with the slope, the part that grows); and the mean stage times
of the ``--smallest`` pages of all sets, with the share of their time the
minimal-page cost explains.

Output: a Markdown table of milliseconds per page per stage and the MB/s of
the whole call, per set and for all sets together; then the fixed-cost
table. ``--clock wall`` times elapsed time instead of CPU time.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# A sibling module, importable because Python puts a script's folder first on sys.path.
import numpy as np  # noqa: E402
from common import DEFAULT_DATA, SetData, list_sets, load_set, pin_to_one_core, warmup_pages  # noqa: E402

#: Stages that count what they call as their own time: the features run
#: BTE and ``hybrid`` as feature columns.
ABSORBING = frozenset({"features"})
STAGES = (
    "decode",
    "step 0",
    "cut",
    "blocks",
    "span",
    "tree",
    "page type",
    "features",
    "model",
    "selection",
    "fields",
    "other",
)


class StageClock:
    """Exclusive time per stage: a stage's clock pauses while an inner stage runs."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.totals: dict[str, float] = defaultdict(float)
        self._stack: list[list[Any]] = []  # [stage, started, inner seconds]

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        if getattr(fn, "__stage__", None) is not None:
            return fn

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._stack and self._stack[-1][0] in ABSORBING:
                return fn(*args, **kwargs)  # part of the learned features (e.g. the hybrid column)
            frame = [stage, self.clock(), 0.0]
            self._stack.append(frame)
            try:
                return fn(*args, **kwargs)
            finally:
                self._stack.pop()
                spent = self.clock() - frame[1]
                self.totals[stage] += spent - frame[2]
                if self._stack:
                    self._stack[-1][2] += spent

        timed.__stage__ = stage  # type: ignore[attr-defined]
        return timed


def _replace_everywhere(original: Any, timed: Any) -> int:
    """Point every scrapy_bte module's global that holds ``original`` at ``timed``."""
    count = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("scrapy_bte") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                setattr(module, attr, timed)
                count += 1
    return count


#: (module, function, stage): the stage functions, wherever their callers import them from.
PLAN = (
    ("scrapy_bte.core.decode", "to_unicode", "decode"),
    ("scrapy_bte.core.document", "step0", "step 0"),
    ("scrapy_bte.core.document", "meta_content", "step 0"),
    ("scrapy_bte.core.document", "scan", "cut"),
    ("scrapy_bte.core.document", "build", "blocks"),
    ("scrapy_bte.methods.bte", "document_span", "span"),
    ("scrapy_bte.core.document", "_skeleton", "tree"),
    ("scrapy_bte.evidence.hints", "element_bits", "tree"),
    ("scrapy_bte.evidence.hints", "block_hints", "tree"),
    ("scrapy_bte.learned.page_type", "classify", "page type"),
    ("scrapy_bte.learned.features", "block_features", "features"),
    ("scrapy_bte.learned.features", "context_features", "model"),
    ("scrapy_bte.methods.hybrid", "select", "selection"),
    ("scrapy_bte.learned.auto", "select", "selection"),
    ("scrapy_bte.methods.density", "keep_mask", "selection"),
    ("scrapy_bte.methods.comments", "apply", "selection"),
)


def instrument(clock: StageClock) -> list[str]:
    """Wrap the stage functions where their callers look them up; return what was wrapped."""
    importlib.import_module("scrapy_bte.api")
    wrapped = []
    for module_name, name, stage in PLAN:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        original = getattr(module, name, None)
        if callable(original) and _replace_everywhere(original, clock.wrap(stage, original)):
            wrapped.append(f"{module_name}.{name}")
    model_mod = importlib.import_module("scrapy_bte.learned.model")
    model_mod.BlockModel.predict_document = clock.wrap("model", model_mod.BlockModel.predict_document)
    wrapped.append("BlockModel.predict_document")
    # Fields: every public function of scrapy_bte.fields that the rest of the package calls.
    for name, module in list(sys.modules.items()):
        if not name.startswith("scrapy_bte.fields") or module is None:
            continue
        for attr, fn in list(vars(module).items()):
            public = callable(fn) and not attr.startswith("_") and not isinstance(fn, type)
            if public and getattr(fn, "__module__", "") == name and _replace_everywhere(fn, clock.wrap("fields", fn)):
                wrapped.append(f"{name}.{attr}")
    return wrapped


#: A minimal page: one title, one short paragraph, words and class names of its own.
MINIMAL = (
    "<!doctype html><html><head><meta charset='utf-8'><title>Note {i} of the day</title></head>"
    "<body><nav class='nav{i}'><a href='/'>Home</a> <a href='/n{i}'>Notes</a></nav>"
    "<div class='post{i}'><h1>Note {i}</h1><p>Word{i} alpha{i} beta{i} gamma{i} delta{i} went to the market "
    "and came back with {i} apples, which is more than anyone needed.</p></div>"
    "<footer class='foot{i}'>Site {i}</footer></body></html>"
)


def minimal_pages(n: int) -> list[bytes]:
    return [MINIMAL.format(i=i).encode() for i in range(n)]


def timed_pages(
    extract: Callable[..., Any], clock: StageClock, pages: list[bytes], method: str
) -> tuple[np.ndarray, np.ndarray]:
    """Each page once: (total seconds per page, seconds per page per stage, in ``STAGES`` order)."""
    totals = np.zeros(len(pages))
    stages = np.zeros((len(pages), len(STAGES)))
    other = STAGES.index("other")
    for index, html in enumerate(pages):
        clock.totals.clear()
        start = clock.clock()
        try:
            extract(html, method=method)
        except Exception:  # noqa: BLE001 - an error page still took its time
            pass
        totals[index] = clock.clock() - start
        for column, stage in enumerate(STAGES):
            stages[index, column] = clock.totals.get(stage, 0.0)
        stages[index, other] = max(0.0, totals[index] - stages[index].sum())
    return totals, stages


def run_set(
    extract: Callable[..., Any], clock: StageClock, data: SetData, method: str, repeat: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per page (total seconds, seconds per stage): the single pass, or the fastest of ``repeat`` passes."""
    html = [page.html for page in data.pages]
    best = timed_pages(extract, clock, html, method)
    for _ in range(repeat - 1):
        attempt = timed_pages(extract, clock, html, method)
        if attempt[0].sum() < best[0].sum():
            best = attempt
    return best


def _ms(seconds: float) -> str:
    return f"{1e3 * seconds:.2f}"


def fixed_cost_table(
    minimal: tuple[np.ndarray, np.ndarray], sizes: np.ndarray, stages: np.ndarray, smallest: int
) -> str:
    """Per stage: minimal-page cost, fitted intercept and slope, smallest pages' cost."""
    kb = sizes / 1e3
    design = np.column_stack([np.ones_like(kb), kb])
    totals = stages.sum(axis=1)
    fit, *_ = np.linalg.lstsq(design, np.column_stack([stages, totals]), rcond=None)
    small = np.argsort(sizes, kind="stable")[: max(1, smallest)]
    min_stages = minimal[1].mean(axis=0)
    small_stages = stages[small].mean(axis=0)
    lines = [
        f"Fixed cost per page, ms: minimal pages ({len(minimal[0])} distinct, "
        f"{np.mean([len(MINIMAL.format(i=i)) for i in range(len(minimal[0]))]):.0f} bytes); "
        f"least-squares intercept and slope over all {len(sizes)} pages; "
        f"the {len(small)} smallest pages ({kb[small].mean():.0f} KB on average)\n",
        "| stage | minimal page | fit: intercept | fit: per 100 KB | smallest pages | of which fixed |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for column, stage in enumerate((*STAGES, "total")):
        own = min_stages.sum() if stage == "total" else min_stages[column]
        spent = small_stages.sum() if stage == "total" else small_stages[column]
        share = f"{100 * min(own / spent, 1.0):.0f} %" if spent > 0 else "—"
        cells = [stage, _ms(own), _ms(fit[0, column]), _ms(100 * fit[1, column]), _ms(spent), share]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--method", default="auto")
    parser.add_argument(
        "--no-page-type",
        dest="page_type",
        action="store_false",
        help="extract(page_type=False): bte, hybrid and density without the page-type classifier",
    )
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument(
        "--repeat", type=int, default=1, help="1: single pass (default); K > 1: fastest of K passes, caches warm"
    )
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls on pages in no set")
    parser.add_argument("--smallest", type=int, default=50, help="pages in the smallest-pages column")
    parser.add_argument("--minimal", type=int, default=200, help="distinct minimal pages timed for the fixed cost")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="cpu",
        help="cpu: this thread's CPU time (default; steadier on a loaded machine); wall: elapsed time",
    )
    args = parser.parse_args(argv)

    cpu = pin_to_one_core()
    clock = StageClock(time.thread_time if args.clock == "cpu" else time.perf_counter)
    wrapped = instrument(clock)
    from scrapy_bte import api

    extract = functools.partial(api.extract, page_type=args.page_type)

    sets = list_sets(args.data, [s.strip() for s in args.sets.split(",") if s.strip()])
    data = {name: load_set(args.data / name, args.limit) for name in sets}
    for _ in range(max(args.warmup, 0)):
        for html in warmup_pages(MINIMAL.format(i="warm").encode()):
            extract(html, method=args.method)
    minimal = timed_pages(extract, clock, minimal_pages(args.minimal), args.method)
    rows: list[tuple[str, int, int, float, dict[str, float]]] = []
    all_sizes, all_stages_per_page = [], []
    for name in sets:
        totals, stages = run_set(extract, clock, data[name], args.method, max(1, args.repeat))
        sizes = [len(p.html) for p in data[name].pages]
        all_sizes += sizes
        all_stages_per_page.append(stages)
        per_stage = {stage: float(stages[:, i].sum()) for i, stage in enumerate(STAGES)}
        rows.append((name, len(sizes), sum(sizes), float(totals.sum()), per_stage))
        print(f"{name:<16} {len(sizes):5d} pages {totals.sum():6.2f} s", file=sys.stderr, flush=True)
    all_stages: dict[str, float] = defaultdict(float)
    for *_, stages in rows:
        for key, value in stages.items():
            all_stages[key] += value
    rows.append(("all", sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows), all_stages))

    head = ["set", "pages", "KB/page", *(f"{s} ms" for s in STAGES), "total ms", "MB/s"]
    passes = "single pass, each page once" if args.repeat <= 1 else f"fastest of {args.repeat} passes, caches warm"
    print(
        f"method {args.method}{'' if args.page_type else ', page_type=False'}: milliseconds per page per stage"
        f" ({args.clock} time), one core (cpu {cpu}), {passes}\n"
    )
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for name, n, nbytes, total, stages in rows:
        cells = [name, str(n), f"{nbytes / n / 1e3:.0f}"]
        cells += [f"{1e3 * stages.get(s, 0.0) / n:.2f}" for s in STAGES]
        cells += [f"{1e3 * total / n:.2f}", f"{nbytes / 1e6 / total:.0f}"]
        print("| " + " | ".join(cells) + " |")
    print(
        "\nShare of the time per stage (all sets): "
        + ", ".join(f"{s} {100 * all_stages.get(s, 0.0) / rows[-1][3]:.0f} %" for s in STAGES)
    )
    print()
    print(fixed_cost_table(minimal, np.array(all_sizes, dtype=float), np.vstack(all_stages_per_page), args.smallest))
    print(f"Timed functions: {', '.join(wrapped)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
