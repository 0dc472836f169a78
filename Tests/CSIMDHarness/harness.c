// Checks csimd_literals_find against a naive search, on the processor it is built for: the AVX2 path on x86-64,
// the NEON path on AArch64 (Scripts/check-csimd.sh builds it natively and, where a cross compiler and qemu are
// installed, for AArch64 under qemu). Random texts of literal pieces in mixed case and bytes that fold alike, every
// start, and buffers that end at a page before one that cannot be read; the chunk scan's marks (as the filter
// leaves them and once checked), the bracket balance, the thread-byte test of the runs of headers and the lines
// they leave to the line-by-line path (`csimd_loud_lines`) and the built-in patterns' refusal against byte loops; and
// the CRC-32 against a bit loop.
// Prints "N passed, 0 failed".
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "csimd.h"
#include "../../Sources/CSIMD/bytes.h"

static const char *literals[] = {
    "view", "active", "launching", "exited", "phase", "unhide", "terminate", "protected", "memory", "jetsam",
    "hide", "foreground", "background", "watchdog", "terminated", "termination", "nib", "memorystatus",
    "exc_resource", "unknown reason", "connect", "disconnect", "8badf00d", "2343432205", "abc", "abcd", "act",
};
enum { LITERALS = sizeof literals / sizeof literals[0] };

static uint8_t lower(uint8_t byte) { return (uint8_t)(byte - 'A') < 26 ? byte | 0x20 : byte; }

/// The lowest-numbered literal that begins at `position` of `text[0..<count]` (compared without ASCII case), or -1.
static int naive_at(const uint8_t *text, size_t count, size_t position) {
    for (int k = 0; k < LITERALS; k++) {
        const size_t length = strlen(literals[k]);
        if (position + length > count) continue;
        size_t i = 0;
        while (i < length && lower(text[position + i]) == (uint8_t)literals[k][i]) i++;
        if (i == length) return k;
    }
    return -1;
}

/// The lowest position at or after 0, then the lowest-numbered literal there; -1 when none.
static long naive(const uint8_t *text, size_t count, int32_t *literal) {
    for (size_t p = 0; p < count; p++) {
        const int k = naive_at(text, count, p);
        if (k >= 0) {
            *literal = k;
            return (long)p;
        }
    }
    return -1;
}

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static int passed, failed;

static void check(const csimd_literals *set, const uint8_t *text, size_t count) {
    int32_t expected_literal = -1, found_literal = -1;
    const long expected = naive(text, count, &expected_literal);
    const size_t found = csimd_literals_find(set, text, count, &found_literal);
    const long got = found < count ? (long)found : -1;
    if (got == expected && (got < 0 || found_literal == expected_literal)) {
        passed++;
    } else {
        failed++;
        if (failed <= 5) {
            fprintf(stderr, "mismatch: %.*s: expected %ld/%d, found %ld/%d\n", (int)count, (const char *)text, expected,
                expected_literal, got, found_literal);
        }
    }
}

/// The scan's marks of `text[0..<scanned]` checked by `csimd_verify_marks` inside `text[0..<valid]`: a mark exactly
/// where a literal begins there.
static int check_verified(const csimd_literals *set, const uint8_t *text, size_t scanned, size_t valid) {
    static uint64_t newlines[64], candidates[64];
    csimd_scan(set, text, scanned, newlines, candidates);
    size_t marked = 0;
    for (size_t p = 0; p < scanned; p++) marked += naive_at(text, valid, p) >= 0;
    if (csimd_verify_marks(set, text, scanned, valid, candidates) != marked) return 0;
    for (size_t p = 0; p < (scanned + 63) / 64 * 64; p++) {
        const int expected = p < scanned && naive_at(text, valid, p) >= 0;
        if ((int)(candidates[p / 64] >> (p % 64) & 1) != expected) return 0;
    }
    return 1;
}

