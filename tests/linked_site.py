"""A small linked news site on 127.0.0.1 for crawls that follow links.

``/`` links to the section pages, each section page to its articles, and
every article to the home page and to two other articles, so most links a
crawl finds are duplicates the dupefilter must drop. Each article has one
sentence no other page has (:func:`marker`), which its extracted text must
hold. Every response waits ``delay`` seconds (changeable while the server
runs), as a remote site would, so crawls last long enough to interrupt.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

TOPICS = (
    ("harbour", "the ferry timetable", "the old pier"),
    ("library", "the reading room", "the winter lectures"),
    ("orchard", "the apple harvest", "the cider press"),
    ("railway", "the night trains", "the signal box"),
    ("school", "the science fair", "the new gymnasium"),
    ("market", "the flower stalls", "the Saturday fair"),
)


def marker(number: int) -> str:
    """The sentence only article *number* contains."""
    return f"Reporters filed dispatch number {number} from the valley on a quiet morning."


def article_html(number: int, total: int) -> bytes:
    place, first, second = TOPICS[number % len(TOPICS)]
    links = "".join(
        f'<li><a href="/article-{other}.html">Story {other} from the valley</a></li>'
        for other in ((number + 1) % total, (number + 7) % total)
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Story {number} about the {place}</title></head>
<body>
<header><a href="/">Valley Courier</a>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/section-0.html">Sections</a></li></ul></header>
<main><article>
<h1>Story {number} about the {place}</h1>
<p>{marker(number)} The council met to talk about {first} and about {second}, which many residents
had written letters about during the autumn and the long weeks of rain before the holidays.</p>
<p>Several speakers asked for more money for {first}, while others said that {second} should come
first because it draws visitors from the neighbouring towns every weekend of the summer season.</p>
<p>A decision is expected next month, after a public hearing in the town hall where everyone who
lives near the {place} may speak for three minutes and hand in written comments to the clerk.</p>
</article></main>
<aside><h3>More stories</h3><ul>{links}</ul></aside>
<footer><a href="/about.html">About us</a> | <a href="/contact.html">Contact</a></footer>
</body></html>
""".encode()


def section_html(section: int, numbers: list[int], sections: int) -> bytes:
    items = "".join(f'<li><a href="/article-{n}.html">Story {n} from the valley</a></li>' for n in numbers)
    others = "".join(f'<a href="/section-{s}.html">Section {s}</a> ' for s in range(sections))
    return f"""<!DOCTYPE html>
<html><head><title>Section {section}</title></head>
<body><nav>{others}</nav><h1>Section {section}</h1><ul>{items}</ul></body></html>
""".encode()


def build_pages(articles: int, per_section: int = 10) -> dict[str, bytes]:
    """Every page of a site with *articles* articles, by path."""
    sections = (articles + per_section - 1) // per_section
    pages = {f"/article-{n}.html": article_html(n, articles) for n in range(articles)}
    for s in range(sections):
        numbers = list(range(s * per_section, min(articles, (s + 1) * per_section)))
        pages[f"/section-{s}.html"] = section_html(s, numbers, sections)
    home_links = "".join(f'<li><a href="/section-{s}.html">Section {s}</a></li>' for s in range(sections))
    pages["/"] = f"<html><head><title>Valley Courier</title></head><body><ul>{home_links}</ul></body></html>".encode()
    return pages


class LinkedSite:
    """``with LinkedSite(articles=60, delay=0.05) as site: site.url("/")``."""

    def __init__(self, articles: int, delay: float = 0.0, per_section: int = 10) -> None:
        self.pages = build_pages(articles, per_section)
        self.articles = articles
        self.delay = delay
        self.served: list[tuple[str, int]] = []  # (path, status) of every complete response
        # Requests past the first ``hold_after`` wait until release() is called:
        # a crawler killed meanwhile certainly has requests in flight.
        self.hold_after: int | None = None
        self.held = 0
        self._started = 0
        self._release = threading.Event()
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                with site._lock:
                    held = site.hold_after is not None and site._started >= site.hold_after
                    site._started += 1
                    site.held += held
                if held:
                    site._release.wait(timeout=120)
                    with site._lock:
                        site.held -= 1
                if site.delay:
                    time.sleep(site.delay)
                body = site.pages.get(path)
                status = 200 if body is not None else 404
                body = body if body is not None else b"<html><body>no such page</body></html>"
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the crawler was killed
                    return
                with site._lock:
                    site.served.append((path, status))

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a killed crawler's connections break: not the site's problem

        self._server = Server(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="linked-site", daemon=True)

    def release(self) -> None:
        """Let held requests (and every later one) through."""
        self._release.set()

    def url(self, path: str) -> str:
        return self.base + path

    def article_urls(self) -> list[str]:
        return [self.url(f"/article-{n}.html") for n in range(self.articles)]

    def html_urls(self) -> list[str]:
        """Every page the crawl can reach from ``/``."""
        return [self.url(path) for path in self.pages]

    def __enter__(self) -> LinkedSite:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
