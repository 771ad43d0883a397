"""The JSON nesting measure's tokens: strings as runs between escapes, the same tokens as a
string matched one character at a time (the plain form of the rule)."""

from __future__ import annotations

import random
import re

from scrapy_bte.core import boundedjson

# The rule in its plain form: a string is any run of plain characters or escape pairs.
PLAIN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def test_tokens_are_those_of_the_plain_pattern() -> None:
    rnd = random.Random(7)
    alphabet = '[]{}"\\ a\n:,'
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 40)))
        assert boundedjson._TOKENS.findall(text) == PLAIN.findall(text), text


def test_brackets_inside_strings_and_after_escapes_do_not_nest() -> None:
    assert boundedjson.depth('{"a": "[[[{{{", "b": "\\"[[["}') == 1
    assert boundedjson.depth('[{"x": [1, "\\\\"], "y": {"z": []}}]') == 4
    assert boundedjson.depth('"unclosed [[[') == 0
    assert boundedjson.depth("]]][[") == 2  # closers before any opener are not counted
