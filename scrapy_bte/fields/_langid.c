/* The byte walk and feature rows of the language identifier's naive Bayes score (optional accelerator).
 *
 * py3langid scores a text by walking its UTF-8 bytes through a finite
 * automaton whose states name byte n-gram features, counting each feature,
 * and multiplying the counts' log1p by the features' rows of a float16 table
 * (one column per language). Its walk is a Python loop per byte and numpy
 * turns the float16 rows into float32 one element at a time: together 90 %
 * of the identifier's time on a 200-character sample. This pass does both in
 * C and returns what numpy's product then reads: the features in the order
 * they first occur, their counts and their rows as float32 (float16 to
 * float32 is exact, so the rows are the ones numpy would make).
 * scrapy_bte.fields.language.feature_rows_reference is the Python twin.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

/* float16 bits to float32, exactly (subnormals, infinities and NaN payloads included). */
static inline float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, bits;
    if (exp == 0x1fu)
        bits = sign | 0x7f800000u | (mant << 13);
    else if (exp != 0)
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    else if (mant == 0)
        bits = sign;
    else { /* subnormal: normalise the mantissa */
        exp = 113;
        while (!(mant & 0x400u)) {
            mant <<= 1;
            exp--;
        }
        bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* Per feature, its place among the text's features (-1: not seen); reset after each call. */
static int32_t *slot = NULL;
static Py_ssize_t slot_size = 0;

PyDoc_STRVAR(feature_rows_doc,
             "feature_rows(nextmove, rowbase, output, table, data) -> (features, counts, rows) | None\n\n"
             "Walk the bytes `data` through the automaton (`nextmove`: uint32 next states,\n"
             "`rowbase`: int64 offset of each state's row, `output`: int64 feature of each\n"
             "state or -1) from state 0; return the features met in the order they first\n"
             "occur (int64), their counts (float32) and their rows of the float16 `table`\n"
             "(features x classes) as float32, each as bytes; None when no feature is met.");

static PyObject *feature_rows(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_next, *o_base, *o_out, *o_table;
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "OOOOy*:feature_rows", &o_next, &o_base, &o_out, &o_table, &data))
        return NULL;
    Py_buffer next = {0}, base = {0}, out = {0}, table = {0};
    PyObject *result = NULL;
    int64_t *features = NULL;
    float *counts = NULL;
    Py_ssize_t found = 0;
    if (get_view(o_next, I32, -1, "nextmove", &next) < 0 || get_view(o_base, I64, -1, "rowbase", &base) < 0 ||
        get_view(o_out, I64, -1, "output", &out) < 0 || get_view(o_table, F16, -1, "table", &table) < 0)
        goto done;
    if (table.ndim != 2) {
        PyErr_SetString(PyExc_ValueError, "table must be two-dimensional");
        goto done;
    }
    Py_ssize_t n_features = table.shape[0], n_classes = table.shape[1];
    Py_ssize_t n_states = base.len / 8, n_next = next.len / 4;
    if (out.len / 8 != n_states) {
        PyErr_SetString(PyExc_ValueError, "rowbase and output must have one item per state");
        goto done;
    }
    if (slot_size != n_features) {
        int32_t *grown = PyMem_Realloc(slot, (size_t)(n_features ? n_features : 1) * sizeof(int32_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        slot = grown;
        slot_size = n_features;
        memset(slot, 0xff, (size_t)n_features * sizeof(int32_t));
    }
    const uint32_t *nm = next.buf;
    const int64_t *rb = base.buf, *op = out.buf;
    const unsigned char *bytes = data.buf;
    features = PyMem_Malloc((size_t)(data.len ? data.len : 1) * sizeof(int64_t));
    counts = PyMem_Malloc((size_t)(data.len ? data.len : 1) * sizeof(float));
    if (features == NULL || counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint32_t state = 0;
    for (Py_ssize_t i = 0; i < data.len; i++) {
        if ((Py_ssize_t)state >= n_states || rb[state] < 0 || rb[state] + bytes[i] >= n_next) {
            PyErr_SetString(PyExc_ValueError, "the automaton leads outside its tables");
            goto reset;
        }
        state = nm[rb[state] + bytes[i]];
        if ((Py_ssize_t)state >= n_states) {
            PyErr_SetString(PyExc_ValueError, "the automaton leads outside its tables");
            goto reset;
        }
        int64_t f = op[state];
        if (f < 0)
            continue;
        if (f >= n_features) {
            PyErr_SetString(PyExc_ValueError, "a feature is past the table's rows");
            goto reset;
        }
        if (slot[f] < 0) {
            slot[f] = (int32_t)found;
            features[found] = f;
            counts[found++] = 1.0f;
        }
        else
            counts[slot[f]] += 1.0f;
    }
    if (found == 0) {
        result = Py_NewRef(Py_None);
        goto reset;
    }
    PyObject *rows = PyBytes_FromStringAndSize(NULL, found * n_classes * (Py_ssize_t)sizeof(float));
    if (rows == NULL)
        goto reset;
    float *dst = (float *)PyBytes_AS_STRING(rows);
    const uint16_t *src = table.buf;
    /* The rows lie far apart in a table of tens of megabytes: all of them are
     * asked for before any is read, so the memory fetches overlap. */
    for (Py_ssize_t k = 0; k < found; k++) {
        const char *row = (const char *)(src + features[k] * n_classes);
        for (Py_ssize_t b = 0; b < n_classes * 2; b += 64)
            PREFETCH(row + b);
        PREFETCH(row + n_classes * 2 - 1);
    }
    for (Py_ssize_t k = 0; k < found; k++) {
        const uint16_t *row = src + features[k] * n_classes;
        for (Py_ssize_t c = 0; c < n_classes; c++)
            dst[k * n_classes + c] = half_to_float(row[c]);
    }
    result = Py_BuildValue("y#y#N", (const char *)features, found * (Py_ssize_t)sizeof(int64_t), (const char *)counts,
                           found * (Py_ssize_t)sizeof(float), rows);
reset:
    for (Py_ssize_t k = 0; k < found; k++)
        slot[features[k]] = -1;
done:
    PyMem_Free(features);
    PyMem_Free(counts);
    if (next.obj)
        PyBuffer_Release(&next);
    if (base.obj)
        PyBuffer_Release(&base);
    if (out.obj)
        PyBuffer_Release(&out);
    if (table.obj)
        PyBuffer_Release(&table);
    PyBuffer_Release(&data);
    return result;
}

static PyMethodDef methods[] = {
    {"feature_rows", feature_rows, METH_VARARGS, feature_rows_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_langid(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
