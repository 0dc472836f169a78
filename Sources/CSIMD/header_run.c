#include "csimd.h"

#include "bytes.h"
#include "verify.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

// The run of NSLog lines that repeat the header of the record before them (`csimd_header_run`): a loop over a
// chunk's lines with no call per line, for the lines of an NSLog capture that say nothing but that their process
// logged at this time; the same for the `log` tool's styles and a device's syslog (`csimd_style_run`); and the run
// of a dump's continuation lines (`csimd_continuation_run`).

/// Per byte of `word`, bits of its high nibble set where the byte is no ASCII digit; only the lowest such byte is
/// sure (the same test as the Swift `NSLogHeader.nonDigits`).
static inline __attribute__((always_inline)) uint64_t run_non_digits(uint64_t word) {
    const uint64_t offset = word ^ 0x3030303030303030ull;
    return (offset & 0xF0F0F0F0F0F0F0F0ull) | ((offset + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull);
}

/// The value of the first `count` (1–8) bytes of `word`, ASCII digits (`TimestampLayout.decimal`).
static inline __attribute__((always_inline)) uint64_t run_decimal(uint64_t word, unsigned count) {
    const unsigned shift = 8 * (8 - count);
    uint64_t value = ((word << shift) | (count == 8 ? 0 : 0x3030303030303030ull >> (8 * count))) -
                     0x3030303030303030ull;
    value = (value * 10 + (value >> 8)) & 0x00FF00FF00FF00FFull;
    value = (value * 100 + (value >> 16)) & 0x0000FFFF0000FFFFull;
    value = (value * 10000 + (value >> 32)) & 0xFFFFFFFFull;
    return value;
}

static const uint32_t run_micro_scale[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};

/// The number of fraction digits at `line + at` (after `YYYY-MM-DD HH:MM:SS.`, at 20, or `Mmm dd HH:MM:SS.`, at 16)
/// in a line of `at + 8` bytes or more (its LF after them), 1–9, with `*fraction` the eight bytes there; 0 when there
/// are none or ten or more (no header of these formats).
static inline __attribute__((always_inline)) unsigned run_fraction_digits(
    const uint8_t *line, size_t at, uint64_t *fraction) {
    *fraction = csimd_load8(line + at);
    const uint64_t marks = run_non_digits(*fraction);
    const unsigned digits = marks ? (unsigned)(__builtin_ctzll(marks) >> 3) : 8;
    if (digits == 8 && (uint8_t)(line[at + 8] - '0') < 10) {
        return (uint8_t)(line[at + 9] - '0') < 10 ? 0 : 9;  // line[at + 9] is at most the LF
    }
    return digits;
}

/// Whether `time`, the word of a line's time whose bytes 5 and 6 are its seconds, is the one `*held` has, or the
/// same but for a later second, to which `*held` and `clock->later` then move.
static inline __attribute__((always_inline)) int run_second(
    csimd_header_clock *clock, uint64_t *held, uint64_t time) {
    if (time == *held) return 1;
    if ((time ^ *held) & 0xFF0000FFFFFFFFFFull) return 0;  // another hour or minute, or no `:SS`
    const uint32_t tens = (uint32_t)((time >> 40) & 0xFF) - '0', ones = (uint32_t)((time >> 48) & 0xFF) - '0';
    const uint32_t second = (uint32_t)((*held >> 40) & 0xFF) * 10 + (uint32_t)((*held >> 48) & 0xFF) - 11 * '0';
    if (tens > 5 || ones > 9 || tens * 10 + ones <= second) return 0;
    clock->later += (tens * 10 + ones - second) * 1000000;
    *held = time;
    return 1;
}

/// The microseconds of a fraction of `digits` digits (0–9) whose first eight bytes are `fraction`.
static inline __attribute__((always_inline)) uint32_t run_micros(uint64_t fraction, unsigned digits) {
    if (digits == 0) return 0;
    return digits <= 6 ? (uint32_t)run_decimal(fraction, digits) * run_micro_scale[digits]
                       : (uint32_t)(run_decimal(fraction, digits < 8 ? digits : 8) / (digits == 7 ? 10 : 100));
}

/// Whether the `count` bytes of `line`, whose fraction has `digits` digits (`fraction`: bytes 20–27), begin with
/// the date and time to the minute, the fraction's length and the zone that `clock` was armed with, at its second
/// or a later one, which the clock moves to (the microseconds still count from the armed second: a zone read from
/// the line is the same, and one assumed for it is the same within the hour, as `ZoneResolver` reads it); then
/// `*micros` is the line's time in microseconds from the armed second, and `*timestamp_end` where its timestamp ends.
static inline __attribute__((always_inline)) int run_clock(
    csimd_header_clock *clock, const uint8_t *line, size_t count, unsigned digits, uint64_t fraction,
    uint32_t *micros, size_t *timestamp_end) {
    if (clock->fraction_digits != digits) return 0;
    if (csimd_load8(line) != clock->date[0] || csimd_load8(line + 8) != clock->date[1]) return 0;
    if (!run_second(clock, &clock->date[2], csimd_load8(line + 12))) return 0;  // bytes 12–19: `H:MM:SS.`
    const size_t end = 20 + digits + clock->zone_count;
    if (end > count) return 0;
    if (clock->zone_count &&
        (csimd_load8(line + 20 + digits) & (~0ull >> (8 * (8 - clock->zone_count)))) != clock->zone)
        return 0;
    *micros = clock->later + run_micros(fraction, digits);
    *timestamp_end = end;
    return 1;
}

/// `run_clock` for a device syslog's `Mmm dd HH:MM:SS` (`date[0]` its bytes 0–7, `date[1]` bytes 8–15: the time
/// from the hour's second digit, and the byte after the seconds), followed by `.` and the clock's number of fraction
/// digits when it has any (0: none); the line has 28 bytes or more.
static inline __attribute__((always_inline)) int run_device_clock(
    csimd_header_clock *clock, const uint8_t *line, size_t count, uint32_t *micros, size_t *timestamp_end) {
    if (csimd_load8(line) != clock->date[0] || !run_second(clock, &clock->date[1], csimd_load8(line + 8))) return 0;
    uint64_t fraction = 0;
    const unsigned digits = clock->fraction_digits ? run_fraction_digits(line, 16, &fraction) : 0;
    if (digits != clock->fraction_digits) return 0;
    const size_t end = digits ? 16 + digits : 15;
    if (end > count) return 0;
    *micros = clock->later + run_micros(fraction, digits);
    *timestamp_end = end;
    return 1;
}

/// Per byte: 1 where it may be in a modern NSLog header's thread (`\d`), 2 where in a classic one's
/// (`[0-9A-Fa-fx]`), 4 where in a compact `log` line's (`[0-9a-f]`).
static const uint8_t run_thread_bytes[256] = {
    ['0'] = 7, ['1'] = 7, ['2'] = 7, ['3'] = 7, ['4'] = 7, ['5'] = 7, ['6'] = 7, ['7'] = 7, ['8'] = 7, ['9'] = 7,
    ['A'] = 2, ['B'] = 2, ['C'] = 2, ['D'] = 2, ['E'] = 2, ['F'] = 2,
    ['a'] = 6, ['b'] = 6, ['c'] = 6, ['d'] = 6, ['e'] = 6, ['f'] = 6, ['x'] = 2,
};

/// Whether the `size` bytes (8–128) at `at` are a tail's, held as words (`csimd_header_tail`, `csimd_style_tail`):
/// the last eight `last`, the first eight under `mask` `words[0]`, and the words between.
static inline __attribute__((always_inline)) int run_words_at(
    const uint64_t *words, uint64_t last, uint64_t mask, const uint8_t *at, size_t size) {
    if (csimd_load8(at + size - 8) != last || (csimd_load8(at) & mask) != words[0]) return 0;
    for (size_t offset = 8; offset + 8 < size; offset += 8) {
        if (csimd_load8(at + offset) != words[offset >> 3]) return 0;
    }
    return 1;
}

/// Whether `tail` is at `at`, with `room` bytes left in the line.
static inline __attribute__((always_inline)) int run_tail_at(
    const csimd_header_tail *tail, const uint8_t *at, size_t room, int modern) {
    const size_t size = tail->count;
    if (size == 0 || size > room || tail->modern != (uint32_t)modern) return 0;
    return run_words_at(tail->words, tail->last, ~0ull, at, size);
}

/// Per byte of `word`, its high bit set where the byte is not in a compact `log` line's thread (`[0-9a-f]`): exact
/// for every byte (as `csimd_non_hex`).
static inline __attribute__((always_inline)) uint64_t run_non_lower_hex(uint64_t word) {
    const uint64_t high = 0x8080808080808080ull;
    const uint64_t low7 = word & ~high;
    const uint64_t digit = (low7 + 0x5050505050505050ull) & ~(low7 + 0x4646464646464646ull);   // 0x30–0x39
    const uint64_t letter = (low7 + 0x1F1F1F1F1F1F1F1Full) & ~(low7 + 0x1919191919191919ull);  // 0x61–0x66
    return ~((digit | letter) & ~word) & high;
}

/// The length of the run of thread bytes at `p`, at most `room`, of a class of `run_thread_bytes`: 1, digits (modern
/// NSLog), 2, `[0-9A-Fa-fx]` (classic NSLog), or 4, `[0-9a-f]` (compact); eight bytes at a time while eight are left.
static inline __attribute__((always_inline)) size_t run_thread(const uint8_t *p, size_t room, uint8_t class) {
    size_t index = 0;
    while (index + 8 <= room) {
        const uint64_t word = csimd_load8(p + index);
        const uint64_t marks = class == 1   ? run_non_digits(word)
                               : class == 2 ? csimd_non_hex(word)
                                            : run_non_lower_hex(word);
        if (marks) return index + (size_t)(__builtin_ctzll(marks) >> 3);
        index += 8;
    }
    while (index < room && (run_thread_bytes[p[index]] & class)) index++;
    return index;
}

/// `csimd_ci_timestamp_length`, inlined into the runs: the date and time words hold digits exactly where the pattern
/// has them (`YYYY-MM-`, `DDTHH:MM`, and bytes 12–19, `H:MM:SS` and the byte after the seconds), then come the
/// fraction or none, `Z` and a space.
static inline __attribute__((always_inline)) size_t run_ci_timestamp(const uint8_t *line, size_t count) {
    if (count < 21) return 0;
    const uint64_t date = csimd_load8(line), day = csimd_load8(line + 8), time = csimd_load8(line + 12);
    if (csimd_non_digits(date) != 0x8000008000000000ull || (date & 0xFF0000FF00000000ull) != 0x2D00002D00000000ull)
        return 0;  // `-` at 4 and 7
    if (csimd_non_digits(day) != 0x0000800000800000ull || (day & 0x0000FF0000FF0000ull) != 0x00003A0000540000ull)
        return 0;  // `T` at 10, `:` at 13
    if (csimd_non_digits(time) != 0x8000008000008000ull || (time & 0x000000FF00000000ull) != 0x0000003A00000000ull)
        return 0;  // `:` at 16, no digit at 19
    size_t index = 19;
    if (line[19] == '.') {
        // The fraction's digits, eight at a time while eight bytes are left (a runner writes seven).
        index = 20 + run_thread(line + 20, count - 20, 1);
        if (index == 20) return 0;
    }
    return index + 1 < count && line[index] == 'Z' && line[index + 1] == ' ' ? index + 2 : 0;
}

size_t csimd_ci_timestamp_length(const uint8_t *line, size_t count) { return run_ci_timestamp(line, count); }

/// Per byte of `word`, its high bit set where the byte is `\s` in PCRE2's default tables (the space and 0x09–0x0D)
/// or a colon; exact for every byte.
static inline __attribute__((always_inline)) uint64_t grep_stops(uint64_t word) {
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull, low7 = word & ~high;
    const uint64_t others = csimd_nonzero_bytes(word ^ (0x20 * ones)) & csimd_nonzero_bytes(word ^ (0x3A * ones));
    const uint64_t from_tab = low7 + (0x80 - 0x09) * ones, past_return = low7 + (0x80 - 0x0E) * ones;
    return (~others & high) | (from_tab & ~past_return & ~word & high);
}

/// `\d+[:-]` at `index` of a line of `count` bytes: where it ends, or 0. Byte by byte: a line number is short, and
/// `run_thread`'s words cost the CI capture 0.5 % more instructions.
static inline size_t grep_number(const uint8_t *line, size_t index, size_t count) {
    size_t end = index;
    while (end < count && (uint8_t)(line[end] - '0') < 10) end++;
    return end > index && end < count && (line[end] == ':' || line[end] == '-') ? end + 1 : 0;
}

size_t csimd_grep_prefix_length(const uint8_t *line, size_t count) {
    // PCRE2 tries the file name first: the run of bytes that are neither `\s` nor a colon, taken whole, which must
    // hold a non-digit and end at a colon; then `\d+[:-]` at the start.
    size_t index = 0;
    int non_digit = 0;
    for (;;) {
        if (index + 8 <= count) {
            const uint64_t word = csimd_load8(line + index), stops = grep_stops(word);
            const uint64_t before = stops ? (stops & -stops) - 1 : ~0ull;  // the bytes before the first stop
            non_digit |= (csimd_non_digits(word) & before) != 0;
            if (stops) {
                index += (size_t)(__builtin_ctzll(stops) >> 3);
                break;
            }
            index += 8;
            continue;
        }
        while (index < count) {
            const uint8_t byte = line[index];
            if (byte == ' ' || (uint8_t)(byte - 0x09) < 5 || byte == ':') break;
            if ((uint8_t)(byte - '0') >= 10) non_digit = 1;
            index++;
        }
        break;
    }
    if (non_digit && index < count && line[index] == ':') {
        const size_t end = grep_number(line, index + 1, count);
        if (end) return end;
    }
    return grep_number(line, 0, count);
}

/// The bytes of up to 64 of a line from a position (bit k: the byte k after it) that `csimd_builtin_refuses` looks at:
/// the `\s` and colons (`stops`), the `[`, `]`, colons and tabs (`specials`), the tabs, and the `[` (`opens`).
typedef struct {
    uint64_t stops, specials, tabs, opens;
} refusal_masks;

/// What `csimd_builtin_refuses` has decided of a line's patterns: bit 0 `grep -n`'s (at the first stop), bit 1
/// `nslog-untimed`'s (at the first special), bit 2 Console.app's (at the first tab).
enum { REFUSAL_GREP = 1, REFUSAL_UNTIMED = 2, REFUSAL_CONSOLE = 4 };

static inline __attribute__((always_inline)) int refusal_digit_after(const uint8_t *line, size_t count, size_t at) {
    return at + 1 < count && (uint8_t)(line[at + 1] - '0') < 10;
}

/// Whether a pattern may match, by the bytes `masks` marks from `base` of `line`: `grep -n`'s prefix when the first
/// stop is a colon and a digit (its file name, the bytes before, holds a non-digit: the line's first byte), the untimed
/// NSLog process's end when the first special is `[` and a digit, Console.app's level when the first tab is followed
/// by a digit (the time), Appium's wrapper at a `[IOS_SYSLOG_ROW`; `*decided` keeps the firsts seen.
static inline __attribute__((always_inline)) int refusal_block(
    const uint8_t *line, size_t count, size_t base, refusal_masks masks, unsigned *decided) {
    if (!(*decided & REFUSAL_GREP) && masks.stops) {
        *decided |= REFUSAL_GREP;
        const size_t at = base + (size_t)__builtin_ctzll(masks.stops);
        if (line[at] == ':' && refusal_digit_after(line, count, at)) return 1;
    }
    if (!(*decided & REFUSAL_UNTIMED) && masks.specials) {
        *decided |= REFUSAL_UNTIMED;
        const size_t at = base + (size_t)__builtin_ctzll(masks.specials);
        if (line[at] == '[' && refusal_digit_after(line, count, at)) return 1;
    }
    if (!(*decided & REFUSAL_CONSOLE) && masks.tabs) {
        *decided |= REFUSAL_CONSOLE;
        if (refusal_digit_after(line, count, base + (size_t)__builtin_ctzll(masks.tabs))) return 1;
    }
    for (uint64_t opens = masks.opens; opens; opens &= opens - 1) {
        const size_t at = base + (size_t)__builtin_ctzll(opens);
        if (count - at >= 15 && memcmp(line + at, "[IOS_SYSLOG_ROW", 15) == 0) return 1;
    }
    return 0;
}

/// `refusal_block` for the step of a line from `base` whose bytes `masks` marks, the stops, specials and tabs after the
/// first of each left out.
static inline __attribute__((always_inline)) int refusal_step(
    const uint8_t *line, size_t count, size_t base, refusal_masks masks, unsigned *decided) {
    if (*decided & REFUSAL_GREP) masks.stops = 0;
    if (*decided & REFUSAL_UNTIMED) masks.specials = 0;
    if (*decided & REFUSAL_CONSOLE) masks.tabs = 0;
    return (masks.stops | masks.specials | masks.tabs | masks.opens) && refusal_block(line, count, base, masks, decided);
}

/// `masks` shifted right by `read` bits: the bits of the window that ends with a line made the last step's (the bytes
/// before the step left out).
static inline __attribute__((always_inline)) refusal_masks refusal_from(refusal_masks masks, unsigned read) {
    return (refusal_masks){masks.stops >> read, masks.specials >> read, masks.tabs >> read, masks.opens >> read};
}

/// Whether the refusal reads bytes one by one on this target (for a short line with AVX2, and where no vector path
/// is built); not on AArch64, whose NEON is always there.
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define REFUSAL_BYTES 0
#else
#define REFUSAL_BYTES 1
#endif

#if REFUSAL_BYTES
/// The masks of the `count` bytes (at most 64) at `p`, read one by one.
static refusal_masks refusal_bytes(const uint8_t *p, size_t count) {
    refusal_masks masks = {0, 0, 0, 0};
    for (size_t at = 0; at < count; at++) {
        const uint8_t byte = p[at];
        const uint64_t bit = 1ull << at;
        if (byte == ' ' || (uint8_t)(byte - 0x09) < 5 || byte == ':') masks.stops |= bit;
        if (byte == '[' || byte == ']' || byte == ':' || byte == '\t') masks.specials |= bit;
        if (byte == '\t') masks.tabs |= bit;
        if (byte == '[') masks.opens |= bit;
    }
    return masks;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// The masks of the 32 bytes at `p` (AVX2), shifted left by `shift`.
__attribute__((target("avx2"))) static inline refusal_masks refusal_vector(const uint8_t *p, unsigned shift) {
    const __m256i v = _mm256_loadu_si256((const __m256i *)p);
    const __m256i colon = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(':'));
    const __m256i tab = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\t'));
    const __m256i open = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('['));
    const __m256i close = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(']'));
    const __m256i from_tab = _mm256_sub_epi8(v, _mm256_set1_epi8(0x09));  // 0x09–0x0D: 0–4
    const __m256i space = _mm256_or_si256(
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8(' ')),
        _mm256_cmpeq_epi8(_mm256_min_epu8(from_tab, _mm256_set1_epi8(4)), from_tab));
    return (refusal_masks){
        (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(space, colon)) << shift,
        (uint64_t)(uint32_t)_mm256_movemask_epi8(
            _mm256_or_si256(_mm256_or_si256(colon, tab), _mm256_or_si256(open, close))) << shift,
        (uint64_t)(uint32_t)_mm256_movemask_epi8(tab) << shift,
        (uint64_t)(uint32_t)_mm256_movemask_epi8(open) << shift,
    };
}

