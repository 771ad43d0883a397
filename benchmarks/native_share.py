"""What each C pass saves of ``extract()``'s time, single pass over the development sets.

    python benchmarks/native_share.py [--data DIR] [--sets a,b] [--limit N] [--rounds R]
                                      [--threshold PCT] [--passes a,b] [--no-reference] [--json out.json]
    python benchmarks/native_share.py --from-json out.json [--threshold PCT]

The C passes are the modules loaded through ``scrapy_bte.core.accel.load``
(the keys of ``scrapy_bte.ACCELERATED``). For each pass P, a fresh child
process runs ``extract()`` (default method, the page's URL where the set
gives one) over every page of the chosen sets once, with P switched to its
Python/numpy reference (its ``CPass.module`` set to None, so every call site
runs the reference) and every other pass native. Two more configurations
frame them: every pass native, and every pass on its reference. A fresh
process per run keeps the per-site caches as cold as on a crawl's first
visit; each child pins itself to one core, warms up on pages that are in no
set (the probe page and the sample article), then times each call once in
the thread's CPU time.

A round runs every configuration once, in an order shuffled per round (seed:
the round number), so that load on a shared machine drifts over all of them
alike. The estimate: per configuration, each page's fastest call over the
``--rounds`` (3) rounds, summed (every one of those calls is a cold first
visit; load from other processes only adds time, and a burst of it hits a
few pages of one round, not the sum of every round). Its noise: the same
estimate on every set of rounds but one (the range). The share computed
from each round's totals, median and range, is shown too: on a shared
machine it moves several times more.

Output (Markdown): per pass, the lines of C it costs (its ``.c`` and
private headers as ``setup.py`` lists them; the shared ``_native.h`` is
counted apart), seconds saved per 1,000 pages, that saving as a share of
the all-native ``extract()`` time (over all sets, its range, and on WCXB and
the older sets apart) and a verdict: a pass *pays* when its share reaches
``--threshold`` (2 %), *borderline* when the range straddles it. The
all-native run's spread over rounds says how noisy the machine was. Every
child also hashes each page's ``Extraction.to_dict()``; pages whose output
differs from the all-native run are counted (the references are the C
passes' oracles, so this should be 0). ``--json`` writes every run's per-page
times and the summary; ``--from-json`` prints the tables of such a file
again (e.g. with another ``--threshold``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import pickle
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# Sibling modules, importable because Python puts a script's folder first on sys.path.
from common import DEFAULT_DATA, ROOT, is_wcxb, list_sets, load_set, pin_to_one_core, warmup_pages  # noqa: E402

NATIVE, REFERENCE = "all native", "all reference"
WCXB_GROUP, OLDER_GROUP = "WCXB", "older sets"
SHARED_HEADER = ROOT / "scrapy_bte" / "_native.h"


def c_lines() -> dict[str, int]:
    """Lines of C per pass (keyed as ``scrapy_bte.ACCELERATED``): the sources that fill its submodule
    of ``scrapy_bte._native`` (the table in ``_native.c``) and the private headers they include."""
    init = (ROOT / "scrapy_bte" / "_native.c").read_text()
    sources = {p.stem[1:]: p for p in (ROOT / "scrapy_bte").rglob("_*.c") if p.name != "_native.c"}
    lines: dict[str, int] = {}
    for row in re.finditer(r"\{\s*\"\w+\",[^{]*?scrapy_bte\.(\w+\.\w+)[^{]*\{([^}]*)\}", init):
        files = [sources[name] for name in re.findall(r"scrapy_bte_add_(\w+)", row.group(2))]
        headers = {h for f in files for h in re.findall(r'#include "(_\w+\.h)"', f.read_text())}
        text = [f.read_text() for f in files] + [
            (f.parent / h).read_text() for f in files for h in headers if (f.parent / h).is_file()
        ]
        lines[row.group(1)] = sum(len(t.splitlines()) for t in text)
    return lines


# ---------------------------------------------------------------- child: one configuration, one pass over the pages


def switch_to_reference(names: set[str]) -> list[str]:
    """Set ``module`` to None on the ``CPass`` of each named C module; return the names switched."""
    from scrapy_bte.core.accel import CPass

    switched = set()
    for mod_name, module in list(sys.modules.items()):
        if not mod_name.startswith("scrapy_bte") or module is None:
            continue
        for value in vars(module).values():
            if isinstance(value, CPass) and value.name in names:
                object.__setattr__(value, "module", None)  # frozen: every call site's use() now answers None
                switched.add(value.name)
    return sorted(switched)


def child(pages_file: Path, config: str, warmup: int, clock_name: str) -> int:
    logging.disable(logging.CRITICAL)
    cpu = pin_to_one_core()
    from extractors import PROBE_PAGE

    import scrapy_bte

    passes = set(scrapy_bte.ACCELERATED)
    wanted = passes if config == REFERENCE else set() if config == NATIVE else {config}
    if not wanted <= passes:
        raise SystemExit(f"unknown pass {config!r}; passes: {sorted(passes)}")
    switched = switch_to_reference(wanted)
    if set(switched) != wanted:
        raise SystemExit(f"could not switch {sorted(wanted - set(switched))} to the reference")
    with open(pages_file, "rb") as f:
        sets: dict[str, list[tuple[bytes, str | None]]] = pickle.load(f)
    for _ in range(max(warmup, 0)):
        for html in warmup_pages(PROBE_PAGE):
            scrapy_bte.extract(html)
    clock = time.thread_time if clock_name == "cpu" else time.perf_counter
    times: dict[str, list[float]] = {}
    digests: dict[str, list[str]] = {}
    for name, pages in sets.items():
        spent, hashes = [], []
        for html, url in pages:
            started = clock()
            try:
                result = scrapy_bte.extract(html, url=url)
            except Exception as e:  # noqa: BLE001 - an error page still took its time
                result = e
            spent.append(clock() - started)
            record = repr(result) if isinstance(result, Exception) else json.dumps(result.to_dict(), sort_keys=True)
            hashes.append(hashlib.blake2b(record.encode("utf-8", "replace"), digest_size=8).hexdigest())
        times[name], digests[name] = spent, hashes
    seconds = {name: sum(spent) for name, spent in times.items()}
    out = {"config": config, "cpu": cpu, "switched": switched, "seconds": seconds, "times": times, "digests": digests}
    json.dump(out, sys.stdout)
    return 0


# ---------------------------------------------------------------- parent: rounds of configurations, the table


def run_child(pages_file: Path, config: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(pages_file), "--config", config]
    command += ["--warmup", str(args.warmup), "--clock", args.clock]
    env = dict(os.environ, SCRAPY_BTE_NATIVE_WARNED="1")  # no warning about the passes switched off on purpose
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"child {config!r} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def _median_range(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def summarise(
    runs: list[dict[str, dict[str, Any]]], groups: dict[str, list[str]], counts: dict[str, int], threshold: float
) -> dict[str, Any]:
    """Per pass and group: the saving and share by per-page fastest call, its leave-one-round-out
    range, and the median and range of the per-round totals."""

    def total(run: dict[str, Any], group: str) -> float:
        return sum(run["seconds"][s] for s in groups[group])

    def fastest(rounds: list[dict[str, Any]], config: str, group: str) -> float:
        """Each page's fastest call over ``rounds`` (every call a cold first visit), summed."""
        return sum(min(calls) for s in groups[group] for calls in zip(*(r[config]["times"][s] for r in rounds)))

    def share(rounds: list[dict[str, Any]], config: str, group: str) -> float:
        base = fastest(rounds, NATIVE, group)
        return 100 * (fastest(rounds, config, group) / base - 1) if base else 0.0

    # Leave one round out: how much the estimate moves with the rounds it rests on.
    subsets = [runs[:i] + runs[i + 1 :] for i in range(len(runs))] if len(runs) > 1 else [runs]
    pages = {g: sum(counts[s] for s in members) for g, members in groups.items()}
    native = {g: [total(r[NATIVE], g) for r in runs] for g in groups}
    summary: dict[str, Any] = {
        "pages": pages,
        "rounds": len(runs),
        "threshold_percent": threshold,
        "native_seconds": {g: _median_range(v) for g, v in native.items()},
        "native_ms_per_page": {g: 1e3 * fastest(runs, NATIVE, g) / max(pages[g], 1) for g in groups},
        "native_spread_percent": {
            g: 100 * (max(v) - min(v)) / statistics.median(v) if statistics.median(v) else 0.0
            for g, v in native.items()
        },
        "passes": {},
    }
    for config in runs[0]:
        if config == NATIVE:
            continue
        row: dict[str, Any] = {}
        for g in groups:
            base = [total(r[NATIVE], g) for r in runs]
            per_round = [100 * (total(r[config], g) / b - 1) if b else 0.0 for r, b in zip(runs, base)]
            jackknife = [share(subset, config, g) for subset in subsets]
            row[g] = {
                "saved_s_per_1000": 1e3 * (fastest(runs, config, g) - fastest(runs, NATIVE, g)) / max(pages[g], 1),
                "share_percent": share(runs, config, g),
                "share_range": (min(jackknife), max(jackknife)),
                "round_share_median": statistics.median(per_round),
                "round_share_range": (min(per_round), max(per_round)),
            }
        if "digests" in runs[0][NATIVE]:
            row["differing_outputs"] = sum(
                a != b
                for r in runs
                for s, hashes in r[config]["digests"].items()
                for a, b in zip(hashes, runs[0][NATIVE]["digests"][s])
            )
        summary["passes"][config] = row
    return summary


