"""``extract()``: the library's one entry point."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from numbers import Integral
from typing import Any

import numpy as np

from .core.blas import one_thread
from .core.decode import looks_binary_text, non_html_format, to_unicode
from .core.document import Document, build, clean_text
from .core.hidden import undoubled
from .errors import ConfigError, ExtractionError
from .fields import dates as _dates
from .fields import zones as _zones
from .fields.read import read_document
from .fields.record import FIELD_NAMES
from .learned import auto as _auto
from .learned import model as _model
from .learned import page_type as _page_type
from .learned.profiles import profile, selection_type
from .methods import bte as _bte
from .methods import comments as _comments
from .methods import density as _density
from .methods import hybrid as _hybrid
from .methods import letterless as _letterless
from .methods.reasons import Reason, Trace
from .result import Extraction

METHODS = ("bte", "density", "hybrid", "model", "auto")
#: The methods that read a block model (``model_path``) and follow the page type.
LEARNED_METHODS = ("model", "auto")
DEFAULT_METHOD = "auto"
#: Inputs above this many bytes are refused unless ``max_bytes`` says otherwise.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024

HtmlInput = Any  # bytes | str | lxml element
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate as U+FFFD: a str from a lenient decoder upstream
    (``json.loads`` of ``"\\ud800"``, ``surrogateescape``) that UTF-8 could not encode again."""
    return text if text.isascii() else _SURROGATE_RE.sub("\ufffd", text)


def as_markup(html: HtmlInput, encoding: str | None, content_type: str | None, max_bytes: int | None) -> str:
    """Decoded markup of any accepted input: what :func:`parse` builds from and labels read."""
    if max_bytes is not None and (not isinstance(max_bytes, Integral) or isinstance(max_bytes, bool)):
        raise ConfigError(f"max_bytes must be a whole number of bytes or None, got {max_bytes!r}")
    if isinstance(html, (bytes, bytearray, memoryview)):
        data = bytes(html)
        if max_bytes is not None and len(data) > max_bytes:
            raise ExtractionError(f"document of {len(data)} bytes exceeds max_bytes={max_bytes}")
        return to_unicode(data, encoding=encoding, content_type=content_type)[0]
    if isinstance(html, str):
        if max_bytes is not None and len(html) > max_bytes:
            raise ExtractionError(f"document of {len(html)} characters exceeds max_bytes={max_bytes}")
        if looks_binary_text(html):
            raise ExtractionError("binary body: not an HTML document")
        kind = non_html_format(html)
        if kind is not None:
            raise ExtractionError(f"{kind} body: not an HTML document")
        if "\x00" in html:
            html = html.replace("\x00", "")
        return without_surrogates(html)
    if hasattr(html, "tag") and hasattr(html, "getroottree"):
        from lxml import etree

        # Serialising leaves the caller's tree untouched and feeds the same path as bytes.
        markup: str = etree.tostring(html, encoding="unicode", method="html")
        return markup
    raise ExtractionError(f"extract() takes bytes, str or an lxml element, not {type(html).__name__}")


def parse(
    html: HtmlInput,
    *,
    encoding: str | None = None,
    content_type: str | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
) -> Document:
    """Decode and build the document model (for methods, features and reports)."""
    return build(as_markup(html, encoding, content_type, max_bytes))


def _span_paragraphs(doc: Document, span: _bte.Span) -> tuple[list[str], list[int]]:
    """The words inside BTE's span exactly, grouped by block.

    A block is the text of its segments joined and cleaned, so a block the span holds whole is
    its text as the model has it; only a block the span starts or ends inside is read again,
    from its segments in the span (an eighth of the time of joining every segment anew).
    """
    first = span.first_segment
    seg_block = doc.seg_block
    owners = seg_block[first : span.last_segment + 1]
    inside = owners[owners >= 0]
    if not len(inside):
        return [], []
    # Blocks are runs of segments in page order: the span holds every block from its first to its last.
    head, tail = int(inside[0]), int(inside[-1])
    blocks = list(range(head, tail + 1))
    paragraphs = doc.texts[head : tail + 1]
    for end in {0, len(blocks) - 1}:
        held = np.flatnonzero(owners == blocks[end])
        if len(held) < np.count_nonzero(seg_block == blocks[end]):
            segments = doc.segment_texts(first + int(held[0]), first + int(held[-1]))
            paragraphs[end] = clean_text("".join(segments))
    if all(paragraphs):
        return paragraphs, blocks
    return [t for t in paragraphs if t], [b for b, t in zip(blocks, paragraphs) if t]


