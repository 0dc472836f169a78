import CPCRE2

/// Matches one ``Regex`` against byte buffers, reusing a single match-data block for every call.
///
/// A matcher is cheap to keep and not thread-safe: give each thread its own. After a successful
/// ``matches(_:from:)`` the capture ranges are byte offsets into the buffer that was matched.
///
/// Every match runs under PCRE2's match, depth and heap limits, so a pattern that backtracks catastrophically
/// (`(a+)+$` on a long run of `a`) gives up on a line instead of hanging. A matcher given a ``MatchFailureLog``
/// records each give-up there under its `owner`, and after ``Limits/failures`` of them stops trying its pattern at
/// all (every later call is "no match"), so a bad pattern costs a bounded time per input.
public final class Matcher {
    /// The pattern this matcher runs.
    public let regex: Regex
    /// Who defined the pattern (`format team-logger`), for failure messages.
    public var owner: String {
        switch ownerName {
        case .named(let name): name
        case .described(let describe): describe()
        }
    }
    /// The owner's name, or how to write it: most matchers never give up, and a batch makes some of them for each
    /// input (a vocabulary group's owner lists its entries: about 3,500 instructions written out).
    private enum OwnerName {
        case named(String)
        case described(() -> String)
    }
    private let ownerName: OwnerName
    private let matchData: OpaquePointer
    /// The regex's ``Regex/Prefilter``, held here so that a line it refuses costs no load through the regex.
    private let prefilter: Regex.Prefilter
    private let matchContext: OpaquePointer?
    // Read by `range(_:)`, inlined into callers (a record's groups are read on every line).
    @usableFromInline let ovector: UnsafeMutablePointer<Int>
    @usableFromInline let unset: Int
    @usableFromInline let captureCount: Int
    private let failureLog: MatchFailureLog?
    private let failureBudget: Int
    private var failures = 0
    // The flags read on every match are not checked for exclusive access at run time (a matcher belongs to one
    // thread, and only `prepare` and `gaveUp` write them, never while another access to them is open): the check
    // cost more than the flags.
    /// The pattern gave up ``Limits/failures`` times and is no longer tried.
    @exclusivity(unchecked) public private(set) var isRetired = false
    /// The pattern was JIT-compiled (or tried to be) before this matcher's first match.
    @exclusivity(unchecked) private var isPrepared = false
    /// It was: matches go straight to the compiled code (`pcre2_jit_match`, without `pcre2_match`'s checks of
    /// what this matcher already ensures: a valid offset, and invalid UTF-8 handled by the code itself, which
    /// ``Regex`` compiles with `PCRE2_MATCH_INVALID_UTF` whenever it reads UTF-8).
    @exclusivity(unchecked) private var isJIT = false

    /// Limits that stop a pathological pattern from running away.
    public struct Limits: Sendable {
        /// PCRE2's match limit: backtracking steps per match (the JIT honours it too).
        public var match: UInt32
        /// PCRE2's depth limit: nested backtracking depth per match (the interpreter only).
        public var depth: UInt32
        /// PCRE2's heap limit for backtracking memory, in KiB (the interpreter only).
        public var heapKiB: UInt32
        /// Give-ups after which a matcher with a failure log stops trying its pattern.
        public var failures: Int
        public init(match: UInt32 = 1_000_000, depth: UInt32 = 10_000, heapKiB: UInt32 = 20_000, failures: Int = 100) {
            self.match = match
            self.depth = depth
            self.heapKiB = heapKiB
            self.failures = failures
        }
    }

    /// Creates a matcher for `regex` with match data sized for its groups.
    public convenience init(
        _ regex: Regex, owner: String = "", limits: Limits = Limits(), failureLog: MatchFailureLog? = nil
    ) {
        self.init(regex, ownerName: .named(owner), limits: limits, failureLog: failureLog)
    }

    /// Creates a matcher whose owner is written by `owner` when a failure message first needs it.
    public convenience init(
        _ regex: Regex, describedBy owner: @escaping () -> String, limits: Limits = Limits(),
        failureLog: MatchFailureLog? = nil
    ) {
        self.init(regex, ownerName: .described(owner), limits: limits, failureLog: failureLog)
    }

