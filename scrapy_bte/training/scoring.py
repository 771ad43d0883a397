"""Scoring methods on labelled sets: as shipped, or leave-one-set-out.

Evaluation runs the real :func:`scrapy_bte.extract` path on every page and
reports, per set, the metric's F1/P/R, empty outputs, the block-level error
rate against the labels, and pages per second; with leave-one-set-out the
learned methods are scored by a model trained on the other sets, which is
how a trained row is reported.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..api import LEARNED_METHODS, extract_document, parse
from ..errors import ConfigError
from .data import SetData
from .evaluation import SetScore, aggregate, score_page, spearman
from .fit import TrainConfig, train_block_model, training_pages
from .progress import Progress


@dataclass
class MethodScore:
    """One method on one set: the metric, block errors, confidence ranking and speed."""

    method: str
    set_name: str
    score: SetScore
    block_error: float
    seconds: float
    confidences: list[float]
    page_f1: list[float]

    @property
    def pages_per_s(self) -> float:
        return self.score.pages / self.seconds if self.seconds else float("inf")

    def row(self) -> dict[str, Any]:
        return {
            "f1": round(self.score.f1, 4),
            "precision": round(self.score.precision, 4),
            "recall": round(self.score.recall, 4),
            "pages": self.score.pages,
            "empty": self.score.empty,
            "block_error": round(self.block_error, 4),
            "pages_per_s": round(self.pages_per_s, 1),
        }


def score_set(data: SetData, method: str, model_path: str | None = None, quiet: bool = False) -> MethodScore:
    """Run ``method`` through the real extraction path on every page of a set.

    Timing covers parsing and extraction (what :func:`scrapy_bte.extract`
    does after decoding's input checks); the block error rate compares the
    kept blocks with the labels of the pages that have labels.
    """
    options: dict[str, Any] = {"model_path": model_path} if method in LEARNED_METHODS and model_path else {}
    scores, conf, errors, blocks = [], [], 0, 0
    seconds = 0.0
    bar = Progress(f"{method} on {data.name}", len(data.pages), quiet)
    for i, (page, labelled) in enumerate(zip(data.pages, data.blocks)):
        start = time.perf_counter()
        doc = parse(page.html)
        result = extract_document(doc, method=method, **options)
        seconds += time.perf_counter() - start
        scores.append(score_page(result.text, page.gold))
        conf.append(result.confidence)
        if labelled is not None and len(labelled.y) == doc.n_blocks:
            kept = np.zeros(doc.n_blocks, dtype=bool)
            kept[result.kept_blocks] = True
            known = labelled.weight > 0  # blocks a hand-labelled page left without a label do not count
            errors += int((kept != labelled.y)[known].sum())
            blocks += int(known.sum())
        bar.update(i + 1)
    return MethodScore(
        method,
        data.name,
        aggregate(scores),
        errors / blocks if blocks else float("nan"),
        seconds,
        conf,
        [s.f1 for s in scores if not s.gold_empty],
    )


def loso_scores(
    sets: Sequence[SetData], methods: Sequence[str], config: TrainConfig, quiet: bool = False
) -> list[MethodScore]:
    """Every set scored by models trained on the other sets (learned methods) or as is (heuristics)."""
    out: list[MethodScore] = []
    with tempfile.TemporaryDirectory(prefix="scrapy-bte-loso-") as tmp:
        for held in sets:
            path = None
            if any(m in LEARNED_METHODS for m in methods):
                train_pages = training_pages([s for s in sets if s is not held], config.set_balance)
                if not train_pages:
                    raise ConfigError("leave-one-set-out needs at least two sets with labels")
                if not quiet:
                    sys.stderr.write(f"training without {held.name} ({len(train_pages)} pages)\n")
                model = train_block_model(train_pages, config)
                path = str(Path(tmp) / f"without-{held.name}.npz")
                model.save(path, {"training_sets": [s.name for s in sets if s is not held]})
            for method in methods:
                out.append(score_set(held, method, path, quiet))
    return out


def format_table(scores: Sequence[MethodScore], loso: bool) -> str:
    """Markdown table: one row per method and set, then each method's mean and Spearman."""
    lines = ["| method | set | F1 | P | R | empty | block error | pages/s |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    methods = list(dict.fromkeys(s.method for s in scores))
    for m in methods:
        label = f"{m} (loso)" if loso and m in LEARNED_METHODS else m
        rows = [s for s in scores if s.method == m]
        for s in rows:
            lines.append(
                f"| {label} | {s.set_name} | {s.score.f1:.3f} | {s.score.precision:.3f} | {s.score.recall:.3f} "
                f"| {s.score.empty} "
                f"| {s.block_error:.3f} | {s.pages_per_s:.0f} |"
            )
        pages = sum(s.score.pages for s in rows)
        seconds = sum(s.seconds for s in rows)
        rho = (
            spearman([c for s in rows for c in s.confidences[: len(s.page_f1)]], [f for s in rows for f in s.page_f1])
            if pages > 1
            else float("nan")
        )
        lines.append(
            f"| {label} | **mean** | {np.mean([s.score.f1 for s in rows]):.3f} | | | | "
            f"| {pages / seconds if seconds else 0:.0f} |"
        )
        lines.append(f"| {label} | ρ(confidence, page F1) | {rho:.2f} | | | | | |")
    return "\n".join(lines)
