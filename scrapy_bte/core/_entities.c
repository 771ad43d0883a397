/* Character references of a text decoded in one pass (optional accelerator).
 *
 * Finds references exactly as html.unescape's pattern does,
 *     &(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)
 * and replaces each by what the caller's table holds for its text after "&";
 * a reference not in the table yet is decoded by the caller's function and
 * added to the table. So every rule of the decoding (HTML5's names, the
 * longest-prefix rule for names without ";", invalid and remapped code
 * points) stays in one place, the standard library; this pass only avoids a
 * Python call and a match object per reference.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_native.h"

static int name_char(Py_UCS4 c)
{
    return !(c == '\t' || c == '\n' || c == '\f' || c == ' ' || c == '<' || c == '&' || c == '#' || c == ';');
}

static int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

static int is_hex(Py_UCS4 c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* Length of the reference's text after the "&" at position amp, 0 if none starts there. */
static Py_ssize_t ref_length(int kind, const void *data, Py_ssize_t n, Py_ssize_t amp)
{
    Py_ssize_t i = amp + 1;
    if (i >= n)
        return 0;
    if (PyUnicode_READ(kind, data, i) == '#') {
        Py_ssize_t j = i + 1;
        if (j < n && is_digit(PyUnicode_READ(kind, data, j))) {
            while (j < n && is_digit(PyUnicode_READ(kind, data, j)))
                j++;
        } else if (j + 1 < n && (PyUnicode_READ(kind, data, j) | 0x20) == 'x' && is_hex(PyUnicode_READ(kind, data, j + 1))) {
            j += 1;
            while (j < n && is_hex(PyUnicode_READ(kind, data, j)))
                j++;
        } else {
            return 0;
        }
        if (j < n && PyUnicode_READ(kind, data, j) == ';')
            j++;
        return j - i;
    }
    Py_ssize_t j = i;
    while (j < n && j - i < 32 && name_char(PyUnicode_READ(kind, data, j)))
        j++;
    if (j == i)
        return 0;
    if (j < n && PyUnicode_READ(kind, data, j) == ';')
        j++;
    return j - i;
}

/* The text of references seen before, one string object per distinct ASCII text: the table is
 * then searched with a string whose hash is already known (usually the very key object it
 * holds) instead of a new slice hashed again for each of a page's hundreds of references. */
#define REF_SLOTS 1024
#define REF_MAX 34 /* a name of 32 characters, with "&" dropped and ";" kept, fits */
typedef struct {
    Py_ssize_t len;
    char chars[REF_MAX];
    PyObject *ref;
} ref_slot_t;
static ref_slot_t ref_cache[REF_SLOTS];

/* text[a:a+len] (a new reference), from the cache when it is ASCII and short. */
static PyObject *ref_text(PyObject *text, int kind, const void *data, Py_ssize_t a, Py_ssize_t len)
{
    if (len > REF_MAX)
        return PyUnicode_Substring(text, a, a + len);
    char chars[REF_MAX];
    unsigned int h = 2166136261u;
    for (Py_ssize_t k = 0; k < len; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, a + k);
        if (c >= 128)
            return PyUnicode_Substring(text, a, a + len);
        chars[k] = (char)c;
        h = (h ^ c) * 16777619u;
    }
    ref_slot_t *slot = &ref_cache[h & (REF_SLOTS - 1)];
    if (slot->ref != NULL && slot->len == len && memcmp(slot->chars, chars, (size_t)len) == 0)
        return Py_NewRef(slot->ref);
    PyObject *ref = PyUnicode_Substring(text, a, a + len);
    if (ref == NULL)
        return NULL;
    Py_XSETREF(slot->ref, Py_NewRef(ref));
    slot->len = len;
    memcpy(slot->chars, chars, (size_t)len);
    return ref;
}

/* A reference found in the text: text[amp:end] is replaced by value. */
typedef struct {
    Py_ssize_t amp, end;
    PyObject *value;
} ref_t;

/* The text with refs[0:n] replaced, built directly: the output's width is the text's when every
 * reference's text is ASCII (all characters past ASCII then lie outside them, so the copies keep
 * each one) widened for the values, exactly the width joining the pieces gives. */
