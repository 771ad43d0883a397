"""``auto``'s never-body rules: blocks that are never the article body, whatever the model scored them.

Label-like blocks, the headline, byline and dateline before the first
paragraph, boxes a heading names as furniture, photo captions, sign-up
boxes, datelines, newsletter promotions and copyright notices at the body's edges. Only
:mod:`scrapy_bte.learned.auto` applies them (after the block model), so
they live beside it; the evidence they read (labels, hints, zones) is
:mod:`scrapy_bte.evidence`'s, shared with the features, the fields and
training.
"""

from __future__ import annotations

import re
from itertools import repeat

import numpy as np

from ..core.document import HEADING_TAGS, Document
from ..core.tree import path_or, positions
from ..evidence.hints import attribute_bits, block_hints, group_bit
from ..evidence.labels import MAX_WORDS, is_label, label_features
from ..evidence.words import (
    ACTION_BOX_SET,
    BOX_SET,
    COPYRIGHT_STARTS,
    CREDIT_INSIDE_RE,
    DATE_WORDS,
    INVITE_RE,
    NEWSLETTER_RE,
    RIGHTS_RESERVED,
    SHOP_BOX_SET,
)
from ..evidence.zones import fold, repeats_title, title_sized, top_furniture

#: Label-like blocks of at most this many words are never body text.
LABEL_WORDS = 6
#: A box heading has at most this many words (letters of scripts without spaces count fractions).
BOX_WORDS = 8
#: A kept block of at least this many words is the body's first paragraph (:func:`first_paragraph`).
FIRST_PARAGRAPH_WORDS = 20
#: How many long kept blocks from the top :func:`first_paragraph` tests for repeating the title.
HEADLINE_TRIES = 2


def first_paragraph(doc: Document, keep: np.ndarray, title: str | None) -> int | None:
    """The body's first paragraph: the first kept block of :data:`FIRST_PARAGRAPH_WORDS` words or
    more that does not repeat the title (:func:`~scrapy_bte.evidence.zones.repeats_title`); None
    when no kept block is that long.

    A headline is rarely that long in words written with spaces, but in Japanese or Chinese, where
    each letter counts a fraction of a word (:mod:`scrapy_bte.core.scripts`), a headline of fifty
    letters is: read as the first paragraph, it was kept as body text (Publickey's headline in
    mercury's set), since only what stands before the first paragraph is the page's top.
    """
    long_kept = (keep & (doc.words >= FIRST_PARAGRAPH_WORDS)).nonzero()[0][: HEADLINE_TRIES + 1].tolist()
    if not long_kept or not title:
        return long_kept[0] if long_kept else None
    folded = None
    for b in long_kept[:HEADLINE_TRIES]:
        # Only a block of about the title's length is compared with it, as the headline rules
        # compare (on most pages the first long block is far longer: no folding).
        if not title_sized(doc.words[b], doc.chars[b], title):
            return b
        folded = fold(title) if folded is None else folded
        if not repeats_title(fold(doc.texts[b]), folded):
            return b
    return long_kept[HEADLINE_TRIES] if len(long_kept) > HEADLINE_TRIES else None


def edge_mask(doc: Document, keep: np.ndarray, title: str | None, first: int | None) -> np.ndarray:
    """Blocks that are never the article body, whatever the model scored them; only the blocks
    of ``keep`` are certain to be read (another block may or may not be marked).

    The headline, kicker, byline and dateline before the body's first
    paragraph (:func:`top_furniture`), and label-like blocks anywhere: a
    lone label ("Advertisement", "Share", "Related articles"), a label
    with its value ("Tags: ...", "Lesen Sie auch: ..."), a reading time;
    boxes a heading names as furniture (:func:`boxed_furniture`), photo
    captions (:func:`image_captions`) and sign-up boxes (:func:`signup_boxes`).
    ``first`` is the body's first paragraph (:func:`first_paragraph`; None: no block is one).
    """
    flags = label_features(doc)
    out = ((flags[:, 0] > 0) & (doc.words <= LABEL_WORDS)) | (flags[:, 1] > 0) | (flags[:, 5] > 0)
    # An action or box label with its value: "Share this story: Facebook X Email", "Comments: 4".
    # ``nonzero`` on the 1-d masks, not ``np.flatnonzero`` (which ravels and dispatches first).
    texts = doc.texts
    for b in (keep & (doc.words <= MAX_WORDS)).nonzero()[0].tolist():
        text = texts[b]
        if ":" in text and text.partition(":")[0].lower().strip() in ACTION_BOX_SET:
            out[b] = True
    # Only kept blocks are ever furniture: the top's are looked for where one stands before the
    # first paragraph (on about two pages in five).
    if first is not None and keep[:first].any():
        out |= top_furniture(doc, first, title)
    out |= image_captions(doc)
    if np.count_nonzero(keep):
        out |= boxed_furniture(doc, keep) | signup_boxes(doc, keep)
        out |= edge_notes(doc, keep, out)
    return out


