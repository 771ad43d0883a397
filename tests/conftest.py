"""Shared fixtures: a local test site and a helper that runs real crawls.

The site is a threaded ``http.server`` on 127.0.0.1 (port 0) serving HTML
articles, non-HTML bodies, broken, slow, huge, gzip-encoded, untyped and
redirecting pages. Crawls run ``tests/fixtures/crawl.py`` in a subprocess (a
fresh Twisted reactor each time) and come back as a :class:`CrawlResult`.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import scrapy_bte

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The sample pages the imported package ships (CI also runs the tests against an
# installed wheel, from a copy of tests/ outside the source tree).
SAMPLES = Path(scrapy_bte.__file__).resolve().parent / "samples"
CRAWL_SCRIPT = FIXTURES / "crawl.py"
PYTHON = sys.executable

# Sentences that must be in the extracted text of each article, and
# boilerplate from the same pages that must not.
ARTICLE1_SENTENCES = (
    "Eurasian otters have settled again in the lower Elbe valley",
    "two holts dug under the roots of old alder trees",
    "a short training course on reading tracks will be held",
)
ARTICLE2_SENTENCES = (
    "build a pedestrian bridge across the old harbour basin",
    "a steel swing bridge that can turn aside for the sailing ships",
)
TWO_ITEMS_SENTENCES = ("night trains are returning to the timetables",)
# fixtures/comments.html: its article, and the two readers' comments under it.
COMMENTED_SENTENCES = (
    "took in more spring honey this year than in any season",
    "asked gardeners to leave dandelions and clover in their lawns",
)
COMMENT_SENTENCES = (
    "Our two hives on the allotment did just as well",
    "Will the open day at the teaching apiary be suitable for small children",
)
LATIN1_SENTENCES = ("Der Bäcker Müller eröffnet sein Café am Marktplatz",)
BOILERPLATE = ("Archive of the navigation menu", "Council approves the new parking rules", "FooterCorp", "Advertise")


class FixedModel:
    """A block model whose probabilities are given: the selection rules read them as they are."""

    def __init__(self, p: list[float], threshold: float = 0.65) -> None:
        self.p, self.threshold = np.asarray(p, dtype=np.float32), threshold

    def predict_document(self, doc: object, X: np.ndarray, *, lists: bool = False) -> np.ndarray:
        return self.p  # no lists model: the same probabilities on every profile


@dataclass
class Route:
    body: bytes
    content_type: str | None = "text/html; charset=utf-8"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def _fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


LATIN1_PAGE = (
    "<html><head><title>Neues Café</title></head><body>"
    "<div class='nav'><a href='/'>Start</a> <a href='/lokal'>Lokales</a> <a href='/sport'>Sport</a></div>"
    "<article><h1>Neues Café</h1>"
    "<p>Der Bäcker Müller eröffnet sein Café am Marktplatz, gleich neben der alten Apotheke, "
    "und bietet ab Montag frische Brötchen, Kuchen und Kaffee aus der eigenen Rösterei an.</p>"
    "<p>Die Stadtverwaltung freut sich über die Belebung der Innenstadt, in der zuletzt viele "
    "Geschäfte leer standen, und hofft auf weitere Eröffnungen im Frühjahr.</p>"
    "</article></body></html>"
).encode("windows-1252")

# A front page and a section page with little text of their own, whose links
# (class="follow") lead to the articles, as on a news site.
INDEX_PAGE = (
    b"<html><head><title>Valley News</title></head><body><h1>Valley News</h1>"
    b"<p>Today: <a class='follow' href='/section.html'>Nature and environment</a></p></body></html>"
)
SECTION_PAGE = (
    b"<html><head><title>Nature</title></head><body><h1>Nature and environment</h1><ul>"
    b"<li><a class='follow' href='/article1.html'>Otters return</a></li>"
    b"<li><a class='follow' href='/article2.html'>A new bridge</a></li>"
    b"<li><a class='follow' href='/article1-copy.html'>Otters return (updated)</a></li>"
    b"</ul></body></html>"
)

HOSTILE_MARK = "<!-- bte-test:{} -->"


def build_routes() -> dict[str, Route]:
    """Every page of the test site, by path."""
    article1 = _fixture("article1.html")
    article2 = _fixture("article2.html")
    padding = b"".join(
        b"<p>Filler paragraph %d keeps this page above the size limit of the crawl.</p>\n" % i for i in range(4000)
    )
    huge = article1.replace(b"</article>", padding + b"</article>")
    return {
        "/article1.html": Route(article1),
        "/article2.html": Route(article2),
        "/two_items.html": Route(_fixture("two_items.html")),
        "/broken.html": Route(_fixture("broken.html")),
        "/short.html": Route(_fixture("short.html")),
        "/comments.html": Route(_fixture("comments.html")),
        "/forum.html": Route(_fixture("forum.html")),
        "/fields.html": Route(_fixture("fields/graph.html")),
        "/empty.html": Route(b"<html><head></head><body></body></html>"),
        "/latin1.html": Route(LATIN1_PAGE, "text/html; charset=windows-1252"),
        "/xhtml": Route(article2, "application/xhtml+xml"),
        "/untyped": Route(article2, None),
        "/gzip.html": Route(gzip.compress(article1), headers={"Content-Encoding": "gzip"}),
        "/slow.html": Route(article2, delay=1.0),
        "/huge.html": Route(huge),
        "/redirect": Route(b"", None, 302, {"Location": "/article2.html?via=redirect"}),
        "/index.html": Route(INDEX_PAGE),
        "/section.html": Route(SECTION_PAGE),
        "/article1-copy.html": Route(article1.replace(b"</article>", b"<p>Updated on Tuesday.</p></article>")),
        "/short-copy.html": Route(_fixture("short.html")),
        "/json-as-html": Route(
            b'{"title": "not a page", "items": [{"id": 1, "text": "words and words"}]}', "text/html"
        ),
        "/padded.html": Route(article2 + b"\x00" * 4096),
        "/doc.pdf": Route(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n", "application/pdf"),
        "/image.png": Route(b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "image/png"),
        "/data.json": Route(b'{"title": "not a page", "items": [1, 2, 3]}', "application/json"),
        "/untyped.bin": Route(bytes(range(256)) * 4, None),
        "/missing.html": Route(b"<html><body><p>Not found</p></body></html>", status=404),
        "/sleep.html": Route(HOSTILE_MARK.format("sleep:30").encode() + article1),
        "/crash.html": Route(HOSTILE_MARK.format("exit:3").encode() + article1),
        "/killed.html": Route(HOSTILE_MARK.format("kill:9").encode() + article1),
        "/raise.html": Route(HOSTILE_MARK.format("raise").encode() + article1),
        "/hog.html": Route(HOSTILE_MARK.format("alloc:2048").encode() + article1),
        **torture_routes(),
    }


def torture_routes() -> dict[str, Route]:
    """The torture corpus's small cases, each labelled text/html as a careless server would."""
    from scrapy_bte.testing.torture import small_cases

    routes = {}
    for case in small_cases():
        data = case.data()
        body = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        routes[f"/torture/{case.name}"] = Route(body, "text/html")
    return routes


