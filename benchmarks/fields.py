"""Article fields against the values mercury's own tests and WCXB expect, side by side with trafilatura.

For each mercury page (``<id>.meta.json`` holds the expected ``title``,
``author``, ``date_published`` and ``lead_image_url``) and each WCXB page
(its ``meta.json`` holds ``title``, ``author`` and ``date``, read with
:func:`scrapy_bte.training.wcxb.load_wcxb`) both readers run in the same
process on the same bytes:

* scrapy_bte: ``extract(html, url=page_url, fields=FIELD_NAMES)`` and its fields;
* trafilatura: ``trafilatura.bare_extraction(html, url=page_url, with_metadata=True)``.

A field is right when

* title: equal after folding case, punctuation and white space;
* author: the same set of name words (ignoring "By", "and" and commas);
* date: the same calendar day, or one day either way (time zones);
* image: the same URL after dropping the scheme and query string;

and each count is over the pages whose expected value is not null.
``--sources`` adds, per field and per markup source, how often that
source alone has a value and how often it is right: the order
:data:`scrapy_bte.fields.read.ORDER` follows from that table.
``--old-sets`` scores titles on the older sets against the first line of
their gold (which is the headline on most of their pages, not on all).

    python benchmarks/fields.py                     # mercury table, then WCXB's (overall and per page type)
    python benchmarks/fields.py --wcxb-only         # WCXB's tables alone
    python benchmarks/fields.py --sources           # per-source table
    python benchmarks/fields.py --old-sets          # titles on the five older sets
    python benchmarks/fields.py --languages         # declared language against the text's
    python benchmarks/fields.py --speed dragnet     # what reading the fields costs extract()
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
import unicodedata
from datetime import date, timedelta
from pathlib import Path

from common import load_set

from scrapy_bte.api import as_markup
from scrapy_bte.fields import read as read_fields
from scrapy_bte.fields.record import DEFAULT_FIELDS, FIELD_NAMES
from scrapy_bte.fields.values import name_words
from scrapy_bte.training.wcxb import load_wcxb

ROOT = Path(__file__).resolve().parent.parent

FIELDS = ("title", "author", "date", "image")
EXPECTED = {"title": "title", "author": "author", "date": "date_published", "image": "lead_image_url"}
OLD_SETS = ("dragnet", "l3s-gn1", "readability", "cleaneval-dev", "cleanportaleval")


def fold(text: str) -> str:
    """Case, punctuation and white space folded away."""
    kept = "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text.casefold())
    return " ".join(kept.split())


def _day(value: str | None) -> date | None:
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", value or "")
    if m is None:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _image_key(value: str) -> str:
    return re.sub(r"^https?:", "", value.split("?")[0]).rstrip("/")


def right(field: str, got: str | None, want: str) -> bool:
    if not got:
        return False
    if field == "title":
        return fold(got) == fold(want)
    if field == "author":
        return name_words(got) == name_words(want)
    if field == "date":
        a, b = _day(got), _day(want)
        return a is not None and b is not None and abs(a - b) <= timedelta(days=1)
    return _image_key(got) == _image_key(want)


def _trafilatura():
    try:
        import trafilatura
    except ImportError as exc:  # an optional peer
        print(f"note: trafilatura skipped: {exc}", file=sys.stderr)
        return None

    def run(html: bytes, url: str) -> dict[str, str | None]:
        found = trafilatura.bare_extraction(html, url=url, with_metadata=True)
        doc = found.as_dict() if found is not None else {}
        return {
            "title": doc.get("title"),
            "author": doc.get("author"),
            "date": doc.get("date"),
            "image": doc.get("image"),
        }

    return run


def _ours(html: bytes, url: str) -> tuple[dict[str, str | None], dict[str, str]]:
    from scrapy_bte import extract

    result = extract(html, url=url or None, fields=FIELD_NAMES)
    return result.fields(), result.field_sources


def mercury(data: Path, sources: bool) -> None:
    pages = sorted(data.glob("*.meta.json"))
    peer = _trafilatura()
    hits = {name: {"ours": 0, "trafilatura": 0, "n": 0} for name in FIELDS}
    by_source: dict[tuple[str, str], list[int]] = {}
    used: dict[tuple[str, str], list[int]] = {}
    misses: list[str] = []
    spent = {"ours": 0.0, "trafilatura": 0.0}
    for meta_path in pages:
        meta = json.loads(meta_path.read_text())
        html = meta_path.with_name(meta_path.name.replace(".meta.json", ".html")).read_bytes()
        url = meta["url"]
        t0 = time.perf_counter()
        ours, chosen_from = _ours(html, url)
        spent["ours"] += time.perf_counter() - t0
        theirs: dict[str, str | None] = {}
        if peer is not None:
            t0 = time.perf_counter()
            theirs = peer(html, url)
            spent["trafilatura"] += time.perf_counter() - t0
        page = read_fields.Page(as_markup(html, None, None, None)) if sources else None
        for name in FIELDS:
            want = meta.get(EXPECTED[name])
            if not want:
                continue
            hits[name]["n"] += 1
            ok = right(name, ours[name], want)
            hits[name]["ours"] += ok
            hits[name]["trafilatura"] += right(name, theirs.get(name), want)
            src = chosen_from.get(name, "-")
            used.setdefault((name, src), [0, 0])
            used[(name, src)][0] += 1
            used[(name, src)][1] += ok
            if not ok:
                misses.append(f"{meta_path.name[:-10]} {name}: got {ours[name]!r} want {want!r} ({src})")
            for source, value in read_fields.candidates(page, name, url) if page is not None else []:
                stats = by_source.setdefault((name, source), [0, 0])
                stats[0] += 1
                stats[1] += right(name, value, want)
    print(
        f"mercury: {len(pages)} pages; scrapy_bte {len(pages) / spent['ours']:.0f} pages/s (whole extract()), "
        f"trafilatura {len(pages) / max(spent['trafilatura'], 1e-9):.0f} pages/s\n"
    )
    print("| field | pages with a value | scrapy_bte | trafilatura |")
    print("|---|---:|---:|---:|")
    for name in FIELDS:
        h = hits[name]
        n = max(h["n"], 1)
        print(
            f"| {name} | {h['n']} | {h['ours']} ({h['ours'] / n:.0%}) | {h['trafilatura']} ({h['trafilatura'] / n:.0%}) |"
        )
    print("\nWhere scrapy_bte's values came from (pages, right):")
    for (name, src), (n, ok) in sorted(used.items()):
        print(f"  {name:7s} {src:16s} {n:4d} {ok:4d}")
    if sources:
        print("\n| field | source | pages where it has a value | right | share right |")
        print("|---|---|---:|---:|---:|")
        for (name, source), (n, ok) in sorted(by_source.items(), key=lambda kv: (kv[0][0], -kv[1][1] / kv[1][0])):
            print(f"| {name} | {source} | {n} | {ok} | {ok / n:.0%} |")
    if misses and sources:
        print("\nMisses:")
        print("\n".join(misses))


WCXB_FIELDS = ("title", "author", "date")


def wcxb(folder: Path, show_misses: bool = False) -> None:
    """Title, author and date on WCXB against trafilatura's metadata, overall and per page type."""
    pages = load_wcxb(folder)
    peer = _trafilatura()
    hits: dict[tuple[str, str], list[int]] = {}  # (page type or "all", field) -> [n, ours, trafilatura]
    # (page type or "all", field) -> [pages WCXB gives no value, ours gives one, trafilatura gives one]
    extra: dict[tuple[str, str], list[int]] = {}
    misses: list[str] = []
    spent = {"ours": 0.0, "trafilatura": 0.0}
    for page in pages:
        t0 = time.perf_counter()
        ours, chosen_from = _ours(page.html, page.url)
        spent["ours"] += time.perf_counter() - t0
        theirs: dict[str, str | None] = {}
        if peer is not None:
            t0 = time.perf_counter()
            theirs = peer(page.html, page.url or None)
            spent["trafilatura"] += time.perf_counter() - t0
        for name in WCXB_FIELDS:
            want = getattr(page, name)
            if not want:
                for group in ("all", page.page_type):
                    row = extra.setdefault((group, name), [0, 0, 0])
                    row[0] += 1
                    row[1] += bool(ours[name])
                    row[2] += bool(theirs.get(name))
                continue
            ok = right(name, ours[name], want)
            peer_ok = right(name, theirs.get(name), want)
            for group in ("all", page.page_type):
                row = hits.setdefault((group, name), [0, 0, 0])
                row[0] += 1
                row[1] += ok
                row[2] += peer_ok
            if not ok:
                misses.append(
                    f"{page.id} [{page.page_type}] {name}: got {ours[name]!r} want {want!r} "
                    f"({chosen_from.get(name, '-')}; trafilatura {'right' if peer_ok else repr(theirs.get(name))})"
                )
    print(
        f"\nWCXB: {len(pages)} pages; scrapy_bte {len(pages) / max(spent['ours'], 1e-9):.0f} pages/s (whole extract()), "
        f"trafilatura {len(pages) / max(spent['trafilatura'], 1e-9):.0f} pages/s\n"
    )
    print("| page type | field | pages with a value | scrapy_bte | trafilatura |")
    print("|---|---|---:|---:|---:|")
    groups = ["all", *sorted({g for g, _ in hits} - {"all"})]
    for group in groups:
        for name in WCXB_FIELDS:
            if (group, name) not in hits:
                continue
            n, ok, peer_ok = hits[(group, name)]
            print(f"| {group} | {name} | {n} | {ok} ({ok / n:.0%}) | {peer_ok} ({peer_ok / n:.0%}) |")
    # A value where the page has none: a shop's review author, a listing's first card's date.
    print("\n| page type | field | pages without a value | scrapy_bte gives one | trafilatura gives one |")
    print("|---|---|---:|---:|---:|")
    for group in groups:
        for name in WCXB_FIELDS:
            if (group, name) in extra and name != "title":
                n, ours_n, peer_n = extra[(group, name)]
                print(f"| {group} | {name} | {n} | {ours_n} ({ours_n / n:.0%}) | {peer_n} ({peer_n / n:.0%}) |")
    if show_misses and misses:
        print("\nMisses:")
        print("\n".join(misses))


