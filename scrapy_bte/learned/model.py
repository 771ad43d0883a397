"""Block classifiers in plain numpy: logistic regression and a small MLP.

Why numpy: inference is two or three small matrix products per page, which
numpy does in microseconds, and the package gains no heavy dependency. The
estimators follow scikit-learn's shape (explicit hyper-parameters in
``__init__``, ``fit`` / ``predict_proba`` / ``predict``) so they are easy to
swap and to test.

Training: inputs standardised with the training mean/scale (stored with the
weights), ReLU hidden layers, sigmoid output, weighted binary cross-entropy
with L2, mini-batch Adam, early stopping on a validation split held out *by
group* (by page: blocks of one page are not independent), fixed seed.

Files: ``model.npz`` holds only float arrays and is loaded with
``allow_pickle=False``; ``model.json`` beside it holds the feature names,
:data:`~scrapy_bte.features.FEATURE_VERSION`, hyper-parameters, training
sets, date and metrics. :func:`load` refuses, with
:class:`~scrapy_bte.errors.ModelError`, anything that does not match.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError

FORMAT = "scrapy-bte-block-model"
FORMAT_VERSION = 1


class MLPClassifier:
    """Binary classifier: ``hidden=()`` is logistic regression, ``(32, 16)`` two ReLU layers."""

    def __init__(self, hidden: Sequence[int] = (32, 16), *, epochs: int = 40, batch_size: int = 512,
                 learning_rate: float = 2e-3, l2: float = 1e-5, class_weight: str | None = "balanced",
                 validation: float = 0.1, patience: int = 5, seed: int = 0) -> None:
        self.hidden = tuple(int(h) for h in hidden)
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.l2 = l2
        self.class_weight = class_weight
        self.validation = validation
        self.patience = patience
        self.seed = seed
        self.mean_: np.ndarray | None = None
        self.scale_: np.ndarray | None = None
        self.weights_: list[np.ndarray] = []
        self.biases_: list[np.ndarray] = []
        self.history_: list[dict[str, float]] = []

    # -- hyper-parameters -------------------------------------------------
    def get_params(self) -> dict[str, Any]:
        return {"hidden": list(self.hidden), "epochs": self.epochs, "batch_size": self.batch_size,
                "learning_rate": self.learning_rate, "l2": self.l2, "class_weight": self.class_weight,
                "validation": self.validation, "patience": self.patience, "seed": self.seed}

    # -- inference ---------------------------------------------------------
    def _check_fitted(self) -> None:
        if self.mean_ is None or not self.weights_:
            raise ModelError("model is not fitted")

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """Log-odds of class 1 per row."""
        self._check_fitted()
        h = (np.asarray(X, dtype=np.float32) - self.mean_) / self.scale_
        last = len(self.weights_) - 1
        for i, (w, b) in enumerate(zip(self.weights_, self.biases_)):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """``(n, 2)`` probabilities of class 0 and 1, as in scikit-learn."""
        p = _sigmoid(self.decision_function(X))
        return np.column_stack((1.0 - p, p))

    def predict(self, X: np.ndarray, threshold: float = 0.5) -> np.ndarray:
        return (self.predict_proba(X)[:, 1] >= threshold).astype(np.int64)

    # -- training ------------------------------------------------------------
    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None,
            groups: np.ndarray | None = None, progress: Any = None) -> "MLPClassifier":
        """Train on rows ``X`` with 0/1 labels ``y``.

        ``sample_weight`` scales each row's loss; ``groups`` (e.g. page ids)
        keeps whole groups on one side of the validation split;
        ``progress(epoch, epochs, train_loss, val_loss)`` is called per epoch.
        """
        X = np.asarray(X, dtype=np.float32)
        y = np.asarray(y, dtype=np.float32).ravel()
        n, d = X.shape
        if len(y) != n:
            raise ValueError("X and y have different numbers of rows")
        w = np.ones(n, dtype=np.float32) if sample_weight is None else np.asarray(sample_weight, np.float32)
        rng = np.random.default_rng(self.seed)
        if self.class_weight == "balanced":
            pos = float(w[y > 0.5].sum())
            neg = float(w[y <= 0.5].sum())
            if pos > 0 and neg > 0:
                w = w * np.where(y > 0.5, (pos + neg) / (2 * pos), (pos + neg) / (2 * neg)).astype(np.float32)
        elif self.class_weight is not None:
            raise ValueError(f"class_weight must be 'balanced' or None, not {self.class_weight!r}")
        w = w / max(float(w.mean()), 1e-12)

        train_idx, val_idx = _split(n, groups, self.validation, rng)
        self.mean_ = X[train_idx].mean(axis=0).astype(np.float32)
        std = X[train_idx].std(axis=0)
        self.scale_ = np.where(std > 1e-6, std, 1.0).astype(np.float32)
        Z = (X - self.mean_) / self.scale_

        sizes = [d, *self.hidden, 1]
        # He initialisation for ReLU layers; a lone linear layer (logistic regression) starts at zero.
        self.weights_ = [(rng.standard_normal((a, b)) * math.sqrt(2.0 / a) * (1.0 if self.hidden else 0.0))
                         .astype(np.float32) for a, b in zip(sizes[:-1], sizes[1:])]
        self.biases_ = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
        params = self.weights_ + self.biases_
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        step = 0
        best = (math.inf, [p.copy() for p in params])
        waited = 0
        self.history_ = []
        for epoch in range(self.epochs):
            order = rng.permutation(train_idx)
            total = 0.0
            for start in range(0, len(order), self.batch_size):
                batch = order[start : start + self.batch_size]
                loss, grads = self._gradients(Z[batch], y[batch], w[batch])
                total += loss * len(batch)
                step += 1
                lr = self.learning_rate * math.sqrt(1 - beta2**step) / (1 - beta1**step)
                for p, g, mi, vi in zip(params, grads, m, v):
                    mi *= beta1
                    mi += (1 - beta1) * g
                    vi *= beta2
                    vi += (1 - beta2) * g * g
                    p -= lr * mi / (np.sqrt(vi) + eps)
            train_loss = total / max(len(train_idx), 1)
            val_loss = self._loss(Z[val_idx], y[val_idx], w[val_idx]) if len(val_idx) else train_loss
            self.history_.append({"epoch": epoch + 1, "train_loss": train_loss, "val_loss": val_loss})
            if progress is not None:
                progress(epoch + 1, self.epochs, train_loss, val_loss)
            if val_loss < best[0] - 1e-5:
                best = (val_loss, [p.copy() for p in params])
                waited = 0
            else:
                waited += 1
                if waited >= self.patience:
                    break
        for p, saved in zip(params, best[1]):
            p[...] = saved
        return self

    def _forward(self, Z: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [Z]
        h = Z
        last = len(self.weights_) - 1
        for i, (w, b) in enumerate(zip(self.weights_, self.biases_)):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
                acts.append(h)
        return acts, h[:, 0]

    def _loss(self, Z: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
        _, logit = self._forward(Z)
        return float((w * _bce(logit, y)).mean())

    def _gradients(self, Z: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, list[np.ndarray]]:
        acts, logit = self._forward(Z)
        loss = float((w * _bce(logit, y)).mean())
        delta = ((_sigmoid(logit) - y) * w / len(y))[:, None].astype(np.float32)
        gw: list[np.ndarray] = [np.empty(0)] * len(self.weights_)
        gb: list[np.ndarray] = [np.empty(0)] * len(self.weights_)
        for i in range(len(self.weights_) - 1, -1, -1):
            gw[i] = acts[i].T @ delta + self.l2 * self.weights_[i]
            gb[i] = delta.sum(axis=0)
            if i:
                delta = (delta @ self.weights_[i].T) * (acts[i] > 0)
        return loss, gw + gb

    # -- persistence ---------------------------------------------------------
    def arrays(self) -> dict[str, np.ndarray]:
        """The fitted state as named float arrays (what :func:`save` writes)."""
        self._check_fitted()
        out = {"mean": self.mean_, "scale": self.scale_}
        for i, (w, b) in enumerate(zip(self.weights_, self.biases_)):
            out[f"W{i}"] = w
            out[f"b{i}"] = b
        return out


class LogisticRegression(MLPClassifier):
    """The single-layer model: a linear decision over standardised features."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("hidden", None)
        super().__init__(hidden=(), **kwargs)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def _bce(logit: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Binary cross-entropy from logits, stable for large |logit|."""
    return np.maximum(logit, 0) - logit * y + np.log1p(np.exp(-np.abs(logit)))


def _split(n: int, groups: np.ndarray | None, share: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Train/validation row indices; whole groups go to one side."""
    if share <= 0 or n < 10:
        return np.arange(n), np.zeros(0, dtype=np.int64)
    if groups is None:
        perm = rng.permutation(n)
        k = max(1, int(n * share))
        return np.sort(perm[k:]), np.sort(perm[:k])
    ids = np.unique(groups)
    if len(ids) < 2:
        return np.arange(n), np.zeros(0, dtype=np.int64)
    held = rng.choice(ids, size=max(1, int(round(len(ids) * share))), replace=False)
    mask = np.isin(groups, held)
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def metadata_path(path: str | Path) -> Path:
    return Path(path).with_suffix(".json")


class BlockModel:
    """The learned method: features -> stage 1 -> context of its probabilities -> stage 2.

    Stage 1 scores each block from :func:`~scrapy_bte.features.block_features`
    (plus the n-gram score when an n-gram stage is present); stage 2 sees
    the block's features again plus :func:`~scrapy_bte.features.context_features`
    of the stage-1 probabilities (neighbours, container, page), which is
    what lets it keep whole runs of content. ``threshold`` turns the final
    probability into keep/drop.
    """

    def __init__(self, stage1: MLPClassifier, stage2: MLPClassifier | None = None, *,
                 threshold: float = 0.5, ngram: Any = None, metadata: dict[str, Any] | None = None) -> None:
        self.stage1 = stage1
        self.stage2 = stage2
        self.threshold = threshold
        self.ngram = ngram
        self.metadata = metadata or {}

    def stage1_inputs(self, X: np.ndarray, doc: Any) -> np.ndarray:
        if self.ngram is None:
            return X
        return np.column_stack((X, self.ngram.block_scores(doc.texts)))

    def predict_document(self, doc: Any, X: np.ndarray) -> np.ndarray:
        """Content probability per block of ``doc`` whose features are ``X``."""
        from .features import context_features

        if len(X) == 0:
            return np.zeros(0)
        X1 = self.stage1_inputs(X, doc)
        p = self.stage1.predict_proba(X1)[:, 1]
        if self.stage2 is None:
            return p
        return self.stage2.predict_proba(np.column_stack((X1, context_features(p, doc))))[:, 1]

    def save(self, path: str | Path, metadata: dict[str, Any] | None = None) -> None:
        """Write the .npz (float arrays only) and the JSON metadata beside it."""
        from .features import CONTEXT_NAMES, FEATURE_NAMES, FEATURE_VERSION

        arrays: dict[str, np.ndarray] = {}
        stages = []
        for name, clf in (("s1", self.stage1), ("s2", self.stage2)):
            if clf is None:
                continue
            for key, arr in clf.arrays().items():
                arrays[f"{name}.{key}"] = arr
            stages.append({"name": name, "hidden": list(clf.hidden), "hyperparameters": clf.get_params()})
        if self.ngram is not None:
            for key, arr in self.ngram.arrays().items():
                arrays[f"ngram.{key}"] = arr
        meta = {"format": FORMAT, "format_version": FORMAT_VERSION, "feature_version": FEATURE_VERSION,
                "features": list(FEATURE_NAMES), "context_features": list(CONTEXT_NAMES),
                "stages": stages, "threshold": self.threshold,
                "ngram": None if self.ngram is None else self.ngram.params(),
                **(metadata if metadata is not None else self.metadata)}
        path = Path(path)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **{k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()})
        metadata_path(path).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        self.metadata = meta


