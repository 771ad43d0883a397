"""WCXB tables: quality per page type with the benchmark's own metric.

    python benchmarks/wcxb.py [--limit N] [--types forum,listing] [--json out.json] [run.py options]

is ``run.py`` on the ``wcxb`` set with the rows WCXB is compared on (the
default ``scrapy_bte.auto``, ``scrapy_bte.hybrid``, trafilatura, resiliparse,
readability-lxml, jusText); any ``run.py`` option may follow and wins. The
functions here turn each page's output into the benchmark's per-page record
(:func:`page_record`) and the records into Markdown tables (:func:`report`);
``run.py`` calls them for every WCXB set it scores, so one run prints the
WCXB tables next to the other sets' tables and the speed tables.

Per page: word-level precision, recall and F1
(:func:`scrapy_bte.training.wcxb.word_scores`), the share of ``with``
snippets found and of ``without`` snippets kept (a page without snippets of
a kind is left out of that mean), and whether the output is *short*: under
20 % of the gold's words (recall under 0.2) while the gold has 100 words or
more. Every column is a mean over pages; ``all`` is the mean over all pages,
not over the page types. When the outputs carry ``page_type``, the page-type
accuracy and the confusion matrix against the gold type follow.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from scrapy_bte.core.scripts import tokens
from scrapy_bte.training.wcxb import WcxbPage, snippet_hits, word_scores

#: The benchmark's order of page types (its evaluate.py), then any other type seen.
TYPE_ORDER = ("article", "forum", "product", "collection", "listing", "documentation", "service")
#: The rows WCXB is compared on, in ``run.py``'s names.
ROWS = "scrapy_bte.auto,scrapy_bte.hybrid,trafilatura,resiliparse,readability,justext"
#: A page is *short* when the output holds under this share of the gold's words...
SHORT_RECALL = 0.2
#: ...and the gold has at least this many words.
SHORT_MIN_WORDS = 100


def page_record(output_text: str, page_type: str | None, page: WcxbPage) -> dict[str, Any]:
    """The benchmark's numbers for one output (``page_type``: the extractor's guess, if any)."""
    precision, recall, f1 = word_scores(output_text, page.gold)
    gold_words = len(tokens(page.gold))
    return {
        "type": page.page_type,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "with_found": snippet_hits(output_text, page.with_snippets),
        "with_total": len(page.with_snippets),
        "without_kept": snippet_hits(output_text, page.without_snippets),
        "without_total": len(page.without_snippets),
        "short": gold_words >= SHORT_MIN_WORDS and recall < SHORT_RECALL,
        "predicted_type": page_type,
    }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _share(records: list[dict[str, Any]], hits: str, total: str) -> float:
    return _mean([r[hits] / r[total] for r in records if r[total]])


def type_order(records: list[dict[str, Any]]) -> list[str]:
    seen = {r["type"] for r in records}
    return [t for t in TYPE_ORDER if t in seen] + sorted(seen - set(TYPE_ORDER))


def summarise(records: list[dict[str, Any]], seconds: list[float]) -> dict[str, float]:
    """Means over the given pages, the short-page count and pages/s."""
    total = sum(seconds)
    return {
        "pages": len(records),
        "f1": _mean([r["f1"] for r in records]),
        "precision": _mean([r["precision"] for r in records]),
        "recall": _mean([r["recall"] for r in records]),
        "with_found": _share(records, "with_found", "with_total"),
        "without_kept": _share(records, "without_kept", "without_total"),
        "short": sum(r["short"] for r in records),
        "pages_per_s": len(records) / total if total else float("nan"),
    }


def _pct(value: float) -> str:
    return "—" if value != value else f"{100 * value:.1f} %"


def _num(value: float) -> str:
    return "—" if value != value else f"{value:.3f}"


def _speed(value: float) -> str:
    return "—" if value != value else f"{value:.0f}" if value >= 100 else f"{value:.1f}"


def summaries(
    rows: dict[str, tuple[list[dict[str, Any]], list[float]]],
) -> dict[str, dict[str, dict[str, float]]]:
    """``{row: {"all" | type: summary}}`` from each row's records and per-page seconds."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name, (records, seconds) in rows.items():
        groups: dict[str, list[int]] = defaultdict(list)
        for i, record in enumerate(records):
            groups[record["type"]].append(i)
        per = {"all": summarise(records, seconds)}
        for page_type in type_order(records):
            idx = groups[page_type]
            per[page_type] = summarise([records[i] for i in idx], [seconds[i] for i in idx])
        out[name] = per
    return out


