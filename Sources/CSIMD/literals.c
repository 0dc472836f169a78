#include "csimd.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "verify.h"

void csimd_literals_add(csimd_literals *set, const uint8_t *literal, size_t length, int bucket) {
    const uint8_t bit = (uint8_t)(1u << (bucket & 7));
    for (size_t f = 0; f < CSIMD_FOLDED_POSITIONS; f++) {
        if (f >= length) {
            if (f < CSIMD_POSITIONS) {
                for (int nibble = 0; nibble < 16; nibble++) {
                    set->low[f][nibble] |= bit;
                    set->high[f][nibble] |= bit;
                }
            }
            for (int entry = 0; entry < 64; entry++) set->folded[f][entry] |= bit;
            continue;
        }
        // Compared without ASCII case, as bytes with bit 5 set: the low nibble is the same either way, and the
        // high one is accepted with and without its bit 1 (bit 5 of the byte), so the search needs no folding.
        const uint8_t byte = literal[f] | 0x20;
        if (f < CSIMD_POSITIONS) {
            set->low[f][byte & 0x0F] |= bit;
            set->high[f][byte >> 4] |= bit;
            set->high[f][(byte >> 4) & ~2] |= bit;
        }
        set->folded[f][byte & 0x3F] |= bit;
        set->folded[f][byte & 0x1F] |= bit;
    }
    for (int f = 0; f < CSIMD_POSITIONS; f++) {
        memcpy(set->wide[f], set->low[f], 16);
        memcpy(set->wide[f] + 16, set->low[f], 16);
        memcpy(set->wide[CSIMD_POSITIONS + f], set->high[f], 16);
        memcpy(set->wide[CSIMD_POSITIONS + f] + 16, set->high[f], 16);
    }
}

void csimd_literals_index(csimd_literals *set, int32_t count, int32_t *slots, int32_t *chain) {
    for (int i = 0; i < 512; i++) slots[i] = -1;
    set->has_short = 0;
    // From the last literal to the first, each put at the front of its chain: the chains ascend.
    for (int32_t k = count - 1; k >= 0; k--) {
        const int is_short = set->offsets[k + 1] - set->offsets[k] == 3;
        const uint32_t slot = csimd_slot((uint32_t)set->heads[k]) + (is_short ? 256 : 0);
        chain[k] = slots[slot];
        slots[slot] = k;
        if (is_short) set->has_short = 1;
    }
    set->slots = slots;
    set->chain = chain;
}

int32_t csimd_literal_verify(const csimd_literals *set, const uint8_t *bytes, size_t count, size_t position) {
    return position + 3 <= count ? csimd_verify(set, bytes, count, position, 0xFF, 0) : -1;
}

size_t csimd_verify_marks(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t valid, uint64_t *candidates) {
    size_t kept = 0;
    const size_t words = (count + 63) / 64;
    for (size_t word = 0; word < words; word++) {
        uint64_t bits = candidates[word];
        if (bits == 0) continue;
        uint64_t keep = bits;
        do {
            const unsigned bit = (unsigned)__builtin_ctzll(bits);
            bits &= bits - 1;
            const size_t position = (word << 6) | bit;
            if (position + 3 > valid || csimd_verify(set, bytes, valid, position, 0xFF, 1) < 0) {
                keep &= ~(1ull << bit);
            }
        } while (bits);
        candidates[word] = keep;
        kept += (size_t)__builtin_popcountll(keep);
    }
    return kept;
}

/// Clears the bits past `count` in the last word of both of `csimd_scan`'s bitmaps.
static inline void csimd_clear_past(size_t count, uint64_t *newlines, uint64_t *candidates) {
    if (count % 64 == 0) return;
    const uint64_t kept = (1ull << (count % 64)) - 1;
    newlines[count / 64] &= kept;
    candidates[count / 64] &= kept;
}

/// The bits of the last `count` (< 64) bytes that are `byte`, one by one.
static inline uint64_t csimd_byte_tail(const uint8_t *bytes, size_t count, uint8_t byte) {
    uint64_t word = 0;
    for (size_t i = 0; i < count; i++) word |= (uint64_t)(bytes[i] == byte) << i;
    return word;
}

