"""Array steps whose numpy form costs a page more than the step itself.

``np.unique(values)`` without its return options asks ``np.ma.is_masked``
first, and numpy imports ``numpy.ma`` lazily: the first call in a process
spends about 7 ms importing it, which a crawl's first listing page (or the
first of a set, in a benchmark that sees each page once) pays on top of its
own 2 ms. The sort below gives the same array without touching ``numpy.ma``.
"""

from __future__ import annotations

import numpy as np


def distinct(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` of a 1-D array: its values sorted, each once."""
    out = np.sort(values)
    if len(out) > 1:
        out = out[np.concatenate((np.ones(1, dtype=bool), out[1:] != out[:-1]))]
    return out
