/* One long pair's bit-parallel LCS length on several threads.
 *
 * The bit-parallel state of the longer text ``a`` is a row of 64-bit words
 * (strips); reading token b[j] updates every word, and the only thing word w
 * needs from below is the carry out of word w - 1 at the same token.  So the
 * words form a wavefront: lane k owns a contiguous range of words and reads
 * the tokens of ``b`` in chunks; for each chunk it first waits until lane
 * k - 1 has published the carries out of its top word for those tokens,
 * then runs its words over the chunk and publishes its own.  Every word goes
 * through exactly the states of the serial kernel (``_lcs_length`` in
 * _lcs.pyx), only in another order, so the length is the same.
 *
 * Each lane writes its carries into its own row of ``lb`` bytes, never
 * overwritten: a producer never waits for a consumer, and the one
 * synchronisation is a release store of "tokens done" per chunk, read with
 * an acquire load by the lane above.  Lanes are POSIX threads (the calling
 * thread runs lane 0); where there are none (Windows, compilers without
 * GCC's __atomic builtins) or one fails to start, the caller runs the
 * remaining lanes itself, in order: the same result, serially.
 */
#ifndef KURENAI_LCS_THREADS_H
#define KURENAI_LCS_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_popcount.h"

#if !defined(_WIN32) && (defined(__GNUC__) || defined(__clang__))
#define KURENAI_THREADS 1
#include <pthread.h>
#include <sched.h>
#else
#define KURENAI_THREADS 0
#endif

/* Tokens per chunk at most: a chunk's tokens and carries stay in L1/L2. */
#define KURENAI_MAX_CHUNK 4096
/* Chunks per lane at least, so the pipeline fills quickly (lane k starts
 * k chunks late). */
#define KURENAI_MIN_CHUNKS 8

typedef struct kurenai_lane {
    const int32_t *a;
    const int32_t *b;
    ptrdiff_t la, lb, chunk;
    ptrdiff_t first_word, end_word;   /* the words this lane owns */
    uint64_t *states;                 /* one per owned word */
    uint64_t *mask;                   /* vocabulary-sized, all zero between strips */
    uint8_t *carry;                   /* lb bytes: carries out of the top word */
    const struct kurenai_lane *below; /* NULL for lane 0: no carry in */
    ptrdiff_t done;                   /* tokens whose carries are in ``carry`` */
    ptrdiff_t zeros;                  /* this lane's part of the LCS length */
#if KURENAI_THREADS
    pthread_t thread;
#endif
    int started;
} kurenai_lane;

