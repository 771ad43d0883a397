"""Values OR-ed down the element skeleton (``scrapy_bte._native.tree``): C against numpy."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.core import tree
from scrapy_bte.core.document import build

from .cases import MARKUPS, needs_c

# As when these tests were in one file with the document's: skipped where core._scan is not built.
pytestmark = needs_c("core.document")


needs_tree = needs_c("core.tree")


def check_path_or(doc, own: np.ndarray) -> None:
    fast = tree.path_or(doc, own)
    ref = tree.path_or_reference(doc, own)
    assert fast.dtype == ref.dtype == np.int64 and fast.tobytes() == ref.tobytes()


@needs_tree
@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(1, 80))
def test_path_or_in_c_matches_numpy(data: st.DataObject, n: int) -> None:
    parents = [-1] + [data.draw(st.integers(0, i - 1)) for i in range(1, n)]
    own = data.draw(st.lists(st.integers(-(2**63), 2**63 - 1) | st.sampled_from([0, 1, 2]), min_size=n, max_size=n))
    doc = SimpleNamespace(skeleton=SimpleNamespace(parents=np.array(parents, dtype=np.int64)))
    check_path_or(doc, np.array(own, dtype=np.int64))


@needs_tree
def test_path_or_in_c_on_cases_and_fixtures() -> None:
    rng = np.random.default_rng(7)
    for _, markup in MARKUPS:
        doc = build(markup)
        n = len(doc.skeleton.parents)
        check_path_or(doc, rng.integers(0, 1 << 62, n))
        check_path_or(doc, (rng.random(n) < 0.05).astype(np.int64))


@needs_tree
def test_path_or_in_c_refuses_a_parent_after_its_child() -> None:
    doc = SimpleNamespace(skeleton=SimpleNamespace(parents=np.array([-1, 0, 2], dtype=np.int64)))
    with pytest.raises(ValueError):
        tree.path_or(doc, np.ones(3, dtype=np.int64))