def _confidence(doc: Document, kept: np.ndarray, span: _bte.Span | None) -> float:
    """How much to trust the result, in [0, 1].

    An equal blend of BTE's score (a clear text plateau), the kept text's
    density (little markup per character) and its length (log scale, full at
    about 3,000 words). Weights chosen by rank correlation with per-page F1
    on the development sets (Spearman about 0.47 for ``hybrid``).
    """
    if not kept.any():
        return 0.0
    words = float(doc.words[kept].sum())
    kept_bytes = float(doc.bytes[kept].sum())
    density = float(doc.chars[kept].sum()) / kept_bytes if kept_bytes else 0.0
    # Over at least one word: a page of a few letters of a script without spaces is no plateau.
    bte = _bte.span_score(span, max(doc.total_words, 1.0))
    length = min(np.log1p(words), 8.0) / 8.0
    score = 0.4 * bte + 0.4 * min(density, 1.0) + 0.2 * length
    return float(min(max(score, 0.0), 1.0))


def extract(
    html: HtmlInput,
    *,
    method: str = DEFAULT_METHOD,
    url: str | None = None,
    fields: tuple[str, ...] | list[str] | None = (),
    page_type: bool = True,
    encoding: str | None = None,
    content_type: str | None = None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    **options: Any,
) -> Extraction:
    """Extract the main text of one page.

    ``html`` is bytes (decoded by BOM, ``content_type`` header, ``encoding``,
    ``<meta charset>``, then sniffing), str, or an lxml element (not
    modified). ``url`` is the page's address: relative URLs in its fields
    (``image``, ``canonical_url``) resolve against it; it is never a
    source of field values, but its path is evidence of ``page_type``
    (``/t/``, ``/products/``, ``/docs/``, ...). ``fields`` names the article fields to read
    (:data:`~scrapy_bte.fields.record.DEFAULT_FIELDS`,
    :data:`~scrapy_bte.fields.record.FIELD_NAMES` for all); by default
    none is read, as reading them costs 20-25 % more time per page;
    ``title`` is always read, by the same rule (:mod:`scrapy_bte.fields.title`).
    ``page_type=False`` leaves the page-type classifier out where the method
    does not need it: ``bte``, ``hybrid`` and ``density`` then return
    ``page_type`` None and run 1.5 and 1.3 times as fast (``bte``, ``hybrid``:
    the classifier reads the element tree, which they otherwise never build);
    ``auto`` and ``model`` classify every page, as their rules depend on the
    type, and report it either way. ``options`` tune the method (see the README). Raises
    :class:`~scrapy_bte.errors.ExtractionError` for input that is not a
    document (binary bodies, wrong types, over ``max_bytes``) and
    :class:`~scrapy_bte.errors.ConfigError` for unknown methods or options and for arguments of the
    wrong type (``fields`` not a list of names, ``url`` not a str, ``max_bytes`` not a whole number).
    """
    if method not in METHODS:
        raise ConfigError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    wanted = check_fields(fields)
    doc = parse(html, encoding=encoding, content_type=content_type, max_bytes=max_bytes)
    return extract_document(doc, method=method, url=url, fields=wanted, page_type=page_type, **options)


#: The learned methods hold about 2.5 KB per block at their peak (feature
#: columns, then the model's layers over all blocks at once): 250 times the
#: body on a page of one-word paragraphs. Pages with more blocks than
#: this many, and more than one per ``LEARNED_BYTES_PER_BLOCK`` characters
#: of markup, run ``hybrid`` instead (the result's ``method`` says so),
#: which needs no per-block matrix. Every development page has at most
#: 2,400 blocks; the pages past both bounds are block soups (data
#: dumps, tables of numbers), not articles.
LEARNED_MIN_BLOCKS = 4096
LEARNED_BYTES_PER_BLOCK = 128


