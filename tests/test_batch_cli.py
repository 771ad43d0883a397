"""``scrapy-bte extract`` over corpora: folders, stdin, WARC files, worker processes, output files.

The WARC files are written here, record by record, as a crawler writes them
(ISO 28500: a header block, the HTTP response as sent, two CRLFs; in
``.warc.gz`` one gzip member per record).
"""

from __future__ import annotations

import gzip
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from conftest import SAMPLES

from scrapy_bte import extract
from scrapy_bte.cli import EXIT_EMPTY, EXIT_FAILED, EXIT_OK, WORKERS_PAY_FROM, default_jobs, main
from scrapy_bte.pool.cpus import usable_cpus

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAMPLE = SAMPLES / "article.html"
ARTICLE1 = "Eurasian otters have settled again in the lower Elbe valley"
ARTICLE2 = "build a pedestrian bridge across the old harbour basin"
RUSSIAN = "Городской совет утвердил новый план ремонта старого моста через реку"
RUSSIAN_PAGE = (
    "<html><head><title>Мост</title></head><body><nav><a href='/'>Главная</a></nav><article>"
    + "".join(f"<p>{RUSSIAN}, работы начнутся весной и продлятся {i + 2} месяца.</p>" for i in range(8))
    + "</article></body></html>"
)

# -- writing WARC files ------------------------------------------------------------------------


