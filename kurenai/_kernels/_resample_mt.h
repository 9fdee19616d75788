/* NumPy's legacy MT19937 stream and its bounded-integer rule, in C: the
 * draws of the bootstrap (the sums that consume them are in _resample.h,
 * which includes this file).
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
 * Here: the state, its twist and tempering; the tempered words of a
 * generator being drawn from, refilled a block at a time (scalar, or on AVX2
 * lanes where the processor has them, chosen at run time); and the masked
 * draws, 64-bit and 32-bit (the 32-bit ones also eight at a time on AVX2).
 * Kept apart from the sums because this is the part that must follow NumPy
 * word for word, whatever the sums do with the integers.
 */
#ifndef KURENAI_RESAMPLE_MT_H
#define KURENAI_RESAMPLE_MT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define KURENAI_MT_N 624
#define KURENAI_MT_M 397

#if defined(__GNUC__) || defined(__clang__)
#define KURENAI_INLINE static inline __attribute__((always_inline))
#define KURENAI_PREFETCH(address) __builtin_prefetch(address)
#elif defined(_MSC_VER)
#define KURENAI_INLINE static __forceinline
#define KURENAI_PREFETCH(address) ((void)(address))
#else /* any other C99 compiler */
#define KURENAI_INLINE static inline
#define KURENAI_PREFETCH(address) ((void)(address))
#endif

typedef struct {
    uint32_t key[KURENAI_MT_N];
    int pos; /* next word of key to temper; KURENAI_MT_N: twist first */
} kurenai_mt;

/* NumPy's mt19937_gen: the next 624 words of the key. */
KURENAI_INLINE void kurenai_mt_twist_inline(kurenai_mt *mt) {
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

static void kurenai_mt_twist(kurenai_mt *mt) {
    kurenai_mt_twist_inline(mt);
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

/* The key's next 624 words, twisted and tempered: vector work, compiled
 * twice on x86 (SSE2, every x86-64's; and AVX2's lanes twice as wide, taken
 * when the processor has them), the same words either way. */
KURENAI_INLINE void kurenai_refill_inline(kurenai_words *w) {
    int i;
    kurenai_mt_twist_inline(w->mt);
    for (i = 0; i < KURENAI_MT_N; i++) {
        w->word[i] = kurenai_temper(w->mt->key[i]);
    }
}

static void kurenai_refill_plain(kurenai_words *w) {
    kurenai_refill_inline(w);
}

/* 0: the plain refill even where AVX2 is there (the tests compare the two). */
static int kurenai_avx2_allowed = 1;

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define KURENAI_AVX2 1
__attribute__((target("avx2"))) static void kurenai_refill_avx2(kurenai_words *w) {
    kurenai_refill_inline(w);
}

static int kurenai_avx2(void) {
    return kurenai_avx2_allowed && __builtin_cpu_supports("avx2");
}
#else
#define KURENAI_AVX2 0
static int kurenai_avx2(void) {
    return 0;
}
#endif

/* For the vector draws: per 8-bit mask of accepted lanes, the lanes to
 * keep, first (the rest repeat lane 0), and how many. */
typedef struct {
    uint8_t lane[256][8];
    uint8_t count[256];
} kurenai_packing;

static void kurenai_packing_init(kurenai_packing *packing) {
    int mask, lane, kept;
    for (mask = 0; mask < 256; mask++) {
        kept = 0;
        memset(packing->lane[mask], 0, sizeof packing->lane[mask]);
        for (lane = 0; lane < 8; lane++) {
            if (mask >> lane & 1) {
                packing->lane[mask][kept++] = (uint8_t)lane;
            }
        }
        packing->count[mask] = (uint8_t)kept;
    }
}

/* The scalar draws of kurenai_draw32 from word ``*at`` of the block on, until
 * the block's end or ``count`` values: every try written, kept when accepted
 * (a rejection test would be a mispredicted branch a quarter of the time). */
KURENAI_INLINE size_t kurenai_draw32_tail(const uint32_t *word, int *at, uint32_t mask,
                                          uint32_t bound, uint32_t *out, size_t k, size_t count) {
    size_t take = (size_t)(KURENAI_MT_N - *at), i;
    if (take > count - k) {
        take = count - k; /* each word gives at most one value */
    }
    word += *at;
    for (i = 0; i < take; i++) {
        uint32_t value = word[i] & mask;
        out[k] = value;
        k += value <= bound;
    }
    *at += (int)take;
    return k;
}

#if KURENAI_AVX2
#include <immintrin.h>

/* kurenai_draw32 eight words at a time: mask, test and pack the accepted
 * lanes to the front in vector registers, while at least eight values are
 * wanted (so the eight lanes written stay inside ``out``). */
__attribute__((target("avx2"))) static void kurenai_draw32_avx2(kurenai_words *w, uint32_t bound,
                                                               uint32_t *out, size_t count,
                                                               const kurenai_packing *packing) {
    kurenai_mt *mt = w->mt;
    const uint32_t mask = (uint32_t)kurenai_mask(bound);
    const __m256i masks = _mm256_set1_epi32((int)mask), bounds = _mm256_set1_epi32((int)bound);
    size_t k = 0;
    while (k < count) {
        int at;
        if (mt->pos == KURENAI_MT_N) {
            kurenai_refill_avx2(w);
        }
        at = mt->pos;
        for (; at + 8 <= KURENAI_MT_N && count - k >= 8; at += 8) {
            __m256i value = _mm256_and_si256(
                _mm256_loadu_si256((const __m256i *)(w->word + at)), masks);
            __m256i kept = _mm256_cmpeq_epi32(_mm256_max_epu32(value, bounds), bounds);
            int lanes = _mm256_movemask_ps(_mm256_castsi256_ps(kept));
            __m256i order = _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)packing->lane[lanes]));
            _mm256_storeu_si256((__m256i *)(out + k), _mm256_permutevar8x32_epi32(value, order));
            k += packing->count[lanes];
        }
        k = kurenai_draw32_tail(w->word, &at, mask, bound, out, k, count);
        mt->pos = at;
    }
}
#endif

/* ``count`` integers in [0, bound] (bound <= 0xFFFFFFFF) drawn as
 * kurenai_draw draws them; eight at a time on AVX2 lanes when ``packing`` is
 * given (only where kurenai_avx2() says they are there). */
static void kurenai_draw32(kurenai_words *w, uint32_t bound, uint32_t *out, size_t count,
                           const kurenai_packing *packing) {
    kurenai_mt *mt = w->mt;
    const uint32_t mask = (uint32_t)kurenai_mask(bound);
    size_t k = 0;
    if (bound == 0) {
        memset(out, 0, count * sizeof *out);
        return;
    }
#if KURENAI_AVX2
    if (packing != NULL) {
        kurenai_draw32_avx2(w, bound, out, count, packing);
        return;
    }
#else
    (void)packing;
#endif
    while (k < count) {
        int at;
        if (mt->pos == KURENAI_MT_N) {
            kurenai_refill_plain(w);
        }
        at = mt->pos;
        k = kurenai_draw32_tail(w->word, &at, mask, bound, out, k, count);
        mt->pos = at;
    }
}

#endif
