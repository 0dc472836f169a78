import Dispatch
import NativeKit

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

    /// Compiles and checks the formats, prefixes and the vocabulary; a bad definition throws before any input is
    /// read. User formats (from a config file) are tried before the built-in ones.
    ///
    /// The built-in definitions alone are not checked again on every run: the tests check exactly them
    /// (`FormatTests`, `VocabularyTests`), and the checks, which run every sample and example through its patterns,
    /// were a quarter of the start-up. Any change from a config file (a format, a prefix, an entry) is checked
    /// whole, built-in parts included.
    public init(
        options: AnalysisOptions = AnalysisOptions(), formats: [LogFormat] = LogFormat.builtin,
        prefixes: [LinePrefix] = LinePrefix.builtin, vocabulary: Vocabulary = .builtin
    ) throws(TraceAnalyzeError) {
        var catalog = try FormatCatalog(formats, prefixes: prefixes)
        if formats != LogFormat.builtin || prefixes != LinePrefix.builtin { try catalog.validate() }
        if let only = options.inputFormat { catalog = try catalog.only(only) }
        let compiled = try EventRecognizer.Compiled(vocabulary)
        if vocabulary.entries != Vocabulary.builtin.entries {
            try vocabulary.validate(with: EventRecognizer(compiled: compiled))
        }
        self.options = options
        self.catalog = catalog
        self.vocabulary = compiled
    }

    /// Analyses every input, in order; an input that cannot be read is reported in its summary.
    public func analyze(_ sources: [InputSource]) -> AnalysisReport { analyze(sources, jobs: 1) }

    /// Analyses the inputs on up to `jobs` threads, each input whole on one of them; the report lists them in
    /// the order given, whatever order they finish in. `progress` is called after each input, one call at a time.
    public func analyze(
        _ sources: [InputSource], jobs: Int, progress: (@Sendable (BatchProgress) -> Void)? = nil
    ) -> AnalysisReport {
        let batch = Batch(sources, progress: progress)
        return analyze(batch, workers: max(1, min(jobs, sources.count))) { (_) throws(Never) in }
    }

    /// Analyses the inputs `paths` name (``InputCollector/collect(_:)``'s) on up to `jobs` threads, starting on
    /// the first while the folders are still being walked: the walk is on the calling thread, the analysis on
    /// `jobs` - 1 others (from the second input found) until it ends, then on the calling thread too. The report
    /// is the one `analyze(collector.collect(paths), jobs:progress:)` gives; an error of the walk (a folder that
    /// cannot be read or holds no capture) is thrown once the inputs being analysed are done, and no report is
    /// made. `progress` is called once the walk is over (it knows the total then).
    public func analyze(
        _ paths: [String], collector: InputCollector, jobs: Int,
        progress: (@Sendable (BatchProgress) -> Void)? = nil
    ) throws(TraceAnalyzeError) -> AnalysisReport {
        let batch = Batch(progress: progress)
        return try analyze(batch, workers: max(1, jobs)) { (startWorkers) throws(TraceAnalyzeError) in
            try collector.collect(paths) { source in
                if batch.add(source) == 2 { startWorkers() }
            }
        }
    }

    /// Runs `workers` workers on `batch` while `collect` (on the calling thread, which then works too) adds its
    /// inputs. The other workers start when `collect` says so, or once it is over, and only for two inputs or more:
    /// a lone input is analysed on the calling thread, as with one worker. When the inputs, all known, are at most
    /// half the workers (a lone input on two cores or more), each is read ahead on a thread of its own
    /// (``LineReader/readsAhead``), which the idle workers' cores run.
    private func analyze<Failure: Error>(
        _ batch: Batch, workers: Int, collect: (_ startWorkers: () -> Void) throws(Failure) -> Void
    ) throws(Failure) -> AnalysisReport {
        let work = { @Sendable in
            while let (index, source) = batch.next() {
                batch.store(self.analyze(source, readAhead: batch.leavesCores(workers: workers)), at: index)
            }
        }
        let others = DispatchGroup()
        var started = false
        let startWorkers = {
            guard !started else { return }
            started = true
            for _ in 1..<workers { DispatchQueue.global().async(group: others, execute: work) }
        }
        do {
            try collect(startWorkers)
        } catch {
            batch.cancel()
            others.wait()
            throw error
        }
        if batch.close() > 1 { startWorkers() }
        work()
        others.wait()
        let (inputs, processes) = batch.takeResults()
        return AnalysisReport(inputs: inputs, processes: ProcessReports(concatenating: processes), options: options)
    }

    /// Analyses a capture held in a string.
    public func analyze(text: String, name: String = "capture") -> AnalysisReport {
        analyze([.text(name: name, text)])
    }

    /// Analyses one input; `readAhead`: its chunks read on a thread of their own (``LineReader/readsAhead``).
    func analyze(_ source: InputSource, readAhead: Bool = false) -> (InputSummary, ProcessReports) {
        switch source {
        case .text(let name, let text):
            return run(name, modified: nil, LineReader(bytes: Array(text.utf8), readAhead: readAhead))
        case .bytes(let name, let bytes):
            return run(name, modified: nil, LineReader(bytes: bytes, readAhead: readAhead))
        case .standardInput: return run(source.name, modified: nil, LineReader(fd: 0, readAhead: readAhead))
        case .file(let path):
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                return InputAnalysis.failed(path, .cannotOpen(path: path, reason: String(cString: strerror(errno))))
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                return InputAnalysis.failed(path, .cannotOpen(path: path, reason: String(cString: strerror(errno))))
            }
            if (info.st_mode & S_IFMT) == S_IFDIR { return InputAnalysis.failed(path, .isDirectory(path: path)) }
            return run(path, modified: Int64(info.st_mtim.tv_sec), LineReader(fd: fd, readAhead: readAhead))
        }
    }

    /// Analyses `bytes` read in chunks of `chunkSize`, with or without the runs of repeated headers
    /// (``HeaderRun``), read ahead or not (``LineReader/readsAhead``), and says how many lines the runs took (tests
    /// and ``PipelineCheck``: the runs, the chunks and the reading ahead change nothing but that).
    func analyze(
        bytes: [UInt8], name: String = "capture", chunkSize: Int,
        maximumLineLength: Int = LineReader.defaultMaximumLineLength, headerRuns: Bool, readAhead: Bool = false
    ) -> (report: AnalysisReport, runLines: Int, runPrinted: Int) {
        var analysis = InputAnalysis(name: name, analyzer: self, modified: nil, headerRuns: headerRuns)
        analysis.read(
            LineReader(
                bytes: bytes, chunkSize: chunkSize, maximumLineLength: maximumLineLength, readAhead: readAhead))
        let (runLines, runPrinted) = (analysis.runLines, analysis.runPrinted)
        let (summary, processes) = analysis.finish()
        return (AnalysisReport(inputs: [summary], processes: processes, options: options), runLines, runPrinted)
    }

    private func run(_ name: String, modified: Int64?, _ reader: consuming LineReader) -> (
        InputSummary, ProcessReports
    ) {
        var analysis = InputAnalysis(name: name, analyzer: self, modified: modified)
        analysis.read(reader)
        return analysis.finish()
    }

    /// How the missing years and dates of an input's timestamps are filled in.
    func dateInference(modified: Int64?) -> (DateInference, InferredDate.Source) {
        let source: InferredDate.Source
        let moment: Int64
        if let reference = options.referenceTime {
            (source, moment) = (modified == nil ? .now : .modificationTime, reference)
        } else if let modified {
            (source, moment) = (.modificationTime, modified)
        } else {
            (source, moment) = (.now, Int64(time(nil)))
        }
        let date = options.zone.civilDate(ofEpochSeconds: moment)
        let reference = DateInference.Moment(
            year: date.year, month: date.month, day: date.day, secondsOfDay: date.secondsOfDay)
        return (
            DateInference(explicitYear: options.year, reference: reference), options.year != nil ? .option : source
        )
    }
}

/// The state of one input being analysed: line accounting, format detection, continuation tracking and the
/// incarnations.
struct InputAnalysis {
    private let name: String
    private let options: AnalysisOptions
    private var parser: RecordParser
    /// The decoded message of an encoded (ndjson) record, reused.
    private var decoded: [UInt8] = []
    private let recognizer: EventRecognizer
    /// Where the reader marked the keywords' candidates in its buffer (``LineReader/marks``), while it reads.
    private var marks: LiteralSearch.Marks?
    /// Where the formats' and vocabulary's patterns gave up (a PCRE2 limit hit), by line.
    private let failureLog = MatchFailureLog()
    private let patternOrigins: [String: String]
    private let dateSource: InferredDate.Source
    private var summary: InputSummary
    private var recordsPerFormat: [Int]
    /// Records of format `runFormat` not yet added to ``recordsPerFormat``: consecutive records mostly share their
    /// format, so the array is written (and checked for a unique reference) once per run, not per record.
    private var runFormat = -1
    private var runCount = 0
    private var prefixLines: [Int]

