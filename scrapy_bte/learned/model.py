"""The staged block model and its files.

Files: ``model.npz`` holds only float arrays and is loaded with
``allow_pickle=False``; ``model.json`` beside it holds the feature names,
:data:`~scrapy_bte.learned.feature_schema.FEATURE_VERSION`, hyper-parameters, training
sets, date and metrics. :func:`load` refuses, with
:class:`~scrapy_bte.errors.ModelError`, anything that does not match.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import zipfile
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..core import boundedjson
from ..errors import ModelError
from .estimators import MLPClassifier, sigmoid
from .feature_schema import CONTEXT_NAMES, FEATURE_NAMES, FEATURE_VERSION
from .features import BlockArrays, context_features
from .ngrams import NgramClassifier

FORMAT = "scrapy-bte-block-model"
FORMAT_VERSION = 1

#: Weight of the :attr:`BlockModel.lists` model's log-odds where both are read. The shipped
#: model and one trained on WCXB's listing, collection and service pages alone (their gold keeps
#: every card and every section), WCXB by site folds (each fold's models trained without its
#: sites), two seeds, blended half and half on the collection and service profiles: 0.8910 to
#: 0.8931 and 0.8907 to 0.8916 (service +0.006 with either seed, collection +0.007 and -0.002);
#: weights 0.35 and 0.65 read within 0.0004 of half. The lists model alone read 0.8936 and 0.8925
#: on listing, collection and service pages, but on the older sets' article pages the
#: classifier reads as listings (206, mostly L3S-GN1's 2007 news pages) it kept more than their
#: bodies: CleanEval -0.0095, mercury -0.0049, L3S-GN1 -0.0044 with the listing profile blended,
#: none below -0.0007 without it. A lists model trained on every non-article type, or on the
#: collection and service pages alone, read no better; one trained on all pages with the
#: list-like ones weighted three times gained nothing.
LISTS_WEIGHT = 0.5


def metadata_path(path: str | Path) -> Path:
    return Path(path).with_suffix(".json")


class PageArrays(BlockArrays, Protocol):
    """What :meth:`BlockModel.predict_document` reads of a page: a :class:`~scrapy_bte.core.document.Document`
    or training's page blocks."""

    @property
    def texts(self) -> list[str]: ...


class BlockModel:
    """The learned method: features -> stage 1 -> context of its probabilities -> stage 2 (-> stage 3).

    Stage 1 scores each block from :func:`~scrapy_bte.learned.features.block_features`
    (plus the n-gram score when an n-gram stage is present); stage 2 sees
    the block's features again plus :func:`~scrapy_bte.learned.features.context_features`
    of the stage-1 probabilities (neighbours, container, page), which is
    what lets it keep whole runs of content. A third stage, where present,
    sees both contexts and that of the stage-2 probabilities: a card grid or
    a thread whose blocks stage 1 scored apart, stage 2 scores more alike,
    and their context then says so. ``threshold`` turns the final
    probability into keep/drop.
    """

    def __init__(
        self,
        stage1: MLPClassifier,
        stage2: MLPClassifier | None = None,
        *,
        stage3: MLPClassifier | None = None,
        threshold: float = 0.5,
        ngram: Any = None,
        metadata: dict[str, Any] | None = None,
        lists: BlockModel | None = None,
    ) -> None:
        self.stage1 = stage1
        self.stage2 = stage2
        if stage3 is not None and stage2 is None:
            raise ModelError("a third stage needs a second")
        self.stage3 = stage3
        self.threshold = threshold
        self.ngram = ngram
        self.metadata = metadata or {}
        #: The model trained on list-like pages alone (listing, collection, service), blended in
        #: where ``auto``'s profile says so (``Profile.lists_model``); the metadata's ``lists_model``.
        self.lists = lists

    def predict_document(self, doc: PageArrays, X: np.ndarray, *, lists: bool = False) -> np.ndarray:
        """Content probability per block of ``doc`` whose features are ``X``.

        ``lists``: where the model has a :attr:`lists` model, the weighted mean of both models'
        log-odds (:data:`LISTS_WEIGHT`), as ``auto`` reads collection and service pages.
        """
        if len(X) == 0:
            return np.zeros(0)
        z = self.log_odds(doc, X)
        if lists and self.lists is not None:
            z *= 1.0 - LISTS_WEIGHT
            z += LISTS_WEIGHT * self.lists.log_odds(doc, X)
        return sigmoid(z)

    def log_odds(self, doc: PageArrays, X: np.ndarray) -> np.ndarray:
        """The last stage's log-odds per block (:meth:`predict_document` gives their sigmoid).

        Each stage reads the features (and the n-gram score) as column blocks, never stacked
        copies, and after the first the context of each earlier stage's probabilities.
        """
        inputs = (X,) if self.ngram is None else (X, self.ngram.block_scores(doc.texts))
        stages = [s for s in (self.stage1, self.stage2, self.stage3) if s is not None]
        contexts: list[np.ndarray] = []
        for stage in stages[:-1]:
            contexts.append(context_features(stage.positive_proba(*inputs, *contexts), doc))
        return stages[-1].decision_function(*inputs, *contexts)

    def save(self, path: str | Path, metadata: dict[str, Any] | None = None) -> None:
        """Write the .npz (float arrays only) and the JSON metadata beside it."""
        arrays: dict[str, np.ndarray] = {}
        stages = []
        for name, clf in (("s1", self.stage1), ("s2", self.stage2), ("s3", self.stage3)):
            if clf is None:
                continue
            for key, arr in clf.arrays().items():
                arrays[f"{name}.{key}"] = arr
            stages.append({"name": name, "hidden": list(clf.hidden), "hyperparameters": clf.get_params()})
        if self.ngram is not None:
            for key, arr in self.ngram.arrays().items():
                arrays[f"ngram.{key}"] = arr
        meta = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "feature_version": FEATURE_VERSION,
            "features": list(FEATURE_NAMES),
            "context_features": list(CONTEXT_NAMES),
            "stages": stages,
            "threshold": self.threshold,
            "ngram": None if self.ngram is None else self.ngram.params(),
            **(metadata if metadata is not None else self.metadata),
        }
        path = Path(path)
        with open(path, "wb") as fh:
            stored: dict[str, Any] = {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}
            np.savez_compressed(fh, **stored)
        metadata_path(path).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        self.metadata = meta


