"""Forum post furniture named in the BEM style forum software uses (``ipsEntry__signature``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from conftest import FixedModel

from scrapy_bte.api import parse
from scrapy_bte.evidence.zones import subject_mask
from scrapy_bte.learned import auto
from scrapy_bte.methods import comments
from scrapy_bte.methods.bte import document_span

_POST = (
    "The chain on my old bike kept slipping on the smallest cog until I replaced the worn cassette "
    "and adjusted the rear derailleur's limit screws."
)


def test_signatures_and_controls_after_an_underscore_are_post_furniture() -> None:
    html = (
        "<html><body><article class='ipsEntry'><aside class='ipsEntry__author-column'>rider42</aside>"
        f"<div class='ipsEntry__content'><p>{_POST}</p></div>"
        "<div class='ipsEntry__signature'>Two wheels good, four wheels heavy.</div>"
        "<ul class='ipsEntry__controls'><li>Quote</li></ul>"
        "<div class='MessageCard__user-details'>Joined 2019</div></article></body></html>"
    )
    doc = parse(html)
    inside = dict(zip(doc.texts, comments.post_furniture_mask(doc).tolist()))
    assert inside[_POST] is False
    assert inside["Two wheels good, four wheels heavy."] and inside["Quote"] and inside["Joined 2019"]


def test_a_word_that_only_holds_a_furniture_name_is_not_one() -> None:
    # "dislikes_panel" and "subcontrols" hold "likes" and "controls" inside a longer word.
    html = (
        "<html><body><div class='dislikes_panel'><p>First line of a post.</p></div>"
        "<div class='subcontrols_x'><p>Second line of a post.</p></div></body></html>"
    )
    assert not comments.post_furniture_mask(parse(html)).any()


def test_a_signature_named_by_data_role_is_post_furniture() -> None:
    html = (
        f"<html><body><article class='cPost'><div data-role='commentContent'><p>{_POST}</p></div>"
        "<div data-role='memberSignature' class='ipsBorder_top'><p>Current build: steel frame, 1x11.</p></div>"
        "</article></body></html>"
    )
    doc = parse(html)
    inside = dict(zip(doc.texts, comments.post_furniture_mask(doc).tolist()))
    assert inside == {_POST: False, "Current build: steel frame, 1x11.": True}
    # Comment sections are still read from class and id only.
    assert not comments.section_mask(doc).any()


def test_a_posters_extras_reaction_bar_and_last_edit_line_are_post_furniture() -> None:
    html = (
        "<html><body><article class='message message--post'>"
        "<div class='message-userExtras'><dl class='pairs pairs--justified'><dt>Joined</dt><dd>Mar 3, 2015</dd></dl></div>"
        f"<div class='message-content'><div class='bbWrapper'>{_POST}</div>"
        "<div class='message-lastEdit'>Last edited: Sep 13, 2024</div></div>"
        "<div class='reactionsBar'>rider42, hillclimber and 3 others</div></article></body></html>"
    )
    doc = parse(html)
    inside = dict(zip(doc.texts, comments.post_furniture_mask(doc).tolist()))
    assert inside.pop(_POST) is False
    assert all(inside.values()) and len(inside) >= 3


def test_link_previews_and_avatars_in_a_post_are_post_furniture() -> None:
    # Discourse's onebox and XenForo's unfurl: a preview of the page a post links to.
    html = (
        "<html><body><article class='topic-post'><div class='topic-avatar'><span>RK</span></div>"
        f"<div class='cooked'><p>{_POST}</p>"
        "<aside class='onebox allowlistedgeneric'><p>Bike Forum: the rider's guide to fork servicing</p></aside>"
        "<div class='bbCodeBlock bbCodeBlock--unfurl'><p>Trail Notes: sag and rebound, set up in five minutes</p></div>"
        "</div></article></body></html>"
    )
    doc = parse(html)
    inside = dict(zip(doc.texts, comments.post_furniture_mask(doc).tolist()))
    assert inside.pop(_POST) is False
    assert set(inside) == {
        "RK",
        "Bike Forum: the rider's guide to fork servicing",
        "Trail Notes: sag and rebound, set up in five minutes",
    }
    assert all(inside.values())


_REPLIES = [
    "Mine did the same after a wet winter, and a new chain with a cleaned cassette sorted it straight away.",
    "Check the hanger alignment too: a bent hanger makes the chain skip on the small cogs whatever you adjust.",
]


def test_an_element_that_holds_the_thread_is_no_furniture_whatever_its_name() -> None:
    # Simple Machines names the page's wrapper for the forum action: "action_display" holds "action".
    posts = "".join(f"<div class='post_wrapper'><div class='post'><p>{t}</p></div></div>" for t in [_POST, *_REPLIES])
    html = (
        f"<html><body><div id='content' class='action_display'>{posts}"
        "<div class='signature'>Two wheels good, four wheels heavy.</div></div>"
        "<aside><p>Upcoming rides: the coast loop on Saturday, the hill climb on Sunday morning.</p></aside>"
        "</body></html>"
    )
    doc = parse(html)
    p = [0.1 if "wheels" in t else 0.9 for t in doc.texts]
    model: Any = FixedModel(p)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum")
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert {_POST, *_REPLIES} <= kept
    # Read without the kept text, the wrapper's name makes every post furniture.
    assert comments.post_furniture_mask(doc)[[doc.texts.index(t) for t in (_POST, *_REPLIES)]].all()
    # Read with it, the mask names kept blocks only: a kept signature, not the posts.
    signature = doc.texts.index("Two wheels good, four wheels heavy.")
    assert not comments.post_furniture_mask(doc, keep)[signature]
    with_signature = keep.copy()
    with_signature[signature] = True
    spared = comments.post_furniture_mask(doc, with_signature)
    assert spared[signature]
    assert not spared[[doc.texts.index(t) for t in (_POST, *_REPLIES)]].any()


_QUESTION = (
    "My rear derailleur skips under load on the two smallest cogs, even after a new chain. "
    "What should I check before I replace the cassette and the chainrings as well?"
)
_ANSWERS = [
    "Check the derailleur hanger first: a hanger bent by a few degrees makes the chain climb and "
    "skip on the small cogs whatever you do with the limit screws and the cable tension.",
    "Worn cassette teeth are the usual cause when a new chain skips: the old chain stretched and "
    "wore the cogs it used most, and only a new cassette gives the new chain teeth it fits.",
]
_COMMENTS = [
    "Did you also replace the cable housing when you fitted the new chain last month?",
    "Thanks, the hanger was bent indeed, and the alignment tool fixed it in minutes.",
    "A shop can check the hanger with an alignment gauge for very little money.",
]


def _qa_page() -> str:
    """A question and two answers, each post with its own short comment list under it."""
    posts = [
        ("question", _QUESTION, _COMMENTS[:1]),
        ("answer", _ANSWERS[0], _COMMENTS[1:2]),
        ("answer", _ANSWERS[1], _COMMENTS[2:]),
    ]
    body = "".join(
        f"<div class='{kind}'><div class='post-text'><p>{text}</p></div>"
        f"<div class='comments'><ul class='comments-list'>"
        + "".join(f"<li class='comment'><span class='comment-copy'>{c}</span></li>" for c in notes)
        + "</ul></div></div>"
        for kind, text, notes in posts
    )
    return f"<html><body><div id='mainbar'>{body}</div></body></html>"


def test_comments_under_each_post_of_a_qa_thread_are_not_its_posts() -> None:
    doc = parse(_qa_page())
    model: Any = FixedModel([0.9] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum")
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert kept == {_QUESTION, *_ANSWERS}
    # The mask names the comments alone, not the posts they sit in.
    mask = comments.post_comments_mask(doc, np.ones(doc.n_blocks, dtype=bool))
    assert {doc.texts[b] for b in np.flatnonzero(mask)} == set(_COMMENTS)


def test_replies_named_as_comments_of_one_thread_stay_its_posts() -> None:
    # A forum that names each reply "comment-N": every section sits in the thread's element.
    replies = "".join(f"<div id='comment-{i}' class='post'><p>{t}</p></div>" for i, t in enumerate(_ANSWERS))
    html = (
        f"<html><body><div class='thread'><div class='first-post'><p>{_QUESTION}</p></div>{replies}</div></body></html>"
    )
    doc = parse(html)
    assert not comments.post_comments_mask(doc, np.ones(doc.n_blocks, dtype=bool)).any()
    model: Any = FixedModel([0.9] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum")
    assert {doc.texts[b] for b in np.flatnonzero(keep)} == {_QUESTION, *_ANSWERS}


def test_a_thread_the_model_doubts_everywhere_keeps_its_posts_not_the_text_plateau() -> None:
    # No block passes the forum threshold: the fallback would read BTE's plateau (here the long
    # footer); the thread's posts in their comment section are the better reading.
    replies = "".join(f"<div id='comment-{i}' class='post'><p>{t}</p></div>" for i, t in enumerate(_ANSWERS))
    footer = (
        "Copyright 1996 - 2024 by the example company. All rights reserved. Terms of use, privacy "
        "policy, cookie settings, accessibility statement, sitemap, careers, press and investor relations."
    )
    html = (
        f"<html><body><div class='thread'><div class='comments'>{replies}</div></div>"
        f"<footer><div class='legal'>{footer}</div></footer></body></html>"
    )
    doc = parse(html)
    model: Any = FixedModel([0.3 if t in _ANSWERS else 0.1 for t in doc.texts])
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum")
    assert {doc.texts[b] for b in np.flatnonzero(keep)} == set(_ANSWERS)


def test_edit_notes_and_the_guests_sign_in_prompt_are_no_posts() -> None:
    notes = [
        "Last edited by rider42 on Tue Aug 27, 2019 10:03 pm, edited 1 time in total.",
        "hillclimber edited 1 year ago",
        "Create an account or sign in to comment",
        "Already have an account? Sign in here.",
    ]
    posts = "".join(
        f"<div class='post'><p>{text}</p><p class='small'>{note}</p></div>"
        for text, note in zip([_POST, *_REPLIES], notes)
    )
    html = f"<html><body><div class='thread'>{posts}<div class='guest'><p>{notes[2]}</p><p>{notes[3]}</p></div></div></body></html>"
    doc = parse(html)
    found = {doc.texts[b] for b in np.flatnonzero(comments.post_notes_mask(doc))}
    assert found == set(notes)
    # A post about signing in is a post.
    assert not comments.post_notes_mask(
        parse("<p>I cannot log in since the update, and my password reset mail never comes.</p>")
    ).any()
    model: Any = FixedModel([0.9] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum")
    assert {doc.texts[b] for b in np.flatnonzero(keep)} == {_POST, *_REPLIES}


def test_posts_marked_by_schema_microdata_join_a_thread_however_they_nest() -> None:
    # A threaded view: each reply nests in the post it answers, so no record group holds them,
    # and their elements are named for messages. The microdata says what they are.
    def post(text: str, children: str = "") -> str:
        return (
            "<div class='message' itemscope itemtype='https://schema.org/Comment'>"
            f"<div class='message-body' itemprop='text'><p>{text}</p></div>"
            "<div class='message-user' itemprop='author'><p>Posted by a rider who writes here often</p></div>"
            f"<div class='children'>{children}</div></div>"
        )

    html = f"<html><body><div class='thread'>{post(_POST, post(_REPLIES[0], post(_REPLIES[1])))}</div></body></html>"
    doc = parse(html)
    marked = {doc.texts[b] for b in np.flatnonzero(comments.schema_posts_mask(doc))}
    assert marked == {_POST, *_REPLIES}
    model: Any = FixedModel([0.9 if t == _POST else 0.2 for t in doc.texts])
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum")
    kept = {doc.texts[b] for b in np.flatnonzero(keep)}
    assert {_POST, *_REPLIES} <= kept
    assert "Posted by a rider who writes here often" not in kept


def test_a_thread_is_marked_by_two_posts_with_text_in_its_microdata() -> None:
    def post(text: str) -> str:
        return (
            "<div class='entry' itemscope itemtype='https://schema.org/Comment'>"
            f"<div itemprop='text'><p>{text}</p></div></div>"
        )

    one = f"<html><body><div class='thread'>{post(_POST)}</div></body></html>"
    assert not comments.marked_thread(parse(one))
    two = f"<html><body><div class='thread'>{post(_POST)}{post(_REPLIES[0])}</div></body></html>"
    assert comments.marked_thread(parse(two))
    # Items without the text property, or whose text is a name, mark no post.
    names = "".join(
        f"<div itemscope itemtype='https://schema.org/Comment'><p itemprop='text'>rider{i}</p></div>" for i in range(3)
    )
    assert not comments.marked_thread(parse(f"<html><body>{names}</body></html>"))
    assert not comments.marked_thread(parse(f"<html><body><p>{_POST}</p><p>{_REPLIES[0]}</p></body></html>"))


def test_a_threads_title_and_its_replies_subject_lines_are_no_posts() -> None:
    title = "Chain slipping on the smallest cog"
    quote_head = f"@rider42 said in {title}:"
    subjects = [title, f"Re: {title}", f"RE: {title}"]
    posts = "".join(
        f"<div class='post'><h3>{subject}</h3><p>{text}</p></div>"
        for subject, text in zip(subjects, [_POST, *_REPLIES])
    )
    html = (
        f"<html><head><title>{title}</title></head><body><div class='thread'>{posts}"
        f"<div class='post'><p>{quote_head}</p><p>{_ANSWERS[0]}</p></div></div></body></html>"
    )
    doc = parse(html)
    assert {doc.texts[b] for b in np.flatnonzero(subject_mask(doc, title))} == set(subjects)
    # No title, no subject lines: nothing is named.
    assert not subject_mask(doc, None).any()
    model: Any = FixedModel([0.9] * doc.n_blocks)
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="forum", title=title)
    # A line that quotes the title among more words is a post's text.
    assert {doc.texts[b] for b in np.flatnonzero(keep)} == {_POST, *_REPLIES, quote_head, _ANSWERS[0]}
    # Articles keep their own headline rules: the forum's is not theirs.
    keep, _ = auto.select(doc, document_span(doc), model, smooth=True, page_type="product", title=title)
    assert f"Re: {title}" in {doc.texts[b] for b in np.flatnonzero(keep)}


def test_a_posts_counts_and_controls_alone_in_a_block_are_no_posts() -> None:
    furniture = [
        "14 likes",
        "Posts: 3,517",
        "Join Date: Mar 2019",
        "Click to expand...",
        "View attachment 123",
        "#12",
        "# 7",
    ]
    posts = "".join(
        f"<div class='post'><span>{note}</span><p>{text}</p></div>" for text, note in zip([_POST, *_REPLIES], furniture)
    )
    doc = parse(f"<html><body><div class='thread'>{posts}</div></body></html>")
    found = {doc.texts[b] for b in np.flatnonzero(comments.post_notes_mask(doc))}
    assert found == set(furniture[: 1 + len(_REPLIES)])
    # A thread's count and page line (phpBB's above its first post) is no post either.
    lines = parse("<div><p>4 posts • Page 1 of 1</p><p>Page 2 of 7</p><p>12 replies</p><p>1,024 posts</p></div>")
    assert comments.post_notes_mask(lines).all()
    rest = parse("".join(f"<div><p>{note}</p></div>" for note in furniture[1 + len(_REPLIES) :]))
    assert rest.n_blocks == len(furniture) - 1 - len(_REPLIES) and comments.post_notes_mask(rest).all()
    # Words of a post that mention likes or posts are the post's.
    said = parse(
        "<p>It got 14 likes in an hour.</p><p>Posts: please keep them on topic, everyone.</p>"
        "<p>See #12 above.</p><p>#general</p><p>C#</p><p>7</p><p>OK</p>"
        "<p>See page 2 of 7 for the wiring.</p><p>The thread has 12 replies now, read them first.</p>"
    )
    assert not comments.post_notes_mask(said).any()
    # A letter alone is a poster's avatar (Discourse, NodeBB), in any script.
    avatars = parse(f"<div class='post'><span>J</span><p>{_POST}</p></div><div class='post'><span> É </span></div>")
    assert [avatars.texts[b] for b in np.flatnonzero(comments.post_notes_mask(avatars))] == ["J", "É"]