def load(path: str | Path) -> BlockModel:
    """Load and validate a block model.

    Refuses with :class:`ModelError`: a missing file or metadata, another
    format or feature version or feature list, pickled or non-float arrays,
    shapes that do not chain, non-finite values, unknown arrays.
    """
    from .features import CONTEXT_NAMES, FEATURE_NAMES, FEATURE_VERSION

    path = Path(path)
    if not path.is_file():
        raise ModelError(f"model file not found: {path}")
    meta_file = metadata_path(path)
    if not meta_file.is_file():
        raise ModelError(f"model metadata not found: {meta_file} (expected next to {path.name})")
    try:
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"unreadable model metadata {meta_file}: {exc}") from exc
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
            list(meta.get("context_features", [])) != list(CONTEXT_NAMES)):
        raise ModelError(f"{path}: the model's feature list differs from this version's")
    stages = meta.get("stages")
    if not isinstance(stages, list) or not 1 <= len(stages) <= 2:
        raise ModelError(f"{path}: metadata 'stages' must list one or two stages")
    threshold = meta.get("threshold", 0.5)
    if not isinstance(threshold, (int, float)) or not 0.0 < threshold < 1.0:
        raise ModelError(f"{path}: threshold must be a number in (0, 1)")

    arrays = _read_arrays(path)
    ngram = None
    if meta.get("ngram") is not None:
        from .ngrams import NgramClassifier

        ngram = NgramClassifier.from_arrays({k[6:]: v for k, v in arrays.items() if k.startswith("ngram.")},
                                            meta["ngram"], source=str(path))
    n_in = len(FEATURE_NAMES) + (1 if ngram is not None else 0)
    classifiers = []
    for i, stage in enumerate(stages):
        hidden = stage.get("hidden") if isinstance(stage, dict) else None
        if not isinstance(hidden, list) or not all(isinstance(h, int) and h > 0 for h in hidden):
            raise ModelError(f"{path}: stage {i + 1} 'hidden' must be a list of positive integers")
        inputs = n_in + (len(CONTEXT_NAMES) if i else 0)
        classifiers.append(_classifier_from(arrays, f"s{i + 1}", hidden, inputs, path))
    known = {k for k in arrays if k.startswith("ngram.")} if ngram is not None else set()
    for i, clf in enumerate(classifiers):
        known |= {f"s{i + 1}.{k}" for k in clf.arrays()}
    unknown = set(arrays) - known
    if unknown:
        raise ModelError(f"{path}: unexpected arrays {sorted(unknown)}")
    return BlockModel(classifiers[0], classifiers[1] if len(classifiers) > 1 else None,
                      threshold=float(threshold), ngram=ngram, metadata=meta)