/// The bytes either `a` or `b` marks.
static inline __attribute__((always_inline)) refusal_masks refusal_or(refusal_masks a, refusal_masks b) {
    return (refusal_masks){a.stops | b.stops, a.specials | b.specials, a.tabs | b.tabs, a.opens | b.opens};
}

/// The masks of the 64 bytes at `p` (AVX2).
__attribute__((target("avx2"))) static inline refusal_masks refusal_window(const uint8_t *p) {
    return refusal_or(refusal_vector(p, 0), refusal_vector(p + 32, 32));
}

/// The masks of a whole line of fewer than 64 bytes: two blocks of 32 (the second ending with the line, a byte read
/// twice marked the same) from 32 bytes, byte by byte under them.
__attribute__((target("avx2"))) static inline refusal_masks refusal_short(const uint8_t *line, size_t count) {
    if (count < 32) return refusal_bytes(line, count);
    return refusal_or(refusal_vector(line, 0), refusal_vector(line + count - 32, (unsigned)(count - 32)));
}

/// The pairs of bytes from `p` to `p + 32` (AVX2) that `refusal_pairs` looks for: a colon, `[` or tab before a digit,
/// or `[` before `I`, marked in the bytes of the first.
__attribute__((target("avx2"))) static inline __m256i refusal_pair_vector(const uint8_t *p) {
    const __m256i v = _mm256_loadu_si256((const __m256i *)p), next = _mm256_loadu_si256((const __m256i *)(p + 1));
    const __m256i open = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('['));
    const __m256i before = _mm256_or_si256(
        open, _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(':')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\t'))));
    const __m256i from_zero = _mm256_sub_epi8(next, _mm256_set1_epi8('0'));
    const __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(from_zero, _mm256_set1_epi8(9)), from_zero);
    return _mm256_or_si256(
        _mm256_and_si256(before, digit), _mm256_and_si256(open, _mm256_cmpeq_epi8(next, _mm256_set1_epi8('I'))));
}

