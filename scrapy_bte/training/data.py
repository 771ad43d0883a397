"""Labelled pages for training: each page built once, its blocks labelled and featurised.

Reads labelled set folders (``<id>.html`` + ``<id>.txt``), labels each
page's blocks (:mod:`scrapy_bte.training.labels`) and computes their
features (:mod:`scrapy_bte.learned.features`) once, for fitting and for the
block error of scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..api import _as_markup, parse
from ..errors import ConfigError
from ..learned.features import block_features
from ..methods.bte import document_span
from .evaluation import Page, load_dataset
from .labels import page_labels
from .progress import Progress

#: Exponent of a block's word count in its training weight (see :func:`page_weights`).
WORD_POWER = 0.25


def page_weights(words: np.ndarray, power: float = WORD_POWER) -> np.ndarray:
    """Training weight per block: every page sums to 1, blocks weigh ``words ** power``.

    The metric averages over pages, so each page counts once; within a page
    a long block's errors cost more shingles than a short one's.
    """
    w = np.power(np.maximum(words.astype(np.float64), 0.5), power)
    return (w / max(float(w.sum()), 1e-12)).astype(np.float32)


@dataclass
class PageBlocks:
    """What training keeps of one page: features, labels, weights and the arrays context features read."""

    X: np.ndarray
    y: np.ndarray
    weight: np.ndarray
    words: np.ndarray
    container: np.ndarray
    texts: list[str]


@dataclass
class SetData:
    """One labelled set: its raw pages (for scoring) and the labelled blocks of each."""

    name: str
    pages: list[Page]
    blocks: list[PageBlocks | None]  # None: no labels (no gold, selector or markers matched nothing)

    @property
    def labelled(self) -> list[PageBlocks]:
        return [b for b in self.blocks if b is not None]


@dataclass(frozen=True)
class LabelSource:
    """Where block labels come from (see :mod:`scrapy_bte.training.labels`)."""

    css: str | None = None
    markers: tuple[str, str] | None = None
    use_markers: bool = False

    @property
    def needs_markup(self) -> bool:
        return self.css is not None or self.markers is not None or self.use_markers

    def describe(self) -> str:
        if self.css:
            return f"content selector {self.css!r}"
        if self.markers or self.use_markers:
            return f"template markers {self.markers or 'default'} (gold text where a page has none)"
        return "gold text"


def load_set(
    folder: str | Path, source: LabelSource = LabelSource(), *, limit: int | None = None, quiet: bool = False
) -> SetData:
    """Read one set folder, build each page's document once, label and featurise it."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError(f"not a directory: {folder}")
    pages = load_dataset(folder, limit=limit)
    if not pages:
        raise ConfigError(f"no <id>.html + <id>.txt pairs in {folder}")
    bar = Progress(f"features {folder.name}", len(pages), quiet)
    blocks: list[PageBlocks | None] = []
    for i, page in enumerate(pages):
        blocks.append(_page_blocks(page, source))
        bar.update(i + 1)
    return SetData(folder.name, pages, blocks)


def _page_blocks(page: Page, source: LabelSource) -> PageBlocks | None:
    markup = _as_markup(page.html, None, None, None)
    doc = parse(markup)
    if not doc.n_blocks:
        return None
    y = page_labels(
        doc,
        markup if source.needs_markup else "",
        page.gold,
        css=source.css,
        markers=source.markers,
        use_markers=source.use_markers,
    )
    if y is None or not y.any():
        return None
    return PageBlocks(
        block_features(doc, document_span(doc)),
        y,
        page_weights(doc.words),
        doc.words.copy(),
        doc.container.copy(),
        doc.texts,
    )
