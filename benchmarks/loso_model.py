"""Leave-one-set-out rows for the learned methods (``model``, ``auto``).

The shipped model is trained on all five development sets, so its rows in a
plain run score pages it has seen. With this plugin, ``run.py --loso`` scores
each set with a model trained (same configuration as the shipped one) on the
other four sets only:

    python benchmarks/run.py --loso --plugin loso_model --extractors 'scrapy_bte.auto*,scrapy_bte.model*,resiliparse,trafilatura'

Models are trained once per held-out set into a temporary folder (a few
seconds each, plus reading the sets).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

from extractors import register_factory

from scrapy_bte import extract
from scrapy_bte.training.data import load_set
from scrapy_bte.training.fit import TrainConfig, train_block_model, training_pages

DATA = Path(os.environ.get("BTE_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "datasets"))
SETS = ("dragnet", "l3s-gn1", "readability", "cleaneval-dev", "cleanportaleval")
_TMP = Path(tempfile.mkdtemp(prefix="scrapy-bte-loso-model-"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


@cache
def _sets() -> dict:
    return {name: load_set(DATA / name, quiet=True) for name in SETS}


@cache
def model_without(held_out: str) -> str:
    """Path of a model trained on every development set but ``held_out``."""
    config = TrainConfig()
    others = [data for name, data in _sets().items() if name != held_out]
    model = train_block_model(training_pages(others, config.set_balance), config)
    path = _TMP / f"without-{held_out}.npz"
    model.save(path, {"training_sets": [d.name for d in others]})
    return str(path)


def _factory(method: str, **options):
    def build(held_out: str | None):
        if held_out is None:  # the shipped model
            return lambda html: extract(html, method=method, **options)
        path = model_without(held_out)
        return lambda html: extract(html, method=method, model_path=path, **options)

    return build


register_factory("scrapy_bte.auto-trained", _factory("auto"))
register_factory("scrapy_bte.model-trained", _factory("model"))
# The two comment conventions, to compare with trafilatura's defaults (comments
# kept) and with trafilatura-no-comments on equal terms.
register_factory("scrapy_bte.auto-trained+comments", _factory("auto", comments=True))
register_factory("scrapy_bte.auto-trained-no-comments", _factory("auto", comments=False))
