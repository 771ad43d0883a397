/* Numeric body of features.block_features and features.context_features, in C
 * (optional accelerator).
 *
 * The numpy reference spends most of a page's feature time in about a
 * hundred small array calls, each cheap on its own. Here the columns are
 * filled in a few passes over the blocks. Python still computes everything
 * that needs Python objects (hybrid selection, ancestor bits, opener index,
 * text statistics, title overlap) and passes plain arrays.
 *
 * Sums the reference takes with np.cumsum or np.bincount are taken in the
 * same order here, so window means, group totals and run totals are equal to
 * the last bit and the argmax ties ("is_largest", the main run) fall the
 * same way. Whole-page sums (np.sum, pairwise in numpy) may differ by
 * rounding. tests/test_scan.py compares both paths.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Layout of feature_schema.BLOCK_GROUPS (numeric groups) and CONTEXT_NAMES; the
 * caller passes its own counts and they are checked against these so the two
 * cannot drift apart silently (LAYOUT, at the end, exposes them to the tests). */
#define WINDOW 2
#define WIDE 6
#define N_SHAPE 7
#define N_NEIGHBOUR (2 * WINDOW * 4)
#define N_WIDE 4
#define N_PAGE 7
#define N_SPAN 7
#define N_TAG 4
#define N_LEVELS 3
#define N_GROUP 6
#define N_TEXT 6
#define N_CONTEXT 18

/* `row` points at block i of column 0; columns are `col_stride` floats apart.
 * The block features go straight into the caller's (n, features) matrix, the
 * layout the numpy reference's stack ends in, so the model's matrix products
 * see the same memory layout (and sum in the same order) on both paths; the
 * context features are (columns, n) in C order, the reference's transposed stack. */
#define AT(col) row[(size_t)(col) * col_stride]

/* np.maximum: NaN wins. */
/* log1p of the whole numbers under LOG1P_WHOLE (counts of words, characters, bytes, blocks,
 * distances: nearly every argument here), looked up in a table of libm's own values, filled
 * when the module is added; any other argument (fractions, zeros of either sign, NaN) goes to
 * log1p. A page took five to eleven log1p calls a block, about a third of this pass. */
#define LOG1P_WHOLE 4096
static double log1p_whole_table[LOG1P_WHOLE];

/* Fills the table, once, when the module is added (scrapy_bte_add_features). */
static void fill_log1p_whole(void)
{
    for (int k = 0; k < LOG1P_WHOLE; k++)
        log1p_whole_table[k] = log1p((double)k);
}

static inline double log1p_whole(double x)
{
    if (x > 0.0 && x < LOG1P_WHOLE) {
        int k = (int)x;
        if ((double)k == x)
            return log1p_whole_table[k];
    }
    return log1p(x);
}

static inline double np_maximum(double a, double b)
{
    return (a >= b || a != a) ? a : b;
}

/* Python's builtin max(a, b): the first unless the second is strictly larger. */
static inline double py_max(double a, double b)
{
    return b > a ? b : a;
}

/* ------------------------------------------------------------------ buffers */

#include "_native.h"

/* The common exit: drop a half-built result on error, free the scratch, release the inputs. */
static PyObject *finish(PyObject *result, void *scratch, void *groups, Py_buffer *held, int n_held)
{
    if (PyErr_Occurred())
        Py_CLEAR(result);
    PyMem_Free(scratch);
    PyMem_Free(groups);
    release_all(held, n_held);
    return result;
}

/* ------------------------------------------------------------------ median */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The k-th smallest of a[0..n-1] (no NaN; reorders a): quickselect, falling
 * back to qsort on the remaining range if partitioning degenerates, so the
 * worst case stays n log n. */
