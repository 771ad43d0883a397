"""Label-like blocks: the short texts of page furniture, in many languages.

Around an article body stand short blocks that are not prose: ad labels
("Advertisement", "Anzeige", "広告"), share bars ("Share", "Teilen"),
list headings ("Related articles", "Mehr zum Thema", "Lee también"), tag
lines ("TAGS: ..."), photo credits ("Foto: ...", "Imagen: ..."), bylines
("By ...", "Von ...", "Por ...", "文/..."), a date or time alone. Their
words are the same on every site of a language, so a small fixed lexicon
finds them where markup does not; the model weighs the flags against the
block's other evidence (a heading "Share prices fall" is not a label: only
whole short blocks and block openings count).

Only blocks of at most :data:`MAX_WORDS` words are read, with set look-ups
and prefix tests; the date patterns run only on blocks with a digit and a
character they need. Those tests, a few microseconds per block in Python and
run on every short block of every page, are one C pass over each text
(``core/_furniture.c``) when it is built; :func:`text_flags_reference` is the
Python twin.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from itertools import accumulate, count
from typing import Any

import numpy as np

from . import accel
from .document import _TAG_FLAGS
from .hints import attribute_bits, block_hints, group_bit
from .memo import LastDocument
from .tree import path_or

#: Blocks with more words than this are never label-like.
MAX_WORDS = 20

# Whole-block labels (case-insensitive; trailing punctuation, arrows and counts allowed), by kind.
# fmt: off
_AD_LABELS = (
    "advertisement", "advertising", "ad", "ads", "sponsored", "sponsored content", "paid content", "promoted",
    "anzeige", "werbung", "publicidad", "publicité", "publicite", "pubblicità", "reklama", "advertentie",
    "annons", "mainos", "реклама", "διαφήμιση", "広告", "广告", "廣告", "광고", "تبلیغات", "إعلان", "publicidade",
    "anúncio", "reklam", "quảng cáo", "โฆษณา", "iklan",
    "story continues below advertisement", "article continues below advertisement", "continue reading below",
    "scroll to continue with content", "skip advert",
)
_ACTION_LABELS = (
    "share", "share this", "share this article", "share this story", "share article", "share on facebook",
    "share on twitter", "tweet", "email", "e-mail", "print", "copy link", "copy", "save", "save article",
    "teilen", "drucken", "artikel teilen", "link kopieren", "compartir", "imprimir", "partager", "imprimer",
    "condividi", "stampa", "udostępnij", "drukuj", "シェア", "ツイート", "印刷", "分享", "打印", "收藏",
    "listen", "listen to this article", "gift this article", "follow", "follow us", "folgen", "seguir",
    "suivre", "síguenos", "suivez-nous", "seguici", "obserwuj", "フォロー", "关注", "compartilhar", "delen",
    "поделиться", "paylaş", "chia sẻ", "sao chép liên kết", "แชร์", "คัดลอกลิงก์", "bagikan", "공유",
    "リンクをコピー", "复制链接", "reply", "report", "responder", "antworten", "melden", "répondre", "rispondi",
    "odpowiedz", "trả lời", "báo vi phạm", "ตอบกลับ", "แจ้งปัญหา", "返信", "報告", "回复", "举报",
)
# Headings of boxes around the body: a related list, a comment thread, a tag list, a newsletter box.
_BOX_LABELS = (
    "related", "related articles", "related stories", "related content", "related news", "related posts",
    "related topics", "related coverage", "read more", "read also", "read next", "more on this", "more on this story",
    "more stories", "more news", "more from", "recommended", "recommended for you", "recommended stories",
    "most read", "most popular", "most viewed", "trending", "trending now", "latest", "latest news",
    "top stories", "you may also like", "you might also like", "also read", "see also", "further reading",
    "mehr zum thema", "lesen sie auch", "auch interessant", "das könnte sie auch interessieren", "weitere artikel",
    "meistgelesen", "leer más", "lee también", "lea también", "te puede interesar", "noticias relacionadas",
    "más noticias", "lo más leído", "lire aussi", "à lire aussi", "a lire aussi", "sur le même sujet",
    "les plus lus", "à voir aussi", "leggi anche", "potrebbe interessarti", "i più letti", "czytaj też",
    "czytaj także", "zobacz też", "zobacz także", "polecane", "najczęściej czytane", "leia também",
    "leia mais", "veja também", "関連記事", "関連ニュース", "おすすめ記事", "人気記事", "相关文章", "相关阅读",
    "相关新闻", "推荐阅读", "延伸阅读", "熱門新聞", "相關新聞", "читайте также", "по теме", "notícias relacionadas",
    "mais lidas", "gerelateerd", "lees ook", "похожие статьи", "ilgili haberler", "tin liên quan", "xem thêm",
    "đọc nhiều nhất", "ข่าวที่เกี่ยวข้อง", "อ่านเพิ่มเติม", "ข่าวยอดนิยม", "berita terkait", "baca juga",
    "관련기사", "많이 본 뉴스", "あわせて読みたい", "よく読まれている記事", "阅读排行", "热门文章", "熱門文章",
    "tags", "tag", "topics", "topic", "keywords", "filed under", "categories", "category", "schlagwörter",
    "schlagworte", "themen", "etiquetas", "temas", "mots-clés", "mots clés", "sujets", "argomenti", "tagi",
    "タグ", "トピック", "标签", "標籤", "키워드", "chủ đề", "แท็ก",
    "newsletter", "subscribe", "sign up", "subscribe now", "abonnieren", "jetzt abonnieren", "suscríbete",
    "suscribirse", "s'abonner", "abonnez-vous", "abbonati", "iscriviti", "subskrybuj", "订阅",
    "comments", "leave a comment", "post a comment", "add a comment", "join the conversation", "comment",
    "kommentare", "kommentar", "kommentieren", "comentarios", "comentar", "commentaires", "commenter",
    "commenti", "komentarze", "komentarz", "コメント", "评论", "留言", "評論", "comentários", "reacties",
    "комментарии", "yorumlar", "bình luận", "ความคิดเห็น", "komentar", "댓글", "网友评论",
)
_NAV_LABELS = (
    "sign in", "log in", "login", "register", "anmelden", "registrieren", "iniciar sesión", "se connecter",
    "accedi", "zaloguj", "登録", "ログイン", "登录", "注册",
    "back to top", "top", "home", "menu", "search", "close", "next", "previous", "next article",
    "previous article", "nach oben", "zurück", "volver arriba", "retour en haut", "torna su", "startseite",
    "inicio", "accueil", "ホーム", "首页", "photo", "photos", "foto", "fotos", "image", "video", "gallery",
    "bild", "imagen", "写真", "图片", "動画", "视频",
)
# fmt: on
_LABELS = _AD_LABELS + _ACTION_LABELS + _BOX_LABELS + _NAV_LABELS
_BOX_SET = frozenset(_BOX_LABELS)
_ACTION_BOX_SET = frozenset(_ACTION_LABELS) | _BOX_SET
_LABEL_SET = frozenset(_LABELS)
#: What may stand around a label: punctuation, arrows, a count ("Comments (4)"), and the bullets and
#: marks that open one ("・関連記事", "■ Related", "▼ Anzeige").
_LABEL_TAIL = " \t:：.!»›>→…|-–—()[]（）【】0123456789·•件条・■□▼▽▲△►▶▷●○◆◇★☆※＞》〉〔〕［］｜«‹<"
# Words that open a label with its value: "Tags: a, b", "Quelle: dpa", "Lesen Sie auch: ...".
# fmt: off
_LABEL_COLON = frozenset((
    "tags", "tag", "topics", "keywords", "filed under", "categories", "category", "schlagwörter", "schlagworte",
    "themen", "etiquetas", "temas", "mots-clés", "mots clés", "sujets", "argomenti", "tagi", "タグ", "标签", "標籤",
    "source", "sources", "quelle", "quellen", "fuente", "fuentes", "źródło", "出典", "来源", "來源", "related",
    "lesen sie auch", "mehr zum thema", "lee también", "lea también", "leer más", "lire aussi", "à lire aussi",
    "leggi anche", "czytaj też", "czytaj także", "zobacz też", "read more", "read also", "see also", "also read",
    "more", "siehe auch", "ver también", "voir aussi", "vedi anche", "関連", "相关", "相關", "related articles",
    "related stories", "recommended", "most read", "advertisement", "anzeige", "sponsored",
    "leia também", "veja também", "lees ook", "читайте также", "xem thêm", "tin liên quan", "chủ đề",
    "อ่านเพิ่มเติม", "แท็ก", "baca juga", "あわせて読みたい", "トピック", "延伸阅读", "相关阅读", "推荐阅读",
))
# fmt: on
# A byline's first word ("By Jane Doe", "Von ...", "Por ...", "Par ...").
# fmt: off
_BYLINE_WORDS = frozenset((
    "by", "von", "por", "par", "di", "door", "av", "af", "przez", "от", "tekst:", "texto:", "texte:", "text:",
    "autor:", "autora:", "auteur:", "author:", "autor", "author", "redacción", "redaktion", "rédaction",
    "redazione", "redakcja", "oleh", "โดย", "tác giả:", "автор:", "yazar:",
))
# fmt: on
_BYLINE_PAIRS = (
    "written by",
    "posted by",
    "publicado por",
    "escrito por",
    "geschrieben von",
    "reported by",
    "text von",
    "ein kommentar von",
)
_BYLINE_CJK = (
    "文/",
    "文／",
    "文：",
    "作者",
    "記者",
    "记者",
    "撰文",
    "編集部",
    "编辑",
    "責任編輯",
    "责任编辑",
    "取材",
    "執筆",
)
# A credit's first word, followed by ":" or "/" ("Photo: ...", "Foto: ...", "Imagen: ...").
# fmt: off
_CREDIT_WORDS = frozenset((
    "photo", "photos", "foto", "fotos", "fotó", "image", "images", "imagen", "imágenes", "bild", "bilder",
    "picture", "pictures", "credit", "credits", "crédit", "crédito", "créditos", "illustration", "grafik",
    "gráfico", "graphic", "video", "source", "quelle", "fuente", "写真", "图片", "圖片", "画像", "資料", "提供",
    "photograph", "fotografía", "photographie",
))
# fmt: on
_CREDIT_STARTS = (
    "©",
    "(c) ",
    "copyright ",
    "getty images",
    "reuters/",
    "ap photo",
    "afp ",
    "afp/",
    "dpa ",
    "dpa/",
    "epa ",
    "epa/",
    "shutterstock",
    "imago ",
    "istock",
    "picture alliance",
    "courtesy of",
    "foto/",
    "photo/",
    "image courtesy",
)
_READ_TIME_RE = re.compile(
    r"\d+\s*(?:-\s*)?(?:min(?:ute)?s?\.?\s+(?:read|lesezeit|de lectura|de lecture|di lettura|czytania)|"
    r"minuten? lesezeit|分で読める)|(?:lesezeit|tiempo de lectura|temps de lecture|reading time)\s*[:：]?\s*\d",
    re.IGNORECASE,
)
# fmt: off
_MONTHS = (
    "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    "september|october|november|december|januar|februar|märz|maerz|mai|juni|juli|oktober|dezember|enero|febrero|"
    "marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|janvier|février|fevrier|"
    "mars|avril|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|gennaio|febbraio|aprile|"
    "maggio|giugno|luglio|settembre|ottobre|dicembre|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|"
    "sierpnia|września|października|listopada|grudnia"
)
# fmt: on
# A date or time in digits: 2024-05-01, 1.5.2024, 05/01/24, 12:30, 2024年5月, 5月1日, 3時間前.
# It reads \d{1,4}[./-]\d{1,2}[./-]\d{2,4} | \d{1,2}:\d{2} | \d{4}\s*年 | \d{1,2}\s*月\s*\d{1,2}\s*日 | \d+\s*(?:分|時間|日)前
# with the first digit of every branch taken out in front, so that a search skips in C to the next digit.
_NUMERIC_DATE_RE = re.compile(
    r"\d(?:\d{0,3}[./-]\d{1,2}[./-]\d{2,4}|\d?:\d{2}|\d{3}\s*年|\d?\s*月\s*\d{1,2}\s*日|\d*\s*(?:分|時間|日)前)"
)
#: Words that make a number a date: month names (English, German, Spanish, French, Italian, Polish)
#: and "ago" in a few languages ("3 hours ago", "vor 3 Stunden", "hace 3 horas").
_DATE_WORDS = frozenset(_MONTHS.split("|")) | frozenset(("ago", "vor", "hace", "il", "fa", "temu"))
_DATE_SPLIT_RE = re.compile(r"[\W\d_]+")
#: Without one of these :data:`_NUMERIC_DATE_RE` cannot match: a digit followed by one of
#: :data:`_DATE_AFTER_DIGIT`, or one of :data:`_DATE_MARKS` anywhere (the C pass tries the
#: pattern on the texts holding one only).
_DATE_AFTER_DIGIT = "./-:"
_DATE_MARKS = "年月前"
_READ_TIME_WORDS = ("min", "lesezeit", "lectura", "lecture", "lettura", "czytania", "分で読")
_DIGIT_RE = re.compile(r"\d")
#: Any of :data:`_READ_TIME_WORDS` (plain substrings), in one search.
_READ_TIME_WORD_RE = re.compile("|".join(map(re.escape, _READ_TIME_WORDS)))
#: From a line's first digit to its end: one match per line holding a digit.
_DIGIT_LINE_RE = re.compile(r"\d[^\n]*")


def _lines_with_digits(lows: list[str]) -> list[int]:
    """Indices of the texts holding a digit: one regex pass over all of them (joined by line
    breaks) rather than one search per block."""
    joined = "\n".join(lows)
    if joined.count("\n") != len(lows) - 1:  # a text holding a line break
        return [i for i, t in enumerate(lows) if _DIGIT_RE.search(t) is not None]
    starts = np.cumsum(np.fromiter(map(len, lows), np.int64, len(lows)) + 1)
    found = [m.start() for m in _DIGIT_LINE_RE.finditer(joined)]
    return np.searchsorted(starts, found, "right").tolist()


#: The last document's flags: features and the body rules read them for the same page.
_last = LastDocument()
#: Column names of :func:`label_features`.
NAMES = (
    "label",
    "label_colon",
    "byline_start",
    "credit_start",
    "date_like",
    "read_time",
    "log_repeats",
    "after_image",
    "before_image",
)


# Short prefix tuples (each test is one C-level ``str.startswith``); word lists are sets.
_BYLINE_FIRST = frozenset(w for w in _BYLINE_WORDS if not w.endswith(":"))
_BYLINE_HEADS = frozenset(w.rstrip(":") for w in _BYLINE_WORDS if w.endswith(":"))
_BYLINE_PREFIXES = _BYLINE_PAIRS + _BYLINE_CJK


#: Bits of :func:`text_flags` beyond the first four (columns 0-3 of :func:`label_features`): the
#: date evidence, and which texts the reading-time pattern needs to read. Set on texts holding a digit only.
_DIGIT = 16  # a decimal digit (``\d``)
_DATE_WORD = 32  # one of _DATE_WORDS, as a whole run of letters
_NUMERIC_DATE = 64  # _NUMERIC_DATE_RE matches
_READ_TIME_WORD = 128  # one of _READ_TIME_WORDS
_FURNITURE = accel.load("scrapy_bte.core._furniture")
if _FURNITURE.module is not None:  # the C pass reads this module's word lists, never copies of them
    _FURNITURE.module.configure(
        _LABEL_TAIL,
        _LABEL_SET,
        _LABEL_COLON,
        _BYLINE_FIRST,
        _BYLINE_HEADS,
        _BYLINE_PREFIXES,
        _CREDIT_WORDS,
        _CREDIT_STARTS,
        _DATE_WORDS,
        _DATE_AFTER_DIGIT,
        _DATE_MARKS,
        _READ_TIME_WORDS,
    )


def text_flags(lows: list[str], *, accelerated: bool | None = None) -> np.ndarray:
    """One byte of flags per lower-cased short text (bits: label, label_colon, byline_start,
    credit_start, then ``_DIGIT`` ... ``_READ_TIME_WORD``).

    One C pass over each text when ``scrapy_bte.core._furniture`` is built (the Python tests
    build a dozen small strings per text), else :func:`text_flags_reference`; the two agree.
    """
    c = _FURNITURE.use(accelerated)
    if c is None:
        return text_flags_reference(lows)
    return np.frombuffer(c.flags(lows), np.uint8)


def text_flags_reference(lows: list[str]) -> np.ndarray:
    """The Python reference of :func:`text_flags`."""
    # "Tags: ...", "Foto: ...": the words before a colon (or a slash, for credits).
    heads = [t.partition(":")[0].partition("：")[0].rstrip() for t in lows]
    slash = [t.partition("/")[0].rstrip() for t in lows]
    firsts = [t.split(None, 1) for t in lows]
    label = [t.strip(_LABEL_TAIL) in _LABEL_SET for t in lows]
    colon = [h in _LABEL_COLON and len(h) < len(t) for h, t in zip(heads, lows)]
    byline = [
        (len(f) > 1 and f[0] in _BYLINE_FIRST) or h in _BYLINE_HEADS or t.startswith(_BYLINE_PREFIXES)
        for f, h, t in zip(firsts, heads, lows)
    ]
    credit = [
        (h in _CREDIT_WORDS and len(h) < len(t))
        or (c in _CREDIT_WORDS and len(c) < len(t))
        or t.startswith(_CREDIT_STARTS)
        for h, c, t in zip(heads, slash, lows)
    ]
    bits = np.packbits(np.array([label, colon, byline, credit], dtype=bool).reshape(4, -1), axis=0, bitorder="little")
    bits = bits.reshape(-1)
    for i in _lines_with_digits(lows):
        t = lows[i]
        bits[i] |= (
            _DIGIT
            | (_DATE_WORD if not _DATE_WORDS.isdisjoint(_DATE_SPLIT_RE.split(t)) else 0)
            | (_NUMERIC_DATE if _NUMERIC_DATE_RE.search(t) is not None else 0)
            | (_READ_TIME_WORD if _READ_TIME_WORD_RE.search(t) is not None else 0)
        )
    return bits


def _date_columns(lows: list[str], bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Columns ``date_like`` and ``read_time`` of the texts ``lows`` with flags ``bits``: the
    reading-time pattern runs only where the flags say it can match."""
    date = (bits & (_DATE_WORD | _NUMERIC_DATE)) != 0
    read = np.zeros(len(lows), dtype=bool)
    maybe = (bits & _READ_TIME_WORD).nonzero()[0].tolist()
    if maybe:
        read[maybe] = [_READ_TIME_RE.search(lows[i]) is not None for i in maybe]
    return date, read


