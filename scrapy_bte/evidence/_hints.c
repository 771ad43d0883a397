/* Class-hint bits of raw attribute strings (optional accelerator of
 * scrapy_bte.evidence.hints.attribute_bits_reference).
 *
 * A crawl that meets new sites reads every distinct attribute string once,
 * and the reference's three regular-expression passes (named values, word
 * split, stem search) cost more than a millisecond for a page's hundred-odd
 * new strings. Here one loop per pass runs over the bytes.
 *
 * Only pure-ASCII strings are read here (the caller runs the reference for
 * the rest): there Python's case-blind matching is plain ASCII case folding,
 * its str-pattern classes are
 *     \s = [\t\n\v\f\r\x1c\x1d\x1e\x1f ]   \w = [A-Za-z0-9_]
 * and lower() only maps A-Z. The vocabulary (attribute names, data-* name
 * suffixes, words, stems in the order of the stem alternation) comes from
 * hints.py through configure(), so words.GROUPS stays the one table.
 *
 * The value pattern mirrored here is
 *     \s(?:NAME|...|data-[\w-]*(?:SUFFIX|...))\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))
 * searched in " " + raw with findall: non-overlapping matches left to right,
 * each alternative tried in order with the backtracking the regex engine
 * does (an unterminated quote fails the match at that position; the search
 * goes on at the next one).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

#define DATA_PREFIX "data-"
#define DATA_PREFIX_LEN 5
#define WORD_SLOTS 4096 /* power of two, well above four times the words */

static unsigned char is_space[256], is_word[256], is_value[256], lower[256];

/* A list of ASCII strings with a bit mask each, the strings in one pool. */
typedef struct {
    Py_ssize_t count;
    Py_ssize_t *start, *len;
    int64_t *bits;
    char *pool;
} table;

static table names, suffixes, stems, words;
/* Per first byte, the stems starting with it, in alternation order. */
static Py_ssize_t *stem_first[256];
static Py_ssize_t stem_first_n[256];
/* Whether a stem can start with these two bytes: most positions are passed over on this. */
static unsigned char stem_pair[128][128];
static Py_ssize_t word_slot[WORD_SLOTS]; /* index + 1 into words, 0 = empty */
static Py_ssize_t word_max_len;
static Py_ssize_t max_values = -1; /* joined values are cut here; -1 = not configured */

static void table_free(table *t)
{
    PyMem_Free(t->start);
    PyMem_Free(t->len);
    PyMem_Free(t->bits);
    PyMem_Free(t->pool);
    memset(t, 0, sizeof(*t));
}

/* Fills `t` from a sequence of str or of (str, int) pairs (`with_bits`).
 * Names are stored lower-cased: they are matched case-blind. */
static int table_fill(table *t, PyObject *items, int with_bits, int fold)
{
    table_free(t);
    PyObject *seq = PySequence_Fast(items, "expected a sequence");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), total = 0;
    PyObject **item = PySequence_Fast_ITEMS(seq);
    t->start = PyMem_Calloc(n + 1, sizeof(Py_ssize_t));
    t->len = PyMem_Calloc(n + 1, sizeof(Py_ssize_t));
    t->bits = PyMem_Calloc(n + 1, sizeof(int64_t));
    if (t->start == NULL || t->len == NULL || t->bits == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = item[i];
        if (with_bits) {
            if (!PyTuple_Check(s) || PyTuple_GET_SIZE(s) != 2) {
                PyErr_SetString(PyExc_TypeError, "expected (str, int) pairs");
                goto fail;
            }
            long long b = PyLong_AsLongLong(PyTuple_GET_ITEM(s, 1));
            if (b == -1 && PyErr_Occurred())
                goto fail;
            t->bits[i] = b;
            s = PyTuple_GET_ITEM(s, 0);
        }
        if (!PyUnicode_Check(s) || !PyUnicode_IS_ASCII(s) || PyUnicode_GET_LENGTH(s) == 0) {
            PyErr_SetString(PyExc_ValueError, "expected non-empty ASCII strings");
            goto fail;
        }
        t->len[i] = PyUnicode_GET_LENGTH(s);
        t->start[i] = total;
        total += t->len[i];
    }
    t->pool = PyMem_Malloc(total + 1);
    if (t->pool == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = with_bits ? PyTuple_GET_ITEM(item[i], 0) : item[i];
        const unsigned char *data = PyUnicode_1BYTE_DATA(s);
        for (Py_ssize_t k = 0; k < t->len[i]; k++)
            t->pool[t->start[i] + k] = (char)(fold ? lower[data[k]] : data[k]);
    }
    t->count = n;
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    table_free(t);
    return -1;
}

