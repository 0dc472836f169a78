/// Where patterns gave up while one input was read: which pattern (by owner), how often, and the first line.
///
/// The reader sets ``line`` before it matches a line's patterns; each ``Matcher`` sharing the log records a
/// give-up (a PCRE2 match, depth or heap limit hit) against that line. Not thread-safe: one log per input.
public final class MatchFailureLog {
    /// One pattern's give-ups.
    public struct Failure: Sendable, Equatable {
        /// Who defined the pattern (`format team-logger`, `vocabulary my-launch`).
        public var owner: String
        public var pattern: String
        /// PCRE2's reason (`match limit exceeded`).
        public var message: String
        /// Lines the pattern gave up on.
        public var lines: Int
        public var firstLine: Int
        /// The line after which the pattern was no longer tried, when it gave up too often.
        public var retiredAfterLine: Int?
    }

    /// The line being matched (1-based), set by the reader for every line. Kept behind a pointer: a stored class
    /// property would be checked for exclusive access at run time on every assignment.
    /// Inlinable: set on every line of every input, where a call would cost more than the store.
    @inlinable
    public var line: Int {
        get { current.pointee }
        set { current.pointee = newValue }
    }
    @usableFromInline
    let current: UnsafeMutablePointer<Int> = {
        let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return pointer
    }()

    deinit { current.deallocate() }
    public private(set) var failures: [Failure] = []

    public init() {}

    /// Per failure, the last line recorded: a pattern tried twice on one line counts the line once.
    private var lastLines: [Int] = []

    func record(owner: String, pattern: String, message: String, retired: Bool) {
        if let index = failures.firstIndex(where: { $0.owner == owner && $0.pattern == pattern }) {
            if line != lastLines[index] { failures[index].lines += 1 }
            lastLines[index] = line
            if retired, failures[index].retiredAfterLine == nil { failures[index].retiredAfterLine = line }
        } else {
            failures.append(
                Failure(
                    owner: owner, pattern: pattern, message: message, lines: 1, firstLine: line,
                    retiredAfterLine: retired ? line : nil))
            lastLines.append(line)
        }
    }
}
