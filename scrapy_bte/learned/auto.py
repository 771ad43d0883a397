"""The selection policy of the learned methods: ``model`` and ``auto``.

The block model gives each block a content probability; this module turns
them into the kept blocks. ``model`` keeps what passes the model's
threshold; ``auto`` first smooths the probabilities over neighbours and
then applies the page-level rules below (same article, link lists) and
keeps the article body only (no headline, byline or label-like blocks),
each measured on the development sets.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

import numpy as np

from ..core import accel
from ..core.document import HEADING_TAGS, Document
from ..evidence.zones import headline_mask, subject_mask
from ..fields.dates import is_dateline
from ..fields.zones import page_zones
from ..methods import comments, dialogs, filters, hybrid, records
from ..methods.copies import COVERED_WORDS, copy_mask, covered_blocks
from ..methods.reasons import Reason, Trace
from .features import block_features, hidden_blocks, window_mean
from .model import BlockModel
from .never_body import boxed_furniture, edge_mask, first_paragraph, shop_headings
from .profiles import ARTICLE, profile

#: ``auto`` smoothing: weight of the block's own probability, half-width of the neighbour window.
SMOOTH_SELF = 0.7
SMOOTH_HALF = 2
#: Words a left-out block needs to join the kept article's element.
SAME_ARTICLE_WORDS = 25
#: Blocks whose link words exceed this share of their words are never lifted by smoothing.
SMOOTH_MAX_LINK = 0.5
#: A block of at least this many words, this share of them link text, is a link list, never content.
LINK_LIST_WORDS = 50
LINK_LIST_SHARE = 0.95
#: A short kept text (under :data:`REPEAT_WORDS` words, with letters) that this many kept
#: blocks repeat, a count aside (:func:`_template_key`), is a record's template: "Quote",
#: "Report", "Like 14", "Posts: 3517", "Add to basket". Every copy goes, or every copy but the first
#: (``first_template``, off on forums), as with the longer repeats: a slider's clones print a section
#: three or four times and the gold holds it once, and a pricing table's features repeat per plan.
#: With the first copy kept, WCXB by site folds 0.8909 to 0.8912 (listing +0.0014, product +0.0013,
#: service +0.0014; 83 pages better, 64 worse, the worst by 0.024; forum the same either way).
#: A date is never a template (:func:`~scrapy_bte.fields.dates.is_dateline`): the posts of one day
#: print one date, and each is its post's. Forum 0.8269 to 0.8280 (10 pages better, 7 worse), the
#: other types the same.
TEMPLATE_MIN = 3
_DIGITS = re.compile(r"\d+")
_LETTERS = re.compile(r"[^\W\d_]{2}")
#: An article body, for :func:`one_body`: its words, and the share of the kept words it holds.
BODY_WORDS = 100
BODY_SHARE = 0.6
#: A kept block of at least this many words that repeats an earlier kept block's text goes
#: (a shop's description shown in a tab and in a summary; WCXB counts each word each time).
REPEAT_WORDS = 5

#: :func:`filler_mask`: a long block (words) whose distinct words are at most this share of them
#: (WCXB by site folds: 0.05 changed 2 pages, both better; 0.1 also dropped a forum post's log).
FILLER_WORDS = 50
FILLER_SHARE = 0.05

#: :func:`name_block`: how many blocks from the kept text a product's name may stand (its rating,
#: price, quantity and buttons between them). WCXB by site folds (cached fold models): product
#: 0.6937 without the rule, 0.6979 with 2 blocks, 0.6985 with 3 to 5 (13 pages better, 12
#: worse, the worst by 0.02), 0.6979 with 15, 0.6980 with any distance (18 better, 26 worse);
#: no page of another type changed by more than 0.001.
NAME_REACH = 5

#: The openers of code blocks, whose repeats go where repeated prose stays (:func:`drop_repeats`).
_CODE = frozenset(("pre", "code"))

#: The largest record group (:func:`~scrapy_bte.methods.records.largest_group`) joins a listing's
#: kept text only when its new blocks hold this many times the kept words: the model missed the
#: cards. Where the kept text is already as long, the group is a sidebar beside a body (an
#: article the classifier took for a list: TMZ's news column beside a story, 2.0 times its words).
#: WCXB by site folds, all types 0.8686 with any group, 0.8684 with 2 or 2.2, 0.8682 with 2.5;
#: the older sets' pages made worse (mercury's, L3S-GN1's, dragnet's, the model trained without
#: the set): 7 with any group, 4 with 2, 3 with 2.2 or 2.5 (-0.0001 to -0.0004 a set).
CARDS_OVER_KEPT = 2.5

_AUTO = accel.load("learned.auto")


def select(
    doc: Document,
    span: Any,
    model: BlockModel,
    *,
    smooth: bool = False,
    title: str | None = None,
    reasons: np.ndarray | None = None,
    page_type: str | None = None,
    trace: Trace | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Keep mask and content probabilities of a document's blocks (see :func:`decide`).

    ``auto`` (``smooth``) follows the profile of ``page_type``
    (:mod:`~scrapy_bte.learned.profiles`; none is an article): the block
    model's lists model blended in where the profile says so, its keep
    threshold, then the main record group's blocks over the records' bar
    (:func:`~scrapy_bte.methods.records.extend`). On an article it keeps
    the body only: the headline, byline and label-like blocks of
    :func:`~scrapy_bte.learned.never_body.edge_mask` and the headline, byline
    and dateline blocks the fields read (:func:`_zone_blocks`) go, unless
    nothing else would be left. Where the profile says so, a kept block that
    repeats an earlier one goes (:func:`drop_repeats`). ``reasons`` (a
    :class:`~scrapy_bte.methods.reasons.Reason` per block) is filled with
    the rule that decided each block when given, and ``trace`` gets the keep threshold the
    probabilities were read with (the profile's, or the model's).
    """
    if doc.n_blocks == 0:
        return np.zeros(0, dtype=bool), np.zeros(0)
    rules = profile(page_type) if smooth else ARTICLE
    p = model.predict_document(doc, block_features(doc, span), lists=rules.lists_model)
    threshold = model.threshold if rules.threshold is None else rules.threshold
    named_furniture: np.ndarray | None = None
    overlay: np.ndarray | None = None
    if smooth:
        # A cookie consent dialog's paragraphs read like body text; on a listing whose cards the
        # model scores low they were all it kept. They leave before the decision, and so does
        # filler that repeats a few words (modal windows: see dialogs below).
        overlay = comments.consent_mask(doc) | filler_mask(doc)
        # Not where nothing else would pass the threshold: the page's own rules (a thread's
        # posts, a listing's records) read from a decision, and the fallback skips them.
        if np.count_nonzero(overlay) and (p[~overlay] >= threshold).any():
            p = np.where(overlay, np.zeros(1, dtype=p.dtype), p)
            named_furniture = overlay
            overlay = None  # decided
    if rules.drop_shop_sections:
        # Reviews and recommendations are never the product's content: they leave the
        # decision before it is made, so the threshold and the fallbacks read the rest of
        # the page (a shop page whose only confident text was its reviews keeps its specs).
        shop = comments.shop_furniture_mask(doc)
        if shop.any() and not shop.all():
            p = np.where(shop, np.zeros(1, dtype=p.dtype), p)
            named_furniture = shop if named_furniture is None else named_furniture | shop
    if rules.records_need_cards and threshold < model.threshold:
        keep, q = decide(doc, p, model.threshold, smooth=smooth)
        if one_body(doc, keep):
            rules, threshold = ARTICLE, model.threshold  # an article the classifier took for a list
    keep, q = decide(doc, p, threshold, smooth=smooth, reasons=reasons)
    if trace is not None:
        trace.threshold = threshold
    if named_furniture is not None and reasons is not None:
        reasons[named_furniture & ~keep] = Reason.FURNITURE
    if smooth and not np.count_nonzero(q >= threshold) and not _thread_found(doc, rules):
        # The model sees no content anywhere (a page unlike any it learned from): BTE's
        # text plateau, as ``hybrid`` reads it, is better evidence than the least unlikely blocks.
        plateau = hybrid.select(doc, span)
        if named_furniture is not None:
            plateau &= ~named_furniture
        if plateau.any():
            if reasons is not None:
                reasons[:] = np.where(plateau, Reason.FALLBACK, Reason.LOW_PROBABILITY)
                if named_furniture is not None:
                    reasons[named_furniture] = Reason.FURNITURE
            return plateau, q
    if smooth:
        if rules.records is not None:
            extended = records.extend(doc, keep, q, rules.records)
            if rules.largest_records:
                extended = join_cards(doc, extended, named_furniture)
            if reasons is not None:
                reasons[extended & ~keep] = Reason.RECORD
            keep = extended
        if rules.article_edges:
            first = first_paragraph(doc, keep, title)  # the body's, for both rules
            body = keep & ~edge_mask(doc, keep, title, first) & ~_zone_blocks(doc, keep, title, first)
            if np.count_nonzero(body):
                if reasons is not None:
                    reasons[keep & ~body] = Reason.FURNITURE
                keep = body
        if rules.comments_are_content:
            # The thread's replies are its posts, however low the model scores a comment, and so
            # are the posts its schema.org microdata marks.
            thread = (comments.thread_mask(doc) | comments.schema_posts_mask(doc)) & ~keep
            if thread.any():
                if reasons is not None:
                    reasons[thread] = Reason.THREAD
                keep = keep | thread
        if rules.drop_post_comments:
            # Comments on one post (a Q&A site's notes under the question and each answer) are
            # not the thread's posts, however they were kept.
            keep = _leave(keep, comments.post_comments_mask(doc, keep), reasons, Reason.COMMENTS)
        if rules.drop_post_furniture:
            # A post's edit note and the guest's sign-in prompt, said in words, not names.
            keep = _leave(keep, comments.post_notes_mask(doc), reasons)
        for wanted, named in (
            (rules.drop_shop_sections, comments.shop_furniture_mask),
            (rules.drop_post_furniture, comments.post_furniture_mask),
            (rules.drop_list_controls, comments.list_controls_mask),
            (rules.drop_page_footer, comments.page_footer_mask),
            (rules.drop_page_header, comments.page_header_mask),
            (rules.drop_breadcrumbs, comments.breadcrumb_mask),
        ):
            if wanted:
                keep = _leave(keep, named(doc, keep), reasons)
        boxes = None
        if rules.drop_shop_sections:
            # The boxes a shop heads with "You may also like" or "Delivery & returns", however named.
            boxes = boxed_furniture(doc, keep, shop_headings(doc))
            keep = _leave(keep, boxes, reasons)
        # A modal window's text (a shop's policies, a size chart, a sign-in box) is never content.
        inside = dialogs.dialog_mask(doc)
        if overlay is not None:
            inside = inside | overlay  # left to the decision: it goes from what was kept
        keep = _leave(keep, inside, reasons)
        if rules.drop_subjects:
            keep = _leave(keep, subject_mask(doc, title), reasons)
        if rules.drop_filters:
            # A listing's checkboxes and result count are its controls, not its items.
            keep = _leave(keep, filters.filter_mask(doc, keep), reasons)
        if rules.drop_card_labels:
            keep = _leave(keep, filters.card_label_mask(doc, keep), reasons)
        if rules.drop_tabs:
            keep = _leave(keep, filters.tab_label_mask(doc, keep), reasons)
        if rules.drop_repeats:
            keep = drop_repeats(
                doc,
                keep,
                reasons,
                templates=rules.drop_templates,
                prose=rules.drop_repeated_prose,
                first_template=rules.template_first_stays,
            )
        elif rules.drop_copies:
            keep = _leave(keep, copy_mask(doc, keep), reasons, Reason.REPEATED)
        copies = hidden_copies(doc, keep)
        if copies:
            copied = np.zeros(doc.n_blocks, dtype=bool)
            copied[copies] = True
            keep = _leave(keep, copied, reasons, Reason.REPEATED)
        if rules.keep_name:
            name = name_block(doc, keep, title, boxes)
            if name is not None and not keep[name]:
                keep = keep.copy()
                keep[name] = True
                if reasons is not None:
                    reasons[name] = Reason.NAME
    return keep, q