static inline uint32_t hash_bytes(const unsigned char *s, Py_ssize_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (Py_ssize_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

static int index_words(void)
{
    memset(word_slot, 0, sizeof(word_slot));
    word_max_len = 0;
    if (words.count * 4 > WORD_SLOTS) {
        PyErr_SetString(PyExc_ValueError, "too many words");
        return -1;
    }
    for (Py_ssize_t i = 0; i < words.count; i++) {
        const unsigned char *w = (const unsigned char *)words.pool + words.start[i];
        uint32_t slot = hash_bytes(w, words.len[i]) & (WORD_SLOTS - 1);
        for (;;) {
            Py_ssize_t j = word_slot[slot] - 1;
            if (j < 0) {
                word_slot[slot] = i + 1;
                break;
            }
            if (words.len[j] == words.len[i] && memcmp(words.pool + words.start[j], w, words.len[i]) == 0) {
                words.bits[j] |= words.bits[i]; /* a repeated word: both masks */
                break;
            }
            slot = (slot + 1) & (WORD_SLOTS - 1);
        }
        if (words.len[i] > word_max_len)
            word_max_len = words.len[i];
    }
    return 0;
}

static int index_stems(void)
{
    for (int c = 0; c < 256; c++) {
        PyMem_Free(stem_first[c]);
        stem_first[c] = NULL;
        stem_first_n[c] = 0;
    }
    for (Py_ssize_t i = 0; i < stems.count; i++)
        stem_first_n[(unsigned char)stems.pool[stems.start[i]]]++;
    for (int c = 0; c < 256; c++) {
        if (stem_first_n[c] == 0)
            continue;
        stem_first[c] = PyMem_Malloc(stem_first_n[c] * sizeof(Py_ssize_t));
        if (stem_first[c] == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        stem_first_n[c] = 0;
    }
    memset(stem_pair, 0, sizeof(stem_pair));
    for (Py_ssize_t i = 0; i < stems.count; i++) {
        const unsigned char *stem = (const unsigned char *)stems.pool + stems.start[i];
        stem_first[stem[0]][stem_first_n[stem[0]]++] = i;
        if (stem[0] >= 128 || (stems.len[i] > 1 && stem[1] >= 128))
            continue; /* can never match the ASCII text */
        for (int c = 0; c < 128; c++)
            if (stems.len[i] == 1 || c == stem[1])
                stem_pair[stem[0]][c] = 1;
    }
    return 0;
}

PyDoc_STRVAR(configure_doc,
             "configure(names, suffixes, words, stems, max_values)\n\n"
             "The vocabulary: attribute `names` and data-* name `suffixes` (str, in the value\n"
             "pattern's order), `words` and `stems` as (str, bits) pairs (stems in the order of\n"
             "the stem alternation), and the length the joined values are cut to.");

static PyObject *configure(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *n, *s, *w, *st;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "OOOOn", &n, &s, &w, &st, &limit))
        return NULL;
    max_values = -1;
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "max_values must be >= 0");
        return NULL;
    }
    if (table_fill(&names, n, 0, 1) < 0 || table_fill(&suffixes, s, 0, 1) < 0 || table_fill(&words, w, 1, 0) < 0
        || table_fill(&stems, st, 1, 0) < 0 || index_words() < 0 || index_stems() < 0)
        return NULL;
    max_values = limit;
    Py_RETURN_NONE;
}

