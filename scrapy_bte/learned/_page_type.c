/* The page-type classifier's evidence from the document's arrays, in C (optional accelerator).
 *
 * page_type.page_evidence reads a page's blocks and element skeleton in some
 * sixty numpy calls and a few Python loops over the tag names and openers;
 * most pages pay that as a fixed cost of a few hundred microseconds. Here
 * the same sums are two passes over the blocks and two over the elements.
 *
 * Same values to the bit: every sum the reference takes in numpy (pairwise
 * sums, matrix products with 0/1 columns) is a sum of whole numbers of words
 * below 2^53 here, which any order adds exactly, so block_evidence declines
 * (returns None, and the caller runs the reference) on a page with a
 * fractional word count (scripts without spaces count fractions) or a
 * skeleton whose parents do not precede their children. Group ties are
 * broken as np.argmax does over the reference's sorted keys, the keys are
 * the reference's float64 products and sums (built without fused
 * multiply-add), and the logarithms math.log1p takes are libm's log1p, as
 * here; those the reference takes with np.log1p are left to the caller.
 * scrapy_bte.learned.page_type.block_evidence_reference is the Python twin;
 * tests/native/test_page_type.py compares both.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_native.h"

/* Whole numbers of words up to this are added exactly in any order (2^53 over a page of 2^20 blocks). */
#define WHOLE_LIMIT 8589934592.0

PyDoc_STRVAR(count_tags_doc,
             "count_tags(names, index, n) -> bytearray\n\n"
             "Per counted tag (index maps a name to its column 0..n-1), how often names holds it:\n"
             "n int64 counts. Names not in index are skipped.");

static PyObject *count_tags(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *names, *index;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O!O!n", &PyList_Type, &names, &PyDict_Type, &index, &n))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must be >= 0");
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (out == NULL)
        return NULL;
    int64_t *counts = (int64_t *)PyByteArray_AS_STRING(out);
    memset(counts, 0, (size_t)n * sizeof(int64_t));
    /* Each name object's column is looked up once (name_value). */
    name_slot seen[NAME_SLOTS];
    memset(seen, 0, sizeof(seen));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
        Py_ssize_t at;
        int found = name_value(seen, index, PyList_GET_ITEM(names, i), &at);
        if (found < 0)
            goto fail;
        if (!found)
            continue;
        if (at < 0 || at >= n) {
            PyErr_SetString(PyExc_ValueError, "index columns must lie in 0..n-1");
            goto fail;
        }
        counts[at]++;
    }
    release_names(seen);
    return out;
fail:
    release_names(seen);
    Py_DECREF(out);
    return NULL;
}

/* Open addressing over the elements' sibling keys: per slot the group id + 1 (0 = empty). */
static Py_ssize_t group_of(double key, Py_ssize_t *slots, Py_ssize_t mask, Py_ssize_t *n_groups, double *group_key)
{
    if (key == 0.0)
        key = 0.0; /* -0.0 and 0.0 are one key, as they compare equal */
    uint64_t bits;
    memcpy(&bits, &key, sizeof bits);
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdULL;
    bits ^= bits >> 33;
    Py_ssize_t at = (Py_ssize_t)(bits & (uint64_t)mask);
    for (;;) {
        Py_ssize_t g = slots[at];
        if (g == 0) {
            g = (*n_groups)++;
            group_key[g] = key;
            slots[at] = g + 1;
            return g;
        }
        if (group_key[g - 1] == key)
            return g - 1;
        at = (at + 1) & mask;
    }
}

PyDoc_STRVAR(block_evidence_doc,
             "block_evidence(words, link_words, container, opener, opener_codes, parents, el_name_id, name_bits,\n"
             "               elements, hint_path, hint_own, sizes) -> bytearray or None\n\n"
             "The block and element sums of page_type.page_evidence as float64 values (see\n"
             "block_evidence_reference for their order), or None where the C pass declines (a\n"
             "fractional word count, parents that do not precede their children). words and\n"
             "link_words float64 and container, hint_path, hint_own int64 per block; opener a\n"
             "list of str per block, opener_codes a dict of opener to group + 16 * slot; parents,\n"
             "el_name_id and elements int64 per element; name_bits int64 per element name; sizes\n"
             "(opener groups, slots, container tags, hint bits, page bits, page-bit shift,\n"
             "run minimum, sibling reach, short words).");