/// Whether a line of 33 bytes or more (`REFUSAL_PAIRS_FROM`) holds a pair of bytes without which every test of
/// `refusal_block` fails (a colon, `[` or tab and the digit after it, or the `[I` of Appium's marker): most printed
/// lines have none, and are refused by this pass alone, 32 pairs a step, the last step the 32 that end with the line.
__attribute__((target("avx2"))) static int refusal_pairs(const uint8_t *line, size_t count) {
    __m256i any = _mm256_setzero_si256();
    size_t at = 0;
    for (; at + 33 <= count; at += 32) any = _mm256_or_si256(any, refusal_pair_vector(line + at));
    if (at + 1 < count) any = _mm256_or_si256(any, refusal_pair_vector(line + count - 33));
    return !_mm256_testz_si256(any, any);
}

/// The steps of `csimd_builtin_refuses` are one function built for AVX2, so that the masks stay in registers.
#define REFUSAL_VECTORS __attribute__((target("avx2")))
#define REFUSAL_PAIRS_FROM 33
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
/// The masks of the 64 bytes at `p` (NEON: four vectors a test, their bits gathered by `csimd_bits`).
static refusal_masks refusal_window(const uint8_t *p) {
    uint8x16_t stops[4], specials[4], tabs[4], opens[4];
    for (int k = 0; k < 4; k++) {
        const uint8x16_t v = vld1q_u8(p + 16 * k);
        const uint8x16_t colon = vceqq_u8(v, vdupq_n_u8(':'));
        tabs[k] = vceqq_u8(v, vdupq_n_u8('\t'));
        opens[k] = vceqq_u8(v, vdupq_n_u8('['));
        // `\s`: the space, and 0x09–0x0D (0–4 once 0x09 is taken away).
        const uint8x16_t space = vorrq_u8(vceqq_u8(v, vdupq_n_u8(' ')), vcleq_u8(vsubq_u8(v, vdupq_n_u8(0x09)), vdupq_n_u8(4)));
        stops[k] = vorrq_u8(space, colon);
        specials[k] = vorrq_u8(vorrq_u8(colon, tabs[k]), vorrq_u8(opens[k], vceqq_u8(v, vdupq_n_u8(']'))));
    }
    return (refusal_masks){
        csimd_bits(stops[0], stops[1], stops[2], stops[3]),
        csimd_bits(specials[0], specials[1], specials[2], specials[3]),
        csimd_bits(tabs[0], tabs[1], tabs[2], tabs[3]),
        csimd_bits(opens[0], opens[1], opens[2], opens[3]),
    };
}

/// The masks of a whole line of fewer than 64 bytes, copied to a window of zeros (which no test looks for).
static inline refusal_masks refusal_short(const uint8_t *line, size_t count) {
    uint8_t window[64] = {0};
    memcpy(window, line, count);
    return refusal_window(window);
}