def _classifier_from(arrays: dict[str, np.ndarray], prefix: str, hidden: list[int], inputs: int,
                     path: Path) -> MLPClassifier:
    """One stage's classifier from its arrays, checking every shape."""
    sizes = [inputs, *hidden, 1]
    expected = {"mean": (inputs,), "scale": (inputs,)}
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
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


_loaded: dict[tuple[str, int, int], BlockModel] = {}


def load_cached(path: str | Path) -> BlockModel:
    """:func:`load` once per file and process (keyed by path, size and mtime).

    Scrapy workers extract many pages with one model; a changed file is
    reloaded.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ModelError(f"model file not found: {path}") from exc
    key = (os.fspath(path), st.st_size, st.st_mtime_ns)  # one stat per page, no path resolution
    model = _loaded.get(key)
    if model is None:
        model = load(Path(path))
        if len(_loaded) >= 16:
            _loaded.clear()
        _loaded[key] = model
    return model


DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "default.npz"


def default_model() -> BlockModel:
    """The model shipped in the package (see its JSON for how it was trained)."""
    global _default
    if _default is None:
        _default = load(DEFAULT_MODEL)
    return _default


_default: BlockModel | None = None


def select(doc: Any, span: Any, model: BlockModel, *, smooth: bool = False,
           headline: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Keep mask and content probabilities of a document's blocks.

    ``smooth`` (the ``auto`` method) averages each probability with its
    neighbours' (content comes in runs, a stray caption inside the article
    or a lone teaser outside it flips), then joins the block that repeats
    ``headline`` (the page title) when it stands just before the kept text.
    Long blocks made of link text alone (menus whose links wrap whole
    paragraphs) are never kept beside other text. A page with text never comes back empty:
    when no block passes, the blocks within half of the best probability
    are kept.
    """
    from .features import _window_mean, block_features

    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool), np.zeros(0)
    p = model.predict_document(doc, block_features(doc, span))
    q = p
    if smooth:
        q = SMOOTH_SELF * p + (1.0 - SMOOTH_SELF) * _window_mean(p, SMOOTH_HALF)
        # Neighbours lift captions and short lines, not menus: a block that
        # is mostly link text keeps its own probability when that is lower.
        links = doc.link_words > SMOOTH_MAX_LINK * doc.words
        q = np.where(links, np.minimum(q, p), q)
    keep = q >= model.threshold
    if not keep.any():
        keep = q >= 0.5 * float(q.max())
    elif smooth:
        keep = keep | _same_article(doc, keep)
    lists = doc.words >= LINK_LIST_WORDS
    lists &= doc.link_words >= LINK_LIST_SHARE * doc.words
    if (keep & lists).any() and (keep & ~lists).any():
        keep = keep & ~lists
    if smooth and headline:
        keep = _join_headline(doc, keep, headline)
    return keep, q