/// The bits of the positions p of the first 64 of `count` bytes where `first` is followed by `second` (p + 1 <
/// `count`), one by one.
static inline uint64_t csimd_pair_tail(const uint8_t *bytes, size_t count, uint8_t first, uint8_t second) {
    uint64_t word = 0;
    for (size_t i = 0; i + 1 < count && i < 64; i++) {
        word |= (uint64_t)(bytes[i] == first && bytes[i + 1] == second) << i;
    }
    return word;
}

/// Opening minus closing brackets (`{([` and `})]`) among the last `count` bytes, one by one.
static inline int64_t csimd_bracket_tail(const uint8_t *bytes, size_t count) {
    int64_t balance = 0;
    for (size_t i = 0; i < count; i++) {
        switch (bytes[i]) {
        case '{': case '(': case '[': balance++; break;
        case '}': case ')': case ']': balance--; break;
        default: break;
        }
    }
    return balance;
}

void csimd_span_table(uint64_t low, uint64_t high, uint8_t table[16]) {
    for (int nibble = 0; nibble < 16; nibble++) {
        uint8_t row = 0;
        for (int h = 0; h < 8; h++) {
            const int byte = h << 4 | nibble;
            const uint64_t word = byte < 64 ? low : high;
            if ((word >> (byte & 63)) & 1) row |= (uint8_t)(1u << h);
        }
        table[nibble] = row;
    }
}

/// `csimd_span_end` from `index`, byte by byte.
static inline size_t csimd_span_tail(const uint8_t *bytes, size_t index, size_t count, const uint8_t *table) {
    while (index < count && (bytes[index] >= 0x80 || (table[bytes[index] & 0x0F] >> (bytes[index] >> 4)) & 1)) index++;
    return index;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

int csimd_measured_level = -1;

int csimd_vector_level(void) {
    int level = __atomic_load_n(&csimd_measured_level, __ATOMIC_RELAXED);
    if (level < 0) {
        __builtin_cpu_init();
        level = __builtin_cpu_supports("avx512bw") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
        if (level == 2 && getenv("CSIMD_NO_AVX512")) level = 1;
        __atomic_store_n(&csimd_measured_level, level, __ATOMIC_RELAXED);
    }
    return level;
}

static int csimd_vbmi = -1;

/// Whether `csimd_scan` looks bytes up whole (AVX-512 VBMI, with level 2; not with `CSIMD_NO_VBMI` in the
/// environment, so that the harness checks the nibble path on such a processor too).
static int csimd_has_vbmi(void) {
    int vbmi = __atomic_load_n(&csimd_vbmi, __ATOMIC_RELAXED);
    if (vbmi < 0) {
        vbmi = csimd_vector_level() == 2 && __builtin_cpu_supports("avx512vbmi") && !getenv("CSIMD_NO_VBMI");
        __atomic_store_n(&csimd_vbmi, vbmi, __ATOMIC_RELAXED);
    }
    return vbmi;
}

/// The marks of `byte` in the 64 bytes at `p`.
__attribute__((target("avx2"))) static inline uint64_t csimd_bytes64(const uint8_t *p, uint8_t byte) {
    const __m256i v = _mm256_set1_epi8((char)byte);
    const uint32_t low = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)p), v));
    const uint32_t high =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(p + 32)), v));
    return (uint64_t)high << 32 | low;
}

/// What the functions built on `csimd_bytes64` need to inline it (after the `#endif`).
#define CSIMD_BYTES64_TARGET __attribute__((target("avx2")))

/// Opening minus closing brackets among the bytes of `v` that `keep` marks (bit i for byte i).
__attribute__((target("avx2,popcnt"))) static inline int64_t csimd_bracket_block(__m256i v, uint32_t keep) {
    const __m256i opens = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('{')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('('))),
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8('[')));
    const __m256i closes = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('}')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8(')'))),
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8(']')));
    return (int64_t)__builtin_popcount((uint32_t)_mm256_movemask_epi8(opens) & keep) -
           (int64_t)__builtin_popcount((uint32_t)_mm256_movemask_epi8(closes) & keep);
}

