/* The character-level passes of the document model, in C.
 *
 * Optional accelerator of scrapy_bte.core.document: step 0 and the cut at tags
 * with each text segment's word count are loops over every character, which
 * in Python cost most of the time of an extraction. Everything here mirrors
 * the Python reference exactly (same offsets, same floats); the package
 * falls back to that reference when this module is not built.
 *
 * Linear time: every loop moves forward; a failed tag match restarts one
 * character later and rescans at most the attribute run it just read, as
 * the regular expression it replaces does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

#define FLAG_BLOCK 1

/* Configuration, set once by configure() from the Python tables. */
#define MAX_NAMES 64
#define MAX_RANGES 64
static char drop_names[MAX_NAMES][16];
static Py_ssize_t drop_len[MAX_NAMES];
static int n_drop = 0, drop_script = -1, drop_style = -1, drop_title = -1;
static unsigned char drop_first[128]; /* 1 for the first letter of a dropped name */
static char resume_names[MAX_NAMES][16];
static Py_ssize_t resume_len[MAX_NAMES];
static int n_resume = 0;
static char closer_names[MAX_NAMES][16]; /* document.BUTTON_ENDS */
static Py_ssize_t closer_len[MAX_NAMES];
static int n_closer = 0, drop_button = -1, drop_svg = -1, drop_math = -1;
static Py_UCS4 cjk_ranges[MAX_RANGES][2], sea_ranges[MAX_RANGES][2];
static int n_cjk = 0, n_sea = 0;
static double cjk_weight = 0.0, sea_weight = 0.0;
static Py_ssize_t separator_chars = 0;
static Py_ssize_t join_piece = 3; /* JOIN_PIECE of scrapy_bte/core/document.py */
static PyObject *tag_flags = NULL; /* dict: lower-cased tag name -> int flags */
static PyObject *void_names = NULL; /* set of element names without content */
static PyObject *autoclose = NULL;  /* dict: start tag name -> set of names it closes */
static Py_ssize_t close_search = 0;
static int configured = 0;

/* Lower case as the Python reference sees it when matching ASCII patterns:
 * str.lower() after mapping U+0130 to "i"; U+212A KELVIN SIGN is the only
 * other character whose lower case is ASCII. */
static inline Py_UCS4 low_char(Py_UCS4 c)
{
    if (c < 128)
        return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    if (c == 0x130)
        return 'i';
    if (c == 0x212A)
        return 'k';
    return c;
}

/* Code points a numeric character reference decodes to unchanged (HTML's table maps
 * the C1 range, drops other controls and non-characters, replaces surrogates). */
static inline int counted_codepoint(uint32_t v)
{
    if (v < 0x20)
        return v == '\t' || v == '\n' || v == '\f' || v == '\r';
    if (v < 0xa0)
        return v < 0x7f;
    if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || (v >= 0xfdd0 && v <= 0xfdef))
        return 0;
    return (v & 0xfffe) != 0xfffe;
}

static inline int in_ranges(Py_UCS4 c, Py_UCS4 (*ranges)[2], int count)
{
    for (int r = 0; r < count; r++)
        if (c >= ranges[r][0] && c <= ranges[r][1])
            return 1;
    return 0;
}

/* Call the loop for the string's storage width: BY_KIND(kind, out =, fn, args). */
#define BY_KIND(kind, assign, fn, ...)                                                                               \
    do {                                                                                                              \
        if ((kind) == PyUnicode_1BYTE_KIND)                                                                           \
            assign fn##_1(__VA_ARGS__);                                                                               \
        else if ((kind) == PyUnicode_2BYTE_KIND)                                                                      \
            assign fn##_2(__VA_ARGS__);                                                                               \
        else                                                                                                          \
            assign fn##_4(__VA_ARGS__);                                                                               \
    } while (0)

#define CH Py_UCS1
#define SUF(name) name##_1
#include "_scan_impl.h"
#undef CH
#undef SUF
#define CH Py_UCS2
#define SUF(name) name##_2
#include "_scan_impl.h"
#undef CH
#undef SUF
#define CH Py_UCS4
#define SUF(name) name##_4
#include "_scan_impl.h"
#undef CH
#undef SUF

/* Cache of lower-cased ASCII tag names: one string object and its flags per
 * name, so a page's thousands of tags create no new objects. */
#define CACHE_SLOTS 1024
#define CACHE_NAME 24
typedef struct {
    Py_ssize_t len;
    char name[CACHE_NAME];
    PyObject *obj;
    unsigned char flags;
} slot_t;
static slot_t name_cache[CACHE_SLOTS];

static void clear_cache(void)
{
    for (int k = 0; k < CACHE_SLOTS; k++) {
        Py_CLEAR(name_cache[k].obj);
        name_cache[k].len = 0;
    }
}

static int lookup_flags(PyObject *name, unsigned char *flags)
{
    PyObject *v = PyDict_GetItemWithError(tag_flags, name);
    if (v == NULL) {
        if (PyErr_Occurred())
            return -1;
        *flags = 0;
        return 0;
    }
    long f = PyLong_AsLong(v);
    if (f == -1 && PyErr_Occurred())
        return -1;
    *flags = (unsigned char)f;
    return 0;
}

