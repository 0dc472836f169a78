/// One way of writing a lifecycle event in a log message, as data: a pattern, examples and bait.
///
/// Patterns are PCRE2, caseless, byte semantics, searched anywhere in the message. As with SwiftLint's
/// rule examples, every `examples` message must be recognised as this entry's event and every `bait`
/// message must be recognised as nothing; ``Vocabulary/validate()`` and the test suite check both.
public struct VocabularyEntry: Sendable, Codable, Hashable {
    /// Stable id of the entry (kebab-case).
    public var id: String
    /// The event the entry recognises.
    public var event: LifecycleEvent
    /// PCRE2 pattern searched in the message.
    public var pattern: String
    /// Messages, as people really log them, that must mean `event`.
    public var examples: [String]
    /// Look-alike messages that must mean nothing.
    public var bait: [String]
    /// Words (ASCII, caseless) of which every message the entry matches contains at least one. They let the
    /// recogniser skip the pattern search on the great majority of lines; empty means "always search".
    public var keywords: [String]
    /// Defined in a configuration file (a team's own messages), not built in. A built-in entry's bait may be a
    /// user entry's example: teams log what they like.
    public var userDefined: Bool
    /// The spelling only a Mac app writes (`NSApplicationDidBecomeActiveNotification`): its process follows AppKit.
    public var appKit: Bool

    public init(
        id: String, event: LifecycleEvent, pattern: String, keywords: [String] = [], examples: [String],
        bait: [String] = [], userDefined: Bool = false, appKit: Bool = false
    ) {
        self.userDefined = userDefined
        self.appKit = appKit || event.family == .appKit
        self.id = id
        self.event = event
        self.pattern = pattern
        self.keywords = keywords
        self.examples = examples
        self.bait = bait
    }
}

/// The table of entries the recogniser uses.
public struct Vocabulary: Sendable {
    public var entries: [VocabularyEntry]

    public init(entries: [VocabularyEntry]) { self.entries = entries }

    /// Checks that every example means its own entry's event and every piece of bait means nothing.
    public func validate() throws(TraceAnalyzeError) {
        try validate(with: EventRecognizer(vocabulary: self))
    }

    /// Validates with a recogniser already built for this vocabulary.
    func validate(with recognizer: EventRecognizer) throws(TraceAnalyzeError) {
        let userDefinedIDs = Set(entries.filter(\.userDefined).map(\.id))
        for entry in entries {
            if entry.examples.isEmpty {
                throw .sampleMismatch(owner: "vocabulary \(entry.id)", sample: "", problem: "has no example message")
            }
            for example in entry.examples {
                let lowered = Array(example.lowercased().utf8)
                if !entry.keywords.isEmpty,
                    !entry.keywords.contains(where: { Bytes.contains(lowered, Array($0.lowercased().utf8)) })
                {
                    throw .sampleMismatch(
                        owner: "vocabulary \(entry.id)", sample: example,
                        problem: "contains none of the keywords \(entry.keywords.joined(separator: ", "))")
                }
                let found = recognizer.recognize(example)
                guard found?.entryID == entry.id else {
                    let problem =
                        found.map { "is recognised as \($0.entryID) (\($0.event.rawValue))" } ?? "is not recognised"
                    throw .sampleMismatch(owner: "vocabulary \(entry.id)", sample: example, problem: problem)
                }
            }
            for bait in entry.bait {
                if let found = recognizer.recognize(bait),
                    entry.userDefined || !(userDefinedIDs.contains(found.entryID))
                {
                    throw .sampleMismatch(
                        owner: "vocabulary \(entry.id)", sample: bait,
                        problem: "is bait but is recognised as \(found.entryID) (\(found.event.rawValue))")
                }
            }
        }
    }
}
