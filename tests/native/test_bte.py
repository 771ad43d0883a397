"""BTE's token runs and span search (``scrapy_bte._native.bte``): C against numpy, and both
against the literal O(n^3) search.

The runs and span of whole documents are compared in ``test_document.py``, page by page.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.core import document
from scrapy_bte.core.accel import native, native_built
from scrapy_bte.methods import bte

from .cases import needs_c

# As when they were in one file with the document's tests: skipped where core._scan is not built.
_needs_scan = needs_c("core.document")

token_st = st.lists(st.sampled_from((1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 0.3, 0.6, 1.2)), max_size=14)


@_needs_scan
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((0.0, 0.0, 1.0, 2.0, 0.5, 0.2, 3.6)), min_size=1, max_size=30), st.data())
def test_runs_with_weightless_tags_match_numpy(seg_words: list[float], data: st.DataObject) -> None:
    words = np.array(seg_words)
    n_tags = len(words) - 1
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n_tags, max_size=n_tags)), dtype=np.uint8)
    for weightless in (None, mask):
        fast = bte.run_encoding(words, n_tags, weightless)
        ref = bte.run_encoding_reference(words, n_tags, weightless)
        for a, b in zip(fast, ref):
            assert a.dtype == b.dtype and np.array_equal(a, b)
    # Weightless tags vanish: the runs equal those of the sequence without them.
    runs = bte.run_encoding_reference(words, n_tags, mask)[0]
    seq = [v for k, w in enumerate(words) for v in ([w] if k == 0 else ([] if mask[k - 1] else [-1.0]) + [w])]
    merged: list[float] = []
    for v in (v for v in seq if v != 0.0):
        if merged and (merged[-1] > 0) == (v > 0):
            merged[-1] += v
        else:
            merged.append(v)
    assert runs.tolist() == merged


@_needs_scan
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((0.0, 0.0, 1.0, 2.0, 0.5, 0.2, 3.6, 7.0)), min_size=1, max_size=40), st.data())
def test_document_span_in_c_matches_numpy(seg_words: list[float], data: st.DataObject) -> None:
    """The fused C span equals the numpy path field for field, fractional words and blockless segments included."""
    n_tags = len(seg_words) - 1
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n_tags, max_size=n_tags)), dtype=np.uint8)
    blocks = data.draw(st.lists(st.integers(-1, 5), min_size=n_tags + 1, max_size=n_tags + 1))
    links = data.draw(st.lists(st.sampled_from((0.0, 1.0, 0.5)), min_size=n_tags + 1, max_size=n_tags + 1))
    other = np.array(data.draw(st.lists(st.sampled_from((0, 1, 2, 8)), min_size=n_tags, max_size=n_tags)), np.uint8)
    for weightless in (None, mask if mask.any() else None):
        doc = SimpleNamespace(
            seg_words=np.array(seg_words),
            seg_link_words=np.minimum(np.array(links), seg_words),
            seg_block=np.array(sorted(blocks), dtype=np.int64),
            total_tags=n_tags,
            style_tags=weightless,
            tag_flags=other | (mask if weightless is not None else np.zeros_like(mask)) * np.uint8(document.FLAG_STYLE),
        )
        for weight in (1.0, 0.0, 0.3):
            try:
                ref = bte.document_span_reference(doc, weight)
            except IndexError:  # no block among the span's segments
                with pytest.raises(IndexError):
                    bte.document_span(doc, weight)
                continue
            assert bte.document_span(doc, weight) == ref


@_needs_scan
def test_runs_refuse_a_mask_of_the_wrong_length() -> None:
    from scrapy_bte._native import bte as _bte

    with pytest.raises(ValueError, match="weightless"):
        _bte.runs(np.ones(3), 2, np.zeros(3, dtype=np.uint8))


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(
        token_st,
        st.lists(st.just(-1.0), max_size=10),
        st.lists(st.just(1.0), max_size=10),
        st.lists(st.sampled_from((1.0, -1.0)), max_size=14),
    )
)
def test_max_span_equals_brute_force(values: list[float]) -> None:
    want = bte.brute_force(values)
    # The numpy reference and, where built, the C loop (scrapy_bte._native.bte).
    for on in (False, native_built()):  # the reference, and C where built
        with native(on):
            got = bte.max_span(np.array(values, dtype=np.float64))
            assert got[1:] == want[1:], (values, got, want, on)
            assert math.isclose(got[0], want[0], abs_tol=1e-9)
