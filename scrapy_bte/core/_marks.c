/* Where the markup holds each of a few ASCII words, in one pass (optional accelerator).
 *
 * The readers of the raw page (the article fields, the page-type classifier,
 * the <noscript> check) start every scan from a substring search ("ld+json",
 * "itemprop", "<time", "<noscript", ...). Each search is a
 * pass over the whole page, most of them finding nothing; this one pass finds
 * them all, reading about one character in four (Wu and Manber's multi-word
 * search). It returns every start offset of every word, overlapping ones
 * included, so the next occurrence at or after any position is the one
 * str.find would return.
 * scrapy_bte.core.marks.find_all_reference is the Python twin.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

/* At most this many words per call (one bit each in the tables). */
#define MAX_WORDS 32

typedef struct {
    const char *word; /* ASCII, no NUL */
    Py_ssize_t len;   /* >= 2 */
} word_t;

/* Wu and Manber's shift table over pairs of characters: a window of MIN
 * characters (the shortest word's length) ends with a pair; when no word has
 * that pair in its first MIN characters, no word starts in the window and it
 * moves MIN - 1 ahead; else it moves as far as the pair's last place in the
 * words allows, and a window whose last pair ends some word's first MIN
 * characters is checked against every word ending its first MIN there.
 * Pairs are hashed into 4,096 slots, which keeps the table in the first-level
 * cache; pairs sharing a slot share the smaller shift. A character past 255
 * is in no word: it reads as NUL, which none holds. */
typedef struct {
    PyObject *key; /* the words tuple the tables were made for */
    Py_ssize_t count, min;
    word_t words[MAX_WORDS];
    unsigned char shift[4096];
    uint32_t ends[256]; /* per character, the words whose first MIN characters end with it */
} tables_t;

static tables_t tables;

#define PAIR(a, b) (((((a) < 256 ? (a) : 0) << 4) ^ ((b) < 256 ? (b) : 0)) & 4095)

/* Offsets found by one stream for one word. */
typedef struct {
    Py_ssize_t *at;
    Py_ssize_t len, cap;
} hits_t;

/* The page is cut into STREAMS stretches of window starts, searched side by side:
 * each step waits for the character and table loads of the step before it, so
 * one stream alone leaves the processor idle most of the time. */
#define STREAMS 4