__attribute__((target("avx2,popcnt"))) static int64_t csimd_bracket_balance_avx2(const uint8_t *bytes, size_t count) {
    int64_t balance = 0;
    size_t i = 0;
    for (; i + 32 <= count; i += 32) balance += csimd_bracket_block(_mm256_loadu_si256((const __m256i *)(bytes + i)), ~0u);
    const size_t rest = count - i;
    if (rest == 0) return balance;
    if (count >= 32) {
        // The last 32 bytes, of which the first 32 - rest were counted.
        return balance + csimd_bracket_block(_mm256_loadu_si256((const __m256i *)(bytes + count - 32)), ~0u << (32 - rest));
    }
    // Fewer than 32 bytes in all: the whole four-byte words by a masked load (which reads nothing past them), then
    // the last one to three bytes.
    const size_t words = rest / 4;
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)words), lanes);
    const __m256i v = _mm256_maskload_epi32((const int *)(bytes + i), mask);
    const uint32_t keep = words == 8 ? ~0u : (1u << (4 * words)) - 1;
    return balance + csimd_bracket_block(v, keep) + csimd_bracket_tail(bytes + i + 4 * words, rest - 4 * words);
}

int64_t csimd_bracket_balance(const uint8_t *bytes, size_t count, int vectors) {
    return vectors ? csimd_bracket_balance_avx2(bytes, count) : csimd_bracket_tail(bytes, count);
}

/// `csimd_span_end`, 32 bytes a step: per byte, the table's row for its low nibble (`vpshufb`) and the bit for its
/// high nibble (0 for 8–15, from a second table), then the bytes whose row lacks the bit and whose sign bit is clear.
__attribute__((target("avx2"))) static size_t csimd_span_end_avx2(
    const uint8_t *bytes, size_t count, const uint8_t *table) {
    const __m256i rows = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
    const __m256i bits = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32,
        64, (char)128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(bytes + i));
        const __m256i row = _mm256_shuffle_epi8(rows, _mm256_and_si256(v, nibble));
        const __m256i bit = _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
        const uint32_t outside =
            (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(row, bit), _mm256_setzero_si256()));
        const uint32_t stops = outside & ~(uint32_t)_mm256_movemask_epi8(v);
        if (stops) return i + (size_t)__builtin_ctz(stops);
    }
    return csimd_span_tail(bytes, i, count, table);
}

size_t csimd_span_end(const uint8_t *bytes, size_t count, const uint8_t table[16]) {
    return csimd_vector_level() ? csimd_span_end_avx2(bytes, count, table) : csimd_span_tail(bytes, 0, count, table);
}

__attribute__((target("avx2"))) static inline __m256i csimd_buckets(__m256i bytes, __m256i low, __m256i high) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i lo = _mm256_and_si256(bytes, nibble);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble);
    return _mm256_and_si256(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi));
}

/// The buckets that survive at each of the 32 positions starting at `p` (reads p[0] to p[35]).
__attribute__((target("avx2"), no_sanitize("address"))) static inline __m256i csimd_block(const uint8_t *p, const __m256i *tables) {
#define CSIMD_AT(n) \
    csimd_buckets(_mm256_loadu_si256((const __m256i *)(p + (n))), _mm256_loadu_si256(tables + (n)), \
        _mm256_loadu_si256(tables + CSIMD_POSITIONS + (n)))
    return _mm256_and_si256(
        _mm256_and_si256(_mm256_and_si256(CSIMD_AT(0), CSIMD_AT(1)), _mm256_and_si256(CSIMD_AT(2), CSIMD_AT(3))),
        CSIMD_AT(4));
#undef CSIMD_AT
}

/// Verifies the candidates `hits` of one block (`base` is the block's first position in `bytes`). Out of line:
/// most blocks have none, and the loop over blocks stays small.
__attribute__((target("avx2"), noinline)) static size_t csimd_verify_block(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t base, __m256i r, uint32_t hits,
    int32_t *literal) {
    uint8_t buckets[32];
    _mm256_storeu_si256((__m256i *)buckets, r);
    while (hits) {
        const int i = __builtin_ctz(hits);
        hits &= hits - 1;
        const int32_t k = csimd_verify(set, bytes, count, base + (size_t)i, buckets[i], 0);
        if (k >= 0) {
            *literal = k;
            return base + (size_t)i;
        }
    }
    return count;
}

