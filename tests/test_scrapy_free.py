"""The core works without Scrapy: only the Scrapy layer may import it.

A fresh interpreter refuses every import of scrapy, itemadapter, parsel and
twisted, then extracts a page with ``extract()``, runs the command line's
``extract``, and trains and evaluates a model. ``lint-imports`` checks the
same boundary statically; this shows it at run time, imports inside
functions included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import SAMPLES

REPO = Path(__file__).resolve().parent.parent
SAMPLE = SAMPLES / "article.html"
LABELLED = REPO / "tests" / "fixtures" / "lang"

SCRIPT = r"""
import contextlib, io, json, sys
from importlib.abc import MetaPathFinder

BLOCKED = ("scrapy", "itemadapter", "parsel", "twisted")
refused = []


class Refuse(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            refused.append(name)
            raise ImportError(f"{name} is blocked in this test")
        return None


sys.meta_path.insert(0, Refuse())
sample, labelled, model = sys.argv[1:4]

import scrapy_bte
from scrapy_bte import cli

report = {}
report["text"] = scrapy_bte.extract(open(sample, "rb").read()).text
out = io.StringIO()
with contextlib.redirect_stdout(out):
    report["cli_extract"] = cli.main(["extract", "--method", "hybrid", sample])
report["cli_text"] = out.getvalue()
with contextlib.redirect_stdout(io.StringIO()):
    report["train"] = cli.main(["train", "--data", labelled, "-o", model, "--epochs", "2", "-q"])
out = io.StringIO()
with contextlib.redirect_stdout(out):
    report["evaluate"] = cli.main(["evaluate", "--data", labelled, "--method", "auto", "--model", model, "-q"])
report["table"] = out.getvalue()
report["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
report["refused"] = refused
print(json.dumps(report))
"""


def test_extract_cli_and_training_run_with_scrapy_imports_refused(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    model = tmp_path / "model.npz"
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(SAMPLE), str(LABELLED), str(model)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report["loaded"] == [] and report["refused"] == []
    assert "sea wall that protected its harbour" in report["text"]
    assert report["cli_extract"] == 0 and "sea wall" in report["cli_text"]
    assert report["train"] == 0 and model.is_file() and model.with_suffix(".json").is_file()
    assert report["evaluate"] == 0 and "| auto | lang |" in report["table"]


def test_the_blocker_refuses_what_the_scrapy_layer_needs(tmp_path: Path) -> None:
    """The same interpreter set-up fails on the Scrapy layer, so the test above could fail."""
    script = SCRIPT.split("sample, labelled, model")[0] + "import scrapy_bte.crawl.middlewares\n"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0
    assert "is blocked in this test" in proc.stderr
