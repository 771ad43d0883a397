"""The ``scrapy-bte`` command line: output, formats, stdin and exit codes."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SAMPLES

from scrapy_bte import extract
from scrapy_bte.cli import EXIT_EMPTY, EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from scrapy_bte.fields.record import FIELD_NAMES
from scrapy_bte.formats import csv_columns

SAMPLE = SAMPLES / "article.html"
SENTENCE = "granite blocks salvaged from a demolished railway viaduct"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_extract_prints_the_main_text(capsys):
    code, out, _ = run(capsys, "extract", str(SAMPLE))
    assert code == EXIT_OK
    assert SENTENCE in out
    assert "All rights reserved" not in out


def test_json_is_one_array_and_jsonl_one_object_per_line(capsys):
    code, out, _ = run(capsys, "extract", "--format", "json", "--method", "bte", str(SAMPLE), str(SAMPLE))
    assert code == EXIT_OK
    pages = json.loads(out)  # one document: json.load reads it whole
    assert isinstance(pages, list) and len(pages) == 2
    assert pages[0]["method"] == "bte" and pages[0]["source"] == str(SAMPLE)
    assert SENTENCE in pages[0]["text"] and 0 <= pages[0]["confidence"] <= 1
    for name in ("jsonl", "jsonlines"):  # Scrapy's feed names for JSON lines
        code, out, _ = run(capsys, "extract", "--format", name, "--method", "bte", str(SAMPLE), str(SAMPLE))
        assert code == EXIT_OK and [json.loads(line) for line in out.splitlines()] == pages


@pytest.mark.parametrize(("method", "typed"), [("bte", False), ("hybrid", False), ("auto", True)])
def test_no_page_type_leaves_the_classifier_out_where_the_method_allows(capsys, method, typed):
    _, out, _ = run(capsys, "extract", "--format", "json", "--method", method, str(SAMPLE))
    _, bare, _ = run(capsys, "extract", "--format", "json", "--method", method, "--no-page-type", str(SAMPLE))
    (page,), (page_bare,) = json.loads(out), json.loads(bare)
    assert page["page_type"] == "article"
    assert page_bare["page_type"] == ("article" if typed else None)
    assert page_bare["text"] == page["text"] and page_bare["title"] == page["title"]


def test_url_reads_the_page_as_a_crawl_of_that_address_reads_it(capsys, tmp_path):
    """``--url`` gives a file the address a crawl would have fetched it from: the record is the
    library's for that URL (relative addresses resolve against it, the page type reads its path)."""
    page = tmp_path / "thread.html"
    page.write_bytes(SAMPLE.read_bytes().replace(b"<head>", b'<head><link rel="canonical" href="/t/flood-2">', 1))
    url = "https://forum.example/t/flood-2?page=1"
    code, out, _ = run(capsys, "extract", "--format", "json", "--url", url, str(page))
    (record,) = json.loads(out)
    assert code == EXIT_OK and record["canonical_url"] == "https://forum.example/t/flood-2"
    expected = extract(page.read_bytes(), url=url, fields=FIELD_NAMES).to_dict()
    assert {k: v for k, v in record.items() if k != "source"} == expected
    _, out, _ = run(capsys, "extract", "--format", "json", str(page))
    assert json.loads(out)[0]["canonical_url"] == "/t/flood-2"  # no address to resolve it against


@pytest.mark.parametrize(
    ("url", "inputs", "says"),
    [
        ("ftp://forum.example/t", ["one"], "absolute http or https"),
        ("/t/flood-2", ["one"], "absolute http or https"),
        ("https://forum.example/t", ["one", "one"], "one page"),
        ("https://forum.example/t", ["folder"], "one page"),
    ],
)
def test_url_for_no_single_page_or_no_web_address_is_a_usage_error(capsys, tmp_path, url, inputs, says):
    paths = {"one": str(SAMPLE), "folder": str(SAMPLES)}
    code, out, err = run(capsys, "extract", "--url", url, *[paths[i] for i in inputs])
    assert code == EXIT_USAGE and out == "" and says in err and "--url" in err


def test_json_of_no_page_holds_only_the_error_record(capsys, tmp_path):
    pdf = tmp_path / "file.pdf"
    pdf.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)
    code, out, _ = run(capsys, "extract", "--format", "json", str(pdf))
    # No page came out: the array holds the failed input's error record only.
    assert code == EXIT_FAILED
    assert [set(record) for record in json.loads(out)] == [{"source", "error"}]


