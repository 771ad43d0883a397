"""Pages the parity tests share: the torture cases, the fixtures, the example site, the samples,
and random markup soup aimed at the rules the C passes and their references both implement."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import SAMPLES
from hypothesis import strategies as st

from scrapy_bte import ACCELERATED
from scrapy_bte.core.decode import to_unicode
from scrapy_bte.errors import ExtractionError
from scrapy_bte.testing import torture as tc

ROOT = Path(__file__).resolve().parents[2]


def needs_c(module: str) -> pytest.MarkDecorator:
    """Skip where the C module is not built; CI sets SCRAPY_BTE_REQUIRE_ACCEL, and there a missing build fails."""
    return pytest.mark.skipif(
        not ACCELERATED[module] and not os.environ.get("SCRAPY_BTE_REQUIRE_ACCEL"), reason=f"{module} is not built"
    )


def _markups() -> list[tuple[str, str]]:
    out = []
    for case in tc.small_cases():
        data = case.data()
        try:
            out.append((case.name, data if isinstance(data, str) else to_unicode(data)[0]))
        except ExtractionError:  # binary bodies never reach the document model
            continue
    files = sorted((ROOT / "tests" / "fixtures").rglob("*.htm*"))
    files += sorted((ROOT / "example_project").rglob("*.html"))[:40]
    pages = [(str(p.relative_to(ROOT)), to_unicode(p.read_bytes())[0]) for p in files]
    pages += [(f"samples/{p.name}", to_unicode(p.read_bytes())[0]) for p in sorted(SAMPLES.glob("*.html"))]
    out += pages
    return out


MARKUPS = _markups()


# Pieces that hit the rules: tags in any case, folding to ASCII (U+0130,
# U+212A), white space str.split knows and ASCII "\s" would miss, comment
# and declaration forms, unclosed script/style/title, "<" in text and in
# attributes, entities, scripts without spaces, separators.
PIECES = (
    "<div>",
    "</div>",
    "<DIV class='a b'>",
    "<p>",
    "</P >",
    "<br/>",
    "<a href=x>",
    "</a>",
    "<A>",
    "<span>",
    "<li>",
    "<td>",
    "<table>",
    "<h1>",
    "<section id=main>",
    "<nav>",
    "<article>",
    "<b>",
    "</B>",
    "<font size=2>",
    "</i>",
    "<small>",
    "<script>",
    "</script>",
    "<SCRIPT type=x>",
    "</scrİpt>",
    "<style>",
    "</style >",
    "<title>",
    "</title>",
    "<noscript>",
    "</noscript>",
    "<svg>",
    "</svg>",
    "<templatE>",
    "<iframe src=x>",
    "</iframe>",
    "<select>",
    "<button>",
    "</button>",
    "<svg/>",
    "<svg a=b/>",
    "<MATH />",
    "<BUTTON type=x>",
    "</li>",
    "</h1 >",
    "</section>",
    "<!--",
    "-->",
    "--!>",
    "<!-->",
    "<!--->",
    "<!DOCTYPE html>",
    "<?xml ?>",
    "<![CDATA[",
    "]]>",
    "<",
    ">",
    "</",
    "<<",
    "< p>",
    "<a<b>",
    "<div title='1 < 2'>",
    "<p\u3000class=x>",
    "<p\x1cx>",
    "<\u212aid>",
    "<d\u0130v>",
    "</\u212a>",
    "&amp;",
    "&nbsp;",
    "&#5;",
    "&#8203;",
    "&#x65E5;",
    "&#26412;&#x8A9E",
    "&#xE44;",
    "&#x20;",
    "&#160;",
    "&#XA0",
    "&#x3000;",
    "&#13;",
    "&#0000065;",
    "&#99999999999;",
    "&#xD800;",
    "&#x1FFFE;",
    "&#150;",
    "&#x7C;",
    "&#8212;",
    "&#x;",
    "&#",
    "&#38;#x41;",
    "&lt;p&gt;",
    '="',
    "='",
    '"',
    "'",
    "=",
    ' = "a>b" ',
    "= 'x<y'",
    '<img alt="x > y" src=z>',
    '<p data-j=\'{"h": "<b>"}\'>',
    " ",
    "\n",
    "\t",
    "\x0b",
    "\x1c",
    "\x85",
    "\u00a0",
    "\u2003",
    "\u3000",
    "word",
    "Ship",
    "_",
    "|",
    "»",
    " | ",
    "·",
    "-",
    "42",
    "café",
    "İstanbul",
    "\u212a",
    "日本語",
    "テキスト",
    "ไทยภาษา",
    "ພາສາລາວ",
    "ខ្មែរ",
    "မြန်မာ",
    "\U00020000\U0002fa1d",
    "한국어",
    "🍞",
)


soup_st = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)