def _repeats(texts: list[str], accelerated: bool | None = None) -> np.ndarray | None:
    """How many times each text occurs (float64), or None when every text occurs once; a C pass
    when built (``collections.Counter`` and a look-up per text cost about 60 ns a block)."""
    c = _FURNITURE.use(accelerated)
    if c is None:
        counts = Counter(texts)
        if len(counts) == len(texts):
            return None
        return np.fromiter(map(counts.__getitem__, texts), np.float64, len(texts))
    out = np.empty(len(texts))
    return out if c.repeats(texts, out) < len(texts) else None


def _lowered(texts: list[str], rows: list[int], accelerated: bool | None = None) -> list[str]:
    """``[texts[i].lower() for i in rows]``; in C when built (an ASCII text is lowered there
    without a method call, itself when it has no capital)."""
    c = _FURNITURE.use(accelerated)
    if c is None:
        return [texts[i].lower() for i in rows]
    return c.lowered(texts, rows)


def _flag_columns(
    out: np.ndarray, rows: np.ndarray, lows: list[str], bits: np.ndarray, accelerated: bool | None = None
) -> None:
    """Columns 0-5 of :func:`label_features` for the blocks ``rows`` (texts ``lows``, flags ``bits``):
    written by one C call when built (else a fancy-index assignment per column), the reading-time
    pattern run where the flags say it can match."""
    c = _FURNITURE.use(accelerated)
    if c is None:
        out[rows, :4] = np.unpackbits(bits[:, None], axis=1, count=4, bitorder="little")
        out[rows, 4], out[rows, 5] = _date_columns(lows, bits)
        return
    for i in c.columns(bits, rows, out):
        if _READ_TIME_RE.search(lows[i]) is not None:
            out[rows[i], 5] = 1.0