def verdict(share: float, low: float, high: float, threshold: float) -> str:
    if share >= threshold:
        return "pays" if low >= threshold else "pays (borderline)"
    return "does not pay" if high < threshold else "does not pay (borderline)"


def _pct(value: float) -> str:
    return f"{value:.1f} %"


def render(summary: dict[str, Any], lines: dict[str, int], groups: list[str], threshold: float) -> str:
    first, extra = groups[0], groups[1:]
    head = ["pass", "C lines", "saved s / 1,000 pages", "share of extract()", "range, leaving one round out"]
    head += ["per-round totals: median (range)", *(f"share: {g}" for g in extra), "verdict"]
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 2) + "---|"]
    passes = sorted(
        (c for c in summary["passes"] if c != REFERENCE),
        key=lambda c: -summary["passes"][c][first]["share_percent"],
    )

    def cells_of(row: dict[str, Any]) -> list[str]:
        cell = row[first]
        low, high = cell["share_range"]
        r_low, r_high = cell["round_share_range"]
        cells = [f"{cell['saved_s_per_1000']:.2f}", _pct(cell["share_percent"]), f"{low:.1f} to {high:.1f} %"]
        cells.append(f"{cell['round_share_median']:.1f} % ({r_low:.1f} to {r_high:.1f})")
        return cells + [_pct(row[g]["share_percent"]) for g in extra]

    for config in passes:
        row = summary["passes"][config]
        low, high = row[first]["share_range"]
        cells = [f"`{config.removeprefix('scrapy_bte.')}`", str(lines.get(config, "?")), *cells_of(row)]
        cells.append(verdict(row[first]["share_percent"], low, high, threshold))
        out.append("| " + " | ".join(cells) + " |")
    saved = sum(summary["passes"][c][first]["saved_s_per_1000"] for c in passes)
    share = sum(summary["passes"][c][first]["share_percent"] for c in passes)
    cells = ["sum of the passes", str(sum(lines.get(c, 0) for c in passes)), f"{saved:.2f}", _pct(share)]
    out.append("| " + " | ".join(cells + [""] * (len(head) - len(cells))) + " |")
    if REFERENCE in summary["passes"]:
        cells = ["every pass on its reference", "", *cells_of(summary["passes"][REFERENCE]), ""]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def report(summary: dict[str, Any], lines: dict[str, int], names: list[str], cpu: int, clock: str) -> None:
    group_names = list(summary["pages"])
    rounds, threshold = summary["rounds"], summary["threshold_percent"]
    print(
        f"C passes' share of extract() (default method, URL where the set has one): "
        f"{summary['pages'][group_names[0]]} pages of {', '.join(names)}, each seen once per run, in a fresh "
        f"process per run on one core (cpu {cpu}), {clock} time; {rounds} round(s).\n"
    )
    print(render(summary, lines, group_names, threshold))
    print(
        f"\nSaved: the time with the pass on its reference minus the all-native time, each page's fastest call "
        f"over the {rounds} rounds (every call a cold first visit in a fresh process), summed; share: of the "
        f"all-native time so summed. Range: the share recomputed on every {rounds - 1} of the rounds. "
        f"Per-round totals: the share from each round's totals (median, min to max). A pass pays when its share "
        f"reaches {threshold:g} %; *borderline* when the range straddles the threshold."
    )
    for g in group_names:
        low, high = summary["native_seconds"][g][1:]
        print(
            f"All native, {g}: {summary['pages'][g]} pages, {summary['native_ms_per_page'][g]:.2f} ms per page "
            f"(fastest of rounds); its per-round total {low:.2f} to {high:.2f} s "
            f"(spread {summary['native_spread_percent'][g]:.1f} %)."
        )
    print(f"Shared header `_native.h`: {len(SHARED_HEADER.read_text().splitlines())} lines, counted in no pass.")
    rows = summary["passes"].items()
    if all("differing_outputs" in r for _, r in rows):
        differing = {c: r["differing_outputs"] for c, r in rows if r["differing_outputs"]}
        print(
            "Outputs (to_dict) that differ from the all-native run: "
            + (", ".join(f"{c}: {n} page-runs" for c, n in differing.items()) if differing else "none")
            + "."
        )


