/* SimHash of a text's word shingles in one pass (optional accelerator).
 *
 * The same computation as scrapy_bte.core.fingerprint.simhash_reference, which
 * needs a dozen numpy passes over the text's bytes: fold the UTF-8 bytes
 * (ASCII letters lower-cased, other ASCII a space), collapse runs of spaces,
 * start a word after each space and at each lead byte of a 3- or 4-byte
 * sequence, hash every run of SHINGLE words as a polynomial in Q modulo 2**64
 * (what the reference reads from prefix sums), mix each hash with
 * splitmix64's finaliser and set bit i of the result when most hashes have it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

#define Q 0x100000001B3ULL
#define M1 0xBF58476D1CE4E5B9ULL
#define M2 0x94D049BB133111EBULL
#define SPACE 32
#define LEAD3 0xE0

static unsigned char fold[256];

static uint64_t mix(uint64_t v)
{
    v ^= v >> 30;
    v *= M1;
    v ^= v >> 27;
    v *= M2;
    return v ^ (v >> 31);
}

PyDoc_STRVAR(simhash_doc,
             "simhash(data, shingle, min_words) -> int | None\n\n"
             "The SimHash of the UTF-8 bytes `data` over shingles of `shingle` words;\n"
             "None when they hold fewer than `min_words` words.");

static PyObject *simhash(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer view;
    Py_ssize_t shingle, min_words;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &shingle, &min_words))
        return NULL;
    PyObject *result = NULL;
    const unsigned char *src = view.buf;
    Py_ssize_t n = view.len;
    unsigned char *data = PyMem_Malloc(n + 1);
    Py_ssize_t *starts = PyMem_Malloc((n + 2) * sizeof(Py_ssize_t));
    if (data == NULL || starts == NULL || shingle < 1) {
        if (shingle < 1)
            PyErr_SetString(PyExc_ValueError, "shingle must be >= 1");
        else
            PyErr_NoMemory();
        goto done;
    }
    /* Fold, dropping every space that follows a space (or starts the text). */
    Py_ssize_t size = 0, words = 0;
    int after_space = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = fold[src[i]];
        if (c == SPACE) {
            if (after_space)
                continue;
            data[size++] = c;
            after_space = 1;
            continue;
        }
        if (after_space || c >= LEAD3)
            starts[words++] = size;
        data[size++] = c;
        after_space = 0;
    }
    if (words < min_words) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    starts[words] = size; /* the bound after the last word */
    Py_ssize_t count = words + 1 - shingle;
    if (count < 1) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    /* Per byte of the hashes, how often each value occurs; bits are summed at the end. */
    Py_ssize_t seen[8][256];
    memset(seen, 0, sizeof(seen));
    for (Py_ssize_t s = 0; s < count; s++) {
        uint64_t h = 0, power = 1;
        for (Py_ssize_t i = starts[s]; i < starts[s + shingle]; i++) {
            h += (uint64_t)data[i] * power;
            power *= Q;
        }
        h = mix(h);
        for (int byte = 0; byte < 8; byte++)
            seen[byte][(h >> (8 * byte)) & 0xFF]++;
    }
    /* Bit `bit` of a byte is set in the runs of 2**bit values starting at every odd multiple of
     * 2**bit: summing those runs reads only the counts that hold the bit, without a test per value. */
    uint64_t value = 0;
    for (int byte = 0; byte < 8; byte++) {
        const Py_ssize_t *row = seen[byte];
        for (int bit = 0; bit < 8; bit++) {
            int step = 1 << bit;
            Py_ssize_t ones = 0;
            for (int start = step; start < 256; start += 2 * step)
                for (int v = start; v < start + step; v++)
                    ones += row[v];
            if (ones * 2 > count)
                value |= 1ULL << (8 * byte + bit);
        }
    }
    result = PyLong_FromUnsignedLongLong(value);
done:
    PyBuffer_Release(&view);
    PyMem_Free(data);
    PyMem_Free(starts);
    return result;
}

static PyMethodDef methods[] = {
    {"simhash", simhash, METH_VARARGS, simhash_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_fingerprint(PyObject *module)
{
    for (int c = 0; c < 256; c++) {
        if (c >= 128)
            fold[c] = (unsigned char)c;
        else if (c >= 'A' && c <= 'Z')
            fold[c] = (unsigned char)(c + 32);
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            fold[c] = (unsigned char)c;
        else
            fold[c] = SPACE;
    }
    return PyModule_AddFunctions(module, methods);
}
