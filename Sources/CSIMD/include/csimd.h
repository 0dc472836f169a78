#ifndef CSIMD_H
#define CSIMD_H
// Vector scans that Swift cannot express portably (byte shuffles), and the loop over the runs of NSLog lines that
// repeat a record's header, which reads their marks. Only NativeKit uses this module.
#include <stddef.h>
#include <stdint.h>

/// A set of literals (three bytes or more, ASCII caseless) searched with Hyperscan's "Teddy" algorithm (as the
/// Rust aho-corasick crate describes it), over five positions: each literal's first five bytes, case folded by
/// setting bit 5, go to one of eight buckets; for each of the five positions two 16-entry tables give, per low and
/// per high nibble of a byte, the buckets holding a literal with that nibble there (a literal shorter than five
/// bytes accepts any byte past its end; the high-nibble tables accept a nibble with and without its bit 1, so the
/// bytes searched need no folding). A position can begin a literal only where a bucket survives all ten lookups;
/// 32 positions are tested at once with AVX2 byte shuffles (16 with NEON's `tbl` on AArch64), and only the
/// surviving buckets' literals are compared. (Five positions, not four: with some thirty keywords in eight buckets,
/// a fifth byte cuts the positions that survive without being a keyword about fourfold on log messages.)
#define CSIMD_POSITIONS 5

/// Positions the chunk scan with AVX-512 VBMI tests (`folded`): a literal's first eight bytes, which lets through
/// half as many of the NSLog capture's messages as five with the same buckets (8 % instead of 17 % with the letter
/// model's: most `download `, `upload ` and `payload ` no longer pass for `load view`, nor `appearance` for
/// `appearing`; 1.9 % with the built-in keywords' searched buckets, `KeywordScanner.builtinPlacement`). The nibble
/// tables test five, as the search of one buffer does: eight cost the AVX2 scan more than they save.
#define CSIMD_FOLDED_POSITIONS 8

typedef struct {
    uint8_t low[CSIMD_POSITIONS][16];
    uint8_t high[CSIMD_POSITIONS][16];
    /// The same tables twice over (both 128-bit lanes of an AVX2 register), low then high: loaded as they are on
    /// every call instead of being broadcast and spilled to the stack.
    uint8_t wide[2 * CSIMD_POSITIONS][32];
    /// Per position, the buckets a byte's low six bits allow there, looked up whole (AVX-512 VBMI's `vpermb`, one
    /// lookup of a single register, `csimd_scan` only): a literal's byte there with and without bit 5 (a letter's two
    /// cases), by those six bits, and every entry past a literal's end. Every byte reads as the others with its low
    /// six bits (a digit as a lowercase letter from `p` to `y`, some punctuation as one from `a` to `o`, a byte of
    /// 0x80 or more as the ASCII bytes that share those bits), which may let through a position that begins no
    /// literal (every mark is checked later), never the other way round.
    uint8_t folded[CSIMD_FOLDED_POSITIONS][64];
    /// Every literal's bytes, lowercased (A–Z only), one after another: literal k is
    /// `bytes[offsets[k]..<offsets[k + 1]]`.
    const uint8_t *bytes;
    const int32_t *offsets;
    /// Per literal: its first eight bytes (all of a shorter one) as a little-endian word with bit 5 of each byte
    /// set, and the mask of the bytes it has: a whole-word test before the bytes are compared.
    const uint64_t *heads;
    const uint64_t *head_masks;
    /// Bucket b's literals, in ascending order: `members[starts[b]..<starts[b + 1]]`.
    const int32_t *members;
    int32_t starts[9];
    /// The literals by head, for verifying a candidate position with one lookup (``csimd_literals_index``):
    /// `slots[h]` is the first literal whose head hashes to h (slots 0–255: literals of four bytes or more, by
    /// their four; 256–511: three-byte literals, by their three), `chain[k]` the next one after literal k (-1
    /// ends a chain). Chains ascend, so the first literal that matches in a chain is its lowest. Null slots: the
    /// buckets' member lists are walked instead.
    const int32_t *slots;
    const int32_t *chain;
    /// Whether any literal has three bytes (so the three-byte slots are worth a lookup).
    int32_t has_short;
} csimd_literals;

