/* Scanning loops of _scan.c for one PEP 393 storage width.
 *
 * Included three times with CH (the code unit type) and SUF(name) defined,
 * so every loop reads its string directly instead of switching on the
 * storage kind per character. The rules are those of the Python reference
 * in scrapy_bte/document.py; tests/test_scan.py checks both give the same
 * document on every torture case, fixture and random markup.
 */

/* Does the lower-cased text at s[i:] start with the ASCII word w? */
static inline int SUF(starts_low)(const CH *s, Py_ssize_t n, Py_ssize_t i, const char *w, Py_ssize_t len)
{
    if (i + len > n)
        return 0;
    for (Py_ssize_t k = 0; k < len; k++)
        if (low_char(s[i + k]) != (Py_UCS4)(unsigned char)w[k])
            return 0;
    return 1;
}

/* First position >= i of the ASCII character ch, or -1. */
static inline Py_ssize_t SUF(find_ch)(const CH *s, Py_ssize_t n, Py_ssize_t i, int ch)
{
    if (sizeof(CH) == 1) {
        const void *p = i < n ? memchr(s + i, ch, (size_t)(n - i)) : NULL;
        return p ? (Py_ssize_t)((const CH *)p - s) : -1;
    }
    /* Wide text: a 64-bit word of code units at a time, tested for a unit equal to ch
     * (x ^ pattern has a zero lane exactly when (x - ones) & ~x has a lane's high bit). */
    const uint64_t ones = sizeof(CH) == 2 ? 0x0001000100010001ULL : 0x0000000100000001ULL;
    const uint64_t highs = ones << (8 * sizeof(CH) - 1), pattern = ones * (uint64_t)(unsigned char)ch;
    const Py_ssize_t per_word = (Py_ssize_t)(8 / sizeof(CH));
    for (; i + per_word <= n; i += per_word) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        x ^= pattern;
        if ((x - ones) & ~x & highs)
            break;
    }
    for (; i < n; i++)
        if (s[i] == (CH)ch)
            return i;
    return -1;
}

#define SUF_find_lt(s, n, i) SUF(find_ch)(s, n, i, '<')
#define SUF_find_gt(s, n, i) SUF(find_ch)(s, n, i, '>')

/* Next "</name" followed by white space, "/", ">" or the end: (start, end). */
static int SUF(find_end_tag)(const CH *s, Py_ssize_t n, const char *name, Py_ssize_t len, Py_ssize_t pos,
                             Py_ssize_t *start, Py_ssize_t *end)
{
    for (;;) {
        Py_ssize_t k = SUF_find_lt(s, n, pos);
        if (k < 0)
            return 0;
        if (k + 1 < n && s[k + 1] == '/' && SUF(starts_low)(s, n, k + 2, name, len)) {
            Py_ssize_t after = k + 2 + len;
            Py_UCS4 c = after < n ? s[after] : 0;
            if (after >= n || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>') {
                Py_ssize_t close = SUF_find_gt(s, n, after);
                *start = k;
                *end = close < 0 ? n : close + 1;
                return 1;
            }
        }
        pos = k + 1;
    }
}

/* Where an unclosed script or style ends: the next end tag or a start tag
 * of a markup-only container (as _ANY_END_RE). */
static Py_ssize_t SUF(find_any_end)(const CH *s, Py_ssize_t n, Py_ssize_t pos)
{
    for (;;) {
        Py_ssize_t k = SUF_find_lt(s, n, pos);
        if (k < 0)
            return -1;
        if (k + 2 < n && s[k + 1] == '/') {
            Py_UCS4 c = low_char(s[k + 2]);
            if (c >= 'a' && c <= 'z')
                return k;
        }
        for (int w = 0; w < n_resume; w++) {
            Py_ssize_t len = resume_len[w];
            if (SUF(starts_low)(s, n, k + 1, resume_names[w], len) && k + 1 + len < n) {
                Py_UCS4 c = s[k + 1 + len];
                if (c == '>' || Py_UNICODE_ISSPACE(c))
                    return k;
            }
        }
        pos = k + 1;
    }
}

/* Where a <button> whose content starts at from, and whose end tag is at stop, ends as browsers
 * read it (document.button_end): at the first end tag of closer_names not opened inside it, or at
 * another <button> start tag; -1 where its content is all its own. */
