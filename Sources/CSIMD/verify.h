#ifndef CSIMD_VERIFY_H
#define CSIMD_VERIFY_H
// The check of a position the vector filter marked: whether a literal of a set begins there. Shared by the
// search (literals.c) and the loop over runs of headers (header_run.c), which inlines it (not part of the
// module's interface).
#include "csimd.h"

#include "bytes.h"

static inline uint8_t csimd_lower(uint8_t byte) { return (uint8_t)(byte - 'A') < 26 ? byte | 0x20 : byte; }

static inline uint64_t csimd_load4(const uint8_t *p) {
    uint32_t word;
    memcpy(&word, p, 4);
    return word;
}

/// ``csimd_lower`` on each byte of a word: bit 5 set in the bytes from `A` to `Z` (bytes of 0x80 and more untouched).
static inline uint64_t csimd_lower8(uint64_t word) {
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    const uint64_t low7 = word & ~high;
    const uint64_t from_a = low7 + (0x80 - 'A') * ones;      // high bit where the 7-bit value is 'A' or more
    const uint64_t past_z = low7 + (0x80 - 'Z' - 1) * ones;  // high bit where it is past 'Z'
    return word | ((from_a & ~past_z & ~word & high) >> 2);
}

/// The slot of a head (its first four bytes, or three, with bit 5 of each set) among 256.
static inline uint32_t csimd_slot(uint32_t head) { return (head * 0x9E3779B1u) >> 24; }

/// Whether literal k is at `position` (inside the buffer), compared without ASCII case. (Always inlined: the loop
/// over runs of headers, inlined twice, otherwise calls it.)
static inline __attribute__((always_inline)) int csimd_literal_at(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t position, int32_t k) {
    const int32_t start = set->offsets[k];
    const size_t length = (size_t)(set->offsets[k + 1] - start);
    if (position + length > count) return 0;
    const uint8_t *literal = set->bytes + start;
    const uint8_t *text = bytes + position;
    if (length >= 8) {
        // Eight bytes at a time, the last word overlapping the one before (both buffers hold `length` bytes).
        size_t i = 0;
        for (; i + 8 < length; i += 8) {
            if (csimd_lower8(csimd_load8(text + i)) != csimd_load8(literal + i)) return 0;
        }
        return csimd_lower8(csimd_load8(text + length - 8)) == csimd_load8(literal + length - 8);
    }
    if (length >= 4) {
        // The first four and the last four bytes (overlapping for fewer than eight).
        return (uint32_t)csimd_lower8(csimd_load4(text)) == csimd_load4(literal)
            && (uint32_t)csimd_lower8(csimd_load4(text + length - 4)) == csimd_load4(literal + length - 4);
    }
    size_t i = 0;
    while (i < length && csimd_lower(text[i]) == literal[i]) i++;
    return i == length;
}

/// The lowest-numbered literal of `buckets` that begins at `position`, or -1 (with `any`, some literal that
/// begins there, not always the lowest). Every literal that begins there is in `buckets` (the vector filter lets
/// no match through unmarked), so with four bytes left the heads' slots answer directly: the lowest literal of
/// four bytes or more with this head, then a lower three-byte one. A literal is compared only when the text's
/// first eight bytes (fewer where the buffer ends) agree with its head: log messages hold many words that begin
/// as a keyword does (`activity`, `loaded`, `debug`), and the chains are walked for each of them.
static inline __attribute__((always_inline)) int32_t csimd_verify(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t position, uint32_t buckets, int any) {
    int32_t best = -1;
    const size_t room = position < count ? count - position : 0;
    uint64_t head = 0;
    if (room >= 8) {
        head = csimd_load8(bytes + position);
    } else {
        memcpy(&head, bytes + position, room);
    }
    // Past the buffer's end the word holds 0x20 bytes: only a literal too long to be there can agree with them.
    head |= 0x2020202020202020ull;
    if (room >= 4 && set->slots) {
        for (int32_t k = set->slots[csimd_slot((uint32_t)head)]; k >= 0; k = set->chain[k]) {
            if ((head & set->head_masks[k]) == set->heads[k] && csimd_literal_at(set, bytes, count, position, k)) {
                best = k;
                break;
            }
        }
        if (set->has_short && !(any && best >= 0)) {
            const uint32_t short_head = (uint32_t)head & 0x00FFFFFFu;
            for (int32_t k = set->slots[256 + csimd_slot(short_head)]; k >= 0 && (best < 0 || k < best);
                 k = set->chain[k]) {
                if ((head & set->head_masks[k]) == set->heads[k] &&
                    csimd_literal_at(set, bytes, count, position, k)) {
                    best = k;
                    break;
                }
            }
        }
        return best;
    }
    while (buckets) {
        const int b = __builtin_ctz(buckets);
        buckets &= buckets - 1;
        for (int32_t m = set->starts[b]; m < set->starts[b + 1]; m++) {
            const int32_t k = set->members[m];
            if (best >= 0 && k >= best) break;  // members ascend: no lower number left in this bucket
            if ((head & set->head_masks[k]) != set->heads[k]) continue;
            if (csimd_literal_at(set, bytes, count, position, k)) best = k;
        }
    }
    return best;
}

#endif