#: Caps on what a model file may make the loader allocate, checked against
#: the declared sizes before anything is read: the shipped model holds 8 KB
#: of arrays, one with the n-gram stage about 1 MB.
MAX_ARRAY_BYTES = 64 * 2**20
MAX_TOTAL_BYTES = 128 * 2**20
MAX_ARRAYS = 64
MAX_METADATA_BYTES = 4 * 2**20


def load(path: str | Path) -> BlockModel:
    """Load and validate a block model.

    Refuses with :class:`ModelError`: a missing file or metadata, another
    format or feature version or feature list, pickled or non-float arrays,
    shapes that do not chain, non-finite values, unknown arrays, arrays or
    metadata over the size caps, metadata nested too deep, a ``lists_model``
    that is not a loadable model file beside it. Nothing a model file holds
    escapes as another exception.
    """
    try:
        return _load(Path(path))
    except ModelError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError, MemoryError) as exc:
        raise ModelError(f"{path}: malformed model ({type(exc).__name__}: {exc})") from exc


def _load(path: Path, nested: bool = False) -> BlockModel:
    if not path.is_file():
        raise ModelError(f"model file not found: {path}")
    meta_file = metadata_path(path)
    if not meta_file.is_file():
        raise ModelError(f"model metadata not found: {meta_file} (expected next to {path.name})")
    meta = read_metadata(meta_file)
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelError(f"{meta_file} is not scrapy-bte block-model metadata")
    if meta.get("format_version") != FORMAT_VERSION:
        raise ModelError(f"{path}: model format {meta.get('format_version')!r}, this version reads {FORMAT_VERSION}")
    if meta.get("feature_version") != FEATURE_VERSION:
        raise ModelError(
            f"{path} was trained on feature version {meta.get('feature_version')!r}, but this version of "
            f"scrapy-bte computes version {FEATURE_VERSION}: retrain it with 'scrapy-bte train'"
        )
    if list(meta.get("features", [])) != list(FEATURE_NAMES) or (
        list(meta.get("context_features", [])) != list(CONTEXT_NAMES)
    ):
        raise ModelError(f"{path}: the model's feature list differs from this version's")
    stages = meta.get("stages")
    if not isinstance(stages, list) or not 1 <= len(stages) <= 3:
        raise ModelError(f"{path}: metadata 'stages' must list one, two or three stages")
    threshold = meta.get("threshold", 0.5)
    if not isinstance(threshold, (int, float)) or not 0.0 < threshold < 1.0:
        raise ModelError(f"{path}: threshold must be a number in (0, 1)")

    arrays = read_arrays(path)
    ngram = None
    if meta.get("ngram") is not None:
        ngram = NgramClassifier.from_arrays(
            {k[6:]: v for k, v in arrays.items() if k.startswith("ngram.")}, meta["ngram"], source=str(path)
        )
    n_in = len(FEATURE_NAMES) + (1 if ngram is not None else 0)
    classifiers = []
    for i, stage in enumerate(stages):
        hidden = stage.get("hidden") if isinstance(stage, dict) else None
        if not isinstance(hidden, list) or not all(isinstance(h, int) and h > 0 for h in hidden):
            raise ModelError(f"{path}: stage {i + 1} 'hidden' must be a list of positive integers")
        inputs = n_in + i * len(CONTEXT_NAMES)  # stage k reads the contexts of the k - 1 stages before it
        classifiers.append(_classifier_from(arrays, f"s{i + 1}", hidden, inputs, path))
    known = {k for k in arrays if k.startswith("ngram.")} if ngram is not None else set()
    for i, clf in enumerate(classifiers):
        known |= {f"s{i + 1}.{k}" for k in clf.arrays()}
    unknown = set(arrays) - known
    if unknown:
        raise ModelError(f"{path}: unexpected arrays {sorted(unknown)}")
    return BlockModel(
        classifiers[0],
        classifiers[1] if len(classifiers) > 1 else None,
        stage3=classifiers[2] if len(classifiers) > 2 else None,
        threshold=float(threshold),
        ngram=ngram,
        metadata=meta,
        lists=_lists_model(path, meta.get("lists_model"), nested),
    )


