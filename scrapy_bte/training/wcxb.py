"""WCXB pages, its word-level metric, its snippet checks and site-disjoint folds.

WCXB (Web Content eXtraction Benchmark, Foley 2026) scores main content per
page type with its own metric, not the shingle metric of :mod:`.evaluation`:
word-level precision, recall and F1 over lowercase ``\\w+`` tokens counted as
multisets, averaged over pages. Numbers computed here compare with the
benchmark's published table only if every rule matches its ``evaluate.py``,
so the edge cases follow that script (see :func:`word_scores`).

A set folder holds, per page id, ``<id>.html.gz`` (the page), ``<id>.txt``
(the gold main content) and ``<id>.meta.json`` (url, domain, page_type,
title, author, date and the ``with`` / ``without`` snippet lists).

This module reads files and does arithmetic only: it never imports Scrapy.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..core.scripts import tokens

_META = ".meta.json"


@dataclass
class WcxbPage:
    """One WCXB page: raw HTML bytes (decompressed, undecoded), gold text and meta.

    ``domain`` and ``url`` are empty strings on the few pages the benchmark
    gives neither (bot-check pages); ``title``, ``author`` and ``date`` are ``None`` where the benchmark gives
    none (null or an empty string alike).
    """

    id: str
    html: bytes
    gold: str
    page_type: str
    domain: str
    url: str
    title: str | None
    author: str | None
    date: str | None
    with_snippets: list[str]
    without_snippets: list[str]


def _optional(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _snippets(meta: dict, key: str, path: Path) -> list[str]:
    value = meta.get(key) or []
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise ValueError(f"{path}: {key!r} must be a list of strings")
    return list(value)


def _read_meta(meta_path: Path) -> dict:
    """A page's ``.meta.json``, checked to be an object that names the page type."""
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{meta_path}: not valid JSON ({exc})") from exc
    if not isinstance(meta, dict):
        raise ValueError(f"{meta_path}: expected a JSON object")
    if not isinstance(meta.get("page_type"), str) or not meta["page_type"]:
        raise ValueError(f"{meta_path}: missing page_type")
    return meta


def page_type_of(folder: Path, page_id: str) -> str | None:
    """The page type a page's ``<id>.meta.json`` gives; None for a page without one."""
    meta_path = folder / f"{page_id}{_META}"
    return str(_read_meta(meta_path)["page_type"]) if meta_path.is_file() else None


def _load_page(folder: Path, page_id: str) -> WcxbPage:
    meta_path = folder / f"{page_id}{_META}"
    meta = _read_meta(meta_path)
    html_path = folder / f"{page_id}.html.gz"
    gold_path = folder / f"{page_id}.txt"
    for path in (html_path, gold_path):
        if not path.is_file():
            raise FileNotFoundError(f"{path}: missing (every page needs .html.gz, .txt, .meta.json)")
    return WcxbPage(
        id=page_id,
        html=gzip.decompress(html_path.read_bytes()),
        gold=gold_path.read_bytes().decode("utf-8", errors="replace"),
        page_type=meta["page_type"],
        domain=(_optional(meta.get("domain")) or "").lower(),
        url=_optional(meta.get("url")) or "",
        title=_optional(meta.get("title")),
        author=_optional(meta.get("author")),
        date=_optional(meta.get("date")),
        with_snippets=_snippets(meta, "with", meta_path),
        without_snippets=_snippets(meta, "without", meta_path),
    )


def load_wcxb(root: Path | str, limit: int | None = None) -> list[WcxbPage]:
    """Read the pages of a WCXB folder, sorted by id (so ``limit`` is reproducible).

    A page is named by its ``.meta.json``; a page missing its HTML or gold
    file, or with unreadable meta, is an error naming the file: a partial
    copy of the set would silently change every mean.
    """
    folder = Path(root)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: not a WCXB folder")
    ids = sorted(path.name[: -len(_META)] for path in folder.glob(f"*{_META}"))
    if limit is not None:
        ids = ids[: max(limit, 0)]
    return [_load_page(folder, page_id) for page_id in ids]


def word_scores(output: str, gold: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of one page, as WCXB's ``evaluate.py`` computes them.

    Tokens are lowercase ``\\w+`` words counted as multisets. Edge cases, as
    published: an empty output against a non-empty gold scores 0 for all
    three (emitting nothing buys no precision, unlike the shingle metric);
    an empty gold scores 1 for an empty output and 0 for anything else (the
    development split has no page with empty gold).
    """
    out = Counter(tokens(output.lower()))
    ref = Counter(tokens(gold.lower()))
    if not ref:
        return (1.0, 1.0, 1.0) if not out else (0.0, 0.0, 0.0)
    if not out:
        return (0.0, 0.0, 0.0)
    overlap = sum((out & ref).values())
    precision = overlap / sum(out.values())
    recall = overlap / sum(ref.values())
    total = precision + recall
    return precision, recall, (2 * precision * recall / total if total else 0.0)


def snippet_hits(output: str, snippets: list[str]) -> int:
    """How many snippets occur in the output (case-folded substring match).

    The benchmark reports ``hits / len(snippets)`` per page, 1.0 for a page
    without snippets; the count is returned so callers can pool it too.
    """
    text = output.casefold()
    return sum(1 for snippet in snippets if snippet.casefold() in text)


class Sited(Protocol):
    """What :func:`domain_folds` reads of a page (a :class:`WcxbPage` has it)."""

    id: str
    domain: str
    page_type: str


def domain_folds(pages: Sequence[Sited], k: int = 5, seed: int = 0) -> list[int]:
    """Fold index (``0..k-1``) per page, with every domain in exactly one fold.

    Scores on a fold then come from a model that never saw the page's site.
    A page without a domain is a site of its own.
    Domains are shuffled with ``seed`` and placed, largest first, into the
    fold with the fewest pages of the domain's main page type (then the
    fewest pages), so each fold holds every page type in about equal share.
    """
    if k < 1:
        raise ValueError("k must be at least 1")
    by_domain: dict[str, list[int]] = defaultdict(list)
    for index, page in enumerate(pages):
        by_domain[page.domain or f"\0{page.id}"].append(index)
    domains = sorted(by_domain)
    random.Random(seed).shuffle(domains)
    domains.sort(key=lambda domain: -len(by_domain[domain]))  # stable: shuffle breaks ties
    type_counts = [Counter[str]() for _ in range(k)]
    sizes = [0] * k
    folds = [0] * len(pages)
    for domain in domains:
        members = by_domain[domain]
        main_type = Counter(pages[i].page_type for i in members).most_common(1)[0][0]
        fold = min(range(k), key=lambda f: (type_counts[f][main_type], sizes[f], f))
        for i in members:
            folds[i] = fold
            type_counts[fold][pages[i].page_type] += 1
        sizes[fold] += len(members)
    return folds
