"""The add-on's only door to the crawler's stats collector.

Stats collectors are pluggable and some are remote: scrapy-redis's
``RedisStatsCollector`` keeps every stat in a Redis hash shared by all
processes of a crawl. It increments with HINCRBY, which takes integers only,
and reads values back with ``int()``, so a float anywhere (an increment, a
start value, a stored value) makes every later call on that key raise. And a
remote collector can fail for reasons of its own (a lost connection).

Counting pages must never cost a page or an item, so :class:`CrawlStats`

* records integers only (durations as whole milliseconds, with the
  fraction carried over to the next call so totals stay exact), and
* swallows any error the collector raises: the first failure per key is
  logged once as a warning, later ones are only counted and reported in
  the closing summary.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)


class CrawlStats:
    """Integer-only, never-raising access to a Scrapy stats collector."""

    def __init__(self, stats: Any) -> None:
        self._stats = stats
        self._failed_keys: set[str] = set()
        self.failures = 0
        self._milliseconds: dict[str, float] = {}
        self._reported: dict[str, int] = {}

    def inc(self, key: str, count: int = 1) -> None:
        """Add *count* to *key* (created at 0)."""
        self._call("inc_value", key, count, start=0)

    def set(self, key: str, value: int) -> None:
        self._call("set_value", key, value)

    def add_seconds(self, key: str, seconds: float) -> None:
        """Add a duration to the milliseconds stat *key*.

        Each call adds the whole milliseconds the running total gained, so
        the stat is the exact total (to 1 ms) however short each duration
        is; rounding every call would drift by up to 0.5 ms per page.
        """
        total = self._milliseconds.get(key, 0.0) + seconds * 1000.0
        self._milliseconds[key] = total
        step = int(total) - self._reported.get(key, 0)
        if step:
            self._reported[key] = int(total)
            self.inc(key, step)

    def get(self, key: str, default: int = 0) -> int:
        """The value of *key* as an integer, *default* if it is missing or unreadable."""
        try:
            value = self._stats.get_value(key, default)
            return int(value) if value is not None else default
        except Exception as exc:  # noqa: BLE001 - any backend error: a stat is never worth a page
            self._failed(key, exc)
            return default

    def _call(self, method: str, key: str, *args: Any, **kwargs: Any) -> None:
        try:
            getattr(self._stats, method)(key, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - any backend error: a stat is never worth a page
            self._failed(key, exc)

    def _failed(self, key: str, exc: Exception) -> None:
        self.failures += 1
        if key not in self._failed_keys:
            self._failed_keys.add(key)
            logger.warning(
                "scrapy-bte: the stats collector %s failed on %r (%s: %s); the crawl goes on without this stat",
                type(self._stats).__name__,
                key,
                type(exc).__name__,
                exc,
            )
