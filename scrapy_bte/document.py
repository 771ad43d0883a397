"""The document model every method reads, built in one pass over the markup.

Why not a DOM: a full lxml tree per page costs about as much as the fastest
extractors spend in total, and libxml2 silently drops content nested deeper
than 255 levels. Instead the markup is cut at tags by one C-level regex split;
everything after that is array arithmetic (numpy) plus one short Python loop
over block-level tags only, to keep the open-element stack.

Stages:

1. **Step 0** (improved BTE): drop what never holds main text: comments,
   ``<script>``, ``<style>``, ``<noscript>``, ``<template>``, ``<svg>``,
   ``<iframe>``, form controls, media, ``<marquee>``, ``<title>`` (kept
   aside for the title).
2. **Tokens** (Finn): each tag is a token worth -1, each word +1 (letters of
   scripts without spaces count a fraction, see :mod:`scrapy_bte.scripts`);
   consecutive tokens of one kind are run-length encoded (Baroni).
3. **Blocks**: text between block-level tags (and ``<br>``) forms a block
   with its features: words, characters, markup bytes and tags that produced
   it (markup of empty blocks is carried into the next text block, as in the
   text-density write-up), link words, container element and depth.
"""

from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .scripts import has_spaceless, weighted_words

# Elements whose content is dropped in step 0. Raw-text elements run to the
# end of the document when unclosed (as in a browser); for the others only an
# unclosed start tag is dropped.
_RAWTEXT = frozenset({"script", "style", "textarea", "title", "xmp", "noembed", "plaintext", "noscript", "iframe"})
_DROP = _RAWTEXT | frozenset(
    {"template", "svg", "math", "object", "select", "button", "canvas", "video", "audio",
     "marquee", "applet", "datalist", "map"}
)
_OPEN_RE = re.compile(
    r"<(?:!--|!|\?|(" + "|".join(sorted(_DROP)) + r")(?=[\s/>]))", re.IGNORECASE
)
_CLOSE_RE = {name: re.compile(rf"</{name}\s*>|</{name}(?=[\s/])[^>]*>", re.IGNORECASE) for name in _DROP}
_COMMENT_END_RE = re.compile(r"--!?>")
_TAG_RE = re.compile(r"<(/?)([A-Za-z][^\s/<>]*)([^<>]*)>")
_META_RE = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_ATTR_RE = re.compile(r"""([a-zA-Z_:][-\w:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")

BLOCK_TAGS = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 header hgroup hr
    html legend li main menu nav noframes ol p pre section summary table tbody td tfoot th
    thead tr ul""".split()
)
_VOID_BLOCKS = frozenset({"br", "hr", "frame"})
# A start tag that implicitly closes an open element of these names.
_AUTOCLOSE = {
    "p": frozenset({"p"}),
    "li": frozenset({"li", "p"}),
    "dt": frozenset({"dt", "dd", "p"}),
    "dd": frozenset({"dt", "dd", "p"}),
    "tr": frozenset({"tr", "td", "th"}),
    "td": frozenset({"td", "th"}),
    "th": frozenset({"td", "th"}),
}
# How far down the stack an end tag may look for its element; bounds the
# work per tag on pages with thousands of unclosed elements.
_CLOSE_SEARCH = 48


