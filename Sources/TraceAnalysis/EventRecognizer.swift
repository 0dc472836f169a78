import PCRE2Kit

/// Tells which lifecycle event, if any, a message means.
///
/// All vocabulary entries are compiled into one caseless alternation, each branch ending in `(*MARK:n)`,
/// so one JIT-compiled search per message finds the entry (the leftmost match wins; entries are
/// written so that no example matches two). Holds a ``Matcher``: one recogniser per thread.
public final class EventRecognizer {
    /// What a message was recognised as.
    public struct Recognition: Equatable, Sendable {
        public var entryID: String
        public var event: LifecycleEvent
    }

    /// The vocabulary's patterns, compiled once and shared by every recogniser (and thread).
    public struct Compiled: Sendable {
        public let vocabulary: Vocabulary
        let combined: Regex
        /// Matches when a message holds one of the entries' keywords; nil when some entry declares none.
        let keywords: Regex?
        let events: [LifecycleEvent]

        public init(_ vocabulary: Vocabulary) throws(TraceAnalyzeError) {
            // Compile each entry alone first so that an error names the entry that has it.
            for entry in vocabulary.entries {
                do {
                    _ = try Regex(entry.pattern, options: [.caseless])
                } catch {
                    throw .invalidPattern(owner: "vocabulary \(entry.id)", error: error)
                }
            }
            let branches = vocabulary.entries.enumerated().map { index, entry in
                "(?:\(entry.pattern))(*MARK:\(index))"
            }
            do {
                combined = try Regex(
                    branches.isEmpty ? "(*FAIL)" : "(?:" + branches.joined(separator: "|") + ")", options: [.caseless])
            } catch {
                throw .invalidPattern(owner: "vocabulary", error: error)
            }
            self.vocabulary = vocabulary
            self.events = vocabulary.entries.map(\.event)
            self.keywords = try Compiled.keywordFilter(vocabulary)
        }

        /// One caseless literal alternation of every keyword: far cheaper than the patterns, which start with
        /// lookbehinds that keep PCRE2 from skipping ahead.
        private static func keywordFilter(_ vocabulary: Vocabulary) throws(TraceAnalyzeError) -> Regex? {
            guard !vocabulary.entries.isEmpty, vocabulary.entries.allSatisfy({ !$0.keywords.isEmpty }) else {
                return nil
            }
            var keywords: [String] = []
            for keyword in vocabulary.entries.flatMap(\.keywords) where !keywords.contains(keyword.lowercased()) {
                keywords.append(keyword.lowercased())
            }
            do {
                return try Regex("(?:" + keywords.map(Regex.escape).joined(separator: "|") + ")", options: [.caseless])
            } catch {
                throw .invalidPattern(owner: "vocabulary keywords", error: error)
            }
        }
    }

    public let vocabulary: Vocabulary
    private let matcher: Matcher
    private let prefilter: Matcher?
    private let events: [LifecycleEvent]

    /// A recogniser over patterns compiled once (cheap: it only allocates match data).
    public init(compiled: Compiled) {
        self.vocabulary = compiled.vocabulary
        self.matcher = Matcher(compiled.combined)
        self.prefilter = compiled.keywords.map { Matcher($0) }
        self.events = compiled.events
    }

    /// Compiles `vocabulary` and makes a recogniser for it.
    public convenience init(vocabulary: Vocabulary = .builtin) throws(TraceAnalyzeError) {
        self.init(compiled: try Compiled(vocabulary))
    }

    /// The index of the vocabulary entry the message means, or nil.
    @inline(__always)
    public func entryIndex(_ message: UnsafeRawBufferPointer) -> Int? {
        if let prefilter, (try? prefilter.matches(message)) != true { return nil }
        guard (try? matcher.matches(message)) == true, let mark = matcher.mark, let index = Int(mark) else {
            return nil
        }
        return index
    }

    /// The event of the entry at `index`.
    public func event(ofEntry index: Int) -> LifecycleEvent { events[index] }

    /// Recognises a Swift string (tests, validation, cold paths).
    public func recognize(_ message: String) -> Recognition? {
        var copy = message
        let index = copy.withUTF8 { entryIndex(UnsafeRawBufferPointer($0)) }
        guard let index else { return nil }
        return Recognition(entryID: vocabulary.entries[index].id, event: events[index])
    }
}
