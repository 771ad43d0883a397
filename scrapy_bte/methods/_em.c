/* EM for density.gaussian_threshold, in C (optional accelerator).
 *
 * The numpy loop costs a dozen array calls per iteration on a page's few
 * hundred block densities, more than the arithmetic itself. This runs the
 * same updates with plain sums; results agree with the numpy reference to
 * rounding (sums are taken in another order), which tests/test_core.py
 * checks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#include "_native.h"

PyDoc_STRVAR(fit_doc,
             "fit(d, split, floor, iterations) -> (m0, m1, s0, s1, p) or None\n\n"
             "EM of a two-component 1-D Gaussian mixture over the float64 buffer d,\n"
             "started from the values on either side of split, as\n"
             "density.gaussian_threshold does; None when one side is empty.");

static PyObject *fit(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *obj;
    double m[2], s[2], p, split, floor_;
    int iterations;
    if (!PyArg_ParseTuple(args, "Oddi", &obj, &split, &floor_, &iterations))
        return NULL;
    Py_buffer view;
    if (get_view(obj, F64, -1, "d", &view) < 0)
        return NULL;
    const double *d = view.buf;
    Py_ssize_t n = view.len / 8;
    /* The start: moments of the values at or below the split and above it. */
    double sum[2] = {0.0, 0.0}, sq[2] = {0.0, 0.0};
    Py_ssize_t count[2] = {0, 0};
    for (Py_ssize_t k = 0; k < n; k++) {
        int side = d[k] > split;
        sum[side] += d[k];
        count[side]++;
    }
    if (count[0] == 0 || count[1] == 0) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    for (int c = 0; c < 2; c++)
        m[c] = sum[c] / (double)count[c];
    for (Py_ssize_t k = 0; k < n; k++) {
        int side = d[k] > split;
        sq[side] += (d[k] - m[side]) * (d[k] - m[side]);
    }
    for (int c = 0; c < 2; c++)
        s[c] = fmax(sqrt(sq[c] / (double)count[c]), floor_);
    p = (double)count[1] / (double)n;
    double *r = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(double));
    if (r == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    const double sqrt_2pi = sqrt(2.0 * M_PI);
    for (int it = 0; it < iterations; it++) {
        double w0 = (1.0 - p) / (s[0] * sqrt_2pi), w1 = p / (s[1] * sqrt_2pi);
        double n1 = 0.0;
        for (Py_ssize_t k = 0; k < n; k++) {
            double z0 = (d[k] - m[0]) / s[0], z1 = (d[k] - m[1]) / s[1];
            double a = exp(-0.5 * z0 * z0) * w0, b = exp(-0.5 * z1 * z1) * w1;
            r[k] = b / (a + b + 1e-300);
            n1 += r[k];
        }
        double n0 = (double)n - n1;
        if (n1 < 1e-6 || n0 < 1e-6)
            break;
        double old = m[1], sum0 = 0.0, sum1 = 0.0;
        for (Py_ssize_t k = 0; k < n; k++) {
            sum0 += (1.0 - r[k]) * d[k];
            sum1 += r[k] * d[k];
        }
        m[0] = sum0 / n0;
        m[1] = sum1 / n1;
        double v0 = 0.0, v1 = 0.0;
        for (Py_ssize_t k = 0; k < n; k++) {
            double e0 = d[k] - m[0], e1 = d[k] - m[1];
            v0 += (1.0 - r[k]) * e0 * e0;
            v1 += r[k] * e1 * e1;
        }
        s[0] = fmax(sqrt(v0 / n0), floor_);
        s[1] = fmax(sqrt(v1 / n1), floor_);
        p = fmin(fmax(n1 / (double)n, 1e-3), 1 - 1e-3);
        if (fabs(m[1] - old) < 1e-4)
            break;
    }
    PyMem_Free(r);
    PyBuffer_Release(&view);
    return Py_BuildValue("ddddd", m[0], m[1], s[0], s[1], p);
}

static PyMethodDef methods[] = {
    {"fit", fit, METH_VARARGS, fit_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_em(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