/* The lower-cased name of s[a:b] (new reference) and its flags. */
static PyObject *tag_name(PyObject *text, int kind, const void *data, Py_ssize_t a, Py_ssize_t b,
                          unsigned char *flags)
{
    Py_ssize_t len = b - a;
    if (len < CACHE_NAME) {
        char buf[CACHE_NAME];
        unsigned int h = 2166136261u;
        int ascii = 1;
        for (Py_ssize_t k = 0; k < len; k++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, a + k);
            if (c >= 128) {
                ascii = 0;
                break;
            }
            if (c >= 'A' && c <= 'Z')
                c += 32;
            buf[k] = (char)c;
            h = (h ^ c) * 16777619u;
        }
        if (ascii) {
            slot_t *slot = &name_cache[h & (CACHE_SLOTS - 1)];
            if (slot->obj == NULL || slot->len != len || memcmp(slot->name, buf, (size_t)len) != 0) {
                PyObject *obj = PyUnicode_FromStringAndSize(buf, len);
                if (obj == NULL)
                    return NULL;
                PyUnicode_InternInPlace(&obj);
                unsigned char f;
                if (lookup_flags(obj, &f) < 0) {
                    Py_DECREF(obj);
                    return NULL;
                }
                Py_XSETREF(slot->obj, obj);
                slot->len = len;
                memcpy(slot->name, buf, (size_t)len);
                slot->flags = f;
            }
            *flags = slot->flags;
            Py_INCREF(slot->obj);
            return slot->obj;
        }
    }
    PyObject *raw = PyUnicode_Substring(text, a, b);
    if (raw == NULL)
        return NULL;
    PyObject *lowered = PyObject_CallMethod(raw, "lower", NULL);
    Py_DECREF(raw);
    if (lowered == NULL)
        return NULL;
    if (lookup_flags(lowered, flags) < 0) {
        Py_DECREF(lowered);
        return NULL;
    }
    return lowered;
}

static int copy_names(PyObject *seq, char (*names)[16], Py_ssize_t *lens, int *count, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_NAMES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many %s", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(fast, k), &len);
        if (s == NULL || len >= 16) {
            Py_DECREF(fast);
            if (s != NULL)
                PyErr_Format(PyExc_ValueError, "%s: name too long", what);
            return -1;
        }
        memcpy(names[k], s, (size_t)len + 1);
        lens[k] = len;
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

static int copy_ranges(PyObject *seq, Py_UCS4 (*ranges)[2], int *count)
{
    PyObject *fast = PySequence_Fast(seq, "ranges");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_RANGES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many ranges");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned long lo, hi;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, k), "kk", &lo, &hi)) {
            Py_DECREF(fast);
            return -1;
        }
        ranges[k][0] = (Py_UCS4)lo;
        ranges[k][1] = (Py_UCS4)hi;
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

static int index_of(const char (*names)[16], int count, const char *name)
{
    for (int k = 0; k < count; k++)
        if (strcmp(names[k], name) == 0)
            return k;
    return -1;
}

PyDoc_STRVAR(configure_doc,
             "configure(drop, resume, button_ends, cjk_ranges, sea_ranges, cjk_weight, sea_weight, separator_chars,\n"
             "          flags, void_names, autoclose, close_search, join_piece)\n\n"
             "Load the tables of scrapy_bte.core.document and scrapy_bte.core.scripts.");

static PyObject *configure(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *drop, *resume, *closers, *cjk, *sea, *flags, *voids, *closes;
    double cw, sw;
    Py_ssize_t sep, search, piece;
    if (!PyArg_ParseTuple(args, "OOOOOddnO!O!O!nn", &drop, &resume, &closers, &cjk, &sea, &cw, &sw, &sep, &PyDict_Type,
                          &flags, &PyFrozenSet_Type, &voids, &PyDict_Type, &closes, &search, &piece))
        return NULL;
    configured = 0;
    if (copy_names(drop, drop_names, drop_len, &n_drop, "drop names") < 0 ||
        copy_names(resume, resume_names, resume_len, &n_resume, "resume names") < 0 ||
        copy_names(closers, closer_names, closer_len, &n_closer, "button end names") < 0 ||
        copy_ranges(cjk, cjk_ranges, &n_cjk) < 0 || copy_ranges(sea, sea_ranges, &n_sea) < 0)
        return NULL;
    memset(drop_first, 0, sizeof drop_first);
    for (int d = 0; d < n_drop; d++)
        drop_first[(unsigned char)drop_names[d][0] & 127] = 1;
    drop_script = index_of((const char (*)[16])drop_names, n_drop, "script");
    drop_style = index_of((const char (*)[16])drop_names, n_drop, "style");
    drop_title = index_of((const char (*)[16])drop_names, n_drop, "title");
    drop_button = index_of((const char (*)[16])drop_names, n_drop, "button");
    drop_svg = index_of((const char (*)[16])drop_names, n_drop, "svg");
    drop_math = index_of((const char (*)[16])drop_names, n_drop, "math");
    cjk_weight = cw;
    sea_weight = sw;
    separator_chars = sep;
    Py_INCREF(flags);
    Py_XSETREF(tag_flags, flags);
    Py_INCREF(voids);
    Py_XSETREF(void_names, voids);
    Py_INCREF(closes);
    Py_XSETREF(autoclose, closes);
    close_search = search;
    join_piece = piece;
    clear_cache();
    configured = 1;
    Py_RETURN_NONE;
}

static int check_configured(void)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "scrapy_bte._native.document is not configured");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(step0_doc,
             "step0(markup, cut=()) -> (cleaned, title_start, title_end)\n\n"
             "Step 0 of document.step0; the title bounds are -1 without a closed <title>.\n"
             "cut: (start, end) pairs of spans to leave out, increasing, disjoint, each\n"
             "starting at a '<'.");

/* The argument of a pass that reads the configured tables: a str. */
static int check_text(PyObject *arg, const char *fn)
{
    if (check_configured() < 0)
        return -1;
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s() takes a str", fn);
        return -1;
    }
    return 0;
}

/* "&nbsp;" -> " " in place, leftmost first, as str.replace does; returns the new length.
 * Each "&" is found by memchr (or a word of code units at a time in wide text) and the text
 * between two of them moved in one block, nothing before the first "&nbsp;": the common
 * page has none and is only searched. */
