#ifndef CSIMD_BYTES_H
#define CSIMD_BYTES_H
// Helpers the module's C files share (not part of its interface).
#include <stdint.h>
#include <string.h>

/// The eight bytes at `p` as a word, unaligned; little-endian on every target (x86-64, AArch64).
static inline __attribute__((always_inline)) uint64_t csimd_load8(const uint8_t *p) {
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

#endif
