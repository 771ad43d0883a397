"""The block and context feature columns (``scrapy_bte._native.features``): C against the Python
reference, on the shared pages, random markup soup, random probabilities and edge cases."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte.core import accel
from scrapy_bte.core.accel import CPass, native
from scrapy_bte.core.document import build
from scrapy_bte.learned import feature_schema as schema
from scrapy_bte.learned import features
from scrapy_bte.methods.bte import document_span
from scrapy_bte.testing import torture as tc

from .cases import MARKUPS, needs_c, soup_st

# As when these tests were in one file with the document's: skipped where core._scan is not built.
pytestmark = needs_c("core.document")


needs_features = needs_c("learned.features")


def assert_features_close(fast: np.ndarray, ref: np.ndarray, names: tuple[str, ...]) -> None:
    """Equal to rounding (whole-page sums are taken in another order); a flag or
    tie that flips differs by far more than the tolerance."""
    assert fast.dtype == ref.dtype == np.float32
    assert fast.shape == ref.shape == (len(ref), len(names))
    assert fast.strides == ref.strides  # same layout: the model's products then sum in the same order
    for k, name in enumerate(names):
        column = schema.describe(k) if names is schema.FEATURE_NAMES else f"column {k} {name!r}"
        np.testing.assert_allclose(
            fast[:, k], ref[:, k], rtol=1e-5, atol=1e-6, err_msg=f"the C pass and the reference differ in {column}"
        )


def check_context(p: np.ndarray, doc) -> None:
    fast = features.context_features(p, doc)
    with native(False):
        ref = features.context_features(p, doc)
    assert_features_close(fast, ref, schema.CONTEXT_NAMES)


def check_features(markup: str) -> None:
    doc = build(markup)
    span = document_span(doc)
    for use_span in (True, False):  # with BTE's span, and without one
        fast = features.block_features(doc, span if use_span else None, use_span=use_span)
        with native(False):  # every pass the features read on its reference
            ref = features.block_features(doc, span if use_span else None, use_span=use_span)
        assert_features_close(fast, ref, schema.FEATURE_NAMES)
    n = doc.n_blocks
    rng = np.random.default_rng(n)
    for p in (rng.random(n), np.zeros(n), np.ones(n), np.full(n, 0.5), (rng.random(n) < 0.5).astype(np.float64)):
        check_context(p, doc)


@needs_features
@pytest.mark.parametrize("name,markup", MARKUPS, ids=[n for n, _ in MARKUPS])
def test_same_features_on_cases_and_fixtures(name: str, markup: str) -> None:
    check_features(markup)


@needs_features
def test_same_features_on_large_generated_pages() -> None:
    # Thousands of blocks, a deep unclosed nest (one container per level), a page of one block.
    for markup in (tc.minified(200_000), tc.unclosed(4000), tc.many_lt(200_000), "<p>one</p>"):
        check_features(markup)


@needs_features
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(soup_st)
def test_same_features_on_markup_soup(markup: str) -> None:
    check_features(markup)


FEATURE_EDGES = (
    "<p>one</p>",  # one block
    "words without any tag",  # the root holds everything
    "<div><p>one two</p></div><div><p>three four</p></div>",  # equal groups: the first is the largest
    "<section><div>a b c</div><div>d e f</div></section><section><div>g h i</div><div>j k l</div></section><nav>m n o</nav>",
    "<ul><li><a href=x>a b</a></li><li><a href=y>c d</a></li></ul><p>same words here</p><p>and four more here</p>",
    "<div>" * 40 + "deep text" + "</div>" * 40 + "<p>shallow text</p>",
    "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>",
    "<nav>" + "<a href=x>link</a> " * 30 + "</nav>",  # no span content: links only
)


@needs_features
@pytest.mark.parametrize("markup", FEATURE_EDGES)
def test_same_features_on_edges(markup: str) -> None:
    check_features(markup)


# Probabilities with ties at the keep threshold and between runs, and word
# counts that make runs and groups tie.
probs_st = st.lists(
    st.sampled_from([0.0, 0.25, 0.4999999, 0.5, 0.75, 1.0]) | st.floats(0.0, 1.0), min_size=1, max_size=60
)


@needs_features
@settings(max_examples=400, deadline=None)
@given(probs_st, st.data())
def test_same_context_features_on_random_probabilities(p: list[float], data) -> None:
    n = len(p)
    words = data.draw(
        st.lists(st.sampled_from([0.0, 1.0, 2.0, 5.0, 12.0]) | st.floats(0.0, 500.0), min_size=n, max_size=n)
    )
    ids = data.draw(st.lists(st.integers(0, 4) | st.integers(0, 10_000), min_size=n, max_size=n))
    doc = SimpleNamespace(words=np.array(words), container=np.array(ids, dtype=np.int64))
    check_context(np.array(p), doc)


@needs_features
@pytest.mark.parametrize(
    "p,words",
    [
        ([0.0], [3.0]),
        ([1.0], [0.0]),
        ([0.5], [1.0]),  # one block
        ([0.0] * 7, [1.0] * 7),
        ([1.0] * 7, [2.0] * 7),  # nothing kept, everything kept
        ([1, 0, 1, 0, 1], [4, 9, 4, 9, 4]),  # three runs of equal words: the first is the main run
        ([0, 1, 1, 0, 0, 1, 1, 0], [5, 2, 3, 1, 1, 4, 1, 5]),  # two runs of 5 words, a two-block gap
        ([0.2, 0.9, 0.9, 0.2], [0, 0, 0, 0]),  # a page without words
    ],
)
def test_same_context_features_on_edges(p: list[float], words: list[float]) -> None:
    n = len(p)
    for container in (np.zeros(n, dtype=np.int64), np.arange(n, dtype=np.int64) * 1000, np.arange(n)[::-1].copy()):
        check_context(
            np.array(p, dtype=np.float64), SimpleNamespace(words=np.array(words, dtype=np.float64), container=container)
        )


@needs_features
def test_features_in_c_refuse_bad_arguments() -> None:
    """Mismatched or out-of-range inputs raise instead of reading out of bounds."""
    fc = features._FEATURES.module
    n, f8, i8 = 3, np.zeros(3), np.zeros(3, dtype=np.int64)
    good = {
        "words": f8,
        "chars": i8,
        "nbytes": i8,
        "tags": i8,
        "link": f8,
        "container": i8,
        "depth": i8,
        "parents": np.array([-1, 0], dtype=np.int64),
        "opener": i8,
        "bits": i8,
        "hybrid": np.zeros(n, dtype=np.uint8),
        "text": np.zeros((n, 6)),
        "title": f8,
        "first": 0,
        "last": 2,
        "n_features": schema.N_NUMERIC,
        "n_openers": len(schema.OPENERS),
        "n_bits": len(schema.ANCESTORS) + len(schema.MARKS),
        "out": np.full((n, schema.N_FEATURES), 7.0, dtype=np.float32),
    }

    def call(**change):
        return fc.block_features(*{**good, **change}.values())

    assert call() is None and call(first=-1, last=-1) is None
    # Only the numeric columns are written; a matrix of exactly those is enough.
    assert (good["out"][:, schema.N_NUMERIC :] == 7.0).all()
    assert call(out=np.zeros((n, schema.N_NUMERIC), dtype=np.float32)) is None
    with pytest.raises(TypeError):
        call(out=np.zeros((n, schema.N_FEATURES)))  # float64
    with pytest.raises(ValueError):
        call(out=np.zeros((n, schema.N_NUMERIC - 1), dtype=np.float32))
    with pytest.raises(ValueError):
        call(out=np.zeros((n + 1, schema.N_FEATURES), dtype=np.float32))
    with pytest.raises(ValueError):
        call(out=np.zeros(n * schema.N_FEATURES, dtype=np.float32))  # not 2-D
    with pytest.raises(TypeError):
        call(out=np.zeros((n, 2 * schema.N_FEATURES), dtype=np.float32)[:, ::2])  # not contiguous
    read_only = np.zeros((n, schema.N_FEATURES), dtype=np.float32)
    read_only.flags.writeable = False
    with pytest.raises(TypeError):
        call(out=read_only)
    with pytest.raises(TypeError):
        call(chars=f8)  # float64 where int64 is expected
    with pytest.raises(TypeError):
        call(words=np.zeros(6)[::2])  # not contiguous
    with pytest.raises(ValueError):
        call(tags=np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError):
        call(text=np.zeros((n, 5)))
    with pytest.raises(ValueError):
        call(n_features=schema.N_NUMERIC + 1)
    for first, last in ((0, 3), (-1, 1), (2, 1), (-2, -2)):
        with pytest.raises(ValueError):
            call(first=first, last=last)
    with pytest.raises(ValueError):
        call(container=np.array([0, 2, 0], dtype=np.int64))  # beyond the two elements
    with pytest.raises(ValueError):
        call(container=np.array([0, 1, 1], dtype=np.int64), parents=np.array([-1, 5], dtype=np.int64))
    with pytest.raises(ValueError):
        call(opener=np.full(n, len(schema.OPENERS), dtype=np.int64))
    assert fc.context_features(f8, f8, i8, len(schema.CONTEXT_NAMES)) is not None
    with pytest.raises(ValueError):
        fc.context_features(f8, np.zeros(2), i8, len(schema.CONTEXT_NAMES))
    with pytest.raises(ValueError):
        fc.context_features(f8, f8, np.array([0, -1, 0], dtype=np.int64), len(schema.CONTEXT_NAMES))
    with pytest.raises(ValueError):
        fc.context_features(f8, f8, i8, len(schema.CONTEXT_NAMES) - 1)
    with pytest.raises(TypeError):
        fc.context_features(f8.astype(np.float32), f8, i8, len(schema.CONTEXT_NAMES))


def test_features_without_the_c_pass_run_the_reference_and_native_on_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = build("<p>one</p><p>two words</p>")
    # Switching the C passes on where the extension is not built is refused, not silently ignored.
    monkeypatch.setattr(accel, "_NATIVE", None)
    with pytest.raises(RuntimeError, match="not built"):
        accel.use_native(True)
    with pytest.raises(RuntimeError, match="not built"), accel.native():
        features.block_features(doc)
    monkeypatch.setattr(features, "_FEATURES", CPass("scrapy_bte._native.features", None))
    assert features.block_features(doc).shape == (doc.n_blocks, schema.N_FEATURES)
    assert features.context_features(np.zeros(doc.n_blocks), doc).shape == (doc.n_blocks, len(schema.CONTEXT_NAMES))


@needs_features
@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from([*features.OPENERS, "h5", "dir", "th", "span", "x-widget", ""] + [f"t{i}" for i in range(300)])
    )
)
def test_c_opener_index_is_the_dict_look_up(openers: list[str]) -> None:
    """Each name object's column is kept by its address in the C pass: names equal but not the
    same object, hundreds of names sharing its table's slots, names of no column."""
    copies = [(name + "#")[:-1] if i % 2 else name for i, name in enumerate(openers)]
    doc = SimpleNamespace(opener=copies, n_blocks=len(copies))
    fast = features._opener_index(doc)
    assert fast.dtype == np.int64
    assert fast.tolist() == features._opener_index_reference(doc).tolist()
    with native(False):
        assert features._opener_index(doc).tolist() == fast.tolist()


