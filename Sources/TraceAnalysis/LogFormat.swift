/// A log line format, declared as data: a PCRE2 pattern with named captures, a timestamp layout and sample lines.
///
/// As in lnav, every format carries samples, and loading checks that each sample matches exactly one format
/// of the catalogue (``FormatCatalog/validate()``). Named captures the pipeline reads:
/// `timestamp`, `process`, `pid`, `thread` and `message` (only `message` is required).
public struct LogFormat: Sendable, Codable, Hashable {
    /// Stable kebab-case identifier, shown in reports and accepted by `--input-format`.
    public var id: String
    /// A human title.
    public var title: String
    /// PCRE2 pattern, matched against the whole physical line (without its line ending), byte semantics.
    public var pattern: String
    /// How the `timestamp` capture is written; nil when the format has no timestamp.
    public var timestamp: TimestampLayout?
    /// Real lines this format must match, with what the captures must hold.
    public var samples: [Sample]

    public init(id: String, title: String, pattern: String, timestamp: TimestampLayout?, samples: [Sample]) {
        self.id = id
        self.title = title
        self.pattern = pattern
        self.timestamp = timestamp
        self.samples = samples
    }

    /// One sample line and the fields the format must extract from it.
    public struct Sample: Sendable, Codable, Hashable {
        public var line: String
        /// ISO 8601 form of the parsed timestamp (``Timestamp/iso8601``).
        public var timestamp: String?
        public var process: String?
        public var pid: Int?
        public var thread: String?
        public var message: String?

        public init(
            line: String, timestamp: String? = nil, process: String? = nil, pid: Int? = nil, thread: String? = nil,
            message: String? = nil
        ) {
            self.line = line
            self.timestamp = timestamp
            self.process = process
            self.pid = pid
            self.thread = thread
            self.message = message
        }
    }

    /// The capture names the pipeline understands.
    public static let captureNames = ["timestamp", "process", "pid", "thread", "message"]
}
