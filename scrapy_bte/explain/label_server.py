"""``scrapy-bte label DIR``: a local page for keeping and dropping blocks by hand.

The server is reachable by every page open in the user's browser, so it
trusts nothing a request says:

- it binds 127.0.0.1 only and answers only requests whose ``Host`` header
  names it (``127.0.0.1:PORT`` or ``localhost:PORT``), which defeats DNS
  rebinding (a hostile name resolving to 127.0.0.1 still sends its own name);
- every write needs the per-run token, which only pages served by the
  server carry (other origins cannot read them), sent in a custom header
  (which a cross-site request cannot set without a preflight this server
  never grants);
- it reads only ``.html`` files inside ``DIR``, checked after resolving the
  path (``..``, ``%2e%2e``, absolute paths and symlinks leading out are
  refused alike), and shows their blocks as escaped text, never the page
  itself with its scripts;
- it writes nothing but ``<id>.labels.json`` beside a page inside ``DIR``.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import secrets
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ..core import boundedjson
from ..errors import BTEError
from ..training import label_files
from .label_pages import LabelBlock, PageEntry, index_page, label_page

HOST = "127.0.0.1"
TOKEN_HEADER = "X-Label-Token"
#: Largest label upload accepted (a page of 100,000 blocks fits easily).
MAX_BODY = 8 * 1024 * 1024
#: Seconds a connection may sit idle or trickle a request before it is closed.
READ_TIMEOUT = 10.0
#: Connections served at once; more are closed unanswered (one user's browser opens a handful).
MAX_CONNECTIONS = 32
PAGE_PREFIX = "/page/"
SAVE_PREFIX = "/labels/"

#: ``guess(html_bytes) -> (block texts, keep per block)``: the model's labels shown first.
Guess = Callable[[bytes], tuple[list[str], list[bool]]]


def resolve_inside(root: Path, relative: str) -> Path | None:
    """The ``.html`` file ``relative`` names inside ``root`` (already resolved), or ``None``.

    The check runs on the resolved path, so ``..`` segments, absolute paths
    and symlinks that lead out of ``root`` all fail it.
    """
    if not relative or "\x00" in relative:
        return None
    try:
        candidate = (root / relative).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    if not candidate.is_relative_to(root) or candidate.suffix.lower() != ".html" or not candidate.is_file():
        return None
    return candidate


@dataclass
class LabelApp:
    """The folder, the run's token and how the model guesses."""

    root: Path
    guess: Guess
    token: str
    port: int = 0

    def pages(self) -> list[Path]:
        """The ``.html`` files inside the folder (symlinks that lead out left out), sorted."""
        found = []
        for path in sorted(self.root.rglob("*.html")):
            resolved = resolve_inside(self.root, path.relative_to(self.root).as_posix())
            if resolved is not None:
                found.append(path)
        return found

    def url(self, page: Path) -> str:
        return PAGE_PREFIX + quote(page.relative_to(self.root).as_posix())

    def is_labelled(self, page: Path) -> bool:
        try:
            saved = label_files.read(page.resolve())
        except BTEError:
            return False
        return saved is not None and saved.current

    def progress(self, pages: list[Path]) -> int:
        return sum(self.is_labelled(p) for p in pages)