/// The vectors this processor gives every function below: 2 with AVX-512 (BW) on x86-64, 1 with AVX2 on x86-64 or
/// NEON on AArch64, 0 where there are none (the callers keep their scalar loops, and call none of the functions
/// below but `csimd_bracket_balance`). `CSIMD_NO_AVX512` in the environment makes 2 a 1: the benchmarks and the C
/// harness measure and check the AVX2 path on an AVX-512 machine.
int csimd_vector_level(void);

/// Adds a literal's first five bytes (all of a shorter one) to `bucket` (0–7) of the nibble tables.
void csimd_literals_add(csimd_literals *set, const uint8_t *literal, size_t length, int bucket);

/// Fills `slots` (512 entries) and `chain` (one per literal) from the set's `offsets` and `heads`, and points the
/// set at them.
void csimd_literals_index(csimd_literals *set, int32_t count, int32_t *slots, int32_t *chain);

/// The first position of `bytes[0..<count]` where a literal begins, or `count` when none does; `*literal` is then
/// the lowest-numbered literal found there. Reads no byte outside the buffer.
size_t csimd_literals_find(const csimd_literals *set, const uint8_t *bytes, size_t count, int32_t *literal);

/// Marks every `byte` of `bytes[0..<count]` in `bitmap`, bit p of word p / 64, 64 bytes per step: a reader then finds
/// each line's end (LF, 0x0A) with a bit scan instead of a `memchr` call per line. The bits of the last word past
/// `count` are clear; `bitmap` holds at least (count + 63) / 64 words. Reads no byte outside the buffer.
void csimd_byte_marks(const uint8_t *bytes, size_t count, uint8_t byte, uint64_t *bitmap);

/// Marks, as `csimd_byte_marks` marks a byte, every position p of `bytes[0..<count]` where `first` is followed by
/// `second` (p + 1 < `count`): the `log-ndjson` reader's `":`, where a key's name ends (`BytePairScan`).
void csimd_pair_marks(const uint8_t *bytes, size_t count, uint8_t first, uint8_t second, uint64_t *bitmap);

/// Opening minus closing brackets (`{([` and `})]`) in `bytes`: 32 bytes at a time with AVX2 (16 with NEON) when
/// `vectors` (`csimd_vector_level()` is not 0), byte by byte otherwise.
int64_t csimd_bracket_balance(const uint8_t *bytes, size_t count, int vectors);

/// The index of the first byte of `bytes[0..<count]` outside a set, or `count`: the end of the run a pattern that
/// begins with a repeated set (`nslog-untimed`'s `[^\[\]:\t]*?`) can span. The set holds every byte from 0x80, and
/// ASCII byte b when bit `b >> 4` of `table[b & 15]` is set (`csimd_span_table`). 32 bytes at a time with AVX2 (16
/// with NEON), byte by byte where the processor has neither; reads no byte outside the buffer.
size_t csimd_span_end(const uint8_t *bytes, size_t count, const uint8_t table[16]);

/// Fills `table` for the ASCII bytes whose bits are set in `low` (bytes 0–63) and `high` (64–127).
void csimd_span_table(uint64_t low, uint64_t high, uint8_t table[16]);

/// Bytes past `count` that ``csimd_scan`` may read (and ignore): the caller's buffer holds them.
#define CSIMD_SCAN_PADDING 128

/// One pass over a buffer for both of its per-chunk marks: every LF of `bytes[0..<count]` in `newlines` (as
/// `csimd_byte_marks`), and in `candidates` every position where a literal of `set` can begin, by the vector filter
/// alone (each position where one does begin is marked; most marked ones are not verified here). Bit p of word
/// p / 64, bits past `count` clear; both bitmaps hold (count + 63) / 64 words. Reads up to `CSIMD_SCAN_PADDING`
/// bytes past `count`, which must be readable. With AVX-512 (level 2) 64 positions per step, each byte's buckets
/// looked up whole at eight positions in the `folded` tables where the processor also has VBMI (`CSIMD_NO_VBMI` in
/// the environment keeps the nibble tables: the C harness checks both), else through the nibble tables at five. The
/// marks of a buffer depend on the path; the positions where a literal begins are marked by all.
void csimd_scan(
    const csimd_literals *set, const uint8_t *bytes, size_t count, uint64_t *newlines, uint64_t *candidates);

