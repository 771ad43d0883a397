"""How ``auto`` selects on each page type: one profile per type, in one table.

An article's main content is its body: one run of paragraphs, with the
headline, byline and labels at its edges left out and readers' comments
apart. The other page types spread their content over many elements
(WCXB's gold, read per type): every post of a forum thread (the comment
section is the content there), every card of a listing or collection,
every section of a service page, the whole document of a documentation
page. Their profiles keep more: a lower keep threshold, the main record
group's blocks (:mod:`scrapy_bte.methods.records`), no article-edge rules.

Values measured on WCXB's development split by five folds grouped by site
(the model never saw a page's site), with the page's own type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    """The selection rules ``auto`` applies on one page type."""

    #: Keep threshold on the smoothed probability (``None``: the model's own).
    threshold: float | None = None
    #: Blend in the block model's lists model (:attr:`~scrapy_bte.learned.model.BlockModel.lists`,
    #: trained on listing, collection and service pages alone) where the model has one. Not on
    #: listings: the older sets' portal-like news pages read as listings lose their bodies'
    #: edges to it (see :data:`~scrapy_bte.learned.model.LISTS_WEIGHT`).
    lists_model: bool = False
    #: Records: blocks of the main record group at or above this probability join (``None``: off).
    records: float | None = None
    #: The headline, byline, dateline and label blocks before the body go (articles).
    article_edges: bool = True
    #: The comment section is content, not apart from it (forum threads).
    comments_are_content: bool = False
    #: A kept block that repeats an earlier one goes (a shop's description in a tab and a
    #: summary). Not on articles: test pages and some articles repeat a paragraph on purpose,
    #: and their gold keeps both (Readability's set: 0.949 with, 0.920 without).
    drop_repeats: bool = False
    #: With ``drop_repeats``, a paragraph that repeats an earlier one goes too, not only code.
    #: Not on documentation, whose tabs give the same step once per language (Twilio's, Azure's
    #: quickstarts) and whose gold keeps each, while a live example's code shown twice (MDN's)
    #: is one copy too many: WCXB by site folds, documentation 0.9203 to 0.9233 (14 pages
    #: better, by up to 0.18; 12 worse, by 0.016 at most: Rust's trait listings repeat their
    #: notes), service 0.8558 to 0.8562 (pages typed documentation); on service pages as well,
    #: service 0.8534 (43 pages worse). The older sets unchanged.
    drop_repeated_prose: bool = True
    #: A second copy of the body in another branch of the layout goes (a responsive variant, a
    #: ``<noscript>`` copy: :func:`~scrapy_bte.methods.copies.copy_mask`). Where ``drop_repeats``
    #: applies it has nothing left to do.
    drop_copies: bool = True
    #: Short texts every record repeats go too ("Quote", "Report", "Like 14", "Posts: 3517";
    #: :func:`~scrapy_bte.learned.auto.drop_repeats`). Not on collections, whose cards repeat
    #: their spec labels ("Sleeping capacity:") as content, nor on documentation.
    drop_templates: bool = False
    #: With ``drop_templates``, a template text's first copy stays (:data:`~scrapy_bte.learned.auto.TEMPLATE_MIN`):
    #: a slider's clones and a pricing table's features, which the gold holds once or more. Not on
    #: forums, whose templates are the posts' buttons and counts ("Quote", "Like 14").
    template_first_stays: bool = True
    #: The classifier's probability the type needs before this profile applies (see
    #: :func:`selection_type`). A forum thread and an article with a comment thread look
    #: alike, and the forum profile puts the comments in the text: it asks for more.
    min_probability: float = 0.6
    #: The profile applies below ``min_probability`` too when the classifier gives the
    #: article type under :data:`ARTICLE_UNLIKELY` and this type the most.
    when_article_unlikely: bool = True
    #: The profile applies below ``min_probability`` too when this type is the most probable and
    #: the page's own markup says so (:func:`selection_type`'s ``marked``: a thread's posts in
    #: schema.org microdata).
    when_marked: bool = False
    #: Read the page as an article after all when the article profile's reading is one
    #: body of paragraphs (:func:`~scrapy_bte.learned.auto.one_body`), not cards.
    records_need_cards: bool = False
    #: The record group holding the most words joins too, whatever the model made of it
    #: (:func:`~scrapy_bte.methods.records.largest_group`): a listing's cards when the model
    #: kept none of them (short link titles, prices and bylines score as furniture).
    largest_records: bool = False
    #: Blocks inside elements named for reviews, recommendations or carousels go (product pages:
    #: :func:`~scrapy_bte.methods.comments.shop_furniture_mask`), before the keep decision,
    #: so a page whose only confident text was its reviews keeps what else it says.
    drop_shop_sections: bool = False
    #: Blocks inside a post's user card, signature or buttons go (forums:
    #: :func:`~scrapy_bte.methods.comments.post_furniture_mask`).
    drop_post_furniture: bool = False
    #: Blocks inside elements named for the list's filters, facets or sorting go (collections
    #: and listings: :func:`~scrapy_bte.methods.comments.list_controls_mask`).
    drop_list_controls: bool = False
    #: Blocks inside the page's footer go (:func:`~scrapy_bte.methods.comments.page_footer_mask`).
    drop_page_footer: bool = True
    #: Blocks inside the page's banner go: a ``<header>`` outside the article, sections and main
    #: element, or ``role="banner"`` (:func:`~scrapy_bte.methods.comments.page_header_mask`).
    drop_page_header: bool = True
    #: Blocks inside a breadcrumb trail go (:func:`~scrapy_bte.methods.comments.breadcrumb_mask`).
    drop_breadcrumbs: bool = True
    #: Blocks in the comments on one post of a thread go (Q&A sites' comment lists under the
    #: question and each answer: :func:`~scrapy_bte.methods.comments.post_comments_mask`).
    drop_post_comments: bool = False
    #: Labels of checkboxes and radio buttons and the result count go (the search controls of
    #: listings and collections, not products, whose variant pickers are radio buttons:
    #: :func:`~scrapy_bte.methods.filters.filter_mask`).
    drop_filters: bool = False
    #: Blocks that repeat the page's title go: a thread's title above its first post and each
    #: reply's "Re: ..." subject line (:func:`~scrapy_bte.evidence.zones.subject_mask`).
    drop_subjects: bool = False
    #: Blocks that are only a rating, a review count, a badge or a call to action go ("17 reviews",
    #: "4.8 out of 5 stars", "Best seller", "Shop now": :func:`~scrapy_bte.methods.filters.card_label_mask`):
    #: a shop's cards and its product's summary, not a review article's score nor a service page's links.
    drop_card_labels: bool = False
    #: The product's name joins the kept text: the first ``<h1>`` that repeats the page's title,
    #: where it stands a few blocks from a kept one (:func:`~scrapy_bte.learned.auto.name_block`).
    keep_name: bool = False
    #: The labels of a tab strip go ("Description", "Reviews (38)":
    #: :func:`~scrapy_bte.methods.filters.tab_label_mask`).
    drop_tabs: bool = False
    #: The page has a byline: its ``author`` and ``date`` fields are read. A shop's item and a list
    #: of items have none of their own, and what the readers find there is a review's author, a
    #: card's byline or date, or the shop ("Ron B.", "Visit the Apple Store", a listing's first
    #: story's date). WCXB's gold gives no author on 255 of its 261 product, collection and listing
    #: pages and no date on 258; on the pages read with these profiles (the page-type classifier of
    #: each page's site fold), 41 of the authors and 41 of the dates read were not the page's, 5
    #: and 2 were. Service pages the same: 19 authors and 38 dates read on the pages the
    #: classifier calls services were not the page's, 2 and 5 were (mostly articles it half took
    #: for services); WCXB's gold gives a date on 5 of its 157 service pages.
    byline: bool = True
    #: Where no other source gave a date, a dateline among the kept blocks gives it
    #: (:func:`~scrapy_bte.fields.zones.body_dateline`). Not on documentation pages, whose dated
    #: lines are versions, build stamps and revisions.
    body_dateline: bool = True


ARTICLE = Profile()

PROFILES: dict[str, Profile] = {
    "article": ARTICLE,
    "forum": Profile(
        threshold=0.5,
        records=0.2,
        article_edges=False,
        comments_are_content=True,
        drop_repeats=True,
        drop_templates=True,
        template_first_stays=False,
        min_probability=0.8,
        when_article_unlikely=False,
        when_marked=True,
        drop_post_furniture=True,
        drop_post_comments=True,
        drop_subjects=True,
    ),
    "product": Profile(
        byline=False,
        records=0.2,
        article_edges=False,
        drop_repeats=True,
        drop_templates=True,
        drop_shop_sections=True,
        drop_card_labels=True,
        keep_name=True,
        drop_tabs=True,
    ),
    "collection": Profile(
        byline=False,
        threshold=0.35,
        lists_model=True,
        records=0.1,
        article_edges=False,
        drop_repeats=True,
        records_need_cards=True,
        largest_records=True,
        drop_list_controls=True,
        drop_filters=True,
        drop_card_labels=True,
    ),
    "listing": Profile(
        byline=False,
        threshold=0.35,
        records=0.1,
        article_edges=False,
        drop_repeats=True,
        drop_templates=True,
        records_need_cards=True,
        largest_records=True,
        drop_list_controls=True,
        drop_filters=True,
        drop_card_labels=True,
        # Its own bar, under the default: WCXB by site folds, listing 0.7559 with 0.6, 0.7592
        # with 0.5 or 0.4 (a blog's and a news site's front page, listing 0.5-0.6 and article
        # 0.3-0.45, read as articles before); the older sets unchanged but dragnet's -0.0001.
        min_probability=0.5,
    ),
    "documentation": Profile(
        threshold=0.4,
        records=0.2,
        article_edges=False,
        drop_repeats=True,
        drop_repeated_prose=False,
        body_dateline=False,
    ),
    "service": Profile(
        byline=False,
        threshold=0.4,
        lists_model=True,
        records=0.2,
        article_edges=False,
        drop_repeats=True,
        drop_templates=True,
        # WCXB by site folds: all 0.8803 with the default bar, 0.8805 with 0.5 (article 0.9549 to
        # 0.9553: pages the classifier half takes for a service page read better with its
        # profile; service 0.8552 to 0.8554); 0.4 the same, with more pages worse. Older sets unchanged.
        min_probability=0.5,
    ),
}


#: Under this article probability, the most probable type's profile applies even when
#: that type is short of its ``min_probability`` (see :func:`selection_type`).
ARTICLE_UNLIKELY = 0.3


def selection_type(name: str, probabilities: dict[str, float], marked: Callable[[], bool] | None = None) -> str:
    """The type whose profile ``auto`` follows: ``name``, or article when the classifier is unsure.

    A page takes its most probable type's profile when the classifier gives
    that type at least the profile's ``min_probability``, or gives the article
    type under :data:`ARTICLE_UNLIKELY` (``when_article_unlikely``); otherwise
    the article profile applies. Most pages a crawl fetches are articles, and
    the older sets' article pages that look like portals (link lists beside a
    short body) were taken for listings: L3S-GN1 left out of training, 0.915
    F1 with every page's most probable type against 0.944 as articles, 0.935
    with these bars and the listing thresholds below. The second way in is for
    shop and listing pages the classifier splits between several non-article
    types (collection 0.45, listing 0.25, article 0.2): WCXB by site folds
    0.852 without it, 0.859 with it (collection 0.590 to 0.637, listing 0.632
    to 0.673); the older sets left out of training (and each article set left
    out of the classifier's) moved by -0.0009 to +0.0020. A bar of 0.4 gave
    WCXB 0.0009 more but read the example site's Japanese article (article
    0.38, listing 0.48) as a listing. The third way in (``when_marked``) is the
    page's own word: a thread whose schema.org microdata marks its posts
    (``marked``, asked only then) takes the forum profile when forum is its
    most probable type, short of the bar (a marketing forum's thread, forum
    0.71 and article 0.27, lost every reply to the article's comment rule).
    WCXB by site folds: forum 0.8140 to 0.8216, two pages better (0.19 to 0.97,
    0.91 to 0.93), none worse; no page of the older sets changes its profile.
    """
    if name == "article":
        return name
    rules = profile(name)
    if probabilities.get(name, 0.0) >= rules.min_probability:
        return name
    if rules.when_article_unlikely and probabilities.get("article", 0.0) < ARTICLE_UNLIKELY:
        return name
    if rules.when_marked and marked is not None and marked():
        return name
    return "article"


def profile(page_type: str | None) -> Profile:
    """The profile of ``page_type``; an unknown or missing type is read as an article."""
    return PROFILES.get(page_type or "article", ARTICLE)
