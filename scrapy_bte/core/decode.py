"""Bytes to text, the way a browser would, without ever raising on bad bytes.

Order of evidence (w3lib's): byte-order mark, the HTTP ``Content-Type``
charset, an explicit ``encoding`` argument standing in for that header, the
page's ``<meta charset>``; with none of these we try strict UTF-8, then a
legacy encoding of a non-Latin script (:func:`legacy_encoding`), and fall
back to windows-1252, which maps every byte.

Declared charsets that Python knows but that are not text encodings
(``base64``, ``rot13``, ``zlib``...), that raise on any input (``idna``,
``punycode``, ``undefined``) or that turn ASCII into markup or lone
surrogates (``utf-7``, ``unicode-escape``) count as no declaration, as does
a ``<meta>`` that names UTF-16 (a page readable as ASCII is not UTF-16).
"""

from __future__ import annotations

import codecs
import re

from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)
from w3lib.encoding import to_unicode as _decode

from ..errors import ExtractionError

# Magic numbers of formats that servers mislabel as text/html (documents,
# images, audio and video, archives, fonts, executables, databases).
_BINARY_MAGIC = (
    b"%PDF-",
    b"\x89PNG",
    b"GIF87a",
    b"GIF89a",
    b"\xff\xd8\xff",
    b"\x1f\x8b",
    b"PK\x03\x04",
    b"BZh",
    b"\xfd7zXZ",
    b"RIFF",
    b"OggS",
    b"\x00\x00\x01\x00",
    b"wOFF",
    b"wOF2",
    b"OTTO",
    b"\x7fELF",  # Linux and BSD executables
    b"\xfe\xed\xfa\xce",  # Mach-O, both byte orders and word sizes
    b"\xfe\xed\xfa\xcf",
    b"\xce\xfa\xed\xfe",
    b"\xcf\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",  # Mach-O universal binaries, Java classes
    b"MZ\x90\x00",  # Windows PE
    b"MZP\x00",
    b"\x00asm",  # WebAssembly
    b"II*\x00",  # TIFF
    b"MM\x00*",
    b"8BPS",
    b"ID3",  # MP3
    b"fLaC",
    b"\x1aE\xdf\xa3",  # Matroska, WebM
    b"FLV\x01",
    b"\x00\x00\x01\xba",  # MPEG
    b"\x00\x00\x01\xb3",
    b"7z\xbc\xaf\x27\x1c",
    b"Rar!\x1a\x07",
    b"\x28\xb5\x2f\xfd",  # zstd
    b"SQLite format 3\x00",
)
# ISO base media files (MP4, MOV, HEIF, AVIF) say "ftyp" after a 4-byte box size.
_FTYP_AT = 4