/// `refusal_pair_vector` with NEON: the pairs from `p` to `p + 16`.
static inline uint8x16_t refusal_pair_vector(const uint8_t *p) {
    const uint8x16_t v = vld1q_u8(p), next = vld1q_u8(p + 1);
    const uint8x16_t open = vceqq_u8(v, vdupq_n_u8('['));
    const uint8x16_t before = vorrq_u8(open, vorrq_u8(vceqq_u8(v, vdupq_n_u8(':')), vceqq_u8(v, vdupq_n_u8('\t'))));
    const uint8x16_t digit = vcleq_u8(vsubq_u8(next, vdupq_n_u8('0')), vdupq_n_u8(9));
    return vorrq_u8(vandq_u8(before, digit), vandq_u8(open, vceqq_u8(next, vdupq_n_u8('I'))));
}

/// `refusal_pairs` with NEON, for a line of 17 bytes or more: 16 pairs a step.
static int refusal_pairs(const uint8_t *line, size_t count) {
    uint8x16_t any = vdupq_n_u8(0);
    size_t at = 0;
    for (; at + 17 <= count; at += 16) any = vorrq_u8(any, refusal_pair_vector(line + at));
    if (at + 1 < count) any = vorrq_u8(any, refusal_pair_vector(line + count - 17));
    return vmaxvq_u8(any) != 0;
}

#define REFUSAL_PAIRS_FROM 17
#define REFUSAL_VECTORS
#endif

#ifdef REFUSAL_VECTORS
/// `refusal_pairs` for a line shorter than a step, copied to a window of zeros (a zero makes no pair).
REFUSAL_VECTORS static inline int refusal_pairs_short(const uint8_t *line, size_t count) {
    uint8_t window[REFUSAL_PAIRS_FROM] = {0};
    memcpy(window, line, count);
    return refusal_pairs(window, REFUSAL_PAIRS_FROM);
}

/// Whether `refusal_block` refuses the line in every step (1), with vectors: the pairs' pass first, then 64 bytes a
/// step, the last one the window that ends with the line (its bits shifted to the step's); a line of fewer than 64
/// bytes whole (`refusal_short`).
REFUSAL_VECTORS static int refusal_vectors(const uint8_t *line, size_t count) {
    if (!(count >= REFUSAL_PAIRS_FROM ? refusal_pairs(line, count) : refusal_pairs_short(line, count))) return 1;
    unsigned decided = 0;
    if (count < 64) return !refusal_step(line, count, 0, refusal_short(line, count), &decided);
    for (size_t base = 0; base < count; base += 64) {
        const refusal_masks masks = count - base >= 64 ? refusal_window(line + base)
                                                       : refusal_from(refusal_window(line + count - 64),
                                                             (unsigned)(64 - (count - base)));
        if (refusal_step(line, count, base, masks, &decided)) return 0;
    }
    return 1;
}
#endif

#if REFUSAL_BYTES
/// `refusal_vectors` byte by byte, 64 bytes a step (a function of its own, so that `csimd_builtin_refuses` needs no
/// frame of its own on its way to `refusal_vectors`).
static __attribute__((noinline)) int refusal_scalar(const uint8_t *line, size_t count) {
    unsigned decided = 0;
    for (size_t base = 0; base < count; base += 64) {
        const size_t rest = count - base;
        if (refusal_step(line, count, base, refusal_bytes(line + base, rest < 64 ? rest : 64), &decided)) return 0;
    }
    return 1;
}
#endif

int csimd_builtin_refuses(const uint8_t *line, size_t count) {
    if (count == 0) return 0;
    const uint8_t first = line[0];
    if (first == ' ' || first == '\t') {
        // Indented: the indentation prefix takes every space and tab, and what follows is read as a line of its
        // own; at the line's start only Console.app's level and the untimed NSLog process may begin with them, which
        // the tests of the whole line below tell.
        size_t indent = 1;
        while (indent < count && (line[indent] == ' ' || line[indent] == '\t')) indent++;
        if (indent == count || !csimd_builtin_refuses(line + indent, count - indent)) return 0;
    } else if ((uint8_t)(first - '0') < 10 || (uint8_t)(first - 0x0A) < 4 || first == '{' || first == '>') {
        // Every NSLog and `log` format, and a CI runner's timestamp, begin with a digit; `log-ndjson` with `{`; the
        // quoting with `>`; the other `\s` bytes are left to the walk. (These first two tests are
        // `HeaderRun.refusalPasses`, by which the runs leave out the ways of repeat and furniture lines that only
        // such lines can take.)
        return 0;
    }
    // The device's and BSD syslog: `[A-Z][a-z]{2} [ \d]\d ` first.
    if ((uint8_t)(first - 'A') < 26 && count >= 6 && (uint8_t)(line[1] - 'a') < 26 && (uint8_t)(line[2] - 'a') < 26 &&
        line[3] == ' ' && (line[4] == ' ' || (uint8_t)(line[4] - '0') < 10) && (uint8_t)(line[5] - '0') < 10)
        return 0;
    // The rest in one pass over the line (`refusal_block`), 64 bytes a step: with AVX2 where the processor has it, with
    // NEON, else byte by byte.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return csimd_level_inline() ? refusal_vectors(line, count) : refusal_scalar(line, count);
#elif defined(REFUSAL_VECTORS)
    return refusal_vectors(line, count);
#else
    return refusal_scalar(line, count);
#endif
}

/// Whether the printed-line path of an NSLog run refuses a line by its `count` bytes of content (past the run's prefix,
/// 1 or more): they begin with neither a space nor a tab (blank, a continuation or a line of no format, as the record
/// before it has it: `takeUnparsed`) and `csimd_builtin_refuses` refuses them (a digit first: left to the line-by-line
/// path).
static inline __attribute__((always_inline)) int run_content_refused(const uint8_t *content, size_t count) {
    return content[0] != ' ' && content[0] != '\t' && csimd_builtin_refuses(content, count);
}

/// The positions a chunk's marks set (its line feeds) from a start and before an end, in order: a bit scan that
/// carries its word from one position to the next. (The keyword candidates of a message are scanned by a loop of
/// their own in `run_has_keyword`: through this cursor, the loop over headers took 0.4 % more instructions.)
typedef struct {
    const uint64_t *marks;
    size_t end;
    size_t word;
    uint64_t bits;
} run_marks;

static inline __attribute__((always_inline)) run_marks run_marks_from(
    const uint64_t *marks, size_t start, size_t end) {
    const size_t word = start >> 6;
    return (run_marks){marks, end, word, start < end ? marks[word] & (~0ull << (start & 63)) : 0};
}

/// The next marked position, or the end when there is none. While the word after the current one is before the end,
/// the current word's bits and the next three words are taken together, the first of them with a mark chosen
/// without a branch: a line's LF is in the same word or one, two or three words on, as the line's length has it, and
/// a loop over the words mispredicted its exit about once a line (a bitmap holds three words past the word of the
/// end's last byte, `LiteralSearch.Marks.words(for:)`: their bits, as any past the end, are not taken).
static inline __attribute__((always_inline)) size_t run_next_mark(run_marks *marks) {
    if (((marks->word + 1) << 6) < marks->end) {
        const uint64_t *const at = marks->marks + marks->word;
        const uint64_t b0 = marks->bits, b1 = at[1], b2 = at[2], b3 = at[3];
        const uint64_t bits = b0 ? b0 : b1 ? b1 : b2 ? b2 : b3;
        const size_t word = marks->word + (b0 ? 0 : b1 ? 1 : b2 ? 2 : 3);
        if (bits) {
            const size_t position = (word << 6) | (size_t)__builtin_ctzll(bits);
            if (position >= marks->end) return marks->end;
            marks->word = word;
            marks->bits = bits & (bits - 1);
            return position;
        }
        marks->word = word;  // three words on, none marked: the loop goes on from there
        marks->bits = 0;
    }
    while (marks->bits == 0) {
        if (((marks->word + 1) << 6) >= marks->end) return marks->end;
        marks->bits = marks->marks[++marks->word];
    }
    const size_t position = (marks->word << 6) | (size_t)__builtin_ctzll(marks->bits);
    marks->bits &= marks->bits - 1;
    return position < marks->end ? position : marks->end;
}

