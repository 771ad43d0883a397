"""``scrapy-bte label`` on the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..api import DEFAULT_METHOD, METHODS, extract_document, parse
from .label_server import Guess, LabelServer

EXIT_OK, EXIT_USAGE = 0, 2


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
    print(f"labelling {pages} pages of {server.app.root} at {server.url} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return EXIT_OK


def add_parsers(subparsers: Any) -> None:
    """Register ``label``."""
    lab = subparsers.add_parser(
        "label",
        help="label blocks of the pages in a folder in your browser",
        description="Serve a local page (127.0.0.1 only) showing each DIR/*.html page's blocks, pre-filled "
        "with the method's guess; toggle keep/drop and save. Labels go to <id>.labels.json beside "
        "each page; 'scrapy-bte train --data DIR' reads them.",
    )
    lab.add_argument("folder", metavar="DIR", help="folder of .html pages (searched recursively)")
    lab.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0 picks a free one)")
    _add_method_options(lab)
    lab.set_defaults(func=run_label)
