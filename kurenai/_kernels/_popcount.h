/* Bit counting for the LCS kernels, with the POPCNT instruction chosen at run time.
 *
 * x86-64 CPUs before ~2008 lack POPCNT, so a build compiled with -mpopcnt dies
 * with SIGILL on them.  Here the instruction is used only after the CPU said it
 * has it (checked once, when the module is loaded); otherwise a branch-free
 * bit-twiddling count runs.  The flag never changes after loading, so the
 * branch is predicted perfectly: the check costs one cached load.
 * Elsewhere (-mpopcnt builds, ARM, ...) the compiler's builtin is already the
 * best instruction, and MSVC gets the portable count.
 */
#ifndef KURENAI_POPCOUNT_H
#define KURENAI_POPCOUNT_H

#include <stdint.h>

static inline int kurenai_popcount_portable(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int) ((x * 0x0101010101010101ULL) >> 56);
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__POPCNT__)

static int kurenai_has_popcnt = 0;

/* Runs when the shared object is loaded, before the module's init. */
__attribute__((constructor)) static void kurenai_detect_popcnt(void) {
    __builtin_cpu_init();
    kurenai_has_popcnt = __builtin_cpu_supports("popcnt") != 0;
}

/* Out of line: the hot loops keep only the flag test and the instruction. */
__attribute__((cold, noinline)) static int kurenai_popcount_slow(uint64_t x) {
    return kurenai_popcount_portable(x);
}

static inline int kurenai_popcount64(uint64_t x) {
    if (__builtin_expect(kurenai_has_popcnt, 1)) {
        /* Output in the input's register: no false dependency on a stale one. */
        __asm__("popcntq %0, %0" : "+r"(x));
        return (int) x;
    }
    return kurenai_popcount_slow(x);
}

static const char *kurenai_popcount_kind(void) {
    return kurenai_has_popcnt ? "POPCNT (chosen at run time)"
                              : "portable (this CPU has no POPCNT)";
}

#elif defined(__GNUC__) || defined(__clang__)

static inline int kurenai_popcount64(uint64_t x) { return __builtin_popcountll(x); }

static const char *kurenai_popcount_kind(void) {
#if defined(__POPCNT__)
    return "POPCNT (compiled in)";
#else
    return "compiler builtin";
#endif
}

#else

static inline int kurenai_popcount64(uint64_t x) { return kurenai_popcount_portable(x); }

static const char *kurenai_popcount_kind(void) { return "portable"; }

#endif

#endif /* KURENAI_POPCOUNT_H */
