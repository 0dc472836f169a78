import NativeKit

/// A user's configuration file (JSON or YAML, `version: 1`): budgets, thresholds, the failure policy, and their
/// own log formats, line prefixes and vocabulary.
///
/// Every definition is checked like a built-in one (patterns compile, samples match exactly one format), and
/// every error names the file, the line, the field, what is wrong and how to mend it. See
/// `Documentation/Formats.md` for the file's shape.
public struct Configuration: Sendable {
    /// The version this build reads.
    public static let version = 1
    /// Files looked for in the working folder when no `--config` is given.
    public static let defaultNames = [".trace-analyze.yml", ".trace-analyze.yaml", ".trace-analyze.json"]

    /// Where the configuration came from (for messages and `trace-analyze formats`).
    public var file: String?
    public var formats: [LogFormat] = []
    public var prefixes: [LinePrefix] = []
    /// A team's own messages and the events they mean.
    public var vocabulary: [VocabularyEntry] = []
    /// Budgets, thresholds and the failure policy the file sets (what it leaves out keeps its default).
    public var settings = Settings()
    /// The line each format, prefix and sample was defined on, for error messages.
    private var lines: [String: Int] = [:]

    public init() {}

    /// Where each of the file's formats, prefixes and vocabulary entries was written (`trace-analyze.yml:12`), by
    /// id: a pattern that gives up on a line is traced back to it.
    public var patternOrigins: [String: String] {
        guard let file else { return [:] }
        var origins: [String: String] = [:]
        func note(_ ids: [String], _ key: String) {
            for (index, id) in ids.enumerated() {
                if let line = lines["\(key)[\(index)].pattern"] ?? lines["\(key)[\(index)]"] {
                    origins[id] = "\(file):\(line)"
                }
            }
        }
        note(formats.map(\.id), "formats")
        note(prefixes.map(\.id), "prefixes")
        note(vocabulary.map(\.id), "vocabulary")
        return origins
    }

    /// The formats in force: the user's first, then the built-in ones.
    public var allFormats: [LogFormat] { formats + LogFormat.builtin }
    /// The prefixes in force: the built-in ones, then the user's.
    public var allPrefixes: [LinePrefix] { LinePrefix.builtin + prefixes }
    /// The vocabulary in force: the user's entries first (they win where both match), then the built-in ones.
    public var allVocabulary: Vocabulary { Vocabulary(entries: vocabulary + Vocabulary.builtin.entries) }

