/* The per-text tests of labels.label_features in one pass per text
 * (optional accelerator).
 *
 * The Python reference (labels.text_flags_reference) builds several
 * derived strings per short block (stripped, partitioned, split) and tests
 * each against a word set: a dozen small allocations and method calls for
 * every block of a page. Here each lower-cased text is read once; a derived
 * string is made only where a set look-up needs it and its length can match
 * a word of the set. The word sets, the label tail characters and the prefix
 * tuples are words.py's own, handed over once by configure(); the numeric
 * date pattern (words.NUMERIC_DATE_RE, a few fixed branches) is spelled
 * out in date_at, where a regular expression search cost a microsecond a text.
 *
 * Python semantics kept exactly: str.strip(chars), str.partition, str.rstrip()
 * and str.split(None, 1) (whitespace = Py_UNICODE_ISSPACE), str.startswith(tuple),
 * and the regular expressions' classes \d (Py_UNICODE_ISDECIMAL), \s
 * (Py_UNICODE_ISSPACE) and [^\W\d_] (Py_UNICODE_ISALNUM, not decimal, not '_').
 *
 * Two more steps of label_features: lowered() (str.lower of the short texts,
 * ASCII ones without a method call) and beside() (the blocks next to <img> tags).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

/* Bits of one text's flag byte; labels.py names the same bits. */
#define LABEL 1
#define LABEL_COLON 2
#define BYLINE_START 4
#define CREDIT_START 8
#define DIGIT 16
#define DATE_WORD 32
#define NUMERIC_DATE 64
#define READ_TIME_WORD 128

/* Classes of ASCII characters for the first scan of a text. */
#define COLON 1
#define SLASH 2
#define DECIMAL 4
#define AFTER_DIGIT 8 /* a digit followed by it is a date mark (see numeric_date) */

/* A word set and the lengths of its shortest and longest words (no string of another length is in it). */
typedef struct {
    PyObject *set;
    Py_ssize_t shortest, longest;
    /* Per length up to `longest`, bit c % 64 when a word of that length starts (first) or ends
     * (last) with character c: most strings are ruled out without being made and hashed. */
    uint64_t *first, *last;
} words;

/* Strings looked for at the start of a text or anywhere in it, as UCS4 arrays. */
typedef struct {
    PyObject *tuple; /* the tuple of str they were copied from (kept for reference) */
    Py_ssize_t count;
    Py_UCS4 **chars;
    Py_ssize_t *lengths;
    /* Per ASCII character, bit k when needle k (k < 64) starts with it; needles from 64 on
     * and texts starting with a non-ASCII character are compared one by one. */
    uint64_t by_first[128];
    uint64_t wide_first; /* bit k when needle k (k < 64) starts with a non-ASCII character */
} needles;

static struct {
    int ready;
    Py_UCS4 *tail; /* the label tail characters */
    Py_ssize_t n_tail;
    unsigned char ascii_tail[128];
    words labels, colon_labels, byline_first, byline_heads, credit_words, date_words;
    needles byline_prefixes, credit_starts, read_time_words;
    unsigned char ascii_class[128]; /* per ASCII character, the bits below */
    Py_UCS4 *marks;                 /* characters that make a date mark anywhere */
    Py_ssize_t n_marks;
    PyObject *lower; /* the interned method name "lower" */
} cfg;

static int in_tail(Py_UCS4 ch)
{
    if (ch < 128)
        return cfg.ascii_tail[ch];
    for (Py_ssize_t i = 0; i < cfg.n_tail; i++)
        if (cfg.tail[i] == ch)
            return 1;
    return 0;
}

static int is_mark(Py_UCS4 ch)
{
    for (Py_ssize_t i = 0; i < cfg.n_marks; i++)
        if (cfg.marks[i] == ch)
            return 1;
    return 0;
}

/* A character of [^\W\d_]: what _DATE_SPLIT_RE does not split on. */
static inline int is_letter(Py_UCS4 ch)
{
    if (ch < 128)
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
    return Py_UNICODE_ISALNUM(ch) && !Py_UNICODE_ISDECIMAL(ch);
}

/* Whether text[start:end] is in `w`: 1, 0, or -1 with an exception set. `kind` and `data` are the text's. */
static int contains(const words *w, PyObject *text, int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t length = end - start;
    if (length > w->longest || length < w->shortest)
        return 0;
    if (length > 0 && !((w->first[length] >> (PyUnicode_READ(kind, data, start) & 63)) & 1))
        return 0;
    if (length > 0 && !((w->last[length] >> (PyUnicode_READ(kind, data, end - 1) & 63)) & 1))
        return 0;
    if (start == 0 && end == PyUnicode_GET_LENGTH(text))
        return PySet_Contains(w->set, text);
    PyObject *part = PyUnicode_Substring(text, start, end);
    if (part == NULL)
        return -1;
    int found = PySet_Contains(w->set, part);
    Py_DECREF(part);
    return found;
}