/* Whether raw[at:] starts with the lower-case `word` in any case. */
static inline int starts_with(const unsigned char *raw, Py_ssize_t n, Py_ssize_t at, const char *word, Py_ssize_t len)
{
    if (at + len > n)
        return 0;
    for (Py_ssize_t k = 0; k < len; k++)
        if (lower[raw[at + k]] != (unsigned char)word[k])
            return 0;
    return 1;
}

/* \s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)) at raw[at:]: on a match, the value's
 * bounds and the match's end; 0 when it fails (no backtracking into the \s* can
 * help: the value alternatives all fail on white space, and "=" on it). */
static int tail(const unsigned char *raw, Py_ssize_t n, Py_ssize_t at, Py_ssize_t *v0, Py_ssize_t *v1, Py_ssize_t *end)
{
    Py_ssize_t i = at;
    while (i < n && is_space[raw[i]])
        i++;
    if (i >= n || raw[i] != '=')
        return 0;
    i++;
    while (i < n && is_space[raw[i]])
        i++;
    if (i >= n)
        return 0;
    unsigned char c = raw[i];
    if (c == '"' || c == '\'') {
        const unsigned char *close = memchr(raw + i + 1, c, n - i - 1);
        if (close == NULL)
            return 0;
        *v0 = i + 1;
        *v1 = close - raw;
        *end = *v1 + 1;
        return 1;
    }
    if (!is_value[c])
        return 0;
    Py_ssize_t j = i;
    while (j < n && is_value[raw[j]])
        j++;
    *v0 = i;
    *v1 = j;
    *end = j;
    return 1;
}

/* The pattern's name alternatives and tail with the name at raw[at:]. */
static int match_at(const unsigned char *raw, Py_ssize_t n, Py_ssize_t at, Py_ssize_t *v0, Py_ssize_t *v1, Py_ssize_t *end)
{
    for (Py_ssize_t a = 0; a < names.count; a++)
        if (starts_with(raw, n, at, names.pool + names.start[a], names.len[a])
            && tail(raw, n, at + names.len[a], v0, v1, end))
            return 1;
    if (!starts_with(raw, n, at, DATA_PREFIX, DATA_PREFIX_LEN))
        return 0;
    /* data-[\w-]* then a suffix: the greedy run gives back one byte at a time. */
    Py_ssize_t from = at + DATA_PREFIX_LEN, run = from;
    while (run < n && (is_word[raw[run]] || raw[run] == '-'))
        run++;
    for (Py_ssize_t k = run; k >= from; k--)
        for (Py_ssize_t a = 0; a < suffixes.count; a++)
            if (starts_with(raw, n, k, suffixes.pool + suffixes.start[a], suffixes.len[a])
                && tail(raw, n, k + suffixes.len[a], v0, v1, end))
                return 1;
    return 0;
}

/* Whether the `len` bytes at `a` and `b` are equal (inline: most candidates differ early). */
static inline int same(const char *a, const unsigned char *b, Py_ssize_t len)
{
    for (Py_ssize_t k = 0; k < len; k++)
        if ((unsigned char)a[k] != b[k])
            return 0;
    return 1;
}

