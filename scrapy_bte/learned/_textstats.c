/* Per-block character counts of features._text_stats and the title overlap
 * of features._title_overlap, in C (optional accelerator).
 *
 * count: one pass over each block's code points with the same class table
 * the numpy reference uses; counts are integers, so both agree exactly
 * (tests/test_scan.py compares them).
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

/* Bits of the class table (features._END, _COMMA, _PUNCT, _DIGIT). */
#define C_END 1
#define C_COMMA 2
#define C_PUNCT 4
#define C_DIGIT 8

PyDoc_STRVAR(count_doc,
             "count(texts, classes, closers) -> (counts, ends_sentence)\n\n"
             "For each str of `texts`: digits, punctuation, commas, sentence ends,\n"
             "upper-case letters and spaces (int64 rows of 6), and whether it ends a\n"
             "sentence (uint8). `classes` and `closers` are 65536-byte tables over\n"
             "the BMP; code points above it use the entry of U+FFFF.");

static PyObject *count(PyObject *self, PyObject *args)
{
    PyObject *texts;
    Py_buffer cls, clo;
    if (!PyArg_ParseTuple(args, "O!y*y*", &PyList_Type, &texts, &cls, &clo))
        return NULL;
    PyObject *counts = NULL, *ends = NULL, *result = NULL;
    if (cls.len != 65536 || clo.len != 65536) {
        PyErr_SetString(PyExc_ValueError, "class tables must have 65536 entries");
        goto done;
    }
    const unsigned char *table = cls.buf, *closers = clo.buf;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    counts = PyByteArray_FromStringAndSize(NULL, n * 6 * 8);
    ends = PyByteArray_FromStringAndSize(NULL, n);
    if (counts == NULL || ends == NULL)
        goto done;
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(counts);
    unsigned char *end_out = (unsigned char *)PyByteArray_AS_STRING(ends);
    for (Py_ssize_t b = 0; b < n; b++) {
        PyObject *text = PyList_GET_ITEM(texts, b);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto done;
        }
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t len = PyUnicode_GET_LENGTH(text);
        int64_t digit = 0, punct = 0, comma = 0, stop = 0, upper = 0, space = 0;
        unsigned char last = 0, before = 0;
        Py_UCS4 last_cp = 0;
        for (Py_ssize_t k = 0; k < len; k++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, k);
            unsigned char cl = table[c > 0xFFFF ? 0xFFFF : c];
            digit += (cl & C_DIGIT) != 0;
            punct += (cl & C_PUNCT) != 0;
            comma += (cl & C_COMMA) != 0;
            stop += (cl & C_END) != 0;
            /* str.lower() changes the character: an upper-case letter (U+0130 counts as "I"). */
            upper += c == 0x130 || Py_UNICODE_TOLOWER(c) != c;
            space += c == ' ';
            before = last;
            last = cl;
            last_cp = c;
        }
        int64_t *row = out + 6 * b;
        row[0] = digit;
        row[1] = punct;
        row[2] = comma;
        row[3] = stop;
        row[4] = upper;
        row[5] = space;
        int closer = len > 0 && closers[last_cp > 0xFFFF ? 0xFFFF : last_cp];
        end_out[b] = len > 0 && ((last & C_END) || (closer && len > 1 && (before & C_END)));
    }
    result = Py_BuildValue("OO", counts, ends);
done:
    PyBuffer_Release(&cls);
    PyBuffer_Release(&clo);
    Py_XDECREF(counts);
    Py_XDECREF(ends);
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

static PyObject *title_overlap(PyObject *self, PyObject *args)
{
    PyObject *texts, *openers, *title;
    Py_buffer wbuf, obuf;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "O!O!y*nUw*", &PyList_Type, &texts, &PyList_Type, &openers, &wbuf, &first, &title,
                          &obuf))
        return NULL;
    PyObject *low_title = NULL, *result = NULL;
    Title t = {0};
    Py_ssize_t n = PyList_GET_SIZE(texts);
    if (PyList_GET_SIZE(openers) != n || wbuf.len != n * 8 || obuf.len != n * 8) {
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
    for (Py_ssize_t r = 0; r < count; r++) {
        size_t i = (size_t)t.runs[r].hash & t.mask;
        while (t.slots[i])
            i = (i + 1) & t.mask;
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
    {"count", count, METH_VARARGS, count_doc},
    {"title_overlap", title_overlap, METH_VARARGS, title_overlap_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "scrapy_bte.learned._textstats", "Character counts of features._text_stats and the title overlap (optional accelerator).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__textstats(void)
{
    return PyModule_Create(&module);
}