def languages(data: Path) -> None:
    """Declared language (markup) against the language of the gold text (py3langid on the whole article)."""
    from scrapy_bte.api import parse
    from scrapy_bte.fields import language

    agree = differ = undeclared = sample_right = n = 0
    rows = []
    spent = 0.0
    for html_path in sorted(data.glob("*.html")):
        gold = html_path.with_suffix(".txt").read_text(errors="replace")
        truth, _ = language.detect(gold)
        if truth is None:
            continue
        n += 1
        markup = as_markup(html_path.read_bytes(), None, None, None)
        declared = read_fields.read_markup(markup).language
        doc = parse(html_path.read_bytes())
        t0 = time.perf_counter()
        guess, _ = language.detect(language.sample(doc.texts, doc.words.tolist()))
        spent += time.perf_counter() - t0
        sample_right += guess == truth
        if declared is None:
            undeclared += 1
        elif declared.split("-")[0] == truth:
            agree += 1
        else:
            differ += 1
            rows.append(f"  {html_path.stem}: declared {declared}, text {truth}")
    print(f"mercury pages with a detectable gold language: {n}")
    print(f"declared language agrees with the text: {agree}; differs: {differ}; not declared: {undeclared}")
    print(
        f"detected from the page's wordiest blocks = gold's language: {sample_right}/{n} "
        f"({1000 * spent / max(n, 1):.2f} ms per page)"
    )
    print("\n".join(rows))


