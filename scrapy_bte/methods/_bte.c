/* BTE's two passes over a page's tokens, in C (optional accelerator).
 *
 * Both run on every page, twice for the hybrid and learned methods (with and
 * without link words), and in numpy each is a dozen array calls on a few
 * hundred values: call overhead, not arithmetic. These loops compute the
 * same values in the same order as the numpy references (Document._runs and
 * bte.max_span), so results are equal, not merely close; tests/test_scan.py
 * checks that.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#include "_native.h"

/* The run encoding of the token sequence (2 * n_tags + 1 tokens) into vals/first/last,
 * which hold one entry per token at most; returns the number of runs. Tags whose byte in
 * skip has one of skip_bits set count as nothing. */
static Py_ssize_t encode(const double *w, Py_ssize_t n_tags, const unsigned char *skip, unsigned char skip_bits,
                         double *vals, long long *first, long long *last)
{
    Py_ssize_t k = -1;
    int positive = -1; /* sign of the open run; -1 before the first */
    /* Segment t, then tag t (a tag weighs -1 unless skipped). */
    for (Py_ssize_t t = 0;; t++) {
        double v = w[t];
        if (v != 0.0) {
            int pos = v > 0.0;
            if (pos != positive) {
                k++;
                vals[k] = 0.0;
                first[k] = t;
                positive = pos;
            }
            vals[k] += v;
            last[k] = t;
        }
        if (t == n_tags)
            break;
        if (skip != NULL && (skip[t] & skip_bits))
            continue;
        if (positive != 0) {
            k++;
            vals[k] = 0.0;
            first[k] = t;
            positive = 0;
        }
        vals[k] += -1.0;
        last[k] = t;
    }
    return k + 1;
}

PyDoc_STRVAR(runs_doc,
             "runs(seg_words, n_tags, weightless=None) -> (runs, first, last) as bytes of float64, int64, int64\n\n"
             "Run-length encoding of the token sequence segment, tag, segment, ...,\n"
             "tag, segment: zero-word segments vanish, consecutive tags merge into one\n"
             "negative run; first/last are the segments each run touches. Tags whose\n"
             "byte in weightless (n_tags bytes) is not zero count as nothing.");

