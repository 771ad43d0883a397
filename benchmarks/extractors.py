"""Registry of the extractors the benchmarks compare.

Every extractor is a callable ``extractor(html: bytes) -> str`` that receives
the page's raw bytes: decoding is part of what is measured, so each one
decodes the way it normally would. Rows registered with ``takes_url=True``
are called ``extractor(html, url=url)`` with the page's address where the
set gives one (WCXB does), as a crawl would: the scrapy_bte rows are; the
peers are called on the bytes alone, as in the benchmarks that publish their
numbers. scrapy_bte extractors return the
``Extraction`` itself (its ``.text`` is scored and its ``.confidence`` is
correlated with quality); use :func:`output_text` and
:func:`output_confidence` to read either kind of output.

Rows are registered in one of two ways:

* ``register(name, extractor)``: one extractor for every set;
* ``register_factory(name, factory)``: ``factory(held_out_set)`` builds the
  extractor for one set. ``benchmarks/run.py --loso`` calls it with the name
  of the set being scored, so a row whose parameters were tuned on the data
  can be scored leave-one-set-out (the factory returns the variant tuned
  without that set); without ``--loso`` it is called with ``None`` (the
  shipped variant). A module passed to ``run.py --plugin`` can register such
  rows without editing this file, e.g.::

      from extractors import register_factory
      from scrapy_bte import extract

      def model_without(held_out):
          path = f"models/loso-{held_out}.npz" if held_out else None
          return lambda html: extract(html, method="model", model=path)

      register_factory("scrapy_bte.model", model_without)

Peers are optional: one whose import fails is skipped with a note. How each
peer is called (kept as in the article-extraction-benchmark where it has a
runner, so its numbers are comparable):

* trafilatura: ``trafilatura.extract(html)`` with its defaults (comments
  included, as in the GUIDE's row), on the bytes; ``trafilatura-no-comments``
  adds ``include_comments=False`` (the article-extraction-benchmark's call),
  which wins on sets whose gold leaves comments out and loses on the others;
* readability-lxml: ``Document(html).summary(html_partial=True)`` on the
  bytes, then the text of that fragment (html-text when installed, else
  lxml ``itertext``);
* resiliparse: bytes decoded with ``detect_encoding``/``bytes_to_str``, then
  ``extract_plain_text(HTMLTree.parse(text), main_content=True)``;
* justext: English stoplist with the benchmark's parameters
  ``(50, 200, 0.1, 0.2, 0.2, 200, True)``, non-boilerplate paragraphs joined;
* boilerpy3: ``ArticleExtractor().get_content(text)``;
* html-text: ``html_text.extract_text(text)``, all visible text (a floor).

boilerpy3 and html-text only take ``str``: they get the bytes decoded with
``w3lib.encoding.html_to_unicode`` (BOM, then ``<meta>`` charset, then
detection), which is what Scrapy does. ``all-text`` is a dependency-free
floor: every text node outside script/style, parsed from the bytes by lxml.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

Extractor = Callable[[bytes], Any]
Factory = Callable[[str | None], Extractor]

PROBE_PAGE = (
    b"<html><head><title>Probe</title></head><body><ul><li><a href='/'>Home</a></li></ul>"
    b"<p>A tiny page with one paragraph of ordinary words, enough to form a block.</p>"
    b"</body></html>"
)


@dataclass(frozen=True)
class Entry:
    """One benchmark row: ``factory(held_out_set or None) -> extractor``."""

    name: str
    factory: Factory
    kind: str  # "scrapy_bte", "peer" or "baseline"
    version: str = ""
    loso: bool = False
    takes_url: bool = False


REGISTRY: dict[str, Entry] = {}
NOTES: list[str] = []
_BUILTINS_LOADED = False


def register(
    name: str, extractor: Extractor, kind: str = "peer", version: str = "", *, takes_url: bool = False
) -> None:
    """Add a row that uses the same extractor for every set."""
    REGISTRY[name] = Entry(name, lambda _held_out: extractor, kind, version, takes_url=takes_url)


def register_factory(name: str, factory: Factory, kind: str = "scrapy_bte", version: str = "") -> None:
    """Add a row whose extractor depends on the held-out set (see module doc)."""
    REGISTRY[name] = Entry(name, factory, kind, version, loso=True)


def output_text(output: Any) -> str:
    """Text of an extractor's output (``str``, ``None`` or an ``Extraction``)."""
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    return getattr(output, "text", "") or ""


def output_confidence(output: Any) -> float | None:
    """``Extraction.confidence`` when the output carries one."""
    value = getattr(output, "confidence", None)
    return None if value is None else float(value)


def _dist_version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


def _decode(html: bytes) -> str:
    """Bytes to str the way Scrapy does, for peers that only take str."""
    from w3lib.encoding import html_to_unicode

    return html_to_unicode(None, html)[1]


