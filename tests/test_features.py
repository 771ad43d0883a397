"""Feature matrix shape, names, version and a few values that must hold on any page."""

from __future__ import annotations

import numpy as np

from scrapy_bte.api import parse
from scrapy_bte.learned.features import (
    CONTEXT_NAMES,
    FEATURE_NAMES,
    FEATURE_VERSION,
    N_FEATURES,
    WINDOW,
    block_features,
    context_features,
)

PAGE = """<html><head><title>Harbour bridge approved</title></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/n">News</a></li></ul>
<article><h1>Harbour bridge approved</h1>
<p>The council approved a pedestrian bridge across the old harbour basin on Monday.</p>
<p>Construction starts in 2025 and should take 18 months, officials said.</p></article>
<div id="footer">CONTACT US | 555 0100</div></body></html>"""


def test_names_version_and_shape() -> None:
    assert isinstance(FEATURE_VERSION, int)
    assert len(FEATURE_NAMES) == N_FEATURES == len(set(FEATURE_NAMES))
    doc = parse(PAGE)
    X = block_features(doc)
    assert X.shape == (doc.n_blocks, N_FEATURES)
    assert X.dtype == np.float32
    assert np.isfinite(X).all()


def test_empty_document_gives_an_empty_matrix() -> None:
    X = block_features(parse("<html><body></body></html>"))
    assert X.shape == (0, N_FEATURES)


def test_values_that_must_hold() -> None:
    doc = parse(PAGE)
    X = block_features(doc)
    col = {name: X[:, i] for i, name in enumerate(FEATURE_NAMES)}
    home = doc.texts.index("Home")
    footer = doc.texts.index("CONTACT US | 555 0100")
    para = next(i for i, t in enumerate(doc.texts) if t.startswith("Construction"))
    assert col["link_density"][home] == 1.0 and col["link_density"][para] == 0.0
    assert col[f"outside@-{WINDOW}"][0] == 1.0 and col[f"outside@+{WINDOW}"][-1] == 1.0
    assert col["in_article"][para] == 1.0 and col["in_article"][home] == 0.0
    assert col["upper_share"][footer] == 1.0
    assert col["digit_share"][footer] > 0.3
    assert col["ends_sentence"][para] == 1.0 and col["ends_sentence"][home] == 0.0
    assert col["title_overlap"][doc.texts.index("Harbour bridge approved")] == 1.0
    assert col["opener=p"][para] == 1.0


def test_context_features_shape() -> None:
    doc = parse(PAGE)
    p = np.linspace(0, 1, doc.n_blocks)
    C = context_features(p, doc)
    assert C.shape == (doc.n_blocks, len(CONTEXT_NAMES))
    assert np.isfinite(C).all()