def test_csv_has_the_columns_of_a_flat_crawl_export(capsys, tmp_path):
    page = str(Path(__file__).resolve().parent / "fixtures" / "comments.html")
    output = tmp_path / "pages.csv"
    code, _, _ = run(capsys, "extract", "--format", "csv", "-o", str(output), str(SAMPLE), page)
    assert code == EXIT_OK
    with output.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == list(csv_columns())
    assert list(rows[0])[:4] == ["source", "text", "bte_score", "bte_density"]
    expected = json.loads(run(capsys, "extract", "--format", "json", str(SAMPLE), page)[1])
    for row, page_json in zip(rows, expected, strict=True):
        assert row["source"] == page_json["source"]
        assert row["text"] == page_json["text"]  # newlines survive, quoted
        assert float(row["bte_confidence"]) == page_json["confidence"]
        assert row["bte_title"] == page_json["title"] and row["bte_error"] == ""
        assert row["author"] == (page_json["author"] or "")
    code, _, _ = run(capsys, "extract", "--format", "csv", "--comments", "keep", "-o", str(output), page)
    with output.open(newline="", encoding="utf-8") as fh:
        (row,) = list(csv.DictReader(fh))
    assert "Our two hives on the allotment" in row["comments"]


def test_unknown_format_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["extract", "--format", "xml", str(SAMPLE)])
    assert exit_info.value.code == EXIT_USAGE


def test_stdin_and_title(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SAMPLE.read_bytes())))
    code, out, _ = run(capsys, "extract", "--title", "-")
    assert code == EXIT_OK
    assert out.startswith("Harbour town rebuilds its sea wall with recycled stone\n\n")


def test_method_options_are_passed_and_checked(capsys):
    code, out, _ = run(capsys, "extract", "--method", "density", "--option", "threshold=mean", str(SAMPLE))
    assert code == EXIT_OK and SENTENCE in out
    code, _, err = run(capsys, "extract", "--method", "density", "--option", "threshold=median", str(SAMPLE))
    assert code == EXIT_USAGE and "threshold" in err
    code, _, err = run(capsys, "extract", "--option", "no-equals-sign", str(SAMPLE))
    assert code == EXIT_USAGE and "KEY=VALUE" in err


def test_comments_keep_or_drop(capsys):
    page = str(Path(__file__).resolve().parent / "fixtures" / "comments.html")
    comment = "Our two hives on the allotment did just as well"
    code, kept, _ = run(capsys, "extract", "--comments", "keep", page)
    assert code == EXIT_OK and comment in kept
    body, _, after = kept.partition("\n\n")
    assert "spring honey" in body and comment not in body and comment in after
    code, dropped, _ = run(capsys, "extract", "--comments", "drop", page)
    assert code == EXIT_OK and comment not in dropped and "spring honey" in dropped
    code, default, _ = run(capsys, "extract", page)
    assert default == dropped
    code, as_json, _ = run(capsys, "extract", "--format", "jsonl", "--comments", "keep", page)
    assert comment in json.loads(as_json)["comments"] and comment not in json.loads(as_json)["text"]
    code, _, err = run(capsys, "extract", "--method", "bte", "--comments", "drop", page)
    assert code == EXIT_USAGE and "block method" in err


def test_exit_codes(capsys, tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_text("<html><body><script>x()</script></body></html>")
    pdf = tmp_path / "file.pdf"
    pdf.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)
    assert run(capsys, "extract", str(empty))[0] == EXIT_EMPTY
    code, _, err = run(capsys, "extract", str(pdf))
    assert code == EXIT_FAILED and "binary" in err
    code, out, err = run(capsys, "extract", str(tmp_path / "missing.html"), str(SAMPLE))
    assert code == EXIT_FAILED and "cannot read" in err and SENTENCE in out  # counted, and the run goes on
    # One good input among failures still reports the failure.
    assert run(capsys, "extract", str(SAMPLE), str(pdf))[0] == EXIT_FAILED


def test_bad_model_file_is_a_clear_failure(capsys, tmp_path):
    bogus = tmp_path / "model.npz"
    bogus.write_bytes(b"not a model")
    code, _, err = run(capsys, "extract", "--method", "model", "--model", str(bogus), str(SAMPLE))
    assert code in (EXIT_FAILED, EXIT_USAGE)
    assert "model" in err.lower()


@pytest.mark.parametrize("command", [[], ["extract"], ["train"], ["evaluate"]])
def test_every_command_has_help(command):
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy_bte", *command, "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "usage:" in proc.stdout


def test_usage_error_exit_code():
    proc = subprocess.run([sys.executable, "-m", "scrapy_bte", "extract"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == EXIT_USAGE
    assert "PATH" in proc.stderr