static PyObject *block_evidence(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_words, *o_links, *o_container, *opener, *codes, *o_parents, *o_name_id, *o_name_bits, *o_elements,
        *o_path, *o_own;
    Py_ssize_t n_open, n_slots, n_tags, n_hints, n_page, page_shift, run_min, reach;
    double short_words;
    if (!PyArg_ParseTuple(args, "OOOO!O!OOOOOO(nnnnnnnnd)", &o_words, &o_links, &o_container, &PyList_Type, &opener,
                          &PyDict_Type, &codes, &o_parents, &o_name_id, &o_name_bits, &o_elements, &o_path, &o_own,
                          &n_open, &n_slots, &n_tags, &n_hints, &n_page, &page_shift, &run_min, &reach, &short_words))
        return NULL;
    if (n_open < 1 || n_open > 15 || n_slots < 1 || n_slots > 15 || n_tags < 0 || n_tags > 63 || n_hints < 0 ||
        n_hints > 63 || n_page < 0 || page_shift < 0 || page_shift + n_page > 63 || run_min < 1 || reach < 1) {
        PyErr_SetString(PyExc_ValueError, "sizes out of range");
        return NULL;
    }
    Py_buffer held[9];
    int n_held = 0;
    PyObject *result = NULL;
    char *scratch = NULL;
    if (get_array(o_words, F64, -1, "words", held, &n_held) < 0)
        goto done;
    const Py_ssize_t n = held[0].len / 8;
    if (get_array(o_links, F64, n, "link_words", held, &n_held) < 0 ||
        get_array(o_container, I64, n, "container", held, &n_held) < 0 ||
        get_array(o_parents, I64, -1, "parents", held, &n_held) < 0)
        goto done;
    const Py_ssize_t n_el = held[3].len / 8;
    if (get_array(o_name_id, I64, n_el, "el_name_id", held, &n_held) < 0 ||
        get_array(o_name_bits, I64, -1, "name_bits", held, &n_held) < 0 ||
        get_array(o_elements, I64, n_el, "elements", held, &n_held) < 0 ||
        get_array(o_path, I64, n, "hint_path", held, &n_held) < 0 ||
        get_array(o_own, I64, n, "hint_own", held, &n_held) < 0)
        goto done;
    if (PyList_GET_SIZE(opener) != n) {
        PyErr_Format(PyExc_ValueError, "opener has %zd items, expected %zd", PyList_GET_SIZE(opener), n);
        goto done;
    }
    const double *words = held[0].buf, *links = held[1].buf;
    const int64_t *container = held[2].buf, *parents = held[3].buf, *name_id = held[4].buf, *name_bits = held[5].buf;
    const int64_t *elements = held[6].buf, *path = held[7].buf, *own = held[8].buf;
    const Py_ssize_t n_names = held[5].len / 8;
    if (n == 0 || n_el < 1) {
        PyErr_SetString(PyExc_ValueError, "a page with blocks and a root element");
        goto done;
    }
    /* Checks, and where the pass declines. */
    int64_t top = 0;
    for (Py_ssize_t b = 0; b < n; b++) {
        double w = words[b], l = links[b];
        if (!(w >= 0.0 && w <= WHOLE_LIMIT && w == floor(w) && l >= 0.0 && l <= WHOLE_LIMIT && l == floor(l)))
            goto decline;
        if (container[b] < 0 || container[b] >= n_el) {
            PyErr_SetString(PyExc_ValueError, "container ids must be elements");
            goto done;
        }
        if (container[b] > top)
            top = container[b];
    }
    for (Py_ssize_t e = 1; e < n_el; e++)
        if (parents[e] < 0 || parents[e] >= e)
            goto decline;
    int64_t max_shape = INT64_MIN;
    for (Py_ssize_t e = 0; e < n_el; e++) {
        if (name_id[e] < 0 || name_id[e] >= n_names || elements[e] < 0 || elements[e] > (INT64_C(1) << 40)) {
            PyErr_SetString(PyExc_ValueError, "element names and bits out of range");
            goto done;
        }
        int64_t shape = elements[e] * (int64_t)n_names + name_id[e];
        if (shape > max_shape)
            max_shape = shape;
    }

    const Py_ssize_t n_direct = 4 + n_open + n_tags + 6 + n_slots + n_hints;
    const Py_ssize_t n_raw = 1 + n_direct + n_slots + n_page;
    result = PyByteArray_FromStringAndSize(NULL, n_raw * (Py_ssize_t)sizeof(double));
    if (result == NULL)
        goto done;
    double *raw = (double *)PyByteArray_AS_STRING(result);
    memset(raw, 0, (size_t)n_raw * sizeof(double));
    double *direct = raw + 1;
    double *opener_share = direct + 4, *tag_share = opener_share + n_open, *run = tag_share + n_tags;
    double *slot_share = run + 6, *hint_share = slot_share + n_slots, *slot_ratio = direct + n_direct;
    double *page_counts = slot_ratio + n_slots;

    /* Scratch: per container (top + 1) its words and per slot its blocks; per element its bits on
     * the path, whether it holds text, its group; per group its key, members with text and words;
     * the hash slots; per block its opener code. */
    const Py_ssize_t n_c = (Py_ssize_t)top + 1;
    Py_ssize_t n_hash = 16;
    while (n_hash < 2 * n_el)
        n_hash *= 2;
    size_t bytes = (size_t)n_c * sizeof(double) + (size_t)n_c * (size_t)n_slots * sizeof(int64_t) +
                   (size_t)n_el * (sizeof(int64_t) + 1 + sizeof(Py_ssize_t)) +
                   (size_t)n_el * (3 * sizeof(double)) + (size_t)n_hash * sizeof(Py_ssize_t) + (size_t)n;
    scratch = PyMem_Calloc(1, bytes);
    if (scratch == NULL) {
        PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    char *at = scratch;
    double *per_container = (double *)at;
    at += (size_t)n_c * sizeof(double);
    int64_t *slot_counts = (int64_t *)at;
    at += (size_t)n_c * (size_t)n_slots * sizeof(int64_t);
    int64_t *acc = (int64_t *)at;
    at += (size_t)n_el * sizeof(int64_t);
    Py_ssize_t *group = (Py_ssize_t *)at;
    at += (size_t)n_el * sizeof(Py_ssize_t);
    double *group_key = (double *)at, *members = group_key + n_el, *group_words = members + n_el;
    at += (size_t)n_el * 3 * sizeof(double);
    Py_ssize_t *slots = (Py_ssize_t *)at;
    at += (size_t)n_hash * sizeof(Py_ssize_t);
    char *has_text = at;
    at += (size_t)n_el;
    unsigned char *code = (unsigned char *)at;

    /* Openers: group and slot codes, each opener object's looked up once (name_value). */
    name_slot seen[NAME_SLOTS];
    memset(seen, 0, sizeof(seen));
    for (Py_ssize_t b = 0; b < n; b++) {
        Py_ssize_t v;
        int found = name_value(seen, codes, PyList_GET_ITEM(opener, b), &v);
        if (found < 0) {
            release_names(seen);
            goto fail;
        }
        if (!found)
            v = n_open;
        else if (v < 0 || (v & 15) > n_open || (v >> 4) > n_slots) {
            release_names(seen);
            PyErr_SetString(PyExc_ValueError, "opener codes out of range");
            goto fail;
        }
        code[b] = (unsigned char)v;
    }
    release_names(seen);

    /* Blocks: the page's totals, opener shares, words per container and slots per container. */
    double total = 0.0, link_total = 0.0, short_total = 0.0;
    Py_ssize_t linked = 0;
    for (Py_ssize_t b = 0; b < n; b++) {
        double w = words[b];
        total += w;
        link_total += links[b];
        if (w < short_words)
            short_total += w;
        linked += links[b] > 0.5 * w;
        if ((code[b] & 15) < n_open)
            opener_share[code[b] & 15] += w;
        per_container[container[b]] += w;
        if (code[b] >> 4)
            slot_counts[container[b] * n_slots + (code[b] >> 4) - 1]++;
    }
    const double share = total > 0 ? 1.0 / total : 0.0;
    raw[0] = total;
    direct[0] = link_total * share;
    direct[1] = short_total * share;
    direct[2] = (double)linked / (double)n;
    double largest = per_container[0];
    for (Py_ssize_t c = 1; c < n_c; c++)
        if (per_container[c] > largest)
            largest = per_container[c];
    direct[3] = largest * share;
    for (Py_ssize_t k = 0; k < n_open; k++)
        opener_share[k] *= share;

    /* Container tags on each block's path: each element's bits OR its parent's, in document order. */
    acc[0] = 0;
    for (Py_ssize_t e = 1; e < n_el; e++) {
        int64_t id = name_id[e];
        acc[e] = name_bits[id] | acc[parents[e]];
    }
    for (Py_ssize_t b = 0; b < n; b++) {
        uint64_t bits = (uint64_t)acc[container[b]];
        while (bits) {
            int k = count_trailing_zeros64(bits);
            if (k >= n_tags)
                break;
            tag_share[k] += words[b];
            bits &= bits - 1;
        }
        bits = (uint64_t)(path[b] | own[b]);
        while (bits) {
            int k = count_trailing_zeros64(bits);
            if (k >= n_hints)
                break;
            hint_share[k] += words[b];
            bits &= bits - 1;
        }
    }
    for (Py_ssize_t k = 0; k < n_tags; k++)
        tag_share[k] *= share;
    for (Py_ssize_t k = 0; k < n_hints; k++)
        hint_share[k] *= share;

    /* Elements per page-group bit. */
    for (Py_ssize_t e = 0; e < n_el; e++) {
        uint64_t bits = (uint64_t)elements[e] >> page_shift;
        while (bits) {
            int k = count_trailing_zeros64(bits);
            if (k >= n_page)
                break;
            page_counts[k] += 1.0;
            bits &= bits - 1;
        }
    }

    if (total > 0) {
        /* Runs of same-shaped siblings. */
        if (n_el >= 2) {
            for (Py_ssize_t b = 0; b < n; b++) {
                int64_t el = container[b];
                for (Py_ssize_t k = 0; k < reach; k++) {
                    has_text[el] = 1;
                    el = parents[el] > 0 ? parents[el] : 0;
                }
            }
            has_text[0] = 0;
            const double m = (double)(max_shape + 1);
            const Py_ssize_t mask = n_hash - 1;
            Py_ssize_t n_groups = 0;
            for (Py_ssize_t e = 0; e < n_el; e++) {
                double key = (double)parents[e] * m + (double)(elements[e] * (int64_t)n_names + name_id[e]);
                group[e] = group_of(key, slots, mask, &n_groups, group_key);
                members[group[e]] += has_text[e];
            }
            Py_ssize_t runs = 0;
            for (Py_ssize_t g = 0; g < n_groups; g++)
                runs += members[g] >= (double)run_min;
            double run_words = 0.0, run_links = 0.0;
            int any = 0;
            for (Py_ssize_t b = 0; b < n; b++) {
                int64_t el = container[b];
                for (Py_ssize_t k = 0; k < reach; k++) {
                    if (el != 0 && members[group[el]] >= (double)run_min) {
                        group_words[group[el]] += words[b];
                        run_words += words[b];
                        run_links += links[b];
                        any = 1;
                        break;
                    }
                    el = parents[el] > 0 ? parents[el] : 0;
                }
            }
            if (runs && any) {
                /* np.argmax over the groups in the order of their keys: the first largest. */
                Py_ssize_t best = -1;
                for (Py_ssize_t g = 0; g < n_groups; g++)
                    if (best < 0 || group_words[g] > group_words[best] ||
                        (group_words[g] == group_words[best] && group_key[g] < group_key[best]))
                        best = g;
                run[0] = run_words / total;
                run[1] = run_links / run_words;
                run[2] = log1p(members[best]);
                run[3] = group_words[best] / total;
                run[4] = log1p(group_words[best] / members[best]);
                run[5] = log1p((double)runs);
            }
        }
        /* Items a container repeats by their opener. */
        for (Py_ssize_t k = 0; k < n_slots; k++) {
            double slot_words = 0.0;
            int64_t items = 0;
            int repeated = 0;
            for (Py_ssize_t c = 0; c < n_c; c++) {
                int64_t count = slot_counts[c * n_slots + k];
                if (count >= run_min) {
                    slot_words += per_container[c];
                    items += count;
                    repeated = 1;
                }
            }
            slot_ratio[k] = -1.0;
            if (repeated) {
                slot_share[k] = slot_words / total;
                slot_ratio[k] = slot_words / (double)items;
            }
        }
    } else {
        for (Py_ssize_t k = 0; k < n_slots; k++)
            slot_ratio[k] = -1.0;
    }
    goto done;

fail:
    Py_CLEAR(result);
    goto done;
decline:
    result = Py_None;
    Py_INCREF(result);
done:
    PyMem_Free(scratch);
    release_all(held, n_held);
    return result;
}

static PyMethodDef methods[] = {
    {"count_tags", count_tags, METH_VARARGS, count_tags_doc},
    {"block_evidence", block_evidence, METH_VARARGS, block_evidence_doc},
    {NULL, NULL, 0, NULL},
};

/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_page_type(PyObject *module)
{
    return PyModule_AddFunctions(module, methods);
}
