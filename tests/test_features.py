"""Feature schema, matrix shape, names, version and a few values that must hold on any page."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED
from scrapy_bte.api import parse
from scrapy_bte.learned import feature_schema as schema
from scrapy_bte.learned.feature_schema import CONTEXT_NAMES, FEATURE_NAMES, FEATURE_VERSION, N_FEATURES, WINDOW
from scrapy_bte.learned.features import block_features, context_features

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


def test_schema_declares_each_column_once() -> None:
    numeric = [g.numeric for g in schema.BLOCK_GROUPS]
    assert numeric == sorted(numeric, reverse=True), "the C pass fills the first columns: numeric groups come first"
    assert schema.N_NUMERIC + schema.N_FURNITURE == N_FEATURES == sum(len(g.columns) for g in schema.BLOCK_GROUPS)
    assert len({g.name for g in schema.BLOCK_GROUPS}) == len(schema.BLOCK_GROUPS)
    assert len(CONTEXT_NAMES) == len(set(CONTEXT_NAMES))
    # 39 columns are markup hints and label-like text: 2 x 15 hint groups and 9 label features.
    assert schema.N_FURNITURE == 39
    assert schema.describe(0) == "column 0 'log_words' (group shape)"
    assert schema.describe(N_FEATURES - 1) == f"column {N_FEATURES - 1} {FEATURE_NAMES[-1]!r} (group labels)"
    with pytest.raises(IndexError):
        schema.column_group(N_FEATURES)


def layout_disagreement(layout: Sequence[tuple[str, int]], groups: Sequence[schema.Group]) -> str | None:
    """The first column the C pass's ``LAYOUT`` and the schema's numeric groups assign
    differently, named; None when they agree (width -1: the caller passes the width)."""
    numeric = [g for g in groups if g.numeric]
    names = [c for g in groups for c in g.columns]
    column = 0
    for k, group in enumerate(numeric):
        written = layout[k] if k < len(layout) else ("nothing", 0)
        name, width = written
        if name != group.name or width not in (-1, len(group.columns)):
            at = column if name != group.name else column + min(width, len(group.columns))
            return (
                f"column {at} {names[at]!r}: the schema's group {group.name} has {len(group.columns)} columns "
                f"from column {column}, the C pass writes {name} ({width} columns)"
            )
        column += len(group.columns)
    if len(layout) > len(numeric):
        return (
            f"column {column}: the C pass writes group {layout[len(numeric)][0]}, the schema has no more numeric groups"
        )
    return None


def test_layout_check_names_the_column_where_c_and_schema_part() -> None:
    groups = list(schema.BLOCK_GROUPS)
    layout = [(g.name, len(g.columns)) for g in groups if g.numeric]
    assert layout_disagreement(layout, groups) is None
    # A column added to the schema's neighbours (columns 7..22) but not to the C pass.
    k = [g.name for g in groups].index("neighbours")
    grown = groups[:k] + [schema.Group("neighbours", (*groups[k].columns, "new_column"))] + groups[k + 1 :]
    message = layout_disagreement(layout, grown)
    assert message is not None and message.startswith("column 23 'new_column': the schema's group neighbours")
    # Two groups written in the other order.
    swapped = layout[: k + 1] + [layout[k + 2], layout[k + 1]] + layout[k + 3 :]
    message = layout_disagreement(swapped, groups)
    assert message is not None and message.startswith("column 23 'wide_density': the schema's group wide")
    assert "the C pass writes page" in message


@pytest.mark.skipif(
    not ACCELERATED["learned.features"] and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"),
    reason="scrapy_bte._native.features is not built",
)
def test_c_pass_writes_the_schema_layout() -> None:
    from scrapy_bte._native import features as _features

    assert layout_disagreement(_features.LAYOUT, schema.BLOCK_GROUPS) is None
    assert len(CONTEXT_NAMES) == _features.N_CONTEXT


#: The marks' pattern as first written, tried at the start and after every whitespace: the oracle of
#: the one searched after a leading space.
_MARK_AT_EVERY_POSITION = re.compile(
    r"""(?:^|\s)(role|itemprop|hidden|aria-hidden|style)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""",
    re.IGNORECASE,
)
_MARK_PIECES = st.sampled_from(
    [" ", "\t", "\n", "\u3000", "\u00a0", "=", '"', "'", ">", "role", "ROLE", "Role", "hidden", "aria-hidden", "style"]
    + ["itemprop", "display:none", "display: none", "main", "articleBody", "true", "x", "ſ", "İ", "navigation"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_MARK_PIECES, max_size=14).map("".join))
def test_marks_pattern_finds_what_trying_every_position_finds(raw: str) -> None:
    from scrapy_bte.learned import features

    assert [m.groups() for m in features._MARK_RE.finditer(" " + raw)] == [
        m.groups() for m in _MARK_AT_EVERY_POSITION.finditer(raw)
    ]


def test_marks_are_read_from_the_strings_that_can_carry_one() -> None:
    """Every attribute string the marks pattern reads to a mark is among those the reader reads
    (role, itemprop, hidden, a style's display), so skipping the rest changes no bit."""
    from scrapy_bte.core.tree import AttributeReader
    from scrapy_bte.learned import features

    strings = [
        ' style="display: none"',
        ' STYLE="Display:None"',
        ' style="display:no ne"',
        ' style="color: red; width: 10px"',
        ' style="visibility:hidden"',
        ' role="navigation"',
        ' itemprop="articleBody"',
        " hidden",
        ' aria-hidden="true"',
        ' class="display none"',
        ' ſtyle="display:none"',
        ' class="plain"',
        "",
    ]
    everything = dict(zip(strings, AttributeReader(features._mark_bits, ("",)).values(strings).tolist()))
    marked = [raw for raw, bits in everything.items() if bits]
    assert marked == strings[:3] + strings[5:9]  # "visibility:hidden" is no display, a long s no style
    doc = parse("<html><body>" + "".join(f"<div{raw}><p>text {k}</p></div>" for k, raw in enumerate(strings)))
    sk = doc.skeleton
    want = [everything.get(sk.attr_strings[i], 0) for i in sk.el_attr_id.tolist()]
    assert features._MARKS.per_element(doc).tolist() == want and sum(map(bool, want)) == len(marked)