/* Whether needle `k` of `w` occurs in the text at `at`. */
static inline int occurs_at(const needles *w, Py_ssize_t k, int kind, const void *data, Py_ssize_t n, Py_ssize_t at)
{
    Py_ssize_t length = w->lengths[k];
    if (length > n - at)
        return 0;
    const Py_UCS4 *chars = w->chars[k];
    for (Py_ssize_t i = 0; i < length; i++)
        if (PyUnicode_READ(kind, data, at + i) != chars[i])
            return 0;
    return 1;
}

/* str.startswith(tuple). */
static int starts_with(const needles *w, int kind, const void *data, Py_ssize_t n)
{
    if (n == 0)
        return 0; /* needles are never empty */
    Py_UCS4 lead = PyUnicode_READ(kind, data, 0);
    Py_ssize_t k = 0;
    if (lead < 128) {
        for (uint64_t bits = w->by_first[lead]; bits; bits &= bits - 1)
            if (occurs_at(w, count_trailing_zeros64(bits), kind, data, n, 0))
                return 1;
        k = 64;
    }
    for (; k < w->count; k++)
        if (occurs_at(w, k, kind, data, n, 0))
            return 1;
    return 0;
}

/* Whether any needle occurs in the text (needles are never empty). */
static int holds_any(const needles *w, int kind, const void *data, Py_ssize_t n)
{
    for (Py_ssize_t at = 0; at < n; at++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, at);
        uint64_t bits = ch < 128 ? w->by_first[ch] : w->wide_first;
        for (; bits; bits &= bits - 1) {
            int k = count_trailing_zeros64(bits);
            if (w->chars[k][0] == ch && occurs_at(w, k, kind, data, n, at))
                return 1;
        }
        for (Py_ssize_t k = 64; k < w->count; k++)
            if (w->chars[k][0] == ch && occurs_at(w, k, kind, data, n, at))
                return 1;
    }
    return 0;
}

/* Index of the first character at or after `i` that is not whitespace. */
static Py_ssize_t skip_space(int kind, const void *data, Py_ssize_t i, Py_ssize_t n)
{
    while (i < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
        i++;
    return i;
}

/* `end` with the whitespace before it dropped (str.rstrip()). */
static Py_ssize_t rstrip(int kind, const void *data, Py_ssize_t end)
{
    while (end > 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1)))
        end--;
    return end;
}

/* Whether text[j] is a decimal digit (\d). */
static inline int decimal_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t j)
{
    return j < n && Py_UNICODE_ISDECIMAL(PyUnicode_READ(kind, data, j));
}

static inline int char_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t j, Py_UCS4 ch)
{
    return j < n && PyUnicode_READ(kind, data, j) == ch;
}

static inline int separator_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t j)
{
    return char_at(kind, data, n, j, '.') || char_at(kind, data, n, j, '/') || char_at(kind, data, n, j, '-');
}

#define YEAR 0x5E74   /* 年 */
#define MONTH 0x6708  /* 月 */
#define DAY 0x65E5    /* 日 */
#define MINUTE 0x5206 /* 分 */
#define HOUR1 0x6642  /* 時 */
#define HOUR2 0x9593  /* 間 */
#define AGO 0x524D    /* 前 */

/* Whether words.NUMERIC_DATE_RE matches at `i`, a decimal digit: its branches after the first digit,
 * \d{0,3}[./-]\d{1,2}[./-]\d{2,4} | \d?:\d{2} | \d{3}\s*年 | \d?\s*月\s*\d{1,2}\s*日 | \d*\s*(?:分|時間|日)前,
 * each count of a bounded repetition tried in turn. A \s* or \d* run is taken whole: a shorter one
 * leaves a space or digit where the literal after it is needed. The last branch is tried where a run
 * of digits starts (`run_start`), as the pattern's (?<!\d\d) has it: the same run read from each of
 * its digits made a page of 80,000 digits (pi's) take seconds. */
