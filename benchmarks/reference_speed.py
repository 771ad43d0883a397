"""How much slower ``extract()`` runs on the pure-Python references than with the native passes.

The reference run imports a copy of the installed package without its
compiled modules (what a Python without a C compiler, or one started in an
unbuilt source tree, gets), in a child process; both runs time the same
page (the package's sample article by default) with each method, best of
``--repeat`` rounds. The ratio for the default method is what the warning of
``scrapy_bte.core.accel.warn_if_missing`` quotes.

    python benchmarks/reference_speed.py
    python benchmarks/reference_speed.py --page some.html --rounds 20
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import scrapy_bte

_CHILD = """
import json, sys, time
import scrapy_bte
from scrapy_bte.api import METHODS
data = open(sys.argv[1], "rb").read()
rounds, repeat = int(sys.argv[2]), int(sys.argv[3])
out = {"native": sum(scrapy_bte.ACCELERATED.values()), "file": scrapy_bte.__file__}
for method in METHODS:
    scrapy_bte.extract(data, method=method)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            scrapy_bte.extract(data, method=method)
        best = min(best, (time.perf_counter() - start) / rounds)
    out[method] = best
print(json.dumps(out))
"""


def _time(page: Path, rounds: int, repeat: int, pythonpath: str | None) -> dict[str, float]:
    env = dict(os.environ, SCRAPY_BTE_NATIVE_WARNED="1")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(page), str(rounds), str(repeat)],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    package = Path(scrapy_bte.__file__).parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", type=Path, default=package / "samples" / "article.html")
    parser.add_argument("--rounds", type=int, default=10, help="calls per timed round")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds; the fastest counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # The same sources without a compiled module: every pass runs its Python reference.
        shutil.copytree(
            package,
            Path(tmp) / "scrapy_bte",
            ignore=shutil.ignore_patterns("__pycache__", *(f"*{s}" for s in EXTENSION_SUFFIXES)),
        )
        native = _time(args.page, args.rounds, args.repeat, None)
        reference = _time(args.page, args.rounds, args.repeat, tmp)
    print(
        f"page {args.page} ({args.page.stat().st_size:,} bytes); native passes in use: {native['native']} and {reference['native']}"
    )
    print(f"{'method':8} {'native ms':>10} {'reference ms':>13} {'ratio':>6}")
    for method in scrapy_bte.api.METHODS:
        print(
            f"{method:8} {native[method] * 1e3:10.2f} {reference[method] * 1e3:13.2f} {reference[method] / native[method]:6.1f}"
        )


if __name__ == "__main__":
    main()
