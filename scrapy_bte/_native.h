/* Shared by the C passes of the one extension module scrapy_bte._native: the
 * functions each source file adds to its submodule, typed views of numpy
 * arrays (the one place buffers, dtypes and lengths are checked) and
 * portable bit helpers.
 *
 * Passes. Each C source beside a Python module exports one function,
 * scrapy_bte_add_<file>(module), that adds its functions (and constants) to
 * the submodule of scrapy_bte._native named after that Python module
 * (_native.c); every other function and table of the file is static.
 *
 * Arrays: every buffer a pass reads or writes is acquired here. get_view
 * acquires a C-contiguous buffer of `count` items of `kind` (any count if
 * negative) and checks its format as well as its length, so a pass never
 * reads an array of another type as its own: 0 on success; on failure -1
 * with TypeError (not an array of that type) or ValueError (wrong length)
 * set and nothing held; get_writable_view also insists on a writable
 * buffer, and get_strided_view takes any strides and 1 or 2 dimensions. get_array does the same into the next slot
 * of `held`, so a pass that holds several releases them all on every path
 * (release_all).
 *
 * Bits. count_trailing_zeros32/64 (of a non-zero value) and PREFETCH use the
 * compiler's builtin or intrinsic where there is one (GCC, Clang, MSVC on
 * x64 and ARM64) and a plain C loop or nothing elsewhere; define
 * SCRAPY_BTE_PORTABLE_C to build the plain C forms on any compiler (the
 * parity tests then check them).
 */
#ifndef SCRAPY_BTE_NATIVE_H
#define SCRAPY_BTE_NATIVE_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ passes */

int scrapy_bte_add_scan(PyObject *module);        /* core/_scan.c: core.document */
int scrapy_bte_add_entities(PyObject *module);    /* core/_entities.c: core.entities */
int scrapy_bte_add_fingerprint(PyObject *module); /* core/_fingerprint.c: core.fingerprint */
int scrapy_bte_add_hints(PyObject *module);       /* evidence/_hints.c: evidence.hints */
int scrapy_bte_add_labels(PyObject *module);      /* evidence/_labels.c: evidence.labels */
int scrapy_bte_add_marks(PyObject *module);       /* core/_marks.c: core.marks */
int scrapy_bte_add_hidden(PyObject *module);      /* core/_hidden.c: core.hidden */
int scrapy_bte_add_bte(PyObject *module);         /* methods/_bte.c: methods.bte */
int scrapy_bte_add_em(PyObject *module);          /* methods/_em.c: methods.density */
int scrapy_bte_add_records(PyObject *module);     /* methods/_records.c: methods.records */
int scrapy_bte_add_textstats(PyObject *module);   /* learned/_textstats.c: learned.features */
int scrapy_bte_add_features(PyObject *module);    /* learned/_features.c: learned.features */
int scrapy_bte_add_auto(PyObject *module);        /* learned/_auto.c: learned.auto */
int scrapy_bte_add_page_type(PyObject *module);   /* learned/_page_type.c: learned.page_type */

/* ------------------------------------------------------------------ arrays */

/* Item types, as bits: a check may accept more than one (F32 | F64). */
enum kind { F32 = 1, F64 = 2, I64 = 4, U8 = 8, I32 = 16, F16 = 32 };

static inline const char *kind_name(unsigned kinds)
{
    switch (kinds) {
    case F32:
        return "float32";
    case F64:
        return "float64";
    case F32 | F64:
        return "float32 or float64";
    case I64:
        return "int64";
    case I32:
        return "int32 or uint32";
    case F16:
        return "float16";
    default:
        return "uint8 or bool";
    }
}