static Py_ssize_t SUF(button_end)(const CH *s, Py_ssize_t from, Py_ssize_t stop)
{
    int opened[MAX_NAMES] = {0};
    Py_ssize_t i = from;
    for (;;) {
        Py_ssize_t k = SUF(find_ch)(s, stop, i, '<');
        if (k < 0)
            return -1;
        i = k + 1;
        Py_ssize_t j = k + 1;
        int end = 0;
        if (j < stop && s[j] == '/') {
            end = 1;
            j++;
        }
        if (j >= stop)
            continue;
        Py_UCS4 c = low_char(s[j]);
        if (c < 'a' || c > 'z')
            continue;
        char name[16];
        Py_ssize_t len = 0;
        while (j < stop) {
            c = low_char(s[j]);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
                break;
            if (len < 15)
                name[len] = (char)c;
            len++;
            j++;
        }
        if (j < stop) {
            Py_UCS4 t = s[j];
            if (!(t == ' ' || t == '\t' || t == '\n' || t == '\r' || t == '\f' || t == '/' || t == '>'))
                continue;
        }
        if (len >= 16)
            continue;
        if (!end && len == 6 && memcmp(name, "button", 6) == 0)
            return k;
        for (int w = 0; w < n_closer; w++) {
            if (closer_len[w] == len && memcmp(closer_names[w], name, (size_t)len) == 0) {
                if (!end)
                    opened[w]++;
                else if (opened[w])
                    opened[w]--;
                else
                    return k;
                break;
            }
        }
    }
}

/* Step 0: copy s to out without comments, declarations, dropped elements and the cut
 * spans (cut[2j] <= k < cut[2j + 1], increasing and disjoint, each starting at a "<"; ncut
 * of them). Returns the output length; t0 and t1 bound the first closed <title>'s text. */
static Py_ssize_t SUF(step0)(const CH *s, Py_ssize_t n, CH *out, Py_ssize_t *t0, Py_ssize_t *t1, const Py_ssize_t *cut,
                             Py_ssize_t ncut)
{
    Py_ssize_t pos = 0, o = 0, i = 0, next_cut = 0;
    unsigned int unclosed = 0;
    Py_ssize_t button_c0 = -1, button_c1 = -1;
    *t0 = *t1 = -1;
    for (;;) {
        /* _OPEN_RE: "<!", "<?" or "<name" of a dropped element before white space, "/" or ">". */
        Py_ssize_t start = -1;
        int which = -1, cutting = 0;
        Py_UCS4 lead = 0;
        while (i < n) {
            Py_ssize_t k = SUF_find_lt(s, n, i);
            if (k < 0 || k + 1 >= n)
                break;
            /* A span that starts inside what was dropped is gone with it. */
            while (next_cut < ncut && cut[2 * next_cut] < k)
                next_cut++;
            if (next_cut < ncut && cut[2 * next_cut] == k) {
                start = k;
                cutting = 1;
                break;
            }
            lead = low_char(s[k + 1]);
            if (lead == '!' || lead == '?') {
                start = k;
                break;
            }
            /* Most tags are not dropped: their lower-cased first letter already says so. */
            for (int d = 0; lead < 128 && drop_first[lead] && d < n_drop; d++) {
                Py_ssize_t len = drop_len[d];
                if (k + 1 + len < n && SUF(starts_low)(s, n, k + 1, drop_names[d], len)) {
                    Py_UCS4 c = s[k + 1 + len];
                    if (c == '/' || c == '>' || Py_UNICODE_ISSPACE(c)) {
                        which = d;
                        break;
                    }
                }
            }
            if (which >= 0) {
                start = k;
                break;
            }
            i = k + 1;
        }
        if (start < 0)
            break;
        memcpy(out + o, s + pos, (size_t)(start - pos) * sizeof(CH));
        o += start - pos;
        if (cutting) {
            pos = cut[2 * next_cut + 1];
            next_cut++;
            i = pos;
            continue;
        }
        if (lead == '!' && start + 3 < n && s[start + 2] == '-' && s[start + 3] == '-') {
            Py_ssize_t body = start + 4;
            if (body < n && s[body] == '>') {
                pos = body + 1;
            } else if (body + 1 < n && s[body] == '-' && s[body + 1] == '>') {
                pos = body + 2;
            } else {
                /* "--!?>" */
                pos = n;
                for (Py_ssize_t k = body; k + 2 < n; k++) {
                    if (s[k] == '-' && s[k + 1] == '-') {
                        if (s[k + 2] == '>') {
                            pos = k + 3;
                            break;
                        }
                        if (s[k + 2] == '!' && k + 3 < n && s[k + 3] == '>') {
                            pos = k + 4;
                            break;
                        }
                    }
                }
            }
            i = pos;
            continue;
        }
        if (lead == '!' || lead == '?') {
            Py_ssize_t end = SUF_find_gt(s, n, start);
            pos = end < 0 ? n : end + 1;
            i = pos;
            continue;
        }
        Py_ssize_t name_end = start + 1 + drop_len[which];
        Py_ssize_t open_end = SUF_find_gt(s, n, name_end);
        if (open_end < 0) {
            pos = n;
            break;
        }
        if ((which == drop_svg || which == drop_math) && open_end - 1 >= name_end && s[open_end - 1] == '/') {
            /* "<svg/>": an empty element, as foreign content reads it (document.self_closing). */
            Py_ssize_t slash = open_end - 1;
            Py_UCS4 b = slash > name_end ? s[slash - 1] : 0;
            if (slash == name_end || b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '"' ||
                b == '\'') {
                pos = open_end + 1;
                i = pos;
                continue;
            }
        }
        Py_ssize_t c0 = 0, c1 = 0;
        int found = 0;
        if (unclosed & (1u << which)) {
            found = 0;
        } else if (which == drop_button && button_c0 > open_end) {
            /* Buttons that end before it share one end tag: found once. */
            found = 1;
            c0 = button_c0;
            c1 = button_c1;
        } else {
            found = SUF(find_end_tag)(s, n, drop_names[which], drop_len[which], open_end + 1, &c0, &c1);
            if (which == drop_button && found) {
                button_c0 = c0;
                button_c1 = c1;
            }
        }
        if (!found) {
            unclosed |= 1u << which;
            if (which == drop_script || which == drop_style) {
                Py_ssize_t nxt = SUF(find_any_end)(s, n, open_end + 1);
                pos = nxt < 0 ? n : nxt;
            } else {
                pos = open_end + 1;
            }
            i = pos;
            continue;
        }
        if (which == drop_button) {
            Py_ssize_t at = SUF(button_end)(s, open_end + 1, c0);
            if (at >= 0) {
                pos = at; /* its end lies before its end tag: the markup after it stays */
                i = pos;
                continue;
            }
        }
        if (which == drop_title && *t0 < 0) {
            *t0 = open_end + 1;
            *t1 = c0;
        }
        pos = c1;
        i = pos;
    }
    memcpy(out + o, s + pos, (size_t)(n - pos) * sizeof(CH));
    o += n - pos;
    return o;
}

