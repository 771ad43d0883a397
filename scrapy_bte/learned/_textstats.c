/* Per-block character counts of features._text_stats and the title overlap
 * of features._title_overlap, in C (optional accelerator).
 *
 * text_stats: one pass over each block's code points with the same class
 * table the numpy reference uses; counts are integers and each share is one
 * division of the same two float64 operands numpy divides, so both agree
 * exactly (tests/test_scan.py compares them).
 *
 * title_overlap: the words are the runs `re`'s \w+ finds in a str (code
 * points that are alphanumeric or "_"), taken from str.lower() of the text
 * (its full case mapping and final sigma can change lengths and word
 * boundaries, so an ASCII-only text is the only one lowered here). A block's
 * words are looked up in a small hash table of the title's words by code
 * points, without making a str per word.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_native.h"

/* Bits of the class table (features._END, _COMMA, _PUNCT, _DIGIT). */
#define C_END 1
#define C_COMMA 2
#define C_PUNCT 4
#define C_DIGIT 8

/* Counts of one text: digits, punctuation, commas, sentence ends, upper-case letters, spaces. */
typedef struct {
    int64_t digit, punct, comma, stop, upper, space;
    unsigned char last, before;
    Py_UCS4 last_cp;
} Counts;

/* Per character under 256 (ASCII and Latin-1: nearly every character of most pages), its six counts
 * packed in one 64-bit word, 10 bits each in the order of Counts, so that such a character costs
 * one load and one add; the fields are moved out every MAX_RUN characters, before any can overflow. */
#define FIELD_BITS 10
#define MAX_RUN 1023

static void make_packed(const unsigned char *table, uint64_t *packed)
{
    static unsigned char is_upper[256]; /* as count_kind tests it; the same in every call */
    static int upper_ready;
    if (!upper_ready) {
        for (Py_UCS4 c = 0; c < 256; c++)
            is_upper[c] = c < 128 ? c - 'A' < 26 : Py_UNICODE_TOLOWER(c) != c;
        upper_ready = 1;
    }
    for (Py_UCS4 c = 0; c < 256; c++) {
        unsigned char cl = table[c];
        uint64_t upper = is_upper[c];
        packed[c] = (uint64_t)((cl & C_DIGIT) != 0) | (uint64_t)((cl & C_PUNCT) != 0) << FIELD_BITS
                    | (uint64_t)((cl & C_COMMA) != 0) << (2 * FIELD_BITS)
                    | (uint64_t)((cl & C_END) != 0) << (3 * FIELD_BITS) | upper << (4 * FIELD_BITS)
                    | (uint64_t)(c == ' ') << (5 * FIELD_BITS);
    }
}

/* The counts of one text of one kind (inlined per kind, so PyUnicode_READ is a plain load): a
 * character under 256 (nearly every one, in most texts of any kind) adds its packed counts; any
 * other is classed on its own. */
static inline void count_kind(int kind, const void *data, Py_ssize_t len, const unsigned char *table,
                              const uint64_t *packed, Counts *n)
{
    int64_t total[6] = {0, 0, 0, 0, 0, 0};
    for (Py_ssize_t k = 0; k < len;) {
        Py_ssize_t stop = len - k > MAX_RUN ? k + MAX_RUN : len;
        uint64_t sum = 0;
        for (; k < stop; k++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, k);
            if (c < 256) {
                sum += packed[c];
                continue;
            }
            unsigned char cl = table[c > 0xFFFF ? 0xFFFF : c];
            total[0] += (cl & C_DIGIT) != 0;
            total[1] += (cl & C_PUNCT) != 0;
            total[2] += (cl & C_COMMA) != 0;
            total[3] += (cl & C_END) != 0;
            /* str.lower() changes the character: an upper-case letter (U+0130 counts as "I"). */
            total[4] += c == 0x130 || Py_UNICODE_TOLOWER(c) != c;
        }
        for (int f = 0; f < 6; f++)
            total[f] += (int64_t)((sum >> (FIELD_BITS * f)) & MAX_RUN);
    }
    Py_UCS4 last = len > 0 ? PyUnicode_READ(kind, data, len - 1) : 0;
    Py_UCS4 before = len > 1 ? PyUnicode_READ(kind, data, len - 2) : 0;
    *n = (Counts){total[0],
                  total[1],
                  total[2],
                  total[3],
                  total[4],
                  total[5],
                  len > 0 ? table[last > 0xFFFF ? 0xFFFF : last] : 0,
                  len > 1 ? table[before > 0xFFFF ? 0xFFFF : before] : 0,
                  last};
}

