/* The bootstrap's draws and sums in one pass: NumPy's legacy MT19937 stream,
 * its bounded-integer rule, and rouge-score's order of additions.
 *
 * rouge-score's BootstrapAggregator draws every sample with
 * ``np.random.choice(n, size=n)``, which is the legacy
 * ``RandomState.randint(0, n, size=n)``: NumPy's ``random_bounded_uint64_fill``
 * with ``use_masked=True`` over the range ``rng = n - 1``
 * (numpy/random/src/distributions/distributions.c):
 *   - rng == 0 (one record): every index is 0 and nothing is drawn;
 *   - rng <= 0xFFFFFFFF: one 32-bit word per try, ANDed with the smallest
 *     all-ones mask covering rng, rejected while above rng (the 32-bit path
 *     keeps no buffer between values, so the stream is the same however the
 *     draws are split into calls);
 *   - above: the same with 64-bit words, each the first 32-bit word shifted
 *     up, ORed with the second (``mt19937_next64``).
 * The words are MT19937's, as numpy/random/src/mt19937/mt19937.{h,c} make
 * them: a 624-word key, refilled (twisted) when ``pos`` reaches 624, each word
 * tempered on the way out.  Drawing here from a copy of the generator's state
 * (Python reads it with get_state() and writes it back with set_state()) gives
 * the integers and the final state NumPy's calls would.
 *
 * The sums add the chosen rows one after another to +0.0, as NumPy's
 * ``add.reduce`` along an outer axis does (``np.mean(axis=0)`` of the
 * (records x measures) sample), so the floats are rouge-score's bit for bit;
 * no (samples x records) index array is ever made.
 */
#ifndef KURENAI_RESAMPLE_H
#define KURENAI_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define KURENAI_MT_N 624
#define KURENAI_MT_M 397
/* Indices drawn ahead of the sums: in L1, long enough to overlap the loads. */
#define KURENAI_DRAW_CHUNK 1024

#if defined(__GNUC__) || defined(__clang__)
#define KURENAI_INLINE static inline __attribute__((always_inline))
#define KURENAI_PREFETCH(address) __builtin_prefetch(address)
#else
#define KURENAI_INLINE static __forceinline
#define KURENAI_PREFETCH(address) ((void)(address))
#endif

typedef struct {
    uint32_t key[KURENAI_MT_N];
    int pos; /* next word of key to temper; KURENAI_MT_N: twist first */
} kurenai_mt;

/* NumPy's mt19937_gen: the next 624 words of the key. */
static void kurenai_mt_twist(kurenai_mt *mt) {
    const uint32_t upper = 0x80000000UL, lower = 0x7fffffffUL, matrix = 0x9908b0dfUL;
    uint32_t *key = mt->key, y;
    int i;
    for (i = 0; i < KURENAI_MT_N - KURENAI_MT_M; i++) {
        y = (key[i] & upper) | (key[i + 1] & lower);
        key[i] = key[i + KURENAI_MT_M] ^ (y >> 1) ^ (-(y & 1) & matrix);
    }
    for (; i < KURENAI_MT_N - 1; i++) {
        y = (key[i] & upper) | (key[i + 1] & lower);
        key[i] = key[i + (KURENAI_MT_M - KURENAI_MT_N)] ^ (y >> 1) ^ (-(y & 1) & matrix);
    }
    y = (key[KURENAI_MT_N - 1] & upper) | (key[0] & lower);
    key[KURENAI_MT_N - 1] = key[KURENAI_MT_M - 1] ^ (y >> 1) ^ (-(y & 1) & matrix);
    mt->pos = 0;
}

KURENAI_INLINE uint32_t kurenai_temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680UL;
    y ^= (y << 15) & 0xefc60000UL;
    y ^= (y >> 18);
    return y;
}

KURENAI_INLINE uint32_t kurenai_mt_next32(kurenai_mt *mt) {
    if (mt->pos == KURENAI_MT_N) {
        kurenai_mt_twist(mt);
    }
    return kurenai_temper(mt->key[mt->pos++]);
}

