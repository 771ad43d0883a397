"""One self-contained HTML file from a :class:`~scrapy_bte.explain.record.Report`.

Page text is hostile input: every string goes through :func:`html.escape`
(element text, attributes, SVG labels), the report carries no script at
all, and a Content-Security-Policy allows nothing but its own style sheet
(pinned by hash), so even markup that slipped through could not run or
load anything.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

from .record import BlockRow, Report
from .svg import bar_chart, curve_chart

#: Characters of a block's text shown in the side table (the block list shows all of it).
EXCERPT = 60

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#fafafa}
header,section{padding:12px 20px}
header{background:#24344d;color:#fff}
h1{font-size:20px;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:16px;margin:8px 0}
.summary{margin:0;opacity:.9}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
#fields,#scores{width:100%}
#fields td,#scores td{overflow-wrap:anywhere}
#fields td:first-child,#fields td:last-child{white-space:nowrap}
.legend span{display:inline-block;padding:1px 8px;margin-right:8px;border-radius:3px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:12px}
.figure svg{width:100%;height:auto;background:#fff;border:1px solid #ddd}
svg .axis{stroke:#555;stroke-width:1}
svg .tick,svg .label,svg .threshold-label,svg .span-label{font-size:11px;fill:#333}
svg rect.kept{fill:#2e8b57}
svg rect.dropped{fill:#c9ced6}
svg .threshold{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4}
svg .threshold-label{fill:#c0392b}
svg .curve{fill:none;stroke:#24344d;stroke-width:1.5}
svg rect.span{fill:#2e8b57;fill-opacity:.18}
.columns{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px;align-items:start}
ol.blocks{margin:0;padding-left:36px}
.block{margin:0 0 4px;padding:4px 8px;border-radius:3px;white-space:pre-wrap;overflow-wrap:anywhere}
.kept{background:#dff3e6;border-left:4px solid #2e8b57}
.dropped{background:#eef0f3;color:#6b7380;border-left:4px solid #c9ced6}
.block:hover,.block:target{outline:2px solid #24344d}
.side{position:sticky;top:0;max-height:100vh;overflow:auto}
.side td:nth-child(n+3):nth-child(-n+6){text-align:right;font-variant-numeric:tabular-nums}
.side td:nth-child(7){white-space:nowrap}
.side td:nth-child(8){max-width:260px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
"""


def _style_hash(style: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(style.encode("utf-8")).digest()).decode("ascii")


#: Nothing but the inline style sheet above: no script, no fetch, no image, no form, no base URL.
CSP = f"default-src 'none'; style-src '{_style_hash(STYLE)}'; img-src 'none'; base-uri 'none'; form-action 'none'"


def _fmt(value: float | str | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _hover(block: BlockRow) -> str:
    prob = "" if block.probability is None else f" · p {block.probability:.3f}"
    return (
        f"{'kept' if block.kept else 'dropped'} by {block.rule} · density {block.density:.3f} · "
        f"links {block.link_density:.3f}{prob} · {block.words} words"
    )


def _blocks(report: Report) -> str:
    items = []
    for i, b in enumerate(report.blocks):
        cls = "kept" if b.kept else "dropped"
        items.append(f'<li id="b{i}" class="block {cls}" title="{escape(_hover(b))}">{escape(b.text)}</li>')
    return '<ol class="blocks" start="0">' + "".join(items) + "</ol>"


def _side_table(report: Report) -> str:
    # Closing td/tr tags are optional in HTML; leaving them out keeps huge pages' reports small.
    rows = []
    for i, b in enumerate(report.blocks):
        excerpt = b.text if len(b.text) <= EXCERPT else b.text[: EXCERPT - 1] + "\u2026"
        rows.append(
            f'<tr class="{"kept" if b.kept else "dropped"}"><td><a href="#b{i}">{i}</a><td>{"keep" if b.kept else "drop"}'
            f"<td>{b.words}<td>{b.density:.3f}<td>{b.link_density:.3f}<td>{_fmt(b.probability)}"
            f"<td>{escape(b.rule)}<td>{escape(excerpt)}"
        )
    head = (
        "<tr><th>#</th><th>decision</th><th>words</th><th>density</th><th>link density</th>"
        "<th>probability</th><th>rule</th><th>text</th></tr>"
    )
    return (
        f'<div class="side"><table id="block-table"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div>'
    )


def _table(table_id: str, head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _rules(report: Report) -> str:
    """The rules that decided this page's blocks, each said once in a sentence."""
    counts: dict[tuple[str, str], int] = {}
    for b in report.blocks:
        counts[(b.rule, b.reason)] = counts.get((b.rule, b.reason), 0) + 1
    return _table(
        "rules",
        ("rule", "what it means", "blocks"),
        [(rule, reason, str(n)) for (rule, reason), n in sorted(counts.items(), key=lambda kv: -kv[1])],
    )


def _figures(report: Report) -> str:
    kept = [b.kept for b in report.blocks]
    parts = [
        bar_chart(
            [b.density for b in report.blocks],
            kept,
            report.density_threshold,
            title="Text density per block",
            y_label="density",
            threshold_label=f"threshold {report.density_threshold:.3f} ({report.density_rule})",
        )
    ]
    probs = [b.probability for b in report.blocks]
    if report.probability_threshold is not None and all(p is not None for p in probs):
        parts.append(
            bar_chart(
                [float(p) for p in probs if p is not None],
                kept,
                report.probability_threshold,
                title="Model probability per block",
                y_label="probability",
                threshold_label=f"threshold {report.probability_threshold:.2f}",
            )
        )
    parts.append(
        curve_chart(report.curve.points, report.curve.span, title="Cumulative tags against position, BTE's span shaded")
    )
    return "".join(f'<div class="figure">{p}</div>' for p in parts)


def render(report: Report) -> str:
    """The report as one HTML document (a string; write it as UTF-8)."""
    summary = (
        f"method {report.method} · {report.kept} of {len(report.blocks)} blocks kept · "
        f"{sum(b.words for b in report.blocks if b.kept)} of {sum(b.words for b in report.blocks)} words"
    )
    fields = _table("fields", ("field", "value", "source"), [(f.name, f.value, f.source) for f in report.fields])
    scores = _table("scores", ("score", "value"), [(k, _fmt(v)) for k, v in report.scores.items()])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>scrapy-bte explain: {escape(report.source)}</title><style>{STYLE}</style></head><body>"
        f'<header><h1>{escape(report.source)}</h1><p class="summary">{escape(summary)}</p></header>'
        '<section class="columns"><div><h2>Scores</h2>'
        + scores
        + "</div><div><h2>Fields</h2>"
        + (fields if report.fields else "<p>No fields found.</p>")
        + "</div></section>"
        '<section><h2>Figures</h2><div id="figures" class="figures">' + _figures(report) + "</div></section>"
        "<section><h2>Rules</h2>" + _rules(report) + "</section>"
        '<section><h2>Blocks</h2><p class="legend"><span class="kept">kept</span>'
        '<span class="dropped">dropped</span> Hover a block for its numbers and the rule that decided.</p>'
        '<div class="columns">' + _blocks(report) + _side_table(report) + "</div></section>"
        "</body></html>\n"
    )
