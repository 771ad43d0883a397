"""Dialogs: a page's modal windows (policies, size charts, sign-in boxes) are never its content."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import FixedModel

from scrapy_bte.api import parse
from scrapy_bte.learned import auto
from scrapy_bte.methods import dialogs
from scrapy_bte.methods.bte import document_span
from scrapy_bte.methods.reasons import Reason

_DESCRIPTION = (
    "This walking boot has a waxed leather upper, a cushioned footbed and a grippy rubber sole "
    "that keeps its hold on wet rock and muddy forest paths alike."
)
_POLICY = (
    "Items may be returned within thirty days of delivery in their original packaging. Return "
    "shipping is paid by the customer unless the item arrived damaged or was sent in error."
)


@pytest.mark.parametrize(
    "opening, closing",
    [
        ("<dialog>", "</dialog>"),
        ("<div role='dialog'>", "</div>"),
        ('<div role="alertdialog">', "</div>"),
        ("<div class='drawer' aria-modal='true'>", "</div>"),
    ],
)
def test_a_modal_windows_text_goes_however_sure_the_model_is(opening: str, closing: str) -> None:
    html = (
        f"<html><body><main><h1>Trail boot</h1><p>{_DESCRIPTION}</p></main>"
        f"<footer><a href='#refund'>Refund policy</a>{opening}<div><h2>Refund policy</h2><p>{_POLICY}</p></div>"
        f"{closing}</footer></body></html>"
    )
    doc = parse(html)
    inside = dialogs.dialog_mask(doc)
    named = {doc.texts[b] for b in np.flatnonzero(inside)}
    assert named == {"Refund policy", _POLICY}
    p = [0.95 if doc.texts[b] in (_DESCRIPTION, _POLICY) else 0.1 for b in range(doc.n_blocks)]
    for page_type in ("product", "service", "article"):
        reasons = np.zeros(doc.n_blocks, dtype=np.int8)
        model: Any = FixedModel(p)
        keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type=page_type, reasons=reasons)
        kept = {doc.texts[b] for b in np.flatnonzero(keep)}
        assert _DESCRIPTION in kept and _POLICY not in kept, page_type
        assert reasons[doc.texts.index(_POLICY)] == Reason.FURNITURE


def test_a_page_whose_only_text_is_a_dialog_keeps_it() -> None:
    doc = parse(f"<html><body><div role='dialog'><p>{_POLICY}</p><p>{_DESCRIPTION}</p></div></body></html>")
    assert dialogs.dialog_mask(doc).all()
    keep, _ = auto.select(doc, document_span(doc), FixedModel([0.9, 0.9]), smooth=True, page_type="product")  # type: ignore[arg-type]
    assert keep.all()


def test_dialog_words_in_other_attributes_or_roles_are_no_dialog() -> None:
    html = (
        "<html><body><div class='dialogue-transcript' role='main'><p>A line of the play.</p></div>"
        "<div aria-modal='false'><p>An open panel.</p></div><div data-role='dialog-trigger'><p>Open it.</p></div>"
        "</body></html>"
    )
    assert not dialogs.dialog_mask(parse(html)).any()
