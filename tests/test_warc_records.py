"""WARC files with bad records: each bad record costs only itself, and none is exported as good.

Every case of the report is here (wrong, negative and non-numeric
``Content-Length``, a broken chunked body, garbage between gzip members, a
20 MB header, 200,000 header lines, a file cut inside a header), and a
hypothesis strategy writes files of good and damaged records, plain and
gzipped, and checks that every good record comes out whole and in order.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte.cli import EXIT_FAILED, main
from scrapy_bte.sources import BadInput, Page, Skipped, read_warc

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def page(n: int) -> bytes:
    words = " ".join(f"marker{n}" for _ in range(300))
    return f"<html><body><article><p>{words}</p></article></body></html>".encode()


def record(n: int, block: bytes | None = None, length: str | None = None, extra: str = "") -> bytes:
    block = block if block is not None else b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page(n)
    head = (
        f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://site.example/{n}\r\n{extra}"
        f"Content-Type: application/http; msgtype=response\r\nContent-Length: {length or len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def chunked_record(n: int, broken: bool) -> bytes:
    body = page(n)
    chunks = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body) + (40 if broken else 0), body)
    return record(n, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)


def items(tmp_path: Path, data: bytes, name: str = "x.warc") -> list[Page | BadInput | Skipped]:
    path = tmp_path / name
    path.write_bytes(data)
    return list(read_warc(str(path), max_bytes=64 * 2**20))


def pages_of(found: list[Page | BadInput | Skipped]) -> list[str]:
    return [item.source for item in found if isinstance(item, Page)]


DAMAGE = {
    "too_small": lambda n: record(n, length=str(len(record(n)) // 10)),
    "too_large": lambda n: record(n, length=str(len(page(n)) + 5000)),
    "negative": lambda n: record(n, length="-5"),
    "not_a_number": lambda n: record(n, length="12abc"),
    "broken_chunked": lambda n: chunked_record(n, broken=True),
    "huge_header": lambda n: b"WARC/1.0\r\nX-Big: " + b"a" * (20 * 2**20) + b"\r\n" + record(n)[10:],
    "many_header_lines": lambda n: b"WARC/1.0\r\n" + b"X: y\r\n" * 200_000 + record(n)[10:],
    "garbage": lambda n: b"\x00garbage\r\nnot a record at all\r\n" * 50,
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("compressed", [False, True])
def test_a_bad_record_costs_only_itself(tmp_path, damage, compressed):
    parts = [record(1), DAMAGE[damage](2), record(3), chunked_record(4, broken=False)]
    data = b"".join(gzip.compress(p) if compressed else p for p in parts)
    found = items(tmp_path, data, "x.warc.gz" if compressed else "x.warc")
    assert pages_of(found) == ["https://site.example/1", "https://site.example/3", "https://site.example/4"]
    bad = [item for item in found if isinstance(item, BadInput)]
    assert len(bad) >= 1
    for item in found:
        if isinstance(item, Page):  # each page whole and nothing of another record
            n = item.source.rsplit("/", 1)[1]
            assert item.body.count(f"marker{n}".encode()) == 300 and b"WARC/" not in item.body


def test_garbage_between_gzip_members_is_one_unreadable_stretch(tmp_path):
    data = gzip.compress(record(1)) + b"\x1f\x8b\x08garbage" * 100 + b"junk" + gzip.compress(record(2))
    found = items(tmp_path, data, "x.warc.gz")
    assert pages_of(found) == ["https://site.example/1", "https://site.example/2"]
    assert sum(isinstance(item, BadInput) for item in found) == 1


def test_a_file_cut_inside_a_record_header_is_an_error(tmp_path):
    found = items(tmp_path, record(1) + record(2)[:40])
    assert pages_of(found) == ["https://site.example/1"]
    assert [item.reason for item in found if isinstance(item, BadInput)] == [
        f"unreadable WARC record at byte {len(record(1))}: file ends inside a record header"
    ]


def test_a_length_too_small_gives_an_error_not_part_of_the_text(tmp_path):
    """The record came out with 30 of its ~300 words and no error."""
    found = items(tmp_path, DAMAGE["too_small"](1) + record(2))
    assert pages_of(found) == ["https://site.example/2"]
    assert "disagrees with the record's content" in found[0].reason


def test_escape_sequences_in_target_uris_are_escaped(tmp_path, capsys):
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page(1)
    data = record(1, block).replace(b"https://site.example/1", b"https://x.example/\x1b]0;owned\x07\x1b[2J")
    path = tmp_path / "x.warc"
    path.write_bytes(data + DAMAGE["too_large"](2).replace(b"site.example", b"\x1b[31mred"))
    code = main(["extract", "--format", "jsonl", str(path)])
    out, err = capsys.readouterr()
    assert code == EXIT_FAILED
    assert "\x1b" not in err and "\\x1b[31mred" in err
    assert json.loads(out.splitlines()[0])["source"] == "https://x.example/\x1b]0;owned\x07\x1b[2J"  # JSON keeps it


records = st.lists(
    st.sampled_from(["good", "chunked", *sorted(set(DAMAGE) - {"huge_header", "many_header_lines"})]), max_size=8
)


@FUZZ
@given(kinds=records, compressed=st.booleans(), cut=st.integers(min_value=0, max_value=300))
def test_fuzzed_warc_files_keep_every_good_record(tmp_path_factory, kinds, compressed, cut):
    parts = []
    for n, kind in enumerate(kinds):
        parts.append(
            record(n) if kind == "good" else chunked_record(n, False) if kind == "chunked" else DAMAGE[kind](n)
        )
    tail = record(99)[: len(record(99)) - cut]  # the last record, cut short when cut > 0
    data = b"".join(gzip.compress(p) if compressed else p for p in [*parts, tail] if p)
    path = tmp_path_factory.mktemp("warc") / ("x.warc.gz" if compressed else "x.warc")
    path.write_bytes(data)
    found = list(read_warc(str(path), max_bytes=2**20))
    good = [f"https://site.example/{n}" for n, kind in enumerate(kinds) if kind in ("good", "chunked")]
    assert pages_of(found)[: len(good)] == good
    assert len(pages_of(found)) == len(good) + (cut <= 4)  # the closing CRLFs may be missing at the end
    for item in found:
        if isinstance(item, Page):
            n = item.source.rsplit("/", 1)[1]
            assert item.body.count(f"marker{n}".encode()) == 300 and b"WARC/" not in item.body
    assert any(isinstance(item, BadInput) for item in found) == (len(kinds) > len(good) or cut > 4)
