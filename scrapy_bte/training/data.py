"""Labelled pages for training: each page built once, its blocks labelled and featurised.

Reads labelled set folders (``<id>.html`` + ``<id>.txt``), labels each
page's blocks (:mod:`scrapy_bte.training.labels`) and computes their
features (:mod:`scrapy_bte.learned.features`) once, for fitting and for the
block error of scoring.

Hand labels (``<id>.labels.json``, written by ``scrapy-bte label``) take
precedence, block by block: a block the label file covers takes its label;
a block it does not cover (its text changed, or the file was written for
another feature version) takes the label of the page's other source
(selector, markers or gold text); a block with neither is left out of
training (weight 0). A page with a label file needs no gold text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..api import as_markup, parse
from ..errors import ConfigError, ExtractionError
from ..fields.read import read_document
from ..learned.features import block_features
from ..methods.bte import document_span
from . import label_files
from .evaluation import Page, load_dataset, page_files, read_page
from .labels import body_labels, page_labels
from .progress import Progress
from .wcxb import page_type_of

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
    hand_labelled: int = 0  # pages whose label file labelled at least one block

    @property
    def labelled(self) -> list[PageBlocks]:
        return [b for b in self.blocks if b is not None]


@dataclass(frozen=True)
class LabelSource:
    """Where block labels come from (see :mod:`scrapy_bte.training.labels`)."""

    css: str | None = None
    markers: tuple[str, str] | None = None
    use_markers: bool = False
    #: Move gold that keeps headline, byline, captions and comments to the body convention
    #: (:func:`scrapy_bte.training.labels.body_labels`).
    body: bool = False

    @property
    def needs_markup(self) -> bool:
        return self.css is not None or self.markers is not None or self.use_markers

    def describe(self) -> str:
        body = "; headline, byline, captions and comments relabelled as boilerplate" if self.body else ""
        if self.css:
            return f"content selector {self.css!r}{body}"
        if self.markers or self.use_markers:
            return f"template markers {self.markers or 'default'} (gold text where a page has none){body}"
        return f"gold text{body}"

    def describe_with(self, hand_labelled: int) -> str:
        """:meth:`describe`, preceded by the hand labels when any page had them."""
        if not hand_labelled:
            return self.describe()
        pages = f"{hand_labelled} page{'s' if hand_labelled != 1 else ''}"
        return f"hand labels (<id>.labels.json of {pages}), then {self.describe()}"


def load_set(
    folder: str | Path,
    source: LabelSource = LabelSource(),
    *,
    limit: int | None = None,
    quiet: bool = False,
    page_types: Collection[str] | None = None,
) -> SetData:
    """Read one set folder, build each page's document once, label and featurise it.

    ``page_types``: only the pages whose ``<id>.meta.json`` (WCXB's layout) gives one of these
    types, as the lists model is trained (listing, collection and service pages alone).
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError(f"not a directory: {folder}")
    keep = None
    if page_types is not None:
        wanted = frozenset(page_types)

        def keep(name: str) -> bool:
            try:
                return page_type_of(folder, name) in wanted
            except (ValueError, OSError) as exc:  # unreadable meta: say which file, stop the run
                raise ConfigError(str(exc)) from exc

    pages = load_pages(folder, limit=limit, keep=keep)
    if not pages:
        if page_types is not None:
            raise ConfigError(
                f"no page of {folder} has a <id>.meta.json page type among {', '.join(sorted(page_types))}"
            )
        raise ConfigError(f"no <id>.html + <id>.txt pairs or <id>.labels.json hand labels in {folder}")
    bar = Progress(f"features {folder.name}", len(pages), quiet)
    readable: list[Page] = []
    blocks: list[PageBlocks | None] = []
    hand = 0
    for i, page in enumerate(pages):
        try:
            found, by_hand = _page_blocks(page, source, folder / f"{page.name}.html")
        except ExtractionError as exc:  # a binary file named .html: one page less, not the whole run
            sys.stderr.write(f"scrapy-bte: skipped {folder / page.name}.html: {exc}\n")
            continue
        readable.append(page)
        blocks.append(found)
        hand += by_hand
        bar.update(i + 1)
    if not readable:
        raise ConfigError(f"no page of {folder} is an HTML document")
    return SetData(folder.name, readable, blocks, hand)


def load_pages(folder: Path, limit: int | None = None, keep: Callable[[str], bool] | None = None) -> list[Page]:
    """The folder's pages that have gold text, hand labels or both (sorted by id), those whose
    id ``keep`` accepts when given.

    A page with hand labels and no ``<id>.txt`` gets empty gold text: it is
    trained on and left out of the F1 scores.
    """
    if next(folder.glob("*" + label_files.SUFFIX), None) is None:
        return load_dataset(folder, limit=limit, keep=keep)
    pages: list[Page] = []
    for name, html_path in page_files(folder):
        if keep is not None and not keep(name):
            continue
        gold_path = folder / f"{name}.txt"
        if gold_path.is_file():
            gold = gold_path.read_bytes().decode("utf-8", errors="replace")
        elif label_files.labels_path(folder / f"{name}.html").is_file():
            gold = ""
        else:
            continue
        pages.append(Page(name, folder.name, read_page(html_path), gold))
        if limit is not None and len(pages) >= limit:
            break
    return pages


def _page_blocks(page: Page, source: LabelSource, path: Path) -> tuple[PageBlocks | None, bool]:
    """The page's labelled blocks, and whether hand labels decided any of them."""
    markup = as_markup(page.html, None, None, None)
    doc = parse(markup)
    if not doc.n_blocks:
        return None, False
    y = page_labels(
        doc,
        markup if source.needs_markup else "",
        page.gold or None,
        css=source.css,
        markers=source.markers,
        use_markers=source.use_markers,
    )
    if y is not None and source.body:
        y = body_labels(doc, y, read_document(doc, None, ("title",)).title)
    known = np.ones(doc.n_blocks, dtype=bool)
    saved = label_files.read(path)
    hand = None if saved is None else saved.block_labels(doc.texts)
    if hand is not None and hand[1].any():
        labels, covered = hand
        if y is None or not y.any():
            y, known = labels, covered
        else:
            y = np.where(covered, labels, y)
    elif y is None or not y.any():
        return None, False
    weight = page_weights(doc.words) * known
    return PageBlocks(
        block_features(doc, document_span(doc)),
        y,
        (weight / float(weight.sum())).astype(np.float32),
        doc.words.copy(),
        doc.container.copy(),
        doc.texts,
    ), hand is not None and bool(hand[1].any())
