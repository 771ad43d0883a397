"""Leave-one-set-out rows for the learned methods (``model``, ``auto``).

The shipped model is trained on all six development sets, so its rows in a
plain run score pages it has seen. With this plugin, ``run.py --loso`` scores
each set with a model trained (same command as the shipped one, with
``--body-labels``, WCXB as ``--typed-data``, the shipped lists model beside it) on the other
sets only:

    python benchmarks/run.py --loso --plugin loso_model --extractors 'scrapy_bte.auto*,readability,trafilatura'

Rows:

- ``scrapy_bte.auto-trained``, ``scrapy_bte.model-trained``: ``text``, the
  article body, scored against each set's gold as it is;
- ``scrapy_bte.auto-trained+fields``: what the older sets' convention wants,
  composed from the result: the title, the byline and dateline blocks, the
  body, and the readers' comments on the sets whose gold keeps them
  (dragnet and CleanEval), so both conventions stay visible.

Models are trained once per held-out set into a temporary folder (about a
minute each, plus reading the sets), with the training seed in
``BTE_LOSO_SEED`` (default 0, the shipped model's): a second seed shows how far
retraining alone moves the scores. ``BTE_LOSO_MEMBERS`` sets how many models
each is the average of (default: the shipped model's, ``TrainConfig.members``),
``BTE_LOSO_STAGES`` how many stages each has (``TrainConfig.stages``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
from common import shipped_lists_beside
from extractors import register_factory

from scrapy_bte import extract
from scrapy_bte.api import extract_document, parse
from scrapy_bte.evidence.zones import headline_mask, top_furniture
from scrapy_bte.training.data import LabelSource, load_set
from scrapy_bte.training.fit import TrainConfig, train_block_model, training_pages

DATA = Path(os.environ.get("BTE_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "datasets"))
SETS = ("dragnet", "l3s-gn1", "readability", "cleaneval-dev", "cleanportaleval", "mercury")
#: Sets whose gold keeps the readers' comments.
KEEP_COMMENTS = ("dragnet", "cleaneval-dev")
SEED = int(os.environ.get("BTE_LOSO_SEED", "0"))
MEMBERS = int(os.environ.get("BTE_LOSO_MEMBERS", str(TrainConfig().members)))
STAGES = int(os.environ.get("BTE_LOSO_STAGES", str(TrainConfig().stages)))
_TMP = Path(tempfile.mkdtemp(prefix="scrapy-bte-loso-model-"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


@cache
def _sets() -> dict:
    source = LabelSource(body=True)
    return {name: load_set(DATA / name, source, quiet=True) for name in SETS}


@cache
def _typed() -> list:
    """WCXB's labelled pages as the shipped model trains on them (``--typed-data``), when present."""
    folder = DATA / "wcxb"
    return [load_set(folder, LabelSource(body=False), quiet=True)] if folder.is_dir() else []


@cache
def model_without(held_out: str) -> str:
    """Path of a model trained the shipped model's way on every development set but ``held_out``."""
    config = TrainConfig(seed=SEED, members=MEMBERS, stages=STAGES)
    others = [data for name, data in _sets().items() if name != held_out] + _typed()
    model = train_block_model(training_pages(others, config.set_balance), config)
    path = _TMP / f"without-{held_out}.npz"
    model.save(path, {"training_sets": [d.name for d in others], **shipped_lists_beside(_TMP)})
    return str(path)


def _factory(method: str, **options):
    def build(held_out: str | None):
        if held_out is None:  # the shipped model
            return lambda html: extract(html, method=method, **options)
        path = model_without(held_out)
        return lambda html: extract(html, method=method, model_path=path, **options)

    return build


def composed(html: bytes, model_path: str | None, comments: bool) -> str:
    """Title, byline and dateline, body and (``comments``) the readers' comments, one block per line."""
    doc = parse(html)
    options = {"model_path": model_path} if model_path else {}
    result = extract_document(doc, method="auto", comments=comments, **options)
    parts = [result.title or ""]
    kept = np.asarray(result.kept_blocks, dtype=np.int64)
    if len(kept):
        top = top_furniture(doc, int(kept[0]), result.title) & ~headline_mask(doc, result.title)
        parts += [doc.texts[b] for b in np.flatnonzero(top)]
    parts.append(result.text)
    if result.comments:
        parts.append(result.comments)
    return "\n".join(p for p in parts if p)


def _composed_factory(held_out: str | None):
    path = model_without(held_out) if held_out is not None else None
    keep = held_out in KEEP_COMMENTS
    return lambda html: composed(html, path, keep)


register_factory("scrapy_bte.auto-trained", _factory("auto"))
register_factory("scrapy_bte.model-trained", _factory("model"))
register_factory("scrapy_bte.auto-trained+fields", _composed_factory)
