/* The bootstrap's draws and sums in one pass: the draws of _resample_mt.h
 * (NumPy's legacy MT19937 stream and its bounded-integer rule), added in
 * rouge-score's order of additions.
 *
 * The sums add the chosen rows one after another to +0.0, as NumPy's
 * ``add.reduce`` along an outer axis does (``np.mean(axis=0)`` of the
 * (records x measures) sample), so the floats are rouge-score's bit for bit;
 * no (samples x records) index array is ever made.
 *
 * Here: the sums one sample at a time (any range, 64-bit draws included);
 * the rows table (each distinct row once, a record -> row map); and the sums
 * several samples side by side over that table.  Kept apart from the
 * generator because this is where the speed is chosen: any order of work
 * here is fine as long as each sum adds its rows in its own order.
 */
#ifndef KURENAI_RESAMPLE_H
#define KURENAI_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_resample_mt.h"

/* Indices drawn ahead of the sums: in L1, long enough to overlap the loads. */
#define KURENAI_DRAW_CHUNK 1024

/* acc[0..width) += the first ``width`` values of the rows idx[0..count) of
 * ``values`` (rows ``stride`` apart), in order.  Inlined with a constant
 * width of at most 4, the sums live in registers (``acc`` might alias
 * ``values`` as far as the compiler knows). */
KURENAI_INLINE void kurenai_add_rows(const double *values, ptrdiff_t stride, ptrdiff_t width,
                                     const uint64_t *idx, size_t count, double *acc) {
    double sum[4];
    size_t j;
    ptrdiff_t k;
    for (k = 0; k < width; k++) {
        sum[k] = acc[k];
    }
    for (j = 0; j < count; j++) {
        const double *row = values + (ptrdiff_t)idx[j] * stride;
        for (k = 0; k < width; k++) {
            sum[k] += row[k];
        }
    }
    for (k = 0; k < width; k++) {
        acc[k] = sum[k];
    }
}

static void kurenai_add_any(const double *values, ptrdiff_t stride, ptrdiff_t width,
                            const uint64_t *idx, size_t count, double *acc) {
    size_t j;
    ptrdiff_t k;
    switch (width) {
    case 1:
        kurenai_add_rows(values, stride, 1, idx, count, acc);
        break;
    case 2:
        kurenai_add_rows(values, stride, 2, idx, count, acc);
        break;
    case 3:
        kurenai_add_rows(values, stride, 3, idx, count, acc);
        break;
    case 4:
        kurenai_add_rows(values, stride, 4, idx, count, acc);
        break;
    default:
        for (j = 0; j < count; j++) {
            for (k = 0; k < width; k++) {
                acc[k] += values[(ptrdiff_t)idx[j] * stride + k];
            }
        }
    }
}

/* For each of ``samples`` resamples of the ``records`` rows of ``values``
 * (row-major, rows ``stride`` >= ``width`` apart: a row of 3 padded to 4
 * never straddles two cache lines), drawn as rouge-score draws them, the sums
 * of the chosen rows' first ``width`` values: out[s * width + k], row after
 * row from +0.0. */
static void kurenai_resample_sums(kurenai_mt *mt, const double *values, ptrdiff_t records,
                                  ptrdiff_t stride, ptrdiff_t width, ptrdiff_t samples,
                                  double *out) {
    uint64_t idx[KURENAI_DRAW_CHUNK];
    kurenai_words words;
    ptrdiff_t s, k;
    kurenai_words_start(&words, mt, values, stride * (ptrdiff_t)sizeof *values);
    for (s = 0; s < samples; s++) {
        double *acc = out + s * width;
        ptrdiff_t done = 0;
        /* From +0.0, as NumPy's add.reduce (-0.0 rows sum to +0.0). */
        for (k = 0; k < width; k++) {
            acc[k] = 0.0;
        }
        while (done < records) {
            size_t count = (size_t)(records - done);
            if (count > KURENAI_DRAW_CHUNK) {
                count = KURENAI_DRAW_CHUNK;
            }
            kurenai_draw(&words, (uint64_t)(records - 1), idx, count);
            kurenai_add_any(values, stride, width, idx, count, acc);
            done += (ptrdiff_t)count;
        }
    }
}


/* ------------------------------------------------------------------------
 * The same sums, several samples at a time.
 *
 * One sample's sum is one chain of dependent additions (row after row, from
 * +0.0), so a sample alone waits on the adder's latency at every row.  But
 * samples are independent: the indices of KURENAI_GROUP consecutive samples
 * are drawn first (the stream is sequential, sample s + 1's draws come after
 * all of sample s's, and the 32-bit rule keeps nothing between values), then
 * the group's sums advance side by side, one row of each sample in turn:
 * KURENAI_GROUP chains in flight, each still adding its rows in its own
 * order, so every sum is the one-sample sum bit for bit.
 *
 * And the rows a bootstrap resamples repeat (the scores of short texts are
 * ratios of small counts): ``kurenai_rows`` keeps each distinct row once
 * (equal bits, so -0.0 and +0.0 stay apart) and a record -> row number map
 * the sums read on the way, so they gather from a table that fits in the
 * first-level cache instead of from all the records.
 * ------------------------------------------------------------------------ */