/// The chunk scan over a buffer of lines: exact LF marks, and a mark at every position where a literal begins;
/// then each line's first literal found from the marks (as a reader's caller does) against the naive search; then
/// the marks checked (`csimd_verify_marks`), of the whole and of a first part whose literals may run on past it.
static void check_scan(const csimd_literals *set, const uint8_t *text, size_t count) {
    static uint64_t newlines[64], candidates[64];
    memset(newlines, 0xA5, sizeof newlines);
    memset(candidates, 0xA5, sizeof candidates);
    csimd_scan(set, text, count, newlines, candidates);
    int ok = 1;
    for (size_t p = 0; p < (count + 63) / 64 * 64; p++) {
        const int lf = p < count && text[p] == 0x0A;
        if ((int)(newlines[p / 64] >> (p % 64) & 1) != lf) ok = 0;
        if (p >= count && (candidates[p / 64] >> (p % 64) & 1)) ok = 0;
    }
    // Lines (LF-separated): the first literal of each from its marks.
    size_t start = 0;
    while (ok && start <= count) {
        size_t end = start;
        while (end < count && text[end] != 0x0A) end++;
        int32_t expected_literal = -1;
        const long expected = naive(text + start, end - start, &expected_literal);
        long got = -1;
        int32_t got_literal = -1;
        for (size_t p = start; p < end && got < 0; p++) {
            if (!(candidates[p / 64] >> (p % 64) & 1)) continue;
            const int32_t k = csimd_literal_verify(set, text + start, end - start, p - start);
            if (k >= 0) {
                got = (long)(p - start);
                got_literal = k;
            }
        }
        if (got != expected || (got >= 0 && got_literal != expected_literal)) ok = 0;
        start = end + 1;
    }
    if (ok && !(check_verified(set, text, count, count) && check_verified(set, text, count / 2, count))) ok = 0;
    if (ok) {
        passed++;
    } else if (++failed <= 5) {
        fprintf(stderr, "scan mismatch: %.*s\n", (int)count, (const char *)text);
    }
}

/// Whether a run of headers leaves the line `text[start..<lf]` whatever its header, by a byte loop: in the line
/// without a CR before its LF, a message after the first `]` and a space (the whole line when it has no `]`) that ends
/// with `{`, `(` or `[` or in whose positions with three bytes or more left a literal begins (inside
/// `text[0..<count]`).
static int naive_loud(const uint8_t *text, size_t count, size_t start, size_t lf) {
    if (lf > start && text[lf - 1] == 0x0D) lf--;
    size_t bracket = start;
    while (bracket < lf && text[bracket] != ']') bracket++;
    size_t message = start;
    if (bracket < lf) {
        message = bracket + 1;
        if (message < lf && text[message] == ' ') message++;
    }
    if (message == lf) return 0;
    if (text[lf - 1] == '{' || text[lf - 1] == '(' || text[lf - 1] == '[') return 1;
    for (size_t p = message; p + 2 < lf; p++) {
        if (naive_at(text, count, p) >= 0) return 1;
    }
    return 0;
}

/// Whether `csimd_loud_lines` marks the first byte of the line `text[start..<lf]` (its printed-line refusal done), by
/// the definition: in the line without a CR before its LF, some bytes, not loud, and past a CI runner's
/// timestamp when it begins with one, a content that begins with neither a space nor a tab and that
/// `csimd_builtin_refuses` (checked against a byte loop on its own) refuses.
static int naive_refused(const uint8_t *text, size_t count, size_t start, size_t lf) {
    size_t end = lf;
    if (end > start && text[end - 1] == 0x0D) end--;
    if (end == start || naive_loud(text, count, start, lf)) return 0;
    const size_t skip = csimd_ci_timestamp_length(text + start, end - start);
    if (end - start <= skip) return 0;
    const uint8_t first = text[start + skip];
    return first != ' ' && first != '\t' && csimd_builtin_refuses(text + start + skip, end - start - skip);
}