PyDoc_STRVAR(text_stats_doc,
             "text_stats(texts, chars, words, classes, closers) -> bytearray\n\n"
             "For each str of `texts`, float64 rows of 6: digits / chars, upper-case\n"
             "letters / letters, punctuation / chars, commas / words, sentence ends /\n"
             "words, and whether it ends a sentence (1.0 or 0.0). `chars` (int64) and\n"
             "`words` (float64) are per block, each divisor at least 1 as numpy's\n"
             "maximum makes it. `classes` and `closers` are 65536-byte tables over the\n"
             "BMP; code points above it use the entry of U+FFFF.");

static PyObject *text_stats(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *texts, *o_chars, *o_words;
    Py_buffer cbuf = {0}, wbuf = {0}, cls, clo;
    if (!PyArg_ParseTuple(args, "O!OOy*y*", &PyList_Type, &texts, &o_chars, &o_words, &cls, &clo))
        return NULL;
    PyObject *rows = NULL, *result = NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    if (get_view(o_chars, I64, n, "chars", &cbuf) < 0 || get_view(o_words, F64, n, "words", &wbuf) < 0)
        goto done;
    if (cls.len != 65536 || clo.len != 65536) {
        PyErr_SetString(PyExc_ValueError, "class tables must have 65536 entries");
        goto done;
    }
    const unsigned char *table = cls.buf, *closers = clo.buf;
    const int64_t *chars = cbuf.buf;
    const double *words = wbuf.buf;
    rows = PyByteArray_FromStringAndSize(NULL, n * 6 * 8);
    if (rows == NULL)
        goto done;
    double *out = (double *)PyByteArray_AS_STRING(rows);
    uint64_t packed[256];
    make_packed(table, packed);
    for (Py_ssize_t b = 0; b < n; b++) {
        PyObject *text = PyList_GET_ITEM(texts, b);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto done;
        }
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t len = PyUnicode_GET_LENGTH(text);
        Counts k;
        switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND:
            count_kind(PyUnicode_1BYTE_KIND, data, len, table, packed, &k);
            break;
        case PyUnicode_2BYTE_KIND:
            count_kind(PyUnicode_2BYTE_KIND, data, len, table, packed, &k);
            break;
        default:
            count_kind(PyUnicode_4BYTE_KIND, data, len, table, packed, &k);
        }
        int closer = len > 0 && closers[k.last_cp > 0xFFFF ? 0xFFFF : k.last_cp];
        int ends = len > 0 && ((k.last & C_END) || (closer && len > 1 && (k.before & C_END)));
        /* The reference's operands: np.maximum(chars, 1), np.maximum(words, 1.0) (NaN stays NaN). */
        double nchars = (double)(chars[b] > 1 ? chars[b] : 1);
        double w = words[b] < 1.0 ? 1.0 : words[b];
        int64_t letters = chars[b] - k.digit - k.punct - k.space;
        double *row = out + 6 * b;
        row[0] = (double)k.digit / nchars;
        row[1] = (double)k.upper / (double)(letters > 1 ? letters : 1);
        row[2] = (double)k.punct / nchars;
        row[3] = (double)k.comma / w;
        row[4] = (double)k.stop / w;
        row[5] = ends ? 1.0 : 0.0;
    }
    result = Py_NewRef(rows);