/* Samples summed side by side. */
#define KURENAI_GROUP 4

/* The rows to resample, laid out for the sums: ``table`` holds rows of
 * ``width`` values ``stride`` apart (a row of 3 padded to 4 with +0.0, so
 * that it is read as two pairs), on a 32-byte boundary.  ``ids`` (NULL: the
 * identity) maps record -> row of ``table``. */
typedef struct {
    double *table;
    uint32_t *ids;
    void *block; /* what ``table`` was carved from */
    ptrdiff_t records, distinct, stride, width;
} kurenai_rows;

KURENAI_INLINE uint64_t kurenai_row_hash(const double *row, ptrdiff_t width) {
    uint64_t hash = 0, bits;
    ptrdiff_t k;
    for (k = 0; k < width; k++) {
        memcpy(&bits, row + k, sizeof bits);
        hash = (hash ^ bits) * 0x9E3779B97F4A7C15ULL;
        hash ^= hash >> 29;
    }
    return hash;
}

static double *kurenai_rows_alloc(kurenai_rows *rows, ptrdiff_t count) {
    char *block = (char *)malloc((size_t)(count * rows->stride) * sizeof(double) + 32);
    rows->block = block;
    if (block == NULL) {
        return NULL;
    }
    return (double *)(block + (32 - (uintptr_t)block % 32));
}

/* The distinct rows of ``values`` (``records`` rows ``values_stride`` apart,
 * their first ``width`` values) and each record's, when there are at most a
 * quarter as many as records and they can be numbered in 32 bits.  0: done;
 * 1: too many (nothing kept); -1: out of memory. */
static int kurenai_rows_distinct(kurenai_rows *rows, const double *values, ptrdiff_t values_stride) {
    const ptrdiff_t records = rows->records, width = rows->width, limit = records / 4;
    size_t slots = 16, slot;
    uint32_t *taken;
    ptrdiff_t i, count = 0;
    if (limit < 1 || (uint64_t)(records - 1) > 0xFFFFFFFFULL) {
        return 1;
    }
    while (slots < 2 * (size_t)limit) {
        slots *= 2;
    }
    taken = (uint32_t *)calloc(slots, sizeof *taken); /* row number + 1; 0: free */
    rows->ids = (uint32_t *)malloc((size_t)records * sizeof *rows->ids);
    rows->table = kurenai_rows_alloc(rows, limit);
    if (taken == NULL || rows->ids == NULL || rows->table == NULL) {
        free(taken);
        return -1;
    }
    for (i = 0; i < records && count <= limit; i++) {
        const double *row = values + i * values_stride;
        slot = (size_t)kurenai_row_hash(row, width) & (slots - 1);
        while (taken[slot] != 0 &&
               memcmp(rows->table + (ptrdiff_t)(taken[slot] - 1) * rows->stride, row,
                      (size_t)width * sizeof *row) != 0) {
            slot = (slot + 1) & (slots - 1);
        }
        if (taken[slot] == 0) {
            if (count == limit) {
                count++;
                break;
            }
            memcpy(rows->table + count * rows->stride, row, (size_t)width * sizeof *row);
            taken[slot] = (uint32_t)++count;
        }
        rows->ids[i] = taken[slot] - 1;
    }
    free(taken);
    if (count > limit) {
        free(rows->ids);
        free(rows->block);
        rows->ids = NULL;
        rows->block = NULL;
        return 1;
    }
    rows->distinct = count;
    return 0;
}

/* ``rows`` for the ``records`` rows of ``values`` (``values_stride`` apart),
 * their first ``width`` values.  0: done; -1: out of memory (nothing kept). */
static int kurenai_rows_init(kurenai_rows *rows, const double *values, ptrdiff_t records,
                             ptrdiff_t values_stride, ptrdiff_t width) {
    ptrdiff_t i;
    int status;
    memset(rows, 0, sizeof *rows);
    rows->records = records;
    rows->width = width;
    rows->stride = width == 3 ? 4 : width;
    status = kurenai_rows_distinct(rows, values, values_stride);
    if (status == 1) {
        /* Every record's row, in a table of its own. */
        rows->table = kurenai_rows_alloc(rows, records);
        rows->distinct = records;
        for (i = 0; rows->table != NULL && i < records; i++) {
            memcpy(rows->table + i * rows->stride, values + i * values_stride,
                   (size_t)width * sizeof *values);
        }
        status = rows->table == NULL ? -1 : 0;
    }
    if (status == 0 && rows->stride != width) {
        for (i = 0; i < rows->distinct; i++) {
            rows->table[i * rows->stride + 3] = 0.0;
        }
    }
    if (status != 0) {
        free(rows->ids);
        free(rows->block);
        memset(rows, 0, sizeof *rows);
    }
    return status;
}