    /// Reads and checks a configuration file.
    public static func load(path: String) throws(TraceAnalyzeError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw .invalidConfig(file: path, line: nil, field: "", problem: "cannot read: \(error)")
        }
        if let (line, byte) = firstInvalidUTF8(bytes) {
            throw .invalidConfig(
                file: path, line: line, field: "",
                problem: "is not UTF-8 text (byte 0x\(String(byte, radix: 16)) cannot start or continue a character). "
                    + "Save it as UTF-8.")
        }
        // A byte-order mark (Windows editors write one) is not YAML.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return try parse(String(decoding: text, as: UTF8.self), file: path)
    }

    /// The 1-based line and the value of the first byte that is not part of valid UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        var line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") { line += 1 }
                offset += encoded.count
            case .error:
                return (line, bytes[offset])
            case .emptyInput:
                return nil
            }
        }
    }

    /// Parses and checks configuration text (YAML, of which JSON is a subset).
    public static func parse(_ text: String, file: String) throws(TraceAnalyzeError) -> Configuration {
        if let (line, alias) = firstAlias(in: text) {
            throw .invalidConfig(
                file: file, line: line, field: "",
                problem: "YAML aliases (\(alias)) are not read in a configuration file; write the value out in full")
        }
        let root: Node?
        do {
            root = try YAML.compose(text)
        } catch {
            switch error {
            case .duplicateKeys(let keys, let line):
                throw .invalidConfig(
                    file: file, line: line, field: keys.joined(separator: ", "),
                    problem: "written twice in one mapping; keep one")
            case .reader(let problem, let offset, let value):
                // Bytes no YAML text holds (NUL, other control characters): a binary file, or one saved in another
                // encoding.
                let line = text.utf8.prefix(offset).count { $0 == UInt8(ascii: "\n") } + 1
                let byte = value >= 0 ? " (character 0x\(String(value, radix: 16)))" : ""
                throw .invalidConfig(
                    file: file, line: line, field: "",
                    problem: "is not a YAML or JSON text: \(problem)\(byte). Save it as UTF-8 text.")
            case .syntax(let problem, let line):
                throw .invalidConfig(
                    file: file, line: line, field: "",
                    problem: "is not valid YAML or JSON: \(problem). Check quoting and indentation there.")
            }
        }
        var reader = NodeReader(file: file)
        var config = try reader.configuration(root)
        config.file = file
        config.lines = reader.lines
        try config.validate()
        return config
    }

    /// Compiles the user's definitions with the built-in ones and runs the sample checks; errors point into the
    /// file.
    public func validate() throws(TraceAnalyzeError) {
        do {
            let catalog = try FormatCatalog(allFormats, prefixes: allPrefixes)
            try catalog.validate()
            if !vocabulary.isEmpty { try allVocabulary.validate() }
        } catch {
            throw locate(error)
        }
    }

    /// Turns a catalogue error about a user definition into one that names the file, line and field.
    private func locate(_ error: TraceAnalyzeError) -> TraceAnalyzeError {
        guard let file else { return error }
        switch error {
        case .invalidFormat(let id, let field, let problem):
            guard let path = path(of: id) else { return error }
            return .invalidConfig(
                file: file, line: lines["\(path).\(field)"] ?? lines[path], field: "\(path).\(field)", problem: problem)
        case .invalidPattern(let owner, let regexError):
            let words = owner.split(separator: " ").map(String.init)
            guard words.count >= 2, let path = path(of: words[1]) else { return error }
            let field = words.count > 2 ? words[2] : "pattern"
            return .invalidConfig(
                file: file, line: lines["\(path).\(field)"] ?? lines[path], field: "\(path).\(field)",
                problem: "\(regexError). Mend the pattern (PCRE2 syntax; test it with `pcre2test`).")
        case .sampleMismatch(let owner, let sample, let problem):
            let words = owner.split(separator: " ").map(String.init)
            guard words.count >= 2, let path = path(of: words[1]) else {
                return builtinClash(error, sample: sample)
            }
            let key = "sample:\(path):\(sample)"
            if path.hasPrefix("vocabulary") {
                return .invalidConfig(
                    file: file, line: lines[key] ?? lines[path], field: "\(path).examples",
                    problem:
                        "the message \"\(sample)\" \(problem). Mend the pattern or the example: every example must mean "
                        + "this entry's event, and no built-in example may mean yours.")
            }
            return .invalidConfig(
                file: file, line: lines[key] ?? lines[path], field: "\(path).samples",
                problem:
                    "the sample \"\(sample)\" \(problem). Mend the pattern or the sample; each sample must match "
                    + "exactly one format, and a user format must not match the samples of a built-in one.")
        default:
            return error
        }
    }

    /// A built-in format's sample that a user pattern also matches: the user pattern is too broad.
    private func builtinClash(_ error: TraceAnalyzeError, sample: String) -> TraceAnalyzeError {
        guard let file, case .sampleMismatch(let owner, _, let problem) = error else { return error }
        let culprit =
            formats.first { problem.contains($0.id) }.map(\.id)
            ?? vocabulary.first { problem.contains($0.id) }.map(\.id)
        guard let culprit, let path = path(of: culprit) else { return error }
        return .invalidConfig(
            file: file, line: lines["\(path).pattern"] ?? lines[path], field: "\(path).pattern",
            problem:
                "also matches the built-in \(owner)'s sample \"\(sample)\"; make the pattern more specific (anchor it, "
                + "require your own prefix) so each line matches one format.")
    }

    private func path(of id: String) -> String? {
        if let index = vocabulary.firstIndex(where: { $0.id == id }) { return "vocabulary[\(index)]" }
        if let index = formats.firstIndex(where: { $0.id == id }) { return "formats[\(index)]" }
        if let index = prefixes.firstIndex(where: { $0.id == id }) { return "prefixes[\(index)]" }
        return nil
    }
}

