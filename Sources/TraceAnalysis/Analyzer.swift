#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a capture comes from.
public enum InputSource: Sendable, Equatable {
    case file(String)
    case standardInput
    /// A capture held in memory (tests, embedding).
    case text(name: String, String)
    /// Raw bytes held in memory, not necessarily UTF-8.
    case bytes(name: String, [UInt8])

    /// The name reports use for the input.
    public var name: String {
        switch self {
        case .file(let path): return path
        case .standardInput: return "<stdin>"
        case .text(let name, _), .bytes(let name, _): return name
        }
    }
}

/// The pipeline: read → split lines → parse records → recognise events → follow each incarnation → report.
///
/// An `Analyzer` holds only immutable, validated definitions; each input gets its own ``InputAnalysis``
/// with its own matchers, so inputs could be analysed on separate threads.
public struct Analyzer: Sendable {
    public let options: AnalysisOptions
    public let catalog: FormatCatalog
    public let vocabulary: EventRecognizer.Compiled

    /// Compiles and checks the formats and the vocabulary; a bad definition throws before any input is read.
    public init(
        options: AnalysisOptions = AnalysisOptions(), formats: [LogFormat] = LogFormat.builtin,
        vocabulary: Vocabulary = .builtin
    ) throws(TraceAnalyzeError) {
        var catalog = try FormatCatalog(formats)
        try catalog.validate()
        if let only = options.inputFormat { catalog = try catalog.only(only) }
        let compiled = try EventRecognizer.Compiled(vocabulary)
        try vocabulary.validate(with: EventRecognizer(compiled: compiled))
        self.options = options
        self.catalog = catalog
        self.vocabulary = compiled
    }

    /// Analyses every input, in order; an input that cannot be read is reported in its summary.
    public func analyze(_ sources: [InputSource]) -> AnalysisReport {
        var inputs: [InputSummary] = []
        var processes: [ProcessReport] = []
        for source in sources {
            let (summary, reports) = analyze(source)
            inputs.append(summary)
            processes.append(contentsOf: reports)
        }
        return AnalysisReport(inputs: inputs, processes: processes, options: options)
    }

    /// Analyses a capture held in a string.
    public func analyze(text: String, name: String = "capture") -> AnalysisReport {
        analyze([.text(name: name, text)])
    }

    func analyze(_ source: InputSource) -> (InputSummary, [ProcessReport]) {
        let analysis = InputAnalysis(name: source.name, analyzer: self)
        switch source {
        case .text(_, let text): analysis.read(LineReader(bytes: Array(text.utf8)))
        case .bytes(_, let bytes): analysis.read(LineReader(bytes: bytes))
        case .standardInput: analysis.read(LineReader(fd: 0))
        case .file(let path):
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                analysis.fail(.cannotOpen(path: path, reason: String(cString: strerror(errno))))
                break
            }
            defer { close(fd) }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                analysis.fail(.isDirectory(path: path))
                break
            }
            analysis.read(LineReader(fd: fd))
        }
        return analysis.finish()
    }
}

/// The state of one input being analysed: line accounting, continuation tracking and the incarnations.
final class InputAnalysis {
    private let name: String
    private let options: AnalysisOptions
    private let parser: RecordParser
    private let recognizer: EventRecognizer
    private var summary: InputSummary
    private var recordsPerFormat: [Int]

    // Continuation tracking: the indentation of the record the following lines may continue, and the
    // bracket depth of an NSDictionary / NSArray dump still open.
    private var recordIndent: Int?
    private var bracketDepth = 0

    // Incarnations, and a one-entry cache so consecutive lines of one process cost no lookup.
    private var timelines: [ProcessTimeline] = []
    private var byKey: [ProcessKey: ProcessTimeline] = [:]
    private var currentByName: [String: ProcessTimeline] = [:]
    private var cachedName: [UInt8] = []
    private var cachedPid = -1
    private var cached: ProcessTimeline?

    private struct ProcessKey: Hashable {
        var name: String
        var pid: Int
    }

    init(name: String, analyzer: Analyzer) {
        self.name = name
        self.options = analyzer.options
        self.parser = RecordParser(catalog: analyzer.catalog)
        self.recognizer = EventRecognizer(compiled: analyzer.vocabulary)
        self.summary = InputSummary(name: name)
        self.recordsPerFormat = Array(repeating: 0, count: analyzer.catalog.formats.count)
    }