static void kurenai_rows_free(kurenai_rows *rows) {
    free(rows->ids);
    free(rows->block);
    memset(rows, 0, sizeof *rows);
}

#if defined(__GNUC__) || defined(__clang__)
/* Two doubles added lane by lane: each lane's sum is the scalar sum. */
typedef double kurenai_pair __attribute__((vector_size(16)));
KURENAI_INLINE kurenai_pair kurenai_pair_load(const double *from) {
    kurenai_pair pair;
    memcpy(&pair, from, sizeof pair);
    return pair;
}
#define KURENAI_PAIR_ZERO ((kurenai_pair){0.0, 0.0})
#define KURENAI_PAIR_ADD(a, b) ((a) + (b))
#define KURENAI_PAIR_STORE(to, pair) memcpy((to), &(pair), sizeof(pair))
#else
typedef struct {
    double lane[2];
} kurenai_pair;
KURENAI_INLINE kurenai_pair kurenai_pair_load(const double *from) {
    kurenai_pair pair;
    pair.lane[0] = from[0];
    pair.lane[1] = from[1];
    return pair;
}
KURENAI_INLINE kurenai_pair kurenai_pair_add(kurenai_pair a, kurenai_pair b) {
    a.lane[0] += b.lane[0];
    a.lane[1] += b.lane[1];
    return a;
}
static const kurenai_pair kurenai_pair_zero = {{0.0, 0.0}};
#define KURENAI_PAIR_ZERO kurenai_pair_zero
#define KURENAI_PAIR_ADD(a, b) kurenai_pair_add((a), (b))
#define KURENAI_PAIR_STORE(to, pair) memcpy((to), (pair).lane, sizeof((pair).lane))
#endif

/* The sums of KURENAI_GROUP samples side by side: sample i adds the rows
 * of ``table`` that the records ``from[i][0..records)`` name (through
 * ``ids``; NULL: the identity) into ``to[i][0..width)``, from +0.0.
 * Inlined with a constant width and ``ids``, the sums live in registers. */
/* Rows asked of the cache ahead of the sums, when they are the records' own
 * (a table too large for the caches; the distinct rows' table is in them). */
#define KURENAI_AHEAD 16
#define KURENAI_LOOK_AHEAD(i, j, row_values)                                                  \
    if (ids == NULL && (j) + KURENAI_AHEAD < records) {                                      \
        KURENAI_PREFETCH(table + (ptrdiff_t)from[i][(j) + KURENAI_AHEAD] * (row_values));    \
    }
#define KURENAI_ROW(i, j) ((ptrdiff_t)(ids != NULL ? ids[from[i][j]] : from[i][j]))
KURENAI_INLINE void kurenai_add_group(const double *table, ptrdiff_t stride, ptrdiff_t width,
                                      const uint32_t *ids, const uint32_t *const *from,
                                      ptrdiff_t records, double *const *to) {
    ptrdiff_t j, i, k;
    if (width == 1) {
        double sum[KURENAI_GROUP];
        for (i = 0; i < KURENAI_GROUP; i++) {
            sum[i] = 0.0;
        }
        for (j = 0; j < records; j++) {
            for (i = 0; i < KURENAI_GROUP; i++) {
                KURENAI_LOOK_AHEAD(i, j, 1)
                sum[i] += table[KURENAI_ROW(i, j)];
            }
        }
        for (i = 0; i < KURENAI_GROUP; i++) {
            to[i][0] = sum[i];
        }
    } else if (width == 2) {
        kurenai_pair sum[KURENAI_GROUP];
        for (i = 0; i < KURENAI_GROUP; i++) {
            sum[i] = KURENAI_PAIR_ZERO;
        }
        for (j = 0; j < records; j++) {
            for (i = 0; i < KURENAI_GROUP; i++) {
                KURENAI_LOOK_AHEAD(i, j, 2)
                sum[i] = KURENAI_PAIR_ADD(sum[i], kurenai_pair_load(table + KURENAI_ROW(i, j) * 2));
            }
        }
        for (i = 0; i < KURENAI_GROUP; i++) {
            KURENAI_PAIR_STORE(to[i], sum[i]);
        }
    } else if (width <= 4) {
        /* Two pairs (rows of 3 are padded to 4; the fourth lane is dropped). */
        kurenai_pair low[KURENAI_GROUP], high[KURENAI_GROUP];
        double last[2];
        for (i = 0; i < KURENAI_GROUP; i++) {
            low[i] = high[i] = KURENAI_PAIR_ZERO;
        }
        for (j = 0; j < records; j++) {
            for (i = 0; i < KURENAI_GROUP; i++) {
                const double *row = table + KURENAI_ROW(i, j) * 4;
                KURENAI_LOOK_AHEAD(i, j, 4)
                low[i] = KURENAI_PAIR_ADD(low[i], kurenai_pair_load(row));
                high[i] = KURENAI_PAIR_ADD(high[i], kurenai_pair_load(row + 2));
            }
        }
        for (i = 0; i < KURENAI_GROUP; i++) {
            KURENAI_PAIR_STORE(to[i], low[i]);
            KURENAI_PAIR_STORE(last, high[i]);
            memcpy(to[i] + 2, last, (size_t)(width - 2) * sizeof *last);
        }
    } else {
        for (i = 0; i < KURENAI_GROUP; i++) {
            for (k = 0; k < width; k++) {
                to[i][k] = 0.0;
            }
        }
        for (j = 0; j < records; j++) {
            for (i = 0; i < KURENAI_GROUP; i++) {
                const double *row = table + KURENAI_ROW(i, j) * stride;
                for (k = 0; k < width; k++) {
                    to[i][k] += row[k];
                }
            }
        }
    }
}