extension Configuration {
    /// The analysis settings a configuration file may set; nil (or absent) leaves the default in force, and a
    /// command-line option overrides the file.
    public struct Settings: Sendable, Equatable {
        public var launchBudgetMs: Double?
        public var resumeBudgetMs: Double?
        public var watchdogMs: Double?
        /// Per app (process name): launch, resume and watchdog.
        public var apps: [String: AppBudgets] = [:]
        public var backgroundGapMs: Double?
        public var alertGapMs: Double?
        public var memoryWarningWindowMs: Double?
        public var prewarmGapMs: Double?
        public var failOn: FailurePolicy?

        public init() {}

        public struct AppBudgets: Sendable, Equatable {
            public var launchMs: Double?
            public var resumeMs: Double?
            public var watchdogMs: Double?
        }

        /// Sets what the file sets.
        public func apply(to options: inout AnalysisOptions) {
            if let launchBudgetMs { options.launchBudgetMs = launchBudgetMs }
            if let resumeBudgetMs { options.resumeBudgetMs = resumeBudgetMs }
            if let watchdogMs { options.watchdogMs = watchdogMs }
            for (app, budgets) in apps {
                if let launch = budgets.launchMs { options.appLaunchBudgetsMs[app] = launch }
                if let resume = budgets.resumeMs { options.appResumeBudgetsMs[app] = resume }
                if let watchdog = budgets.watchdogMs { options.appWatchdogMs[app] = watchdog }
            }
            if let backgroundGapMs { options.backgroundGapMs = backgroundGapMs }
            if let alertGapMs { options.alertGapMs = alertGapMs }
            if let memoryWarningWindowMs { options.memoryWarningWindowMs = memoryWarningWindowMs }
            if let prewarmGapMs { options.prewarmGapMs = prewarmGapMs }
            if let failOn { options.failOn = failOn }
        }
    }
}

/// Walks the YAML node tree into definitions, remembering where each one was written.
private struct NodeReader {
    let file: String
    var lines: [String: Int] = [:]

    init(file: String) { self.file = file }

    private func fail(_ node: Node?, _ field: String, _ problem: String) -> TraceAnalyzeError {
        .invalidConfig(file: file, line: node?.line, field: field, problem: problem)
    }

    mutating func configuration(_ root: Node?) throws(TraceAnalyzeError) -> Configuration {
        guard let root else { return Configuration() }
        let map = try mapping(
            root, "", known: ["version", "budgets", "thresholds", "fail-on", "formats", "prefixes", "vocabulary"])
        guard let versionNode = map["version"] else {
            throw fail(root, "version", "missing; add `version: \(Configuration.version)` at the top")
        }
        guard let version = versionNode.int, version == Configuration.version else {
            throw fail(
                versionNode, "version",
                "\"\(versionNode.string ?? "?")\" is not a version this build reads; write \(Configuration.version)")
        }
        var config = Configuration()
        if let node = map["budgets"] { try budgets(node, into: &config.settings) }
        if let node = map["thresholds"] {
            let thresholds = try mapping(
                node, "thresholds", known: ["background-gap", "alert-gap", "memory-warning-window", "prewarm-gap"])
            config.settings.backgroundGapMs = try duration(thresholds["background-gap"], "thresholds.background-gap")
            config.settings.alertGapMs = try duration(thresholds["alert-gap"], "thresholds.alert-gap")
            config.settings.memoryWarningWindowMs = try duration(
                thresholds["memory-warning-window"], "thresholds.memory-warning-window")
            config.settings.prewarmGapMs = try duration(thresholds["prewarm-gap"], "thresholds.prewarm-gap")
        }
        if let node = map["fail-on"] {
            var words: [String] = []
            for (index, item) in try sequence(node, "fail-on").enumerated() {
                guard let word = item.string else { throw fail(item, "fail-on[\(index)]", "must be a word") }
                words.append(word)
            }
            switch FailurePolicy.parse(words) {
            case .success(let policy): config.settings.failOn = policy
            case .failure(let unknown):
                throw fail(node, "fail-on", "\"\(unknown.word)\" is not a finding; use \(unknown.expected)")
            }
        }
        for (index, node) in try sequence(map["formats"], "formats").enumerated() {
            config.formats.append(try format(node, "formats[\(index)]"))
        }
        for (index, node) in try sequence(map["prefixes"], "prefixes").enumerated() {
            config.prefixes.append(try prefix(node, "prefixes[\(index)]"))
        }
        for (index, node) in try sequence(map["vocabulary"], "vocabulary").enumerated() {
            config.vocabulary.append(try vocabularyEntry(node, "vocabulary[\(index)]"))
        }
        return config
    }

