"""WARC records (ISO 28500) read so that a bad record costs only itself.

FastWARC and warcio both read a WARC file as one stream: the first record
they cannot parse (a wrong ``Content-Length``, garbage between gzip
members, a header of megabytes) ends the file, and neither checks that a
record's declared length matches where the next record starts, so a
length too small or too large gives the wrong text with no error. This
reader checks every record against the format and resynchronises after a
bad one:

- uncompressed files are memory-mapped, and after a bad record reading
  goes on at the next ``WARC/`` version line at a line start;
- ``.warc.gz`` files are read one gzip member at a time (the format's
  "one record per member" layout); a member that does not decompress, or
  bytes that are not a member, are skipped to the next gzip header;
- a record must have a numeric ``Content-Length``, a header block under
  :data:`MAX_HEADER_BYTES`, and its block must be followed by the two CRLFs
  that close every record; otherwise it is a :class:`Unreadable` and its
  declared block is never taken as a page.

HTTP payloads (``application/http``) are split into status, headers and
body here too; a chunked body is decoded strictly, and a broken one is an
error rather than text.
"""

from __future__ import annotations

import mmap
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

#: A WARC or HTTP header block longer than this is not a header (real ones are under 4 KB).
MAX_HEADER_BYTES = 64 * 1024
_GZIP_MAGIC = b"\x1f\x8b\x08"
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_NEXT_RECORD = re.compile(rb"(?:^|\n)(WARC/1\.[0-9]\r?\n)")
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Record:
    """One well-formed record: its WARC headers (names lower-cased) and its block."""

    headers: dict[str, str]
    block: bytes
    offset: int


@dataclass(frozen=True)
class Unreadable:
    """Bytes that are not a well-formed record, and why (one line)."""

    offset: int
    reason: str
    target: str | None = None  # the record's WARC-Target-URI, when its header could be read


def _headers(raw: bytes) -> dict[str, str] | None:
    """Header lines as a dict, or None when a line is not ``Name: value``."""
    out: dict[str, str] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        if not line:
            continue
        if line[0] in " \t" and out:  # folded continuation line
            key = next(reversed(out))
            out[key] += " " + line.strip()
            continue
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            return None
        out.setdefault(name.strip().lower(), value.strip())
    return out


def _resync(buf: bytes | mmap.mmap, start: int) -> int:
    """Offset of the next ``WARC/`` version line at or after ``start`` (len(buf) when none)."""
    match = _NEXT_RECORD.search(buf, start)
    return match.start(1) if match else len(buf)


def _records_in(buf: bytes | mmap.mmap, max_block: int, base: int = 0) -> Iterator[Record | Unreadable]:
    """Every record of an uncompressed buffer, resynchronising after bad ones.

    ``base`` is the buffer's offset in the file (a gzip member's), for the messages.
    """
    pos, end = 0, len(buf)
    while pos < end:
        if buf[pos : pos + 5] != b"WARC/":
            found = _resync(buf, pos)
            if found == end and end - pos < MAX_HEADER_BYTES and not buf[pos:end].strip():
                return  # blank lines at the end
            yield Unreadable(base + pos, f"{found - pos} bytes that are not a WARC record")
            pos = found
            continue
        match = _HEADER_END.search(buf, pos, min(end, pos + MAX_HEADER_BYTES))
        if match is None:
            cut = end - pos < MAX_HEADER_BYTES
            yield Unreadable(base + pos, "file ends inside a record header" if cut else "record header too long")
            pos = _resync(buf, pos + 5)
            continue
        headers = _headers(bytes(buf[pos : match.start()]).partition(b"\n")[2])
        body_start = match.end()
        target = headers.get("warc-target-uri") if headers else None
        length = (headers or {}).get("content-length", "")
        if headers is None or not length.isdigit():
            why = "malformed record header" if headers is None else f"Content-Length {length!r} is not a number"
            yield Unreadable(base + pos, why, target)
            pos = _resync(buf, body_start)
            continue
        body_end = body_start + int(length)
        if body_end > end:
            yield Unreadable(base + pos, f"truncated record: {end - body_start} of {length} bytes", target)
            pos = _resync(buf, body_start)
            continue
        trailer = buf[body_end : body_end + 4]
        if not (
            trailer == b"\r\n\r\n" or trailer[:2] == b"\n\n" or (body_end + len(trailer) == end and not trailer.strip())
        ):
            yield Unreadable(base + pos, f"Content-Length {length} disagrees with the record's content", target)
            pos = _resync(buf, body_start)
            continue
        if int(length) > max_block:  # well-formed, but not copied out of the file
            yield Unreadable(base + pos, f"record of {length} bytes, over the limit of {max_block}", target)
        else:
            yield Record(headers, bytes(buf[body_start:body_end]), base + pos)
        pos = body_end + (4 if trailer == b"\r\n\r\n" else 2)