static double select_kth(double *a, Py_ssize_t n, Py_ssize_t k)
{
    Py_ssize_t lo = 0, hi = n - 1;
    int rounds = 0;
    while (hi > lo) {
        if (++rounds > 64) {
            qsort(a + lo, (size_t)(hi - lo + 1), sizeof(double), cmp_double);
            return a[k];
        }
        /* Median of three as pivot. */
        Py_ssize_t mid = lo + (hi - lo) / 2;
        double x = a[lo], y = a[mid], z = a[hi];
        double pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        Py_ssize_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        }
        /* Now a[lo..j] <= pivot <= a[i..hi], and a[j+1..i-1] == pivot. */
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* np.median of n > 0 values (copied into scratch): the mean of the two middle
 * values for even n, computed as numpy does, (a + b) / 2. */
static double median(const double *values, Py_ssize_t n, double *scratch)
{
    for (Py_ssize_t t = 0; t < n; t++) {
        if (values[t] != values[t])
            return values[t]; /* numpy: NaN anywhere makes the median NaN */
        scratch[t] = values[t];
    }
    Py_ssize_t k = n / 2;
    double upper = select_kth(scratch, n, k);
    if (n % 2)
        return upper;
    /* After selection everything before k is <= a[k]: the lower middle is their maximum. */
    double lower = scratch[0];
    for (Py_ssize_t t = 1; t < k; t++)
        if (scratch[t] > lower)
            lower = scratch[t];
    return (lower + upper) / 2.0;
}

/* ------------------------------------------------------------------ block features */

typedef struct {
    double words, link, chars, bytes, blocks;
    /* The group's first five columns, computed for its first block and copied for the others
     * (two log1p and three divisions a block and level otherwise); `ready` says they are. */
    float columns[5];
    int ready;
} Group;

PyDoc_STRVAR(block_features_doc,
             "block_features(words, chars, nbytes, tags, link_words, container, depth, parents, opener,\n"
             "               ancestor_bits, hybrid, text, title, first, last, n_features, n_openers,\n"
             "               n_bits, out) -> None\n\n"
             "The numeric columns of features.block_features, written into the first\n"
             "n_features columns of `out` (float32, C order, n rows).\n"
             "Per block (n items each): words, link_words, title float64; chars, nbytes\n"
             "(raw markup bytes), tags, container, depth, opener (index into OPENERS),\n"
             "ancestor_bits int64; hybrid uint8/bool; text float64 (n rows of 6).\n"
             "parents: int64 parent of each element (container ids index it). first,\n"
             "last: BTE's span, both -1 without one.");

static PyObject *block_features(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_words, *o_chars, *o_bytes, *o_tags, *o_link, *o_container, *o_depth, *o_parents, *o_opener, *o_bits,
        *o_hybrid, *o_text, *o_title, *o_out;
    Py_ssize_t first, last, n_features, n_openers, n_bits;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOnnnnnO", &o_words, &o_chars, &o_bytes, &o_tags, &o_link, &o_container,
                          &o_depth, &o_parents, &o_opener, &o_bits, &o_hybrid, &o_text, &o_title, &first, &last,
                          &n_features, &n_openers, &n_bits, &o_out))
        return NULL;
    Py_buffer held[14];
    int n_held = 0;
    PyObject *result = NULL;
    double *scratch = NULL;
    Group *groups = NULL;

    if (n_openers < 1 || n_bits < 0 || n_bits > 64) {
        PyErr_SetString(PyExc_ValueError, "n_openers must be positive and n_bits within 0..64");
        return NULL;
    }
    const Py_ssize_t n_cols = N_SHAPE + N_NEIGHBOUR + N_WIDE + N_PAGE + N_SPAN + n_openers + n_bits + N_TAG +
                              N_LEVELS * N_GROUP + N_TEXT + 1;
    if (n_features != n_cols) {
        PyErr_Format(PyExc_ValueError, "n_features is %zd but this build fills %zd columns", n_features, n_cols);
        return NULL;
    }
    /* The block count comes from words; every other per-block array must match
     * it. held[] is filled in this order (A_* below). */
    enum { A_WORDS, A_CHARS, A_BYTES, A_TAGS, A_LINK, A_CONTAINER, A_DEPTH, A_OPENER, A_BITS, A_HYBRID, A_TEXT, A_TITLE,
           A_PARENTS, A_OUT };
    if (get_array(o_words, F64, -1, "words", held, &n_held) < 0)
        goto done;
    const Py_ssize_t n = held[A_WORDS].len / 8;
    if (get_array(o_chars, I64, n, "chars", held, &n_held) < 0 || get_array(o_bytes, I64, n, "nbytes", held, &n_held) < 0 ||
        get_array(o_tags, I64, n, "tags", held, &n_held) < 0 || get_array(o_link, F64, n, "link_words", held, &n_held) < 0 ||
        get_array(o_container, I64, n, "container", held, &n_held) < 0 ||
        get_array(o_depth, I64, n, "depth", held, &n_held) < 0 ||
        get_array(o_opener, I64, n, "opener", held, &n_held) < 0 ||
        get_array(o_bits, I64, n, "ancestor_bits", held, &n_held) < 0 ||
        get_array(o_hybrid, U8, n, "hybrid", held, &n_held) < 0 ||
        get_array(o_text, F64, n * N_TEXT, "text", held, &n_held) < 0 ||
        get_array(o_title, F64, n, "title", held, &n_held) < 0 ||
        /* one parent per element: the container ids are checked against its length below */
        get_array(o_parents, I64, -1, "parents", held, &n_held) < 0)
        goto done;
    Py_buffer *out_view = &held[n_held];
    if (get_writable_view(o_out, F32, -1, "out", out_view) < 0)
        goto done;
    n_held++;
    if (out_view->ndim != 2 || out_view->shape[0] != n || out_view->shape[1] < n_cols) {
        PyErr_Format(PyExc_ValueError, "out must have %zd rows of at least %zd columns", n, n_cols);
        goto done;
    }
    const size_t stride = (size_t)out_view->shape[1], col_stride = 1;
    const Py_ssize_t n_el = held[A_PARENTS].len / 8;
    const double *words = held[A_WORDS].buf, *link_words = held[A_LINK].buf, *text = held[A_TEXT].buf,
                 *title = held[A_TITLE].buf;
    const int64_t *chars_i = held[A_CHARS].buf, *bytes_i = held[A_BYTES].buf, *tags = held[A_TAGS].buf,
                  *container = held[A_CONTAINER].buf, *depth_i = held[A_DEPTH].buf, *opener = held[A_OPENER].buf,
                  *bits = held[A_BITS].buf, *parents = held[A_PARENTS].buf;
    const unsigned char *hybrid = held[A_HYBRID].buf;

    if (first == -1 || last == -1) {
        if (first != last) {
            PyErr_SetString(PyExc_ValueError, "first and last must both be -1 without a span");
            goto done;
        }
    } else if (first < 0 || first > last || last >= n) {
        PyErr_Format(PyExc_ValueError, "span %zd..%zd outside the %zd blocks", first, last, n);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (container[i] < 0 || container[i] >= n_el) {
            PyErr_Format(PyExc_ValueError, "container id %lld outside the %zd elements", (long long)container[i], n_el);
            goto done;
        }
        if (opener[i] < 0 || opener[i] >= n_openers) {
            PyErr_Format(PyExc_ValueError, "opener index %lld outside 0..%zd", (long long)opener[i], n_openers - 1);
            goto done;
        }
    }

    result = Py_NewRef(Py_None);
    float *out = held[A_OUT].buf;
    if (n == 0)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        memset(out + (size_t)i * stride, 0, (size_t)n_cols * sizeof(float));

    /* Scratch: 7 per-block doubles, 4 cumulative sums of n + 1, the block ids of a level. */
    scratch = PyMem_Malloc((size_t)(11 * n + 4) * sizeof(double) + (size_t)n * sizeof(int64_t));
    groups = PyMem_Calloc((size_t)n_el, sizeof(Group));
    if (scratch == NULL || groups == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *chars = scratch, *nbytes = chars + n, *density = nbytes + n, *link = density + n, *log_chars = link + n,
           *depth = log_chars + n, *sel = depth + n, *cum = sel + n; /* cum: 4 rows of n + 1 */
    int64_t *ids = (int64_t *)(cum + 4 * (n + 1));

    double sum_words = 0.0, sum_chars = 0.0, sum_link = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        chars[i] = (double)chars_i[i];
        nbytes[i] = np_maximum((double)bytes_i[i], chars[i]);
        density[i] = nbytes[i] > 0 ? chars[i] / nbytes[i] : 0.0;
        link[i] = words[i] > 0 ? link_words[i] / words[i] : 0.0;
        log_chars[i] = log1p_whole(chars[i]);
        depth[i] = (double)depth_i[i];
        sum_words += words[i];
        sum_chars += chars[i];
        sum_link += link_words[i];
    }
    const double total_chars = py_max(sum_chars, 1.0), total_words = py_max(sum_words, 1.0);

    /* Wide window means: differences of running sums, as window_mean. */
    double *c_dens = cum, *c_link = cum + (n + 1), *c_logc = cum + 2 * (n + 1), *c_short = cum + 3 * (n + 1);
    c_dens[0] = c_link[0] = c_logc[0] = c_short[0] = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        c_dens[i + 1] = c_dens[i] + density[i];
        c_link[i + 1] = c_link[i] + link[i];
        c_logc[i + 1] = c_logc[i] + log_chars[i];
        c_short[i + 1] = c_short[i] + (chars[i] < 40.0 ? 1.0 : 0.0);
    }
    double weighted = 0.0;
    for (Py_ssize_t i = 0; i < n; i++)
        weighted += density[i] * chars[i];
    weighted /= total_chars;
    const double med_log_chars = median(log_chars, n, sel);
    const double med_depth = median(depth, n, sel);

    double span_share = 0.0;
    if (first >= 0) {
        double s = 0.0;
        for (Py_ssize_t i = first; i <= last; i++)
            s += words[i];
        span_share = s / total_words;
    }
    Py_ssize_t kept_first = -1, kept_last = -1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (hybrid[i]) {
            if (kept_first < 0)
                kept_first = i;
            kept_last = i;
        }

    const double log_n = log1p_whole((double)n), log_words = log1p_whole(sum_words), link_share = sum_link / total_words;
    const double position_scale = (double)(n - 1 > 1 ? n - 1 : 1);
    double running = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        float *row = out + (size_t)i * stride;
        Py_ssize_t c = 0;
        const double w1 = np_maximum(words[i], 1.0);
        /* shape */
        AT(c++) = (float)log1p_whole(words[i]);
        AT(c++) = (float)log_chars[i];
        AT(c++) = (float)log1p_whole(nbytes[i]);
        AT(c++) = (float)density[i];
        AT(c++) = (float)((double)tags[i] / w1);
        AT(c++) = (float)link[i];
        AT(c++) = (float)(chars[i] / w1 / 10.0);
        /* neighbours -WINDOW..+WINDOW (without 0); beyond the page: 0 and the outside flag */
        for (Py_ssize_t off = -WINDOW; off <= WINDOW; off++) {
            if (!off)
                continue;
            Py_ssize_t j = i + off;
            if (j >= 0 && j < n) {
                AT(c) = (float)density[j];
                AT(c + 1) = (float)log_chars[j];
                AT(c + 2) = (float)link[j];
            } else {
                AT(c + 3) = 1.0f;
            }
            c += 4;
        }
        /* wide window means */
        Py_ssize_t lo = i - WIDE > 0 ? i - WIDE : 0, hi = i + WIDE + 1 < n ? i + WIDE + 1 : n;
        const double count = (double)(hi - lo);
        AT(c++) = (float)((c_dens[hi] - c_dens[lo]) / count);
        AT(c++) = (float)((c_link[hi] - c_link[lo]) / count);
        AT(c++) = (float)((c_logc[hi] - c_logc[lo]) / count);
        AT(c++) = (float)((c_short[hi] - c_short[lo]) / count);
        /* page context */
        running += chars[i]; /* np.cumsum order */
        AT(c++) = (float)(density[i] - weighted);
        AT(c++) = (float)(log_chars[i] - med_log_chars);
        AT(c++) = (float)((double)i / position_scale);
        AT(c++) = (float)((running - chars[i] / 2.0) / total_chars);
        AT(c++) = (float)log_n;
        AT(c++) = (float)log_words;
        AT(c++) = (float)link_share;
        /* BTE span */
        if (first >= 0) {
            Py_ssize_t dist = i < first ? first - i : (i > last ? i - last : 0);
            AT(c) = (float)(i >= first && i <= last);
            AT(c + 1) = (float)log1p_whole((double)dist);
            AT(c + 2) = (float)(i < first);
            AT(c + 3) = (float)(i > last);
            AT(c + 4) = (float)span_share;
        }
        c += 5;
        /* hybrid */
        AT(c++) = hybrid[i] ? 1.0f : 0.0f;
        if (kept_first < 0) {
            AT(c++) = (float)log_n;
        } else {
            Py_ssize_t d0 = i > kept_first ? i - kept_first : kept_first - i;
            Py_ssize_t d1 = i > kept_last ? i - kept_last : kept_last - i;
            AT(c++) = hybrid[i] ? 0.0f : (float)log1p_whole((double)(d0 < d1 ? d0 : d1));
        }
        /* opener one-hot (the index was checked above) */
        AT(c + opener[i]) = 1.0f;
        c += n_openers;
        /* ancestor names and marks, bit k = column k */
        uint64_t b = (uint64_t)bits[i];
        for (Py_ssize_t k = 0; k < n_bits; k++)
            AT(c++) = (float)((b >> k) & 1u);
        /* depth and same container */
        AT(c++) = (float)(depth[i] / 10.0);
        AT(c++) = (float)(depth[i] - med_depth);
        AT(c++) = (float)(i > 0 && container[i] == container[i - 1]);
        AT(c++) = (float)(i + 1 < n && container[i] == container[i + 1]);
    }

    /* Groups: totals over the blocks sharing the container, its parent, its
     * grandparent. Accumulated per element id in block order (np.bincount's
     * order); the largest group is the lowest id among equal maxima, as
     * argmax over the dense relabelling in increasing id order. */
    const Py_ssize_t group_col = N_SHAPE + N_NEIGHBOUR + N_WIDE + N_PAGE + N_SPAN + n_openers + n_bits + N_TAG;
    for (Py_ssize_t i = 0; i < n; i++)
        ids[i] = container[i];
    for (int level = 0; level < N_LEVELS; level++) {
        if (level) {
            for (Py_ssize_t i = 0; i < n; i++) {
                if (ids[i] > 0) {
                    int64_t up = parents[ids[i]];
                    if (up < 0 || up >= n_el) {
                        PyErr_Format(PyExc_ValueError, "parent id %lld outside the %zd elements", (long long)up, n_el);
                        goto done;
                    }
                    ids[i] = up;
                }
            }
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Group *g = &groups[ids[i]];
            g->words += words[i];
            g->link += link_words[i];
            g->chars += chars[i];
            g->bytes += nbytes[i];
            g->blocks += 1.0;
        }
        int64_t best = -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t id = ids[i];
            if (best < 0) {
                best = id;
                continue;
            }
            double w = groups[id].words, top = groups[best].words;
            /* np.argmax over increasing ids: the first NaN, else the lowest id among equal maxima. */
            int better = w != w ? (top == top || id < best) : (top == top && (w > top || (w == top && id < best)));
            if (better)
                best = id;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Group *g = &groups[ids[i]];
            float *row = out + (size_t)i * stride + group_col + level * N_GROUP;
            if (!g->ready) {
                g->columns[0] = (float)log1p_whole(g->words);
                g->columns[1] = (float)(g->words / total_words);
                g->columns[2] = (float)(g->link / np_maximum(g->words, 1.0));
                g->columns[3] = (float)(g->chars / np_maximum(g->bytes, 1.0));
                g->columns[4] = (float)log1p_whole(g->blocks);
                g->ready = 1;
            }
            for (int k = 0; k < 5; k++)
                AT(k) = g->columns[k];
            AT(5) = (float)(ids[i] == best);
        }
        /* Clear only the entries this level touched. */
        for (Py_ssize_t i = 0; i < n; i++)
            memset(&groups[ids[i]], 0, sizeof(Group));
    }
    /* text statistics and title overlap, computed in Python */
    const Py_ssize_t text_col = group_col + N_LEVELS * N_GROUP;
    for (Py_ssize_t i = 0; i < n; i++) {
        float *row = out + (size_t)i * stride + text_col;
        for (int k = 0; k < N_TEXT; k++)
            AT(k) = (float)text[i * N_TEXT + k];
        AT(N_TEXT) = (float)title[i];
    }