    func fail(_ error: TraceAnalyzeError) { summary.error = error }

    func read(_ reader: consuming LineReader) {
        var reader = reader
        do {
            try reader.forEachLine { line, _ in consume(line) }
        } catch {
            summary.error = .readFailed(path: name, reason: String(describing: error))
        }
        summary.bytes = reader.byteCount
        summary.truncatedLines = reader.truncatedLineCount
    }

    private func consume(_ line: UnsafeRawBufferPointer) {
        summary.lines += 1
        let number = summary.lines
        if let fields = parser.parse(line) {
            record(fields, line, number)
            return
        }
        if bracketDepth > 0 {
            summary.continuationLines += 1
            bracketDepth += Self.bracketBalance(line)
            return
        }
        if Bytes.isBlank(line) {
            summary.blankLines += 1
            return
        }
        if let indent = recordIndent, Bytes.indentation(line) > indent {
            summary.continuationLines += 1
            return
        }
        summary.unparsedLines += 1
        if summary.unparsedSamples.count < 5 { summary.unparsedSamples.append(number) }
        recordIndent = nil
    }

    private func record(_ fields: RecordParser.Fields, _ line: UnsafeRawBufferPointer, _ number: Int) {
        summary.records += 1
        recordsPerFormat[fields.formatIndex] += 1
        recordIndent = Bytes.indentation(line)
        bracketDepth = 0
        let message = UnsafeRawBufferPointer(rebasing: line[fields.message])
        if let last = message.last, last == UInt8(ascii: "{") || last == UInt8(ascii: "(") || last == UInt8(ascii: "[")
        {
            bracketDepth = max(0, Self.bracketBalance(message))
        }

        let timeline = self.timeline(for: fields, line, number)
        timeline.noteRecord(line: number, time: fields.timestamp)
        if let entry = recognizer.entryIndex(message) {
            summary.lifecycleEvents += 1
            timeline.handle(
                EventOccurrence(event: recognizer.event(ofEntry: entry), line: number, time: fields.timestamp))
        }
    }

    private func timeline(
        for fields: RecordParser.Fields, _ line: UnsafeRawBufferPointer, _ number: Int
    ) -> ProcessTimeline {
        let pid = fields.pid ?? -1
        let nameBytes =
            fields.process.map { UnsafeRawBufferPointer(rebasing: line[$0]) }
            ?? UnsafeRawBufferPointer(start: nil, count: 0)
        if let cached, pid == cachedPid, cachedName.withUnsafeBytes({ Bytes.equal($0, nameBytes) }) {
            return cached
        }
        let processName = String(decoding: nameBytes, as: UTF8.self)
        let key = ProcessKey(name: processName, pid: pid)
        let timeline: ProcessTimeline
        if let known = byKey[key] {
            timeline = known
            currentByName[processName] = known
        } else {
            timeline = ProcessTimeline(
                name: processName, pid: pid, input: name, line: number, time: fields.timestamp, options: options)
            byKey[key] = timeline
            timelines.append(timeline)
            if let previous = currentByName[processName], previous.pid != pid {
                previous.replaced(by: timeline)
            }
            currentByName[processName] = timeline
        }
        cached = timeline
        cachedPid = pid
        cachedName.removeAll(keepingCapacity: true)
        cachedName.append(contentsOf: nameBytes)
        return timeline
    }

    /// Opening minus closing brackets.
    private static func bracketBalance(_ bytes: UnsafeRawBufferPointer) -> Int {
        var balance = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["): balance += 1
            case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"): balance -= 1
            default: break
            }
        }
        return balance
    }

    func finish() -> (InputSummary, [ProcessReport]) {
        for (index, count) in recordsPerFormat.enumerated() where count > 0 {
            summary.formatCounts[parser.catalog.formats[index].format.id] = count
        }
        summary.format =
            summary.formatCounts.max { a, b in a.value < b.value || (a.value == b.value && a.key > b.key) }?.key
        let reports = timelines.filter(\.hasEvents).map { $0.report() }
        return (summary, reports)
    }
}
