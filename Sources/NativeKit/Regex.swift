import CPCRE2

/// A compiled, JIT-optimised PCRE2 pattern that works on UTF-8 bytes.
///
/// The compiled code is immutable once built, so one `Regex` may be shared across threads; every thread
/// matches through its own ``Matcher``, which owns the reusable match data.
///
/// The JIT compilation waits for the first match (``Matcher`` asks for it, under a lock, once per matcher): a run
/// compiles some 130 patterns (formats, vocabulary entries checked alone, keyword groups) and matches with far
/// fewer, so compiling them all up front was a quarter of the start-up.
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

    /// Guards ``jit``: matchers on several threads may ask for the compilation at once.
    private let lock = Lock()
    /// nil until the JIT compilation is tried, then whether it succeeded.
    private var jit: Bool?

    let code: OpaquePointer

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
    }

    deinit { pcre2_code_free_8(code) }

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
