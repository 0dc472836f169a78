/// A log line format, declared as data: a PCRE2 pattern with named captures, a timestamp layout and sample lines.
///
/// As in lnav, every format carries samples, and loading checks that each sample matches exactly one format
/// of the catalogue (``FormatCatalog/validate()``). Named captures the pipeline reads are listed in
/// ``captureNames``; only `message` is required.
public struct LogFormat: Sendable, Hashable {
    /// Stable kebab-case identifier, shown in reports and accepted by `--input-format`.
    public var id: String
    /// A human title.
    public var title: String
    /// What writes this format (the tool, the command, the app), for `trace-analyze formats` and the docs.
    public var origin: String
    /// PCRE2 pattern, matched against the physical line (without its line ending and any stripped prefix).
    public var pattern: String
    /// How the `timestamp` capture is written; nil when the format has no timestamp.
    public var timestamp: TimestampLayout?
    /// How captured text is encoded in the line.
    public var encoding: Encoding
    /// Patterns of lines the format writes that are not records: headers, preambles, statistics trailers.
    public var furniture: [String]
    /// Pattern of a line saying the previous message was repeated; `(?<count>\d+)` captures how many times.
    public var repeatPattern: String?
    /// Whether every line that is no record continues the record before it (the tool writes multi-line
    /// messages raw, as `log show` does); otherwise only indented lines and open NSDictionary dumps do.
    public var rawContinuations: Bool
    /// A fallback format matches any line: it is used for a whole input only when no other format fits its
    /// first lines, and between other formats' records only for lines that carry a lifecycle event.
    public var isFallback: Bool
    /// Real lines this format must match (records, furniture, repeat lines), with what the captures must hold.
    public var samples: [Sample]

    public init(
        id: String, title: String, origin: String = "", pattern: String, timestamp: TimestampLayout?,
        encoding: Encoding = .plain, furniture: [String] = [], repeatPattern: String? = nil,
        rawContinuations: Bool = false, isFallback: Bool = false, samples: [Sample]
    ) {
        self.id = id
        self.title = title
        self.origin = origin
        self.pattern = pattern
        self.timestamp = timestamp
        self.encoding = encoding
        self.furniture = furniture
        self.repeatPattern = repeatPattern
        self.rawContinuations = rawContinuations
        self.isFallback = isFallback
        self.samples = samples
    }

    /// How the captured text is written.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// The bytes as they are.
        case plain
        /// The body of a JSON string (`\"`, `\n`, `\u00e9` …), decoded before the message is read.
        case json
    }

    /// One sample line and the fields the format must extract from it.
    public struct Sample: Sendable, Hashable {
        /// What the line is to the format.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            case record, furniture, `repeat`
        }

        public var line: String
        public var kind: Kind
        /// ISO 8601 form of the parsed timestamp (``Timestamp/iso8601``); missing years and dates are read as if
        /// the log ended at ``DateInference/sampleReference`` (the last second of 2024).
        public var timestamp: String?
        public var process: String?
        public var pid: Int?
        public var thread: String?
        public var subsystem: String?
        public var category: String?
        public var level: String?
        public var message: String?
        /// For a repeat line: how many times the previous message was repeated.
        public var count: Int?

        public init(
            line: String, kind: Kind = .record, timestamp: String? = nil, process: String? = nil, pid: Int? = nil,
            thread: String? = nil, subsystem: String? = nil, category: String? = nil, level: String? = nil,
            message: String? = nil, count: Int? = nil
        ) {
            self.line = line
            self.kind = kind
            self.timestamp = timestamp
            self.process = process
            self.pid = pid
            self.thread = thread
            self.subsystem = subsystem
            self.category = category
            self.level = level
            self.message = message
            self.count = count
        }
    }

    /// The capture names the pipeline understands. `sequence` orders records whose timestamps are equal
    /// (ndjson's `machTimestamp`).
    public static let captureNames = [
        "timestamp", "process", "pid", "thread", "subsystem", "category", "level", "message", "sequence",
    ]
}

/// Something people or tools put in front of a log line: `grep -n` line numbers, `> ` quoting, indentation,
/// a wrapper's own timestamp. Stripped before the formats are tried, and counted in the input summary.
public struct LinePrefix: Sendable, Hashable {
    public var id: String
    public var title: String
    /// PCRE2 pattern matched at the start of the line; what it matches is removed.
    public var pattern: String
    /// Lines carrying the prefix, each with the format its remainder must parse as.
    public var samples: [Sample]

    public init(id: String, title: String, pattern: String, samples: [Sample]) {
        self.id = id
        self.title = title
        self.pattern = pattern
        self.samples = samples
    }

    public struct Sample: Sendable, Hashable {
        public var line: String
        /// The format the line parses as once the prefix is removed.
        public var format: String

        public init(line: String, format: String) {
            self.line = line
            self.format = format
        }
    }

    /// Whether the prefix is only indentation (which also tells continuation lines from records).
    public var isIndentation: Bool { id == LinePrefix.indentation.id }
}
