"""One remembered result per function: the last document it was computed for.

The learned features and the body rules of ``auto`` read the same per-page
evidence (class hints, label-like blocks) for the same document, one right
after the other. Keeping only the last document's result, by identity and
through a weak reference, computes it once per page without writing into
the document or keeping pages alive. A value is kept with the native switch
it was computed under (:func:`scrapy_bte.core.accel.native_enabled`), so
the C passes and the Python references never hand each other a result.
"""

from __future__ import annotations

import weakref
from typing import Any

from ..core import accel
from ..core.document import Document


class LastDocument:
    """The value computed for the most recent document (compared by identity) under the
    current native switch.

    Reference, switch and value are kept as one tuple, so a reader in another
    thread sees either the old entry or the new one, never a mix.
    """

    def __init__(self) -> None:
        self._entry: tuple[weakref.ref[Document], bool, Any] | None = None

    def get(self, doc: Document) -> Any:
        entry = self._entry
        if entry is not None and entry[0]() is doc and entry[1] == accel.native_enabled():
            return entry[2]
        return None

    def put(self, doc: Document, value: Any) -> None:
        self._entry = (weakref.ref(doc), accel.native_enabled(), value)