    /// Format detection, like lnav: the first lines are held until one parses as a record (the input has a
    /// format) or ``sniffLimit`` non-blank lines did not (the input is bare lines).
    private enum Mode { case sniffing, formatted, bare }
    private var mode: Mode
    /// The lines held while sniffing; a run of identical blank lines is one entry (`count` lines from `number`
    /// on), so a file of nothing but newlines holds no memory per line.
    private var held: [(bytes: [UInt8], number: Int, count: Int)] = []
    private var heldNonBlank = 0
    static let sniffLimit = 100
    /// The format of most of the first ``detectionRecords`` records names the input.
    private var detectionCounts: [Int]
    private var detectionTotal = 0
    static let detectionRecords = 1000

    // Continuation tracking: the indentation of the record the following lines may continue, the bracket depth
    // of an NSDictionary / NSArray dump still open, and whether the last record's format writes raw continuations.
    private var recordIndent: Int?
    private var bracketDepth = 0
    private var rawContinuations = false
    private let rawContinuationFormats: [Bool]
    /// Whether the catalogue has a fallback format, whose records lines of no format with a keyword are.
    private let hasFallback: Bool
    /// Per format: whether it reads an NSLog header's timestamp as the runs of headers do
    /// (``RecordParser/Tables/isoLike``).
    private let isoLikeFormats: [Bool]

    // The last record, for repeat lines.
    /// Kept alive by ``incarnations`` (and never written out by it): no reference counting per record.
    unowned(unsafe) private var lastTimeline: ProcessTimeline?
    private var lastEvent: LifecycleEvent?
    private var lastTime: Timestamp?

    // Records whose timestamps tie, held to be ordered by their sequence capture (ndjson's machTimestamp): their
    // lines one after another in `tieBytes`, which keeps its room (no allocation a line).
    private typealias Tie = (sequence: Int, number: Int, bytes: Range<Int>, fields: RecordParser.Fields)
    private var ties: [Tie] = []
    private var tieBytes: [UInt8] = []
    static let maxTies = 10_000

    // Incarnations, and a one-entry cache so consecutive lines of one process cost no lookup.
    /// Every incarnation, by name and pid, by name (the current one) and by pid (the last made for each pid, for
    /// exit lines that name a pid: a look-up, not a scan of every incarnation, which was quadratic on a capture of
    /// many pids with exit lines).
    private var incarnations: Incarnations
    private let shared: ProcessTimeline.Shared
    /// Names that differ only in case, by their lowercased form, the first in sorted order: made the first time
    /// an exit line names a process no current name spells the same way, kept up to date from then on.
    private var namesByLowercase: [String: String]?
    /// The named process with lifecycle events, while there is one: bare lines belong to it. (Compared, not
    /// hashed into a set, on every event: most events are of the process before.)
    private var appName: String?
    private var severalAppNames = false
    /// The incarnations of the last few distinct processes, by name bytes and pid: captures interleave a handful
    /// of processes, and a hit here costs no String and no hashing. `cachedRecent` is the entry of the last record
    /// (tried first). The incarnations are kept alive by ``incarnations``, so these references take no reference
    /// count on the per-line path; the cache is emptied when incarnations are written out.
    private var recent: [(name: [UInt8], pid: Int, timeline: Unowned)] = []
    private var recentNext = 0
    private var cachedRecent = -1
    /// As many as ``HeaderRun`` keeps header tails for: one per entry.
    static let recentCapacity = HeaderRun.tailCapacity
    /// Per entry of `recent`, the header tail (` name[pid:`) of the last quick record of its incarnation: a line
    /// that repeats one is that incarnation's without reading its name and pid again (most lines of a capture
    /// follow one of the same process, and nearly all the others one of a few processes seen just before). Dropped
    /// (nil) where its entry is replaced, and all where the cache is emptied.
    private var tails = [NSLogHeader.Tail?](repeating: nil, count: InputAnalysis.recentCapacity)
    /// The last date and time an NSLog header was accepted with (``NSLogHeader/DateTime``).
    private var headerDates = NSLogHeader.DateTime()

    /// Live mode's hooks (nil in a batch).
    private let tracking: LiveTracking?

    /// The runs of lines that repeat the header of a quick record (``HeaderRun``): nil where they cannot be taken
    /// (live mode, or a vocabulary with entries the keyword marks do not find). Each quick record arms its shape
    /// (``armRun(_:format:_:time:prefix:)``); a line read one by one disarms both, unless it is a quick record itself. A
    /// record that opens a dump arms nothing until the dump closes among the continuation lines a run takes
    /// (``suspended``).
    private let headerRun: HeaderRun?
    /// Whether ``headerRun`` may count printed lines (``takeHeaders(_:from:)``).
    private let countsPrinted: Bool
    /// The shapes armed: bit 0 classic, bit 1 modern, or (``styleArmed``, alone) the `log` style of the last record;
    /// and those armed before the line being read one by one.
    private var armed: UInt32 = 0
    private var armedBefore: UInt32 = 0
    /// The shapes to arm again when the dump the last record opened closes among the continuation lines a run
    /// takes (``takeContinuations(_:)``): those lines change nothing a run depends on.
    private var suspended: UInt32 = 0
    /// The bit of `armed` (or `suspended`) that arms the run of a `log` style, or a device syslog
    /// (``armStyle(_:_:_:entry:)``).
    private static let styleArmed: UInt32 = 4
    /// What a record of each shape armed is read as: the arming record's timestamp, its second in microseconds,
    /// and its format.
    private struct Clock {
        var time = Timestamp(wallMicros: 0, utcOffsetSeconds: nil, fractionDigits: 0)
        var second: Int64 = 0
        var format = 0

        init() {}

        /// The clock a record of format `format` at `time` arms.
        init(time: Timestamp, format: Int) {
            self.time = time
            second = Timestamp.floorDivide(time.wallMicros, 1_000_000).0 &* 1_000_000
            self.format = format
        }

        /// The timestamp of a record of this shape `micros` after the armed second (what a run says of a line).
        @inline(__always)
        func at(_ micros: Int64) -> Timestamp {
            var at = time
            at.wallMicros = second &+ micros
            return at
        }
    }
    private var clocks = (classic: Clock(), modern: Clock(), style: Clock())
    /// Per format: the `log` style whose lines ``headerRun`` reads
    /// (``HeaderRun/runStyle(_:start:end:newlines:candidates:loud:maximumLineLength:)``), when it is one (all nil
    /// without runs).
    private let styleRuns: [HeaderRun.Style?]
    /// Lines the runs took (tests).
    private(set) var runLines = 0
    /// Printed lines the runs counted themselves, of ``runLines`` (tests).
    private(set) var runPrinted = 0

    init(
        name: String, analyzer: Analyzer, modified: Int64?, tracking: LiveTracking? = nil, headerRuns: Bool = true
    ) {
        self.name = name
        self.tracking = tracking
        self.options = analyzer.options
        let (dates, source) = analyzer.dateInference(modified: modified)
        self.dateSource = source
        let parser = RecordParser(
            catalog: analyzer.catalog, dates: dates, zone: analyzer.options.zone, failureLog: failureLog)
        self.parser = parser
        self.isoLikeFormats = analyzer.catalog.tables.isoLike
        self.recognizer = EventRecognizer(compiled: analyzer.vocabulary, failureLog: failureLog)
        self.patternOrigins = analyzer.options.patternOrigins
        self.summary = InputSummary(name: name)
        self.shared = ProcessTimeline.Shared(options: analyzer.options, tracking: tracking)
        self.incarnations = Incarnations(shared: shared)
        self.recordsPerFormat = Array(repeating: 0, count: analyzer.catalog.formats.count)
        self.detectionCounts = recordsPerFormat
        self.prefixLines = Array(repeating: 0, count: analyzer.catalog.prefixes.count)
        let catalog = analyzer.catalog
        self.rawContinuationFormats = catalog.tables.rawContinuations
        self.hasFallback = catalog.fallback != nil
        self.mode = catalog.recordFormats.isEmpty ? .bare : (catalog.fallback == nil ? .formatted : .sniffing)
        self.headerRun =
            headerRuns && tracking == nil && recognizer.needsMarkedKeyword
            ? recognizer.keywordSearch.map(HeaderRun.init) : nil
        let runs = headerRun != nil
        self.styleRuns = catalog.tables.logStyles.map { runs ? $0?.runStyle : nil }
        // The runs count printed lines where the catalogue's patterns are the built-in ones (see `takeHeaders`).
        if let headerRun, let ways = catalog.contentWays { headerRun.setContentBytes(ways) }
        self.countsPrinted = headerRun != nil && catalog.contentWays != nil
    }