/// The loud lines of random NSLog-like and printed lines (`csimd_loud_lines`, then `csimd_loud_line` for the first
/// line, begun before what the other saw), from exact marks, against `naive_loud` (at each line's LF) and
/// `naive_refused` (at its first byte).
static void check_loud_lines(const csimd_literals *set) {
    static const char *pieces[] = {"2019-05-04 10:46:18.565 App[12:3a] ", "]", "] ", " ", "{", "(", "[", "\r",
        "x", "Ab", "view", "active", "background", "nib", "launch", "terminated", "\n", "\n", "\n", "\n", ":1", "\t",
        "[1", "2024-05-01T10:00:00.1234567Z ", "Jan  1 ", "x:", "7", "Cache: hit", "[SDWebImage] ", "2024-05-01T"};
    enum { PIECES = sizeof pieces / sizeof pieces[0] };
    static uint8_t text[2048 + CSIMD_SCAN_PADDING];
    static uint64_t newlines[40], candidates[40], loud[40];
    for (int round = 0; round < 3000; round++) {
        size_t count = 0;
        while (count < 1900) {
            const char *piece = pieces[next() % PIECES];
            const size_t length = strlen(piece);
            memcpy(text + count, piece, length);
            count += length;
        }
        memset(text + count, 0, CSIMD_SCAN_PADDING);
        csimd_scan(set, text, count, newlines, candidates);
        csimd_verify_marks(set, text, count, count, candidates);
        memset(loud, 0xA5, sizeof loud);
        csimd_loud_lines(text, count, newlines, candidates, loud);
        static uint8_t expected[2048];
        memset(expected, 0, sizeof expected);
        size_t start = SIZE_MAX;  // the first line's beginning is not seen
        for (size_t p = 0; p < count; p++) {
            if (text[p] != 0x0A) continue;
            expected[p] = start == SIZE_MAX ? 1 : naive_loud(text, count, start, p);
            if (start != SIZE_MAX) expected[start] |= naive_refused(text, count, start, p);
            start = p + 1;
        }
        int ok = 1;
        for (size_t p = 0; p < (count + 63) / 64 * 64; p++) {
            if ((int)(loud[p / 64] >> (p % 64) & 1) != (p < count && expected[p])) ok = 0;
        }
        // The first line, once its beginning (here the buffer's) is known: its LF's and its first byte's bits, the
        // latter set or cleared whatever it held (a reader's room before a chunk holds the bits of earlier chunks).
        size_t first = 0;
        while (first < count && text[first] != 0x0A) first++;
        if (first < count) {
            loud[0] ^= next() & 1;
            csimd_loud_line(text, 0, count, newlines, candidates, loud);
            if ((int)(loud[first / 64] >> (first % 64) & 1) != naive_loud(text, count, 0, first)) ok = 0;
            if (first > 0 && (int)(loud[0] & 1) != naive_refused(text, count, 0, first)) ok = 0;
        }
        if (ok) {
            passed++;
        } else if (++failed <= 5) {
            fprintf(stderr, "loud lines mismatch: %.*s\n", (int)count, (const char *)text);
        }
    }
}

static int digit(uint8_t byte) { return byte >= '0' && byte <= '9'; }

/// `csimd_builtin_refuses` said byte by byte: the first byte (an indented line's rest refused as a line), the month
/// and day, then the first `\s` or colon, the first `[`, `]`, colon or tab, the first tab, and `[IOS_SYSLOG_ROW`
/// anywhere.
static int naive_refuses(const uint8_t *line, size_t count) {
    if (count == 0) return 0;
    const uint8_t b = line[0];
    if (b == ' ' || b == '\t') {
        // Indented: what follows the spaces and tabs is refused too, and the whole line's tests below hold.
        size_t indent = 0;
        while (indent < count && (line[indent] == ' ' || line[indent] == '\t')) indent++;
        if (indent == count || !naive_refuses(line + indent, count - indent)) return 0;
    } else if (digit(b) || (b >= 10 && b <= 13) || b == '{' || b == '>') {
        return 0;
    }
    if (b >= 'A' && b <= 'Z' && count >= 6 && line[1] >= 'a' && line[1] <= 'z' && line[2] >= 'a' && line[2] <= 'z' &&
        line[3] == ' ' && (line[4] == ' ' || digit(line[4])) && digit(line[5]))
        return 0;
    size_t i = 0;
    while (i < count && !(line[i] == ' ' || (line[i] >= 9 && line[i] <= 13) || line[i] == ':')) i++;
    if (i + 1 < count && line[i] == ':' && digit(line[i + 1])) return 0;
    i = 0;
    while (i < count && !(line[i] == '[' || line[i] == ']' || line[i] == ':' || line[i] == '\t')) i++;
    if (i + 1 < count && line[i] == '[' && digit(line[i + 1])) return 0;
    i = 0;
    while (i < count && line[i] != '\t') i++;
    if (i + 1 < count && digit(line[i + 1])) return 0;
    for (i = 0; i + 15 <= count; i++) {
        if (memcmp(line + i, "[IOS_SYSLOG_ROW", 15) == 0) return 0;
    }
    return 1;
}

