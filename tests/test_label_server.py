"""``scrapy-bte label``: label files, and the server's guards, over real HTTP on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapy_bte.api import parse
from scrapy_bte.errors import ConfigError
from scrapy_bte.explain.commands import model_guess
from scrapy_bte.explain.label_server import TOKEN_HEADER, LabelServer, resolve_inside
from scrapy_bte.training import label_files

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HOSTILE = b"""<html><head><title>t</title></head><body>
<p>Plain words &lt;script&gt;window.pwned = 1&lt;/script&gt; in a paragraph long enough to be kept by the model.</p>
<p>More words &lt;img src=x onerror=alert(2)&gt; in a second paragraph, also long enough to count as text.</p>
</body></html>"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``tmp/outside/`` holds a secret page and file; ``tmp/outside/pages/`` is the served folder."""
    outside = tmp_path / "outside"
    pages = outside / "pages"
    (pages / "sub").mkdir(parents=True)
    shutil.copy(FIXTURES / "article1.html", pages / "a.html")
    shutil.copy(FIXTURES / "comments.html", pages / "sub" / "b.html")
    (pages / "hostile.html").write_bytes(HOSTILE)
    (pages / "notes.txt").write_text("not a page")
    (outside / "secret.html").write_text("<p>secret words that must never be served by the label server</p>")
    (pages / "link.html").symlink_to(outside / "secret.html")
    (pages / "linkdir").symlink_to(outside)
    return pages


@pytest.fixture
def server(folder: Path) -> Iterator[LabelServer]:
    srv = LabelServer(folder, model_guess("auto"), 0, quiet=True)
    srv.start()
    yield srv
    srv.stop()


def request(
    server: LabelServer, method: str, path: str, body: bytes | None = None, headers: dict[str, str | None] | None = None
) -> tuple[int, str, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", server.app.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": f"127.0.0.1:{server.app.port}", **(headers or {})}
        if body is not None:
            sent.setdefault("Content-Length", str(len(body)))
        for key, value in sent.items():
            if value is not None:
                conn.putheader(key, value)
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8"), dict(response.getheaders())
    finally:
        conn.close()


def files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if not p.is_symlink()}


def save(server: LabelServer, path: str, labels: dict[str, bool], **headers: str) -> tuple[int, str]:
    hdrs = {"Content-Type": "application/json", TOKEN_HEADER: server.app.token, **headers}
    status, body, _ = request(server, "POST", path, json.dumps({"labels": labels}).encode(), hdrs)
    return status, body


def keys_of(page: Path) -> list[str]:
    return [label_files.block_key(t) for t in parse(page.read_bytes()).texts]


# -- path checks -------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative",
    [
        "../secret.html",
        "sub/../../secret.html",
        "/etc/passwd",
        "link.html",
        "linkdir/secret.html",
        "notes.txt",
        "missing.html",
        "",
        "a.html\x00.txt",
        "%2e%2e/secret.html",
    ],
)
def test_resolve_inside_refuses_everything_outside(folder, relative):
    assert resolve_inside(folder.resolve(), relative) is None


def test_resolve_inside_accepts_pages_of_the_folder(folder):
    root = folder.resolve()
    assert resolve_inside(root, "a.html") == root / "a.html"
    assert resolve_inside(root, "sub/../sub/b.html") == root / "sub" / "b.html"


# -- the server ----------------------------------------------------------------------


def test_index_lists_pages_inside_with_progress(server, folder):
    status, body, headers = request(server, "GET", "/")
    assert status == 200
    assert {"a.html", "sub/b.html", "hostile.html"} <= set(re.findall(r'<a href="/page/[^"]+">([^<]+)</a>', body))
    assert "secret" not in body and "link.html" not in body
    assert "0 of 3 pages labelled" in body
    nonce = re.search(r"'nonce-([^']+)'", headers["Content-Security-Policy"]).group(1)
    assert f'<style nonce="{nonce}">' in body
    assert headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1", "127.0.0.1:1", "", None])
def test_requests_for_another_host_are_refused(server, host):
    value = None if host is None else host.format(port=server.app.port)  # None: no Host header at all
    assert request(server, "GET", "/", headers={"Host": value})[0] == 421


