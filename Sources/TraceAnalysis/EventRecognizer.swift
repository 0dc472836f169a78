import NativeKit

/// Tells which lifecycle event, if any, a message means.
///
/// Entries are grouped by the keywords they declare. One caseless literal search finds a keyword in the message
/// (most messages hold none and cost only that search); the keyword's group — the entries declaring it, compiled
/// into one alternation whose branches end in `(*MARK:n)` — is then searched, and so on for later keywords of the
/// message. Entries without keywords form a group tried on every message. Entries are written so that no example
/// matches two. Holds ``Matcher``s: one recogniser per thread.
public final class EventRecognizer {
    /// What a message was recognised as.
    public struct Recognition: Equatable, Sendable {
        public var entryID: String
        public var event: LifecycleEvent
    }

    /// The vocabulary's patterns, compiled once and shared by every recogniser (and thread).
    public struct Compiled: Sendable {
        public let vocabulary: Vocabulary
        /// Every keyword; keyword `k`'s entries are ``groups``[k].
        let keywords: KeywordScanner
        /// Per keyword: the entries that declare it, in vocabulary order (one alternation); compiled when the group is
        /// first matched where every entry in it is a built-in one.
        let groups: [DeferredRegex]
        /// Per keyword: the indices of the entries in its group.
        let groupMembers: [[Int]]
        /// The entries that declare no keyword (tried on every message); nil when every entry declares some.
        let unfiltered: Regex?
        let unfilteredMembers: [Int]
        let events: [LifecycleEvent]
        /// Per entry: whether it is a Mac-only spelling.
        let appKit: [Bool]
        /// Entries whose pattern names what it is about (`pid`, `name`, `bundle`, `signal`), compiled alone (a
        /// built-in one when first matched): each such entry's position in ``detailEntries`` and ``detailRegexes``.
        let detailed: [Int: Int]
        let detailEntries: [Int]
        let detailRegexes: [DeferredRegex]

        /// The capture names an entry may use to say which process a line is about.
        public static let captureNames = ["pid", "name", "bundle", "signal"]

        public init(_ vocabulary: Vocabulary) throws(TraceAnalyzeError) {
            let members = Self.members(vocabulary)
            // Each entry of your own is compiled alone first, so that an error names the entry that has it (the
            // tests compile every built-in entry alone). When anything fails, every entry is compiled alone, in
            // order, so that the error is the one a compilation of each gives first. What is built in waits for its
            // first match to be compiled (``DeferredRegex``): a built-in entry that names groups (the tests check
            // that each one that may does, with names of ``captureNames``), and a group of built-in entries alone
            // (the tests compile each built-in group); most are never matched.
            let builtIn = Set(Vocabulary.builtin.entries.map(\.pattern))
            let isBuiltIn = vocabulary.entries.map { builtIn.contains($0.pattern) }
            var details: [Int: DeferredRegex]
            let groups: [DeferredRegex]
            let unfiltered: Regex?
            do {
                details = try Self.compiledAlone(vocabulary.entries.indices.filter { !isBuiltIn[$0] }, of: vocabulary)
                    .mapValues(DeferredRegex.init)
                for (index, entry) in vocabulary.entries.enumerated()
                where isBuiltIn[index] && Self.mayNameGroups(entry.pattern) {
                    let pattern = entry.pattern
                    details[index] = DeferredRegex(compiling: { pattern }, options: .caseless)
                }
                groups = try members.keywords.map { indices throws(TraceAnalyzeError) in
                    guard indices.allSatisfy({ isBuiltIn[$0] }) else {
                        return DeferredRegex(try Self.alternation(indices, of: vocabulary))
                    }
                    return DeferredRegex(
                        compiling: { Self.alternationPattern(indices, of: vocabulary) }, options: .caseless)
                }
                unfiltered =
                    members.unfiltered.isEmpty ? nil : try Self.alternation(members.unfiltered, of: vocabulary)
            } catch {
                _ = try Self.compiledAlone(Array(vocabulary.entries.indices), of: vocabulary)
                throw error  // an alternation of entries that each compile alone
            }
            self.vocabulary = vocabulary
            self.groups = groups
            self.groupMembers = members.keywords
            self.unfiltered = unfiltered
            self.unfilteredMembers = members.unfiltered
            self.keywords = KeywordScanner(members.words)
            self.events = vocabulary.entries.map(\.event)
            self.detailEntries = details.keys.sorted()
            self.detailed = Dictionary(uniqueKeysWithValues: zip(detailEntries, detailEntries.indices))
            self.detailRegexes = detailEntries.compactMap { details[$0] }
            self.appKit = vocabulary.entries.map(\.appKit)
        }

