import CSIMD

/// Runs of NSLog lines that repeat the header of a record before them, read by one C loop over a chunk
/// (`csimd_header_run`) instead of line by line: most lines of a capture are a process saying nothing about its
/// lifecycle at the same second as the line before.
///
/// The caller arms a shape (classic or modern NSLog) from a record of it that it read in full
/// (``arm(modern:line:fractionDigits:zoneCount:)``), keeps the header tails of its recent incarnations in it
/// (``setTail(_:_:modern:)``), and asks for the lines that follow
/// (``run(armed:_:start:end:newlines:candidates:loud:maximumLineLength:)``), in groups of lines in a row that
/// repeat one tail in one shape with fractions that do not go back: what such a line means is then known without
/// reading it again. The lines of the `log` tool's styles and of a device's syslog are taken the same way, one
/// style at a time (``armStyle(_:format:line:fractionDigits:zoneCount:)``,
/// ``setStyleTail(_:_:count:pid:pidCount:unnamed:style:format:)``,
/// ``runStyle(_:start:end:newlines:candidates:loud:maximumLineLength:)``; `csimd_style_run`). Inside a dump that a
/// record opened, ``continuations(_:start:end:newlines:maximumLineLength:letter:prefix:depth:)`` takes the lines that
/// cannot begin a header, with their brackets, the same way.
public final class HeaderRun {
    /// Groups described per call at most.
    public static let capacity = 256
    /// Tails kept at most.
    public static let tailCapacity = Int(CSIMD_HEADER_TAILS)

    private let state: UnsafeMutablePointer<csimd_header_state>
    private let styleState: UnsafeMutablePointer<csimd_style_state>
    @usableFromInline
    let groups: UnsafeMutablePointer<csimd_header_group>

    /// A run that skips the lines whose message holds one of `keywords`, where the reader marked their
    /// candidates (``LiteralSearch/Handle/scan(_:newlines:candidates:)``).
    public init(keywords: LiteralSearch.Handle) {
        state = .allocate(capacity: 1)
        state.initialize(to: csimd_header_state())
        state.pointee.keywords = keywords.set
        styleState = .allocate(capacity: 1)
        styleState.initialize(to: csimd_style_state())
        styleState.pointee.keywords = keywords.set
        groups = .allocate(capacity: Self.capacity)
        groups.initialize(repeating: csimd_header_group(), count: Self.capacity)
    }

    deinit {
        state.deallocate()
        styleState.deallocate()
        groups.deallocate()
    }

    /// The styles a run reads (`csimd_style_run`): `log --style compact`, `log --style syslog`, the `log` tool's
    /// default style, a device's syslog and BSD syslog.
    public enum Style: UInt32, Sendable {
        case compact = 1  // CSIMD_STYLE_COMPACT
        case syslog = 2  // CSIMD_STYLE_SYSLOG
        case `default` = 3  // CSIMD_STYLE_DEFAULT
        case deviceSyslog = 4  // CSIMD_STYLE_DEVICE
        case bsdSyslog = 5  // CSIMD_STYLE_BSD

        /// Whether its timestamp is a syslog's (`Mmm dd HH:MM:SS`, a fraction or none), not the `log` tool's.
        public var hasSyslogClock: Bool { self == .deviceSyslog || self == .bsdSyslog }

        /// The fewest bytes of a header of its format when that begins with a capital (a syslog's month), else 0
        /// (``HeaderRun/continuations(_:start:end:newlines:maximumLineLength:letter:prefix:depth:)``).
        public var shortestLetterHeader: Int {
            switch self {
            case .deviceSyslog: 25  // `Mmm dd HH:MM:SS p[1] <A>:`
            case .bsdSyslog: 21  // `Mmm dd HH:MM:SS h p: `
            default: 0
            }
        }
    }

    /// A header tail as the runs compare it: its ``count`` bytes (8–``HeaderRun/tailLimit``) as little-endian words,
    /// bytes 0–7 under a mask, 8–15, … (those before the last eight, the others 0), and the last eight, overlapping
    /// them (`csimd_header_tail`, `csimd_style_tail`).
    public struct Tail {
        public typealias Words = (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64
        )
        public let words: Words
        public let last: UInt64
        public let count: Int