    private init(_ regex: Regex, ownerName: OwnerName, limits: Limits, failureLog: MatchFailureLog?) {
        self.regex = regex
        self.ownerName = ownerName
        self.failureLog = failureLog
        self.failureBudget = max(1, limits.failures)
        // pcre2_match_data_create_from_pattern only fails when out of memory.
        guard let data = pcre2_match_data_create_from_pattern_8(regex.code, nil) else {
            fatalError("PCRE2: out of memory creating match data")
        }
        self.matchData = data
        self.ovector = pcre2_get_ovector_pointer_8(data)
        self.unset = cpcre2_unset()
        self.captureCount = regex.captureCount
        self.prefilter = regex.prefilter
        let context = pcre2_match_context_create_8(nil)
        if let context {
            pcre2_set_match_limit_8(context, limits.match)
            pcre2_set_depth_limit_8(context, limits.depth)
            pcre2_set_heap_limit_8(context, limits.heapKiB)
        }
        self.matchContext = context
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        if let matchContext { pcre2_match_context_free_8(matchContext) }
    }

    /// Runs the pattern over `bytes` starting at byte `start`.
    ///
    /// A subject the regex's ``Regex/Prefilter`` refuses is no match without a call to PCRE2 (most lines of a
    /// capture are no record of most formats, and no prefix's).
    ///
    /// Returns `true` on a match, `false` when there is none (or the pattern is retired); throws when PCRE2 gives
    /// up (a limit hit), after recording it in the failure log.
    @inline(__always)
    public func matches(_ bytes: UnsafeRawBufferPointer, from start: Int = 0) throws(RegexError) -> Bool {
        if let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), start <= bytes.count,
            !prefilter.admits(base, count: bytes.count, from: start)
        {
            return false
        }
        return try matches(admitted: bytes, from: start)
    }

    /// ``matches(_:from:)`` for a subject the caller has already held to the regex's ``Regex/Prefilter`` (the record
    /// parser asks the formats' and prefixes' prefilters before it reaches their matchers): not checked twice.
    @inline(__always)
    public func matches(admitted bytes: UnsafeRawBufferPointer, from start: Int = 0) throws(RegexError) -> Bool {
        if isRetired { return false }
        if !isPrepared { prepare() }
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        // PCRE2 wants a non-null subject even when it is empty.
        let rc: Int32
        if let base, isJIT, start <= bytes.count {
            rc = pcre2_jit_match_8(regex.code, base, bytes.count, start, 0, matchData, matchContext)
        } else if let base {
            rc = pcre2_match_8(regex.code, base, bytes.count, start, 0, matchData, matchContext)
        } else {
            var empty: UInt8 = 0
            rc = pcre2_match_8(regex.code, &empty, 0, 0, 0, matchData, matchContext)
        }
        if rc >= 0 { return true }
        if rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL { return false }
        throw gaveUp(rc)
    }

    @inline(never)
    private func prepare() {
        isJIT = regex.compileJIT()
        isPrepared = true
    }

    private func gaveUp(_ code: Int32) -> RegexError {
        let error = RegexError.match(pattern: regex.pattern, code: code, message: Regex.errorMessage(code))
        if let failureLog {
            failures += 1
            isRetired = failures >= failureBudget
            failureLog.record(
                owner: owner, pattern: regex.pattern, message: Regex.errorMessage(code), retired: isRetired)
        }
        return error
    }

    /// Convenience for tests and cold paths: matches a Swift string's UTF-8.
    public func matches(_ string: String) throws(RegexError) -> Bool {
        var copy = string
        let result: Result<Bool, RegexError> = copy.withUTF8 { buffer in
            Result { () throws(RegexError) -> Bool in try matches(UnsafeRawBufferPointer(buffer)) }
        }
        return try result.get()
    }

    /// The byte range of capture group `group` in the last successful match, or nil if it did not take part.
    @inlinable
    public func range(_ group: Int) -> Range<Int>? {
        guard group >= 0, group <= captureCount else { return nil }
        let start = ovector[2 * group]
        let end = ovector[2 * group + 1]
        if start == unset || end < start { return nil }
        return start..<end
    }

    /// The byte range of the named group in the last successful match.
    public func range(named name: String) -> Range<Int>? {
        guard let number = regex.groupNumber(name) else { return nil }
        return range(number)
    }

    /// The name given by the last `(*MARK:NAME)` passed on the way to the match, if any.
    public var mark: String? { markBytes.map { String(decoding: $0, as: UTF8.self) } }

    /// ``mark`` read as a decimal number (`(*MARK:12)`), without making a String; nil when there is no mark or it
    /// is not one to eighteen ASCII digits.
    public var markNumber: Int? {
        guard let bytes = markBytes, (1...18).contains(bytes.count) else { return nil }
        var value = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }

    /// The bytes of the last mark, inside PCRE2's match data (valid until the next match).
    @inline(__always)
    private var markBytes: UnsafeBufferPointer<UInt8>? {
        guard let pointer = pcre2_get_mark_8(matchData) else { return nil }
        // The mark is preceded by a code unit holding its length.
        return UnsafeBufferPointer(start: pointer, count: Int((pointer - 1).pointee))
    }
}
