"""``scrapy-bte`` command line.

Exit codes: 0 success; 1 at least one input failed (extraction refused a
page: binary, JSON, too large, timeout; or a file or WARC record could not be
read), the others were still processed; 2 usage errors (argparse's own code,
bad method or options); 3 no page gave any text.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, TextIO
from urllib.parse import urlsplit

from . import __version__
from .api import DEFAULT_MAX_BYTES, DEFAULT_METHOD, METHODS, extract
from .batch import Outcome, Progress, Summary, extract_all
from .core import accel
from .errors import BTEError
from .fields.record import FIELD_NAMES
from .formats import FORMATS, Writer
from .outfile import AtomicOutput, Guarded, Unwritable, clobbers
from .pool.cpus import usable_cpus
from .sources import BadInput, Item, Page, Skipped, expand, is_warc, read
from .terminal import printable
from .training import commands as training

#: ``--timeout`` when none is given: seconds one page may take in a worker.
DEFAULT_TIMEOUT = 10.0

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_EMPTY = 3
EXIT_CODES_HELP = (
    "Exit codes: 0 ok; 1 some input failed (refused page, unreadable file or record; the rest is still done); "
    "2 usage error; 3 no page gave any text."
)
_PROBE_HTML = "<html><body><p>A short probe paragraph.</p></body></html>"


class _Version(argparse.Action):
    """``--version``: one unwrapped line, with the native passes in use (see :func:`.core.accel.summary`)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"scrapy-bte {__version__} ({accel.summary()})")
        parser.exit()


def _options(args: argparse.Namespace) -> dict[str, Any] | str:
    """Method options from the command line, or an error message."""
    options: dict[str, Any] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep:
            return f"--option takes KEY=VALUE, got {item!r}"
        options[key] = _parse_value(value)
    if args.model:
        options["model_path"] = args.model
    if args.comments is not None:
        options["comments"] = args.comments == "keep"
    options.setdefault("max_bytes", args.max_bytes)
    limit = options["max_bytes"]
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
        return f"max_bytes must be a positive number of bytes, got {limit!r}"
    options["fields"] = FIELD_NAMES  # every article field: the JSON output carries them all
    options["page_type"] = args.page_type
    return options


def _url_problem(url: str, many: bool) -> str | None:
    """Why ``--url`` cannot stand for the input's address, or None: it names one page, fetched over HTTP(S)."""
    if many:
        return "names the address of one page: give one file or -, not a folder, a WARC file or several inputs"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"must be an absolute http or https address, got {printable(url)!r}"
    return None


def _report(outcome: Outcome, verbose: bool) -> None:
    item = outcome.item
    source = printable(item.source)
    if isinstance(item, BadInput):
        print(f"scrapy-bte: cannot read {source}: {printable(item.reason)}", file=sys.stderr)
    elif outcome.error is not None:
        print(f"scrapy-bte: {source}: {printable(outcome.error)}", file=sys.stderr)
    elif isinstance(item, Skipped) and verbose:
        print(f"scrapy-bte: skipped {source}: {printable(item.reason)}", file=sys.stderr)


