"""The command line's output file: never one of its inputs, never half-written.

``--output`` is checked against every input before anything is opened: the
same file (also through a link), or a file under an input folder that a
later run would read as a page. Output goes to a temporary file beside the
target (same folder, so the final rename is atomic) named
``.NAME.PID.scrapy-bte.tmp``; it replaces the target only when the run
ends. A failed or interrupted run (exception, Ctrl-C, SIGTERM) removes its
temporary file and leaves the previous output as it was; the temporary
files of runs killed outright (SIGKILL) are removed by the next run that
writes the same output, once their process is gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from types import FrameType
from typing import TextIO

from .sources import HTML_SUFFIXES

_TMP_SUFFIX = ".scrapy-bte.tmp"


def clobbers(output: str, inputs: Iterable[str], roots: Iterable[str]) -> str | None:
    """Why writing ``output`` would destroy or feed an input (None: it would not).

    ``inputs`` are the files the run reads, ``roots`` the paths named on the
    command line (folders among them).
    """
    resolved = Path(output).resolve()
    try:
        out = os.stat(output)
    except OSError:
        out = None  # a new file cannot be one of the inputs read
    if out is not None:
        for path in inputs:
            try:
                info = os.stat(path) if path != "-" else None
            except OSError:
                continue
            if info is not None and (info.st_dev, info.st_ino) == (out.st_dev, out.st_ino):
                return f"{output} is also an input"
    if resolved.name.lower().endswith(HTML_SUFFIXES):
        for root in roots:
            if root != "-" and os.path.isdir(root) and resolved.is_relative_to(Path(root).resolve()):
                return f"{output} is inside the input folder {root}, where it would be read as a page"
    return None


def _owner_alive(tmp: Path) -> bool:
    """Whether the process that named ``tmp`` (its PID is in the name) still runs."""
    try:
        pid = int(tmp.name[: -len(_TMP_SUFFIX)].rsplit(".", 1)[1])
        os.kill(pid, 0)
    except (ValueError, IndexError, ProcessLookupError):
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale(target: Path) -> None:
    """Remove temporary files of ``target`` left by runs that were killed."""
    prefix = f".{target.name}."
    for name in os.listdir(target.parent):
        tmp = target.parent / name
        if name.startswith(prefix) and name.endswith(_TMP_SUFFIX) and not _owner_alive(tmp):
            with contextlib.suppress(OSError):
                tmp.unlink()


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


class AtomicOutput:
    """A text file that becomes ``output`` on :meth:`commit`; :meth:`discard` leaves no trace.

    While it is open, SIGTERM raises ``SystemExit`` (in the main thread), so
    a terminated run unwinds and discards instead of leaving its temporary
    file. As a context manager it commits when the block ends normally.
    """

    def __init__(self, output: str) -> None:
        # Through a link to the file it names (the link stays); straight to a
        # device or pipe (``-o /dev/stdout``), which cannot be replaced.
        try:
            info: os.stat_result | None = os.stat(output)
        except OSError:
            info = None
        self.target = Path(output).resolve() if info is not None else Path(output)
        self.tmp: Path | None = None
        self._previous = None
        if info is not None and not stat.S_ISREG(info.st_mode):
            self.file: TextIO = open(output, "w", encoding="utf-8")  # noqa: SIM115 - closed by commit/discard
            return
        remove_stale(self.target)
        fd, name = tempfile.mkstemp(
            prefix=f".{self.target.name}.", suffix=f".{os.getpid()}{_TMP_SUFFIX}", dir=self.target.parent
        )
        self.tmp = Path(name)
        self.file = os.fdopen(fd, "w", encoding="utf-8")
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, _stop)

    def _restore(self) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
            self._previous = None

    def commit(self) -> None:
        """Flush to disk and rename over the target."""
        if self.tmp is None:
            self.file.close()
            return
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            _copy_mode(self.target, self.tmp)
            os.replace(self.tmp, self.target)
        except BaseException:
            self.discard()
            raise
        self._restore()

    def discard(self) -> None:
        """Remove the temporary file; the target stays as it was."""
        with contextlib.suppress(OSError):
            self.file.close()
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                self.tmp.unlink()
        self._restore()

    def __enter__(self) -> TextIO:
        return self.file

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _copy_mode(target: Path, tmp: Path) -> None:
    """The mode the output had, or what a plain ``open()`` would have given (mkstemp makes 0600)."""
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)


class Unwritable(Exception):
    """The output could not be written (a full disk, ``/dev/full``, a failing device)."""

    def __init__(self, name: str, error: OSError) -> None:
        super().__init__(f"cannot write {name}: {error.strerror or error}")
        self.error = error


class Guarded:
    """A text stream whose write errors are :class:`Unwritable`, naming the output, so that the
    command reports one line instead of a traceback. A closed pipe stays a ``BrokenPipeError``
    (``scrapy-bte extract ... | head`` ends quietly)."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise Unwritable(self.name, exc) from exc

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise Unwritable(self.name, exc) from exc