/// The candidates of one block, verified (`valid` masks the positions that lie inside the buffer).
__attribute__((target("avx2"), always_inline)) static inline size_t csimd_candidates(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t base, __m256i r, uint32_t valid,
    int32_t *literal) {
    const uint32_t hits = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, _mm256_setzero_si256())) & valid;
    return hits ? csimd_verify_block(set, bytes, count, base, r, hits, literal) : count;
}

__attribute__((target("avx2"), no_sanitize("address"))) size_t csimd_literals_find(
    const csimd_literals *set, const uint8_t *bytes, size_t count, int32_t *literal) {
    const __m256i *tables = (const __m256i *)set->wide;
    size_t i = 0;
    for (; i + 36 <= count; i += 32) {
        const size_t found = csimd_candidates(set, bytes, count, i, csimd_block(bytes + i, tables), ~0u, literal);
        if (found < count) return found;
    }
    // The last positions (at most 35, of which fewer than 34 can begin a literal of three bytes or more: one block,
    // and rarely a second for one position). A block reads 36 bytes from `i`: past the end of the buffer, which is
    // harmless while the read stays inside the page where the buffer's last bytes are (memory is mapped a page at
    // a time); the positions past the end are masked out and a literal is only ever compared inside the buffer.
    // Where the read would cross into the next page, the bytes are copied into a zero-padded block instead.
    for (; i + 2 < count; i += 32) {
        const size_t rest = count - i;
        const uint32_t valid = rest - 2 >= 32 ? ~0u : (1u << (rest - 2)) - 1;
        const uintptr_t page = 4096;
        __m256i r;
        if (((uintptr_t)(bytes + i) & (page - 1)) <= page - 36) {
            r = csimd_block(bytes + i, tables);
        } else {
            uint8_t tail[64] = {0};
            memcpy(tail, bytes + i, rest);
            r = csimd_block(tail, tables);
        }
        const size_t found = csimd_candidates(set, bytes, count, i, r, valid, literal);
        if (found < count) return found;
    }
    return count;
}

/// Bit p of the result: a bucket survives at position p of the 64 starting at `p` (AVX2: two blocks of 32).
__attribute__((target("avx2"), no_sanitize("address"))) static inline uint64_t csimd_marks_avx2(
    const uint8_t *p, const __m256i *tables) {
    const __m256i zero = _mm256_setzero_si256();
    const uint32_t low = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(csimd_block(p, tables), zero));
    const uint32_t high = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(csimd_block(p + 32, tables), zero));
    return (uint64_t)high << 32 | low;
}

__attribute__((target("avx2"), no_sanitize("address"))) static void csimd_scan_avx2(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates) {
    const __m256i *tables = (const __m256i *)set->wide;
    for (size_t i = 0; i < count; i += 64) {
        newlines[i / 64] = csimd_bytes64(bytes + i, 0x0A);
        candidates[i / 64] = csimd_marks_avx2(bytes + i, tables);
    }
}

/// AVX-512: 64 positions per step, the nibble tables in four lanes each, the marks straight from mask registers.
__attribute__((target("avx512f,avx512bw"), no_sanitize("address"))) static void csimd_scan_avx512(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates) {
    __m512i low[CSIMD_POSITIONS], high[CSIMD_POSITIONS];
    for (int f = 0; f < CSIMD_POSITIONS; f++) {
        low[f] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)set->low[f]));
        high[f] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)set->high[f]));
    }
    const __m512i nibble = _mm512_set1_epi8(0x0F);
    const __m512i lf = _mm512_set1_epi8(0x0A);
    for (size_t i = 0; i < count; i += 64) {
        const uint8_t *p = bytes + i;
        const __m512i first = _mm512_loadu_si512((const void *)p);
        newlines[i / 64] = _mm512_cmpeq_epi8_mask(first, lf);
        __m512i r = _mm512_and_si512(_mm512_shuffle_epi8(low[0], _mm512_and_si512(first, nibble)),
            _mm512_shuffle_epi8(high[0], _mm512_and_si512(_mm512_srli_epi16(first, 4), nibble)));
        for (int f = 1; f < CSIMD_POSITIONS; f++) {
            const __m512i v = _mm512_loadu_si512((const void *)(p + f));
            r = _mm512_and_si512(r, _mm512_and_si512(_mm512_shuffle_epi8(low[f], _mm512_and_si512(v, nibble)),
                _mm512_shuffle_epi8(high[f], _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble))));
        }
        candidates[i / 64] = _mm512_test_epi8_mask(r, r);
    }
}