static PyObject *replaced(PyObject *text, const ref_t *refs, Py_ssize_t n_refs)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), out_len = n;
    Py_UCS4 maxchar = PyUnicode_MAX_CHAR_VALUE(text);
    for (Py_ssize_t r = 0; r < n_refs; r++) {
        out_len += PyUnicode_GET_LENGTH(refs[r].value) - (refs[r].end - refs[r].amp);
        Py_UCS4 m = PyUnicode_MAX_CHAR_VALUE(refs[r].value);
        if (m > maxchar)
            maxchar = m;
    }
    PyObject *out = PyUnicode_New(out_len, maxchar);
    if (out == NULL)
        return NULL;
    Py_ssize_t done = 0, at = 0;
    for (Py_ssize_t r = 0; r <= n_refs; r++) {
        Py_ssize_t stop = r < n_refs ? refs[r].amp : n;
        if (stop > done && PyUnicode_CopyCharacters(out, at, text, done, stop - done) < 0)
            goto fail;
        at += stop - done;
        if (r == n_refs)
            break;
        Py_ssize_t len = PyUnicode_GET_LENGTH(refs[r].value);
        if (len && PyUnicode_CopyCharacters(out, at, refs[r].value, 0, len) < 0)
            goto fail;
        at += len;
        done = refs[r].end;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The text with refs[0:n] replaced, by joining its slices and the values. */
static PyObject *joined(PyObject *text, const ref_t *refs, Py_ssize_t n_refs)
{
    PyObject *pieces = PyList_New(0), *out = NULL;
    if (pieces == NULL)
        return NULL;
    Py_ssize_t done = 0;
    for (Py_ssize_t r = 0; r <= n_refs; r++) {
        Py_ssize_t stop = r < n_refs ? refs[r].amp : PyUnicode_GET_LENGTH(text);
        if (stop > done) {
            PyObject *piece = PyUnicode_Substring(text, done, stop);
            int rc = piece == NULL ? -1 : PyList_Append(pieces, piece);
            Py_XDECREF(piece);
            if (rc < 0)
                goto done;
        }
        if (r == n_refs)
            break;
        if (PyList_Append(pieces, refs[r].value) < 0)
            goto done;
        done = refs[r].end;
    }
    PyObject *empty = PyUnicode_New(0, 0);
    if (empty != NULL) {
        out = PyUnicode_Join(empty, pieces);
        Py_DECREF(empty);
    }
done:
    Py_DECREF(pieces);
    return out;
}

PyDoc_STRVAR(unescape_doc,
             "unescape(text, table, decode) -> str\n\n"
             "text with every character reference replaced by table[ref], ref being\n"
             "the reference's text after \"&\"; a ref missing from table is decoded\n"
             "as decode(ref) and stored in table first.");

static PyObject *unescape(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *text, *table, *decode;
    if (!PyArg_ParseTuple(args, "UO!O", &text, &PyDict_Type, &table, &decode))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t amp = PyUnicode_FindChar(text, '&', 0, n, 1);
    if (amp == -2)
        return NULL;
    if (amp == -1)
        return Py_NewRef(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    ref_t *refs = NULL;
    Py_ssize_t n_refs = 0, cap = 0;
    int ascii_refs = 1; /* every reference's text is ASCII */
    PyObject *out = NULL;
    while (amp >= 0) {
        Py_ssize_t len = ref_length(kind, data, n, amp);
        if (len > 0) {
            PyObject *ref = ref_text(text, kind, data, amp + 1, len);
            if (ref == NULL)
                goto done;
            if (!PyUnicode_IS_ASCII(ref))
                ascii_refs = 0;
            PyObject *value = PyDict_GetItemWithError(table, ref);
            if (value != NULL) {
                Py_INCREF(value); /* ours until the output is built, whatever happens to the table */
            } else if (!PyErr_Occurred()) {
                value = PyObject_CallOneArg(decode, ref);
                if (value != NULL && !PyUnicode_Check(value)) {
                    PyErr_SetString(PyExc_TypeError, "decode must return str");
                    Py_CLEAR(value);
                }
                if (value != NULL && PyDict_SetItem(table, ref, value) < 0)
                    Py_CLEAR(value);
            }
            Py_DECREF(ref);
            if (value == NULL)
                goto done;
            if (n_refs == cap) {
                cap = cap ? 2 * cap : 64;
                ref_t *grown = PyMem_Realloc(refs, (size_t)cap * sizeof(ref_t));
                if (grown == NULL) {
                    Py_DECREF(value);
                    PyErr_NoMemory();
                    goto done;
                }
                refs = grown;
            }
            refs[n_refs].amp = amp;
            refs[n_refs].end = amp + 1 + len;
            refs[n_refs].value = value;
            n_refs++;
        }
        Py_ssize_t from = len > 0 ? amp + 1 + len : amp + 1;
        amp = from < n ? PyUnicode_FindChar(text, '&', from, n, 1) : -1;
        if (amp == -2)
            goto done;
    }
    if (n_refs == 0) /* "&" but no reference */
        out = Py_NewRef(text);
    else
        out = ascii_refs ? replaced(text, refs, n_refs) : joined(text, refs, n_refs);
done:
    for (Py_ssize_t r = 0; r < n_refs; r++)
        Py_DECREF(refs[r].value);
    PyMem_Free(refs);
    return out;
}

static PyMethodDef methods[] = {
    {"unescape", unescape, METH_VARARGS, unescape_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_entities(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
