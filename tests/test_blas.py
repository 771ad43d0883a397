"""numpy's BLAS runs on one thread during an extraction, and the process's own setting comes back."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from scrapy_bte import extract
from scrapy_bte.core import blas
from scrapy_bte.learned import estimators

PAGE = (
    b"<html><body><article>"
    + b"<p>Words of a paragraph that is long enough to keep.</p>" * 40
    + b"</article></body></html>"
)


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def test_one_thread_inside_and_the_setting_back_after() -> None:
    if not _blas_threads():
        pytest.skip("numpy has no BLAS threadpoolctl knows")
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        with blas.one_thread():
            assert set(_blas_threads()) == {1}
            with blas.one_thread():  # nested: still one, and the outer exit restores
                assert set(_blas_threads()) == {1}
            assert set(_blas_threads()) == {1}
        assert _blas_threads() == before


def test_extract_runs_its_products_on_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    if not _blas_threads():
        pytest.skip("numpy has no BLAS threadpoolctl knows")
    seen: list[set[int]] = []
    forward = estimators.MLPClassifier.decision_function

    def spy(self: estimators.MLPClassifier, *args: np.ndarray) -> np.ndarray:
        seen.append(set(_blas_threads()))
        return forward(self, *args)

    monkeypatch.setattr(estimators.MLPClassifier, "decision_function", spy)
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        assert extract(PAGE).text
        assert seen and all(s == {1} for s in seen)
        assert _blas_threads() == before


def test_concurrent_extractions_share_the_limit_and_restore_it_once() -> None:
    if not _blas_threads():
        pytest.skip("numpy has no BLAS threadpoolctl knows")
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        errors: list[Exception] = []

        def work() -> None:
            try:
                for _ in range(20):
                    extract(PAGE)
            except Exception as exc:  # noqa: BLE001 - reported below, in the test thread
                errors.append(exc)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert _blas_threads() == before


def test_extraction_goes_on_where_the_threads_cannot_be_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    import threadpoolctl

    def broken() -> None:
        raise OSError("no libraries to read")

    monkeypatch.setattr(threadpoolctl, "ThreadpoolController", broken)
    monkeypatch.setattr(blas, "_controller", None)
    assert extract(PAGE).text
    assert blas._controller is False  # tried once, then left alone
    assert extract(PAGE).text
