/* The elements only screen readers read, found from their class words (optional accelerator).
 *
 * scrapy_bte.core.hidden.screen_reader_elements_reference is the Python twin and the
 * definition: per class word the marks found, the start tag it stands in (its "<" at most
 * max_tag characters back, no ">" between), the tag's class attribute holding one of the
 * classes as a whole token (split at ASCII white space, as HTML splits it), and the element's
 * end tag (same name, nesting counted, ASCII case folded) within max_element characters and
 * no script, style or comment edge inside. What the Python form spends is its per-word calls
 * (a search back, two regular expressions, a nesting count): about 2 microseconds a word on
 * WCXB's pages, a dozen words a page.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_native.h"


static int ascii_space(Py_UCS4 c)
{
    return class_space(c, 0);
}

static Py_UCS4 ascii_lower(Py_UCS4 c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* Whether t[i:] starts with the ASCII lower-case word w, ASCII case folded. */
static int starts_folded(const text_t *t, Py_ssize_t i, Py_ssize_t end, const char *w, Py_ssize_t len)
{
    if (i + len > end)
        return 0;
    for (Py_ssize_t k = 0; k < len; k++)
        if (ascii_lower(TEXT_AT(t, i + k)) != (Py_UCS4)(unsigned char)w[k])
            return 0;
    return 1;
}

/* Whether t[a:b] (a class attribute's value) holds one of `classes` as a token. */
static int holds_class(const text_t *t, Py_ssize_t a, Py_ssize_t b, PyObject *classes)
{
    Py_ssize_t i = a;
    while (i < b) {
        while (i < b && ascii_space(TEXT_AT(t, i)))
            i++;
        Py_ssize_t j = i;
        while (j < b && !ascii_space(TEXT_AT(t, j)))
            j++;
        if (j > i) {
            Py_ssize_t n = PyTuple_GET_SIZE(classes);
            for (Py_ssize_t c = 0; c < n; c++) {
                PyObject *name = PyTuple_GET_ITEM(classes, c);
                Py_ssize_t len = PyUnicode_GET_LENGTH(name);
                if (len != j - i)
                    continue;
                const char *s = PyUnicode_AsUTF8(name);
                Py_ssize_t k = 0;
                while (k < len && TEXT_AT(t, i + k) == (Py_UCS4)(unsigned char)s[k])
                    k++;
                if (k == len)
                    return 1;
            }
        }
        i = j;
    }
    return 0;
}

/* The first class attribute in t[a:b] (a start tag's attribute string, as _CLASS_RE searches
 * it): its value's bounds; 0 if none. */
static int class_value(const text_t *t, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *va, Py_ssize_t *vb)
{
    for (Py_ssize_t i = a; i < b; i++) {
        if (!ascii_space(TEXT_AT(t, i)) || !starts_folded(t, i + 1, b, "class", 5))
            continue;
        if (class_attribute_value(t->kind, t->data, i + 6, b, 0, va, vb))
            return 1;
    }
    return 0;
}

/* After the element of name t[na:nb] whose start tag ends at pos: where its end tag ends
 * (after the ">"), or -1 if it does not end within `limit` characters. */
static Py_ssize_t element_end(const text_t *t, Py_ssize_t na, Py_ssize_t nb, Py_ssize_t pos, Py_ssize_t limit)
{
    Py_ssize_t end = pos + limit < t->n ? pos + limit : t->n, len = nb - na;
    Py_ssize_t depth = 1;
    for (Py_ssize_t i = pos; i < end; i++) {
        if (TEXT_AT(t, i) != '<')
            continue;
        Py_ssize_t j = i + 1, closing = 0;
        if (j < end && TEXT_AT(t, j) == '/') {
            closing = 1;
            j++;
        }
        if (j + len >= end)
            continue; /* the name and the character after it must lie within the window */
        Py_ssize_t k = 0;
        while (k < len && ascii_lower(TEXT_AT(t, j + k)) == ascii_lower(TEXT_AT(t, na + k)))
            k++;
        if (k < len)
            continue;
        Py_UCS4 after = TEXT_AT(t, j + len);
        if (!(ascii_space(after) || after == '/' || after == '>'))
            continue;
        if (!closing) {
            depth++;
            continue;
        }
        if (--depth == 0) {
            for (Py_ssize_t g = j + len; g < t->n; g++)
                if (TEXT_AT(t, g) == '>')
                    return g + 1;
            return -1;
        }
    }
    return -1;
}

/* Whether t[a:b] holds "<script", "</script", "<style" or "</style" (then no word character,
 * or b) or "-->". */
static int crosses_boundary(const text_t *t, Py_ssize_t a, Py_ssize_t b)
{
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = TEXT_AT(t, i);
        if (c == '-' && i + 2 < b && TEXT_AT(t, i + 1) == '-' && TEXT_AT(t, i + 2) == '>')
            return 1;
        if (c != '<')
            continue;
        Py_ssize_t j = i + 1;
        if (j < b && TEXT_AT(t, j) == '/')
            j++;
        Py_ssize_t len = starts_folded(t, j, b, "script", 6) ? 6 : starts_folded(t, j, b, "style", 5) ? 5 : 0;
        if (!len)
            continue;
        if (j + len >= b)
            return 1;
        Py_UCS4 after = TEXT_AT(t, j + len);
        if (!(ascii_alnum(after) || after == '_'))
            return 1;
    }
    return 0;
}

