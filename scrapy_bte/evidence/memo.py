"""One remembered result per function: the last document it was computed for.

The learned features and the body rules of ``auto`` read the same per-page
evidence (class hints, label-like blocks) for the same document, one right
after the other. Keeping only the last document's result, by identity and
through a weak reference, computes it once per page without writing into
the document or keeping pages alive.
"""

from __future__ import annotations

import weakref
from typing import Any

from ..core.document import Document


class LastDocument:
    """The value computed for the most recent document (compared by identity).

    Reference and value are kept as one tuple, so a reader in another thread
    sees either the old pair or the new one, never a mix.
    """

    def __init__(self) -> None:
        self._pair: tuple[weakref.ref[Document], Any] | None = None

    def get(self, doc: Document) -> Any:
        pair = self._pair
        if pair is not None and pair[0]() is doc:
            return pair[1]
        return None

    def put(self, doc: Document, value: Any) -> None:
        self._pair = (weakref.ref(doc), value)