#define NBSP_TO_SPACE(CT, FIND)                                                                                       \
    static Py_ssize_t nbsp_to_space_##CT(CT *buf, Py_ssize_t len)                                                     \
    {                                                                                                                 \
        Py_ssize_t i = 0, j = 0; /* buf[:i] is read and its result is buf[:j] */                                      \
        for (Py_ssize_t at = FIND(buf, len, 0, '&'); at >= 0; at = FIND(buf, len, i, '&')) {                          \
            if (!(at + 6 <= len && buf[at + 1] == 'n' && buf[at + 2] == 'b' && buf[at + 3] == 's' &&                  \
                  buf[at + 4] == 'p' && buf[at + 5] == ';')) {                                                        \
                if (j < i)                                                                                            \
                    memmove(buf + j, buf + i, (size_t)(at + 1 - i) * sizeof(CT));                                     \
                j += at + 1 - i;                                                                                      \
                i = at + 1;                                                                                           \
                continue;                                                                                             \
            }                                                                                                         \
            if (j < i)                                                                                                \
                memmove(buf + j, buf + i, (size_t)(at - i) * sizeof(CT));                                             \
            j += at - i;                                                                                              \
            buf[j++] = ' ';                                                                                           \
            i = at + 6;                                                                                               \
        }                                                                                                             \
        if (j < i)                                                                                                    \
            memmove(buf + j, buf + i, (size_t)(len - i) * sizeof(CT));                                                \
        return j + len - i;                                                                                           \
    }
NBSP_TO_SPACE(Py_UCS1, find_ch_1)
NBSP_TO_SPACE(Py_UCS2, find_ch_2)
NBSP_TO_SPACE(Py_UCS4, find_ch_4)
#undef NBSP_TO_SPACE

static Py_ssize_t nbsp_to_space(int kind, void *buf, Py_ssize_t len)
{
    if (kind == PyUnicode_1BYTE_KIND)
        return nbsp_to_space_Py_UCS1(buf, len);
    if (kind == PyUnicode_2BYTE_KIND)
        return nbsp_to_space_Py_UCS2(buf, len);
    return nbsp_to_space_Py_UCS4(buf, len);
}

/* The (start, end) pairs of step0's cut as a flat array; NULL with an error set if they are
 * not pairs of offsets within the markup, increasing and disjoint. */
static Py_ssize_t *cut_spans(PyObject *spans, Py_ssize_t n, Py_ssize_t *count)
{
    PyObject *seq = PySequence_Fast(spans, "step0() cut must be a sequence of (start, end) pairs");
    if (seq == NULL)
        return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq), last = 0;
    Py_ssize_t *cut = PyMem_Malloc((size_t)(m ? 2 * m : 1) * sizeof(Py_ssize_t));
    if (cut == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        Py_ssize_t a, b;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, j), "nn;step0() cut must hold (start, end) pairs", &a,
                              &b))
            goto fail;
        if (a < last || b <= a || b > n) {
            PyErr_SetString(PyExc_ValueError, "step0() cut spans must be increasing, disjoint and within the markup");
            goto fail;
        }
        cut[2 * j] = a;
        cut[2 * j + 1] = last = b;
    }
    Py_DECREF(seq);
    *count = m;
    return cut;
fail:
    Py_DECREF(seq);
    PyMem_Free(cut);
    return NULL;
}

static PyObject *step0(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *arg, *spans = NULL;
    if (!PyArg_ParseTuple(args, "O|O:step0", &arg, &spans))
        return NULL;
    if (check_text(arg, "step0") < 0)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg), t0, t1, len, ncut = 0;
    Py_ssize_t *cut = NULL;
    if (spans != NULL && (cut = cut_spans(spans, n, &ncut)) == NULL)
        return NULL;
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    void *out = PyMem_Malloc((size_t)(n ? n : 1) * (size_t)kind);
    if (out == NULL) {
        PyMem_Free(cut);
        return PyErr_NoMemory();
    }
    BY_KIND(kind, len =, step0, data, n, out, &t0, &t1, cut, ncut);
    PyMem_Free(cut);
    len = nbsp_to_space(kind, out, len);
    PyObject *cleaned = PyUnicode_FromKindAndData(kind, out, len);
    PyMem_Free(out);
    if (cleaned == NULL)
        return NULL;
    return Py_BuildValue("Nnn", cleaned, t0, t1);
}

PyDoc_STRVAR(scan_doc,
             "scan(cleaned) -> (names, flags, tag_len, attr_len, seg_len, seg_chars, seg_words, woven, has_text)\n\n"
             "Cut step 0's output at tags: lower-cased tag names, their flags, the\n"
             "lengths of tags, attribute strings and text segments, each segment's\n"
             "counted characters (a numeric reference is one) and words, the\n"
             "segments' text with a NUL at every block tag, and whether\n"
             "any segment has a character that is not white space. Arrays are\n"
             "bytearrays of uint8, int64 and float64.");

