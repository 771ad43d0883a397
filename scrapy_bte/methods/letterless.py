"""A kept text made of blocks without a letter is no page's text.

When a page's body is gone (an article whose only text was its readers'
comments, which stay out of ``text``; a post behind a script), what the
selection keeps can be the last blocks standing: a blog's calendar, whose
day cells the block model scores as a run of short content ("2", "3",
"5", ...), or a pager's numbers, maybe with a language link or two beside
them. Four of dragnet's pages read so with ``auto``. Text in any script has
letters (Han and kana are letters too); digits, dates and punctuation alone
say nothing, so such a selection is dropped whole and the page reads as
empty, which a corpus builder can filter, rather than as a column of
numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: A letter of any script (a word character that is no digit and no underscore).
_LETTER_RE = re.compile(r"[^\W\d_]")
#: Beside a majority of letterless blocks, the blocks with letters need this many words in all
#: (as the blocks count them: :func:`~scrapy_bte.core.scripts.weighted_words`) to be text: fewer
#: are a label or two ("Espanol", "Deutsch") beside the calendar, where a sentence is text.
MIN_WORDS = 5


def letterless(paragraphs: list[str], words: Iterable[float]) -> bool:
    """Whether ``paragraphs`` (of ``words`` words each, as the blocks count them; read only as far
    as needed) are no text: none
    holds a letter, or most hold none and those that do hold fewer than :data:`MIN_WORDS` words
    together (False for none at all: nothing to drop)."""
    lettered = 0
    total = 0.0
    for text, count in zip(paragraphs, words):
        if _LETTER_RE.search(text):
            lettered += 1
            total += count
            if total >= MIN_WORDS:
                return False  # text (on most pages, known from its first paragraph)
    return bool(paragraphs) and 2 * lettered < len(paragraphs)