/* Two statements, not one expression: C leaves the order of the two calls in
 * ``a << 32 | b`` unspecified, and NumPy's build takes the high word first. */
KURENAI_INLINE uint64_t kurenai_mt_next64(kurenai_mt *mt) {
    uint64_t high = kurenai_mt_next32(mt);
    return high << 32 | kurenai_mt_next32(mt);
}

/* NumPy's gen_mask: the smallest all-ones mask >= rng. */
KURENAI_INLINE uint64_t kurenai_mask(uint64_t rng) {
    rng |= rng >> 1;
    rng |= rng >> 2;
    rng |= rng >> 4;
    rng |= rng >> 8;
    rng |= rng >> 16;
    rng |= rng >> 32;
    return rng;
}

/* A generator being drawn from, with its key's unread words already
 * tempered: tempering a whole block in one pass runs on vector lanes, where
 * one word at a time cannot.  Each try of a draw also asks the cache for the
 * row it names in ``rows`` (``row_bytes`` apart; NULL: none), so the sums
 * that follow the draws find their rows there instead of waiting on memory
 * (a prefetch never faults, whatever the address). */
typedef struct {
    kurenai_mt *mt;
    const char *rows;
    ptrdiff_t row_bytes;
    uint32_t word[KURENAI_MT_N]; /* word[i] = temper(key[i]) for i >= mt->pos */
} kurenai_words;

static void kurenai_words_temper(kurenai_words *w) {
    int i;
    for (i = w->mt->pos; i < KURENAI_MT_N; i++) {
        w->word[i] = kurenai_temper(w->mt->key[i]);
    }
}

static void kurenai_words_start(kurenai_words *w, kurenai_mt *mt, const void *rows,
                                ptrdiff_t row_bytes) {
    w->mt = mt;
    w->rows = (const char *)rows;
    w->row_bytes = row_bytes;
    kurenai_words_temper(w);
}

/* ``count`` integers in [0, rng], as NumPy's legacy randint(0, rng + 1, size)
 * draws them (see the top of this file). */
static void kurenai_draw(kurenai_words *w, uint64_t rng, uint64_t *out, size_t count) {
    kurenai_mt *mt = w->mt;
    size_t k = 0;
    if (rng == 0) {
        memset(out, 0, count * sizeof *out);
    } else if (rng <= 0xFFFFFFFFULL) {
        const uint32_t bound = (uint32_t)rng, mask = (uint32_t)kurenai_mask(rng);
        /* Locals: ``out`` might alias the struct's fields for the compiler. */
        const char *rows = w->rows;
        const ptrdiff_t row_bytes = w->row_bytes;
        while (k < count) {
            size_t take, i;
            const uint32_t *word;
            if (mt->pos == KURENAI_MT_N) {
                kurenai_mt_twist(mt);
                kurenai_words_temper(w);
            }
            /* Each word gives at most one integer, so ``take`` words cannot
             * overshoot ``count``: one branch-free pass, where every try is
             * written and the count moves on only when it is accepted (a
             * rejection test would be a mispredicted branch a quarter of the
             * time for most sizes). */
            take = (size_t)(KURENAI_MT_N - mt->pos);
            if (take > count - k) {
                take = count - k;
            }
            word = w->word + mt->pos;
            for (i = 0; i < take; i++) {
                uint32_t value = word[i] & mask;
                KURENAI_PREFETCH(rows + (ptrdiff_t)value * row_bytes);
                out[k] = value;
                k += value <= bound;
            }
            mt->pos += (int)take;
        }
    } else {
        const uint64_t mask = kurenai_mask(rng);
        for (; k < count; k++) {
            uint64_t value;
            while ((value = kurenai_mt_next64(mt) & mask) > rng) {
            }
            out[k] = value;
        }
        kurenai_words_temper(w);
    }
}

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

#endif