static PyObject *scan(PyObject *Py_UNUSED(self), PyObject *arg)
{
    if (check_text(arg, "scan") < 0)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    Py_ssize_t *bounds = NULL, cap = 0, count;
    BY_KIND(kind, count =, find_tags, data, n, &bounds, &cap);
    PyObject *names = NULL, *flags = NULL, *tag_len = NULL, *attr_len = NULL, *seg_len = NULL, *seg_chars = NULL,
             *seg_words = NULL, *woven = NULL, *result = NULL;
    void *wbuf = NULL;
    if (count < 0) {
        PyErr_NoMemory();
        goto done;
    }
    names = PyList_New(count);
    flags = PyByteArray_FromStringAndSize(NULL, count);
    tag_len = PyByteArray_FromStringAndSize(NULL, count * 8);
    attr_len = PyByteArray_FromStringAndSize(NULL, count * 8);
    seg_len = PyByteArray_FromStringAndSize(NULL, (count + 1) * 8);
    seg_chars = PyByteArray_FromStringAndSize(NULL, (count + 1) * 8);
    seg_words = PyByteArray_FromStringAndSize(NULL, (count + 1) * 8);
    if (!names || !flags || !tag_len || !attr_len || !seg_len || !seg_chars || !seg_words)
        goto done;
    unsigned char *fl = (unsigned char *)PyByteArray_AS_STRING(flags);
    int64_t *tl = (int64_t *)PyByteArray_AS_STRING(tag_len);
    int64_t *al = (int64_t *)PyByteArray_AS_STRING(attr_len);
    int64_t *sl = (int64_t *)PyByteArray_AS_STRING(seg_len);
    int64_t *sc = (int64_t *)PyByteArray_AS_STRING(seg_chars);
    double *sw = (double *)PyByteArray_AS_STRING(seg_words);
    Py_ssize_t prev = 0, total = 0;
    int has_text = 0;
    for (Py_ssize_t t = 0; t <= count; t++) {
        Py_ssize_t start = t < count ? bounds[3 * t] : n;
        int nonspace;
        Py_ssize_t counted;
        BY_KIND(kind, sw[t] =, segment_words, data, prev, start, &nonspace, &counted);
        has_text |= nonspace;
        sc[t] = counted;
        sl[t] = start - prev;
        total += start - prev;
        if (t == count)
            break;
        Py_ssize_t name_end = bounds[3 * t + 1], close = bounds[3 * t + 2];
        PyObject *name = tag_name(arg, kind, data, start + 1, name_end, &fl[t]);
        if (name == NULL)
            goto done;
        PyList_SET_ITEM(names, t, name);
        tl[t] = close + 1 - start;
        al[t] = close - name_end;
        prev = close + 1;
    }
    wbuf = PyMem_Malloc((size_t)(total + count + 1) * (size_t)kind);
    if (wbuf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t wlen;
    BY_KIND(kind, wlen =, weave, data, n, bounds, count, fl, wbuf);
    woven = PyUnicode_FromKindAndData(kind, wbuf, wlen);
    if (woven == NULL)
        goto done;
    result = Py_BuildValue("OOOOOOOOO", names, flags, tag_len, attr_len, seg_len, seg_chars, seg_words, woven,
                           has_text ? Py_True : Py_False);
done:
    PyMem_Free(bounds);
    PyMem_Free(wbuf);
    Py_XDECREF(names);
    Py_XDECREF(flags);
    Py_XDECREF(tag_len);
    Py_XDECREF(attr_len);
    Py_XDECREF(seg_len);
    Py_XDECREF(seg_chars);
    Py_XDECREF(seg_words);
    Py_XDECREF(woven);
    return result;
}

/* Is `end` ("/name") the end tag of the start tag name `start`? */
static int ends(PyObject *end, PyObject *start)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(start);
    if (PyUnicode_GET_LENGTH(end) != n + 1)
        return 0;
    int ek = PyUnicode_KIND(end), sk = PyUnicode_KIND(start);
    const void *ed = PyUnicode_DATA(end), *sd = PyUnicode_DATA(start);
    if (ek == sk && ek == PyUnicode_1BYTE_KIND)
        return memcmp((const char *)ed + 1, sd, (size_t)n) == 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (PyUnicode_READ(ek, ed, k + 1) != PyUnicode_READ(sk, sd, k))
            return 0;
    return 1;
}