/* _TAG_RE: "<" "/"? ASCII letter, name up to white space, "/", "<" or ">",
 * then either ">" or white space / "/" and attributes up to ">" (no "<"
 * outside a quoted value).
 * Appends (tag start, name end, attributes end) triples; returns their count
 * or -1 on memory error. */
static Py_ssize_t SUF(find_tags)(const CH *s, Py_ssize_t n, Py_ssize_t **bounds, Py_ssize_t *cap)
{
    Py_ssize_t count = 0, i = 0, last_dq_v = -2, last_sq_v = -2;
    Py_ssize_t *last_dq = &last_dq_v, *last_sq = &last_sq_v; /* last '"' and "'" (-1: none) */
    for (;;) {
        Py_ssize_t k = SUF_find_lt(s, n, i);
        if (k < 0)
            break;
        Py_ssize_t j = k + 1;
        if (j < n && s[j] == '/')
            j++;
        i = k + 1;
        if (j >= n)
            continue;
        Py_UCS4 c = s[j];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            continue;
        Py_ssize_t m = j + 1;
        while (m < n) {
            c = s[m];
            if (c == '/' || c == '<' || c == '>' || Py_UNICODE_ISSPACE(c))
                break;
            m++;
        }
        if (m >= n || c == '<')
            continue;
        Py_ssize_t name_end = m, close;
        if (c == '>') {
            close = m;
        } else {
            /* Attributes: a quoted value after "=" (and white space) is
             * skipped whole when its quote closes later on; any other
             * quote is an ordinary character. Stops at "<" or ">". */
            Py_ssize_t a = m + 1;
            while (a < n) {
                Py_UCS4 ch = s[a];
                if (ch == '<' || ch == '>')
                    break;
                if (ch == '=') {
                    Py_ssize_t b = a + 1;
                    while (b < n && Py_UNICODE_ISSPACE(s[b]))
                        b++;
                    if (b < n && (s[b] == '"' || s[b] == '\'')) {
                        Py_ssize_t last = s[b] == '"' ? *last_dq : *last_sq;
                        if (last == -2) { /* not looked up yet */
                            last = -1;
                            for (Py_ssize_t k2 = n - 1; k2 >= 0; k2--)
                                if (s[k2] == s[b]) {
                                    last = k2;
                                    break;
                                }
                            if (s[b] == '"')
                                *last_dq = last;
                            else
                                *last_sq = last;
                        }
                        if (b < last) { /* the closing quote exists: memchr finds it in narrow text */
                            a = SUF(find_ch)(s, n, b + 1, (int)s[b]) + 1;
                            continue;
                        }
                    }
                }
                a++;
            }
            if (a >= n || s[a] == '<')
                continue;
            close = a;
        }
        if (count * 3 + 3 > *cap) {
            Py_ssize_t ncap = *cap ? *cap * 2 : 3 * 1024;
            Py_ssize_t *nb = PyMem_Realloc(*bounds, (size_t)ncap * sizeof(Py_ssize_t));
            if (!nb)
                return -1;
            *bounds = nb;
            *cap = ncap;
        }
        (*bounds)[3 * count] = k;
        (*bounds)[3 * count + 1] = name_end;
        (*bounds)[3 * count + 2] = close;
        count++;
        i = close + 1;
    }
    return count;
}

