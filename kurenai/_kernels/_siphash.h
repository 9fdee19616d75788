/* The strong hash of the C interning table (kurenai/_kernels/_text_intern.pxd),
 * and the unaligned loads its token comparison uses.
 *
 * SipHash-1-3 (Aumasson & Bernstein; CPython's str hash) of a token's code
 * points, keyed per process: crafted tokens cannot be made to collide, so the
 * table's probe chains stay short whatever the input.  Code points (21 bits,
 * three a 64-bit block), not bytes: equal tokens hash equally whatever their
 * string's kind.
 *
 * No state lives here: the caller passes the key (kurenai/_fused.pyx holds
 * the one copy), so any number of modules may include this header.
 */
#ifndef KURENAI_FUSED_HASH_H
#define KURENAI_FUSED_HASH_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

#define KURENAI_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define KURENAI_SIPROUND(v0, v1, v2, v3) do { \
    v0 += v1; v1 = KURENAI_ROTL(v1, 13); v1 ^= v0; v0 = KURENAI_ROTL(v0, 32); \
    v2 += v3; v3 = KURENAI_ROTL(v3, 16); v3 ^= v2; \
    v0 += v3; v3 = KURENAI_ROTL(v3, 21); v3 ^= v0; \
    v2 += v1; v1 = KURENAI_ROTL(v1, 17); v1 ^= v2; v2 = KURENAI_ROTL(v2, 32); \
} while (0)
#define KURENAI_SIP_BLOCKS(T) do { \
    const T *u = (const T *) data; \
    for (; i + 3 <= length; i += 3) { \
        m = (uint64_t) u[i] | (uint64_t) u[i + 1] << 21 | (uint64_t) u[i + 2] << 42; \
        v3 ^= m; KURENAI_SIPROUND(v0, v1, v2, v3); v0 ^= m; \
    } \
    m = (uint64_t) (length & 0xFF) << 56; \
    if (length - i > 0) m |= (uint64_t) u[i]; \
    if (length - i > 1) m |= (uint64_t) u[i + 1] << 21; \
} while (0)

/* SipHash-1-3 under ``key`` of the ``length`` code points at ``data``, a
 * string buffer of ``kind`` (1, 2 or 4) bytes a code point. */
static inline uint64_t kurenai_sip13(const uint64_t *key, const void *data, int kind,
                                     Py_ssize_t length) {
    uint64_t v0 = key[0] ^ 0x736f6d6570736575ULL;
    uint64_t v1 = key[1] ^ 0x646f72616e646f6dULL;
    uint64_t v2 = key[0] ^ 0x6c7967656e657261ULL;
    uint64_t v3 = key[1] ^ 0x7465646279746573ULL;
    uint64_t m;
    Py_ssize_t i = 0;
    if (kind == 1) KURENAI_SIP_BLOCKS(uint8_t);
    else if (kind == 2) KURENAI_SIP_BLOCKS(uint16_t);
    else KURENAI_SIP_BLOCKS(uint32_t);
    v3 ^= m; KURENAI_SIPROUND(v0, v1, v2, v3); v0 ^= m;
    v2 ^= 0xFF;
    KURENAI_SIPROUND(v0, v1, v2, v3);
    KURENAI_SIPROUND(v0, v1, v2, v3);
    KURENAI_SIPROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

/* Unaligned loads of 2, 4 or 8 bytes (memcpy compiles to one mov). */
static inline uint64_t kurenai_load8(const char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t kurenai_load4(const char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint16_t kurenai_load2(const char *p) { uint16_t v; memcpy(&v, p, 2); return v; }

#endif /* KURENAI_FUSED_HASH_H */
