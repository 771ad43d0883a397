"""Readers' comments: find a page's comment section, keep it out of the body.

``text`` is the article body (schema.org ``articleBody``), and readers'
comments are not part of it, whatever a method's blocks look like: by
default the comment section's blocks are removed from the kept text.
``comments=True`` also returns the comments themselves, as their own text
(``Extraction.comments``), so a corpus that wants them gets them without
mixing them into the body. (The older corpora disagree: 86 % of the words
of comment sections are gold text in dragnet and CleanEval, 0-3 % in
L3S-GN1, Readability's and CleanPortalEval; the benchmark composes their
convention from ``text`` and ``comments``.)

A comment section is an element whose ``class`` or ``id`` names comments or
replies (``comments``, ``commentlist``, ``comment-body``, ``replies``: the
names blog engines and comment plug-ins use), and everything inside it.
"""

from __future__ import annotations

import heapq
import re
from typing import Any

import numpy as np

from ..core.arrays import distinct
from ..core.document import Document
from ..core.tree import AttributeReader, nearest_marked, page_level, path_or
from ..errors import ConfigError
from ..evidence.hints import element_bits, group_bit
from ..evidence.labels import label_features
from ..evidence.words import (
    BREADCRUMB_RE,
    BREADCRUMB_WORDS,
    COMMENT_SECTION_RE,
    COMMENT_SECTION_WORDS,
    CONSENT_RE,
    LIST_CONTROLS_RE,
    LIST_CONTROLS_WORDS,
    POST_FURNITURE_RE,
    POST_FURNITURE_WORDS,
    POST_ITEM_RE,
    POST_NOTE_RE,
    POST_NOTE_WORDS,
    POST_TEXT_RE,
    SHOP_SECTION_RE,
    SHOP_SECTION_WORDS,
)
from ..evidence.zones import texts_holding
from .reasons import Reason

#: The ``class`` and ``id`` values of a raw attribute string, which the section patterns read.
SECTION_RE = re.compile(r"""(?:^|\s)(?:class|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)

#: Blocks of the section with fewer words are not comment text (names, dates, "Reply" links) ...
MIN_WORDS = 4
#: ... and neither are blocks whose words are mostly link text.
MAX_LINK = 0.5


#: ... and ``data-role`` too, where forum software names a post's parts ("memberSignature").
POST_SECTION_RE = re.compile(
    r"""(?:^|\s)(?:class|id|data-role)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE
)


def _names(raw: str, pattern: re.Pattern[str], attributes: re.Pattern[str] = SECTION_RE) -> bool:
    for m in attributes.finditer(raw):
        value = m.group(1) or m.group(2) or m.group(3) or ""
        if pattern.search(value):
            return True
    return False


#: Per distinct attribute string, 1 where it names a comment section.
_SECTIONS = AttributeReader(lambda raw: int(_names(raw, COMMENT_SECTION_RE)), COMMENT_SECTION_WORDS)

#: Per distinct attribute string, 1 where it names a shop's reviews, recommendations or carousels: product
#: pages' furniture (2 of WCXB's 85 product pages keep a review in their gold).
_SHOP_SECTIONS = AttributeReader(lambda raw: int(_names(raw, SHOP_SECTION_RE)), SHOP_SECTION_WORDS)

#: Per distinct attribute string, 1 where it names a list's filters, facets or sorting.
_LIST_CONTROLS = AttributeReader(lambda raw: int(_names(raw, LIST_CONTROLS_RE)), LIST_CONTROLS_WORDS)

#: Per distinct attribute string, 1 where it names a forum post's user card, signature or buttons.
_POST_SECTIONS = AttributeReader(lambda raw: int(_names(raw, POST_FURNITURE_RE, POST_SECTION_RE)), POST_FURNITURE_WORDS)


#: The hint bit of names of overlays (:data:`~scrapy_bte.evidence.words.GROUPS`: cookie, consent,
#: banner, popup, dialog, ...), read once per page for the block model: only the elements it
#: marks are read for a consent dialog's name, not every attribute string of the page.
_OVERLAY_BIT = group_bit("overlay")
#: Per attribute string already read, whether it names a consent dialog.
_CONSENT_NAMES: dict[str, int] = {}
_CONSENT_MEMO = 50_000
#: Elements whose names say something of the whole page, not of a part of it.
_PAGE_ELEMENTS = ("html", "body")


