"""The text's language, for pages whose markup does not declare one.

py3langid (a maintained fork of langid.py, Lui & Baldwin 2012) ships its
naive Bayes model in the wheel as a numpy archive read with
``allow_pickle=False``: 97 languages, 4.5 MB installed, numpy only (already
a dependency), about 0.25 ms for the 200 characters read here. Its model
loads once per process (about 1 s), on the first page that needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

#: Characters of text handed to the identifier: enough for a stable
#: answer on article prose (the gold text's language on 123 of
#: mercury's 126 pages, as with 300; 122 with 100), and the identifier's
#: time grows with it (about 0.25 ms for 200 characters, 0.34 for 300).
SAMPLE_CHARS = 200
#: Below this normalised probability the page's language stays unknown.
MIN_CONFIDENCE = 0.8
#: Texts shorter than this are not identified (menus and captions mislead).
MIN_CHARS = 40


#: Texts the fast score is checked on against py3langid's own before it is used.
_PROBES = (
    "A page whose markup names no language is read for its words.",
    "Eine Seite ohne Sprachangabe wird nach ihren Wörtern beurteilt.",
    "Страница без указания языка читается по словам.",
    "言語の指定がないページは本文から判定する。",
    "x",
    "",
)

#: The automaton and the float16 table: (next states, row offset per state, feature per state, rows).
Tables = tuple[Any, Any, Any, np.ndarray]


def feature_rows(tables: Tables, data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The features the bytes ``data`` meet in the identifier's automaton, in the order they
    first occur, with their counts (float32) and their table rows as float32; None for none.

    py3langid's own walk, then numpy's cast. (A C pass of it saved nothing measurable of
    ``extract()``'s time, as few pages need the identifier: see ``docs/evaluation.md``.)
    """
    nextmove, rowbase, output, table = tables
    counts: dict[int, int] = {}
    get = counts.get
    state = 0
    for byte in data:
        state = nextmove[rowbase[state] + byte]
        feature = output[state]
        if feature >= 0:
            counts[feature] = get(feature, 0) + 1
    if not counts:
        return None
    features = np.fromiter(counts, np.int64, len(counts))
    return features, np.fromiter(counts.values(), np.float32, len(counts)), table[features].astype(np.float32)


def _scorer(model: Any, own: Callable[[bytes], np.ndarray]) -> Callable[[bytes], np.ndarray] | None:
    """py3langid's raw naive Bayes score of encoded text (``own``), computed through :func:`feature_rows`.

    The product is numpy's, on the float32 rows numpy would cast the
    float16 ones to, so the scores are the same bits; None where this
    py3langid lays its model out otherwise, or where a probe text scores
    differently (its own score then stays).
    """
    try:
        table = model.nb_ptc
        # Python lists of ints (checked as such by numpy): the walk reads one entry per byte,
        # which a list gives as an int and an array as a numpy scalar, several times slower.
        tables = (
            model.tk_nextmove,
            np.asarray(model._rowbase, np.int64).tolist(),
            np.asarray(model.tk_output, np.int64).tolist(),
            table,
        )
        prior, encode = model.nb_pc, model._encode
    except (AttributeError, TypeError, ValueError):
        return None
    if not (isinstance(table, np.ndarray) and table.dtype == np.float16 and table.ndim == 2):
        return None

    def raw_score(data: bytes) -> np.ndarray:
        got = feature_rows(tables, data)
        if got is None:
            return own(data)  # no feature: py3langid's fill value
        return np.log1p(got[1]) @ got[2] + prior

    try:
        for probe in _PROBES:
            data = encode(probe)
            if not np.array_equal(raw_score(data).view(np.uint32), own(data).view(np.uint32)):
                return None
    except (AttributeError, TypeError, ValueError, IndexError):  # another py3langid: its own score stays
        return None
    return raw_score


@lru_cache(maxsize=1)
def identifier() -> Any:
    """py3langid's identifier; its raw score reads the feature rows once per distinct feature
    (:func:`feature_rows`) instead of casting its whole float16 table row by row."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    class Identifier(LanguageIdentifier):  # type: ignore[misc,valid-type]
        fast: Callable[[bytes], np.ndarray] | None = None

        def _raw_score(self, text: bytes) -> np.ndarray:
            return self.fast(text) if self.fast is not None else super()._raw_score(text)

    model = Identifier.from_model_file(MODEL_FILE, norm_probs=True)
    model.fast = _scorer(model, lambda data: LanguageIdentifier._raw_score(model, data))
    return model


def sample(texts: list[str], words: Sequence[float] | np.ndarray) -> str:
    """The page's wordiest blocks (in page order) up to :data:`SAMPLE_CHARS`: prose, not menus.

    Ties keep page order (a stable sort); the few wordiest blocks are all
    that is read of the order.
    """
    order = np.argsort(-np.asarray(words, dtype=np.float64), kind="stable")
    chosen: list[int] = []
    size = 0
    for i in order:
        chosen.append(int(i))
        size += len(texts[i])
        if size >= SAMPLE_CHARS:
            break
    return " ".join(texts[i] for i in sorted(chosen))[:SAMPLE_CHARS]


def detect(text: str) -> tuple[str | None, float]:
    """(ISO 639-1 code or None, probability) of ``text``."""
    text = text[:SAMPLE_CHARS]
    if len(text.strip()) < MIN_CHARS:
        return None, 0.0
    lang, prob = identifier().classify(text)
    return (lang if prob >= MIN_CONFIDENCE else None), float(prob)