static int grow(int64_t **buf, Py_ssize_t *cap, Py_ssize_t need)
{
    if (need <= *cap)
        return 0;
    Py_ssize_t ncap = *cap ? *cap * 2 : 256;
    while (ncap < need)
        ncap *= 2;
    int64_t *nb = PyMem_Realloc(*buf, (size_t)ncap * sizeof(int64_t));
    if (nb == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = nb;
    *cap = ncap;
    return 0;
}

PyDoc_STRVAR(open_elements_doc,
             "open_elements(events, names) -> (el_tag, el_parent, el_depth, top)\n\n"
             "document.open_elements_reference over the tag indices `events` of the list `names`;\n"
             "returns bytearrays of int64.");

static PyObject *open_elements(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *events, *names;
    if (check_configured() < 0)
        return NULL;
    if (!PyArg_ParseTuple(args, "OO!", &events, &PyList_Type, &names))
        return NULL;
    Py_buffer view;
    if (get_view(events, I64, -1, "events", &view) < 0)
        return NULL;
    const int64_t *ev = view.buf;
    Py_ssize_t n_ev = view.len / 8, n_names = PyList_GET_SIZE(names);
    Py_ssize_t el_cap = 0, st_cap = 0, n_el = 1, depth = 1;
    int64_t *el_tag = NULL, *el_parent = NULL, *el_depth = NULL, *stack = NULL;
    PyObject **stack_names = NULL, *result = NULL, *top = NULL;
    Py_ssize_t cap_parent = 0, cap_depth = 0, cap_stack = 0;
    top = PyByteArray_FromStringAndSize(NULL, n_ev * 8);
    if (top == NULL || grow(&el_tag, &el_cap, 1) < 0 || grow(&el_parent, &cap_parent, 1) < 0 ||
        grow(&el_depth, &cap_depth, 1) < 0 || grow(&stack, &cap_stack, 1) < 0)
        goto done;
    stack_names = PyMem_Malloc(sizeof(PyObject *) * (size_t)cap_stack);
    st_cap = cap_stack;
    if (stack_names == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    el_tag[0] = -1;
    el_parent[0] = -1;
    el_depth[0] = 0;
    stack[0] = 0;
    stack_names[0] = NULL; /* the root matches no tag */
    int64_t *tp = (int64_t *)PyByteArray_AS_STRING(top);
    for (Py_ssize_t e = 0; e < n_ev; e++) {
        int64_t t = ev[e];
        if (t < 0 || t >= n_names) {
            PyErr_SetString(PyExc_IndexError, "event outside the names");
            goto done;
        }
        PyObject *name = PyList_GET_ITEM(names, t);
        if (!PyUnicode_Check(name) || PyUnicode_GET_LENGTH(name) == 0) {
            PyErr_SetString(PyExc_TypeError, "names must be non-empty str");
            goto done;
        }
        if (PyUnicode_READ_CHAR(name, 0) == '/') {
            if (stack_names[depth - 1] != NULL && ends(name, stack_names[depth - 1])) {
                depth--;
            } else {
                Py_ssize_t stop = depth - close_search > 0 ? depth - close_search : 0;
                for (Py_ssize_t k = depth - 2; k > stop; k--) {
                    if (ends(name, stack_names[k])) {
                        depth = k;
                        break;
                    }
                }
            }
        } else {
            int is_void = PySet_Contains(void_names, name);
            if (is_void < 0)
                goto done;
            if (!is_void) {
                PyObject *closes = PyDict_GetItemWithError(autoclose, name);
                if (closes == NULL && PyErr_Occurred())
                    goto done;
                if (closes != NULL && stack_names[depth - 1] != NULL) {
                    int hit = PySet_Contains(closes, stack_names[depth - 1]);
                    if (hit < 0)
                        goto done;
                    if (hit)
                        depth--;
                }
                if (grow(&el_tag, &el_cap, n_el + 1) < 0 || grow(&el_parent, &cap_parent, n_el + 1) < 0 ||
                    grow(&el_depth, &cap_depth, n_el + 1) < 0 || grow(&stack, &cap_stack, depth + 1) < 0)
                    goto done;
                if (cap_stack > st_cap) {
                    PyObject **ns = PyMem_Realloc(stack_names, sizeof(PyObject *) * (size_t)cap_stack);
                    if (ns == NULL) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    stack_names = ns;
                    st_cap = cap_stack;
                }
                el_parent[n_el] = stack[depth - 1];
                el_depth[n_el] = depth;
                el_tag[n_el] = t;
                stack[depth] = n_el;
                stack_names[depth] = name; /* borrowed: `names` outlives the call */
                depth++;
                n_el++;
            }
        }
        tp[e] = stack[depth - 1];
    }
    result = Py_BuildValue("NNNO", PyByteArray_FromStringAndSize((const char *)el_tag, n_el * 8),
                           PyByteArray_FromStringAndSize((const char *)el_parent, n_el * 8),
                           PyByteArray_FromStringAndSize((const char *)el_depth, n_el * 8), top);
done:
    PyBuffer_Release(&view);
    PyMem_Free(el_tag);
    PyMem_Free(el_parent);
    PyMem_Free(el_depth);
    PyMem_Free(stack);
    PyMem_Free(stack_names);
    Py_XDECREF(top);
    return result;
}

PyDoc_STRVAR(split_blocks_doc,
             "split_blocks(text, keep) -> list[str]\n\n"
             "The NUL-separated pieces of text numbered by keep (increasing int64\n"
             "indices), each with white space collapsed as \" \".join(piece.split())\n"
             "does. The other pieces are skipped unread, and nothing after the last\n"
             "one kept is read at all.");

static PyObject *split_blocks(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *text, *keep;
    if (!PyArg_ParseTuple(args, "OO", &text, &keep) || check_text(text, "split_blocks") < 0)
        return NULL;
    Py_buffer view;
    if (get_view(keep, I64, -1, "keep", &view) < 0)
        return NULL;
    Py_ssize_t n_keep = view.len / (Py_ssize_t)sizeof(int64_t), stored = -1;
    PyObject *out = PyList_New(n_keep);
    if (out != NULL) {
        int kind = PyUnicode_KIND(text);
        BY_KIND(kind, stored =, split_blocks, out, PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text), kind,
                (const int64_t *)view.buf, n_keep);
        if (stored >= 0 && stored < n_keep)
            PyErr_Format(PyExc_ValueError, "keep index %lld is out of order or past the last piece",
                         (long long)((const int64_t *)view.buf)[stored]);
        if (stored < n_keep)
            Py_CLEAR(out);
    }
    PyBuffer_Release(&view);
    return out;
}


PyDoc_STRVAR(raw_blocks_doc,
             "raw_blocks(flags, seg_words, seg_chars, tag_len, block_flag, open_flag, close_flag)\n"
             "    -> (seg_rawblock, in_link, raw_words, raw_link, raw_tags, raw_bytes)\n\n"
             "Per segment its raw block (block-level tags before it) and whether it\n"
             "lies inside a link; per raw block its words, link words, tags and bytes,\n"
             "summed in segment order as numpy.bincount does. Buffers: uint8 flags per\n"
             "tag, float64 words and int64 lengths per segment, int64 lengths per tag.");

static PyObject *raw_blocks(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *flags_obj, *words_obj, *seg_chars_obj, *tag_len_obj;
    int block_flag, open_flag, close_flag;
    if (!PyArg_ParseTuple(args, "OOOOiii", &flags_obj, &words_obj, &seg_chars_obj, &tag_len_obj, &block_flag, &open_flag,
                          &close_flag))
        return NULL;
    Py_buffer fl = {0}, sw = {0}, sl = {0}, tl = {0};
    PyObject *result = NULL, *seg_raw = NULL, *in_link = NULL, *words = NULL, *link = NULL, *tags = NULL, *bytes = NULL;
    signed char *next_close = NULL;
    double *seg_bytes = NULL, *tag_bytes = NULL;
    if (get_view(flags_obj, U8, -1, "flags", &fl) < 0 || get_view(words_obj, F64, -1, "seg_words", &sw) < 0 ||
        get_view(seg_chars_obj, I64, -1, "seg_chars", &sl) < 0 || get_view(tag_len_obj, I64, -1, "tag_len", &tl) < 0)
        goto done;
    Py_ssize_t n_tags = fl.len, n_seg = n_tags + 1;
    if (sw.len != n_seg * 8 || sl.len != n_seg * 8 || tl.len != n_tags * 8) {
        PyErr_SetString(PyExc_ValueError, "raw_blocks: buffer sizes do not match the number of tags");
        goto done;
    }
    const unsigned char *f = fl.buf;
    const double *w = sw.buf;
    const int64_t *seg_chars = sl.buf, *tag_len = tl.buf;
    Py_ssize_t n_raw = 1;
    for (Py_ssize_t t = 0; t < n_tags; t++)
        n_raw += (f[t] & block_flag) != 0;
    seg_raw = PyByteArray_FromStringAndSize(NULL, n_seg * 8);
    in_link = PyByteArray_FromStringAndSize(NULL, n_seg);
    words = PyByteArray_FromStringAndSize(NULL, n_raw * 8);
    link = PyByteArray_FromStringAndSize(NULL, n_raw * 8);
    tags = PyByteArray_FromStringAndSize(NULL, n_raw * 8);
    bytes = PyByteArray_FromStringAndSize(NULL, n_raw * 8);
    next_close = PyMem_Malloc(n_tags + 1);
    seg_bytes = PyMem_Calloc(n_raw, sizeof(double));
    tag_bytes = PyMem_Calloc(n_raw, sizeof(double));
    if (!seg_raw || !in_link || !words || !link || !tags || !bytes || !next_close || !seg_bytes || !tag_bytes) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *rb = (int64_t *)PyByteArray_AS_STRING(seg_raw);
    unsigned char *il = (unsigned char *)PyByteArray_AS_STRING(in_link);
    double *rw = (double *)PyByteArray_AS_STRING(words), *rl = (double *)PyByteArray_AS_STRING(link);
    int64_t *rt = (int64_t *)PyByteArray_AS_STRING(tags);
    double *rby = (double *)PyByteArray_AS_STRING(bytes);
    memset(rw, 0, n_raw * 8);
    memset(rl, 0, n_raw * 8);
    memset(rt, 0, n_raw * 8);
    /* Whether the next link tag after each link tag closes it (none: not closed). */
    int after = 0; /* 1: the next link tag is an end tag */
    for (Py_ssize_t t = n_tags - 1; t >= 0; t--) {
        if (f[t] & (open_flag | close_flag)) {
            next_close[t] = (signed char)after;
            after = (f[t] & close_flag) ? 1 : 0;
        }
    }
    /* Segment k follows tag k - 1. An open <a> covers a segment until its
     * end tag, or, never closed, to the end of the block it opened in. */
    Py_ssize_t block = 0, last_link = -1, link_block = 0;
    for (Py_ssize_t k = 0; k < n_seg; k++) {
        if (k > 0) {
            Py_ssize_t t = k - 1;
            if (f[t] & block_flag)
                block++;
            if (f[t] & (open_flag | close_flag)) {
                last_link = t;
                link_block = block; /* the raw block of the segment after that tag */
            }
        }
        int inside = last_link >= 0 && (f[last_link] & open_flag) && !(f[last_link] & close_flag) &&
                     (next_close[last_link] || block == link_block);
        rb[k] = block;
        il[k] = (unsigned char)(inside != 0);
        rw[block] += w[k];
        rl[block] += inside ? w[k] : 0.0;
        seg_bytes[block] += (double)seg_chars[k];
        if (k < n_tags) {
            rt[block] += 1;
            tag_bytes[block] += (double)tag_len[k];
        }
    }
    for (Py_ssize_t b = 0; b < n_raw; b++)
        rby[b] = seg_bytes[b] + tag_bytes[b];
    result = PyTuple_Pack(6, seg_raw, in_link, words, link, tags, bytes);
done:
    if (fl.obj)
        PyBuffer_Release(&fl);
    if (sw.obj)
        PyBuffer_Release(&sw);
    if (sl.obj)
        PyBuffer_Release(&sl);
    if (tl.obj)
        PyBuffer_Release(&tl);
    Py_XDECREF(seg_raw);
    Py_XDECREF(in_link);
    Py_XDECREF(words);
    Py_XDECREF(link);
    Py_XDECREF(tags);
    Py_XDECREF(bytes);
    PyMem_Free(next_close);
    PyMem_Free(seg_bytes);
    PyMem_Free(tag_bytes);
    return result;
}

PyDoc_STRVAR(kept_blocks_doc,
             "kept_blocks(keep, flags, seg_rawblock, seg_len, tag_len, raw_bytes, raw_tags, names, block_flag)\n"
             "    -> (start_tag, opener, blk_bytes, blk_tags, seg_block, seg_start, attr_end)\n\n"
             "Per kept raw block (keep: increasing int64 indices) the block-level tag that\n"
             "starts it (-1 for the first) and that tag's name (\"\" for none), and its\n"
             "markup bytes and tags: the running totals of raw_bytes and raw_tags at it\n"
             "less those at the kept block before, as numpy's cumsum gives them. Per\n"
             "segment its kept block (-1 for none) and start offset; per tag the end of\n"
             "its attribute string (the offset of its \">\"). Buffers: int64 except\n"
             "uint8 flags and float64 raw_bytes; all results but opener are bytearrays.");

static PyObject *kept_blocks(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *keep_obj, *flags_obj, *rb_obj, *sl_obj, *tl_obj, *bytes_obj, *tags_obj, *names;
    int block_flag;
    if (!PyArg_ParseTuple(args, "OOOOOOOO!i", &keep_obj, &flags_obj, &rb_obj, &sl_obj, &tl_obj, &bytes_obj, &tags_obj,
                          &PyList_Type, &names, &block_flag))
        return NULL;
    Py_buffer kp = {0}, fl = {0}, rbv = {0}, sl = {0}, tl = {0}, by = {0}, tg = {0};
    PyObject *result = NULL, *start = NULL, *opener = NULL, *blk_bytes = NULL, *blk_tags = NULL, *seg_block = NULL,
             *seg_start = NULL, *attr_end = NULL;
    int64_t *raw_to_block = NULL;
    if (get_view(keep_obj, I64, -1, "keep", &kp) < 0 || get_view(flags_obj, U8, -1, "flags", &fl) < 0 ||
        get_view(rb_obj, I64, -1, "seg_rawblock", &rbv) < 0 || get_view(sl_obj, I64, -1, "seg_len", &sl) < 0 ||
        get_view(tl_obj, I64, -1, "tag_len", &tl) < 0 || get_view(bytes_obj, F64, -1, "raw_bytes", &by) < 0 ||
        get_view(tags_obj, I64, -1, "raw_tags", &tg) < 0)
        goto done;
    Py_ssize_t n_keep = kp.len / 8, n_tags = fl.len, n_seg = n_tags + 1, n_raw = by.len / 8;
    if (kp.len % 8 || rbv.len != n_seg * 8 || sl.len != n_seg * 8 || tl.len != n_tags * 8 || by.len % 8 ||
        tg.len != n_raw * 8 || PyList_GET_SIZE(names) != n_tags) {
        PyErr_SetString(PyExc_ValueError, "kept_blocks: buffer sizes do not match");
        goto done;
    }
    const int64_t *keep = kp.buf, *seg_raw = rbv.buf, *seg_len = sl.buf, *tag_len = tl.buf, *raw_tags = tg.buf;
    const unsigned char *f = fl.buf;
    const double *raw_bytes = by.buf;
    for (Py_ssize_t j = 0; j < n_keep; j++) {
        if (keep[j] < 0 || keep[j] >= n_raw || (j > 0 && keep[j] <= keep[j - 1])) {
            PyErr_SetString(PyExc_ValueError, "kept_blocks: keep must increase within the raw blocks");
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < n_seg; k++) {
        if (seg_raw[k] < 0 || seg_raw[k] >= n_raw) {
            PyErr_SetString(PyExc_ValueError, "kept_blocks: a segment's raw block is out of range");
            goto done;
        }
    }
    start = PyByteArray_FromStringAndSize(NULL, n_keep * 8);
    opener = PyList_New(n_keep);
    blk_bytes = PyByteArray_FromStringAndSize(NULL, n_keep * 8);
    blk_tags = PyByteArray_FromStringAndSize(NULL, n_keep * 8);
    seg_block = PyByteArray_FromStringAndSize(NULL, n_seg * 8);
    seg_start = PyByteArray_FromStringAndSize(NULL, n_seg * 8);
    attr_end = PyByteArray_FromStringAndSize(NULL, n_tags * 8);
    raw_to_block = PyMem_Malloc((size_t)(n_raw ? n_raw : 1) * 8);
    if (!start || !opener || !blk_bytes || !blk_tags || !seg_block || !seg_start || !attr_end || !raw_to_block) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    int64_t *st = (int64_t *)PyByteArray_AS_STRING(start), *bt = (int64_t *)PyByteArray_AS_STRING(blk_tags);
    int64_t *sb = (int64_t *)PyByteArray_AS_STRING(seg_block), *ss = (int64_t *)PyByteArray_AS_STRING(seg_start);
    int64_t *ae = (int64_t *)PyByteArray_AS_STRING(attr_end);
    double *bb = (double *)PyByteArray_AS_STRING(blk_bytes);
    /* Raw block r starts after the r-th block-level tag. */
    Py_ssize_t j = 0, raw = 0;
    if (n_keep && keep[0] == 0) {
        st[0] = -1;
        PyObject *empty = PyUnicode_New(0, 0);
        if (empty == NULL)
            goto done;
        PyList_SET_ITEM(opener, 0, empty);
        j = 1;
    }
    for (Py_ssize_t t = 0; t < n_tags && j < n_keep; t++) {
        if (!(f[t] & block_flag) || ++raw != keep[j])
            continue;
        st[j] = t;
        PyList_SET_ITEM(opener, j, Py_NewRef(PyList_GET_ITEM(names, t)));
        j++;
    }
    if (j < n_keep) {
        PyErr_SetString(PyExc_ValueError, "kept_blocks: a kept raw block has no starting tag");
        goto done;
    }
    /* Running totals in raw block order, as numpy's cumsum adds them. */
    double cum_bytes = 0.0, prev_bytes = 0.0;
    int64_t cum_tags = 0, prev_tags = 0;
    j = 0;
    for (Py_ssize_t r = 0; r < n_raw; r++) {
        cum_bytes += raw_bytes[r];
        cum_tags += raw_tags[r];
        raw_to_block[r] = -1;
        if (j < n_keep && keep[j] == r) {
            bb[j] = j ? cum_bytes - prev_bytes : cum_bytes;
            bt[j] = j ? cum_tags - prev_tags : cum_tags;
            prev_bytes = cum_bytes;
            prev_tags = cum_tags;
            raw_to_block[r] = j++;
        }
    }
    int64_t at = 0;
    for (Py_ssize_t k = 0; k < n_seg; k++) {
        sb[k] = raw_to_block[seg_raw[k]];
        ss[k] = at;
        if (k < n_tags) {
            at += seg_len[k] + tag_len[k];
            ae[k] = at - 1;
        }
    }
    result = PyTuple_Pack(7, start, opener, blk_bytes, blk_tags, seg_block, seg_start, attr_end);
done:
    if (kp.obj)
        PyBuffer_Release(&kp);
    if (fl.obj)
        PyBuffer_Release(&fl);
    if (rbv.obj)
        PyBuffer_Release(&rbv);
    if (sl.obj)
        PyBuffer_Release(&sl);
    if (tl.obj)
        PyBuffer_Release(&tl);
    if (by.obj)
        PyBuffer_Release(&by);
    if (tg.obj)
        PyBuffer_Release(&tg);
    Py_XDECREF(start);
    Py_XDECREF(opener);
    Py_XDECREF(blk_bytes);
    Py_XDECREF(blk_tags);
    Py_XDECREF(seg_block);
    Py_XDECREF(seg_start);
    Py_XDECREF(attr_end);
    PyMem_Free(raw_to_block);
    return result;
}

PyDoc_STRVAR(element_strings_doc,
             "element_strings(el_tag, names, attr_end, attr_len, source)\n"
             "    -> (el_name, el_attrs, name_id, name_strings, attr_id, attr_strings)\n\n"
             "Per element after the root, the name of the tag that opened it and that tag's\n"
             "attribute string (source[attr_end - attr_len : attr_end]), with \"#root\" and \"\"\n"
             "first; and each list as a bytearray of int64 ids per element into the list of its\n"
             "distinct strings in order of first occurrence (equal strings are one object).\n"
             "Buffers: int64 tag indices per element, int64 per tag.");

/* `s`'s id in `table` (str -> int), appending it to `distinct` when new. */
static Py_ssize_t name_id_of(PyObject *table, PyObject *distinct, PyObject *s)
{
    PyObject *got = PyDict_GetItemWithError(table, s); /* borrowed */
    if (got != NULL)
        return PyLong_AsSsize_t(got);
    if (PyErr_Occurred())
        return -1;
    Py_ssize_t id = PyList_GET_SIZE(distinct);
    PyObject *key = PyLong_FromSsize_t(id);
    if (key == NULL)
        return -1;
    int bad = PyDict_SetItem(table, s, key) < 0 || PyList_Append(distinct, s) < 0;
    Py_DECREF(key);
    return bad ? -1 : id;
}

/* A hash of n bytes, a word at a time: equal slices of one string (one code-unit width) hash
   alike, so the distinct attribute strings are found without creating or hashing a str each. */
static uint64_t slice_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 32);
}

