"""Hand-made block labels saved next to each page (``<id>.labels.json``).

Labels are keyed by a hash of each block's text together with the
feature version, not by block index: when a later version cuts a page into
blocks differently, the blocks whose text did not change keep their label,
and the changed ones simply have none. Blocks of a page with the same text
share one label (a "Share" link repeated three times is one decision).

File format (JSON, UTF-8)::

    {"format": "scrapy-bte-labels", "version": 1, "feature_version": 1,
     "page": "story.html", "labels": {"<key>": true, "<key>": false, ...}}

``true`` is content, ``false`` boilerplate.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core import boundedjson
from ..errors import ConfigError
from ..learned.feature_schema import FEATURE_VERSION

FORMAT = "scrapy-bte-labels"
VERSION = 1
SUFFIX = ".labels.json"
#: Hex digits of the key: 96 bits, no collision among a page's blocks in practice.
KEY_LENGTH = 24


def block_key(text: str, feature_version: int = FEATURE_VERSION) -> str:
    """The key of a block's label: its text and the feature version, hashed."""
    digest = hashlib.sha256(f"{feature_version}\x1f{text}".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:KEY_LENGTH]


_TMP_SUFFIX = ".tmp"
#: A temporary label file older than this is left by a save that was killed.
STALE_SECONDS = 60.0


def remove_stale_temporaries(root: Path, older_than: float = STALE_SECONDS) -> int:
    """Remove the temporary files of killed saves under ``root``; returns how many.

    Only ``.<id>.labels.json.<hex>.tmp`` files older than ``older_than``
    seconds go: a save running at this moment elsewhere keeps its own.
    """
    removed = 0
    now = time.time()
    for tmp in root.rglob(f".*{SUFFIX}.*{_TMP_SUFFIX}"):
        try:
            if not tmp.is_symlink() and tmp.is_file() and now - tmp.stat().st_mtime > older_than:
                tmp.unlink()
                removed += 1
        except OSError:
            continue
    return removed


def labels_path(page: Path) -> Path:
    """``<id>.labels.json`` beside ``<id>.html``."""
    return page.with_name(page.stem + SUFFIX)


@dataclass(frozen=True)
class LabelFile:
    """A page's saved labels."""

    path: Path
    feature_version: int
    labels: dict[str, bool]

    @property
    def current(self) -> bool:
        """Written for this version's features (older keys match no block)."""
        return self.feature_version == FEATURE_VERSION

    def block_labels(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """``(labels, covered)`` per block: the saved label and whether there is one.

        Keys are this version's, so a file written for another feature
        version covers no block.
        """
        y = np.zeros(len(texts), dtype=bool)
        covered = np.zeros(len(texts), dtype=bool)
        for i, text in enumerate(texts):
            value = self.labels.get(block_key(text))
            if value is not None:
                y[i] = value
                covered[i] = True
        return y, covered


def read(page: Path) -> LabelFile | None:
    """The labels saved for ``page``; ``None`` when there are none.

    Raises :class:`ConfigError` naming the file when it is not a label file.
    """
    path = labels_path(page)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read label file {path}: {exc}") from exc
    try:
        data = boundedjson.loads(raw)
    except ValueError as exc:  # not JSON, or nested too deep
        raise ConfigError(f"label file {path} is not JSON: {exc}") from exc
    labels = data.get("labels") if isinstance(data, dict) else None
    version = data.get("feature_version") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(labels, dict)
        or not isinstance(version, int)
        or not all(isinstance(v, bool) for v in labels.values())
    ):
        raise ConfigError(f"{path} is not a scrapy-bte label file (format {FORMAT!r}, labels of true/false)")
    return LabelFile(path, version, {str(k): v for k, v in labels.items()})


def write(page: Path, labels: dict[str, bool]) -> Path:
    """Save ``labels`` (key -> content?) for ``page``; returns the file written.

    Written to a fresh temporary name in the same folder and renamed over
    the label file, so a reader never sees half a file and an existing
    symlink at the label path is replaced, never written through.
    """
    path = labels_path(page)
    payload = {
        "format": FORMAT,
        "version": VERSION,
        "feature_version": FEATURE_VERSION,
        "page": page.name,
        "labels": {k: bool(v) for k, v in sorted(labels.items())},
    }
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}{_TMP_SUFFIX}")
    try:
        with open(tmp, "x", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=1)
            fh.write("\n")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path
