import NativeKit

/// A set of log formats and line prefixes with their patterns compiled and their samples checked.
public struct FormatCatalog: Sendable {
    /// A format with its compiled pattern and the group numbers of its captures.
    public struct Compiled: Sendable {
        public let format: LogFormat
        let regex: Regex
        let timestampGroup: Int?
        let processGroup: Int?
        let pidGroup: Int?
        let threadGroup: Int?
        let subsystemGroup: Int?
        let categoryGroup: Int?
        let levelGroup: Int?
        let sequenceGroup: Int?
        let messageGroup: Int
        /// The pattern ends in `(?<message>.*)$`, and ``regex`` is it without the `.*$`: the message is its group's
        /// start to the line's end (``messageTail``).
        let messageToEnd: Bool
    }

    /// A line prefix with its compiled pattern (anchored at the start of what remains of the line).
    public struct CompiledPrefix: Sendable {
        public let prefix: LinePrefix
        let regex: Regex
    }

    /// The formats, in the order they are tried (fallback formats included, though tried only last).
    public let formats: [Compiled]
    /// The prefixes people and tools put in front of lines.
    public let prefixes: [CompiledPrefix]
    /// Indices of the formats tried on every line (all but the fallback).
    let recordFormats: [Int]
    /// The fallback format (bare lines), when the catalogue has one.
    let fallback: Int?
    /// Every format's furniture patterns in one alternation.
    let furniture: Regex?
    /// Each format's repeat-line pattern and the group holding the count.
    let repeats: [(regex: Regex, countGroup: Int)]
    /// What each input's parser looks up per format, made once.
    let tables: RecordParser.Tables
    /// Every format's furniture and repeat patterns, as written.
    let contentPatterns: [String]
    /// The ways a repeat or furniture line may begin, for the runs that count printed lines themselves
    /// (``HeaderRun/setContentBytes(_:)``): per way, the ASCII bytes its first ``HeaderRun/contentPositions`` bytes
    /// may be (bit b of word b / 64), read from the patterns' text (``HeaderRun/contentWays(_:)``). Nil where lines
    /// are not refused quickly (``RecordParser/Tables/quickRefusal``), a pattern's ways are unknown or there are more
    /// than the runs hold.
    let contentWays: [[(UInt64, UInt64)]]?

    /// Compiles `formats` and `prefixes`; a pattern that does not compile, or captures the wrong names, throws.
    /// `messageTail`: match patterns that end in `(?<message>.*)$` without it (``withoutMessageTail(_:)``); off
    /// only to check that the reports are the same either way.
    public init(
        _ formats: [LogFormat] = LogFormat.builtin, prefixes: [LinePrefix] = LinePrefix.builtin,
        messageTail: Bool = true
    ) throws(TraceAnalyzeError) {
        var compiled: [Compiled] = []
        var seen: Set<String> = []
        var furniture: [String] = []
        var repeats: [(Regex, Int)] = []
        var contentPatterns: [String] = []
        for format in formats {
            guard seen.insert(format.id).inserted else {
                throw .invalidFormat(id: format.id, field: "id", problem: "defined twice; give each format its own id")
            }
            var regex = try Self.compile(format.pattern, format: format.id, field: "pattern")
            guard let message = regex.groupNumber("message") else {
                throw .invalidFormat(
                    id: format.id, field: "pattern", problem: "the pattern has no (?<message>…) capture; add one")
            }
            for name in regex.groupNumbers.keys.sorted() where !LogFormat.captureNames.contains(name) {
                throw .invalidFormat(
                    id: format.id, field: "pattern",
                    problem:
                        "unknown capture (?<\(name)>…); use \(LogFormat.captureNames.joined(separator: ", ")), "
                        + "or make the group non-capturing with (?:…)")
            }
            if regex.groupNumber("timestamp") != nil, format.timestamp == nil {
                throw .invalidFormat(
                    id: format.id, field: "timestamp",
                    problem:
                        "the pattern captures a timestamp but no layout is named; set it to "
                        + TimestampLayout.allCases.map(\.rawValue).joined(separator: " or "))
            }
            for (index, pattern) in format.furniture.enumerated() {
                _ = try Self.compile(pattern, format: format.id, field: "furniture[\(index)]")
                furniture.append("(?:" + pattern + ")")
                contentPatterns.append(pattern)
            }
            if let pattern = format.repeatPattern {
                let regex = try Self.compile(pattern, format: format.id, field: "repeat")
                guard let count = regex.groupNumber("count") else {
                    throw .invalidFormat(
                        id: format.id, field: "repeat", problem: "the pattern has no (?<count>\\d+) capture; add one")
                }
                repeats.append((regex, count))
                contentPatterns.append(pattern)
            }
            let shortened = messageTail ? Self.withoutMessageTail(regex) : nil
            if let shortened { regex = shortened }
            compiled.append(
                Compiled(
                    format: format, regex: regex, timestampGroup: regex.groupNumber("timestamp"),
                    processGroup: regex.groupNumber("process"), pidGroup: regex.groupNumber("pid"),
                    threadGroup: regex.groupNumber("thread"), subsystemGroup: regex.groupNumber("subsystem"),
                    categoryGroup: regex.groupNumber("category"), levelGroup: regex.groupNumber("level"),
                    sequenceGroup: regex.groupNumber("sequence"), messageGroup: message,
                    messageToEnd: shortened != nil))
        }
        var compiledPrefixes: [CompiledPrefix] = []
        var seenPrefixes: Set<String> = []
        for prefix in prefixes {
            guard seenPrefixes.insert(prefix.id).inserted else {
                throw .invalidFormat(id: prefix.id, field: "id", problem: "prefix defined twice; give each its own id")
            }
            let regex: Regex
            do {
                regex = try Regex(prefix.pattern, options: .anchored)
            } catch {
                throw .invalidPattern(owner: "prefix \(prefix.id)", error: error)
            }
            compiledPrefixes.append(CompiledPrefix(prefix: prefix, regex: regex))
        }
        let fallbacks = compiled.indices.filter { compiled[$0].format.isFallback }
        guard fallbacks.count <= 1 else {
            throw .invalidFormat(
                id: compiled[fallbacks[1]].format.id, field: "fallback", problem: "only one format may be the fallback")
        }
        let combinedFurniture =
            furniture.isEmpty
            ? nil : try Self.compile(furniture.joined(separator: "|"), format: "*", field: "furniture")
        self.init(
            formats: compiled, prefixes: compiledPrefixes, furniture: combinedFurniture, repeats: repeats,
            contentPatterns: contentPatterns)
    }

