import CPCRE2

/// Matches one ``Regex`` against byte buffers, reusing a single match-data block for every call.
///
/// A matcher is cheap to keep and not thread-safe: give each thread its own. After a successful
/// ``matches(_:from:)`` the capture ranges are byte offsets into the buffer that was matched.
public final class Matcher {
    /// The pattern this matcher runs.
    public let regex: Regex
    private let matchData: OpaquePointer
    private let matchContext: OpaquePointer?
    private let ovector: UnsafeMutablePointer<Int>
    private let unset: Int

    /// Limits that stop a pathological pattern from running away (PCRE2's match and depth limits).
    public struct Limits: Sendable {
        public var match: UInt32
        public var depth: UInt32
        public init(match: UInt32 = 1_000_000, depth: UInt32 = 10_000) {
            self.match = match
            self.depth = depth
        }
    }

    /// Creates a matcher for `regex` with match data sized for its groups.
    public init(_ regex: Regex, limits: Limits = Limits()) {
        self.regex = regex
        // pcre2_match_data_create_from_pattern only fails when out of memory.
        guard let data = pcre2_match_data_create_from_pattern_8(regex.code, nil) else {
            fatalError("PCRE2: out of memory creating match data")
        }
        self.matchData = data
        self.ovector = pcre2_get_ovector_pointer_8(data)
        self.unset = cpcre2_unset()
        let context = pcre2_match_context_create_8(nil)
        if let context {
            pcre2_set_match_limit_8(context, limits.match)
            pcre2_set_depth_limit_8(context, limits.depth)
        }
        self.matchContext = context
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        if let matchContext { pcre2_match_context_free_8(matchContext) }
    }

    /// Runs the pattern over `bytes` starting at byte `start`.
    ///
    /// Returns `true` on a match, `false` when there is none; throws when PCRE2 gives up (a limit hit).
    @inline(__always)
    public func matches(_ bytes: UnsafeRawBufferPointer, from start: Int = 0) throws(RegexError) -> Bool {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        // PCRE2 wants a non-null subject even when it is empty.
        let rc: Int32
        if let base {
            rc = pcre2_match_8(regex.code, base, bytes.count, start, 0, matchData, matchContext)
        } else {
            var empty: UInt8 = 0
            rc = pcre2_match_8(regex.code, &empty, 0, 0, 0, matchData, matchContext)
        }
        if rc >= 0 { return true }
        if rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL { return false }
        throw RegexError.match(pattern: regex.pattern, code: rc, message: Regex.errorMessage(rc))
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
    @inline(__always)
    public func range(_ group: Int) -> Range<Int>? {
        guard group >= 0, group <= regex.captureCount else { return nil }
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
    public var mark: String? {
        guard let pointer = pcre2_get_mark_8(matchData) else { return nil }
        // The mark is preceded by a code unit holding its length.
        let length = Int((pointer - 1).pointee)
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}
