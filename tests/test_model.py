"""The numpy estimators, model files (and what loading refuses) and the learned methods."""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED, extract
from scrapy_bte.api import parse
from scrapy_bte.errors import ConfigError, ModelError
from scrapy_bte.learned.auto import _same_article, decide, decide_reference, select
from scrapy_bte.learned.estimators import (
    LogisticRegression,
    MLPClassifier,
    SoftmaxClassifier,
    _softmax,
    averaged,
    relu_forward,
)
from scrapy_bte.learned.feature_schema import CONTEXT_NAMES, N_FEATURES
from scrapy_bte.learned.features import block_features, context_features
from scrapy_bte.learned.model import DEFAULT_MODEL, BlockModel, load, load_cached
from scrapy_bte.learned.ngrams import NgramClassifier

ARTICLE = (Path(__file__).parent / "fixtures" / "model" / "article.html").read_bytes()
PARAGRAPHS = (
    "After an absence of eleven years, sleeper services will run again",
    "The first departures are planned for the autumn timetable change.",
    "Officials said demand had grown steadily since the line was electrified",
    "The carriages come from a fleet retired in the south",
    "Ticket prices have not been announced",
)
BOILERPLATE = ("Contact us", "Privacy policy", "Share on Facebook", "Bus lanes extended", "All rights reserved")


def _toy(n: int = 600, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)).astype(np.float32)
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.int64)
    return X, y


@pytest.mark.parametrize("hidden", [(), (6,), (5, 3)])
def test_softmax_inference_gives_the_bits_of_the_training_forward_pass(hidden: tuple[int, ...]) -> None:
    X, y = _toy(300)
    y = y + (X[:, 2] > 0.8)  # three classes
    clf = SoftmaxClassifier(3, hidden, epochs=40).fit(X, y)
    for rows in (X[:1], X[:1][0], X[:57], X.astype(np.float64)):
        Z = (np.asarray(rows, dtype=np.float32).reshape(-1, 4) - clf.mean_) / clf.scale_
        want = _softmax(relu_forward(clf.weights_, clf.biases_, Z)[1])
        got = clf.predict_proba(rows)
        assert got.dtype == want.dtype == np.float32 and got.tobytes() == want.tobytes()


@pytest.mark.parametrize(
    "estimator",
    [
        LogisticRegression(epochs=30, batch_size=32, learning_rate=0.01),
        MLPClassifier((8,), epochs=30, batch_size=32, learning_rate=0.01),
    ],
)
def test_learns_a_separable_problem(estimator: MLPClassifier) -> None:
    X, y = _toy()
    estimator.fit(X[:400], y[:400])
    accuracy = float((estimator.predict(X[400:]) == y[400:]).mean())
    assert accuracy > 0.9
    proba = estimator.predict_proba(X[400:])
    assert proba.shape == (200, 2) and np.allclose(proba.sum(axis=1), 1.0)


def test_training_is_reproducible_with_a_seed() -> None:
    X, y = _toy()
    a = MLPClassifier((4,), epochs=5, seed=3).fit(X, y).predict_proba(X)
    b = MLPClassifier((4,), epochs=5, seed=3).fit(X, y).predict_proba(X)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("hidden", [(), (6,), (5, 3)])
def test_averaged_members_give_the_mean_of_their_log_odds(hidden: tuple[int, ...]) -> None:
    X, y = _toy()
    X = X * np.array([1.0, 30.0, 0.01, 5.0], dtype=np.float32) + np.array([0.0, 400.0, -2.0, 7.0], dtype=np.float32)
    groups = np.arange(len(y)) // 10
    # Each member's validation split differs, so each standardises its inputs with its own mean and scale.
    members = [MLPClassifier(hidden, epochs=4, seed=s).fit(X, y, groups=groups) for s in range(3)]
    assert not np.array_equal(members[0].mean_, members[1].mean_)
    merged = averaged(members)
    assert merged.hidden == tuple(3 * h for h in hidden)
    want = np.mean([m.decision_function(X) for m in members], axis=0)
    assert np.allclose(merged.decision_function(X), want, atol=1e-4)
    alone = averaged(members[:1])
    assert np.allclose(alone.decision_function(X), members[0].decision_function(X), atol=1e-5)


