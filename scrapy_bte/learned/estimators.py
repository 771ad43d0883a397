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
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.blas import one_thread
from ..errors import ModelError


def relu_forward(
    weights: list[np.ndarray], biases: list[np.ndarray], Z: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray]:
    """Standardised inputs ``Z`` through dense layers with ReLU between them: the inputs and
    hidden activations (for back-propagation) and the last layer's raw output."""
    acts = [Z]
    h = Z
    last = len(weights) - 1
    for i, (w, b) in enumerate(zip(weights, biases)):
        h = h @ w + b
        if i < last:
            h = np.maximum(h, 0.0)
            acts.append(h)
    return acts, h


class MLPClassifier:
    """Binary classifier: ``hidden=()`` is logistic regression, ``(32, 16)`` two ReLU layers."""

    def __init__(
        self,
        hidden: Sequence[int] = (32, 16),
        *,
        epochs: int = 40,
        batch_size: int = 512,
        learning_rate: float = 2e-3,
        l2: float = 1e-5,
        class_weight: str | None = "balanced",
        validation: float = 0.1,
        patience: int = 5,
        seed: int = 0,
    ) -> None:
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
        return {
            "hidden": list(self.hidden),
            "epochs": self.epochs,
            "batch_size": self.batch_size,
            "learning_rate": self.learning_rate,
            "l2": self.l2,
            "class_weight": self.class_weight,
            "validation": self.validation,
            "patience": self.patience,
            "seed": self.seed,
        }

    # -- inference ---------------------------------------------------------
    def _fitted(self) -> tuple[np.ndarray, np.ndarray]:
        """``(mean_, scale_)`` of a fitted model; ModelError before :meth:`fit`."""
        if self.mean_ is None or self.scale_ is None or not self.weights_:
            raise ModelError("model is not fitted")
        return self.mean_, self.scale_

    def decision_function(self, X: np.ndarray, *columns: np.ndarray) -> np.ndarray:
        """Log-odds of class 1 per row.

        ``columns``: further inputs (1-D or 2-D, a row per row of ``X``) that
        stand to the right of ``X``, so a caller need not stack them first.
        The standardised matrix is built by :func:`standardized`.
        """
        mean, scale = self._fitted()
        h = standardized((X, *columns), mean, scale)
        last = len(self.weights_) - 1
        for i, (w, b) in enumerate(zip(self.weights_, self.biases_)):
            h = h @ w
            h += b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """``(n, 2)`` probabilities of class 0 and 1, as in scikit-learn."""
        p = self.positive_proba(X)
        return np.column_stack((1.0 - p, p))

    def positive_proba(self, X: np.ndarray, *columns: np.ndarray) -> np.ndarray:
        """Probability of class 1 per row (column 1 of :meth:`predict_proba`, without building column 0).

        ``columns`` as in :meth:`decision_function`.
        """
        return sigmoid(self.decision_function(X, *columns))

    def predict(self, X: np.ndarray, threshold: float = 0.5) -> np.ndarray:
        return (self.predict_proba(X)[:, 1] >= threshold).astype(np.int64)

    # -- training ------------------------------------------------------------
    def fit(
        self,
        X: np.ndarray,
        y: np.ndarray,
        sample_weight: np.ndarray | None = None,
        groups: np.ndarray | None = None,
        progress: Any = None,
    ) -> MLPClassifier:
        """Train on rows ``X`` with 0/1 labels ``y``.

        ``sample_weight`` scales each row's loss; ``groups`` (e.g. page ids)
        keeps whole groups on one side of the validation split;
        ``progress(epoch, epochs, train_loss, val_loss)`` is called per epoch.
        BLAS runs on one thread (:func:`~scrapy_bte.core.blas.one_thread`), so a seed
        gives the same weights on a machine of any number of cores.
        """
        with one_thread():
            return self._fit(X, y, sample_weight, groups, progress)

    def _fit(
        self,
        X: np.ndarray,
        y: np.ndarray,
        sample_weight: np.ndarray | None,
        groups: np.ndarray | None,
        progress: Any,
    ) -> MLPClassifier:
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
        self.weights_ = [
            (rng.standard_normal((a, b)) * math.sqrt(2.0 / a) * (1.0 if self.hidden else 0.0)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
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
        acts, h = relu_forward(self.weights_, self.biases_, Z)
        return acts, h[:, 0]

    def _loss(self, Z: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
        _, logit = self._forward(Z)
        return float((w * _bce(logit, y)).mean())

    def _gradients(self, Z: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, list[np.ndarray]]:
        acts, logit = self._forward(Z)
        loss = float((w * _bce(logit, y)).mean())
        delta = ((sigmoid(logit) - y) * w / len(y))[:, None].astype(np.float32)
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
        """The fitted state as named float arrays (what :meth:`BlockModel.save <scrapy_bte.learned.model.BlockModel.save>` writes)."""
        mean, scale = self._fitted()
        out = {"mean": mean, "scale": scale}
        for i, (w, b) in enumerate(zip(self.weights_, self.biases_)):
            out[f"W{i}"] = w
            out[f"b{i}"] = b
        return out


def averaged(members: Sequence[MLPClassifier]) -> MLPClassifier:
    """One classifier whose log-odds are the mean of ``members``' log-odds, to the rounding.

    Bagging without a runtime cost of its own: the members (same inputs and
    depth, e.g. one stage trained with several seeds) become one wider
    network. Each member's standardisation is folded into its first layer
    against the first member's mean and scale; the first layers stand side
    by side, deeper hidden layers block-diagonally, and the output layer
    reads every member's last hidden units with its weights divided by the
    member count. Logistic members average to one logistic model.
    """
    members = list(members)
    if not members:
        raise ValueError("no members to average")
    depth = len(members[0].weights_)
    if any(len(m.weights_) != depth for m in members):
        raise ValueError("members must have the same number of layers")
    mean, scale = members[0]._fitted()
    k = len(members)
    firsts, first_biases = [], []
    for m in members:
        m_mean, m_scale = m._fitted()
        if m_mean.shape != mean.shape:
            raise ValueError("members must read the same inputs")
        # (x - m_mean) / m_scale == z * (scale / m_scale) + (mean - m_mean) / m_scale, z = (x - mean) / scale
        w0 = m.weights_[0].astype(np.float64)
        firsts.append((scale / m_scale).astype(np.float64)[:, None] * w0)
        first_biases.append(((mean - m_mean) / m_scale).astype(np.float64) @ w0 + m.biases_[0])
    out = MLPClassifier(
        tuple(k * h for h in members[0].hidden),
        **{key: value for key, value in members[0].get_params().items() if key != "hidden"},
    )
    out.mean_, out.scale_ = mean.copy(), scale.copy()
    if depth == 1:
        weights = [sum(firsts) / k]
        biases = [sum(first_biases) / k]
    else:
        weights = [np.concatenate(firsts, axis=1)]
        biases = [np.concatenate(first_biases)]
        for i in range(1, depth - 1):
            weights.append(_block_diagonal([m.weights_[i] for m in members]))
            biases.append(np.concatenate([m.biases_[i] for m in members]))
        weights.append(np.concatenate([m.weights_[-1] for m in members], axis=0) / k)
        biases.append(sum(m.biases_[-1].astype(np.float64) for m in members) / k)
    out.weights_ = [np.asarray(w, dtype=np.float32) for w in weights]
    out.biases_ = [np.asarray(b, dtype=np.float32) for b in biases]
    return out


def _block_diagonal(blocks: Sequence[np.ndarray]) -> np.ndarray:
    rows = sum(b.shape[0] for b in blocks)
    cols = sum(b.shape[1] for b in blocks)
    out = np.zeros((rows, cols), dtype=np.float64)
    r = c = 0
    for b in blocks:
        out[r : r + b.shape[0], c : c + b.shape[1]] = b
        r += b.shape[0]
        c += b.shape[1]
    return out


class LogisticRegression(MLPClassifier):
    """The single-layer model: a linear decision over standardised features."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("hidden", None)
        super().__init__(hidden=(), **kwargs)


def standardized(parts: tuple[np.ndarray, ...], mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The float32 ``(x - mean) / scale`` of the column blocks ``parts`` side by side, C order.

    Float32 from the start, as the stages compute. (A C pass wrote each value
    once into the matrix instead of numpy's three passes, and saved 0.9 % of
    ``extract()``'s time: less than a second implementation costs, see
    ``docs/evaluation.md``.)
    """
    if len(parts) == 1:
        h = np.subtract(parts[0], mean, dtype=np.float32)
    else:
        # Each block cast into its columns of one float32 buffer (numpy's column_stack would
        # make a float64 copy first wherever a block is float64), then the same float32 steps.
        h = np.empty((len(parts[0]), len(mean)), dtype=np.float32)
        col = 0
        for part in parts:
            width = part.shape[1] if part.ndim == 2 else 1
            h[:, col : col + width] = part if part.ndim == 2 else part[:, None]
            col += width
        h -= mean
    h /= scale
    return h


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, as a tanh (no overflow warning for large |z|)."""
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
    held = rng.choice(ids, size=max(1, round(len(ids) * share)), replace=False)
    mask = np.isin(groups, held)
    return np.flatnonzero(~mask), np.flatnonzero(mask)


class SoftmaxClassifier:
    """Multinomial classifier over ``n_classes`` classes: ``hidden=()`` is multinomial logistic
    regression, ``(16,)`` one ReLU layer.

    For page-level tasks (a row per page, a few thousand rows): full-batch Adam
    on the weighted cross-entropy with L2, inputs standardised with the
    training mean/scale, fixed seed and a fixed number of epochs (no
    validation split: the folds of the caller measure generalisation).
    """

    def __init__(
        self,
        n_classes: int,
        hidden: Sequence[int] = (),
        *,
        epochs: int = 600,
        learning_rate: float = 0.02,
        l2: float = 1e-3,
        seed: int = 0,
    ) -> None:
        if n_classes < 2:
            raise ValueError("n_classes must be at least 2")
        self.n_classes = int(n_classes)
        self.hidden = tuple(int(h) for h in hidden)
        self.epochs = epochs
        self.learning_rate = learning_rate
        self.l2 = l2
        self.seed = seed
        self.mean_: np.ndarray | None = None
        self.scale_: np.ndarray | None = None
        self.weights_: list[np.ndarray] = []
        self.biases_: list[np.ndarray] = []

    def get_params(self) -> dict[str, Any]:
        return {
            "n_classes": self.n_classes,
            "hidden": list(self.hidden),
            "epochs": self.epochs,
            "learning_rate": self.learning_rate,
            "l2": self.l2,
            "seed": self.seed,
        }

    def _logits(self, Z: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        return relu_forward(self.weights_, self.biases_, Z)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """``(n, n_classes)`` class probabilities per row."""
        if self.mean_ is None or self.scale_ is None or not self.weights_:
            raise ModelError("model is not fitted")
        Z = (np.asarray(X, dtype=np.float32).reshape(-1, len(self.mean_)) - self.mean_) / self.scale_
        return _softmax(self._logits(Z)[1])

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.predict_proba(X).argmax(axis=1)

    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> SoftmaxClassifier:
        """Train on rows ``X`` with class indices ``y`` (``0..n_classes-1``).

        BLAS runs on one thread, as in :meth:`MLPClassifier.fit`: with more, the sums of the
        larger products here came out in another order, and the page-type classifier trained
        on a two-core machine differed from the one trained on one core.
        """
        with one_thread():
            return self._fit(X, y, sample_weight)

    def _fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None) -> SoftmaxClassifier:
        X = np.asarray(X, dtype=np.float32)
        y = np.asarray(y, dtype=np.int64).ravel()
        n, d = X.shape
        if len(y) != n:
            raise ValueError("X and y have different numbers of rows")
        if n == 0 or y.min() < 0 or y.max() >= self.n_classes:
            raise ValueError(f"labels must lie in 0..{self.n_classes - 1}")
        w = np.ones(n, dtype=np.float32) if sample_weight is None else np.asarray(sample_weight, np.float32)
        w = w / max(float(w.sum()), 1e-12)
        rng = np.random.default_rng(self.seed)
        self.mean_ = X.mean(axis=0).astype(np.float32)
        std = X.std(axis=0)
        self.scale_ = np.where(std > 1e-6, std, 1.0).astype(np.float32)
        Z = (X - self.mean_) / self.scale_
        onehot = np.zeros((n, self.n_classes), dtype=np.float32)
        onehot[np.arange(n), y] = 1.0
        sizes = [d, *self.hidden, self.n_classes]
        self.weights_ = [
            (rng.standard_normal((a, b)) * math.sqrt(2.0 / a) * (1.0 if self.hidden else 0.0)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
        self.biases_ = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
        params = self.weights_ + self.biases_
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        for step in range(1, self.epochs + 1):
            acts, logits = self._logits(Z)
            delta = ((_softmax(logits) - onehot) * w[:, None]).astype(np.float32)
            grads_w: list[np.ndarray] = [np.empty(0)] * len(self.weights_)
            grads_b: list[np.ndarray] = [np.empty(0)] * len(self.weights_)
            for i in range(len(self.weights_) - 1, -1, -1):
                grads_w[i] = acts[i].T @ delta + self.l2 * self.weights_[i]
                grads_b[i] = delta.sum(axis=0)
                if i:
                    delta = (delta @ self.weights_[i].T) * (acts[i] > 0)
            lr = self.learning_rate * math.sqrt(1 - beta2**step) / (1 - beta1**step)
            for p, g, mi, vi in zip(params, grads_w + grads_b, m, v):
                mi *= beta1
                mi += (1 - beta1) * g
                vi *= beta2
                vi += (1 - beta2) * g * g
                p -= (lr * mi / (np.sqrt(vi) + eps)).astype(np.float32)
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """The fitted state as named float arrays: ``mean``, ``scale``, ``W0``, ``b0``, ..."""
        if self.mean_ is None or self.scale_ is None or not self.weights_:
            raise ModelError("model is not fitted")
        out = {"mean": self.mean_, "scale": self.scale_}
        for i, (w, b) in enumerate(zip(self.weights_, self.biases_)):
            out[f"W{i}"] = w
            out[f"b{i}"] = b
        return out


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)