#: A dateline at the body's edge holds at most this many words ("25. Oktober 2025, 17.52 Uhr").
EDGE_DATE_WORDS = 8
#: A newsletter promotion or a copyright notice holds at most this many words.
PROMO_WORDS = 40


#: Words a dateline may hold besides its date ("Stand:", "Published on", "Uhr").
EDGE_DATE_OTHER_WORDS = 2
_LETTER_RUN_RE = re.compile(r"[^\W\d_]+")


def _dateline(text: str, words: float) -> bool:
    """Whether a block whose flags read as a date is a dateline: short, and little but the date."""
    if words > EDGE_DATE_WORDS:
        return False
    others = [w for w in _LETTER_RUN_RE.findall(text.lower()) if w not in DATE_WORDS]
    return len(others) <= EDGE_DATE_OTHER_WORDS


def _promotion(text: str, words: float) -> bool:
    """Whether a block invites the reader to a newsletter ("Sign up for our daily newsletter ...")."""
    return words <= PROMO_WORDS and NEWSLETTER_RE.search(text) is not None and INVITE_RE.search(text) is not None


def _copyright(text: str, words: float) -> bool:
    """Whether a block is a copyright notice ("© 2012 CBS Interactive Inc. All Rights Reserved. This
    material may not be published ..."): it opens with :data:`COPYRIGHT_STARTS` or holds one of
    :data:`RIGHTS_RESERVED` (substring searches: a pattern of their alternatives cost about three
    times as much on the blocks at a body's edges)."""
    if words > PROMO_WORDS:
        return False
    low = text.lower()
    return low.lstrip().startswith(COPYRIGHT_STARTS) or any(phrase in low for phrase in RIGHTS_RESERVED)