/// Keeps, of the `candidates` `csimd_scan` marked in `bytes[0..<count]`, only the positions where a literal of `set`
/// begins, compared inside `bytes[0..<valid]` (`valid` ≥ `count`: bytes after the scanned ones, which a literal
/// begun in them may run into); returns how many are kept. The marks are then exact: a position marked is where a
/// literal begins, so a test of a line's marks needs no check of its own (`csimd_loud_lines`).
size_t csimd_verify_marks(
    const csimd_literals *set, const uint8_t *bytes, size_t count, size_t valid, uint64_t *candidates);

/// The lowest-numbered literal of `set` that begins at `position` of `bytes[0..<count]` (compared inside the
/// buffer only, without ASCII case), or -1: the check of a position `csimd_scan` marked.
int32_t csimd_literal_verify(const csimd_literals *set, const uint8_t *bytes, size_t count, size_t position);

/// The words of a header tail kept: bytes 0–7, 8–15, …, 112–119, with the last eight beside them, for tails of up to
/// 128 bytes (`HeaderRun.tailLimit`).
#define CSIMD_TAIL_WORDS 15

/// The header tail of a recent incarnation (` name[pid:`, 8 to 128 bytes, as `NSLogHeader.Tail` keeps it): bytes
/// 0–7, 8–15, … (those before the last eight, the others 0) and the last eight as little-endian words; `count` 0
/// for none.
typedef struct {
    uint32_t count;
    uint32_t modern;
    uint64_t last;
    uint64_t words[CSIMD_TAIL_WORDS];  // after the fields every comparison reads: a short tail's are in one cache line
} csimd_header_tail;

#define CSIMD_HEADER_TAILS 8

/// What the lines of a run repeat from the record that armed their shape (classic or modern): the first 20 bytes
/// (`YYYY-MM-DD HH:MM:SS.`, as three little-endian words: bytes 0–7, 8–15, 12–19), how many fraction digits follow
/// (1–3 classic, 4–9 modern), and the zone after them (`zone_count` bytes, 0–8, as a little-endian word).
typedef struct {
    uint64_t date[3];
    uint64_t zone;
    uint32_t zone_count;
    uint32_t fraction_digits;
    /// Microseconds from the armed second to the one `date` holds now: a run moves the clock to a later second of
    /// the same minute when its lines do (0 when armed).
    uint32_t later;
    uint32_t reserved;
} csimd_header_clock;

/// Where `literal` (`length` bytes) first occurs in the `count` bytes at `bytes`, or null: `memchr` for its first byte,
/// then the rest compared.
const uint8_t *csimd_find(const uint8_t *bytes, size_t count, const uint8_t *literal, size_t length);

/// No prefix before a run's headers, or a CI runner's timestamp before each (`csimd_ci_timestamp_length`).
#define CSIMD_PREFIX_NONE 0
#define CSIMD_PREFIX_CI_TIMESTAMP 1

/// The length of the CI runner's timestamp that begins the `count` bytes at `line` (GitHub Actions' raw job logs,
/// `2024-05-01T10:00:00.1234567Z `): what the pattern `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ` matches there,
/// anchored, its digits ASCII; 0 where it does not match. Reads no byte past `count`.
size_t csimd_ci_timestamp_length(const uint8_t *line, size_t count);

/// The length of the match of `grep -n`'s prefix, `(?:(?=[^\s:]*?[^\s:\d])[^\s:]++:)?\d+[:-]`, at the start of the
/// `count` bytes at `line` (anchored, PCRE2's default tables), or 0 where PCRE2 finds none: the bytes up to the first
/// `\s` or colon eight at a time.
size_t csimd_grep_prefix_length(const uint8_t *line, size_t count);

