/* Per-block character counts of features._text_stats, in C (optional accelerator).
 *
 * One pass over each block's code points with the same class table the
 * numpy reference uses; counts are integers, so both agree exactly
 * (tests/test_scan.py compares them).
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

static PyMethodDef methods[] = {
    {"count", count, METH_VARARGS, count_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "scrapy_bte.learned._textstats", "Character counts of features._text_stats (optional accelerator).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__textstats(void)
{
    return PyModule_Create(&module);
}
