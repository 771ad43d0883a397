"""Sources of the site's pages that are not articles: a forum thread, a topic listing, a shop product.

Each source holds the page's content (what its gold text is made of) apart
from its furniture (what must stay out of the text); ``_generate.py`` writes
both into markup the way forum software, a news site's topic pages and a
shop write theirs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Post:
    """One post of a thread: its author's user card, its paragraphs and the furniture around them."""

    post_id: int
    author: str
    rank: str
    posts: int
    joined: str
    location: str
    time: str  # ISO 8601
    shown_time: str
    paragraphs: tuple[str, ...]
    likes: int
    signature: str = ""
    #: (quoted author, quoted sentence) shown above the paragraphs; a repeat of an earlier post.
    quote: tuple[str, str] | None = None


THREAD = {
    "slug": "tram-extension-which-route",
    "topic_id": 1482,
    "forum": "Transport",
    "forum_parent": "Local news",
    "title": "Tram extension to Millbrook: which route would you pick?",
    "posts": (
        Post(
            10231,
            "northbank_resident",
            "Regular contributor",
            1204,
            "Mon Mar 04, 2019 8:12 pm",
            "Northbank",
            "2025-03-19T07:12:00+00:00",
            "Wed Mar 19, 2025 7:12 am",
            (
                "The city has finally published the two options for taking line 3 out to the Millbrook estate, "
                "and the consultation closes at the end of May. Option A follows Canal Street and crosses the "
                "water at the old swing bridge. Option B runs along Station Road past the hospital and needs a "
                "new bridge next to the rail viaduct.",
                "I walk Canal Street every morning and honestly cannot see where the tracks would fit without "
                "losing the market stalls on Saturdays. Station Road is wider but already jammed at rush hour. "
                "Has anyone been to one of the drop-in sessions yet? What did the planners say about the bridges?",
            ),
            likes=14,
            signature="Northbank born and bred. Cycling the Sarn towpath since 1998.",
        ),
        Post(
            10236,
            "dockside_dave",
            "Veteran member",
            3517,
            "Sat Nov 12, 2016 10:40 am",
            "Marrow docks",
            "2025-03-19T08:47:00+00:00",
            "Wed Mar 19, 2025 8:47 am",
            (
                "I went to the session at the library on Monday evening. The engineers were friendly and had big "
                "maps on the tables. They said the swing bridge cannot carry trams as it stands, so option A "
                "would mean strengthening it and closing it to boats for most of a year.",
                "Option B costs more because of the new bridge, roughly forty million against thirty, but they "
                "reckon it would serve about four thousand more people because of the hospital stop. Their "
                "modelling puts the journey from Millbrook to the centre at eighteen minutes either way.",
            ),
            likes=22,
            signature="Opinions my own. Usually wrong about football.",
        ),
        Post(
            10240,
            "S. Varga",
            "Member",
            88,
            "Tue Jan 09, 2024 6:03 pm",
            "Millbrook",
            "2025-03-19T12:15:00+00:00",
            "Wed Mar 19, 2025 12:15 pm",
            (
                "Speaking as someone who actually lives on the estate: we do not mind which road it takes, we "
                "mind when it arrives. The buses to town take forty minutes on a good day and the last one leaves "
                "at eleven, which is no use to anyone working late shifts at the hospital.",
                "If option B gets the hospital stop and is finished sooner I will put my name to it. The "
                "planners told us construction would take three years for A and four for B though, because of "
                "the bridge. So it is not an easy choice.",
            ),
            likes=31,
            quote=(
                "dockside_dave",
                "They reckon it would serve about four thousand more people because of the hospital stop.",
            ),
        ),
        Post(
            10244,
            "gardenpath",
            "Member",
            412,
            "Thu Jun 20, 2019 9:55 pm",
            "Lowside",
            "2025-03-19T19:30:00+00:00",
            "Wed Mar 19, 2025 7:30 pm",
            (
                "Nobody seems to have mentioned the trees. The plans for option A show the avenue of limes along "
                "Canal Street coming down on the north side to make room for the overhead wires and a platform. "
                "Some of them were planted when the canal opened. I have written to the council asking whether "
                "the tracks could be laid closer to the water instead.",
            ),
            likes=9,
            signature="Lowside Allotment Society, plot 14",
        ),
        Post(
            10251,
            "P. Okafor",
            "Regular contributor",
            957,
            "Fri Aug 02, 2019 1:17 pm",
            "Eastgate",
            "2025-03-20T06:58:00+00:00",
            "Thu Mar 20, 2025 6:58 am",
            (
                "Good thread. For what it is worth, the consultation documents are online and the appendix with "
                "the passenger numbers is worth reading before you fill in the form. Page 31 has the table "
                "comparing the two routes stop by stop.",
                "My vote goes to option B. A tram that stops outside the hospital will be used all day, not only "
                "at rush hour, and the new bridge could carry a cycle lane as well. The swing bridge is lovely "
                "but it is a hundred and twenty years old and I would rather it stayed a footbridge.",
            ),
            likes=18,
        ),
    ),
    "active_topics": (
        "Parking charges at the Riverside car park going up again",
        "Night buses: anyone else waiting forty minutes at Eastgate?",
        "Sleeper train to Kessenberg: worth it?",
        "Roadworks on the ring road until June",
        "Lost: black umbrella on the number 12 bus",
    ),
    "online": "Users browsing this forum: Bing [Bot], Google [Bot] and 6 guests",
}