def test_training_runs_blas_on_one_thread_whatever_the_process_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seed gives the same weights on one core or many: a product's sums split over threads
    come out in another order (the page-type classifier trained on two cores differed)."""
    from threadpoolctl import threadpool_info, threadpool_limits

    import scrapy_bte.learned.estimators as estimators

    def blas_threads() -> int:
        return max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"), default=1)

    X, y = _toy(400)
    seen: list[int] = []
    with threadpool_limits(limits=2, user_api="blas"):
        MLPClassifier((4,), epochs=2).fit(X, y, progress=lambda *_: seen.append(blas_threads()))
    assert seen and set(seen) == {1}
    entered: list[bool] = []
    real = estimators.one_thread

    def recording():  # type: ignore[no-untyped-def]
        entered.append(True)
        return real()

    monkeypatch.setattr(estimators, "one_thread", recording)
    SoftmaxClassifier(2, (), epochs=2).fit(X, y)
    assert entered == [True]


def test_averaged_refuses_members_of_different_shapes() -> None:
    X, y = _toy()
    with pytest.raises(ValueError, match="no members"):
        averaged([])
    with pytest.raises(ValueError, match="layers"):
        averaged([MLPClassifier((), epochs=1).fit(X, y), MLPClassifier((3,), epochs=1).fit(X, y)])
    with pytest.raises(ValueError, match="inputs"):
        averaged([MLPClassifier((), epochs=1).fit(X, y), MLPClassifier((), epochs=1).fit(X[:, :3], y)])


def _tiny_block_model(ngram: bool = False, stages: int = 2) -> BlockModel:
    """A block model with the right shapes, fitted on random rows (fast, meaningless)."""
    rng = np.random.default_rng(0)
    n_in = N_FEATURES + int(ngram)
    X = rng.normal(size=(200, n_in)).astype(np.float32)
    y = (X[:, 0] > 0).astype(np.int64)
    s1 = LogisticRegression(epochs=2).fit(X, y)
    X2 = np.column_stack((X, rng.random((200, len(CONTEXT_NAMES))))).astype(np.float32)
    s2 = MLPClassifier((4,), epochs=2).fit(X2, y)
    X3 = np.column_stack((X2, rng.random((200, len(CONTEXT_NAMES))))).astype(np.float32)
    s3 = MLPClassifier((3,), epochs=2).fit(X3, y) if stages > 2 else None
    ng = (
        NgramClassifier().fit(["share this story", "the council approved a bridge"], np.array([0, 1]))
        if ngram
        else None
    )
    return BlockModel(s1, s2, stage3=s3, threshold=0.5, ngram=ng, metadata={"training_sets": ["toy"]})


@pytest.mark.parametrize(("ngram", "stages"), [(False, 2), (True, 2), (False, 3), (True, 3)])
def test_save_load_round_trip_gives_identical_probabilities(tmp_path: Path, ngram: bool, stages: int) -> None:
    model = _tiny_block_model(ngram, stages)
    path = tmp_path / "m.npz"
    model.save(path)
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["training_sets"] == ["toy"] and meta["features"][0] == "log_words"
    doc = parse(ARTICLE)
    X = block_features(doc)
    loaded = load(path)
    assert np.array_equal(model.predict_document(doc, X), loaded.predict_document(doc, X))
    assert len(meta["stages"]) == stages and (loaded.stage3 is not None) == (stages == 3)


def test_a_third_stage_reads_both_contexts() -> None:
    model = _tiny_block_model(stages=3)
    assert model.stage2 is not None and model.stage3 is not None
    doc = parse(ARTICLE)
    X = block_features(doc)
    first = context_features(model.stage1.positive_proba(X), doc)
    second = context_features(model.stage2.positive_proba(X, first), doc)
    expected = model.stage3.positive_proba(np.column_stack((X, first, second)))
    assert np.allclose(model.predict_document(doc, X), expected, atol=1e-6)
    # Not what the first two stages say alone.
    assert not np.allclose(model.predict_document(doc, X), model.stage2.positive_proba(X, first), atol=1e-3)
    with pytest.raises(ModelError, match="third stage needs a second"):
        BlockModel(model.stage1, None, stage3=model.stage3)


def test_refuses_four_stages(saved: Path) -> None:
    meta = json.loads(saved.with_suffix(".json").read_text())
    _rewrite_meta(saved, stages=meta["stages"] * 2)
    with pytest.raises(ModelError, match="one, two or three stages"):
        load(saved)


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "m.npz"
    _tiny_block_model().save(path)
    return path


def _rewrite_meta(path: Path, **changes: object) -> None:
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    meta.update(changes)
    meta_path.write_text(json.dumps(meta))


def _rewrite_arrays(path: Path, change) -> None:
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    change(arrays)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


def test_refuses_another_feature_version(saved: Path) -> None:
    _rewrite_meta(saved, feature_version=-1)
    with pytest.raises(ModelError, match="feature version"):
        load(saved)


def test_refuses_missing_metadata(saved: Path) -> None:
    saved.with_suffix(".json").unlink()
    with pytest.raises(ModelError, match="metadata"):
        load(saved)


def test_refuses_object_arrays(saved: Path) -> None:
    _rewrite_arrays(saved, lambda a: a.__setitem__("s1.mean", np.array([object()] * N_FEATURES, dtype=object)))
    with pytest.raises(ModelError, match="pickled or object"):
        load(saved)


def _npz_with(path: Path, name: str, header: dict[str, object], data: bytes) -> None:
    """An .npz whose one member has the given .npy header (which may lie) and data."""
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name + ".npy", buffer.getvalue() + data)  # the header writer writes the magic too


def test_refuses_a_header_claiming_a_trillion_elements_before_allocating(saved: Path) -> None:
    """A 6 KB .npz whose header claimed 10^12 elements raised MemoryError."""
    _npz_with(saved, "s1.mean", {"descr": "<f4", "fortran_order": False, "shape": (10**12,)}, bytes(6000))
    with pytest.raises(ModelError, match="over"):
        load(saved)
    _npz_with(saved, "s1.mean", {"descr": "<f4", "fortran_order": False, "shape": (4,)}, bytes(2))  # short data
    with pytest.raises(ModelError):
        load(saved)


def test_refuses_a_zip_bomb_by_its_declared_size(saved: Path) -> None:
    """A 1 MB zip bomb reached 2.1 GB of memory before it was refused."""
    header = {"descr": "<f4", "fortran_order": False, "shape": (100 * 2**20 // 4,)}
    _npz_with(saved, "s1.mean", header, bytes(100 * 2**20))
    assert saved.stat().st_size < 2**20
    with pytest.raises(ModelError, match="over"):
        load(saved)


def test_refuses_metadata_nested_too_deep_or_of_wrong_types(saved: Path) -> None:
    meta = saved.with_suffix(".json")
    good = meta.read_text()
    meta.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ModelError, match="nested deeper"):
        load(saved)
    for changes in ({"features": 5}, {"stages": [[1]]}, {"stages": [{"hidden": [10**12]}]}, {"ngram": [1]}):
        meta.write_text(good)
        _rewrite_meta(saved, **changes)
        with pytest.raises(ModelError):
            load(saved)


json_leaf = st.none() | st.booleans() | st.integers(-(10**15), 10**15) | st.floats() | st.text(max_size=5)
json_any = st.recursive(
    json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3), max_leaves=10
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    key=st.sampled_from(
        ["format_version", "feature_version", "features", "context_features", "stages", "threshold", "ngram"]
    ),
    value=json_any,
)
def test_fuzzed_metadata_loads_or_is_a_model_error(saved: Path, key: str, value: object) -> None:
    meta = saved.with_suffix(".json")
    original = meta.read_text()
    try:
        _rewrite_meta(saved, **{key: value})
        try:
            assert isinstance(load(saved), BlockModel)
        except ModelError:
            pass
    finally:
        meta.write_text(original)


def test_refuses_a_pickle(saved: Path) -> None:
    saved.write_bytes(pickle.dumps({"weights": [1, 2, 3]}))
    with pytest.raises(ModelError):
        load(saved)


def test_refuses_nan_weights(saved: Path) -> None:
    _rewrite_arrays(saved, lambda a: a["s2.W0"].__setitem__((0, 0), np.nan))
    with pytest.raises(ModelError, match="NaN"):
        load(saved)


def test_refuses_wrong_shapes(saved: Path) -> None:
    _rewrite_arrays(saved, lambda a: a.__setitem__("s1.W0", np.zeros((3, 1), dtype=np.float32)))
    with pytest.raises(ModelError, match="shape"):
        load(saved)


def test_refuses_unknown_arrays(saved: Path) -> None:
    _rewrite_arrays(saved, lambda a: a.__setitem__("extra", np.zeros(2, dtype=np.float32)))
    with pytest.raises(ModelError, match="unexpected"):
        load(saved)


def test_extract_with_a_bad_model_path_is_a_model_error(tmp_path: Path, saved: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        extract(ARTICLE, method="model", model_path=str(tmp_path / "missing.npz"))
    _rewrite_meta(saved, feature_version=-1)
    with pytest.raises(ModelError):
        extract(ARTICLE, method="auto", model_path=str(saved))


def test_extract_with_a_model_path_and_cache(saved: Path) -> None:
    result = extract(ARTICLE, method="model", model_path=str(saved))
    assert result.method == "model" and result.text
    assert load_cached(saved) is load_cached(saved)


def test_shipped_model_loads_and_records_how_it_was_trained(tmp_path: Path) -> None:
    model = load(DEFAULT_MODEL)
    assert "scrapy-bte train" in model.metadata["command"]
    assert DEFAULT_MODEL.stat().st_size + DEFAULT_MODEL.with_suffix(".json").stat().st_size < 2_000_000
    copy = tmp_path / "copy.npz"
    shutil.copy(DEFAULT_MODEL, copy)
    with pytest.raises(ModelError, match="metadata"):
        load(copy)


@pytest.mark.parametrize("method", ["model", "auto"])
def test_learned_methods_keep_the_article_and_drop_the_template(method: str) -> None:
    result = extract(ARTICLE, method=method)
    for sentence in PARAGRAPHS:
        assert sentence in result.text
    for junk in BOILERPLATE:
        assert junk not in result.text
    assert 0.0 < result.confidence <= 1.0


def _write_set(folder: Path, n: int) -> None:
    """A tiny labelled set: article pages with a menu and a footer, gold = the article."""
    folder.mkdir()
    for i in range(n):
        body = [
            f"<p>Paragraph {k} of story {i} tells how the river town rebuilt its old stone bridge "
            f"after the spring flood of year {1990 + k}, and what the council decided.</p>"
            for k in range(4)
        ]
        html = (
            "<html><body><ul class='nav'><li><a href='/'>Home</a></li><li><a href='/n'>News</a></li></ul>"
            "<!-- content start --><div class='post'>" + "".join(body) + "</div><!-- content end -->"
            "<div class='footer'><a href='/a'>About</a> | <a href='/p'>Privacy</a></div></body></html>"
        )
        (folder / f"{i}.html").write_text(html, encoding="utf-8")
        (folder / f"{i}.txt").write_text("\n".join(b[3:-4] for b in body), encoding="utf-8")


def test_a_model_of_several_members_is_their_average(tmp_path: Path) -> None:
    from scrapy_bte.training.data import LabelSource, load_set
    from scrapy_bte.training.fit import TrainConfig, train_block_model, training_pages

    _write_set(tmp_path / "one", 6)
    pages = training_pages([load_set(tmp_path / "one", LabelSource(), quiet=True)], 0.5)
    config = TrainConfig(epochs=2, members=2)
    both = train_block_model(pages, config)
    alone = [train_block_model(pages, replace(config, members=1, seed=s)) for s in (0, 1)]
    assert both.stage2 is not None and both.stage2.hidden == (16,)
    doc = parse(ARTICLE)
    X = block_features(doc)
    p1 = [m.stage1.decision_function(X) for m in alone]
    assert np.allclose(both.stage1.decision_function(X), np.mean(p1, axis=0), atol=1e-4)
    # Each member's second stage reads the context of its own first stage's probabilities;
    # the average reads that of the averaged first stage, which both members' contexts are near.
    assert not np.allclose(alone[0].predict_document(doc, X), alone[1].predict_document(doc, X))
    with pytest.raises(ConfigError, match="members must be 1 or more"):
        train_block_model(pages, replace(config, members=0))
    with pytest.raises(ConfigError, match="stages must be 2 or 3"):
        train_block_model(pages, replace(config, stages=4))


def test_a_three_stage_model_trains_and_averages_each_stage(tmp_path: Path) -> None:
    from scrapy_bte.training.data import LabelSource, load_set
    from scrapy_bte.training.fit import TrainConfig, train_block_model, training_pages

    _write_set(tmp_path / "one", 6)
    pages = training_pages([load_set(tmp_path / "one", LabelSource(), quiet=True)], 0.5)
    config = TrainConfig(epochs=2, members=2, stages=3)
    steps: list[str] = []
    model = train_block_model(pages, config, steps.append)
    assert model.stage3 is not None and model.stage3.hidden == (16,)
    assert model.stage3.mean_ is not None and len(model.stage3.mean_) == N_FEATURES + 2 * len(CONTEXT_NAMES)
    assert len(steps) == 14 and steps[-1] == "seed 1: stage 3"
    two = train_block_model(pages, replace(config, stages=2))
    # The first two stages are those of the two-stage model; the third is trained after them.
    X = block_features(parse(ARTICLE))
    assert np.array_equal(model.stage1.decision_function(X), two.stage1.decision_function(X))


@pytest.mark.parametrize("members", ["0", "-1", "two"])
def test_train_refuses_a_member_count_under_one(
    tmp_path: Path, members: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_bte.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["train", "--data", str(tmp_path), "-o", str(tmp_path / "m.npz"), "--members", members])
    assert exc.value.code == 2
    assert "--members" in capsys.readouterr().err
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.parametrize("labels", [[], ["--content-selector", "div.post"], ["--use-markers"]])
def test_train_and_evaluate_commands(tmp_path: Path, labels: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from scrapy_bte.cli import main
    from scrapy_bte.training.fit import TrainConfig

    _write_set(tmp_path / "one", 4)
    _write_set(tmp_path / "two", 4)
    out = tmp_path / "m.npz"
    data = ["--data", str(tmp_path / "one"), str(tmp_path / "two")]
    stages = ["--stages", "3"] if labels else []  # the three-stage model once, beside the default
    assert main(["train", *data, "-o", str(out), "--epochs", "3", "--members", "2", "-q", *stages, *labels]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["command"].startswith("scrapy-bte train --data ") and "--members 2 " in meta["command"]
    assert meta["training_config"]["members"] == 2 and meta["stages"][1]["hidden"] == [16]
    assert len(meta["stages"]) == meta["training_config"]["stages"] == (3 if labels else TrainConfig().stages)
    assert meta["blocks"] > 0
    assert main(["evaluate", *data, "--method", "hybrid,model", "--model", str(out), "-q"]) == 0
    assert main(["evaluate", *data, "--method", "auto", "--loso", "--epochs", "2", "-q"]) == 0
    table = capsys.readouterr().out
    assert "| auto (loso) | one |" in table and "ρ(confidence, page F1)" in table


PARAGRAPH = "The harbour board met on Tuesday to decide the future of the old pier and its lamps. " * 3
ARTICLE_WITH_LINKS = (
    "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>"
    "<article><h1>Pier</h1><div>"
    + PARAGRAPH
    + "</div><p>Links</p>"
    + "".join(f"<p><a href='/l{i}'>link</a></p>" for i in range(8))
    + "<p>Images</p>"
    + "".join(f"<p><img src='/i{i}.png'></p>" for i in range(5))
    + "<h2>After the links</h2><div>"
    + PARAGRAPH.replace("Tuesday", "Friday")
    + "</div></article>"
    "<aside><div>" + PARAGRAPH.replace("harbour", "sidebar") + "</div></aside></body></html>"
)


def test_same_article_adds_long_link_free_blocks_of_the_kept_element_only() -> None:
    doc = parse(ARTICLE_WITH_LINKS)
    first = doc.texts.index(" ".join(PARAGRAPH.split()))
    keep = np.zeros(doc.n_blocks, dtype=bool)
    keep[first] = True
    added = [doc.texts[b][:40] for b in np.flatnonzero(_same_article(doc, keep))]
    assert any("Friday" in t for t in added)  # the article's second paragraph, past its link list
    assert not any("sidebar" in t for t in added)  # a paragraph of another element
    assert not any(t == "link" for t in added)  # short and all link text
    assert not _same_article(doc, np.zeros(doc.n_blocks, dtype=bool)).any()


class _Scripted(BlockModel):
    """A block model whose probabilities the test sets, to pin down what select does with them."""

    def __init__(self, probabilities: dict[str, float]) -> None:
        super().__init__(LogisticRegression())
        self.probabilities = probabilities

    def predict_document(self, doc, X, *, lists=False):  # type: ignore[no-untyped-def]
        return np.array([next((v for k, v in self.probabilities.items() if t.startswith(k)), 0.0) for t in doc.texts])


BLURB = "Our consultancy helps founders ship their first product and find customers in months, not years " * 5
MENU_PAGE = (
    "<html><body><div class='top'><ul><li><a href='/about'>About " + BLURB + "</a></li><li><a href='/blog'>Blog</a>"
    "</li></ul></div><div class='main'><div class='post'><p>"
    + PARAGRAPH
    + "</p><p>"
    + PARAGRAPH.replace("Tuesday", "Friday")
    + "</p></div></div></body></html>"
)


@pytest.mark.parametrize("smooth", [False, True])
def test_long_blocks_of_link_text_alone_are_never_kept(smooth: bool) -> None:
    doc = parse(MENU_PAGE)
    menu = next(b for b, t in enumerate(doc.texts) if t.startswith("About"))
    assert doc.words[menu] >= 50 and doc.link_words[menu] == doc.words[menu]
    keep, _ = select(doc, None, _Scripted({"About": 0.9, "The harbour": 0.9}), smooth=smooth)
    assert not keep[menu] and keep.sum() == 2
    # ... unless nothing else passes: a page never comes back empty.
    keep, _ = select(doc, None, _Scripted({"About": 0.9}), smooth=smooth)
    assert keep[menu]


def test_a_short_link_block_is_left_to_the_model() -> None:
    doc = parse(MENU_PAGE)
    keep, _ = select(doc, None, _Scripted({"Blog": 0.9, "The harbour": 0.9}), smooth=False)
    assert keep[doc.texts.index("Blog")]


HEADLINE_PAGE = (
    "<html><head><title>Harbour board saves the old pier - The Coast Gazette</title></head><body>"
    "<ul><li><a href='/'>Home</a></li></ul><h1>Harbour board saves the old pier</h1><p>By A. Writer</p>"
    "<div><p>" + PARAGRAPH + "</p><p>" + PARAGRAPH.replace("Tuesday", "Friday") + "</p></div></body></html>"
)


def test_auto_keeps_the_body_without_headline_and_byline() -> None:
    doc = parse(HEADLINE_PAGE)
    head, byline = doc.texts.index("Harbour board saves the old pier"), doc.texts.index("By A. Writer")
    everything = _Scripted({"Harbour": 0.9, "By A.": 0.9, "The harbour": 0.9})
    keep, _ = select(doc, None, everything, smooth=True, title="Harbour board saves the old pier")
    assert not keep[head] and not keep[byline] and keep.sum() == 2
    # Only the auto method applies the body convention; model keeps what passes.
    keep, _ = select(doc, None, everything, smooth=False, title="Harbour board saves the old pier")
    assert keep[head] and keep[byline]


@pytest.mark.parametrize(
    "title",
    [
        "HARBOUR board saves: the old pier!",  # case and punctuation aside
        "Harbour board saves the pier",  # most words in common both ways
        "Harbour board",  # a title that is only part of it: the page's h1 is still its headline
        "Pier",
        None,
    ],
)
def test_the_headline_before_the_body_goes_whatever_the_title_says(title: str | None) -> None:
    doc = parse(HEADLINE_PAGE)
    head = doc.texts.index("Harbour board saves the old pier")
    keep, _ = select(doc, None, _Scripted({"Harbour": 0.9, "The harbour": 0.9}), smooth=True, title=title)
    assert not keep[head] and keep.sum() == 2


def test_an_h2_that_does_not_repeat_the_title_stays() -> None:
    doc = parse(
        "<html><body><div><p>"
        + PARAGRAPH
        + "</p><h2>What the board decided</h2><p>"
        + PARAGRAPH.replace("Tuesday", "Friday")
        + "</p></div></body></html>"
    )
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True, title="Harbour board saves the old pier")
    assert keep.all()


def test_label_blocks_never_join_the_body() -> None:
    doc = parse(
        "<html><body><p>"
        + PARAGRAPH
        + "</p><div>Advertisement</div><p>Tags: pier, harbour</p><p>"
        + PARAGRAPH.replace("Tuesday", "Friday")
        + "</p><p>Share prices fell</p></body></html>"
    )
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    assert [doc.texts[b] for b in np.flatnonzero(keep)] == [doc.texts[0], doc.texts[3], "Share prices fell"]


def test_a_page_of_furniture_alone_is_not_emptied() -> None:
    doc = parse("<html><body><p>Advertisement</p></body></html>")
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    assert keep.tolist() == [True]


def test_extract_auto_leaves_the_headline_to_the_title() -> None:
    out = extract(HEADLINE_PAGE, method="auto")
    assert out.title == "Harbour board saves the old pier"
    assert "Harbour board saves the old pier" not in out.paragraphs and "By A. Writer" not in out.paragraphs
    assert "Friday" in out.text


def test_a_caption_alone_after_an_image_leaves_the_body_but_a_paragraph_after_one_stays() -> None:
    doc = parse(
        "<html><body><div class='b'><p>"
        + PARAGRAPH
        + "</p><img src='a.jpg'><p>A short paragraph after it.</p><p>"
        + PARAGRAPH.replace("Tuesday", "Friday")
        + "</p></div>"
        "<div class='m'><div class='i'><img src='b.jpg'></div><div class='c'>The pier at dawn.</div></div></body></html>"
    )
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    kept = [doc.texts[b] for b in np.flatnonzero(keep)]
    assert "The pier at dawn." not in kept and "A short paragraph after it." in kept


def test_a_heading_framed_with_an_image_is_a_card_title_not_a_caption() -> None:
    item = "<div class='item'><img src='{0}.jpg'><div class='t'><h3>{0}. Buy loose tea</h3></div></div>"
    doc = parse(
        "<html><body><div class='b'><p>"
        + PARAGRAPH
        + "</p>"
        + "".join(item.format(i) for i in (1, 2, 3))
        + "<p>"
        + PARAGRAPH.replace("Tuesday", "Friday")
        + "</p></div></body></html>"
    )
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    kept = [doc.texts[b] for b in np.flatnonzero(keep)]
    assert all(f"{i}. Buy loose tea" in kept for i in (1, 2, 3))


@pytest.mark.parametrize(
    "caption",
    [
        "<figure><img src='b.jpg'><figcaption>The pier at dawn.</figcaption></figure>",
        "<figure class='m'><div class='i'><img src='b.jpg'></div><div class='c'>The pier at dawn.</div></figure>",
        "<div class='m'><div class='i'><img src='b.jpg'></div><div class='photo-caption'>The pier at dawn.</div></div>",
        "<div class='m'><div class='i'><img src='b.jpg'></div><div id='imgCredit'>The pier at dawn.</div></div>",
        "<div class='m'><div class='i'><img src='b.jpg'></div><div class='c'>Foto: The pier at dawn.</div></div>",
        "<div class='m'><div class='i'><img src='b.jpg'></div><div class='c'>The pier at dawn (Photo: J. Doe)</div></div>",
        "<div class='m'><div class='i'><img src='b.jpg'></div><div class='c'>The pier at dawn. Credit: Harbour Trust</div></div>",
        "<div class='m'><div class='i'><img src='b.jpg'></div><div class='c'>The pier at dawn. Getty Images</div></div>",
    ],
)
def test_a_block_named_a_caption_after_an_image_leaves_the_body(caption: str) -> None:
    doc = parse(
        "<html><body><div class='b'><p>"
        + PARAGRAPH
        + "</p><p>"
        + PARAGRAPH.replace("Tuesday", "Friday")
        + "</p></div>"
        + caption
        + "<div class='b2'><p>"
        + PARAGRAPH.replace("Tuesday", "Sunday")
        + "</p></div></body></html>"
    )
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    kept = [doc.texts[b] for b in np.flatnonzero(keep)]
    assert len(kept) == 3 and not any("pier at dawn" in t for t in kept)


def test_paragraphs_a_page_builder_wraps_alone_after_images_stay_in_the_body() -> None:
    widget = "<div class='elementor-widget-container'>{}</div>"
    body = "".join(
        widget.format(f"<img src='p{i}.jpg'>") + widget.format(f"<p>Step {i} of the build: {text}</p>")
        for i, text in enumerate(
            ("solder the header pins to the board.", "flash the firmware over USB.", "mount it by the door frame."), 1
        )
    )
    doc = parse("<html><body><div class='b'><p>" + PARAGRAPH + "</p>" + body + "</div></body></html>")
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    kept = " ".join(doc.texts[b] for b in np.flatnonzero(keep))
    assert all(f"Step {i} of the build" in kept for i in (1, 2, 3))


def test_a_signup_box_with_a_form_leaves_the_body_but_a_premium_body_stays() -> None:
    page = (
        "<html><body><div class='premium-content'><p>"
        + PARAGRAPH
        + "</p><p>"
        + PARAGRAPH.replace("Tuesday", "Friday")
        + "</p></div><div class='newsletter'><p>The best of the week in your inbox every Sunday.</p>"
        "<form action='/s'><input name='e'></form></div></body></html>"
    )
    doc = parse(page)
    keep, _ = select(doc, None, _Scripted({"": 0.9}), smooth=True)
    kept = [doc.texts[b] for b in np.flatnonzero(keep)]
    assert len(kept) == 2 and not any("inbox" in t for t in kept)


# CI sets SCRAPY_BTE_REQUIRE_ACCEL: there a missing build fails these tests instead of skipping them.
_needs_c = pytest.mark.skipif(
    not ACCELERATED["learned.auto"] and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="scrapy_bte._native.auto is not built",
)


@_needs_c
@pytest.mark.usefixtures("native_on")
@pytest.mark.parametrize("html", [ARTICLE, ARTICLE_WITH_LINKS, MENU_PAGE], ids=["article", "links", "menu"])
def test_decide_in_c_equals_the_reference(html: str | bytes) -> None:
    doc = parse(html)
    rng = np.random.default_rng(7)
    cases = [load(DEFAULT_MODEL).predict_document(doc, block_features(doc, None))]
    cases += [rng.random(doc.n_blocks).astype(np.float32) * scale for scale in (0.1, 0.5, 1.0, 1.0, 1.0)]
    cases += [np.full(doc.n_blocks, v, dtype=np.float32) for v in (0.0, 0.5, 0.65, 1.0)]
    for p in cases:
        for threshold in (0.5, 0.65):
            fast = decide(doc, p, threshold, smooth=True)
            ref = decide_reference(doc, p, threshold, smooth=True)
            for a, b in zip(fast, ref):
                assert a.dtype == b.dtype and np.array_equal(a, b)
    # Reasons and float64 probabilities take the reference.
    p = cases[0].astype(np.float64)
    assert all(np.array_equal(a, b) for a, b in zip(decide(doc, p, smooth=True), decide_reference(doc, p, smooth=True)))


def test_standardized_is_numpys_stacked_subtract_and_divide_bit_for_bit() -> None:
    """The column blocks cast into one float32 buffer give the bits of stacking them first."""
    from scrapy_bte.learned.estimators import standardized

    def stacked(parts: tuple[np.ndarray, ...], mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
        X = parts[0] if len(parts) == 1 else np.column_stack(parts)
        return np.subtract(X, mean, dtype=np.float32) / scale

    rng = np.random.default_rng(3)
    for n in (0, 1, 37):
        X = (rng.normal(size=(n, 11)) * 100).astype(np.float32)
        wide = rng.normal(size=(n, 5)) * 1e3  # float64: rounded to float32 on both paths
        ctx = np.frombuffer(rng.random(4 * n).astype(np.float32).tobytes(), dtype=np.float32).reshape(4, n).T
        score = rng.random(n)
        for parts in [(X,), (X, score), (X, ctx), (X, wide, score, ctx), (X[::2],), (X[:, 1:],)]:
            d = sum(p.shape[1] if p.ndim == 2 else 1 for p in parts)
            mean = rng.normal(size=d).astype(np.float32)
            scale = (rng.random(d) + 0.1).astype(np.float32)
            got, want = standardized(parts, mean, scale), stacked(parts, mean, scale)
            assert got.dtype == np.float32 and got.flags.c_contiguous
            assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def _with_lists(tmp_path: Path, name: object = "lists.npz") -> Path:
    """A tiny model saved with a tiny lists model beside it (another seed's fit), linked by ``name``."""
    rng = np.random.default_rng(7)
    lists = _tiny_block_model(stages=3)
    lists.stage1.weights_ = [w + rng.normal(scale=0.5, size=w.shape).astype(np.float32) for w in lists.stage1.weights_]
    lists.save(tmp_path / "lists.npz")
    path = tmp_path / "m.npz"
    _tiny_block_model().save(path, {"lists_model": name})
    return path


@pytest.mark.parametrize("stages", [1, 2, 3])
def test_log_odds_are_what_the_probabilities_are_the_sigmoid_of(stages: int) -> None:
    model = _tiny_block_model(stages=max(stages, 2))
    if stages == 1:
        model = BlockModel(model.stage1)
    doc = parse(ARTICLE)
    X = block_features(doc)
    p = model.predict_document(doc, X)
    assert np.allclose(0.5 * (1 + np.tanh(0.5 * model.log_odds(doc, X))), p, atol=1e-6)


def test_a_lists_model_beside_the_model_is_blended_in_only_when_asked(tmp_path: Path) -> None:
    from scrapy_bte.learned.model import LISTS_WEIGHT

    model = load(_with_lists(tmp_path))
    assert model.lists is not None and model.lists.stage3 is not None
    alone = load(tmp_path / "lists.npz")
    doc = parse(ARTICLE)
    X = block_features(doc)
    own = model.predict_document(doc, X)
    blended = model.predict_document(doc, X, lists=True)
    z = (1 - LISTS_WEIGHT) * model.log_odds(doc, X) + LISTS_WEIGHT * alone.log_odds(doc, X)
    assert blended.dtype == np.float32 and np.allclose(blended, 0.5 * (1 + np.tanh(0.5 * z)), atol=1e-6)
    assert not np.allclose(blended, own, atol=1e-3)
    # A model without a lists model reads every page with its own.
    plain = BlockModel(model.stage1, model.stage2, threshold=model.threshold)
    assert np.array_equal(plain.predict_document(doc, X, lists=True), own)


def test_auto_blends_the_lists_model_on_list_profiles_only(tmp_path: Path) -> None:
    from scrapy_bte.learned.profiles import PROFILES

    reading = {name for name, rules in PROFILES.items() if rules.lists_model}
    assert reading == {"collection", "service"}
    model = load(_with_lists(tmp_path))
    plain = BlockModel(model.stage1, model.stage2, threshold=model.threshold)
    doc = parse(ARTICLE)
    for page_type in PROFILES:
        _, with_lists = select(doc, None, model, smooth=True, page_type=page_type)
        _, without = select(doc, None, plain, smooth=True, page_type=page_type)
        assert np.array_equal(with_lists, without) == (page_type not in reading), page_type
    # The method without profiles never reads it.
    assert np.array_equal(
        select(doc, None, model, page_type="listing")[1], select(doc, None, plain, page_type="listing")[1]
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("../lists.npz", "beside it"),
        ("sub/lists.npz", "beside it"),
        ("", "beside it"),
        (3, "beside it"),
        ("missing.npz", "not found"),
    ],
)
def test_a_lists_model_must_be_a_loadable_file_beside_the_model(tmp_path: Path, name: object, message: str) -> None:
    path = _with_lists(tmp_path, name)
    with pytest.raises(ModelError, match=message):
        load(path)
    with pytest.raises(ModelError, match=message):
        extract(ARTICLE, method="auto", model_path=str(path))