static int add_hit(hits_t *h, Py_ssize_t at)
{
    if (h->len == h->cap) {
        Py_ssize_t cap = h->cap ? 2 * h->cap : 16;
        Py_ssize_t *grown = PyMem_Realloc(h->at, (size_t)cap * sizeof(Py_ssize_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        h->at = grown;
        h->cap = cap;
    }
    h->at[h->len++] = at;
    return 0;
}

#define FIND_ALL(CT, NAME)                                                                                            \
    /* The words that start at window start i, added to `hits`. */                                                   \
    static int NAME##_check(const CT *s, Py_ssize_t n, Py_ssize_t i, hits_t *hits)                                   \
    {                                                                                                                 \
        Py_UCS4 last = s[i + tables.min - 1];                                                                         \
        uint32_t m = tables.ends[last < 256 ? last : 0];                                                              \
        while (m) {                                                                                                   \
            int j = count_trailing_zeros32(m);                                                                                \
            m &= m - 1;                                                                                               \
            const word_t *w = &tables.words[j];                                                                       \
            if (i + w->len > n)                                                                                       \
                continue;                                                                                             \
            Py_ssize_t k = 0;                                                                                         \
            while (k < w->len && s[i + k] == (CT)(unsigned char)w->word[k])                                           \
                k++;                                                                                                  \
            if (k == w->len && add_hit(&hits[j], i) < 0)                                                              \
                return -1;                                                                                            \
        }                                                                                                             \
        return 0;                                                                                                     \
    }                                                                                                                 \
                                                                                                                      \
    /* One step of a stream: skip by the pair's shift, or check the window and move on by one. */                     \
    static inline int NAME##_step(const CT *s, Py_ssize_t n, Py_ssize_t back, Py_ssize_t *pos, hits_t *hits)          \
    {                                                                                                                 \
        Py_UCS4 a = s[*pos - 1], b = s[*pos];                                                                         \
        unsigned char sh = tables.shift[PAIR(a, b)];                                                                  \
        if (sh) {                                                                                                     \
            *pos += sh;                                                                                               \
            return 0;                                                                                                 \
        }                                                                                                             \
        *pos += 1;                                                                                                    \
        return NAME##_check(s, n, *pos - 1 - back, hits);                                                             \
    }                                                                                                                 \
                                                                                                                      \
    static int NAME(const CT *s, Py_ssize_t n, int streams, hits_t (*hits)[MAX_WORDS])                              \
    {                                                                                                                 \
        const Py_ssize_t back = tables.min - 1;                                                                       \
        Py_ssize_t pos[STREAMS], stop[STREAMS];                                                                       \
        for (int t = 0; t < streams; t++) {                                                                           \
            pos[t] = n * t / streams + back;   /* the end of the stream's first window */                            \
            stop[t] = n * (t + 1) / streams + back; /* the end of the window after its last */                       \
            if (stop[t] > n)                                                                                          \
                stop[t] = n;                                                                                          \
        }                                                                                                             \
        if (streams == STREAMS) {                                                                                     \
            while (pos[0] < stop[0] && pos[1] < stop[1] && pos[2] < stop[2] && pos[3] < stop[3]) {                    \
                for (int t = 0; t < STREAMS; t++) {                                                                   \
                    if (NAME##_step(s, n, back, &pos[t], hits[t]) < 0)                                                \
                        return -1;                                                                                    \
                }                                                                                                     \
            }                                                                                                         \
        }                                                                                                             \
        for (int t = 0; t < streams; t++) {                                                                           \
            while (pos[t] < stop[t]) {                                                                                \
                if (NAME##_step(s, n, back, &pos[t], hits[t]) < 0)                                                    \
                    return -1;                                                                                        \
            }                                                                                                         \
        }                                                                                                             \
        return 0;                                                                                                     \
    }

FIND_ALL(Py_UCS1, find_all_1)
FIND_ALL(Py_UCS2, find_all_2)
FIND_ALL(Py_UCS4, find_all_4)

/* Make the tables for the words tuple `seq` (kept until another tuple comes). */
static int prepare(PyObject *seq)
{
    if (tables.key != NULL) {
        int same = PyObject_RichCompareBool(tables.key, seq, Py_EQ);
        if (same != 0)
            return same < 0 ? -1 : 0;
        Py_CLEAR(tables.key);
    }
    Py_ssize_t count = PyTuple_GET_SIZE(seq);
    if (count > MAX_WORDS) {
        PyErr_Format(PyExc_ValueError, "find_all() takes at most %d words", MAX_WORDS);
        return -1;
    }
    Py_ssize_t min = PY_SSIZE_T_MAX;
    for (Py_ssize_t j = 0; j < count; j++) {
        PyObject *item = PyTuple_GET_ITEM(seq, j);
        if (!PyUnicode_Check(item) || !PyUnicode_IS_ASCII(item) || PyUnicode_GET_LENGTH(item) < 2 ||
            strlen((const char *)PyUnicode_DATA(item)) != (size_t)PyUnicode_GET_LENGTH(item)) {
            PyErr_SetString(PyExc_ValueError, "find_all() words are ASCII strings of 2 or more characters, no NUL");
            return -1;
        }
        tables.words[j].word = (const char *)PyUnicode_DATA(item);
        tables.words[j].len = PyUnicode_GET_LENGTH(item);
        if (tables.words[j].len < min)
            min = tables.words[j].len;
    }
    if (count == 0)
        min = 2;
    if (min > 255)
        min = 255;
    tables.count = count;
    tables.min = min;
    memset(tables.shift, (int)(min - 1), sizeof(tables.shift));
    memset(tables.ends, 0, sizeof(tables.ends));
    for (Py_ssize_t j = 0; j < count; j++) {
        const unsigned char *w = (const unsigned char *)tables.words[j].word;
        for (Py_ssize_t q = 1; q < min; q++) {
            unsigned char sh = (unsigned char)(min - 1 - q);
            if (tables.shift[PAIR(w[q - 1], w[q])] > sh)
                tables.shift[PAIR(w[q - 1], w[q])] = sh;
        }
        tables.ends[w[min - 1]] |= 1u << j;
    }
    Py_INCREF(seq); /* keeps the words' character data alive */
    tables.key = seq;
    return 0;
}

/* Every word of the prepared tables in `text`, into `hits` (zeroed here): the streams used
 * (several on a long text, each an increasing stretch of it), or -1 with an exception set. */
static int scan_text(PyObject *text, hits_t (*hits)[MAX_WORDS])
{
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    const void *data = PyUnicode_DATA(text);
    const int streams = n >= 4096 ? STREAMS : 1;
    memset(hits, 0, sizeof(hits_t) * STREAMS * MAX_WORDS);
    int rc = 0;
    if (tables.count == 0 || n < tables.min)
        rc = 0;
    else if (PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND)
        rc = find_all_1((const Py_UCS1 *)data, n, streams, hits);
    else if (PyUnicode_KIND(text) == PyUnicode_2BYTE_KIND)
        rc = find_all_2((const Py_UCS2 *)data, n, streams, hits);
    else
        rc = find_all_4((const Py_UCS4 *)data, n, streams, hits);
    return rc < 0 ? -1 : streams;
}

static void free_hits(hits_t (*hits)[MAX_WORDS])
{
    for (int t = 0; t < STREAMS; t++)
        for (Py_ssize_t j = 0; j < MAX_WORDS; j++)
            PyMem_Free(hits[t][j].at);
}

PyDoc_STRVAR(find_all_doc,
             "find_all(text, words) -> list[list[int]]\n\n"
             "Per word of `words` (a tuple of ASCII strings of 2 or more characters,\n"
             "at most 32), every offset where `text` holds it, in increasing order.");

static PyObject *find_all(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *text, *seq;
    if (!PyArg_ParseTuple(args, "UO!:find_all", &text, &PyTuple_Type, &seq))
        return NULL;
    if (prepare(seq) < 0)
        return NULL;
    hits_t hits[STREAMS][MAX_WORDS];
    const int streams = scan_text(text, hits);
    PyObject *out = streams < 0 ? NULL : PyList_New(tables.count);
    for (Py_ssize_t j = 0; out != NULL && j < tables.count; j++) {
        Py_ssize_t total = 0;
        for (int t = 0; t < streams; t++)
            total += hits[t][j].len;
        PyObject *found = PyList_New(total);
        if (found == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, j, found);
        Py_ssize_t k = 0;
        for (int t = 0; t < streams; t++) /* streams hold increasing stretches: their order is the page's */
            for (Py_ssize_t h = 0; h < hits[t][j].len; h++) {
                PyObject *at = PyLong_FromSsize_t(hits[t][j].at[h]);
                if (at == NULL) {
                    Py_CLEAR(out);
                    goto done;
                }
                PyList_SET_ITEM(found, k++, at);
            }
    }
done:
    free_hits(hits);
    return out;
}

PyDoc_STRVAR(find_strings_doc,
             "find_strings(text, words, ends) -> list[list[int]]\n\n"
             "`text` holds strings joined by a separator no word holds; `ends` (a list of int,\n"
             "increasing, ending at len(text)) is where each string ends. Per word of `words` (as\n"
             "find_all's), the indices of the strings that hold it, increasing: bisect_right(ends, at)\n"
             "of each offset `at` find_all would return, without a Python int per offset.");

static PyObject *find_strings(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *text, *seq, *ends;
    if (!PyArg_ParseTuple(args, "UO!O!:find_strings", &text, &PyTuple_Type, &seq, &PyList_Type, &ends))
        return NULL;
    if (prepare(seq) < 0)
        return NULL;
    const Py_ssize_t n_ends = PyList_GET_SIZE(ends);
    hits_t hits[STREAMS][MAX_WORDS];
    const int streams = scan_text(text, hits);
    PyObject *out = NULL;
    if (streams < 0 || (out = PyList_New(tables.count)) == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < tables.count; j++) {
        PyObject *found = PyList_New(0);
        if (found == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, j, found);
        Py_ssize_t lo = 0, last = -1;
        for (int t = 0; t < streams; t++) /* streams hold increasing stretches: their order is the page's */
            for (Py_ssize_t h = 0; h < hits[t][j].len; h++) {
                const Py_ssize_t at = hits[t][j].at[h];
                /* bisect_right(ends, at), from the string of the previous offset on: a few
                 * items of `ends` read per offset, not the whole list per call */
                Py_ssize_t hi = n_ends;
                while (lo < hi) {
                    Py_ssize_t mid = lo + (hi - lo) / 2;
                    Py_ssize_t end = PyLong_AsSsize_t(PyList_GET_ITEM(ends, mid));
                    if (end == -1 && PyErr_Occurred()) {
                        Py_CLEAR(out);
                        goto done;
                    }
                    if (end <= at)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo == last)
                    continue;
                last = lo;
                PyObject *index = PyLong_FromSsize_t(lo);
                if (index == NULL || PyList_Append(found, index) < 0) {
                    Py_XDECREF(index);
                    Py_CLEAR(out);
                    goto done;
                }
                Py_DECREF(index);
            }
    }
done:
    free_hits(hits);
    return out;
}

static PyMethodDef methods[] = {
    {"find_all", find_all, METH_VARARGS, find_all_doc},
    {"find_strings", find_strings, METH_VARARGS, find_strings_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_marks(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