done:
    return finish(result, scratch, groups, held, n_held);
}

/* ------------------------------------------------------------------ context features */

PyDoc_STRVAR(context_features_doc,
             "context_features(p, words, container, n_columns) -> bytearray\n\n"
             "The float32 matrix of features.context_features, transposed (n_columns rows\n"
             "of n values):\n"
             "p and words float64, container int64 (ids >= 0), n items each.");

/* Mean of p[i-half..i+half] that exist, from running sums cum[0..n]. */
static inline double window_mean(const double *cum, Py_ssize_t n, Py_ssize_t i, Py_ssize_t half)
{
    Py_ssize_t lo = i - half > 0 ? i - half : 0, hi = i + half + 1 < n ? i + half + 1 : n;
    return (cum[hi] - cum[lo]) / (double)(hi - lo);
}

typedef struct {
    double count, p, pw, words;
} CGroup;

static PyObject *context_features(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o_p, *o_words, *o_container;
    Py_ssize_t n_columns;
    if (!PyArg_ParseTuple(args, "OOOn", &o_p, &o_words, &o_container, &n_columns))
        return NULL;
    if (n_columns != N_CONTEXT) {
        PyErr_Format(PyExc_ValueError, "n_columns is %zd but this build fills %d columns", n_columns, N_CONTEXT);
        return NULL;
    }
    Py_buffer held[3];
    int n_held = 0;
    PyObject *result = NULL;
    double *scratch = NULL;
    CGroup *groups = NULL;
    if (get_array(o_p, F64, -1, "p", held, &n_held) < 0)
        goto done;
    const Py_ssize_t n = held[0].len / 8;
    if (get_array(o_words, F64, n, "words", held, &n_held) < 0 ||
        get_array(o_container, I64, n, "container", held, &n_held) < 0)
        goto done;
    const double *p = held[0].buf, *words = held[1].buf;
    const int64_t *container = held[2].buf;
    int64_t max_id = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (container[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "container ids must be >= 0");
            goto done;
        }
        if (container[i] > max_id)
            max_id = container[i];
    }
    result = PyByteArray_FromStringAndSize(NULL, n * N_CONTEXT * (Py_ssize_t)sizeof(float));
    if (result == NULL || n == 0)
        goto done;
    float *out = (float *)PyByteArray_AS_STRING(result);
    const size_t col_stride = (size_t)n;

    /* running sums of p (n + 1), suffix maxima, run and gap totals (n + 1 each), run and gap ids */
    scratch = PyMem_Malloc((size_t)(4 * (n + 1)) * sizeof(double) + (size_t)(2 * n) * sizeof(int64_t));
    if ((uint64_t)max_id >= (uint64_t)PY_SSIZE_T_MAX / sizeof(CGroup))
        groups = NULL;
    else
        groups = PyMem_Calloc((size_t)max_id + 1, sizeof(CGroup));
    if (scratch == NULL || groups == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *cum = scratch, *after = cum + (n + 1), *run_words = after + (n + 1), *gap_words = run_words + (n + 1);
    int64_t *run_id = (int64_t *)(gap_words + (n + 1)), *gap_id = run_id + n;

    double sum_words = 0.0, kept_words = 0.0, top = p[0];
    Py_ssize_t n_kept = 0, n_runs = 0, n_gaps = 0, last_kept = -1;
    cum[0] = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        cum[i + 1] = cum[i] + p[i];
        top = np_maximum(top, p[i]);
        CGroup *g = &groups[container[i]];
        g->count += 1.0;
        g->p += p[i];
        g->pw += p[i] * words[i];
        g->words += words[i];
        sum_words += words[i];
        /* Runs of kept blocks and the gaps between them: ids as the cumulative
         * sums of their starts in _run_features (a gap before any run is id 1,
         * run ids start at 0, -1 before the first run). */
        int kept = p[i] >= 0.5, prev = i > 0 && p[i - 1] >= 0.5;
        if (kept) {
            if (!prev)
                run_words[n_runs++] = 0.0;
            run_words[n_runs - 1] += words[i];
            kept_words += words[i];
            n_kept++;
            last_kept = i;
        } else {
            if (i == 0 || prev)
                gap_words[++n_gaps] = 0.0;
            gap_words[n_gaps] += words[i];
        }
        run_id[i] = n_runs - 1;
        gap_id[i] = n_gaps;
    }
    after[n] = 0.0;
    for (Py_ssize_t i = n - 1; i >= 0; i--)
        after[i] = i == n - 1 ? p[i] : np_maximum(after[i + 1], p[i]);
    const double total = py_max(sum_words, 1.0), rel = py_max(top, 1e-6);
    const double kept_share = (double)n_kept / (double)n, kept_word_share = kept_words / total;

    /* The main run: most words, the first of equals. */
    Py_ssize_t main_run = -1, main_first = -1, main_last = -1;
    for (Py_ssize_t r = 0; r < n_runs; r++)
        if (main_run < 0 || run_words[r] > run_words[main_run] ||
            (run_words[r] != run_words[r] && run_words[main_run] == run_words[main_run]))
            main_run = r;
    for (Py_ssize_t i = 0; i < n; i++)
        if (p[i] >= 0.5 && run_id[i] == main_run) {
            if (main_first < 0)
                main_first = i;
            main_last = i;
        }

    double before = p[0];
    const double log_n = log1p_whole((double)n);
    for (Py_ssize_t i = 0; i < n; i++) {
        float *row = out + i;
        const CGroup *g = &groups[container[i]];
        before = i ? np_maximum(before, p[i]) : p[0];
        int kept = p[i] >= 0.5;
        AT(0) = (float)p[i];
        AT(1) = (float)window_mean(cum, n, i, 1);
        AT(2) = (float)window_mean(cum, n, i, 3);
        AT(3) = (float)window_mean(cum, n, i, 8);
        AT(4) = i > 0 ? (float)p[i - 1] : 0.0f;
        AT(5) = i + 1 < n ? (float)p[i + 1] : 0.0f;
        AT(6) = (float)after[i];
        AT(7) = (float)before;
        AT(8) = (float)(g->p / g->count);
        AT(9) = (float)(g->pw / np_maximum(g->words, 1e-9));
        AT(10) = (float)top;
        AT(11) = (float)(p[i] / rel);
        AT(12) = (float)kept_share;
        AT(13) = (float)kept_word_share;
        if (n_runs == 0) {
            AT(14) = 0.0f;
            AT(15) = 0.0f;
            AT(16) = (float)log_n;
            AT(17) = 0.0f;
            continue;
        }
        int in_main = kept && run_id[i] == main_run;
        Py_ssize_t d0 = i > main_first ? i - main_first : main_first - i;
        Py_ssize_t d1 = i > main_last ? i - main_last : main_last - i;
        AT(14) = kept ? (float)(run_words[run_id[i]] / total) : 0.0f;
        AT(15) = (float)in_main;
        AT(16) = in_main ? 0.0f : (float)log1p_whole((double)(d0 < d1 ? d0 : d1));
        /* A dropped block between two kept runs: the words of its gap. */
        AT(17) = !kept && run_id[i] >= 0 && i < last_kept ? (float)(gap_words[gap_id[i]] / total) : 0.0f;
    }

