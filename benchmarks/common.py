"""What the benchmark scripts share: the data folder, the sets in either layout,
the pinned core and the warm-up pages.

Scripts import it as a top-level module (``import common``): Python puts a
script's own folder first on ``sys.path``, so nothing edits it.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import scrapy_bte
from scrapy_bte.learned.model import LISTS_MODEL, metadata_path
from scrapy_bte.training.evaluation import Page, load_dataset
from scrapy_bte.training.wcxb import WcxbPage, load_wcxb

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "datasets"
#: A warm-up page in no set (with the probe page of ``extractors.py``).
SAMPLE_ARTICLE = Path(scrapy_bte.__file__).resolve().parent / "samples" / "article.html"


@dataclass
class SetData:
    """The pages of one set, read before anything is timed.

    ``wcxb`` holds the WCXB records (meta, snippets) when the set is in
    WCXB's layout; ``urls`` the pages' addresses where the set gives them.
    """

    name: str
    pages: list[Page]
    urls: list[str | None]
    wcxb: list[WcxbPage] | None = None


def pin_to_one_core() -> int:
    """Restrict this process to its first allowed CPU; return that CPU."""
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def is_wcxb(folder: Path) -> bool:
    """WCXB's layout: ``<id>.html.gz``, ``<id>.txt``, ``<id>.meta.json``."""
    return any(folder.glob("*.meta.json")) and any(folder.glob("*.html.gz"))


def list_sets(data: Path, wanted: list[str]) -> list[str]:
    """The wanted set names (all sets of ``data`` when none), checked."""
    available = sorted(p.name for p in data.iterdir() if p.is_dir() and any(p.glob("*.txt")))
    missing = [s for s in wanted if s not in available]
    if missing:
        raise SystemExit(f"unknown set(s) {missing}; available: {available}")
    return wanted or available


def load_set(folder: Path, limit: int | None = None, types: list[str] | None = None) -> SetData:
    """A set in either layout; ``types`` keeps those WCXB page types (before ``limit``)."""
    if not is_wcxb(folder):
        pages = load_dataset(folder, limit)
        return SetData(folder.name, pages, [None] * len(pages))
    records = load_wcxb(folder)
    if types:
        records = [r for r in records if r.page_type in types]
    records = records[:limit] if limit is not None else records
    pages = [Page(r.id, folder.name, r.html, r.gold) for r in records]
    return SetData(folder.name, pages, [r.url or None for r in records], records)


def warmup_pages(probe: bytes) -> list[bytes]:
    """Pages in no set: running them first sets up imports and models without
    showing any set's page before its timed call."""
    pages = [probe]
    if SAMPLE_ARTICLE.is_file():
        pages.append(SAMPLE_ARTICLE.read_bytes())
    return pages


def shipped_lists_beside(folder: Path) -> dict[str, str]:
    """Copy the shipped lists model into ``folder``; the metadata that links a model saved there
    to it. Models the benchmarks train on the older sets read list-like pages as the shipped one
    does: its lists model learned WCXB's listing, collection and service pages alone, none of
    the sets such a model is scored on."""
    for source in (LISTS_MODEL, metadata_path(LISTS_MODEL)):
        shutil.copyfile(source, Path(folder) / source.name)
    return {"lists_model": LISTS_MODEL.name}