def _sniff(data: bytes) -> tuple[str, str | None]:
    """The codec of an undeclared body, and its text when the test already decoded all of it."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A truncated multi-byte sequence at the very end is still UTF-8.
        if exc.start < len(data) - 3:
            return legacy_encoding(data), None
        return "utf-8", None
    # ISO-2022-JP is 7-bit: its escape sequences name it.
    return ("iso2022_jp", None) if _ISO2022_JP.search(data) else ("utf-8", text)


#: Legacy encodings of scripts other than Latin that a body without a declaration may be in
#: (and the supersets browsers read them as). Latin-script ones (windows-1250, -1254, -1257,
#: ISO 8859-2...) differ from windows-1252 in a few letters only, and no detector tells them
#: apart on a short text: such bodies stay windows-1252.
LEGACY_ENCODINGS = frozenset(
    codecs.lookup(name).name
    for name in (
        "shift_jis", "cp932", "euc_jp", "euc_jis_2004", "iso2022_jp", "gb2312", "gbk", "gb18030", "big5",
        "big5hkscs", "cp950", "euc_kr", "cp949", "johab", "cp1251", "koi8_r", "koi8_u", "iso8859_5", "cp866",
        "mac_cyrillic", "cp1253", "iso8859_7", "cp1255", "iso8859_8", "cp1256", "iso8859_6", "cp874", "tis_620",
    )
)  # fmt: skip
#: Bytes above 127 a body needs before detection runs: fewer are a few quotes and dashes.
MIN_HIGH_BYTES = 16
#: The part of the body the detector reads (its cost grows with it).
DETECT_BYTES = 64 * 1024
_ISO2022_JP = re.compile(rb"\x1b\$[@B]")
_ASCII = bytes(range(128))
#: Runs of four or more bytes above 127: the words of a non-Latin script in a single- or
#: multi-byte encoding. Latin text has such bytes one or two at a time, inside ASCII words.
_HIGH_RUN = re.compile(rb"[\x80-\xff]{4,}")


def legacy_encoding(data: bytes) -> str:
    """The codec of an undeclared body that is not UTF-8: a legacy encoding of a non-Latin
    script when the body's text is written in one, else windows-1252 (what browsers assume).

    Such bodies are rare (a charset sent only in the lost HTTP header), but read as
    windows-1252 a Japanese, Chinese, Korean, Russian or Greek page is all mojibake. A
    body whose high bytes come mostly in runs (words of a non-Latin script) goes to
    ``cchardet`` (uchardet, in C: linear time on any input); a Latin body never does,
    so it is read as before, and a detected encoding outside :data:`LEGACY_ENCODINGS`
    counts as none.
    """
    sample = data[:DETECT_BYTES]
    high = len(sample.translate(None, _ASCII))
    if high < MIN_HIGH_BYTES or 2 * sum(map(len, _HIGH_RUN.findall(sample))) < high:
        return "cp1252"
    import cchardet

    name = usable_encoding(cchardet.detect(sample).get("encoding"))
    return name if name is not None and codecs.lookup(name).name in LEGACY_ENCODINGS else "cp1252"


# Control bytes that do not occur in text (not tab, newline, CR, form feed...);
# deleting every other byte leaves just them, counted in one pass.
_CONTROLS = bytes((0, 1, 2, 3, 4, 5, 6, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31))
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROLS)


def looks_binary(data: bytes) -> bool:
    """True for bodies that are clearly not markup (PDF, images, archives).

    NUL is left out of the control-byte share: documents padded with NUL
    bytes (fixed-size records, pre-allocated files) are still documents, and
    decoding drops the NULs. The NULs stay in the sample because UTF-16
    without a byte-order mark is recognised by them.
    """
    head = data[:1024].lstrip()
    if head.startswith(_BINARY_MAGIC) or data[_FTYP_AT : _FTYP_AT + 4] == b"ftyp":
        return True
    sample = data[:4096]
    if not sample:
        return False
    if sample.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 BOM: text
        return False
    nuls = sample.count(b"\x00")
    # UTF-16 without a BOM has a NUL in every other byte; markup sniffing
    # decides that case later, so it is never binary here.
    if nuls * 2 >= len(sample) * 0.8 and (b"<\x00" in sample or b"\x00<" in sample):
        return False
    controls = len(sample.translate(None, _NOT_CONTROL)) - nuls
    if controls > (len(sample) - nuls) * 0.05:
        return True
    # Without a single tag the body holds no markup: then a few control
    # bytes (random or compressed data has one in twelve) are enough.
    return controls > (len(sample) - nuls) * 0.02 and not _TAG_START.search(sample)


_TAG_START = re.compile(rb"<[A-Za-z!/?]")
# The same control characters, for text that arrives already decoded.
_CONTROL_CHARS = re.compile("[\x01-\x06\x0e-\x1f]")


def looks_binary_text(text: str) -> bool:
    """True for a decoded str whose head is mostly control characters or carries a binary signature."""
    sample = text[:4096]
    if not sample:
        return False
    if sample.lstrip().startswith(tuple(m.decode("latin-1") for m in _BINARY_MAGIC)):
        return True
    controls = len(_CONTROL_CHARS.findall(sample))
    return controls > len(sample) * 0.05 or (
        controls > len(sample) * 0.02 and not _TAG_START.search(sample.encode("utf-8", "replace"))
    )


# Bodies servers label text/html that are data or code, not documents: their
# "main text" would be the whole body. Only the first bytes are looked at,
# and only shapes no HTML page starts with count.
_JSON_START = re.compile(
    rb"""\s*(?:\{\s*(?:"(?:[^"\\\n]|\\.){0,200}"\s*:|\}\s*$)"""
    rb"""|\[\s*(?:[\[{"]|\]\s*$|(?:-?\d+(?:\.\d+)?|true|false|null)\s*,))""",
)
_SCRIPT_START = re.compile(
    rb"""\s*(?:/\*|//|["']use strict["']"""
    rb"""|[!(]\s*function\s*[\w$]*\s*\(|\(\s*\(\s*[\w$,\s]*\)\s*=>"""
    rb"""|(?:var|let|const)\s+[\w$]+\s*[=;,]"""
    rb"""|function\s*[\w$]*\s*\([\w$,\s]*\)\s*\{"""
    rb"""|(?:import|export)\s+(?:[{*"']|default\b|const\b|function\b|class\b|[\w$]+\s*(?:,|from\b))"""
    rb"""|(?:window|document|self|globalThis)\s*\.\s*[\w$]+\s*[.=(\[]"""
    rb"""|define\s*\(|[\w$.]+\s*\(\s*[{\[])""",
)
# Markup that would make a script-looking start a page after all (a page
# whose first line is a stray comment, a bundle built around HTML strings).
_PAGE_TAG = re.compile(rb"<(?:!doctype|html|head|body|div|p|article|main|table|title)\b", re.IGNORECASE)
_SNIFF = 1024


