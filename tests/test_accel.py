"""What a user is told about the native passes: ``--version``, and one warning when any is missing.

The missing case is real: a copy of the package without its compiled
modules, imported by a Python started beside it (as in an unbuilt source tree).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import version
from pathlib import Path

import pytest

import scrapy_bte
from scrapy_bte import ACCELERATED

PACKAGE = Path(scrapy_bte.__file__).resolve().parent
#: The Python modules with C passes: every ``accel.load`` of the package's sources.
PASSES = len(
    {
        name
        for path in PACKAGE.rglob("*.py")
        for name in re.findall(r'accel\.load\("([\w.]+)"\)', path.read_text("utf-8"))
    }
)
# The environment of a fresh process tree: no warning given yet.
ENV = {k: v for k, v in os.environ.items() if k not in ("SCRAPY_BTE_NATIVE_WARNED", "SCRAPY_BTE_NATIVE", "PYTHONPATH")}


def _run(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**ENV, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.fixture(scope="module")
def uncompiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the package's sources without any compiled module."""
    root = tmp_path_factory.mktemp("uncompiled")
    ignore = shutil.ignore_patterns("__pycache__", *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES))
    shutil.copytree(PACKAGE, root / "scrapy_bte", ignore=ignore)
    return root


def test_version_matches_the_distribution() -> None:
    assert version("scrapy-bte") == scrapy_bte.__version__


@pytest.mark.skipif(
    not all(ACCELERATED.values()) and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="some native passes are not built",
)
def test_version_says_native_code_is_in_use(tmp_path: Path) -> None:
    done = _run("import sys; from scrapy_bte.cli import main; sys.argv = ['scrapy-bte', '--version']; main()", tmp_path)
    assert done.stdout == f"scrapy-bte {scrapy_bte.__version__} (native code: {PASSES} of {PASSES} passes)\n"
    assert done.stderr == ""
    # The switch off: the references run and --version says so.
    off = _run(
        "import sys; from scrapy_bte.cli import main; from scrapy_bte.core import document; "
        "assert document._SCAN.use() is None; sys.argv = ['scrapy-bte', '--version']; main()",
        tmp_path,
        SCRAPY_BTE_NATIVE="0",
    )
    assert (
        off.stdout
        == f"scrapy-bte {scrapy_bte.__version__} (native code: off (SCRAPY_BTE_NATIVE=0), {PASSES} of {PASSES} passes built)\n"
    )
    assert off.stderr == ""


def test_missing_native_code_is_said_once(uncompiled: Path) -> None:
    # The warning, then a child process (as a pool worker) that imports the package again.
    child = "import subprocess, sys; subprocess.run([sys.executable, '-c', 'import scrapy_bte'], check=True)"
    done = _run(f"import scrapy_bte\nassert not any(scrapy_bte.ACCELERATED.values())\n{child}", uncompiled)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"scrapy-bte: {PASSES} of {PASSES} native passes are not in use (core.document, ")
    assert "about 3 to 10 times slower" in lines[0]
    assert "installed without them" in lines[0]
    # The references asked for (SCRAPY_BTE_NATIVE=0): nothing to warn about.
    assert _run("import scrapy_bte", uncompiled, SCRAPY_BTE_NATIVE="0").stderr == ""


def test_source_tree_without_compiled_modules_is_named(uncompiled: Path, tmp_path: Path) -> None:
    tree = tmp_path / "checkout"
    shutil.copytree(uncompiled, tree)
    (tree / "setup.py").write_text("")
    done = _run("import scrapy_bte", tree)
    assert f"imported from the source tree {tree.resolve()} without its compiled extension" in done.stderr
    version_line = _run(
        "import sys; from scrapy_bte.cli import main; sys.argv = ['scrapy-bte', '--version']; main()", tree
    ).stdout
    assert version_line.startswith(f"scrapy-bte {scrapy_bte.__version__} (native code: 0 of {PASSES} passes; ")
    assert "Python reference for core.document," in version_line and "\n" not in version_line.rstrip("\n")
