"""``scrapy-bte extract`` against hostile and careless input: every run finishes, no input is lost.

Each test is one failure seen against earlier versions: an output that
named an input, an output killed half-written, a file too large to read,
a device or FIFO among the inputs, an unreadable folder, a dangling link,
escape sequences in names, a page that exhausts memory. The runs are real
(in this process, or a subprocess where a signal or a memory limit is
part of the test).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte.api import DEFAULT_MAX_BYTES
from scrapy_bte.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from scrapy_bte.outfile import AtomicOutput

SAMPLE = SAMPLES / "article.html"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*argv: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "scrapy_bte", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,  # type: ignore[call-overload]
    )


def folder_of_pages(root: Path, names: tuple[str, ...] = ("a.html", "c.html")) -> Path:
    root.mkdir(exist_ok=True)
    for name in names:
        (root / name).write_bytes(SAMPLE.read_bytes())
    return root


# -- outputs ------------------------------------------------------------------------------------


def test_output_naming_an_input_is_refused_before_it_is_opened(capsys, tmp_path):
    """``extract in/a1.html -o in/a1.html`` left a1.html at 0 bytes."""
    page = tmp_path / "a1.html"
    page.write_bytes(SAMPLE.read_bytes())
    link = tmp_path / "link.txt"
    link.symlink_to(page)
    for output in (page, link):
        code, _, err = run(capsys, "extract", str(page), "-o", str(output))
        assert code == EXIT_USAGE and "also an input" in err
        assert page.read_bytes() == SAMPLE.read_bytes()
    folder = folder_of_pages(tmp_path / "in")
    code, _, err = run(capsys, "extract", str(folder), "-o", str(folder / "a.html"))
    assert code == EXIT_USAGE and (folder / "a.html").read_bytes() == SAMPLE.read_bytes()


def test_output_inside_an_input_folder_that_would_be_read_is_refused(capsys, tmp_path):
    folder = folder_of_pages(tmp_path / "in")
    code, _, err = run(capsys, "extract", str(folder), "-o", str(folder / "sub" / "out.html"))
    assert code == EXIT_USAGE and "would be read as a page" in err
    code, _, _ = run(capsys, "extract", str(folder), "-o", str(folder / "out.txt"))  # never read: fine
    assert code == EXIT_OK and "harbour" in (folder / "out.txt").read_text().lower()
    assert sorted(p.name for p in folder.iterdir()) == ["a.html", "c.html", "out.txt"]  # no temporary left


def test_output_through_a_link_or_to_a_pipe(tmp_path):
    """A link is written through (it stays a link); a device or pipe is written directly."""
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old\n")
    link.symlink_to(real)
    proc = cli("extract", "-q", str(SAMPLE), "-o", str(link))
    assert proc.communicate(timeout=120)[0] == "" and proc.returncode == EXIT_OK
    assert link.is_symlink() and "harbour" in real.read_text()
    proc = cli("extract", "-q", str(SAMPLE), "-o", "/dev/stdout")
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_OK and "harbour" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


def test_a_terminated_run_leaves_the_previous_output_and_no_temporary(tmp_path):
    folder = folder_of_pages(tmp_path / "in")
    fifo = tmp_path / "stdin.fifo"
    os.mkfifo(fifo)
    output = tmp_path / "out.jsonl"
    output.write_text("previous complete output\n")
    # stdin is a FIFO nobody writes to: the run is still reading when it is terminated.
    keep_open = os.open(fifo, os.O_RDWR)
    try:
        proc = cli("extract", str(folder), "-", "--format", "jsonl", "-o", str(output), stdin=keep_open)
        deadline = time.monotonic() + 60
        while not any(p.name.endswith(".scrapy-bte.tmp") for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    finally:
        os.close(keep_open)
    assert proc.returncode != 0
    assert output.read_text() == "previous complete output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out.jsonl", "stdin.fifo"]


def test_a_killed_runs_temporary_is_removed_by_the_next_run(capsys, tmp_path):
    output = tmp_path / "out.txt"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".out.txt.abc123.{int(dead.stdout)}.scrapy-bte.tmp"
    stale.write_text("half")
    live = AtomicOutput(str(output))  # this process: alive, so its temporary stays
    code, _, _ = run(capsys, "extract", str(SAMPLE), "-o", str(output))
    assert code == EXIT_OK and not stale.exists() and live.tmp.exists()
    live.discard()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


# -- inputs -------------------------------------------------------------------------------------


def test_inputs_over_max_bytes_are_refused_by_size_before_reading(capsys, tmp_path):
    folder = folder_of_pages(tmp_path / "in", ("a.html", "c.html"))
    with open(folder / "b.html", "wb") as sparse:  # 2 GB, no disk used: reading it would take 2 GB of memory
        sparse.truncate(2 * 2**30)
    code, out, err = run(capsys, "extract", "--format", "jsonl", str(folder))
    assert code == EXIT_FAILED
    assert f"b.html: {2 * 2**30} bytes, over the limit of {DEFAULT_MAX_BYTES}" in err
    records = [json.loads(line) for line in out.splitlines()]
    assert [Path(r["source"]).name for r in records] == ["a.html", "b.html", "c.html"]
    assert "error" in records[1] and records[2]["words"] > 100
    code, _, err = run(capsys, "extract", "--max-bytes", "1000", str(SAMPLE))
    assert code == EXIT_FAILED and "over the limit of 1000" in err
    assert run(capsys, "extract", "--max-bytes", "0", str(SAMPLE))[0] == EXIT_USAGE


def test_devices_fifos_and_dangling_links_are_errors_and_the_run_goes_on(capsys, tmp_path):
    folder = folder_of_pages(tmp_path / "in", ("a.html", "z.html"))
    os.mkfifo(folder / "fifo.html")  # reading it would wait forever
    (folder / "gone.html").symlink_to(folder / "missing.html")
    (folder / "loop.html").symlink_to(folder / "loop.html")
    code, out, err = run(capsys, "extract", "--format", "jsonl", "/dev/zero", str(folder))
    assert code == EXIT_FAILED
    assert "cannot read /dev/zero: not a regular file: a character device" in err
    assert "fifo.html: not a regular file: a FIFO" in err
    assert "gone.html: dangling symbolic link" in err
    assert "loop.html: Too many levels of symbolic links" in err
    texts = [r for r in map(json.loads, out.splitlines()) if "text" in r]
    assert [Path(r["source"]).name for r in texts] == ["a.html", "z.html"]
    assert "4 unreadable" in err.splitlines()[-1]


def test_an_unreadable_folder_is_reported(tmp_path):
    """Skipped with exit 0 and nothing on stderr before."""
    folder = folder_of_pages(tmp_path / "in")
    (folder / "closed").mkdir()
    (folder / "closed" / "x.html").write_bytes(SAMPLE.read_bytes())
    (folder / "closed").chmod(0)
    command = [sys.executable, "-m", "scrapy_bte", "extract", "-q", str(folder)]
    if os.geteuid() == 0:  # root reads every folder; in a user namespace of its own it is an ordinary owner
        if shutil.which("unshare") is None or subprocess.run(["unshare", "-U", "true"]).returncode:
            pytest.skip("running as root without user namespaces")
        command = ["unshare", "-U", *command]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
    finally:
        (folder / "closed").chmod(0o755)
    assert proc.returncode == EXIT_FAILED
    assert f"cannot read {folder / 'closed'}: cannot list folder: Permission denied" in proc.stderr
    assert proc.stdout.count("harbour") >= 2


def test_control_characters_in_names_are_escaped(capsys, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "\x1b]0;owned\x07\x1b[2J.html").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(100))
    code, out, err = run(capsys, "extract", str(folder), str(SAMPLE))
    assert code == EXIT_FAILED
    assert "\x1b" not in err and "\x07" not in err and "\x1b" not in out
    assert "\\x1b]0;owned\\x07\\x1b[2J.html: ExtractionError: binary body" in err


def test_an_executable_named_html_is_an_error_not_text(capsys, tmp_path):
    """An ELF binary named .html came out as 4,467 words of control characters, exit 0."""
    page = tmp_path / "ls.html"
    page.write_bytes(Path(os.path.realpath("/proc/self/exe")).read_bytes()[:300_000])
    for jobs in ("0", "1"):
        code, out, err = run(capsys, "extract", "--jobs", jobs, str(page))
        assert code == EXIT_FAILED and "binary body" in err and out == ""


@pytest.mark.parametrize("jobs", ["0", "1"])
def test_a_page_that_exhausts_memory_fails_alone(tmp_path, jobs):
    """A page that raises MemoryError is that page's error; the next page is still extracted."""
    folder = folder_of_pages(tmp_path / "in", ("a.html", "c.html"))
    (folder / "b.html").write_text("<html><body>" + "<p>word word <b>x</b></p>\n" * 600_000 + "</body></html>")
    limit = 550 * 2**20

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    small = cli("extract", "-q", str(folder / "a.html"), preexec_fn=cap)
    if small.communicate(timeout=120)[0].count("harbour") == 0:
        pytest.skip("the interpreter alone needs more than the address-space cap here")
    proc = cli("extract", "--jobs", jobs, "--format", "jsonl", str(folder), preexec_fn=cap)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == EXIT_FAILED, err
    assert "b.html: " in err and "MemoryError" in err and "Traceback" not in err
    records = [json.loads(line) for line in out.splitlines()]
    assert [Path(r["source"]).name for r in records] == ["a.html", "b.html", "c.html"]
    assert "error" in records[1] and records[2]["words"] > 100