/* Whether t[a:b] (a tag name) is one of `voids` (ASCII lower-case names), ASCII case folded. */
static int is_void(const text_t *t, Py_ssize_t a, Py_ssize_t b, PyObject *voids)
{
    for (Py_ssize_t v = 0; v < PyTuple_GET_SIZE(voids); v++) {
        PyObject *name = PyTuple_GET_ITEM(voids, v);
        Py_ssize_t len = PyUnicode_GET_LENGTH(name);
        if (len == b - a && starts_folded(t, a, b, (const char *)PyUnicode_DATA(name), len))
            return 1;
    }
    return 0;
}

/* Whether every item of the tuple `names` is an ASCII str (its data then reads as char). */
static int ascii_names(PyObject *names, const char *what)
{
    for (Py_ssize_t c = 0; c < PyTuple_GET_SIZE(names); c++) {
        PyObject *name = PyTuple_GET_ITEM(names, c);
        if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name)) {
            PyErr_Format(PyExc_TypeError, "screen_reader_elements() %s must be ASCII strings", what);
            return 0;
        }
    }
    return 1;
}

PyDoc_STRVAR(elements_doc,
             "screen_reader_elements(markup, found, classes, voids, max_tag, max_element) -> [(start, end), ...]\n\n"
             "found: the class words' offsets, increasing; classes: a tuple of ASCII class names;\n"
             "voids: a tuple of ASCII lower-case names of the elements that have no end tag.\n"
             "As scrapy_bte.core.hidden.screen_reader_elements_reference.");

static PyObject *screen_reader_elements(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *markup, *found, *classes, *voids;
    Py_ssize_t max_tag, max_element;
    if (!PyArg_ParseTuple(args, "UO!O!O!nn:screen_reader_elements", &markup, &PyList_Type, &found, &PyTuple_Type,
                          &classes, &PyTuple_Type, &voids, &max_tag, &max_element))
        return NULL;
    if (!ascii_names(classes, "classes") || !ascii_names(voids, "voids"))
        return NULL;
    text_t t = {PyUnicode_KIND(markup), PyUnicode_DATA(markup), PyUnicode_GET_LENGTH(markup)};
    PyObject *spans = PyList_New(0);
    if (spans == NULL)
        return NULL;
    Py_ssize_t pos = 0, last = -1;
    for (Py_ssize_t f = 0; f < PyList_GET_SIZE(found); f++) {
        Py_ssize_t at = PyLong_AsSsize_t(PyList_GET_ITEM(found, f));
        if (at == -1 && PyErr_Occurred())
            goto fail;
        if (at < last || at > t.n) {
            PyErr_SetString(PyExc_ValueError, "screen_reader_elements() found must be increasing offsets in the markup");
            goto fail;
        }
        last = at;
        if (at < pos)
            continue;
        Py_ssize_t lo = at - max_tag > pos ? at - max_tag : pos, lt = -1;
        for (Py_ssize_t i = at - 1; i >= lo; i--)
            if (TEXT_AT(&t, i) == '<') {
                lt = i;
                break;
            }
        if (lt < 0)
            continue;
        int gt_between = 0;
        for (Py_ssize_t i = lt; i < at; i++)
            if (TEXT_AT(&t, i) == '>') {
                gt_between = 1;
                break;
            }
        if (gt_between || lt + 1 >= t.n || !ascii_alpha(TEXT_AT(&t, lt + 1)))
            continue;
        /* _START_RE: "<" name (attributes: white space, then no "<" or ">") ">" */
        Py_ssize_t na = lt + 1, nb = na + 1;
        while (nb < t.n && (ascii_alnum(TEXT_AT(&t, nb)) || TEXT_AT(&t, nb) == '-'))
            nb++;
        Py_ssize_t gt = nb;
        if (gt < t.n && ascii_space(TEXT_AT(&t, gt))) {
            while (gt < t.n && TEXT_AT(&t, gt) != '<' && TEXT_AT(&t, gt) != '>')
                gt++;
        }
        if (gt >= t.n || TEXT_AT(&t, gt) != '>' || gt + 1 <= at)
            continue;
        if (is_void(&t, na, nb, voids) || (gt > nb && TEXT_AT(&t, gt - 1) == '/'))
            continue;
        Py_ssize_t va, vb;
        if (!class_value(&t, nb, gt, &va, &vb) || !holds_class(&t, va, vb, classes))
            continue;
        Py_ssize_t end = element_end(&t, na, nb, gt + 1, max_element);
        if (end < 0 || crosses_boundary(&t, lt, end))
            continue;
        PyObject *span = Py_BuildValue("(nn)", lt, end);
        if (span == NULL || PyList_Append(spans, span) < 0) {
            Py_XDECREF(span);
            goto fail;
        }
        Py_DECREF(span);
        pos = end;
    }
    return spans;
fail:
    Py_DECREF(spans);
    return NULL;
}

static PyMethodDef methods[] = {
    {"screen_reader_elements", screen_reader_elements, METH_VARARGS, elements_doc},
    {NULL, NULL, 0, NULL},
};

int scrapy_bte_add_hidden(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
