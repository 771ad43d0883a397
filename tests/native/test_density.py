"""Text density's threshold (``scrapy_bte._native.density``): the C EM fit against its numpy reference."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte.core.accel import native
from scrapy_bte.methods import density

from .cases import needs_c

# As when these tests were in one file with the document's: skipped where core._scan is not built.
pytestmark = needs_c("core.document")


densities_st = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=0, max_size=400).map(np.array)


@needs_c("methods.density")
@settings(max_examples=300, deadline=None)
@given(densities_st)
def test_em_in_c_matches_numpy(d: np.ndarray) -> None:
    """Same updates, sums in another order: equal to rounding."""
    fast = density.gaussian_threshold(d)
    with native(False):
        ref = density.gaussian_threshold(d)
    assert abs(fast - ref) <= 1e-7


@settings(max_examples=300, deadline=None)
@given(densities_st.filter(len), st.sampled_from((1.0, 1e-3, 1e6)))
def test_mean_std_equal_numpy(d: np.ndarray, scale: float) -> None:
    """The threshold's moments are numpy's to the bit."""
    d = d * scale
    assert density.mean_std(d) == (float(d.mean()), float(d.std()))


@needs_c("methods.density")
def test_em_in_c_on_two_clusters() -> None:
    rng = np.random.default_rng(3)
    d = np.concatenate((rng.normal(0.2, 0.05, 300), rng.normal(0.8, 0.05, 100))).clip(0, 1)
    fast = density.gaussian_threshold(d)
    assert 0.3 < fast < 0.7
    with native(False):
        assert abs(fast - density.gaussian_threshold(d)) <= 1e-9