def non_html_format(data: bytes | str) -> str | None:
    """``"json"`` or ``"javascript"`` for bodies that are clearly one of them, else None.

    A JSON document served as ``text/html`` would otherwise come out whole as
    main text. JSON is recognised by its opening structure (``{"key":``,
    ``[{``, ``[1,``); script by openings no page starts with (``/*``,
    ``function f(){``, ``var x =``, ``import``, ``callback({``), and only
    when no page-level tag follows in the first kilobyte.
    """
    head = data[: _SNIFF * 4] if isinstance(data, bytes) else data[: _SNIFF * 4].encode("utf-8", "replace")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    head = head.lstrip()[:_SNIFF]
    if not head or head[:1] == b"<":
        return None
    if _JSON_START.match(head):
        return "json"
    if _SCRIPT_START.match(head) and not _PAGE_TAG.search(head):
        return "javascript"
    return None


HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# Types servers send when they do not know better: the body decides.
GENERIC_TYPES = frozenset(
    {"", "application/octet-stream", "binary/octet-stream", "text/plain", "application/unknown", "unknown/unknown"}
)
_HTML_START = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*"
    rb"<(?:!doctype\s+html|html|head|body|title|meta|script|style|div|p|h[1-6])\b",
    re.IGNORECASE | re.DOTALL,
)


def media_type(content_type: str | bytes | None) -> str:
    """The lower-cased media type of a Content-Type value, '' if absent."""
    if not content_type:
        return ""
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    return content_type.split(";", 1)[0].strip().lower()


def looks_like_html(body: bytes) -> bool:
    """Sniff the first bytes of an untyped body (what browsers do for such responses)."""
    return bool(_HTML_START.match(body[:_SNIFF]))


def is_html(content_type: str | bytes | None, body: bytes) -> bool:
    """Whether a body with this Content-Type is an HTML document worth extracting.

    Labelled HTML counts unless it is JSON or script (:func:`non_html_format`);
    untyped and generic bodies count when they start like a page.
    """
    mtype = media_type(content_type)
    if mtype in HTML_TYPES:
        return non_html_format(body) is None
    return mtype in GENERIC_TYPES and looks_like_html(body)


_REFUSED = frozenset({"idna", "punycode", "undefined", "utf-7", "unicode-escape", "raw-unicode-escape"})