LISTING = {
    "slug": "environment",
    "title": "Environment",
    "intro": (
        "Rivers, energy, wildlife and the weather that shapes them: our reporting on the natural world and on "
        "what the region is doing to look after it, from the Sarn's reservoirs to the seabed of the Halden Shelf."
    ),
    #: Slugs of the articles on the first page, newest first as the page sorts them.
    "cards": (
        "sarn-water-deal",
        "wildflower-verges-bees",
        "deep-sea-sponge-survey",
        "island-solar-grid",
        "riverside-flood-wall",
        "night-train-returns",
        "repair-shops-demand",
        "tram-extension-consultation",
    ),
    "pages": 3,
    "sections": ("World", "Science", "Business", "Local", "Culture", "Sport"),
    "periods": ("Any time", "Past week", "Past month", "Past year"),
    "sorts": ("Newest first", "Oldest first", "Most read"),
}


PRODUCT = {
    "slug": "cryptic-crosswords-volume-3",
    "name": "The Meridian Post Cryptic Crosswords, Volume 3",
    "sku": "MP-BK-0317",
    "isbn": "978-1-9161-4827-3",
    "price": "12.99",
    "was": "14.99",
    "currency": "GBP",
    "category": ("Shop", "Books", "Puzzles & games"),
    "description": (
        "One hundred and twenty cryptic crosswords from the Saturday edition, chosen by the puzzles desk from "
        "the last three years of the paper. Every grid is printed large on its own page, with room in the "
        "margins for working out anagrams, and the solutions are at the back of the book.",
        "The puzzles are arranged from gentle to fiendish, so the first thirty suit anyone new to cryptic "
        "clues. The introduction by the puzzles editor, Ruth Calloway, explains the ten kinds of clue that "
        "setters use most often, with examples taken from the crosswords in this volume.",
        "Printed on uncoated paper that takes pencil and ink without smudging, and bound to lie flat on the "
        "table while you solve.",
    ),
    "features": (
        "120 cryptic crosswords from the Saturday edition, 2022 to 2024",
        "Large 15 by 15 grids, one puzzle per page",
        "Introduction to cryptic clues by the puzzles editor",
        "Full solutions with explanations for the first thirty puzzles",
    ),
    "specs": (
        ("Format", "Paperback, lay-flat binding"),
        ("Pages", "256"),
        ("Dimensions", "297 x 210 mm (A4)"),
        ("Weight", "640 g"),
        ("ISBN", "978-1-9161-4827-3"),
        ("Publisher", "Meridian Books"),
        ("Published", "October 2024"),
    ),
    "rating": "4.7",
    "reviews": (
        (
            "crossword_carol",
            "Perfect present for my dad",
            "Bought this for my father's birthday and he has done a puzzle every morning since. "
            "The big grids are much easier on his eyes than the newspaper.",
        ),
        (
            "J. Whitlock",
            "Harder than volume 2",
            "Great value, though the last forty are properly difficult. I had to look at the answers more than once.",
        ),
        (
            "Moorhen",
            "Good paper",
            "The paper is thick enough that a fountain pen does not bleed through. Delivery took three days.",
        ),
    ),
    "review_count": 38,
    "also_bought": (
        ("Quick Crosswords: 200 Puzzles from the Weekday Paper", "9.99"),
        ("Sarn Valley Walks: Twenty Routes from Source to Sea", "16.50"),
        ("Meridian Post Enamel Mug, Navy", "11.00"),
        ("Front Pages 1925 to 2025: A Century of the Meridian Post", "30.00"),
    ),
}