static PyObject *runs(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *obj, *skip_obj = Py_None;
    Py_ssize_t n_tags;
    if (!PyArg_ParseTuple(args, "On|O", &obj, &n_tags, &skip_obj))
        return NULL;
    Py_buffer view, skip_view = {0};
    if (get_view(obj, F64, -1, "seg_words", &view) < 0)
        return NULL;
    if (skip_obj != Py_None && get_view(skip_obj, U8, -1, "weightless", &skip_view) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    PyObject *r_vals = NULL, *r_first = NULL, *r_last = NULL, *result = NULL;
    const double *w = view.buf;
    const unsigned char *skip = skip_obj != Py_None ? skip_view.buf : NULL;
    Py_ssize_t n_seg = view.len / 8;
    if (n_tags < 0 || n_seg != n_tags + 1) {
        PyErr_Format(PyExc_ValueError, "seg_words needs n_tags + 1 = %zd values, got %zd", n_tags + 1, n_seg);
        goto done;
    }
    if (skip_obj != Py_None && (skip_view.itemsize != 1 || skip_view.len != n_tags)) {
        PyErr_Format(PyExc_ValueError, "weightless needs n_tags = %zd bytes", n_tags);
        goto done;
    }
    /* At most one run per token: tags and segments alternate. */
    Py_ssize_t cap = 2 * n_tags + 1;
    r_vals = PyBytes_FromStringAndSize(NULL, cap * 8);
    r_first = PyBytes_FromStringAndSize(NULL, cap * 8);
    r_last = PyBytes_FromStringAndSize(NULL, cap * 8);
    if (r_vals == NULL || r_first == NULL || r_last == NULL)
        goto done;
    double *vals = (double *)PyBytes_AS_STRING(r_vals);
    long long *first = (long long *)PyBytes_AS_STRING(r_first);
    long long *last = (long long *)PyBytes_AS_STRING(r_last);
    Py_ssize_t count = encode(w, n_tags, skip, 0xff, vals, first, last);
    /* _PyBytes_Resize frees and clears its argument on failure. */
    if (_PyBytes_Resize(&r_vals, count * 8) == 0 && _PyBytes_Resize(&r_first, count * 8) == 0 &&
        _PyBytes_Resize(&r_last, count * 8) == 0)
        result = Py_BuildValue("OOO", r_vals, r_first, r_last);
done:
    PyBuffer_Release(&view);
    if (skip_obj != Py_None)
        PyBuffer_Release(&skip_view);
    Py_XDECREF(r_vals);
    Py_XDECREF(r_first);
    Py_XDECREF(r_last);
    return result;
}

PyDoc_STRVAR(max_span_doc,
             "max_span(values) -> (score, i, j)\n\n"
             "Maximum-sum subarray of a float64 buffer with bte.max_span's tie rule\n"
             "(earliest start, then latest end; ties within 1e-9 of the largest\n"
             "absolute value); (0.0, -1, -1) when empty.");

/* The maximum-sum span of v[0..n-1] (n > 0) with bte.max_span's tie rule into *score, *start, *end;
 * -1 when out of memory. */
static int best_span(const double *v, Py_ssize_t n, double *score_out, Py_ssize_t *start_out, Py_ssize_t *end_out)
{
    /* prefix[k] = v[0] + ... + v[k-1]; best_end[j] = prefix[j+1] - min(prefix[0..j]);
     * first_min[j] = where that minimum first appeared (a tie is not new). */
    double *prefix = PyMem_Malloc((size_t)(n + 1) * sizeof(double));
    double *best_end = PyMem_Malloc((size_t)n * sizeof(double));
    Py_ssize_t *first_min = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    if (prefix == NULL || best_end == NULL || first_min == NULL) {
        PyMem_Free(prefix);
        PyMem_Free(best_end);
        PyMem_Free(first_min);
        PyErr_NoMemory();
        return -1;
    }
    double scale = 1.0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (fabs(v[k]) > scale)
            scale = fabs(v[k]);
    double tol = 1e-9 * scale;
    prefix[0] = 0.0;
    for (Py_ssize_t k = 0; k < n; k++)
        prefix[k + 1] = prefix[k] + v[k];
    double run_min = INFINITY, score = -INFINITY;
    Py_ssize_t at = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        double head = prefix[j];
        if (head < run_min - tol)
            at = j;
        if (head < run_min)
            run_min = head;
        first_min[j] = at;
        best_end[j] = prefix[j + 1] - run_min;
        if (best_end[j] > score)
            score = best_end[j];
    }
    Py_ssize_t start = n, end = -1;
    for (Py_ssize_t j = 0; j < n; j++)
        if (best_end[j] >= score - tol && first_min[j] < start)
            start = first_min[j];
    for (Py_ssize_t j = 0; j < n; j++)
        if (best_end[j] >= score - tol && first_min[j] == start)
            end = j;
    *score_out = prefix[end + 1] - prefix[start];
    *start_out = start;
    *end_out = end;
    PyMem_Free(prefix);
    PyMem_Free(best_end);
    PyMem_Free(first_min);
    return 0;
}

static PyObject *max_span(PyObject *Py_UNUSED(self), PyObject *obj)
{
    Py_buffer view;
    if (get_view(obj, F64, -1, "values", &view) < 0)
        return NULL;
    Py_ssize_t n = view.len / 8;
    double best = 0.0;
    Py_ssize_t start = -1, end = -1;
    int status = n > 0 ? best_span(view.buf, n, &best, &start, &end) : 0;
    PyBuffer_Release(&view);
    if (status < 0)
        return NULL;
    return Py_BuildValue("dnn", best, start, end);
}