def edge_notes(doc: Document, keep: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Datelines, newsletter promotions and copyright notices at the body's edges: the kept blocks
    read from each end of the body inwards while they are promotions or notices, then one dateline
    (blocks ``known`` as furniture are stepped over), so a date or a promotion inside the text stays.
    A copyright notice ("© 2012 CBS Interactive Inc. All Rights Reserved.", :func:`_copyright`) is
    the site's, not the article's: dragnet's gold leaves it out and L3S-GN1's keeps the Associated
    Press's (dragnet +0.0002, L3S-GN1 -0.0001; no WCXB or mercury page changes). A dateline is a
    short block whose flags read as a date and which holds little else (:func:`_dateline`), next
    to a block that is not dated (the top one is :func:`top_furniture`'s too; pages print one at
    the foot as well)."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    kept = (keep & ~known).nonzero()[0].tolist()
    if not kept:
        return out
    dated = label_features(doc)[:, 4]
    texts = doc.texts
    words = doc.words
    for order in (kept, kept[::-1]):
        for k, b in enumerate(order):
            size = float(words[b])
            if _promotion(texts[b], size) or _copyright(texts[b], size):
                out[b] = True
                continue
            inner = order[k + 1] if k + 1 < len(order) else None
            # One dateline, not a run of dated blocks (a table of dates is content).
            if dated[b] > 0 and _dateline(texts[b], size) and (inner is None or dated[inner] == 0):
                out[b] = True
            break
    if out[kept].all():
        return np.zeros(doc.n_blocks, dtype=bool)  # nothing else kept: not an edge
    return out


def signup_boxes(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Newsletter and sign-up boxes: an element named for subscribing (:mod:`scrapy_bte.evidence.hints`)
    that holds a ``<form>``, unless it also holds the body's core (paywalled bodies sit in
    elements named "premium" or "subscriber", without a form of their own)."""
    names = doc.el_name
    n_el = len(names)
    forms = positions(names, "form", 1)
    if not forms:
        return np.zeros(doc.n_blocks, dtype=bool)
    # Sets of element numbers: a page's forms sit a dozen elements deep, and a Python set
    # test costs less than reading or writing one item of an array.
    parents = doc.el_parent
    holds_form: set[int] = set()
    for el in forms:
        while el > 0 and el not in holds_form:
            holds_form.add(el)
            el = parents[el]
    bit = group_bit("subscribe")
    raws = doc.el_attrs
    boxes = {el for el in sorted(holds_form) if attribute_bits(raws[el]) & bit}
    if boxes:
        core = int(doc.container[int(np.argmax(np.where(keep, doc.words, -1.0)))])
        while core > 0:
            boxes.discard(core)
            core = parents[core]
    if not boxes:
        return np.zeros(doc.n_blocks, dtype=bool)
    box = np.zeros(n_el, dtype=np.int64)
    box[list(boxes)] = 1
    return path_or(doc, box)[doc.container] > 0


#: Longest caption, in words.
CAPTION_WORDS = 40
#: Elements that hold a photo and its caption in HTML's own words (bit 1), and the quote a
#: ``<figure>`` may hold instead (bit 2).
_FIGURE_BITS = {"figure": 1, "figcaption": 1, "blockquote": 2}
_CAPTION_BIT = group_bit("caption")


def image_captions(doc: Document) -> np.ndarray:
    """Short blocks right after an ``<img>``, alone in their element, that something names a
    caption or frames with the image: a class/id word of the caption group
    (:data:`~scrapy_bte.evidence.words.GROUPS`: ``caption``, ``credit``, ``photo``, ...) on the
    block or around it, a ``<figure>`` or ``<figcaption>`` that holds it (not a quote in a
    figure), a credit in its text ("Photo: AP", "... Credit: Apple"), or an element that holds
    the image and no other block (:func:`_framed_with_image`).

    A paragraph after an image inside the body shares its element with the body's other
    paragraphs and stays. So does one that page builders wrap alone (Elementor's text widget
    after an image widget, each paragraph in its own ``div``) and a list item's numbered
    heading after its photo: read as captions, such paragraphs left the body on the
    development sets. With the evidence asked for, every set scored the same or higher (WCXB
    by site folds 0.8897 to 0.8899, 55 pages better and 47 worse, most by under 0.01; mercury
    +0.0006, Readability's set +0.0009, L3S +0.0005, Dragnet +0.0004, CleanEval and
    CleanPortalEval the same).
    """
    after_image = label_features(doc)[:, 7] > 0
    if not np.count_nonzero(after_image):  # ``ndarray.any`` costs a microsecond on small pages
        return after_image
    container = np.asarray(doc.container, dtype=np.int64)
    alone = np.bincount(container)[container] == 1  # its length is already the largest number + 1
    found = after_image & alone & (doc.words <= CAPTION_WORDS) & (container > 0)
    if not np.count_nonzero(found):
        return found
    path, own = block_hints(doc)
    named = ((path | own) & _CAPTION_BIT) != 0
    named |= label_features(doc)[:, 3] > 0  # a credit's opening ("Foto: dpa")
    unnamed = found & ~named
    if np.count_nonzero(unnamed):
        skeleton = doc.skeleton
        # A figure holds a photo's caption, or a pull quote beside its speaker's photo (the quote
        # in a blockquote): the quote is the body's.
        tags = np.fromiter(
            map(_FIGURE_BITS.get, skeleton.name_strings, repeat(0)), np.int64, len(skeleton.name_strings)
        )
        bits = path_or(doc, tags[skeleton.el_name_id])[container]
        named |= ((bits & 1) != 0) & ((bits & 2) == 0)
        texts = doc.texts
        for b in (unnamed & ~named).nonzero()[0].tolist():
            named[b] = CREDIT_INSIDE_RE.search(texts[b]) is not None or _framed_with_image(doc, b)
    return found & named


def _framed_with_image(doc: Document, b: int) -> bool:
    """Whether block ``b`` shares the element around its own with an image and no other block: a
    photo's frame, however its classes are called (``<div class="Md"><div><img></div><div>The
    caption.</div></div>``). A heading there is a card's or a list item's title, never a caption;
    a page builder's paragraph sits in a widget of its own, apart from the image's."""
    if doc.opener[b] in HEADING_TAGS:
        return False
    skeleton = doc.skeleton
    parents = skeleton.parents
    frame = int(parents[doc.container[b]])
    if frame <= 0:
        return False
    opened = int(skeleton.el_tag[frame])
    if b > 0 and int(doc.block_start_tag[b - 1]) > opened:
        return False  # an earlier block is inside the frame
    if "img" not in doc.tag_names[opened + 1 : int(doc.block_start_tag[b])]:
        return False
    if b + 1 < doc.n_blocks:
        el = int(doc.container[b + 1])
        while el > frame:
            el = int(parents[el])
        if el == frame:
            return False  # so is a later one
    return True


def box_headings(doc: Document) -> list[int]:
    """The blocks that name an article's furniture box ("Related articles", "Comments (4)", "Tags")."""
    texts = doc.texts
    labels = label_features(doc)[:, 0] > 0
    return [b for b in (labels & (doc.words <= BOX_WORDS)).nonzero()[0].tolist() if is_label(texts[b], BOX_SET)]