    /// The summary of an input that could not be read.
    static func failed(_ name: String, _ error: TraceAnalyzeError) -> (InputSummary, ProcessReports) {
        var summary = InputSummary(name: name)
        summary.error = error
        return (summary, ProcessReports())
    }

    mutating func read(_ reader: consuming LineReader) {
        var reader = reader
        if let search = recognizer.keywordSearch {
            reader.markKeywords(search)
            marks = reader.marks
        }
        defer { marks = nil }
        do {
            if headerRun != nil {
                try reader.forEachLine(runs: { run in takeRun(run) }) { line, _ in consume(line) }
            } else {
                try reader.forEachLine { line, _ in consume(line) }
            }
        } catch {
            let reason = String(describing: error)
            summary.error = .readFailed(
                path: name,
                reason: reader.lineCount == 0
                    ? reason : "\(reason), after line \(reader.lineCount) (the lines before it are analysed)")
        }
        summary.bytes = reader.byteCount
        summary.truncatedLines = reader.truncatedLineCount
    }

    /// One physical line, without its ending.
    mutating func consume(_ line: UnsafeRawBufferPointer) {
        armedBefore = armed
        armed = 0
        suspended = 0
        summary.lines += 1
        let number = summary.lines
        failureLog.line = number
        guard mode == .sniffing else {
            classify(line, number)
            return
        }
        sniff(line, number)
    }

    /// ``consume(_:)`` while the input's format is still being detected (out of line: the few first lines of an
    /// input, and the line-by-line path stays small).
    @inline(never)
    private mutating func sniff(_ line: UnsafeRawBufferPointer, _ number: Int) {
        // The same blank line as the one held just before joins its run untried: that one failed to parse, and a
        // failed parse changes nothing, so this one would fail too (10 M newlines were 600 ns a line, each tried
        // against every format).
        let isBlank = Bytes.isBlank(line)
        if isBlank, let last = held.last, last.number + last.count == number,
            last.bytes.withUnsafeBytes({ Bytes.equal($0, line) })
        {
            held[held.count - 1].count += 1
            return
        }
        if parser.parse(line) != nil {
            decide(.formatted)
            classify(line, number)
            return
        }
        if isBlank {
            held.append((Array(line), number, 1))
            return
        }
        held.append((Array(line), number, 1))
        heldNonBlank += 1
        if heldNonBlank >= Self.sniffLimit { decide(.bare) }
    }

    /// Ends detection and replays the lines held meanwhile.
    private mutating func decide(_ decided: Mode) {
        mode = decided
        let lines = held
        held = []
        // The held lines are read one by one: what they arm is not what the line being read leaves.
        defer { (armed, armedBefore, suspended) = (0, 0, 0) }
        for (bytes, number, count) in lines {
            bytes.withUnsafeBytes { line in
                var offset = 0
                while offset < count {
                    failureLog.line = number + offset
                    let (blank, continuation) = (summary.blankLines, summary.continuationLines)
                    classify(line, number + offset)
                    offset += 1
                    // A run of one blank line (the only lines held more than once): when the first was counted as
                    // a blank or continuation line and nothing else, so is every other, with nothing else changed.
                    let rest = count - offset
                    guard rest > 0 else { continue }
                    if summary.blankLines == blank + 1, summary.continuationLines == continuation {
                        summary.blankLines += rest
                        offset = count
                    } else if summary.continuationLines == continuation + 1, summary.blankLines == blank {
                        summary.continuationLines += rest
                        offset = count
                    }
                }
            }
        }
    }

    /// Accounts for one line: a record of a format, a continuation, blank, furniture, a repeat, a bare record, or
    /// unparsed.
    @inline(never)
    private mutating func classify(_ line: UnsafeRawBufferPointer, _ number: Int) {
        guard parser.quickShape != nil else {
            if parser.isQuickPrefixed { return classifyPrefixed(line, number) }
            return classify(line, number, header: nil, read: false)
        }
        // Most lines of an NSLog capture: a record of an NSLog format after another, handled without the
        // general `Fields` (what `parse` then `record` would do, step for step). This path is a small function
        // of its own, so that the header's match is inlined into it.
        let (header, repeated) = NSLogHeader.match(line, tails: tails, first: cachedRecent, dates: &headerDates)
        if let header, let format = parser.quickFormat(header, likeLast: bracketDepth > 0) {
            flushTies()
            quickRecord(header, format: format, line, number, repeated: repeated)
            return
        }
        classify(line, number, header: header, read: true)
    }

    /// ``classify(_:_:)`` after a record of an NSLog format behind a CI runner's timestamp
    /// (``RecordParser/isQuickPrefixed``): a line with that prefix and then an NSLog header is such a record too when
    /// the parser says which format (``RecordParser/quickPrefixedFormat(_:likeLast:)``), taken as the quick path
    /// takes an NSLog record, with the prefix counted (what `parse` then `record` would do); any other line is read
    /// as any other.
    @inline(never)
    private mutating func classifyPrefixed(_ line: UnsafeRawBufferPointer, _ number: Int) {
        let offset = HeaderRun.ciTimestampLength(line)
        if offset > 0 {
            let content = UnsafeRawBufferPointer(rebasing: line[offset...])
            let (header, repeated) = NSLogHeader.match(content, tails: tails, first: cachedRecent, dates: &headerDates)
            if let header, let format = parser.quickPrefixedFormat(header.shape, likeLast: bracketDepth > 0) {
                flushTies()
                parser.countPrefixes(into: &prefixLines)
                quickRecord(header, format: format, content, number, repeated: repeated, prefix: .ciTimestamp)
                return
            }
        }
        classify(line, number, header: nil, read: false)
    }

    /// ``classify(_:_:)`` for every line the quick path does not take; `read`: `header` is the line's
    /// ``NSLogHeader`` match, already made.
    @inline(never)
    private mutating func classify(
        _ line: UnsafeRawBufferPointer, _ number: Int, header: NSLogHeader.Match?, read: Bool
    ) {
        // Inside an open dump only the last record's shape can end it: a full search would be wasted on every
        // line of a long NSDictionary.
        var fields = RecordParser.Fields.unset
        let parsed: Bool
        if read {
            parsed =
                bracketDepth > 0
                ? parser.parseLikeLast(line, header: header, into: &fields)
                : parser.parse(line, header: header, into: &fields)
        } else {
            parsed = bracketDepth > 0 ? parser.parseLikeLast(line, into: &fields) : parser.parse(line, into: &fields)
        }
        if parsed {
            parser.countPrefixes(into: &prefixLines)
            if let sequence = fields.sequence, let time = fields.timestamp {
                if let first = ties.first, first.fields.timestamp != time || ties.count >= Self.maxTies { flushTies() }
                let start = tieBytes.count
                tieBytes.append(contentsOf: line)
                ties.append((sequence, number, start..<tieBytes.count, fields))
                return
            }
            flushTies()
            record(fields, line, number, contentOffset: parser.parsedContentOffset(line))
            return
        }
        flushTies()
        if bracketDepth > 0 {
            summary.continuationLines += 1
            bracketDepth += BracketBalance.of(line)
            return
        }
        // Blank behind the last record's marker prefixes (a CI runner's timestamp before an empty line) is blank.
        let content = UnsafeRawBufferPointer(rebasing: line[parser.contentOffset(line)...])
        if Bytes.isBlank(content) {
            summary.blankLines += 1
            return
        }
        if parser.isFurniture(content: content) {
            summary.skippedLines += 1
            return
        }
        if let count = parser.repeatCount(content: content) {
            repeated(count, number)
            return
        }
        if rawContinuations || recordIndent.map({ Bytes.indentation(content) > $0 }) == true {
            summary.continuationLines += 1
            return
        }
        if let fallback = parser.catalog.fallback, mode == .bare || recognizer.entryIndex(content, marks: marks) != nil
        {
            bareRecord(content, number, format: fallback)
            return
        }
        countUnparsed(number)
    }

