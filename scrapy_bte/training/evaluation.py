"""Scoring of extracted main text against gold text.

The metric is the one of the widely used article-extraction benchmark, so
numbers are comparable with published ones: texts are split into ``\\w+``
tokens, turned into 4-token shingles (a multiset, as in the reference), and
compared per page; precision and recall are averaged over pages (long pages
do not weigh more) and F1 is the harmonic mean of the two averages.

This module reads files and does arithmetic only: it never imports Scrapy.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.scripts import tokens

#: Tokens per shingle, the metric's unit.
SHINGLE = 4


@dataclass(frozen=True)
class Page:
    """One labelled page: raw HTML bytes (undecoded) and its gold text."""

    name: str
    set_name: str
    html: bytes
    gold: str


@dataclass(frozen=True)
class PageScore:
    """Shingle counts and per-page precision/recall.

    ``empty`` means the output has no token (it is left out of the precision
    average); ``gold_empty`` means the page cannot be scored at all.
    """

    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    empty: bool
    gold_empty: bool = False

    @property
    def f1(self) -> float:
        """Per-page F1 (0 for an empty output), used for rank correlations."""
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


@dataclass(frozen=True)
class SetScore:
    """Averages over the scored pages of one set.

    ``pages`` counts scored pages, ``empty`` the empty outputs among them and
    ``skipped`` the pages left out because their gold text is empty.
    """

    f1: float
    precision: float
    recall: float
    pages: int
    empty: int
    skipped: int = 0


def load_dataset(path: str | Path, limit: int | None = None, keep: Callable[[str], bool] | None = None) -> list[Page]:
    """Read the ``<id>.html`` (or ``<id>.html.gz``)/``<id>.txt`` pairs of one set folder.

    HTML stays raw bytes because decoding is part of what is being scored.
    Pages come sorted by id so runs and ``limit`` are reproducible; an HTML
    file without a gold file is ignored, and so is a page whose id ``keep``
    refuses (before ``limit`` counts it).
    """
    folder = Path(path)
    pages: list[Page] = []
    for name, html_path in page_files(folder):
        gold_path = folder / f"{name}.txt"
        if not gold_path.is_file() or (keep is not None and not keep(name)):
            continue
        gold = gold_path.read_bytes().decode("utf-8", errors="replace")
        pages.append(Page(name, folder.name, read_page(html_path), gold))
        if limit is not None and len(pages) >= limit:
            break
    return pages


def page_files(folder: Path) -> list[tuple[str, Path]]:
    """``(id, path)`` of a set folder's pages, ``<id>.html`` or gzip-compressed ``<id>.html.gz``
    (as WCXB ships them), sorted by id."""
    found = {p.name[: -len(".html")]: p for p in folder.glob("*.html")}
    for p in folder.glob("*.html.gz"):
        found.setdefault(p.name[: -len(".html.gz")], p)
    return sorted(found.items())


def read_page(path: Path) -> bytes:
    """A page's raw bytes, decompressed when its name ends in ``.gz``."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def token_shingles(toks: list[str], n: int = SHINGLE) -> list[tuple[str, ...]]:
    """The ``n``-token shingles of a token list; fewer than ``n`` tokens are
    one shingle (so short texts still score), no tokens none."""
    if len(toks) < n:
        return [tuple(toks)] if toks else []
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


def shingles(text: str, n: int = SHINGLE) -> Counter[tuple[str, ...]]:
    """Multiset of the ``n``-token shingles of a text."""
    return Counter(token_shingles(tokens(text), n))


def score_page(output: str, gold: str, n: int = SHINGLE) -> PageScore:
    """Compare one output with its gold text (see the module docstring)."""
    out, ref = shingles(output, n), shingles(gold, n)
    tp = sum((out & ref).values())
    fp = sum((out - ref).values())
    fn = sum((ref - out).values())
    precision = tp / (tp + fp) if out else 0.0
    recall = tp / (tp + fn) if ref else 0.0
    return PageScore(tp, fp, fn, precision, recall, empty=not out, gold_empty=not ref)


def aggregate(scores: Iterable[PageScore]) -> SetScore:
    """Average per-page scores the way the reference benchmark does.

    Empty outputs are left out of the precision average (they still count as
    0 recall), so an extractor that gives up on hard pages gains precision
    at recall's cost: that is why the number of empty outputs is reported.
    """
    all_scores = list(scores)
    scored = [s for s in all_scores if not s.gold_empty]
    with_output = [s.precision for s in scored if not s.empty]
    precision = float(np.mean(with_output)) if with_output else 0.0
    recall = float(np.mean([s.recall for s in scored])) if scored else 0.0
    total = precision + recall
    f1 = 2 * precision * recall / total if total else 0.0
    empty = len(scored) - len(with_output)
    return SetScore(f1, precision, recall, len(scored), empty, len(all_scores) - len(scored))


def rank(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """1-based ranks, ties get the average of the ranks they span."""
    a = np.asarray(values, dtype=float)
    order = np.argsort(a, kind="mergesort")
    ordered = a[order]
    starts_group = np.r_[True, ordered[1:] != ordered[:-1]]
    starts = np.flatnonzero(starts_group)
    ends = np.r_[starts[1:], a.size]
    mean_rank = (starts + ends + 1) / 2.0
    ranks = np.empty(a.size)
    ranks[order] = mean_rank[np.cumsum(starts_group) - 1]
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation (Pearson on tie-averaged ranks).

    Used to check that an extractor's confidence orders pages like their
    actual quality. NaN when either side is constant or has < 2 values.
    """
    if len(x) != len(y):
        raise ValueError("x and y must have the same length")
    if len(x) < 2:
        return float("nan")
    rx, ry = rank(x), rank(y)
    rx -= rx.mean()
    ry -= ry.mean()
    denom = float(np.sqrt((rx * rx).sum() * (ry * ry).sum()))
    return float((rx * ry).sum() / denom) if denom else float("nan")
