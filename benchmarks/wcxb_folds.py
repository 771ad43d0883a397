"""WCXB scored by folds grouped by site: the shipped models never saw the page's site.

    python benchmarks/wcxb_folds.py [--folds 5] [--peers trafilatura,resiliparse,readability,justext]
                                    [--limit N] [--json out.json] [--seed 0] [--members 3] [--stages 2]

The shipped block model and page-type classifier are trained on all of WCXB's
development split, so scoring them on it would score pages they learned from.
Here the pages are split into ``--folds`` folds by domain
(:func:`scrapy_bte.training.wcxb.domain_folds`), and each fold is extracted
with a block model trained the shipped model's way (the older sets and
mercury with ``--body-labels``, WCXB's other folds as typed data, with a
lists model of the other folds' listing, collection and service pages) and a
page-type classifier trained the shipped classifier's way
(``scrapy-bte train-page-type``: WCXB's other folds and article pages of
mercury, L3S-GN1 and dragnet, each page also without its address), neither
of which saw a page of the fold's domains. ``scrapy_bte.hybrid`` needs no
model; the peers run as ``benchmarks/run.py`` runs them. Every row is given
the page's bytes and, for ``scrapy_bte`` rows, its URL, as a crawl would.
The tables are ``benchmarks/wcxb.py``'s, all rows from one run.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path

import numpy as np
from common import DEFAULT_DATA
from extractors import output_text, select
from wcxb import page_record, report

from scrapy_bte import extract
from scrapy_bte.learned import page_type as page_types
from scrapy_bte.learned.estimators import SoftmaxClassifier
from scrapy_bte.learned.model import LISTS_TRAINED_ON
from scrapy_bte.training import page_types as page_type_training
from scrapy_bte.training.data import LabelSource, load_set
from scrapy_bte.training.fit import TrainConfig, train_block_model, training_pages
from scrapy_bte.training.wcxb import WcxbPage, domain_folds, load_wcxb

OLDER = ("dragnet", "l3s-gn1", "readability", "cleaneval-dev", "cleanportaleval", "mercury")
ARTICLE_SETS = ("mercury", "l3s-gn1", "dragnet")


def _wcxb_blocks(folder: Path, pages: list[WcxbPage], limit: int | None):
    """WCXB's labelled blocks (gold as it is, never moved to the article body), by page id."""
    data = load_set(folder, LabelSource(body=False), limit=limit, quiet=True)
    by_id = {page.name: i for i, page in enumerate(data.pages)}
    return data, [by_id[p.id] for p in pages]


def fold_models(
    data: Path,
    pages: list[WcxbPage],
    folds: np.ndarray,
    k: int,
    limit: int | None,
    out: Path,
    seed: int = 0,
    members: int = TrainConfig().members,
    stages: int = TrainConfig().stages,
):
    """Per fold: (block model path, page-type model), neither trained on the fold's domains."""
    older = [load_set(data / name, LabelSource(body=True), quiet=True) for name in OLDER]
    wcxb, index = _wcxb_blocks(data / "wcxb", pages, limit)
    rows = page_type_training.wcxb_rows(data / "wcxb", limit)
    rows = page_type_training.join(rows, page_type_training.article_rows([data / s for s in ARTICLE_SETS], 150))
    domain_fold = {p.domain: int(f) for p, f in zip(pages, folds)}
    config = TrainConfig(seed=seed, members=members, stages=stages)
    shipped = page_types.default_model().metadata["hyperparameters"]  # the shipped classifier's settings
    models = []
    for f in range(k):
        keep = [index[i] for i in np.flatnonzero(folds != f)]
        train = type(wcxb)(wcxb.name, [wcxb.pages[i] for i in keep], [wcxb.blocks[i] for i in keep])
        # The lists model: the fold's other listing, collection and service pages alone.
        lists = [index[i] for i in np.flatnonzero(folds != f) if pages[i].page_type in LISTS_TRAINED_ON]
        lists_train = type(wcxb)(wcxb.name, [wcxb.pages[i] for i in lists], [wcxb.blocks[i] for i in lists])
        train_block_model(training_pages([lists_train], config.set_balance), config).save(out / f"lists-{f}.npz")
        path = out / f"block-{f}.npz"
        train_block_model(training_pages([*older, train], config.set_balance), config).save(
            path, {"lists_model": f"lists-{f}.npz"}
        )
        mask = np.array([domain_fold.get(d, -1) != f for d in rows.domains])

        def make() -> SoftmaxClassifier:
            return SoftmaxClassifier(
                len(page_types.PAGE_TYPES),
                tuple(shipped["hidden"]),
                epochs=shipped["epochs"],
                learning_rate=shipped["learning_rate"],
                l2=shipped["l2"],
                seed=shipped["seed"],
            )

        models.append((str(path), page_types.PageTypeModel(page_type_training.fit(rows, make, mask))))
        print(f"fold {f + 1}/{k} trained", flush=True)
    return models


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--peers", default="trafilatura,resiliparse,readability,justext")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the block models' training seed (the shipped model's is 0): a second seed shows how far "
        "retraining alone moves the scores",
    )
    parser.add_argument(
        "--members",
        type=int,
        default=TrainConfig().members,
        help="models averaged into each fold's block model (the shipped model's count by default)",
    )
    parser.add_argument(
        "--stages", type=int, default=TrainConfig().stages, help="stages of each fold's block model (2 or 3)"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    pages = load_wcxb(args.data / "wcxb", args.limit)
    folds = np.array(domain_folds(pages, k=args.folds))
    rows: dict[str, tuple[list, list]] = {}
    with tempfile.TemporaryDirectory(prefix="scrapy-bte-wcxb-folds-") as tmp:
        models = fold_models(
            args.data, pages, folds, args.folds, args.limit, Path(tmp), args.seed, args.members, args.stages
        )
        records, seconds = [None] * len(pages), [0.0] * len(pages)
        for f, (block_path, type_model) in enumerate(models):
            page_types._default = type_model  # the classifier extract() asks: this fold's
            for i in np.flatnonzero(folds == f):
                page = pages[i]
                started = time.process_time()
                result = extract(page.html, url=page.url or None, model_path=block_path)
                seconds[i] = time.process_time() - started
                records[i] = page_record(result.text, result.page_type, page)
        page_types._default = None
        rows["scrapy_bte.auto (site folds)"] = (records, seconds)
    for entry in select(["scrapy_bte.hybrid", *[p for p in args.peers.split(",") if p]]):
        run = entry.factory(None)
        records, seconds = [], []
        for page in pages:
            started = time.process_time()
            try:
                out = run(page.html)
            except Exception:  # noqa: BLE001 - a peer's failure is an empty output, as in run.py
                out = None
            seconds.append(time.process_time() - started)
            records.append(page_record(output_text(out), getattr(out, "page_type", None), page))
        rows[entry.name] = (records, seconds)
        print(f"{entry.name} done", flush=True)
    print(report(rows, f"wcxb, {args.folds} folds by site"))
    if args.json:
        args.json.write_text(json.dumps({name: recs for name, (recs, _) in rows.items()}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