static PyObject *element_strings(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *tags_obj, *names, *end_obj, *len_obj, *source;
    if (!PyArg_ParseTuple(args, "OO!OOU", &tags_obj, &PyList_Type, &names, &end_obj, &len_obj, &source))
        return NULL;
    Py_buffer tb = {0}, eb = {0}, lb = {0};
    PyObject *el_name = NULL, *el_attrs = NULL, *result = NULL;
    PyObject *name_table = NULL, *name_strings = NULL, *attr_strings = NULL, *name_id = NULL, *attr_id = NULL;
    int64_t *table = NULL, *first = NULL;
    if (get_view(tags_obj, I64, -1, "el_tag", &tb) < 0 || get_view(end_obj, I64, -1, "attr_end", &eb) < 0 ||
        get_view(len_obj, I64, -1, "attr_len", &lb) < 0)
        goto done;
    Py_ssize_t n_el = tb.len / 8, n_tags = PyList_GET_SIZE(names), n_src = PyUnicode_GET_LENGTH(source);
    if (n_el < 1 || eb.len != n_tags * 8 || lb.len != n_tags * 8) {
        PyErr_SetString(PyExc_ValueError, "element_strings: buffer sizes do not match");
        goto done;
    }
    const int64_t *el_tag = tb.buf, *attr_end = eb.buf, *attr_len = lb.buf;
    el_name = PyList_New(n_el);
    el_attrs = PyList_New(n_el);
    name_table = PyDict_New();
    name_strings = PyList_New(0);
    attr_strings = PyList_New(0);
    name_id = PyByteArray_FromStringAndSize(NULL, n_el * 8);
    attr_id = PyByteArray_FromStringAndSize(NULL, n_el * 8);
    if (el_name == NULL || el_attrs == NULL || name_table == NULL || name_strings == NULL || attr_strings == NULL ||
        name_id == NULL || attr_id == NULL)
        goto done;
    /* Open addressing over the distinct attribute strings: slot -> id + 1 (0 = free); per id,
       its slice's start and length in the source. */
    size_t slots = 16;
    while (slots < 2 * (size_t)n_el)
        slots *= 2;
    table = PyMem_Calloc(slots, sizeof(int64_t));
    first = PyMem_Malloc(sizeof(int64_t) * 2 * (size_t)n_el);
    if (table == NULL || first == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *nid = (int64_t *)PyByteArray_AS_STRING(name_id), *aid = (int64_t *)PyByteArray_AS_STRING(attr_id);
    int kind = PyUnicode_KIND(source);
    const unsigned char *data = PyUnicode_DATA(source);
    PyObject *root = PyUnicode_FromString("#root");
    if (root == NULL)
        goto done;
    PyList_SET_ITEM(el_name, 0, root);
    if ((nid[0] = name_id_of(name_table, name_strings, root)) < 0)
        goto done;
    Py_ssize_t n_attrs = 0;
    for (Py_ssize_t k = 0; k < n_el; k++) {
        int64_t start = 0, end = 0; /* the root's attribute string is "" */
        if (k > 0) {
            int64_t t = el_tag[k];
            if (t < 0 || t >= n_tags) {
                PyErr_SetString(PyExc_IndexError, "element_strings: tag index out of range");
                goto done;
            }
            PyObject *name = PyList_GET_ITEM(names, t);
            if (!PyUnicode_Check(name)) {
                PyErr_SetString(PyExc_TypeError, "element_strings: names must be str");
                goto done;
            }
            Py_INCREF(name);
            PyList_SET_ITEM(el_name, k, name);
            if ((nid[k] = name_id_of(name_table, name_strings, name)) < 0)
                goto done;
            end = attr_end[t];
            start = end - attr_len[t];
            if (start < 0 || end > n_src || start > end) {
                PyErr_SetString(PyExc_IndexError, "element_strings: attribute range out of the source");
                goto done;
            }
        }
        const unsigned char *at = data + (size_t)start * kind;
        size_t nbytes = (size_t)(end - start) * kind;
        size_t slot = slice_hash(at, nbytes) & (slots - 1);
        int64_t id = -1;
        while (table[slot] != 0) {
            int64_t j = table[slot] - 1;
            if (first[2 * j + 1] == end - start && memcmp(data + (size_t)first[2 * j] * kind, at, nbytes) == 0) {
                id = j;
                break;
            }
            slot = (slot + 1) & (slots - 1);
        }
        if (id < 0) {
            PyObject *attrs = PyUnicode_Substring(source, start, end);
            if (attrs == NULL)
                goto done;
            int bad = PyList_Append(attr_strings, attrs);
            Py_DECREF(attrs);
            if (bad < 0)
                goto done;
            id = n_attrs++;
            table[slot] = id + 1;
            first[2 * id] = start;
            first[2 * id + 1] = end - start;
        }
        aid[k] = id;
        PyList_SET_ITEM(el_attrs, k, Py_NewRef(PyList_GET_ITEM(attr_strings, id)));
    }
    result = PyTuple_Pack(6, el_name, el_attrs, name_id, name_strings, attr_id, attr_strings);
done:
    if (tb.obj)
        PyBuffer_Release(&tb);
    if (eb.obj)
        PyBuffer_Release(&eb);
    if (lb.obj)
        PyBuffer_Release(&lb);
    PyMem_Free(table);
    PyMem_Free(first);
    Py_XDECREF(el_name);
    Py_XDECREF(el_attrs);
    Py_XDECREF(name_table);
    Py_XDECREF(name_strings);
    Py_XDECREF(attr_strings);
    Py_XDECREF(name_id);
    Py_XDECREF(attr_id);
    return result;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, configure_doc},
    {"step0", step0, METH_VARARGS, step0_doc},
    {"scan", scan, METH_O, scan_doc},
    {"open_elements", open_elements, METH_VARARGS, open_elements_doc},
    {"split_blocks", split_blocks, METH_VARARGS, split_blocks_doc},
    {"raw_blocks", raw_blocks, METH_VARARGS, raw_blocks_doc},
    {"kept_blocks", kept_blocks, METH_VARARGS, kept_blocks_doc},
    {"element_strings", element_strings, METH_VARARGS, element_strings_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_scan(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