@needs_features
def test_c_log1p_of_counts_is_libm_log1p() -> None:
    """The shape columns' logarithms of words, characters and bytes (whole numbers looked up in a
    table, any other value computed) are libm's log1p of each value, to the bit."""
    import math

    c = features._FEATURES.use()
    assert c is not None
    words = np.array([0.0, -0.0, 1.0, 2.0, 0.5, 2.5, 4095.0, 4096.0, 4097.0, 123456.0, 1e-300, 3.0000000000000004])
    n = len(words)
    chars = np.array([0, 1, 7, 4094, 4095, 4096, 5000, 10**7, 3, 2, 1, 0], dtype=np.int64)
    nbytes = chars * 2 + 1
    ones = np.ones(n, dtype=np.int64)
    zeros_f = np.zeros(n)
    out = np.zeros((n, schema.N_FEATURES), dtype=np.float32)
    c.block_features(
        words,
        chars,
        nbytes,
        ones,
        zeros_f,
        np.zeros(n, dtype=np.int64),
        ones,
        np.array([-1], dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.uint8),
        np.zeros(n * 6),
        zeros_f,
        -1,
        -1,
        schema.N_NUMERIC,
        len(features.OPENERS),
        len(features.ANCESTORS) + len(features.MARKS),
        out,
    )
    for column, values in ((0, words), (1, chars), (2, np.maximum(nbytes, chars))):
        want = np.array([math.log1p(float(v)) for v in values], dtype=np.float32)
        assert out[:, column].tobytes() == want.tobytes()
