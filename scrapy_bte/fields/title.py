"""The page's title: one rule, whether or not fields were asked for.

``Extraction.title`` and the headline ``auto`` leaves out of the body both
come from here (through :func:`scrapy_bte.fields.read.read_document`), so a
page has one title. The order of preference:

1. The markup's title, the first of JSON-LD ``headline``/``name``,
   ``og:title``, ``twitter:title``, microdata ``headline``, Dublin Core
   title, ``<title>`` (:data:`scrapy_bte.fields.read.SOURCES`).
2. The headline block: an ``h1``/``h2`` that repeats one of the markup's
   titles with the site's name or a section around it replaces that title
   (the printed headline, without what the head adds); a page whose markup
   gives no title takes its first ``h1``.
3. Otherwise the markup's title loses a leading or trailing part that names
   the site (``og:site_name`` and kin, or an ``h1`` among the first blocks
   that is the site's logo), or a trailing part the page's address names
   ("| Samsonite" on ``shop.samsonite.com``, "| bcbs.com"). Then the title
   keeps the part a heading of the page repeats ("Flexbox" of "Flexbox - Learn
   web development"); a ``<title>`` without one keeps its longest part, another
   markup title its first part where a bar parts it ("Auth | Supabase Docs").

Parts are split at :data:`TITLE_SEPARATORS` throughout, the one pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import compress

from ..core.document import Document
from ..evidence.zones import fold, repeats_title
from .values import host_names, site_key

#: Separators between the parts of a title ("Headline | Section | Site", "Site: Headline"). A ``weak``
#: one (a colon not spaced on both sides, an underscore) sets off the site's name but never splits a
#: headline ("Fall 2025: What Experts Eat" is one headline): measured on every set, splitting there
#: to keep the longest part loses more titles than it fixes.
TITLE_SEPARATORS = re.compile(r"\s+(?:[|\-–—:·»/]|::)\s+|\s*[|｜：]\s*|(?P<weak>\s*[:_]\s*)")


def title_parts(title: str) -> list[str]:
    """The parts of ``title`` between its separators, weak ones left inside the parts."""
    parts: list[str] = []
    start = 0
    for m in TITLE_SEPARATORS.finditer(title):
        if m.group("weak") is None:
            parts.append(title[start : m.start()])
            start = m.end()
    parts.append(title[start:])
    return [p.strip() for p in parts if p.strip()]


#: Characters a site's name part may hold beyond four times the longest name (spaces, marks).
SITE_PART_SLACK = 16


def strip_site(title: str, names: Iterable[str], hosts: Iterable[str] = ()) -> str:
    """``title`` without a leading or trailing part that names the site ("Headline | Site").

    ``names`` are the site's name and the page's other candidates for it
    (a logo heading such as ``<h1>Site</h1>``). ``hosts`` are the names the page's address gives
    (:func:`~.values.host_names`), which end a title only: "Headline | bcbs.com" loses its end,
    while a brand before a home page's slogan ("Talkspace - Online Therapy") is its title, in
    WCXB's gold as on the page.
    """
    folded = {n.casefold().strip() for n in names if n and n.strip()}
    # At the end, a name matches with marks folded away: "bcbs.com" and "bcbs" are one, and so are a
    # logo's "Site" and the title's "Site ::".
    ends = {key for key in map(site_key, [*folded, *hosts]) if len(key) >= 3}
    if not folded and not ends:
        return title
    # A part longer than this names no site: every name is shorter, and a host's name folds from
    # at most four times its letters. Only the parts after the last few separators are read so,
    # not the rest of a "title" of 20,000 bars (each read in full: seconds).
    longest = 4 * max(map(len, (*folded, *ends))) + SITE_PART_SLACK
    best = title
    for m in TITLE_SEPARATORS.finditer(title):
        if len(title) - m.end() > longest:
            continue
        head, tail = title[: m.start()].strip(), title[m.end() :].strip()
        low = tail.casefold()
        if head and (
            low in folded or site_key(low) in ends or any(name.startswith(low) and len(low) >= 3 for name in folded)
        ):
            best = head
            break
    sep = TITLE_SEPARATORS.search(best)
    if sep is not None:
        head, tail = best[: sep.start()].strip(), best[sep.end() :].strip()
        if tail and head.casefold() in folded:
            return tail
    return best


def title_tag_part(title: str, headings: Iterable[str], longest: bool = True) -> str:
    """The part of a title ("Headline - Section - Site") that is the headline.

    A part one of ``headings`` (the page's heading texts, read only when the
    title has parts) repeats wins; else, with ``longest``, the longest part, as sites put the
    headline next to short section and site names (a ``<title>``), and without it the whole title
    (``og:title`` and the other markup titles, whose parts are more often one headline) unless a bar
    parts it (:func:`bar_parted`): then its first part.
    """
    parts = title_parts(title)
    if len(parts) <= 1:
        return title
    heads = {fold(text) for text in headings}
    for part in parts:
        if fold(part) in heads:
            return part
    if longest:
        return max(parts, key=len)
    return parts[0] if bar_parted(title) else title


def bar_parted(title: str) -> bool:
    """Whether a bar is among the separators of ``title``: in an ``og:title`` or a JSON-LD title a
    bar sets a tagline or the site's name after the page's own name ("Auth | Supabase Docs",
    "Stripe Payments | Global Payment Processing Platform"), where a dash or a colon is as often
    part of one headline. On WCXB's pages whose title came whole from such markup with a bar, the
    expected title is the first part on 24, the whole on 5, the last part on 2: titles right 984 to
    1,002 of 1,297; on mercury and the older sets no title changes."""
    return any(
        m.group("weak") is None and "|" in m.group().replace("｜", "|") for m in TITLE_SEPARATORS.finditer(title)
    )


#: Headings among the first blocks that may be the site's logo (a title part equal to one is the site's name).
LOGO_BLOCKS = 40
#: An ``h1`` among this many blocks at the page's top is its logo even without a link; further down only
#: an ``h1`` that is all link (to the home page, as a banner links) is. Every other ``h1`` is a page's
#: own heading: "Laptops | Gadget Shop" over ``<h1>Laptops</h1>`` is not the site "Laptops". Measured (titles
#: right, the older sets' against their gold's first line) against every ``h1`` of the first blocks read as a
#: logo: L3S 364 → 372 of 621, Dragnet 897 → 898 of 1,381, WCXB 982 → 984 of 1,297, CleanEval 13 → 14,
#: mercury 104 of 121 both.
LOGO_OPENING = 2
#: Whether a heading that rewords the markup's title (:func:`~scrapy_bte.evidence.zones.repeats_title`
#: with ``reworded``) replaces it: measured, it breaks about as many pages as it fixes (editors' social
#: titles against the printed headline; mercury 100 titles right against 103, WCXB 943 against 945,
#: dragnet 887 against 884).
TITLE_OVERLAP = False
#: Headings a part of a ``<title>`` is compared with.
_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})


def settle(
    doc: Document,
    title: str | None,
    source: str | None,
    headline: int | None,
    markup_titles: list[str],
    site_name: Callable[[], str | None],
    held: bool | None = None,
    url: str | None = None,
) -> tuple[str | None, str | None]:
    """The page's title and its source, from the markup's (``title`` read from ``source``) and the
    ``headline`` block of ``doc`` (:func:`~.zones.find_headline` given ``markup_titles``): steps 2
    and 3 of the module's order. ``site_name`` is called only when a site's name is to be stripped.
    ``held``, when the search for the headline tells it, is whether the headline holds one of
    ``markup_titles`` or is held by one (:func:`~scrapy_bte.evidence.zones.find_headline_held`).
    """
    if headline is not None:
        heading = doc.texts[headline]
        if held is None or TITLE_OVERLAP:
            folded = fold(heading)
            held = any(repeats_title(folded, fold(t), TITLE_OVERLAP) for t in markup_titles)
        if held:
            if title is None or fold(title) != fold(heading):
                return heading, "headline-block"
        elif title is None:
            return heading, "h1"
    if not title:
        return title, source
    words, links = doc.words, doc.link_words
    logos = [
        doc.texts[i]
        for i, name in enumerate(doc.opener[:LOGO_BLOCKS])
        if name == "h1" and (i < LOGO_OPENING or links[i] >= words[i] > 0)
    ]
    title = strip_site(title, [site_name() or "", *logos], host_names(url))
    # The blocks a heading opens, picked in C (``compress``): a page has thousands of blocks.
    title = title_tag_part(title, compress(doc.texts, map(_HEADINGS.__contains__, doc.opener)), source == "title-tag")
    return title, source