done:
    return finish(result, scratch, groups, held, n_held);
}

PyDoc_STRVAR(opener_index_doc,
             "opener_index(openers, index, other) -> bytearray\n\n"
             "Per str of the list `openers`, index.get(opener, other) (an int of the dict `index`):\n"
             "int64 values. features._opener_index in C.");

static PyObject *opener_index(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *openers, *index;
    Py_ssize_t other;
    if (!PyArg_ParseTuple(args, "O!O!n", &PyList_Type, &openers, &PyDict_Type, &index, &other))
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(openers);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (out == NULL)
        return NULL;
    int64_t *values = (int64_t *)PyByteArray_AS_STRING(out);
    /* Each name object's column is looked up once (name_value). */
    name_slot seen[NAME_SLOTS];
    memset(seen, 0, sizeof(seen));
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t value;
        int found = name_value(seen, index, PyList_GET_ITEM(openers, i), &value);
        if (found < 0)
            goto fail;
        values[i] = found ? value : other;
    }
    release_names(seen);
    return out;
fail:
    release_names(seen);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"block_features", block_features, METH_VARARGS, block_features_doc},
    {"opener_index", opener_index, METH_VARARGS, opener_index_doc},
    {"context_features", context_features, METH_VARARGS, context_features_doc},
    {NULL, NULL, 0, NULL},
};



/* This file's functions, added to its submodule of scrapy_bte._native (see _native.c). */
int scrapy_bte_add_features(PyObject *module)
{
    fill_log1p_whole();
    if (PyModule_AddFunctions(module, methods) < 0)
        return -1;
    /* The numeric groups of feature_schema.BLOCK_GROUPS in write order, with the
     * widths this build writes (-1: the caller's n_openers or n_bits);
     * tests/test_features.py names the first column where the schema differs. */
    PyObject *layout = Py_BuildValue("((si)(si)(si)(si)(si)(si)(si)(si)(si)(si))", "shape", N_SHAPE, "neighbours",
                                     N_NEIGHBOUR, "wide", N_WIDE, "page", N_PAGE, "span", N_SPAN, "openers", -1, "path",
                                     -1, "tag", N_TAG, "groups", N_LEVELS * N_GROUP, "text", N_TEXT + 1);
    if (layout == NULL || PyModule_AddObjectRef(module, "LAYOUT", layout) < 0 ||
        PyModule_AddIntConstant(module, "N_CONTEXT", N_CONTEXT) < 0) {
        Py_XDECREF(layout);
        return -1;
    }
    Py_DECREF(layout);
    return 0;
}
