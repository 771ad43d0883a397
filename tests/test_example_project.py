"""The example project: ``scrapy crawl news -O file`` over the bundled offline site.

One real crawl of file:// URLs in a subprocess (the command the README shows),
then checks on what it exported: every article once, its headline, author and
date as the manifest lists them, text that is the article body (F1 against the gold of at least 0.95 on every
article) and leaves out every piece of page furniture the manifest lists.
The same for the site's pages that are not articles (a forum thread, a topic
listing, a shop's product page), which also carry their expected ``page_type``.
The site itself must match its generator.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scrapy_bte.training.evaluation import score_page

REPO = Path(__file__).resolve().parent.parent
PROJECT = REPO / "example_project"
SITE = PROJECT / "site"
MANIFEST = json.loads((SITE / "manifest.json").read_text(encoding="utf-8"))
ARTICLES = {Path(entry["page"]).stem: entry for entry in MANIFEST["articles"]}
#: Pages that are not articles, by name: each with its ``page_type`` and its own furniture.
PAGES = {Path(entry["page"]).stem: entry for entry in MANIFEST["pages"]}

_WORD = re.compile(r"\w+")


def _ngrams(tokens: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def coverage(text: str, reference_lines: list[str], n: int = 4) -> float:
    """Share of the reference's ``n``-token shingles (of ``\\w+`` tokens) found in ``text``.

    Shingles are taken within each reference line (a line shorter than ``n``
    tokens counts as one shingle of its length), so a caption or an ad label
    between two paragraphs does not count against the paragraphs themselves.
    This matters for Chinese, Japanese and Thai, where ``\\w+`` tokens are
    whole clauses and a page has only a few dozen of them.
    """
    found = _WORD.findall(text.lower())
    hit = total = 0
    for line in reference_lines:
        tokens = _WORD.findall(line.lower())
        size = min(n, len(tokens))
        if size:
            wanted = _ngrams(tokens, size)
            total += len(wanted)
            hit += len(wanted & _ngrams(found, size))
    return hit / total if total else 1.0


def _gold(name: str) -> list[str]:
    entry = ARTICLES.get(name) or PAGES[name]
    return (SITE / entry["gold"]).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """Items of one crawl, grouped by page name (URL stem)."""
    out = tmp_path_factory.mktemp("example") / "articles.jsonl"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out), "-s", "LOG_LEVEL=INFO"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "ERROR" not in proc.stderr, proc.stderr[-4000:]
    items: dict[str, list[dict[str, Any]]] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        items.setdefault(Path(item["url"]).stem, []).append(item)
    return items


@pytest.fixture(scope="module")
def exported(crawled: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The crawl's article items."""
    return {name: items for name, items in crawled.items() if name in ARTICLES}


def test_every_page_exported_once(crawled: dict[str, list[dict[str, Any]]]) -> None:
    gold_files = sorted(path.stem for path in (SITE / "gold").glob("*.txt"))
    assert len(ARTICLES) >= 30 and len(PAGES) == 3
    assert len(gold_files) == len(ARTICLES) + len(PAGES)
    assert sorted(crawled) == gold_files  # index and section pages yield nothing
    assert Counter(len(items) for items in crawled.values()) == {1: len(gold_files)}


def test_articles_are_articles(exported: dict[str, list[dict[str, Any]]]) -> None:
    types = Counter(items[0].get("page_type") for items in exported.values())
    assert types == {"article": len(ARTICLES)}


def test_title_author_and_date_are_the_manifests(exported: dict[str, list[dict[str, Any]]]) -> None:
    wrong = {
        name: (items[0].get("title"), items[0].get("author"), items[0].get("date"))
        for name, items in exported.items()
        if (items[0].get("title"), items[0].get("author"), items[0].get("date"))
        != (ARTICLES[name]["headline"], ARTICLES[name]["author"], ARTICLES[name]["date"])
    }
    assert not wrong


def test_text_is_the_article_body(exported: dict[str, list[dict[str, Any]]]) -> None:
    scores = {name: score_page(items[0].get("text") or "", "\n".join(_gold(name))) for name, items in exported.items()}
    low = {
        name: (round(s.f1, 3), round(s.precision, 3), round(s.recall, 3)) for name, s in scores.items() if s.f1 < 0.95
    }
    assert not low, f"text F1 (P, R) against the gold body < 0.95: {low}"


FURNITURE = (
    "menu",
    "cookie_banner",
    "byline",
    "caption",
    "ads",
    "related",
    "newsletter",
    "comments",
    "sidebar",
    "footer",
)


@pytest.mark.parametrize("part", FURNITURE)
def test_text_leaves_out_the_furniture(exported: dict[str, list[dict[str, Any]]], part: str) -> None:
    # A line that the body itself also says (an article about advertising) cannot leak.
    leaked = {
        name: line
        for name, items in exported.items()
        for line in ARTICLES[name]["boilerplate"][part]
        if coverage(items[0].get("text") or "", [line]) >= 0.5 and coverage("\n".join(_gold(name)), [line]) < 0.5
    }
    assert not leaked, f"{part} text in the text of {leaked}"


