"""Where the time of one extraction goes: seconds per stage, per set.

    python benchmarks/stages.py [--data DIR] [--sets a,b] [--method auto]
                                [--limit N] [--repeat 3]

Runs ``scrapy_bte.extract()`` on every page of each set on one pinned core
(files read first, a few pages run untimed first) and attributes the time
to stages by timing the library's own stage functions as they are called,
so the table follows the code rather than a copy of it:

| stage | function(s) timed |
| --- | --- |
| decode | bytes to text (``core.decode.to_unicode``) |
| step 0 | dropping comments, scripts, styles (``core.document.step0``, ``meta_content``) |
| cut | cutting the markup at tags (``core.document.scan``) |
| blocks | the rest of ``core.document.build``: block arrays and texts |
| span | BTE's token runs and best span (``methods.bte.document_span``) |
| features | the learned features (``learned.features.block_features``) |
| model | both model stages (``BlockModel.predict_document``, features excluded) |
| selection | the method's choice of blocks once it has its inputs (rest of ``auto.select``, ``hybrid.select``, ...) |
| fields | article fields and title read from markup (every ``scrapy_bte.fields`` function ``api`` calls) |
| other | the rest of ``extract()``: options, result, confidence |

A stage called inside another is counted once, in the inner stage, except
inside the features, which own the BTE and ``hybrid`` columns they compute. With
``--repeat K`` the fastest of K passes is kept per set (stage shares come
from that pass). ``--clock cpu`` times the thread's CPU time instead of
elapsed time: on a loaded machine the time spent waiting for the core then
does not land in whichever stage was running. Output: one Markdown table of milliseconds per page per
stage and the MB/s of the whole call, per set and for all sets together.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scrapy_bte.training.evaluation import Page, load_dataset  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "datasets"
#: Stages that count what they call as their own time: the features run
#: BTE and ``hybrid`` as feature columns.
ABSORBING = frozenset({"features"})
STAGES = ("decode", "step 0", "cut", "blocks", "span", "features", "model", "selection", "fields", "other")


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


def run_set(
    extract: Callable[..., Any], clock: StageClock, pages: list[Page], method: str, repeat: int, warmup: int = 3
) -> tuple[float, dict[str, float]]:
    """(total seconds, seconds per stage) of the fastest pass over ``pages``."""
    for page in pages[:warmup]:
        extract(page.html, method=method)
    best: tuple[float, dict[str, float]] = (math.inf, {})
    for _ in range(max(1, repeat)):
        clock.totals.clear()
        total = 0.0
        for page in pages:
            start = clock.clock()
            try:
                extract(page.html, method=method)
            except Exception:  # noqa: BLE001 - an error page still took its time
                pass
            total += clock.clock() - start
        if total < best[0]:
            stages = dict(clock.totals)
            stages["other"] = max(0.0, total - sum(stages.values()))
            best = (total, stages)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--method", default="auto")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=1, help="passes; the fastest is reported")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: elapsed time; cpu: this thread's CPU time (steadier on a loaded machine)",
    )
    args = parser.parse_args(argv)

    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    clock = StageClock(time.thread_time if args.clock == "cpu" else time.perf_counter)
    wrapped = instrument(clock)
    from scrapy_bte import api

    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    sets = wanted or sorted(p.name for p in args.data.iterdir() if p.is_dir() and any(p.glob("*.txt")))
    rows: list[tuple[str, int, int, float, dict[str, float]]] = []
    for name in sets:
        pages = load_dataset(args.data / name, args.limit)
        total, stages = run_set(api.extract, clock, pages, args.method, args.repeat)
        rows.append((name, len(pages), sum(len(p.html) for p in pages), total, stages))
        print(f"{name:<16} {len(pages):5d} pages {total:6.2f} s", file=sys.stderr, flush=True)
    all_stages: dict[str, float] = defaultdict(float)
    for *_, stages in rows:
        for key, value in stages.items():
            all_stages[key] += value
    rows.append(("all", sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows), all_stages))

    head = ["set", "pages", "KB/page", *(f"{s} ms" for s in STAGES), "total ms", "MB/s"]
    print(
        f"method {args.method}: milliseconds per page per stage ({args.clock} time), one core (cpu {cpu}), "
        f"best of {args.repeat}\n"
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
    print(f"Timed functions: {', '.join(wrapped)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
