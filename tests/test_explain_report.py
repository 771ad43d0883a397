"""``scrapy-bte explain``: the report's contents, its escaping and its size on huge pages."""

from __future__ import annotations

import base64
import hashlib
import io
import re
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from conftest import SAMPLES

from scrapy_bte import extract
from scrapy_bte.api import extract_document, parse
from scrapy_bte.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from scrapy_bte.explain.collect import explain, tag_curve
from scrapy_bte.explain.render import CSP, STYLE, render
from scrapy_bte.explain.svg import MAX_POINTS, bucket_bars, downsample_curve
from scrapy_bte.fields.record import FIELD_NAMES
from scrapy_bte.methods.bte import document_span, token_runs
from scrapy_bte.methods.reasons import KEEPING, NAMES, Trace

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARTICLE = FIXTURES / "article1.html"
COMMENTS = FIXTURES / "comments.html"

HOSTILE = b"""<!DOCTYPE html><html><head>
<title>Breaking: </title><script>window.pwned = 1</script> | Site</title>
<meta property="og:site_name" content="&quot; onmouseover=&quot;alert(1)&quot; &lt;script&gt;window.pwned=7&lt;/script&gt;">
</head><body>
<nav><a href="/">Home</a> <a href="/a">About</a></nav>
<article><h1>A headline &lt;script&gt;window.pwned=2&lt;/script&gt;</h1>
<p>The council met on Tuesday to discuss &lt;script&gt;window.pwned = 3&lt;/script&gt; the harbour wall,
which the storms of last winter damaged in three places along the eastern pier and the old quay.</p>
<p>Engineers said the repairs &quot;&gt;&lt;img src=x onerror=alert(4)&gt; would take most of the summer,
and that the quay would stay closed to cars while the new stones are laid and the mortar sets.</p>
<p>Residents asked about </textarea><svg onload=alert(5)> and were told the footpath stays open.</p>
</article></body></html>"""


@pytest.mark.parametrize("method", ["auto", "model", "hybrid", "density", "bte"])
@pytest.mark.parametrize("page", [ARTICLE, COMMENTS])
def test_report_shows_what_extraction_kept_and_a_rule_for_every_block(method, page):
    html = page.read_bytes()
    report = explain(html, page.name, method=method)
    result = extract(html, method=method)
    assert [i for i, b in enumerate(report.blocks) if b.kept] == result.kept_blocks
    assert len(report.blocks) == result.n_blocks
    by_name = {name: code for code, name in NAMES.items()}
    for block in report.blocks:
        assert block.rule != "-", block
        # A kept block's rule is one that keeps, a dropped block's one that drops.
        assert (by_name[block.rule] in KEEPING) == block.kept, (block.rule, block.kept, block.text)
    learned = method in ("auto", "model")
    assert (report.probability_threshold is not None) == learned
    assert all((b.probability is not None) == learned for b in report.blocks)


def test_a_trace_changes_nothing_about_the_result():
    for page in (ARTICLE, COMMENTS):
        for method in ("auto", "hybrid", "density", "bte"):
            for comments in (None, True, False) if method != "bte" else (None,):
                options = {} if comments is None else {"comments": comments}
                plain = extract_document(parse(page.read_bytes()), method=method, **options)
                trace = Trace()
                traced = extract_document(parse(page.read_bytes()), method=method, trace=trace, **options)
                assert plain == traced
                assert len(trace.reasons) == plain.n_blocks and (trace.reasons > 0).all()


