"""JSON-LD: the article node of a page's ``application/ld+json`` scripts.

Publishers' JSON-LD is often not valid JSON: HTML comments or CDATA
around it, several objects in one script, trailing commas, raw line
breaks inside strings, unescaped control characters. Each script is
tried as it is, then repaired for those cases; what still fails is read
for its plain ``"key": "value"`` pairs, so a broken script still yields
a headline and a date.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.boundedjson import TooDeep, check
from ..core.entities import unescape

#: schema.org types that are an article (``CreativeWork`` subtypes for
#: written pieces); a node of one of these is the page's article.
ARTICLE_TYPES = frozenset(
    t.lower()
    for t in (
        "Article",
        "NewsArticle",
        "BlogPosting",
        "ReportageNewsArticle",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "ReviewNewsArticle",
        "BackgroundNewsArticle",
        "AskPublicNewsArticle",
        "LiveBlogPosting",
        "TechArticle",
        "ScholarlyArticle",
        "MedicalScholarlyArticle",
        "Report",
        "SatiricalArticle",
        "AdvertiserContentArticle",
        "SocialMediaPosting",
        "DiscussionForumPosting",
        "Blog",
        "Review",
        "Recipe",
        "HowTo",
        "VideoObject",
    )
)
#: Page-level types: a fallback for fields the article node lacks.
PAGE_TYPES = frozenset(t.lower() for t in ("WebPage", "ItemPage", "AboutPage", "CollectionPage"))
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PAIR = re.compile(
    r'"(headline|name|datePublished|dateModified|dateCreated|description|inLanguage|url|@type)"'
    r'\s*:\s*"((?:[^"\\]|\\.)*)"'
)
_WRAPPERS = ("<!--", "-->", "<![CDATA[", "]]>", "//<![CDATA[", "//]]>")


def _loads(text: str) -> Any:
    return json.loads(text, strict=False)


def parse(raw: str) -> list[Any]:
    """The JSON values of one script body; [] when nothing can be read or it nests too deep."""
    text = raw.strip()
    if not text:
        return []
    try:  # the decoder recurses per level: a page must not choose how deep
        check(text)
    except TooDeep:
        return []
    try:
        return [_loads(text)]
    except ValueError:
        pass
    for wrapper in _WRAPPERS:
        text = text.replace(wrapper, "")
    text = text.strip().rstrip(";")
    if "&quot;" in text or "&#" in text:
        text = unescape(text)
    repaired = _TRAILING_COMMA.sub(r"\1", text)
    try:
        check(repaired)  # unescaping may have made brackets of entities
        return [_loads(repaired)]
    except TooDeep:
        return []
    except ValueError:
        pass
    values = _several(repaired)
    if values:
        return values
    return [_pairs(text)]


def _several(text: str) -> list[Any]:
    """Objects written one after another in one script (``{...}{...}`` or one per line)."""
    decoder = json.JSONDecoder(strict=False)
    out: list[Any] = []
    pos = 0
    while pos < len(text):
        start = text.find("{", pos)
        if start < 0:
            break
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            return out
        out.append(value)
        pos = end
    return out


def _pairs(text: str) -> dict[str, Any]:
    """The plain string pairs of a script no repair could parse."""
    out: dict[str, Any] = {}
    for key, value in _PAIR.findall(text):
        if key not in out:
            try:
                out[key] = json.loads(f'"{value}"', strict=False)
            except ValueError:
                out[key] = value
    if "name" in out and "headline" not in out and out.get("@type", "").lower() in ARTICLE_TYPES:
        out["headline"] = out["name"]
    return out


def _types(node: dict[str, Any]) -> set[str]:
    kind = node.get("@type")
    if isinstance(kind, str):
        return {kind.lower().rsplit("/", 1)[-1]}
    if isinstance(kind, list):
        return {k.lower().rsplit("/", 1)[-1] for k in kind if isinstance(k, str)}
    return set()


def _walk(value: Any, out: list[dict[str, Any]], depth: int = 0) -> None:
    """Every node of a JSON-LD value: lists, ``@graph`` and nested objects, in document order."""
    if depth > 8:
        return
    if isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):  # a string or number holds no node: no call for it
                _walk(item, out, depth + 1)
    elif isinstance(value, dict):
        out.append(value)
        for key, item in value.items():
            if isinstance(item, (dict, list)) and key not in ("author", "publisher", "image", "creator"):
                _walk(item, out, depth + 1)


class Graph:
    """All nodes of a page's JSON-LD, with ``@id`` references resolvable."""

    def __init__(self, scripts: list[str]) -> None:
        self.nodes: list[dict[str, Any]] = []
        for raw in scripts:
            for value in parse(raw):
                _walk(value, self.nodes)
        self.by_id = {n["@id"]: n for n in self.nodes if isinstance(n.get("@id"), str)}

    def resolve(self, value: Any) -> Any:
        """A ``{"@id": ...}`` reference replaced by the node it names."""
        if isinstance(value, dict) and set(value) == {"@id"} and isinstance(value["@id"], str):
            return self.by_id.get(value["@id"], value)
        return value

    def first(self, types: frozenset[str]) -> dict[str, Any] | None:
        for node in self.nodes:
            if _types(node) & types:
                return node
        return None

    def article(self) -> dict[str, Any] | None:
        """The page's article node: the first node of an article type with a headline or date."""
        fallback = None
        for node in self.nodes:
            if _types(node) & ARTICLE_TYPES:
                if node.get("headline") or node.get("datePublished"):
                    return node
                fallback = fallback or node
        return fallback

    def page(self) -> dict[str, Any] | None:
        return self.first(PAGE_TYPES)

    def website(self) -> dict[str, Any] | None:
        return self.first(frozenset({"website"}))