/// Whether `candidates` marks a position from `from` to before `end` (`from` < `end`): with exact marks
/// (`csimd_verify_marks`), whether a keyword begins there. A range within four words (any of up to 193 positions) is
/// tested without a branch, its words masked to it (three words past the word of `end - 1` are there to be read, as
/// in `run_next_mark`); a longer one word by word. (Unmasked, the words after the range are marked too often: the
/// next line's header holds a keyword's first bytes in many a process's name.)
static inline __attribute__((always_inline)) int run_any_mark(const uint64_t *candidates, size_t from, size_t end) {
    size_t word = from >> 6;
    const size_t last = (end - 1) >> 6;
    const uint64_t first_mask = ~0ull << (from & 63), last_mask = ~0ull >> (63 - ((end - 1) & 63));
    const size_t span = last - word;
    if (span < 4) {
        const uint64_t *const at = candidates + word;
        const uint64_t any = (at[0] & first_mask & (span == 0 ? last_mask : ~0ull)) |
                             (at[1] & (span > 1 ? ~0ull : span == 1 ? last_mask : 0)) |
                             (at[2] & (span > 2 ? ~0ull : span == 2 ? last_mask : 0)) |
                             (at[3] & (span == 3 ? last_mask : 0));
        return any != 0;
    }
    uint64_t bits = candidates[word] & first_mask;
    while (word < last) {
        if (bits) return 1;
        bits = candidates[++word];
    }
    return (bits & last_mask) != 0;
}

/// Whether a literal of `keywords` begins at a position of `message[0..<count]` that `candidates` marks (bit
/// `offset + p` for position p), as the line-by-line path's keyword search would find it.
static inline __attribute__((always_inline)) int run_has_keyword(
    const csimd_literals *keywords, const uint8_t *message, size_t count, const uint64_t *candidates, size_t offset) {
    if (count < 3) return 0;
    const size_t end = offset + count - 2;
    // Most messages have no position marked: told without a branch on each word (`run_any_mark`).
    if (!run_any_mark(candidates, offset, end)) return 0;
    size_t word = offset >> 6;
    uint64_t bits = candidates[word] & (~0ull << (offset & 63));
    for (;;) {
        while (bits == 0) {
            if (((word + 1) << 6) >= end) return 0;
            bits = candidates[++word];
        }
        const size_t position = (word << 6) | (size_t)__builtin_ctzll(bits);
        if (position >= end) return 0;
        bits &= bits - 1;
        if (csimd_verify(keywords, message, count, position - offset, 0xFF, 1) >= 0) return 1;
    }
}

/// The next line of a run, which begins at `bytes + position`: when it ends (LF, `*lf`, from `feeds`) before `end`,
/// has at most `max_line` bytes (`*count`; a header needs 28, a printed line fewer), and, with `loud`, is not marked
/// there (the reading thread looked at its end and message, `csimd_loud_lines`, so that this thread reads only its
/// header, the bytes the thread wrote in a cache of its own: `*count` then holds a CR before the LF, if there is one,
/// which no header's byte can be, and the message is not read); without, `*count` leaves that CR out, as the reader
/// does; else null.
static inline __attribute__((always_inline)) const uint8_t *run_line(
    run_marks *feeds, const uint8_t *bytes, size_t position, size_t end, size_t max_line, const uint64_t *loud,
    size_t *lf, size_t *count) {
    *lf = run_next_mark(feeds);
    if (*lf == end) return 0;
    *count = *lf - position;
    const uint8_t *line = bytes + position;
    if (loud) {
        if ((loud[*lf >> 6] >> (*lf & 63)) & 1) return 0;
        // One byte over the limit is within it when that byte is a CR (read only then).
        if (*count == max_line + 1 && line[max_line] == 0x0D) return line;
    } else if (*count && line[*count - 1] == 0x0D) {
        --*count;
    }
    return *count > max_line ? 0 : line;
}

/// Whether the message of a line of `count` bytes (`line`, at `position` of the chunk), from `index`, holds no
/// keyword of `keywords` at a position `candidates` marks.
static inline __attribute__((always_inline)) int run_quiet(
    const csimd_literals *keywords, const uint8_t *line, size_t index, size_t count, const uint64_t *candidates,
    size_t position) {
    return index >= count || !run_has_keyword(keywords, line + index, count - index, candidates, position + index);
}

/// Whether a repeat or furniture pattern of `state` may match the `count` bytes at `content` by their first
/// `CSIMD_CONTENT_POSITIONS` (a shorter line may be one).
static inline int run_may_be_content(const csimd_header_state *state, const uint8_t *content, size_t count) {
    if (count < CSIMD_CONTENT_POSITIONS) return 1;
    if (content[0] < 0x80 && !((state->content_first[content[0] >> 6] >> (content[0] & 63)) & 1)) return 0;
    for (uint32_t k = 0; k < state->content_patterns; k++) {
        int may = 1;
        for (size_t p = 0; p < CSIMD_CONTENT_POSITIONS && may; p++) {
            const uint8_t byte = content[p];
            may = byte >= 0x80 || (state->content_bytes[k][p][byte >> 6] >> (byte & 63)) & 1;
        }
        if (may) return 1;
    }
    return 0;
}

/// Whether a message that ends with `byte` may open a dump (`{`, `(` or `[`).
static inline __attribute__((always_inline)) int run_opens(uint8_t byte) {
    return byte == '{' || byte == '(' || byte == '[';
}

/// Counts a line of incarnation `tail` in shape `modern` at `micros` into the last of the `*group` groups written to
/// `out` when it continues it, else into a new one; 0 when that would be group `capacity` (the run ends there).
static inline __attribute__((always_inline)) int run_group(
    csimd_header_group *out, size_t *group, size_t capacity, uint32_t tail, int modern, uint32_t micros) {
    csimd_header_group *last = *group ? &out[*group - 1] : 0;
    if (last && last->tail == tail && last->modern == (uint16_t)modern && micros >= last->last_micros) {
        last->count++;
        last->last_micros = micros;
        return 1;
    }
    if (*group == capacity) return 0;
    out[(*group)++] = (csimd_header_group){(uint16_t)tail, (uint16_t)modern, 1, micros, micros};
    return 1;
}

/// Whether `tail` (of a record of format `format`) is at `at`, with `room` bytes left in the line.
static inline __attribute__((always_inline)) int style_tail_at(
    const csimd_style_tail *tail, const uint8_t *at, size_t room, uint32_t format) {
    const size_t size = tail->count;
    if (size == 0 || size > room || tail->format != format) return 0;
    return run_words_at(tail->words, tail->last, tail->mask, at, size);
}

/// `Df|Db|E |I |A |F |Er|Fa|Ft`: the types of `log --style compact`.
static inline __attribute__((always_inline)) int style_compact_type(uint8_t first, uint8_t second) {
    switch (first) {
    case 'D': return second == 'f' || second == 'b';
    case 'E': return second == ' ' || second == 'r';
    case 'I':
    case 'A': return second == ' ';
    case 'F': return second == ' ' || second == 'a' || second == 't';
    default: return 0;
    }
}

/// The end of the run of spaces at `index` of a line of `count` bytes.
static inline __attribute__((always_inline)) size_t style_spaces(const uint8_t *line, size_t index, size_t count) {
    while (index < count && line[index] == ' ') index++;
    return index;
}

/// `0x[0-9a-f]+` at `index`, followed by a space: the index of that space, or 0.
static inline __attribute__((always_inline)) size_t style_hex_number(
    const uint8_t *line, size_t index, size_t count) {
    if (index + 2 >= count || line[index] != '0' || line[index + 1] != 'x') return 0;
    const size_t digits = run_thread(line + index + 2, count - index - 2, 4);
    index += 2 + digits;
    return digits && index < count && line[index] == ' ' ? index : 0;
}

/// ` +0x[0-9a-f]+ +[A-Z][a-z]+ +0x[0-9a-f]+ +` at `start` (the default style's thread, type and activity columns,
/// each read whole: a column gives nothing back, a space having to follow it): where the pid begins, or 0.
static inline __attribute__((always_inline)) size_t style_default_columns(
    const uint8_t *line, size_t start, size_t count) {
    size_t index = style_spaces(line, start, count);
    if (index == start || !(index = style_hex_number(line, index, count))) return 0;
    index = style_spaces(line, index, count);
    if (index >= count || (uint8_t)(line[index] - 'A') >= 26) return 0;
    const size_t lower = ++index;
    while (index < count && (uint8_t)(line[index] - 'a') < 26) index++;
    if (index == lower || index >= count || line[index] != ' ') return 0;
    if (!(index = style_hex_number(line, style_spaces(line, index, count), count))) return 0;
    return style_spaces(line, index, count);
}