def learned_fits(doc: Document) -> bool:
    """Whether the learned methods' memory stays within bounds on ``doc``."""
    return doc.n_blocks <= max(LEARNED_MIN_BLOCKS, doc.source_chars // LEARNED_BYTES_PER_BLOCK)


def check_fields(fields: Any) -> tuple[str, ...]:
    """The ``fields`` argument validated: a tuple of known field names (``None`` = none)."""
    if fields is None:
        return ()
    if isinstance(fields, str) or not isinstance(fields, Iterable):
        raise ConfigError(f"fields must be a list of field names, got {fields!r}")
    fields = list(fields)  # once: an iterator is read here only
    if not all(isinstance(name, str) for name in fields):
        raise ConfigError(f"fields must be a list of field names, got {fields!r}")
    unknown = sorted(set(fields) - set(FIELD_NAMES))
    if unknown:
        raise ConfigError(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(FIELD_NAMES)}")
    return tuple(name for name in FIELD_NAMES if name in fields)


def extract_document(
    doc: Document,
    *,
    method: str = DEFAULT_METHOD,
    url: str | None = None,
    fields: tuple[str, ...] = (),
    page_type: bool = True,
    trace: Trace | None = None,
    **options: Any,
) -> Extraction:
    """Run a method over an already built document, reading the article ``fields`` asked for
    (and the page type unless ``page_type`` is False, as :func:`extract`).

    ``trace``, when given, is filled with the rule that decided each block
    and the model's probabilities (for ``scrapy-bte explain``). numpy's BLAS
    runs on one thread meanwhile (:mod:`scrapy_bte.core.blas`).
    """
    if not isinstance(page_type, bool):
        raise ConfigError(f"page_type must be True or False, got {page_type!r}")
    if url is not None and not isinstance(url, str):
        raise ConfigError(f"url must be a str or None, got {type(url).__name__}")
    with one_thread():
        return _extract_document(doc, method=method, url=url, fields=fields, typed=page_type, trace=trace, **options)


def _extract_document(
    doc: Document,
    *,
    method: str,
    url: str | None,
    fields: tuple[str, ...],
    typed: bool,
    trace: Trace | None,
    **options: Any,
) -> Extraction:
    # The title is read on every call, by the one rule ``fields=`` uses: it is also the headline
    # ``auto`` leaves out. Without the page's URL, the address it declares is read with it: the
    # page type's evidence (one reading of the head, not two).
    wanted = fields if "title" in fields else ("title", *fields)
    # The learned methods' rules follow the page type; the others only report it.
    typed = typed or method in LEARNED_METHODS
    declared = typed and not url
    read = read_document(doc, url, wanted if not declared or "canonical_url" in wanted else (*wanted, "canonical_url"))
    # Before the block features, so the class hints it reads are computed once for the page and shared.
    kind = _page_type.classify(doc, read.canonical_url if declared else url, declared=declared) if typed else None
    rules_type = (
        "article"
        if kind is None
        else selection_type(kind.name, kind.probabilities, lambda: _comments.marked_thread(doc))
    )
    title = read.title
    rules = profile(rules_type)
    byline = kind is None or rules.byline  # no author nor date on a shop's item or a list
    sources = {k: v for k, v in read.sources.items() if k in fields and (byline or k not in _BYLINE)}
    span = _bte.document_span(doc)
    n = doc.n_blocks
    probs = None
    comment_blocks: list[int] | None = None
    comments = False
    reasons = None if trace is None else np.zeros(n, dtype=np.int8)
    if method == "bte":
        if "comments" in options:
            raise ConfigError("option comments needs a block method (auto, model, hybrid, density): bte keeps one span")
        _check(options, ())
        paragraphs: list[str]
        blocks: list[int]
        if span is None:
            paragraphs, blocks = [], []
        else:
            paragraphs, blocks = _span_paragraphs(doc, span)
        kept = np.zeros(n, dtype=bool)
        kept[blocks] = True
        if reasons is not None:
            reasons[:] = np.where(kept, Reason.IN_SPAN, Reason.OUTSIDE_SPAN)
    else:
        comments = _comments.check(options.pop("comments", None))
        if method in LEARNED_METHODS:
            _check(options, ("model_path",), extra=("comments",))
            if not learned_fits(doc):
                method = "hybrid"
                options.pop("model_path", None)
        if method in LEARNED_METHODS:
            path = options.get("model_path")
            learned = _model.load_cached(path) if path else _model.default_model()
            kept, probs = _auto.select(
                doc,
                span,
                learned,
                smooth=method == "auto",
                title=title,
                reasons=reasons,
                page_type=rules_type,
                trace=trace,
            )
        elif method == "density":
            _check(options, ("form", "threshold", "min_chars"), extra=("comments",))
            kept = (
                _density.keep_mask(
                    doc,
                    form=options.get("form", "ratio"),
                    rule=options.get("threshold", "gaussian"),
                    min_chars=options.get("min_chars", 10),
                    reasons=reasons,
                )
                if n
                else np.zeros(0, dtype=bool)
            )
        else:
            _check(options, tuple(_hybrid.DEFAULTS), extra=("comments",))
            kept = _hybrid.select(doc, span, **options, reasons=reasons)
        if method == "auto" and rules.comments_are_content:
            comment_blocks = []  # a thread's posts are its content, not apart from it
        else:
            kept, comment_blocks = _comments.apply(doc, kept, comments, reasons)
        blocks = kept.nonzero()[0].tolist()
        paragraphs = [doc.texts[b] for b in blocks]
    # A block the page printed twice without a space (a visible and a screen-reader copy) shows once.
    shown = list(map(undoubled, paragraphs))
    halved = [b for b, was, now in zip(blocks, paragraphs, shown) if was is not now]
    paragraphs = shown
    if _letterless.letterless(paragraphs, map(doc.words.__getitem__, blocks)):
        if reasons is not None:
            reasons[blocks] = Reason.NO_LETTERS
        kept = np.zeros(n, dtype=bool)
        paragraphs, blocks, halved = [], [], []
    date = read.date if byline else None
    if date is None and byline and rules.body_dateline and "date" in fields and blocks:
        # No date from the markup nor around the headline: a dateline at the body's edges gives it.
        date = _zones.body_dateline(doc, blocks, _dates.month_first(read.language))
        if date is not None:
            sources["date"] = "body-dateline"
    total_chars = int(doc.chars.sum())
    kept_chars = int(doc.chars[kept].sum()) if n else 0
    kept_bytes = int(doc.bytes[kept].sum()) if n else 0
    text_ratio = kept_chars / total_chars if total_chars else 0.0
    text = "\n".join(paragraphs)
    if trace is not None and reasons is not None:  # reasons are counted exactly when traced
        trace.reasons = reasons
        trace.probability = probs
    return Extraction(
        text=text,
        paragraphs=paragraphs,
        title=title,
        method=method,
        bte_score=_bte.span_score(span, doc.total_words),
        density=kept_chars / kept_bytes if kept_bytes else 0.0,
        text_ratio=text_ratio,
        confidence=_confidence(doc, kept, span) if probs is None else _auto.confidence(doc, kept, probs),
        words=round(float(doc.words[kept].sum()) - float(doc.words[halved].sum()) / 2) if n else 0,
        kept_blocks=blocks,  # Python ints (from ``tolist``), in a list of this call's own
        span=None if span is None else (span.first_block, span.last_block),
        n_blocks=n,
        author=read.author if byline else None,
        date=date,
        modified=read.modified,
        description=read.description,
        image=read.image,
        site_name=read.site_name,
        language=read.language,
        canonical_url=read.canonical_url if "canonical_url" in fields else None,
        field_sources=dict(sources),
        comments="\n".join(doc.texts[b] for b in comment_blocks) if comment_blocks is not None and comments else None,
        page_type=None if kind is None else kind.name,
    )


#: The fields a page without a byline does not give (:attr:`~scrapy_bte.learned.profiles.Profile.byline`).
_BYLINE = ("author", "date")

# Numeric options and their smallest allowed value (None: any finite number).
_NUMERIC_OPTIONS = {"gap": 0, "min_chars": 0, "max_link": None, "link_weight": None}


def _check(options: dict[str, Any], allowed: tuple[str, ...], extra: tuple[str, ...] = ()) -> None:
    """Refuse unknown options; ``extra`` are allowed ones already taken out of ``options``."""
    if not options:  # the usual call: nothing to check
        return
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        names = ", ".join(allowed + extra) or "none"
        raise ConfigError(f"unknown option(s) {', '.join(unknown)}; allowed: {names}")
    for key in sorted(options.keys() & _NUMERIC_OPTIONS.keys()):
        value, low = options[key], _NUMERIC_OPTIONS[key]
        number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
        if (
            not number
            or not (isinstance(value, (int, np.integer)) or math.isfinite(value))
            or (low is not None and value < low)
        ):
            bound = "a finite number" if low is None else f"a number >= {low}"
            raise ConfigError(f"option {key} must be {bound}, got {value!r}")
