/* Typed views of numpy arrays for the learned C passes (_features.c, _auto.c).
 *
 * get_array acquires a C-contiguous buffer of `count` items of `kind` (any
 * count if negative) and checks its format, so a pass never reads an array
 * of another type as its own; 0 on success. Once acquired the buffer is in
 * `held`, so the caller releases it on every path (release_all).
 */
#ifndef SCRAPY_BTE_LEARNED_ARRAYS_H
#define SCRAPY_BTE_LEARNED_ARRAYS_H

#include <Python.h>
#include <string.h>

enum kind { F32, F64, I64, U8 };

static const char *kind_name(enum kind kind)
{
    switch (kind) {
    case F32:
        return "float32";
    case F64:
        return "float64";
    case I64:
        return "int64";
    default:
        return "uint8 or bool";
    }
}

static int get_array(PyObject *obj, enum kind kind, Py_ssize_t count, const char *name, Py_buffer *held, int *n_held)
{
    Py_buffer *view = &held[*n_held];
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous array", name);
        return -1;
    }
    (*n_held)++;
    const char *fmt = view->format ? view->format : "B";
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    int ok;
    switch (kind) {
    case F32:
        ok = view->itemsize == 4 && strcmp(fmt, "f") == 0;
        break;
    case F64:
        ok = view->itemsize == 8 && strcmp(fmt, "d") == 0;
        break;
    case I64:
        ok = view->itemsize == 8 && (strcmp(fmt, "l") == 0 || strcmp(fmt, "q") == 0);
        break;
    default:
        ok = view->itemsize == 1 && (strcmp(fmt, "B") == 0 || strcmp(fmt, "?") == 0);
        break;
    }
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous %s array", name, kind_name(kind));
        return -1;
    }
    if (count >= 0 && view->len != count * view->itemsize) {
        PyErr_Format(PyExc_ValueError, "%s has %zd items, expected %zd", name, view->len / view->itemsize, count);
        return -1;
    }
    return 0;
}

static void release_all(Py_buffer *held, int n_held)
{
    for (int k = 0; k < n_held; k++)
        PyBuffer_Release(&held[k]);
}

#endif