/// Whether no built-in format but the fallback (`bare`) and no built-in prefix can match at the start of the `count`
/// bytes at `line` (anchored, PCRE2's default tables): 1 when each fails a test its pattern needs to pass (the first
/// byte; the device and BSD syslog's month and day; `grep -n`'s first `\s` or colon, a colon and a digit; the untimed
/// NSLog process's end, `[` and a digit; Console.app's first tab and a digit; Appium's `[IOS_SYSLOG_ROW`), and for a
/// line that begins with spaces and tabs (the indentation prefix's), when what follows them is refused too; 0 when
/// one may match. With AVX2 or NEON, a pass over the line's pairs of bytes first (every test but the first byte's and
/// the month's needs a colon, `[` or tab before a digit, or `[I`: a line with none is refused there), then 64 bytes a
/// step; byte by byte where the processor has neither (or, with AVX2, under 32 bytes). Reads no byte past `count`.
int csimd_builtin_refuses(const uint8_t *line, size_t count);

/// A run's state: the clock of each shape (0 classic, 1 modern), the vocabulary's keywords (whose candidates the
/// reader marked), the header tails of the recent incarnations, `hint` the one tried first (the last one a line
/// repeated, kept up to date by `csimd_header_run`), and the prefix (`CSIMD_PREFIX_…`) every line of a run begins
/// with, its header after it. With `printed` set, a line that is no header, whose content (past the prefix) begins
/// with no digit, space or tab, that `csimd_builtin_refuses` refuses, whose first `CSIMD_CONTENT_POSITIONS` bytes
/// none of the `content_patterns` ways a repeat or furniture line may begin allows (`content_bytes[k][p]`: the ASCII
/// bytes way k allows at position p, bit b of word b / 64) and that holds no keyword, is a printed line the run counts
/// and goes past (a group of tail `CSIMD_PRINTED_TAIL`).
#define CSIMD_CONTENT_PATTERNS 16
#define CSIMD_CONTENT_POSITIONS 4
typedef struct {
    csimd_header_clock clocks[2];
    const csimd_literals *keywords;
    uint32_t hint;
    uint32_t prefix;
    uint32_t printed;
    uint32_t content_patterns;
    uint64_t content_first[2];  // the union of the ways' first bytes
    uint64_t content_bytes[CSIMD_CONTENT_PATTERNS][CSIMD_CONTENT_POSITIONS][2];
    csimd_header_tail tails[CSIMD_HEADER_TAILS];
} csimd_header_state;

/// The tail of a group of printed lines (`csimd_header_state.printed`).
#define CSIMD_PRINTED_TAIL 0xFFFF

/// Lines of a run in a row that repeat one tail in one shape, each fraction at or after the one before: the tail,
/// the shape (1 modern), how many lines, and the microseconds of the first and last lines from the armed second
/// (their fractions' first six digits, and the seconds after the armed one).
typedef struct {
    uint16_t tail;
    uint16_t modern;
    uint32_t count;
    uint32_t first_micros;
    uint32_t last_micros;
} csimd_header_group;

/// From `bytes + start`, the lines that end (LF, from `newlines`) before `end`, of 28 to `max_line` bytes as the reader
/// hands them out (without a CR before the LF: CRLF captures are read alike), that are NSLog records of a shape armed
/// in `armed` (bit 0 classic, bit 1 modern) repeating its clock's date, time to the minute, fraction length and zone,
/// at its second or a later one (the clock moves to it), and one of the state's tails, whose message holds none of the
/// keywords at the positions `candidates` marks: how many, in up to `capacity` groups written to `out` (`*groups` of
/// them), with `*next` the offset after the last one's LF (`start` when none). Such a line is exactly what the NSLog
/// patterns read as a record of that incarnation whose message means nothing; the first line that is not ends the run.
/// A message that ends with `{`, `(` or `[` may open a dump: without `loud`, such a line is taken with its brackets
/// (`csimd_bracket_balance` of the message, from after the thread's `]` and a space to the line's end without a CR, as
/// the line-by-line path reads it), and when they leave a dump open the run ends after it with `*opened` their count
/// (0 otherwise). With `loud` (`csimd_loud_lines` of the bytes, for exact marks), a line whose LF it marks (such a
/// line among them) is not taken, and the line's end and message are not read: what the loop reads of a line is then
/// its header alone (within the line and a CR before its LF, if there is one: no header's byte can be a CR); a printed
/// line whose first byte it marks is refused without `csimd_builtin_refuses` (behind a CI runner's timestamp with that
/// prefix, else when it begins with no digit). With a
/// prefix in the state, a line is taken only when it begins with the prefix and the rest, 28 bytes or more, is such a
/// record. The bitmaps `newlines` and `candidates` hold three words past the word of `end - 1`, which are read, their
/// bits not taken (`LiteralSearch.Marks.words(for:)`); so do those of the other runs and of the loud lines below.
size_t csimd_header_run(
    csimd_header_state *state, uint32_t armed, const uint8_t *bytes, size_t start, size_t end,
    const uint64_t *newlines, const uint64_t *candidates, const uint64_t *loud, size_t max_line,
    csimd_header_group *out, size_t capacity, size_t *groups, size_t *next, int64_t *opened);

