/* Approximate randomization's trials: NumPy's legacy MT19937 words, one bit
 * a record, and the signed sums they choose.
 *
 * A trial takes ceil(records / 32) words of the stream (what
 * ``RandomState.randint(0, 2**32, size=...)`` draws: the words themselves,
 * no rejection), trial after trial.  Record i is swapped (the two systems'
 * outputs exchanged, so its difference changes sign) when bit i % 32 of the
 * trial's word i / 32 is set.  A trial's sum adds each record's difference,
 * negated when swapped, record after record from +0.0, so every sum is the
 * one a plain loop gives, bit for bit.
 *
 * One trial's sum is one chain of dependent additions, so KURENAI_FLIP_GROUP
 * trials advance side by side (their words drawn first, the stream being
 * sequential): each record's values are read once for the group, the sign
 * of each lane is one bit moved to bit 63, and the lanes' additions are
 * independent (vector lanes, where the compiler has them; compiled twice on
 * x86, plain and AVX2, as the generator's refill).
 */
#ifndef KURENAI_RESAMPLE_FLIP_H
#define KURENAI_RESAMPLE_FLIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_resample_mt.h"

#define KURENAI_FLIP_GROUP 16

/* The stream's next ``count`` 32-bit words, as randint(0, 2**32) draws them. */
static void kurenai_words32(kurenai_words *w, uint32_t *out, size_t count) {
    kurenai_mt *mt = w->mt;
    size_t k = 0;
    while (k < count) {
        size_t take;
        if (mt->pos == KURENAI_MT_N) {
            kurenai_mt_twist(mt);
            kurenai_words_temper(w);
        }
        take = (size_t)(KURENAI_MT_N - mt->pos);
        if (take > count - k) {
            take = count - k;
        }
        memcpy(out + k, w->word + mt->pos, take * sizeof *out);
        mt->pos += (int)take;
        k += take;
    }
}

/* For the group's KURENAI_FLIP_GROUP trials (their words ``words`` apart in
 * ``drawn``), sums[g] over the records of column ``column`` of ``values``
 * (rows ``stride`` apart).  One column at a time: sixteen independent
 * chains keep the adders busy (four vector registers of four lanes), and
 * the lanes' words and sums stay in registers. */
#if defined(__GNUC__) || defined(__clang__)
/* Four lanes a vector (GCC's and clang's vector extensions: two SSE2
 * registers each, or one AVX2 register); casts between them keep the bits. */
typedef double kurenai_f4 __attribute__((vector_size(32)));
typedef uint64_t kurenai_u4 __attribute__((vector_size(32)));
#define KURENAI_FLIP_VECTORS (KURENAI_FLIP_GROUP / 4)