def label_features(doc: Any, *, accelerated: bool | None = None) -> np.ndarray:
    """``(n_blocks, len(NAMES))`` flags of label-like blocks (see the module docstring).

    Cached for the last document (when ``accelerated`` is None); ``accelerated`` as in
    :func:`text_flags`. :func:`label_features_reference` gives the same array.
    """
    cached = _last.get(doc) if accelerated is None else None
    if cached is not None:
        return cached
    n = doc.n_blocks
    out = np.zeros((n, len(NAMES)), dtype=np.float64)
    texts = doc.texts
    rows = (doc.words <= MAX_WORDS).nonzero()[0]
    if len(rows):
        # One call per text: only the texts with a non-ASCII character take str.lower's slow path
        # (one joined string would take it for all of them).
        lows = _lowered(texts, rows.tolist(), accelerated)
        _flag_columns(out, rows, lows, text_flags(lows, accelerated=accelerated), accelerated)
    repeats = _repeats(texts, accelerated)
    if repeats is not None:
        out[:, 6] = np.log(repeats)
    out[:, 7:9] = _next_to_images(doc, accelerated=accelerated)
    if accelerated is None:
        _last.put(doc, out)
    return out


def label_features_reference(doc: Any) -> np.ndarray:
    """The Python reference of :func:`label_features` (not cached): one test after another per text."""
    n = doc.n_blocks
    out = np.zeros((n, len(NAMES)), dtype=np.float64)
    texts = doc.texts
    rows = np.flatnonzero(doc.words <= MAX_WORDS)
    if len(rows):
        short = [texts[b] for b in rows.tolist()]
        lows = "\n".join(short).lower().split("\n")
        if len(lows) != len(short):  # a block holding a line break
            lows = [t.lower() for t in short]
        out[rows, 0] = [t.strip(_LABEL_TAIL) in _LABEL_SET for t in lows]
        # "Tags: ...", "Foto: ...": the words before a colon (or a slash, for credits).
        heads = [t.partition(":")[0].partition("：")[0].rstrip() for t in lows]
        slash = [t.partition("/")[0].rstrip() for t in lows]
        firsts = [t.split(None, 1) for t in lows]
        out[rows, 1] = [h in _LABEL_COLON and len(h) < len(t) for h, t in zip(heads, lows)]
        out[rows, 2] = [
            (len(f) > 1 and f[0] in _BYLINE_FIRST) or h in _BYLINE_HEADS or t.startswith(_BYLINE_PREFIXES)
            for f, h, t in zip(firsts, heads, lows)
        ]
        out[rows, 3] = [
            (h in _CREDIT_WORDS and len(h) < len(t))
            or (c in _CREDIT_WORDS and len(c) < len(t))
            or t.startswith(_CREDIT_STARTS)
            for h, c, t in zip(heads, slash, lows)
        ]
        digits = _lines_with_digits(lows)
        if digits:
            at = rows[digits]
            out[at, 4] = [
                _NUMERIC_DATE_RE.search(lows[i]) is not None
                or not _DATE_WORDS.isdisjoint(_DATE_SPLIT_RE.split(lows[i]))
                for i in digits
            ]
            out[at, 5] = [
                _READ_TIME_WORD_RE.search(lows[i]) is not None and _READ_TIME_RE.search(lows[i]) is not None
                for i in digits
            ]
    counts = Counter(texts)
    if len(counts) < n:
        out[:, 6] = np.log(np.fromiter(map(counts.__getitem__, texts), np.float64, n))
    out[:, 7:9] = _next_to_images_reference(doc)
    return out