# -- command-line inputs, generated ---------------------------------------------------------------

entry = st.one_of(
    st.tuples(st.just("page"), st.binary(max_size=64)),
    st.tuples(st.just("html"), st.sampled_from([b"<p>one two three</p>", b"<html>" * 3])),
    st.tuples(st.just("dangling"), st.none()),
    st.tuples(st.just("fifo"), st.none()),
    st.tuples(st.just("folder"), st.none()),
)
names = st.text(alphabet="ab\x1b\x07\n\t é[];", min_size=1, max_size=8).filter(lambda n: n not in (".", ".."))


@FUZZ
@given(entries=st.lists(st.tuples(names, entry), max_size=6, unique_by=lambda e: e[0]))
def test_fuzzed_folders_always_finish_and_report_every_failure(capsys, tmp_path_factory, entries):
    folder = tmp_path_factory.mktemp("fuzz")
    for name, (kind, body) in entries:
        path = folder / f"{name}.html"
        if kind in ("page", "html"):
            path.write_bytes(body)
        elif kind == "dangling":
            path.symlink_to(folder / "nowhere")
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
    (folder / "zz-last.html").write_bytes(SAMPLE.read_bytes())
    code, out, err = run(capsys, "extract", "--format", "jsonl", str(folder))
    assert code in (EXIT_OK, EXIT_FAILED)
    assert not any(c in err for c in "\x1b\x07")
    records = [json.loads(line) for line in out.splitlines()]
    last = [r for r in records if Path(r["source"]).name == "zz-last.html"]
    assert len(last) == 1 and last[0]["words"] > 100
    failed = [r for r in records if "text" not in r]
    assert (code == EXIT_FAILED) == bool(failed)
    assert len(err.splitlines()) == len(failed) + 1  # one line per failure, then the summary


