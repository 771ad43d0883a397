"""Markup, gold text and furniture of the pages that are not articles (sources in ``_pages.py``).

Each page is written the way its kind of software writes it, inside the
site's own frame (menu, cookie banner, leaderboard ad, footer): the forum
thread as phpBB's prosilver style does (a profile column per post, the text
in one ``div.content`` with ``<br>`` between paragraphs, Quote and Report
buttons, signatures, a reactions bar), the topic page as a news site's
card grid with filters, sorting and pagination, the product page as a shop
does (Product JSON-LD, gallery, price and basket form, delivery box,
description and specification tabs, a reviews widget, "Customers also
bought").

Gold text per kind, as WCXB's human-reviewed gold defines main content:
every post of the thread with its poster's name and date, and a quotation
of an earlier post as the post shows it; the topic's introduction and every
card's title, summary and date; the product's name, description, features
and specifications. A page's ``<h1>``/topic heading is its title, as on
articles, except the product's name, which a shop's gold keeps.
"""

from __future__ import annotations

import html
from datetime import datetime
from typing import TYPE_CHECKING

from _pages import LISTING, PRODUCT, THREAD
from _ui import UI

if TYPE_CHECKING:
    from _generate import Article, Site

FORUM = "https://meridianpost.example/community"
SHOP = "https://meridianpost.example/shop"
TOPICS = "https://meridianpost.example/topics"
#: The site's folders these pages are written to.
FOLDERS = ("forum", "topics", "shop")


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _day(dt: datetime) -> str:
    return f"{dt.day} {UI['en']['months'][dt.month - 1]} {dt.year}"


def _site_furniture() -> dict[str, list[str]]:
    ui = UI["en"]
    return {"cookie_banner": [ui["cookie"]], "footer": [ui["copyright"]], "ads": [ui["ad"]]}


