"""Block labels (content = 1, boilerplate = 0) for training and scoring.

Three sources, all ending in the same matcher so they agree on what
"inside" means:

- **Gold text** (:func:`gold_labels`): a block is content when most of its
  4-token shingles occur in the gold text (the metric's own unit, so the
  labels bound what the metric can reward); a block of fewer than 4 tokens
  is content when its token sequence occurs verbatim in the gold. Gold
  files that repeat a phrase once (a headline) do not label every copy of
  it on the page: shingles are consumed as they are matched, longest blocks
  first, so a short duplicate in a menu loses to the article's copy; and a
  text too short for a shingle goes to the copies nearest the blocks already
  labelled content (a listing's card names and a job's "Full-Time" repeat
  in the menu or the filters above the cards, and the first copy on the
  page is the menu's).
- **CSS selector** (:func:`selector_labels`): for sites whose template puts
  the article in a known container (``--content-selector 'div.post-body'``).
  The page is parsed with lxml, the text of the matched elements (less
  scripts and styles) becomes the gold text, and the matcher above labels
  the blocks whose text lies inside.
- **Template markers** (:func:`marker_labels`): many templates wrap the
  article in comments such as ``<!-- content start -->`` /
  ``<!-- content end -->`` (the LingPipe write-up trained on exactly these).
  Step 0 of the document model strips comments, so each marker is replaced
  by a sentinel paragraph, the document is rebuilt, blocks between a start
  and an end sentinel are content, and the labels are carried back to the
  blocks of the page built without sentinels by aligning block texts.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher

import numpy as np

from ..core.document import Document, build
from ..core.scripts import tokens
from ..core.tree import path_or
from ..errors import ConfigError
from ..evidence.labels import label_features
from ..evidence.zones import top_furniture
from ..methods.comments import section_mask
from .evaluation import SHINGLE, token_shingles

#: Share of a block's shingles that must occur in the gold text.
MIN_SHARE = 0.5

# Default template markers: a comment naming content with begin/start (or end/stop).
_START_RE = re.compile(
    r"<!--(?:(?!-->).){0,40}?(?:\b(?:begin|start)\w*\W{1,3}(?:of\W+)?(?:main\W+|page\W+|article\W+)?content\b"
    r"|\bcontent\W{1,3}(?:begin|start)\w*\b)(?:(?!-->).){0,40}?-->",
    re.IGNORECASE | re.DOTALL,
)
_END_RE = re.compile(
    r"<!--(?:(?!-->).){0,40}?(?:\b(?:end|stop)\w*\W{1,3}(?:of\W+)?(?:main\W+|page\W+|article\W+)?content\b"
    r"|\bcontent\W{1,3}(?:end|stop)\w*\b)(?:(?!-->).){0,40}?-->",
    re.IGNORECASE | re.DOTALL,
)
_SENTINEL_START = "qqbtecontentstartqq"
_SENTINEL_END = "qqbtecontentendqq"


def text_labels(texts: list[str], gold: str, min_share: float = MIN_SHARE) -> np.ndarray:
    """Boolean label per text: does it lie inside ``gold`` (see the module docstring)."""
    gold_tokens = tokens(gold)
    labels = np.zeros(len(texts), dtype=bool)
    if not gold_tokens:
        return labels
    available = Counter(token_shingles(gold_tokens))
    block_tokens = [tokens(t) for t in texts]
    # Longest blocks claim their shingles first: an article paragraph wins
    # over a teaser or menu entry that repeats part of it.
    order = sorted(range(len(texts)), key=lambda b: -len(block_tokens[b]))
    for b in order:
        toks = block_tokens[b]
        if len(toks) < SHINGLE:
            break
        sh = token_shingles(toks)
        hits = sum(1 for s in sh if available[s] > 0)
        if hits >= min_share * len(sh):
            labels[b] = True
            for s in sh:
                if available[s] > 0:
                    available[s] -= 1
    # A text too short for a shingle is claimed as often as the gold holds it, by its copies
    # nearest the content labelled so far, then in page order.
    near = _distance_to(labels)
    short = [b for b in order if 0 < len(block_tokens[b]) < SHINGLE]
    short.sort(key=lambda b: (-len(block_tokens[b]), near[b], b))
    joined = " " + " ".join(gold_tokens) + " "
    short_left: Counter[str] = Counter()  # how often each short token sequence may still be claimed
    for b in short:
        key = " " + " ".join(block_tokens[b]) + " "
        if key not in short_left:
            short_left[key] = joined.count(key)
        if short_left[key] > 0:
            short_left[key] -= 1
            labels[b] = True
    return labels


def _distance_to(labels: np.ndarray) -> np.ndarray:
    """Per block, how many blocks away the nearest labelled block is (0 for itself; all 0 when
    none is labelled: page order alone decides)."""
    n = len(labels)
    at = np.flatnonzero(labels)
    if not len(at):
        return np.zeros(n, dtype=np.int64)
    index = np.arange(n)
    j = np.searchsorted(at, index)
    before = index - at[np.maximum(j - 1, 0)]
    after = at[np.minimum(j, len(at) - 1)] - index
    return np.minimum(np.where(j > 0, before, n), np.where(j < len(at), after, n))


def gold_labels(doc: Document, gold: str, min_share: float = MIN_SHARE) -> np.ndarray:
    """Labels of a document's blocks from the page's gold main text."""
    return text_labels(doc.texts, gold, min_share)


def container_text(markup: str, css: str) -> str:
    """Text of the elements matching ``css`` (scripts, styles and comments left out)."""
    from lxml import etree
    from lxml import html as lxml_html
    from lxml.cssselect import CSSSelector

    try:
        selector = CSSSelector(css, translator="html")
    except Exception as exc:  # cssselect raises its own SelectorSyntaxError family
        raise ConfigError(f"invalid content selector {css!r}: {exc}") from exc
    if not markup.strip():
        return ""
    try:
        root = lxml_html.document_fromstring(markup)
    except (etree.ParserError, ValueError):
        return ""
    parts: list[str] = []
    for el in selector(root):
        for node in el.iter():
            if not isinstance(node.tag, str) or node.tag in ("script", "style", "noscript", "template"):
                # Skip the node's own text but keep its tail (text after it).
                if node is not el and node.tail:
                    parts.append(node.tail)
                continue
            if node.text:
                parts.append(node.text)
            if node is not el and node.tail:
                parts.append(node.tail)
        parts.append("\n")
    return " ".join(parts)


def selector_labels(doc: Document, markup: str, css: str) -> np.ndarray:
    """Labels from a per-site CSS selector of the content container."""
    return text_labels(doc.texts, container_text(markup, css))


def _marker_patterns(markers: tuple[str, str] | None) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Regexes of the start and end markers.

    A user marker that starts with ``<`` is matched literally in the markup;
    otherwise it is text that a comment must contain (case-insensitive).
    """
    if markers is None:
        return _START_RE, _END_RE

    def pattern(marker: str) -> re.Pattern[str]:
        marker = marker.strip()
        if not marker:
            raise ConfigError("template markers must be non-empty (START,END)")
        if marker.startswith("<"):
            return re.compile(re.escape(marker), re.IGNORECASE)
        return re.compile(r"<!--(?:(?!-->).)*?" + re.escape(marker) + r"(?:(?!-->).)*?-->", re.IGNORECASE | re.DOTALL)

    return pattern(markers[0]), pattern(markers[1])