def lists_path(path: str | Path, name: Any) -> Path:
    """Where the lists model ``name`` of the model file ``path`` is: a file beside it, named by its
    file name only (a model file never makes the loader read another folder); a
    :class:`ModelError` for any other name."""
    if not isinstance(name, str) or not name or Path(name).name != name or name in (".", ".."):
        raise ModelError(f"{path}: 'lists_model' must name a file beside it, by name only, not {name!r}")
    return Path(path).parent / name


def _lists_model(path: Path, name: Any, nested: bool) -> BlockModel | None:
    """The model a model's metadata names as its ``lists_model`` (:func:`lists_path`), with no lists
    model of its own."""
    if name is None:
        return None
    where = lists_path(path, name)
    if nested:
        raise ModelError(f"{path}: a lists model cannot name a lists model of its own")
    return _load(where, nested=True)


def _classifier_from(
    arrays: dict[str, np.ndarray], prefix: str, hidden: list[int], inputs: int, path: Path
) -> MLPClassifier:
    """One stage's classifier from its arrays, checking every shape."""
    sizes = [inputs, *hidden, 1]
    expected: dict[str, tuple[int, ...]] = {"mean": (inputs,), "scale": (inputs,)}
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        expected[f"W{i}"] = (a, b)
        expected[f"b{i}"] = (b,)
    for name, shape in expected.items():
        arr = arrays.get(f"{prefix}.{name}")
        if arr is None:
            raise ModelError(f"{path}: array {prefix}.{name!r} is missing")
        if arr.shape != shape:
            raise ModelError(f"{path}: array {prefix}.{name!r} has shape {arr.shape}, expected {shape}")
    if np.any(arrays[f"{prefix}.scale"] <= 0):
        raise ModelError(f"{path}: feature scales must be positive")
    clf = MLPClassifier(hidden=hidden)
    clf.mean_ = arrays[f"{prefix}.mean"]
    clf.scale_ = arrays[f"{prefix}.scale"]
    clf.weights_ = [arrays[f"{prefix}.W{i}"] for i in range(len(sizes) - 1)]
    clf.biases_ = [arrays[f"{prefix}.b{i}"] for i in range(len(sizes) - 1)]
    return clf


_loaded: dict[tuple[str, int, int], tuple[BlockModel, tuple[int, int] | None]] = {}


