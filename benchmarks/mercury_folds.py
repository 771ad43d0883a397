"""Mercury scored with folds grouped by site, with a bootstrap confidence interval.

Leave-one-set-out scores mercury with a model that never saw a modern page.
This script also lets the model learn from mercury itself without scoring a
site it has seen: the 126 pages are split into ``--folds`` folds by site
(``domain`` in ``<id>.meta.json``: se.pl's 12 pages stay together), and each
fold is scored by a model trained on the five older sets plus the other
folds (``--body-labels``) and WCXB as typed data, the shipped model's training. With 126 pages a
difference of 0.01 F1 can be noise, so the script prints a 95 % interval
from a bootstrap over sites (pages of one site resampled together), for the
peers too (``--peers``: same pages, same resamples):

    python benchmarks/mercury_folds.py [--folds 5] [--peers trafilatura,readability] [--boot 2000] [--members 3] [--stages 2]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
from common import shipped_lists_beside

from scrapy_bte import extract
from scrapy_bte.training.data import LabelSource, load_set
from scrapy_bte.training.evaluation import score_page
from scrapy_bte.training.fit import TrainConfig, train_block_model, training_pages

DATA = Path(os.environ.get("BTE_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "datasets"))
OLDER = ("dragnet", "l3s-gn1", "readability", "cleaneval-dev", "cleanportaleval")


def site_of(folder: Path, name: str) -> str:
    meta = folder / f"{name}.meta.json"
    if meta.is_file():
        return json.loads(meta.read_text(encoding="utf-8")).get("domain") or name
    return name.split("--")[0]


def folds_by_site(sites: list[str], k: int) -> np.ndarray:
    """Fold per page: sites sorted by size (largest first) go to the fold with fewest pages."""
    names, counts = np.unique(sites, return_counts=True)
    order = sorted(range(len(names)), key=lambda i: (-counts[i], names[i]))
    load = np.zeros(k, dtype=np.int64)
    fold_of: dict[str, int] = {}
    for i in order:
        f = int(np.argmin(load))
        fold_of[str(names[i])] = f
        load[f] += counts[i]
    return np.array([fold_of[s] for s in sites])


def summary(p: np.ndarray, r: np.ndarray, empty: np.ndarray) -> tuple[float, float, float]:
    prec = float(p[~empty].mean()) if (~empty).any() else 0.0
    rec = float(r.mean())
    return (2 * prec * rec / (prec + rec) if prec + rec else 0.0), prec, rec


def bootstrap(p, r, empty, sites, boot: int, seed: int = 0) -> tuple[float, float]:
    """95 % interval of F1 when whole sites are resampled with replacement."""
    rng = np.random.default_rng(seed)
    names = sorted(set(sites))
    members = {s: np.flatnonzero(np.array(sites) == s) for s in names}
    values = []
    for _ in range(boot):
        pick = np.concatenate([members[names[i]] for i in rng.integers(0, len(names), len(names))])
        values.append(summary(p[pick], r[pick], empty[pick])[0])
    lo, hi = np.percentile(values, [2.5, 97.5])
    return float(lo), float(hi)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--boot", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0, help="the block models' training seed (the shipped model's is 0)")
    ap.add_argument("--members", type=int, default=TrainConfig().members, help="models averaged into each fold's model")
    ap.add_argument("--stages", type=int, default=TrainConfig().stages, help="stages of each fold's model (2 or 3)")
    ap.add_argument("--peers", default="trafilatura,readability", help="comma-separated peer rows ('' for none)")
    args = ap.parse_args(argv)
    logging.disable(logging.CRITICAL)
    source = LabelSource(body=True)
    older = [load_set(args.data / name, source, quiet=True) for name in OLDER]
    if (args.data / "wcxb").is_dir():  # as the shipped model: WCXB as typed data, labels as they are
        older.append(load_set(args.data / "wcxb", LabelSource(body=False), quiet=True))
    mercury = load_set(args.data / "mercury", source, quiet=True)
    sites = [site_of(args.data / "mercury", page.name) for page in mercury.pages]
    fold = folds_by_site(sites, args.folds)
    config = TrainConfig(seed=args.seed, members=args.members, stages=args.stages)
    n = len(mercury.pages)
    rows: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    p, r, empty = np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool)
    with tempfile.TemporaryDirectory() as tmp:
        for f in range(args.folds):
            train = replace(mercury, blocks=[b if fold[i] != f else None for i, b in enumerate(mercury.blocks)])
            model = train_block_model(training_pages([*older, train], config.set_balance), config)
            path = str(Path(tmp) / f"fold{f}.npz")
            model.save(
                path, {"training_sets": [*OLDER, f"mercury without fold {f}"], **shipped_lists_beside(Path(tmp))}
            )
            for i in np.flatnonzero(fold == f):
                page = mercury.pages[i]
                s = score_page(extract(page.html, model_path=path).text, page.gold)
                p[i], r[i], empty[i] = s.precision, s.recall, s.empty
            print(f"fold {f + 1}/{args.folds}: {int((fold == f).sum())} pages", file=sys.stderr)
    rows[f"scrapy_bte.auto (site folds, {args.folds})"] = (p, r, empty)
    if args.peers:
        import extractors

        for entry in extractors.select(args.peers.split(",")):
            p, r, empty = np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool)
            run = entry.factory(None)
            for i, page in enumerate(mercury.pages):
                try:
                    out = extractors.output_text(run(page.html))
                except Exception:  # noqa: BLE001 - a peer that fails on a page scores it empty
                    out = ""
                s = score_page(out, page.gold)
                p[i], r[i], empty[i] = s.precision, s.recall, s.empty
            rows[entry.name] = (p, r, empty)
    print(
        f"mercury: {n} pages, {len(set(sites))} sites, {args.folds} folds by site; 95 % interval: "
        f"bootstrap over sites ({args.boot} resamples)\n"
    )
    print("| row | F1 | 95 % interval | P | R |\n|---|---:|---:|---:|---:|")
    for name, (p, r, empty) in rows.items():
        f1, prec, rec = summary(p, r, empty)
        lo, hi = bootstrap(p, r, empty, sites, args.boot)
        print(f"| {name} | {f1:.3f} | {lo:.3f}-{hi:.3f} | {prec:.3f} | {rec:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