def speed(data: Path, sets: list[str], repeat: int) -> None:
    """What reading the default fields costs ``extract()``: ``fields=DEFAULT_FIELDS`` against none on the same
    pages, alternating per page in one process (CPU time, best of ``repeat`` passes), so a busy
    machine slows both alike."""
    from scrapy_bte import extract

    print("| set | pages | extract() p/s | extract(fields=DEFAULT_FIELDS) p/s | fields cost |")
    print("|---|---:|---:|---:|---:|")
    for name in sets:
        pages = [page.html for page in load_set(data / name).pages]  # either layout (WCXB's is gzipped)
        if not pages:
            print(f"| {name} | 0 | | | no pages |")
            continue
        for html in pages[:3]:
            extract(html)
        best = [float("inf"), float("inf")]
        for _ in range(repeat):
            spent = [0.0, 0.0]
            for k, html in enumerate(pages):
                for which in (k % 2, 1 - k % 2):
                    t0 = time.process_time()
                    if which == 0:
                        extract(html)
                    else:
                        extract(html, fields=DEFAULT_FIELDS)
                    spent[which] += time.process_time() - t0
            best = [min(a, b) for a, b in zip(best, spent)]
        off, on = len(pages) / best[0], len(pages) / best[1]
        print(f"| {name} | {len(pages)} | {off:.0f} | {on:.0f} | {100 * (best[1] / best[0] - 1):+.1f}% time |")


def old_sets(data: Path) -> None:
    peer = _trafilatura()
    print("| set | pages | scrapy_bte title = gold first line | trafilatura |")
    print("|---|---:|---:|---:|")
    for name in OLD_SETS:
        folder = data / name
        n = ours = theirs = 0
        for html_path in sorted(folder.glob("*.html")):
            gold_path = html_path.with_suffix(".txt")
            if not gold_path.exists():
                continue
            lines = [ln.strip() for ln in gold_path.read_text(errors="replace").splitlines() if ln.strip()]
            if not lines:
                continue
            html = html_path.read_bytes()
            n += 1
            ours += right("title", _ours(html, "")[0]["title"], lines[0])
            if peer is not None:
                theirs += right("title", peer(html, "")["title"], lines[0])
        print(f"| {name} | {n} | {ours} ({ours / max(n, 1):.0%}) | {theirs} ({theirs / max(n, 1):.0%}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--sources", action="store_true", help="per-source table and the lists of misses")
    parser.add_argument("--wcxb-only", action="store_true", help="WCXB's tables alone")
    parser.add_argument("--old-sets", action="store_true", help="titles on the five older sets")
    parser.add_argument("--languages", action="store_true", help="declared against detected language")
    parser.add_argument("--speed", default=None, metavar="SETS", help="cost of the fields in extract() on these sets")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    if args.old_sets:
        old_sets(args.data)
    elif args.speed:
        speed(args.data, args.speed.split(","), args.repeat)
    elif args.languages:
        languages(args.data / "mercury")
    elif args.wcxb_only:
        wcxb(args.data / "wcxb", args.sources)
    else:
        mercury(args.data / "mercury", args.sources)
        wcxb(args.data / "wcxb", args.sources)


if __name__ == "__main__":
    main()
