"""``scrapy-bte explain`` and ``scrapy-bte label`` on the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..api import DEFAULT_MAX_BYTES, DEFAULT_METHOD, METHODS, extract_document, parse
from ..errors import ConfigError, ExtractionError
from ..outfile import AtomicOutput, clobbers
from ..sources import Page, read, read_file
from ..terminal import printable
from .collect import explain
from .label_server import Guess, LabelServer
from .render import render

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _port(value: str) -> int:
    """A TCP port for ``--port``: a usage error (exit 2) past 65535, not an ``OverflowError`` from the socket."""
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 0 and 65535, got {port}")
    return port


def _method_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if args.model:
        options["model_path"] = args.model
    if args.comments is not None:
        options["comments"] = args.comments == "keep"
    return options


def _add_method_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--method", default=DEFAULT_METHOD, choices=METHODS, help=f"extraction method (default: {DEFAULT_METHOD})"
    )
    p.add_argument("--model", default=None, help="path to a model .npz for the model/auto methods")
    p.add_argument("--comments", default=None, choices=("keep", "drop"), help="keep or drop readers' comment sections")


def run_explain(args: argparse.Namespace) -> int:
    refused = clobbers(args.output, [args.file], [args.file])
    if refused is not None:
        print(f"scrapy-bte: refusing --output: {printable(refused)}", file=sys.stderr)
        return EXIT_USAGE
    # By kind and size before reading, as for extract; "-" is standard input under the same limit.
    piped = args.file == "-"
    page = next(read(["-"], max_bytes=DEFAULT_MAX_BYTES)) if piped else read_file(args.file, DEFAULT_MAX_BYTES)
    if not isinstance(page, Page):
        print(f"scrapy-bte: cannot read {printable(args.file)}: {page.reason}", file=sys.stderr)
        return EXIT_USAGE
    data, name = page.body, "standard input" if piped else Path(args.file).name
    try:
        report = explain(
            data,
            name,
            method=args.method,
            encoding=args.encoding,
            url=args.url,
            **_method_options(args),
        )
    except ConfigError as exc:
        print(f"scrapy-bte: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ExtractionError as exc:
        print(f"scrapy-bte: {args.file}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        with AtomicOutput(args.output) as out:  # a failed write leaves any earlier report whole
            out.write(render(report))
    except OSError as exc:
        print(f"scrapy-bte: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{args.output}: {report.kept} of {len(report.blocks)} blocks kept ({args.method})")
    return EXIT_OK


def model_guess(method: str = DEFAULT_METHOD, **options: Any) -> Guess:
    """The labels a method would give: what the labelling page shows before any click."""

    def guess(html: bytes) -> tuple[list[str], list[bool]]:
        doc = parse(html)
        kept = set(extract_document(doc, method=method, **options).kept_blocks)
        return list(doc.texts), [i in kept for i in range(doc.n_blocks)]

    return guess


def run_label(args: argparse.Namespace) -> int:
    options = _method_options(args)
    guess = model_guess(args.method, **options)
    try:
        server = LabelServer(args.folder, guess, args.port)
    except (OSError, NotADirectoryError) as exc:
        print(f"scrapy-bte: cannot serve {args.folder}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    pages = len(server.app.pages())
    if not pages:  # a page with nothing to label: said here, not in a browser
        server.server_close()
        print(f"scrapy-bte: {printable(args.folder)} holds no .html or .htm file to label", file=sys.stderr)
        return EXIT_USAGE
    print(f"labelling {pages} pages of {server.app.root} at {server.url} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return EXIT_OK


def add_parsers(subparsers: Any) -> None:
    """Register ``explain`` and ``label``."""
    ex = subparsers.add_parser(
        "explain",
        help="write an HTML report of which blocks a page keeps and why",
        description="Write one self-contained HTML report: the page's blocks kept and dropped with the rule "
        "that decided each, the density graph with its threshold, Finn's cumulative tag curve with "
        "BTE's span, the fields and the scores.",
    )
    ex.add_argument("file", metavar="FILE", help="HTML file, or - for standard input")
    ex.add_argument("-o", "--output", required=True, metavar="REPORT.html", help="where to write the report")
    ex.add_argument("--encoding", default=None, help="decode input with this encoding instead of detecting it")
    ex.add_argument("--url", default=None, help="the page's address, for relative URLs in its fields")
    _add_method_options(ex)
    ex.set_defaults(func=run_explain)

    lab = subparsers.add_parser(
        "label",
        help="label blocks of the pages in a folder in your browser",
        description="Serve a local page (127.0.0.1 only) showing each DIR/*.html page's blocks, pre-filled "
        "with the method's guess; toggle keep/drop and save. Labels go to <id>.labels.json beside "
        "each page; 'scrapy-bte train --data DIR' reads them.",
    )
    lab.add_argument("folder", metavar="DIR", help="folder of .html pages (searched recursively)")
    lab.add_argument("--port", type=_port, default=8765, help="port on 127.0.0.1 (default 8765; 0 picks a free one)")
    _add_method_options(lab)
    lab.set_defaults(func=run_label)