def test_scores_attached(exported: dict[str, list[dict[str, Any]]]) -> None:
    for items in exported.values():
        scores = items[0].get("bte")
        assert isinstance(scores, dict) and "method" in scores and not scores.get("error"), items[0]["url"]


def test_site_matches_its_generator(tmp_path: Path) -> None:
    """Pages and gold files are regenerated byte for byte from ``site/_articles``."""
    subprocess.run(
        [sys.executable, str(SITE / "_generate.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(generated) > 2 * len(ARTICLES)
    stale = [str(rel) for rel in generated if (SITE / rel).read_bytes() != (tmp_path / rel).read_bytes()]
    assert not stale


def test_the_documented_item_is_what_the_crawl_exports(exported: dict[str, list[dict[str, Any]]]) -> None:
    """README.md and docs/scrapy.md show an item of this crawl, written by docs/gen.py, not typed."""
    spec = importlib.util.spec_from_file_location("docs_gen", REPO / "docs" / "gen.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    (item,) = exported[gen.EXAMPLE_ARTICLE]
    for path in gen.BLOCKS["example-item"][0]:
        assert gen.current(path, "example-item") == gen.sample_item(item), f"{path}: run python docs/gen.py"


# -- pages that are not articles --------------------------------------------------------------
#: Checks the default extraction fails on these honestly written pages, each with its reason
#: (name, check) -> reason. ``strict``: a check that starts passing must leave this table.
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _page_params(checks: list[tuple[str, str]]) -> list[Any]:
    return [
        pytest.param(
            name,
            check,
            id=f"{name}-{check}",
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[name, check])]
            if (name, check) in KNOWN_FAILURES
            else [],
        )
        for name, check in checks
    ]


@pytest.mark.parametrize(("name", "check"), _page_params([(name, "page_type") for name in PAGES]))
def test_page_type_is_the_manifests(crawled: dict[str, list[dict[str, Any]]], name: str, check: str) -> None:
    (item,) = crawled[name]
    assert item.get("page_type") == PAGES[name]["page_type"]


@pytest.mark.parametrize(("name", "check"), _page_params([(name, "f1") for name in PAGES]))
def test_page_text_is_its_content(crawled: dict[str, list[dict[str, Any]]], name: str, check: str) -> None:
    (item,) = crawled[name]
    score = score_page(item.get("text") or "", "\n".join(_gold(name)))
    assert score.f1 >= 0.95, f"F1 {score.f1:.3f} (P {score.precision:.3f}, R {score.recall:.3f}) against the gold"


@pytest.mark.parametrize(
    ("name", "check"), _page_params([(name, part) for name, entry in PAGES.items() for part in entry["boilerplate"]])
)
def test_page_text_leaves_out_its_furniture(crawled: dict[str, list[dict[str, Any]]], name: str, check: str) -> None:
    (item,) = crawled[name]
    lines = PAGES[name]["boilerplate"][check]
    assert lines and all(coverage("\n".join(_gold(name)), [line]) < 0.5 for line in lines), "furniture in the gold"
    leaked = [line for line in lines if coverage(item.get("text") or "", [line]) >= 0.5]
    assert not leaked, f"{check} text in the text: {leaked}"


@pytest.mark.parametrize(
    ("name", "check"),
    _page_params([(name, "byline") for name, entry in PAGES.items() if entry["page_type"] in ("product", "listing")]),
)
def test_a_shops_item_and_a_list_give_no_author_nor_date(
    crawled: dict[str, list[dict[str, Any]]], name: str, check: str
) -> None:
    """A listing's cards carry their stories' bylines and dates, a product page its reviews'
    authors: none of them is the page's, and the item leaves both empty."""
    (item,) = crawled[name]
    assert "author" in item and "date" in item
    assert (item["author"], item["date"]) == (None, None)


def test_the_spider_on_a_live_site_steps_over_json_links(tmp_path: Path) -> None:
    """With ``-a start_url=...`` the spider followed a link to a JSON document and failed on it:
    "Cannot use xpath on a Selector of type 'json'", an ERROR in the crawl's log."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<html><head><title>Home</title></head><body><h1>Home</h1><p>"
        + "A short note on the front page of a small local site. " * 3
        + "</p><a href='data.json'>data</a> <a href='story.html'>story</a></body></html>",
        encoding="utf-8",
    )
    (site / "data.json").write_text('{"stories": [1, 2, 3]}', encoding="utf-8")
    (site / "story.html").write_text(
        "<html><head><title>Story</title></head><body><h1>Story</h1><p>"
        + "The ferry ran late again on Tuesday morning after the storm. " * 5
        + "</p></body></html>",
        encoding="utf-8",
    )

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        out = tmp_path / "items.jsonl"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        proc = subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url=http://127.0.0.1:{server.server_port}/"]
            + ["-s", "DEPTH_LIMIT=1", "-s", "BTE_WORKERS=0", "-s", "LOG_LEVEL=INFO", "-O", str(out)],
            cwd=PROJECT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "ERROR" not in proc.stderr, proc.stderr[-4000:]
    home = f"http://127.0.0.1:{server.server_port}/"
    urls = sorted(json.loads(line)["url"] for line in out.read_text(encoding="utf-8").splitlines())
    assert urls == [home, home + "story.html"]  # the two pages, not the JSON document