def _fragment_text(fragment: str) -> str:
    """Visible text of an HTML fragment, one line per text node if needed."""
    try:
        import html_text
    except ImportError:
        import lxml.html

        return "\n".join(lxml.html.fragment_fromstring(fragment, create_parent="div").itertext())
    return html_text.extract_text(fragment)


def _all_text(html: bytes) -> str:
    import lxml.etree
    import lxml.html

    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True)
    root = lxml.html.document_fromstring(html, parser=parser)
    lxml.etree.strip_elements(root, "script", "style", "noscript", "template", with_tail=False)
    return "\n".join(t.strip() for t in root.itertext() if t.strip())


def _trafilatura() -> Extractor:
    import trafilatura

    return lambda html: trafilatura.extract(html)


def _trafilatura_no_comments() -> Extractor:
    import trafilatura

    return lambda html: trafilatura.extract(html, include_comments=False)


def _readability() -> Extractor:
    from readability import Document

    return lambda html: _fragment_text(Document(html).summary(html_partial=True))


def _resiliparse() -> Extractor:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree

    def run(html: bytes) -> str:
        tree = HTMLTree.parse(bytes_to_str(html, detect_encoding(html)))
        return extract_plain_text(tree, main_content=True)

    return run


def _justext() -> Extractor:
    import justext

    stoplist = justext.get_stoplist("English")

    def run(html: bytes) -> str:
        paragraphs = justext.justext(html, stoplist, 50, 200, 0.1, 0.2, 0.2, 200, True)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return run


def _boilerpy3() -> Extractor:
    from boilerpy3.extractors import ArticleExtractor

    article = ArticleExtractor()
    return lambda html: article.get_content(_decode(html))


def _html_text() -> Extractor:
    import html_text

    return lambda html: html_text.extract_text(_decode(html))


PEERS: dict[str, tuple[str, Callable[[], Extractor]]] = {
    "trafilatura": ("trafilatura", _trafilatura),
    "trafilatura-no-comments": ("trafilatura", _trafilatura_no_comments),
    "readability": ("readability-lxml", _readability),
    "resiliparse": ("resiliparse", _resiliparse),
    "justext": ("justext", _justext),
    "boilerpy3": ("boilerpy3", _boilerpy3),
    "html-text": ("html-text", _html_text),
}


def _scrapy_bte_method(extract: Callable[..., Any], method: str, page_type: bool = True) -> Extractor:
    return lambda html, url=None: extract(html, method=method, url=url, page_type=page_type)


#: Rows of the methods that only report the page type, run without it (``page_type=False``):
#: what a caller who does not read it gets.
UNTYPED = ("bte", "hybrid")


def _register_scrapy_bte() -> None:
    """Register every scrapy_bte method that works on a tiny page."""
    try:
        from scrapy_bte import extract
        from scrapy_bte.api import METHODS
    except Exception as exc:  # noqa: BLE001 - the package may be mid-development
        NOTES.append(f"scrapy_bte skipped: cannot import extract ({exc})")
        return
    version = _dist_version("scrapy-bte") or getattr(__import__("scrapy_bte"), "__version__", "")
    rows = [(method, method, True) for method in METHODS] + [(f"{m}-untyped", m, False) for m in UNTYPED]
    for name, method, typed in rows:
        extractor = _scrapy_bte_method(extract, method, typed)
        try:
            extractor(PROBE_PAGE)
        except Exception as exc:  # noqa: BLE001 - any failure means "not available yet"
            NOTES.append(f"scrapy_bte.{name} skipped: fails on a tiny page ({exc!r})")
            continue
        register(f"scrapy_bte.{name}", extractor, "scrapy_bte", version, takes_url=True)


def _register_peers() -> None:
    for name, (dist, build) in PEERS.items():
        try:
            extractor = build()
        except ImportError as exc:
            NOTES.append(f"{name} skipped: {exc}")
            continue
        register(name, extractor, "peer", _dist_version(dist))


def load_all() -> dict[str, Entry]:
    """Add the built-in rows once: scrapy_bte methods, peers, then the floor.

    Rows registered earlier (by a plugin) keep their name and definition.
    """
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        plugins = dict(REGISTRY)
        _register_scrapy_bte()
        _register_peers()
        register("all-text", _all_text, "baseline", _dist_version("lxml"))
        REGISTRY.update(plugins)
    return REGISTRY


def select(patterns: Iterable[str] | None = None) -> list[Entry]:
    """Entries whose name matches any glob (all when ``patterns`` is empty),
    in the order of the patterns (a glob's matches in registry order).

    A pattern that matches nothing is reported in ``NOTES``.
    """
    entries = load_all()
    wanted = [p for p in (patterns or []) if p]
    if not wanted:
        return list(entries.values())
    chosen: dict[str, Entry] = {}
    for pattern in wanted:
        names = fnmatch.filter(entries, pattern)
        if not names:
            NOTES.append(f"no extractor matches {pattern!r}")
        chosen.update((name, entries[name]) for name in names if name not in chosen)
    return list(chosen.values())
