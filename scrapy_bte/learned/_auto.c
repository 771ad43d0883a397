/* The smoothed keep decision of auto.decide, in C (optional accelerator).
 *
 * auto.decide_reference spends a page's decision time in some thirty numpy
 * calls over a few hundred blocks; here it is a few passes over the blocks.
 * Every value is computed as the reference computes it: the running sums of
 * the window means in block order (np.cumsum), the same float32 product of
 * the block's own probability, the element totals of the same-article rule
 * in block order (np.bincount) and its first largest total (np.argmax), so
 * the smoothed probabilities are equal to the last bit and the same blocks
 * are kept. tests/test_model.py compares both paths.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

PyDoc_STRVAR(smooth_keep_doc,
             "smooth_keep(p, words, link_words, container, parents, threshold, self_weight, half, max_link,\n"
             "            article_words, list_words, list_share) -> (bytearray, bytearray)\n\n"
             "auto.decide with smoothing: the smoothed probabilities (float64) and the keep\n"
             "mask (one byte per block). p float32; words and link_words float64; container\n"
             "int64 element ids (0 = the root); parents int64, the parent of each element.");

static PyObject *smooth_keep(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_p, *o_words, *o_links, *o_container, *o_parents;
    double threshold, self_weight, max_link, article_words, list_words, list_share;
    Py_ssize_t half;
    if (!PyArg_ParseTuple(args, "OOOOOddndddd", &o_p, &o_words, &o_links, &o_container, &o_parents, &threshold,
                          &self_weight, &half, &max_link, &article_words, &list_words, &list_share))
        return NULL;
    if (half < 0) {
        PyErr_SetString(PyExc_ValueError, "half must be >= 0");
        return NULL;
    }
    Py_buffer held[5];
    int n_held = 0;
    PyObject *q_out = NULL, *keep_out = NULL, *result = NULL;
    double *scratch = NULL;
    if (get_array(o_p, F32, -1, "p", held, &n_held) < 0)
        goto done;
    const Py_ssize_t n = held[0].len / 4;
    if (get_array(o_words, F64, n, "words", held, &n_held) < 0 ||
        get_array(o_links, F64, n, "link_words", held, &n_held) < 0 ||
        get_array(o_container, I64, n, "container", held, &n_held) < 0 ||
        get_array(o_parents, I64, -1, "parents", held, &n_held) < 0)
        goto done;
    const float *p = held[0].buf;
    const double *words = held[1].buf, *links = held[2].buf;
    const int64_t *container = held[3].buf, *parents = held[4].buf;
    const Py_ssize_t n_elements = held[4].len / 8;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t c = container[i];
        if (c < 0 || c >= n_elements || (c > 0 && (parents[c] < 0 || parents[c] >= n_elements))) {
            PyErr_SetString(PyExc_ValueError, "container ids must be elements whose parents are elements");
            goto done;
        }
    }
    q_out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(double));
    keep_out = PyByteArray_FromStringAndSize(NULL, n);
    if (q_out == NULL || keep_out == NULL)
        goto done;
    /* running sums of p (n + 1), then per element the kept words (n_elements) */
    scratch = PyMem_Malloc((size_t)(n + 1 + n_elements) * sizeof(double));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *q = (double *)PyByteArray_AS_STRING(q_out), *cum = scratch, *main_words = scratch + n + 1;
    char *keep = PyByteArray_AS_STRING(keep_out);
    const float own = (float)self_weight;
    const double others = 1.0 - self_weight;

    cum[0] = 0.0;
    for (Py_ssize_t i = 0; i < n; i++)
        cum[i + 1] = cum[i] + (double)p[i];
    Py_ssize_t n_kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t lo = i - half > 0 ? i - half : 0, hi = i + half + 1 < n ? i + half + 1 : n;
        double v = (cum[hi] - cum[lo]) / (double)(hi - lo);
        v = v * others + (double)(own * p[i]);
        /* np.minimum: NaN wins. */
        double pi = (double)p[i];
        if (links[i] > max_link * words[i] && !(v <= pi || v != v))
            v = pi;
        q[i] = v;
        keep[i] = v >= threshold;
        n_kept += keep[i];
    }
    if (n_kept == 0) {
        /* Nothing passes: the blocks within half of the best (np.max: NaN wins). */
        double top = n ? q[0] : 0.0;
        for (Py_ssize_t i = 1; i < n && top == top; i++)
            if (!(top >= q[i]))
                top = q[i];
        double floor = 0.5 * top;
        for (Py_ssize_t i = 0; i < n; i++) {
            keep[i] = q[i] >= floor;
            n_kept += keep[i];
        }
    } else {
        /* Same article: long, link-free blocks of the element (or a child of
         * it) whose children hold most kept words. */
        memset(main_words, 0, (size_t)n_elements * sizeof(double));
        for (Py_ssize_t i = 0; i < n; i++)
            if (keep[i])
                main_words[container[i] > 0 ? parents[container[i]] : 0] += words[i];
        Py_ssize_t main = 0;
        for (Py_ssize_t e = 1; e < n_elements; e++)
            if (main_words[e] > main_words[main])
                main = e;
        if (main != 0)
            for (Py_ssize_t i = 0; i < n; i++) {
                int64_t owner = container[i] > 0 ? parents[container[i]] : 0;
                if (!keep[i] && (owner == main || container[i] == main) && words[i] >= article_words &&
                    links[i] <= 0.1 * words[i]) {
                    keep[i] = 1;
                    n_kept++;
                }
            }
    }
    /* Link lists go when something else is kept. */
    Py_ssize_t n_lists = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        n_lists += keep[i] && words[i] >= list_words && links[i] >= list_share * words[i];
    if (n_lists && n_lists < n_kept)
        for (Py_ssize_t i = 0; i < n; i++)
            if (keep[i] && words[i] >= list_words && links[i] >= list_share * words[i])
                keep[i] = 0;
    result = PyTuple_Pack(2, q_out, keep_out);

done:
    Py_XDECREF(q_out);
    Py_XDECREF(keep_out);
    PyMem_Free(scratch);
    release_all(held, n_held);
    return result;
}

static PyMethodDef methods[] = {
    {"smooth_keep", smooth_keep, METH_VARARGS, smooth_keep_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_auto(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