/* The character at s[k] as the words are counted: a numeric character
 * reference (scripts.counted_text) stands for the character it names when
 * that character is one HTML decodes to itself; returns the index after it. */
static inline Py_ssize_t SUF(counted_char)(const CH *s, Py_ssize_t k, Py_ssize_t b, Py_UCS4 *out)
{
    Py_UCS4 c = s[k];
    *out = c;
    if (c != '&' || k + 2 >= b || s[k + 1] != '#')
        return k + 1;
    Py_ssize_t j = k + 2;
    int hex = s[j] == 'x' || s[j] == 'X';
    j += hex;
    Py_ssize_t digits = j;
    uint32_t v = 0;
    for (; j < b; j++) {
        Py_UCS4 d = s[j];
        uint32_t x;
        if (d >= '0' && d <= '9')
            x = d - '0';
        else if (hex && (d | 0x20) >= 'a' && (d | 0x20) <= 'f')
            x = (d | 0x20) - 'a' + 10;
        else
            break;
        v = v * (hex ? 16u : 10u) + x;
        if (v > 0x110000)
            v = 0x110000; /* out of range stays out of range */
    }
    if (j == digits || !counted_codepoint(v))
        return k + 1;
    if (j < b && s[j] == ';')
        j++;
    *out = v;
    return j;
}

/* Words of s[a:b] as scripts.weighted_words counts them in scripts.counted_text,
 * with the separator rule of document._drop_separators; *nonspace tells if any
 * counted character is not white space, *counted how many characters it counted. */
static double SUF(segment_words)(const CH *s, Py_ssize_t a, Py_ssize_t b, int *nonspace, Py_ssize_t *counted)
{
    Py_ssize_t tokens = 0, cjk = 0, sea = 0, chars = 0;
    int in_token = 0, any = 0;
#define COUNT_CHAR(ch)                                                                                                 \
    do {                                                                                                              \
        Py_UCS4 c_ = (ch);                                                                                            \
        int space, spaceless = 0;                                                                                     \
        if (c_ < 128) {                                                                                               \
            space = Py_UNICODE_ISSPACE(c_);                                                                           \
        } else {                                                                                                      \
            space = c_ <= 0x3000 && Py_UNICODE_ISSPACE(c_); /* no white space above U+3000 */                       \
            if (!space && c_ >= 0x0e01) {                                                                             \
                if (in_ranges(c_, cjk_ranges, n_cjk)) {                                                               \
                    cjk++;                                                                                            \
                    spaceless = 1;                                                                                    \
                } else if (in_ranges(c_, sea_ranges, n_sea)) {                                                        \
                    sea++;                                                                                            \
                    spaceless = 1;                                                                                    \
                }                                                                                                     \
            }                                                                                                         \
        }                                                                                                             \
        if (!space)                                                                                                   \
            any = 1;                                                                                                  \
        if (space || spaceless) {                                                                                     \
            in_token = 0;                                                                                             \
        } else if (!in_token) {                                                                                       \
            in_token = 1;                                                                                             \
            tokens++;                                                                                                 \
        }                                                                                                             \
    } while (0)
    for (Py_ssize_t k = a; k < b; chars++) {
        Py_UCS4 c = s[k];
        if (c == '&')
            k = SUF(counted_char)(s, k, b, &c);
        else
            k++;
        COUNT_CHAR(c);
    }
#undef COUNT_CHAR
    *nonspace = any;
    *counted = chars;
    double words = (double)tokens;
    if (cjk || sea)
        words = (double)tokens + (double)cjk * cjk_weight + (double)sea * sea_weight;
    if (words > 0 && chars <= separator_chars) {
        int word_char = 0;
        for (Py_ssize_t k = a; k < b && !word_char;) {
            Py_UCS4 c;
            k = SUF(counted_char)(s, k, b, &c);
            word_char = c == '_' || Py_UNICODE_ISALNUM(c);
        }
        if (!word_char)
            words = 0.0;
    }
    return words;
}

