import PCRE2Kit

/// A set of log formats with their patterns compiled and their samples checked.
public struct FormatCatalog: Sendable {
    /// A format with its compiled pattern and the group numbers of its captures.
    public struct Compiled: Sendable {
        public let format: LogFormat
        let regex: Regex
        let timestampGroup: Int?
        let processGroup: Int?
        let pidGroup: Int?
        let threadGroup: Int?
        let messageGroup: Int
    }

    /// The formats, in the order they are tried.
    public let formats: [Compiled]

    /// Compiles `formats`; a pattern that does not compile, or lacks a `message` capture, throws.
    public init(_ formats: [LogFormat] = LogFormat.builtin) throws(TraceAnalyzeError) {
        var compiled: [Compiled] = []
        var seen: Set<String> = []
        for format in formats {
            guard seen.insert(format.id).inserted else {
                throw .invalidFormat(id: format.id, problem: "defined twice; give each format its own id")
            }
            let regex: Regex
            do {
                regex = try Regex(format.pattern)
            } catch {
                throw .invalidPattern(owner: "format \(format.id)", error: error)
            }
            guard let message = regex.groupNumber("message") else {
                throw .invalidFormat(id: format.id, problem: "the pattern has no (?<message>…) capture")
            }
            for name in regex.groupNumbers.keys where !LogFormat.captureNames.contains(name) {
                throw .invalidFormat(
                    id: format.id,
                    problem: "unknown capture (?<\(name)>…); use \(LogFormat.captureNames.joined(separator: ", "))")
            }
            if regex.groupNumber("timestamp") != nil, format.timestamp == nil {
                throw .invalidFormat(id: format.id, problem: "captures a timestamp but names no timestamp layout")
            }
            compiled.append(
                Compiled(
                    format: format, regex: regex, timestampGroup: regex.groupNumber("timestamp"),
                    processGroup: regex.groupNumber("process"), pidGroup: regex.groupNumber("pid"),
                    threadGroup: regex.groupNumber("thread"), messageGroup: message))
        }
        self.formats = compiled
    }

    /// The catalogue restricted to one format (`--input-format`).
    public func only(_ id: String) throws(TraceAnalyzeError) -> FormatCatalog {
        guard let match = formats.first(where: { $0.format.id == id }) else {
            throw .unknownFormat(id: id, known: formats.map(\.format.id))
        }
        return FormatCatalog(compiled: [match])
    }

    private init(compiled: [Compiled]) { self.formats = compiled }

    /// Checks lnav's discipline: every format has a sample, every sample matches exactly one format,
    /// and the fields it extracts are the ones the sample states.
    public func validate() throws(TraceAnalyzeError) {
        let parser = RecordParser(catalog: self)
        for compiled in formats {
            let owner = "format \(compiled.format.id)"
            if compiled.format.samples.isEmpty {
                throw .invalidFormat(id: compiled.format.id, problem: "has no sample line; add one under \"samples\"")
            }
            for sample in compiled.format.samples {
                let matching = parser.formatsMatching(sample.line)
                guard matching == [compiled.format.id] else {
                    let problem =
                        matching.isEmpty
                        ? "matches no format, not even its own"
                        : "matches \(matching.joined(separator: ", ")); it must match exactly \(compiled.format.id)"
                    throw .sampleMismatch(owner: owner, sample: sample.line, problem: problem)
                }
                guard let fields = parser.fields(of: sample.line) else {
                    throw .sampleMismatch(owner: owner, sample: sample.line, problem: "does not parse")
                }
                let checks: [(String, String?, String?)] = [
                    ("timestamp", sample.timestamp, fields.timestamp?.iso8601),
                    ("process", sample.process, fields.process),
                    ("pid", sample.pid.map(String.init), fields.pid.map(String.init)),
                    ("thread", sample.thread, fields.thread),
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
    }
}
