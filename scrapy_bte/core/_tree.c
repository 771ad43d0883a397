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

PyDoc_STRVAR(path_or_doc,
             "path_or(parents, own) -> bytearray\n\n"
             "Per element (int64), `own` OR-ed over the element and its ancestors,\n"
             "element 0 (the root) contributing nothing. `parents` and `own` are int64\n"
             "per element; every parent but the root's must precede its child.");

static PyObject *path_or(PyObject *self, PyObject *args)
{
    Py_buffer pbuf, obuf;
    if (!PyArg_ParseTuple(args, "y*y*", &pbuf, &obuf))
        return NULL;
    PyObject *acc = NULL, *result = NULL;
    Py_ssize_t n = pbuf.len / 8;
    if (pbuf.len % 8 || obuf.len != pbuf.len) {
        PyErr_SetString(PyExc_ValueError, "parents and own must be int64 with one entry per element");
        goto done;
    }
    const int64_t *parents = pbuf.buf, *own = obuf.buf;
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
    PyBuffer_Release(&pbuf);
    PyBuffer_Release(&obuf);
    Py_XDECREF(acc);
    return result;
}

static PyMethodDef methods[] = {
    {"path_or", path_or, METH_VARARGS, path_or_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "scrapy_bte.core._tree", "Values OR-ed down the element skeleton (optional accelerator).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__tree(void)
{
    return PyModule_Create(&module);
}
