"""The C passes check the buffers they are given: dtype as well as length."""

from __future__ import annotations

import os

import numpy as np
import pytest

from scrapy_bte import ACCELERATED

from .cases import needs_c

# As when these tests were in one file with the document's: skipped where the native extension is not built.
pytestmark = needs_c("core.document")


@pytest.mark.skipif(
    not all(ACCELERATED.values()) and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="some C passes are not built",
)
def test_c_passes_check_dtypes_as_well_as_lengths() -> None:
    """An array of another dtype with the right byte length is refused, not read as the expected type."""
    from scrapy_bte._native import bte as _bte
    from scrapy_bte._native import density as _em
    from scrapy_bte._native import document as _scan
    from scrapy_bte._native import features as _textstats
    from scrapy_bte._native import hints as _hints
    from scrapy_bte._native import labels as _labels

    i8 = np.array([-1, 0, 1], dtype=np.int64)
    f8 = np.ones(3)
    with pytest.raises(TypeError, match="weightless must be a contiguous uint8 or bool array"):
        _bte.runs(f8, 2, np.zeros(2, dtype=np.int16))
    with pytest.raises(TypeError, match="seg_block must be a contiguous int64 array"):
        _bte.span(f8, 2, None, 0, f8)
    with pytest.raises(TypeError, match="d must be a contiguous float64 array"):
        _em.fit(np.ones(3, dtype=np.float32), 0.5, 0.01, 10)
    with pytest.raises(TypeError, match="keep must be a contiguous int64 array"):
        _scan.split_blocks("a\x00b", np.zeros(1))
    with pytest.raises(TypeError, match="seg_words must be a contiguous float64 array"):
        _scan.raw_blocks(np.zeros(2, np.uint8), np.zeros(3, np.int64), i8, i8[:2], 1, 2, 4)
    with pytest.raises(TypeError, match="words must be a contiguous float64 array"):
        _textstats.text_stats(["a", "b", "c"], i8, i8, bytes(65536), bytes(65536))
    with pytest.raises(TypeError, match="out must be a writable contiguous float64 array"):
        _labels.columns(np.zeros(1, np.uint8), np.zeros(1, np.int64), np.zeros((1, 9), np.float32))
    with pytest.raises(TypeError, match="path must be a contiguous int64 array"):
        _hints.unpack(f8, f8, np.zeros((3, 30), np.float32), 15)