def _members(stream: BinaryIO, limit: int) -> Iterator[tuple[int, bytes] | Unreadable]:
    """The decompressed gzip members of ``stream``; garbage and bad members are skipped to the next one."""
    pending = stream.read(_CHUNK)
    offset = 0  # file offset of pending[0]
    resyncing = False  # after a bad member, what follows up to the next good one is part of the same error
    while True:
        if len(pending) < len(_GZIP_MAGIC):
            pending += stream.read(_CHUNK)
            if not pending:
                return
        if not pending.startswith(_GZIP_MAGIC):
            skipped, skip = 0, pending.find(_GZIP_MAGIC)
            while skip < 0:  # garbage: keep only what could start a gzip header
                keep = pending[-(len(_GZIP_MAGIC) - 1) :]
                skipped += len(pending) - len(keep)
                more = stream.read(_CHUNK)
                if not more:
                    skipped, pending = skipped + len(keep), b""
                    break
                pending = keep + more
                skip = pending.find(_GZIP_MAGIC)
            else:
                skipped, pending = skipped + skip, pending[skip:]
            if not resyncing:
                yield Unreadable(offset, f"{skipped} bytes that are not a gzip member")
            offset += skipped
            continue
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        fed, data, out, size, error = [pending], pending, [], 0, None
        while True:
            try:
                part = decoder.decompress(data, limit + 1 - size)
            except zlib.error as exc:
                error = f"bad gzip member: {exc}"
                break
            out.append(part)
            size += len(part)
            if size > limit:
                error = f"gzip member over {limit} bytes decompressed"
                break
            if decoder.eof:
                break
            if decoder.unconsumed_tail:
                data = decoder.unconsumed_tail
                continue
            data = stream.read(_CHUNK)
            if not data:
                error = "file ends inside a gzip member"
                break
            fed.append(data)
        if error is not None:
            if not resyncing:  # one error for a stretch of bad members and garbage
                yield Unreadable(offset, error)
            pending, offset, resyncing = b"".join(fed)[1:], offset + 1, True
            continue
        rest, resyncing = decoder.unused_data, False
        yield offset, b"".join(out)
        offset += sum(map(len, fed)) - len(rest)
        pending = rest


def records(stream: BinaryIO, *, compressed: bool, max_record_bytes: int) -> Iterator[Record | Unreadable]:
    """Every record of a WARC file, and an :class:`Unreadable` for each stretch that is not one."""
    if not compressed:
        try:
            view = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            return
        with view:
            yield from _records_in(view, max_record_bytes)
        return
    for member in _members(stream, max_record_bytes + MAX_HEADER_BYTES):
        if isinstance(member, Unreadable):
            yield member
        else:
            yield from _records_in(member[1], max_record_bytes, base=member[0])


@dataclass(frozen=True)
class HttpMessage:
    status: int
    headers: dict[str, str]
    body: bytes


_STATUS_LINE = re.compile(rb"HTTP/\d(?:\.\d)?\s+(\d{3})")


def http_response(block: bytes) -> HttpMessage | str:
    """The HTTP response of an ``application/http`` block, or why it cannot be read."""
    match = _HEADER_END.search(block, 0, MAX_HEADER_BYTES)
    if match is None:
        return "HTTP header missing or too long"
    status = _STATUS_LINE.match(block)
    if status is None:
        return "no HTTP status line"
    head = block[: match.start()].split(b"\n", 1)
    headers = _headers(head[1] if len(head) > 1 else b"")
    if headers is None:
        return "malformed HTTP header"
    body = block[match.end() :]
    if "chunked" in headers.get("transfer-encoding", "").lower():
        decoded = dechunk(body)
        if isinstance(decoded, str):
            return decoded
        body = decoded
    return HttpMessage(int(status.group(1)), headers, body)


_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;[^\r\n]*)?\r?\n")


def dechunk(body: bytes) -> bytes | str:
    """A chunked body decoded, or why it is broken (a size that is not hex, a chunk cut short)."""
    out: list[bytes] = []
    pos = 0
    while True:
        match = _CHUNK_SIZE.match(body, pos)
        if match is None:
            return f"broken chunked body at byte {pos}: no chunk size"
        size = int(match.group(1), 16)
        start = match.end()
        if size == 0:
            return b"".join(out)
        if start + size > len(body):
            return f"broken chunked body: chunk of {size} bytes cut short at {len(body) - start}"
        out.append(body[start : start + size])
        pos = start + size
        if body[pos : pos + 2] == b"\r\n":
            pos += 2
        elif body[pos : pos + 1] == b"\n":
            pos += 1
        else:
            return f"broken chunked body at byte {pos}: chunk longer than its size"