#: The flag bits of an ``<img>`` tag in a document's tag flags.
_IMG_FLAGS = _TAG_FLAGS.get("img", 0)


def _next_to_images(doc: Any, *, accelerated: bool | None = None) -> np.ndarray:
    """Per block, whether an ``<img>`` stands between it and the previous (column 0) or next (column 1)
    block of text: where captions and credits sit, whatever their markup is called.

    :func:`_next_to_images_reference` gives the same array. One C pass over the tags when built
    (``accelerated`` as in :func:`text_flags`); else only the tags with an image's flag bits are
    compared by name. A block's segments are one run, so tag ``t`` (between segments ``t`` and
    ``t + 1``) is inside a block when both segments belong to it, and the block before it is the
    running maximum of the segments' blocks: no per-block search.
    """
    n = doc.n_blocks
    out = np.zeros((n, 2))
    names = doc.tag_names
    flags = doc.tag_flags
    if len(flags) != len(names):  # a document without the tag flags
        return _next_to_images_reference(doc)
    c = _FURNITURE.use(accelerated)
    if c is not None:
        c.beside(names, "img", np.ascontiguousarray(doc.seg_block, dtype=np.int64), out)
        return out
    images = [t for t in np.flatnonzero(flags == _IMG_FLAGS).tolist() if names[t] == "img"]
    if not images:
        return out
    blocks = doc.seg_block
    tags = np.array(images)
    here = blocks[tags]
    outside = (here < 0) | (blocks[tags + 1] != here)
    prev = np.maximum.accumulate(blocks)[tags[outside]]
    after = prev + 1
    out[after[after < n], 0] = 1.0
    out[prev[prev >= 0], 1] = 1.0
    return out


