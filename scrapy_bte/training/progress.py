"""A one-line progress bar for the long training and scoring runs."""

from __future__ import annotations

import sys
import time


class Progress:
    """A one-line progress bar on stderr (on a terminal; otherwise one line when done)."""

    def __init__(self, label: str, total: int, quiet: bool = False) -> None:
        self.label, self.total, self.quiet = label, max(total, 1), quiet
        self.tty = sys.stderr.isatty()
        self.start = time.perf_counter()
        self._last = -1.0

    def update(self, done: int, note: str = "") -> None:
        if self.quiet:
            return
        now = time.perf_counter()
        if done < self.total and (not self.tty or now - self._last < 0.25):
            return
        self._last = now
        filled = int(30 * done / self.total)
        sys.stderr.write(
            f"\r{self.label:<24} [{'#' * filled}{'-' * (30 - filled)}] {done}/{self.total} "
            f"{now - self.start:6.1f}s {note}" + ("\x1b[K" if self.tty else "")
        )
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()