KURENAI_INLINE void kurenai_add_any_group(const kurenai_rows *rows, const uint32_t *ids,
                                          const uint32_t *const *from, double *const *to) {
    switch (rows->width) {
    case 1:
        kurenai_add_group(rows->table, 1, 1, ids, from, rows->records, to);
        break;
    case 2:
        kurenai_add_group(rows->table, 2, 2, ids, from, rows->records, to);
        break;
    case 3:
        kurenai_add_group(rows->table, 4, 3, ids, from, rows->records, to);
        break;
    case 4:
        kurenai_add_group(rows->table, 4, 4, ids, from, rows->records, to);
        break;
    default:
        kurenai_add_group(rows->table, rows->stride, rows->width, ids, from, rows->records, to);
    }
}

static void kurenai_add_groups(const kurenai_rows *rows, const uint32_t *const *from,
                               double *const *to) {
    if (rows->ids != NULL) {
        kurenai_add_any_group(rows, rows->ids, from, to);
    } else {
        kurenai_add_any_group(rows, NULL, from, to);
    }
}
#undef KURENAI_ROW
#undef KURENAI_LOOK_AHEAD

/* kurenai_resample_sums over ``rows``: out[s * width + k] for ``samples``
 * resamples.  0: done; -1: out of memory (the generator untouched). */
static int kurenai_resample_rows(kurenai_mt *mt, const kurenai_rows *rows, ptrdiff_t samples,
                                 double *out) {
    const ptrdiff_t records = rows->records, width = rows->width;
    ptrdiff_t group = samples < KURENAI_GROUP ? samples : KURENAI_GROUP, s, i;
    const uint32_t *from[KURENAI_GROUP];
    double *to[KURENAI_GROUP];
    double *spare_sums;
    uint32_t *drawn;
    kurenai_words words;
    kurenai_packing packing;
    const int avx2 = kurenai_avx2();
    if ((uint64_t)(records - 1) > 0xFFFFFFFFULL) {
        /* 64-bit draws: one sample at a time (no ids: rows of their own). */
        kurenai_resample_sums(mt, rows->table, records, rows->stride, width, samples, out);
        return 0;
    }
    drawn = (uint32_t *)malloc((size_t)(group * records) * sizeof *drawn);
    spare_sums = (double *)malloc((size_t)width * sizeof *spare_sums);
    if (drawn == NULL || spare_sums == NULL) {
        free(drawn);
        free(spare_sums);
        return -1;
    }
    if (avx2) {
        kurenai_packing_init(&packing);
    }
    kurenai_words_start(&words, mt, NULL, 0);
    for (s = 0; s < samples; s += group) {
        ptrdiff_t count = samples - s < group ? samples - s : group;
        kurenai_draw32(&words, (uint32_t)(records - 1), drawn, (size_t)(count * records),
                       avx2 ? &packing : NULL);
        /* A short last group repeats its first sample into a spare sum. */
        for (i = 0; i < KURENAI_GROUP; i++) {
            from[i] = drawn + (i < count ? i : 0) * records;
            to[i] = i < count ? out + (s + i) * width : spare_sums;
        }
        kurenai_add_groups(rows, from, to);
    }
    free(drawn);
    free(spare_sums);
    return 0;
}

#endif