/// The built-in patterns' refusal (`csimd_builtin_refuses`) against `naive_refuses`: random lines of the bytes its
/// tests look at, some with a month and day or Appium's marker, every length to 160 (the pairs' pass, `refusal_pairs`,
/// reads lines of 17 or 33 bytes and more in several steps, shorter ones copied), in a buffer and ending at
/// `page_end`, before a page that cannot be read.
static void check_builtin_refusal(uint8_t *page_end) {
    static const char alphabet[] = "ab [:]\t\x0b\r1{>JanIOS_YLGRW\x80\xc3";
    static uint8_t line[176];
    int refused = 0;
    for (int round = 0; round < 20000; round++) {
        const size_t count = (size_t)(next() % (round % 2 ? 161 : 41));  // half of them short: one step or none
        for (size_t i = 0; i < count; i++) {
            const uint64_t r = next();
            line[i] = r % 3 ? (uint8_t)"abcdefgh"[r % 8] : (uint8_t)alphabet[(r >> 8) % (sizeof alphabet - 1)];
        }
        if (round % 5 == 1 && count >= 6) memcpy(line, "Jan  5", 6);
        if (round % 4 == 3 && count >= 8) memcpy(line, "  \t ", 1 + next() % 4);  // indented
        if (round % 7 == 2 && count >= 20) memcpy(line + next() % (count - 14), "[IOS_SYSLOG_ROW", 15);
        const int expected = naive_refuses(line, count);
        refused += expected;
        uint8_t *at_end = page_end - count;
        memcpy(at_end, line, count);
        if (csimd_builtin_refuses(line, count) == expected && csimd_builtin_refuses(at_end, count) == expected) {
            passed++;
        } else if (++failed <= 5) {
            fprintf(stderr, "builtin refusal mismatch: %.*s\n", (int)count, line);
        }
    }
    if (refused < 1000) {
        failed++;
        fprintf(stderr, "builtin refusal: only %d of the lines refused\n", refused);
    }
}

