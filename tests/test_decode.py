"""Decoding edge cases: NUL padding, and data or code served as HTML."""

from __future__ import annotations

import json

import pytest

from scrapy_bte import ExtractionError, extract
from scrapy_bte.core.decode import MIN_HIGH_BYTES, legacy_encoding, looks_binary, non_html_format, to_unicode

ARTICLE = (
    "<html><head><title>Tide gauges</title></head><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav>"
    "<article><h1>Tide gauges return to the estuary</h1>"
    + "".join(
        f"<p>Paragraph {i}: volunteers read the restored tide gauges at the old pier every morning and "
        f"send the levels to the harbour office, which publishes them for the fishing boats.</p>"
        for i in range(16)
    )
    + "</article><footer>Contact the harbour office</footer></body></html>"
)
SENTENCE = "volunteers read the restored tide gauges at the old pier"


def test_nul_padding_after_a_document_is_not_binary():
    body = ARTICLE.encode("utf-8")
    assert 2500 < len(body) < 4096
    padded = body + b"\x00" * 2048
    assert not looks_binary(padded)
    result = extract(padded, content_type="text/html")
    assert SENTENCE in result.text and "\x00" not in result.text
    # Padding in front (a pre-allocated record) is the same.
    assert SENTENCE in extract(b"\x00" * 2048 + body).text


def test_control_bytes_other_than_nul_still_mean_binary():
    noise = bytes(b for b in range(1, 32) if b not in (9, 10, 12, 13)) * 60
    assert looks_binary(noise + ARTICLE.encode())
    with pytest.raises(ExtractionError, match="binary"):
        extract(noise + ARTICLE.encode())


def test_utf16_without_bom_is_still_recognised_by_its_nuls():
    for codec in ("utf-16-le", "utf-16-be"):
        data = ARTICLE.encode(codec)
        assert not looks_binary(data)
        assert SENTENCE in extract(data).text


JSON_BODY = json.dumps({"title": "not a page", "items": [{"id": i, "text": "words " * 20} for i in range(50)]}).encode()


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (JSON_BODY, "json"),
        (b"\xef\xbb\xbf  \n" + JSON_BODY, "json"),
        (b'[{"id": 1}, {"id": 2}]', "json"),
        (b"[1, 2, 3]", "json"),
        (b"{}", "json"),
        (b"/*! bundle v1 */\n!function(e){var t={};e.x=t}([]);", "javascript"),
        (b'"use strict";\nvar a = 1;', "javascript"),
        (b"(function () { document.title = 'x'; })();", "javascript"),
        (b"const config = { a: 1 };\nexport default config;", "javascript"),
        (b"import { a } from './a.js';\n", "javascript"),
        (b"window.dataLayer = window.dataLayer || [];", "javascript"),
        (b'jsonp_callback({"id": 1, "name": "x"});', "javascript"),
        (b"function init(a, b) { return a + b; }", "javascript"),
    ],
)
def test_json_and_script_bodies_are_recognised_and_refused(body, kind):
    assert non_html_format(body) == kind
    assert non_html_format(body.decode("utf-8")) == kind
    with pytest.raises(ExtractionError, match=f"{kind} body: not an HTML document"):
        extract(body, content_type="text/html")
    with pytest.raises(ExtractionError, match=kind):
        extract(body.decode("utf-8"))


@pytest.mark.parametrize(
    "body",
    [
        ARTICLE,
        "  \n" + ARTICLE,
        "[1] Footnotes come first on this page. " + ARTICLE,
        "{Draft} " + ARTICLE,
        "Function of the harbour: " + ARTICLE,
        "// a stray comment line\n" + ARTICLE,  # a page after all: page tags follow
        "var" + ARTICLE,
        "",
    ],
)
def test_pages_are_not_mistaken_for_data_or_code(body):
    assert non_html_format(body) is None
    assert non_html_format(body.encode()) is None
    if body:
        assert SENTENCE in extract(body.encode()).text


