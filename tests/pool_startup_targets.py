"""Worker targets that die while they start, for the pool's crash-loop guard.

A name ``<how>_<n>_<token>`` (resolved in the worker before it reports ready) makes the first ``n``
workers that resolve it die: ``kill`` by SIGKILL, as the OOM killer or an operator kills a worker,
``exit`` by ``os._exit(3)``, as a target that cannot start. Later workers get an echo target. A
file per ``token`` in the temporary folder counts the workers (one byte appended by each).
"""

from __future__ import annotations

import os
import signal
import tempfile
from typing import Any

try:
    from .pool_targets import slow_or_crash  # tests/ as a package
except ImportError:
    from pool_targets import slow_or_crash  # tests/ itself on sys.path


def __getattr__(name: str) -> Any:
    how, count, token = name.split("_", 2)
    path = os.path.join(tempfile.gettempdir(), f"bte-startup-{token}")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, b".")
    finally:
        os.close(fd)
    if os.path.getsize(path) <= int(count):
        if how == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        os._exit(3)
    return slow_or_crash