#if KURENAI_THREADS
static inline ptrdiff_t kurenai_load_acquire(const ptrdiff_t *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void kurenai_store_release(ptrdiff_t *p, ptrdiff_t value) {
    __atomic_store_n(p, value, __ATOMIC_RELEASE);
}
static inline void kurenai_pause(unsigned spins) {
    /* Spin briefly (the lane below is usually a moment away), then let
     * other threads run: cores may be shared. */
    if (spins > 64) {
        sched_yield();
    }
}
#else
static inline ptrdiff_t kurenai_load_acquire(const ptrdiff_t *p) { return *p; }
static inline void kurenai_store_release(ptrdiff_t *p, ptrdiff_t value) { *p = value; }
static inline void kurenai_pause(unsigned spins) { (void) spins; }
#endif

/* The bit-parallel update step, the one copy every LCS kernel uses
 * (_lcs.pyx declares it as _advance): ``state`` of a 64-bit strip after
 * reading one token whose positions in the strip are ``match``.  ``carry``
 * holds the carry in from the strip below and receives the carry out.  Bits
 * past the end of the sequence stay 1: they are never in ``u``. */
static inline uint64_t kurenai_advance(uint64_t state, uint64_t match, uint8_t *carry) {
    uint64_t u = state & match;
    uint64_t s1 = state + u;
    uint64_t s2 = s1 + *carry;
    *carry = (uint8_t) ((s1 < state) | (s2 < s1));
    return s2 | (state & ~u);
}

/* The match masks of the strip t[start:end) (at most 64 positions) into
 * the vocabulary-sized ``mask``, and their removal, which leaves it all zero. */
static inline void kurenai_set_strip(uint64_t *mask, const int32_t *t, ptrdiff_t start,
                                     ptrdiff_t end) {
    ptrdiff_t i;
    for (i = start; i < end; i++) {
        mask[t[i]] |= (uint64_t) 1 << (i - start);
    }
}

static inline void kurenai_clear_strip(uint64_t *mask, const int32_t *t, ptrdiff_t start,
                                       ptrdiff_t end) {
    ptrdiff_t i;
    for (i = start; i < end; i++) {
        mask[t[i]] = 0;
    }
}

/* Strip ``w`` over tokens [c0, c1), its carries in and out in carry[c0:c1].
 * The lane's pointers are copied into locals: stores through ``carry`` (bytes,
 * which may alias anything) would otherwise reload them at every token. */
static inline void kurenai_strip(kurenai_lane *lane, ptrdiff_t w, ptrdiff_t c0, ptrdiff_t c1) {
    const int32_t *a = lane->a;
    const int32_t *b = lane->b;
    uint64_t *mask = lane->mask;
    uint8_t *carry = lane->carry;
    const ptrdiff_t start = w << 6;
    const ptrdiff_t end = start + 64 < lane->la ? start + 64 : lane->la;
    uint64_t state = lane->states[w - lane->first_word];
    ptrdiff_t j;
    kurenai_set_strip(mask, a, start, end);
    for (j = c0; j < c1; j++) {
        state = kurenai_advance(state, mask[b[j]], &carry[j]);
    }
    lane->states[w - lane->first_word] = state;
    kurenai_clear_strip(mask, a, start, end);
}

static void kurenai_lane_run(kurenai_lane *lane) {
    ptrdiff_t c0, c1, w;
    unsigned spins;
    for (c0 = 0; c0 < lane->lb; c0 = c1) {
        c1 = c0 + lane->chunk < lane->lb ? c0 + lane->chunk : lane->lb;
        if (lane->below == NULL) {
            memset(lane->carry + c0, 0, (size_t) (c1 - c0));
        } else {
            for (spins = 0; kurenai_load_acquire(&lane->below->done) < c1; spins++) {
                kurenai_pause(spins);
            }
            memcpy(lane->carry + c0, lane->below->carry + c0, (size_t) (c1 - c0));
        }
        for (w = lane->first_word; w < lane->end_word; w++) {
            kurenai_strip(lane, w, c0, c1);
        }
        kurenai_store_release(&lane->done, c1);
    }
    lane->zeros = 0;
    for (w = lane->first_word; w < lane->end_word; w++) {
        lane->zeros += kurenai_popcount64(~lane->states[w - lane->first_word]);
    }
}

#if KURENAI_THREADS
static void *kurenai_lane_main(void *lane) {
    kurenai_lane_run((kurenai_lane *) lane);
    return NULL;
}

static int kurenai_lane_start(kurenai_lane *lane) {
    lane->started = pthread_create(&lane->thread, NULL, kurenai_lane_main, lane) == 0;
    return lane->started;
}

static void kurenai_lane_join(kurenai_lane *lane) {
    if (lane->started) {
        pthread_join(lane->thread, NULL);
    }
}
#else
static int kurenai_lane_start(kurenai_lane *lane) { lane->started = 0; return 0; }
static void kurenai_lane_join(kurenai_lane *lane) { (void) lane; }
#endif

/* Lanes 1.. on their threads, lane 0 and any lane that did not start here. */
static void kurenai_run_lanes(kurenai_lane *lanes, ptrdiff_t n) {
    ptrdiff_t k, launched = 1;
    while (launched < n && kurenai_lane_start(&lanes[launched])) {
        launched++;
    }
    for (k = 0; k < n; k++) {
        if (k == 0 || k >= launched) {
            kurenai_lane_run(&lanes[k]);
        }
    }
    for (k = 1; k < launched; k++) {
        kurenai_lane_join(&lanes[k]);
    }
}

/* Tokens per chunk: at least KURENAI_MIN_CHUNKS chunks per lane, at most
 * KURENAI_MAX_CHUNK tokens each. */
static ptrdiff_t kurenai_chunk(ptrdiff_t lb, ptrdiff_t lanes) {
    ptrdiff_t chunk = lb / (KURENAI_MIN_CHUNKS * lanes);
    if (chunk > KURENAI_MAX_CHUNK) {
        return KURENAI_MAX_CHUNK;
    }
    return chunk > 0 ? chunk : 1;
}

/* LCS length of a[:la] and b[:lb] (IDs below vocab_size) on up to
 * ``threads`` threads, at most one per word of ``a``; -1 if out of memory. */
static ptrdiff_t kurenai_lcs_length_threads(const int32_t *a, ptrdiff_t la, const int32_t *b,
                                            ptrdiff_t lb, ptrdiff_t vocab_size, int threads) {
    const ptrdiff_t words = (la + 63) >> 6;
    ptrdiff_t n = threads < words ? threads : words, k, w, total = 0;
    kurenai_lane *lanes;
    uint64_t *states, *masks;
    uint8_t *carries;
    if (la == 0 || lb == 0) {
        return 0;
    }
    n = n > 1 ? n : 1;
    lanes = (kurenai_lane *) calloc((size_t) n, sizeof(kurenai_lane));
    states = (uint64_t *) malloc((size_t) words * sizeof(uint64_t));
    masks = (uint64_t *) calloc((size_t) (n * vocab_size + 1), sizeof(uint64_t));
    carries = (uint8_t *) malloc((size_t) (n * lb));
    if (lanes && states && masks && carries) {
        for (w = 0; w < words; w++) {
            states[w] = ~(uint64_t) 0;
        }
        for (k = 0; k < n; k++) {
            kurenai_lane *lane = &lanes[k];
            lane->a = a;
            lane->b = b;
            lane->la = la;
            lane->lb = lb;
            lane->chunk = kurenai_chunk(lb, n);
            lane->first_word = words * k / n;
            lane->end_word = words * (k + 1) / n;
            lane->states = states + lane->first_word;
            lane->mask = masks + k * vocab_size;
            lane->carry = carries + k * lb;
            lane->below = k ? &lanes[k - 1] : NULL;
        }
        kurenai_run_lanes(lanes, n);
        for (k = 0; k < n; k++) {
            total += lanes[k].zeros;
        }
    } else {
        total = -1;
    }
    free(lanes);
    free(states);
    free(masks);
    free(carries);
    return total;
}

#endif /* KURENAI_LCS_THREADS_H */
