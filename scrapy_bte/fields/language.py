"""The text's language, for pages whose markup does not declare one.

py3langid (a maintained fork of langid.py, Lui & Baldwin 2012) ships its
naive Bayes model in the wheel as a numpy archive read with
``allow_pickle=False``: 97 languages, 4.5 MB installed, numpy only (already
a dependency), about 0.25 ms for the 200 characters read here. Its model
loads once per process (about 1 s), on the first page that needs it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

#: Characters of text handed to the identifier: enough for a stable
#: answer on article prose (the gold text's language on 123 of
#: mercury's 126 pages, as with 300; 122 with 100), and the identifier's
#: time grows with it (about 0.25 ms for 200 characters, 0.34 for 300).
SAMPLE_CHARS = 200
#: Below this normalised probability the page's language stays unknown.
MIN_CONFIDENCE = 0.8
#: Texts shorter than this are not identified (menus and captions mislead).
MIN_CHARS = 40


@lru_cache(maxsize=1)
def identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def sample(texts: list[str], words: list[float]) -> str:
    """The page's wordiest blocks (in page order) up to :data:`SAMPLE_CHARS`: prose, not menus."""
    order = sorted(range(len(texts)), key=lambda i: -words[i])
    chosen: list[int] = []
    size = 0
    for i in order:
        chosen.append(i)
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