/* The bits of one ASCII string (raw, n); `buf` holds max_values bytes. */
static int64_t read_bits(const unsigned char *raw, Py_ssize_t n, unsigned char *buf)
{
    if (n == 0 || memchr(raw, '=', n) == NULL)
        return 0;
    /* Named values joined by single spaces, lower-cased, cut at max_values. In
     * " " + raw a match starts at a white space and its name one byte later:
     * the name starts at raw[0] (after the added space) or after a white space
     * at or past the end of the previous match. */
    Py_ssize_t size = 0, done = 0, values = 0;
    for (Py_ssize_t at = 0; at < n && size < max_values; at++) {
        if (at > 0 && !(at - 1 >= done && is_space[raw[at - 1]]))
            continue;
        Py_ssize_t v0, v1, end;
        if (!match_at(raw, n, at, &v0, &v1, &end))
            continue;
        if (values++ > 0)
            buf[size++] = ' ';
        for (Py_ssize_t k = v0; k < v1 && size < max_values; k++)
            buf[size++] = lower[raw[k]];
        done = end;
        at = end; /* the loop's at++ puts the next name after a white space at `end` */
    }
    if (size > max_values)
        size = max_values;
    int64_t bits = 0;
    /* Words: runs of a-z looked up whole. */
    for (Py_ssize_t i = 0; i < size;) {
        if (buf[i] < 'a' || buf[i] > 'z') {
            i++;
            continue;
        }
        Py_ssize_t j = i;
        while (j < size && buf[j] >= 'a' && buf[j] <= 'z')
            j++;
        Py_ssize_t len = j - i;
        if (len <= word_max_len) {
            uint32_t slot = hash_bytes(buf + i, len) & (WORD_SLOTS - 1);
            for (Py_ssize_t w; (w = word_slot[slot] - 1) >= 0; slot = (slot + 1) & (WORD_SLOTS - 1))
                if (words.len[w] == len && same(words.pool + words.start[w], buf + i, len)) {
                    bits |= words.bits[w];
                    break;
                }
        }
        i = j;
    }
    /* Stems, as the alternation finds them: at each position the first stem (in
     * alternation order) that matches is taken and the search resumes after it. */
    for (Py_ssize_t i = 0; i < size;) {
        if (i + 1 < size && !stem_pair[buf[i]][buf[i + 1]]) {
            i++;
            continue;
        }
        Py_ssize_t found = 0;
        const Py_ssize_t *cand = stem_first[buf[i]];
        for (Py_ssize_t c = 0; c < stem_first_n[buf[i]]; c++) {
            Py_ssize_t s = cand[c], len = stems.len[s];
            if (i + len <= size && same(stems.pool + stems.start[s], buf + i, len)) {
                bits |= stems.bits[s];
                found = len;
                break;
            }
        }
        i += found ? found : 1;
    }
    return bits;
}

static unsigned char *values_buffer(unsigned char *small, size_t small_size)
{
    if ((size_t)max_values <= small_size)
        return small;
    unsigned char *buf = PyMem_Malloc(max_values + 1);
    if (buf == NULL)
        PyErr_NoMemory();
    return buf;
}

