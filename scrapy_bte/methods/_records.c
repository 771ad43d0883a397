/* The class words of a page's attribute strings, for records.element_shapes, in C.
 *
 * A record's shape is its tag name and the words of its class attribute,
 * digits removed and sorted. On a page seen once almost every attribute
 * string is new (an id, a link), and the Python form spends about a
 * microsecond and a half a string on the search, the slicing and the
 * memo; the listing profiles read the shapes of every element of the page.
 *
 * class_words(strings) answers what records.class_words answers for each
 * string, or None for a string it leaves to it: one holding U+0130, whose
 * lower case is longer (the Python form then searches the string as
 * written, case-blind, where a long s can stand for an s).
 *
 * The search is the one of records._CLASS: "class" in any ASCII case at
 * the start of the string or after a Unicode space, then spaces, "=",
 * spaces and a value double-quoted, single-quoted (both may be empty) or
 * bare (up to a space, a quote or ">"); a candidate that fails goes on
 * with the next "class". No other character lowers to an ASCII letter of
 * "class", so the ASCII test is the Python form's test of the lower case.
 * Digits are Unicode decimals (Python's \d), spaces Python's (str.split),
 * the order that of code points (sorted).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_native.h"

#define LOWER_ASCII(c) ((c) >= 'A' && (c) <= 'Z' ? (c) + 32 : (c))

/* Whether "class" (ASCII, any case) starts at i, after the start or a space. */
static int class_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    static const char word[] = "class";
    if (i + 5 > n)
        return 0;
    for (int k = 0; k < 5; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i + k);
        if (LOWER_ASCII(c) != (Py_UCS4)word[k])
            return 0;
    }
    return i == 0 || Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i - 1));
}

/* The value of the first class attribute: its span in [*start, *end), 1; 0 without one. */
static int find_value(int kind, const void *data, Py_ssize_t n, Py_ssize_t *start, Py_ssize_t *end)
{
    for (Py_ssize_t i = 0; i + 5 <= n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if ((c != 'c' && c != 'C') || !class_at(kind, data, n, i))
            continue;
        Py_ssize_t j = i + 5;
        while (j < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)))
            j++;
        if (j >= n || PyUnicode_READ(kind, data, j) != '=')
            continue;
        j++;
        while (j < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)))
            j++;
        if (j >= n)
            continue;
        Py_UCS4 q = PyUnicode_READ(kind, data, j);
        if (q == '"' || q == '\'') {
            Py_ssize_t k = j + 1;
            while (k < n && PyUnicode_READ(kind, data, k) != q)
                k++;
            if (k >= n)
                continue; /* unclosed: no value here (a bare one cannot start with a quote) */
            *start = j + 1;
            *end = k;
            return 1;
        }
        if (q == '>' || Py_UNICODE_ISSPACE(q))
            continue;
        Py_ssize_t k = j;
        while (k < n) {
            Py_UCS4 v = PyUnicode_READ(kind, data, k);
            if (v == '"' || v == '\'' || v == '>' || Py_UNICODE_ISSPACE(v))
                break;
            k++;
        }
        *start = j;
        *end = k;
        return 1;
    }
    return 0;
}

/* The words of value [start, end) of `s`, digits removed, sorted, joined by one space. */
static PyObject *value_words(PyObject *s, Py_ssize_t start, Py_ssize_t end, PyObject *space)
{
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t kept = 0;
    Py_UCS4 widest = 0; /* a str is built at the width of its widest character: CPython compares by width first */
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!Py_UNICODE_ISDECIMAL(c)) {
            kept++;
            if (c > widest)
                widest = c;
        }
    }
    if (kept == 0)
        return PyUnicode_New(0, 0);
    PyObject *bare = PyUnicode_New(kept, widest);
    if (bare == NULL)
        return NULL;
    int out_kind = PyUnicode_KIND(bare);
    void *out = PyUnicode_DATA(bare);
    Py_ssize_t w = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!Py_UNICODE_ISDECIMAL(c))
            PyUnicode_WRITE(out_kind, out, w++, c);
    }
    PyObject *words = PyUnicode_Split(bare, NULL, -1);
    Py_DECREF(bare);
    if (words == NULL)
        return NULL;
    PyObject *joined = NULL;
    if (PyList_Sort(words) == 0)
        joined = PyUnicode_Join(space, words);
    Py_DECREF(words);
    return joined;
}

PyDoc_STRVAR(class_words_doc,
             "class_words(strings) -> list\n\n"
             "Per attribute string, the words of its first class attribute, digits\n"
             "removed, sorted and joined by a space (\"\" without one), as\n"
             "records.class_words gives them; None for a string holding U+0130,\n"
             "which is left to it.");

static PyObject *class_words(PyObject *Py_UNUSED(self), PyObject *arg)
{
    if (!PyList_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "class_words() expects a list of str");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(arg);
    PyObject *out = PyList_New(count);
    PyObject *space = PyUnicode_FromString(" ");
    PyObject *empty = PyUnicode_New(0, 0);
    if (out == NULL || space == NULL || empty == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *s = PyList_GET_ITEM(arg, i);
        if (!PyUnicode_Check(s)) {
            PyErr_SetString(PyExc_TypeError, "class_words() expects a list of str");
            goto fail;
        }
        int kind = PyUnicode_KIND(s);
        const void *data = PyUnicode_DATA(s);
        Py_ssize_t n = PyUnicode_GET_LENGTH(s);
        PyObject *item = NULL;
        if (kind != PyUnicode_1BYTE_KIND && PyUnicode_FindChar(s, 0x130, 0, n, 1) >= 0) {
            item = Py_None;
            Py_INCREF(item);
        } else {
            Py_ssize_t start, end;
            if (find_value(kind, data, n, &start, &end)) {
                item = value_words(s, start, end, space);
                if (item == NULL)
                    goto fail;
            } else {
                item = empty;
                Py_INCREF(item);
            }
        }
        PyList_SET_ITEM(out, i, item);
    }
    Py_DECREF(space);
    Py_DECREF(empty);
    return out;
fail:
    Py_XDECREF(out);
    Py_XDECREF(space);
    Py_XDECREF(empty);
    return NULL;
}

static PyMethodDef methods[] = {
    {"class_words", class_words, METH_O, class_words_doc},
    {NULL, NULL, 0, NULL},
};

int scrapy_bte_add_records(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