def test_localhost_by_name_is_served(server):
    assert request(server, "GET", "/", headers={"Host": f"localhost:{server.app.port}"})[0] == 200


@pytest.mark.parametrize(
    "path",
    [
        "/page/../secret.html",
        "/page/%2e%2e/secret.html",
        "/page/%2E%2E%2Fsecret.html",
        "/page/sub/%2e%2e/%2e%2e/secret.html",
        "/page/link.html",
        "/page/linkdir/secret.html",
        "/page/%2Fetc%2Fpasswd",
        "/page/notes.txt",
        "/page/a.html%00",
        "/../secret.html",
        "/secret.html",
        "/a.html",
    ],
)
def test_nothing_outside_the_folder_is_served(server, path):
    status, body, _ = request(server, "GET", path)
    assert status == 404 and "secret words" not in body


def test_page_blocks_are_shown_as_escaped_text(server):
    status, body, headers = request(server, "GET", "/page/hostile.html")
    assert status == 200
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in body
    assert "&lt;img src=x onerror=alert(2)&gt;" in body and "<img" not in body
    nonce = re.search(r"'nonce-([^']+)'", headers["Content-Security-Policy"]).group(1)
    assert re.findall(r"<script[^>]*>", body) == [f'<script nonce="{nonce}">']
    assert f'content="{server.app.token}"' in body


def test_writes_need_token_origin_and_json(server, folder):
    keys = keys_of(folder / "a.html")
    before = files(folder.parent)
    assert save(server, "/labels/a.html", {keys[0]: True}, **{TOKEN_HEADER: ""})[0] == 403
    assert save(server, "/labels/a.html", {keys[0]: True}, **{TOKEN_HEADER: "guessed"})[0] == 403
    assert save(server, "/labels/a.html", {keys[0]: True}, Origin="http://evil.example")[0] == 403
    assert save(server, "/labels/a.html", {keys[0]: True}, **{"Content-Type": "text/plain"})[0] == 415
    status, _, _ = request(
        server,
        "POST",
        "/labels/a.html",
        b'{"labels": {}}',
        {"Host": "evil.example", "Content-Type": "application/json", TOKEN_HEADER: server.app.token},
    )
    assert status == 421
    assert save(server, "/labels/a.html", {"0" * 24: True})[0] == 409
    assert save(server, "/labels/../secret.html", {})[0] == 404
    assert save(server, "/labels/%2e%2e/secret.html", {})[0] == 404
    assert save(server, "/labels/link.html", {})[0] == 404
    assert files(folder.parent) == before


def test_a_save_writes_only_the_label_file(server, folder):
    page = folder / "sub" / "b.html"
    keys = keys_of(page)
    before = files(folder.parent)
    status, body = save(
        server, "/labels/sub/b.html", {keys[0]: True, keys[1]: False}, Origin=f"http://127.0.0.1:{server.app.port}"
    )
    assert status == 200
    reply = json.loads(body)
    assert reply == {"saved": "b.labels.json", "blocks": 2, "labelled": 1, "total": 3}
    assert files(folder.parent) - before == {"pages/sub/b.labels.json"}
    assert label_files.read(page).labels == {keys[0]: True, keys[1]: False}
    # The page now opens with the saved labels, not the model's guess.
    _, html, _ = request(server, "GET", "/page/sub/b.html")
    assert "showing saved labels" in html
    first = re.search(r'<li class="block (keep|drop)"[^>]*data-key="([0-9a-f]+)"', html)
    assert first.group(2) == keys[0] and first.group(1) == "keep"
    assert "1 of 3 pages labelled" in request(server, "GET", "/")[1]


def test_cli_refuses_a_missing_folder(tmp_path, capsys):
    from scrapy_bte.cli import EXIT_USAGE, main

    assert main(["label", str(tmp_path / "nope"), "--port", "0"]) == EXIT_USAGE
    assert "not a directory" in capsys.readouterr().err


# -- hostile clients ---------------------------------------------------------------