/* Whether the buffer's items are one of `kinds` (its format and item size both). */
static inline int kind_matches(const Py_buffer *view, unsigned kinds)
{
    const char *fmt = view->format ? view->format : "B";
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    if ((kinds & F32) && view->itemsize == 4 && strcmp(fmt, "f") == 0)
        return 1;
    if ((kinds & F64) && view->itemsize == 8 && strcmp(fmt, "d") == 0)
        return 1;
    if ((kinds & I64) && view->itemsize == 8 && (strcmp(fmt, "l") == 0 || strcmp(fmt, "q") == 0))
        return 1;
    if ((kinds & U8) && view->itemsize == 1 && (strcmp(fmt, "B") == 0 || strcmp(fmt, "?") == 0))
        return 1;
    if ((kinds & I32) && view->itemsize == 4 &&
        (strcmp(fmt, "i") == 0 || strcmp(fmt, "I") == 0 || strcmp(fmt, "l") == 0 || strcmp(fmt, "L") == 0))
        return 1;
    if ((kinds & F16) && view->itemsize == 2 && strcmp(fmt, "e") == 0)
        return 1;
    return 0;
}

static inline int get_typed_view(PyObject *obj, unsigned kinds, Py_ssize_t count, const char *name, Py_buffer *view,
                                 int writable)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_TypeError, writable ? "%s must be a writable contiguous array" : "%s must be a contiguous array",
                     name);
        return -1;
    }
    if (!kind_matches(view, kinds)) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, writable ? "%s must be a writable contiguous %s array" : "%s must be a contiguous %s array",
                     name, kind_name(kinds));
        return -1;
    }
    if (count >= 0 && view->len != count * view->itemsize) {
        Py_ssize_t items = view->len / view->itemsize;
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s has %zd items, expected %zd", name, items, count);
        return -1;
    }
    return 0;
}

/* An array of any strides (a slice of a matrix) with min_ndim to max_ndim dimensions whose
 * items are one of `kinds`; its shape is the caller's to check. As get_typed_view, 0 or -1
 * with TypeError set and nothing held. */
static inline int get_strided_view(PyObject *obj, unsigned kinds, int min_ndim, int max_ndim, const char *name,
                                   Py_buffer *view, int writable)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_TypeError, writable ? "%s must be a writable array" : "%s must be an array", name);
        return -1;
    }
    if (!kind_matches(view, kinds) || view->ndim < min_ndim || view->ndim > max_ndim) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s must be a %s%s array of %d to %d dimensions", name, writable ? "writable " : "",
                     kind_name(kinds), min_ndim, max_ndim);
        return -1;
    }
    return 0;
}

static inline int get_view(PyObject *obj, unsigned kind, Py_ssize_t count, const char *name, Py_buffer *view)
{
    return get_typed_view(obj, kind, count, name, view, 0);
}

/* As get_view, for an array the pass writes into. */
static inline int get_writable_view(PyObject *obj, unsigned kind, Py_ssize_t count, const char *name, Py_buffer *view)
{
    return get_typed_view(obj, kind, count, name, view, 1);
}

static inline int get_array(PyObject *obj, unsigned kind, Py_ssize_t count, const char *name, Py_buffer *held,
                            int *n_held)
{
    if (get_view(obj, kind, count, name, &held[*n_held]) < 0)
        return -1;
    (*n_held)++;
    return 0;
}

static inline void release_all(Py_buffer *held, int n_held)
{
    for (int k = 0; k < n_held; k++)
        PyBuffer_Release(&held[k]);
}

/* ------------------------------------------------------------------ names */

/* The value a dict gives each of a page's tag-name objects, remembered by the object's address.
 * A page's tag names and block openers are a few dozen str objects, each used for hundreds of
 * tags; a dict look-up per use costs about 8 ns. Each slot holds a reference to its name, so no
 * address is reused while the table is read; release_names drops them. */
#define NAME_SLOTS 256

typedef struct {
    PyObject *name;   /* a strong reference, or NULL */
    int found;        /* whether the dict holds the name */
    Py_ssize_t value; /* then its value, as an int */
} name_slot;

/* Whether the dict `index` holds `name` (1, its int value in *value; 0; or -1 with an exception
 * set, from the dict or a value that is not an int), through `slots` (zeroed before the first call). */
static inline int name_value(name_slot *slots, PyObject *index, PyObject *name, Py_ssize_t *value)
{
    name_slot *slot = &slots[((uintptr_t)name >> 4) % NAME_SLOTS];
    if (slot->name != name) {
        PyObject *found = PyDict_GetItemWithError(index, name);
        Py_ssize_t v = 0;
        if (found == NULL) {
            if (PyErr_Occurred())
                return -1;
        }
        else {
            v = PyLong_AsSsize_t(found);
            if (v == -1 && PyErr_Occurred())
                return -1;
        }
        Py_INCREF(name);
        Py_XSETREF(slot->name, name);
        slot->found = found != NULL;
        slot->value = v;
    }
    *value = slot->value;
    return slot->found;
}