PyDoc_STRVAR(span_doc,
             "span(seg_words, n_tags, tag_flags, weightless_bits, seg_block) -> tuple, None or False\n\n"
             "bte.document_span's fields in one pass: the runs (as runs(), a tag being\n"
             "weightless when its byte in tag_flags has one of weightless_bits), their best\n"
             "span (as max_span()) and the blocks and sums of that span, as\n"
             "(score, first_run, last_run, first_segment, last_segment, first_block,\n"
             "last_block, words, tags); None without a word run. False when the\n"
             "numpy path must decide: a fractional word run inside the span (numpy's\n"
             "pairwise sum may round otherwise) or no block among its segments.");

static PyObject *span(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *obj, *skip_obj, *block_obj;
    Py_ssize_t n_tags;
    unsigned char skip_bits;
    if (!PyArg_ParseTuple(args, "OnObO", &obj, &n_tags, &skip_obj, &skip_bits, &block_obj))
        return NULL;
    Py_buffer view, block_view, skip_view = {0};
    if (get_view(obj, F64, -1, "seg_words", &view) < 0)
        return NULL;
    if (get_view(block_obj, I64, -1, "seg_block", &block_view) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    if (skip_obj != Py_None && get_view(skip_obj, U8, -1, "tag_flags", &skip_view) < 0) {
        PyBuffer_Release(&view);
        PyBuffer_Release(&block_view);
        return NULL;
    }
    PyObject *result = NULL;
    double *vals = NULL;
    long long *first = NULL, *last = NULL;
    Py_ssize_t n_seg = view.len / 8;
    if (n_tags < 0 || n_seg != n_tags + 1 || block_view.len / 8 != n_seg) {
        PyErr_Format(PyExc_ValueError, "seg_words and seg_block need n_tags + 1 = %zd values", n_tags + 1);
        goto done;
    }
    if (skip_obj != Py_None && (skip_view.itemsize != 1 || skip_view.len != n_tags)) {
        PyErr_Format(PyExc_ValueError, "tag_flags needs n_tags = %zd bytes", n_tags);
        goto done;
    }
    Py_ssize_t cap = 2 * n_tags + 1;
    vals = PyMem_Malloc((size_t)cap * sizeof(double));
    first = PyMem_Malloc((size_t)cap * sizeof(long long));
    last = PyMem_Malloc((size_t)cap * sizeof(long long));
    if (vals == NULL || first == NULL || last == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = encode(view.buf, n_tags, skip_obj != Py_None ? skip_view.buf : NULL, skip_bits, vals, first, last);
    int any_word = 0;
    for (Py_ssize_t k = 0; k < count && !any_word; k++)
        any_word = vals[k] > 0.0;
    if (!any_word) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    double score;
    Py_ssize_t i, j;
    if (best_span(vals, count, &score, &i, &j) < 0)
        goto done;
    /* Word runs of whole words sum exactly in any order; tag runs always hold whole tags. */
    double words = 0.0, tags = 0.0;
    int exact = 1;
    for (Py_ssize_t k = i; k <= j; k++) {
        if (vals[k] > 0.0) {
            exact &= vals[k] == floor(vals[k]);
            words += vals[k];
        } else
            tags += vals[k];
    }
    const long long *blocks = block_view.buf;
    long long seg_first = first[i], seg_last = last[j], first_block = -1, last_block = -1;
    for (long long g = seg_first; g <= seg_last; g++)
        if (blocks[g] >= 0) {
            if (first_block < 0)
                first_block = blocks[g];
            last_block = blocks[g];
        }
    if (!exact || first_block < 0)
        result = Py_NewRef(Py_False);
    else
        result = Py_BuildValue("dnnLLLLdd", score, i, j, seg_first, seg_last, first_block, last_block, words, -tags);
done:
    PyMem_Free(vals);
    PyMem_Free(first);
    PyMem_Free(last);
    PyBuffer_Release(&view);
    PyBuffer_Release(&block_view);
    if (skip_obj != Py_None)
        PyBuffer_Release(&skip_view);
    return result;
}

static PyMethodDef methods[] = {
    {"runs", runs, METH_VARARGS, runs_doc},
    {"max_span", max_span, METH_O, max_span_doc},
    {"span", span, METH_VARARGS, span_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_bte(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