def parse_markers(value: str | None) -> tuple[str, str] | None:
    """``"START,END"`` from the command line into a pair (None keeps the defaults)."""
    if value is None:
        return None
    parts = value.split(",")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise ConfigError(f"--markers takes START,END, got {value!r}")
    return parts[0].strip(), parts[1].strip()


def marker_labels(doc: Document, markup: str, markers: tuple[str, str] | None = None) -> np.ndarray | None:
    """Labels from template marker comments; ``None`` when the page has none."""
    start_re, end_re = _marker_patterns(markers)
    if start_re.search(markup) is None or end_re.search(markup) is None:
        return None
    marked = end_re.sub(f"<p>{_SENTINEL_END}</p>", start_re.sub(f"<p>{_SENTINEL_START}</p>", markup))
    mdoc = build(marked)
    texts: list[str] = []
    inside: list[bool] = []
    state = False
    for text in mdoc.texts:
        if _SENTINEL_START in text or _SENTINEL_END in text:
            state = _SENTINEL_START in text
            rest = text.replace(_SENTINEL_START, "").replace(_SENTINEL_END, "").strip()
            if not rest:
                continue
            text = rest
        texts.append(text)
        inside.append(state)
    return _align(doc.texts, texts, np.array(inside, dtype=bool))


def _align(target: list[str], source: list[str], source_labels: np.ndarray) -> np.ndarray:
    """Carry labels from ``source`` blocks to ``target`` blocks with the same texts."""
    out = np.zeros(len(target), dtype=bool)
    if target == source:
        return source_labels.copy()
    matcher = SequenceMatcher(None, target, source, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out[i1:i2] = source_labels[j1:j2]
        elif tag == "replace" and j2 > j1:
            out[i1:i2] = source_labels[j1:j2].mean() >= 0.5
    return out


def page_labels(
    doc: Document,
    markup: str,
    gold: str | None = None,
    *,
    css: str | None = None,
    markers: tuple[str, str] | None = None,
    use_markers: bool = False,
) -> np.ndarray | None:
    """Labels from the first source that applies: selector, markers, then gold text.

    ``None`` when no source applies to the page (no gold, no match).
    """
    if css is not None:
        return selector_labels(doc, markup, css)
    if use_markers or markers is not None:
        found = marker_labels(doc, markup, markers)
        if found is not None:
            return found
    if gold is not None:
        return gold_labels(doc, gold)
    return None


#: A gold block of at least this many words starts the article body (for :func:`body_labels`).
BODY_START_WORDS = 20


def body_labels(doc: Document, labels: np.ndarray, title: str | None) -> np.ndarray:
    """Gold labels moved to the article-body convention.

    Older corpora's gold keeps the headline, the byline and dateline, photo
    captions and (in some) the readers' comments. For training a body
    extractor those blocks are boilerplate: the comment section's blocks,
    captions and credits (:func:`caption_mask`), the headline (a block
    repeating the page title) and the short byline, date, reading-time and
    credit blocks just before the first gold paragraph of
    :data:`BODY_START_WORDS` words or more
    (:func:`scrapy_bte.evidence.zones.top_furniture`) become 0. Gold that
    already follows the convention loses nothing.
    """
    out = labels & ~section_mask(doc) & ~caption_mask(doc)
    long_gold = np.flatnonzero(out & (doc.words >= BODY_START_WORDS))
    if len(long_gold):
        out = out & ~top_furniture(doc, int(long_gold[0]), title)
    return out


#: Longest caption or credit block, in words.
CAPTION_WORDS = 60


def caption_mask(doc: Document) -> np.ndarray:
    """Photo captions and credits: ``figcaption`` blocks, short blocks inside a ``figure`` or whose
    own tag or container is named caption or credit, and short blocks opening like a credit
    ("Foto: ...", "© ...")."""
    names = doc.el_name
    in_figure = np.fromiter((name == "figure" for name in names), np.int64, len(names))
    inside_figure = path_or(doc, in_figure)[doc.container] > 0
    named = np.fromiter(
        (("caption" in raw.lower() or "credit" in raw.lower()) for raw in doc.el_attrs), bool, len(names)
    )[doc.container]
    for b, raw in enumerate(doc.opening_attrs):
        if raw:
            raw = raw.lower()
            if "caption" in raw or "credit" in raw:
                named[b] = True
    opener = np.fromiter((o == "figcaption" for o in doc.opener), bool, doc.n_blocks)
    flags = label_features(doc)
    short = doc.words <= CAPTION_WORDS
    return opener | (short & (inside_figure | named)) | ((flags[:, 3] > 0) & (doc.words <= 25))