def _same_article(doc: Any, keep: np.ndarray) -> np.ndarray:
    """Long, link-free blocks in the element that holds most kept words (or a
    child of it): paragraphs of the article the model left out."""
    container = np.asarray(doc.container, dtype=np.int64)
    parents = np.asarray(doc.el_parent, dtype=np.int64)
    words = doc.words.astype(np.float64)
    owner = np.where(container > 0, parents[container], 0)
    main_words = np.bincount(owner[keep], words[keep], len(parents))
    main = int(np.argmax(main_words))
    if main == 0:
        return np.zeros(len(keep), dtype=bool)
    inside = (owner == main) | (container == main)
    return inside & (words >= SAME_ARTICLE_WORDS) & (doc.link_words <= 0.1 * words)


def _join_headline(doc: Any, keep: np.ndarray, headline: str) -> np.ndarray:
    """Add the headline block left out just before the kept text.

    Articles open with their headline, often in markup of its own (a short
    ``h1`` the model scores like a menu item); the page title names it.
    """
    from .features import _WORD_RE

    wanted = _WORD_RE.findall(headline.lower())
    if len(wanted) < 2 or not keep.any():
        return keep
    first = int(np.flatnonzero(keep)[0])
    for block in range(max(0, first - HEADLINE_REACH), first):
        if _WORD_RE.findall(doc.texts[block].lower()) == wanted:
            keep = keep.copy()
            keep[block] = True
            break
    return keep