static int date_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, int run_start)
{
    for (Py_ssize_t k = 0; k <= 3 && (k == 0 || decimal_at(kind, data, n, i + k)); k++) {
        Py_ssize_t p = i + 1 + k;
        if (!separator_at(kind, data, n, p))
            continue;
        for (Py_ssize_t m = 1; m <= 2 && decimal_at(kind, data, n, p + m); m++) {
            Py_ssize_t q = p + m + 1;
            if (separator_at(kind, data, n, q) && decimal_at(kind, data, n, q + 1) && decimal_at(kind, data, n, q + 2))
                return 1;
        }
    }
    for (Py_ssize_t k = 0; k <= 1 && (k == 0 || decimal_at(kind, data, n, i + k)); k++) {
        Py_ssize_t p = i + 1 + k;
        if (char_at(kind, data, n, p, ':') && decimal_at(kind, data, n, p + 1) && decimal_at(kind, data, n, p + 2))
            return 1;
    }
    if (decimal_at(kind, data, n, i + 1) && decimal_at(kind, data, n, i + 2) && decimal_at(kind, data, n, i + 3)
        && char_at(kind, data, n, skip_space(kind, data, i + 4, n), YEAR))
        return 1;
    for (Py_ssize_t k = 0; k <= 1 && (k == 0 || decimal_at(kind, data, n, i + k)); k++) {
        Py_ssize_t p = skip_space(kind, data, i + 1 + k, n);
        if (!char_at(kind, data, n, p, MONTH))
            continue;
        p = skip_space(kind, data, p + 1, n);
        for (Py_ssize_t m = 1; m <= 2 && decimal_at(kind, data, n, p + m - 1); m++)
            if (char_at(kind, data, n, skip_space(kind, data, p + m, n), DAY))
                return 1;
    }
    if (!run_start)
        return 0;
    Py_ssize_t p = i + 1;
    while (decimal_at(kind, data, n, p))
        p++;
    p = skip_space(kind, data, p, n);
    if ((char_at(kind, data, n, p, MINUTE) || char_at(kind, data, n, p, DAY)) && char_at(kind, data, n, p + 1, AGO))
        return 1;
    return char_at(kind, data, n, p, HOUR1) && char_at(kind, data, n, p + 1, HOUR2) && char_at(kind, data, n, p + 2, AGO);
}

/* Whether words.NUMERIC_DATE_RE.search(text) finds a match. */
static int numeric_date(int kind, const void *data, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (decimal_at(kind, data, n, i) && date_at(kind, data, n, i, i == 0 || !decimal_at(kind, data, n, i - 1)))
            return 1;
    return 0;
}

#define CHECK(expr)                                                                                                    \
    do {                                                                                                               \
        found = (expr);                                                                                                \
        if (found < 0)                                                                                                 \
            return -1;                                                                                                 \
    } while (0)

/* The flag byte of one lower-cased text, or -1 with an exception set. */
static int text_flags(PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "texts must be str");
        return -1;
    }
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int flags = 0, found;

    /* One scan: the first ':' or '：', the first '/', digits and date marks. */
    Py_ssize_t colon = n, slash = n;
    int digit = 0, mark = 0, after_digit = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 128) {
            unsigned char c = cfg.ascii_class[ch];
            if (c) {
                if ((c & COLON) && colon == n)
                    colon = i;
                if ((c & SLASH) && slash == n)
                    slash = i;
                if ((c & AFTER_DIGIT) && after_digit)
                    mark = 1;
                digit |= c & DECIMAL;
            }
            after_digit = c & DECIMAL;
            continue;
        }
        if (ch == 0xFF1A && colon == n)
            colon = i;
        after_digit = Py_UNICODE_ISDECIMAL(ch);
        if (after_digit)
            digit = 1;
        else if (is_mark(ch))
            mark = 1;
    }

    /* t.strip(_LABEL_TAIL) in _LABEL_SET */
    Py_ssize_t start = 0, end = n;
    while (start < end && in_tail(PyUnicode_READ(kind, data, start)))
        start++;
    while (end > start && in_tail(PyUnicode_READ(kind, data, end - 1)))
        end--;
    CHECK(contains(&cfg.labels, text, kind, data, start, end));
    if (found)
        flags |= LABEL;

    /* The words before a colon (heads) or a slash, right-stripped. */
    Py_ssize_t head = rstrip(kind, data, colon), before_slash = rstrip(kind, data, slash);
    if (head < n) {
        CHECK(contains(&cfg.colon_labels, text, kind, data, 0, head));
        if (found)
            flags |= LABEL_COLON;
    }

    /* Byline: a first word followed by more, a head, or a prefix. */
    Py_ssize_t first = skip_space(kind, data, 0, n), first_end = first;
    while (first_end < n && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, first_end)))
        first_end++;
    found = 0;
    if (first < n && skip_space(kind, data, first_end, n) < n)
        CHECK(contains(&cfg.byline_first, text, kind, data, first, first_end));
    if (!found)
        CHECK(contains(&cfg.byline_heads, text, kind, data, 0, head));
    if (!found)
        found = starts_with(&cfg.byline_prefixes, kind, data, n);
    if (found)
        flags |= BYLINE_START;

    /* Credit: a credit word before a colon or a slash, or a prefix. */
    found = 0;
    if (head < n)
        CHECK(contains(&cfg.credit_words, text, kind, data, 0, head));
    if (!found && before_slash < n)
        CHECK(contains(&cfg.credit_words, text, kind, data, 0, before_slash));
    if (!found)
        found = starts_with(&cfg.credit_starts, kind, data, n);
    if (found)
        flags |= CREDIT_START;

    if (!digit)
        return flags;
    flags |= DIGIT;
    if (mark && numeric_date(kind, data, n))
        flags |= NUMERIC_DATE;
    /* A date word among the runs of letters. */
    for (Py_ssize_t i = 0; i < n;) {
        if (!is_letter(PyUnicode_READ(kind, data, i))) {
            i++;
            continue;
        }
        Py_ssize_t j = i + 1;
        while (j < n && is_letter(PyUnicode_READ(kind, data, j)))
            j++;
        CHECK(contains(&cfg.date_words, text, kind, data, i, j));
        if (found) {
            flags |= DATE_WORD;
            break;
        }
        i = j;
    }
    if (holds_any(&cfg.read_time_words, kind, data, n))
        flags |= READ_TIME_WORD;
    return flags;
}

