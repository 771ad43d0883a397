"""The language identifier's score (its feature rows read once per distinct feature) is py3langid's
own, bit for bit, and the sample it reads is the page's wordiest blocks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py3langid.langid import LanguageIdentifier

from scrapy_bte.core.decode import to_unicode
from scrapy_bte.core.document import build
from scrapy_bte.fields import language

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def model():
    return language.identifier()


@pytest.fixture(scope="module")
def tables(model):
    return (
        model.tk_nextmove,
        np.asarray(model._rowbase, np.int64),
        np.asarray(model.tk_output, np.int64),
        model.nb_ptc,
    )


def _texts() -> list[str]:
    """The fixture pages' samples: the texts the identifier reads on them."""
    out = []
    for path in sorted(FIXTURES.glob("**/*.html")):
        doc = build(to_unicode(path.read_bytes())[0])
        if doc.n_blocks:
            out.append(language.sample(doc.texts, doc.words))
    return out


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def test_the_identifier_uses_its_own_feature_rows(model) -> None:
    assert model.fast is not None


def test_scores_are_py3langids_own_on_the_fixture_pages(model) -> None:
    texts = _texts()
    assert len(texts) >= 8
    for text in texts:
        data = model._encode(text)
        assert _same_bits(model._raw_score(data), LanguageIdentifier._raw_score(model, data))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_scores_and_answers_are_py3langids_own_on_any_text(model, text: str) -> None:
    data = model._encode(text)
    assert _same_bits(model._raw_score(data), LanguageIdentifier._raw_score(model, data))
    model.fast, fast = None, model.fast
    try:
        own = model.classify(text)
    finally:
        model.fast = fast
    assert model.classify(text) == own


def test_float16_rows_become_the_floats_numpy_makes() -> None:
    """Every float16 bit pattern (subnormals, infinities, NaN payloads) through a one-state automaton."""
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).reshape(-1, 256)
    n = len(halves)
    nextmove = np.tile(np.arange(256, dtype=np.uint32), 1)  # byte b leads to state b
    rowbase = np.zeros(256, np.int64)
    output = np.where(np.arange(256) < n, np.arange(256), -1).astype(np.int64)
    got = language.feature_rows((nextmove, rowbase, output, halves), bytes(range(n)))
    assert got is not None
    features, counts, rows = got
    assert features.tolist() == list(range(n)) and counts.tolist() == [1.0] * n
    assert np.array_equal(rows.view(np.uint32), halves.astype(np.float32).view(np.uint32))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.text("ab ", max_size=60), st.sampled_from([0.0, 1.0, 2.5, 3.0, 12.0, 40.0])),
        min_size=1,
        max_size=30,
    )
)
def test_sample_takes_the_wordiest_blocks_in_page_order(blocks: list[tuple[str, float]]) -> None:
    texts = [t for t, _ in blocks]
    words = [w for _, w in blocks]
    order = sorted(range(len(texts)), key=lambda i: -words[i])
    chosen: list[int] = []
    size = 0
    for i in order:
        chosen.append(i)
        size += len(texts[i])
        if size >= language.SAMPLE_CHARS:
            break
    expected = " ".join(texts[i] for i in sorted(chosen))[: language.SAMPLE_CHARS]
    assert language.sample(texts, np.array(words)) == expected == language.sample(texts, words)


def test_a_model_laid_out_otherwise_keeps_its_own_score(model) -> None:
    assert language._scorer(object(), lambda data: np.zeros(1, np.float32)) is None


def test_a_fast_score_that_differs_from_the_models_own_is_not_used(model) -> None:
    """The probe texts decide: a score that is not py3langid's own bit for bit is never used."""

    def own(data: bytes) -> np.ndarray:
        return LanguageIdentifier._raw_score(model, data) + np.float32(1e-3)

    assert language._scorer(model, own) is None
    assert language._scorer(model, lambda data: LanguageIdentifier._raw_score(model, data)) is not None


def test_feature_rows_read_list_tables_as_arrays() -> None:
    """The identifier walks Python lists (an int per read, not a numpy scalar): same features, counts, rows."""
    rng = np.random.default_rng(3)
    states = 5
    nextmove = rng.integers(0, states, states * 256).astype(np.uint32)
    rowbase = np.arange(states, dtype=np.int64) * 256
    output = np.array([-1, 0, 2, -1, 1], np.int64)
    table = rng.random((3, 4)).astype(np.float16)
    data = bytes(rng.integers(0, 256, 300).tolist())
    arrays = language.feature_rows((nextmove, rowbase, output, table), data)
    lists = language.feature_rows((nextmove.tolist(), rowbase.tolist(), output.tolist(), table), data)
    assert arrays is not None and lists is not None
    for a, b in zip(arrays, lists):
        assert a.dtype == b.dtype and np.array_equal(a, b)