def _mask(doc: Document, reader: AttributeReader, keep: np.ndarray | None = None, *, prose: bool = True) -> np.ndarray:
    """Per block, whether it lies inside an element ``reader`` names; with ``keep``, per kept
    block (the others are ``False``), inside one that holds less than half the kept words and,
    where ``prose`` is False, none of the kept blocks that read as sentences (:func:`is_prose`)."""
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool)
    own = reader.per_element(doc)
    inside = _inside(doc, own)
    if keep is None:
        return inside
    inside &= keep
    # The elements that hold the kept words are found only where a named one holds a kept block.
    if np.count_nonzero(inside):
        own = own.copy()
        own[_holders(doc, keep)] = 0
        if not prose:
            texts = doc.texts
            parents = doc.el_parent
            for b in inside.nonzero()[0].tolist():
                if is_prose(texts[b]):
                    el = int(doc.container[b])
                    while el > 0 and own[el] >= 0:  # -1: this element's ancestors are cleared already
                        own[el] = -1
                        el = int(parents[el])
            own[own < 0] = 0
        inside = _inside(doc, own) & keep
    return inside


#: :func:`is_prose`: the fewest words of a paragraph, ...
PROSE_WORDS = 15
#: ... which ends a sentence somewhere (a period, question or exclamation mark before a space or
#: at the end), and holds no count in brackets ("Broil King (5)"), a facet's.
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_COUNT = re.compile(r"\(\d[\d,.]*\)")


def is_prose(text: str) -> bool:
    """Whether ``text`` reads as sentences, not as labels: :data:`PROSE_WORDS` words or more,
    a sentence's end, no bracketed count."""
    return len(text.split()) >= PROSE_WORDS and _SENTENCE_END.search(text) is not None and _COUNT.search(text) is None


def _inside(doc: Document, own: np.ndarray, *, parts_only: bool = False) -> np.ndarray:
    """Per block, whether one of its container's ancestors (or the container) has ``own`` set;
    (``parts_only``) not counting ``<html>`` and ``<body>``."""
    if parts_only and np.count_nonzero(own):
        sk = doc.skeleton
        page = np.fromiter((name in _PAGE_ELEMENTS for name in sk.name_strings), bool, len(sk.name_strings))
        own = np.where(page[sk.el_name_id], 0, own)
    if not np.count_nonzero(own):
        return np.zeros(doc.n_blocks, dtype=bool)
    return path_or(doc, own)[doc.container] > 0


#: An element that holds this share of the kept words holds the content, whatever its name.
HOLDER_SHARE = 0.5


def _holders(doc: Document, keep: np.ndarray) -> list[int]:
    """The elements that hold :data:`HOLDER_SHARE` or more of the kept words: a page wrapper
    named for the forum's action (``action_display``) or the site's section (``hotels_like``)
    is no post furniture, a signature that holds the longest kept block is.

    Each element's words pass to its parent once, deepest elements first (an element's
    index is above its parent's), so a page nested thousands of levels deep costs what its
    elements number, not its kept blocks times its depth."""
    parents = doc.el_parent
    container = doc.container
    words = doc.words
    held: dict[int, float] = {}
    for b in keep.nonzero()[0].tolist():
        el = int(container[b])
        if el > 0:
            held[el] = held.get(el, 0.0) + float(words[b])
    pending = [-el for el in held]
    heapq.heapify(pending)
    while pending:
        el = -heapq.heappop(pending)
        parent = parents[el]
        if parent > 0:
            if parent not in held:
                held[parent] = 0.0
                heapq.heappush(pending, -parent)
            held[parent] += held[el]
    bar = HOLDER_SHARE * float(words[keep].sum())
    return [el for el, got in held.items() if got >= bar]


def section_mask(doc: Document) -> np.ndarray:
    """Per block, whether it lies inside a comment section."""
    return _mask(doc, _SECTIONS)