static inline void release_names(name_slot *slots)
{
    for (int k = 0; k < NAME_SLOTS; k++)
        Py_CLEAR(slots[k].name);
}

/* ------------------------------------------------------------------ markup */

/* A str read in place, whatever its kind: the passes that walk markup or attribute strings
 * character by character (core/_hidden.c, methods/_records.c). */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
} text_t;

#define TEXT_AT(t, i) PyUnicode_READ((t)->kind, (t)->data, (i))

/* White space as a class attribute's reader takes it: Python's (str.split, the regular
 * expressions' \s: Py_UNICODE_ISSPACE) or the ASCII one of markup. */
static inline int class_space(Py_UCS4 c, int python_space)
{
    if (python_space)
        return Py_UNICODE_ISSPACE(c);
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The value of the attribute whose name ends at `at` in the string of `kind` at `data`, read
 * up to `end`: white space, "=", white space, then "..." or '...' up to the same quote, or a run
 * of characters that are no white space, quote or ">". 1 with its bounds [*va, *vb); 0 where
 * no value follows (no "=", a quote never closed, an empty run), and the caller's search for the
 * attribute goes on. The one reading of class="..." of core/_hidden.c and methods/_records.c. */
static inline int class_attribute_value(int kind, const void *data, Py_ssize_t at, Py_ssize_t end, int python_space,
                                        Py_ssize_t *va, Py_ssize_t *vb)
{
    Py_ssize_t j = at;
    while (j < end && class_space(PyUnicode_READ(kind, data, j), python_space))
        j++;
    if (j >= end || PyUnicode_READ(kind, data, j) != '=')
        return 0;
    j++;
    while (j < end && class_space(PyUnicode_READ(kind, data, j), python_space))
        j++;
    if (j >= end)
        return 0;
    Py_UCS4 q = PyUnicode_READ(kind, data, j);
    if (q == '"' || q == '\'') {
        Py_ssize_t k = j + 1;
        while (k < end && PyUnicode_READ(kind, data, k) != q)
            k++;
        if (k >= end)
            return 0;
        *va = j + 1;
        *vb = k;
        return 1;
    }
    Py_ssize_t k = j;
    while (k < end) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (class_space(c, python_space) || c == '"' || c == '\'' || c == '>')
            break;
        k++;
    }
    if (k == j)
        return 0;
    *va = j;
    *vb = k;
    return 1;
}

/* ------------------------------------------------------------ characters */

static inline int ascii_alpha(Py_UCS4 c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int ascii_alnum(Py_UCS4 c)
{
    return ascii_alpha(c) || (c >= '0' && c <= '9');
}

/* ------------------------------------------------------------------ bits */

#if (defined(__GNUC__) || defined(__clang__)) && !defined(SCRAPY_BTE_PORTABLE_C)
static inline int count_trailing_zeros32(uint32_t x)
{
    return __builtin_ctz(x);
}
static inline int count_trailing_zeros64(uint64_t x)
{
    return __builtin_ctzll(x);
}
#define PREFETCH(p) __builtin_prefetch(p)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64)) && !defined(SCRAPY_BTE_PORTABLE_C)
#include <intrin.h>
static __inline int count_trailing_zeros32(uint32_t x)
{
    unsigned long at;
    _BitScanForward(&at, x);
    return (int)at;
}
static __inline int count_trailing_zeros64(uint64_t x)
{
    unsigned long at;
    _BitScanForward64(&at, x);
    return (int)at;
}
#if defined(_M_X64)
#define PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define PREFETCH(p) __prefetch(p)
#endif
#else
static inline int count_trailing_zeros32(uint32_t x)
{
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}
static inline int count_trailing_zeros64(uint64_t x)
{
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}
/* A hint only: without one the reads are the same, just not started early. */
#define PREFETCH(p) ((void)(p))
#endif

#endif