class _Handler(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, Route]] = {}

    def do_GET(self) -> None:
        route = self.routes.get(self.path.split("?", 1)[0])
        if route is None:
            route = Route(b"<html><body>no such page</body></html>", status=404)
        if route.delay:
            time.sleep(route.delay)
        self.send_response(route.status)
        if route.content_type:
            self.send_header("Content-Type", route.content_type)
        for name, value in route.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        self.wfile.write(route.body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        pass


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """Base URL of the local test site."""
    handler = type("Handler", (_Handler,), {"routes": build_routes()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="test-site", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@dataclass
class CrawlResult:
    """What one crawl left behind: exported items, stats, log and pool facts."""

    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str  # Scrapy's log (LOG_FILE)
    stderr: str  # anything else the crawl process printed
    returncode: int
    pids: list[int]
    orphans: list[int]
    deprecations: list[str]
    max_reactor_lag: float  # seconds the reactor thread was blocked at most

    def by_path(self, path: str) -> list[dict[str, Any]]:
        """Exported items whose URL is *path* (with its query, if any) on the site."""
        return [item for item in self.items if "/" + item["url"].split("//", 1)[1].split("/", 1)[1] == path]

    def one(self, path: str) -> dict[str, Any]:
        found = self.by_path(path)
        assert len(found) == 1, f"{path}: {len(found)} items in {[i['url'] for i in self.items]}"
        return found[0]

    def stat(self, key: str) -> Any:
        return self.stats.get(key, 0)

    def log_lines(self, level: str) -> list[str]:
        """Scrapy log records of *level* (first line of each)."""
        return [line for line in self.log.splitlines() if f"] {level}: " in line]


def run_crawl(
    base: str,
    out: Path,
    pages: list[dict[str, Any] | str],
    *,
    settings: dict[str, Any] | None = None,
    addon: bool = True,
    mode: str = "zero",
    feed_format: str = "jsonlines",
    target: str | None = None,
    timeout: float = 90,
) -> CrawlResult:
    """Run one crawl of *pages* (paths, or dicts with ``path``, ``item``,
    ``dont_bte``, ``preset``) in a subprocess and collect its output."""
    out.mkdir(parents=True, exist_ok=True)
    feed_name = "items.csv" if feed_format == "csv" else "items.jsonl"
    config = {
        "base": base,
        "out": str(out),
        "pages": [{"path": page} if isinstance(page, str) else page for page in pages],
        "settings": settings or {},
        "addon": addon,
        "mode": mode,
        "feed_format": feed_format,
        "feed_name": feed_name,
        "target": target,
    }
    config_path = out / "config.json"
    config_path.write_text(json.dumps(config))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), str(FIXTURES), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [PYTHON, str(CRAWL_SCRIPT), str(config_path)],
        env=env,
        cwd=str(out),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    log_path = out / "crawl.log"
    log = log_path.read_text() if log_path.exists() else ""
    feed = out / feed_name
    items: list[dict[str, Any]] = []
    if feed.exists():
        if feed_format == "csv":
            with feed.open(newline="", encoding="utf-8") as fh:
                items = list(csv.DictReader(fh))
        else:
            items = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines() if line.strip()]
    stats_path, result_path = out / "stats.json", out / "result.json"
    stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
    result = json.loads(result_path.read_text()) if result_path.exists() else {}
    return CrawlResult(
        items=items,
        stats=stats,
        log=log,
        stderr=proc.stderr,
        returncode=proc.returncode,
        pids=result.get("pids", []),
        orphans=result.get("orphans", []),
        deprecations=result.get("deprecations", []),
        max_reactor_lag=result.get("max_reactor_lag", -1.0),
    )


@pytest.fixture
def crawl(site: str, tmp_path: Path) -> Callable[..., CrawlResult]:
    """``crawl(pages, **options)`` runs one crawl against the test site."""

    def run(pages: list[dict[str, Any] | str], **options: Any) -> CrawlResult:
        return run_crawl(site, tmp_path / "crawl", pages, **options)

    return run


@pytest.fixture
def native_on() -> Iterator[None]:
    """The C passes switched on for the test, whatever ``SCRAPY_BTE_NATIVE`` says (RuntimeError
    where the extension is not built: such tests also carry a skip mark outside CI)."""
    from scrapy_bte.core.accel import native

    with native():
        yield


def assert_article(text: str, sentences: tuple[str, ...]) -> None:
    """The text holds every sentence of the article and none of the boilerplate."""
    for sentence in sentences:
        assert sentence in text, f"missing {sentence!r} in {text!r}"
    for junk in BOILERPLATE:
        assert junk not in text, f"boilerplate {junk!r} in {text!r}"


def assert_clean_log(result: CrawlResult) -> None:
    """No traceback reached Scrapy's log and Scrapy raised no deprecation warning."""
    assert "Traceback" not in result.log, result.log[-4000:]
    assert not result.deprecations, result.deprecations
    assert "ScrapyDeprecationWarning" not in result.log
