"""The output formats of ``scrapy-bte extract``: text, one JSON array, JSON lines, CSV.

Each writer streams: a page is written when its extraction is done, so a
corpus of millions never sits in memory, and ``json`` is still one valid
JSON array (opened before the first page, closed after the last). The
names follow Scrapy's feed exports (``json`` an array, ``jsonlines`` or
``jsonl`` one object per line), and CSV has the columns of the crawl's flat
mode (``BTE_FLAT_SCORES`` with the default ``BTE_FIELDS``), so a crawl's
export and a batch run's read the same way.
"""

from __future__ import annotations

import csv
import json
from typing import Any, TextIO

from .fields.record import DEFAULT_ITEM_FIELDS, ITEM_FIELDS
from .result import FLAT_SCORE_FIELDS, Extraction
from .terminal import printable

#: ``--format`` values; ``jsonlines`` is Scrapy's name for ``jsonl``.
FORMATS = ("text", "json", "jsonl", "jsonlines", "csv")


#: The fields of a CSV row: the crawl's default ``BTE_FIELDS``, in the order items list them.
CSV_FIELDS = tuple(name for name in ITEM_FIELDS if name in DEFAULT_ITEM_FIELDS)


def csv_columns(comments: bool = False) -> tuple[str, ...]:
    """The CSV header: the page's source, its text, the flat scores, the default fields."""
    return ("source", "text", *FLAT_SCORE_FIELDS.values(), *CSV_FIELDS) + (("comments",) if comments else ())


def record(source: str, result: Extraction) -> dict[str, Any]:
    """One page as the JSON formats write it: its source and every key of ``to_dict()``."""
    return {"source": source, **result.to_dict()}


def flat_record(source: str, result: Extraction, comments: bool = False) -> dict[str, Any]:
    """One page as a CSV row, keyed by :func:`csv_columns`."""
    scores = result.scores()
    row: dict[str, Any] = {"source": source, "text": result.text}
    row.update({column: scores.get(key) for key, column in FLAT_SCORE_FIELDS.items()})
    row.update({name: getattr(result, name) for name in CSV_FIELDS})
    if comments:
        row["comments"] = result.comments
    return row


class Writer:
    """Writes pages to ``out`` in one format; :meth:`close` ends the document."""

    def __init__(self, out: TextIO, fmt: str, *, headers: bool = False, title: bool = False, comments: bool = False):
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        self.out = out
        self.format = "jsonl" if fmt == "jsonlines" else fmt
        self.headers, self.title, self.comments = headers, title, comments
        self.count = 0
        self._csv: Any = None
        if self.format == "csv":
            # Excel and most readers want CRLF rows; csv's default. Text cells keep their newlines, quoted.
            self._csv = csv.DictWriter(out, fieldnames=csv_columns(comments), extrasaction="ignore")
            self._csv.writeheader()
        elif self.format == "json":
            out.write("[")

    def write(self, source: str, result: Extraction) -> None:
        if self.format == "csv":
            self._csv.writerow(
                {k: "" if v is None else v for k, v in flat_record(source, result, self.comments).items()}
            )
        elif self.format == "json":
            self.out.write(("\n" if not self.count else ",\n") + _dumps(record(source, result)))
        elif self.format == "jsonl":
            self.out.write(_dumps(record(source, result)) + "\n")
        else:
            self._write_text(source, result)
        self.count += 1

    def write_error(self, source: str, error: str) -> None:
        """An input that gave no extraction: its record in the JSON formats and CSV
        (``source`` and ``error``, so every input has one), nothing in text (stderr has the line)."""
        if self.format == "csv":
            self._csv.writerow({"source": source, FLAT_SCORE_FIELDS["error"]: error})
        elif self.format in ("json", "jsonl"):
            data = _dumps({"source": source, "error": error})
            if self.format == "jsonl":
                self.out.write(data + "\n")
            else:
                self.out.write(("\n" if not self.count else ",\n") + data)
        else:
            return
        self.count += 1

    def _write_text(self, source: str, result: Extraction) -> None:
        if self.headers:
            self.out.write(f"==> {printable(source)} <==\n")
        if self.title and result.title:
            self.out.write(result.title + "\n\n")
        self.out.write(result.text + ("\n" if result.text else ""))
        if result.comments:
            self.out.write("\n" + result.comments + "\n")

    def close(self) -> None:
        """End the document (the JSON array's bracket); the stream stays open."""
        if self.format == "json":
            self.out.write("\n]\n" if self.count else "]\n")


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)