def _attrs(raw: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR_RE.finditer(raw):
        key = m.group(1).lower()
        if key not in out:
            val = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
            out[key] = _html.unescape(val)
    return out


def _clean_text(raw: str) -> str:
    if "&" in raw:
        raw = _html.unescape(raw)
    return " ".join(raw.split())


def step0(markup: str) -> tuple[str, str | None]:
    """Drop comments and content-free elements; return (markup, <title> text)."""
    out: list[str] = []
    title: str | None = None
    pos = 0
    n = len(markup)
    search = _OPEN_RE.search
    while True:
        m = search(markup, pos)
        if m is None:
            break
        start = m.start()
        out.append(markup[pos:start])
        lead = markup[start + 1]
        if lead == "!" and markup.startswith("!--", start + 1):
            body = start + 4
            if markup.startswith(">", body) or markup.startswith("->", body):
                pos = markup.index(">", body) + 1  # "<!-->" and "<!--->" close at once
                continue
            end = _COMMENT_END_RE.search(markup, body)
            pos = n if end is None else end.end()
            continue
        if lead in "!?":  # doctype, CDATA, bogus comment, processing instruction
            end = markup.find(">", start)
            pos = n if end < 0 else end + 1
            continue
        name = m.group(1).lower()
        open_end = markup.find(">", m.end())
        if open_end < 0:
            pos = n
            break
        close = _CLOSE_RE[name].search(markup, open_end + 1)
        if close is None:
            pos = n if name in _RAWTEXT else open_end + 1
            if name == "title" and title is None:
                title = _clean_text(markup[open_end + 1 : open_end + 2000])
            continue
        if name == "title" and title is None:
            title = _clean_text(markup[open_end + 1 : close.start()])
        pos = close.end()
    out.append(markup[pos:])
    return "".join(out), title


def meta_content(markup: str, keys: tuple[str, ...], limit: int = 200_000) -> dict[str, str]:
    """First ``content`` of ``<meta property|name=KEY>`` for each key (page head only)."""
    found: dict[str, str] = {}
    head_end = markup.find("<body")
    stop = limit if head_end < 0 else min(limit, head_end + 1)
    for m in _META_RE.finditer(markup, 0, stop):
        attrs = _attrs(m.group(0)[5:-1])
        key = (attrs.get("property") or attrs.get("name") or "").lower()
        if key in keys and key not in found and attrs.get("content"):
            found[key] = " ".join(attrs["content"].split())
    return found


@dataclass
class Document:
    """Text blocks with features, BTE token runs and the element tree's skeleton.

    Arrays are indexed by block (only blocks with words exist). Runs are the
    run-length encoded token sequence (+words, -tags); ``run_segments`` maps
    each run to the raw text segments it spans so spans can be cut exactly.
    """

    texts: list[str]
    words: np.ndarray
    chars: np.ndarray
    tags: np.ndarray
    bytes: np.ndarray
    link_words: np.ndarray
    depth: np.ndarray
    container: np.ndarray
    el_name: list[str]
    el_attrs: list[str]
    el_parent: list[int]
    runs: np.ndarray
    run_seg_first: np.ndarray
    run_seg_last: np.ndarray
    segments: list[str]
    seg_block: np.ndarray
    title_tag: str | None = None
    meta: dict[str, str] = field(default_factory=dict)
    total_tags: int = 0
    source_chars: int = 0
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def n_blocks(self) -> int:
        return len(self.texts)

    @property
    def total_words(self) -> float:
        return float(self.words.sum())

    def element_path(self, block: int) -> list[int]:
        """Element ids from the block's container up to the root."""
        path = []
        el = int(self.container[block])
        while el > 0:
            path.append(el)
            el = self.el_parent[el]
        return path

    def block_tag(self, block: int) -> str:
        return self.el_name[int(self.container[block])]

    def first_block_in(self, name: str) -> int | None:
        for b in range(self.n_blocks):
            if self.el_name[int(self.container[b])] == name:
                return b
        return None


def _empty_document(title: str | None, meta: dict[str, str], source_chars: int) -> Document:
    f = np.zeros(0, dtype=np.float64)
    i = np.zeros(0, dtype=np.int64)
    return Document(
        texts=[], words=f, chars=i, tags=i, bytes=i, link_words=f, depth=i, container=i,
        el_name=["#root"], el_attrs=[""], el_parent=[-1], runs=f, run_seg_first=i,
        run_seg_last=i, segments=[], seg_block=i, title_tag=title, meta=meta,
        source_chars=source_chars,
    )


def build(markup: str) -> Document:
    """Build the document model from decoded markup."""
    meta = meta_content(markup, ("og:title", "og:site_name", "twitter:title"))
    cleaned, title = step0(markup)
    if "&nbsp;" in cleaned:
        cleaned = cleaned.replace("&nbsp;", " ")
    parts = _TAG_RE.split(cleaned)
    segments = parts[0::4]
    slashes = parts[1::4]
    lnames = list(map(str.lower, parts[2::4]))
    attrs = parts[3::4]
    n_tags = len(lnames)
    if not any(map(str.strip, segments)):
        return _empty_document(title, meta, len(markup))

    if has_spaceless(cleaned):
        seg_words = np.fromiter(map(weighted_words, segments), np.float64, n_tags + 1)
    else:
        seg_words = np.fromiter(map(len, map(str.split, segments)), np.float64, n_tags + 1)
    seg_len = np.fromiter(map(len, segments), np.int64, n_tags + 1)
    closing = np.fromiter(map(bool, slashes), bool, n_tags)
    tag_len = (
        np.fromiter(map(len, lnames), np.int64, n_tags)
        + np.fromiter(map(len, attrs), np.int64, n_tags)
        + closing
        + 2
    )
    is_block = np.fromiter(map(BLOCK_TAGS.__contains__, lnames), bool, n_tags)

    # Segment k lies after tag k-1: its raw block is the number of block tags before it.
    seg_rawblock = np.zeros(n_tags + 1, dtype=np.int64)
    np.cumsum(is_block, out=seg_rawblock[1:])
    tag_rawblock = seg_rawblock[:-1]
    n_raw = int(seg_rawblock[-1]) + 1

    # Inside a link: the last <a> or </a> before the segment was an opening one.
    is_a = np.fromiter(map("a".__eq__, lnames), bool, n_tags)
    a_event = np.where(is_a, np.arange(n_tags), -1)
    last_a = np.maximum.accumulate(a_event) if n_tags else a_event
    in_link = np.zeros(n_tags + 1, dtype=bool)
    if n_tags:
        in_link[1:] = (last_a >= 0) & ~closing[np.maximum(last_a, 0)]

    raw_words = np.bincount(seg_rawblock, seg_words, n_raw)
    raw_link = np.bincount(seg_rawblock, seg_words * in_link, n_raw)
    raw_tags = np.bincount(tag_rawblock, minlength=n_raw) if n_tags else np.zeros(n_raw, np.int64)
    raw_bytes = np.bincount(seg_rawblock, seg_len, n_raw) + (
        np.bincount(tag_rawblock, tag_len, n_raw) if n_tags else 0
    )

    # Open-element stack over block-level tags only.
    block_tag_idx = np.flatnonzero(is_block)
    el_name = ["#root"]
    el_attrs = [""]
    el_parent = [-1]
    stack = [0]
    raw_container = np.zeros(n_raw, dtype=np.int64)
    raw_depth = np.zeros(n_raw, dtype=np.int64)
    rb = 1
    for t in block_tag_idx.tolist():
        name = lnames[t]
        if slashes[t]:
            for k in range(len(stack) - 1, max(0, len(stack) - _CLOSE_SEARCH), -1):
                if el_name[stack[k]] == name:
                    del stack[k:]
                    break
        elif name not in _VOID_BLOCKS:
            closes = _AUTOCLOSE.get(name)
            if closes is not None and el_name[stack[-1]] in closes:
                stack.pop()
            el_name.append(name)
            el_attrs.append(attrs[t])
            el_parent.append(stack[-1])
            stack.append(len(el_name) - 1)
        raw_container[rb] = stack[-1]
        raw_depth[rb] = len(stack) - 1
        rb += 1

    keep = np.flatnonzero(raw_words > 0)
    # Markup of empty blocks counts toward the next block with text.
    cum_bytes = np.cumsum(raw_bytes)
    cum_tags = np.cumsum(raw_tags)
    prev = np.concatenate(([-1], keep[:-1]))
    blk_bytes = cum_bytes[keep] - np.where(prev >= 0, cum_bytes[np.maximum(prev, 0)], 0)
    blk_tags = cum_tags[keep] - np.where(prev >= 0, cum_tags[np.maximum(prev, 0)], 0)

    first_seg = np.concatenate(([0], block_tag_idx + 1, [n_tags + 1]))
    texts: list[str] = []
    for b in keep.tolist():
        texts.append(_clean_text("".join(segments[first_seg[b] : first_seg[b + 1]])))
    chars = np.fromiter(map(len, texts), np.int64, len(texts))

    # Map raw blocks to kept-block indices (-1 for empty ones) for segments.
    raw_to_block = np.full(n_raw, -1, dtype=np.int64)
    raw_to_block[keep] = np.arange(len(keep))
    seg_block = raw_to_block[seg_rawblock]

    runs, run_first, run_last = _runs(seg_words, n_tags)
    return Document(
        texts=texts,
        words=raw_words[keep],
        chars=chars,
        tags=blk_tags,
        bytes=blk_bytes,
        link_words=raw_link[keep],
        depth=raw_depth[keep],
        container=raw_container[keep],
        el_name=el_name,
        el_attrs=el_attrs,
        el_parent=el_parent,
        runs=runs,
        run_seg_first=run_first,
        run_seg_last=run_last,
        segments=segments,
        seg_block=seg_block,
        title_tag=title,
        meta=meta,
        total_tags=n_tags,
        source_chars=len(markup),
    )


def _runs(seg_words: np.ndarray, n_tags: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length encode the token sequence: word runs > 0, tag runs < 0.

    Returns the run values and, per run, the first and last text segment it
    touches (tag runs report the segments around them).
    """
    seq = np.empty(2 * n_tags + 1, dtype=np.float64)
    seq[0::2] = seg_words
    seq[1::2] = -1.0
    nz = np.flatnonzero(seq)
    vals = seq[nz]
    positive = vals > 0
    starts = np.flatnonzero(np.concatenate(([True], positive[1:] != positive[:-1])))
    runs = np.add.reduceat(vals, starts) if len(vals) else vals
    ends = np.concatenate((starts[1:], [len(nz)])) - 1
    return runs, nz[starts] // 2, nz[ends] // 2


def attributes(raw: str) -> dict[str, str]:
    """Parse a tag's raw attribute string (used by features and titles)."""
    return _attrs(raw)
