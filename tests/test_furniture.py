"""Page furniture in use: the flag columns of a page's blocks, the datelines, newsletter
promotions and copyright notices ``extract()`` leaves out at the body's edges (but not inside
it), and a headline as
long as a paragraph, which is the page's top and not its first paragraph.

The C pass against its Python reference is in ``native/test_furniture.py``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from scrapy_bte import extract
from scrapy_bte.core.document import build
from scrapy_bte.evidence import labels, zones
from scrapy_bte.learned.never_body import FIRST_PARAGRAPH_WORDS, edge_notes, first_paragraph


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
        (
            "",
            "<p>© 2012 CBS Interactive Inc. All Rights Reserved. This material may not be published, "
            "broadcast, rewritten, or redistributed.</p>",
            "CBS Interactive",
        ),
        ("", "<p>25.10.2025</p><p>Copyright Stadtanzeiger 2025. Alle Rechte vorbehalten.</p>", "Stadtanzeiger"),
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
        # a sentence about copyright is no notice
        "<p>The court ruled that the copyright in the photographs belongs to the agency, not the paper.</p>",
    ],
)
def test_dated_blocks_and_newsletter_mentions_that_are_content_stay(inside: str) -> None:
    markup = f"<html><body><article><h1>Haushalt beschlossen</h1>{_EDGE_BODY}{inside}</article></body></html>"
    text = extract(markup).text
    last = re.sub(r"<[^>]+>", "\n", inside).split("\n")
    assert all(part in text for part in last if part.strip())


#: A Japanese headline of 54 letters: 23 words as a letter counts 0.4 of one, as long as a paragraph.
_JA_HEADLINE = (
    "緑町商店街の空き店舗に若い店主が続々と出店、シャッター通りに三十年ぶりの活気が戻りつつある理由を歩いて確かめた"
)
_JA_BODY = "".join(
    f"<p>{s}</p>"
    for s in (
        "市の中心部から少し離れた緑町商店街では、この二年で十二の空き店舗に新しい店が入った。店主の多くは三十代で、"
        "パン屋や古書店、自転車の修理店など業種はさまざまだ。",
        "商店街の振興組合によると、家賃の補助と改装費の一部を市が負担する制度が始まったことが大きいという。"
        "組合の理事長は「通りを歩く人の年齢層が明らかに若くなった」と話す。",
        "一方で、古くからの店主の中には駐車場の不足を心配する声もある。週末には通りに人があふれ、"
        "近くの住宅街に路上駐車が増えたためだ。",
        "市は来年度、商店街の入り口に小さな駐車場を整備する計画を立てている。組合は夏祭りの再開も検討しており、"
        "通りのにぎわいはしばらく続きそうだ。",
    )
)
_EN_HEADLINE = (
    "Coverity venture with the harbour authority resolves quality issues and potential security flaws "
    "in eleven major open source projects used by ferries"
)


@pytest.mark.parametrize(
    ("headline", "body", "first_words"),
    [
        (_JA_HEADLINE, _JA_BODY, "市の中心部"),
        (_EN_HEADLINE, _EDGE_BODY, "Der Gemeinderat"),
    ],
)
def test_a_headline_as_long_as_a_paragraph_is_the_top_not_the_body(headline: str, body: str, first_words: str) -> None:
    markup = (
        f"<html><head><meta charset='utf-8'><title>{headline} | Midori Shimbun</title></head><body>"
        f"<header><a href='/'>Midori Shimbun</a></header><article><h1>{headline}</h1>{body}</article>"
        "<footer>Midori Shimbun Co.</footer></body></html>"
    )
    doc = build(markup)
    heading = doc.texts.index(headline)
    assert doc.words[heading] >= FIRST_PARAGRAPH_WORDS  # long enough to pass for a paragraph
    keep = doc.words > 0
    first = first_paragraph(doc, keep, f"{headline} | Midori Shimbun")
    assert first == heading + 1 and doc.texts[first].startswith(first_words)
    # Without the title to compare, the headline is the first long block.
    assert first_paragraph(doc, keep, None) == heading
    result = extract(markup)
    assert result.page_type == "article"
    assert headline not in result.text
    assert result.paragraphs[0].startswith(first_words)


@pytest.mark.parametrize(
    ("title", "found"),
    [
        # one token of 21 letters, 8 words as the blocks count them: a headline
        ("緑町商店街の空き店舗に若い店主が続々と出店", True),
        # a one-word title is a name, in any script
        ("Harbourside", False),
        ("東京", False),
    ],
)
def test_a_title_written_without_spaces_names_its_headline(title: str, found: bool) -> None:
    doc = build(f"<html><head><meta charset='utf-8'></head><body><h1>{title}</h1>{_JA_BODY}</body></html>")
    mask = zones.headline_mask(doc, title)
    assert mask.tolist() == [found] + [False] * (doc.n_blocks - 1)
    assert np.array_equal(mask, zones.headline_mask_reference(doc, title))


@pytest.mark.parametrize(
    ("tail", "notice"),
    [
        (
            "<p>© 2012 CBS Interactive Inc. All Rights Reserved. This material may not be published, broadcast, "
            "rewritten, or redistributed.</p>",
            True,
        ),
        ("<p>25.10.2025</p><p>Copyright Stadtanzeiger 2025. Alle Rechte vorbehalten.</p>", True),
        ("<p>版权所有 © 2025 江城日报社</p>", True),
        ("<p>The court ruled that the copyright in the photographs belongs to the agency, not the paper.</p>", False),
    ],
)
def test_a_copyright_notice_at_the_body_edge_is_furniture(tail: str, notice: bool) -> None:
    doc = build(f"<html><head><meta charset='utf-8'></head><body><article>{_EDGE_BODY}{tail}</article></body></html>")
    keep = doc.words > 0
    marked = edge_notes(doc, keep, np.zeros(doc.n_blocks, dtype=bool))
    last = doc.n_blocks - 1
    assert bool(marked[last]) == notice
    assert not marked[: doc.texts.index(doc.texts[last]) - 1].any()  # the body stays