def test_explain_survives_deep_jsonld_and_never_overwrites_its_input(capsys, tmp_path):
    """`scrapy-bte explain` crashed on a page of 1,000 nested JSON-LD arrays."""
    page = tmp_path / "deep.html"
    script = '<script type="application/ld+json">' + "[" * 1000 + "]" * 1000 + "</script>"
    page.write_text(SAMPLE.read_text(encoding="utf-8").replace("</head>", script + "</head>"), encoding="utf-8")
    before = page.read_bytes()
    report = tmp_path / "report.html"
    code, out, _ = run(capsys, "explain", str(page), "-o", str(report))
    assert code == EXIT_OK and "blocks kept" in out and report.stat().st_size > 1000
    code, _, err = run(capsys, "explain", str(page), "-o", str(page))
    assert code == EXIT_USAGE and "also an input" in err and page.read_bytes() == before
    code, _, err = run(capsys, "explain", "/dev/zero", "-o", str(report))
    assert code == EXIT_USAGE and "not a regular file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.html", "report.html"]


# -- limits, a full disk, workers, a set with a binary page ------------------------------------------


def test_any_max_bytes_reads_stdin_and_files_and_a_small_one_refuses_only_the_input(tmp_path):
    """``--max-bytes 99999999999999999999999`` raised OverflowError and a petabyte MemoryError (the
    read allocated the whole limit first); a limit under the size of the command's own check page
    refused that page as a usage error."""
    for limit in ("99999999999999999999999", str(2**50)):
        for source in ("-", str(SAMPLE)):
            proc = cli("extract", "--max-bytes", limit, source, stdin=subprocess.PIPE)
            out, err = proc.communicate(SAMPLE.read_text(encoding="utf-8") if source == "-" else None, timeout=60)
            assert proc.returncode == EXIT_OK, err
            assert len(out.split()) > 100 and "Traceback" not in err
    proc = cli("extract", "--max-bytes", "5", "-", stdin=subprocess.PIPE)
    _, err = proc.communicate("<p>hello there</p>", timeout=60)
    assert proc.returncode == EXIT_FAILED and "cannot read -: over the limit of 5 bytes" in err


