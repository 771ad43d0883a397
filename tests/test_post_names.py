"""Forum post furniture named in the BEM style forum software uses (``ipsEntry__signature``)."""

from __future__ import annotations

from scrapy_bte.api import parse
from scrapy_bte.methods import comments

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