/// AVX-512 VBMI: per position, the nibble tables' two shuffles and their masks become one lookup of the byte's low
/// six bits in the position's table (`vpermb`), and eight positions are tested instead of five: the messages marked
/// in the 200 MB NSLog capture 16.8 % → 8.4 %, with a scan as fast as five positions' lookups of the low seven bits
/// (`vpermi2b`, two registers; five of those and three of these took 8 ms more on 200 MB in a C probe).
__attribute__((target("avx512f,avx512bw,avx512vbmi"), no_sanitize("address"))) static void csimd_scan_vbmi(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates) {
    __m512i tables[CSIMD_FOLDED_POSITIONS];
    for (int f = 0; f < CSIMD_FOLDED_POSITIONS; f++) tables[f] = _mm512_loadu_si512((const void *)set->folded[f]);
    const __m512i lf = _mm512_set1_epi8(0x0A);
    for (size_t i = 0; i < count; i += 64) {
        const uint8_t *p = bytes + i;
        const __m512i first = _mm512_loadu_si512((const void *)p);
        newlines[i / 64] = _mm512_cmpeq_epi8_mask(first, lf);
        __m512i r = _mm512_permutexvar_epi8(first, tables[0]);
        for (int f = 1; f < CSIMD_FOLDED_POSITIONS; f++) {
            const __m512i v = _mm512_loadu_si512((const void *)(p + f));
            r = _mm512_and_si512(r, _mm512_permutexvar_epi8(v, tables[f]));
        }
        candidates[i / 64] = _mm512_test_epi8_mask(r, r);
    }
}

void csimd_scan(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates) {
    if (csimd_has_vbmi()) {
        csimd_scan_vbmi(set, bytes, count, newlines, candidates);
    } else if (csimd_vector_level() == 2) {
        csimd_scan_avx512(set, bytes, count, newlines, candidates);
    } else {
        csimd_scan_avx2(set, bytes, count, newlines, candidates);
    }
    csimd_clear_past(count, newlines, candidates);
}

#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))

int csimd_vector_level(void) { return 1; }

/// The marks of `byte` in the 64 bytes at `p`.
static inline uint64_t csimd_bytes64(const uint8_t *p, uint8_t byte) {
    const uint8x16_t v = vdupq_n_u8(byte);
    return csimd_bits(vceqq_u8(vld1q_u8(p), v), vceqq_u8(vld1q_u8(p + 16), v), vceqq_u8(vld1q_u8(p + 32), v),
        vceqq_u8(vld1q_u8(p + 48), v));
}

#define CSIMD_BYTES64_TARGET

int64_t csimd_bracket_balance(const uint8_t *bytes, size_t count, int vectors) {
    (void)vectors;  // NEON is always there
    int64_t balance = 0;
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const uint8x16_t v = vld1q_u8(bytes + i);
        const uint8x16_t opens =
            vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('{')), vceqq_u8(v, vdupq_n_u8('('))), vceqq_u8(v, vdupq_n_u8('[')));
        const uint8x16_t closes =
            vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('}')), vceqq_u8(v, vdupq_n_u8(')'))), vceqq_u8(v, vdupq_n_u8(']')));
        balance += vaddvq_u8(vandq_u8(opens, vdupq_n_u8(1)));
        balance -= vaddvq_u8(vandq_u8(closes, vdupq_n_u8(1)));
    }
    return balance + csimd_bracket_tail(bytes + i, count - i);
}