def _cmd_extract(args: argparse.Namespace) -> int:
    options = _options(args)
    if isinstance(options, str):
        print(f"scrapy-bte: {options}", file=sys.stderr)
        return EXIT_USAGE
    if args.jobs is not None and not 0 <= args.jobs <= MAX_JOBS:
        print(f"scrapy-bte: --jobs must be between 0 and {MAX_JOBS}", file=sys.stderr)
        return EXIT_USAGE
    if args.max_bytes < 1:
        print("scrapy-bte: --max-bytes must be >= 1", file=sys.stderr)
        return EXIT_USAGE
    if args.timeout is not None and not (args.timeout > 0 and math.isfinite(args.timeout)):  # NaN, inf: floats too
        print("scrapy-bte: --timeout must be a number of seconds > 0", file=sys.stderr)
        return EXIT_USAGE
    try:  # a bad method, option or model fails once here, not once per page (the probes under any --max-bytes)
        probe = {**options, "max_bytes": None}
        extract(_PROBE_HTML, method=args.method, encoding=None, **probe)
        if args.encoding:
            extract(b"<p>x</p>", method=args.method, encoding=args.encoding, **probe)
    except BTEError as exc:  # unknown method, option, model or encoding
        print(f"scrapy-bte: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.title and args.format != "text":  # said, not refused: the option is harmless there
        print(f"scrapy-bte: --title is for the text format; {args.format} carries the title anyway", file=sys.stderr)
    headers = len(args.files) > 1 or any(f != "-" and (os.path.isdir(f) or is_warc(f)) for f in args.files)
    if args.url is not None:
        problem = _url_problem(args.url, headers)
        if problem:
            print(f"scrapy-bte: --url {problem}", file=sys.stderr)
            return EXIT_USAGE
    inputs: list[str] = []
    for path in args.files:
        found = list(expand([path]))
        if not found:  # a folder without pages: said, as the summary's "0 pages" does not say why
            print(f"scrapy-bte: {printable(path)} holds no .html or .htm file", file=sys.stderr)
        inputs += found
    out: TextIO = sys.stdout
    output: AtomicOutput | None = None
    if args.output:  # checked against the inputs before anything is opened
        refused = clobbers(args.output, inputs, args.files)
        if refused is not None:
            print(f"scrapy-bte: refusing --output: {printable(refused)}", file=sys.stderr)
            return EXIT_USAGE
        try:
            output = AtomicOutput(args.output)
        except OSError as exc:
            print(f"scrapy-bte: cannot write {printable(args.output)}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
        out = output.file
    summary = Summary()
    name = printable(args.output) if args.output else "standard output"
    guarded: Any = Guarded(out, name)
    try:
        writer = Writer(guarded, args.format, headers=headers, title=args.title, comments=args.comments == "keep")
        return _extract_into(args, options, inputs, writer, output, summary)
    except Unwritable as exc:  # a full disk: one line, the previous output as it was
        if output is not None:
            output.discard()
        print(f"scrapy-bte: {exc}", file=sys.stderr)
        return EXIT_FAILED


def _extract_into(
    args: argparse.Namespace,
    options: dict[str, Any],
    inputs: list[str],
    writer: Writer,
    output: AtomicOutput | None,
    summary: Summary,
) -> int:
    """The run of ``extract`` once its output is open: every input through ``writer``."""
    jobs = default_jobs(inputs) if args.jobs is None else min(args.jobs, most_workers(inputs))
    if jobs == 0 and args.timeout is not None:
        print(
            "scrapy-bte: --timeout applies in worker processes only (--jobs N); pages run here have none",
            file=sys.stderr,
        )
    progress = Progress(len(inputs))
    inputs_read = 0

    def pages() -> Iterator[Item]:
        nonlocal inputs_read
        for path in inputs:
            inputs_read += 1
            for item in read([path], max_bytes=options["max_bytes"]):
                yield replace(item, url=args.url) if args.url is not None and isinstance(item, Page) else item

    try:
        for outcome in extract_all(
            pages(),
            jobs=jobs,
            timeout=DEFAULT_TIMEOUT if args.timeout is None else args.timeout,
            method=args.method,
            options=options,
            encoding=args.encoding,
        ):
            summary.add(outcome)
            if outcome.error is not None or isinstance(outcome.item, BadInput):
                progress.clear()  # the message gets a line of its own
            _report(outcome, args.verbose)
            if outcome.extraction is not None:
                writer.write(outcome.item.source, outcome.extraction)
            elif not isinstance(outcome.item, Skipped):  # every failed input has its record
                error = outcome.error if outcome.error is not None else getattr(outcome.item, "reason", None)
                if error is not None:
                    writer.write_error(outcome.item.source, error)
            progress.update(summary, inputs_read)
        progress.update(summary, inputs_read, final=True)
    except BaseException:
        if output is not None:
            output.discard()  # the previous output stays as it was
        raise
    finally:
        progress.close()
        writer.close()
        if output is None:
            writer.out.flush()
    if output is not None:
        try:
            output.commit()
        except OSError as exc:
            raise Unwritable(printable(args.output), exc) from exc
    if not args.quiet:
        print(f"scrapy-bte: {summary.line()}", file=sys.stderr)
    if summary.errors or summary.bad_inputs:
        return EXIT_FAILED
    return EXIT_OK if summary.with_text else EXIT_EMPTY


#: Inputs from which ``--jobs`` defaults to worker processes: starting them costs about 1.6 s.
WORKERS_PAY_FROM = 1000


#: The most worker processes ``--jobs`` starts: each is a Python process of about 100 MB.
MAX_JOBS = 256


def _has_warc(inputs: Sequence[str]) -> bool:
    """Whether a WARC file is among the inputs: one input of many pages."""
    return any(path != "-" and is_warc(path) for path in inputs)


def most_workers(inputs: Sequence[str]) -> int:
    """Workers that could all have a page: one per input, unless one is a WARC file (many pages)."""
    return MAX_JOBS if _has_warc(inputs) else max(len(inputs), 1)


def default_jobs(inputs: Sequence[str]) -> int:
    """``--jobs`` when none is given: one worker per usable CPU for a large run, else this process.

    Measured on a shared 2-CPU machine (the docs' command-line page has the
    table): two workers extracted 2,370 pages about 1.3 times as fast as the
    command's own process (median of seven interleaved rounds), but starting
    them costs about 1.6 s, which a run of a few hundred pages never earns
    back; with one CPU a worker only adds the hand-over. A WARC file counts
    as large: it holds many pages.
    """
    cpus = usable_cpus()
    if cpus < 2:
        return 0
    large = len(inputs) >= WORKERS_PAY_FROM or _has_warc(inputs)
    return cpus if large else 0


def _parse_value(value: str) -> object:
    try:
        return json.loads(value)
    except ValueError:
        return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scrapy-bte", description="Main-text extraction with BTE, text density and a learned block classifier."
    )
    parser.add_argument("--version", action=_Version, help="print the version and which native passes are in use")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    ex = sub.add_parser(
        "extract",
        help="print the main text of HTML files, folders, WARC files or stdin",
        description="Extract the main text of each PATH: an HTML file, a folder (its *.html and *.htm files, "
        "recursively), a WARC file (.warc, .warc.gz: its HTML response and resource records; a bad record is "
        "reported and reading goes on at the next one), or - for standard input. A summary line goes to stderr at the end, "
        "and a progress bar while it runs when stderr is a terminal. " + EXIT_CODES_HELP,
    )
    ex.add_argument("files", nargs="+", metavar="PATH", help="HTML file, folder, WARC file, or - for standard input")
    ex.add_argument(
        "--method", default=DEFAULT_METHOD, choices=METHODS, help=f"extraction method (default: {DEFAULT_METHOD})"
    )
    ex.add_argument(
        "--format",
        default="text",
        choices=FORMATS,
        help="text: the main text; json: one JSON array of objects with source, text, scores and fields; "
        "jsonl (or jsonlines): the same objects, one per line; csv: the columns of a crawl's BTE_FLAT_SCORES export "
        "(default: text)",
    )
    ex.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the output to FILE instead of standard output (replaced when the run ends; never an input)",
    )
    ex.add_argument(
        "--max-bytes",
        type=int,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"refuse inputs (files, stdin, WARC records) over N bytes, by size before reading "
        f"(default {DEFAULT_MAX_BYTES}: {DEFAULT_MAX_BYTES // 2**20} MiB)",
    )
    ex.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help=f"extract in N worker processes (at most {MAX_JOBS}, and no more than there are inputs unless one is a "
        "WARC file), each page with --timeout; 0 extracts in this process "
        f"(default: one per usable CPU for {WORKERS_PAY_FROM} inputs or more, or a WARC file, on 2 CPUs or more; "
        "else 0)",
    )
    ex.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"with --jobs: seconds one page may take before its worker is replaced (default {DEFAULT_TIMEOUT:g})",
    )
    ex.add_argument(
        "--url",
        default=None,
        help="the address the page was fetched from (one file or -): its page type, canonical address and links "
        "are read as a crawl of that address reads them (a WARC record carries its own)",
    )
    ex.add_argument("--encoding", default=None, help="decode input with this encoding instead of detecting it")
    ex.add_argument("--model", default=None, help="path to a model .npz for the model/auto methods")
    ex.add_argument(
        "--comments",
        default=None,
        choices=("keep", "drop"),
        help="readers' comments stay out of the text either way; keep also prints them after it "
        '(a blank line between) and fills "comments" in JSON (not for bte)',
    )
    ex.add_argument("--title", action="store_true", help="print the title before the text (text format)")
    ex.add_argument(
        "--no-page-type",
        dest="page_type",
        action="store_false",
        help="bte, hybrid and density: leave out the page-type classifier (page_type null in JSON; bte runs about "
        "1.5 times as fast); auto and model classify every page anyway",
    )
    ex.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="method option, e.g. --option threshold=mean (repeatable)",
    )
    ex.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    ex.add_argument("-v", "--verbose", action="store_true", help="also report WARC records that are not pages")
    ex.set_defaults(func=_cmd_extract)

    training.add_train_parser(sub)
    training.add_train_page_type_parser(sub)
    training.add_evaluate_parser(sub)
    from .explain.commands import add_parsers

    add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BTEError as exc:
        print(f"scrapy-bte: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `scrapy-bte extract ... | head`: the reader has had enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