    /// How most formats end: the message is the rest of the line.
    static let messageTail = "(?<message>.*)$"

    /// `regex` without its closing `.*$`, when it ends in ``messageTail`` and that part matches the rest of the line
    /// whatever comes before it: PCRE2 then stops at the message's start instead of stepping through every byte of
    /// it (a third of its time on a line of the `log` tool's styles), and the parser takes the message to the line's
    /// end. A line has no LF (lines are split at it), and with LF as PCRE2's newline `.` matches every other byte and
    /// `$` only the end, so `.*$` cannot fail there and nothing before it matches otherwise. Not shortened: another
    /// newline convention (the library's, or a leading `(*CR)`-style verb), and patterns where the text might not
    /// be what it looks like (`\Q` quoting, `#` comments of `(?x)`), or where `message` is not the last group.
    /// Messages name the pattern as written.
    static func withoutMessageTail(_ regex: Regex) -> Regex? {
        let pattern = regex.pattern
        // Byte tests: Foundation's `contains` of a string searches through CFString (0.7 M instructions of a
        // start-up for the built-in formats).
        let bytes = Array(pattern.utf8)
        let quotes = zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "\\") && $1 == UInt8(ascii: "Q") }
        guard Regex.newlineIsLF, pattern.hasSuffix(messageTail), !pattern.hasPrefix("(*"),
            !quotes, !bytes.contains(UInt8(ascii: "#")), regex.groupNumber("message") == regex.captureCount,
            let shortened = try? Regex(
                String(pattern.dropLast(messageTail.count)) + "(?<message>)", writtenAs: pattern),
            shortened.groupNumbers == regex.groupNumbers, shortened.captureCount == regex.captureCount
        else { return nil }
        return shortened
    }

    private static func compile(_ pattern: String, format: String, field: String) throws(TraceAnalyzeError) -> Regex {
        do {
            return try Regex(pattern)
        } catch {
            throw .invalidPattern(owner: "format \(format) \(field)", error: error)
        }
    }

    private init(
        formats: [Compiled], prefixes: [CompiledPrefix], furniture: Regex?, repeats: [(regex: Regex, countGroup: Int)],
        contentPatterns: [String]
    ) {
        self.formats = formats
        self.prefixes = prefixes
        self.recordFormats = formats.indices.filter { !formats[$0].format.isFallback }
        self.fallback = formats.indices.first { formats[$0].format.isFallback }
        self.furniture = furniture
        self.repeats = repeats
        self.contentPatterns = contentPatterns
        let tables = RecordParser.Tables(formats, prefixes: prefixes, recordFormats: recordFormats)
        self.tables = tables
        self.contentWays = tables.quickRefusal ? HeaderRun.contentWays(contentPatterns) : nil
    }

    /// The catalogue restricted to one format (`--input-format`); prefixes, furniture and repeat lines still apply.
    public func only(_ id: String) throws(TraceAnalyzeError) -> FormatCatalog {
        guard let match = formats.first(where: { $0.format.id == id }) else {
            throw .unknownFormat(id: id, known: formats.map(\.format.id))
        }
        return FormatCatalog(
            formats: [match], prefixes: prefixes, furniture: furniture, repeats: repeats,
            contentPatterns: contentPatterns)
    }

    /// Checks lnav's discipline: every format has a sample, every record sample matches exactly one format and
    /// extracts the fields it states, furniture and repeat samples are recognised as such, and every prefix's
    /// samples parse once the prefix is stripped.
    public func validate() throws(TraceAnalyzeError) {
        let parser = RecordParser(
            catalog: self, dates: DateInference(reference: DateInference.sampleReference), zone: nil)
        for compiled in formats {
            let format = compiled.format
            let owner = "format \(format.id)"
            if !format.samples.contains(where: { $0.kind == .record }) {
                throw .invalidFormat(
                    id: format.id, field: "samples", problem: "has no sample line; add a real line under \"samples\"")
            }
            if !format.furniture.isEmpty, !format.samples.contains(where: { $0.kind == .furniture }) {
                throw .invalidFormat(
                    id: format.id, field: "samples", problem: "has furniture patterns but no furniture sample; add one")
            }
            if format.repeatPattern != nil, !format.samples.contains(where: { $0.kind == .repeat }) {
                throw .invalidFormat(
                    id: format.id, field: "samples", problem: "has a repeat pattern but no repeat sample; add one")
            }
            for sample in format.samples {
                switch sample.kind {
                case .record: try check(record: sample, of: compiled, parser: parser)
                case .furniture:
                    guard parser.formatsMatching(sample.line).isEmpty, parser.isFurniture(sample.line) else {
                        throw .sampleMismatch(
                            owner: owner, sample: sample.line,
                            problem: "must match a furniture pattern and no record pattern")
                    }
                case .repeat:
                    let count = parser.repeatCount(sample.line)
                    guard parser.formatsMatching(sample.line).isEmpty, let count else {
                        throw .sampleMismatch(
                            owner: owner, sample: sample.line,
                            problem: "must match the repeat pattern and no record pattern")
                    }
                    if let expected = sample.count, expected != count {
                        throw .sampleMismatch(
                            owner: owner, sample: sample.line, problem: "count is \(count), expected \(expected)")
                    }
                }
            }
        }
        for compiled in prefixes {
            let owner = "prefix \(compiled.prefix.id)"
            if compiled.prefix.samples.isEmpty {
                throw .invalidFormat(id: compiled.prefix.id, field: "samples", problem: "the prefix has no sample line")
            }
            for sample in compiled.prefix.samples {
                guard parser.formatsMatching(sample.line).isEmpty else {
                    throw .sampleMismatch(
                        owner: owner, sample: sample.line, problem: "parses without stripping the prefix")
                }
                guard let fields = parser.fields(of: sample.line) else {
                    throw .sampleMismatch(owner: owner, sample: sample.line, problem: "does not parse once stripped")
                }
                guard fields.prefixes.contains(compiled.prefix.id), fields.format == sample.format else {
                    throw .sampleMismatch(
                        owner: owner, sample: sample.line,
                        problem:
                            "parses as \(fields.format) after stripping \(fields.prefixes.joined(separator: ", ")); "
                            + "expected \(sample.format) after stripping \(compiled.prefix.id)")
                }
            }
        }
    }

    private func check(record sample: LogFormat.Sample, of compiled: Compiled, parser: RecordParser)
        throws(TraceAnalyzeError)
    {
        let owner = "format \(compiled.format.id)"
        let matching = parser.formatsMatching(sample.line)
        if compiled.format.isFallback {
            guard matching.isEmpty else {
                throw .sampleMismatch(
                    owner: owner, sample: sample.line,
                    problem: "matches \(matching.joined(separator: ", ")); a fallback sample must match no other format"
                )
            }
            return
        }
        guard matching == [compiled.format.id] else {
            let problem =
                matching.isEmpty
                ? "matches no format, not even its own"
                : "matches \(matching.joined(separator: ", ")); it must match exactly \(compiled.format.id)"
            throw .sampleMismatch(owner: owner, sample: sample.line, problem: problem)
        }
        guard let fields = parser.fields(of: sample.line), fields.prefixes.isEmpty else {
            throw .sampleMismatch(owner: owner, sample: sample.line, problem: "does not parse")
        }
        let checks: [(String, String?, String?)] = [
            ("timestamp", sample.timestamp, fields.timestamp?.iso8601),
            ("process", sample.process, fields.process),
            ("pid", sample.pid.map(String.init), fields.pid.map(String.init)),
            ("thread", sample.thread, fields.thread),
            ("subsystem", sample.subsystem, fields.subsystem),
            ("category", sample.category, fields.category),
            ("level", sample.level, fields.level),
            ("message", sample.message, fields.message),
        ]
        for (name, expected, actual) in checks {
            if let expected, expected != actual {
                throw .sampleMismatch(
                    owner: owner, sample: sample.line,
                    problem: "\(name) is \(actual.map { "\"\($0)\"" } ?? "missing"), expected \"\(expected)\"")
            }
        }
        if compiled.timestampGroup != nil, fields.timestamp == nil {
            throw .sampleMismatch(
                owner: owner, sample: sample.line,
                problem: "the timestamp does not parse as \(compiled.format.timestamp?.rawValue ?? "?")")
        }
    }
}
