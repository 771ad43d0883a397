"""Every parity test here runs with the C passes switched on, whatever ``SCRAPY_BTE_NATIVE`` says.

A test reads its C pass through the package's own dispatch (``read_bits(raw)``) and its
Python reference by name (``attribute_bits_reference``) or under ``native(False)``. Where
the extension is not built the C-pass tests skip (``cases.needs_c``), except in CI
(``SCRAPY_BTE_REQUIRE_ACCEL``), where switching on fails instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from scrapy_bte.core.accel import native, native_built


@pytest.fixture(scope="module", autouse=True)
def _native_on() -> Iterator[None]:
    # Module scope: hypothesis refuses function-scoped fixtures around its examples.
    if native_built() or os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"):
        with native():
            yield
    else:
        yield
