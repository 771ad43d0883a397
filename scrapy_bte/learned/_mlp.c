/* The standardised input matrix of estimators.MLPClassifier, in C (optional
 * accelerator).
 *
 * numpy stacks a stage's column blocks into one matrix, subtracts the mean
 * in one pass over it and divides by the scale in another. Here each value
 * is read once from its block and written once, standardised, into the
 * float32 matrix the matrix products read. Every value is the float32
 * (x - mean) / scale numpy computes (a float64 input is first rounded to
 * float32, as numpy's cast), so the products and probabilities are the same
 * to the bit. tests/test_model.py compares both paths.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_native.h"

/* One row of a row-contiguous float32 block: the loop the compiler vectorises. */
static void standardize_row(float *restrict out, const float *restrict x, const float *restrict mean,
                            const float *restrict scale, Py_ssize_t k)
{
    for (Py_ssize_t j = 0; j < k; j++)
        out[j] = (x[j] - mean[j]) / scale[j];
}

PyDoc_STRVAR(standardize_doc,
             "standardize(parts, mean, scale) -> bytearray\n\n"
             "The (n, d) float32 matrix, C order, of (x - mean) / scale over the column\n"
             "blocks ``parts`` side by side: each a float32 or float64 array of n rows,\n"
             "1-D (one column) or 2-D with any strides; mean and scale float32, d values.");

static PyObject *standardize(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_parts, *o_mean, *o_scale;
    if (!PyArg_ParseTuple(args, "O!OO", &PyTuple_Type, &o_parts, &o_mean, &o_scale))
        return NULL;
    const Py_ssize_t n_parts = PyTuple_GET_SIZE(o_parts);
    if (n_parts < 1 || n_parts > 8) {
        PyErr_SetString(PyExc_ValueError, "parts must hold 1 to 8 arrays");
        return NULL;
    }
    Py_buffer held[10];
    int n_held = 0;
    PyObject *result = NULL;
    if (get_array(o_mean, F32, -1, "mean", held, &n_held) < 0 ||
        get_array(o_scale, F32, held[0].len / 4, "scale", held, &n_held) < 0)
        goto done;
    const Py_ssize_t d = held[0].len / 4;
    const float *mean = held[0].buf, *scale = held[1].buf;
    Py_ssize_t n = -1, width = 0;
    for (Py_ssize_t k = 0; k < n_parts; k++) {
        Py_buffer *view = &held[n_held];
        if (get_strided_view(PyTuple_GET_ITEM(o_parts, k), F32 | F64, 1, 2, "parts", view, 0) < 0)
            goto done;
        n_held++;
        if (n < 0)
            n = view->shape[0];
        if (view->shape[0] != n) {
            PyErr_SetString(PyExc_ValueError, "parts must have one row count");
            goto done;
        }
        width += view->ndim == 2 ? view->shape[1] : 1;
    }
    if (width != d) {
        PyErr_Format(PyExc_ValueError, "parts have %zd columns, mean and scale %zd", width, d);
        goto done;
    }
    result = PyByteArray_FromStringAndSize(NULL, n * d * (Py_ssize_t)sizeof(float));
    if (result == NULL || n == 0)
        goto done;
    float *out = (float *)PyByteArray_AS_STRING(result);
    Py_ssize_t start = 0;
    for (int k = 2; k < n_held; k++) {
        const Py_buffer *view = &held[k];
        const Py_ssize_t cols = view->ndim == 2 ? view->shape[1] : 1;
        const Py_ssize_t row_step = view->strides[0], col_step = view->ndim == 2 ? view->strides[1] : 0;
        const char *base = view->buf;
        const float *m = mean + start, *s = scale + start;
        if (view->itemsize == 4 && (col_step == 4 || cols == 1)) {
            for (Py_ssize_t i = 0; i < n; i++)
                standardize_row(out + i * d + start, (const float *)(base + i * row_step), m, s, cols);
        } else {
            for (Py_ssize_t i = 0; i < n; i++) {
                float *row = out + i * d + start;
                const char *at = base + i * row_step;
                for (Py_ssize_t j = 0; j < cols; j++, at += col_step) {
                    float x = view->itemsize == 4 ? *(const float *)at : (float)*(const double *)at;
                    row[j] = (x - m[j]) / s[j];
                }
            }
        }
        start += cols;
    }

done:
    if (PyErr_Occurred())
        Py_CLEAR(result);
    for (int k = 0; k < n_held; k++)
        PyBuffer_Release(&held[k]);
    return result;
}

static PyMethodDef methods[] = {
    {"standardize", standardize, METH_VARARGS, standardize_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_mlp(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
