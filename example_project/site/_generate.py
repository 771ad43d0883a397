"""Build the bundled offline news site from the article sources in ``_articles/``.

Usage: ``python example_project/site/_generate.py [--out DIR]`` (from
anywhere). Output is deterministic: the same sources always give
byte-identical pages, which ``tests/test_example_project.py`` checks.

Each source file is a small header (``key: value`` lines), a ``---`` line and
the body: paragraphs separated by blank lines, ``## `` for a subheading,
``> `` for a quotation, inline ``*emphasis*``, ``**strong**`` and
``[text](target)`` where target is another article's slug or a full URL.

Written next to this file:

- ``index.html``, ``sections/<key>[-<n>].html``: home page and paginated
  section indexes (plus ``sections/latest*.html`` listing every article);
- ``articles/<slug>.html``: one page per article, in one of three layouts
  (``modern`` HTML5, ``legacy`` tables, ``soup`` of divs) and its encoding;
- ``gold/<slug>.txt``: the gold article body, one block per line (the
  headline is the title; byline, standfirst, figure captions, ads, related
  links and comments are not body text);
- ``manifest.json``: per article its page, headline, author, date (ISO 8601),
  language, encoding, layout and the text of every piece of furniture around
  the body (menu, cookie banner, byline, caption, ad label, related list,
  newsletter box, comments, sidebar, footer), one list of lines per piece;
- ``forum/``, ``topics/``, ``shop/``: pages that are not articles (a forum
  thread, a topic listing of article cards, a shop's product page; sources
  in ``_pages.py``, markup in ``_other_pages.py``), their gold text in
  ``gold/`` and, under ``pages`` in the manifest, their expected
  ``page_type`` and the text of every piece of their furniture;
- ``static/``: stylesheets, script and placeholder images.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from _other_pages import FOLDERS as OTHER_FOLDERS
from _other_pages import OtherPages
from _ui import BRANDS, SECTION_KEYS, UI

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "_articles"
EXTERNAL = "https://meridianpost.example"

#: section key -> (article layout, language of its index pages)
SECTIONS: dict[str, tuple[str, str]] = {
    "world": ("modern", "en"),
    "science": ("modern", "en"),
    "business": ("modern", "en"),
    "local": ("legacy", "en"),
    "culture": ("soup", "en"),
    "sport": ("soup", "en"),
    "deutsch": ("modern", "de"),
    "tiengviet": ("legacy", "vi"),
    "zhongwen": ("legacy", "zh"),
    "asia": ("soup", "en"),
}
PER_PAGE_SECTION = 2
PER_PAGE_LATEST = 8
HTML_LANG = {"en": "en-GB", "de": "de-DE", "vi": "vi", "zh": "zh-CN", "ja": "ja", "th": "th"}

_INLINE = re.compile(r"\*\*(?P<strong>.+?)\*\*|\*(?P<em>.+?)\*|\[(?P<text>.+?)\]\((?P<target>[^)\s]+)\)")


@dataclass(frozen=True)
class Block:
    """One body block: ``kind`` is ``p``, ``h`` (subheading) or ``q`` (quotation)."""

    kind: str
    source: str

    @property
    def plain(self) -> str:
        return _INLINE.sub(lambda m: m["strong"] or m["em"] or m["text"], self.source)


@dataclass(frozen=True)
class Article:
    slug: str
    headline: str
    standfirst: str
    section: str
    lang: str
    author: str
    date: datetime
    encoding: str
    figure: tuple[int, str, str] | None  # (after block n, caption, alt text)
    tags: tuple[str, ...]
    blocks: tuple[Block, ...]

    @property
    def layout(self) -> str:
        return SECTIONS[self.section][0]

    @property
    def brand(self) -> str:
        return BRANDS[(self.layout, self.lang)]

    @property
    def seed(self) -> int:
        """Stable per-article number for the deterministic choice of comments and links."""
        return int(hashlib.sha1(self.slug.encode()).hexdigest()[:8], 16)

    def gold(self) -> str:
        """The article body, one block per line: the headline is the title, not body text."""
        return "\n".join(b.plain for b in self.blocks) + "\n"


def parse_source(path: Path) -> Article:
    """Read one ``_articles/*.txt`` source (format in the module docstring)."""
    header, _, body = path.read_text(encoding="utf-8").partition("\n---\n")
    meta = dict(line.split(":", 1) for line in header.strip().splitlines())
    meta = {k.strip(): v.strip() for k, v in meta.items()}
    blocks = []
    for chunk in re.split(r"\n\s*\n", body.strip()):
        text = " ".join(line.strip() for line in chunk.splitlines())
        if text.startswith("## "):
            blocks.append(Block("h", text[3:]))
        elif text.startswith("> "):
            blocks.append(Block("q", text.replace("> ", "")))
        else:
            blocks.append(Block("p", text))
    figure = None
    if "figure" in meta:
        after, caption, alt = (part.strip() for part in meta["figure"].split("|"))
        figure = (int(after), caption, alt)
    article = Article(
        slug=path.stem,
        headline=meta["headline"],
        standfirst=meta["standfirst"],
        section=meta["section"],
        lang=meta["lang"],
        author=meta["author"],
        date=datetime.fromisoformat(meta["date"]),
        encoding=meta.get("encoding", "utf-8"),
        figure=figure,
        tags=tuple(t.strip() for t in meta.get("tags", "").split(",") if t.strip()),
        blocks=tuple(blocks),
    )
    # Main text must be representable in the page's encoding (boilerplate may fall back to &#NNN;).
    (article.headline + "\n" + article.gold()).encode(article.encoding)
    if not 4 <= sum(b.kind == "p" for b in blocks) <= 12:
        raise ValueError(f"{path.name}: an article has 4-12 paragraphs")
    return article


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def fmt_date(dt: datetime, lang: str) -> str:
    ui = UI[lang]
    return ui["date"].format(
        d=dt.day,
        m=dt.month,
        y=dt.year,
        H=dt.hour,
        M=dt.minute,
        be=dt.year + 543,
        month=ui.get("months", [""] * 12)[dt.month - 1],
        weekday=ui.get("weekdays", [""] * 7)[dt.weekday()],
    )


def json_script(data: object) -> str:
    """JSON for a ``<script>`` element (ASCII only, so it survives any page encoding)."""
    return json.dumps(data, ensure_ascii=True, sort_keys=True).replace("</", "<\\/")


class Site:
    """All articles plus the link structure shared by every page."""

    def __init__(self, articles: list[Article]) -> None:
        self.articles = sorted(articles, key=lambda a: (a.date, a.slug), reverse=True)
        self.by_slug = {a.slug: a for a in self.articles}
        self.by_section = {key: [a for a in self.articles if a.section == key] for key in SECTION_KEYS}

    # -- shared pieces --------------------------------------------------------------------
    def inline(self, source: str, prefix: str) -> str:
        """Render inline markup to HTML; article slugs become relative links."""
        out, pos = [], 0
        for m in _INLINE.finditer(source):
            out.append(esc(source[pos : m.start()]))
            if m["strong"]:
                out.append(f"<strong>{esc(m['strong'])}</strong>")
            elif m["em"]:
                out.append(f"<em>{esc(m['em'])}</em>")
            else:
                target = m["target"]
                if not target.startswith("http"):
                    if target not in self.by_slug:
                        raise ValueError(f"link to unknown article {target!r}")
                    target = f"{prefix}articles/{target}.html"
                out.append(f'<a href="{esc(target)}">{esc(m["text"])}</a>')
            pos = m.end()
        out.append(esc(source[pos:]))
        return "".join(out)

    @staticmethod
    def section_href(key: str, prefix: str, page: int = 1) -> str:
        return f"{prefix}sections/{key}{'' if page == 1 else f'-{page}'}.html"

    def nav(self, lang: str, prefix: str) -> list[tuple[str, str]]:
        """The 15 links of the main menu: home, sections, latest and four external services."""
        names = UI[lang]["sections"]
        links = [(UI[lang]["home"], f"{prefix}index.html")]
        links += [(names[key], self.section_href(key, prefix)) for key in SECTION_KEYS]
        links.append((names["latest"], self.section_href("latest", prefix)))
        links += [
            (label, f"{EXTERNAL}/{part}/")
            for label, part in zip(UI[lang]["extras"], ("weather", "video", "podcasts", "puzzles"), strict=True)
        ]
        return links

    @staticmethod
    def footer(lang: str) -> list[list[tuple[str, str]]]:
        return [
            [(label, f"{EXTERNAL}/info/{c}-{i}") for i, label in enumerate(col)]
            for c, col in enumerate(UI[lang]["footer"])
        ]

    def related(self, a: Article) -> list[Article]:
        """Up to four other articles of the same section, then of the same language."""
        pool = [b for b in self.by_section[a.section] if b is not a]
        pool += [b for b in self.articles if b.lang == a.lang and b not in pool and b is not a]
        return pool[:4]

    def most_read(self, a: Article) -> list[Article]:
        """Five articles: same language first, then English, in a per-article rotation."""
        same = [b for b in self.articles if b.lang == a.lang and b is not a]
        other = [b for b in self.articles if b.lang == "en" and b.lang != a.lang]
        pool = same + other
        start = a.seed % len(pool)
        rotated = pool[start:] + pool[:start] if a.lang == "en" else pool
        return rotated[:5]

    @staticmethod
    def comments(a: Article) -> list[tuple[str, str, str]]:
        """3-5 (name, time, text) reader comments from the language's pool."""
        pool = UI[a.lang]["comment_pool"]
        n = min(3 + a.seed % 3, len(pool))
        start = a.seed % len(pool)
        picked = [pool[(start + k) % len(pool)] for k in range(n)]
        return [
            (name, UI[a.lang]["ago"].format(n=1 + (a.seed >> k) % 11), text) for k, (name, text) in enumerate(picked)
        ]

    @staticmethod
    def ad(slot: str, lang: str, size: str = "300x250") -> str:
        width, height = size.split("x")
        return (
            f'<div class="ad-slot ad-{slot}" data-slot="{slot}"><span class="ad-label">{esc(UI[lang]["ad"])}</span>'
            f'<iframe src="https://ads.meridianpost.example/serve?slot={slot}&amp;size={size}" width="{width}" '
            f'height="{height}" frameborder="0" scrolling="no" title="{esc(UI[lang]["ad"])}"></iframe>'
            f'<script>window.mpAds=window.mpAds||[];mpAds.push({{slot:"{slot}",size:[{width},{height}]}});</script></div>'
        )

    @staticmethod
    def head_scripts(a: Article | None, title: str, url: str, ld: dict | None = None) -> str:
        """Tracking and structured-data scripts every page of the group carries (``ld``: the page's own)."""
        ld = ld or {"@context": "https://schema.org", "@type": "WebPage", "name": title, "url": url}
        if a is not None:
            ld = {
                "@context": "https://schema.org",
                "@type": "NewsArticle",
                "headline": a.headline,
                "datePublished": a.date.isoformat(),
                "author": {"@type": "Person", "name": a.author},
                "inLanguage": a.lang,
                "mainEntityOfPage": url,
                "publisher": {"@type": "Organization", "name": a.brand},
            }
        return (
            f'<script type="application/ld+json">{json_script(ld)}</script>\n'
            "<script>window.dataLayer=window.dataLayer||[];function track(){dataLayer.push(arguments);}"
            "track('js',new Date());track('config','MP-DEMO-0001',{anonymize_ip:true});</script>\n"
            '<script async src="https://ads.meridianpost.example/loader.js"></script>\n'
        )

    # -- modern layout (also used by every index page) ---------------------------------------
    def modern_page(
        self,
        lang: str,
        title: str,
        brand: str,
        main: str,
        prefix: str,
        *,
        article: Article | None = None,
        head_extra: str = "",
        url: str = "",
        ld: dict | None = None,
        og_type: str | None = None,
        description: str | None = None,
    ) -> str:
        ui = UI[lang]
        nav = "".join(f'<li><a href="{esc(h)}">{esc(t)}</a></li>' for t, h in self.nav(lang, prefix))
        cols = "".join(
            '<div class="footer-col"><ul>'
            + "".join(f'<li><a href="{esc(h)}">{esc(t)}</a></li>' for t, h in col)
            + "</ul></div>"
            for col in self.footer(lang)
        )
        og_type = og_type or ("article" if article else "website")
        og_title = article.headline if article else title
        description = article.standfirst if article else description or brand
        meta_charset = article.encoding if article else "utf-8"
        return f"""<!DOCTYPE html>
<html lang="{HTML_LANG[lang]}">
<head>
<meta charset="{meta_charset}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} | {esc(brand)}</title>
<meta name="description" content="{esc(description)}">
<meta property="og:title" content="{esc(og_title)}">
<meta property="og:type" content="{og_type}">
<meta property="og:site_name" content="{esc(brand)}">
<meta property="og:url" content="{esc(url)}">
<meta name="twitter:card" content="summary_large_image">
<link rel="canonical" href="{esc(url)}">
<link rel="stylesheet" href="{prefix}static/modern.css">
<link rel="icon" href="{prefix}static/logo.svg">
{head_extra}{self.head_scripts(article, title, url, ld)}<script src="{prefix}static/site.js" defer></script>
</head>
<body class="{og_type}-page">
<div id="cookie-consent" class="cookie-banner" role="dialog" aria-label="Cookies">
<p>{esc(ui["cookie"])}</p>
<button type="button" class="btn btn-primary" data-consent="all">{esc(ui["accept"])}</button>
<button type="button" class="btn" data-consent="manage">{esc(ui["manage"])}</button>
</div>
<header class="site-header">
<div class="masthead">
<a class="logo" href="{prefix}index.html"><img src="{prefix}static/logo.svg" alt="{esc(brand)}" width="220" height="40"></a>
<div class="account"><a href="{EXTERNAL}/subscribe" class="btn btn-primary">{esc(ui["subscribe"])}</a> <a href="{EXTERNAL}/login">{esc(ui["login"])}</a></div>
<form class="search" action="{EXTERNAL}/search" role="search"><input type="search" name="q" placeholder="{esc(ui["search"])}"><button type="submit">{esc(ui["search"])}</button></form>
</div>
<nav class="main-nav" aria-label="Main"><ul>{nav}</ul></nav>
</header>
{self.ad("leaderboard", lang, "728x90")}
<div class="page">
{main}
</div>
<footer class="site-footer">
<div class="footer-logo"><img src="{prefix}static/logo.svg" alt="{esc(brand)}" width="160" height="30"></div>
<div class="footer-links">{cols}</div>
<p class="copyright">{esc(ui["copyright"])}</p>
</footer>
<noscript><img src="https://stats.meridianpost.example/pixel.gif?p=1" alt="" width="1" height="1"></noscript>
</body>
</html>
"""

    def modern_article(self, a: Article) -> str:
        ui, p = UI[a.lang], "../"
        section = ui["sections"][a.section]
        body = []
        related = self.related(a)
        for i, block in enumerate(a.blocks, 1):
            inner = self.inline(block.source, p)
            body.append(
                {"p": f"<p>{inner}</p>", "h": f"<h2>{inner}</h2>", "q": f"<blockquote><p>{inner}</p></blockquote>"}[
                    block.kind
                ]
            )
            if i == 2 and related:
                body.append(
                    f'<p class="read-more"><strong>{esc(ui["read_more"])}:</strong> '
                    f'<a href="{related[0].slug}.html">{esc(related[0].headline)}</a></p>'
                )
            if a.figure and i == a.figure[0]:
                body.append(
                    f'<figure class="story-image"><img src="{p}static/photo.svg" alt="{esc(a.figure[2])}" '
                    f'width="800" height="450" loading="lazy"><figcaption>{esc(a.figure[1])}</figcaption></figure>'
                )
            if i == len(a.blocks) // 2 + 1:
                body.append(self.ad("inline", a.lang))
        share = "".join(
            f'<li><a href="https://share.example/{net.lower()}?u={a.slug}">{net}</a></li>'
            for net in ("Facebook", "X", "WhatsApp", "Email")
        )
        tags = ", ".join(f'<a href="{EXTERNAL}/topic/{esc(t.lower().replace(" ", "-"))}">{esc(t)}</a>' for t in a.tags)
        main = f"""<main class="layout" id="main">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="{p}index.html">{esc(ui["home"])}</a></li><li><a href="{self.section_href(a.section, p)}">{esc(section)}</a></li></ol></nav>
<article class="story">
<header class="story-header">
<h1 class="headline">{esc(a.headline)}</h1>
<p class="byline"><span class="author">{esc(ui["by"].format(author=a.author))}</span> <time datetime="{a.date.isoformat()}">{esc(fmt_date(a.date, a.lang))}</time></p>
<ul class="share" aria-label="{esc(ui["share"])}">{share}<li><button type="button">{esc(ui["copy_link"])}</button></li></ul>
</header>
<div class="story-body">
{chr(10).join(body)}
</div>
<footer class="story-footer"><p class="tags">{esc(ui["topics"])}: {tags}</p></footer>
</article>
<section class="related" aria-label="{esc(ui["related"])}"><h2>{esc(ui["related"])}</h2><ul>
{self.teasers(related, "", with_text=False)}
</ul></section>
{self.newsletter(a.lang, "section")}
{self.comment_block(a, "section")}
</main>
<aside class="sidebar">
<section class="most-read"><h2>{esc(ui["most_read"])}</h2><ol>
{self.teasers(self.most_read(a), "", with_text=False)}
</ol></section>
{self.ad("sidebar", a.lang, "300x600")}
</aside>"""
        return self.modern_page(a.lang, a.headline, a.brand, main, p, article=a, url=self.canonical(a))

    # -- legacy table layout --------------------------------------------------------------------
    def legacy_article(self, a: Article) -> str:
        ui, p = UI[a.lang], "../"
        nav = " | ".join(f'<a href="{esc(h)}" class="navlink">{esc(t)}</a>' for t, h in self.nav(a.lang, p))
        parts = []
        for i, block in enumerate(a.blocks, 1):
            inner = self.inline(block.source, p)
            parts.append(
                {"p": inner, "h": f"<b>{inner}</b>", "q": f"<blockquote><i>{inner}</i></blockquote>"}[block.kind]
            )
            if a.figure and i == a.figure[0]:
                parts.append(
                    f'<table align="right" width="260" cellpadding="4" class="photo"><tr><td>'
                    f'<img src="{p}static/photo.svg" width="250" height="160" alt="{esc(a.figure[2])}" border="0"><br>'
                    f'<font size="1" color="#666666">{esc(a.figure[1])}</font></td></tr></table>'
                )
            if i == len(a.blocks) // 2:
                parts.append(
                    f'<table width="100%"><tr><td align="center">{self.ad("inline", a.lang, "468x60")}</td></tr></table>'
                )
        text = "\n<br><br>\n".join(parts)
        most = "".join(
            f'<tr><td class="mr"><font size="1">{i}.</font> <a href="{b.slug}.html">{esc(b.headline)}</a></td></tr>'
            for i, b in enumerate(self.most_read(a), 1)
        )
        related = "".join(
            f'<tr><td>&raquo; <a href="{b.slug}.html">{esc(b.headline)}</a> '
            f'<font size="1" color="#999999">({esc(fmt_date(b.date, b.lang))})</font></td></tr>'
            for b in self.related(a)
        )
        comments = "".join(
            f'<tr><td class="cmt"><b>{esc(n)}</b> <font size="1" color="#999999">{esc(t)}</font><br>{esc(c)}<br>'
            f'<font size="1"><a href="#reply">{esc(ui["reply"])}</a> - <a href="#report">{esc(ui["report"])}</a></font></td></tr>'
            for n, t, c in self.comments(a)
        )
        footer = " | ".join(f'<a href="{esc(h)}">{esc(t)}</a>' for col in self.footer(a.lang) for t, h in col)
        return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset={a.encoding}">
<title>{esc(a.headline)} | {esc(a.brand)}</title>
<meta name="keywords" content="{esc(", ".join(a.tags))}">
<meta name="description" content="{esc(a.standfirst)}">
<meta property="og:title" content="{esc(a.headline)}">
<meta property="og:type" content="article">
<link rel="stylesheet" type="text/css" href="{p}static/legacy.css">
<script language="javascript" type="text/javascript" src="{p}static/site.js"></script>
{self.head_scripts(a, a.headline, self.canonical(a))}<script language="javascript">function popup(u){{window.open(u,'share','width=600,height=400');return false;}}</script>
</head>
<body bgcolor="#FFFFFF" leftmargin="0" topmargin="0" marginwidth="0" marginheight="0">
<table width="980" border="0" cellspacing="0" cellpadding="0" align="center">
<tr><td colspan="3" class="cookiebar" id="cookiebar">{esc(ui["cookie"])} <a href="#" onclick="return acceptCookies()">[{esc(ui["accept"])}]</a> <a href="{EXTERNAL}/cookies">[{esc(ui["manage"])}]</a></td></tr>
<tr>
<td width="250" height="90" class="logo"><a href="{p}index.html"><img src="{p}static/logo.svg" width="240" height="60" border="0" alt="{esc(a.brand)}"></a></td>
<td colspan="2" align="right" valign="middle">{self.ad("banner", a.lang, "728x90")}</td>
</tr>
<tr><td colspan="3" class="navbar" bgcolor="#003366">{nav}</td></tr>
<tr><td colspan="3" class="crumb"><a href="{p}index.html">{esc(ui["home"])}</a> &gt; <a href="{self.section_href(a.section, p)}">{esc(ui["sections"][a.section])}</a></td></tr>
<tr>
<td width="180" valign="top" class="leftcol" bgcolor="#F2F2F2">
<table width="100%" cellpadding="3" cellspacing="0"><tr><td class="boxtitle">{esc(ui["most_read"])}</td></tr>{most}</table>
<br>{self.ad("skyscraper", a.lang, "160x600")}
</td>
<td width="600" valign="top" class="content">
<h1 class="title">{esc(a.headline)}</h1>
<font size="1" color="#666666">{esc(ui["by"].format(author=a.author))} - {esc(fmt_date(a.date, a.lang))}</font>
&nbsp; <a href="#" onclick="return popup('https://share.example/?u={a.slug}')">{esc(ui["share"])}</a>
<br><br>
<font face="Verdana, Arial, sans-serif" size="2" class="articletext">
{text}
</font>
<br><br>
<table width="100%" cellpadding="2" cellspacing="0" class="relatedbox"><tr><td class="boxtitle">{esc(ui["related"])}</td></tr>{related}</table>
<br>
<table width="100%" cellpadding="4" cellspacing="0" class="comments"><tr><td class="boxtitle">{esc(ui["comments"].format(n=len(self.comments(a))))}</td></tr>{comments}
<tr><td><i>{esc(ui["join"])}</i></td></tr></table>
</td>
<td width="200" valign="top" class="rightcol">
{self.ad("right", a.lang, "200x200")}
<table width="100%" cellpadding="4" class="newsbox"><tr><td><b>{esc(ui["newsletter_title"])}</b><br>{esc(ui["newsletter_text"])}
<form action="{EXTERNAL}/newsletter" method="post"><input type="text" name="email" size="16" value="{esc(ui["email"])}"><input type="submit" value="{esc(ui["signup"])}"></form>
<font size="1">{esc(ui["newsletter_note"])}</font></td></tr></table>
</td>
</tr>
<tr><td colspan="3" class="footer" align="center"><font size="1">{footer}<br><br>{esc(ui["copyright"])}</font></td></tr>
</table>
<script language="javascript">var _mpq=_mpq||[];_mpq.push(['page','{a.slug}']);</script>
</body>
</html>
"""

    # -- div soup layout -----------------------------------------------------------------------
    def soup_article(self, a: Article) -> str:
        ui, p = UI[a.lang], "../"
        nav = "".join(
            f'<div class="mn-i"><a class="mn-l" href="{esc(h)}">{esc(t)}</a></div>' for t, h in self.nav(a.lang, p)
        )
        parts = []
        for i, block in enumerate(a.blocks, 1):
            inner = self.inline(block.source, p)
            parts.append(
                {
                    "p": f'<div class="Tx_p">{inner}</div>',
                    "h": f'<div class="Tx_h"><strong>{inner}</strong></div>',
                    "q": f'<div class="Tx_q"><span class="qm">“</span>{inner}</div>',
                }[block.kind]
            )
            if a.figure and i == a.figure[0]:
                parts.append(
                    f'<div class="Md_w"><div class="Md_i"><img src="{p}static/photo.svg" alt="{esc(a.figure[2])}"></div>'
                    f'<div class="Md_c">{esc(a.figure[1])}</div></div>'
                )
            if i == len(a.blocks) // 2:
                parts.append(self.ad("mid", a.lang))
        state = {
            "page": {
                "type": "article",
                "slug": a.slug,
                "headline": a.headline,
                "lang": a.lang,
                "standfirst": a.standfirst,
                "body": [b.plain for b in a.blocks],
            },
            "user": None,
            "flags": {"paywall": False},
        }
        comments = "".join(
            f'<div class="Cm_i"><div class="Cm_u"><span class="Cm_n">{esc(n)}</span><span class="Cm_t">{esc(t)}</span></div>'
            f'<div class="Cm_b">{esc(c)}</div><div class="Cm_a"><span>{esc(ui["reply"])}</span><span>{esc(ui["report"])}</span></div></div>'
            for n, t, c in self.comments(a)
        )
        footer = "".join(
            '<div class="Ft_c">' + "".join(f'<a class="Ft_l" href="{esc(h)}">{esc(t)}</a>' for t, h in col) + "</div>"
            for col in self.footer(a.lang)
        )
        most = "".join(
            f'<div class="Mr_i"><span class="Mr_n">{i}</span><a href="{b.slug}.html">{esc(b.headline)}</a></div>'
            for i, b in enumerate(self.most_read(a), 1)
        )
        return f"""<!doctype html><html lang="{HTML_LANG[a.lang]}"><head><meta charset="{a.encoding}"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{esc(a.headline)} | {esc(a.brand)}</title><meta property="og:title" content="{esc(a.headline)}"><meta property="og:type" content="article"><meta property="og:description" content="{esc(a.standfirst)}">
<link rel="preload" href="{p}static/weekend.css" as="style"><link rel="stylesheet" href="{p}static/weekend.css">
<style>.Hd{{position:sticky;top:0}}.Ck{{position:fixed;bottom:0;left:0;right:0}}.Tx_p{{margin:0 0 1em}}</style>
{self.head_scripts(a, a.headline, self.canonical(a))}</head><body><div id="root"><div class="App">
<div class="Ck" id="ck"><div class="Ck_t">{esc(ui["cookie"])}</div><div class="Ck_b"><span class="btn" onclick="ck(1)">{esc(ui["accept"])}</span><span class="btn" onclick="ck(0)">{esc(ui["manage"])}</span></div></div>
<div class="Hd"><div class="Hd_in"><a class="Lg" href="{p}index.html"><img src="{p}static/logo.svg" alt="{esc(a.brand)}"></a><div class="Mn">{nav}</div><div class="Hd_u"><a href="{EXTERNAL}/login">{esc(ui["login"])}</a></div></div></div>
<div class="Wr"><div class="Cl Cl-main">
<div class="Bc"><a href="{p}index.html">{esc(ui["home"])}</a><span class="Bc_s">/</span><a href="{self.section_href(a.section, p)}">{esc(ui["sections"][a.section])}</a></div>
<div class="Ar"><div class="Ar_hd"><h1 class="Ar_t">{esc(a.headline)}</h1><div class="Ar_m"><span class="Ar_a">{esc(ui["by"].format(author=a.author))}</span><span class="Ar_d">{esc(fmt_date(a.date, a.lang))}</span></div></div>
<div class="Ar_bd">
{chr(10).join(parts)}
</div></div>
<div class="Rl"><div class="Rl_t">{esc(ui["related"])}</div>{"".join(f'<div class="Rl_i"><a href="{b.slug}.html">{esc(b.headline)}</a></div>' for b in self.related(a))}</div>
{self.newsletter(a.lang, "div")}
<div class="Cm"><div class="Cm_t">{esc(ui["comments"].format(n=len(self.comments(a))))}</div>{comments}<div class="Cm_j">{esc(ui["join"])}</div></div>
</div><div class="Cl Cl-side"><div class="Mr"><div class="Mr_t">{esc(ui["most_read"])}</div>{most}</div>{self.ad("side", a.lang, "300x600")}</div></div>
<div class="Ft">{footer}<div class="Ft_cp">{esc(ui["copyright"])}</div></div>
</div></div>
<script id="__STATE__" type="application/json">{json_script(state)}</script>
<script src="{p}static/site.js"></script><script>function ck(v){{document.getElementById('ck').style.display='none';}}</script>
</body></html>
"""

    # -- pieces shared by layouts -------------------------------------------------------------
    def newsletter(self, lang: str, tag: str) -> str:
        ui = UI[lang]
        return (
            f'<{tag} class="newsletter"><h2>{esc(ui["newsletter_title"])}</h2><p>{esc(ui["newsletter_text"])}</p>'
            f'<form action="{EXTERNAL}/newsletter" method="post"><input type="email" name="email" placeholder="{esc(ui["email"])}">'
            f'<button type="submit">{esc(ui["signup"])}</button></form><small>{esc(ui["newsletter_note"])}</small></{tag}>'
        )

    def comment_block(self, a: Article, tag: str) -> str:
        ui = UI[a.lang]
        items = "".join(
            f'<li class="comment"><p class="comment-meta"><strong>{esc(n)}</strong> <span>{esc(t)}</span></p><p>{esc(c)}</p>'
            f'<p class="comment-actions"><a href="#reply">{esc(ui["reply"])}</a> <a href="#report">{esc(ui["report"])}</a></p></li>'
            for n, t, c in self.comments(a)
        )
        return (
            f'<{tag} class="comments" id="comments"><h2>{esc(ui["comments"].format(n=len(self.comments(a))))}</h2>'
            f'<ol>{items}</ol><p class="join">{esc(ui["join"])}</p></{tag}>'
        )

    @staticmethod
    def teasers(articles: list[Article], base: str, *, with_text: bool = True) -> str:
        """``<li>`` links to articles; ``base`` is the path from the page to ``articles/``."""
        rows = []
        for b in articles:
            text = (
                f'<p class="standfirst">{esc(b.standfirst)}</p><time datetime="{b.date.isoformat()}">{esc(fmt_date(b.date, b.lang))}</time>'
                if with_text
                else ""
            )
            rows.append(
                f'<li class="teaser" lang="{b.lang}"><a href="{base}{b.slug}.html">{esc(b.headline)}</a>{text}</li>'
            )
        return "\n".join(rows)

    def furniture(self, a: Article) -> dict[str, list[str]]:
        """The text of every piece of page furniture around the body, one list of lines per piece."""
        ui = UI[a.lang]
        return {
            "menu": [" ".join(label for label, _href in self.nav(a.lang, ""))],
            "cookie_banner": [ui["cookie"]],
            "byline": [f"{ui['by'].format(author=a.author)} {fmt_date(a.date, a.lang)}"],
            "caption": [a.figure[1]] if a.figure else [],
            "ads": [ui["ad"]],
            "related": [b.headline for b in self.related(a)],
            "newsletter": [ui["newsletter_title"], ui["newsletter_text"], ui["newsletter_note"]],
            "comments": [text for _name, _time, text in self.comments(a)] + [ui["join"]],
            "sidebar": [b.headline for b in self.most_read(a)] + [ui["most_read"]],
            "footer": [ui["copyright"]],
        }

    @staticmethod
    def canonical(a: Article) -> str:
        return f"{EXTERNAL}/articles/{a.slug}.html"

    # -- index pages ---------------------------------------------------------------------------
    def index_pages(self, key: str, lang: str, articles: list[Article], per_page: int) -> dict[str, str]:
        """Paginated list pages of one section (or ``latest``): file name -> HTML."""
        ui = UI[lang]
        name = ui["sections"][key]
        pages = [articles[i : i + per_page] for i in range(0, len(articles), per_page)]
        out = {}
        for n, chunk in enumerate(pages, 1):
            links = []
            head = ""
            if n > 1:
                links.append(
                    f'<a rel="prev" href="{Path(self.section_href(key, "", n - 1)).name}">&laquo; {esc(ui["prev"])}</a>'
                )
                head += f'<link rel="prev" href="{Path(self.section_href(key, "", n - 1)).name}">\n'
            for m in range(1, len(pages) + 1):
                links.append(
                    f'<span class="current">{m}</span>'
                    if m == n
                    else f'<a href="{Path(self.section_href(key, "", m)).name}">{m}</a>'
                )
            if n < len(pages):
                links.append(
                    f'<a rel="next" href="{Path(self.section_href(key, "", n + 1)).name}">{esc(ui["next"])} &raquo;</a>'
                )
                head += f'<link rel="next" href="{Path(self.section_href(key, "", n + 1)).name}">\n'
            main = f"""<main class="section-index" id="main">
<h1 class="section-title">{esc(name)}</h1>
<p class="page-count">{esc(ui["page"].format(n=n, m=len(pages)))}</p>
<ul class="teaser-list">
{self.teasers(chunk, "../articles/")}
</ul>
<nav class="pagination" aria-label="Pagination">{" ".join(links)}</nav>
</main>"""
            fname = Path(self.section_href(key, "", n)).name
            brand = BRANDS[(SECTIONS.get(key, ("modern",))[0], lang)]
            out[fname] = self.modern_page(
                lang,
                f"{name} ({n}/{len(pages)})" if n > 1 else name,
                brand,
                main,
                "../",
                head_extra=head,
                url=f"{EXTERNAL}/sections/{fname}",
            )
        return out

    def home(self) -> str:
        ui = UI["en"]
        blocks = []
        for key in SECTION_KEYS:
            arts = self.by_section[key]
            name = ui["sections"][key]
            blocks.append(
                f'<section class="section-block"><h2><a href="{self.section_href(key, "")}">{esc(name)}</a></h2><ul>\n'
                f"{self.teasers(arts[:2], 'articles/', with_text=False)}\n</ul>"
                f'<a class="more" href="{self.section_href(key, "")}">{esc(ui["more_in"].format(section=name))} &rarr;</a></section>'
            )
        more = "\n".join(f'<li><a href="{esc(h)}">{esc(t)}</a></li>' for t, h in OtherPages(self).home_links(""))
        main = f"""<main class="home" id="main">
<h1 class="visually-hidden">The Meridian Post</h1>
<section class="top-stories"><h2>{esc(ui["top"])}</h2><ul class="teaser-list">
{self.teasers(self.articles[:6], "articles/")}
</ul><a class="more" href="{self.section_href("latest", "")}">{esc(ui["latest"])} &rarr;</a></section>
{chr(10).join(blocks)}
<section class="section-block more-from"><h2>More from the Post</h2><ul>
{more}
</ul></section>
</main>"""
        return self.modern_page("en", ui["home"], BRANDS[("modern", "en")], main, "", url=f"{EXTERNAL}/")

    # -- output ---------------------------------------------------------------------------------
    def article_html(self, a: Article) -> str:
        return {"modern": self.modern_article, "legacy": self.legacy_article, "soup": self.soup_article}[a.layout](a)

    def write(self, root: Path) -> None:
        for sub in ("articles", "sections", "gold", *OTHER_FOLDERS):
            shutil.rmtree(root / sub, ignore_errors=True)
            (root / sub).mkdir()
        manifest = []
        for a in self.articles:
            data = self.article_html(a).encode(a.encoding, errors="xmlcharrefreplace")
            (root / "articles" / f"{a.slug}.html").write_bytes(data)
            (root / "gold" / f"{a.slug}.txt").write_text(a.gold(), encoding="utf-8")
            manifest.append(
                {
                    "page": f"articles/{a.slug}.html",
                    "gold": f"gold/{a.slug}.txt",
                    "headline": a.headline,
                    "author": a.author,
                    "date": a.date.isoformat(),
                    "lang": a.lang,
                    "encoding": a.encoding,
                    "layout": a.layout,
                    "section": a.section,
                    "boilerplate": self.furniture(a),
                }
            )
        pages = {"index.html": self.home()}
        for key in SECTION_KEYS:
            pages.update(
                {
                    f"sections/{k}": v
                    for k, v in self.index_pages(key, SECTIONS[key][1], self.by_section[key], PER_PAGE_SECTION).items()
                }
            )
        pages.update(
            {f"sections/{k}": v for k, v in self.index_pages("latest", "en", self.articles, PER_PAGE_LATEST).items()}
        )
        others = []
        for path, (page, gold, entry) in OtherPages(self).all().items():
            pages[path] = page
            (root / entry["gold"]).write_text(gold, encoding="utf-8")
            others.append(entry)
        for name, text in pages.items():
            (root / name).write_text(text, encoding="utf-8")
        (root / "manifest.json").write_text(
            json.dumps({"home": "index.html", "articles": manifest, "pages": others}, ensure_ascii=False, indent=1)
            + "\n",
            encoding="utf-8",
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: next to this script)")
    out = parser.parse_args(argv).out
    articles = [parse_source(path) for path in sorted(SOURCES.glob("*.txt"))]
    out.mkdir(parents=True, exist_ok=True)
    Site(articles).write(out)
    print(f"{len(articles)} articles and {len(OtherPages.PATHS)} other pages written to {out}")


if __name__ == "__main__":
    main()