int main(void) {
    if (!csimd_vector_level()) {
        printf("csimd: not available on this processor; nothing else to check\n%d passed, %d failed\n", passed, failed);
        return failed ? 1 : 0;
    }
    static csimd_literals set;
    static uint8_t bytes[1024];
    static int32_t offsets[LITERALS + 1], members[LITERALS];
    static uint64_t heads[LITERALS], masks[LITERALS];
    int32_t offset = 0;
    for (int k = 0; k < LITERALS; k++) {
        const size_t length = strlen(literals[k]);
        offsets[k] = offset;
        memcpy(bytes + offset, literals[k], length);
        offset += (int32_t)length;
        uint64_t head = 0, mask = 0;
        for (size_t i = 0; i < length && i < 8; i++) {
            head |= (uint64_t)(uint8_t)(literals[k][i] | 0x20) << (8 * i);
            mask |= 0xFFull << (8 * i);
        }
        heads[k] = head;
        masks[k] = mask;
    }
    offsets[LITERALS] = offset;
    set.bytes = bytes;
    set.offsets = offsets;
    set.heads = heads;
    set.head_masks = masks;
    set.members = members;
    for (int b = 0, m = 0; b < 8; b++) {
        set.starts[b] = m;
        for (int k = 0; k < LITERALS; k++) {
            if (k * 8 / LITERALS != b) continue;
            members[m++] = k;
            csimd_literals_add(&set, (const uint8_t *)literals[k], strlen(literals[k]), b);
        }
        set.starts[b + 1] = m;
    }

    // Every check twice: candidates verified by walking the buckets' members, then through the heads' slots.
    static int32_t slots[512 + LITERALS];
    for (int indexed = 0; indexed < 2; indexed++) {
        if (indexed) csimd_literals_index(&set, LITERALS, slots, slots + 512);
        static const char *noise[] = {"Ac", "TIV", "e", " ", "ni", "B", "vie", "W", "termin", "ATED", "zz", "q",
            "@", "`", "\x7f", "{", "\xc3\xa9", "connection", "for", "reachability flag status"};
        enum { NOISE = sizeof noise / sizeof noise[0] };
        uint8_t text[600];
        for (int round = 0; round < 20000; round++) {
            size_t count = 0;
            const int pieces = (int)(next() % 40);
            for (int p = 0; p < pieces; p++) {
                const uint64_t pick = next() % (LITERALS + NOISE);
                const char *piece = pick < LITERALS ? literals[pick] : noise[pick - LITERALS];
                const size_t length = strlen(piece);
                if (count + length > sizeof text) break;
                for (size_t i = 0; i < length; i++) {
                    uint8_t byte = (uint8_t)piece[i];
                    if (next() % 2 && (uint8_t)(byte - 'a') < 26) byte -= 32;
                    if (next() % 11 == 0) byte ^= 0x20;
                    text[count++] = byte;
                }
            }
            for (size_t start = 0; start <= count; start += (count > 64 ? 5 : 1)) check(&set, text + start, count - start);
            if (indexed) {
                // The same pieces as lines: some separators become LFs; the scan reads padding past the end.
                static uint8_t lines[sizeof text + CSIMD_SCAN_PADDING];
                memcpy(lines, text, count);
                for (size_t i = 0; i < count; i++) {
                    if (next() % 23 == 0) lines[i] = 0x0A;
                }
                memset(lines + count, (int)(next() & 0xFF), CSIMD_SCAN_PADDING);
                check_scan(&set, lines, count);
            }
        }
    }

    // Buffers that end where a readable page ends.
    const long page = sysconf(_SC_PAGESIZE);
    uint8_t *region = mmap(NULL, (size_t)(2 * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED || mprotect(region + page, (size_t)page, PROT_NONE) != 0) {
        perror("mmap");
        return 1;
    }
    for (size_t length = 0; length <= 100; length++) {
        for (int k = 0; k < LITERALS; k++) {
            const size_t literal = strlen(literals[k]);
            if (literal > length) continue;
            uint8_t *start = region + page - length;
            memset(start, '-', length);
            memcpy(start + length - literal, literals[k], literal);
            check(&set, start, length);
            check(&set, start, length - 1);  // cut one byte short
        }
        // The bracket balance of the same page end, brackets in every byte (reads nothing past the buffer).
        uint8_t *start = region + page - length;
        for (size_t i = 0; i < length; i++) start[i] = "{([)"[i % 4];
        const int64_t expected = (int64_t)(length / 4) * 2 + (int64_t)(length % 4 < 3 ? length % 4 : 3);
        if (csimd_bracket_balance(start, length, 1) == expected && csimd_bracket_balance(start, length, 0) == expected) {
            passed++;
        } else if (++failed <= 5) {
            fprintf(stderr, "bracket balance mismatch at a page end: length %zu\n", length);
        }
    }
    check_builtin_refusal(region + page);
    // Byte bitmaps (LFs, and quotes as the ndjson reader asks) of random bytes with many of them, every length up
    // to 300, against a byte loop.
    {
        static uint8_t lines[300];
        static uint64_t marks[8];
        for (int round = 0; round < 200; round++) {
            const uint8_t byte = round % 2 ? 0x0A : '"';
            for (size_t i = 0; i < sizeof lines; i++) lines[i] = next() % 5 == 0 ? byte : (uint8_t)next();
            for (size_t count = 0; count <= sizeof lines; count++) {
                memset(marks, 0xA5, sizeof marks);
                csimd_byte_marks(lines, count, byte, marks);
                int ok = 1;
                for (size_t p = 0; p < (count + 63) / 64 * 64; p++) {
                    const int expected = p < count && lines[p] == byte;
                    if ((int)(marks[p / 64] >> (p % 64) & 1) != expected) ok = 0;
                }
                if (ok) {
                    passed++;
                } else if (++failed <= 5) {
                    fprintf(stderr, "byte marks mismatch: byte %u, count %zu\n", byte, count);
                }
            }
        }
        // Pair marks (`":`, as the ndjson reader asks) of random text rich in both bytes, every length up to 300.
        for (int round = 0; round < 200; round++) {
            for (size_t i = 0; i < sizeof lines; i++) {
                const uint64_t pick = next() % 8;
                lines[i] = pick < 2 ? '"' : pick < 4 ? ':' : (uint8_t)next();
            }
            for (size_t count = 0; count <= sizeof lines; count++) {
                memset(marks, 0xA5, sizeof marks);
                csimd_pair_marks(lines, count, '"', ':', marks);
                int ok = 1;
                for (size_t p = 0; p < (count + 63) / 64 * 64; p++) {
                    const int expected = p + 1 < count && lines[p] == '"' && lines[p + 1] == ':';
                    if ((int)(marks[p / 64] >> (p % 64) & 1) != expected) ok = 0;
                }
                if (ok) {
                    passed++;
                } else if (++failed <= 5) {
                    fprintf(stderr, "pair marks mismatch: count %zu\n", count);
                }
            }
        }
        // The bracket balance against a byte loop, from every start to every end of random text rich in brackets.
        static const uint8_t pool[] = "{}()[]{{((x ]";
        for (int round = 0; round < 50; round++) {
            for (size_t i = 0; i < sizeof lines; i++) {
                lines[i] = next() % 3 ? pool[next() % (sizeof pool - 1)] : (uint8_t)next();
            }
            for (size_t start = 0; start < 40; start++) {
                for (size_t count = 0; start + count <= sizeof lines; count += 1 + (count > 80 ? 7 : 0)) {
                    int64_t expected = 0;
                    for (size_t p = start; p < start + count; p++) {
                        if (lines[p] == '{' || lines[p] == '(' || lines[p] == '[') expected++;
                        if (lines[p] == '}' || lines[p] == ')' || lines[p] == ']') expected--;
                    }
                    if (csimd_bracket_balance(lines + start, count, 1) == expected && csimd_bracket_balance(lines + start, count, 0) == expected) {
                        passed++;
                    } else if (++failed <= 5) {
                        fprintf(stderr, "bracket balance mismatch: start %zu count %zu\n", start, count);
                    }
                }
            }
        }
    }
    // The thread-byte test of the runs of headers, for every byte value at every place among random neighbours.
    for (int place = 0; place < 8; place++) {
        for (int value = 0; value < 256; value++) {
            for (int round = 0; round < 20; round++) {
                uint8_t bytes[8];
                for (int i = 0; i < 8; i++) bytes[i] = (uint8_t)next();
                bytes[place] = (uint8_t)value;
                uint64_t word;
                memcpy(&word, bytes, 8);
                const uint64_t marks = csimd_non_hex(word);
                int good = 1;
                for (int i = 0; i < 8; i++) {
                    const uint8_t b = bytes[i];
                    const int thread = (b >= '0' && b <= '9') || (b >= 'A' && b <= 'F') || (b >= 'a' && b <= 'f') ||
                                       b == 'x';
                    if ((((marks >> (8 * i)) & 0xFF) != (thread ? 0 : 0x80))) good = 0;
                }
                if (good) {
                    passed++;
                } else if (++failed <= 5) {
                    fprintf(stderr, "thread bytes mismatch: %016llx\n", (unsigned long long)word);
                }
            }
        }
    }
    check_loud_lines(&set);
    // The search for a run of bytes a pattern requires (`csimd_find`): the first place a naive loop finds it, in
    // texts of a few bytes over a small alphabet, where it is often there in part.
    for (int round = 0; round < 200000; round++) {
        uint8_t text[24], literal[5];
        const size_t count = next() % 25, length = 1 + next() % 5;
        for (size_t i = 0; i < count; i++) text[i] = (uint8_t)("ab[:"[next() % 4]);
        for (size_t i = 0; i < length; i++) literal[i] = (uint8_t)("ab[:"[next() % 4]);
        const uint8_t *expected = 0;
        for (size_t at = 0; at + length <= count && !expected; at++) {
            if (memcmp(text + at, literal, length) == 0) expected = text + at;
        }
        if (csimd_find(text, count, literal, length) == expected) {
            passed++;
        } else if (++failed <= 5) {
            fprintf(stderr, "find mismatch: %.*s in %.*s\n", (int)length, literal, (int)count, text);
        }
    }
    // The end of a run of a set's bytes (`csimd_span_end`): against a byte loop over the two words of the set, for
    // random sets (some holding nearly every byte, as a negated class does), texts with bytes from 0x80 among them,
    // and every start and length up to past two vectors.
    for (int round = 0; round < 2000; round++) {
        uint64_t low = next(), high = next();
        if (round % 2) {
            low |= ~(1ull << (next() % 64));
            high |= ~(1ull << (next() % 64)) & ~(1ull << (next() % 64));
        }
        uint8_t table[16];
        csimd_span_table(low, high, table);
        uint8_t text[80];
        for (size_t i = 0; i < sizeof text; i++) {
            const uint64_t r = next();
            text[i] = r % 5 == 0 ? (uint8_t)(0x80 | r >> 8) : (uint8_t)((r >> 8) & 0x7F);
        }
        for (size_t start = 0; start < 8; start++) {
            for (size_t count = 0; start + count <= sizeof text; count++) {
                size_t expected = 0;
                while (expected < count) {
                    const uint8_t b = text[start + expected];
                    if (b < 0x80 && !(((b < 64 ? low : high) >> (b & 63)) & 1)) break;
                    expected++;
                }
                if (csimd_span_end(text + start, count, table) == expected) {
                    passed++;
                } else if (++failed <= 5) {
                    fprintf(stderr, "span end mismatch: start %zu count %zu\n", start, count);
                }
            }
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