def shop_furniture_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it lies inside an element named for reviews, recommendations or a
    carousel of other products (with ``keep``, the kept blocks, inside none that holds half the kept words: :func:`_holders`)."""
    return _mask(doc, _SHOP_SECTIONS, keep)


def list_controls_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it lies inside an element named for a list's filters, facets or
    sorting ("Black (12)", "$25 to $50 (31)", "Sort: Best Match"), never a collection's items
    (with ``keep``, the kept blocks, inside none that holds half the kept words: :func:`_holders`; a shop names the
    wrapper of its product grid ``page-with-filter``), nor an element that holds prose.

    A filter is a label and a count, never a paragraph: an element so named that holds a kept
    block of sentences (:func:`is_prose`) is no filter panel, and neither are the elements
    named so around it (Brother's category pages put their buying guide, questions and answers,
    in ``expandable-section filters``; WCXB's gold keeps it). A panel of filters named on its
    own inside one still goes."""
    return _mask(doc, _LIST_CONTROLS, keep, prose=False)


#: ``role="contentinfo"``: the ARIA name of a page's footer, on an element of any name.
_CONTENTINFO = AttributeReader(
    lambda raw: int(re.search(r"""(?:^|\s)role\s*=\s*["']?contentinfo\b""", raw, re.IGNORECASE) is not None),
    ("contentinfo",),
)


def page_footer_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it lies inside a ``<footer>`` element or one whose ``role`` is
    ``contentinfo``, whatever share of the kept words it holds (``keep`` is not read: a
    footer is no page wrapper, and a shop's may hold more legal text than the page says of
    its product).

    A shop's footer holds its legal footnotes, long link-free prose the block model keeps
    beside the product ("Trade-in values will vary ...", "Pricing includes ..."). On WCXB's
    development split 2 of the 11,400 kept words inside such elements on product, collection,
    listing and service pages are gold text (1 of 25 on the other types)."""
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool)
    own = _CONTENTINFO.per_element(doc)
    sk = doc.skeleton
    if "footer" in sk.name_strings:
        own = np.where(sk.el_name_id == sk.name_strings.index("footer"), 1, own)
    return _inside(doc, own)


_BANNER = AttributeReader(
    lambda raw: int(re.search(r"""(?:^|\s)role\s*=\s*["']?banner\b""", raw, re.IGNORECASE) is not None),
    ("banner",),
)


def page_header_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it lies inside the page's banner: a ``<header>`` outside any article,
    aside, main, nav or section element (:func:`~scrapy_bte.core.tree.page_level`), or an element
    whose ``role`` is ``banner`` (``keep`` is not read, as for :func:`page_footer_mask`).

    The site's header holds its logo, menus, mega-menu panels and promotion bars, some of
    them long link-free text the block model keeps beside a list or a service page's sections.
    An article's or a section's own ``<header>`` (its headline, a product's name) stays. WCXB
    by site folds: all 0.8855 to 0.8863, 61 pages better and 7 worse (by 0.003 at most);
    collection +0.0035, listing +0.0027, service +0.0015, article +0.0003; of the older sets'
    pages, two of dragnet's lose a headline its gold keeps (-0.05, -0.02) and two gain."""
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool)
    own = _BANNER.per_element(doc) | page_level(doc, ("header",))
    if not np.count_nonzero(own):
        return np.zeros(doc.n_blocks, dtype=bool)
    return _inside(doc, own)


#: Per distinct attribute string, 1 where it names a breadcrumb trail.
_BREADCRUMBS = AttributeReader(lambda raw: int(_names(raw, BREADCRUMB_RE)), BREADCRUMB_WORDS)