        /// The `count` bytes at `bytes`, the first eight under `mask`, when there are 8 to ``HeaderRun/tailLimit``.
        @inline(__always)
        public init?(_ bytes: UnsafeRawPointer, count: Int, mask: UInt64 = ~0) {
            guard count >= 8, count <= HeaderRun.tailLimit else { return nil }
            @inline(__always) func load(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            var words: Words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { words in
                words.storeBytes(of: load(0) & mask, as: UInt64.self)
                var offset = 8
                while offset &+ 8 < count {
                    words.storeBytes(of: load(offset), toByteOffset: offset, as: UInt64.self)
                    offset &+= 8
                }
            }
            self.words = words
            last = load(count &- 8)
            self.count = count
        }

        /// Whether the ``count`` bytes at `base + start` are this tail's (the caller checked they are in the line),
        /// for a tail read without a mask (NSLog's; the styles' are compared in C only).
        @inline(__always)
        public func isAt(_ base: UnsafeRawPointer, _ start: Int) -> Bool {
            @inline(__always) func load(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start &+ offset, as: UInt64.self))
            }
            guard load(count &- 8) == last, load(0) == words.0 else { return false }
            return withUnsafeBytes(of: words) { words in
                var offset = 8
                while offset &+ 8 < count {
                    guard load(offset) == words.load(fromByteOffset: offset, as: UInt64.self) else { return false }
                    offset &+= 8
                }
                return true
            }
        }
    }

    /// The `log` style header tail of recent incarnation `index` (0..<``tailCapacity``): the `count` bytes (8–128,
    /// 11 or more for ``Style/compact``, whose type, bytes 1–2, is masked out; 0 for none) at `bytes` of a
    /// record of format `format` (its index in the catalogue): from the timestamp's end to the pid's `:`
    /// (compact), the space after its `]:` (syslog), the pid's `]` (BSD syslog), or the end of the process name
    /// (device syslog, whose `[pid]` is the `pidCount` bytes, 3–8, at `pid`, and at least eight bytes into the
    /// line; `unnamed` when the record was read without a device name, see `csimd_style_tail`); from the pid to the
    /// space after the name's `:` (default).
    public func setStyleTail(
        _ index: Int, _ bytes: UnsafeRawPointer?, count: Int, pid: UnsafeRawPointer? = nil, pidCount: Int = 0,
        unnamed: Bool = false, style: Style, format: Int
    ) {
        precondition(index >= 0 && index < Self.tailCapacity)
        var tail = csimd_style_tail()
        let mask: UInt64 = style == .compact ? ~0x00FF_FF00 : ~0
        if let bytes, count >= (style == .compact ? 11 : 8), let words = Tail(bytes, count: count, mask: mask),
            style != .deviceSyslog || (pid != nil && (3...8).contains(pidCount))
        {
            tail.words = words.words
            tail.last = words.last
            tail.mask = mask
            tail.count = UInt32(count)
            tail.format = UInt32(format &+ 1)
            if let pid, style == .deviceSyslog {
                tail.pid =
                    UInt64(littleEndian: pid.loadUnaligned(fromByteOffset: pidCount &- 8, as: UInt64.self))
                    &>> UInt64(64 &- 8 &* pidCount)
                tail.pid_count = UInt32(pidCount)
                tail.unnamed = unnamed ? 1 : 0
            }
        }
        withUnsafeMutablePointer(to: &styleState.pointee.tails) { tuple in
            tuple.withMemoryRebound(to: csimd_style_tail.self, capacity: Self.tailCapacity) { $0[index] = tail }
        }
    }

    /// Drops the `log` style header tail of recent incarnation `index`.
    public func clearStyleTail(_ index: Int) { setStyleTail(index, nil, count: 0, style: .syslog, format: -1) }

    /// Arms the `log` style run for the lines of format `format` (its index in the catalogue) in `style` that
    /// repeat the date and time to the minute, the fraction's length and the zone of the record whose timestamp
    /// begins at `line` (``arm(modern:line:fractionDigits:zoneCount:)``), each behind `prefix`.
    @inline(__always)
    public func armStyle(
        _ style: Style, format: Int, line: UnsafeRawPointer, fractionDigits: Int, zoneCount: Int,
        prefix: Prefix = .none
    ) {
        styleState.pointee.clock = Self.clock(line, fractionDigits: fractionDigits, zoneCount: zoneCount)
        styleState.pointee.style = style.rawValue
        styleState.pointee.format = UInt32(truncatingIfNeeded: format &+ 1)
        styleState.pointee.prefix = prefix.rawValue
    }

    /// ``run(armed:_:start:end:newlines:candidates:loud:maximumLineLength:)`` for the `log` style armed
    /// (``armStyle(_:format:line:fractionDigits:zoneCount:)``; see `csimd_style_run`): every group's
    /// ``isModern(_:)`` is false, its times from the armed second.
    @inline(__always)
    public func runStyle(
        _ bytes: UnsafeRawPointer, start: Int, end: Int, newlines: UnsafePointer<UInt64>,
        candidates: UnsafePointer<UInt64>, loud: UnsafePointer<UInt64>?, maximumLineLength: Int
    ) -> (lines: Int, groups: Int, next: Int) {
        var next = start
        var groups = 0
        let lines = csimd_style_run(
            styleState, bytes.assumingMemoryBound(to: UInt8.self), start, end, newlines, candidates, loud,
            maximumLineLength, self.groups, Self.capacity, &groups, &next)
        return (lines, groups, next)
    }

    /// The NSLog header tail (` name[pid:`) of recent incarnation `index` (0..<``tailCapacity``), in shape `modern`;
    /// nil for none.
    public func setTail(_ index: Int, _ tail: Tail?, modern: Bool) {
        precondition(index >= 0 && index < Self.tailCapacity)
        var value = csimd_header_tail()
        if let tail {
            value = csimd_header_tail(
                count: UInt32(tail.count), modern: modern ? 1 : 0, last: tail.last, words: tail.words)
        }
        withUnsafeMutablePointer(to: &state.pointee.tails) { tuple in
            tuple.withMemoryRebound(to: csimd_header_tail.self, capacity: Self.tailCapacity) { $0[index] = value }
        }
    }

    /// Longest header tail kept, NSLog's (` name[pid:`: a name of up to 123 bytes) or a style's (a host and a
    /// name together, for BSD syslog): fifteen words and the last eight (`CSIMD_TAIL_WORDS`).
    public static let tailLimit = Int(CSIMD_TAIL_WORDS) * 8 + 8

    /// What every line of a run begins with before its header (`CSIMD_PREFIX_…`).
    public enum Prefix: UInt32, Sendable {
        case none = 0  // CSIMD_PREFIX_NONE
        /// A CI runner's timestamp (``ciTimestampLength(_:)``).
        case ciTimestamp = 1  // CSIMD_PREFIX_CI_TIMESTAMP
    }

    /// The prefix the NSLog runs take before each header, from the next run on.
    public var prefix: Prefix {
        @inline(__always) get { Prefix(rawValue: state.pointee.prefix) ?? .none }
        @inline(__always) set { state.pointee.prefix = newValue.rawValue }
    }

    /// The ASCII bytes the first ``contentPositions`` bytes of a repeat or furniture line may be, per way such a line
    /// may begin (`[way][position]`, bit b of word b / 64; at most ``contentPatterns`` ways), which a printed line the
    /// runs count may not all be (see `csimd_header_state`).
    public func setContentBytes(_ patterns: [[(UInt64, UInt64)]]) {
        precondition(patterns.count <= Self.contentPatterns)
        state.pointee.content_patterns = UInt32(patterns.count)
        state.pointee.content_first = patterns.reduce((0, 0)) { union, way in
            guard let first = way.first else { return (~0, ~0) }
            return (union.0 | first.0, union.1 | first.1)
        }
        withUnsafeMutableBytes(of: &state.pointee.content_bytes) { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for (k, positions) in patterns.enumerated() {
                for (p, bytes) in positions.prefix(Self.contentPositions).enumerated() {
                    let at = (k * Self.contentPositions + p) * 2
                    (words[at], words[at + 1]) = bytes
                }
            }
        }
    }

    /// Whether the NSLog runs count the printed lines among their headers (groups of ``isPrinted(_:)``), as
    /// `csimd_header_state` says; false: a printed line ends a run.
    public var countsPrinted: Bool {
        @inline(__always) get { state.pointee.printed != 0 }
        @inline(__always) set { state.pointee.printed = newValue ? 1 : 0 }
    }

    /// The ways ``setContentBytes(_:)`` takes for the repeat and furniture `patterns` of a catalogue whose lines the
    /// built-in refusal refuses (``builtInRefuses(_:)``): each pattern's ways (``PatternShape/ways(_:positions:)``), but
    /// those only a line the refusal lets through can take (``refusalPasses``), cut to ``contentPositions``. Nil when a
    /// pattern's ways are unknown or there are more than ``contentPatterns``.
    public static func contentWays(_ patterns: [String]) -> [[(UInt64, UInt64)]]? {
        let positions = max(contentPositions, refusalPasses.map(\.count).max() ?? 0)
        var ways: [[ByteMask]] = []
        for pattern in patterns {
            guard let own = PatternShape.ways(pattern, positions: positions) else { return nil }
            for way in own {
                let passed = refusalPasses.contains { shape in
                    shape.indices.allSatisfy { way[$0].isSubset(of: shape[$0]) }
                }
                let cut = Array(way.prefix(contentPositions))
                if !passed && !ways.contains(cut) { ways.append(cut) }
            }
        }
        return ways.count <= contentPatterns ? ways.map { $0.map(\.words) } : nil
    }

    /// Beginnings of a line ``builtInRefuses(_:)`` never refuses (per position, the bytes it may hold): a digit, `{`,
    /// `>` or a `\s` byte but the space and the tab first (NSLog, the `log` styles, a runner's timestamp,
    /// `log-ndjson`, the quoting), a month and day (`[A-Z][a-z]{2} [ \d]\d`, the syslogs). `PatternShapeTests`
    /// checks the refusal on random lines that begin so.
    static let refusalPasses: [[ByteMask]] = {
        let capitals = ByteMask(range: UInt8(ascii: "A")...UInt8(ascii: "Z"))
        let small = ByteMask(range: UInt8(ascii: "a")...UInt8(ascii: "z"))
        let space = ByteMask(byte: UInt8(ascii: " "))
        return [
            [ByteMask.digits.union(.verticalSpaces).union(ByteMask(bytes: [UInt8(ascii: "{"), UInt8(ascii: ">")]))],
            [capitals, small, small, space, space.union(.digits), .digits],
        ]
    }()

    /// The most ways a repeat or furniture line may begin that the runs hold (``setContentBytes(_:)``).
    public static let contentPatterns = Int(CSIMD_CONTENT_PATTERNS)
    /// The first bytes of a line the ways check.
    public static let contentPositions = Int(CSIMD_CONTENT_POSITIONS)

    /// The length of the CI runner's timestamp that begins `line` (`2024-05-01T10:00:00.1234567Z `): what the
    /// pattern `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ` matches there, anchored; 0 where it does not match
    /// (`csimd_ci_timestamp_length`, which the runs use).
    @inline(__always)
    public static func ciTimestampLength(_ line: UnsafeRawBufferPointer) -> Int {
        guard let base = line.baseAddress else { return 0 }
        return csimd_ci_timestamp_length(base.assumingMemoryBound(to: UInt8.self), line.count)
    }

    /// The length of the match of `grep -n`'s prefix, `(?:(?=[^\s:]*?[^\s:\d])[^\s:]++:)?\d+[:-]`, at the start
    /// of `line` (anchored), 0 where PCRE2 finds none (`csimd_grep_prefix_length`).
    @inline(__always)
    public static func grepPrefixLength(_ line: UnsafeRawBufferPointer) -> Int {
        guard let base = line.baseAddress else { return 0 }
        return csimd_grep_prefix_length(base.assumingMemoryBound(to: UInt8.self), line.count)
    }

    /// Whether no built-in format but the fallback and no built-in prefix can match at the start of `line`: each
    /// fails a test its pattern needs (`csimd_builtin_refuses`); false where one may match.
    /// ``builtInRefusalIsQuick`` says whether asking it first spares time.
    @inline(__always)
    public static func builtInRefuses(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let base = line.baseAddress else { return false }
        return csimd_builtin_refuses(base.assumingMemoryBound(to: UInt8.self), line.count) != 0
    }

    /// Whether ``builtInRefuses(_:)`` reads a line with vectors here (AVX2 on x86-64, NEON on ARM64): elsewhere it
    /// reads it byte by byte, which costs about what the walk it would spare costs (a line of no format of 100 bytes).
    public static let builtInRefusalIsQuick: Bool = {
        #if arch(x86_64)
            return csimd_vector_level() != 0
        #elseif arch(arm64)
            return true
        #else
            return false
        #endif
    }()

    /// What the lines of shape `modern` repeat, from the record at `line`: its first 20 bytes
    /// (`YYYY-MM-DD HH:MM:SS.`; a later second of the same minute is taken too, see `csimd_header_run`), its number
    /// of fraction digits (1–3 classic, 4–9 modern), and the `zoneCount` bytes (0–8) of the zone after them.
    @inline(__always)
    public func arm(modern: Bool, line: UnsafeRawPointer, fractionDigits: Int, zoneCount: Int) {
        let clock = Self.clock(line, fractionDigits: fractionDigits, zoneCount: zoneCount)
        if modern { state.pointee.clocks.1 = clock } else { state.pointee.clocks.0 = clock }
    }

    /// The clock of a record whose line begins at `line`, its timestamp's fraction of `fractionDigits` digits
    /// followed by `zoneCount` bytes of zone: the three words of its first 20 bytes (bytes 0–7, 8–15, 12–19),
    /// and the zone as a little-endian word.
    @inline(__always)
    private static func clock(_ line: UnsafeRawPointer, fractionDigits: Int, zoneCount: Int) -> csimd_header_clock {
        let zone =
            zoneCount == 0
            ? 0
            : line.loadUnaligned(fromByteOffset: 20 &+ fractionDigits, as: UInt64.self)
                & (~0 &>> UInt64(64 &- 8 &* zoneCount))
        return csimd_header_clock(
            date: (
                line.loadUnaligned(as: UInt64.self), line.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                line.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
            ), zone: zone, zone_count: UInt32(truncatingIfNeeded: zoneCount),
            fraction_digits: UInt32(truncatingIfNeeded: fractionDigits), later: 0, reserved: 0)
    }

    /// The lines from `start` that end before `end` and repeat the clock of a shape armed in `armed` (bit 0
    /// classic, bit 1 modern; see `csimd_header_run`): how many, in how many groups (at most ``capacity``;
    /// described by ``tail(_:)``, ``isModern(_:)``, ``count(_:)``, ``firstMicros(_:)`` and ``lastMicros(_:)``), and
    /// the offset after the last one; `opened`, when the last one's message opens a dump, the brackets it leaves
    /// open (``BracketBalance``, above 0: the run ended there), else 0. `bytes` is a reader's buffer, `newlines` and
    /// `candidates` its marks; `loud`, when the reader's thread worked it out
    /// (``loudLines(_:newlines:candidates:into:)``), the LFs of the lines whose end or message the run would not take
    /// (a message that may open a dump among them): it then reads no more of a line than its header.
    @inline(__always)
    public func run(
        armed: UInt32, _ bytes: UnsafeRawPointer, start: Int, end: Int, newlines: UnsafePointer<UInt64>,
        candidates: UnsafePointer<UInt64>, loud: UnsafePointer<UInt64>?, maximumLineLength: Int
    ) -> (lines: Int, groups: Int, next: Int, opened: Int) {
        var next = start
        var groups = 0
        var opened: Int64 = 0
        let lines = csimd_header_run(
            state, armed, bytes.assumingMemoryBound(to: UInt8.self), start, end, newlines, candidates, loud,
            maximumLineLength, self.groups, Self.capacity, &groups, &next, &opened)
        return (lines, groups, next, Int(opened))
    }

    /// The tail that the lines of group `index` of the last run repeat.
    @inlinable
    public func tail(_ index: Int) -> Int { Int(groups[index].tail) }

    /// Whether group `index` of the last run is of printed lines (``countsPrinted``), counted and nothing else.
    @inlinable
    public func isPrinted(_ index: Int) -> Bool { groups[index].tail == UInt16(CSIMD_PRINTED_TAIL) }

    /// Whether the lines of group `index` of the last run are of the modern shape.
    @inlinable
    public func isModern(_ index: Int) -> Bool { groups[index].modern != 0 }

    /// The lines of group `index` of the last run.
    @inlinable
    public func count(_ index: Int) -> Int { Int(groups[index].count) }

    /// The microseconds of group `index`'s first line from the armed second (its fraction's first six digits, and
    /// the seconds after the armed one).
    @inlinable
    public func firstMicros(_ index: Int) -> Int64 { Int64(groups[index].first_micros) }

    /// The microseconds of group `index`'s last line from the armed second.
    @inlinable
    public func lastMicros(_ index: Int) -> Int64 { Int64(groups[index].last_micros) }

    /// Marks in `loud` the LF of each line of `bytes` that a run leaves to the line-by-line path whatever its
    /// header (`csimd_loud_lines`): a message (after the first `]` and a space) that ends with `{`, `(` or `[` or
    /// has a keyword marked in `candidates`, or a line with no `]` (printed, or a BSD syslog record with no pid) that
    /// does so anywhere; the marks must be exact
    /// (``LiteralSearch/Handle/scan(_:newlines:candidates:verifyingWithin:)``); and the first LF, whose line began
    /// before `bytes` (``loudLine(_:start:end:newlines:candidates:loud:)`` once it is known); and the first byte of
    /// each other line that is not loud and that a run's printed-line path refuses, which the run then need not ask.
    /// `loud` holds `(bytes.count + 63) / 64` words; `newlines` marks the bytes' LFs.
    public static func loudLines(
        _ bytes: UnsafeRawBufferPointer, newlines: UnsafePointer<UInt64>, candidates: UnsafePointer<UInt64>,
        into loud: UnsafeMutablePointer<UInt64>
    ) {
        guard let base = bytes.baseAddress else { return }
        csimd_loud_lines(base.assumingMemoryBound(to: UInt8.self), bytes.count, newlines, candidates, loud)
    }

    /// Marks or clears in `loud`, as ``loudLines(_:newlines:candidates:into:)`` would, the LF of the line that
    /// begins at `bytes + start` (the first LF `newlines` marks from `start`, before `end`), and its first byte.
    public static func loudLine(
        _ bytes: UnsafeRawPointer, start: Int, end: Int, newlines: UnsafePointer<UInt64>,
        candidates: UnsafePointer<UInt64>, loud: UnsafeMutablePointer<UInt64>
    ) {
        csimd_loud_line(bytes.assumingMemoryBound(to: UInt8.self), start, end, newlines, candidates, loud)
    }

    /// The lines from `start` inside a dump whose open brackets are `depth`, while it stays open, that cannot begin
    /// a header of an NSLog or `log` style format, or with `letter` (``Style/shortestLetterHeader``, not 0) of a
    /// device or BSD syslog (see `csimd_continuation_run`), behind `prefix` (a record's header behind a CI runner's
    /// timestamp follows it): how many, and the offset after the last one; `depth` then has their brackets
    /// (``BracketBalance``) added.
    @inline(__always)
    public static func continuations(
        _ bytes: UnsafeRawPointer, start: Int, end: Int, newlines: UnsafePointer<UInt64>, maximumLineLength: Int,
        letter: Int = 0, prefix: Prefix = .none, depth: inout Int
    ) -> (lines: Int, next: Int) {
        var next = start
        var open = Int64(depth)
        let lines = csimd_continuation_run(
            bytes.assumingMemoryBound(to: UInt8.self), start, end, newlines, maximumLineLength,
            BracketBalance.vectors, Int32(truncatingIfNeeded: letter), prefix.rawValue, &open, &next)
        depth = Int(open)
        return (lines, next)
    }
}
