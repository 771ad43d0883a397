"""Worker targets for the pool tests: behaviour chosen by the page body.

Imported by worker processes (they inherit the test run's ``sys.path``), so
it stays light: no Scrapy, no extraction stack.
"""

from __future__ import annotations

import os
import resource
import signal
import time
from typing import Any

from scrapy_bte.result import Extraction


def slow_or_crash(
    body: bytes,
    encoding: str | None,
    content_type: str | None,
    url: str | None,
    method: str | None,
    options: dict[str, Any],
) -> dict[str, Any]:
    """``sleep:S`` sleeps S seconds, ``exit:N`` calls ``os._exit(N)``,
    ``segv`` kills itself with SIGSEGV, ``raise`` raises, ``alloc:M`` holds
    M MiB of written memory, ``limits`` reports the worker's heap cap and
    thread settings as its text, ``nice`` its niceness; a returned result
    echoes the body as its text and names the worker pid in ``paragraphs[1]``."""
    cmd, _, arg = body.decode(encoding or "utf-8").partition(":")
    if cmd == "sleep":
        time.sleep(float(arg))
    elif cmd == "exit":
        os._exit(int(arg))
    elif cmd == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif cmd == "raise":
        raise ValueError(f"hostile page {url}")
    text = body.decode(encoding or "utf-8")
    if cmd == "alloc":
        held = bytearray(int(float(arg) * 2**20))  # zero-filled: the pages are written
        text = f"alloc:{len(held) >> 20}"
    elif cmd == "nice":
        text = str(os.nice(0))
    elif cmd == "limits":
        soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
        text = f"{soft} {os.environ.get('OPENBLAS_NUM_THREADS')} {os.environ.get('OMP_NUM_THREADS')}"
    # The second paragraph tells the tests which worker ran the job.
    paragraphs = [text, f"pid={os.getpid()}"]
    return Extraction(
        text=text, paragraphs=paragraphs, title=url, method=method or "echo", words=len(text.split())
    ).to_dict()


def returns_garbage(*args: Any) -> Any:
    """A target breaking its contract (not a dict)."""
    return 42


def ppe_task(body: bytes) -> dict[str, Any]:
    """The same behaviours for a stock ProcessPoolExecutor."""
    return slow_or_crash(body, None, None, None, None, {})
