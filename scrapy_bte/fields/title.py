"""The page's title, in a documented order of preference.

1. ``og:title`` (then ``twitter:title``): publishers set it to the headline
   without the site's name.
2. ``<title>`` with the site name stripped: split at the usual separators
   (`` | ``, `` - ``, `` – ``, `` — ``, `` :: ``, `` · ``, `` » ``) and drop
   the parts that name the site (``og:site_name`` when given, otherwise keep
   the longest part).
3. The first ``<h1>`` block.
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"\s+(?:\||-|–|—|::|·|»|/)\s+")


def strip_site_name(title: str, site_name: str | None = None) -> str:
    parts = [p.strip() for p in _SEPARATORS.split(title) if p.strip()]
    if len(parts) <= 1:
        return title.strip()
    if site_name:
        site = site_name.strip().lower()
        kept = [p for p in parts if p.lower() != site]
        if kept and len(kept) < len(parts):
            parts = kept
            if len(parts) == 1:
                return parts[0]
    return max(parts, key=len)


def choose_title(
    og_title: str | None, title_tag: str | None, h1: str | None, site_name: str | None = None
) -> str | None:
    if og_title:
        return og_title
    if title_tag:
        stripped = strip_site_name(title_tag, site_name)
        if stripped:
            return stripped
    return h1 or None


def document_title(doc) -> str | None:  # doc: Document
    h1_block = doc.first_block_opened_by("h1")
    h1 = doc.texts[h1_block] if h1_block is not None else None
    og = doc.meta.get("og:title") or doc.meta.get("twitter:title")
    return choose_title(og, doc.title_tag, h1, doc.meta.get("og:site_name"))