def shop_headings(doc: Document) -> list[int]:
    """The blocks that name a shop's recommendations ("You may also like", "Similar items",
    "Frequently bought together"): the box under one is other products, not this one's."""
    texts = doc.texts
    return [b for b in (doc.words <= BOX_WORDS).nonzero()[0].tolist() if is_label(texts[b], SHOP_BOX_SET)]


def _path(block: int, container: list[int], parents: list[int], paths: dict[int, frozenset[int]]) -> frozenset[int]:
    """The elements a block lies inside (its container and the container's ancestors, root
    excluded), once per container in ``paths``: a heading's box grows while the block before
    stays outside."""
    el = container[block]
    got = paths.get(el)
    if got is None:
        up = []
        while el > 0:
            up.append(el)
            el = parents[el]
        got = paths[container[block]] = frozenset(up)
    return got


def _box_heads(
    doc: Document,
    keep: np.ndarray,
    container: list[int],
    heads: list[int],
    paths: dict[int, frozenset[int]] | None = None,
) -> list[tuple[int, int]]:
    """(heading block, its box element) for each of ``heads``; the box is 0 where the heading
    opens none.

    The box is the largest element that opens with the heading's block, never
    one that holds the longest kept block (the body's core); ``paths`` (each
    container's elements, root excluded) is filled for the caller to reuse.
    """
    if not heads:
        return []
    words = doc.words
    parents = doc.el_parent
    if paths is None:
        paths = {}
    core_path = _path(int(np.argmax(np.where(keep, words, -1.0))), container, parents, paths)
    found = []
    for head in heads:
        box = 0
        el = container[head]
        before = _path(head - 1, container, parents, paths) if head else frozenset()
        while el > 0 and el not in core_path and el not in before:
            box = el
            el = parents[el]
        found.append((head, box))
    return found


#: Share of a block's words in links for it to be one entry of a list of links.
LINK_ENTRY = 0.9


def _link_run_end(doc: Document, head: int) -> int:
    """The end of the run of link blocks right after ``head``: a heading that shares its element
    with the body ("・関連記事" then a headline per line, all in the article's element) opens no
    box, but the links it names end where the first block that is not one starts."""
    words, links = doc.words, doc.link_words
    end = head + 1
    while end < doc.n_blocks and words[end] > 0 and links[end] >= LINK_ENTRY * words[end]:
        end += 1
    return end


def boxed_furniture(doc: Document, keep: np.ndarray, heads: list[int] | None = None) -> np.ndarray:
    """Boxes that a heading names as furniture: "Comments (4)" and the thread under it, "Related
    articles" and its list, "Tags" and the tags, a newsletter box (``heads``: the headings,
    :func:`box_headings` by default; :func:`shop_headings` on product pages).

    The box is the largest element that opens with the heading's block (its
    container, then each parent while the heading is still its first
    block), never one that holds the longest kept block (the body's core):
    a heading inside the article marks only its own box, or, where it opens
    none, the run of link blocks right after it.

    Elements are numbered as they open, so a block lies inside the box when
    walking up from its container to the box's number reaches the box
    (:func:`boxed_furniture_reference` reads each block's path instead).
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    parents = doc.el_parent
    container = doc.container.tolist()
    for head, box in _box_heads(doc, keep, container, box_headings(doc) if heads is None else heads):
        if not box:
            out[head : _link_run_end(doc, head)] = True
            continue
        end = head + 1  # the heading's own block lies inside its box
        el = container[head]
        while end < n:
            here = container[end]
            if here != el:
                up = here  # up to the box's level: an element's ancestors come before it
                while up > box:
                    up = parents[up]
                if up != box:
                    break
                el = here
            end += 1
        out[head:end] = True
    return out


def boxed_furniture_reference(doc: Document, keep: np.ndarray, heads: list[int] | None = None) -> np.ndarray:
    """The Python reference of :func:`boxed_furniture`: whether a block lies in the box read from
    its path (the elements it lies inside)."""
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    container = doc.container.tolist()
    parents = doc.el_parent
    paths: dict[int, frozenset[int]] = {}
    for head, box in _box_heads(doc, keep, container, box_headings(doc) if heads is None else heads, paths):
        if not box:
            out[head : _link_run_end(doc, head)] = True
            continue
        end = head + 1  # the heading's own block lies inside its box
        el = container[head]
        while end < n and (container[end] == el or box in _path(end, container, parents, paths)):
            el = container[end]
            end += 1
        out[head:end] = True
    return out