/// `\([^()]*\)` at `open` (a `(`): the index after its `)`, or 0 when another `(` or the line's end comes first.
static inline __attribute__((always_inline)) size_t style_group_end(const uint8_t *line, size_t open, size_t count) {
    for (size_t index = open + 1; index < count; index++) {
        if (line[index] == ')') return index + 1;
        if (line[index] == '(') return 0;
    }
    return 0;
}

/// `(?: \([^()]*\))?` at `index` (after a pid's `]`, so never at 0): the index after the group's `)` when one opens
/// there, `index` when none does, or 0 when one opens and does not close (nothing after it matches without it).
static inline __attribute__((always_inline)) size_t style_optional_group(
    const uint8_t *line, size_t index, size_t count) {
    const int opens = index + 1 < count && line[index] == ' ' && line[index + 1] == '(';
    return opens ? style_group_end(line, index + 1, count) : index;
}

/// `(?: \([^()]*\))? <[A-Za-z]+>:` at `index` (after a device syslog line's `[pid]`): the index after the colon,
/// or 0.
static inline __attribute__((always_inline)) size_t style_device_level_end(
    const uint8_t *line, size_t index, size_t count) {
    if (!(index = style_optional_group(line, index, count))) return 0;
    if (index + 1 >= count || line[index] != ' ' || line[index + 1] != '<') return 0;
    index += 2;
    const size_t letters = index;
    while (index < count && (uint8_t)((line[index] | 0x20) - 'a') < 26) index++;
    return index > letters && index + 1 < count && line[index] == '>' && line[index + 1] == ':' ? index + 2 : 0;
}

/// The first `[`, `]`, `(` or `)` of `line` from `index`, or `count`: eight bytes at a time while eight are left (the
/// bytes of a message, most of them with none), each word's bytes tested exactly.
static inline __attribute__((always_inline)) size_t style_first_bracket(
    const uint8_t *line, size_t index, size_t count) {
    while (index + 8 <= count) {
        const uint64_t word = csimd_load8(line + index);
        const uint64_t paren = (word & 0xFEFEFEFEFEFEFEFEull) ^ 0x2828282828282828ull;  // `(` 0x28, `)` 0x29
        const uint64_t marks = ~(csimd_nonzero_bytes(word ^ 0x5B5B5B5B5B5B5B5Bull) &
                                 csimd_nonzero_bytes(word ^ 0x5D5D5D5D5D5D5D5Dull) & csimd_nonzero_bytes(paren)) &
                               0x8080808080808080ull;
        if (marks) return index + (size_t)(__builtin_ctzll(marks) >> 3);
        index += 8;
    }
    while (index < count && line[index] != '[' && line[index] != ']' && line[index] != '(' && line[index] != ')')
        index++;
    return index;
}

/// Whether a device syslog line of `count` bytes whose timestamp ends at `timestamp_end` matches its pattern the
/// first way PCRE2 tries (`LogStyleHeader.deviceSyslog`): `\S* ` after the timestamp's space (the run of non-space
/// bytes to the first `\s`, which must be a space), then from there
/// `[^\[\]()\s][^\[\]()]*?(?:\([^()]*\))?\[\d+\](?: \([^()]*\))? <[A-Za-z]+>:`. The process can hold no bracket or
/// parenthesis, so it ends at the first one; an optional group that matches is kept, nothing after it matching
/// without it.
static inline int style_device_first_way(const uint8_t *line, size_t timestamp_end, size_t count) {
    size_t index = timestamp_end + 1;
    while (index < count && line[index] != ' ' && (uint8_t)(line[index] - 9) >= 5) index++;
    if (index >= count || line[index] != ' ') return 0;
    const size_t start = index + 1;
    if (start >= count) return 0;
    const uint8_t first = line[start];
    if (first == '[' || first == ']' || first == '(' || first == ')' || first == ' ' || (uint8_t)(first - 9) < 5)
        return 0;
    index = style_first_bracket(line, start + 1, count);
    if (index < count && line[index] == '(' && !(index = style_group_end(line, index, count))) return 0;
    if (index >= count || line[index] != '[') return 0;
    const size_t digits = ++index;
    while (index < count && (uint8_t)(line[index] - '0') < 10) index++;
    return index > digits && index < count && line[index] == ']' && style_device_level_end(line, index + 1, count);
}

/// Where `tail` (of a record of format `format`, in `style`) ends when it is at `start` of a line of `count` bytes,
/// or 0. A device syslog tail ends after its `[pid]`, which follows the name, or a sender group after it
/// (`(?:\([^()]*\))?`: a group that opens must close, nothing after it matching without it): two incarnations of
/// a name differ only there.
static inline __attribute__((always_inline)) size_t style_tail_end(
    const csimd_style_tail *tail, uint32_t style, uint32_t format, const uint8_t *line, size_t start, size_t count) {
    if (!style_tail_at(tail, line + start, count - start, format)) return 0;
    size_t index = start + tail->count;
    if (style != CSIMD_STYLE_DEVICE) return index;
    if (index < count && line[index] == '(' && !(index = style_group_end(line, index, count))) return 0;
    const size_t pid_end = index + tail->pid_count;
    if (pid_end > count || csimd_load8(line + pid_end - 8) >> (64 - 8 * tail->pid_count) != tail->pid) return 0;
    return pid_end;
}

/// Where tail `t` ends when it is at `start` of a line of `count` bytes, or 0: an NSLog tail of the shape `modern`
/// (`style` 0), or a style's (`style_tail_end`).
static inline __attribute__((always_inline)) size_t run_tail_end(
    const csimd_header_state *nslog, const csimd_style_state *styled, uint32_t style, uint32_t t, int modern,
    const uint8_t *line, size_t start, size_t count) {
    if (style) return style_tail_end(&styled->tails[t], style, styled->format, line, start, count);
    const csimd_header_tail *tail = &nslog->tails[t];
    return run_tail_at(tail, line + start, count - start, modern) ? start + tail->count : 0;
}

