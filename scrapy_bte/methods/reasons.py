"""Why a block was kept or dropped: the rule that decided, per block.

Selections fill a reason array only when a caller passes a :class:`Trace`
(``scrapy-bte explain`` does); extraction in a crawl passes none and pays
nothing. Each rule writes its code over the blocks it changed, so the last
rule that touched a block is the one reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np


class Reason(IntEnum):
    """Codes of the rules; :data:`DESCRIPTIONS` says each in words."""

    UNDECIDED = 0
    PROBABILITY = 1
    LOW_PROBABILITY = 2
    LIFTED = 3
    SUNK = 4
    FALLBACK = 5
    SAME_ARTICLE = 6
    LINK_LIST = 7
    FURNITURE = 8
    COMMENTS = 9
    DENSE = 11
    SPARSE = 12
    SHORT = 13
    IN_SPAN = 14
    OUTSIDE_SPAN = 15
    SPAN_END_TRIMMED = 16
    EXTENDED = 17
    RECORD = 18
    REPEATED = 19
    THREAD = 20
    NAME = 21
    NO_LETTERS = 22


DESCRIPTIONS = {
    Reason.UNDECIDED: "no rule recorded",
    Reason.PROBABILITY: "model probability at or above the threshold",
    Reason.LOW_PROBABILITY: "model probability below the threshold",
    Reason.LIFTED: "smoothing: its neighbours' probabilities lifted it over the threshold",
    Reason.SUNK: "smoothing: its neighbours' probabilities pulled it under the threshold",
    Reason.FALLBACK: "no block passed the threshold: within half of the best probability (auto: BTE's plateau, as hybrid reads it)",
    Reason.SAME_ARTICLE: "long link-free block in the element that holds most kept text",
    Reason.LINK_LIST: "link list: 50 words or more, nearly all link text",
    Reason.FURNITURE: "the article's furniture, never its body: headline, kicker, byline, dateline, "
    "a label-like block or a box a heading names (related, tags, newsletter)",
    Reason.COMMENTS: "inside the readers' comment section, which is not the body (comments=True returns it apart)",
    Reason.DENSE: "density at or above the page's threshold",
    Reason.SPARSE: "density below the page's threshold",
    Reason.SHORT: "fewer characters than min_chars",
    Reason.IN_SPAN: "inside BTE's span",
    Reason.OUTSIDE_SPAN: "outside BTE's span",
    Reason.SPAN_END_TRIMMED: "link- or markup-heavy end of BTE's span, trimmed",
    Reason.EXTENDED: "dense, low-link neighbour of BTE's span",
    Reason.RECORD: "in a record (card, post, row) of the same shape as kept ones, probability over the records' bar",
    Reason.REPEATED: "repeats a paragraph kept before it, or a heading kept after it (a table of contents' entry), "
    "or is a hidden copy of the kept text",
    Reason.THREAD: "a post of the forum thread: text of an element named for comments or replies",
    Reason.NAME: "the product's name: the first h1 repeating the page's title, a few blocks from the kept text",
    Reason.NO_LETTERS: "the kept blocks hold no letter, or mostly none beside a few words (a calendar's days, a pager's numbers): no page's text",
}


#: The rule's short name, for tables.
NAMES = {
    Reason.UNDECIDED: "-",
    Reason.PROBABILITY: "probability",
    Reason.LOW_PROBABILITY: "low probability",
    Reason.LIFTED: "smoothing lifted",
    Reason.SUNK: "smoothing sank",
    Reason.FALLBACK: "best of a weak page",
    Reason.SAME_ARTICLE: "same article",
    Reason.LINK_LIST: "link list",
    Reason.FURNITURE: "furniture",
    Reason.COMMENTS: "comments",
    Reason.DENSE: "dense",
    Reason.SPARSE: "sparse",
    Reason.SHORT: "too short",
    Reason.IN_SPAN: "BTE span",
    Reason.OUTSIDE_SPAN: "outside span",
    Reason.SPAN_END_TRIMMED: "span end trimmed",
    Reason.EXTENDED: "span extended",
    Reason.RECORD: "record",
    Reason.REPEATED: "repeated",
    Reason.THREAD: "thread post",
    Reason.NAME: "product name",
    Reason.NO_LETTERS: "no letters",
}


#: The rules that keep a block; every other one drops it.
KEEPING = frozenset(
    {
        Reason.PROBABILITY,
        Reason.LIFTED,
        Reason.FALLBACK,
        Reason.SAME_ARTICLE,
        Reason.DENSE,
        Reason.IN_SPAN,
        Reason.EXTENDED,
        Reason.RECORD,
        Reason.THREAD,
        Reason.NAME,
    }
)


def describe(code: int) -> tuple[str, str]:
    """``(short name, sentence)`` of a reason code."""
    reason = Reason(code)
    return NAMES[reason], DESCRIPTIONS[reason]


@dataclass
class Trace:
    """The evidence one extraction leaves when asked for it.

    ``reasons`` holds a :class:`Reason` per block; ``probability`` and
    ``threshold`` are the learned methods' (smoothed) content probability
    and the keep threshold it was read with (``auto``'s page-type profile's
    where it has one, else the model's), ``None`` for the other methods.
    """

    reasons: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    probability: np.ndarray | None = None
    threshold: float | None = None