def usable_encoding(label: str | None) -> str | None:
    """Python codec name for a charset label; ``None`` if unknown, non-text or unsafe."""
    name = resolve_encoding(label) if label else None
    if name is None or name in _REFUSED:
        return None
    return name if getattr(codecs.lookup(name), "_is_text_encoding", True) else None


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 by its NUL bytes: high bytes of ASCII at odd (LE) or even (BE) offsets."""
    sample = data[:512]
    half = len(sample) // 2
    if not half:
        return None
    if sample[1::2].count(0) >= half * 0.8 and b"<\x00" in sample:
        return "utf-16-le"
    if sample[0::2].count(0) >= half * 0.8 and b"\x00<" in sample:
        return "utf-16-be"
    return None


_WIDE = frozenset({"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})


def _as_utf8(data: bytes) -> str | None:
    """The text of non-ASCII bytes that decode as strict UTF-8, else None."""
    if data.isascii():
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


#: Bytes that make an ASCII body something else: ESC (ISO-2022 shifts), NUL (UTF-16).
_NOT_PLAIN = (b"\x1b", b"\x00")


def _plain_ascii(html: bytes) -> bool:
    """Whether ``html`` is ASCII text that every encoding a page can declare reads the same.

    Then no ``<meta>`` can change the text and its scan is skipped: mercury's pages, which
    write every other character as a reference, are ASCII. The exceptions are ISO-2022
    (it switches character sets with ESC) and UTF-16 (ASCII with NULs); the encodings no
    browser decodes (HZ, which browsers map to the replacement encoding, EBCDIC and a few
    code pages that remap ASCII punctuation) are read as the ASCII a browser shows.
    """
    return html.isascii() and not any(map(html.__contains__, _NOT_PLAIN))


def _declared_encoding(html: bytes) -> str | None:
    """:func:`w3lib.encoding.html_body_declared_encoding`, without its scan of a head that cannot declare one.

    It reads the first 4,096 bytes, and only a ``<meta>`` that spells
    ``charset`` or an XML declaration with an ``encoding`` attribute
    declares anything (both names in any ASCII case; the head is read as
    Latin-1, whose other letters never lower-case to ASCII ones).
    """
    head = html[:4096].lower()
    if b"charset" not in head and b"encoding" not in head:
        return None
    return html_body_declared_encoding(html)


def _choose_encoding(html: bytes, encoding: str | None, content_type: str | None) -> tuple[str, str | None]:
    """Codec of a body without BOM: argument, header, ``<meta>`` (never UTF-16/32), sniffing.

    Also the decoded text when a test on the way decoded the whole body
    strictly as UTF-8 (what decoding it with replacement gives), so that it
    is not decoded twice.
    """
    if encoding:
        used = usable_encoding(encoding)
        if used is None:
            raise ExtractionError(f"unknown encoding {encoding!r}")
    else:
        used = usable_encoding(http_content_type_encoding(content_type)) if content_type else None
        if used is None:
            # Pages re-saved as UTF-8 keep their old <meta charset>; valid
            # multi-byte UTF-8 almost never occurs by chance in legacy text.
            # So such a body is UTF-8 whatever its <meta> says (a UTF-8 or
            # UTF-16 one, or none, leads to the same), unless its NULs make it
            # UTF-16; the head is then not scanned for a declaration.
            text = _as_utf8(html)
            if text is not None and _utf16_without_bom(html) is None:
                return "utf-8", text
            if text is None and _plain_ascii(html):
                return "utf-8", html.decode("ascii")
            meta = usable_encoding(_declared_encoding(html))
            used = None if meta in _WIDE else meta
            if used not in (None, "utf-8") and text is not None:
                return "utf-8", text
    if used is None:
        wide = _utf16_without_bom(html)
        return (wide, None) if wide else _sniff(html)
    if used == "utf-16":  # no BOM: byte order from the NULs, else little-endian (WHATWG)
        return _utf16_without_bom(html) or "utf-16-le", None
    return used, None


def to_unicode(
    html: bytes,
    *,
    encoding: str | None = None,
    content_type: str | None = None,
) -> tuple[str, str]:
    """Decode ``html``; return ``(text, encoding_used)``.

    Invalid byte sequences become U+FFFD; NUL characters are dropped. Raises
    :class:`ExtractionError` for binary bodies (PDF, images, archives) and
    for JSON and JavaScript bodies (see :func:`non_html_format`).
    """
    if looks_binary(html):
        raise ExtractionError("binary body: not an HTML document")
    kind = non_html_format(html)
    if kind is not None:
        raise ExtractionError(f"{kind} body: not an HTML document")
    bom_encoding, bom = read_bom(html)
    text = None
    if bom_encoding is not None and bom is not None:
        used, html = bom_encoding, html[len(bom) :]
    else:
        used, text = _choose_encoding(html, encoding, content_type)
    if text is None:
        text = _decode(html, used)
    # UTF-8 gives U+0000 only for a NUL byte, and bytes are searched several
    # times faster than the wider strings that decoding non-ASCII text makes.
    if (used != "utf-8" or b"\x00" in html) and "\x00" in text:
        text = text.replace("\x00", "")
    return text, used
