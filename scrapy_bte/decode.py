"""Bytes to text, the way a browser would, without ever raising on bad bytes.

Order of evidence (w3lib's): byte-order mark, the HTTP ``Content-Type``
charset, an explicit ``encoding`` argument standing in for that header, the
page's ``<meta charset>``; with none of these we try strict UTF-8 and fall
back to windows-1252, which maps every byte.
"""

from __future__ import annotations

from w3lib.encoding import html_body_declared_encoding, html_to_unicode, resolve_encoding

from .errors import ExtractionError

# Magic numbers of formats that servers mislabel as text/html.
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
)


def _sniff(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A truncated multi-byte sequence at the very end is still UTF-8.
        if exc.start < len(data) - 3:
            return "cp1252"
    return "utf-8"


def looks_binary(data: bytes) -> bool:
    """True for bodies that are clearly not markup (PDF, images, archives)."""
    head = data[:1024].lstrip()
    if head.startswith(_BINARY_MAGIC):
        return True
    sample = data[:4096]
    if not sample:
        return False
    if sample.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 BOM: text
        return False
    controls = sum(sample.count(bytes([c])) for c in (0, 1, 2, 3, 4, 5, 6, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31))
    # UTF-16 without a BOM has a NUL in every other byte; markup sniffing
    # decides that case below, so only a high share of varied controls counts.
    if sample.count(b"\x00") * 2 >= len(sample) * 0.8 and (b"<\x00" in sample or b"\x00<" in sample):
        return False
    return controls > len(sample) * 0.1


def _utf16_without_bom(data: bytes) -> str | None:
    sample = data[:512]
    if sample.count(b"\x00") * 2 < len(sample) * 0.8:
        return None
    if b"<\x00" in sample:
        return "utf-16-le"
    if b"\x00<" in sample:
        return "utf-16-be"
    return None


def to_unicode(
    html: bytes,
    *,
    encoding: str | None = None,
    content_type: str | None = None,
) -> tuple[str, str]:
    """Decode ``html``; return ``(text, encoding_used)``.

    Invalid byte sequences become U+FFFD; NUL characters are dropped. Raises
    :class:`ExtractionError` for binary bodies (PDF, images, archives).
    """
    if looks_binary(html):
        raise ExtractionError("binary body: not an HTML document")
    header = content_type
    if encoding:
        if resolve_encoding(encoding) is None:
            raise ExtractionError(f"unknown encoding {encoding!r}")
        header = f"text/html; charset={encoding}"
    if not header or "charset" not in header.lower():
        wide = _utf16_without_bom(html)
        if wide is not None:
            header = f"text/html; charset={wide}"
        elif html_body_declared_encoding(html) is None:
            header = f"text/html; charset={_sniff(html)}"
    used, text = html_to_unicode(header, html)
    if "\x00" in text:
        text = text.replace("\x00", "")
    return text, used