done:
    PyBuffer_Release(&cbuf);
    PyBuffer_Release(&wbuf);
    PyBuffer_Release(&cls);
    PyBuffer_Release(&clo);
    Py_XDECREF(rows);
    return result;
}

/* The `re` \w of a str pattern: Py_UNICODE_ISALNUM or "_" (ASCII tested inline). */
static inline int is_word(Py_UCS4 c)
{
    if (c < 128)
        return ((c | 32) - 'a' < 26) || (c - '0' < 10) || c == '_';
    return Py_UNICODE_ISALNUM(c);
}

/* One run of word characters of a lowered text: where it starts, its length, its hash. */
typedef struct {
    Py_ssize_t start, len;
    uint64_t hash;
} Run;

/* The title's words: `runs` of the lowered title `text`, and an open-addressing table of run index + 1. */
typedef struct {
    int kind;
    const void *data;
    Run *runs;
    Py_ssize_t *slots;
    size_t mask;
} Title;

/* Code point of a text that is ASCII (lowered here) or already lowered. */
static inline Py_UCS4 lowered_at(int kind, const void *data, int ascii, Py_ssize_t k)
{
    Py_UCS4 c = PyUnicode_READ(kind, data, k);
    return ascii && c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* The next word run at or after *pos (its code points lowered when `ascii`); 0 at the end. */
static inline int next_run(int kind, const void *data, Py_ssize_t len, int ascii, Py_ssize_t *pos, Run *run)
{
    Py_ssize_t k = *pos;
    while (k < len && !is_word(PyUnicode_READ(kind, data, k)))
        k++;
    if (k >= len) {
        *pos = k;
        return 0;
    }
    uint64_t h = 1469598103934665603ULL;
    run->start = k;
    for (; k < len; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (!is_word(c))
            break;
        h = (h ^ (ascii && c >= 'A' && c <= 'Z' ? c + 32 : c)) * 1099511628211ULL;
    }
    run->len = k - run->start;
    run->hash = h ^ (h >> 29);
    *pos = k;
    return 1;
}

static int in_title(const Title *t, int kind, const void *data, int ascii, const Run *run)
{
    for (size_t i = (size_t)run->hash & t->mask;; i = (i + 1) & t->mask) {
        Py_ssize_t slot = t->slots[i];
        if (slot == 0)
            return 0;
        const Run *w = &t->runs[slot - 1];
        if (w->hash != run->hash || w->len != run->len)
            continue;
        Py_ssize_t k = 0;
        while (k < run->len &&
               PyUnicode_READ(t->kind, t->data, w->start + k) == lowered_at(kind, data, ascii, run->start + k))
            k++;
        if (k == run->len)
            return 1;
    }
}

PyDoc_STRVAR(title_overlap_doc,
             "title_overlap(texts, openers, words, first, title, out) -> None\n\n"
             "For each candidate block, the share of the words of str.lower() of its text\n"
             "that are words of title.lower() (words as re's \\w+ finds them), written\n"
             "into `out` (float64 per block, left alone elsewhere). Candidates are the\n"
             "blocks that open with h1-h6 or lie in the slice [max(0, first - 10) : first + 1]\n"
             "(-1 for none), and have 2 to 40 `words` (float64 per block).");

static PyObject *title_overlap(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *texts, *openers, *title, *o_words, *o_out;
    Py_buffer wbuf = {0}, obuf = {0};
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "O!O!OnUO", &PyList_Type, &texts, &PyList_Type, &openers, &o_words, &first, &title,
                          &o_out))
        return NULL;
    PyObject *low_title = NULL, *result = NULL;
    Title t = {0};
    Py_ssize_t n = PyList_GET_SIZE(texts);
    if (get_view(o_words, F64, n, "words", &wbuf) < 0 || get_writable_view(o_out, F64, n, "out", &obuf) < 0)
        goto done;
    if (PyList_GET_SIZE(openers) != n) {
        PyErr_SetString(PyExc_ValueError, "texts, openers, words and out must have one entry per block");
        goto done;
    }
    const double *words = wbuf.buf;
    double *out = obuf.buf;
    low_title = PyObject_CallMethod(title, "lower", NULL);
    if (low_title == NULL)
        goto done;
    t.kind = PyUnicode_KIND(low_title);
    t.data = PyUnicode_DATA(low_title);
    Py_ssize_t tlen = PyUnicode_GET_LENGTH(low_title), count = 0, pos = 0;
    t.runs = PyMem_Malloc(sizeof(Run) * (tlen / 2 + 1));
    if (t.runs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    while (next_run(t.kind, t.data, tlen, 0, &pos, &t.runs[count]))
        count++;
    if (count == 0)
        goto finished;
    size_t size = 8;
    while (size < (size_t)count * 2)
        size <<= 1;
    t.mask = size - 1;
    t.slots = PyMem_Calloc(size, sizeof(Py_ssize_t));
    if (t.slots == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* Each distinct word once: a title of 50,000 "1." made one probe chain of 50,000 equal words,
     * each insertion walking it to its end (seconds). */
    for (Py_ssize_t r = 0; r < count; r++) {
        const Run *run = &t.runs[r];
        size_t i = (size_t)run->hash & t.mask;
        int seen = 0;
        while (t.slots[i] && !seen) {
            const Run *w = &t.runs[t.slots[i] - 1];
            if (w->hash == run->hash && w->len == run->len) {
                Py_ssize_t k = 0;
                while (k < run->len &&
                       PyUnicode_READ(t.kind, t.data, w->start + k) == PyUnicode_READ(t.kind, t.data, run->start + k))
                    k++;
                seen = k == run->len;
            }
            if (!seen)
                i = (i + 1) & t.mask;
        }
        if (!seen)
            t.slots[i] = r + 1;
    }
    /* The slice [max(0, first - 10) : first + 1] of the reference, a negative end counting from the last block. */
    Py_ssize_t lo = first - 10 > 0 ? first - 10 : 0, hi = first + 1 < 0 ? first + 1 + n : first + 1;
    hi = hi < 0 ? 0 : hi > n ? n : hi;
    for (Py_ssize_t b = 0; b < n; b++) {
        if (!(words[b] >= 2.0 && words[b] <= 40.0))
            continue;
        if (!(b >= lo && b < hi)) {
            PyObject *op = PyList_GET_ITEM(openers, b);
            if (!PyUnicode_Check(op) || PyUnicode_GET_LENGTH(op) != 2)
                continue;
            Py_UCS4 c0 = PyUnicode_READ_CHAR(op, 0), c1 = PyUnicode_READ_CHAR(op, 1);
            if (c0 != 'h' || c1 < '1' || c1 > '6')
                continue;
        }
        PyObject *text = PyList_GET_ITEM(texts, b);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto done;
        }
        int ascii = PyUnicode_IS_ASCII(text);
        PyObject *low = ascii ? Py_NewRef(text) : PyObject_CallMethod(text, "lower", NULL);
        if (low == NULL)
            goto done;
        int kind = PyUnicode_KIND(low);
        const void *data = PyUnicode_DATA(low);
        Py_ssize_t len = PyUnicode_GET_LENGTH(low), tokens = 0, hits = 0;
        Run run;
        pos = 0;
        while (next_run(kind, data, len, ascii, &pos, &run)) {
            tokens++;
            hits += in_title(&t, kind, data, ascii, &run);
        }
        Py_DECREF(low);
        if (tokens)
            out[b] = (double)hits / (double)tokens;
    }
finished:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(t.runs);
    PyMem_Free(t.slots);
    Py_XDECREF(low_title);
    PyBuffer_Release(&wbuf);
    PyBuffer_Release(&obuf);
    return result;
}

static PyMethodDef methods[] = {
    {"text_stats", text_stats, METH_VARARGS, text_stats_doc},
    {"title_overlap", title_overlap, METH_VARARGS, title_overlap_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_textstats(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