/// The `log` tool styles whose lines a run reads like NSLog's (`csimd_style_run`): `log --style compact`
/// (`YYYY-MM-DD HH:MM:SS.mmm Ty name[pid:thread] …`), `log --style syslog`
/// (`YYYY-MM-DD HH:MM:SS.ffffff±zzzz  host name[pid]: …`) and the default style
/// (`YYYY-MM-DD HH:MM:SS.ffffff±zzzz 0xthread  Type  0xactivity  pid  ttl  name: …`); a device's syslog
/// (`Mmm dd HH:MM:SS.ffffff device name(sender)[pid] <Level>: …`); and BSD syslog (`Mmm dd HH:MM:SS host
/// name[pid]: …`, macOS's `system.log`: a device syslog's clock, a tail read as `log --style syslog`'s).
#define CSIMD_STYLE_COMPACT 1
#define CSIMD_STYLE_SYSLOG 2
#define CSIMD_STYLE_DEFAULT 3
#define CSIMD_STYLE_DEVICE 4
#define CSIMD_STYLE_BSD 5

/// The header tail of a recent incarnation in a `log` style: from the timestamp's end, ` Ty name[pid:` (compact, 11
/// bytes or more: the type, bytes 1–2, masked out of the first word), `  host name[pid]: ` (syslog), ` host name[pid]`
/// (BSD syslog: a sender group or none and `: ` follow) or ` device name` (device syslog, a sender group allowed after
/// it, then `[pid]` as `pid`, its `pid_count` bytes, 3–8, as a little-endian word); from the pid, `pid  ttl  name: `
/// (default); 8 to 128 bytes. `words` holds bytes 0–7 (masked by `mask`), 8–15, … (those before the last eight, the
/// others 0) as little-endian words, `last` the last eight; `format` is one more than the index of the format of the
/// record it was read from, `count` 0 for none. `unnamed` is 1 for a device syslog tail of a record read without a
/// device name (` name`, its process right after the timestamp: PCRE2's second way, taken only when the first fails),
/// whose lines are taken only when the first way fails for them too.
typedef struct {
    uint32_t count;
    uint32_t format;
    uint32_t pid_count;
    uint32_t unnamed;
    uint64_t mask;
    uint64_t pid;
    uint64_t last;
    uint64_t words[CSIMD_TAIL_WORDS];  // after the fields every comparison reads: a short tail's are in one cache line
} csimd_style_tail;

/// A run of one `log` style's lines: the clock of the record that armed it (as `csimd_header_clock`), its style
/// and format (one more than its index), the vocabulary's keywords, the recent incarnations' tails, `hint` the
/// one tried first, and the prefix (`CSIMD_PREFIX_…`) every line of the run begins with, its header after it.
typedef struct {
    csimd_header_clock clock;
    const csimd_literals *keywords;
    uint32_t style;
    uint32_t format;
    uint32_t hint;
    uint32_t prefix;
    csimd_style_tail tails[CSIMD_HEADER_TAILS];
} csimd_style_state;

