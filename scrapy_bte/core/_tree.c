/* Values OR-ed down the element skeleton in one pass (optional accelerator).
 *
 * Elements come in document order, so every parent precedes its children:
 * one forward pass gives each element its own value OR its parent's result,
 * which is what the pointer jumping of scrapy_bte.core.tree.path_or_reference
 * computes in log2(depth) array steps. Integer ORs, so both agree exactly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_native.h"

PyDoc_STRVAR(path_or_doc,
             "path_or(parents, own) -> bytearray\n\n"
             "Per element (int64), `own` OR-ed over the element and its ancestors,\n"
             "element 0 (the root) contributing nothing. `parents` and `own` are int64\n"
             "per element; every parent but the root's must precede its child.");

static PyObject *path_or(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_parents, *o_own;
    if (!PyArg_ParseTuple(args, "OO", &o_parents, &o_own))
        return NULL;
    Py_buffer held[2];
    int n_held = 0;
    if (get_array(o_parents, I64, -1, "parents", held, &n_held) < 0) /* one entry per element */
        return NULL;
    Py_ssize_t n = held[0].len / 8;
    if (get_array(o_own, I64, n, "own", held, &n_held) < 0) {
        release_all(held, n_held);
        return NULL;
    }
    PyObject *acc = NULL, *result = NULL;
    const int64_t *parents = held[0].buf, *own = held[1].buf;
    acc = PyByteArray_FromStringAndSize(NULL, n * 8);
    if (acc == NULL)
        goto done;
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(acc);
    if (n > 0)
        out[0] = 0;
    for (Py_ssize_t i = 1; i < n; i++) {
        int64_t p = parents[i];
        if (p < 0 || p >= i) {
            PyErr_SetString(PyExc_ValueError, "a parent does not precede its child");
            goto done;
        }
        out[i] = own[i] | out[p];
    }
    result = Py_NewRef(acc);
done:
    release_all(held, n_held);
    Py_XDECREF(acc);
    return result;
}

static PyMethodDef methods[] = {
    {"path_or", path_or, METH_VARARGS, path_or_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_tree(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
