"""Test the installed scrapy-bte (a wheel), not the source tree it was built from.

    python .ci/test_wheel.py [pytest arguments]

Run with the interpreter of the environment the wheel is installed in. It
checks, from a directory outside the checkout, that ``scrapy_bte`` is the
installed one and that every native pass is in use (and prints
``scrapy-bte --version``); then it copies the test suite and the files it
reads (``tests/``, ``example_project/``, pytest's settings in
``pyproject.toml``) into a temporary directory and runs pytest there with
``SCRAPY_BTE_REQUIRE_ACCEL=1``, so neither the tests nor the processes they
start can import the uncompiled sources. Used by ``.ci/run`` and by
cibuildwheel's test step; exits with pytest's status.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
#: Every module of the source tree that loads a native pass: the wheel must have built each one.
_LOADS = re.compile(r"""accel\.load\("([a-z_.]+)"\)""")

_CHECK = """
import pathlib, sys
import scrapy_bte
where = pathlib.Path(scrapy_bte.__file__).resolve()
if where.parent == pathlib.Path(sys.argv[1]) / "scrapy_bte":
    sys.exit(f"scrapy_bte imported from the source tree ({where}), not from the installed wheel")
expected = sorted(sys.argv[2].split(","))
missing = [name for name, built in scrapy_bte.ACCELERATED.items() if not built]
if missing or sorted(scrapy_bte.ACCELERATED) != expected:
    sys.exit(f"native passes not in use: {missing} of {sorted(scrapy_bte.ACCELERATED)}, expected {expected}")
print(f"scrapy_bte from {where.parent}")
"""


@contextmanager
def _run_directory() -> Iterator[Path]:
    """A new directory for the run, named with digits only, removed afterwards.

    The example project's crawl reads its pages from ``file://`` URLs, and the
    page-type classifier reads the words of a URL's path: the random letters of
    ``tempfile``'s names ("scrapy-bte-wheel-7t08bo0m": "t", a forum address's
    ``/t/``) moved a borderline page's type from one run to the next.
    """
    base = Path(tempfile.gettempdir())
    for attempt in range(1000):
        root = base / f"scrapy-bte-wheel-{os.getpid()}-{attempt}"
        try:
            root.mkdir()
        except FileExistsError:
            continue
        try:
            yield root
        finally:
            shutil.rmtree(root, ignore_errors=True)
        return
    raise SystemExit(f"no free run directory under {base}")


def main(pytest_args: list[str]) -> int:
    with _run_directory() as root:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["SCRAPY_BTE_REQUIRE_ACCEL"] = "1"
        passes = sorted(
            {m for path in (CHECKOUT / "scrapy_bte").rglob("*.py") for m in _LOADS.findall(path.read_text())}
        )
        subprocess.run([sys.executable, "-c", _CHECK, str(CHECKOUT), ",".join(passes)], cwd=root, env=env, check=True)
        subprocess.run([sys.executable, "-m", "scrapy_bte", "--version"], cwd=root, env=env, check=True)
        shutil.copytree(CHECKOUT / "tests", root / "tests", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(
            CHECKOUT / "example_project", root / "example_project", ignore=shutil.ignore_patterns("__pycache__")
        )
        shutil.copy2(CHECKOUT / "pyproject.toml", root / "pyproject.toml")
        # The documentation tests compare the checkout's README and docs with the code and run
        # commands on the checkout's files: they belong to the source tree, and .ci/run runs them
        # there with the README's test command.
        skip = [
            "--ignore=tests/test_docs.py",
            "--deselect=tests/test_example_project.py::test_the_documented_item_is_what_the_crawl_exports",
        ]
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *skip, *pytest_args]
        return subprocess.run(command, cwd=root, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