def warc_record(kind: str, uri: str | None, block: bytes, content_type: str, extra: tuple[str, ...] = ()) -> bytes:
    lines = [
        "WARC/1.0",
        f"WARC-Type: {kind}",
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>",
        "WARC-Date: 2025-03-12T14:05:00Z",
    ]
    lines += [f"WARC-Target-URI: {uri}"] if uri else []
    lines += [*extra, f"Content-Type: {content_type}", f"Content-Length: {len(block)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + block + b"\r\n\r\n"


def http_response(
    body: bytes,
    content_type: str | None = "text/html; charset=utf-8",
    status: str = "200 OK",
    headers: tuple[str, ...] = (),
) -> bytes:
    lines = [f"HTTP/1.1 {status}", *([f"Content-Type: {content_type}"] if content_type else []), *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def chunked(data: bytes, size: int = 700) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(data[i : i + size]), data[i : i + size]) for i in range(0, len(data), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def response(uri: str, body: bytes, **kwargs: object) -> bytes:
    return warc_record("response", uri, http_response(body, **kwargs), "application/http; msgtype=response")  # type: ignore[arg-type]


def crawl_records() -> list[bytes]:
    """A small crawl: pages, the records around them, and records that are not pages."""
    article1 = (FIXTURES / "article1.html").read_bytes()
    article2 = (FIXTURES / "article2.html").read_bytes()
    return [
        warc_record(
            "warcinfo", None, b"software: test-suite\r\nformat: WARC File Format 1.0\r\n", "application/warc-fields"
        ),
        warc_record(
            "request",
            "https://news.example/otters",
            b"GET /otters HTTP/1.1\r\nHost: news.example\r\n\r\n",
            "application/http; msgtype=request",
        ),
        response("https://news.example/otters", article1),
        response(
            "https://news.example/bridge",
            chunked(gzip.compress(article2)),
            headers=("Transfer-Encoding: chunked", "Content-Encoding: gzip"),
        ),
        response("https://news.example/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), content_type="image/png"),
        response("https://news.example/api/items", json.dumps({"items": list(range(100))}).encode()),
        response("https://news.example/gone", b"<html><body><p>Not found</p></body></html>", status="404 Not Found"),
        warc_record(
            "revisit",
            "https://news.example/otters",
            http_response(b""),
            "application/http; msgtype=response",
            ("WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",),
        ),
        response("https://news.example/most", RUSSIAN_PAGE.encode("koi8-r"), content_type="text/html; charset=koi8-r"),
        warc_record("resource", "file:///archive/sample.html", SAMPLE.read_bytes(), "text/html"),
    ]


PAGES_IN_WARC = [
    "https://news.example/otters",
    "https://news.example/bridge",
    "https://news.example/most",
    "file:///archive/sample.html",
]


@pytest.fixture
def warc_files(tmp_path: Path) -> dict[str, Path]:
    records = crawl_records()
    plain, packed = tmp_path / "crawl.warc", tmp_path / "crawl.warc.gz"
    plain.write_bytes(b"".join(records))
    packed.write_bytes(b"".join(gzip.compress(record) for record in records))
    return {"warc": plain, "warc.gz": packed}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["warc", "warc.gz"])
def test_warc_pages_come_out_with_their_target_uri(capsys, warc_files, kind):
    code, out, err = run(capsys, "extract", "--format", "jsonl", str(warc_files[kind]))
    assert code == EXIT_OK, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["source"] for line in lines] == PAGES_IN_WARC
    texts = {line["source"]: line["text"] for line in lines}
    assert ARTICLE1 in texts["https://news.example/otters"]
    assert ARTICLE2 in texts["https://news.example/bridge"]  # chunked and gzip-encoded on the wire
    assert RUSSIAN in texts["https://news.example/most"]  # charset only in the HTTP header
    assert "granite blocks salvaged" in texts["file:///archive/sample.html"]
    # png, JSON labelled as HTML, the 404 and the revisit are counted, not extracted.
    assert "4 pages, 0 empty, 0 errors, 4 records skipped" in err.splitlines()[-1]
    for line in lines:
        assert {"source", "text", "title", "confidence", "fingerprint", "error"} <= set(line)


def test_warc_page_equals_extract_of_the_same_bytes_and_header(capsys, warc_files):
    code, out, _ = run(capsys, "extract", "--format", "jsonl", str(warc_files["warc.gz"]))
    assert code == EXIT_OK
    russian = next(json.loads(line) for line in out.splitlines() if "most" in line)
    expected = extract(RUSSIAN_PAGE.encode("koi8-r"), content_type="text/html; charset=koi8-r")
    assert russian["text"] == expected.text and russian["fingerprint"] == expected.fingerprint


def test_broken_and_fake_warc_files_are_counted_and_the_run_goes_on(capsys, warc_files, tmp_path):
    data = warc_files["warc.gz"].read_bytes()
    truncated = tmp_path / "truncated.warc.gz"
    truncated.write_bytes(data[: len(data) * 2 // 3])
    fake = tmp_path / "fake.warc"
    fake.write_text("this is not a WARC file\n")
    code, out, err = run(capsys, "extract", "--format", "jsonl", str(fake), str(truncated), str(SAMPLE))
    assert code == EXIT_FAILED
    assert f"cannot read {fake}: unreadable WARC record at byte 0" in err
    assert f"cannot read {truncated}: unreadable WARC record at byte" in err and "ends inside a gzip member" in err
    records = [json.loads(line) for line in out.splitlines()]
    sources = [record["source"] for record in records if "text" in record]
    assert sources[0] == "https://news.example/otters" and sources[-1] == str(SAMPLE)
    assert "2 unreadable" in err.splitlines()[-1]
    errors = [record["source"] for record in records if "text" not in record]  # each failed input has its record
    assert errors[0] == str(fake) and len(errors) == 2


def make_corpus(root: Path) -> list[Path]:
    """HTML files in nested folders, plus files the folder walk must leave alone."""
    (root / "a" / "b").mkdir(parents=True)
    files = [
        root / "a" / "otters.html",
        root / "a" / "b" / "bridge.HTM",
        root / "sample.htm",
        root / "comments.html",
        root / "latin1.html",
    ]
    shutil.copy(FIXTURES / "article1.html", files[0])
    shutil.copy(FIXTURES / "article2.html", files[1])
    shutil.copy(SAMPLE, files[2])
    shutil.copy(FIXTURES / "comments.html", files[3])
    files[4].write_bytes(
        "<html><body><p>Der Bäcker Müller eröffnet sein Café am Marktplatz und "
        "backt frische Brötchen für die ganze Straße.</p></body></html>".encode("windows-1252")
    )
    (root / "notes.txt").write_text("not a page")
    (root / "a" / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return sorted(files, key=str)


@pytest.mark.parametrize("jobs", ["0", "2"])
def test_folder_gives_the_same_text_as_extract_for_each_file(capsys, tmp_path, jobs):
    files = make_corpus(tmp_path / "corpus")
    output = tmp_path / "out.jsonl"
    code, out, err = run(
        capsys, "extract", "--jobs", jobs, "--format", "jsonl", "-o", str(output), str(tmp_path / "corpus")
    )
    assert code == EXIT_OK, err
    assert out == ""  # everything went to the file
    lines = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert [line["source"] for line in lines] == [str(f) for f in files]  # sorted, recursive, *.html/*.htm only
    for line, path in zip(lines, files):
        expected = extract(path.read_bytes())
        assert line["text"] == expected.text and line["text"]
        assert line["fingerprint"] == expected.fingerprint and line["title"] == expected.title
    assert err.splitlines()[-1].startswith("scrapy-bte: 5 pages, 0 empty, 0 errors,")
    assert "pages/s" in err.splitlines()[-1]


def test_stdin_mixed_with_files_and_text_headers(capsys, monkeypatch, tmp_path):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((FIXTURES / "article2.html").read_bytes())))
    code, out, _ = run(capsys, "extract", str(FIXTURES / "article1.html"), "-")
    assert code == EXIT_OK
    first, second = out.split("==> - <==\n")
    assert first.startswith(f"==> {FIXTURES / 'article1.html'} <==\n") and ARTICLE1 in first
    assert ARTICLE2 in second


def test_pages_that_fail_are_counted_with_their_reason(capsys, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.html").write_bytes((FIXTURES / "article1.html").read_bytes())
    (folder / "b.html").write_bytes(b'{"title": "an API answer", "items": [1, 2, 3]}')
    (folder / "c.html").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 4)
    (folder / "d.html").write_text("<html><body><script>app()</script></body></html>")
    padded = (FIXTURES / "article2.html").read_bytes() + b"\x00" * 4096
    (folder / "e.html").write_bytes(padded)
    code, out, err = run(capsys, "extract", "--jobs", "2", "--format", "jsonl", str(folder))
    assert code == EXIT_FAILED
    assert "b.html: ExtractionError: json body: not an HTML document" in err
    assert "c.html: ExtractionError: binary body" in err
    records = [json.loads(line) for line in out.splitlines()]
    sources = [Path(record["source"]).name for record in records if "text" in record]
    assert sources == ["a.html", "d.html", "e.html"]  # NUL padding is still a document
    assert [Path(record["source"]).name for record in records if "text" not in record] == ["b.html", "c.html"]
    assert "5 pages, 1 empty, 2 errors" in err.splitlines()[-1]


def test_all_empty_is_exit_code_3(capsys, tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_text("<html><body></body></html>")
    assert run(capsys, "extract", "--jobs", "1", str(empty))[0] == EXIT_EMPTY


def test_a_page_over_the_timeout_fails_alone(capsys, tmp_path):
    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "a.html").write_bytes((FIXTURES / "article1.html").read_bytes())
    # About 24 MB of one paragraph per line: seconds of work, far over the timeout.
    (folder / "b.html").write_bytes(
        b"<html><body>" + b"<p>word word word word <b>x</b></p>\n" * 650_000 + b"</body></html>"
    )
    (folder / "c.html").write_bytes((FIXTURES / "article2.html").read_bytes())
    code, out, err = run(capsys, "extract", "--jobs", "1", "--timeout", "0.5", "--format", "jsonl", str(folder))
    assert code == EXIT_FAILED
    assert "b.html:" in err and "timeout" in err.lower()
    texts = [record["text"] for record in map(json.loads, out.splitlines()) if "text" in record]
    assert len(texts) == 2 and ARTICLE1 in texts[0] and ARTICLE2 in texts[1]


def test_progress_line_only_on_a_terminal(tmp_path):
    make_corpus(tmp_path / "corpus")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    command = [
        sys.executable,
        "-m",
        "scrapy_bte",
        "extract",
        "--format",
        "jsonl",
        "-o",
        str(tmp_path / "o.jsonl"),
        str(tmp_path / "corpus"),
    ]
    piped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert piped.returncode == EXIT_OK
    assert "\r" not in piped.stderr and piped.stderr.count("\n") == 1  # just the summary line

    primary, secondary = pty.openpty()
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen([*command[:3], *command[3:]], stderr=secondary, stdout=subprocess.DEVNULL, env=env)
    os.close(secondary)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=120)
    os.close(primary)
    assert proc.returncode == EXIT_OK
    text = seen.decode()
    assert text.count("\r") >= 3  # the line is redrawn in place and cleared at the end
    # tqdm's bar: inputs done, elapsed<left, the rate, and the summary's counts beside them.
    assert re.search(
        r"100%\|.*\| 5/5 \[\d\d:\d\d<\d\d:\d\d, +[\d.]+(input/s|s/input), 5 pages, 0 empty, 0 errors\]", text
    ), text
    assert "5 pages, 0 empty, 0 errors" in text.splitlines()[-1]


def test_jobs_default_to_workers_only_where_they_were_measured_to_pay():
    cpus = usable_cpus()
    workers = cpus if cpus >= 2 else 0
    assert default_jobs(["page.html"]) == 0  # starting workers costs more than one page
    assert default_jobs([f"{i}.html" for i in range(WORKERS_PAY_FROM - 1)]) == 0
    assert default_jobs([f"{i}.html" for i in range(WORKERS_PAY_FROM)]) == workers
    assert default_jobs(["page.html", "crawl.warc.gz"]) == workers  # a WARC file holds many pages
    assert default_jobs(["-"]) == 0