/// `csimd_header_run` (`style` 0: the NSLog shapes `armed` in `nslog`) and `csimd_style_run` (a `CSIMD_STYLE_…`, as
/// `styled` was armed), each line behind `prefix`, inlined per style (and NSLog's per prefix), with the loud lines and
/// without (`loud` null), each loop as lean as it can be.
static inline __attribute__((always_inline)) size_t run_headers(
    csimd_header_state *nslog, uint32_t armed, uint32_t prefix, csimd_style_state *styled, uint32_t style,
    const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines, const uint64_t *candidates,
    const uint64_t *loud, size_t max_line, csimd_header_group *out, size_t capacity, size_t *groups, size_t *next,
    int64_t *opened) {
    size_t position = start;
    *opened = 0;
    size_t lines = 0;
    size_t group = 0;  // groups written; the last one (group - 1) may grow
    uint32_t *const kept_hint = style ? &styled->hint : &nslog->hint;
    uint32_t hint = *kept_hint < CSIMD_HEADER_TAILS ? *kept_hint : 0;
    const csimd_literals *const keywords = style ? styled->keywords : nslog->keywords;
    run_marks feeds = run_marks_from(newlines, start, end);
    // An NSLog line whose message may open a dump leaves the loop over lines with what its group needs and its
    // message (`held`: from `index`, where the line-by-line path's message begins, to the line's end without a CR),
    // whose brackets are counted after it; it is taken, and the run ends after it when they leave a dump open. (Counted
    // in the loop, with the rest of its group's work, they made every other line keep more on the stack.)
    struct {
        const uint8_t *message;
        size_t length, lf;
        uint32_t tail, micros;
        int modern;
    } held;
    for (;;) {
        held.message = 0;
        for (;;) {
            size_t lf, count;
            const uint8_t *line = run_line(&feeds, bytes, position, end, max_line, loud, &lf, &count);
            if (!line) break;
            size_t header = position;  // where the header begins in the chunk
            // A CI runner's timestamp, once measured: a line that is no header does not measure it again.
            size_t skip = SIZE_MAX;
            if (count < 28) goto not_header;  // shorter than any header's first words
            if (prefix == CSIMD_PREFIX_CI_TIMESTAMP) {
                skip = run_ci_timestamp(line, count);
                if (!skip || count - skip < 28) goto not_header;
                line += skip;
                count -= skip;
                header += skip;
            }
            int modern = 0;
            uint32_t micros;
            size_t timestamp_end;
            if (style == CSIMD_STYLE_DEVICE || style == CSIMD_STYLE_BSD) {
                if (!run_device_clock(&styled->clock, line, count, &micros, &timestamp_end)) goto not_header;
            } else {
                // The fraction's digits give the shape (1–3 classic, 4–9 modern), and for NSLog the shape the clock
                // armed for it.
                uint64_t fraction;
                const unsigned digits = run_fraction_digits(line, 20, &fraction);
                if (digits == 0) goto not_header;
                modern = !style && digits > 3;
                if (!style && !(armed & (1u << modern))) goto not_header;
                csimd_header_clock *clock = style ? &styled->clock : &nslog->clocks[modern];
                if (!run_clock(clock, line, count, digits, fraction, &micros, &timestamp_end)) goto not_header;
            }
            // The header tail of one of the recent incarnations, the last one's first (at most one can be there): from
            // the timestamp's end, ` name[pid:` (NSLog), ` Ty name[pid:` (compact, the type masked out),
            // `  host name[pid]: ` (syslog), ` device name` (device syslog), ` host name[pid]` (BSD syslog); or
            // `pid   ttl    name: ` (default), after the columns before the pid.
            size_t tail_start = timestamp_end;
            if (style == CSIMD_STYLE_DEFAULT && !(tail_start = style_default_columns(line, timestamp_end, count)))
                goto not_header;
            uint32_t tail = hint;
            size_t index = run_tail_end(nslog, styled, style, tail, modern, line, tail_start, count);
            if (!index) {
                uint32_t t = 0;
                for (; t < CSIMD_HEADER_TAILS; t++) {
                    if (t == hint) continue;
                    if ((index = run_tail_end(nslog, styled, style, t, modern, line, tail_start, count))) break;
                }
                if (t == CSIMD_HEADER_TAILS) goto not_header;
                tail = hint = t;
            }
            if (!style || style == CSIMD_STYLE_COMPACT) {
                // `(?<thread>\d+)\]` (modern NSLog), `(?<thread>[0-9A-Fa-fx]+)\]` (classic), or the compact type and
                // `(?<thread>[0-9a-f]+)\]`; then a space or none.
                if (style && !style_compact_type(line[tail_start + 1], line[tail_start + 2])) goto not_header;
                const size_t thread = run_thread(line + index, count - index, style ? 4 : modern ? 1 : 2);
                index += thread;
                if (thread == 0 || index >= count || line[index] != ']') goto not_header;
                index++;
                if (index < count && line[index] == ' ') index++;
            } else if (style == CSIMD_STYLE_DEVICE) {
                // After the tail's `[pid]`, `(?: \([^()]*\))? <(?<level>[A-Za-z]+)>: ?` (see `style_tail_end`).
                if (!(index = style_device_level_end(line, index, count))) break;
                if (index < count && line[index] == ' ') index++;
                // Read the second way (no device name), the line is that only when the first way fails for it.
                if (styled->tails[tail].unnamed && style_device_first_way(line, timestamp_end, count)) break;
            } else if (style == CSIMD_STYLE_BSD) {
                // After the tail's `]`, `(?: \([^()]*\))?: `.
                if (!(index = style_optional_group(line, index, count))) break;
                if (index + 1 >= count || line[index] != ':' || line[index + 1] != ' ') break;
                index += 2;
            }
            // The message follows (in the styles, `(?:\([^()]*\) )?(?:\[(?<subsystem>…):(?<category>…)\] )?` may
            // come first, and match whatever follows: the rest of the line is searched whole). A message that holds
            // a keyword is the line-by-line path's. One that ends with `{`, `(` or `[` may open a dump: an NSLog line
            // is held (`held`) and taken after the loop; a style's message may begin after `index`, and such a line
            // is left to the line-by-line path, as every such line is with the loud lines (which mark them).
            if (!loud && index < count && run_opens(line[count - 1])) {
                if (style || !run_quiet(keywords, line, index, count, candidates, header)) break;
                held.message = line + index;
                held.length = count - index;
                held.lf = lf;
                held.tail = tail;
                held.micros = micros;
                held.modern = modern;
                break;
            }
            if (!loud && !run_quiet(keywords, line, index, count, candidates, header)) break;
            if (!run_group(out, &group, capacity, tail, modern, micros)) break;
            lines++;
            position = lf + 1;
            continue;
        not_header:
            // An NSLog run's printed line (`csimd_header_state.printed`), measured as the line-by-line path measures
            // it: with its CR, within the longest line; past a CI runner's timestamp where the run has that prefix.
            if (style || !nslog->printed) break;
            {
                const uint8_t *const start = bytes + position;
                size_t whole = lf - position;
                if (whole > max_line) break;
                if (whole && start[whole - 1] == 0x0D) whole--;
                // Measured on the line without its CR, as the header's check did.
                if (prefix != CSIMD_PREFIX_CI_TIMESTAMP) {
                    skip = 0;
                } else if (skip == SIZE_MAX) {
                    skip = run_ci_timestamp(start, whole);
                }
                if (whole <= skip) break;
                const uint8_t *const content = start + skip;
                const size_t rest = whole - skip;
                // The reading thread refused most printed lines already (`run_printed_refused`: past a timestamp,
                // which a run with no prefix does not skip, so not for a line with a digit first).
                const int refused = loud && ((loud[position >> 6] >> (position & 63)) & 1) &&
                                    (prefix == CSIMD_PREFIX_CI_TIMESTAMP || (uint8_t)(start[0] - '0') >= 10);
                if (!refused && !run_content_refused(content, rest)) break;
                if (run_may_be_content(nslog, content, rest)) break;
                if (!run_quiet(keywords, content, 0, rest, candidates, position + skip)) break;
                if (!run_group(out, &group, capacity, CSIMD_PRINTED_TAIL, 0, 0)) break;
                lines++;
                position = lf + 1;
            }
        }
        // The line that may open a dump is taken, and the run ends after it when its brackets leave one open.
        if (!held.message) break;
        const int64_t open = csimd_bracket_balance(held.message, held.length, csimd_level_inline() != 0);
        if (!run_group(out, &group, capacity, held.tail, held.modern, held.micros)) break;
        lines++;
        position = held.lf + 1;
        if (open > 0) {
            *opened = open;
            break;
        }
    }
    *kept_hint = hint;
    *groups = group;
    *next = position;
    return lines;
}

/// `run_headers` for NSLog behind `prefix` with the loud lines: a function of its own, so that its loop's registers
/// are allocated apart from those of the loop without (in one function, the one moved the other's values onto the
/// stack).
static __attribute__((noinline)) size_t nslog_run_loud(
    csimd_header_state *state, uint32_t armed, uint32_t prefix, const uint8_t *bytes, size_t start, size_t end,
    const uint64_t *newlines, const uint64_t *candidates, const uint64_t *loud, size_t max_line,
    csimd_header_group *out, size_t capacity, size_t *groups, size_t *next, int64_t *opened) {
    return prefix == CSIMD_PREFIX_CI_TIMESTAMP
               ? run_headers(state, armed, CSIMD_PREFIX_CI_TIMESTAMP, 0, 0, bytes, start, end, newlines, candidates,
                             loud, max_line, out, capacity, groups, next, opened)
               : run_headers(state, armed, CSIMD_PREFIX_NONE, 0, 0, bytes, start, end, newlines, candidates, loud,
                             max_line, out, capacity, groups, next, opened);
}

size_t csimd_header_run(
    csimd_header_state *state, uint32_t armed, const uint8_t *bytes, size_t start, size_t end,
    const uint64_t *newlines, const uint64_t *candidates, const uint64_t *loud, size_t max_line,
    csimd_header_group *out, size_t capacity, size_t *groups, size_t *next, int64_t *opened) {
    if (loud) {
        return nslog_run_loud(state, armed, state->prefix, bytes, start, end, newlines, candidates, loud, max_line,
                              out, capacity, groups, next, opened);
    }
#define NSLOG_RUN(prefix)                                                                                         \
    run_headers(state, armed, prefix, 0, 0, bytes, start, end, newlines, candidates, 0, max_line, out, capacity,     \
                groups, next, opened)
    return state->prefix == CSIMD_PREFIX_CI_TIMESTAMP ? NSLOG_RUN(CSIMD_PREFIX_CI_TIMESTAMP)
                                                      : NSLOG_RUN(CSIMD_PREFIX_NONE);
#undef NSLOG_RUN
}

