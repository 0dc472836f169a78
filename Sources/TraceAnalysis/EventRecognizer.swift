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
        /// Per entry: whether it is a Mac-only spelling.
        let appKit: [Bool]
        /// Entries whose pattern names what it is about (`pid`, `name`, `bundle`, `signal`), compiled alone.
        let details: [Int: Regex]

        /// The capture names an entry may use to say which process a line is about.
        public static let captureNames = ["pid", "name", "bundle", "signal"]

        public init(_ vocabulary: Vocabulary) throws(TraceAnalyzeError) {
            // Compile each entry alone first so that an error names the entry that has it.
            var details: [Int: Regex] = [:]
            for (index, entry) in vocabulary.entries.enumerated() {
                let regex: Regex
                do {
                    regex = try Regex(entry.pattern, options: [.caseless])
                } catch {
                    throw .invalidPattern(owner: "vocabulary \(entry.id)", error: error)
                }
                for name in regex.groupNumbers.keys.sorted() where !Self.captureNames.contains(name) {
                    throw .sampleMismatch(
                        owner: "vocabulary \(entry.id)", sample: entry.pattern,
                        problem: "unknown capture (?<\(name)>…); use \(Self.captureNames.joined(separator: ", "))")
                }
                if !regex.groupNumbers.isEmpty { details[index] = regex }
            }
            // In the one alternation, named groups become plain groups (names may repeat across entries).
            let branches = vocabulary.entries.enumerated().map { index, entry in
                "(?:\(Self.anonymized(entry.pattern)))(*MARK:\(index))"
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
            self.details = details
            self.appKit = vocabulary.entries.map(\.appKit)
        }

        /// `(?<name>` → `(?:` (lookbehinds `(?<=` and `(?<!` are left alone).
        static func anonymized(_ pattern: String) -> String {
            var out = ""
            var rest = Substring(pattern)
            while let range = rest.range(of: "(?<") {
                out += rest[..<range.lowerBound]
                let after = rest[range.upperBound...]
                if let first = after.first, first.isLetter, let close = after.firstIndex(of: ">") {
                    out += "(?:"
                    rest = after[after.index(after: close)...]
                } else {
                    out += "(?<"
                    rest = after
                }
            }
            return out + rest
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
    private let details: [Int: Matcher]
    private let sceneIdentity: Matcher
    private let appKit: [Bool]

    /// How a scene's identity shows in a message: the scene delegate or the window scene printed with its
    /// address (`<App.SceneDelegate: 0x600003f6cc40>`, `<UIWindowScene: 0x14cc2f9e0; …>`), or its
    /// `persistentIdentifier`.
    static let sceneIdentityPattern =
        #"(?:SceneDelegate: |UIWindowScene: )(?<id>0x[0-9a-fA-F]+)|persistentIdentifier = (?<pid>[0-9A-Fa-f-]{8,})"#
    private static let sceneIdentityRegex: Regex = {
        do {
            return try Regex(sceneIdentityPattern)
        } catch {
            fatalError("the built-in scene identity pattern does not compile: \(error)")
        }
    }()

    /// A recogniser over patterns compiled once (cheap: it only allocates match data).
    public init(compiled: Compiled) {
        self.vocabulary = compiled.vocabulary
        self.matcher = Matcher(compiled.combined)
        self.prefilter = compiled.keywords.map { Matcher($0) }
        self.events = compiled.events
        self.details = compiled.details.mapValues { Matcher($0) }
        self.sceneIdentity = Matcher(Self.sceneIdentityRegex)
        self.appKit = compiled.appKit
    }

    /// Whether the entry at `index` is a spelling only a Mac app writes.
    public func isAppKit(entry index: Int) -> Bool { appKit[index] }

    /// The identity of the scene a scene callback's message names, when it names one.
    public func sceneIdentity(in message: UnsafeRawBufferPointer) -> String? {
        guard (try? sceneIdentity.matches(message)) == true,
            let range = sceneIdentity.range(named: "id") ?? sceneIdentity.range(named: "pid")
        else { return nil }
        return Bytes.string(message, range)
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

    /// What a line says about the process it concerns: a pid, a name, a bundle id, a signal number (all optional).
    public struct Subject: Sendable, Equatable {
        public var pid: Int?
        public var name: String?
        public var bundle: String?
        public var signal: Int?

        /// Whether the line names a process at all (else it is about its own process).
        public var namesProcess: Bool { pid != nil || name != nil || bundle != nil }
    }

    /// The subject a recognised message names, when its entry's pattern captures one.
    public func subject(ofEntry index: Int, in message: UnsafeRawBufferPointer) -> Subject {
        guard let matcher = details[index], (try? matcher.matches(message)) == true else { return Subject() }
        func text(_ name: String) -> String? {
            matcher.range(named: name).map { Bytes.string(message, $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return Subject(
            pid: text("pid").flatMap { Int($0) }, name: text("name"), bundle: text("bundle"),
            signal: text("signal").flatMap { Int($0) })
    }

    /// Recognises a Swift string (tests, validation, cold paths).
    public func recognize(_ message: String) -> Recognition? {
        var copy = message
        let index = copy.withUTF8 { entryIndex(UnsafeRawBufferPointer($0)) }
        guard let index else { return nil }
        return Recognition(entryID: vocabulary.entries[index].id, event: events[index])
    }
}