PyDoc_STRVAR(flags_doc, "flags(texts) -> bytes\n\n"
                        "One flag byte per lower-cased text of the list `texts` (bits as in\n"
                        "labels.text_flags_reference).");

static PyObject *flags(PyObject *Py_UNUSED(self), PyObject *texts)
{
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    if (!PyList_Check(texts)) {
        PyErr_SetString(PyExc_TypeError, "texts must be a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    char *bits = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        int value = text_flags(PyList_GET_ITEM(texts, i));
        if (value < 0) {
            Py_DECREF(out);
            return NULL;
        }
        bits[i] = (char)value;
    }
    return out;
}

PyDoc_STRVAR(lowered_doc, "lowered(texts, rows) -> list\n\n"
                          "[texts[i].lower() for i in rows]: `texts` a list of str, `rows` a list of int.\n"
                          "An ASCII text is lowered here (itself when it has no capital), any other by str.lower.");

static PyObject *lowered(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *texts, *rows;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &texts, &PyList_Type, &rows))
        return NULL;
    if (cfg.lower == NULL && (cfg.lower = PyUnicode_InternFromString("lower")) == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(rows), n_texts = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyList_GET_ITEM(rows, k));
        if (i == -1 && PyErr_Occurred())
            goto fail;
        if (i < 0 || i >= n_texts) {
            PyErr_SetString(PyExc_IndexError, "row out of range");
            goto fail;
        }
        PyObject *text = PyList_GET_ITEM(texts, i), *low = NULL;
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto fail;
        }
        if (PyUnicode_IS_ASCII(text)) {
            const Py_UCS1 *data = PyUnicode_1BYTE_DATA(text);
            Py_ssize_t length = PyUnicode_GET_LENGTH(text), j = 0;
            while (j < length && !(data[j] >= 'A' && data[j] <= 'Z'))
                j++;
            if (j == length) {
                low = Py_NewRef(text);
            }
            else {
                low = PyUnicode_New(length, 127);
                if (low == NULL)
                    goto fail;
                Py_UCS1 *to = PyUnicode_1BYTE_DATA(low);
                memcpy(to, data, j);
                for (; j < length; j++)
                    to[j] = (data[j] >= 'A' && data[j] <= 'Z') ? data[j] + ('a' - 'A') : data[j];
            }
        }
        else {
            low = PyObject_CallMethodNoArgs(text, cfg.lower);
            if (low == NULL)
                goto fail;
        }
        PyList_SET_ITEM(out, k, low);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* item == name for a str `name`: an exact str compared by length and characters (no call). 1, 0 or -1. */
static int same_str(PyObject *item, PyObject *name)
{
    if (item == name)
        return 1;
    if (PyUnicode_CheckExact(item)) {
        Py_ssize_t length = PyUnicode_GET_LENGTH(name);
        int kind = PyUnicode_KIND(name);
        return PyUnicode_GET_LENGTH(item) == length && PyUnicode_KIND(item) == kind
               && memcmp(PyUnicode_DATA(item), PyUnicode_DATA(name), (size_t)length * kind) == 0;
    }
    Py_INCREF(item); /* == may run Python code that changes the list holding it */
    int equal = PyObject_RichCompareBool(item, name, Py_EQ);
    Py_DECREF(item);
    return equal;
}

PyDoc_STRVAR(beside_doc, "beside(names, name, seg_block, out)\n\n"
                         "Sets to 1.0 the cells of `out` (float64, C-contiguous, shape (n_blocks, 2)) of the\n"
                         "blocks a tag named `name` (in the list `names`) stands before (column 0) or after\n"
                         "(column 1), as labels._next_to_images reads them: tag t lies between segments t\n"
                         "and t + 1 of `seg_block` (int64, each segment's block or -1) and outside a block\n"
                         "unless both belong to it; the block before it is the largest of segments 0..t.");