#: ``auto`` smoothing: weight of the block's own probability, half-width of the neighbour window.
SMOOTH_SELF = 0.7
SMOOTH_HALF = 2
#: Words a left-out block needs to join the kept article's element.
SAME_ARTICLE_WORDS = 25
#: Blocks whose link words exceed this share of their words are never lifted by smoothing.
SMOOTH_MAX_LINK = 0.5
#: A block of at least this many words, this share of them link text, is a link list, never content.
LINK_LIST_WORDS = 50
LINK_LIST_SHARE = 0.95
#: How many blocks before the kept text the headline may stand.
HEADLINE_REACH = 10


def confidence(doc: Any, keep: np.ndarray, p: np.ndarray) -> float:
    """How much to trust a learned extraction, in [0, 1].

    High when the model was decisive (probabilities far from the threshold,
    weighted by words), the kept text is sure content and long enough.
    """
    if not keep.any():
        return 0.0
    words = doc.words.astype(np.float64)
    total = max(float(words.sum()), 1.0)
    decisive = float((np.abs(2.0 * p - 1.0) * words).sum()) / total
    kept_words = float(words[keep].sum())
    sure = float((p[keep] * words[keep]).sum()) / max(kept_words, 1.0)
    length = min(1.0, math.log1p(kept_words) / math.log1p(400.0))
    return float(min(1.0, max(0.0, 0.4 * decisive + 0.3 * sure + 0.3 * length)))


def _read_arrays(path: Path) -> dict[str, np.ndarray]:
    """All arrays of an .npz as float32, refusing pickles, non-float and non-finite data."""
    try:
        with np.load(path, allow_pickle=False) as data:
            names = list(data.files)
            raw = {name: data[name] for name in names}
    except ValueError as exc:  # object arrays need pickle, which is refused
        raise ModelError(f"{path}: refusing pickled or object arrays ({exc})") from exc
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise ModelError(f"{path}: not a readable .npz file ({exc})") from exc
    out: dict[str, np.ndarray] = {}
    for name, arr in raw.items():
        if arr.dtype.kind != "f":
            raise ModelError(f"{path}: array {name!r} has dtype {arr.dtype}, expected floats")
        if not np.isfinite(arr).all():
            raise ModelError(f"{path}: array {name!r} contains NaN or infinite values")
        out[name] = arr.astype(np.float32)
    return out
