"""``scrapy-bte`` command line.

Exit codes: 0 success; 1 extraction failed for at least one input
(ExtractionError: binary, too large...); 2 usage errors (argparse's own code,
bad options, unreadable files); 3 the output was empty for every input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .api import DEFAULT_METHOD, METHODS, extract
from .errors import BTEError, ConfigError, ExtractionError
from .training import commands as training

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_EMPTY = 3


def _read(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    return Path(source).read_bytes()


def _cmd_extract(args: argparse.Namespace) -> int:
    options = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep:
            print(f"scrapy-bte: --option takes KEY=VALUE, got {item!r}", file=sys.stderr)
            return EXIT_USAGE
        options[key] = _parse_value(value)
    if args.model:
        options["model_path"] = args.model
    if args.comments is not None:
        options["comments"] = args.comments == "keep"
    status = EXIT_OK
    produced = False
    for source in args.files:
        try:
            data = _read(source)
        except OSError as exc:
            print(f"scrapy-bte: cannot read {source}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
        try:
            result = extract(data, method=args.method, encoding=args.encoding, **options)
        except ConfigError as exc:
            print(f"scrapy-bte: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except ExtractionError as exc:
            print(f"scrapy-bte: {source}: {exc}", file=sys.stderr)
            status = EXIT_FAILED
            continue
        produced = produced or bool(result.text)
        if args.format == "json":
            payload = result.to_dict()
            payload["source"] = source
            sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        else:
            if len(args.files) > 1:
                sys.stdout.write(f"==> {source} <==\n")
            if args.title and result.title:
                sys.stdout.write(result.title + "\n\n")
            sys.stdout.write(result.text + ("\n" if result.text else ""))
    if status == EXIT_OK and not produced:
        return EXIT_EMPTY
    return status


def _parse_value(value: str) -> object:
    try:
        return json.loads(value)
    except ValueError:
        return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scrapy-bte",
        description="Main-text extraction with BTE, text density and a learned block classifier.",
    )
    parser.add_argument("--version", action="version", version=f"scrapy-bte {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    ex = sub.add_parser(
        "extract",
        help="print the main text of HTML files or stdin",
        description="Print the main text of each FILE (or stdin for '-'). Exit codes: 0 ok, "
        "1 extraction failed for an input, 2 usage error, 3 every output was empty.",
    )
    ex.add_argument("files", nargs="+", metavar="FILE", help="HTML file, or - for standard input")
    ex.add_argument(
        "--method", default=DEFAULT_METHOD, choices=METHODS, help=f"extraction method (default: {DEFAULT_METHOD})"
    )
    ex.add_argument(
        "--format", default="text", choices=("text", "json"), help="plain text, or one JSON object per input"
    )
    ex.add_argument("--encoding", default=None, help="decode input with this encoding instead of detecting it")
    ex.add_argument("--model", default=None, help="path to a model .npz for the model/auto methods")
    ex.add_argument(
        "--comments",
        default=None,
        choices=("keep", "drop"),
        help="keep or drop readers' comment sections (default: whole threads where the method keeps a comment; not for bte)",
    )
    ex.add_argument("--title", action="store_true", help="print the title before the text (text format)")
    ex.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="method option, e.g. -o threshold=mean (repeatable)",
    )
    ex.set_defaults(func=_cmd_extract)

    training.add_train_parser(sub)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