static PyObject *beside(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *names, *name, *seg_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "O!UOO", &PyList_Type, &names, &name, &seg_obj, &out_obj))
        return NULL;
    Py_buffer seg = {0}, out = {0};
    PyObject *result = NULL;
    if (get_view(seg_obj, I64, -1, "seg_block", &seg) < 0 || get_writable_view(out_obj, F64, -1, "out", &out) < 0)
        goto done;
    if (out.len % 16) {
        PyErr_SetString(PyExc_TypeError, "seg_block must be int64 and out float64 of shape (n, 2)");
        goto done;
    }
    const int64_t *blocks = seg.buf;
    double *cells = out.buf;
    const Py_ssize_t n_seg = seg.len / 8, n = out.len / 16;
    int64_t before = -1; /* the largest block of the segments so far */
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(names); t++) {
        if (t < n_seg && blocks[t] > before)
            before = blocks[t];
        int equal = same_str(PyList_GET_ITEM(names, t), name);
        if (equal < 0)
            goto done;
        if (!equal)
            continue;
        if (t + 1 >= n_seg) {
            PyErr_SetString(PyExc_IndexError, "seg_block does not fit names");
            goto done;
        }
        if (blocks[t] >= 0 && blocks[t + 1] == blocks[t])
            continue; /* inside a block */
        if (before >= n) {
            PyErr_SetString(PyExc_IndexError, "seg_block does not fit out");
            goto done;
        }
        if (before + 1 < n)
            cells[2 * (before + 1)] = 1.0;
        if (before >= 0)
            cells[2 * before + 1] = 1.0;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&seg);
    PyBuffer_Release(&out);
    return result;
}

PyDoc_STRVAR(repeats_doc, "repeats(texts, out) -> int\n\n"
                          "Writes to `out` (float64, C-contiguous, one cell per text) how many times each text\n"
                          "of the list `texts` occurs in it, and returns the number of distinct texts\n"
                          "(collections.Counter's counts and length).");

/* A key of a text that equal texts share: its length, kind and up to 24 of its bytes (the first,
 * middle and last 8). Texts with other bytes in between share it too and are told apart by
 * memcmp; a page's texts are hashed without reading them whole (str's own hash reads every
 * character of every block, and a page's texts are new strings). */
static uint64_t text_key(PyObject *text)
{
    const Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    const int kind = PyUnicode_KIND(text);
    const size_t size = (size_t)length * (size_t)kind;
    const unsigned char *data = PyUnicode_DATA(text);
    uint64_t a = 0, b = 0, c = 0;
    if (size <= 24) {
        unsigned char buf[24] = {0};
        memcpy(buf, data, size);
        memcpy(&a, buf, 8);
        memcpy(&b, buf + 8, 8);
        memcpy(&c, buf + 16, 8);
    }
    else {
        memcpy(&a, data, 8);
        memcpy(&b, data + size / 2 - 4, 8);
        memcpy(&c, data + size - 8, 8);
    }
    uint64_t h = (uint64_t)size * 0x9E3779B97F4A7C15ULL ^ (uint64_t)kind;
    h = (h ^ a) * 0xFF51AFD7ED558CCDULL;
    h = (h ^ (h >> 29) ^ b) * 0xC4CEB9FE1A85EC53ULL;
    h = (h ^ (h >> 32) ^ c) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 31);
}

/* str == str for exact, ready str objects: the same length, kind and bytes (a str is stored in
 * the narrowest kind that holds it, so equal texts have equal kinds). */
static int same_text(PyObject *a, PyObject *b)
{
    const Py_ssize_t length = PyUnicode_GET_LENGTH(a);
    const int kind = PyUnicode_KIND(a);
    return a == b
           || (PyUnicode_GET_LENGTH(b) == length && PyUnicode_KIND(b) == kind
               && memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)length * (size_t)kind) == 0);
}

/* The counts through a dict keyed by the texts themselves: any list (str subclasses compare by
 * their own __eq__). `owner` gets each text's first occurrence. The number of distinct texts, or -1. */
static Py_ssize_t repeats_by_dict(PyObject *texts, Py_ssize_t n, double *cells, Py_ssize_t *owner)
{
    Py_ssize_t distinct = -1;
    PyObject *counts = PyDict_New();
    PyObject *keys = PyList_GetSlice(texts, 0, n); /* the texts stay alive while `counts` holds them */
    if (counts == NULL || keys == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(keys, i);
        PyObject *first = PyDict_GetItemWithError(counts, text); /* borrowed */
        if (first == NULL) {
            if (PyErr_Occurred())
                goto done;
            PyObject *at = PyLong_FromSsize_t(i);
            if (at == NULL || PyDict_SetItem(counts, text, at) < 0) {
                Py_XDECREF(at);
                goto done;
            }
            Py_DECREF(at);
            owner[i] = i;
            cells[i] = 1.0;
        }
        else {
            owner[i] = PyLong_AsSsize_t(first);
            cells[owner[i]] += 1.0;
        }
    }
    distinct = PyDict_GET_SIZE(counts);
done:
    Py_XDECREF(counts);
    Py_XDECREF(keys);
    return distinct;
}