static int configured(void)
{
    if (max_values < 0) {
        PyErr_SetString(PyExc_RuntimeError, "scrapy_bte._native.hints is not configured");
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(attribute_bits_doc,
             "attribute_bits(raw) -> int | None\n\n"
             "The group bits `raw` names; None when it holds a non-ASCII character (the\n"
             "caller reads those with the reference).");

static PyObject *attribute_bits(PyObject *Py_UNUSED(self), PyObject *raw)
{
    if (!configured())
        return NULL;
    if (!PyUnicode_Check(raw)) {
        PyErr_SetString(PyExc_TypeError, "expected str");
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(raw))
        Py_RETURN_NONE;
    unsigned char small[1024];
    unsigned char *buf = values_buffer(small, sizeof(small));
    if (buf == NULL)
        return NULL;
    int64_t bits = read_bits(PyUnicode_1BYTE_DATA(raw), PyUnicode_GET_LENGTH(raw), buf);
    if (buf != small)
        PyMem_Free(buf);
    return PyLong_FromLongLong(bits);
}

/* The bits of `raw` into *dest: from `cache`, else read (non-ASCII with `fallback`) and stored. */
static int one_bits(PyObject *raw, PyObject *cache, Py_ssize_t limit, PyObject *fallback, unsigned char *buf, int64_t *dest)
{
    PyObject *got = PyDict_GetItemWithError(cache, raw); /* borrowed */
    if (got == NULL && PyErr_Occurred())
        return -1;
    if (got != NULL) {
        long long b = PyLong_AsLongLong(got);
        if (b == -1 && PyErr_Occurred())
            return -1;
        *dest = b;
        return 0;
    }
    Py_INCREF(raw); /* the fallback runs Python code, which may change a list holding it */
    PyObject *value;
    if (PyUnicode_IS_ASCII(raw))
        value = PyLong_FromLongLong(read_bits(PyUnicode_1BYTE_DATA(raw), PyUnicode_GET_LENGTH(raw), buf));
    else
        value = PyObject_CallOneArg(fallback, raw);
    long long b = value == NULL ? -1 : PyLong_AsLongLong(value);
    if (value != NULL && !(b == -1 && PyErr_Occurred())) {
        if (PyDict_GET_SIZE(cache) >= limit)
            PyDict_Clear(cache);
        if (PyDict_SetItem(cache, raw, value) == 0)
            *dest = b;
    }
    Py_DECREF(raw);
    Py_XDECREF(value);
    return PyErr_Occurred() ? -1 : 0;
}

/* one_bits of the slice source[start:end] (an opening tag's attribute string). */
static int slice_one_bits(PyObject *source, int64_t start, int64_t end, PyObject *cache, Py_ssize_t limit,
                          PyObject *fallback, unsigned char *buf, int64_t *dest)
{
    PyObject *raw = PyUnicode_Substring(source, start, end);
    if (raw == NULL)
        return -1;
    int bad = one_bits(raw, cache, limit, fallback, buf, dest);
    Py_DECREF(raw);
    return bad;
}

PyDoc_STRVAR(bits_of_doc,
             "bits_of(raws, out, cache, limit, fallback)\n\n"
             "Writes the group bits of each str of the list `raws` to `out` (a writable int64\n"
             "buffer of len(raws)), taking them from the dict `cache` where it has them and\n"
             "storing the rest there (reading non-ASCII strings with `fallback`); the cache is\n"
             "cleared first whenever it holds `limit` strings.");

static PyObject *bits_of(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *raws, *o_out, *cache, *fallback;
    Py_buffer out = {0};
    Py_ssize_t limit;
    if (!configured())
        return NULL;
    if (!PyArg_ParseTuple(args, "O!OO!nO", &PyList_Type, &raws, &o_out, &PyDict_Type, &cache, &limit, &fallback))
        return NULL;
    PyObject *result = NULL;
    unsigned char small[1024];
    unsigned char *buf = NULL;
    Py_ssize_t n = PyList_GET_SIZE(raws);
    if (get_writable_view(o_out, I64, n, "out", &out) < 0) /* one int64 per string */
        goto done;
    buf = values_buffer(small, sizeof(small));
    if (buf == NULL)
        goto done;
    int64_t *dest = out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i >= PyList_GET_SIZE(raws)) {
            PyErr_SetString(PyExc_RuntimeError, "the list changed size");
            goto done;
        }
        PyObject *raw = PyList_GET_ITEM(raws, i); /* borrowed */
        if (!PyUnicode_Check(raw)) {
            PyErr_SetString(PyExc_TypeError, "expected a list of str");
            goto done;
        }
        if (one_bits(raw, cache, limit, fallback, buf, dest + i) < 0)
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    if (buf != NULL && buf != small)
        PyMem_Free(buf);
    PyBuffer_Release(&out);
    return result;
}

PyDoc_STRVAR(slice_bits_doc,
             "slice_bits(source, stop, size, out, cache, limit, fallback)\n\n"
             "bits_of over the strings source[stop[i] - size[i] : stop[i]] (int64 buffers of\n"
             "equal length, as `out`), each sliced in C.");

static PyObject *slice_bits(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *source, *o_stop, *o_size, *o_out, *cache, *fallback;
    Py_buffer sb = {0}, zb = {0}, out = {0};
    Py_ssize_t limit;
    if (!configured())
        return NULL;
    if (!PyArg_ParseTuple(args, "UOOOO!nO", &source, &o_stop, &o_size, &o_out, &PyDict_Type, &cache, &limit, &fallback))
        return NULL;
    PyObject *result = NULL;
    unsigned char small[1024];
    unsigned char *buf = NULL;
    Py_ssize_t n_src = PyUnicode_GET_LENGTH(source);
    if (get_writable_view(o_out, I64, -1, "out", &out) < 0)
        goto done;
    /* one int64 of each per string */
    Py_ssize_t n = out.len / (Py_ssize_t)sizeof(int64_t);
    if (get_view(o_stop, I64, n, "stop", &sb) < 0 || get_view(o_size, I64, n, "size", &zb) < 0)
        goto done;
    buf = values_buffer(small, sizeof(small));
    if (buf == NULL)
        goto done;
    const int64_t *stop = sb.buf, *size = zb.buf;
    int64_t *dest = out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t end = stop[i], start = end - size[i];
        if (start < 0 || end > n_src || start > end) {
            PyErr_SetString(PyExc_IndexError, "slice_bits: range out of the source");
            goto done;
        }
        if (slice_one_bits(source, start, end, cache, limit, fallback, buf, dest + i) < 0)
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    if (buf != NULL && buf != small)
        PyMem_Free(buf);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&zb);
    PyBuffer_Release(&out);
    return result;
}

