"""The learned classifier's feature columns, declared once: names, order, groups, version.

Every reader of the columns takes them from here: :mod:`.features` (the
numpy references and the call into the C pass), the C pass
``scrapy_bte._native.features`` (its ``LAYOUT`` must list the numeric
groups below in the same order and widths; ``tests/test_features.py``
names the first column where they part), and the model metadata
(:mod:`.model` records :data:`FEATURE_VERSION` and :data:`FEATURE_NAMES`
and refuses a model trained on other columns).

Adding a block feature column touches, in this order:

1. its :class:`Group` here (name and position; a new group goes where its
   columns sit in the matrix);
2. ``block_features_reference`` in :mod:`.features` (the readable statement);
3. for a numeric group, the write order and the group's width in
   ``_features.c`` (its ``N_*`` macros and ``LAYOUT``); furniture groups are
   written by ``_furniture_columns`` in :mod:`.features` instead;
4. :data:`FEATURE_VERSION` (+1), then retrain the model
   (``scrapy-bte train``, see the README): models record the version and
   refuse to load against another.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..evidence.hints import GROUP_NAMES as HINT_GROUPS
from ..evidence.labels import NAMES as LABEL_NAMES

#: Version of the columns' meaning and order; bump it whenever either changes.
FEATURE_VERSION = 2
#: Neighbours on each side whose own values are columns.
WINDOW = 2
#: Half-width of the wider window whose means are columns.
WIDE = 6
#: Block groups whose totals are features: blocks with the same container, parent, grandparent.
GROUP_LEVELS = ("container", "parent", "grandparent")

#: Opening tags of a block, one column each ("h4-6", "dd-dt" and "ul-ol" share one;
#: tags outside the list fall into "other").
OPENERS = (
    "",
    "p",
    "li",
    "br",
    "h1",
    "h2",
    "h3",
    "h4-6",
    "div",
    "/div",
    "td",
    "/td",
    "tr",
    "dd-dt",
    "blockquote",
    "pre",
    "section",
    "article",
    "table",
    "ul-ol",
    "/p",
    "/li",
    "figcaption",
    "address",
    "header",
    "footer",
    "aside",
    "nav",
    "other",
)

#: Element names on the path from the block's container to the root, one flag each.
ANCESTORS = (
    "article",
    "main",
    "section",
    "aside",
    "nav",
    "header",
    "footer",
    "form",
    "table",
    "ul",
    "ol",
    "dl",
    "blockquote",
    "figure",
    "center",
    "menu",
    "fieldset",
    "td",
)
#: Standard (W3C ARIA, HTML, schema.org) attribute signals on the ancestor path: not
#: site-specific words, so they carry across sites and languages.
MARKS = (
    "role=main",
    "role=navigation",
    "role=complementary",
    "role=contentinfo",
    "role=banner",
    "itemprop=articleBody",
    "hidden",
)


@dataclass(frozen=True)
class Group:
    """Consecutive columns with one source.

    ``numeric``: filled by the C pass ``_features.c`` (or its numpy
    reference) from the block arrays; otherwise by the page-furniture
    evidence of :mod:`scrapy_bte.evidence.hints` and :mod:`scrapy_bte.evidence.labels`.
    """

    name: str
    columns: tuple[str, ...]
    numeric: bool = True


def _neighbour_columns() -> tuple[str, ...]:
    cols: list[str] = []
    for off in [o for o in range(-WINDOW, WINDOW + 1) if o]:
        cols += [f"density@{off:+d}", f"log_chars@{off:+d}", f"link_density@{off:+d}", f"outside@{off:+d}"]
    return tuple(cols)


def _level_columns() -> tuple[str, ...]:
    cols: list[str] = []
    for level in GROUP_LEVELS:
        cols += [
            f"{level}_log_words",
            f"{level}_word_share",
            f"{level}_link_density",
            f"{level}_density",
            f"{level}_log_blocks",
            f"{level}_is_largest",
        ]
    return tuple(cols)


#: The block feature matrix, group by group, left to right.
BLOCK_GROUPS: tuple[Group, ...] = (
    # AI-Depot's trio and Kohlschütter's shallow features.
    Group("shape", ("log_words", "log_chars", "log_bytes", "density", "tags_per_word", "link_density", "word_length")),
    # The blocks -WINDOW..+WINDOW around (0 beyond the page, with an "outside" flag): content comes in runs.
    Group("neighbours", _neighbour_columns()),
    # Means over the blocks -WIDE..+WIDE that exist; "short" is under 40 characters.
    Group("wide", ("wide_density", "wide_link_density", "wide_log_chars", "wide_short_share")),
    # Relative to the page, so one model fits short and long pages.
    Group(
        "page",
        (
            "density_rel",
            "log_chars_rel",
            "position",
            "char_position",
            "log_blocks",
            "log_page_words",
            "link_share_page",
        ),
    ),
    # BTE's span (all 0 without one) and the hybrid method's selection (BTE plus the density threshold).
    Group(
        "span",
        ("in_bte", "bte_distance", "bte_before", "bte_after", "bte_share", "in_hybrid", "hybrid_distance"),
    ),
    # One-hot over OPENERS.
    Group("openers", tuple(f"opener={o or 'none'}" for o in OPENERS)),
    # Flags of ANCESTORS names and MARKS attributes on the container's path.
    Group("path", tuple(f"in_{a}" for a in ANCESTORS) + tuple(f"in_{m}" for m in MARKS)),
    # Depth (absolute and relative to the page's median), same container as the previous/next block.
    Group("tag", ("depth", "depth_rel", "same_container_prev", "same_container_next")),
    # Readability's container scoring: totals of the blocks sharing each of GROUP_LEVELS.
    Group("groups", _level_columns()),
    # Shares computed on code points with no word list (the same in any script), and the
    # share of a candidate headline's tokens found in the page title.
    Group(
        "text",
        (
            "digit_share",
            "upper_share",
            "punct_share",
            "commas_per_word",
            "stops_per_word",
            "ends_sentence",
            "title_overlap",
        ),
    ),
    # Class/id/role words of a fixed vocabulary (evidence.words.GROUPS): on the container's path ...
    Group("path_hints", tuple(f"path_hint={g}" for g in HINT_GROUPS), numeric=False),
    # ... and on the block's own opening tag.
    Group("own_hints", tuple(f"own_hint={g}" for g in HINT_GROUPS), numeric=False),
    # Label-like text: bylines, credits, dates, reading times, repeats, image neighbours (evidence.labels).
    Group("labels", tuple(LABEL_NAMES), numeric=False),
)

#: Ordered feature names: column ``i`` of ``block_features`` is ``FEATURE_NAMES[i]``.
FEATURE_NAMES: tuple[str, ...] = tuple(c for g in BLOCK_GROUPS for c in g.columns)
N_FEATURES = len(FEATURE_NAMES)
#: Columns the C pass (or its numpy reference) fills: the numeric groups, which come first.
N_NUMERIC = sum(len(g.columns) for g in BLOCK_GROUPS if g.numeric)
#: Columns of the furniture evidence, after the numeric ones.
N_FURNITURE = N_FEATURES - N_NUMERIC

#: Names of ``context_features`` columns (inputs of the second stage): the first stage's
#: probability of the block, its neighbours, its container and the page, and where the
#: block stands relative to the runs of kept blocks.
CONTEXT_NAMES: tuple[str, ...] = (
    "p",
    "p_mean@1",
    "p_mean@3",
    "p_mean@8",
    "p@-1",
    "p@+1",
    "p_max_after",
    "p_max_before",
    "p_container_mean",
    "p_container_word_mean",
    "p_page_max",
    "p_rel_max",
    "p_page_kept_share",
    "p_page_kept_word_share",
    "run_word_share",
    "in_main_run",
    "main_run_distance",
    "gap_word_share",
)


def column_group(column: int) -> tuple[Group, int]:
    """The group holding block feature ``column`` and the column's offset in it."""
    start = 0
    for group in BLOCK_GROUPS:
        if column < start + len(group.columns):
            return group, column - start
        start += len(group.columns)
    raise IndexError(f"column {column} beyond the {N_FEATURES} block features")


def describe(column: int) -> str:
    """``column 23 'outside@+1' (group neighbours)``: for messages about one column."""
    group, _ = column_group(column)
    return f"column {column} {FEATURE_NAMES[column]!r} (group {group.name})"