def test_comment_and_furniture_rules_are_reported():
    comment = "Our two hives on the allotment did just as well"
    report = explain(COMMENTS.read_bytes(), "c", method="hybrid")
    row = next(b for b in report.blocks if comment in b.text)
    assert not row.kept and row.rule == "comments"  # inside BTE's span, but comments are not the body
    sample = SAMPLES / "article.html"
    rows = {b.text: b for b in explain(sample.read_bytes(), "a").blocks}
    # The consent banner is named furniture whatever the model says of it; the headline and
    # byline leave the body, by the model's probability or by the furniture rules.
    banner = rows["We use cookies to improve your experience. Privacy policy"]
    assert not banner.kept and banner.rule == "furniture"
    for text in ("Harbour town rebuilds its sea wall with recycled stone", "By Mara Ellison · 14 March 2026"):
        assert not rows[text].kept and rows[text].rule in ("furniture", "low probability")


def test_density_and_probability_numbers_are_the_blocks_own():
    html = ARTICLE.read_bytes()
    report = explain(html, "a")
    doc = parse(html)
    for i, b in enumerate(report.blocks):
        assert b.text == doc.texts[i]
        expected = doc.chars[i] / max(doc.bytes[i], doc.chars[i])
        assert b.density == pytest.approx(expected)
        assert b.link_density == pytest.approx(doc.link_words[i] / doc.words[i])
    menu = next(b for b in report.blocks if b.text == "Sport")
    assert menu.link_density == 1.0 and not menu.kept and menu.probability < 0.5


def test_the_threshold_shown_is_the_one_the_page_type_profile_kept_by() -> None:
    # A listing is read with its profile's threshold, under the model's: the report gives that one,
    # and each block kept or dropped by probability stands on its side of it.
    from scrapy_bte.learned.model import default_model
    from scrapy_bte.learned.profiles import PROFILES

    listing = Path(__file__).resolve().parents[1] / "example_project" / "site" / "topics" / "environment.html"
    html = listing.read_bytes()
    report = explain(html, "listing")
    assert extract(html).page_type == "listing"
    assert report.probability_threshold == PROFILES["listing"].threshold != default_model().threshold
    by_probability = [b for b in report.blocks if b.rule in ("probability", "low probability")]
    assert any(b.kept for b in by_probability) and any(not b.kept for b in by_probability)
    for b in by_probability:
        assert b.kept == (b.probability >= report.probability_threshold), b.text
    # An article is read with the model's own.
    assert explain(ARTICLE.read_bytes(), "a").probability_threshold == default_model().threshold


def test_fields_come_with_their_sources():
    sample = SAMPLES / "article.html"
    result = extract(sample.read_bytes(), fields=FIELD_NAMES)
    fields = {f.name: (f.value, f.source) for f in explain(sample.read_bytes(), "article.html").fields}
    assert fields == {name: (value, result.field_sources[name]) for name, value in result.fields().items() if value}
    assert fields["title"][0] == "Harbour town rebuilds its sea wall with recycled stone"
    assert {"title", "author", "date"} <= fields.keys() and all(source for _, source in fields.values())


def test_tag_curve_counts_every_token_and_shades_bte_span():
    doc = parse(ARTICLE.read_bytes())
    curve = tag_curve(doc)
    runs = token_runs(doc)[0]
    xs, ys = zip(*curve.points)
    assert xs[0] == 0 and ys[0] == 0
    assert xs[-1] == pytest.approx(np.abs(runs).sum()) and ys[-1] == pytest.approx(-runs[runs < 0].sum())
    assert all(b >= a for a, b in pairwise(xs)) and all(b >= a for a, b in pairwise(ys))
    span = document_span(doc)
    first, last = curve.span
    # The plateau: inside the span the curve gains BTE's counted tags and words exactly.
    at = dict(curve.points)
    assert last - first == pytest.approx(span.words + span.tags)
    assert at[last] - at[first] == pytest.approx(span.tags)