def _next_to_images_reference(doc: Any) -> np.ndarray:
    """The Python reference of :func:`_next_to_images`: each block's first and last segments."""
    n = doc.n_blocks
    out = np.zeros((n, 2))
    names = doc.tag_names
    images: list[int] = []
    at = -1
    for _ in range(names.count("img")):  # list.index runs in C
        at = names.index("img", at + 1)
        images.append(at)
    if not images:
        return out
    with_text = np.flatnonzero(doc.seg_block >= 0)
    owner = doc.seg_block[with_text]
    blocks = np.arange(n)
    first_seg = with_text[np.searchsorted(owner, blocks, "left")]
    last_seg = with_text[np.searchsorted(owner, blocks, "right") - 1]
    tags = np.array(images)
    after = np.searchsorted(first_seg, tags, "right")  # the block the image stands before
    prev = after - 1
    outside = (prev < 0) | (last_seg[np.maximum(prev, 0)] <= tags)  # not inside the previous block's text
    out[after[outside & (after < n)], 0] = 1.0
    out[prev[outside & (prev >= 0)], 1] = 1.0
    return out


_TOKEN_RE = re.compile(r"\w+")
#: Blocks before the article's first paragraph that may hold its headline, kicker, byline and date.
TOP_REACH = 8
#: Longest byline or dateline block, in words.
BYLINE_WORDS = 25


#: The characters outside ASCII whose lower case holds an ASCII letter ("İ" -> "i̇", "K" (Kelvin) -> "k").
_LOWER_TO_ASCII = ("\u0130", "\u212a")


