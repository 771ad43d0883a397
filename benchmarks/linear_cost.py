"""Linear-cost check: work per input byte must not grow with page size.

    python benchmarks/linear_cost.py [--sizes 1,2,4,8,16] [--case article]
                                     [--method M] [--seed 0] [--workdir DIR]

Generates synthetic pages of the given sizes (MiB, deterministic for a
seed), runs a minimal driver that calls ``scrapy_bte.extract()`` on one page
under ``valgrind --tool=callgrind`` and reads the total instruction count
(Ir). Instruction counts, unlike timings, do not depend on the machine's
load, so the check is stable on a shared machine. The driver run on an
empty page is subtracted to remove interpreter start-up and imports. It
prints instructions per byte for each size and the ratio largest/smallest,
and exits with status 1 when that ratio is >= 1.5 (super-linear cost).

Cases (``--case``):

* ``article``: article paragraphs, navigation lists, nested divs, scripts;
* ``nested``: element depth that grows with the size (unclosed divs);
* ``minified``: the article page on a single line, no whitespace between tags;
* ``comments``: many comments, and an unclosed one near the end;
* ``attrs``: elements with megabyte attribute values.

Python under callgrind runs ~50x slower: the 16 MiB page takes minutes.
``--workdir`` keeps the pages and callgrind files (for callgrind_annotate).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 2**20
MAX_RATIO = 1.5
EMPTY_PAGE = b"<html><head><title></title></head><body></body></html>"
DRIVER = (
    "import sys\n"
    "from scrapy_bte import extract\n"
    "options = {'method': sys.argv[2]} if sys.argv[2] else {}\n"
    "extract(open(sys.argv[1], 'rb').read(), **options)\n"
)


class Words:
    """Deterministic pseudo-English text from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        letters = "etaoinshrdlucmfwypvbgkq"
        self.vocab = ["".join(self.rng.choices(letters, k=self.rng.randint(2, 9))) for _ in range(2000)]

    def __call__(self, count: int) -> str:
        return " ".join(self.rng.choices(self.vocab, k=count))

    def sentence(self) -> str:
        return self(self.rng.randint(6, 24)).capitalize() + "."


def nav(words: Words) -> str:
    items = "".join(f'<li><a href="/{words(1)}">{words(2)}</a></li>' for _ in range(words.rng.randint(4, 12)))
    return f'<ul class="nav menu">{items}</ul>'


def paragraph(words: Words) -> str:
    parts = [words.sentence() for _ in range(words.rng.randint(2, 6))]
    parts.insert(1, f'<a href="/{words(1)}">{words(3)}</a>')
    parts.insert(0, f"<b>{words(2)}</b>")
    return "<p>" + " ".join(parts) + "</p>"


def script(words: Words) -> str:
    return f'<script>var {words(1)} = {{"{words(1)}": "{words(5)}", n: {words.rng.randint(0, 9999)}}};</script>'


def nested_divs(words: Words, body: str) -> str:
    depth = words.rng.randint(3, 8)
    return '<div class="wrap">' * depth + body + "</div>" * depth


def article_unit(words: Words) -> str:
    """One section: a nav list, a script and a nested article of paragraphs."""
    paragraphs = "\n".join(paragraph(words) for _ in range(words.rng.randint(3, 10)))
    return "\n".join([nav(words), script(words), nested_divs(words, f"<article>{paragraphs}</article>")])


def nested_unit(words: Words) -> str:
    return f'<div class="n"><span>{words(3)}</span>'


def comment_unit(words: Words) -> str:
    comments = "".join(f"<!-- {words(8)} -->" for _ in range(words.rng.randint(5, 20)))
    return comments + paragraph(words)


def attrs_unit(words: Words) -> str:
    blob = words(MIB // 6)[:MIB]
    return f'<div class="box" data-blob="{blob}"><p>{words.sentence()}</p></div>'


def fill(units: Callable[[], str], size: int, sep: str = "\n") -> Iterator[str]:
    """Yield units until ``size`` bytes (UTF-8, ASCII here) are produced."""
    produced = 0
    while produced < size:
        unit = units()
        produced += len(unit) + len(sep)
        yield unit


def page(body: str, title: str = "Synthetic page") -> bytes:
    head = f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head><body>'
    return (head + body + "</body></html>").encode("utf-8")


def make_article(words: Words, size: int) -> bytes:
    return page("\n".join(fill(lambda: article_unit(words), size)))


def make_minified(words: Words, size: int) -> bytes:
    units = fill(lambda: re.sub(r">\s+<", "><", article_unit(words).replace("\n", "")), size, "")
    return page("".join(units))


def make_nested(words: Words, size: int) -> bytes:
    opened = list(fill(lambda: nested_unit(words), size, ""))
    return page("".join(opened) + "</div>" * len(opened))


def make_comments(words: Words, size: int) -> bytes:
    units = list(fill(lambda: comment_unit(words), size))
    cut = len(units) * 9 // 10
    return page("\n".join(units[:cut]) + "\n<!-- unclosed comment " + "\n".join(units[cut:]))


def make_attrs(words: Words, size: int) -> bytes:
    return page("\n".join(fill(lambda: attrs_unit(words), size)))


CASES: dict[str, Callable[[Words, int], bytes]] = {
    "article": make_article,
    "nested": make_nested,
    "minified": make_minified,
    "comments": make_comments,
    "attrs": make_attrs,
}


def callgrind_instructions(html_path: Path, method: str, out_path: Path) -> int:
    """Total Ir of the driver on one page, read from the callgrind output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"}
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out_path}",
        sys.executable,
        "-c",
        DRIVER,
        str(html_path),
        method,
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"driver failed on {html_path.name}:\n{done.stderr[-3000:]}")
    for line in out_path.read_text().splitlines():
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    raise SystemExit(f"no instruction total in {out_path}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,2,4,8,16", help="page sizes in MiB (default: %(default)s)")
    parser.add_argument("--case", choices=sorted(CASES), default="article")
    parser.add_argument("--method", default="", help="extract() method (default: the library's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, help="keep pages and callgrind files here")
    return parser.parse_args(argv)


def measure(args: argparse.Namespace, workdir: Path) -> list[tuple[int, float]]:
    """(page bytes, instructions per byte) for each size, baseline removed."""
    baseline_page = workdir / "empty.html"
    baseline_page.write_bytes(EMPTY_PAGE)
    baseline = callgrind_instructions(baseline_page, args.method, workdir / "callgrind.empty.out")
    print(f"baseline (start-up + empty page): {baseline:,} Ir", flush=True)
    results = []
    for mib in [float(s) for s in args.sizes.split(",") if s.strip()]:
        data = CASES[args.case](Words(args.seed), int(mib * MIB))
        path = workdir / f"{args.case}-{mib:g}.html"
        path.write_bytes(data)
        total = callgrind_instructions(path, args.method, workdir / f"callgrind.{path.stem}.out")
        per_byte = (total - baseline) / len(data)
        results.append((len(data), per_byte))
        print(f"{mib:>6g} MiB ({len(data):>10,} B): {total - baseline:>16,} Ir  {per_byte:9.1f} Ir/byte", flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind not found: apt-get install -y valgrind")
    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
        results = measure(args, args.workdir)
    else:
        with tempfile.TemporaryDirectory(prefix="linear_cost-") as tmp:
            results = measure(args, Path(tmp))
    results.sort()
    ratio = results[-1][1] / results[0][1]
    print(f"case {args.case}: Ir/byte largest/smallest = {ratio:.2f} (limit < {MAX_RATIO})")
    if ratio >= MAX_RATIO:
        print("FAIL: cost grows faster than the input")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