    /// Counts line `number` as one of no format (unparsed): after it, a line is no continuation of the record before
    /// it by its indentation.
    @inline(__always)
    private mutating func countUnparsed(_ number: Int) {
        countUnparsed(from: number, 1)
    }

    /// ``countUnparsed(_:)`` for the `count` lines from line `first`.
    private mutating func countUnparsed(from first: Int, _ count: Int) {
        summary.unparsedLines += count
        var number = first
        while summary.unparsedSamples.count < 5, number < first &+ count {
            summary.unparsedSamples.append(number)
            number &+= 1
        }
        recordIndent = nil
    }

    @inline(__always)
    private mutating func flushTies() {
        if !ties.isEmpty { flushHeldTies() }
    }

    private mutating func flushHeldTies() {
        var group: [Tie] = []
        var bytes: [UInt8] = []
        swap(&group, &ties)
        swap(&bytes, &tieBytes)
        if group.count > 1 {
            group = group.enumerated().sorted { a, b in
                (a.element.sequence, a.offset) < (b.element.sequence, b.offset)
            }.map(\.element)
        }
        bytes.withUnsafeBytes { held in
            for tie in group { record(tie.fields, UnsafeRawBufferPointer(rebasing: held[tie.bytes]), tie.number) }
        }
        // The room is kept for the next ties, unless a long stretch of them made it big.
        group.removeAll(keepingCapacity: group.capacity <= 1_024)
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
        swap(&group, &ties)
        swap(&bytes, &tieBytes)
    }

    @inline(__always)
    private mutating func count(format index: Int, times: Int = 1) {
        summary.records += times
        if index == runFormat {
            runCount += times
        } else {
            flushFormatRun()
            runFormat = index
            runCount = times
        }
        if detectionTotal < Self.detectionRecords {
            let counted = min(times, Self.detectionRecords - detectionTotal)
            detectionTotal += counted
            detectionCounts[index] += counted
        }
    }

    @inline(__always)
    private mutating func record(
        _ fields: RecordParser.Fields, _ line: UnsafeRawBufferPointer, _ number: Int, contentOffset: Int? = nil
    ) {
        count(format: fields.formatIndex)
        rawContinuations = rawContinuationFormats[fields.formatIndex]
        let content = contentOffset ?? parser.contentOffset(line)
        recordIndent = Bytes.indentation(UnsafeRawBufferPointer(rebasing: line[content...]))
        let timeline = self.timeline(for: fields, line, number)
        let (message, encoded) = parser.rawMessage(fields, in: line)
        guard encoded else {
            let entry = cachedRecent
            timeline.with { noteRecord($0, message: message, number, fields.timestamp) }
            if let style = styleRuns[fields.formatIndex] { armStyle(style, fields, line, entry: entry) }
            return
        }
        var buffer: [UInt8] = []
        swap(&buffer, &decoded)
        JSONString.unescape(message, into: &buffer)
        buffer.withUnsafeBytes { bytes in timeline.with { noteRecord($0, message: bytes, number, fields.timestamp) } }
        swap(&buffer, &decoded)
    }

    private mutating func flushFormatRun() {
        if runFormat >= 0 { recordsPerFormat[runFormat] += runCount }
        runCount = 0
    }

    /// ``record(_:_:_:)`` for a line ``NSLogHeader`` read as a record of NSLog format `format`
    /// (``RecordParser/quickFormat(_:likeLast:)``); `repeated`: the entry of `recent` whose header tail the line
    /// repeats (-1: none). `line` begins with the header: behind `prefix`, it is the line's content after it.
    @inline(__always)
    private mutating func quickRecord(
        _ header: NSLogHeader.Match, format: Int, _ line: UnsafeRawBufferPointer, _ number: Int, repeated: Int,
        prefix: HeaderRun.Prefix = .none
    ) {
        count(format: format)
        rawContinuations = rawContinuationFormats[format]
        recordIndent = 0  // an NSLog header starts with the date's first digit
        let message = UnsafeRawBufferPointer(rebasing: line[header.message])
        let time: Timestamp?
        if repeated >= 0 {
            // The name and pid are those of entry `repeated`: what the lookup by name and pid would find there.
            if repeated != cachedRecent { recentHit(repeated) }
            time = parser.quickTimestamp(header, format: format, in: line)
            recent[repeated].timeline.with { noteRecord($0, message: message, number, time) }
        } else {
            let (process, pid): (Range<Int>, Int?)
            (time, process, pid) = parser.quickFields(header, format: format, in: line)
            let timeline = timeline(
                nameBytes: UnsafeRawBufferPointer(rebasing: line[process]), pid: pid ?? -1, number, time)
            setTail(cachedRecent, NSLogHeader.Tail(header, in: line))
            timeline.with { noteRecord($0, message: message, number, time) }
        }
        armRun(header, format: format, line, time: time, prefix: prefix)
    }

    /// Drops the header tails of entry `index` of `recent`, NSLog's and a `log` style's.
    private mutating func forgetTails(_ index: Int) {
        setTail(index, nil)
        headerRun?.clearStyleTail(index)
    }

    /// The header tail of entry `index` of `recent`, here and in ``headerRun``.
    private mutating func setTail(_ index: Int, _ tail: NSLogHeader.Tail?) {
        tails[index] = tail
        headerRun?.setTail(index, tail?.bytes, modern: tail?.shape == .modern)
    }

    /// Arms ``headerRun`` for the shape of the record just read (`header` of `line`, a record of NSLog format
    /// `format` at `time`; none without a time; suspended until the dump closes after a message that opens one): the
    /// lines of that shape that repeat its date, time to the minute, fraction length and zone, at its second or a
    /// later one, with the header tail of a recent incarnation, are records of the same format at that second (a
    /// zone the line states is the same; one assumed for it is the same within the hour, as ``ZoneResolver`` works
    /// it out). The other shape stays armed if it was: this record leaves nothing that would read its lines
    /// differently. Behind `prefix` (`line` is then the content after it), the lines must have that prefix, and the
    /// other shape stays armed only where the parser takes it behind the prefix too
    /// (``RecordParser/Tables/onlyBuiltInPatterns``).
    @inline(__always)
    private mutating func armRun(
        _ header: NSLogHeader.Match, format: Int, _ line: UnsafeRawBufferPointer, time: Timestamp?,
        prefix: HeaderRun.Prefix
    ) {
        guard headerRun != nil, let time, isoLikeFormats[format] else { return }
        arm(header, format: format, line, time: time, prefix: prefix)
    }

    /// ``armRun(_:format:_:time:prefix:)`` once it is known to arm: out of line, so that the path of a line stays small
    /// enough for the optimiser to inline what it calls (inside a large function, loads and array counts became
    /// calls).
    @inline(never)
    private mutating func arm(
        _ header: NSLogHeader.Match, format: Int, _ line: UnsafeRawBufferPointer, time: Timestamp,
        prefix: HeaderRun.Prefix
    ) {
        guard let headerRun, let base = line.baseAddress else { return }
        let digits = Int(time.fractionDigits)
        let zoneCount = header.timestamp.upperBound &- 20 &- digits
        guard digits > 0, zoneCount >= 0, zoneCount <= 8 else { return }
        let modern = header.shape == .modern
        headerRun.arm(modern: modern, line: base, fractionDigits: digits, zoneCount: zoneCount)
        // A shape armed behind another prefix stays disarmed; behind a prefix, the other shape stays armed only where
        // the parser takes it there too.
        let bothShapes = prefix == .none || parser.catalog.tables.onlyBuiltInPatterns
        let before = prefix == headerRun.prefix && bothShapes ? armedBefore & 3 : 0
        headerRun.prefix = prefix
        let clock = Clock(time: time, format: format)
        if modern { clocks.modern = clock } else { clocks.classic = clock }
        // A record that opens a dump arms nothing until the dump closes.
        if bracketDepth > 0 {
            suspended = before | (modern ? 2 : 1)
        } else {
            armed = before | (modern ? 2 : 1)
        }
    }

