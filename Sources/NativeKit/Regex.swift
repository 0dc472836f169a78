import CPCRE2
import CSIMD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A compiled, JIT-optimised PCRE2 pattern that works on UTF-8 bytes.
///
/// The compiled code is immutable once built, so one `Regex` may be shared across threads; every thread
/// matches through its own ``Matcher``, which owns the reusable match data.
///
/// The JIT compilation waits for the first match (``Matcher`` asks for it, under a lock, once per matcher), and the
/// ``prefilter`` for the first time it is asked for: a run compiles some 60 patterns up front (formats, vocabulary
/// entries that name groups or come from a configuration, checked alone) and matches with far fewer, so compiling
/// them all up front was a quarter of the start-up. The built-in vocabulary's fifty keyword groups wait for their
/// first match to be compiled at all (``DeferredRegex``).
public final class Regex: @unchecked Sendable {
    /// Compile-time options, a small subset of PCRE2's.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// ASCII case-insensitive matching.
        public static let caseless = Options(rawValue: 1 << 0)
        /// Treat the subject as UTF-8 (characters, not bytes); invalid UTF-8 in a subject is tolerated.
        public static let utf = Options(rawValue: 1 << 1)
        /// The match must start at the start offset.
        public static let anchored = Options(rawValue: 1 << 2)
        /// `.` matches newlines too.
        public static let dotAll = Options(rawValue: 1 << 3)
    }

    /// The source text of the pattern (as written, when what was compiled is a rewritten form of it).
    public let pattern: String
    /// The options the pattern was compiled with.
    public let options: Options
    /// The number of capturing groups (group 0, the whole match, not counted).
    public let captureCount: Int
    /// Named groups and their numbers.
    public let groupNumbers: [String: Int]
    /// Whether PCRE2's JIT compiler accepted the pattern (matching falls back to the interpreter if not); asking
    /// compiles it.
    public var isJITCompiled: Bool { compileJIT() }

    /// Guards ``jit`` and ``madePrefilter``: matchers on several threads may ask for them at once.
    private let lock = Lock()
    /// nil until the JIT compilation is tried, then whether it succeeded.
    private var jit: Bool?
    /// The prefilter, once asked for.
    private var madePrefilter: Prefilter?
    /// The text compiled (`pattern` may name the text it was rewritten from), which ``prefilter`` reads.
    private let compiledPattern: String

    let code: OpaquePointer

    /// What every match of the pattern needs, as PCRE2 worked it out when compiling it: ``Matcher`` checks it before
    /// calling PCRE2. Made when first asked for (a matcher's making, a record parser's tables): reading the pattern's
    /// shape was half of what compiling a pattern cost at start-up, and most of the vocabulary's patterns (each
    /// entry alone, the groups of keywords a capture never holds) are never matched.
    public var prefilter: Prefilter {
        lock.withLock {
            if let madePrefilter { return madePrefilter }
            let made = Prefilter(code, pattern: compiledPattern, caseless: options.contains(.caseless))
            madePrefilter = made
            return made
        }
    }

    /// Compiles `pattern`; a syntax error throws with the byte offset where PCRE2 stopped. `writtenAs`: the pattern
    /// `pattern` was rewritten from, named in messages (``pattern``) instead of it.
    public init(_ pattern: String, options: Options = [], writtenAs: String? = nil) throws(RegexError) {
        var flags: UInt32 = 0
        if options.contains(.caseless) { flags |= PCRE2_CASELESS }
        if options.contains(.utf) { flags |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF }
        if options.contains(.anchored) { flags |= PCRE2_ANCHORED }
        if options.contains(.dotAll) { flags |= PCRE2_DOTALL }

        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled: OpaquePointer? =
            pattern.utf8.withContiguousStorageIfAvailable { bytes in
                pcre2_compile_8(bytes.baseAddress, bytes.count, flags, &errorCode, &errorOffset, nil)
            }
            ?? {
                var copy = pattern
                return copy.withUTF8 { bytes in
                    pcre2_compile_8(bytes.baseAddress, bytes.count, flags, &errorCode, &errorOffset, nil)
                }
            }()
        guard let compiled else {
            throw RegexError.compile(
                pattern: pattern, offset: errorOffset, message: Regex.errorMessage(errorCode))
        }
        self.code = compiled
        self.pattern = writtenAs ?? pattern
        self.options = options

        var count: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &count)
        self.captureCount = Int(count)
        self.groupNumbers = Regex.readNameTable(compiled)
        self.compiledPattern = pattern
    }

    deinit { pcre2_code_free_8(code) }

    /// The conditions PCRE2 computes for its own start-of-match optimisations, read once so that a line that cannot
    /// match costs no call: a subject shorter than the pattern's minimum length, a first byte of an anchored pattern
    /// outside the set a match can begin with, or a subject without the literal byte every match holds cannot
    /// match. Each is a property of the pattern, the same whichever engine runs it, and each errs towards trying:
    /// - the minimum length counts characters, which in UTF-8 are one byte or more;
    /// - the first bytes: a first code unit, or PCRE2's bitmap of first bytes; only ASCII bytes are refused
    ///   (a byte from 0x80 is always tried), and a letter in either case (PCRE2 does not say whether it is caseless);
    /// - the required byte (PCRE2's "last code unit"): ASCII only, a letter in either case;
    /// - in UTF mode (`.utf`, or a pattern's own `(*UTF)`) neither the first nor the required bytes are used: a
    ///   caseless `k` matches the Kelvin sign (`E2 84 AA`) there, whose bytes hold neither case (PCRE2 10.42 names
    ///   no such letter; the rule keeps that so whatever it names). The built-in patterns read bytes.
    ///
    /// Outside UTF mode, the pattern's own text adds what PCRE2 does not report (``PatternShape``): the ASCII bytes
    /// each of the first positions of an anchored match may hold (`^\d{4}-\d\d-\d\d ` refuses a line whose
    /// eleventh byte is not a space), checked before the required byte's `memchr`; a run of bytes every match holds
    /// (`\[IOS_SYSLOG_ROW`), looked for with `csimd_find` instead of that byte; and, for an anchored pattern that
    /// begins with a run of a set of bytes (`nslog-untimed`'s `[^\[\]:\t]*?\[\d`), the bytes that must follow
    /// where the run ends, checked last.
    ///
    /// Patterns that can match an empty string have a minimum length of 0 and no first bytes (PCRE2 computes none).
    public struct Prefilter: @unchecked Sendable {
        /// Bytes of a subject from the start of a match, at least.
        public let minimumLength: Int
        /// The ASCII bytes a match may begin with (bit `b` of word `b >> 6`), when the pattern is anchored and
        /// PCRE2 knows them; all of them otherwise.
        @usableFromInline let firstBytes: (UInt64, UInt64)
        /// A byte every match holds after its start, in both cases for a letter (the same twice otherwise); nil when
        /// PCRE2 names none.
        public let requiredBytes: (UInt8, UInt8)?
        /// The ASCII bytes positions of an anchored match may hold after its first (whose bytes are ``firstBytes``)
        /// (``PatternShape/leading``): `leadingPositions` checks (``positionChecks(_:from:)``). Interned and never
        /// freed (``ShapeStore``): a prefilter is copied out of tables on every line, and an array here cost a
        /// retain and a release each time.
        @usableFromInline let leading: UnsafePointer<UInt64>?
        @usableFromInline let leadingPositions: Int
        /// Bytes every match holds in a row, from its start (``PatternShape/literal``): `literalCount` of them,
        /// interned as `leading` is.
        @usableFromInline let literal: UnsafePointer<UInt8>?
        @usableFromInline let literalCount: Int
        /// Whether `literal` holds the required byte (``requiredBytes``), which is then not looked for again.
        @usableFromInline let literalHoldsRequiredByte: Bool
        /// For an anchored pattern that begins with a run of bytes of a set (``PatternShape/span``): that set as the
        /// table `csimd_span_end` reads (16 bytes, two words), then `spanPositions` checks of the positions from the
        /// run's end (``positionChecks(_:from:)``), interned as `leading` is. The first of those positions holds none
        /// of the set.
        @usableFromInline let span: UnsafePointer<UInt64>?
        @usableFromInline let spanPositions: Int

        init(_ code: OpaquePointer, pattern: String, caseless: Bool) {
            func info(_ what: Int32) -> UInt32 {
                var value: UInt32 = 0
                return pcre2_pattern_info_8(code, UInt32(what), &value) == 0 ? value : 0
            }
            /// `unit` and its other case, for an ASCII letter.
            func cases(_ unit: UInt32) -> (UInt8, UInt8) {
                let byte = UInt8(unit)
                let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                return (byte, isLetter ? byte ^ 0x20 : byte)
            }
            minimumLength = Int(info(PCRE2_INFO_MINLENGTH))
            let options = info(PCRE2_INFO_ALLOPTIONS)
            let bytes = options & PCRE2_UTF == 0
            var first: (UInt64, UInt64) = (~0, ~0)
            if bytes, options & PCRE2_ANCHORED != 0 {
                if info(PCRE2_INFO_FIRSTCODETYPE) == 1 {
                    let unit = info(PCRE2_INFO_FIRSTCODEUNIT)
                    if unit < 0x80 {
                        first = (0, 0)
                        let (one, other) = cases(unit)
                        for byte in [one, other] { Self.set(byte, in: &first) }
                    }
                } else {
                    var bitmap: UnsafePointer<UInt8>? = nil
                    pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_FIRSTBITMAP), &bitmap)
                    if let bitmap {
                        first = (0, 0)
                        for byte in 0..<UInt8(0x80) where bitmap[Int(byte >> 3)] & (1 << (byte & 7)) != 0 {
                            Self.set(byte, in: &first)
                            // Both cases of a letter (the bitmap of a caseless pattern holds both already).
                            let (_, other) = cases(UInt32(byte))
                            Self.set(other, in: &first)
                        }
                    }
                }
            }
            let last = bytes && info(PCRE2_INFO_LASTCODETYPE) == 1 ? info(PCRE2_INFO_LASTCODEUNIT) : 0x80
            requiredBytes = last < 0x80 ? cases(last) : nil
            let shape = bytes ? PatternShape(pattern, caseless: caseless, anchored: options & PCRE2_ANCHORED != 0) : nil
            var leading: [UInt64] = []
            var span: [UInt64] = []
            if let shape {
                if let set = shape.span {
                    var table: [UInt64] = [0, 0]
                    table.withUnsafeMutableBytes { bytes in
                        guard let base = bytes.baseAddress else { return }
                        csimd_span_table(set.low, set.high, base.assumingMemoryBound(to: UInt8.self))
                    }
                    span = table + Self.positionChecks(shape.leading, from: 0)
                } else if let head = shape.leading.first {
                    first = (first.0 & head.low, first.1 & head.high)
                    leading = Self.positionChecks(shape.leading, from: 1)
                }
            }
            self.span = span.isEmpty ? nil : ShapeStore.shared.intern(span)
            spanPositions = max(0, span.count - 2) / 3
            firstBytes = first
            self.leading = leading.isEmpty ? nil : ShapeStore.shared.intern(leading)
            leadingPositions = leading.count / 3
            // A run of three bytes or more: a shorter one (`Z `) is hardly rarer than the required byte.
            let literal = shape.map { $0.literal.count >= 3 ? $0.literal : [] } ?? []
            self.literal = literal.isEmpty ? nil : ShapeStore.shared.intern(literal)
            literalCount = literal.count
            literalHoldsRequiredByte = requiredBytes.map { literal.contains($0.0) || literal.contains($0.1) } ?? true
        }

        /// Checks of the positions of `sets` from `from` on, three words each (the position, its two words of bytes):
        /// the narrowest set first (`-` before `\d`: a CI runner's timestamp is refused by the NSLog formats at its
        /// `T`, the eleventh byte, in three checks), and none that allows three quarters of ASCII or more.
        private static func positionChecks(_ sets: [ByteMask], from: Int) -> [UInt64] {
            let checked = sets.indices.dropFirst(from).map { (position: $0, width: sets[$0].asciiCount) }
                .filter { $0.width < 96 }.sorted { ($0.width, $0.position) < ($1.width, $1.position) }
            return checked.flatMap { [UInt64($0.position), sets[$0.position].low, sets[$0.position].high] }
        }

        /// Whether the `count` checks at `checks` (``positionChecks(_:from:)``) pass for the subject at `base`, its
        /// positions counted from `base`, as far as its `rest` bytes go.
        @inlinable @inline(__always)
        static func passes(_ checks: UnsafePointer<UInt64>, count: Int, _ base: UnsafePointer<UInt8>, rest: Int) -> Bool
        {
            var check = checks
            let end = checks + 3 &* count
            while check < end {
                let position = Int(check[0])
                if position < rest, !holds(check + 1, base[position]) { return false }
                check += 3
            }
            return true
        }

        /// Whether the two words of bytes at `words` hold `byte` (one from 0x80 always).
        @inlinable @inline(__always)
        static func holds(_ words: UnsafePointer<UInt64>, _ byte: UInt8) -> Bool {
            byte >= 0x80 || (words[Int(byte >> 6)] >> UInt64(byte & 63)) & 1 != 0
        }

        private static func set(_ byte: UInt8, in words: inout (UInt64, UInt64)) {
            if byte < 64 { words.0 |= 1 << UInt64(byte) } else { words.1 |= 1 << UInt64(byte &- 64) }
        }

        /// Whether a match may begin at byte `start` (≤ `count`) of the `count` bytes at `base`: false only when
        /// PCRE2 would find none there.
        @inlinable @inline(__always)
        public func admits(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Bool {
            let rest = count &- start
            if rest < minimumLength { return false }
            if rest > 0 {
                let byte = base[start]
                if byte < 0x80 {
                    let word = byte < 64 ? firstBytes.0 : firstBytes.1
                    if (word >> UInt64(byte & 63)) & 1 == 0 { return false }
                }
            }
            if let leading, !Self.passes(leading, count: leadingPositions, base + start, rest: rest) { return false }
            if let literal {
                if csimd_find(base + start, rest, literal, literalCount) == nil { return false }
            }
            if let (one, other) = requiredBytes, literal == nil || !literalHoldsRequiredByte,
                memchr(base + start, Int32(one), rest) == nil,
                one == other || memchr(base + start, Int32(other), rest) == nil
            {
                return false
            }
            // Last, as it reads the run: the end of the span (a vector search, `csimd_span_end`: byte by byte, the
            // runs of the lines a CI capture prints were 3 % of its instructions), where a byte must follow, and the
            // positions from there.
            guard let span else { return true }
            let table = UnsafeRawPointer(span).assumingMemoryBound(to: UInt8.self)
            let index = start &+ csimd_span_end(base + start, count &- start, table)
            return index < count && Self.passes(span + 2, count: spanPositions, base + index, rest: count &- index)
        }

        /// The bytes byte `position` (1 or more) of a match may be as the checks of an anchored match's first
        /// positions (``leading``) have them (a byte from 0x80 always passes), nil where they check nothing: for the
        /// record parser's tables of the formats a line's bytes allow, made once per catalogue.
        public func leadingBytes(at position: Int) -> ByteMask? {
            guard let leading, position > 0 else { return nil }
            var check = leading
            for _ in 0..<leadingPositions {
                if Int(check[0]) == position { return ByteMask(low: check[1], high: check[2], upper: true) }
                check += 3
            }
            return nil
        }

        /// Whether a match may begin with `byte` (the record parser's tables of the formats a line's first byte
        /// allows).
        public func mayBegin(with byte: UInt8) -> Bool {
            byte >= 0x80 || ((byte < 64 ? firstBytes.0 : firstBytes.1) >> UInt64(byte & 63)) & 1 != 0
        }
    }

    /// JIT-compiles the pattern if that was not tried yet; returns whether it is compiled. Every match must come
    /// after this call (PCRE2 does not allow compiling while another thread matches): ``Matcher`` makes it before
    /// its first match.
    @discardableResult
    func compileJIT() -> Bool {
        lock.withLock {
            if let jit { return jit }
            let compiled = pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE) == 0
            jit = compiled
            return compiled
        }
    }

    /// Whether this PCRE2 library was built with LF as its newline (PCRE2's default, and Debian's): `.` then matches
    /// every byte of a line split at LF, and `$` only its end, so `.*$` after any point of such a line matches the
    /// rest of it.
    public static let newlineIsLF: Bool = {
        var newline: UInt32 = 0
        return pcre2_config_8(UInt32(PCRE2_CONFIG_NEWLINE), &newline) >= 0 && newline == UInt32(PCRE2_NEWLINE_LF)
    }()

    /// `literal` with every pattern metacharacter escaped, so it matches itself.
    public static func escape(_ literal: String) -> String {
        var out = ""
        for character in literal {
            if "\\^$.|?*+()[]{}#-/ ".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// The number of the group called `name`, if the pattern has one.
    public func groupNumber(_ name: String) -> Int? { groupNumbers[name] }

    private static func readNameTable(_ code: OpaquePointer) -> [String: Int] {
        var nameCount: UInt32 = 0
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>? = nil
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &nameCount)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        guard let table, nameCount > 0 else { return [:] }
        var result: [String: Int] = [:]
        for index in 0..<Int(nameCount) {
            let entry = table + index * Int(entrySize)
            // Each entry: a big-endian 16-bit group number, then the zero-terminated name.
            let number = Int(entry[0]) << 8 | Int(entry[1])
            let nameStart = entry + 2
            var length = 0
            while length < Int(entrySize) - 2, nameStart[length] != 0 { length += 1 }
            let name = String(decoding: UnsafeBufferPointer(start: nameStart, count: length), as: UTF8.self)
            result[name] = number
        }
        return result
    }

    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            pcre2_get_error_message_8(code, pointer.baseAddress, pointer.count)
        }
        guard length > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }
}

/// A failure to compile or run a pattern.
public enum RegexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pattern does not compile; `offset` is the byte offset in the pattern where PCRE2 stopped.
    case compile(pattern: String, offset: Int, message: String)
    /// Matching failed for a reason other than "no match" (a match or depth limit, for example).
    case match(pattern: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .compile(let pattern, let offset, let message):
            return "pattern does not compile at byte \(offset): \(message) — in \(pattern)"
        case .match(let pattern, let code, let message):
            return "pattern failed while matching (PCRE2 error \(code)): \(message) — in \(pattern)"
        }
    }
}
