"""WCXB loading, metric, snippets and folds on a tiny set written by the test."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from scrapy_bte.training.wcxb import (
    WcxbPage,
    domain_folds,
    load_wcxb,
    snippet_hits,
    word_scores,
)


def _write_page(folder: Path, page_id: str, html: str, gold: str, **meta: object) -> None:
    (folder / f"{page_id}.html.gz").write_bytes(gzip.compress(html.encode("utf-8")))
    (folder / f"{page_id}.txt").write_text(gold, encoding="utf-8")
    record = {
        "url": f"https://{meta.get('domain', 'example.org')}/{page_id}",
        "domain": "example.org",
        "page_type": "article",
        "title": None,
        "author": None,
        "date": None,
        "with": [],
        "without": [],
    }
    record.update(meta)
    (folder / f"{page_id}.meta.json").write_text(json.dumps(record), encoding="utf-8")


@pytest.fixture
def wcxb_dir(tmp_path: Path) -> Path:
    _write_page(
        tmp_path,
        "0002",
        "<html><body><p>Zweite Seite über Größe</p></body></html>",
        "Zweite Seite über Größe",
        domain="forum.example",
        page_type="forum",
        title="Thread",
        author="",
        date="2025-10-25",
    )
    _write_page(
        tmp_path,
        "0001",
        "<html><body><h1>Hi</h1><p>First page body.</p></body></html>",
        "First page body.\n\nSecond block.",
        domain="news.example",
        title="Hi",
        author="Ann Lee",
        **{"with": ["First page"], "without": ["Subscribe now"]},
    )
    return tmp_path


def test_pages_load_sorted_with_meta(wcxb_dir: Path) -> None:
    pages = load_wcxb(wcxb_dir)
    assert [p.id for p in pages] == ["0001", "0002"]
    first, second = pages
    assert isinstance(first, WcxbPage)
    assert first.html.startswith(b"<html><body><h1>Hi")
    assert first.gold == "First page body.\n\nSecond block."
    assert (first.page_type, first.domain, first.url) == (
        "article",
        "news.example",
        "https://news.example/0001",
    )
    assert (first.title, first.author, first.date) == ("Hi", "Ann Lee", None)
    assert (first.with_snippets, first.without_snippets) == (["First page"], ["Subscribe now"])
    # An empty author is no author.
    assert (second.page_type, second.author, second.date) == ("forum", None, "2025-10-25")
    assert "Größe".encode() in second.html


def test_limit_takes_the_first_ids(wcxb_dir: Path) -> None:
    assert [p.id for p in load_wcxb(str(wcxb_dir), limit=1)] == ["0001"]


def test_incomplete_page_and_missing_folder_are_clear_errors(wcxb_dir: Path, tmp_path: Path) -> None:
    (wcxb_dir / "0002.txt").unlink()
    with pytest.raises(FileNotFoundError, match=r"0002\.txt"):
        load_wcxb(wcxb_dir)
    with pytest.raises(FileNotFoundError, match="not a WCXB folder"):
        load_wcxb(tmp_path / "absent")


def test_broken_meta_names_the_file(wcxb_dir: Path) -> None:
    (wcxb_dir / "0001.meta.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=r"0001\.meta\.json"):
        load_wcxb(wcxb_dir)


def test_word_scores_are_lowercase_word_multisets() -> None:
    assert word_scores("The CAT, the cat!", "the cat the cat") == (1.0, 1.0, 1.0)
    # Output "a a b" against gold "a b c": overlap min(2,1)+1 = 2.
    precision, recall, f1 = word_scores("a a b", "a b c")
    assert precision == pytest.approx(2 / 3)
    assert recall == pytest.approx(2 / 3)
    assert f1 == pytest.approx(2 / 3)
    precision, recall, f1 = word_scores("one two", "one two three four")
    assert (precision, recall) == (1.0, 0.5)
    assert f1 == pytest.approx(2 / 3)
    assert word_scores("Größe Über", "größe über") == (1.0, 1.0, 1.0)


def test_word_scores_empty_cases_follow_the_benchmark() -> None:
    assert word_scores("", "some gold words") == (0.0, 0.0, 0.0)
    assert word_scores(" ... ", "some gold words") == (0.0, 0.0, 0.0)
    assert word_scores("unrelated", "some gold words") == (0.0, 0.0, 0.0)
    assert word_scores("", "") == (1.0, 1.0, 1.0)
    assert word_scores("anything", "") == (0.0, 0.0, 0.0)


def test_snippet_hits_are_case_folded_substrings() -> None:
    text = "Straße und MEHR Text. Reply Quote"
    assert snippet_hits(text, ["STRASSE", "mehr text", "reply quote", "absent"]) == 3
    assert snippet_hits(text, []) == 0
    assert snippet_hits("", ["x"]) == 0


def _page(page_id: str, domain: str, page_type: str) -> WcxbPage:
    return WcxbPage(page_id, b"", "gold", page_type, domain, f"https://{domain}/", None, None, None, [], [])


def test_domain_folds_keep_each_domain_in_one_fold() -> None:
    types = ["article", "forum", "product", "listing"]
    pages = [_page(f"{i:04d}", f"site{i % 23}.example", types[i % 4]) for i in range(120)]
    folds = domain_folds(pages, k=5, seed=0)
    assert len(folds) == len(pages) and set(folds) == set(range(5))
    fold_of_domain: dict[str, set[int]] = {}
    for page, fold in zip(pages, folds, strict=True):
        fold_of_domain.setdefault(page.domain, set()).add(fold)
    assert all(len(found) == 1 for found in fold_of_domain.values())
    sizes = Counter(folds)
    assert max(sizes.values()) - min(sizes.values()) <= 12
    assert domain_folds(pages, k=5, seed=0) == folds
    assert domain_folds(pages, k=5, seed=1) != folds


def test_domain_folds_spread_page_types() -> None:
    pages = [_page(f"{i:04d}", f"d{i}.example", "forum" if i < 10 else "article") for i in range(60)]
    folds = domain_folds(pages, k=5)
    forum_folds = Counter(f for p, f in zip(pages, folds, strict=True) if p.page_type == "forum")
    assert sorted(forum_folds.values()) == [2, 2, 2, 2, 2]
    with pytest.raises(ValueError):
        domain_folds(pages, k=0)


def test_page_without_domain_loads_and_is_a_site_of_its_own(wcxb_dir: Path) -> None:
    for number in range(3, 9):
        _write_page(wcxb_dir, f"{number:04d}", "<p>Checking</p>", "Checking", url="", domain="")
    pages = load_wcxb(wcxb_dir)
    assert {(p.url, p.domain) for p in pages[2:]} == {("", "")}
    # Grouped as one site, the six would share a fold.
    folds = domain_folds(pages, k=3)
    assert len(set(folds[2:])) == 3


def test_meta_without_page_type_is_an_error(wcxb_dir: Path) -> None:
    _write_page(wcxb_dir, "0003", "<p>x</p>", "x", page_type="")
    with pytest.raises(ValueError, match=r"0003\.meta\.json: missing page_type"):
        load_wcxb(wcxb_dir)
