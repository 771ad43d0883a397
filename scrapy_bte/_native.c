/* The one extension module of scrapy-bte: scrapy_bte._native.
 *
 * One submodule per Python module that has C passes, named after it
 * (_native.document serves core/document.py, _native.features serves
 * learned/features.py, ...), each filled by the scrapy_bte_add_<file>
 * function of the C sources that sit beside that Python module. Every
 * pass keeps its pure-Python reference in its Python module;
 * scrapy_bte.core.accel loads the submodules and holds the switch between
 * the two (SCRAPY_BTE_NATIVE). PASSES lists the submodules' names.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_native.h"

typedef int (*add_function)(PyObject *module);

static const struct {
    const char *name; /* the submodule, as the Python module it serves */
    const char *doc;
    add_function add[2]; /* the C sources that fill it (NULL: none) */
} SUBMODULES[] = {
    {"document", "C passes of scrapy_bte.core.document.", {scrapy_bte_add_scan, NULL}},
    {"entities", "Character references decoded in one pass (scrapy_bte.core.entities).", {scrapy_bte_add_entities, NULL}},
    {"fingerprint", "SimHash of word shingles in one pass (scrapy_bte.core.fingerprint).",
     {scrapy_bte_add_fingerprint, NULL}},
    {"hints", "Class-hint bits of raw attribute strings (scrapy_bte.evidence.hints).", {scrapy_bte_add_hints, NULL}},
    {"labels", "Per-text tests of label_features in one pass per text (scrapy_bte.evidence.labels).",
     {scrapy_bte_add_labels, NULL}},
    {"marks", "Word marks found in one pass (scrapy_bte.core.marks).", {scrapy_bte_add_marks, NULL}},
    {"hidden", "Elements only screen readers read, found from their class words (scrapy_bte.core.hidden).",
     {scrapy_bte_add_hidden, NULL}},
    {"bte", "BTE's run-length encoding and maximum-sum span (scrapy_bte.methods.bte).", {scrapy_bte_add_bte, NULL}},
    {"density", "EM of gaussian_threshold (scrapy_bte.methods.density).", {scrapy_bte_add_em, NULL}},
    {"records", "Record shapes' class words numbered in one pass (scrapy_bte.methods.records).",
     {scrapy_bte_add_records, NULL}},
    {"features", "Character counts, title overlap, block and context features (scrapy_bte.learned.features).",
     {scrapy_bte_add_textstats, scrapy_bte_add_features}},
    {"auto", "The smoothed keep decision of auto.decide (scrapy_bte.learned.auto).", {scrapy_bte_add_auto, NULL}},
    {"page_type", "Tag counts and block and element sums of the page-type evidence (scrapy_bte.learned.page_type).",
     {scrapy_bte_add_page_type, NULL}},
};

#define N_SUBMODULES ((Py_ssize_t)(sizeof(SUBMODULES) / sizeof(SUBMODULES[0])))

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    "scrapy_bte._native",
    "The C passes of scrapy-bte, one submodule per Python module they serve (see scrapy_bte.core.accel).",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

/* The submodule `i`, filled; NULL with an exception set on failure. */
static PyObject *new_submodule(Py_ssize_t i)
{
    PyObject *name = PyUnicode_FromFormat("scrapy_bte._native.%s", SUBMODULES[i].name);
    if (name == NULL)
        return NULL;
    PyObject *sub = PyModule_NewObject(name);
    Py_DECREF(name);
    if (sub == NULL)
        return NULL;
    if (PyModule_SetDocString(sub, SUBMODULES[i].doc) < 0)
        goto fail;
    for (int k = 0; k < 2 && SUBMODULES[i].add[k] != NULL; k++)
        if (SUBMODULES[i].add[k](sub) < 0)
            goto fail;
    return sub;
fail:
    Py_DECREF(sub);
    return NULL;
}

PyMODINIT_FUNC PyInit__native(void)
{
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL)
        return NULL;
    PyObject *names = PyTuple_New(N_SUBMODULES);
    if (names == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < N_SUBMODULES; i++) {
        PyObject *name = PyUnicode_FromString(SUBMODULES[i].name);
        if (name == NULL)
            goto fail;
        PyTuple_SET_ITEM(names, i, name);
        PyObject *sub = new_submodule(i);
        if (sub == NULL)
            goto fail;
        int added = PyModule_AddObjectRef(m, SUBMODULES[i].name, sub);
        Py_DECREF(sub);
        if (added < 0)
            goto fail;
    }
    if (PyModule_AddObjectRef(m, "PASSES", names) < 0)
        goto fail;
    Py_DECREF(names);
    return m;
fail:
    Py_XDECREF(names);
    Py_DECREF(m);
    return NULL;
}