def _texts_holding(texts: list[str], words: list[str]) -> set[int]:
    """Indices of the texts whose lower case holds one of ``words``, and maybe a few more.

    Lower-casing a page's worth of text outside ASCII costs about 3 ns a character. ASCII words
    are looked for in the UTF-8 bytes of the joined texts lowered as ASCII instead: a character
    outside ASCII, but for :data:`_LOWER_TO_ASCII`, lowers to no ASCII letter and is encoded
    in bytes outside ASCII, so every text whose lower case holds the word holds it there too.
    """
    joined = "\n".join(texts)
    lines = joined.count("\n") == len(texts) - 1  # no text holds a line break
    if lines and all(map(str.isascii, words)) and not any(c in joined for c in _LOWER_TO_ASCII):
        raw = joined.encode("utf-8", "surrogatepass").lower()
        found: set[int] = set()
        for needle in map(str.encode, words):
            line = last = 0
            at = raw.find(needle)
            while at >= 0:
                line += raw.count(b"\n", last, at)
                found.add(line)
                last = raw.find(b"\n", at)  # on to the next text
                if last < 0:
                    break
                at = raw.find(needle, last)
        return found
    low = joined.lower()
    if len(low) != len(joined):  # a character whose lower case is longer shifts offsets
        texts = [t.lower() for t in texts]
        low = "\n".join(texts)
    ends = list(accumulate(len(t) + 1 for t in texts))
    found = set()
    for word in words:
        at = low.find(word)
        while at >= 0:
            found.add(bisect_right(ends, at))
            at = low.find(word, at + 1)
    return found


def headline_mask(doc: Any, title: str | None, end: int | None = None) -> np.ndarray:
    """Blocks that repeat the page title (the headline): at least 80 % of the words in common both ways;
    with ``end``, only among the blocks before it (the rest of the mask stays false).

    Only blocks holding one of the title's longest words can: a block missing all of the
    ``k - ceil(0.8 k) + 1`` longest of the title's ``k`` words misses too many. Finding those
    words in the candidates' joined text leaves a few blocks to tokenise instead of every one
    of about the title's length (:func:`headline_mask_reference`, the same mask).
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    wanted = set(_TOKEN_RE.findall(title.lower())) if title else set()
    if title is None or len(wanted) < 2:
        return out
    # Only blocks of about the title's length can share 80 % of its words both ways.
    size = len(title)
    words, chars = (doc.words, doc.chars) if end is None else (doc.words[:end], doc.chars[:end])
    near = (words >= 1) & (words <= 40) & (chars >= 0.4 * size) & (chars <= 2.5 * size + 20)
    blocks = near.nonzero()[0].tolist()
    if not blocks:
        return out
    texts = doc.texts
    spare = len(wanted) - math.ceil(0.8 * len(wanted))
    found = _texts_holding([texts[b] for b in blocks], sorted(wanted, key=len, reverse=True)[: spare + 1])
    need = 0.8 * len(wanted)
    for i in sorted(found):
        b = blocks[i]
        text = texts[b].lower()
        # A word in common is a substring too: counting substrings rules most candidates out untokenised.
        if sum(map(text.__contains__, wanted)) < need:
            continue
        have = set(_TOKEN_RE.findall(text))
        common = len(have & wanted)
        if common >= 0.8 * len(wanted) and common >= 0.8 * len(have):
            out[b] = True
    return out


def headline_mask_reference(doc: Any, title: str | None) -> np.ndarray:
    """The Python reference of :func:`headline_mask`: every block of about the title's length tokenised."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    wanted = set(_TOKEN_RE.findall(title.lower())) if title else set()
    if title is None or len(wanted) < 2:
        return out
    size = len(title)
    near = (doc.words >= 1) & (doc.words <= 40) & (doc.chars >= 0.4 * size) & (doc.chars <= 2.5 * size + 20)
    for b in np.flatnonzero(near).tolist():
        have = set(_TOKEN_RE.findall(doc.texts[b].lower()))
        common = len(have & wanted)
        out[b] = common >= 0.8 * len(wanted) and common >= 0.8 * len(have)
    return out


def top_furniture(doc: Any, first: int, title: str | None) -> np.ndarray:
    """Headline, kicker, byline and dateline blocks standing just before block ``first`` (the
    article's first paragraph): the headline anywhere before it, and the short blocks of the
    :data:`TOP_REACH` before it that read as a byline, date, reading time or credit or sit in
    markup named byline/author/date."""
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    if n == 0 or first <= 0:
        return out
    # Only a headline before ``first`` counts: the blocks after it are not searched.
    head = headline_mask(doc, title, first)
    out[:first] = head[:first]
    lo = max(0, first - TOP_REACH)
    heads = head[:first].nonzero()[0]
    if len(heads):
        lo = min(lo, int(heads[-1]))
    # Only the blocks lo..first-1 are read, about TOP_REACH of them: a Python test per block
    # costs less than a dozen array operations of a few microseconds each.
    flags = label_features(doc)[lo:first, 2:6].tolist()
    path, own = block_hints(doc)
    byline = ((path[lo:first] | own[lo:first]) & group_bit("byline")).tolist()
    words = doc.words[lo:first].tolist()
    for b, (byline_start, credit, date, read_time), hint, size in zip(count(lo), flags, byline, words):
        if size <= BYLINE_WORDS and (
            byline_start > 0 or credit > 0 or read_time > 0 or hint > 0 or (date > 0 and size <= 8)
        ):
            out[b] = True
    return out


#: Label-like blocks of at most this many words are never body text.
LABEL_WORDS = 6
#: A box heading has at most this many words (letters of scripts without spaces count fractions).
BOX_WORDS = 8
#: A kept block of at least this many words is the body's first paragraph (for :func:`edge_mask`).
FIRST_PARAGRAPH_WORDS = 20