    /// `budgets: {launch, resume, watchdog, apps: {NAME: {launch, resume, watchdog}}}`.
    private func budgets(_ node: Node, into settings: inout Configuration.Settings) throws(TraceAnalyzeError) {
        let map = try mapping(node, "budgets", known: ["launch", "resume", "watchdog", "apps"])
        settings.launchBudgetMs = try duration(map["launch"], "budgets.launch")
        settings.resumeBudgetMs = try duration(map["resume"], "budgets.resume")
        settings.watchdogMs = try duration(map["watchdog"], "budgets.watchdog")
        guard let appsNode = map["apps"] else { return }
        guard let apps = appsNode.mapping else {
            throw fail(appsNode, "budgets.apps", "must be a mapping of app (process) names to their budgets")
        }
        for (key, value) in apps {
            guard let name = key.string, !name.isEmpty else {
                throw fail(key, "budgets.apps", "an app's name must be a non-empty string (its process name)")
            }
            let field = "budgets.apps.\(name)"
            let budgets = try mapping(value, field, known: ["launch", "resume", "watchdog"])
            settings.apps[name] = Configuration.Settings.AppBudgets(
                launchMs: try duration(budgets["launch"], field + ".launch"),
                resumeMs: try duration(budgets["resume"], field + ".resume"),
                watchdogMs: try duration(budgets["watchdog"], field + ".watchdog"))
        }
    }

    /// A duration written like the command line's (`400ms`, `1.5s`, `2m`) or a number of milliseconds.
    private func duration(_ node: Node?, _ field: String) throws(TraceAnalyzeError) -> Double? {
        guard let node else { return nil }
        guard let text = node.string, let ms = DurationParser.milliseconds(text) else {
            throw fail(node, field, "is not a duration; write it like 400ms, 1.5s or 2m")
        }
        return ms
    }