/* Whether the pieces s[a0:a1] and s[b0:b1], met at an element boundary, part: parted() of
 * scrapy_bte/core/document.py. */
static int SUF(parted)(const CH *s, Py_ssize_t a0, Py_ssize_t a1, Py_ssize_t b0, Py_ssize_t b1)
{
    Py_UCS4 a = s[a1 - 1], b = s[b0];
    if (!ascii_alnum(a) || !ascii_alnum(b) || (a >= 'A' && a <= 'Z' && b >= 'a' && b <= 'z'))
        return 0;
    while (a0 < a1 && Py_UNICODE_ISSPACE(s[a0]))
        a0++;
    while (b1 > b0 && Py_UNICODE_ISSPACE(s[b1 - 1]))
        b1--;
    return a1 - a0 >= join_piece && b1 - b0 >= join_piece &&
           (a1 - a0 != b1 - b0 || memcmp(s + a0, s + b0, (size_t)(a1 - a0) * sizeof(CH)) != 0);
}

/* The segments with a NUL at every block tag and a space where an end tag, then a start tag,
 * with nothing between them part two pieces (weave_reference). `out` holds the text, one NUL
 * per block tag and one space per tag. */
static Py_ssize_t SUF(weave)(const CH *s, Py_ssize_t n, const Py_ssize_t *bounds, Py_ssize_t count,
                             const unsigned char *flags, CH *out)
{
    Py_ssize_t o = 0, prev = 0, before = 0, before_end = 0;
    int seen_end = 0, seam = 0;
    for (Py_ssize_t t = 0; t <= count; t++) {
        Py_ssize_t start = t < count ? bounds[3 * t] : n;
        if (start > prev) {
            if (seam && before_end > before && SUF(parted)(s, before, before_end, prev, start))
                out[o++] = ' ';
            memcpy(out + o, s + prev, (size_t)(start - prev) * sizeof(CH));
            o += start - prev;
            before = prev;
            before_end = start;
            seen_end = seam = 0;
        }
        if (t == count)
            break;
        if (flags[t] & FLAG_BLOCK) {
            out[o++] = 0;
            before = before_end = 0;
            seen_end = seam = 0;
        } else if (s[start + 1] == '/') {
            seen_end = 1;
        } else if (seen_end) {
            seam = 1;
        }
        prev = bounds[3 * t + 2] + 1;
    }
    return o;
}

/* " ".join(piece.split()) of the NUL-separated pieces of s numbered keep[0] < keep[1] < ...,
 * stored in `out` (a list of n_keep items); pieces before, between and after them are skipped
 * unread. Returns how many were stored: fewer than n_keep when an index is out of order or past
 * the last piece. */
static Py_ssize_t SUF(split_blocks)(PyObject *out, const CH *s, Py_ssize_t n, int kind, const int64_t *keep,
                                    Py_ssize_t n_keep)
{
    CH *buf = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(CH));
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0, j = 0;
    int64_t piece_no = 0;
    for (; j < n_keep; j++) {
        if (keep[j] < piece_no)
            break;
        while (piece_no < keep[j] && k >= 0) {
            k = SUF(find_ch)(s, n, k, 0);
            if (k >= 0)
                k++;
            piece_no++;
        }
        if (k < 0 || k > n)
            break;
        Py_ssize_t o = 0;
        int pending = 0; /* a space is owed before the next word character */
        for (; k < n && s[k] != 0; k++) {
            Py_UCS4 c = s[k];
            if (Py_UNICODE_ISSPACE(c)) {
                pending = o > 0;
            } else {
                if (pending) {
                    buf[o++] = ' ';
                    pending = 0;
                }
                buf[o++] = (CH)c;
            }
        }
        PyObject *piece = PyUnicode_FromKindAndData(kind, buf, o);
        if (piece == NULL) {
            PyMem_Free(buf);
            return -1;
        }
        PyList_SET_ITEM(out, j, piece);
        k++; /* past the NUL, or past the end after the last piece */
        piece_no++;
    }
    PyMem_Free(buf);
    return j;
}

#undef SUF_find_lt
#undef SUF_find_gt
