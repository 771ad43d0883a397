"""What the first pages of a process pay that later pages do not.

A crawl of many sites and a corpus job see each page once, and the first
page to reach a code path pays whatever that path sets up lazily. After one
warm-up call, extracting pages of every kind must import no module: numpy
imports ``numpy.ma`` (about 7 ms) on the first plain ``np.unique`` of a
process, which made the first listing page of a run several times slower
than the rest (:mod:`scrapy_bte.core.arrays`).
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
from conftest import FIXTURES

from scrapy_bte.core.arrays import distinct

# Cards in a feed beside menus: the records rules' page (tests/test_records.py builds its kin).
_CARDS = "".join(
    f"<article class='card card-{i}'><h3><a href='/story/{i}'>Story number {i} about the harbour</a></h3>"
    f"<p>The council met on day {i} to talk about the ferry timetable, the new pier and the fish market.</p>"
    f"<p>By Local Desk • Dec. {i + 1}, 2025</p></article>"
    for i in range(8)
)
_MENU = "".join(f"<li><a href='/{m}'>{m}</a></li>" for m in ("home", "news", "sport", "jobs", "contact"))
LISTING = (
    f"<html><head><title>Local news</title></head><body><nav><ul>{_MENU}</ul></nav>"
    f"<main><h1>Local news</h1><div class='feed'>{_CARDS}</div></main><aside><ul>{_MENU}</ul></aside></body></html>"
)

_CHILD = """
import json, sys
from pathlib import Path
import numpy as np
from scrapy_bte import extract
from scrapy_bte.api import parse
from scrapy_bte.methods import records
extract("<html><body><p>One warm-up page with a few words of text in it.</p></body></html>")
before = set(sys.modules)
pages = [Path(p).read_bytes() for p in sys.argv[1:]] + [sys.stdin.read()]
for page in pages:
    for method in ("auto", "hybrid", "bte"):
        extract(page, method=method)
doc = parse(pages[-1])
group = records.largest_group(doc, np.ones(doc.n_blocks, dtype=bool))
print(json.dumps({"new": sorted(set(sys.modules) - before), "group": int(group.sum())}))
"""


def test_pages_after_the_first_import_nothing() -> None:
    files = [FIXTURES / name for name in ("article1.html", "forum.html", "comments.html", "two_items.html")]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *map(str, files)],
        input=LISTING,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["group"] > 0  # the cards were read as one group: the path that used np.unique ran
    # A page's encoding may load its codec, as any Python reading the page would.
    assert [name for name in found["new"] if not name.startswith("encodings.")] == []


def test_distinct_is_numpys_unique() -> None:
    rng = np.random.default_rng(0)
    for size in (0, 1, 2, 7, 500):
        values = rng.integers(-5, 40, size)
        assert np.array_equal(distinct(values), np.unique(values))
        assert distinct(values).dtype == values.dtype