    private func mapping(_ node: Node, _ field: String, known: [String]) throws(TraceAnalyzeError) -> [String: Node] {
        guard let mapping = node.mapping else {
            throw fail(node, field, "must be a mapping of \(known.joined(separator: ", "))")
        }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.string, known.contains(name) else {
                throw fail(
                    key, field.isEmpty ? (key.string ?? "?") : "\(field).\(key.string ?? "?")",
                    "unknown key; the keys here are \(known.joined(separator: ", "))")
            }
            result[name] = value
        }
        return result
    }

    private func sequence(_ node: Node?, _ field: String) throws(TraceAnalyzeError) -> [Node] {
        guard let node else { return [] }
        guard let sequence = node.sequence else { throw fail(node, field, "must be a list (`- …` items)") }
        return Array(sequence)
    }

    private func string(_ map: [String: Node], _ key: String, _ field: String, required: Bool = false)
        throws(TraceAnalyzeError) -> String?
    {
        guard let node = map[key] else {
            if required {
                throw fail(
                    nil, "\(field).\(key)", "missing; every \(field.split(separator: "[").first ?? "") entry needs one")
            }
            return nil
        }
        guard let text = node.string else { throw fail(node, "\(field).\(key)", "must be a string") }
        return text
    }

    private mutating func format(_ node: Node, _ field: String) throws(TraceAnalyzeError) -> LogFormat {
        let map = try mapping(
            node, field,
            known: [
                "id", "title", "origin", "pattern", "timestamp", "encoding", "furniture", "repeat", "rawContinuations",
                "samples",
            ])
        lines[field] = node.line
        for (key, value) in map { lines["\(field).\(key)"] = value.line }
        guard let id = try string(map, "id", field, required: true), Self.isIdentifier(id) else {
            throw fail(map["id"], "\(field).id", "must be kebab-case letters, digits and dashes (my-app-log)")
        }
        let layoutName = try string(map, "timestamp", field)
        var layout: TimestampLayout?
        if let layoutName {
            guard let parsed = TimestampLayout(rawValue: layoutName) else {
                throw fail(
                    map["timestamp"], "\(field).timestamp",
                    "unknown layout \"\(layoutName)\"; use "
                        + TimestampLayout.allCases.map { "\($0.rawValue) (\($0.shape))" }.joined(separator: ", "))
            }
            layout = parsed
        }
        let encodingName = try string(map, "encoding", field) ?? "plain"
        guard let encoding = LogFormat.Encoding(rawValue: encodingName) else {
            throw fail(map["encoding"], "\(field).encoding", "use plain or json")
        }
        var furniture: [String] = []
        for (index, item) in try sequence(map["furniture"], "\(field).furniture").enumerated() {
            guard let text = item.string else {
                throw fail(item, "\(field).furniture[\(index)]", "must be a pattern string")
            }
            furniture.append(text)
        }
        var raw = false
        if let node = map["rawContinuations"] {
            guard let value = node.bool else { throw fail(node, "\(field).rawContinuations", "must be true or false") }
            raw = value
        }
        var samples: [LogFormat.Sample] = []
        for (index, item) in try sequence(map["samples"], "\(field).samples").enumerated() {
            samples.append(try sample(item, "\(field).samples[\(index)]", owner: field))
        }
        if samples.isEmpty {
            throw fail(node, "\(field).samples", "missing; add at least one real line the format must match")
        }
        return LogFormat(
            id: id, title: try string(map, "title", field) ?? id, origin: try string(map, "origin", field) ?? "",
            pattern: try string(map, "pattern", field, required: true) ?? "", timestamp: layout, encoding: encoding,
            furniture: furniture, repeatPattern: try string(map, "repeat", field), rawContinuations: raw,
            samples: samples)
    }

    private mutating func sample(_ node: Node, _ field: String, owner: String) throws(TraceAnalyzeError)
        -> LogFormat.Sample
    {
        if let line = node.string {
            lines["sample:\(owner):\(line)"] = node.line
            return LogFormat.Sample(line: line)
        }
        let keys = [
            "line", "kind", "timestamp", "process", "pid", "thread", "subsystem", "category", "level", "message",
            "count",
        ]
        let map = try mapping(node, field, known: keys)
        guard let line = try string(map, "line", field, required: true) else { throw fail(node, field, "needs a line") }
        lines["sample:\(owner):\(line)"] = map["line"]?.line
        let kindName = try string(map, "kind", field) ?? "record"
        guard let kind = LogFormat.Sample.Kind(rawValue: kindName) else {
            throw fail(map["kind"], "\(field).kind", "use record, furniture or repeat")
        }
        func int(_ key: String) throws(TraceAnalyzeError) -> Int? {
            guard let node = map[key] else { return nil }
            guard let value = node.int else { throw fail(node, "\(field).\(key)", "must be a whole number") }
            return value
        }
        return LogFormat.Sample(
            line: line, kind: kind, timestamp: try string(map, "timestamp", field),
            process: try string(map, "process", field), pid: try int("pid"), thread: try string(map, "thread", field),
            subsystem: try string(map, "subsystem", field), category: try string(map, "category", field),
            level: try string(map, "level", field), message: try string(map, "message", field), count: try int("count"))
    }

    private mutating func prefix(_ node: Node, _ field: String) throws(TraceAnalyzeError) -> LinePrefix {
        let map = try mapping(node, field, known: ["id", "title", "pattern", "samples"])
        lines[field] = node.line
        for (key, value) in map { lines["\(field).\(key)"] = value.line }
        guard let id = try string(map, "id", field, required: true), Self.isIdentifier(id) else {
            throw fail(map["id"], "\(field).id", "must be kebab-case letters, digits and dashes")
        }
        var samples: [LinePrefix.Sample] = []
        for (index, item) in try sequence(map["samples"], "\(field).samples").enumerated() {
            let sampleField = "\(field).samples[\(index)]"
            let sampleMap = try mapping(item, sampleField, known: ["line", "format"])
            guard let line = try string(sampleMap, "line", sampleField, required: true),
                let format = try string(sampleMap, "format", sampleField, required: true)
            else { throw fail(item, sampleField, "needs line and format") }
            lines["sample:\(field):\(line)"] = item.line
            samples.append(LinePrefix.Sample(line: line, format: format))
        }
        return LinePrefix(
            id: id, title: try string(map, "title", field) ?? id,
            pattern: try string(map, "pattern", field, required: true) ?? "", samples: samples)
    }

    private mutating func vocabularyEntry(_ node: Node, _ field: String) throws(TraceAnalyzeError) -> VocabularyEntry {
        let map = try mapping(
            node, field, known: ["id", "event", "message", "pattern", "keywords", "examples", "bait"])
        lines[field] = node.line
        for (key, value) in map { lines["\(field).\(key)"] = value.line }
        guard let id = try string(map, "id", field, required: true), Self.isIdentifier(id) else {
            throw fail(map["id"], "\(field).id", "must be kebab-case letters, digits and dashes (team-became-active)")
        }
        guard let eventName = try string(map, "event", field, required: true),
            let event = LifecycleEvent(rawValue: eventName)
        else {
            throw fail(
                map["event"], "\(field).event",
                "unknown event; use one of " + LifecycleEvent.allCases.map(\.rawValue).joined(separator: ", "))
        }
        func list(_ key: String) throws(TraceAnalyzeError) -> [String] {
            var items: [String] = []
            for (index, item) in try sequence(map[key], "\(field).\(key)").enumerated() {
                guard let text = item.string else {
                    throw fail(item, "\(field).\(key)[\(index)]", "must be a string")
                }
                lines["sample:\(field):\(text)"] = item.line
                items.append(text)
            }
            return items
        }
        var examples = try list("examples")
        var keywords = try list("keywords")
        let pattern: String
        switch (try string(map, "message", field), try string(map, "pattern", field)) {
        case (let message?, nil):
            guard !message.isEmpty else { throw fail(map["message"], "\(field).message", "must not be empty") }
            // A literal message, found anywhere in a line's message, not inside a longer word.
            pattern = "(?<!\\w)" + Regex.escape(message) + "(?!\\w)"
            if keywords.isEmpty, let word = Self.longestWord(message) { keywords = [word] }
            if examples.isEmpty {
                examples = [message]
                lines["sample:\(field):\(message)"] = map["message"]?.line
            }
        case (nil, let pattern?):
            guard !keywords.isEmpty else {
                throw fail(
                    map["pattern"], "\(field).keywords",
                    "missing: list words every matching message contains (they keep the search fast), or use "
                        + "`message:` for a literal message")
            }
            self.lines["\(field).pattern"] = map["pattern"]?.line
            if examples.isEmpty {
                throw fail(map["pattern"], "\(field).examples", "missing: add real messages the pattern must match")
            }
            return VocabularyEntry(
                id: id, event: event, pattern: pattern, keywords: keywords, examples: examples, bait: try list("bait"),
                userDefined: true)
        default:
            throw fail(node, field, "give either `message:` (a literal message) or `pattern:` (PCRE2), not both")
        }
        return VocabularyEntry(
            id: id, event: event, pattern: pattern, keywords: keywords, examples: examples, bait: try list("bait"),
            userDefined: true)
    }

    /// The longest run of letters and digits (a literal message's keyword).
    private static func longestWord(_ text: String) -> String? {
        let words: [Substring] = text.split(whereSeparator: { (character: Character) in
            !(character.isLetter || character.isNumber)
        })
        return words.max { $0.count < $1.count }.map(String.init)
    }

    private static func isIdentifier(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-")
            }
    }
}