def replay(path: Path, threshold: float) -> int:
    """The tables of a run saved with ``--json`` (e.g. with another ``--threshold``)."""
    saved = json.loads(path.read_text())
    runs, groups = saved["runs"], saved["groups"]
    summary = summarise(runs, groups, saved["counts"], threshold)
    for config, row in saved["summary"]["passes"].items():  # the outputs were compared when the run was made
        if "differing_outputs" in row:
            summary["passes"][config]["differing_outputs"] = row["differing_outputs"]
    report(summary, saved["c_lines"], groups["all sets"], runs[0][NATIVE]["cpu"], saved["args"]["clock"])
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every configuration; medians over rounds")
    parser.add_argument("--threshold", type=float, default=2.0, help="percent of extract() time a pass must save")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls per warm-up page (pages in no set)")
    parser.add_argument("--passes", default="", help="comma-separated C modules to measure (default: all)")
    parser.add_argument("--no-reference", action="store_true", help="skip the all-reference run (the slowest)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="cpu", help="cpu: thread CPU time (default)")
    parser.add_argument("--json", type=Path, default=None, help="write every run and the summary here")
    parser.add_argument("--from-json", type=Path, default=None, help="print the tables of a saved --json run again")
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--config", default=NATIVE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child(args.child, args.config, args.warmup, args.clock)
    if args.from_json is not None:
        return replay(args.from_json, args.threshold)

    import scrapy_bte

    if not all(scrapy_bte.ACCELERATED.values()):
        missing = [n for n, on in scrapy_bte.ACCELERATED.items() if not on]
        raise SystemExit(f"build the C passes first (python setup.py build_ext --inplace); missing: {missing}")
    passes = [p.strip() for p in args.passes.split(",") if p.strip()] or sorted(scrapy_bte.ACCELERATED)
    passes = [p.removeprefix("scrapy_bte.") for p in passes]
    configs = [NATIVE, *passes] + ([] if args.no_reference else [REFERENCE])

    started = time.perf_counter()
    names = list_sets(args.data, [s.strip() for s in args.sets.split(",") if s.strip()])
    sets = {name: load_set(args.data / name, args.limit) for name in names}
    counts = {name: len(data.pages) for name, data in sets.items()}
    groups = {"all sets": names}
    wcxb = [n for n in names if is_wcxb(args.data / n)]
    older = [n for n in names if n not in wcxb]
    if wcxb and older:
        groups |= {WCXB_GROUP: wcxb, OLDER_GROUP: older}
    lines = c_lines()
    runs: list[dict[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="scrapy-bte-native-share-") as tmp:
        pages_file = Path(tmp) / "pages.pickle"
        with open(pages_file, "wb") as f:
            pickle.dump({n: [(p.html, u) for p, u in zip(d.pages, d.urls)] for n, d in sets.items()}, f)
        del sets
        for round_no in range(args.rounds):
            order = configs[:]
            random.Random(round_no).shuffle(order)
            runs.append({})
            for config in order:
                tick = time.perf_counter()
                runs[-1][config] = run_child(pages_file, config, args)
                spent = sum(runs[-1][config]["seconds"].values())
                print(
                    f"round {round_no + 1}/{args.rounds} {config:<32} {spent:7.2f} s timed, "
                    f"{time.perf_counter() - tick:6.1f} s wall",
                    file=sys.stderr,
                    flush=True,
                )
    summary = summarise(runs, groups, counts, args.threshold)
    report(summary, lines, names, runs[0][NATIVE]["cpu"], args.clock)
    print(f"Wall time: {time.perf_counter() - started:.0f} s.", file=sys.stderr)
    if args.json:
        payload = {"args": {k: str(v) for k, v in vars(args).items()}, "groups": groups, "c_lines": lines}
        bare = [{c: {k: v for k, v in run.items() if k != "digests"} for c, run in r.items()} for r in runs]
        payload |= {"summary": summary, "runs": bare, "counts": counts}
        args.json.write_text(json.dumps(payload, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