class LabelHandler(BaseHTTPRequestHandler):
    server_version = "scrapy-bte-label"
    sys_version = ""

    @property
    def app(self) -> LabelApp:
        return self.server.app  # type: ignore[attr-defined]

    def setup(self) -> None:
        timeout: float = self.server.read_timeout  # type: ignore[attr-defined]
        self.timeout = timeout  # type: ignore[misc]
        super().setup()
        # The whole request, not each read, has READ_TIMEOUT: a client sending a byte a second
        # stayed under the timeout of each read and held its connection (and a slot) for ever.
        self._deadline = threading.Timer(timeout, self._expire)
        self._deadline.daemon = True
        self._deadline.start()

    def _expire(self) -> None:
        """The request was not read in time: its connection is shut (its next read ends)."""
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _request_read(self) -> None:
        """The request (and any body) has been read in time: the answer may take what it takes."""
        self._deadline.cancel()

    def finish(self) -> None:
        self._deadline.cancel()
        with contextlib.suppress(OSError):  # a client that left: nothing to flush to
            super().finish()

    def log_message(self, format: str, *args: object) -> None:
        if not getattr(self.server, "quiet", False):
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    # -- checks ------------------------------------------------------------------
    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        return host in (f"127.0.0.1:{self.app.port}", f"localhost:{self.app.port}")

    def _send(
        self, status: int, body: str, content_type: str = "text/html; charset=utf-8", nonce: str | None = None
    ) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        scripts = f"'nonce-{nonce}'" if nonce else "'none'"
        styles = f"'nonce-{nonce}'" if nonce else "'none'"
        self.send_header(
            "Content-Security-Policy",
            f"default-src 'none'; script-src {scripts}; style-src {styles}; connect-src 'self'; "
            "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        )
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._send(status, json.dumps({"error": message}) + "\n", "application/json")

    def _page_from(self, prefix: str) -> Path | None:
        path = urlsplit(self.path).path
        if not path.startswith(prefix):
            return None
        return resolve_inside(self.app.root, unquote(path[len(prefix) :]))

    # -- routes ------------------------------------------------------------------
    def do_GET(self) -> None:
        self._request_read()
        if not self._host_ok():
            self._error(HTTPStatus.MISDIRECTED_REQUEST, "unexpected Host header")
            return
        path = urlsplit(self.path).path
        if path == "/":
            self._index()
        elif path.startswith(PAGE_PREFIX):
            page = self._page_from(PAGE_PREFIX)
            if page is None:
                self._error(HTTPStatus.NOT_FOUND, "no such page in the folder")
            else:
                self._label_page(page)
        else:
            self._error(HTTPStatus.NOT_FOUND, "not found")

    def do_POST(self) -> None:
        if not self._host_ok():
            self._error(HTTPStatus.MISDIRECTED_REQUEST, "unexpected Host header")
            return
        if not hmac.compare_digest(self.headers.get(TOKEN_HEADER, ""), self.app.token):
            self._error(HTTPStatus.FORBIDDEN, "missing or wrong token")
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in (
            f"http://127.0.0.1:{self.app.port}",
            f"http://localhost:{self.app.port}",
        ):
            self._error(HTTPStatus.FORBIDDEN, "cross-origin write refused")
            return
        if (self.headers.get("Content-Type") or "").split(";")[0].strip().lower() != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send application/json")
            return
        page = self._page_from(SAVE_PREFIX)
        if page is None:
            self._error(HTTPStatus.NOT_FOUND, "no such page in the folder")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._error(HTTPStatus.LENGTH_REQUIRED, "Content-Length required")
            return
        if not 0 < length <= MAX_BODY:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body must be 1 to {MAX_BODY} bytes")
            return
        body = self.rfile.read(length)
        self._request_read()
        try:
            payload = boundedjson.loads(body)  # nested too deep: a ValueError, so 400
            labels = payload["labels"]
            if not isinstance(labels, dict) or not all(isinstance(v, bool) for v in labels.values()):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            self._error(HTTPStatus.BAD_REQUEST, 'body must be {"labels": {"<block key>": true|false, ...}}')
            return
        self._save(page, labels)

    def do_HEAD(self) -> None:
        self._request_read()
        self.do_GET()

    # -- pages -------------------------------------------------------------------
    def _index(self) -> None:
        app = self.app
        entries = [PageEntry(app.url(p), p.relative_to(app.root).as_posix(), app.is_labelled(p)) for p in app.pages()]
        nonce = secrets.token_urlsafe(16)
        self._send(HTTPStatus.OK, index_page(entries, app.root.name, nonce), nonce=nonce)

    def _blocks(self, page: Path) -> tuple[list[str], list[bool]] | None:
        try:
            return self.app.guess(page.read_bytes())
        except (OSError, BTEError) as exc:
            self._error(HTTPStatus.UNPROCESSABLE_ENTITY, f"cannot read this page: {exc}")
            return None

    def _label_page(self, page: Path) -> None:
        app = self.app
        found = self._blocks(page)
        if found is None:
            return
        texts, guess = found
        try:
            saved = label_files.read(page)
        except BTEError:
            saved = None
        saved = saved if saved is not None and saved.current else None
        keys = [label_files.block_key(t) for t in texts]
        first: dict[str, bool] = {}
        for key, keep in zip(keys, guess):
            first[key] = first.get(key, False) or bool(keep)  # same text, one label: kept if any copy is
        if saved is not None:
            first.update({k: v for k, v in saved.labels.items() if k in first})
        blocks = [LabelBlock(k, t, first[k]) for k, t in zip(keys, texts)]
        pages = app.pages()
        resolved = [p.resolve() for p in pages]
        at = resolved.index(page) if page in resolved else -1
        next_url = app.url(pages[at + 1]) if 0 <= at < len(pages) - 1 else None
        relative = page.relative_to(app.root).as_posix()
        nonce = secrets.token_urlsafe(16)
        html = label_page(
            relative,
            blocks,
            save_url=SAVE_PREFIX + quote(relative),
            next_url=next_url,
            index_url="/",
            done=app.progress(pages),
            total=len(pages),
            saved=saved is not None,
            token=app.token,
            nonce=nonce,
        )
        self._send(HTTPStatus.OK, html, nonce=nonce)

    def _save(self, page: Path, labels: dict[str, bool]) -> None:
        found = self._blocks(page)
        if found is None:
            return
        keys = {label_files.block_key(t) for t in found[0]}
        unknown = [k for k in labels if k not in keys]
        if unknown:
            self._error(HTTPStatus.CONFLICT, f"{len(unknown)} keys are not blocks of this page (reload it)")
            return
        label_files.write(page, labels)
        pages = self.app.pages()
        body = {
            "saved": label_files.labels_path(page).name,
            "blocks": len(labels),
            "labelled": self.app.progress(pages),
            "total": len(pages),
        }
        self._send(HTTPStatus.OK, json.dumps(body) + "\n", "application/json")


class LabelServer(ThreadingHTTPServer):
    """The labelling server on 127.0.0.1; ``port=0`` picks a free port."""

    daemon_threads = True

    def __init__(
        self,
        root: str | Path,
        guess: Guess,
        port: int = 0,
        *,
        quiet: bool = False,
        read_timeout: float = READ_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        root = Path(root).resolve()
        if not root.is_dir():
            raise NotADirectoryError(f"not a directory: {root}")
        label_files.remove_stale_temporaries(root)  # left by saves that were killed
        super().__init__((HOST, port), LabelHandler)
        self.quiet = quiet
        self.read_timeout = read_timeout
        self._slots = threading.BoundedSemaphore(max_connections)
        self.app = LabelApp(root, guess, secrets.token_urlsafe(32), self.server_address[1])

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread per connection, up to ``max_connections``; past that the connection is closed."""
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that left (a closed tab, a connection shut at its deadline) is no error to print."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.app.port}/"

    def start(self) -> threading.Thread:
        """Serve in a background thread (stop with :meth:`stop`)."""
        thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, name="scrapy-bte-label", daemon=True
        )
        thread.start()
        return thread

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