def test_a_deeply_nested_body_is_a_bad_request(server, folder):
    """A POST body nested 200,000 deep raised an unhandled RecursionError."""
    body = b'{"labels": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    hdrs = {"Content-Type": "application/json", TOKEN_HEADER: server.app.token}
    status, reply, _ = request(server, "POST", "/labels/a.html", body, hdrs)
    assert status == 400 and "labels" in reply
    assert save(server, "/labels/a.html", {keys_of(folder / "a.html")[0]: True})[0] == 200  # still serving


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def test_idle_connections_are_closed_after_the_read_timeout(folder):
    srv = LabelServer(folder, model_guess("auto"), 0, quiet=True, read_timeout=0.5)
    srv.start()
    try:
        idle = _connect(srv.app.port)
        started = time.monotonic()
        assert idle.recv(100) == b""  # closed by the server, not by this client
        assert time.monotonic() - started < 5
        idle.close()
    finally:
        srv.stop()


def test_a_request_trickled_a_byte_at_a_time_is_closed_at_the_read_timeout(folder):
    """The timeout was each read's: a client sending a byte every 0.3 s kept its connection (and
    its slot) for as long as it liked. The whole request has it now, and the server says nothing
    of the client it shut out (no BrokenPipeError traceback)."""
    srv = LabelServer(folder, model_guess("auto"), 0, quiet=True, read_timeout=1.0, max_connections=2)
    srv.start()
    try:
        tricklers = [_connect(srv.app.port) for _ in range(2)]
        started = time.monotonic()
        closed: list[tuple[socket.socket, float]] = []
        for sock in tricklers:
            sock.sendall(b"GET / HTTP/1.1\r\n")
        while len(closed) < len(tricklers) and time.monotonic() - started < 10:
            for sock in tricklers:
                try:
                    sock.sendall(b"X")
                except OSError:
                    if sock not in [c for c, _ in closed]:
                        closed.append((sock, time.monotonic() - started))
            time.sleep(0.3)
        assert len(closed) == 2 and all(after < 4 for _, after in closed)
        assert _served(srv)
    finally:
        srv.stop()


def _served(srv: LabelServer) -> bool:
    """Whether a request gets its page; a connection still past the cap is closed unanswered."""
    try:
        return request(srv, "GET", "/")[0] == 200
    except ConnectionError:  # http.client.RemoteDisconnected is one
        return False


def test_connections_past_the_cap_are_closed_and_the_server_recovers(folder):
    """300 idle connections held 302 threads for over 21 s."""
    srv = LabelServer(folder, model_guess("auto"), 0, quiet=True, read_timeout=2.0, max_connections=4)
    srv.start()
    try:
        held = [_connect(srv.app.port) for _ in range(4)]
        time.sleep(0.3)
        extra = [_connect(srv.app.port) for _ in range(20)]
        for sock in extra:  # refused at once, well before the read timeout
            assert sock.recv(100) == b""
            sock.close()
        threads = threading.active_count()
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 10
        while not _served(srv):  # the slots come back as the held ones close
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert threads < 20
    finally:
        srv.stop()


def test_stale_temporary_label_files_are_removed_at_start(folder):
    """A save killed mid-write left a .tmp file that was never removed."""
    stale = folder / "sub" / ".b.labels.json.0123456789ab.tmp"
    stale.write_text('{"half": ')
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = folder / ".a.labels.json.ba9876543210.tmp"  # a save running right now elsewhere
    fresh.write_text("{")
    outside = folder.parent / ".secret.labels.json.000000000000.tmp"  # reachable only through linkdir
    outside.write_text("{")
    os.utime(outside, (old, old))
    srv = LabelServer(folder, model_guess("auto"), 0, quiet=True)
    srv.server_close()
    assert not stale.exists() and fresh.exists() and outside.exists()


def test_a_failed_save_leaves_no_temporary(folder):
    page = folder / "a.html"
    keys = keys_of(page)
    label_files.labels_path(page).mkdir()  # a folder where the label file goes: the rename fails
    with pytest.raises(OSError):
        label_files.write(page, {keys[0]: True})
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_a_label_file_nested_too_deep_counts_as_unlabelled(server, folder):
    label_files.labels_path(folder / "a.html").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConfigError, match="nested deeper"):
        label_files.read(folder / "a.html")
    status, body, _ = request(server, "GET", "/")
    assert status == 200 and "0 of 3 pages labelled" in body
