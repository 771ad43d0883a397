"""URLs the fields read without urllib's split: the same answers as urllib gives."""

from __future__ import annotations

import random
from urllib.parse import urljoin, urlsplit

from scrapy_bte.fields import values

PIECES = [
    "http", "HTTP", "https", "hTtPs", "ftp", "://", "//", ":", "/", "?", "#", ";", "[", "]", "[::1]", "a.com",
    "ex", " ", "\t", "\n", "\x00", "é", "%20", "..", "ſ", "@", ":80", "x=1", "&", "\\", "\u212a", "",
]  # fmt: skip


def _by_urllib_absolute(value: str | None) -> bool:
    if not value:
        return False
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _by_urllib_url(raw: str, base: str | None) -> str | None:
    """values.url with urljoin for every joined URL."""
    text = values.text(raw)
    if text is None or text.startswith(("data:", "javascript:")):
        return None
    if text.startswith("//") and not base:
        return "https:" + text
    if base:
        try:
            return urljoin(base, text)
        except ValueError:
            return None
    return text


SCHEMES = ["http://", "https://", "HTTP://", "Https://", "httpſ://", "ftp://", " http://", "\thttp://", "http:/", ""]
HOSTS = ["a.com", "www.example.org", "", "[::1]", "[x", "h]", "é.fr", "a b", "u@h:8", "a\tb", "x\\y", "h;p"]


def _random_urls(seed: int, n: int) -> list[str]:
    """Pieces at random, and as often a scheme and a host followed by pieces (the URLs pages hold)."""
    rnd = random.Random(seed)
    out = []
    for k in range(n):
        tail = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 6)))
        out.append(tail if k % 2 else rnd.choice(SCHEMES) + rnd.choice(HOSTS) + rnd.choice(["", "/", "/p"]) + tail)
    return out


def test_is_absolute_answers_as_urlsplit() -> None:
    # Where urllib cannot read the URL ("http://[x"), it is no absolute URL to resolve against, not an error.
    for value in [*_random_urls(3, 20000), "https://example.org/a", "HTTP://x", "http:///x", "https://[::1]/", ""]:
        try:
            expected = _by_urllib_absolute(value)
        except ValueError:
            expected = False
        assert values.is_absolute(value) == expected, repr(value)


def test_url_joins_as_urljoin() -> None:
    urls = _random_urls(5, 6000)
    plain = ["https://www.example.org/news/a-story", "http://example.org", "https://example.org/a/../b?x=1#f"]
    rnd = random.Random(9)
    for raw in [*urls, *plain]:
        for base in (raw, rnd.choice(urls), rnd.choice(plain), None):
            assert values.url(raw, base) == _by_urllib_url(raw, base), (raw, base)