    /// Sets the `log` style tail of entry `entry` of `recent` from a record of a style ``headerRun`` reads
    /// (`fields` of `line`, in `style`), and arms the run for that style alone when the record leaves the next
    /// line to be read as its format would read it (no prefixes, or a CI runner's timestamp alone, which each line
    /// of the run must then begin with; no ties held; after a dump the record opens, when
    /// the dump closes among the continuation lines a run takes, as ``arm(_:format:_:time:prefix:)`` does): the lines of its
    /// format that repeat its date, time to the minute, fraction length and zone, at its second or a later one,
    /// with the tail of a recent incarnation (a compact line's type any of the style's), are records of that
    /// incarnation at that time (see ``armRun(_:format:_:time:prefix:)``). The NSLog shapes are disarmed: after this
    /// record, a line is tried with its format first.
    @inline(never)
    private mutating func armStyle(
        _ style: HeaderRun.Style, _ fields: RecordParser.Fields, _ line: UnsafeRawBufferPointer, entry: Int
    ) {
        guard let headerRun, let base = line.baseAddress, let process = fields.process,
            let stamp = fields.timestampRange, let pidDigits = fields.pidRange, entry >= 0
        else { return }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let count = line.count
        @inline(__always) func skip(from start: Int, while accepted: (UInt8) -> Bool) -> Int {
            var index = start
            while index < count, accepted(bytes[index]) { index &+= 1 }
            return index
        }
        @inline(__always) func first(_ byte: UInt8, from start: Int) -> Int? {
            guard start < count, let found = memchr(bytes + start, Int32(byte), count &- start) else { return nil }
            return bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        // The timestamp, as the format matched it (at the line's start when the record arms without prefixes):
        // `YYYY-MM-DD HH:MM:SS.`, the fraction's digits and the zone; or `Mmm dd HH:MM:SS`, then `.` and the
        // fraction's digits or not.
        let syslogClock = style.hasSyslogClock
        let end = stamp.upperBound
        let fractionStart = stamp.lowerBound &+ (syslogClock ? 16 : 20)
        let digits = end > fractionStart ? skip(from: fractionStart, while: NSLogHeader.isDigit) &- fractionStart : 0
        let zoneCount = syslogClock ? 0 : end &- fractionStart &- digits
        // The tail (``HeaderRun/setStyleTail(_:_:count:pid:pidCount:unnamed:style:format:)``), from what the format
        // matched.
        var tailStart = end
        let tailEnd: Int
        var pid: (start: Int, count: Int) = (0, 0)
        var unnamed = false
        switch style {
        case .default:
            // From the pid; the process ends at the first colon.
            tailStart = pidDigits.lowerBound
            guard let colon = first(UInt8(ascii: ":"), from: pidDigits.upperBound) else {
                return headerRun.clearStyleTail(entry)
            }
            tailEnd = colon &+ 2
        case .deviceSyslog:
            // The process starts after the device name when the match took one (PCRE2 tries that way first), or
            // right after the timestamp when it did not (the first way failed: then a line is taken only when it
            // fails for that line too, `unnamed`). It ends at the first parenthesis or bracket; a sender group may
            // follow it, then the pid's brackets.
            let nameEnd = skip(from: end &+ 1) { !NSLogHeader.isSpace($0) }
            unnamed = process.lowerBound == end &+ 1
            guard process.lowerBound == nameEnd &+ 1 || unnamed else { return headerRun.clearStyleTail(entry) }
            tailEnd = skip(from: process.lowerBound) { $0 != UInt8(ascii: "(") && $0 != UInt8(ascii: "[") }
            pid = (pidDigits.lowerBound &- 1, pidDigits.count &+ 2)  // `[pid]`
        case .compact, .syslog:
            // To the pid's `:` (compact) or the space after its `]:` (syslog).
            tailEnd = pidDigits.upperBound &+ (style == .compact ? 1 : 3)
        case .bsdSyslog:
            // To the pid's `]`: a sender group or none and `: ` are read after it. A process that holds a `(` gives
            // none: a line of the same bytes could be read another way, the group opened there closing in its
            // message (`a (b[1]: x): y` is process `a`).
            if let parenthesis = first(UInt8(ascii: "("), from: process.lowerBound), parenthesis < process.upperBound {
                return headerRun.clearStyleTail(entry)
            }
            tailEnd = pidDigits.upperBound &+ 1
        }
        guard tailEnd <= count, tailStart < tailEnd, pid.start &+ pid.count <= count else {
            return headerRun.clearStyleTail(entry)
        }
        headerRun.setStyleTail(
            entry, base + tailStart, count: tailEnd &- tailStart, pid: base + pid.start, pidCount: pid.count,
            unnamed: unnamed, style: style, format: fields.formatIndex)
        guard ties.isEmpty, let time = fields.timestamp, digits >= (syslogClock ? 0 : 1), digits <= 9,
            Int(time.fractionDigits) == digits, zoneCount >= 0, zoneCount <= 8
        else { return }
        // The next line is tried with this format first: at its start, or behind a CI runner's timestamp, where the
        // record's header began right after it.
        let prefix: HeaderRun.Prefix
        if parser.formatTriedFirst == fields.formatIndex {
            prefix = .none
        } else if parser.formatTriedFirstBehindCITimestamp == fields.formatIndex,
            stamp.lowerBound == HeaderRun.ciTimestampLength(line)
        {
            prefix = .ciTimestamp
        } else {
            return
        }
        headerRun.armStyle(
            style, format: fields.formatIndex, line: base + stamp.lowerBound, fractionDigits: digits,
            zoneCount: zoneCount, prefix: prefix)
        clocks.style = Clock(time: time, format: fields.formatIndex)
        // A record that opens a dump arms the run for when the dump closes (``takeRun(_:)``).
        if bracketDepth > 0 { suspended = Self.styleArmed } else { armed = Self.styleArmed }
    }

    /// What a record of the shape `modern` names is read as, when armed; with a `log` style armed, what a record
    /// of it is.
    @inline(__always)
    private func clock(modern: Bool) -> Clock {
        armed & Self.styleArmed != 0 ? clocks.style : modern ? clocks.modern : clocks.classic
    }

    /// The lines from `run.start` that ``headerRun`` takes, handled as ``quickRecord(_:format:_:_:repeated:prefix:)``
    /// would handle each: a record of its shape's armed format, of the incarnation whose tail it repeats, at the
    /// armed second plus the microseconds the run gives it, whose message means nothing; and after a record whose
    /// message opens a dump, the lines inside it (``takeContinuations(_:from:)``), then the run again once it closes.
    private mutating func takeRun(_ run: LineReader.Run) -> (lines: Int, next: Int) {
        var lines = 0
        var next = run.start
        while true {
            if bracketDepth > 0 {
                let continuations = takeContinuations(run, from: next)
                lines &+= continuations.lines
                next = continuations.next
                guard continuations.lines > 0, bracketDepth <= 0, suspended != 0 else { return (lines, next) }
                // The dump closed: the lines after it are read as they would be after the record that opened it.
                (armed, suspended) = (suspended, 0)
            }
            let headers = takeHeaders(run, from: next)
            lines &+= headers.lines
            next = headers.next
            // The run ended after a record that opened a dump: its lines follow.
            guard bracketDepth > 0 else { return (lines, next) }
        }
    }

    /// ``takeRun(_:)`` outside a dump, from `start`; and between the runs of headers, the lines of no format a
    /// run stopped at (``takeUnparsed(_:at:number:)``): the output of `print` in Xcode's console, between an app's
    /// NSLog lines. Such a line leaves the run armed: it changes nothing the lines after it are read with, but
    /// that a line indented past the record is no continuation of it.
    private mutating func takeHeaders(_ run: LineReader.Run, from start: Int) -> (lines: Int, next: Int) {
        guard armed != 0, let headerRun else { return (0, start) }
        var next = start
        var number = summary.lines
        var groups = 0
        var modern = false
        var micros: Int64 = 0
        var records = false
        var raw = rawContinuations
        var opened = 0
        // The printed lines a run meets are counted by it where `takeUnparsed` would count them: no line is held for
        // a tie and no dump is open, the last record and the formats the run reads take no raw continuation lines,
        // and the catalogue's patterns are the built-in ones (the run asks `HeaderRun.builtInRefuses`'s test and
        // the repeat and furniture patterns' first bytes, then looks for a keyword, as the bare fallback would).
        headerRun.countsPrinted =
            armed & Self.styleArmed == 0 && countsPrinted && mode == .formatted && ties.isEmpty && bracketDepth == 0
            && !raw && !rawContinuationFormats[clocks.classic.format] && !rawContinuationFormats[clocks.modern.format]
            && (headerRun.prefix == .none
                ? parser.prefixChain.isEmpty : parser.formatTriedFirstBehindCITimestamp != nil)
        while true {
            if armed & Self.styleArmed != 0 {
                (_, groups, next) = headerRun.runStyle(
                    run.buffer, start: next, end: run.end, newlines: run.newlines, candidates: run.candidates,
                    loud: run.loud, maximumLineLength: run.maximumLineLength)
            } else {
                (_, groups, next, opened) = headerRun.run(
                    armed: armed, run.buffer, start: next, end: run.end, newlines: run.newlines,
                    candidates: run.candidates, loud: run.loud, maximumLineLength: run.maximumLineLength)
            }
            var headers = false
            for group in 0..<groups {
                if headerRun.isPrinted(group) {
                    // Printed lines, counted as `takeUnparsed` counts each.
                    let size = headerRun.count(group)
                    runPrinted &+= size
                    countUnparsed(from: number &+ 1, size)
                    number &+= size
                    continue
                }
                headers = true
                // A record leaves the indentation of its header (none), a line of no format none to compare with
                // (`countUnparsed`): a line the run stops at is read after what it took.
                recordIndent = 0
                // The group's first line is noted as any record; the others, each at or after the one before in
                // the same incarnation and zone, together.
                let tail = headerRun.tail(group)
                let size = headerRun.count(group)
                modern = headerRun.isModern(group)
                if tail != cachedRecent { recentHit(tail) }
                let clock = clock(modern: modern)
                count(format: clock.format, times: size)
                let firstLine = number &+ 1
                number &+= size
                micros = headerRun.lastMicros(group)
                let (first, last) = (clock.at(headerRun.firstMicros(group)), clock.at(micros))
                let line = number
                let anomaly = recent[tail].timeline.with { timeline in
                    let anomaly = timeline.noteRecord(line: firstLine, time: first)
                    if size > 1 { timeline.noteRecords(size &- 1, line: line, time: last) }
                    return anomaly
                }
                if anomaly { summary.clockAnomalies += 1 }
                // Behind a prefix, the chain of the record that armed the run (the lines read one by one leave it).
                parser.countPrefixes(into: &prefixLines, times: size)
            }
            if headers {
                records = true
                raw = rawContinuationFormats[clock(modern: modern).format]
            }
            if opened > 0 { break }
            if groups == HeaderRun.capacity { continue }
            // A line of no format after a record whose format reads the lines after it raw is a continuation.
            guard !raw, next < run.end, let after = takeUnparsed(run, at: next, number: number &+ 1) else { break }
            number &+= 1
            next = after
        }
        let taken = number &- summary.lines
        guard taken > 0 else { return (0, start) }
        summary.lines = number
        runLines &+= taken
        failureLog.line = number
        guard records else { return (taken, next) }
        let clock = clock(modern: modern)
        rawContinuations = rawContinuationFormats[clock.format]
        lastTimeline = recent[cachedRecent].timeline.object
        lastTime = clock.at(micros)
        lastEvent = nil
        if opened > 0 {
            // The last record opened a dump (see ``noteRecord(_:message:_:_:)``), and the run ended after it: the
            // lines inside it are read with its format alone, and the shapes armed wait for the dump to close, as
            // ``arm(_:format:_:time:prefix:)`` leaves them after such a record (there, the shapes armed before it and
            // its own, which was one of them).
            parser.takeQuickFormat(clock.format)
            bracketDepth = opened
            (armed, suspended) = (0, armed)
        }
        return (taken, next)
    }

    /// Counts the line at `start` of `run`, line `number`, as ``classify(_:_:header:read:)`` would count it, when
    /// that is as a line of no format: a whole line (its LF before `run.end`, no longer than the reader's limit)
    /// whose content (behind the last record's marker prefixes) begins with no digit, is not blank and is indented
    /// past no record (an indented line is one of no format only after such a line), holds no record of any format
    /// at its start or behind prefixes (``RecordParser/refuses(_:)``), is no furniture and no repeat line, and means
    /// no entry of the vocabulary (a bare record when the catalogue has a fallback format). Its patterns are asked in
    /// the order the line-by-line path asks them of a line of no format, each once (after a record whose format
    /// reads no raw continuation lines: the run asks). Returns where the next line
    /// begins, or nil: the line is then read one by one, and a pattern that gave up on it is asked again (its give-up
    /// counted twice against its budget).
    private mutating func takeUnparsed(_ run: LineReader.Run, at start: Int, number: Int) -> Int? {
        guard mode == .formatted, ties.isEmpty, bracketDepth == 0 else { return nil }
        // A line whose content begins with a digit is left to that path untried: most such lines a run stops at are
        // records (an NSLog header with a keyword, of another process, at another minute). Without prefixes, the
        // content is the line.
        @inline(__always) func mayBeUnparsed(_ first: UInt8) -> Bool { first &- UInt8(ascii: "0") >= 10 }
        let prefixed = !parser.prefixChain.isEmpty
        guard prefixed || mayBeUnparsed(run.buffer.load(fromByteOffset: start, as: UInt8.self)),
            let lf = run.lineFeed(from: start)
        else { return nil }
        var count = lf &- start
        guard count <= run.maximumLineLength else { return nil }
        if count > 0, run.buffer.load(fromByteOffset: lf &- 1, as: UInt8.self) == 0x0D { count &-= 1 }
        guard count > 0 else { return nil }
        let line = UnsafeRawBufferPointer(start: run.buffer + start, count: count)
        // Behind the marker prefixes of the last record (a CI runner's timestamp), as that path reads it.
        let contentOffset = prefixed ? parser.contentOffset(line) : 0
        let content = prefixed ? UnsafeRawBufferPointer(rebasing: line[contentOffset...]) : line
        guard let first = content.first, !prefixed || mayBeUnparsed(first) else { return nil }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // Indented: blank, or past the record before it (a continuation of it), it is no line of no format. Only
            // a line of no format before it leaves no indentation to compare with (the lines of a dictionary that a
            // `print` wrote).
            guard !Bytes.isBlank(content), recordIndent.map({ Bytes.indentation(content) > $0 }) != true else {
                return nil
            }
        }
        failureLog.line = number
        guard parser.refuses(line, contentOffset: contentOffset), !parser.isFurniture(content: content),
            parser.repeatCount(content: content) == nil,
            !hasFallback || recognizer.entryIndex(content, marks: marks) == nil
        else { return nil }
        countUnparsed(number)
        return lf &+ 1
    }