def _leave(
    keep: np.ndarray, named: np.ndarray, reasons: np.ndarray | None, reason: Reason = Reason.FURNITURE
) -> np.ndarray:
    """``keep`` without the kept blocks ``named`` marks, unless they are all it holds: a rule
    that names furniture never empties a page (a page whose only text sits in its footer, a
    dialog or a post's comments keeps it)."""
    inside = keep & named
    if not np.count_nonzero(inside) or not np.count_nonzero(keep & ~inside):
        return keep
    if reasons is not None:
        reasons[inside] = reason
    return keep & ~inside


def _thread_found(doc: Document, rules: Any) -> bool:
    """Whether a profile that reads the comment section as content finds a thread's posts: then
    those posts, not BTE's text plateau, are what a page the model doubts everywhere keeps."""
    return bool(rules.comments_are_content and comments.thread_mask(doc).any())


def hidden_copies(doc: Document, keep: np.ndarray) -> list[int]:
    """The kept blocks that are a hidden copy of the kept text: markup hides them
    (:func:`~scrapy_bte.learned.features.hidden_blocks`) and the other kept blocks hold its
    words (:func:`~scrapy_bte.methods.copies.covered_blocks`), as the raw Markdown of the
    article some sites hide in a ``<pre hidden>`` for machines. The block model reads the
    hidden mark on the block's path only, and hidden tabs hold real content, so hiding alone
    decides nothing. WCXB by site folds: 1 article page better (+0.33) and 1 collection page
    worse (-0.009; with 100 words 4 worse, with 50 words 8); the older sets: Readability's
    hidden-nodes (+0.50) and an L3S-GN1 page (+0.13) better, none worse."""
    words = doc.words
    if not len(words) or words.max() < COVERED_WORDS:
        return []  # most pages: no block that long
    big = np.flatnonzero(keep & (words >= COVERED_WORDS))
    if not len(big):
        return []
    hidden = big[hidden_blocks(doc, big.tolist())].tolist()
    return covered_blocks(doc, keep, hidden) if hidden else []