/// `csimd_header_run` for the lines of the style and format `state` was armed with: from `bytes + start`, the lines
/// that end before `end`, of 28 to `max_line` bytes (as `csimd_header_run`), whose timestamp repeats the clock's date,
/// time to the minute, fraction length and zone (a device or BSD syslog's: `Mmm dd HH:MM:SS`, with the clock's fraction
/// or none), at its second or a later one, followed (default: after its thread, type and activity columns) by a tail of
/// that format (a compact line's type one of the style's), then (compact) `[0-9a-f]+\]` and a space or none, (device
/// syslog) a sender group or none, the tail's `[pid]`, a group or none, ` <Level>:` and a space or none, or (BSD
/// syslog) a sender group or none and `: `; and whose rest holds none of the keywords at the positions `candidates`
/// marks and does not end with `{`, `(` or `[`; grouped by tail into `out` (`modern` 0), as `csimd_header_run` does.
/// Such a line is exactly what the format's pattern reads as a record of the tail's incarnation at that time whose
/// message means nothing (a style's message may begin after groups the run does not read: a line that may open a dump
/// ends the run before it). `loud` as for `csimd_header_run`, but not read for the default style (its lines need not
/// have the `]` the loud lines take a message to follow). A prefix in the state as for `csimd_header_run`.
size_t csimd_style_run(
    csimd_style_state *state, const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines,
    const uint64_t *candidates, const uint64_t *loud, size_t max_line, csimd_header_group *out, size_t capacity,
    size_t *groups, size_t *next);

/// Marks in `loud` the LF (from `newlines`) of each line of `bytes[0..<count]` that `csimd_header_run` leaves to the
/// line-by-line path whatever its header, by what follows the header in the line as the reader hands it out (without a
/// CR before the LF): a message (after the first `]` and a space) that ends with `{`, `(` or `[`, or in whose
/// positions with three bytes or more left `candidates` marks a keyword (exact marks: `csimd_verify_marks`), or a line
/// with no `]` (printed, which the run then reads whole, or a BSD syslog record with no pid) that does so anywhere; and
/// the first LF, whose line began before `bytes` (`csimd_loud_line` marks it once its beginning is known). Marks too
/// the first byte of each other line that is not loud and that a run's printed-line path refuses (past a CI runner's
/// timestamp when the line begins with one, a content that begins with no space or tab and that
/// `csimd_builtin_refuses` refuses). Clears every other bit of the (count + 63) / 64 words. A reading thread works it
/// out for the chunk it reads, so that the thread that runs the headers reads no more of a line than its header, and
/// refuses no printed line itself.
void csimd_loud_lines(
    const uint8_t *bytes, size_t count, const uint64_t *newlines, const uint64_t *candidates, uint64_t *loud);

/// Sets or clears in `loud`, as `csimd_loud_lines` would, the bit of the LF that ends the line that begins at
/// `bytes + start` (the first that `newlines` marks from `start`, before `end`; none: nothing changes), and the bit of
/// its first byte.
void csimd_loud_line(
    const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines, const uint64_t *candidates,
    uint64_t *loud);

/// From `bytes + start`, the lines inside an open dump of the record before them while `*depth` (its open
/// brackets) stays above 0, each ending (LF, from `newlines`) before `end`, of at most `max_line` bytes, and none
/// that could begin a header of the record's format (without a CR before the LF: NSLog and the `log` styles, 28
/// bytes or more and a digit first; with `letter`, the fewest bytes of a header of a format that begins with a
/// capital, that many or more and a capital first: 25 for a device syslog, 21 for BSD syslog): how many, with
/// `*depth` plus each one's `csimd_bracket_balance` (`vectors` as there), and `*next` the offset after the last
/// one's LF (`start` when none). Such a line is exactly what the line-by-line path counts as a continuation line
/// after a record of that format with no prefixes, adding its brackets to the dump's; the line after the one that
/// closes the dump is not taken. With `prefix` `CSIMD_PREFIX_CI_TIMESTAMP`, after a record behind a CI runner's
/// timestamp alone: the header is looked for past the line's timestamp, and a line without one is taken.
size_t csimd_continuation_run(
    const uint8_t *bytes, size_t start, size_t end, const uint64_t *newlines, size_t max_line, int vectors,
    int letter, uint32_t prefix, int64_t *depth, size_t *next);

#endif
