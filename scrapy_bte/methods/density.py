"""Text density filtering (the AI-Depot and density-filter write-ups).

A block's density is how much visible text its markup produced. Two
published forms: ``ratio`` = text / bytes and ``smoothed`` =
(text + 1) / (text + markup + 1), which keeps very short blocks from
scoring 0 or 1 on a single character.

Thresholds, each computed per page:

- ``fixed``: 0.5.
- ``mean``: the page's average block density.
- ``half-minus-std``: 0.5 minus the standard deviation of the densities.
- ``gaussian``: fit two Gaussians (markup-like and text-like blocks) to the
  densities and take the point between their means where
  ``p * N(t; m_text, s_text) = (1 - p) * N(t; m_markup, s_markup)``, i.e.
  where a block is as likely text as markup.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import accel
from ..errors import ConfigError
from .reasons import Reason

#: The C pass of the EM fit of the ``gaussian`` threshold.
_EM = accel.load("methods.density")
_SQRT_2PI = math.sqrt(2 * math.pi)

FORMS = ("ratio", "smoothed")
THRESHOLDS = ("fixed", "mean", "half-minus-std", "gaussian")


def densities(doc, form: str = "ratio") -> np.ndarray:  # doc: Document
    chars = doc.chars.astype(np.float64)
    total = np.maximum(doc.bytes.astype(np.float64), chars)
    if form == "ratio":
        return np.divide(chars, total, out=np.zeros_like(chars), where=total > 0)
    if form == "smoothed":
        return (chars + 1.0) / (total + 1.0)
    raise ConfigError(f"density form must be one of {FORMS}, got {form!r}")


def gaussian_threshold(d: np.ndarray, iterations: int = 12) -> float:
    """Decision point of a two-component 1-D Gaussian mixture fitted by EM.

    The start (the moments of the values on either side of the mean) and
    the EM loop run in C when ``scrapy_bte._native.density`` is built
    (unless the switch of :mod:`scrapy_bte.core.accel` is off), else in
    :func:`fit_reference`.
    """
    d = np.asarray(d, dtype=np.float64)
    n = len(d)
    if n == 0:
        return 0.5
    split, std = mean_std(d)
    if n < 2 or std < 1e-9:
        return split
    floor = max(1e-3, std * 0.05)
    c = _EM.use()
    fitted = c.fit(d, split, floor, iterations) if c is not None else fit_reference(d, split, floor, iterations)
    if fitted is None:
        return split
    m0, m1, s0, s1, p = fitted
    if m0 > m1:
        m0, m1, s0, s1, p = m1, m0, s1, s0, 1.0 - p
    return equal_posterior(m0, s0, m1, s1, p)


def mean_std(d: np.ndarray) -> tuple[float, float]:
    """``(d.mean(), d.std())`` of a non-empty float64 vector, equal to the bit.

    The same ufunc calls as numpy's ``_mean`` and ``_var`` (one pairwise sum
    for the mean, a second over the squared deviations), without their
    argument handling and the mean computed twice: most of their cost on a
    page's few hundred densities.
    """
    n = len(d)
    mean = float(np.add.reduce(d)) / n
    dev = d - mean
    np.multiply(dev, dev, out=dev)
    return mean, math.sqrt(float(np.add.reduce(dev)) / n)


def fit_reference(
    d: np.ndarray, split: float, floor: float, iterations: int
) -> tuple[float, float, float, float, float] | None:
    """The numpy reference of ``scrapy_bte._native.density.fit``: the start and
    the EM updates; ``(m0, m1, s0, s1, p)``, or None when ``split`` leaves
    one side empty."""
    n = len(d)
    lo, hi = d[d <= split], d[d > split]
    if len(lo) == 0 or len(hi) == 0:
        return None
    m = np.array([lo.mean(), hi.mean()])
    s = np.maximum(np.array([lo.std(), hi.std()]), floor)
    p = len(hi) / n
    resp = np.empty((2, n))
    for _ in range(iterations):
        z = (d - m[:, None]) / s[:, None]
        pdf = np.exp(-0.5 * z * z) * (np.array([1.0 - p, p]) / (s * _SQRT_2PI))[:, None]
        resp[1] = pdf[1] / (pdf[0] + pdf[1] + 1e-300)  # responsibility of the text component
        resp[0] = 1.0 - resp[1]
        counts = resp.sum(axis=1)
        if counts[1] < 1e-6 or counts[0] < 1e-6:
            break
        old = m[1]
        m = resp @ d / counts
        dev = d - m[:, None]
        s = np.maximum(np.sqrt((resp * dev * dev).sum(axis=1) / counts), floor)
        p = min(max(float(counts[1]) / n, 1e-3), 1 - 1e-3)
        if abs(m[1] - old) < 1e-4:
            break
    return float(m[0]), float(m[1]), float(s[0]), float(s[1]), p


def equal_posterior(m0: float, s0: float, m1: float, s1: float, p: float) -> float:
    """t in [m0, m1] with (1-p) N(t; m0, s0) = p N(t; m1, s1); class 1 is text.

    Taking logs gives a quadratic a t^2 + b t + c = 0; with equal variances it
    degenerates to a linear equation. The roots are taken in the form that
    avoids cancellation (q = -(b + sign(b) sqrt(disc)) / 2, roots q/a and
    c/q), which stays exact when the variances are nearly equal.
    """
    a = 1.0 / (2 * s0**2) - 1.0 / (2 * s1**2)
    b = m1 / s1**2 - m0 / s0**2
    c = m0**2 / (2 * s0**2) - m1**2 / (2 * s1**2) + math.log((p * s0) / ((1 - p) * s1))
    disc = b * b - 4 * a * c
    if a == 0.0:
        roots = [-c / b] if b != 0.0 else []
    elif disc < 0:
        roots = []
    else:
        q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
        # Same order as (-b + r) / 2a, (-b - r) / 2a.
        roots = ([c / q, q / a] if b >= 0 else [q / a, c / q]) if q != 0.0 else [-b / (2 * a)]
    inside = [t for t in roots if m0 <= t <= m1]
    if inside:
        return inside[0]
    return (m0 + m1) / 2


def threshold(d: np.ndarray, rule: str = "gaussian") -> float:
    if rule == "fixed":
        return 0.5
    if len(d) == 0:
        return 0.5
    if rule == "mean":
        return float(d.mean())
    if rule == "half-minus-std":
        return 0.5 - float(d.std())
    if rule == "gaussian":
        return gaussian_threshold(d)
    raise ConfigError(f"density threshold must be one of {THRESHOLDS}, got {rule!r}")


def keep_mask(
    doc, *, form: str = "ratio", rule: str = "gaussian", min_chars: int = 0, reasons: np.ndarray | None = None
) -> np.ndarray:
    """Blocks whose density passes the page's threshold and that are long enough
    (``reasons``, when given, gets which of the two failed)."""
    d = densities(doc, form)
    dense = d >= threshold(d, rule)
    long_enough = doc.chars >= min_chars
    if reasons is not None:
        reasons[:] = np.where(dense, Reason.DENSE, Reason.SPARSE)
        reasons[dense & ~long_enough] = Reason.SHORT
    return dense & long_enough
