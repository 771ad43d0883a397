"""Measure the per-character word weights for scripts written without spaces.

BTE weighs words against tags; Han/kana and Thai-family letters have no
spaces, so each letter counts as a fraction of a word. This sweeps the two
weights over the bundled multilingual pages (tests/fixtures/lang and the
example site's articles) and prints character-shingle F1 of method ``bte``
for each, so the constants in ``scrapy_bte/scripts.py`` rest on a measurement.

    python benchmarks/script_weights.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from scrapy_bte import extract
from scrapy_bte.core import scripts

ROOT = Path(__file__).resolve().parents[1]


def pages() -> list[tuple[str, bytes, str]]:
    found = []
    for html in sorted((ROOT / "tests/fixtures/lang").glob("*.html")) + sorted(
        (ROOT / "example_project/site").rglob("*.html")
    ):
        gold = html.with_suffix(".txt")
        if not gold.exists():
            gold = html.parent / "gold" / (html.stem + ".txt")
            if not gold.exists():
                gold = ROOT / "example_project/site/gold" / (html.stem + ".txt")
        if gold.exists() and scripts.has_spaceless(gold.read_text(encoding="utf-8")):
            found.append((html.name, html.read_bytes(), gold.read_text(encoding="utf-8")))
    return found


def main() -> int:
    data = pages()
    print(f"{len(data)} pages written without spaces\n")
    print("| cjk weight | sea weight | char F1 (bte) | char F1 (hybrid) |")
    print("| ---: | ---: | ---: | ---: |")
    for cjk in (0.2, 0.4, 0.6, 0.8, 1.0, 1.5):
        for sea in (0.1, 0.2, 0.3, 0.5, 1.0):
            scripts.CJK_WEIGHT, scripts.SEA_WEIGHT = cjk, sea
            f_bte = sum(scripts.char_f1(extract(h, method="bte").text, g) for _, h, g in data) / len(data)
            f_hyb = sum(scripts.char_f1(extract(h, method="hybrid").text, g) for _, h, g in data) / len(data)
            print(f"| {cjk} | {sea} | {f_bte:.3f} | {f_hyb:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