def test_a_cached_model_is_loaded_again_when_its_lists_model_changes(tmp_path: Path) -> None:
    path = _with_lists(tmp_path)
    first = load_cached(path)
    assert load_cached(path) is first and first.lists is not None
    lists = tmp_path / "lists.npz"
    _rewrite_arrays(lists, lambda arrays: arrays.update({"s1.b0": arrays["s1.b0"] + 1.0}))
    os.utime(lists, ns=(1, 1))  # a new stamp whatever the clock's resolution
    second = load_cached(path)
    assert second is not first and second.lists is not None
    assert not np.array_equal(second.lists.stage1.biases_[0], first.lists.stage1.biases_[0])
    lists.unlink()
    with pytest.raises(ModelError, match="not found"):
        load_cached(path)


def test_a_lists_model_cannot_name_one_of_its_own(tmp_path: Path) -> None:
    path = _with_lists(tmp_path)
    _rewrite_meta(tmp_path / "lists.npz", lists_model="m.npz")
    with pytest.raises(ModelError, match="lists model of its own"):
        load(path)


def test_the_shipped_model_reads_list_pages_with_the_shipped_lists_model() -> None:
    from scrapy_bte.learned.model import LISTS_MODEL, LISTS_TRAINED_ON, default_model

    model = default_model()
    assert model.metadata["lists_model"] == LISTS_MODEL.name and model.lists is not None
    lists_meta = json.loads(LISTS_MODEL.with_suffix(".json").read_text())
    # Trained on the pages of the types the fold benchmark trains its lists models on, no others.
    trained_on = lists_meta["command"].split("--page-types ")[1].split()[0].split(",")
    assert tuple(trained_on) == LISTS_TRAINED_ON
    assert "--lists-model lists.npz" in model.metadata["command"]