KURENAI_INLINE void kurenai_flip_column_inline(const double *values, ptrdiff_t records,
                                               ptrdiff_t stride, ptrdiff_t column,
                                               const uint32_t *drawn, ptrdiff_t words,
                                               double sums[KURENAI_FLIP_GROUP]) {
    kurenai_f4 acc[KURENAI_FLIP_VECTORS];
    ptrdiff_t start, i, v, lane;
    for (v = 0; v < KURENAI_FLIP_VECTORS; v++) {
        acc[v] = (kurenai_f4){0.0, 0.0, 0.0, 0.0};
    }
    for (start = 0; start < records; start += 32) {
        const ptrdiff_t stop = records - start < 32 ? records : start + 32;
        /* Each lane's word, shifted down a bit per record: bit 0 is the record's. */
        kurenai_u4 bits[KURENAI_FLIP_VECTORS];
        for (v = 0; v < KURENAI_FLIP_VECTORS; v++) {
            const uint32_t *word = drawn + 4 * v * words + (start >> 5);
            bits[v] = (kurenai_u4){word[0], word[words], word[2 * words], word[3 * words]};
        }
        for (i = start; i < stop; i++) {
            uint64_t value;
            kurenai_u4 spread;
            memcpy(&value, values + i * stride + column, sizeof value);
            spread = (kurenai_u4){value, value, value, value};
            for (v = 0; v < KURENAI_FLIP_VECTORS; v++) {
                acc[v] += (kurenai_f4)(spread ^ (bits[v] << 63));
                bits[v] >>= 1;
            }
        }
    }
    for (v = 0; v < KURENAI_FLIP_VECTORS; v++) {
        for (lane = 0; lane < 4; lane++) {
            sums[4 * v + lane] = acc[v][lane];
        }
    }
}
#else
KURENAI_INLINE void kurenai_flip_column_inline(const double *values, ptrdiff_t records,
                                               ptrdiff_t stride, ptrdiff_t column,
                                               const uint32_t *drawn, ptrdiff_t words,
                                               double sums[KURENAI_FLIP_GROUP]) {
    ptrdiff_t i, g;
    for (g = 0; g < KURENAI_FLIP_GROUP; g++) {
        sums[g] = 0.0;
    }
    for (i = 0; i < records; i++) {
        const double value = values[i * stride + column];
        for (g = 0; g < KURENAI_FLIP_GROUP; g++) {
            sums[g] += (drawn[g * words + (i >> 5)] >> (i & 31)) & 1u ? -value : value;
        }
    }
}
#endif

static void kurenai_flip_column_plain(const double *values, ptrdiff_t records, ptrdiff_t stride,
                                      ptrdiff_t column, const uint32_t *drawn, ptrdiff_t words,
                                      double sums[KURENAI_FLIP_GROUP]) {
    kurenai_flip_column_inline(values, records, stride, column, drawn, words, sums);
}

#if KURENAI_AVX2
__attribute__((target("avx2"))) static void
kurenai_flip_column_avx2(const double *values, ptrdiff_t records, ptrdiff_t stride,
                         ptrdiff_t column, const uint32_t *drawn, ptrdiff_t words,
                         double sums[KURENAI_FLIP_GROUP]) {
    kurenai_flip_column_inline(values, records, stride, column, drawn, words, sums);
}
#endif

/* out[t * width + k]: trial t's signed sum of column k of ``values``
 * (records x width, row-major), for ``trials`` trials drawn from ``mt``.
 * 0: done; -1: out of memory (the generator untouched). */
static int kurenai_flip_sums(kurenai_mt *mt, const double *values, ptrdiff_t records,
                             ptrdiff_t width, ptrdiff_t trials, double *out) {
    const ptrdiff_t words = (records + 31) / 32;
    double sums[KURENAI_FLIP_GROUP];
    kurenai_words stream;
    uint32_t *drawn;
    ptrdiff_t t, g, k;
#if KURENAI_AVX2
    const int avx2 = kurenai_avx2();
#endif
    drawn = (uint32_t *)calloc((size_t)(KURENAI_FLIP_GROUP * words), sizeof *drawn);
    if (drawn == NULL) {
        return -1;
    }
    kurenai_words_start(&stream, mt, NULL, 0);
    for (t = 0; t < trials; t += KURENAI_FLIP_GROUP) {
        const ptrdiff_t count = trials - t < KURENAI_FLIP_GROUP ? trials - t : KURENAI_FLIP_GROUP;
        /* A short last group's spare lanes keep older words: summed, never kept. */
        kurenai_words32(&stream, drawn, (size_t)(count * words));
        for (k = 0; k < width; k++) {
#if KURENAI_AVX2
            if (avx2) {
                kurenai_flip_column_avx2(values, records, width, k, drawn, words, sums);
            } else
#endif
            {
                kurenai_flip_column_plain(values, records, width, k, drawn, words, sums);
            }
            for (g = 0; g < count; g++) {
                out[(t + g) * width + k] = sums[g];
            }
        }
    }
    free(drawn);
    return 0;
}

#endif
