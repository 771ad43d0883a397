"""The child side of the worker pool: the loop each worker process runs.

A worker imports its target once, then answers jobs read from its pipe one
at a time until the pool sends ``None`` or goes away. It exits by itself
when the pool's process dies (even SIGKILL): a lifeline pipe whose only
writer is that process reads EOF. It ignores SIGINT, so Ctrl-C leaves the
decision to the pool's ``close``.
"""

from __future__ import annotations

import importlib
import os
import resource
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from ..api import extract

Target = Callable[[bytes, "str | None", "str | None", "str | None", "str | None", dict], dict]


def run_extract(
    body: bytes,
    encoding: str | None,
    content_type: str | None,
    url: str | None,
    method: str | None,
    options: dict[str, Any],
) -> dict[str, Any]:
    """The default worker target: real extraction, JSON-safe result.

    ``method=None`` leaves the choice to :func:`scrapy_bte.extract`'s default.
    ``url`` names the page in the pool's messages and resolves the relative
    URLs of its article fields; every target gets it.
    """
    kwargs = dict(options) if method is None else {**options, "method": method}
    result = extract(body, encoding=encoding, content_type=content_type, url=url, **kwargs)
    return result.to_dict()


def describe_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


#: Third field of a job's failure reply when the page ran the worker out of
#: its memory cap: the pool fails the page with its own error and replaces
#: the worker (its heap may be fragmented or half-freed).
OUT_OF_MEMORY = "out-of-memory"
#: Environment variables that keep numeric libraries to one thread: each
#: extra BLAS or OpenMP thread reserves stack and arena address space that
#: would count against the memory cap without ever holding a page.
SINGLE_THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def cap_memory(max_bytes: int) -> None:
    """Limit this process's heap (``RLIMIT_DATA``) to ``max_bytes``.

    Linux ignores ``RLIMIT_RSS``. ``RLIMIT_DATA`` (Linux >= 4.7) counts
    private writable memory, brk heap and anonymous mappings, which is
    where numpy arrays and Python objects live, and not the shared libraries
    and read-only mappings that ``RLIMIT_AS`` would also charge. An
    allocation past it fails, which Python and numpy raise as
    ``MemoryError`` in the job that asked for it.
    """
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = max_bytes if hard == resource.RLIM_INFINITY else min(max_bytes, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def lower_priority(nice: int) -> None:
    """Raise this process's niceness by ``nice`` (``os.nice``).

    A worker at a lower priority than the crawl's process takes only the
    CPU time the reactor leaves idle: when both want a core, the scheduler
    runs the reactor first, so the pool can have a worker on every CPU
    without slowing Scrapy's own work or stalling its event loop. Raising
    niceness needs no privilege; where the platform has no ``os.nice`` the
    worker keeps its priority.
    """
    if nice > 0 and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - e.g. a sandbox refusing setpriority
            pass


def _resolve_target(spec: str) -> Target:
    module, _, attr = spec.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if not callable(obj):
        raise TypeError(f"{spec} is not callable")
    return obj


def _exit_with_pool(lifeline: Connection) -> None:
    """Exit as soon as the pool's process is gone, even in the middle of a job.

    Only the pool's process holds the writing end of ``lifeline``, so it reads
    EOF exactly when that process exits or closes the pool, however it dies.
    (The parent pid is no use: a forkserver worker's parent is the fork
    server, which itself lives on while any worker holds its liveness pipe.)
    """

    def watch() -> None:
        wait([lifeline])
        os._exit(0)

    threading.Thread(target=watch, name="bte-lifeline", daemon=True).start()


#: Jobs between two returns of freed heap memory to the system (glibc only).
TRIM_EVERY = 100


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``: a long-lived worker that met one large page
    otherwise keeps its freed heap, and its RSS only ever grows."""
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


def worker_main(
    conn: Connection,
    lifeline: Connection,
    target: str,
    method: str | None,
    options: dict[str, Any],
    max_memory: int | None = None,
    nice: int = 0,
) -> None:
    """Worker process loop: one job at a time until EOF or a ``None`` job.

    With ``max_memory`` the heap is capped once the target is loaded; a job
    that hits the cap is answered with :data:`OUT_OF_MEMORY` and the worker
    exits so that the pool starts a fresh one. ``nice`` lowers the worker's
    CPU priority (:func:`lower_priority`).
    """
    # Ctrl-C goes to the whole process group; the parent decides when we stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(nice)
    _exit_with_pool(lifeline)
    try:
        try:
            fn = _resolve_target(target)
        except Exception as exc:  # noqa: BLE001 - any import failure is reported to the pool as fatal
            conn.send(("fatal", f"cannot load worker target {target!r}: {describe_error(exc)}"))
            return
        if max_memory is not None:
            try:
                cap_memory(max_memory)
            except (OSError, ValueError) as exc:
                conn.send(("fatal", f"cannot cap worker memory at {max_memory} bytes: {describe_error(exc)}"))
                return
        conn.send(("ready", os.getpid()))
    except OSError:  # the pool closed while we were starting
        return
    trim = _malloc_trim()
    done = 0
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        done += 1
        if trim is not None and done % TRIM_EVERY == 0:
            trim(0)
        job_id, body, encoding, content_type, url = job
        out_of_memory = False
        try:
            out = fn(body, encoding, content_type, url, method, options)
            if not isinstance(out, dict):
                raise TypeError(f"worker target returned {type(out).__name__}, expected dict")
            reply: tuple[Any, ...] = (job_id, True, out)
        except MemoryError as exc:
            # The frames holding the page's arrays are gone once we leave this
            # block; the reply is small enough to be sent under the cap.
            out_of_memory = True
            reply = (job_id, False, describe_error(exc) if str(exc) else "MemoryError", OUT_OF_MEMORY)
        except Exception as exc:  # noqa: BLE001 - whatever the target raises fails only this job
            reply = (job_id, False, describe_error(exc))
        del body, job
        if out_of_memory:
            try:
                conn.send(reply)
            except (EOFError, OSError):
                pass
            # Straight out: tearing down a heap that just failed to grow only
            # risks more allocation failures; the pool starts a fresh worker.
            os._exit(0)
        try:
            try:
                conn.send(reply)
            except (EOFError, OSError):
                raise
            except Exception as exc:  # noqa: BLE001 - unpicklable result: report, don't die
                conn.send((job_id, False, f"unsendable result: {describe_error(exc)}"))
        except (EOFError, OSError):
            return
