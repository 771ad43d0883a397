/* The record shapes' class words in one pass (scrapy_bte.methods.records).
 *
 * class_shapes(strings, out) numbers the class words of every attribute
 * string of a page, as element_shapes does with class_words: per string
 * its first class attribute's value, decimal digits removed, split at white
 * space, sorted and joined by one space; equal words, equal numbers, in the
 * order the words first occur. Python's own rules throughout, so the two
 * agree to the character: white space is what str.split() and the regular
 * expression's \s take (Py_UNICODE_ISSPACE), a digit what \d takes
 * (Py_UNICODE_ISDECIMAL), "class" matches in any ASCII case, and also with
 * U+017F for "s" in a string that holds U+0130 (whose lower case is longer:
 * class_words then searches case-blind, where the long s matches "s").
 * Tokens sort by code point, as Python's strings do.
 *
 * A page has a hundred or so distinct attribute strings; the Python form
 * costs a lower case, a search and a dictionary look-up per string, 0.2 ms a
 * listing page, this pass about a tenth of it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../_native.h"


static int is_letter(Py_UCS4 c, char lower, int long_s)
{
    return c == (Py_UCS4)lower || c == (Py_UCS4)(lower - 32) || (long_s && lower == 's' && c == 0x17F);
}

/* Whether "class" (any ASCII case) starts at i, after the string's start or white space. */
static int class_at(const text_t *t, Py_ssize_t i, int long_s)
{
    static const char word[] = "class";
    if (i + 5 > t->n || (i > 0 && !Py_UNICODE_ISSPACE(TEXT_AT(t, i - 1))))
        return 0;
    for (int k = 0; k < 5; k++)
        if (!is_letter(TEXT_AT(t, i + k), word[k], long_s))
            return 0;
    return 1;
}

/* The first class attribute's value: 1 and [*va, *vb), or 0 without one (records._CLASS). */
static int class_value(const text_t *t, int long_s, Py_ssize_t *va, Py_ssize_t *vb)
{
    for (Py_ssize_t i = 0; i + 5 <= t->n; i++)
        if (class_at(t, i, long_s) && class_attribute_value(t->kind, t->data, i + 5, t->n, 1, va, vb))
            return 1;
    return 0;
}

typedef struct {
    const Py_UCS4 *at;
    Py_ssize_t len;
} token;

static int token_order(const void *a, const void *b)
{
    const token *x = a, *y = b;
    Py_ssize_t n = x->len < y->len ? x->len : y->len;
    for (Py_ssize_t i = 0; i < n; i++)
        if (x->at[i] != y->at[i])
            return x->at[i] < y->at[i] ? -1 : 1;
    return (x->len > y->len) - (x->len < y->len);
}

/* The class words of t: a new string, or NULL with an exception set. `chars`, `joined` and
 * `tokens` hold t->n items each. */
static PyObject *class_words(const text_t *t, int long_s, Py_UCS4 *chars, Py_UCS4 *joined, token *tokens)
{
    Py_ssize_t va, vb;
    if (!class_value(t, long_s, &va, &vb))
        return PyUnicode_New(0, 0);
    Py_ssize_t n = 0;
    for (Py_ssize_t i = va; i < vb; i++) {
        Py_UCS4 c = TEXT_AT(t, i);
        if (!Py_UNICODE_ISDECIMAL(c))
            chars[n++] = c;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n;) {
        while (i < n && Py_UNICODE_ISSPACE(chars[i]))
            i++;
        Py_ssize_t start = i;
        while (i < n && !Py_UNICODE_ISSPACE(chars[i]))
            i++;
        if (i > start) {
            tokens[count].at = chars + start;
            tokens[count].len = i - start;
            count++;
        }
    }
    qsort(tokens, (size_t)count, sizeof(token), token_order);
    Py_ssize_t len = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (k)
            joined[len++] = ' ';
        memcpy(joined + len, tokens[k].at, (size_t)tokens[k].len * sizeof(Py_UCS4));
        len += tokens[k].len;
    }
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, joined, len);
}

PyDoc_STRVAR(class_shapes_doc,
             "class_shapes(strings, out) -> int\n\n"
             "Writes into the int64 array ``out`` (one item per string) the number of each attribute\n"
             "string's class words, numbered in the order they first occur, and returns how many\n"
             "distinct words there are: records.class_shapes_reference in one pass.");

static PyObject *class_shapes(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *strings, *out_obj;
    if (!PyArg_ParseTuple(args, "O!O:class_shapes", &PyList_Type, &strings, &out_obj))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(strings);
    Py_ssize_t longest = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyList_GET_ITEM(strings, i);
        if (!PyUnicode_Check(s))
            return PyErr_Format(PyExc_TypeError, "strings must hold str, not %.80s", Py_TYPE(s)->tp_name);
        if (PyUnicode_GET_LENGTH(s) > longest)
            longest = PyUnicode_GET_LENGTH(s);
    }
    Py_buffer view;
    if (get_typed_view(out_obj, I64, n, "out", &view, 1) < 0)
        return NULL;
    int64_t *out = view.buf;
    PyObject *index = PyDict_New();
    Py_UCS4 *chars = PyMem_Malloc((size_t)longest * 2 * sizeof(Py_UCS4));
    token *tokens = PyMem_Malloc((size_t)longest * sizeof(token));
    if (index == NULL || chars == NULL || tokens == NULL) {
        if (index != NULL)
            PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyList_GET_ITEM(strings, i);
        text_t t = {PyUnicode_KIND(s), PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s)};
        /* U+0130 needs a kind of two bytes or more, and only there is it looked for. */
        int long_s = t.kind != PyUnicode_1BYTE_KIND && PyUnicode_FindChar(s, 0x130, 0, t.n, 1) >= 0;
        PyObject *words = class_words(&t, long_s, chars, chars + longest, tokens);
        if (words == NULL)
            goto fail;
        PyObject *number = PyDict_GetItemWithError(index, words);
        if (number == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(words);
                goto fail;
            }
            number = PyLong_FromSsize_t(PyDict_GET_SIZE(index));
            if (number == NULL || PyDict_SetItem(index, words, number) < 0) {
                Py_XDECREF(number);
                Py_DECREF(words);
                goto fail;
            }
            Py_DECREF(number); /* the dictionary holds it */
        }
        out[i] = (int64_t)PyLong_AsSsize_t(number);
        Py_DECREF(words);
    }
    Py_ssize_t distinct = PyDict_GET_SIZE(index);
    Py_DECREF(index);
    PyMem_Free(chars);
    PyMem_Free(tokens);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(distinct);
fail:
    Py_XDECREF(index);
    PyMem_Free(chars);
    PyMem_Free(tokens);
    PyBuffer_Release(&view);
    return NULL;
}

static PyMethodDef methods[] = {
    {"class_shapes", class_shapes, METH_VARARGS, class_shapes_doc},
    {NULL, NULL, 0, NULL},
};

int scrapy_bte_add_records(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