        /// Whether `pattern` may define a named group: `(?<` followed by a letter or an underscore (not a lookbehind's
        /// `(?<=` or `(?<!`), `(?'` or `(?P<` (an escaped parenthesis answers yes too, and costs only a compilation).
        static func mayNameGroups(_ pattern: String) -> Bool {
            let bytes = Array(pattern.utf8)
            for index in bytes.indices.dropLast(2) where bytes[index] == UInt8(ascii: "(") {
                guard bytes[index + 1] == UInt8(ascii: "?") else { continue }
                let next = bytes[index + 2]
                if next == UInt8(ascii: "'") { return true }
                guard index + 3 < bytes.count else { continue }
                let after = bytes[index + 3]
                if next == UInt8(ascii: "P"), after == UInt8(ascii: "<") { return true }
                let letter = (after | 0x20) >= UInt8(ascii: "a") && (after | 0x20) <= UInt8(ascii: "z")
                if next == UInt8(ascii: "<"), letter || after == UInt8(ascii: "_") { return true }
            }
            return false
        }

        /// The entries at `indices`, each compiled alone, in order: the ones that name groups (all of them names in
        /// ``captureNames``), by index. Throws the first entry's error, named.
        private static func compiledAlone(_ indices: [Int], of vocabulary: Vocabulary) throws(TraceAnalyzeError)
            -> [Int: Regex]
        {
            var details: [Int: Regex] = [:]
            for index in indices {
                let entry = vocabulary.entries[index]
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
            return details
        }

        /// The keywords (lowercased, in order of first declaration), the entries of each keyword's group, and the
        /// entries that declare none.
        private static func members(_ vocabulary: Vocabulary) -> (words: [String], keywords: [[Int]], unfiltered: [Int])
        {
            var keywords: [String] = []
            var members: [[Int]] = []
            var unfiltered: [Int] = []
            for (index, entry) in vocabulary.entries.enumerated() {
                if entry.keywords.isEmpty { unfiltered.append(index) }
                for keyword in entry.keywords.map({ $0.lowercased() }) {
                    if let position = keywords.firstIndex(of: keyword) {
                        if members[position].last != index { members[position].append(index) }
                    } else {
                        keywords.append(keyword)
                        members.append([index])
                    }
                }
            }
            // The search reports one keyword per position: where "terminate" is found, "terminated" may be there
            // too, so a keyword's group also holds the entries of every keyword that contains it.
            let keywordBytes = keywords.map { Array($0.utf8) }
            for (position, keyword) in keywordBytes.enumerated() {
                for (other, longer) in keywordBytes.enumerated()
                where other != position && Bytes.contains(longer, keyword) {
                    members[position] = Array(Set(members[position] + members[other])).sorted()
                }
            }
            return (keywords, members, unfiltered)
        }

        /// The entries at `indices` as one caseless alternation, each branch marked with its entry's index. Named
        /// groups become plain groups (names may repeat across entries).
        private static func alternation(_ indices: [Int], of vocabulary: Vocabulary) throws(TraceAnalyzeError) -> Regex
        {
            do {
                return try Regex(alternationPattern(indices, of: vocabulary), options: [.caseless])
            } catch {
                throw .invalidPattern(owner: "vocabulary", error: error)
            }
        }

        /// The pattern of ``alternation(_:of:)`` (compiled caseless).
        private static func alternationPattern(_ indices: [Int], of vocabulary: Vocabulary) -> String {
            let branches = indices.map { index in
                "(?:\(anonymized(vocabulary.entries[index].pattern)))(*MARK:\(index))"
            }
            return "(?:" + branches.joined(separator: "|") + ")"
        }

        /// Where `(?<` first is in `text` (searched in its UTF-8: a start-up cost, Foundation's search is slower).
        private static func openings(in text: Substring) -> Range<Substring.Index>? {
            let utf8 = text.utf8
            var index = utf8.startIndex
            while let open = utf8[index...].firstIndex(of: UInt8(ascii: "(")) {
                let question = utf8.index(after: open)
                guard question < utf8.endIndex else { return nil }
                let angle = utf8.index(after: question)
                if angle < utf8.endIndex, utf8[question] == UInt8(ascii: "?"), utf8[angle] == UInt8(ascii: "<") {
                    return open..<utf8.index(after: angle)
                }
                index = question
            }
            return nil
        }

        /// `(?<name>` → `(?:` (lookbehinds `(?<=` and `(?<!` are left alone).
        static func anonymized(_ pattern: String) -> String {
            var out = ""
            var rest = Substring(pattern)
            while let range = openings(in: rest) {
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

    }

    /// The owner named when a group's pattern gives up: its entries (`vocabulary a, b`).
    private static func owner(_ members: [Int], _ entries: [VocabularyEntry]) -> String {
        "vocabulary " + members.map { entries[$0].id }.joined(separator: ", ")
    }

    public let vocabulary: Vocabulary
    private let keywords: KeywordScanner
    /// ``keywords``' vector search, when it has one (searched with no reference counting); a reader marks its
    /// candidates in each chunk with it (``LineReader/markKeywords(_:)``).
    let keywordSearch: LiteralSearch.Handle?
    /// Per keyword, the matcher of its group.
    private let groups: LazyMatchers
    private let unfiltered: Matcher?
    private let events: [LifecycleEvent]
    /// The entries with a detail pattern (their positions in ``details``), and their matchers.
    private let detailed: [Int: Int]
    private let details: LazyMatchers
    private let sceneIdentity: Matcher
    private let appKit: [Bool]
    /// The entry each recently searched message meant (-1: none): a capture's lifecycle messages are a few dozen
    /// strings, each searched again thousands of times. Cleared when a pattern gives up (``search(_:_:)``).
    private let memo = ByteMemo()

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

    /// A recogniser over patterns compiled once (cheap: it only allocates match data). `failureLog` records the
    /// messages a pattern gave up on (a PCRE2 limit hit).
    public init(compiled: Compiled, failureLog: MatchFailureLog? = nil) {
        self.vocabulary = compiled.vocabulary
        self.keywords = compiled.keywords
        self.keywordSearch = compiled.keywords.vectorHandle
        let entries = compiled.vocabulary.entries
        self.groups = LazyMatchers(deferred: compiled.groups, failureLog: failureLog) {
            Self.owner(compiled.groupMembers[$0], entries)
        }
        self.unfiltered = compiled.unfiltered.map {
            Matcher(
                $0, describedBy: { Self.owner(compiled.unfilteredMembers, entries) }, failureLog: failureLog)
        }
        self.events = compiled.events
        self.detailed = compiled.detailed
        self.details = LazyMatchers(deferred: compiled.detailRegexes, failureLog: failureLog) {
            "vocabulary \(entries[compiled.detailEntries[$0]].id)"
        }
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

    /// Whether a message none of whose positions a reader's one-pass scan marked (``LineReader/marks``) means
    /// nothing: every entry has keywords, and the scan looks for them.
    var needsMarkedKeyword: Bool { unfiltered == nil && keywordSearch != nil }

    /// The index of the vocabulary entry the message means, or nil. `marks`: where a reader's one-pass scan
    /// marked the positions a keyword can begin at (``LineReader/marks``), for a message inside its buffer.
    @inline(__always)
    public func entryIndex(_ message: UnsafeRawBufferPointer, marks: LiteralSearch.Marks? = nil) -> Int? {
        // Most messages hold no keyword, and most of those have none of their positions marked: two loads.
        if needsMarkedKeyword, let marks, marks.noneMarked(in: message) { return nil }
        return memoizedEntryIndex(message, marks: marks)
    }

    /// ``searchedEntryIndex(_:marks:)`` through ``memo``: the answer depends on the message alone while no pattern
    /// gives up (one that does is not kept, and clears what was).
    @inline(never)
    private func memoizedEntryIndex(_ message: UnsafeRawBufferPointer, marks: LiteralSearch.Marks?) -> Int? {
        // A message too long to be kept is not hashed either (a capture's noise can hold thousands of bytes).
        guard message.count <= ByteMemo.longest else { return searchedEntryIndex(message, marks: marks) }
        let hash = ByteMemo.hash(message)
        if let answer = memo.answer(for: message, hash: hash) { return answer < 0 ? nil : Int(answer) }
        let generation = memo.generation
        let entry = searchedEntryIndex(message, marks: marks)
        memo.store(message, hash: hash, answer: entry.map { Int32($0) } ?? -1, generation: generation)
        return entry
    }

    /// ``entryIndex(_:marks:)`` past the marks.
    @inline(never)
    private func searchedEntryIndex(_ message: UnsafeRawBufferPointer, marks: LiteralSearch.Marks?) -> Int? {
        // One search, and no state made for the loop over keywords when it finds none.
        guard let first = findKeyword(in: message, from: 0, marks: marks) else {
            guard let unfiltered else { return nil }
            return search(unfiltered, message)
        }
        return entryIndex(message, first: first, marks: marks)
    }

    /// ``entryIndex(_:marks:)`` once a keyword is found.
    @inline(never)
    private func entryIndex(
        _ message: UnsafeRawBufferPointer, first: (keyword: Int, position: Int), marks: LiteralSearch.Marks?
    ) -> Int? {
        var (group, position) = first
        // The groups already searched in this message: the first 64 in a word, any others in a set made only for
        // a vocabulary that large (no state kept between calls, so nothing to reset).
        var tried: UInt64 = 0
        var triedBeyond: Set<Int>? = nil
        while true {
            let isNew: Bool
            if group < 64 {
                let bit: UInt64 = 1 << UInt64(group)
                isNew = tried & bit == 0
                tried |= bit
            } else {
                if triedBeyond == nil { triedBeyond = [] }  // made only for a vocabulary of more than 64 keywords
                isNew = triedBeyond?.insert(group).inserted ?? true
            }
            if isNew, let entry = search(groups[group], message) { return entry }
            guard let next = findKeyword(in: message, from: position + 1, marks: marks) else { break }
            (group, position) = next
        }
        if let unfiltered { return search(unfiltered, message) }
        return nil
    }

    /// The first keyword at or after `start`: its index and position.
    @inline(__always)
    private func findKeyword(in message: UnsafeRawBufferPointer, from start: Int, marks: LiteralSearch.Marks?) -> (
        keyword: Int, position: Int
    )? {
        guard let keywordSearch else { return keywords.find(in: message, from: start) }
        let found =
            if let marks {
                keywordSearch.first(in: message, from: start, marks: marks)
            } else {
                keywordSearch.first(in: message, from: start)
            }
        return found.map { ($0.literal, $0.position) }
    }

    /// The entry `matcher` (a group's alternation) finds in `message`, or nil; a search that gives up (a PCRE2
    /// limit) finds none, and clears ``memo``: the pattern may be retired now (``Matcher``), so that the answers
    /// kept may no longer be the ones a search would give.
    @inline(__always)
    private func search(_ matcher: Matcher, _ message: UnsafeRawBufferPointer) -> Int? {
        do {
            guard try matcher.matches(message) else { return nil }
        } catch {
            memo.clear()
            return nil
        }
        return matcher.markNumber
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
        guard let detail = detailed[index] else { return Subject() }
        let matcher = details[detail]
        guard (try? matcher.matches(message)) == true else { return Subject() }
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