def breadcrumb_mask(doc: Document, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it lies inside an element named for a breadcrumb trail (with ``keep``,
    the kept blocks, inside none that holds half the kept words: :func:`_holders`)."""
    return _mask(doc, _BREADCRUMBS, keep)


def post_furniture_mask(doc: Any, keep: np.ndarray | None = None) -> np.ndarray:
    """Per block, whether it lies inside a forum post's user card, signature or buttons
    (with ``keep``, the kept blocks, inside none that holds half the kept words: :func:`_holders`)."""
    return _mask(doc, _POST_SECTIONS, keep)


def consent_mask(doc: Document) -> np.ndarray:
    """Per block, whether it lies inside an element named for a cookie or privacy consent
    dialog. Names on ``<html>`` or ``<body>`` (``class="cookie-consent-shown"``) say what the
    page shows, not where, and do not count."""
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool)
    return _inside(doc, _consent_elements(doc), parts_only=True)


def _consent_elements(doc: Document) -> np.ndarray:
    """Per element, 1 where its ``class`` or ``id`` names a consent dialog (:data:`CONSENT_RE`)."""
    sk = doc.skeleton
    own = np.zeros(len(sk.el_attr_id), dtype=np.int64)
    named = (element_bits(doc) & _OVERLAY_BIT).nonzero()[0]
    if len(named) == 0:
        return own
    memo = _CONSENT_NAMES
    if len(memo) > _CONSENT_MEMO:
        memo.clear()
    strings = sk.attr_strings
    for e, string in zip(named.tolist(), sk.el_attr_id[named].tolist()):
        raw = strings[string]
        found = memo.get(raw)
        if found is None:
            found = memo[raw] = int(_names(raw, CONSENT_RE))
        own[e] = found
    return own


def check(value: Any) -> bool:
    """The ``comments`` option, validated: ``True`` returns the comments; ``False`` and ``None`` do not."""
    if value is None or isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ConfigError(f"option comments must be True, False or None, got {value!r}")


def apply(
    doc: Document, keep: np.ndarray, comments: bool, reasons: np.ndarray | None = None
) -> tuple[np.ndarray, list[int]]:
    """``keep`` without the comment section, and (``comments=True``) the comment blocks.

    Removing never empties a result that had text: a page whose kept
    blocks all lie in something named "comments" keeps them (a forum
    thread or a page that names its article container so). ``reasons``,
    when given, records the blocks this rule removed.
    """
    if doc.n_blocks == 0:
        return keep, []
    inside = section_mask(doc)
    if not np.count_nonzero(inside):
        return keep, []
    body = keep & ~inside
    if body.any():
        if reasons is not None:
            reasons[keep & inside] = Reason.COMMENTS
        keep = body
    if not comments:
        return keep, []
    return keep, np.flatnonzero(_thread(doc, inside) & ~keep).tolist()


def thread_mask(doc: Document) -> np.ndarray:
    """Per block, whether it is the text of a comment section: a comment or post of the thread
    (:data:`MIN_WORDS` or more, mostly not link text, no label), not its names, dates and links.

    What ``comments=True`` returns, and what a forum thread adds to its kept posts: on a forum the
    replies sit in elements named for comments, and the block model, taught that comments are no
    article body, scores them low (WCXB's forum pages by site folds: 0.764 without them, 0.770 with).
    """
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool)
    inside = section_mask(doc)
    return _thread(doc, inside) if inside.any() else inside


#: Kept words outside every comment section an element needs to be a post that has comments of
#: its own (:func:`post_comments_mask`): a post's text, not its poster's name and score.
POST_WORDS = 20


def post_comments_mask(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Per block, whether it lies in the comments on one post of a thread, not in the thread.

    Question-and-answer software puts a short comment list under the question and under each
    answer (Stack Exchange's ``comments-list``): each outermost comment section sits inside a
    different post, an element that holds :data:`POST_WORDS` kept words outside every section.
    WCXB's gold leaves those comments out and keeps the answers (4 of the 93 comments of its
    nine Stack Exchange threads are in the gold; its forum pages by site folds: 0.803 F1 with
    them, 0.810 without). A thread whose replies are the comment
    sections (a forum naming each post ``comment-123``, a blog's one comment list) has them
    all under one element, the thread's, and this finds none.
    """
    out = np.zeros(doc.n_blocks, dtype=bool)
    if doc.n_blocks == 0 or not keep.any():
        return out
    sk = doc.skeleton
    own = _SECTIONS.per_element(doc)
    if not own.any():
        return out
    page = np.fromiter((name in _PAGE_ELEMENTS for name in sk.name_strings), bool, len(sk.name_strings))
    own = np.where(page[sk.el_name_id], 0, own)
    own[0] = 0
    named = path_or(doc, own)
    parents = sk.parents
    # Outermost sections: named themselves, no named ancestor.
    outer = np.flatnonzero((own > 0) & (named[np.maximum(parents, 0)] == 0))
    if len(outer) < 2:
        return out
    container = np.asarray(doc.container, dtype=np.int64)
    words = np.asarray(doc.words, dtype=np.float64)
    body = keep & (named[container] == 0)
    held = np.bincount(container[body], words[body], len(parents))
    parent_list = sk.el_parent
    for el in range(len(parents) - 1, 0, -1):  # children follow their parents in document order
        held[parent_list[el]] += held[el]
    posts: dict[int, list[int]] = {}
    for section in outer.tolist():
        el = parent_list[section]
        while el > 0 and held[el] < POST_WORDS:
            el = parent_list[el]
        posts.setdefault(el, []).append(section)
    posts.pop(0, None)  # sections no post holds: the page's own, not a post's
    if len(posts) < 2:
        return out
    mark = np.zeros(len(parents), dtype=np.int64)
    mark[[s for sections in posts.values() for s in sections]] = 1
    return path_or(doc, mark)[container] > 0


#: A post's note is a short line: this many words and characters at most. (The longest note on
#: the development pages has 151 characters; a block of 100,000 commas and " likes x" made the
#: pattern try every way of splitting the commas, a minute.)
NOTE_WORDS = 25
NOTE_CHARS = 400


def post_notes_mask(doc: Document) -> np.ndarray:
    """Per block, whether it is a post's edit note or the guest's prompt to sign in under a thread
    (:data:`~scrapy_bte.evidence.words.POST_NOTE_RE`, :data:`NOTE_WORDS` words and
    :data:`NOTE_CHARS` characters at most): text
    forum software writes in words, where no element's name says it is furniture; or a letter
    alone, the avatar Discourse and NodeBB draw for a poster without a picture (WCXB by site
    folds: 4 forum pages better, none worse)."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    short = np.flatnonzero(np.asarray(doc.words) <= NOTE_WORDS)
    if len(short) == 0:
        return out
    # The pattern is read on the blocks that hold one of its words, found by a plain search
    # of the short blocks together (a pattern of many alternatives is slow to run over a
    # whole page: some milliseconds on a long thread).
    texts = [doc.texts[b] for b in short.tolist()]
    for i in texts_holding(texts, list(POST_NOTE_WORDS)):
        out[short[i]] = len(texts[i]) <= NOTE_CHARS and POST_NOTE_RE.search(texts[i]) is not None
    for i, text in enumerate(texts):
        if len(text) <= 3 and len(letter := text.strip()) == 1 and letter.isalpha():
            out[short[i]] = True
    return out


#: Per distinct attribute string, 1 where its schema.org ``itemtype`` makes the element a post ...
_POST_ITEMS = AttributeReader(lambda raw: int(POST_ITEM_RE.search(raw) is not None), ("itemtype",))
#: ... and 1 where its ``itemprop`` makes it a post's text.
_POST_TEXTS = AttributeReader(lambda raw: int(POST_TEXT_RE.search(raw) is not None), ("itemprop",))


def schema_posts_mask(doc: Document) -> np.ndarray:
    """Per block, whether it is the text of a post as the page's schema.org microdata marks it
    (an ``itemprop="text"`` inside an ``itemtype`` Comment, Answer, Question or
    DiscussionForumPosting), with :func:`thread_mask`'s tests: a thread whose replies nest
    under each other (XenForo's threaded view) has them in no one record group, and their
    elements are named for messages, not comments."""
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool)
    posts = _POST_ITEMS.per_element(doc)
    if not posts.any():
        return np.zeros(doc.n_blocks, dtype=bool)
    texts = _POST_TEXTS.per_element(doc)
    inside = path_or(doc, texts * path_or(doc, posts))[doc.container] > 0
    return _thread(doc, inside) if inside.any() else inside


#: Posts with text the page's microdata must mark for :func:`marked_thread`: a question and its answer.
MARKED_POSTS = 2


def marked_thread(doc: Document) -> bool:
    """Whether the page's schema.org microdata marks :data:`MARKED_POSTS` or more posts whose
    text :func:`schema_posts_mask` reads: the page says it is a thread, in its own markup.
    Only asked where the classifier's most probable type is forum, yet short of the forum
    profile's bar (a thread whose first post reads like an article)."""
    inside = schema_posts_mask(doc)
    if not inside.any():
        return False
    owner = nearest_marked(doc, _POST_ITEMS.per_element(doc) > 0)
    container = np.asarray(doc.container, dtype=np.int64)
    found = distinct(owner[container[inside]])
    return int(np.count_nonzero(found)) >= MARKED_POSTS


def _thread(doc: Document, inside: np.ndarray) -> np.ndarray:
    words = doc.words
    flags = label_features(doc)
    label = (flags[:, 0] > 0) | ((flags[:, 4] > 0) & (words <= 8))
    return inside & (words >= MIN_WORDS) & (doc.link_words <= MAX_LINK * words) & ~label