    /// The lines from `start` inside the open dump of an NSLog record, or of a record of a style ``headerRun``
    /// reads (either at the line's start or behind a CI runner's timestamp alone), that ``HeaderRun`` takes
    /// (``HeaderRun/continuations(_:start:end:newlines:maximumLineLength:letter:prefix:depth:)``), counted as
    /// ``classify(_:_:header:read:)`` counts each: no header of the record's format can begin it, so it parses like
    /// no record, and it is a continuation line whose brackets join the dump's.
    private mutating func takeContinuations(_ run: LineReader.Run, from start: Int) -> (lines: Int, next: Int) {
        guard headerRun != nil, mode == .formatted, ties.isEmpty else { return (0, start) }
        // The line-by-line path tries the last record's format alone, with no prefixes or behind a CI runner's
        // timestamp alone (a line without one is then no record): NSLog, or a style a run reads.
        let letter: Int
        var prefix = HeaderRun.Prefix.none
        if parser.quickShape != nil {
            letter = 0
        } else if parser.isQuickPrefixed {
            (letter, prefix) = (0, .ciTimestamp)
        } else if let format = parser.formatTriedFirst, let style = styleRuns[format] {
            letter = style.shortestLetterHeader
        } else if let format = parser.formatTriedFirstBehindCITimestamp, let style = styleRuns[format] {
            (letter, prefix) = (style.shortestLetterHeader, .ciTimestamp)
        } else {
            return (0, start)
        }
        let (taken, next) = HeaderRun.continuations(
            run.buffer, start: start, end: run.end, newlines: run.newlines,
            maximumLineLength: run.maximumLineLength, letter: letter, prefix: prefix, depth: &bracketDepth)
        guard taken > 0 else { return (0, start) }
        summary.lines &+= taken
        summary.continuationLines &+= taken
        runLines &+= taken
        failureLog.line = summary.lines
        return (taken, next)
    }

    /// A line of no format that is a record of the fallback format (bare lines).
    private mutating func bareRecord(_ content: UnsafeRawBufferPointer, _ number: Int, format: Int) {
        count(format: format)
        rawContinuations = false
        recordIndent = nil
        noteRecord(bareTimeline(number), message: content, number, nil)
    }