/// `csimd_span_end`, 16 bytes a step (`tbl` as AVX2's `vpshufb`, an index from 16 giving 0); the first stop found by
/// narrowing each byte of the comparison to a nibble.
size_t csimd_span_end(const uint8_t *bytes, size_t count, const uint8_t table[16]) {
    static const uint8_t bit_values[16] = {1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0};
    const uint8x16_t rows = vld1q_u8(table), bits = vld1q_u8(bit_values), nibble = vdupq_n_u8(0x0F);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const uint8x16_t v = vld1q_u8(bytes + i);
        const uint8x16_t inside = vorrq_u8(vtstq_u8(vqtbl1q_u8(rows, vandq_u8(v, nibble)), vqtbl1q_u8(bits, vshrq_n_u8(v, 4))),
            vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(0)));
        const uint64_t stops =
            ~vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(inside), 4)), 0);
        if (stops) return i + (size_t)(__builtin_ctzll(stops) >> 2);
    }
    return csimd_span_tail(bytes, i, count, table);
}

// Every AArch64 processor has NEON (Apple silicon included): the same algorithm, 16 positions at a time, with
// `tbl` as the nibble lookup.

static inline uint8x16_t csimd_buckets(uint8x16_t bytes, const uint8_t *low, const uint8_t *high) {
    return vandq_u8(
        vqtbl1q_u8(vld1q_u8(low), vandq_u8(bytes, vdupq_n_u8(0x0F))), vqtbl1q_u8(vld1q_u8(high), vshrq_n_u8(bytes, 4)));
}

/// The buckets that survive at each of the 16 positions starting at `p` (reads p[0] to p[19]).
__attribute__((no_sanitize("address"))) static inline uint8x16_t csimd_block(const uint8_t *p, const csimd_literals *set) {
    uint8x16_t r = csimd_buckets(vld1q_u8(p), set->low[0], set->high[0]);
    for (int n = 1; n < CSIMD_POSITIONS; n++) r = vandq_u8(r, csimd_buckets(vld1q_u8(p + n), set->low[n], set->high[n]));
    return r;
}

/// Verifies the candidates of one block; `positions` is how many of its 16 lie inside the buffer.
static inline size_t csimd_candidates(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t base, uint8x16_t r, size_t positions,
    int32_t *literal) {
    // Four bits per position (NEON has no byte mask move): nonzero where a bucket survives.
    const uint8x8_t narrowed = vshrn_n_u16(vreinterpretq_u16_u8(vtstq_u8(r, r)), 4);
    uint64_t hits = vget_lane_u64(vreinterpret_u64_u8(narrowed), 0);
    if (positions < 16) hits &= (1ull << (4 * positions)) - 1;
    if (!hits) return count;
    uint8_t buckets[16];
    vst1q_u8(buckets, r);
    while (hits) {
        const int i = __builtin_ctzll(hits) >> 2;
        hits &= ~(0xFull << (4 * i));
        const int32_t k = csimd_verify(set, bytes, count, base + (size_t)i, buckets[i], 0);
        if (k >= 0) {
            *literal = k;
            return base + (size_t)i;
        }
    }
    return count;
}

__attribute__((no_sanitize("address"))) size_t csimd_literals_find(
    const csimd_literals *set, const uint8_t *bytes, size_t count, int32_t *literal) {
    size_t i = 0;
    for (; i + 20 <= count; i += 16) {
        const size_t found = csimd_candidates(set, bytes, count, i, csimd_block(bytes + i, set), 16, literal);
        if (found < count) return found;
    }
    // The last positions (at most 19; fewer than 18 can begin a literal of three bytes or more), read as the x86
    // path reads them: in place while the 20-byte read stays inside a 4 KiB block (pages are 4 or 16 KiB, so never
    // across a page), else from a zero-padded copy.
    for (; i + 2 < count; i += 16) {
        const size_t rest = count - i;
        uint8x16_t r;
        if (((uintptr_t)(bytes + i) & 4095) <= 4096 - 20) {
            r = csimd_block(bytes + i, set);
        } else {
            uint8_t tail[32] = {0};
            memcpy(tail, bytes + i, rest);
            r = csimd_block(tail, set);
        }
        const size_t found = csimd_candidates(set, bytes, count, i, r, rest - 2 < 16 ? rest - 2 : 16, literal);
        if (found < count) return found;
    }
    return count;
}