/* The counts through an open-addressing table of text_key values, for a list of exact str only:
 * no Python object is made or hashed. The number of distinct texts, or -1 with MemoryError. */
static Py_ssize_t repeats_by_key(PyObject *texts, Py_ssize_t n, double *cells, Py_ssize_t *owner)
{
    size_t size = 16;
    while (size < 2 * (size_t)n)
        size *= 2;
    const size_t mask = size - 1;
    Py_ssize_t *slot_of = PyMem_Malloc(size * sizeof(Py_ssize_t)); /* a text's index, or -1: empty */
    uint64_t *key_of = PyMem_Malloc(size * sizeof(uint64_t));
    if (slot_of == NULL || key_of == NULL) {
        PyMem_Free(slot_of);
        PyMem_Free(key_of);
        PyErr_NoMemory();
        return -1;
    }
    memset(slot_of, 0xFF, size * sizeof(Py_ssize_t));
    Py_ssize_t distinct = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        const uint64_t key = text_key(text);
        size_t at = (size_t)key & mask;
        for (;;) {
            const Py_ssize_t j = slot_of[at];
            if (j < 0) {
                slot_of[at] = i;
                key_of[at] = key;
                owner[i] = i;
                cells[i] = 1.0;
                distinct++;
                break;
            }
            if (key_of[at] == key && same_text(PyList_GET_ITEM(texts, j), text)) {
                owner[i] = j;
                cells[j] += 1.0;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    PyMem_Free(slot_of);
    PyMem_Free(key_of);
    return distinct;
}

static PyObject *repeats(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *texts, *out_obj;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &texts, &out_obj))
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(texts);
    Py_buffer out;
    if (get_writable_view(out_obj, F64, n, "out", &out) < 0)
        return NULL;
    PyObject *result = NULL;
    double *cells = out.buf;
    /* Per text, the index of its first occurrence, where its count is kept. */
    Py_ssize_t *owner = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
    if (owner == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int exact = 1;
    for (Py_ssize_t i = 0; i < n && exact; i++)
        exact = PyUnicode_CheckExact(PyList_GET_ITEM(texts, i));
    Py_ssize_t distinct = exact ? repeats_by_key(texts, n, cells, owner) : repeats_by_dict(texts, n, cells, owner);
    if (distinct < 0)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        cells[i] = cells[owner[i]];
    result = PyLong_FromSsize_t(distinct);
done:
    PyMem_Free(owner);
    PyBuffer_Release(&out);
    return result;
}

/* ---------------------------------------------------------------- configure */

/* Whether `obj` is a frozenset of str (a set could change under the lengths kept); -1 with a TypeError when not. */
static int check_words(PyObject *obj, const char *name)
{
    if (!PyFrozenSet_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a frozenset of str", name);
        return -1;
    }
    PyObject *it = PyObject_GetIter(obj), *key;
    if (it == NULL)
        return -1;
    int ok = 1;
    while (ok && (key = PyIter_Next(it)) != NULL) {
        ok = PyUnicode_Check(key);
        Py_DECREF(key);
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return -1;
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s must be a frozenset of str", name);
        return -1;
    }
    return 0;
}

/* Whether `obj` is a tuple of non-empty str; -1 with a TypeError when not. */
static int check_needles(PyObject *obj, const char *name)
{
    if (PyTuple_Check(obj)) {
        Py_ssize_t k = 0;
        while (k < PyTuple_GET_SIZE(obj) && PyUnicode_Check(PyTuple_GET_ITEM(obj, k))
               && PyUnicode_GET_LENGTH(PyTuple_GET_ITEM(obj, k)) > 0)
            k++;
        if (k == PyTuple_GET_SIZE(obj))
            return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be a tuple of non-empty str", name);
    return -1;
}

/* Takes a checked frozenset of str; -1 when out of memory. */
static int set_words(words *w, PyObject *set)
{
    Py_ssize_t shortest = PY_SSIZE_T_MAX, longest = -1;
    PyObject *it = PyObject_GetIter(set), *key;
    if (it == NULL)
        return -1;
    while ((key = PyIter_Next(it)) != NULL) {
        Py_ssize_t length = PyUnicode_GET_LENGTH(key);
        longest = length > longest ? length : longest;
        shortest = length < shortest ? length : shortest;
        Py_DECREF(key);
    }
    Py_DECREF(it);
    PyMem_Free(w->first);
    PyMem_Free(w->last);
    w->first = PyMem_Calloc(longest + 2, sizeof(uint64_t));
    w->last = PyMem_Calloc(longest + 2, sizeof(uint64_t));
    Py_XSETREF(w->set, Py_NewRef(set));
    w->shortest = shortest;
    w->longest = -1; /* matches nothing until the filters are filled */
    if (w->first == NULL || w->last == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    it = PyObject_GetIter(set);
    if (it == NULL)
        return -1;
    while ((key = PyIter_Next(it)) != NULL) {
        Py_ssize_t length = PyUnicode_GET_LENGTH(key);
        if (length > 0) {
            w->first[length] |= (uint64_t)1 << (PyUnicode_READ_CHAR(key, 0) & 63);
            w->last[length] |= (uint64_t)1 << (PyUnicode_READ_CHAR(key, length - 1) & 63);
        }
        Py_DECREF(key);
    }
    Py_DECREF(it);
    w->longest = longest;
    return 0;
}

static void clear_needles(needles *w)
{
    for (Py_ssize_t k = 0; k < w->count; k++)
        PyMem_Free(w->chars[k]);
    PyMem_Free(w->chars);
    PyMem_Free(w->lengths);
    Py_CLEAR(w->tuple);
    w->chars = NULL;
    w->lengths = NULL;
    w->count = 0;
    memset(w->by_first, 0, sizeof(w->by_first));
    w->wide_first = 0;
}

/* Takes a checked tuple of non-empty str; -1 when out of memory. */
static int set_needles(needles *w, PyObject *tuple)
{
    clear_needles(w);
    Py_ssize_t count = PyTuple_GET_SIZE(tuple);
    w->chars = PyMem_Calloc(count ? count : 1, sizeof(Py_UCS4 *));
    w->lengths = PyMem_Calloc(count ? count : 1, sizeof(Py_ssize_t));
    if (w->chars == NULL || w->lengths == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    w->tuple = Py_NewRef(tuple);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, k);
        w->count = k + 1; /* freed by the next clear_needles() from here on */
        w->chars[k] = PyUnicode_AsUCS4Copy(item);
        if (w->chars[k] == NULL)
            return -1;
        w->lengths[k] = PyUnicode_GET_LENGTH(item);
        if (k < 64 && w->chars[k][0] < 128)
            w->by_first[w->chars[k][0]] |= (uint64_t)1 << k;
        else if (k < 64)
            w->wide_first |= (uint64_t)1 << k;
    }
    return 0;
}

static int set_chars(Py_UCS4 **slot, Py_ssize_t *count, PyObject *chars)
{
    Py_UCS4 *copy = PyUnicode_AsUCS4Copy(chars);
    if (copy == NULL)
        return -1;
    PyMem_Free(*slot);
    *slot = copy;
    *count = PyUnicode_GET_LENGTH(chars);
    return 0;
}

PyDoc_STRVAR(configure_doc,
             "configure(label_tail, labels, colon_labels, byline_first, byline_heads, byline_prefixes,\n"
             "          credit_words, credit_starts, date_words, after_digit, date_marks, read_time_words)\n\n"
             "Hands over words.py's word sets (frozensets of str), prefix and word tuples (tuples of\n"
             "non-empty str) and characters (str: `after_digit` ASCII, `date_marks` not ASCII);\n"
             "flags() reads them from then on. Invalid arguments leave the previous ones in place.");

static PyObject *configure(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *tail, *labels, *colon_labels, *byline_first, *byline_heads, *byline_prefixes, *credit_words;
    PyObject *credit_starts, *date_words, *after_digit, *date_marks, *read_time_words;
    if (!PyArg_ParseTuple(args, "UOOOOOOOOUUO", &tail, &labels, &colon_labels, &byline_first, &byline_heads,
                          &byline_prefixes, &credit_words, &credit_starts, &date_words, &after_digit, &date_marks,
                          &read_time_words))
        return NULL;
    if (check_words(labels, "labels") < 0 || check_words(colon_labels, "colon_labels") < 0
        || check_words(byline_first, "byline_first") < 0 || check_words(byline_heads, "byline_heads") < 0
        || check_words(credit_words, "credit_words") < 0 || check_words(date_words, "date_words") < 0
        || check_needles(byline_prefixes, "byline_prefixes") < 0 || check_needles(credit_starts, "credit_starts") < 0
        || check_needles(read_time_words, "read_time_words") < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(after_digit); i++) {
        if (PyUnicode_READ_CHAR(after_digit, i) >= 128) {
            PyErr_SetString(PyExc_ValueError, "after_digit must be ASCII");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(date_marks); i++) {
        if (PyUnicode_READ_CHAR(date_marks, i) < 128) {
            PyErr_SetString(PyExc_ValueError, "date_marks must not be ASCII");
            return NULL;
        }
    }
    cfg.ready = 0; /* until every part is in place */
    if (set_chars(&cfg.tail, &cfg.n_tail, tail) < 0 || set_chars(&cfg.marks, &cfg.n_marks, date_marks) < 0)
        return NULL;
    memset(cfg.ascii_tail, 0, sizeof(cfg.ascii_tail));
    for (Py_ssize_t i = 0; i < cfg.n_tail; i++)
        if (cfg.tail[i] < 128)
            cfg.ascii_tail[cfg.tail[i]] = 1;
    memset(cfg.ascii_class, 0, sizeof(cfg.ascii_class));
    cfg.ascii_class[':'] |= COLON;
    cfg.ascii_class['/'] |= SLASH;
    for (Py_UCS4 ch = '0'; ch <= '9'; ch++)
        cfg.ascii_class[ch] |= DECIMAL;
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(after_digit); i++)
        cfg.ascii_class[PyUnicode_READ_CHAR(after_digit, i)] |= AFTER_DIGIT;
    if (set_words(&cfg.labels, labels) < 0 || set_words(&cfg.colon_labels, colon_labels) < 0
        || set_words(&cfg.byline_first, byline_first) < 0 || set_words(&cfg.byline_heads, byline_heads) < 0
        || set_words(&cfg.credit_words, credit_words) < 0 || set_words(&cfg.date_words, date_words) < 0
        || set_needles(&cfg.byline_prefixes, byline_prefixes) < 0 || set_needles(&cfg.credit_starts, credit_starts) < 0
        || set_needles(&cfg.read_time_words, read_time_words) < 0)
        return NULL;
    cfg.ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(columns_doc, "columns(bits, rows, out) -> list\n\n"
                          "Writes the flags `bits` (uint8, one per text) of the blocks `rows` (int64) into\n"
                          "`out` (float64, C-contiguous, shape (n_blocks, 9)) as labels.label_features\n"
                          "reads them: bits 0-3 to columns 0-3, and column 4 (date_like) 1.0 where a date word or\n"
                          "a numeric date was found; other cells are left alone. Returns the indices into\n"
                          "`bits` of the texts holding a reading-time word.");

static PyObject *columns(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_bits, *o_rows, *o_out;
    if (!PyArg_ParseTuple(args, "OOO", &o_bits, &o_rows, &o_out))
        return NULL;
    Py_buffer bb = {0}, rb = {0}, ob = {0};
    PyObject *result = NULL;
    if (get_view(o_rows, I64, -1, "rows", &rb) < 0)
        goto done;
    Py_ssize_t n = rb.len / 8, width = 9;
    if (get_view(o_bits, U8, n, "bits", &bb) < 0 || get_writable_view(o_out, F64, -1, "out", &ob) < 0)
        goto done;
    Py_ssize_t n_rows = ob.len / (8 * width);
    if (ob.len != n_rows * 8 * width) {
        PyErr_SetString(PyExc_ValueError, "columns: one flag byte per row; out float64 with 9 columns");
        goto done;
    }
    const unsigned char *bits = bb.buf;
    const int64_t *rows = rb.buf;
    double *out = ob.buf;
    PyObject *read_time = PyList_New(0);
    if (read_time == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t r = rows[i];
        if (r < 0 || r >= n_rows) {
            PyErr_SetString(PyExc_IndexError, "columns: row out of range");
            Py_DECREF(read_time);
            goto done;
        }
        double *cell = out + r * width;
        unsigned char b = bits[i];
        cell[0] = b & LABEL ? 1.0 : 0.0;
        cell[1] = b & LABEL_COLON ? 1.0 : 0.0;
        cell[2] = b & BYLINE_START ? 1.0 : 0.0;
        cell[3] = b & CREDIT_START ? 1.0 : 0.0;
        cell[4] = b & (DATE_WORD | NUMERIC_DATE) ? 1.0 : 0.0;
        if (b & READ_TIME_WORD) {
            PyObject *index = PyLong_FromSsize_t(i);
            if (index == NULL || PyList_Append(read_time, index) < 0) {
                Py_XDECREF(index);
                Py_DECREF(read_time);
                goto done;
            }
            Py_DECREF(index);
        }
    }
    result = read_time;
done:
    PyBuffer_Release(&bb);
    PyBuffer_Release(&rb);
    PyBuffer_Release(&ob);
    return result;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, configure_doc},
    {"flags", flags, METH_O, flags_doc},
    {"lowered", lowered, METH_VARARGS, lowered_doc},
    {"beside", beside, METH_VARARGS, beside_doc},
    {"repeats", repeats, METH_VARARGS, repeats_doc},
    {"columns", columns, METH_VARARGS, columns_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_labels(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