def edge_mask(doc: Any, keep: np.ndarray, title: str | None) -> np.ndarray:
    """Blocks that are never the article body, whatever the model scored them.

    The headline, kicker, byline and dateline before the body's first
    paragraph (:func:`top_furniture`), and label-like blocks anywhere: a
    lone label ("Advertisement", "Share", "Related articles"), a label
    with its value ("Tags: ...", "Lesen Sie auch: ..."), a reading time;
    boxes a heading names as furniture (:func:`boxed_furniture`), photo
    captions (:func:`image_captions`) and sign-up boxes (:func:`signup_boxes`).
    """
    flags = label_features(doc)
    out = ((flags[:, 0] > 0) & (doc.words <= LABEL_WORDS)) | (flags[:, 1] > 0) | (flags[:, 5] > 0)
    # An action or box label with its value: "Share this story: Facebook X Email", "Comments: 4".
    # ``nonzero`` on the 1-d masks, not ``np.flatnonzero`` (which ravels and dispatches first).
    texts = doc.texts
    for b in (keep & (doc.words <= MAX_WORDS)).nonzero()[0].tolist():
        text = texts[b]
        if ":" in text and text.partition(":")[0].lower().strip() in _ACTION_BOX_SET:
            out[b] = True
    long_kept = (keep & (doc.words >= FIRST_PARAGRAPH_WORDS)).nonzero()[0]
    if len(long_kept):
        out |= top_furniture(doc, int(long_kept[0]), title)
    out |= image_captions(doc)
    if np.count_nonzero(keep):
        out |= boxed_furniture(doc, keep) | signup_boxes(doc, keep)
        out |= edge_notes(doc, keep, out)
    return out


#: A dateline at the body's edge holds at most this many words ("25. Oktober 2025, 17.52 Uhr").
EDGE_DATE_WORDS = 8
#: A newsletter promotion holds at most this many words.
PROMO_WORDS = 40
# A newsletter promotion: the word and an invitation, in the languages measured.
_NEWSLETTER_RE = re.compile(r"newsletter|nieuwsbrief|boletín|lettre d.information|biuletyn", re.IGNORECASE)
_INVITE_RE = re.compile(
    r"sign(?:ing)?[ -]up|subscri|inbox|deliver|receive|get |join|register|"
    r"abonn|anmeld|melden sie|registrier|erhalten|bestellen|"
    r"inscri|recev|suscr|recib|iscriv|ricev|zapisz|otrzym|aanmeld|ontvang",
    re.IGNORECASE,
)


#: Words a dateline may hold besides its date ("Stand:", "Published on", "Uhr").
EDGE_DATE_OTHER_WORDS = 2
_LETTER_RUN_RE = re.compile(r"[^\W\d_]+")


def _dateline(text: str, words: float) -> bool:
    """Whether a block whose flags read as a date is a dateline: short, and little but the date."""
    if words > EDGE_DATE_WORDS:
        return False
    others = [w for w in _LETTER_RUN_RE.findall(text.lower()) if w not in _DATE_WORDS]
    return len(others) <= EDGE_DATE_OTHER_WORDS


def _promotion(text: str, words: float) -> bool:
    """Whether a block invites the reader to a newsletter ("Sign up for our daily newsletter ...")."""
    return words <= PROMO_WORDS and _NEWSLETTER_RE.search(text) is not None and _INVITE_RE.search(text) is not None


def edge_notes(doc: Any, keep: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Datelines and newsletter promotions at the body's edges: the kept blocks read from each end
    of the body inwards while they are promotions, then one dateline (blocks ``known`` as
    furniture are stepped over), so a date or a promotion inside the text stays. A dateline is a
    short block whose flags read as a date and which holds little else (:func:`_dateline`), next
    to a block that is not dated (the top one is :func:`top_furniture`'s too; pages print one at
    the foot as well)."""
    out = np.zeros(doc.n_blocks, dtype=bool)
    kept = (keep & ~known).nonzero()[0].tolist()
    if not kept:
        return out
    dated = label_features(doc)[:, 4]
    texts = doc.texts
    words = doc.words
    for order in (kept, kept[::-1]):
        for k, b in enumerate(order):
            size = float(words[b])
            if _promotion(texts[b], size):
                out[b] = True
                continue
            inner = order[k + 1] if k + 1 < len(order) else None
            # One dateline, not a run of dated blocks (a table of dates is content).
            if dated[b] > 0 and _dateline(texts[b], size) and (inner is None or dated[inner] == 0):
                out[b] = True
            break
    if out[kept].all():
        return np.zeros(doc.n_blocks, dtype=bool)  # nothing else kept: not an edge
    return out


def _positions(items: list[str], name: str, start: int = 0) -> list[int]:
    """Where ``name`` occurs in ``items`` from ``start`` on (``list.index`` steps over the rest in C)."""
    out: list[int] = []
    at = start - 1
    for _ in range(items.count(name)):
        try:
            at = items.index(name, at + 1)
        except ValueError:
            break
        out.append(at)
    return out


def signup_boxes(doc: Any, keep: np.ndarray) -> np.ndarray:
    """Newsletter and sign-up boxes: an element named for subscribing (:mod:`scrapy_bte.core.hints`)
    that holds a ``<form>``, unless it also holds the body's core (paywalled bodies sit in
    elements named "premium" or "subscriber", without a form of their own)."""
    names = doc.el_name
    n_el = len(names)
    forms = _positions(names, "form", 1)
    if not forms:
        return np.zeros(doc.n_blocks, dtype=bool)
    # Sets of element numbers: a page's forms sit a dozen elements deep, and a Python set
    # test costs less than reading or writing one item of an array.
    parents = doc.el_parent
    holds_form: set[int] = set()
    for el in forms:
        while el > 0 and el not in holds_form:
            holds_form.add(el)
            el = parents[el]
    bit = group_bit("subscribe")
    raws = doc.el_attrs
    boxes = {el for el in sorted(holds_form) if attribute_bits(raws[el]) & bit}
    if boxes:
        core = int(doc.container[int(np.argmax(np.where(keep, doc.words, -1.0)))])
        while core > 0:
            boxes.discard(core)
            core = parents[core]
    if not boxes:
        return np.zeros(doc.n_blocks, dtype=bool)
    box = np.zeros(n_el, dtype=np.int64)
    box[list(boxes)] = 1
    return path_or(doc, box)[doc.container] > 0


#: Longest caption, in words.
CAPTION_WORDS = 40


def image_captions(doc: Any) -> np.ndarray:
    """Short blocks right after an ``<img>`` that are alone in their element (a photo's caption cell or
    box, whatever its class is called); a paragraph after an image inside the body shares its
    element with the body's other paragraphs and stays."""
    after_image = label_features(doc)[:, 7] > 0
    if not np.count_nonzero(after_image):  # ``ndarray.any`` costs a microsecond on small pages
        return after_image
    container = np.asarray(doc.container, dtype=np.int64)
    alone = np.bincount(container)[container] == 1  # its length is already the largest number + 1
    return after_image & alone & (doc.words <= CAPTION_WORDS) & (container > 0)


