"""Character n-gram keep/discard classifier (the LingPipe write-up's boilerplate filter).

The write-up trained a character 6-gram language model per class ("keep",
"discard") on block texts and kept a block when "keep" explained it
better. Here: character n-grams (``n = min_n..max_n``, default 3..6) are
hashed into :data:`BUCKETS` buckets with a rolling polynomial hash computed
by numpy over the code points of all blocks at once (no Python loop per
character), and a multinomial naive Bayes with add-``alpha`` smoothing
gives per-bucket log-likelihood ratios. A block's score is the *average*
ratio over its n-grams plus the prior log-odds, so long and short blocks are
on one scale; it is used as an extra stage-1 feature of the block model.

What it learns is the vocabulary of boilerplate ("Share this", "All rights
reserved", "Read more"), which is language-specific: see the README for
the leave-one-set-out measurement that decides whether the shipped model
uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ModelError

BUCKETS = 1 << 18
_MULT = np.uint64(0x9E3779B97F4A7C15)
_BASE = np.uint64(1_000_003)


def _codepoints(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Code points of all texts joined by a separator, and the owning text of each."""
    joined = "\x00".join(t.lower() for t in texts)
    cp = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)
    lengths = np.fromiter((len(t) + 1 for t in texts), np.int64, len(texts))
    # lower() can change a text's length; recount from the joined string in that rare case.
    if int(lengths.sum()) - 1 != len(cp):
        lengths = np.fromiter((len(t.lower()) + 1 for t in texts), np.int64, len(texts))
    owner = np.repeat(np.arange(len(texts)), lengths)[: len(cp)]
    return cp, owner


def hashed_ngrams(texts: Sequence[str], min_n: int = 3, max_n: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """(bucket, owning text) of every character n-gram that does not cross a text boundary."""
    if not texts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    cp, owner = _codepoints(texts)
    buckets, owners = [], []
    h = np.zeros(len(cp), dtype=np.uint64)
    shift = np.uint64(64 - int(np.log2(BUCKETS)))
    with np.errstate(over="ignore"):
        for n in range(1, max_n + 1):
            m = len(cp) - n + 1
            if m <= 0:
                break
            h = h[:m] * _BASE + cp[n - 1 : n - 1 + m] + np.uint64(n)
            if n >= min_n:
                valid = owner[:m] == owner[n - 1 : n - 1 + m]
                buckets.append(((h[valid] * _MULT) >> shift).astype(np.int64))
                owners.append(owner[:m][valid])
    if not buckets:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(buckets), np.concatenate(owners)


class NgramClassifier:
    """Multinomial naive Bayes over hashed character n-grams of block texts."""

    def __init__(self, min_n: int = 3, max_n: int = 6, alpha: float = 0.5) -> None:
        if not 1 <= min_n <= max_n <= 8:
            raise ValueError("need 1 <= min_n <= max_n <= 8")
        self.min_n, self.max_n, self.alpha = min_n, max_n, alpha
        self.log_ratio_: np.ndarray | None = None
        self.prior_: float = 0.0

    def params(self) -> dict[str, Any]:
        return {"min_n": self.min_n, "max_n": self.max_n, "alpha": self.alpha, "buckets": BUCKETS}

    def fit(self, texts: Sequence[str], y: np.ndarray, sample_weight: np.ndarray | None = None) -> NgramClassifier:
        y = np.asarray(y, dtype=bool)
        w = np.ones(len(texts)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        counts = np.zeros((2, BUCKETS))
        step = 20_000  # bounded memory: n-grams of a few thousand blocks at a time
        for start in range(0, len(texts), step):
            b, o = hashed_ngrams(texts[start : start + step], self.min_n, self.max_n)
            o = o + start
            for cls in (0, 1):
                sel = y[o] == bool(cls)
                counts[cls] += np.bincount(b[sel], w[o[sel]], BUCKETS)
        smoothed = counts + self.alpha
        logp = np.log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))
        self.log_ratio_ = (logp[1] - logp[0]).astype(np.float32)
        pos, neg = float(w[y].sum()), float(w[~y].sum())
        self.prior_ = float(np.log(max(pos, 1e-9) / max(neg, 1e-9)))
        return self

    def block_scores(self, texts: Sequence[str]) -> np.ndarray:
        """Average n-gram log-likelihood ratio per text plus the prior (0 for texts without n-grams)."""
        if self.log_ratio_ is None:
            raise ModelError("n-gram classifier is not fitted")
        n = len(texts)
        b, o = hashed_ngrams(texts, self.min_n, self.max_n)
        total = np.bincount(o, self.log_ratio_[b], n)
        count = np.bincount(o, minlength=n)
        return np.where(count > 0, total / np.maximum(count, 1) + self.prior_, 0.0)

    def arrays(self) -> dict[str, np.ndarray]:
        if self.log_ratio_ is None:
            raise ModelError("n-gram classifier is not fitted")
        return {"log_ratio": self.log_ratio_, "prior": np.array([self.prior_], dtype=np.float32)}

    @classmethod
    def from_arrays(
        cls, arrays: dict[str, np.ndarray], params: dict[str, Any], source: str = "model"
    ) -> NgramClassifier:
        try:
            model = cls(int(params["min_n"]), int(params["max_n"]), float(params["alpha"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{source}: bad n-gram parameters {params!r}") from exc
        if int(params.get("buckets", -1)) != BUCKETS:
            raise ModelError(f"{source}: n-gram buckets {params.get('buckets')!r}, this version hashes into {BUCKETS}")
        ratio, prior = arrays.get("log_ratio"), arrays.get("prior")
        if ratio is None or prior is None or ratio.shape != (BUCKETS,) or prior.shape != (1,):
            raise ModelError(f"{source}: n-gram arrays missing or of the wrong shape")
        model.log_ratio_ = ratio.astype(np.float32)
        model.prior_ = float(prior[0])
        return model
