"""The word lists and patterns of the page evidence, in one place.

Every rule of :mod:`scrapy_bte.evidence` that reads words (the labels of
page furniture, the openings of bylines and credits, dates, reading
times, the class/id/role words templates name their furniture with)
reads them here, and so do the C passes (each module hands its lists to
its C pass once, at import): a word added here reaches the Python
reference, the C pass, ``auto``'s rules, the fields and training at once.
Changing a list changes the block features the learned model was
trained on; retrain and measure after.
"""

from __future__ import annotations

import re

# Whole-block labels (case-insensitive; trailing punctuation, arrows and counts allowed), by kind.
# fmt: off
AD_LABELS = (
    "advertisement", "advertising", "ad", "ads", "sponsored", "sponsored content", "paid content", "promoted",
    "anzeige", "werbung", "publicidad", "publicité", "publicite", "pubblicità", "reklama", "advertentie",
    "annons", "mainos", "реклама", "διαφήμιση", "広告", "广告", "廣告", "광고", "تبلیغات", "إعلان", "publicidade",
    "anúncio", "reklam", "quảng cáo", "โฆษณา", "iklan",
    "story continues below advertisement", "article continues below advertisement", "continue reading below",
    "scroll to continue with content", "skip advert",
)
ACTION_LABELS = (
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
BOX_LABELS = (
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
NAV_LABELS = (
    "sign in", "log in", "login", "register", "anmelden", "registrieren", "iniciar sesión", "se connecter",
    "accedi", "zaloguj", "登録", "ログイン", "登录", "注册",
    "back to top", "top", "home", "menu", "search", "close", "next", "previous", "next article",
    "previous article", "nach oben", "zurück", "volver arriba", "retour en haut", "torna su", "startseite",
    "inicio", "accueil", "ホーム", "首页", "photo", "photos", "foto", "fotos", "image", "video", "gallery",
    "bild", "imagen", "写真", "图片", "動画", "视频",
)
# Headings of a shop's recommendations beside the product: other products, never this one's content;
# and of its delivery and returns terms, which every product of the shop gets. WCXB by site folds:
# product 0.6929 to 0.6940 with the terms (3 pages better, none worse by 0.001); with the bare words
# "shipping", "delivery" and "returns" as well 7 pages worse (eBay's gold keeps its shipping panel).
# They are not labels of the block features (:data:`LABELS`): only product pages read them.
SHOP_BOX_LABELS = (
    "you may also like", "you might also like", "you may like", "you might like", "you may also be interested in",
    "customers also bought", "customers also viewed", "customers also liked", "customers also purchased",
    "customers who bought this item also bought", "customers who viewed this item also viewed",
    "people who viewed this item also viewed", "people who bought this item also bought", "people also bought",
    "people also viewed", "shoppers also bought", "shoppers also viewed", "frequently bought together",
    "often bought together", "similar items", "similar products", "related items", "related products",
    "recently viewed", "recently viewed items", "recently viewed products", "your recently viewed items",
    "complete the look", "shop the look", "pairs well with", "more from this seller", "more from this shop",
    "more from this brand", "seller's other items", "sponsored items", "sponsored products", "recommended for you",
    "recommended products", "das könnte ihnen auch gefallen", "das könnte dir auch gefallen", "ähnliche artikel",
    "ähnliche produkte", "kunden kauften auch", "kunden kauften auch folgende artikel", "zuletzt angesehen",
    "zuletzt angesehene artikel", "passend dazu", "wird oft zusammen gekauft", "vous aimerez aussi",
    "vous aimerez peut-être aussi", "vous pourriez aussi aimer", "produits similaires", "articles similaires",
    "produits associés", "récemment consultés", "fréquemment achetés ensemble", "también te puede gustar",
    "te puede interesar", "productos relacionados", "productos similares", "vistos recientemente",
    "potrebbe piacerti anche", "prodotti correlati", "prodotti simili", "visti di recente",
    "misschien ook interessant", "vergelijkbare producten", "gerelateerde producten", "podobne produkty",
    "klienci kupili również", "może cię zainteresować", "você também pode gostar", "produtos relacionados",
    "produtos semelhantes",
    "delivery & returns", "delivery and returns", "shipping & returns", "shipping and returns",
    "returns & exchanges", "returns and exchanges", "shipping & delivery", "shipping and delivery",
    "delivery & pickup", "delivery and pickup", "shipping information", "delivery information",
    "shipping info", "delivery info", "shipping policy", "return policy", "returns policy",
    "free shipping & returns", "free delivery & returns", "free shipping and returns", "free delivery and returns",
    "versand & rückgabe", "versand und rückgabe", "lieferung & rückgabe", "lieferung und rückgabe",
    "versandinformationen", "livraison et retours", "livraison & retours", "envíos y devoluciones",
    "envío y devoluciones", "spedizione e resi", "verzending en retourneren",
)
# fmt: on
SHOP_BOX_SET = frozenset(SHOP_BOX_LABELS)
LABELS = AD_LABELS + ACTION_LABELS + BOX_LABELS + NAV_LABELS
BOX_SET = frozenset(BOX_LABELS)
ACTION_BOX_SET = frozenset(ACTION_LABELS) | BOX_SET
LABEL_SET = frozenset(LABELS)
#: What may stand around a label: punctuation, arrows, a count ("Comments (4)"), and the bullets and
#: marks that open one ("・関連記事", "■ Related", "▼ Anzeige").
LABEL_TAIL = " \t:：.!»›>→…|-–—()[]（）【】0123456789·•件条・■□▼▽▲△►▶▷●○◆◇★☆※＞》〉〔〕［］｜«‹<"
# Words that open a label with its value: "Tags: a, b", "Quelle: dpa", "Lesen Sie auch: ...".
# fmt: off
LABEL_COLON = frozenset((
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
BYLINE_START_WORDS = frozenset((
    "by", "von", "por", "par", "di", "door", "av", "af", "przez", "от", "tekst:", "texto:", "texte:", "text:",
    "autor:", "autora:", "auteur:", "author:", "autor", "author", "redacción", "redaktion", "rédaction",
    "redazione", "redakcja", "oleh", "โดย", "tác giả:", "автор:", "yazar:",
))
# fmt: on
BYLINE_START_PAIRS = (
    "written by",
    "posted by",
    "publicado por",
    "escrito por",
    "geschrieben von",
    "reported by",
    "text von",
    "ein kommentar von",
)
BYLINE_START_CJK = (
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
CREDIT_WORDS = frozenset((
    "photo", "photos", "foto", "fotos", "fotó", "image", "images", "imagen", "imágenes", "bild", "bilder",
    "picture", "pictures", "credit", "credits", "crédit", "crédito", "créditos", "illustration", "grafik",
    "gráfico", "graphic", "video", "source", "quelle", "fuente", "写真", "图片", "圖片", "画像", "資料", "提供",
    "photograph", "fotografía", "photographie",
))
# fmt: on
CREDIT_STARTS = (
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
#: A credit anywhere in a caption ("... for the holidays Credit: Apple", "(Photo: AP)"): a credit word
#: after a space or an opening bracket and before ":" or "/", or one of :data:`CREDIT_STARTS`.
CREDIT_INSIDE_RE = re.compile(
    r"(?:^|[\s(\[|])(?:"
    + "|".join(map(re.escape, sorted(CREDIT_WORDS, key=len, reverse=True)))
    + r")\s?[:/]|"
    + "|".join(map(re.escape, CREDIT_STARTS)),
    re.IGNORECASE,
)
READ_TIME_RE = re.compile(
    r"(?<!\d)\d+\s*(?:-\s*)?(?:min(?:ute)?s?\.?\s+(?:read|lesezeit|de lectura|de lecture|di lettura|czytania)|"
    r"minuten? lesezeit|分で読める)|(?:lesezeit|tiempo de lectura|temps de lecture|reading time)\s*[:：]?\s*\d",
    re.IGNORECASE,
)
# fmt: off
MONTHS = (
    "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    "september|october|november|december|januar|februar|märz|maerz|mai|juni|juli|oktober|dezember|enero|febrero|"
    "marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|janvier|février|fevrier|"
    "mars|avril|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|gennaio|febbraio|aprile|"
    "maggio|giugno|luglio|settembre|ottobre|dicembre|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|"
    "sierpnia|września|października|listopada|grudnia"
)
#: Days of the week, whole and abbreviated, in the same languages.
WEEKDAYS = (
    "mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    "montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|"
    "dimanche|lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo|lunedì|martedì|mercoledì|"
    "giovedì|venerdì|sabato|segunda|terça|quarta|quinta|sexta|poniedziałek|wtorek|środa|czwartek|piątek|"
    "sobota|niedziela|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag"
)
# fmt: on
# A date or time in digits: 2024-05-01, 1.5.2024, 05/01/24, 12:30, 2024年5月, 5月1日, 3時間前.
# It reads \d{1,4}[./-]\d{1,2}[./-]\d{2,4} | \d{1,2}:\d{2} | \d{4}\s*年 | \d{1,2}\s*月\s*\d{1,2}\s*日 | \d+\s*(?:分|時間|日)前
# with the first digit of every branch taken out in front, so that a search skips in C to the next digit.
NUMERIC_DATE_RE = re.compile(
    r"\d(?:\d{0,3}[./-]\d{1,2}[./-]\d{2,4}|\d?:\d{2}|\d{3}\s*年|\d?\s*月\s*\d{1,2}\s*日|(?<!\d\d)\d*\s*(?:分|時間|日)前)"
)
#: Words that make a number a date: month names (English, German, Spanish, French, Italian, Polish)
#: and "ago" in a few languages ("3 hours ago", "vor 3 Stunden", "hace 3 horas").
DATE_WORDS = frozenset(MONTHS.split("|")) | frozenset(("ago", "vor", "hace", "il", "fa", "temu"))
#: Without one of these :data:`NUMERIC_DATE_RE` cannot match: a digit followed by one of
#: :data:`DATE_AFTER_DIGIT`, or one of :data:`DATE_MARKS` anywhere (the C pass tries the
#: pattern on the texts holding one only).
DATE_AFTER_DIGIT = "./-:"
DATE_MARKS = "年月前"
READ_TIME_WORDS = ("min", "lesezeit", "lectura", "lecture", "lettura", "czytania", "分で読")
# A byline's first word as the tests read it: a word alone, a word with its colon, a prefix
# (each test is one C-level ``str.startswith``).
BYLINE_FIRST = frozenset(w for w in BYLINE_START_WORDS if not w.endswith(":"))
BYLINE_HEADS = frozenset(w.rstrip(":") for w in BYLINE_START_WORDS if w.endswith(":"))
BYLINE_PREFIXES = BYLINE_START_PAIRS + BYLINE_START_CJK

# A newsletter promotion: the word and an invitation, in the languages measured.
NEWSLETTER_RE = re.compile(r"newsletter|nieuwsbrief|boletín|lettre d.information|biuletyn", re.IGNORECASE)
INVITE_RE = re.compile(
    r"sign(?:ing)?[ -]up|subscri|inbox|deliver|receive|get |join|register|"
    r"abonn|anmeld|melden sie|registrier|erhalten|bestellen|"
    r"inscri|recev|suscr|recib|iscriv|ricev|zapisz|otrzym|aanmeld|ontvang",
    re.IGNORECASE,
)

#: A copyright notice opens with the sign or the word, or says the rights are reserved, in the
#: languages measured (English, German, French, Spanish, Italian, Portuguese, Polish, Dutch,
#: Chinese and Japanese); lower case.
COPYRIGHT_STARTS = ("©", "(c) ", "copyright")
RIGHTS_RESERVED = (
    "all rights reserved",
    "alle rechte vorbehalten",
    "tous droits réservés",
    "todos los derechos reservados",
    "tutti i diritti riservati",
    "todos os direitos reservados",
    "wszelkie prawa zastrzeżone",
    "alle rechten voorbehouden",
    "版权所有",
    "版權所有",
    "無断転載",
    "無断複製",
)

#: Hint groups, in bit order. Each lists the words (whole tokens of a class or id,
#: after splitting at non-letters) and the stems (found inside
#: compound tokens such as ``sharebar`` or ``shareBar``; five letters or more, so they are rarely
#: part of an unrelated word) that name it.
# fmt: off
GROUPS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "share",
        (
            "share",
            "sharing",
            "shares",
            "social",
            "print",
            "follow",
            "sns",
            "email",
            "whatsapp",
            "facebook",
            "twitter",
            "linkedin",
            "pinterest",
            "addthis",
            "sharethis",
        ),
        ("share", "social", "sharing"),
    ),
    (
        "related",
        (
            "related",
            "recommended",
            "recommend",
            "recommendations",
            "popular",
            "trending",
            "most",
            "mostread",
            "more",
            "readmore",
            "read",
            "next",
            "also",
            "outbrain",
            "taboola",
            "teaser",
            "teasers",
            "recirc",
            "recirculation",
            "further",
            "suggested",
            "similar",
            "latest",
            "headlines",
            "promoted",
        ),
        ("related", "recommend", "outbrain", "taboola", "teaser", "recirc", "trending", "popular"),
    ),
    (
        "subscribe",
        (
            "newsletter",
            "newsletters",
            "subscribe",
            "subscription",
            "signup",
            "paywall",
            "premium",
            "regwall",
            "register",
            "registration",
            "login",
            "membership",
            "donate",
            "donation",
            "optin",
            "piano",
            "meter",
            "offer",
        ),
        ("newsletter", "subscri", "signup", "paywall", "regwall", "membership"),
    ),
    (
        "ad",
        (
            "ad",
            "ads",
            "adv",
            "advert",
            "advertisement",
            "advertising",
            "adslot",
            "adunit",
            "sponsor",
            "sponsored",
            "promo",
            "promotion",
            "banner",
            "dfp",
            "gpt",
            "commercial",
            "anzeige",
            "publicidad",
            "publicite",
            "reklama",
            "werbung",
            "billboard",
            "leaderboard",
            "mpu",
            "skyscraper",
            "affiliate",
        ),
        ("advert", "sponsor", "adslot", "adunit", "adcontainer", "adwrap", "promo", "billboard"),
    ),
    (
        "byline",
        (
            "byline",
            "bylines",
            "author",
            "authors",
            "writer",
            "contributor",
            "contributors",
            "dateline",
            "posted",
            "published",
            "publish",
            "timestamp",
            "date",
            "time",
            "pubdate",
            "updated",
            "meta",
            "postmeta",
            "entrymeta",
            "credits",
        ),
        ("byline", "author", "dateline", "timestamp", "pubdate", "published"),
    ),
    (
        "caption",
        (
            "caption",
            "captions",
            "credit",
            "figcaption",
            "photo",
            "photos",
            "image",
            "images",
            "img",
            "media",
            "gallery",
            "video",
            "embed",
            "picture",
            "figure",
            "slideshow",
            "copyright",
        ),
        ("caption", "credit", "gallery", "slideshow"),
    ),
    (
        "comment",
        (
            "comment",
            "comments",
            "reply",
            "replies",
            "discussion",
            "discuss",
            "disqus",
            "respond",
            "responses",
            "talk",
            "forum",
        ),
        ("comment", "disqus", "replies"),
    ),
    (
        "tags",
        (
            "tag",
            "tags",
            "topic",
            "topics",
            "keyword",
            "keywords",
            "category",
            "categories",
            "label",
            "labels",
            "taglist",
            "subjects",
        ),
        ("taglist", "keyword", "categor"),
    ),
    (
        "nav",
        (
            "breadcrumb",
            "breadcrumbs",
            "nav",
            "navbar",
            "navigation",
            "menu",
            "pagination",
            "pager",
            "toolbar",
            "skip",
            "jump",
            "toc",
        ),
        ("breadcrumb", "navigation", "navbar", "pagination"),
    ),
    (
        "footer",
        ("footer", "foot", "copyright", "legal", "colophon", "disclaimer", "imprint"),
        ("footer", "colophon", "disclaimer"),
    ),
    (
        "header",
        (
            "header",
            "head",
            "masthead",
            "headline",
            "title",
            "kicker",
            "eyebrow",
            "standfirst",
            "deck",
            "dek",
            "subtitle",
            "subhead",
            "lede",
            "summary",
            "excerpt",
            "intro",
            "teaser",
            "hero",
        ),
        ("header", "masthead", "headline", "kicker", "eyebrow", "standfirst", "subtitle"),
    ),
    (
        "overlay",
        (
            "cookie",
            "cookies",
            "consent",
            "gdpr",
            "privacy",
            "notice",
            "alert",
            "modal",
            "popup",
            "overlay",
            "dialog",
            "banner",
            "toast",
            "lightbox",
        ),
        ("cookie", "consent", "popup", "overlay", "lightbox"),
    ),
    (
        "sidebar",
        ("sidebar", "widget", "widgets", "aside", "rail", "complementary", "sidebar", "column", "secondary"),
        ("sidebar", "widget"),
    ),
    ("bio", ("bio", "biography", "about", "profile", "avatar", "person", "expert"), ("biography", "avatar")),
    (
        "body",
        (
            "content",
            "article",
            "body",
            "story",
            "post",
            "entry",
            "text",
            "main",
            "articlebody",
            "richtext",
            "prose",
            "paragraph",
            "copy",
        ),
        ("articlebody", "storybody", "postbody", "entrycontent", "richtext", "bodytext"),
    ),
)
# fmt: on

#: Words that tell what kind of page a template builds (forum posts, shop furniture, item grids,
#: documentation, service sections), for the page-type classifier
#: (:mod:`scrapy_bte.learned.page_type`). They take the bits after :data:`GROUPS`, read in the same
#: pass, so the furniture groups' bits (and the block features built from them) stay as they are.
# fmt: off
PAGE_GROUPS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("thread", ("thread", "threads", "message", "messages", "posts", "postbit", "topic"), ("thread", "message", "postbit")),
    (
        "answer",
        ("question", "questions", "answer", "answers", "accepted", "vote", "votes", "upvote", "downvote",
         "votecell", "solution", "solved"),
        ("question", "answer", "upvote"),
    ),
    (
        "user",
        ("user", "users", "username", "userinfo", "member", "poster", "signature", "reputation", "karma", "usercard"),
        ("username", "userinfo", "signature", "reputation"),
    ),
    (
        "product",
        ("product", "products", "sku", "variant", "variants", "swatch", "swatches", "quantity", "qty", "stock", "pdp",
         "buy", "addtocart", "shipping"),
        ("product", "variant", "swatch", "quantity", "addtocart"),
    ),
    ("price", ("price", "prices", "money", "currency", "sale", "discount", "amount", "msrp"), ("price", "currency", "discount")),
    ("cart", ("cart", "basket", "checkout", "bag", "wishlist", "minicart"), ("basket", "checkout", "wishlist", "minicart")),
    ("card", ("card", "cards", "tile", "tiles", "thumbnail", "thumb"), ("thumbnail",)),
    ("item", ("item", "items", "listing", "listings", "result", "results", "entries"), ("listing",)),
    (
        "grid",
        ("grid", "collection", "collections", "catalog", "catalogue", "plp", "filter", "filters", "facet", "facets",
         "sort", "sorting", "sortby", "refine"),
        ("collection", "catalog", "facet", "filter"),
    ),
    (
        "docs",
        ("docs", "doc", "documentation", "api", "reference", "manual", "sphinx", "toctree", "admonition", "rst",
         "docutils", "markdown", "wiki", "version", "versions", "guide"),
        ("documentation", "admonition", "sphinx", "toctree", "docutils", "markdown"),
    ),
    (
        "code",
        ("code", "highlight", "highlighter", "syntax", "codehilite", "sourcecode", "hljs", "prism", "pre",
         "clipboard", "terminal", "console", "shell"),
        ("syntax", "codehilite", "sourcecode", "clipboard", "codeblock"),
    ),
    (
        "service",
        ("service", "services", "testimonial", "testimonials", "pricing", "plan", "plans", "faq", "faqs", "feature",
         "features", "benefit", "benefits", "cta", "accordion", "step", "steps", "contact", "booking", "appointment"),
        ("service", "testimonial", "pricing", "benefit", "accordion", "feature", "appointment"),
    ),
)
# fmt: on

#: The byline and dateline zones' words (:mod:`scrapy_bte.fields.zones`): an element named for its
#: author, and one named for its date. Stems only, found anywhere in the values as the zones have
#: always read them ("post-author-name", "publishdate"); a stem that holds one of them
#: ("dateline", "pubdate", "timestamp", "published") is listed too, since the longest stem at a
#: position is the one found. Their bits come after :data:`PAGE_GROUPS`' and no feature reads them.
ZONE_GROUPS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("author", (), ("byline", "author", "writer", "autor", "auteur", "contributor")),
    ("dated", (), ("date", "dateline", "pubdate", "time", "timestamp", "publish", "published", "posted")),
)

#: A ``class`` or ``id`` value naming a readers' comment section (:mod:`scrapy_bte.methods.comments`),
#: and the substrings a value holds wherever the pattern matches (the strings without one are not read).
COMMENT_SECTION_RE = re.compile(r"\b(?:comments?|comment-?list|replies)\b", re.IGNORECASE)
COMMENT_SECTION_WORDS = ("comment", "repl")
#: A ``class`` or ``id`` value naming a shop's reviews or recommendations, and its substrings as above.
#: A carousel on a product page is a strip of other products (sponsored items, "similar items"),
#: whose cards the record rules would otherwise join: on WCXB's development split by site folds,
#: product 0.6893 to 0.6929 (7 pages better, none worse; eBay's item pages the most), the older
#: sets unchanged. ``slider``, ``swiper`` and ``slick`` name the product's own gallery and panels
#: as often: with them, 5 product pages lose up to 0.35. Testimonials on a product page are its
#: buyers' reviews under another name: product 0.6940 to 0.6945 (2 pages better, none worse).
SHOP_SECTION_RE = re.compile(
    r"\b(?:reviews?|customer-?reviews?|ratings?-?reviews?|recommend\w*|also-?(?:bought|viewed|like)|upsells?|"
    r"cross-?sells?|related-?products?|carousel\w*|testimonials?)\b",
    re.IGNORECASE,
)
SHOP_SECTION_WORDS = ("review", "recommend", "also", "upsell", "sell", "related", "carousel", "testimonial")
#: A ``class`` or ``id`` value naming a breadcrumb trail (``breadcrumb``, ``breadcrumbs__item``,
#: ``crumbs``): navigation on every page type. On WCXB's development split 46 of the 195 words the
#: block model keeps inside such elements (outside page wrappers) are gold, most of them a product's
#: or article's own name repeated as the trail's last step.
BREADCRUMB_RE = re.compile(r"crumbs?(?:$|[\s_-])", re.IGNORECASE)
BREADCRUMB_WORDS = ("crumb",)
#: A ``class`` or ``id`` value naming a list's controls: its filters, facets, refinements and
#: sorting (``filter-brand``, ``facets__form``, ``dcl-refinement``, ``sortBy``), as a whole part
#: of the value between spaces, ``-`` and ``_``; not the results they act on (``filter-results``).
#: On WCXB's collection pages about 7,500 kept words lie inside such elements, 1 in 8 of them gold
#: (mostly inside page wrappers named for the filters, which hold the cards: see
#: :func:`scrapy_bte.methods.comments.list_controls_mask`). Its substrings as above.
LIST_CONTROLS_RE = re.compile(
    r"(?:^|[\s_-])(?:filters?|filterby|facets?|refine(?:ments?)?|sort(?:ing|by)?)(?:$|[\s_-])(?!results?\b)",
    re.IGNORECASE,
)
LIST_CONTROLS_WORDS = ("filter", "facet", "refine", "sort")
#: A ``class`` or ``id`` value naming a forum post's furniture: the poster's card (phpBB's
#: ``postprofile``, vBulletin's ``userinfo``, XenForo's ``message-userDetails`` and ``userExtras``,
#: Invision Community's ``cAuthorPane``, avatars), the signature, the post's buttons, reactions, votes and "Last edited" line, and the
#: previews of pages a post links to (Discourse's ``onebox``, XenForo's ``unfurl``); and its
#: substrings as above. A name may follow an underscore (``ipsEntry__signature``). On WCXB's 106 forum
#: pages about 830 gold words lie inside such elements against 16,000 that are not gold; on its
#: other page types ``actions`` and ``buttons`` name containers of content, so only forums read it.
#: Invision's author pane (the poster's name, group, badges and post count beside each post) joined
#: later: forum 0.8167 to 0.8172 by site folds, 5 pages better and none worse.
POST_FURNITURE_RE = re.compile(
    r"(?:\b|(?<=_))(?:(?:post-?|message-?|member-?)?signature|post-?profile|user-?info|(?:message-?)?user-?details|poster-?info|"
    r"posterdetails|author-?info|c?author-?pane|post-?(?:actions?|buttons?|controls?|menu)|actions?|buttons?|controls?|"
    r"reactions?(?:-?(?:bar|list))?|likes?|votes?|vote-?count|user-?extras|last-?edit|onebox|unfurl|avatars?)(?:\b|(?=_))",
    re.IGNORECASE,
)
POST_FURNITURE_WORDS = (
    "signature",
    "profile",
    "info",
    "details",
    "action",
    "button",
    "control",
    "menu",
    "reaction",
    "like",
    "vote",
    "extras",
    "edit",
    "onebox",
    "unfurl",
    "avatar",
    "pane",
)

# ---- The article fields' byline words (:mod:`scrapy_bte.fields.values`, :mod:`scrapy_bte.fields.zones`)
#: Words that introduce a byline in the languages the pages come in ("Recipe by", "Authored by:",
#: and "Written byAnn Lee" where the page glues the name to the label), cut from author values.
BYLINE_PREFIX_RE = re.compile(
    r"^(?:(?:written|posted|reported|text|words|story|photos?|recipe|guide|article|authored)\s+)?"
    r"(?:by|von|par|por|door|av|af|από|autor(?:in|a|en|es|as)?|authors?|auteurs?|text|tekst|redacción|redakcja"
    r"|more stories by)"
    r"(?:\s*[:\-–—]?\s+|\s*:\s*|(?-i:(?<=by)(?=[A-Z])))|^(?-i:di|de)\s+(?=(?-i:[A-Z]))",
    re.IGNORECASE,
)
#: Where a byline's second credit starts, cut from author values with what follows ("Shelby Loos, DVM.
#: Reviewed by Molly Price, DVM", "Ann Lee | Fact checked by Bo Li"): the reviewer, the illustrator or
#: the translator is not the author. Not "edited by": WCXB's gold keeps "The Team, edited by Walter".
CREDIT_CUT_RE = re.compile(
    r"(?<![\s.,;|•·-])[\s.,;|•·-]+(?:(?:medically|fact[- ]checked\s+and|expert)\s+)?"
    r"(?:reviewed|fact[- ]checked|illustrated|illustrations|photographed|photos|translated|"
    r"geprüft|überprüft|übersetzt|révisé|relu|traduit|revisado|traducido|revisionato|tradotto)"
    r"\s+(?:by|von|par|por|da|door)\b",
    re.IGNORECASE,
)
#: Lower-case words a list of names holds ("Ludwig van Beethoven", "Ann Lee and Bo Li"): any other
#: lower-case word in a byline line makes it a sentence, not names (:func:`scrapy_bte.fields.zones.byline_author`).
NAME_PARTICLES = frozenset(
    """van von vom zu zur de da das do dos di del della der den des du la le las los lo bin ibn al el ben ter
    y e i and und et og och""".split()
)
#: Head words of the job titles printed after a byline's name ("Howard Blume, Staff Writer").
JOB_WORDS = (
    "writer|editor|reporter|correspondent|contributor|columnist|journalist|analyst|reviewer|producer|"
    "founder|co-founder|ceo|redakteur|redakteurin|journalistin|korrespondent|korrespondentin|"
    "rédacteur|rédactrice|journaliste|periodista|redactor|redactora|giornalista"
)
#: Words that may stand before a job title's head word ("Former Deputy Tech Editor").
JOB_LEAD_WORDS = (
    "staff|senior|junior|contributing|deputy|managing|associate|executive|former|lead|freelance|guest|"
    "special|chief|head|tech|technology|news|features|sports|political|science|health|travel|food|"
    "digital|editorial|assistant|general|national|foreign|investigative|review"
)
#: A block that is a byline's label alone ("By", "Author:", "Topic Author"): the names follow in the
#: next block (:mod:`scrapy_bte.fields.zones`).
#: The word before it is never one that orders or filters a list ("Sort by", "Filter by").
BYLINE_LABEL_RE = re.compile(
    r"^(?!(?:sort|order|filter|group|search|browse|shop|view)\b)(?:\w+\s+)?"
    r"(?:by|author|autor(?:in)?|auteur|verfasser(?:in)?)\s*:?$",
    re.IGNORECASE,
)
#: A date a member's card gives ("Joined: Mon Mar 04, 2019", "Member since 2016"): when the
#: poster joined, never when the page was published (:mod:`scrapy_bte.fields.zones`).
MEMBER_SINCE_RE = re.compile(
    r"^\W*(?:joined|member since|registered|mitglied seit|registriert|dabei seit|inscrit|inscrito|"
    r"iscritto|lid sinds|dołączył)\b",
    re.IGNORECASE,
)

#: Month names and their usual abbreviations per month, January first, in the languages of the
#: pages the project is measured on (nominative and genitive forms): the date parser's table
#: (:mod:`scrapy_bte.fields.dates`). :data:`MONTHS` above is the label feature's shorter list,
#: which the shipped model was trained with.
MONTH_NAMES: tuple[str, ...] = (
    "january jan januar janvier enero ene gennaio gen janeiro januari stycznia styczeń styczen jänner",
    "february feb februar février fevrier febrero febbraio fevereiro februari lutego luty fév",
    "march mar märz maerz mars marzo março marco maart marca marzec mär",
    "april apr avril abril aprile kwietnia kwiecień kwiecien avr abr",
    "may mai mayo maggio maio mei maja maj",
    "june jun juni juin junio giugno junho czerwca czerwiec giu",
    "july jul juli juillet julio luglio julho lipca lipiec juil lug",
    "august aug août aout agosto augustus sierpnia sierpień sierpien ago",
    "september sep sept septembre septiembre settembre setembro września wrzesień wrzesien set",
    "october oct oktober octobre octubre ottobre outubro października październik pazdziernik okt ott out",
    "november nov novembre noviembre novembro listopada listopad",
    "december dec dezember décembre decembre diciembre dicembre dezembro grudnia grudzień grudzien dez dic déc",
)

#: A ``class`` or ``id`` value naming a cookie or privacy consent dialog (:func:`scrapy_bte.methods.
#: comments.consent_mask`): the consent platforms' own names (OneTrust, Cookiebot, Didomi,
#: Usercentrics, Ethyca's Fides, Quantcast, Sourcepoint, iubenda, Complianz, Termly, Osano) and
#: the generic ones (``cookie-banner``, ``cookiemessage``; not ``cookie-box`` nor ``cookies-grid``,
#: which a bakery's shop may name its products), at the start of a name or of a part of it after
#: ``-`` or ``_`` (``onetrust-consent-sdk``, ``gdpr-overlay-view``), not inside a word
#: (``enableInlineConsent``, ``filterNonGdprEmbeds``: a page's feature flags). It is read on the
#: elements whose names hold an "overlay" word of :data:`GROUPS` (cookie, consent, banner, popup,
#: dialog, ...) only. A consent dialog's paragraphs are long, link-free prose the block model
#: scores as body.
CONSENT_RE = re.compile(
    r"(?:(?:^|[\s_-])(?:consent|gdpr|onetrust|didomi|usercentrics|fides-|qc-cmp|sp_message|iubenda|cmplz|termly|"
    r"osano|cookies?-?(?:consent|banner|notice|bar|law|popup|modal|dialog|wall|message|msg|alert|overlay|prompt))|"
    r"cookiebot)",
    re.IGNORECASE,
)
#: A listing's result count above its items ("Showing 1-8 of 21 stories", "1-30 of 338 products",
#: "514 results"), read on short blocks by :func:`scrapy_bte.methods.filters.filter_mask`.
RESULT_COUNT_RE = re.compile(
    r"^\s*(?:(?:showing|displaying|viewing|results?)\s*:?\s*)?\d[\d,.]*\s*(?:[-–]\s*\d[\d,.]*\s*)?(?:of|/)\s+\d[\d,.]*"
    r"(?:\s+[^\W\d_]+){0,2}\s*$|^\s*\d[\d,.]*\s+(?:results?|items?|products?|stories|articles?|posts?|jobs?|listings?)"
    r"(?:\s+found)?\s*$",
    re.IGNORECASE,
)
#: A card's rating or review count, alone in its block ("17 reviews", "(0)0 reviews", "Rated 4.8 out
#: of 5 stars"): furniture of a shop's or a directory's cards (:func:`scrapy_bte.methods.filters.card_label_mask`).
#: On WCXB's development split 5 of the 207 words the block model keeps in such blocks on collection
#: pages are gold, 0 of 18 on listing and product pages; a review's score on an article or a service
#: page ("8.5/10") is its content, and the pattern leaves scores with a slash alone.
RATING_RE = re.compile(
    r"^[\s(\[]*(?:\d[\d,.]*(?![\d,.])\s*(?:k\s*)?(?:[)\]]\s*)?)+(?:customer\s+|product\s+)?(?:reviews?|ratings?|stars?|votes?|"
    r"bewertungen|rezensionen|avis|opiniones|reseñas|recensioni|beoordelingen|opinie|avaliações)[\s)\].]*$"
    r"|^(?:rated\s+)?\d(?:[.,]\d)?\s*(?:out\s+of|von|sur|de|su)\s*5(?:\s*(?:stars?|sternen?|étoiles?|estrellas?))?[\s.]*$",
    re.IGNORECASE,
)
#: A card's badge or call to action, alone in its block (lower case, :data:`LABEL_TAIL` stripped):
#: what a shop says of its offer, not of its item. On WCXB's development split, of the blocks the
#: block model keeps that are only one of these, 17 of 467 are gold on collection pages (29 sites),
#: 6 of 26 on listings, 3 of 24 on product pages, but 15 of 42 on service pages ("Learn more" under a
#: feature), which keep them.
# fmt: off
CARD_BADGES = frozenset((
    "new", "new arrival", "new arrivals", "just in", "best seller", "bestseller", "best-seller", "bestsellers",
    "top seller", "top rated", "top pick", "staff pick", "editor's pick", "award winner", "sale", "on sale",
    "clearance", "sold out", "out of stock", "in stock", "limited stock", "low stock", "limited edition",
    "exclusive", "online only", "only online", "featured", "sponsored", "promoted", "hot", "trending", "popular",
    "free shipping", "free delivery", "shop now", "buy now", "order now", "learn more", "read more", "view details",
    "view product", "see details", "quick view", "quick shop", "quick add", "add to cart", "add to bag",
    "add to basket", "add to wishlist", "add to compare", "compare", "choose options", "select options",
    "see options", "view all", "see all", "show more", "load more", "loading", "loading...", "more colors",
    "more colours", "more sizes", "neu", "angebot", "ausverkauft", "auf lager", "jetzt kaufen", "in den warenkorb",
    "mehr erfahren", "nouveau", "nouveauté", "promo", "épuisé", "en stock", "ajouter au panier", "acheter",
    "en savoir plus", "nuevo", "oferta", "agotado", "comprar", "añadir al carrito", "ver más", "nuovo", "offerta",
    "esaurito", "aggiungi al carrello", "scopri di più",
))
# fmt: on
#: A forum post's notes, not its text (:func:`scrapy_bte.methods.comments.post_notes_mask`): the
#: edit note ("Last edited by Minoa on Tue Aug 27, 2019, edited 1 time in total", "kornel edited
#: 1 year ago") and the guest's prompt under the thread ("Create an account or sign in to
#: comment", "Already have an account? Sign in here."), and the counts and controls a post shows
#: alone in a block ("14 likes", "Posts: 3,517", "Join Date: Mar 2019", "Click to expand...",
#: "View attachment 123", the post's number "#12"). WCXB's forum gold holds 1 of 84 edit notes of
#: its pages, none of the prompts and none of the 43 such counts and controls the block model keeps
#: (18 sites); the post numbers, kept on 25 of its forum pages, made each of them worse (by site
#: folds, forum 0.8195 without them, 0.8209 with every page the same or better). A thread's count
#: and page line ("4 posts • Page 1 of 1", phpBB's, "12 replies") is in none of its gold either; on
#: most of its pages it sits in a pagination element already: one thread changes, 0.9686 to 0.9694.
POST_NOTE_RE = re.compile(
    r"\blast edited\b|^\W*edited by\b|\bedited \d+ times?\b|\bedited \d+ \w+ ago\b|zuletzt bearbeitet|"
    r"derni[eè]re modification par|[uú]ltima edici[oó]n|"
    r"create (?:an|your|a)(?: free| new)? account|sign up for (?:a |an )?(?:new |free )?account|"
    r"already have an account|need to be a member|register later|"
    r"(?:sign|log) ?in to (?:comment|reply|post)|(?:sign|log) ?in or (?:create|register|sign up)|"
    r"^\W*[\d,.]+k? (?:likes?|reactions?)\W*$|"
    r"^\W*(?:posts|messages|likes|reactions?|reaction score|beiträge|nachrichten):? ?[\d,.]+k?\W*$|"
    r"^\W*join(?:ed)? date:|^\W*click to expand\W*$|^\W*view attachment \d+\W*$|"
    r"^\W*(?:[\d,.]+ (?:posts?|replies|messages)\W*)?page \d+ of \d+\W*$|^\W*[\d,.]+ (?:posts?|replies)\W*$|"
    r"^\s*#\s?\d+\s*$",  # the post's number, a link to it ("#12")
    re.IGNORECASE,
)
#: A word each of :data:`POST_NOTE_RE`'s matches holds, lower-case: blocks without one are not read.
POST_NOTE_WORDS = (
    "edited", "bearbeitet", "modification", "edici", "account", "member", "register", "sign", "log", "like",
    "reaction", "posts", "messages", "beiträge", "nachrichten", "join", "click to expand", "attachment", "#",
    "page", "repl",
)  # fmt: skip
#: A post's schema.org microdata (:func:`scrapy_bte.methods.comments.schema_posts_mask`): the
#: ``itemtype`` of a thread's post, and the ``itemprop`` of its text, where forum software marks
#: them (XenForo's and Discourse's templates: ``itemtype="https://schema.org/Comment"``,
#: ``itemprop="text"``).
POST_ITEM_RE = re.compile(
    r"""itemtype\s*=\s*["']?https?://schema\.org/(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting)\b""",
    re.IGNORECASE,
)
POST_TEXT_RE = re.compile(r"""itemprop\s*=\s*["']?(?:text|articleBody)\b""", re.IGNORECASE)
