"""A throwaway redis-server for tests and benchmarks.

Started on 127.0.0.1 on a free port, with persistence off (no RDB snapshots,
no append-only file) in a scratch directory, so nothing it holds outlives the
test and two runs never share keys. Talking to it goes through the ``redis``
client package (the ``redis`` extra).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any


def redis_server_path() -> str | None:
    """The ``redis-server`` executable on PATH, or None."""
    return shutil.which("redis-server")


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """``with RedisServer() as server: server.url, server.client()``.

    The port is picked just before the server binds it; if another process
    takes it in between, start-up fails and is retried on a new port.
    """

    def __init__(self, executable: str | None = None, attempts: int = 3) -> None:
        found = executable or redis_server_path()
        if found is None:
            raise FileNotFoundError("redis-server is not installed (Debian: apt-get install redis-server)")
        self.executable = found
        self.attempts = attempts
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self, **kwargs: Any) -> Any:
        import redis

        kwargs.setdefault("decode_responses", True)
        return redis.Redis(host="127.0.0.1", port=self.port, **kwargs)

    def start(self) -> RedisServer:
        self._dir = tempfile.TemporaryDirectory(prefix="redis-test-")
        error = ""
        for _ in range(self.attempts):
            self.port = free_port()
            self.process = subprocess.Popen(
                [
                    self.executable,
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    self._dir.name,
                    "--protected-mode",
                    "yes",
                    "--daemonize",
                    "no",
                    "--loglevel",
                    "warning",
                    "--logfile",
                    str(Path(self._dir.name) / "redis.log"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            if self._wait_ready(timeout=10.0):
                return self
            error = self._stop_process()
        self.stop()
        raise RuntimeError(f"redis-server did not start on 127.0.0.1: {error}")

    def _wait_ready(self, timeout: float) -> bool:
        import redis

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            try:
                if self.client(socket_timeout=1).ping():
                    return True
            except redis.exceptions.ConnectionError:
                time.sleep(0.02)
        return False

    def _stop_process(self) -> str:
        process, self.process = self.process, None
        if process is None:
            return ""
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        log = Path(self._dir.name) / "redis.log" if self._dir else None
        if log is not None and log.exists():
            stderr += log.read_text(errors="replace")
        return stderr.strip()

    def stop(self) -> None:
        self._stop_process()
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