    private mutating func noteRecord(
        _ timeline: ProcessTimeline, message: UnsafeRawBufferPointer, _ number: Int, _ time: Timestamp?
    ) {
        bracketDepth = 0
        if let last = message.last, last == UInt8(ascii: "{") || last == UInt8(ascii: "(") || last == UInt8(ascii: "[")
        {
            bracketDepth = max(0, BracketBalance.of(message))
        }
        if let tracking { tracking.record(at: time, of: timeline) }
        if timeline.noteRecord(line: number, time: time) { summary.clockAnomalies += 1 }
        lastTimeline = timeline
        lastTime = time
        lastEvent = nil
        if let entry = recognizer.entryIndex(message, marks: marks) {
            let event = recognizer.event(ofEntry: entry)
            summary.lifecycleEvents += 1
            if event.family == .exitEvidence {
                exitEvidence(entry, event, message, own: timeline, number, time)
                return
            }
            lastEvent = event
            if !severalAppNames, !timeline.name.isEmpty {
                if let appName { severalAppNames = appName != timeline.name } else { appName = timeline.name }
            }
            if recognizer.isAppKit(entry: entry) { timeline.isAppKit = true }
            let scene = event.family == .scene ? recognizer.sceneIdentity(in: message) ?? "" : nil
            timeline.handle(EventOccurrence(event: event, line: number, time: time), scene: scene)
        }
    }

    /// A line saying a process ended: the process it names (by pid, else by name or bundle id), else its own.
    private mutating func exitEvidence(
        _ entry: Int, _ event: LifecycleEvent, _ message: UnsafeRawBufferPointer, own: ProcessTimeline, _ number: Int,
        _ time: Timestamp?
    ) {
        let subject = recognizer.subject(ofEntry: entry, in: message)
        var reason = event.exitReason ?? .signal
        if event == .exitSignal { reason = ExitReason.forSignal(subject.signal) }
        let target = subject.namesProcess ? exitTarget(subject, number, time) : own
        var evidence = String(decoding: message, as: UTF8.self).trimmingCharacters(in: " ")
        if evidence.count > 200 { evidence = String(evidence.prefix(200)) + "…" }
        target.exited(
            EventOccurrence(event: reason == .crash ? .exitCrash : event, line: number, time: time),
            exit: ProcessExit(reason: reason, line: number, time: time, signal: subject.signal, evidence: evidence))
    }

    /// The incarnation an exit line names: by pid, else the current one of its name (a bundle id's last component,
    /// compared without case), else a new one for that name.
    private mutating func exitTarget(_ subject: EventRecognizer.Subject, _ number: Int, _ time: Timestamp?)
        -> ProcessTimeline
    {
        if let pid = subject.pid, let known = incarnations.last(pid: pid) { return known }
        let name = subject.name ?? subject.bundle.map { bundle in String(bundle.split(separator: ".").last ?? "") }
        guard let name, !name.isEmpty else { return timeline(name: "", pid: subject.pid ?? -1, number, time) }
        if let current = incarnations.current(named: name) { return current }
        if namesByLowercase == nil {
            var index: [String: String] = [:]
            for known in incarnations.names { Self.index(known, into: &index) }
            namesByLowercase = index
        }
        if let match = namesByLowercase?[name.lowercased()], let current = incarnations.current(named: match) {
            return current
        }
        return timeline(name: name, pid: subject.pid ?? -1, number, time)
    }

    /// `--- last message repeated N times ---`: a record of the previous message's process; a repeated
    /// lifecycle event is handled once more (more repeats tell the state machine nothing new).
    private mutating func repeated(_ count: Int, _ number: Int) {
        summary.records += 1
        // Saturating: a count may have up to 18 digits, and a few such lines would overflow the sum.
        let (sum, overflow) = summary.repeatedMessages.addingReportingOverflow(count)
        summary.repeatedMessages = overflow ? Int.max : sum
        guard let timeline = lastTimeline else { return }
        timeline.noteRecord(line: number, time: lastTime)
        if let event = lastEvent, count > 0 {
            summary.lifecycleEvents += 1
            timeline.handle(EventOccurrence(event: event, line: number, time: lastTime))
        }
    }

    /// The incarnation a record is of (kept alive by ``incarnations``: borrowed, not retained).
    private mutating func timeline(
        for fields: RecordParser.Fields, _ line: UnsafeRawBufferPointer, _ number: Int
    ) -> Unowned {
        let nameBytes =
            fields.process.map { UnsafeRawBufferPointer(rebasing: line[$0]) }
            ?? UnsafeRawBufferPointer(start: nil, count: 0)
        return timeline(nameBytes: nameBytes, pid: fields.pid ?? -1, number, fields.timestamp)
    }

    /// The incarnation of the process named by `nameBytes` with `pid`, made when it is new.
    @inline(__always)
    private mutating func timeline(nameBytes: UnsafeRawBufferPointer, pid: Int, _ number: Int, _ time: Timestamp?)
        -> Unowned
    {
        // The entry is read in place (a copy of it would retain its name).
        if cachedRecent >= 0, recent[cachedRecent].pid == pid,
            recent[cachedRecent].name.withUnsafeBytes({ Bytes.equal($0, nameBytes) })
        {
            return recent[cachedRecent].timeline
        }
        return recentTimeline(nameBytes: nameBytes, pid: pid, number, time)
    }

    private mutating func recentTimeline(nameBytes: UnsafeRawBufferPointer, pid: Int, _ number: Int, _ time: Timestamp?)
        -> Unowned
    {
        if let hit = recent.firstIndex(where: { entry in
            entry.pid == pid && entry.name.withUnsafeBytes { Bytes.equal($0, nameBytes) }
        }) {
            recentHit(hit)
            return recent[hit].timeline
        }
        let timeline = self.timeline(name: String(decoding: nameBytes, as: UTF8.self), pid: pid, number, time)
        let entry = (Array(nameBytes), pid, Unowned(timeline))
        if recent.count < Self.recentCapacity {
            cachedRecent = recent.count
            recent.append(entry)
        } else {
            cachedRecent = recentNext
            recent[recentNext] = entry
            recentNext = (recentNext + 1) % Self.recentCapacity
        }
        forgetTails(cachedRecent)  // those of the entry replaced
        return entry.2
    }

    /// Entry `hit` of `recent` is the line's: what the lookup by key would do, the incarnation found becomes the
    /// current one of its name (borrowed: no reference count unless it must be made current).
    @inline(never)
    private mutating func recentHit(_ hit: Int) {
        let found = recent[hit].timeline
        if !found.with(\.isCurrentOfName) { makeCurrent(found.object) }
        cachedRecent = hit
    }

    /// A reference to an incarnation that ``incarnations`` keeps alive: no reference counting.
    private struct Unowned {
        private let reference: Unmanaged<ProcessTimeline>
        init(_ object: ProcessTimeline) { reference = .passUnretained(object) }

        /// The incarnation as a strong reference (retained while it is used).
        var object: ProcessTimeline { reference.takeUnretainedValue() }

        /// Calls `body` with the incarnation, retaining nothing.
        @inline(__always)
        func with<R>(_ body: (ProcessTimeline) -> R) -> R { reference._withUnsafeGuaranteedRef(body) }
    }

    private mutating func timeline(name processName: String, pid: Int, _ number: Int, _ time: Timestamp?)
        -> ProcessTimeline
    {
        if let known = incarnations.find(name: processName, pid: pid) {
            makeCurrent(known)
            return known
        }
        let previous = incarnations.current(named: processName)
        // The name of the earlier incarnations, so every incarnation of a name shares one string.
        let timeline = ProcessTimeline(
            name: incarnations.sharedName(processName) ?? processName, pid: pid, input: name, line: number, time: time,
            shared: shared)
        incarnations.append(timeline)
        if let previous, previous.pid != pid {
            previous.replaced(by: timeline)
        }
        makeCurrent(timeline)
        if incarnations.isBatchDue { writeOutQuiet(number, keeping: timeline) }
        return timeline
    }

    /// Writes out the incarnations that are quiet (``Incarnations``), keeping the last record's (repeat lines use
    /// it) and `new`, the one just made (its maker uses it), and forgets the cache of recent ones, which may name
    /// them.
    private mutating func writeOutQuiet(_ number: Int, keeping new: ProcessTimeline) {
        guard incarnations.writeOutQuiet(line: number, keeping: lastTimeline, new) else { return }
        forgetRecent()
    }

