// CRC-32 (gzip's, zlib's `crc32`) with carry-less multiplication: the gzip members' check computed over what
// inflate writes, at about 0.1 instructions a byte where zlib's table walk takes several. Folding by four 128-bit
// lanes with PCLMULQDQ, then a Barrett reduction, as Intel's "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ" (2009) and the Linux kernel's crc32-pclmul do it, with their constants for the bit-reflected
// polynomial 0xEDB88320; the ARMv8 CRC32 instructions where the compiler targets them (Apple silicon).
#include <stdlib.h>

#include "csimd.h"

#if !(defined(__aarch64__) && defined(__ARM_FEATURE_CRC32))
/// The bit-at-a-time update (no pre- or post-inversion): the lengths under 64 bytes and the tails under 16.
static uint32_t csimd_crc32_bits(uint32_t crc, const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
    return crc;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

static int csimd_clmul = -1;

int csimd_crc32_available(void) {
    int available = __atomic_load_n(&csimd_clmul, __ATOMIC_RELAXED);
    if (available < 0) {
        __builtin_cpu_init();
        available = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") && !getenv("CSIMD_NO_CLMUL");
        __atomic_store_n(&csimd_clmul, available, __ATOMIC_RELAXED);
    }
    return available;
}

/// x ↦ x·k folded: the low halves' product and the high halves'.
__attribute__((target("pclmul,sse4.1"))) static inline __m128i csimd_fold(__m128i x, __m128i k) {
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/// The update over `count` bytes, `count` at least 64 and a multiple of 16.
__attribute__((target("pclmul,sse4.1"))) static uint32_t csimd_crc32_clmul(
    uint32_t crc, const uint8_t *p, size_t count) {
    const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
    const __m128i poly = _mm_set_epi64x(0x1f7011641, 0x1db710641);
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i x1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)crc));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(p + 48));
    p += 64;
    count -= 64;
    while (count >= 64) {
        x1 = _mm_xor_si128(csimd_fold(x1, k1k2), _mm_loadu_si128((const __m128i *)p));
        x2 = _mm_xor_si128(csimd_fold(x2, k1k2), _mm_loadu_si128((const __m128i *)(p + 16)));
        x3 = _mm_xor_si128(csimd_fold(x3, k1k2), _mm_loadu_si128((const __m128i *)(p + 32)));
        x4 = _mm_xor_si128(csimd_fold(x4, k1k2), _mm_loadu_si128((const __m128i *)(p + 48)));
        p += 64;
        count -= 64;
    }
    x1 = _mm_xor_si128(csimd_fold(x1, k3k4), x2);
    x1 = _mm_xor_si128(csimd_fold(x1, k3k4), x3);
    x1 = _mm_xor_si128(csimd_fold(x1, k3k4), x4);
    while (count >= 16) {
        x1 = _mm_xor_si128(csimd_fold(x1, k3k4), _mm_loadu_si128((const __m128i *)p));
        p += 16;
        count -= 16;
    }
    // 128 bits to 64 (and 32 zero bits appended), then to 32.
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(k3k4, x1, 0x01));
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00), x2);
    // Barrett reduction, bit-reflected.
    x2 = x1;
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x00);
    return (uint32_t)_mm_extract_epi32(_mm_xor_si128(x1, x2), 1);
}

uint32_t csimd_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    crc = ~crc;
    if (count >= 64) {
        const size_t folded = count & ~(size_t)15;
        crc = csimd_crc32_clmul(crc, bytes, folded);
        bytes += folded;
        count -= folded;
    }
    return ~csimd_crc32_bits(crc, bytes, count);
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
#include <string.h>

int csimd_crc32_available(void) { return 1; }

uint32_t csimd_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    crc = ~crc;
    for (; count >= 8; bytes += 8, count -= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        crc = __crc32d(crc, word);
    }
    for (; count > 0; bytes++, count--) crc = __crc32b(crc, *bytes);
    return ~crc;
}

#else

int csimd_crc32_available(void) { return 0; }

uint32_t csimd_crc32(uint32_t crc, const uint8_t *bytes, size_t count) { return ~csimd_crc32_bits(~crc, bytes, count); }

#endif