def _box_heading(text: str) -> bool:
    return text.lower().strip(_LABEL_TAIL) in _BOX_SET


def _path(block: int, container: list[int], parents: list[int], paths: dict[int, frozenset[int]]) -> frozenset[int]:
    """The elements a block lies inside (its container and the container's ancestors, root
    excluded), once per container in ``paths``: a heading's box grows while the block before
    stays outside."""
    el = container[block]
    got = paths.get(el)
    if got is None:
        up = []
        while el > 0:
            up.append(el)
            el = parents[el]
        got = paths[container[block]] = frozenset(up)
    return got


def _box_heads(
    doc: Any, keep: np.ndarray, container: list[int], paths: dict[int, frozenset[int]] | None = None
) -> list[tuple[int, int]]:
    """(heading block, its box element) for each heading that names furniture; the box is 0
    where the heading opens none.

    The box is the largest element that opens with the heading's block, never
    one that holds the longest kept block (the body's core); ``paths`` (each
    container's elements, root excluded) is filled for the caller to reuse.
    """
    texts, words = doc.texts, doc.words
    labels = label_features(doc)[:, 0] > 0
    heads = [b for b in (labels & (words <= BOX_WORDS)).nonzero()[0].tolist() if _box_heading(texts[b])]
    if not heads:
        return []
    parents = doc.el_parent
    if paths is None:
        paths = {}
    core_path = _path(int(np.argmax(np.where(keep, words, -1.0))), container, parents, paths)
    found = []
    for head in heads:
        box = 0
        el = container[head]
        before = _path(head - 1, container, parents, paths) if head else frozenset()
        while el > 0 and el not in core_path and el not in before:
            box = el
            el = parents[el]
        found.append((head, box))
    return found


#: Share of a block's words in links for it to be one entry of a list of links.
LINK_ENTRY = 0.9


def _link_run_end(doc: Any, head: int) -> int:
    """The end of the run of link blocks right after ``head``: a heading that shares its element
    with the body ("・関連記事" then a headline per line, all in the article's element) opens no
    box, but the links it names end where the first block that is not one starts."""
    words, links = doc.words, doc.link_words
    end = head + 1
    while end < doc.n_blocks and words[end] > 0 and links[end] >= LINK_ENTRY * words[end]:
        end += 1
    return end


def boxed_furniture(doc: Any, keep: np.ndarray) -> np.ndarray:
    """Boxes that a heading names as furniture: "Comments (4)" and the thread under it, "Related
    articles" and its list, "Tags" and the tags, a newsletter box.

    The box is the largest element that opens with the heading's block (its
    container, then each parent while the heading is still its first
    block), never one that holds the longest kept block (the body's core):
    a heading inside the article marks only its own box, or, where it opens
    none, the run of link blocks right after it.

    Elements are numbered as they open, so a block lies inside the box when
    walking up from its container to the box's number reaches the box
    (:func:`boxed_furniture_reference` reads each block's path instead).
    """
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    parents = doc.el_parent
    container = doc.container.tolist()
    for head, box in _box_heads(doc, keep, container):
        if not box:
            out[head : _link_run_end(doc, head)] = True
            continue
        end = head + 1  # the heading's own block lies inside its box
        el = container[head]
        while end < n:
            here = container[end]
            if here != el:
                up = here  # up to the box's level: an element's ancestors come before it
                while up > box:
                    up = parents[up]
                if up != box:
                    break
                el = here
            end += 1
        out[head:end] = True
    return out


def boxed_furniture_reference(doc: Any, keep: np.ndarray) -> np.ndarray:
    """The Python reference of :func:`boxed_furniture`: whether a block lies in the box read from
    its path (the elements it lies inside)."""
    n = doc.n_blocks
    out = np.zeros(n, dtype=bool)
    container = doc.container.tolist()
    parents = doc.el_parent
    paths: dict[int, frozenset[int]] = {}
    for head, box in _box_heads(doc, keep, container, paths):
        if not box:
            out[head : _link_run_end(doc, head)] = True
            continue
        end = head + 1  # the heading's own block lies inside its box
        el = container[head]
        while end < n and (container[end] == el or box in _path(end, container, parents, paths)):
            el = container[end]
            end += 1
        out[head:end] = True
    return out