def _write_typed_set(folder: Path, types: list[str]) -> None:
    """A tiny set in WCXB's layout: pages of :func:`_write_set` with a ``<id>.meta.json`` each."""
    _write_set(folder, len(types))
    for i, page_type in enumerate(types):
        (folder / f"{i}.meta.json").write_text(json.dumps({"page_type": page_type}), encoding="utf-8")


def test_train_a_lists_model_on_some_page_types_and_link_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scrapy_bte.cli import main

    typed = tmp_path / "typed"
    _write_typed_set(typed, ["listing", "article", "service", "listing", "forum", "collection"])
    _write_set(tmp_path / "one", 4)
    lists = tmp_path / "models" / "lists.npz"
    fast = ["--epochs", "2", "--members", "1", "-q"]
    picked = ["--page-types", "listing,collection,service"]
    assert main(["train", "--typed-data", str(typed), *picked, "-o", str(lists), *fast]) == 0
    meta = json.loads(lists.with_suffix(".json").read_text())
    assert meta["training_sets"] == [
        {"name": "typed", "pages": 4, "labelled_pages": 4, "hand_labelled_pages": 0}
    ]  # pages 0, 2, 3 and 5
    assert (
        meta["command"].startswith("scrapy-bte train -o ")
        and "--page-types listing,collection,service" in meta["command"]
    )
    out = lists.with_name("default.npz")
    data = ["--data", str(tmp_path / "one"), "--typed-data", str(typed)]
    assert main(["train", *data, "-o", str(out), "--lists-model", "lists.npz", *fast]) == 0
    model = load(out)
    assert model.metadata["lists_model"] == "lists.npz" and model.lists is not None
    assert "--lists-model lists.npz" in model.metadata["command"]
    result = extract(ARTICLE, method="auto", model_path=str(out))
    assert result.text
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--page-types", "listing"], "no page of"),
        (["--lists-model", "none.npz"], "not found"),
        (["--lists-model", "../lists.npz"], "by name only"),
    ],
)
def test_train_refuses_page_types_or_lists_models_it_cannot_use(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_bte.cli import main

    typed = tmp_path / "typed"
    _write_typed_set(typed, ["article", "forum"])
    assert main(["train", "--typed-data", str(typed), "-o", str(tmp_path / "m.npz"), "-q", *args]) != 0
    assert message in capsys.readouterr().err
    assert not (tmp_path / "m.npz").exists()


def test_train_names_a_page_whose_meta_cannot_be_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scrapy_bte.cli import main

    typed = tmp_path / "typed"
    _write_typed_set(typed, ["listing", "service"])
    (typed / "1.meta.json").write_text("{not json", encoding="utf-8")
    args = ["train", "--typed-data", str(typed), "--page-types", "listing", "-o", str(tmp_path / "m.npz"), "-q"]
    assert main(args) != 0
    assert "1.meta.json: not valid JSON" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [([], "--data, --typed-data or both"), (["--data", "DATA", "--page-types", "listing"], "--typed-data")],
)
def test_train_needs_a_set_and_page_types_need_typed_data(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_bte.cli import main

    _write_set(tmp_path / "one", 2)
    args = [str(tmp_path / "one") if a == "DATA" else a for a in args]
    assert main(["train", *args, "-o", str(tmp_path / "m.npz"), "-q"]) != 0
    assert message in capsys.readouterr().err
