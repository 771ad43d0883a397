"""numpy's BLAS on one thread while a page is extracted.

The products an extraction computes are small (a page's blocks times a few
dozen columns), yet an OpenBLAS built for several threads splits the larger
ones, and its helper threads then spin for a while after each product,
waiting for the next: measured over WCXB's pages, the process spent twice
the CPU time of the extraction itself (6.3 against 3.2 ms a page), a second
core burnt for nothing, and in a crawl with a worker per core every worker
does it. :func:`one_thread` limits BLAS to one thread for the duration of an
extraction (threadpoolctl's library handles, a few microseconds a call) and puts the
process's own setting back afterwards; concurrent extractions in several
threads share one limit, set by the first and restored by the last.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

logger = logging.getLogger("scrapy_bte")

_lock = threading.Lock()
_depth = 0
_limiter: Any = None
_controller: Any = None


_blas: list[Any] = []


class _NoLimit:
    """What :func:`_limit` gives where threadpoolctl cannot read the process's libraries."""

    def restore_original_limits(self) -> None:
        pass


class _OneThread:
    """threadpoolctl's ``limit(limits=1, user_api="blas")`` over the BLAS libraries found once:
    each that runs more threads is set to one, and set back to its own number after. (The
    limiter itself reads every library's full information on each call: about 15
    microseconds of a page's extraction, where this reads one number per library.)"""

    def __init__(self, libraries: list[Any]) -> None:
        self._changed: list[tuple[Any, Any]] = []
        for library in libraries:
            threads = library.get_num_threads()
            if threads != 1:
                library.set_num_threads(1)
                self._changed.append((library, threads))

    def restore_original_limits(self) -> None:
        for library, threads in self._changed:
            library.set_num_threads(threads)


def _limit() -> Any:
    global _controller, _blas
    if _controller is None:
        try:
            from threadpoolctl import ThreadpoolController  # ~1 ms, once: it lists the loaded libraries

            _controller = ThreadpoolController()
            _blas = [library for library in _controller.lib_controllers if library.user_api == "blas"]
        except Exception as exc:  # noqa: BLE001 - a slower extraction, never a failed one
            logger.warning("numpy's BLAS threads cannot be limited (%s): extraction may use more CPU", exc)
            _controller = False
    if _controller is False:
        return _NoLimit()
    return _OneThread(_blas)


@contextmanager
def one_thread() -> Iterator[None]:
    """numpy's BLAS limited to one thread inside the ``with`` block."""
    global _depth, _limiter
    with _lock:
        if _depth == 0:
            _limiter = _limit()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                limiter, _limiter = _limiter, None
                limiter.restore_original_limits()
