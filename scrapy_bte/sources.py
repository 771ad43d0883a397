"""Pages to extract from the paths a corpus builder names: files, folders, stdin, WARC.

Web corpora are stored as WARC files (ISO 28500): one record per fetched
resource, HTTP headers included. Only ``response`` and ``resource`` records
that hold HTML are pages; ``revisit`` records hold no body (they point at an
earlier identical one), and requests, metadata and non-HTML responses are
not pages either. WARC records are read by :mod:`scrapy_bte.warc`, which
checks each record and resumes after a bad one (no dependency needed);
bodies are decoded from their content encoding (gzip, deflate) here, with
the decoded size capped (a gzip bomb is one bad record, not an exhausted
machine).

A path that cannot be read becomes a :class:`BadInput` in the stream, so the
caller counts and reports it and goes on with the next one.
"""

from __future__ import annotations

import errno
import os
import re
import shlex
import stat
import sys
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from . import warc
from .core.decode import GENERIC_TYPES, HTML_TYPES, is_html, media_type

HTML_SUFFIXES = (".html", ".htm")
WARC_SUFFIXES = (".warc", ".warc.gz")


@dataclass(frozen=True)
class Page:
    """One document: where it came from, its bytes and what its server said about them."""

    source: str  # the path, "-" for stdin, or a WARC record's target URI
    body: bytes
    url: str | None = None  # a WARC record's target URI
    content_type: str | None = None


@dataclass(frozen=True)
class BadInput:
    """A path or record that could not be read, and why (one line)."""

    source: str
    reason: str


@dataclass(frozen=True)
class Skipped:
    """A WARC record that is not a page (revisit, non-HTML, not 2xx): counted, not extracted."""

    source: str
    reason: str


Item = Page | BadInput | Skipped


def is_warc(path: str) -> bool:
    return path.lower().endswith(WARC_SUFFIXES)


def expand(paths: Iterable[str]) -> Iterator[str]:
    """Paths in order; a folder becomes its ``*.html``/``*.htm`` entries, recursively and sorted.

    Nothing under a folder is dropped in silence: a subfolder that cannot be
    listed, a dangling link and a FIFO or device named ``.html`` are named
    too, and :func:`read` turns each into a :class:`BadInput`.
    """
    for path in paths:
        if path != "-" and os.path.isdir(path):
            yield from sorted(_walk(path))
        else:
            yield path


