"""Records whose text sits deep inside each record: a forum post's body is eight elements below
the post element its siblings share (cell > content > wrapper > body > text)."""

from __future__ import annotations

import numpy as np
from conftest import FixedModel

from scrapy_bte.api import parse
from scrapy_bte.learned import auto
from scrapy_bte.methods import records
from scrapy_bte.methods.bte import document_span

_POSTS = [
    "I bought a hardtail last spring and the fork feels harsh on rooty climbs; is it worth a service?",
    "A lower-leg service costs little and makes an old fork feel new, so start with that before upgrading.",
    "Check the sag first: most harsh forks I have seen were simply set up with far too much air pressure.",
    "Mine felt the same until I swapped the oil for a lighter weight; the small bumps vanished after that.",
    "If the bushings are worn no service will fix it, so rock the fork back and forth to feel for play.",
]


def _post(text: str) -> str:
    # The post element, then seven wrappers down to the paragraph: eight levels in all.
    inner = f"<p>{text}</p>"
    for name in ("bbWrapper", "message-body", "message-userContent", "message-content", "message-main"):
        inner = f"<div class='{name}'>{inner}</div>"
    return f"<article class='message message--post'><div class='message-inner'><div class='message-cell'>{inner}</div></div></article>"


def test_a_threads_posts_join_however_deep_their_text_sits() -> None:
    html = "<html><body><div class='thread'>" + "".join(_post(t) for t in _POSTS) + "</div></body></html>"
    doc = parse(html)
    assert doc.texts == _POSTS
    keep = np.array([True] + [False] * (len(_POSTS) - 1))
    assert records.record_mask(doc, keep).all()
    # The model is sure of the first post only; the replies sit over the records' bar.
    p = [0.95] + [0.3] * (len(_POSTS) - 1)
    kept, _ = auto.select(doc, document_span(doc), FixedModel(p), smooth=True, page_type="forum")  # type: ignore[arg-type]
    assert kept.all()