PyDoc_STRVAR(block_bits_doc,
             "block_bits(attr_bits, el_attr_id, parents, container, el_tag, starts, ends, lens, reach, source,\n"
             "           path_out, own_out, cache, limit, fallback)\n\n"
             "Per block, the bits of its container and the reach - 1 elements above it (path_out) and of\n"
             "its opening tag (own_out), as hints.block_hints_reference computes them: an element's bits are\n"
             "attr_bits[el_attr_id[e]] (0 for the root); an opening tag that starts an element takes that\n"
             "element's bits, any other tag with attributes reads source[ends[t] - lens[t] : ends[t]] as\n"
             "slice_bits does. All arrays are int64 buffers.");

static PyObject *block_bits(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *source, *cache, *fallback, *o_ab, *o_ib, *o_pb, *o_cb, *o_tb, *o_sb, *o_eb, *o_lb, *o_po, *o_oo;
    Py_buffer ab = {0}, ib = {0}, pb = {0}, cb = {0}, tb = {0}, sb = {0}, eb = {0}, lb = {0}, po = {0}, oo = {0};
    Py_ssize_t reach, limit;
    if (!configured())
        return NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOOOnUOOO!nO", &o_ab, &o_ib, &o_pb, &o_cb, &o_tb, &o_sb, &o_eb, &o_lb, &reach,
                          &source, &o_po, &o_oo, &PyDict_Type, &cache, &limit, &fallback))
        return NULL;
    PyObject *result = NULL;
    unsigned char small[1024];
    unsigned char *buf = NULL;
    if (get_view(o_ab, I64, -1, "attr_bits", &ab) < 0 || get_view(o_ib, I64, -1, "el_attr_id", &ib) < 0 ||
        get_view(o_pb, I64, -1, "parents", &pb) < 0 || get_view(o_cb, I64, -1, "container", &cb) < 0 ||
        get_view(o_tb, I64, -1, "el_tag", &tb) < 0 || get_view(o_sb, I64, -1, "starts", &sb) < 0 ||
        get_view(o_eb, I64, -1, "ends", &eb) < 0 || get_view(o_lb, I64, -1, "lens", &lb) < 0 ||
        get_writable_view(o_po, I64, -1, "path_out", &po) < 0 || get_writable_view(o_oo, I64, -1, "own_out", &oo) < 0)
        goto done;
    const Py_ssize_t w = (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n_attr = ab.len / w, n_el = ib.len / w, n = cb.len / w, n_tags = eb.len / w;
    Py_ssize_t n_src = PyUnicode_GET_LENGTH(source);
    if (pb.len != ib.len || tb.len != ib.len || sb.len != cb.len || po.len != cb.len || oo.len != cb.len ||
        lb.len != eb.len || n_el == 0) {
        PyErr_SetString(PyExc_ValueError, "block_bits: arrays of mismatched sizes");
        goto done;
    }
    const int64_t *attr_bits = ab.buf, *attr_id = ib.buf, *parents = pb.buf, *container = cb.buf;
    const int64_t *el_tag = tb.buf, *starts = sb.buf, *ends = eb.buf, *lens = lb.buf;
    int64_t *path = po.buf, *own = oo.buf;
    for (Py_ssize_t e = 1; e < n_el; e++)
        if (attr_id[e] < 0 || attr_id[e] >= n_attr || parents[e] < 0 || parents[e] >= n_el) {
            PyErr_SetString(PyExc_IndexError, "block_bits: element index out of range");
            goto done;
        }
    for (Py_ssize_t b = 0; b < n; b++) {
        int64_t e = container[b], acc = 0;
        if (e < 0 || e >= n_el) {
            PyErr_SetString(PyExc_IndexError, "block_bits: container out of range");
            goto done;
        }
        for (Py_ssize_t k = 0; k < reach && e != 0; k++) {
            acc |= attr_bits[attr_id[e]];
            e = parents[e];
        }
        path[b] = acc;
        /* The first element whose tag is not before the block's opening tag (np.searchsorted). */
        int64_t s = starts[b];
        Py_ssize_t lo = 0, hi = n_el;
        while (lo < hi) {
            Py_ssize_t mid = lo + (hi - lo) / 2;
            if (el_tag[mid] < s)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == n_el)
            lo = n_el - 1;
        if (el_tag[lo] == s) {
            own[b] = lo == 0 ? 0 : attr_bits[attr_id[lo]];
            continue;
        }
        own[b] = 0;
        int64_t t = s < 0 ? 0 : s;
        if (n_tags == 0)
            continue;
        if (t >= n_tags) {
            PyErr_SetString(PyExc_IndexError, "block_bits: tag out of range");
            goto done;
        }
        if (lens[t] <= 0)
            continue;
        int64_t end = ends[t], start = end - lens[t];
        if (start < 0 || end > n_src) {
            PyErr_SetString(PyExc_IndexError, "block_bits: range out of the source");
            goto done;
        }
        if (buf == NULL && (buf = values_buffer(small, sizeof(small))) == NULL)
            goto done;
        if (slice_one_bits(source, start, end, cache, limit, fallback, buf, own + b) < 0)
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    if (buf != NULL && buf != small)
        PyMem_Free(buf);
    PyBuffer_Release(&ab);
    PyBuffer_Release(&ib);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&cb);
    PyBuffer_Release(&tb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&eb);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&po);
    PyBuffer_Release(&oo);
    return result;
}