def test_report_is_self_contained_and_carries_a_csp():
    page = render(explain(ARTICLE.read_bytes(), "article1.html"))
    head = page[: page.index("</head>")]
    # The policy comes before anything it has to govern.
    assert head.index('http-equiv="Content-Security-Policy"') < head.index("<style>")
    digest = base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
    assert f"style-src 'sha256-{digest}'" in CSP and "script-src" not in CSP and "default-src 'none'" in CSP
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b", page, re.IGNORECASE)
    assert not re.search(r"\b(src|srcset|action)\s*=", page, re.IGNORECASE)
    assert set(re.findall(r'href="([^"]*)"', page)) <= {f"#b{i}" for i in range(100)}
    assert page.count("<svg") == 3 and "threshold" in page and "BTE span" in page
    assert "River otters return to the Elbe valley" in page


def test_page_text_is_escaped_everywhere():
    report = explain(HOSTILE, 'page"><script>window.pwned=6</script>.html')
    page = render(report)
    assert not re.search(r"<(script|img|svg onload)", page.replace("<svg xmlns", ""), re.IGNORECASE)
    assert "onerror=alert" not in page.replace("onerror=alert(4)&gt;", "")
    assert "&lt;script&gt;window.pwned = 3&lt;/script&gt;" in page
    assert "&quot;&gt;&lt;img src=x onerror=alert(4)&gt;" in page
    fields = {f.name: f.value for f in report.fields}
    assert fields["site_name"] == '" onmouseover="alert(1)" <script>window.pwned=7</script>'
    assert "&quot; onmouseover=&quot;alert(1)&quot; &lt;script&gt;window.pwned=7&lt;/script&gt;" in page
    assert 'onmouseover="' not in page


def test_huge_page_is_downsampled():
    parts = ["<html><body>"]
    for i in range(12000):
        parts.append(f'<div><a href="/l{i}">link {i}</a></div><p>Paragraph {i} of a very long page with words.</p>')
    report = explain("".join(parts) + "</body></html>", "huge.html")
    assert len(report.blocks) == 24000 and report.method == "hybrid"  # auto hands block soups to hybrid
    page = render(report)
    svgs = re.findall(r"<svg.*?</svg>", page, re.DOTALL)
    assert all(svg.count("<rect") <= MAX_POINTS + 1 for svg in svgs)
    points = re.search(r'<polyline class="curve" points="([^"]*)"', page).group(1).split()
    assert len(points) <= MAX_POINTS
    assert len(page) < 8_000_000


def test_downsampling_keeps_ends_and_peaks():
    values = [0.1] * 10_000
    values[4321] = 0.9
    kept = [False] * 10_000
    kept[9999] = True
    bars = bucket_bars(values, kept, limit=100)
    assert len(bars) == 100 and bars[0][0] == 0 and bars[-1][1] == 9999
    assert max(b[2] for b in bars) == 0.9 and bars[-1][3] and not bars[0][3]
    curve = [(float(i), float(i // 2)) for i in range(100_001)]
    thin = downsample_curve(curve, limit=500)
    assert len(thin) == 500 and thin[0] == curve[0] and thin[-1] == curve[-1]


def test_cli_explains_a_page_piped_in(tmp_path, capsys, monkeypatch):
    """``explain -`` reads standard input, as ``extract -`` does; the report says where the page came from."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.read_bytes())))
    out = tmp_path / "report.html"
    assert main(["explain", "-", "-o", str(out)]) == EXIT_OK
    report = out.read_text(encoding="utf-8")
    assert "River otters return" in report and "<title>scrapy-bte explain: standard input</title>" in report


def test_cli_writes_the_report(tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["explain", str(ARTICLE), "-o", str(out)]) == EXIT_OK
    assert "blocks kept" in capsys.readouterr().out
    assert "River otters return" in out.read_text(encoding="utf-8")
    assert main(["explain", str(tmp_path / "missing.html"), "-o", str(out)]) == EXIT_USAGE
    binary = tmp_path / "image.html"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    assert main(["explain", str(binary), "-o", str(out)]) == EXIT_FAILED
    assert "binary" in capsys.readouterr().err.lower()
    assert main(["explain", str(ARTICLE), "-o", str(out), "--method", "bte", "--comments", "drop"]) == EXIT_USAGE
