"""A kept text without a single letter is no page's text.

When a page's body is gone (an article whose only text was its readers'
comments, which stay out of ``text``; a post behind a script), what the
selection keeps can be the last blocks standing: a blog's calendar, whose
day cells the block model scores as a run of short content ("2", "3",
"5", ...), or a pager's numbers. Three of dragnet's pages read so with
``auto``. Text in any script has letters (Han and kana are letters too);
digits, dates and punctuation alone say nothing, so such a selection is
dropped whole and the page reads as empty, which a corpus builder can
filter, rather than as a column of numbers.
"""

from __future__ import annotations

import re

#: A letter of any script (a word character that is no digit and no underscore).
_LETTER_RE = re.compile(r"[^\W\d_]")


def no_letters(paragraphs: list[str]) -> bool:
    """Whether none of ``paragraphs`` holds a letter (False for none at all: nothing to drop)."""
    return bool(paragraphs) and not any(_LETTER_RE.search(text) for text in paragraphs)