    /// Empties the cache of recent incarnations, with their header tails.
    private mutating func forgetRecent() {
        recent.removeAll()
        recentNext = 0
        cachedRecent = -1
        for index in tails.indices { forgetTails(index) }
    }

    /// Incarnations written out and not read back since (tests).
    var dormantIncarnations: Int { incarnations.dormantCount }

    /// Makes `timeline` the current incarnation of its name (``Incarnations/makeCurrent(_:)``), and adds a new
    /// name to the lowercase index when there is one.
    private mutating func makeCurrent(_ timeline: ProcessTimeline) {
        guard incarnations.makeCurrent(timeline), var index = namesByLowercase else { return }
        namesByLowercase = nil  // so the index is changed in place, not copied
        Self.index(timeline.name, into: &index)
        namesByLowercase = index
    }

    /// Adds `name` to a lowercase index, keeping the first name in sorted order for each lowercased form.
    private static func index(_ name: String, into index: inout [String: String]) {
        let lowered = name.lowercased()
        if let known = index[lowered], known <= name { return }
        index[lowered] = name
    }

    /// The incarnation a bare line belongs to: the one app of the input so far, else an unknown process.
    private mutating func bareTimeline(_ number: Int) -> ProcessTimeline {
        if !severalAppNames, let app = appName, let timeline = incarnations.current(named: app) {
            return timeline
        }
        if let known = incarnations.find(name: "", pid: -1) { return known }
        return timeline(name: "", pid: -1, number, nil)
    }

    // MARK: Live mode

    /// Lines read so far.
    var lineCount: Int { summary.lines }

    /// What the line source counted (live mode, where lines do not come through ``read(_:)``).
    mutating func account(bytes: Int64, truncatedLines: Int) {
        summary.bytes = bytes
        summary.truncatedLines = truncatedLines
    }

    /// The input could not be read on (live mode); the lines before are analysed.
    mutating func fail(_ error: TraceAnalyzeError) { summary.error = error }

    /// Analyses the records held for their tie-break now: the input has nothing more for the moment, and a record
    /// that ties with them would have arrived with them.
    mutating func releaseHeldRecords() { flushTies() }

    /// A pause in a live input while the format is still being detected: when a held line carries a lifecycle
    /// event, waiting for more lines would hold its findings back, so the lines held are taken as bare lines
    /// (records of a format that turns up later are still read as such). Returns whether it decided.
    @discardableResult
    mutating func decideFormatOnPause() -> Bool {
        guard mode == .sniffing, parser.catalog.fallback != nil else { return false }
        let hasEvent = held.contains { line in
            line.bytes.withUnsafeBytes { bytes in
                recognizer.entryIndex(UnsafeRawBufferPointer(rebasing: bytes[parser.contentOffset(bytes)...])) != nil
            }
        }
        guard hasEvent else { return false }
        decide(.bare)
        return true
    }

    mutating func finish() -> (InputSummary, ProcessReports) {
        if mode == .sniffing { decide(heldNonBlank > 0 ? .bare : .formatted) }
        flushTies()
        let catalog = parser.catalog
        flushFormatRun()
        for (index, count) in recordsPerFormat.enumerated() where count > 0 {
            summary.formatCounts[catalog.formats[index].format.id] = count
        }
        for (index, count) in prefixLines.enumerated() where count > 0 {
            summary.prefixes[catalog.prefixes[index].prefix.id] = count
        }
        if let best = detectionCounts.indices.max(by: {
            detectionCounts[$0] < detectionCounts[$1] || (detectionCounts[$0] == detectionCounts[$1] && $0 > $1)
        }),
            detectionCounts[best] > 0
        {
            summary.format = catalog.formats[best].format.id
        }
        if parser.assumedZone { summary.assumedZone = options.zone.description }
        summary.patternFailures = failureLog.failures.map { failure in
            var failure = failure
            let ids = failure.owner.split(separator: " ", maxSplits: 1).dropFirst().first?.split(separator: ", ") ?? []
            let origins = ids.compactMap { patternOrigins[String($0)] }
            if !origins.isEmpty { failure.owner += " (\(origins.joined(separator: ", ")))" }
            return failure
        }
        if summary.error == nil, let first = summary.patternFailures.first {
            summary.error = .patternGaveUp(path: name, failure: first, others: summary.patternFailures.count - 1)
        }
        let dates = parser.dates
        if dates.firstYear != nil || dates.firstDay != nil {
            summary.inferredDate = InferredDate(
                source: dateSource, firstYear: dates.firstYear, rollovers: dates.rollovers)
        }
        // Each incarnation is let go once its report is made, so the two never all exist at once.
        namesByLowercase = nil
        forgetRecent()
        lastTimeline = nil
        shared.release()
        // A big input's reports go to its temporary file as they are made (see ProcessReports).
        var reports = ProcessReportSpiller(
            input: name, spilling: shared.didSpill, threshold: shared.spillThreshold, file: shared.file)
        incarnations.removeAll { reports.append($0.report()) }
        if summary.error == nil, let error = shared.error ?? reports.error { summary.error = error }
        return (summary, reports.finish())
    }
}

/// How far a batch has got.
public struct BatchProgress: Sendable {
    /// Inputs finished, of ``total``.
    public var done: Int
    public var total: Int
    /// Bytes read by the inputs finished.
    public var bytes: Int64
}

/// The shared state of a parallel batch: the inputs (added while a folder walk finds them), the next input to
/// take and the results by input index.
private final class Batch: @unchecked Sendable {
    /// Signalled when an input is added, and when no more will be.
    private let lock = Lock()
    private var sources: [InputSource] = []
    /// No more inputs will be added.
    private var closed = false
    /// The walk failed: no more inputs are taken.
    private var cancelled = false
    private var nextIndex = 0
    private var slots: [(InputSummary, ProcessReports)?] = []
    private var done = 0
    private var bytes: Int64 = 0
    private let progress: (@Sendable (BatchProgress) -> Void)?

    init(progress: (@Sendable (BatchProgress) -> Void)?) { self.progress = progress }

    /// A batch of these inputs and no more.
    init(_ sources: [InputSource], progress: (@Sendable (BatchProgress) -> Void)?) {
        self.sources = sources
        slots = Array(repeating: nil, count: sources.count)
        closed = true
        self.progress = progress
    }

    /// Adds an input; returns how many there are now.
    @discardableResult func add(_ source: InputSource) -> Int {
        lock.withLock {
            sources.append(source)
            slots.append(nil)
            lock.signal()
            return sources.count
        }
    }

    /// No more inputs; reports the progress so far (a batch's progress is reported once its total is known). Once.
    /// Returns how many inputs there are.
    @discardableResult func close() -> Int {
        lock.withLock {
            guard !closed else { return sources.count }
            closed = true
            lock.broadcast()
            if done > 0 { progress?(BatchProgress(done: done, total: slots.count, bytes: bytes)) }
            return sources.count
        }
    }

    /// Whether the inputs are all known and at most half of `workers`: each can then have a second thread.
    func leavesCores(workers: Int) -> Bool {
        lock.withLock { closed && sources.count * 2 <= workers }
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            lock.broadcast()
        }
    }

    /// The next input to analyse, waiting for one while more may come; nil when there is none left.
    func next() -> (Int, InputSource)? {
        lock.withLock {
            while nextIndex == sources.count && !closed && !cancelled { lock.wait() }
            guard !cancelled, nextIndex < sources.count else { return nil }
            defer { nextIndex += 1 }
            return (nextIndex, sources[nextIndex])
        }
    }

    /// Keeps an input's result and reports progress (under the lock: one call at a time).
    func store(_ result: (InputSummary, ProcessReports), at index: Int) {
        lock.withLock {
            slots[index] = result
            done += 1
            bytes += result.0.bytes
            if closed { progress?(BatchProgress(done: done, total: slots.count, bytes: bytes)) }
        }
    }

    /// Every input's result, in input order, moved out of the batch (call once, when every worker has finished): a
    /// batch's summaries and reports copied out would be retained field by field, then released with the batch,
    /// with no other core to help once the last input is done.
    func takeResults() -> (inputs: [InputSummary], processes: [ProcessReports]) {
        lock.withLock {
            var inputs: [InputSummary] = []
            var processes: [ProcessReports] = []
            inputs.reserveCapacity(slots.count)
            processes.reserveCapacity(slots.count)
            for index in slots.indices {
                guard let (summary, reports) = slots[index].take() else { continue }
                inputs.append(summary)
                processes.append(reports)
            }
            return (inputs, processes)
        }
    }
}
