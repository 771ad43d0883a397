"""Training and site-disjoint evaluation of the page-type classifier.

Rows are pages: :func:`~scrapy_bte.learned.page_type.page_evidence` of each
WCXB page (its type from the benchmark's meta) and, optionally, of article
pages from the older sets (``<id>.html`` folders, all articles; their URL is
the page's own canonical or ``og:url``, and pages stating neither are left
out, so that a missing URL never stands for "article"). Classes are
weighted (:func:`class_weights`), so the 695 WCXB articles and the extra ones
do not drown the 78 documentation pages.

Evaluation: folds grouped by domain (:func:`~scrapy_bte.training.wcxb.domain_folds`),
so no page is classified by a model that saw its site; extra article pages
whose domain is in the held-out fold are left out of that fold's training.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from ..api import parse
from ..errors import ExtractionError
from ..learned.estimators import SoftmaxClassifier
from ..learned.page_type import EVIDENCE_NAMES, PAGE_TYPES, declared_url, page_evidence
from .wcxb import domain_folds, load_wcxb


@dataclass
class Rows:
    """Evidence rows with their labels, domains and whether they are WCXB pages (the scored ones)."""

    X: np.ndarray
    y: np.ndarray
    domains: list[str]
    scored: np.ndarray
    skipped: int = 0


def _domain(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def wcxb_rows(root: str | Path, limit: int | None = None) -> Rows:
    """Evidence of every WCXB page; a page whose type is not one of :data:`PAGE_TYPES` is an error."""
    pages = load_wcxb(root, limit)
    X, y, domains = [], [], []
    for page in pages:
        if page.page_type not in PAGE_TYPES:
            raise ValueError(f"{page.id}: unknown page type {page.page_type!r}")
        X.append(page_evidence(parse(page.html), page.url or None))
        y.append(PAGE_TYPES.index(page.page_type))
        domains.append(page.domain or _domain(page.url) or f"\0{page.id}")
    return Rows(np.array(X, dtype=np.float32), np.array(y, dtype=np.int64), domains, np.ones(len(y), dtype=bool))


def article_rows(folders: Sequence[str | Path], limit: int | None = None) -> Rows:
    """Evidence of the article pages of ``<id>.html`` set folders (at most ``limit`` per folder).

    A page that does not state its URL (canonical link or ``og:url``), or
    cannot be read, is skipped and counted.
    """
    X, domains = [], []
    skipped = 0
    for folder in folders:
        files = sorted(p for p in Path(folder).iterdir() if p.name.endswith((".html", ".html.gz")))
        taken = 0
        for path in files:
            if limit is not None and taken >= limit:
                break
            data = path.read_bytes()
            if path.name.endswith(".gz"):
                data = gzip.decompress(data)
            try:
                doc = parse(data)
            except ExtractionError:
                skipped += 1
                continue
            url = declared_url(doc)
            if not url or not url.startswith(("http://", "https://")):
                skipped += 1
                continue
            X.append(page_evidence(doc, url))
            domains.append(_domain(url))
            taken += 1
    n = len(X)
    return Rows(
        np.array(X, dtype=np.float32).reshape(n, -1),
        np.zeros(n, dtype=np.int64),
        domains,
        np.zeros(n, dtype=bool),
        skipped,
    )


#: The evidence columns read from the URL (zero when ``page_evidence`` gets no URL).
URL_COLUMNS = np.array([i for i, name in enumerate(EVIDENCE_NAMES) if name.startswith(("url_", "host_", "has_url"))])


def without_urls(X: np.ndarray) -> np.ndarray:
    """``X`` as :func:`~scrapy_bte.learned.page_type.page_evidence` computes it without a URL."""
    out = X.copy()
    out[:, URL_COLUMNS] = 0.0
    return out


def join(a: Rows, b: Rows) -> Rows:
    return Rows(
        np.concatenate([a.X, b.X]) if len(b.y) else a.X,
        np.concatenate([a.y, b.y]),
        a.domains + b.domains,
        np.concatenate([a.scored, b.scored]),
        a.skipped + b.skipped,
    )


#: Default of ``balance`` in :func:`class_weights`: measured by fold accuracy (0.3-0.7 within 0.01 of each other).
BALANCE = 0.5


def class_weights(y: np.ndarray, balance: float = BALANCE) -> np.ndarray:
    """Per row, ``(rows / (classes * rows of its class)) ** balance``: 1 gives every class the same
    total weight, 0 every row the same; in between, small classes count more without the few
    documentation pages outweighing hundreds of articles."""
    counts = np.bincount(y, minlength=len(PAGE_TYPES)).astype(np.float64)
    per_class = np.where(counts > 0, (len(y) / (len(PAGE_TYPES) * np.maximum(counts, 1))) ** balance, 0.0)
    return per_class[y].astype(np.float32)


Factory = Callable[[], SoftmaxClassifier]


def fit(rows: Rows, make: Factory, mask: np.ndarray | None = None, balance: float = BALANCE) -> SoftmaxClassifier:
    """A classifier fitted on ``rows`` (those of ``mask``), classes weighted by :func:`class_weights`.

    Every row is seen twice, with its URL and without (:func:`without_urls`): pages
    extracted from files or strings come without one, and the model must not then
    read the missing URL as evidence of a type.
    """
    X, y = (rows.X, rows.y) if mask is None else (rows.X[mask], rows.y[mask])
    weights = class_weights(y, balance)
    return make().fit(np.concatenate([X, without_urls(X)]), np.concatenate([y, y]), np.concatenate([weights, weights]))


def fold_predictions(
    rows: Rows, make: Factory, k: int = 5, seed: int = 0, balance: float = BALANCE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Site-disjoint predictions of the scored rows: per WCXB page its true class, the class predicted
    with its URL and the class predicted without it.

    WCXB pages are split by :func:`domain_folds`; each fold is predicted by a
    model trained on the other folds plus the extra rows of other domains.
    """
    scored = np.flatnonzero(rows.scored)

    class _Page:  # what domain_folds reads
        def __init__(self, domain: str, page_type: str) -> None:
            self.domain, self.page_type, self.id = domain, page_type, domain

    folds = np.asarray(
        domain_folds([_Page(rows.domains[i], PAGE_TYPES[rows.y[i]]) for i in scored], k=k, seed=seed), dtype=np.int64
    )
    predicted = np.zeros(len(scored), dtype=np.int64)
    no_url = np.zeros(len(scored), dtype=np.int64)
    for f in range(k):
        held = scored[folds == f]
        held_domains = {rows.domains[i] for i in held}
        train = np.ones(len(rows.y), dtype=bool)
        train[held] = False
        train &= np.array([d not in held_domains for d in rows.domains])
        clf = fit(rows, make, train, balance)
        predicted[folds == f] = clf.predict(rows.X[held])
        no_url[folds == f] = clf.predict(without_urls(rows.X[held]))
    return rows.y[scored], predicted, no_url


def confusion(true: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    """Rows: true type, columns: predicted type, in :data:`PAGE_TYPES` order."""
    out = np.zeros((len(PAGE_TYPES), len(PAGE_TYPES)), dtype=np.int64)
    np.add.at(out, (true, predicted), 1)
    return out


def format_confusion(matrix: np.ndarray) -> str:
    """The confusion matrix as a Markdown table with per-type recall."""
    short = [t[:6] for t in PAGE_TYPES]
    lines = ["| true \\ predicted | " + " | ".join(short) + " | recall |", "| --- |" + " ---: |" * (len(short) + 1)]
    for i, name in enumerate(PAGE_TYPES):
        total = int(matrix[i].sum())
        recall = matrix[i, i] / total if total else 0.0
        lines.append(f"| {name} | " + " | ".join(str(int(v)) for v in matrix[i]) + f" | {recall:.3f} |")
    return "\n".join(lines)
