"""Write the generated parts of README.md and docs/*.md from the code.

    python docs/gen.py            # rewrite every generated block
    python docs/gen.py --check    # exit 1 and name the blocks that differ

A generated block sits between ``<!-- gen:NAME -->`` and ``<!-- /gen:NAME -->``
and is never edited by hand: the settings table comes from
``scrapy_bte.crawl.settings.SETTINGS``, the field tables from the ``Extraction``
dataclass and ``FIELD_NAMES`` (with the descriptions below, one per field),
and the examples are the real output of the commands they show.
``tests/test_docs.py`` fails when a block differs from what this script
writes, and ``tests/test_example_project.py`` checks the exported item
against the example crawl it runs anyway (the script runs that crawl too,
so it takes a minute).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SAMPLE = ROOT / "scrapy_bte" / "samples" / "article.html"
SHOWN = "scrapy_bte/samples/article.html"  # the sample as the reader types its path
EXAMPLE_ARTICLE = "night-train-returns"
CUT = 160  # characters of a long text value shown in an example

#: What each ``Extraction`` attribute holds (the fields page's first table).
EXTRACTION_DOCS: dict[str, str] = {
    "text": "the main text: the kept blocks joined by newlines (see page types for what it holds)",
    "paragraphs": "the kept blocks, as a list",
    "title": "the headline; without `fields`, `og:title`, else `<title>` without the site name, else the first `<h1>`",
    "method": "the method that decided (`hybrid` where a page is too large for the learned methods)",
    "bte_score": "BTE span's (words - tags) / the page's words, clipped to [0, 1]",
    "density": "characters of kept text / markup bytes that produced them",
    "text_ratio": "kept characters / all characters of the page's text",
    "confidence": "0..1, how much to trust the result (its Spearman correlation with per-page F1 is in the evaluation)",
    "words": "words kept",
    "kept_blocks": "indices of the kept blocks",
    "span": "BTE's (first, last) block, or `None` for a page without words",
    "n_blocks": "the page's block count",
    "error": "set when a crawl or a worker could not extract (timeout, binary body, ...); `None` otherwise",
    "fingerprint": "64-bit SimHash of the text's 3-word shingles, 16 hex digits; near-duplicate texts differ in few "
    "bits; `None` under 20 words; computed when first read",
    "field_sources": "per article field read, where its value came from (`json-ld`, `og`, `byline-block`, ...)",
    "page_type": "the type of page: `article`, `forum`, `product`, `collection`, `listing`, `documentation` or `service` (see [page types](#page-types))",
    "comments": 'the readers\' comments, one per line, with `comments=True` (`""` when there are none); else `None`',
}

#: What each article field holds and where it is read, in order (the fields page's second table).
ARTICLE_FIELD_DOCS: dict[str, tuple[str, str]] = {
    "title": (
        "the headline",
        "JSON-LD `headline`, `og:title`, `twitter:title`, microdata `headline`, Dublin Core, `<title>`; then the "
        "page's `h1`/`h2` that repeats one of these with the site's name or a section around it replaces it, a "
        "site name left at either end is cut (at the end, also the name the address gives), and of a title in "
        "parts the part a heading repeats stays; without any, the first `h1`",
    ),
    "author": (
        'the names as the page gives them, joined by ", "',
        "JSON-LD `author`/`creator`, `<meta name=author>`, `article:author` (not profile URLs), Dublin Core "
        "`creator`, the first microdata `author`, the first run of `<a rel=author>` links, the page's byline block, a link to the author's page beside the headline",
    ),
    "date": (
        "published, ISO 8601 with time and offset where the page has them",
        "JSON-LD `datePublished`, `article:published_time`, Dublin Core dates, `<meta name=date>` and kin, microdata "
        "`datePublished`, a `<time>` marked as the publication time, the WebPage node's date, the page's dateline "
        "block, the first `<time datetime>`, a dateline at the body's edges",
    ),
    "modified": (
        "last modified",
        "JSON-LD `dateModified`, `article:modified_time`, `og:updated_time`, `dcterms.modified`, microdata",
    ),
    "description": (
        "the standfirst or summary",
        "JSON-LD, `og:description`, `twitter:description`, `<meta name=description>`, Dublin Core, microdata",
    ),
    "image": ("the lead image, absolute URL", "JSON-LD `image`, `og:image`, `twitter:image`, microdata"),
    "site_name": ("the publication", "`og:site_name`, JSON-LD `publisher`, the WebSite node, `dc.publisher`"),
    "language": (
        "BCP 47",
        "`<html lang>`, JSON-LD `inLanguage`, `og:locale`, Dublin Core, `<meta name=language>`, microdata; else "
        "detected from the text",
    ),
    "canonical_url": ("absolute", "`<link rel=canonical>`, `og:url`, JSON-LD `mainEntityOfPage`/`url`"),
}


def extraction_table() -> str:
    """One row per ``Extraction`` attribute, in :func:`extraction_attributes` order."""
    from scrapy_bte.fields.record import FIELD_NAMES

    rows = ["| attribute | type | holds |", "| --- | --- | --- |"]
    for name, kind in extraction_attributes():
        if name in FIELD_NAMES and name != "title":
            doc = f"an [article field](#article-fields): {ARTICLE_FIELD_DOCS[name][0]}"
        else:
            doc = EXTRACTION_DOCS[name]
        rows.append(f"| `{name}` | `{_type_name(kind)}` | {doc} |")
    return "\n".join(rows)


def extraction_attributes() -> list[tuple[str, Any]]:
    """``Extraction``'s attributes and their types: the dataclass's fields, then the values it
    computes when first read (``fingerprint``)."""
    from scrapy_bte.result import Extraction

    out: list[tuple[str, Any]] = [(field.name, field.type) for field in dataclasses.fields(Extraction)]
    for name, member in vars(Extraction).items():
        if isinstance(member, functools.cached_property):
            out.append((name, member.func.__annotations__["return"]))
    return out


def article_fields_table() -> str:
    """One row per article field, in ``FIELD_NAMES`` order, marking the default ones."""
    from scrapy_bte.fields.record import DEFAULT_FIELDS, FIELD_NAMES

    rows = ["| field | default | what | sources, in order |", "| --- | --- | --- | --- |"]
    for name in FIELD_NAMES:
        what, sources = ARTICLE_FIELD_DOCS[name]
        rows.append(f"| `{name}` | {'yes' if name in DEFAULT_FIELDS else ''} | {what} | {sources} |")
    return "\n".join(rows)


def settings_table() -> str:
    from scrapy_bte.crawl.settings import settings_table as table

    return table().rstrip("\n")


def layers_list() -> str:
    """The import-linter layers contracts of pyproject.toml, top layer first, as a numbered list.

    A package with its own layers contract (``containers``) gets its layers as a nested list.
    """
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    contracts = re.findall(r'type = "layers"\n(?:containers = \[([^]]*)\]\n)?layers = \[(.*?)\n\]', text, re.S)
    outer = [layers for containers, layers in contracts if not containers]
    if not outer:
        raise LookupError("pyproject.toml has no layers contract")
    inner = {
        container: layers
        for containers, layers in contracts
        if containers
        for container in re.findall(r'"([^"]+)"', containers)
    }
    lines = []
    for number, layer in enumerate(re.findall(r'"([^"]+)"', outer[0]), 1):
        modules = [name.strip() for name in layer.split("|")]
        lines.append(f"{number}. " + ", ".join(f"`{name.removeprefix('scrapy_bte.')}`" for name in modules))
        for module in modules:
            for sub_number, sub_layer in enumerate(re.findall(r'"([^"]+)"', inner.get(module, "")), 1):
                prefix = module.removeprefix("scrapy_bte.")
                names = ", ".join(f"`{prefix}.{name.strip()}`" for name in sub_layer.split("|"))
                lines.append(f"    {sub_number}. {names}")
    return "\n".join(lines)


def modules_table() -> str:
    """Every module of the package with the first line of its docstring, package by package."""
    import ast

    package = ROOT / "scrapy_bte"
    rows = ["| module | what it is for |", "| --- | --- |"]
    for path in sorted(package.rglob("*.py"), key=lambda p: (len(p.relative_to(package).parts), str(p))):
        if path.name == "__main__.py":
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
        name = str(path.relative_to(ROOT).with_suffix("")).replace(os.sep, ".").removesuffix(".__init__")
        c_files = (
            sorted(p.name for p in path.parent.glob("_*.c") if p.name != "_native.c")
            if path.name == "__init__.py"
            else []
        )
        extra = f" C passes: {', '.join(f'`{c}`' for c in c_files)}." if c_files else ""
        rows.append(f"| `{name}` | {first}{extra} |")
    return "\n".join(rows)


def _type_name(annotation: Any) -> str:
    return str(annotation).replace("typing.", "")


#: Decimals of the scores an example shows: the last digits of a float32 model's scores differ
#: between CPUs (numpy's vector paths), and an example is not a reference value.
SHOWN_DECIMALS = 4


def _shorten(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, SHOWN_DECIMALS)
    if isinstance(value, dict):  # an item's scores sit under its ``bte`` key
        return {key: _shorten(inner) for key, inner in value.items()}
    if isinstance(value, str) and len(value) > CUT:
        return value[:CUT].rstrip() + " ..."
    return value


def _cli(*argv: str) -> str:
    """Standard output of ``scrapy-bte ARGV`` run in this process, from the repository root."""
    from scrapy_bte.cli import main

    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(list(argv))
    finally:
        os.chdir(cwd)
    if code != 0:
        raise RuntimeError(f"scrapy-bte {' '.join(argv)} exited {code}")
    return out.getvalue()


def cli_text_example() -> str:
    text = _cli("extract", "--title", SHOWN)
    lines = text.splitlines()
    shown = [_shorten(line) for line in lines[:4]]
    return (
        "```console\n$ scrapy-bte extract --title " + SHOWN + " | head -4\n" + "\n".join(shown) + "\n```\n\n"
        f"(Lines past {CUT} characters shortened here.)"
    )


def cli_json_example() -> str:
    (page,) = json.loads(_cli("extract", "--format", "json", SHOWN))
    keep = ("source", "text", "title", "method", "confidence", "words", "fingerprint", "author", "date", "language")
    sample = {key: _shorten(page[key]) for key in keep}
    return (
        "```console\n$ scrapy-bte extract --format json " + SHOWN + "\n```\n\n"
        "```json\n" + json.dumps([sample], indent=1, ensure_ascii=False) + "\n```\n\n"
        f"(Shortened, scores rounded: each object has {len(page)} keys, every key of `Extraction.to_dict()` and `source`.)"
    )


def library_example() -> str:
    from scrapy_bte import extract
    from scrapy_bte.fields.record import DEFAULT_FIELDS

    result = extract(SAMPLE.read_bytes(), url="https://example.com/harbour", fields=DEFAULT_FIELDS)
    lines = [
        ">>> from importlib.resources import files",
        ">>> from scrapy_bte import extract",
        ">>> from scrapy_bte.fields.record import DEFAULT_FIELDS",
        '>>> html_bytes = files("scrapy_bte").joinpath("samples/article.html").read_bytes()  # installed with it',
        '>>> result = extract(html_bytes, url="https://example.com/harbour", fields=DEFAULT_FIELDS)',
        ">>> result.title, result.author, result.date",
        repr((result.title, result.author, result.date)),
        ">>> result.paragraphs[0]",
        repr(_shorten(result.paragraphs[0])),
        ">>> round(result.confidence, 3), result.words, result.fingerprint",
        repr((round(result.confidence, 3), result.words, result.fingerprint)),
        ">>> result.field_sources",
        repr(result.field_sources),
    ]
    return "```python\n" + "\n".join(lines) + "\n```"


def sample_item(item: dict[str, Any]) -> str:
    """An exported item of the example crawl as the README shows it: path-free URL, long texts cut,
    scores rounded."""
    shown = {key: _shorten(value) for key, value in item.items()}
    shown["url"] = re.sub(r"^file://.*?/example_project/", "file:///path/to/scrapy-bte/example_project/", item["url"])
    return "```json\n" + json.dumps(shown, indent=1, ensure_ascii=False) + "\n```"


def crawl_example_item() -> str:
    """Crawl the example project (as the README's first command does) and show one article's item."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "articles.jsonl"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out), "-s", "LOG_LEVEL=WARNING"],
            cwd=ROOT / "example_project",
            env=env,
            check=True,
            timeout=600,
        )
        for line in out.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if Path(item["url"]).stem == EXAMPLE_ARTICLE:
                return sample_item(item)
    raise RuntimeError(f"the example crawl exported no {EXAMPLE_ARTICLE} item")