def filler_mask(doc: Document) -> np.ndarray:
    """Per block, whether it is filler: :data:`FILLER_WORDS` words or more, of which no more
    than :data:`FILLER_SHARE` distinct (a marquee's "Book Now * Book Now *", a template's
    placeholder "word word word"). Such a block once read as a news front's one article body."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    texts = doc.texts
    for b in (doc.words >= FILLER_WORDS).nonzero()[0].tolist():
        text = texts[b]
        # Cheap first: filler repeats its first word all along; prose does not.
        head = text[:40].split(None, 1)
        if not head or text.count(head[0]) * len(head[0]) < 0.2 * len(text):
            continue
        tokens = text.lower().split()
        out[b] = len(set(tokens)) <= FILLER_SHARE * len(tokens)
    return out


def name_block(doc: Document, keep: np.ndarray, title: str | None, boxes: np.ndarray | None = None) -> int | None:
    """The block naming a product beside its kept text: the first ``<h1>`` that repeats the page's
    title (:func:`~scrapy_bte.evidence.zones.headline_mask`), within :data:`NAME_REACH` blocks of a
    kept one; None without one. The name is one of the details a product page states, and
    the block model, trained mostly on articles, scores a headline as furniture. One far from
    the kept text heads another part of the page (a gallery, a buy box). The blocks of the
    shop's named ``boxes`` (its delivery and returns terms between the buy box and the
    description) are not counted."""
    kept = keep.nonzero()[0]
    if not len(kept):
        return None
    # Blocks in the shop's named boxes ("Delivery & returns") do not count as distance.
    steps = np.arange(doc.n_blocks) if boxes is None else np.cumsum(~boxes)
    opener = doc.opener
    for b in headline_mask(doc, title).nonzero()[0].tolist():
        if opener[b] == "h1":
            return b if int(np.abs(steps[kept] - steps[b]).min()) <= NAME_REACH else None
    return None


def join_cards(doc: Document, keep: np.ndarray, furniture: np.ndarray | None = None) -> np.ndarray:
    """``keep`` and the largest record group (:func:`~scrapy_bte.methods.records.largest_group`,
    none of the named ``furniture`` blocks) where its new blocks hold :data:`CARDS_OVER_KEPT`
    times the kept words: a listing whose cards the model missed."""
    words = np.asarray(doc.words, dtype=np.float64)
    kept_words = float(words[keep].sum())
    if float(words.sum()) - kept_words < CARDS_OVER_KEPT * kept_words:
        return keep  # the words left over could not hold such a group: no search
    allowed = np.ones(doc.n_blocks, dtype=bool) if furniture is None else ~furniture
    cards = records.largest_group(doc, allowed) & ~keep
    if float(words[cards].sum()) < CARDS_OVER_KEPT * kept_words:
        return keep
    return keep | cards


def _template_key(text: str) -> str:
    """A short text with its one number (a count: "Like 14", "Posts: 3517") as ``#``;
    texts of several numbers (dates, prices with cents) stay as they are."""
    low = text.lower()
    return _DIGITS.sub("#", low) if len(_DIGITS.findall(low)) == 1 else low


def one_body(doc: Document, keep: np.ndarray) -> bool:
    """Whether ``keep`` (the article profile's reading) is one article body: at least
    :data:`BODY_WORDS` words, :data:`BODY_SHARE` of them in blocks of one element that
    are neither list items nor mostly link text. A listing's cards each sit in their own
    element or list item, and a run of links (a job board's country picker) is no body."""
    words = np.asarray(doc.words, dtype=np.float64)
    total = float(words[keep].sum())
    if total < BODY_WORDS:
        return False
    body = keep & ~doc.starts_element("li")
    body &= doc.link_words <= SMOOTH_MAX_LINK * words
    if not body.any():
        return False
    container = np.asarray(doc.container, dtype=np.int64)
    return float(np.bincount(container[body], words[body]).max()) >= BODY_SHARE * total


def drop_repeats(
    doc: Document,
    keep: np.ndarray,
    reasons: np.ndarray | None = None,
    *,
    templates: bool = False,
    prose: bool = True,
    first_template: bool = True,
) -> np.ndarray:
    """``keep`` without the kept blocks of :data:`REPEAT_WORDS` words or more whose text
    (in any case) an earlier kept block already holds, without a table of contents' entries
    (:func:`contents_entries`), and (``templates``) without the short template texts every record
    repeats (:data:`TEMPLATE_MIN`), their first copy kept with ``first_template``. With ``prose`` False only code (``<pre>``,
    ``<code>``) counts as a repeat: a documentation page's tabs say the same step once per
    language, and its gold keeps each."""
    seen: set[str] = set()
    repeats = contents_entries(doc, keep)
    # The entries go first: the heading each one repeats is the copy that stays.
    rest = keep
    if repeats:
        rest = keep.copy()
        rest[repeats] = False
    texts = doc.texts
    opener = doc.opener
    for b in np.flatnonzero(rest & (doc.words >= REPEAT_WORDS)).tolist():
        if not prose and opener[b] not in _CODE:
            continue
        key = texts[b].lower()
        if key in seen:
            repeats.append(b)
        else:
            seen.add(key)
    if templates:
        short = np.flatnonzero(rest & (doc.words < REPEAT_WORDS)).tolist()
        keys = [_template_key(texts[b]) for b in short]
        counts = Counter(keys)
        # Each distinct text is judged once: a listing repeats its templates dozens of times.
        templated = {k for k, n in counts.items() if n >= TEMPLATE_MIN and _LETTERS.search(k) and not is_dateline(k)}
        seen_keys: set[str] = set()
        for b, key in zip(short, keys):
            if key in templated:
                if key in seen_keys or not first_template:
                    repeats.append(b)
                seen_keys.add(key)
    if not repeats:
        return keep
    keep = keep.copy()
    keep[repeats] = False
    if reasons is not None:
        reasons[repeats] = Reason.REPEATED
    return keep


def contents_entries(doc: Document, keep: np.ndarray) -> list[int]:
    """The kept blocks, not headings, whose text (in any case and spacing) a later kept heading
    repeats: the entries of the page's table of contents, each a copy of its section's heading
    (WCXB counts each word each time). Non-article profiles only (with ``drop_repeats``): WCXB's
    gold leaves a document's contents out (by site folds, 36 pages better and 11 worse, by 0.008
    at most), while the older sets' article gold keeps them (applied to articles as well,
    Readability's set lost 0.0003)."""
    texts = doc.texts
    opener = doc.opener
    kept = keep.nonzero()[0].tolist()
    last: dict[str, int] = {}
    for b in kept:
        if opener[b] in HEADING_TAGS:
            last[" ".join(texts[b].lower().split())] = b
    if not last:
        return []
    return [b for b in kept if opener[b] not in HEADING_TAGS and last.get(" ".join(texts[b].lower().split()), -1) > b]


def _zone_blocks(doc: Document, keep: np.ndarray, title: str | None, first: int | None) -> np.ndarray:
    """The headline, byline and dateline blocks the article fields read
    (:func:`scrapy_bte.fields.zones.page_zones`) that stand before the body's
    first paragraph ``first`` (:func:`~scrapy_bte.learned.never_body.first_paragraph`; None: no
    block is one): the blocks an author or date is read from are never body
    text (mercury, the model trained without it: 0.9366 F1 against 0.9355)."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    if first is None:
        first = doc.n_blocks
    if not keep[:first].any():
        return out  # nothing kept stands before the body: no zones to read
    found = page_zones(doc, title, before=first).blocks
    if found:
        out[[b for b in found if b < first]] = True
    return out


def decide(
    doc: Document,
    p: np.ndarray,
    threshold: float = 0.5,
    *,
    smooth: bool = False,
    reasons: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Keep mask and (smoothed) probabilities from the model's block probabilities ``p``.

    The rules are those of :func:`decide_reference`. ``auto``'s case (``smooth``,
    no ``reasons``, the model's float32 ``p``) runs in C when it is built
    (unless the native switch is off): some thirty
    numpy calls per page become a few passes over the blocks, same values to the bit.
    """
    c = _AUTO.use()
    if c is None or not smooth or reasons is not None or p.dtype != np.float32 or len(p) == 0:
        return decide_reference(doc, p, threshold, smooth=smooth, reasons=reasons)
    q, keep = c.smooth_keep(
        np.ascontiguousarray(p),
        np.ascontiguousarray(doc.words, dtype=np.float64),
        np.ascontiguousarray(doc.link_words, dtype=np.float64),
        np.ascontiguousarray(doc.container, dtype=np.int64),
        doc.skeleton.parents,
        threshold,
        SMOOTH_SELF,
        SMOOTH_HALF,
        SMOOTH_MAX_LINK,
        SAME_ARTICLE_WORDS,
        LINK_LIST_WORDS,
        LINK_LIST_SHARE,
    )
    return np.frombuffer(keep, dtype=bool), np.frombuffer(q, dtype=np.float64)


def decide_reference(
    doc: Document, p: np.ndarray, threshold: float = 0.5, *, smooth: bool = False, reasons: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The rules of :func:`decide` in numpy: its reference, and its path with ``reasons``.

    ``smooth`` (the ``auto`` method) averages each probability with its
    neighbours' (content comes in runs, a stray caption inside the article
    or a lone teaser outside it flips) and joins the long, link-free
    paragraphs of the element that holds most of the kept text.
    Long blocks made of link text alone (menus whose links wrap whole
    paragraphs) are never kept beside other text. A page with text never comes back empty:
    when no block passes, the blocks within half of the best probability
    are kept. ``reasons``, when given, gets the rule behind each block.
    """
    q = p
    if smooth:
        # In place on the fresh window means: the same products and sum as
        # SMOOTH_SELF * p + (1 - SMOOTH_SELF) * window_mean(p), fewer temporaries.
        q = window_mean(p, SMOOTH_HALF)
        q *= 1.0 - SMOOTH_SELF
        q += SMOOTH_SELF * p
        # Neighbours lift short lines inside the body, not menus: a block that
        # is mostly link text keeps its own probability when that is lower.
        np.minimum(q, p, out=q, where=doc.link_words > SMOOTH_MAX_LINK * doc.words)
    keep = q >= threshold
    if reasons is not None:
        _probability_reasons(reasons, p >= threshold, keep)
    if not keep.any():
        keep = q >= 0.5 * float(q.max())
        if reasons is not None:
            reasons[keep] = Reason.FALLBACK
    elif smooth:
        joined = keep | _same_article(doc, keep)
        if reasons is not None:
            reasons[joined & ~keep] = Reason.SAME_ARTICLE
        keep = joined
    lists = doc.words >= LINK_LIST_WORDS
    lists &= doc.link_words >= LINK_LIST_SHARE * doc.words
    lists &= keep
    # Link lists go when something else is kept: fewer kept link-list blocks than kept blocks.
    n_lists = np.count_nonzero(lists)
    if n_lists and n_lists < np.count_nonzero(keep):
        if reasons is not None:
            reasons[lists] = Reason.LINK_LIST
        keep = keep & ~lists
    return keep, q


def _probability_reasons(reasons: np.ndarray, own: np.ndarray, smoothed: np.ndarray) -> None:
    """Kept or dropped by probability; where smoothing flipped the block's own verdict, smoothing decided."""
    reasons[:] = np.where(smoothed, Reason.PROBABILITY, Reason.LOW_PROBABILITY)
    reasons[smoothed & ~own] = Reason.LIFTED
    reasons[~smoothed & own] = Reason.SUNK


def _same_article(doc: Document, keep: np.ndarray) -> np.ndarray:
    """Long, link-free blocks in the element that holds most kept words (or a
    child of it): paragraphs of the article the model left out."""
    container = np.asarray(doc.container, dtype=np.int64)
    parents = doc.skeleton.parents
    words = np.asarray(doc.words, dtype=np.float64)
    owner = np.where(container > 0, parents[container], 0)
    main_words = np.bincount(owner[keep], words[keep], len(parents))
    main = int(np.argmax(main_words))
    if main == 0:
        return np.zeros(len(keep), dtype=bool)
    inside = owner == main
    inside |= container == main
    inside &= words >= SAME_ARTICLE_WORDS
    inside &= doc.link_words <= 0.1 * words
    return inside


def confidence(doc: Document, keep: np.ndarray, p: np.ndarray) -> float:
    """How much to trust a learned extraction, in [0, 1].

    High when the model was decisive (probabilities far from the threshold,
    weighted by words), the kept text is sure content and long enough.
    """
    if not np.count_nonzero(keep):
        return 0.0
    words = np.asarray(doc.words, dtype=np.float64)
    total = max(float(words.sum()), 1.0)
    # |2p - 1| in place on the one fresh array (its own dtype, as the expression would).
    spread = 2.0 * p
    spread -= 1.0
    np.abs(spread, out=spread)
    decisive = float((spread * words).sum()) / total
    kept = words[keep]
    kept_words = float(kept.sum())
    sure = float((p[keep] * kept).sum()) / max(kept_words, 1.0)
    length = min(1.0, math.log1p(kept_words) / math.log1p(400.0))
    return float(min(1.0, max(0.0, 0.4 * decisive + 0.3 * sure + 0.3 * length)))