# Article paragraphs in scripts other than Latin, and in Latin scripts with their letters.
NON_LATIN = {
    "ja": "文化庁は一日、優れた作品を顕彰する今年度のメディア芸術祭賞を発表した。贈呈式は来月、東京都内で開かれる予定だという。",
    "zh": "北京市是中华人民共和国的首都，是全国的政治中心、文化中心，是世界著名古都和现代化国际城市。",
    "zh-tw": "臺北市是中華民國的首都，位於臺灣北部的臺北盆地，是全國政治、經濟與文化的中心。市政府今年推動多項交通建設，"
    "包括捷運新路線與自行車道，希望減少市區的空氣污染。許多市民表示，這些改變讓通勤更方便，也讓城市更適合居住。",
    "ko": "서울특별시는 대한민국의 수도이자 최대 도시이다. 한강을 중심으로 강북과 강남으로 나뉘어 있다.",
    "ru": "Москва является столицей России, городом федерального значения и административным центром округа.",
    "el": "Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας, με πολύ μεγάλη ιστορία.",
}
LATIN = {
    "fr": "L'été dernier, le gouvernement français a présenté à l'Assemblée une réforme très controversée.",
    "de": "Die Bundesregierung hat über die Zukunft der Energieversorgung beraten; größere Änderungen folgen.",
    "es": "El año pasado, la comisión española aprobó una reforma según la cual habrá más información pública.",
    "en": "The council’s “new” budget – approved on Monday – keeps the ferry running… for now.",
}


def _undeclared(paragraph: str) -> str:
    """A page with no charset anywhere: the charset was only in an HTTP header that is gone."""
    return (
        "<html><head><title>x</title></head><body><nav><a href='/'>Home</a></nav><article>"
        + "".join(f"<p>{paragraph}</p>" for _ in range(4))
        + "</article></body></html>"
    )


@pytest.mark.parametrize(
    "language,codec",
    [
        ("ja", "shift_jis"),
        ("ja", "euc_jp"),
        ("ja", "iso2022_jp"),
        ("zh", "gb18030"),
        ("zh", "gbk"),
        ("zh-tw", "big5"),
        ("ko", "euc_kr"),
        ("ru", "cp1251"),
        ("ru", "koi8_r"),
        ("el", "cp1253"),
    ],
)
def test_undeclared_legacy_encodings_of_other_scripts_are_detected(language, codec):
    page = _undeclared(NON_LATIN[language])
    text, used = to_unicode(page.encode(codec))
    assert text == page, used
    assert NON_LATIN[language][:20] in extract(page.encode(codec)).text


@pytest.mark.parametrize(
    "language,codec", [(lang, "cp1252") for lang in sorted(LATIN)] + [("fr", "latin_1"), ("de", "latin_1")]
)
def test_undeclared_latin_pages_stay_windows_1252(language, codec):
    page = _undeclared(LATIN[language])
    assert to_unicode(page.encode(codec)) == (page, "cp1252")


def test_latin_scripts_the_detector_cannot_tell_apart_stay_windows_1252():
    # Polish in windows-1250 differs from windows-1252 in a few letters: it is read as before.
    page = _undeclared("Zażółć gęślą jaźń: Warszawa leży nad Wisłą, w środkowo-wschodniej części kraju.")
    assert to_unicode(page.encode("cp1250"))[1] == "cp1252"


def test_a_few_high_bytes_never_run_the_detector(monkeypatch):
    import cchardet

    def refuse(data):
        raise AssertionError("detector called")

    monkeypatch.setattr(cchardet, "detect", refuse)
    page = _undeclared(LATIN["en"]).encode("cp1252")
    assert to_unicode(page)[1] == "cp1252"
    # Non-Latin words but fewer than MIN_HIGH_BYTES bytes of them.
    assert legacy_encoding(("<p>Tokyo 東京</p>" + "<p>plain text</p>" * 50).encode("shift_jis")) == "cp1252"
    assert len("東京".encode("shift_jis")) < MIN_HIGH_BYTES


@pytest.mark.parametrize("charset", ["utf-8", "shift_jis", "windows-1251", "hz-gb-2312", "cp500", "bogus"])
def test_an_ascii_body_reads_as_ascii_whatever_it_declares(charset):
    page = f'<html><head><meta charset="{charset}"></head><body><p>{ARTICLE}</p>&#x6587;</body></html>'
    assert to_unicode(page.encode("ascii")) == (page, "utf-8")


def test_an_ascii_body_with_iso_2022_escapes_still_follows_its_declaration():
    page = f'<html><head><meta charset="iso-2022-jp"></head><body><p>{NON_LATIN["ja"]}</p></body></html>'
    body = page.encode("iso2022_jp")
    assert body.isascii()
    assert to_unicode(body) == (page, "iso2022_jp")