size_t csimd_style_run(
    csimd_style_state *state, const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines,
    const uint64_t *candidates, const uint64_t *loud, size_t max_line, csimd_header_group *out, size_t capacity,
    size_t *groups, size_t *next) {
// The prefix is read per line here (one branch the processor predicts), not compiled into each loop. A style's
// line that may open a dump ends the run before it: nothing is opened.
    int64_t opened;
#define STYLE_RUN(style, loud)                                                                                    \
    run_headers(0, 0, state->prefix, state, style, bytes, start, end, newlines, candidates, loud, max_line, out,    \
                capacity, groups, next, &opened)
    switch (state->style) {
    case CSIMD_STYLE_COMPACT: return loud ? STYLE_RUN(CSIMD_STYLE_COMPACT, loud) : STYLE_RUN(CSIMD_STYLE_COMPACT, 0);
    case CSIMD_STYLE_SYSLOG: return loud ? STYLE_RUN(CSIMD_STYLE_SYSLOG, loud) : STYLE_RUN(CSIMD_STYLE_SYSLOG, 0);
    case CSIMD_STYLE_DEVICE: return loud ? STYLE_RUN(CSIMD_STYLE_DEVICE, loud) : STYLE_RUN(CSIMD_STYLE_DEVICE, 0);
    case CSIMD_STYLE_BSD: return loud ? STYLE_RUN(CSIMD_STYLE_BSD, loud) : STYLE_RUN(CSIMD_STYLE_BSD, 0);
    // The loud lines take a message to begin after a line's first `]`, which a default line need not have.
    default: return STYLE_RUN(CSIMD_STYLE_DEFAULT, 0);
    }
#undef STYLE_RUN
}

/// Whether the printed-line path of an NSLog run (`csimd_header_state.printed`) refuses the `length` bytes at `line`
/// (a line without its CR) as a line of no format, past a CI runner's timestamp when the line begins with one
/// (`run_content_refused`). (A run with no prefix reads the whole line: one that begins with a timestamp begins with a
/// digit, which it never refuses.)
static inline int run_printed_refused(const uint8_t *line, size_t length) {
    // Most lines begin with a digit and are headers, refused by no run: told by two bytes (a CI runner's timestamp,
    // the one prefix skipped, has its `T` at 10).
    if ((uint8_t)(line[0] - '0') < 10 && !(length > 10 && line[10] == 'T')) return 0;
    const size_t skip = run_ci_timestamp(line, length);
    if (length <= skip) return 0;
    return run_content_refused(line + skip, length - skip);
}

/// What `csimd_loud_lines` marks of the line `bytes[start..<lf]`: `RUN_LOUD` when a run of headers leaves it whatever
/// its header, `RUN_REFUSED` when it is not loud and `run_printed_refused` refuses it.
enum { RUN_LOUD = 1, RUN_REFUSED = 2 };
static inline int run_loud(const uint8_t *bytes, size_t start, size_t lf, const uint64_t *candidates) {
    const uint8_t *line = bytes + start;
    // The line as the reader hands it out, without a CR before its LF.
    const size_t length = lf - start - (lf > start && bytes[lf - 1] == 0x0D);
    // The message: after the line's first `]` and one space. In an NSLog line the run reads, that `]` ends the
    // thread: no byte of the timestamp, the zone, the header tail (` name[pid:`, a name without brackets) or the
    // thread is one. In a compact, syslog, device or BSD syslog line it is that of the thread or pid, or one before
    // it (in a host, a device name or a sender): the message begins there or later.
    const uint8_t *bracket = length ? memchr(line, ']', length) : 0;
    if (!bracket) {
        // No `]`: no header the loud lines are read with (NSLog, compact, device syslog), but a BSD syslog record
        // with no pid, whose message follows its tail, or a printed line (an app's `print`: half an Xcode console's
        // noise), which the run reads whole. Such a line is left to the path one by one when it ends with `{`, `(`
        // or `[`, or holds a keyword anywhere (its message is a part of it). (Left whatever it held, every printed
        // line was read one by one with two jobs, and the xcode capture took nearly as long as with one.)
        if (!length) return 0;
        if (run_opens(line[length - 1]) || (length >= 3 && run_any_mark(candidates, start, start + length - 2)))
            return RUN_LOUD;
    } else {
        size_t message = (size_t)(bracket - line) + 1;
        if (message < length && line[message] == ' ') message++;
        if (message < length && (run_opens(line[length - 1]) ||
                                 (length - message >= 3 &&
                                  run_any_mark(candidates, start + message, start + length - 2))))
            return RUN_LOUD;
    }
    // A line a run may read as printed: this thread also tells whether the printed-line path refuses it, which the
    // thread that runs the headers then need not work out (a sixth of its time on the xcode capture).
    return run_printed_refused(line, length) ? RUN_REFUSED : 0;
}

/// Sets the bits `marks` (`run_loud`) of the line `bytes[start..<lf]` in `loud`: its LF's when loud, its first byte's
/// when refused.
static inline __attribute__((always_inline)) void run_mark_loud(uint64_t *loud, size_t start, size_t lf, int marks) {
    if (marks & RUN_LOUD) loud[lf >> 6] |= 1ull << (lf & 63);
    if (marks & RUN_REFUSED) loud[start >> 6] |= 1ull << (start & 63);
}

void csimd_loud_lines(
    const uint8_t *bytes, size_t count, const uint64_t *newlines, const uint64_t *candidates, uint64_t *loud) {
    memset(loud, 0, (count + 63) / 64 * sizeof *loud);
    run_marks feeds = run_marks_from(newlines, 0, count);
    size_t lf = run_next_mark(&feeds);
    if (lf == count) return;
    loud[lf >> 6] |= 1ull << (lf & 63);  // the line begun before `bytes`: `csimd_loud_line` once it is known
    for (;;) {
        const size_t start = lf + 1;
        lf = run_next_mark(&feeds);
        if (lf == count) return;
        run_mark_loud(loud, start, lf, run_loud(bytes, start, lf, candidates));
    }
}

void csimd_loud_line(
    const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines, const uint64_t *candidates,
    uint64_t *loud) {
    run_marks feeds = run_marks_from(newlines, start, end);
    const size_t lf = run_next_mark(&feeds);
    if (lf == end) return;
    loud[lf >> 6] &= ~(1ull << (lf & 63));
    if (start < lf) loud[start >> 6] &= ~(1ull << (start & 63));
    run_mark_loud(loud, start, lf, run_loud(bytes, start, lf, candidates));
}

size_t csimd_continuation_run(
    const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines, size_t max_line, int vectors,
    int letter, uint32_t prefix, int64_t *depth, size_t *next) {
    const size_t shortest = letter ? (size_t)letter : 28;
    size_t position = start;
    size_t lines = 0;
    int64_t open = *depth;
    run_marks feeds = run_marks_from(newlines, start, end);
    while (open > 0) {
        const size_t lf = run_next_mark(&feeds);
        if (lf == end) break;
        const size_t count = lf - position;
        if (count > max_line) break;
        const uint8_t *line = bytes + position;
        // The line as the reader hands it out (without a CR before its LF) can begin an NSLog or `log` style header
        // only with 28 bytes or more and a digit first, a device or BSD syslog one only with `letter` or more and a
        // capital.
        const size_t handed = count - (count > 0 && line[count - 1] == 0x0D);
        // Behind a CI runner's timestamp, the header would follow it; a line without one is read like no record.
        const size_t skip = prefix == CSIMD_PREFIX_CI_TIMESTAMP ? run_ci_timestamp(line, handed) : 0;
        const uint8_t *const content = line + skip;
        if ((prefix != CSIMD_PREFIX_CI_TIMESTAMP || skip) && handed - skip >= shortest &&
            (uint8_t)(content[0] - (letter ? 'A' : '0')) < (letter ? 26 : 10))
            break;
        open += csimd_bracket_balance(line, count, vectors);
        lines++;
        position = lf + 1;
    }
    *depth = open;
    *next = position;
    return lines;
}