def test_read_up_to_reads_a_chunk_at_a_time():
    import io

    from scrapy_bte import sources

    data = bytes(range(256)) * 20_000  # 5 MB: several chunks
    assert sources.read_up_to(io.BytesIO(data), None) == data
    assert sources.read_up_to(io.BytesIO(data), len(data)) == data
    assert sources.read_up_to(io.BytesIO(data), 3 * sources.READ_CHUNK) == data[: 3 * sources.READ_CHUNK + 1]
    assert sources.read_up_to(io.BytesIO(data), 10) == data[:11]
    assert sources.read_up_to(io.BytesIO(b""), 10) == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_a_full_disk_is_one_line_and_the_previous_output_stays(tmp_path, fmt):
    """Writing to ``/dev/full`` (``-o`` or standard output) ended in an OSError traceback."""
    proc = cli("extract", "--format", fmt, "-o", "/dev/full", str(SAMPLE))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_FAILED
    assert err.splitlines() == ["scrapy-bte: cannot write /dev/full: No space left on device"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "scrapy_bte", "extract", "--format", fmt, str(SAMPLE)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    err = done.stderr
    assert done.returncode == EXIT_FAILED and "Traceback" not in err
    assert "scrapy-bte: cannot write standard output: No space left on device" in err


def test_jobs_are_bounded_by_the_inputs_and_a_maximum(capsys, monkeypatch, tmp_path):
    """``-j 30`` on one page started 30 workers; ``-j 100000`` tried to start 100,000."""
    from scrapy_bte import cli as command

    started: list[int] = []
    real = command.extract_all

    def counting(items, *, jobs, **kwargs):
        started.append(jobs)
        return real(items, jobs=jobs, **kwargs)

    monkeypatch.setattr(command, "extract_all", counting)
    code, out, _ = run(capsys, "extract", "-j", "30", str(SAMPLE))
    assert code == EXIT_OK and len(out.split()) > 100 and started == [1]
    folder = folder_of_pages(tmp_path / "in", ("a.html", "b.html", "c.html"))
    assert run(capsys, "extract", "-j", "8", str(folder))[0] == EXIT_OK and started[-1] == 3
    code, _, err = run(capsys, "extract", "-j", "100000", str(SAMPLE))
    assert code == EXIT_USAGE and "--jobs must be between 0 and 256" in err and len(started) == 2


def test_evaluate_skips_a_binary_page_and_scores_the_rest(capsys, tmp_path):
    """One PNG named .html in a set ended ``scrapy-bte evaluate`` with no table."""
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.html").write_bytes(SAMPLE.read_bytes())
        (folder / f"{name}.txt").write_text("The article's text.", encoding="utf-8")
    (folder / "c.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)
    (folder / "c.txt").write_text("x", encoding="utf-8")
    code, out, err = run(capsys, "evaluate", "--data", str(folder), "--method", "bte", "-q")
    assert code == EXIT_OK and "| bte | set |" in out
    assert f"skipped {folder / 'c.html'}: binary body" in err
    (folder / "a.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)
    (folder / "b.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)
    code, _, err = run(capsys, "evaluate", "--data", str(folder), "--method", "bte", "-q")
    assert code != EXIT_OK and "no page of" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_timeout_that_is_no_positive_number_is_a_usage_error(capsys, value):
    """``--timeout 0 --jobs 1`` exited 1 with the pool's "timeout must be > 0 or None"."""
    code, _, err = run(capsys, "extract", "--timeout", value, "--jobs", "1", str(SAMPLE))
    assert code == EXIT_USAGE and "--timeout must be a number of seconds > 0" in err


@pytest.mark.parametrize("value", ["99999", "-1", "http"])
def test_a_label_port_out_of_range_is_a_usage_error(capsys, tmp_path, value):
    """``scrapy-bte label DIR --port 99999`` ended in an ``OverflowError`` traceback."""
    folder = folder_of_pages(tmp_path / "pages", ("a.html",))
    with pytest.raises(SystemExit) as exit_:
        main(["label", str(folder), "--port", value])
    _, err = capsys.readouterr()
    assert exit_.value.code == EXIT_USAGE and "argument --port" in err and "Traceback" not in err


def test_a_folder_without_pages_and_a_web_address_say_what_to_do(capsys, tmp_path):
    """A folder of ``.txt`` files gave "0 pages" and a web address "No such file or directory":
    the one names the folder that holds no page, the other how to read a page on the web."""
    empty = tmp_path / "notes"
    empty.mkdir()
    (empty / "a.txt").write_text("not a page")
    code, _, err = run(capsys, "extract", str(empty), str(SAMPLE))
    assert code == EXIT_OK and f"{empty} holds no .html or .htm file" in err and "1 pages" in err
    code, _, err = run(capsys, "extract", "https://news.example/a?b=1", str(SAMPLE))
    assert code == EXIT_FAILED and "a web address is not fetched" in err
    assert "curl -s 'https://news.example/a?b=1' | scrapy-bte extract --url 'https://news.example/a?b=1' -" in err
    code, _, err = run(capsys, "extract", str(tmp_path / "missing.html"))
    assert code == EXIT_FAILED and "No such file or directory" in err and "web address" not in err


def test_options_the_run_cannot_use_are_said_not_ignored(capsys):
    """``--title`` with JSON and ``--timeout`` without worker processes did nothing without a word."""
    code, out, err = run(capsys, "extract", "--title", "--format", "json", str(SAMPLE))
    assert code == EXIT_OK and "--title is for the text format" in err and json.loads(out)[0]["title"]
    code, _, err = run(capsys, "extract", "--timeout", "5", "--jobs", "0", str(SAMPLE))
    assert code == EXIT_OK and "--timeout applies in worker processes only" in err
    code, _, err = run(capsys, "extract", "--title", str(SAMPLE))
    assert code == EXIT_OK and "--title" not in err and "--timeout" not in err


def test_label_on_a_folder_without_pages_is_a_usage_error(capsys, tmp_path):
    """``scrapy-bte label`` served a folder of no pages: a labelling page with nothing to label."""
    (tmp_path / "notes.txt").write_text("not a page")
    assert main(["label", str(tmp_path), "--port", "0"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert f"{tmp_path} holds no .html or .htm file to label" in err and "labelling" not in out