def report(rows: dict[str, tuple[list[dict[str, Any]], list[float]]], set_name: str = "wcxb") -> str:
    """Markdown: F1 by page type, then one table per page type, then page-type accuracy."""
    if not rows:
        return ""
    table = summaries(rows)
    first = next(iter(rows.values()))[0]
    groups = ["all", *type_order(first)]
    counts = {g: table[next(iter(table))][g]["pages"] for g in groups}
    out = [
        f"### {set_name}: F1 by page type (WCXB word metric, mean over pages)\n",
        "| extractor | " + " | ".join(f"{g} ({counts[g]})" for g in groups) + " |",
        "|---|" + "---:|" * len(groups),
    ]
    for name, per in table.items():
        out.append(f"| {name} | " + " | ".join(_num(per[g]["f1"]) for g in groups) + " |")
    head = (
        "| extractor | F1 | P | R | with found | without kept | "
        f"short (< {SHORT_RECALL:.0%} of gold, gold >= {SHORT_MIN_WORDS} words) | p/s |"
    )
    for group in groups:
        out += ["", f"#### {set_name} · {group} ({counts[group]} pages)\n", head, "|---|" + "---:|" * 7]
        for name, per in table.items():
            s = per[group]
            cells = [_num(s["f1"]), _num(s["precision"]), _num(s["recall"])]
            cells += [_pct(s["with_found"]), _pct(s["without_kept"]), str(s["short"]), _speed(s["pages_per_s"])]
            out.append(f"| {name} | " + " | ".join(cells) + " |")
    shown: dict[tuple[Any, ...], str] = {}
    for name, (records, _) in rows.items():
        typed = page_type_report(records)
        if not typed:
            continue
        guesses = tuple(r["predicted_type"] for r in records)
        if guesses in shown:
            out += ["", f"#### {set_name} · page type of {name}: as {shown[guesses]}"]
            continue
        shown[guesses] = name
        out += ["", f"#### {set_name} · page type of {name}\n", typed]
    return "\n".join(out)


def page_type_report(records: list[dict[str, Any]]) -> str:
    """Accuracy and confusion matrix (rows: gold type, columns: predicted), if predicted."""
    pairs = [(r["type"], r["predicted_type"]) for r in records if r["predicted_type"] is not None]
    if not pairs:
        return ""
    gold_types = type_order(records)
    predicted = sorted({p for _, p in pairs} - set(gold_types))
    columns = gold_types + predicted
    confusion = Counter(pairs)
    right = sum(n for (g, p), n in confusion.items() if g == p)
    lines = [
        f"Accuracy {right / len(pairs):.3f} ({right}/{len(pairs)} pages"
        + (f"; {len(records) - len(pairs)} without a type" if len(pairs) < len(records) else "")
        + ")\n",
        "| gold \\ predicted | " + " | ".join(columns) + " | recall |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    for gold in gold_types:
        row = [confusion[(gold, p)] for p in columns]
        total = sum(row)
        lines.append(
            f"| {gold} | "
            + " | ".join(str(n) for n in row)
            + f" | {_num(row[columns.index(gold)] / total) if total else '—'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import run  # the runner: this script is run.py with WCXB's rows on the wcxb set

    args = list(sys.argv[1:] if argv is None else argv)
    return run.main(["--sets", "wcxb", "--extractors", ROWS, *args])


if __name__ == "__main__":
    sys.exit(main())