#: Block name -> (files holding it, function that writes it).
BLOCKS: dict[str, tuple[tuple[str, ...], Callable[[], str]]] = {
    "settings": (("README.md", "docs/settings.md"), settings_table),
    "extraction": (("docs/fields.md",), extraction_table),
    "article-fields": (("docs/fields.md",), article_fields_table),
    "cli-text": (("docs/cli.md",), cli_text_example),
    "cli-json": (("docs/cli.md",), cli_json_example),
    "library": (("README.md", "docs/library.md"), library_example),
    "layers": (("docs/architecture.md",), layers_list),
    "modules": (("docs/architecture.md",), modules_table),
    "example-item": (("README.md", "docs/scrapy.md"), crawl_example_item),
}

#: Blocks checked elsewhere (the example item needs the example crawl, which its own test runs).
SLOW_BLOCKS = frozenset({"example-item"})


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- gen:{re.escape(name)} -->\n)(.*?)(<!-- /gen:{re.escape(name)} -->)", re.S)


def current(path: str, name: str) -> str:
    """The block *name* as *path* holds it now."""
    match = _pattern(name).search((ROOT / path).read_text(encoding="utf-8"))
    if match is None:
        raise LookupError(f"{path} has no <!-- gen:{name} --> block")
    return match.group(2).removesuffix("\n")


def write(path: str, name: str, content: str) -> bool:
    """Put *content* into the block; True if the file changed."""
    file = ROOT / path
    text = file.read_text(encoding="utf-8")
    new, count = _pattern(name).subn(lambda m: m.group(1) + content + "\n" + m.group(3), text)
    if count != 1:
        raise LookupError(f"{path} must hold exactly one <!-- gen:{name} --> block, found {count}")
    if new != text:
        file.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str]) -> int:
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or list(BLOCKS)
    stale = []
    for name in names:
        paths, make = BLOCKS[name]
        content = make()
        for path in paths:
            if check:
                if current(path, name) != content:
                    stale.append(f"{path}: {name}")
            elif write(path, name, content):
                print(f"wrote {path}: {name}")
    for entry in stale:
        print(f"out of date: {entry} (run python docs/gen.py)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