PyDoc_STRVAR(unpack_doc,
             "unpack(path, own, out, width)\n\n"
             "Writes bit j of path[b] to out[b, j] and bit j of own[b] to out[b, width + j] (j < width) as\n"
             "0.0 or 1.0: `out` is a float32 array of len(path) rows, strided (a slice of the feature matrix).");

static PyObject *unpack(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer pb = {0}, ob = {0}, out = {0};
    PyObject *o_path, *o_own, *dest;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "OOOn", &o_path, &o_own, &dest, &width))
        return NULL;
    PyObject *result = NULL;
    if (get_view(o_path, I64, -1, "path", &pb) < 0 || get_view(o_own, I64, pb.len / 8, "own", &ob) < 0 ||
        get_strided_view(dest, F32, 2, 2, "out", &out, 1) < 0)
        goto done;
    Py_ssize_t n = pb.len / (Py_ssize_t)sizeof(int64_t);
    if (out.shape[0] != n || out.shape[1] < 2 * width || width < 0 || width > 63) {
        PyErr_SetString(PyExc_ValueError, "unpack: out must be (len(path), >= 2 * width)");
        goto done;
    }
    const int64_t *path = pb.buf, *own = ob.buf;
    for (Py_ssize_t b = 0; b < n; b++) {
        char *row = (char *)out.buf + b * out.strides[0];
        for (Py_ssize_t j = 0; j < width; j++) {
            *(float *)(row + j * out.strides[1]) = (float)((path[b] >> j) & 1);
            *(float *)(row + (width + j) * out.strides[1]) = (float)((own[b] >> j) & 1);
        }
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&pb);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, configure_doc},
    {"attribute_bits", attribute_bits, METH_O, attribute_bits_doc},
    {"bits_of", bits_of, METH_VARARGS, bits_of_doc},
    {"slice_bits", slice_bits, METH_VARARGS, slice_bits_doc},
    {"block_bits", block_bits, METH_VARARGS, block_bits_doc},
    {"unpack", unpack, METH_VARARGS, unpack_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_hints(PyObject *module)
{
    for (int c = 0; c < 256; c++) {
        lower[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        is_space[c] = (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f) || c == ' ';
        is_word[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        is_value[c] = c < 128 && !is_space[c] && c != '"' && c != '\'' && c != '>';
    }
    return PyModule_AddFunctions(module, methods);
}
