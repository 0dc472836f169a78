#ifndef CSIMD_BYTES_H
#define CSIMD_BYTES_H
// Helpers the module's C files share (not part of its interface).
#include <stdint.h>
#include <string.h>

#include "csimd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// `csimd_vector_level()` once it has been measured (-1 before), read inline by the loops that ask it per line.
extern int csimd_measured_level;

/// `csimd_vector_level()` without a call once it has been measured.
static inline __attribute__((always_inline)) int csimd_level_inline(void) {
    const int level = __atomic_load_n(&csimd_measured_level, __ATOMIC_RELAXED);
    return level >= 0 ? level : csimd_vector_level();
}
#else
/// `csimd_vector_level()`, a constant where there is nothing to measure.
static inline int csimd_level_inline(void) { return csimd_vector_level(); }
#endif

/// The eight bytes at `p` as a word, unaligned; little-endian on every target (x86-64, AArch64).
static inline __attribute__((always_inline)) uint64_t csimd_load8(const uint8_t *p) {
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

/// Per byte of `word`, its high bit set where the byte is not zero (bytes compared with a byte `b` by xoring `word`
/// with `b` in every byte first): exact for every byte, as a byte's low seven bits plus 0x7F reach its high bit
/// unless all are 0, with no carry into the next byte.
static inline __attribute__((always_inline)) uint64_t csimd_nonzero_bytes(uint64_t word) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return (((word & low7) + low7) | word) & ~low7;
}

/// Per byte of `word`, its high bit set where the byte is not in a classic header's thread (`[0-9A-Fa-fx]`):
/// exact for every byte (no carry crosses a byte).
static inline __attribute__((always_inline)) uint64_t csimd_non_hex(uint64_t word) {
    const uint64_t high = 0x8080808080808080ull;
    const uint64_t low7 = word & ~high;
    const uint64_t digit = (low7 + 0x5050505050505050ull) & ~(low7 + 0x4646464646464646ull);  // 0x30–0x39
    const uint64_t folded = low7 | 0x2020202020202020ull;
    const uint64_t letter = (folded + 0x1F1F1F1F1F1F1F1Full) & ~(folded + 0x1919191919191919ull);  // a–f, A–F
    const uint64_t not_x = csimd_nonzero_bytes(low7 ^ 0x7878787878787878ull);  // where the byte is not `x`
    return ~((digit | letter | ~not_x) & ~word) & high;
}

/// Per byte of `word`, its high bit set where the byte is no ASCII digit: exact for every byte (a byte's low seven
/// bits, xored with `0`'s, plus 0x76 reach its high bit from 10 up, with no carry into the next byte).
static inline __attribute__((always_inline)) uint64_t csimd_non_digits(uint64_t word) {
    const uint64_t offset = word ^ 0x3030303030303030ull;
    return (((offset & 0x7F7F7F7F7F7F7F7Full) + 0x7676767676767676ull) | offset) & 0x8080808080808080ull;
}

#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#include <arm_neon.h>

/// One bit per byte of four 16-byte vectors of 0xFF or 0 bytes, lowest first (NEON has no byte mask move): each
/// byte weighted by its bit, then summed pairwise three times.
static inline uint64_t csimd_bits(uint8x16_t t0, uint8x16_t t1, uint8x16_t t2, uint8x16_t t3) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t weight = vld1q_u8(weights);
    uint8x16_t sum = vpaddq_u8(vpaddq_u8(vandq_u8(t0, weight), vandq_u8(t1, weight)),
        vpaddq_u8(vandq_u8(t2, weight), vandq_u8(t3, weight)));
    sum = vpaddq_u8(sum, sum);
    return vgetq_lane_u64(vreinterpretq_u64_u8(sum), 0);
}
#endif

#endif
