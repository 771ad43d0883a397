"""Page furniture in use: the flag columns of a page's blocks, and the datelines and newsletter
promotions ``extract()`` leaves out at the body's edges (but not inside it).

The C pass against its Python reference is in ``native/test_furniture.py``.
"""

from __future__ import annotations

import re

import pytest

from scrapy_bte import extract
from scrapy_bte.core.document import build
from scrapy_bte.evidence import labels


def test_features_flag_the_furniture_of_a_page() -> None:
    doc = build(
        "<html><body><p>Advertisement</p><p>By Jane Doe</p><p>12 May 2024</p><p>5 min read</p>"
        "<p>The harbour council met on Tuesday to discuss the ferry timetable for the winter.</p>"
        "<p>Tags: harbour, ferry</p></body></html>"
    )
    out = labels.label_features(doc)
    col = {name: out[:, i] for i, name in enumerate(labels.NAMES)}
    assert col["label"].tolist() == [1, 0, 0, 0, 0, 0]
    assert col["byline_start"].tolist() == [0, 1, 0, 0, 0, 0]
    assert col["date_like"].tolist() == [0, 0, 1, 0, 0, 0]
    assert col["read_time"].tolist() == [0, 0, 0, 1, 0, 0]
    assert col["label_colon"].tolist() == [0, 0, 0, 0, 0, 1]


_EDGE_BODY = "".join(
    f"<p>Der Gemeinderat hat am Abend über den neuen Haushalt beraten und mehrere Anträge beschlossen, "
    f"die in der Stadt für Aufsehen sorgten und lange diskutiert wurden. Absatz {i}.</p>"
    for i in range(6)
)


@pytest.mark.parametrize(
    ("top", "bottom", "gone"),
    [
        ("", "<p>25. Oktober 2025, 17.52 Uhr</p>", "17.52 Uhr"),
        ("", "<p>Stand: 25.10.2025</p>", "Stand"),
        (
            "",
            "<p>Melden Sie sich für unseren Newsletter an und erhalten Sie jeden Morgen die Nachrichten.</p>",
            "Newsletter",
        ),
        ("<p>Sign up for our daily newsletter to get the best stories in your inbox.</p>", "", "newsletter"),
        ("", "<p>Subscribe to our newsletter.</p><p>27. Oktober 2025</p>", "Oktober"),
    ],
)
def test_datelines_and_newsletter_promotions_at_the_body_edges_go(top: str, bottom: str, gone: str) -> None:
    markup = f"<html><body><article><h1>Haushalt beschlossen</h1>{top}{_EDGE_BODY}{bottom}</article></body></html>"
    text = extract(markup).text
    assert "Absatz 0." in text and "Absatz 5." in text
    assert gone not in text


@pytest.mark.parametrize(
    "inside",
    [
        # a run of dates is a table's content, not a dateline
        "<p>1.03.2025 r.(sobota)</p><p>6.03.2025 r.(czwartek)</p><p>6.03.2025 r.</p>",
        # a promotion inside the text stays, and so does a date sentence with other words
        "<p>The newsletter of the club was founded in 1990 and its members still write it.</p>",
        "<p>— Donald J. Trump (@realDonaldTrump) April 15, 2019</p>",
    ],
)
def test_dated_blocks_and_newsletter_mentions_that_are_content_stay(inside: str) -> None:
    markup = f"<html><body><article><h1>Haushalt beschlossen</h1>{_EDGE_BODY}{inside}</article></body></html>"
    text = extract(markup).text
    last = re.sub(r"<[^>]+>", "\n", inside).split("\n")
    assert all(part in text for part in last if part.strip())