def _walk(folder: str) -> Iterator[str]:
    unreadable: list[str] = []
    for root, _dirs, files in os.walk(folder, onerror=lambda exc: unreadable.append(exc.filename or folder)):
        for name in files:  # dangling links and FIFOs are here too
            if name.lower().endswith(HTML_SUFFIXES):
                yield os.path.join(root, name)
    yield from unreadable


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode is not read (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    return "not a regular file: " + next((kind for test, kind in _KINDS if test(mode)), "of an unknown kind")


#: A path that is a web address ("https://..."): the command reads files, and says how to read a page.
_WEB_ADDRESS_RE = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def refusal(path: str, max_bytes: int | None = None) -> str | None:
    """Why ``path`` is not read, decided before it is opened (None: read it)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ENOENT and os.path.islink(path):
            return "dangling symbolic link"
        if exc.errno == errno.ENOENT and _WEB_ADDRESS_RE.match(path):
            url = shlex.quote(path)
            return f"no such file: a web address is not fetched; pipe the page in: curl -s {url} | scrapy-bte extract --url {url} -"
        return exc.strerror or str(exc)
    if stat.S_ISDIR(info.st_mode):
        try:
            os.listdir(path)
        except OSError as exc:
            return f"cannot list folder: {exc.strerror or exc}"
    reason = _not_regular(info.st_mode)
    if reason is None and max_bytes is not None and info.st_size > max_bytes:
        reason = f"{info.st_size} bytes, over the limit of {max_bytes} (--max-bytes)"
    return reason


#: Bytes read at a time under a limit.
READ_CHUNK = 1 << 20


def read_up_to(stream: BinaryIO, limit: int | None) -> bytes:
    """All of ``stream``, or its first ``limit`` + 1 bytes where it holds more (the caller refuses it).

    Read a chunk at a time: ``read(limit + 1)`` allocates its whole size first, so a limit of a
    petabyte (``--max-bytes``) raised MemoryError before a byte was read.
    """
    if limit is None:
        return stream.read()
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(READ_CHUNK, limit + 1 - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def read_file(path: str, max_bytes: int | None = None) -> Page | BadInput:
    """One file's bytes, refused by kind and size before reading (and again after opening)."""
    reason = refusal(path, max_bytes)
    if reason is not None:
        return BadInput(path, reason)
    try:
        # O_NONBLOCK: a FIFO swapped in after the check must not hang the run.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return BadInput(path, exc.strerror or str(exc))
    with os.fdopen(fd, "rb") as handle:
        reason = _not_regular(os.fstat(fd).st_mode)
        if reason is not None:
            return BadInput(path, reason)
        try:
            body = read_up_to(handle, max_bytes)
        except OSError as exc:
            return BadInput(path, exc.strerror or str(exc))
    if max_bytes is not None and len(body) > max_bytes:
        return BadInput(path, f"over the limit of {max_bytes} bytes (--max-bytes)")
    return Page(path, body)


def read(paths: Iterable[str], *, stdin: BinaryIO | None = None, max_bytes: int | None = None) -> Iterator[Item]:
    """Every page (or bad input, or skipped record) of *paths*, in order."""
    for path in expand(paths):
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            body = read_up_to(stream, max_bytes)
            if max_bytes is not None and len(body) > max_bytes:
                yield BadInput("-", f"over the limit of {max_bytes} bytes (--max-bytes)")
            else:
                yield Page("-", body)
        elif is_warc(path) and refusal(path) is None:
            yield from read_warc(path, max_bytes=max_bytes)
        else:
            yield read_file(path, max_bytes)


def _content_decode(body: bytes, encoding: str, max_bytes: int | None) -> bytes:
    """Undo a Content-Encoding; raises ``ValueError`` for unknown codings or oversize output."""
    codings = [c.strip().lower() for c in encoding.split(",") if c.strip() and c.strip().lower() != "identity"]
    for coding in reversed(codings):  # applied in the order listed, so undone backwards
        if coding in ("gzip", "x-gzip"):
            decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            # Servers send both zlib-wrapped and raw deflate under this name.
            decoder = zlib.decompressobj(zlib.MAX_WBITS if body[:1] == b"\x78" else -zlib.MAX_WBITS)
        else:
            raise ValueError(f"unsupported content encoding {coding!r}")
        limit = max_bytes + 1 if max_bytes is not None else 0
        try:
            out = decoder.decompress(body, limit)
        except zlib.error as exc:
            raise ValueError(f"bad {coding} body: {exc}") from None
        if max_bytes is not None and len(out) > max_bytes:
            raise ValueError(f"body over {max_bytes} bytes after {coding} decoding")
        body = out
    return body


def read_warc(path: str, *, max_bytes: int | None = None) -> Iterator[Item]:
    """The HTML pages of a WARC file (``.warc`` or ``.warc.gz``); each bad record is one :class:`BadInput`."""
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below, after the generator is done
    except OSError as exc:
        yield BadInput(path, exc.strerror or str(exc))
        return
    limit = max_bytes if max_bytes is not None else DEFAULT_RECORD_LIMIT
    found = 0
    with stream:
        try:
            for record in warc.records(stream, compressed=path.lower().endswith(".gz"), max_record_bytes=limit):
                found += 1
                if isinstance(record, warc.Unreadable):
                    where = f"in {path} " if record.target else ""
                    reason = f"unreadable WARC record {where}at byte {record.offset}: {record.reason}"
                    yield BadInput(record.target or path, reason)
                else:
                    item = _page_of(record, path, max_bytes)
                    if item is not None:
                        yield item
        except OSError as exc:  # the file itself failed (I/O error): what was read is kept
            yield BadInput(path, f"cannot read further: {exc.strerror or exc}")
    if not found:
        yield BadInput(path, "no WARC records found (not a WARC file?)")


#: Largest WARC record block read when no ``max_bytes`` is given.
DEFAULT_RECORD_LIMIT = 256 * 1024 * 1024
_PAGE_RECORDS = ("response", "resource", "revisit")


def _page_of(record: warc.Record, path: str, max_bytes: int | None) -> Item | None:
    """The page a response or resource record holds, why it holds none, or None for other record types."""
    headers = record.headers
    kind = headers.get("warc-type", "").lower()
    if kind not in _PAGE_RECORDS:
        return None  # warcinfo, request, metadata...: not pages, not counted
    uri = headers.get("warc-target-uri") or f"{path}#{headers.get('warc-record-id', '?')}"
    if kind == "revisit":
        return Skipped(uri, "revisit")
    body = record.block
    content_type = headers.get("content-type")
    http: warc.HttpMessage | None = None
    if media_type(content_type) == "application/http":
        response = warc.http_response(body)
        if isinstance(response, str):
            return BadInput(uri, f"{response} (record in {path} at byte {record.offset})")
        http = response
        if not 200 <= http.status < 300:
            return Skipped(uri, f"HTTP status {http.status}")
        content_type, body = http.headers.get("content-type"), http.body
    if media_type(content_type) not in HTML_TYPES | GENERIC_TYPES:
        return Skipped(uri, "non_html")  # images, video...: not read at all
    if http is not None and http.headers.get("content-encoding"):
        try:
            body = _content_decode(body, http.headers["content-encoding"], max_bytes)
        except ValueError as exc:
            return BadInput(uri, str(exc))
    if max_bytes is not None and len(body) > max_bytes:
        return BadInput(uri, f"over the limit of {max_bytes} bytes (--max-bytes)")
    if not is_html(content_type, body):
        return Skipped(uri, "non_html")
    return Page(uri, body, url=headers.get("warc-target-uri"), content_type=content_type)