class OtherPages:
    """The three non-article pages of ``site``: path -> (HTML, gold text, manifest entry)."""

    #: Where each page is written, in the order of the home page's links.
    PATHS = (f"forum/{THREAD['slug']}.html", f"topics/{LISTING['slug']}.html", f"shop/{PRODUCT['slug']}.html")

    def __init__(self, site: Site) -> None:
        self.site = site

    def all(self) -> dict[str, tuple[str, str, dict]]:
        return dict(zip(self.PATHS, (self.forum(), self.listing(), self.product()), strict=True))

    def home_links(self, prefix: str) -> list[tuple[str, str]]:
        """(label, href) of the home page's links to these pages."""
        labels = (f"Readers' forum: {THREAD['title']}", f"Topic: {LISTING['title']}", f"Shop: {PRODUCT['name']}")
        return [(label, prefix + path) for label, path in zip(labels, self.PATHS, strict=True)]

    def _entry(self, path: str, page_type: str, title: str, furniture: dict[str, list[str]]) -> dict:
        menu = " ".join(label for label, _href in self.site.nav("en", ""))
        return {
            "page": path,
            "gold": f"gold/{path.rsplit('/', 1)[1].removesuffix('.html')}.txt",
            "page_type": page_type,
            "title": title,
            "boilerplate": {"menu": [menu], **_site_furniture(), **furniture},
        }

    def _most_read(self, exclude: set[str]) -> list[Article]:
        return [a for a in self.site.articles if a.lang == "en" and a.slug not in exclude][:5]

    def _sidebar(self, articles: list[Article]) -> str:
        ui = UI["en"]
        return (
            f'<aside class="sidebar">\n<section class="most-read"><h2>{_esc(ui["most_read"])}</h2><ol>\n'
            f"{self.site.teasers(articles, '../articles/', with_text=False)}\n</ol></section>\n"
            f"{self.site.ad('sidebar', 'en', '300x600')}\n</aside>"
        )

    # -- forum thread (phpBB prosilver) -----------------------------------------------------
    def forum(self) -> tuple[str, str, dict]:
        t, posts = THREAD, THREAD["posts"]
        topic = f"{FORUM}/viewtopic.php?t={t['topic_id']}"
        pagination = f"{len(posts)} posts &bull; Page <strong>1</strong> of <strong>1</strong>"
        reply = (
            f'<a href="{FORUM}/posting.php?mode=reply&amp;t={t["topic_id"]}" class="button" title="Post a reply">'
            '<span>Post Reply</span> <i class="icon fa-reply fa-fw" aria-hidden="true"></i></a>'
        )
        rendered = []
        for n, p in enumerate(posts):
            user = f"{FORUM}/memberlist.php?mode=viewprofile&amp;u={1000 + p.posts % 997}"
            quote = ""
            if p.quote:
                source = next(q for q in posts if q.author == p.quote[0])
                quote = (
                    f'<blockquote><div><cite><a href="{FORUM}/memberlist.php?mode=viewprofile&amp;u='
                    f'{1000 + source.posts % 997}">{_esc(source.author)}</a> wrote: <a href="#p{source.post_id}" '
                    f'aria-label="View quoted post" data-post-id="{source.post_id}"><i class="icon fa-arrow-circle-up '
                    f'fa-fw" aria-hidden="true"></i></a><span class="responsive-hide">{source.shown_time}</span></cite>'
                    f"{_esc(p.quote[1])}</div></blockquote>"
                )
            signature = f'<div id="sig{p.post_id}" class="signature">{_esc(p.signature)}</div>' if p.signature else ""
            subject = t["title"] if n == 0 else f"Re: {t['title']}"
            rendered.append(f"""<div id="p{p.post_id}" class="post has-profile bg{2 - n % 2}">
<div class="inner">
<dl class="postprofile" id="profile{p.post_id}">
<dt class="has-profile-rank has-avatar">
<div class="avatar-container"><a href="{user}" class="avatar"><img class="avatar" src="../static/logo.svg" width="64" height="64" alt="User avatar"></a></div>
<a href="{user}" class="username">{_esc(p.author)}</a>
</dt>
<dd class="profile-rank">{_esc(p.rank)}</dd>
<dd class="profile-posts"><strong>Posts:</strong> <a href="{FORUM}/search.php?author_id={1000 + p.posts % 997}&amp;sr=posts">{p.posts}</a></dd>
<dd class="profile-joined"><strong>Joined:</strong> {p.joined}</dd>
<dd class="profile-custom-fields profile-location"><strong>Location:</strong> {_esc(p.location)}</dd>
</dl>
<div class="postbody">
<div id="post_content{p.post_id}">
<h3{' class="first"' if n == 0 else ""}><a href="#p{p.post_id}">{_esc(subject)}</a></h3>
<ul class="post-buttons">
<li><a href="{FORUM}/report.php?p={p.post_id}" title="Report this post" class="button button-icon-only"><i class="icon fa-exclamation fa-fw" aria-hidden="true"></i><span class="sr-only">Report</span></a></li>
<li><a href="{FORUM}/posting.php?mode=quote&amp;p={p.post_id}" title="Reply with quote" class="button button-icon-only"><i class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span class="sr-only">Quote</span></a></li>
</ul>
<p class="author"><a class="unread" href="#p{p.post_id}" title="Post"><i class="icon fa-file fa-fw icon-lightgray icon-md" aria-hidden="true"></i><span class="sr-only">Post</span></a><span class="responsive-hide">by <strong><a href="{user}" class="username">{_esc(p.author)}</a></strong> &raquo; </span><time datetime="{p.time}">{p.shown_time}</time></p>
<div class="content">{quote}{"<br><br>".join(_esc(x) for x in p.paragraphs)}</div>
<div class="post-reactions"><a href="{FORUM}/app.php/reactions/{p.post_id}/like" class="button reaction-button"><i class="icon fa-thumbs-up fa-fw" aria-hidden="true"></i><span>Like</span></a> <span class="reaction-count" title="{p.likes} members like this post">{p.likes}</span></div>
{signature}
</div>
</div>
<div class="back2top"><a href="#top" class="top" title="Top"><i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i><span class="sr-only">Top</span></a></div>
</div>
</div>
<hr class="divider">""")
        crumbs = (
            f'<span class="crumb"><a href="{FORUM}/index.php" accesskey="h">Board index</a></span> '
            f'<span class="crumb"><a href="{FORUM}/viewforum.php?f=7">{_esc(t["forum_parent"])}</a></span> '
            f'<span class="crumb"><a href="{FORUM}/viewforum.php?f=12">{_esc(t["forum"])}</a></span>'
        )
        active = "".join(
            f'<li class="row"><a href="{FORUM}/viewtopic.php?t={1470 + i}" class="topictitle">{_esc(x)}</a></li>'
            for i, x in enumerate(t["active_topics"])
        )
        main = f"""<main class="forum-page" id="main">
<div id="phpbb" class="wrap">
<div class="navbar" role="navigation"><ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar">
<li class="breadcrumbs">{crumbs}</li>
<li class="rightside"><a href="{FORUM}/faq.php">FAQ</a> <a href="{FORUM}/ucp.php?mode=register">Register</a> <a href="{FORUM}/ucp.php?mode=login">Login</a></li>
</ul></div>
<div id="page-body" class="page-body" role="main">
<h2 class="topic-title"><a href="{topic}">{_esc(t["title"])}</a></h2>
<div class="action-bar bar-top">
{reply}
<div class="search-box" role="search"><form method="get" id="topic-search" action="{FORUM}/search.php"><fieldset><input class="inputbox search tiny" type="search" name="keywords" size="20" placeholder="Search this topic…"><button class="button button-search" type="submit" title="Search"><i class="icon fa-search fa-fw" aria-hidden="true"></i><span class="sr-only">Search</span></button></fieldset></form></div>
<div class="pagination">{pagination}</div>
</div>
{chr(10).join(rendered)}
<div class="action-bar bar-bottom">
{reply}
<div class="pagination">{pagination}</div>
</div>
<div class="action-bar actions-jump">
<p class="jumpbox-return"><a href="{FORUM}/viewforum.php?f=12" class="left-box arrow-left" accesskey="r"><span>Return to &ldquo;{_esc(t["forum"])}&rdquo;</span></a></p>
<div class="jumpbox dropdown-container"><span class="button button-secondary dropdown-trigger" title="Jump to">Jump to</span></div>
</div>
<div class="stat-block online-list"><h3>Who is online</h3><p>{_esc(t["online"])}</p></div>
</div>
</div>
</main>
<aside class="sidebar">
<section class="active-topics"><h2>Active topics</h2><ul class="topiclist">{active}</ul></section>
{self.site.ad("sidebar", "en", "300x600")}
</aside>"""
        first = posts[0]
        ld = {
            "@context": "https://schema.org",
            "@type": "DiscussionForumPosting",
            "headline": t["title"],
            "url": topic,
            "author": {"@type": "Person", "name": first.author},
            "datePublished": first.time,
            "commentCount": len(posts) - 1,
        }
        page = self.site.modern_page(
            "en", t["title"], "Meridian Post Community", main, "../", url=topic, ld=ld, description=t["title"]
        )
        gold_lines = []
        for p in posts:
            gold_lines += [p.author, p.shown_time]
            if p.quote:
                source = next(q for q in posts if q.author == p.quote[0])
                gold_lines += [f"{source.author} wrote: {source.shown_time}", p.quote[1]]
            gold_lines += p.paragraphs
        gold = "\n".join(gold_lines) + "\n"
        furniture = {
            "breadcrumbs": [f"Board index {t['forum_parent']} {t['forum']}"],
            "user_cards": [f"{p.rank} Posts: {p.posts} Joined: {p.joined} Location: {p.location}" for p in posts],
            "votes": [f"Like {p.likes}" for p in posts],
            "controls": ["Post Reply", "Report", "Quote", f"Return to “{t['forum']}”", "Jump to"],
            "signatures": [p.signature for p in posts if p.signature],
            "pagination": [f"{len(posts)} posts • Page 1 of 1"],
            "online": ["Who is online", t["online"]],
            "sidebar": ["Active topics", *t["active_topics"]],
        }
        return page, gold, self._entry(self.PATHS[0], "forum", t["title"], furniture)

    # -- topic listing (card grid) -------------------------------------------------------------
    def listing(self) -> tuple[str, str, dict]:
        t, ui = LISTING, UI["en"]
        cards = sorted((self.site.by_slug[s] for s in t["cards"]), key=lambda a: (a.date, a.slug), reverse=True)
        url = f"{TOPICS}/{t['slug']}"
        items = "\n".join(
            f'<li class="card"><a class="card-media" href="../articles/{a.slug}.html" tabindex="-1" aria-hidden="true">'
            f'<img src="../static/photo.svg" alt="" width="360" height="203" loading="lazy"></a>'
            f'<div class="card-body"><h2 class="card-title"><a href="../articles/{a.slug}.html">{_esc(a.headline)}</a></h2>'
            f'<p class="card-summary">{_esc(a.standfirst)}</p>'
            f'<time class="card-date" datetime="{a.date.isoformat()}">{_day(a.date)}</time></div></li>'
            for a in cards
        )
        sections = "".join(
            f'<label><input type="checkbox" name="section" value="{s.lower()}"> {s}</label>' for s in t["sections"]
        )
        periods = "".join(f'<option value="{i}">{p}</option>' for i, p in enumerate(t["periods"]))
        sorts = "".join(
            f'<option value="{i}"{" selected" if i == 0 else ""}>{s}</option>' for i, s in enumerate(t["sorts"])
        )
        total = len(cards) * t["pages"] - 3
        pages = " ".join(
            f'<span class="current" aria-current="page">{n}</span>' if n == 1 else f'<a href="{url}?page={n}">{n}</a>'
            for n in range(1, t["pages"] + 1)
        )
        most = self._most_read(set(t["cards"]))
        main = f"""<main class="topic-page" id="main">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="../index.html">{_esc(ui["home"])}</a></li><li><a href="{TOPICS}/">Topics</a></li></ol></nav>
<header class="topic-header">
<h1 class="topic-title">{_esc(t["title"])}</h1>
<p class="topic-intro">{_esc(t["intro"])}</p>
<button type="button" class="btn follow-topic" data-topic="{t["slug"]}">Follow this topic</button>
</header>
<div class="topic-layout">
<form class="filters" action="{url}" method="get" aria-label="Filter stories">
<fieldset><legend>Section</legend>{sections}</fieldset>
<fieldset><legend>Published</legend><select name="period">{periods}</select></fieldset>
<button type="submit" class="btn">Apply filters</button> <a href="{url}" class="clear-filters">Clear all</a>
</form>
<section class="results" aria-label="Stories">
<div class="results-bar"><p class="result-count">Showing 1–{len(cards)} of {total} stories</p>
<label class="sort">Sort by <select name="sort" form="sort-form">{sorts}</select></label></div>
<ul class="card-grid">
{items}
</ul>
<nav class="pagination" aria-label="Pagination">{pages} <a rel="next" href="{url}?page=2">{_esc(ui["next"])} &raquo;</a></nav>
</section>
</div>
</main>
{self._sidebar(most)}"""
        ld = {
            "@context": "https://schema.org",
            "@type": "CollectionPage",
            "name": t["title"],
            "url": url,
            "mainEntity": {
                "@type": "ItemList",
                "itemListElement": [
                    {"@type": "ListItem", "position": i, "url": self.site.canonical(a)} for i, a in enumerate(cards, 1)
                ],
            },
        }
        page = self.site.modern_page(
            "en", t["title"], "The Meridian Post", main, "../", url=url, ld=ld, description=t["intro"]
        )
        gold = "\n".join([t["intro"], *(x for a in cards for x in (a.headline, a.standfirst, _day(a.date)))]) + "\n"
        furniture = {
            "breadcrumbs": [f"{ui['home']} Topics"],
            "controls": ["Follow this topic"],
            "filters": [
                "Section " + " ".join(t["sections"]),
                "Published " + " ".join(t["periods"]),
                "Apply filters Clear all",
            ],
            "sort": [f"Showing 1–{len(cards)} of {total} stories", "Sort by " + " ".join(t["sorts"])],
            "pagination": [" ".join(str(n) for n in range(1, t["pages"] + 1)) + f" {ui['next']}"],
            "sidebar": [ui["most_read"], *(a.headline for a in most)],
        }
        return page, gold, self._entry(self.PATHS[1], "listing", t["title"], furniture)

    # -- shop product page ---------------------------------------------------------------------
    def product(self) -> tuple[str, str, dict]:
        t = PRODUCT
        url = f"{SHOP}/p/{t['slug']}"
        crumbs = "".join(
            f'<li><a href="{SHOP}/{"/".join(c.lower().split()[0] for c in t["category"][1 : i + 1])}">{_esc(c)}</a></li>'
            for i, c in enumerate(t["category"])
        )
        features = "".join(f"<li>{_esc(f)}</li>" for f in t["features"])
        specs = "".join(f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in t["specs"])
        reviews = "".join(
            f'<li class="review"><div class="review-head"><span class="stars" aria-hidden="true">★★★★★</span> '
            f'<strong class="review-title">{_esc(title)}</strong></div>'
            f'<p class="review-meta"><span class="reviewer">{_esc(who)}</span> · <span class="verified">Verified buyer</span></p>'
            f'<p class="review-text">{_esc(text)}</p>'
            f'<p class="helpful">Was this review helpful? <button type="button">Yes</button> <button type="button">No</button></p></li>'
            for who, title, text in t["reviews"]
        )
        also = "".join(
            f'<li class="product-card"><a href="{SHOP}/p/item-{i}"><img src="../static/photo.svg" alt="" width="180" height="180" loading="lazy">'
            f'<h3 class="product-card-title">{_esc(name)}</h3></a><span class="price">£{price}</span>'
            f'<button type="button" class="btn add-to-basket" data-sku="MP-{i:03d}">Add to basket</button></li>'
            for i, (name, price) in enumerate(t["also_bought"], 1)
        )
        shipping = (
            "Free UK delivery on orders over £25",
            "Dispatched within 2 working days",
            "Free returns within 30 days",
        )
        main = f"""<main class="shop product-page" id="main">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol>{crumbs}</ol></nav>
<div class="product">
<div class="product-gallery"><img src="../static/photo.svg" alt="Cover of {_esc(t["name"])}" width="600" height="600">
<ul class="thumbs"><li><img src="../static/photo.svg" alt="" width="80" height="80"></li><li><img src="../static/photo.svg" alt="" width="80" height="80"></li><li><img src="../static/photo.svg" alt="" width="80" height="80"></li></ul></div>
<div class="product-summary">
<h1 class="product-title">{_esc(t["name"])}</h1>
<div class="rating-summary"><span class="stars" aria-label="Rated {t["rating"]} out of 5">★★★★★</span> <a href="#reviews">{t["review_count"]} reviews</a></div>
<p class="price"><del>£{t["was"]}</del> <ins>£{t["price"]}</ins></p>
<p class="stock in-stock">In stock</p>
<form class="cart" action="{SHOP}/basket" method="post"><label for="qty">Quantity</label> <input id="qty" type="number" name="quantity" value="1" min="1" max="10"> <button type="submit" name="add-to-cart" value="{t["sku"]}" class="btn btn-primary">Add to basket</button></form>
<button type="button" class="btn wishlist">Add to wishlist</button>
<div class="shipping-box"><h3>Delivery &amp; returns</h3><ul>{"".join(f"<li>{_esc(s)}</li>" for s in shipping)}</ul></div>
<p class="product-meta">SKU: {t["sku"]} · Category: <a href="{SHOP}/books/puzzles">{_esc(t["category"][-1])}</a></p>
</div>
</div>
<div class="product-tabs">
<ul class="tabs" role="tablist"><li role="tab"><a href="#tab-description">Description</a></li><li role="tab"><a href="#tab-details">Details</a></li><li role="tab"><a href="#reviews">Reviews ({t["review_count"]})</a></li></ul>
<section id="tab-description" class="tab-panel" role="tabpanel"><h2>Description</h2>
{"".join(f"<p>{_esc(x)}</p>" for x in t["description"])}
<ul class="features">{features}</ul>
</section>
<section id="tab-details" class="tab-panel" role="tabpanel"><h2>Details</h2>
<table class="specs"><tbody>{specs}</tbody></table>
</section>
<section id="reviews" class="tab-panel reviews" role="tabpanel"><h2>Customer reviews</h2>
<div class="review-summary"><span class="average">{t["rating"]} out of 5</span> <span class="count">Based on {t["review_count"]} reviews</span></div>
<a class="btn" href="{url}/review">Write a review</a>
<ol class="review-list">{reviews}</ol>
</section>
</div>
<section class="upsells"><h2>Customers also bought</h2><ul class="products">{also}</ul></section>
</main>
{self._sidebar(self._most_read(set()))}"""
        ld = {
            "@context": "https://schema.org",
            "@type": "Product",
            "name": t["name"],
            "sku": t["sku"],
            "gtin13": t["isbn"].replace("-", ""),
            "description": t["description"][0],
            "image": "https://meridianpost.example/static/photo.svg",
            "brand": {"@type": "Brand", "name": "Meridian Books"},
            "offers": {
                "@type": "Offer",
                "price": t["price"],
                "priceCurrency": t["currency"],
                "availability": "https://schema.org/InStock",
                "url": url,
            },
            "aggregateRating": {
                "@type": "AggregateRating",
                "ratingValue": t["rating"],
                "reviewCount": t["review_count"],
            },
        }
        page = self.site.modern_page(
            "en",
            t["name"],
            "Meridian Post Shop",
            main,
            "../",
            url=url,
            ld=ld,
            og_type="product",
            description=t["description"][0],
        )
        gold_lines = [
            t["name"],
            "Description",
            *t["description"],
            *t["features"],
            "Details",
            *(f"{k} {v}" for k, v in t["specs"]),
        ]
        furniture = {
            "breadcrumbs": [" ".join(t["category"])],
            "add_to_cart": ["Quantity", "Add to basket", "Add to wishlist"],
            "shipping": ["Delivery & returns", *shipping],
            "tabs": [f"Description Details Reviews ({t['review_count']})"],
            "reviews": [
                "Customer reviews",
                f"{t['rating']} out of 5",
                f"Based on {t['review_count']} reviews",
                "Write a review",
                "Was this review helpful?",
                *(x for _who, title, text in t["reviews"] for x in (title, text)),
            ],
            "recommendations": ["Customers also bought", *(name for name, _price in t["also_bought"])],
            "sidebar": [UI["en"]["most_read"], *(a.headline for a in self._most_read(set()))],
        }
        return (
            page,
            "\n".join(gold_lines) + "\n",
            self._entry(self.PATHS[2], "product", t["name"], furniture),
        )