__attribute__((no_sanitize("address"))) void csimd_scan(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates) {
    for (size_t i = 0; i < count; i += 64) {
        const uint8_t *p = bytes + i;
        newlines[i / 64] = csimd_bytes64(p, 0x0A);
        const uint8x16_t r0 = csimd_block(p, set), r1 = csimd_block(p + 16, set);
        const uint8x16_t r2 = csimd_block(p + 32, set), r3 = csimd_block(p + 48, set);
        candidates[i / 64] = csimd_bits(vtstq_u8(r0, r0), vtstq_u8(r1, r1), vtstq_u8(r2, r2), vtstq_u8(r3, r3));
    }
    csimd_clear_past(count, newlines, candidates);
}

#else

int csimd_vector_level(void) { return 0; }

void csimd_scan(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates) {
    (void)set;
    (void)bytes;
    (void)count;
    (void)newlines;
    (void)candidates;
}

void csimd_byte_marks(const uint8_t *bytes, size_t count, uint8_t byte, uint64_t *bitmap) {
    for (size_t i = 0; i < count; i += 64) {
        bitmap[i / 64] = csimd_byte_tail(bytes + i, count - i < 64 ? count - i : 64, byte);
    }
}

void csimd_pair_marks(const uint8_t *bytes, size_t count, uint8_t first, uint8_t second, uint64_t *bitmap) {
    for (size_t i = 0; i < count; i += 64) bitmap[i / 64] = csimd_pair_tail(bytes + i, count - i, first, second);
}

int64_t csimd_bracket_balance(const uint8_t *bytes, size_t count, int vectors) {
    (void)vectors;
    return csimd_bracket_tail(bytes, count);
}

size_t csimd_span_end(const uint8_t *bytes, size_t count, const uint8_t table[16]) {
    return csimd_span_tail(bytes, 0, count, table);
}

size_t csimd_literals_find(const csimd_literals *set, const uint8_t *bytes, size_t count, int32_t *literal) {
    (void)set;
    (void)bytes;
    (void)literal;
    return count;
}

#endif

#ifdef CSIMD_BYTES64_TARGET
// The byte and pair marks, 64 bytes a step with `csimd_bytes64` (AVX2 or NEON), one by one for the last ones.

CSIMD_BYTES64_TARGET void csimd_byte_marks(const uint8_t *bytes, size_t count, uint8_t byte, uint64_t *bitmap) {
    size_t i = 0;
    for (; i + 64 <= count; i += 64) bitmap[i / 64] = csimd_bytes64(bytes + i, byte);
    if (i < count) bitmap[i / 64] = csimd_byte_tail(bytes + i, count - i, byte);
}

CSIMD_BYTES64_TARGET void csimd_pair_marks(
    const uint8_t *bytes, size_t count, uint8_t first, uint8_t second, uint64_t *bitmap) {
    size_t i = 0;
    for (; i + 65 <= count; i += 64) {
        bitmap[i / 64] = csimd_bytes64(bytes + i, first) & csimd_bytes64(bytes + i + 1, second);
    }
    if (i < count) bitmap[i / 64] = csimd_pair_tail(bytes + i, count - i, first, second);
}
#endif

const uint8_t *csimd_find(const uint8_t *bytes, size_t count, const uint8_t *literal, size_t length) {
    if (length == 0) return bytes;
    if (count < length) return 0;
    // Where the literal may begin; glibc's `memmem` prepares a two-way search for each call, dear on short lines.
    const uint8_t *const end = bytes + count - length + 1;
    for (const uint8_t *at = bytes; at < end; at++) {
        at = memchr(at, literal[0], (size_t)(end - at));
        if (!at) return 0;
        if (memcmp(at + 1, literal + 1, length - 1) == 0) return at;
    }
    return 0;
}