def _stamp(path: str | Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


def load_cached(path: str | Path) -> BlockModel:
    """:func:`load` once per file and process (keyed by path, size and mtime).

    Scrapy workers extract many pages with one model; a changed file is
    reloaded, and so is a model whose lists model (:attr:`BlockModel.lists`)
    changed beside it.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ModelError(f"model file not found: {path}") from exc
    key = (os.fspath(path), st.st_size, st.st_mtime_ns)  # one stat per page, no path resolution
    cached = _loaded.get(key)
    if cached is not None and cached[1] is not None:
        try:
            current = _stamp(lists_path(path, cached[0].metadata["lists_model"]))
        except OSError:
            current = None
        if current != cached[1]:
            cached = None  # the lists model changed or went: load both again (and say what is wrong)
    if cached is None:
        model = load(Path(path))
        lists = None if model.lists is None else _stamp(lists_path(path, model.metadata["lists_model"]))
        if len(_loaded) >= 16:
            _loaded.clear()
        cached = _loaded[key] = (model, lists)
    return cached[0]


DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "default.npz"
#: The shipped lists model (:attr:`BlockModel.lists` of the default model).
LISTS_MODEL = DEFAULT_MODEL.with_name("lists.npz")
#: The page types the lists model learns from (``scrapy-bte train --page-types``, as
#: ``docs/training.md`` trains the shipped one): those whose gold keeps every card and section.
LISTS_TRAINED_ON = ("listing", "collection", "service")


def default_model() -> BlockModel:
    """The model shipped in the package (see its JSON for how it was trained)."""
    global _default
    if _default is None:
        _default = load(DEFAULT_MODEL)
    return _default


_default: BlockModel | None = None


def read_metadata(meta_file: Path) -> Any:
    """A model's JSON metadata, size- and depth-capped; every failure is a :class:`ModelError`."""
    try:
        if meta_file.stat().st_size > MAX_METADATA_BYTES:
            raise ModelError(f"{meta_file}: metadata over {MAX_METADATA_BYTES} bytes")
        return boundedjson.loads(meta_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON, nested too deep
        raise ModelError(f"unreadable model metadata {meta_file}: {exc}") from exc


def read_arrays(path: Path) -> dict[str, np.ndarray]:
    """All arrays of an .npz as float32, refusing pickles, non-float and non-finite data.

    Every member's declared size and every array's header (shape, dtype)
    are checked against the caps before its data is read; the zip reader
    stops at a member's declared size, so a zip bomb is refused unread.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = _checked_members(archive, path)
            raw = {}
            for info in members:
                with archive.open(info) as stream:
                    raw[info.filename[:-4]] = np.lib.format.read_array(stream, allow_pickle=False)
    except ValueError as exc:  # object arrays need pickle, which is refused; bad headers
        raise ModelError(f"{path}: refusing pickled, object or malformed arrays ({exc})") from exc
    except (OSError, zipfile.BadZipFile, EOFError, NotImplementedError) as exc:
        raise ModelError(f"{path}: not a readable .npz file ({exc})") from exc
    out: dict[str, np.ndarray] = {}
    for name, arr in raw.items():
        if arr.dtype.kind != "f":
            raise ModelError(f"{path}: array {name!r} has dtype {arr.dtype}, expected floats")
        if not np.isfinite(arr).all():
            raise ModelError(f"{path}: array {name!r} contains NaN or infinite values")
        out[name] = arr.astype(np.float32)
    return out


def _checked_members(archive: zipfile.ZipFile, path: Path) -> list[zipfile.ZipInfo]:
    """The archive's ``.npy`` members, each header read and checked against the caps."""
    members = archive.infolist()
    if len(members) > MAX_ARRAYS:
        raise ModelError(f"{path}: {len(members)} arrays, more than {MAX_ARRAYS}")
    total = 0
    for info in members:
        if not info.filename.endswith(".npy"):
            raise ModelError(f"{path}: {info.filename!r} is not an array")
        if info.file_size > MAX_ARRAY_BYTES + 4096:  # data plus the .npy header
            raise ModelError(f"{path}: array {info.filename!r} of {info.file_size} bytes, over {MAX_ARRAY_BYTES}")
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise ModelError(f"{path}: arrays of more than {MAX_TOTAL_BYTES} bytes in all")
        with archive.open(info) as stream:
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
            else:
                raise ModelError(f"{path}: array {info.filename!r} has .npy format {version}")
        if dtype.hasobject:
            raise ModelError(f"{path}: refusing pickled or object array {info.filename!r}")
        if dtype.kind != "f":
            raise ModelError(f"{path}: array {info.filename!r} has dtype {dtype}, expected floats")
        if dtype.itemsize * math.prod(shape) > MAX_ARRAY_BYTES:
            raise ModelError(f"{path}: array {info.filename!r} of shape {shape} is over {MAX_ARRAY_BYTES} bytes")
    return members
