/// The incarnations of a report, in input then line order: held in memory, or — for a big input — in a
/// ``SpillFile`` and decoded each time one is read, so the reports of a big capture never all exist at once.
///
/// Reporters only read processes one at a time (the text and JSON reports render each, the aggregate and the
/// summary add them up), so a collection that decodes on access serves them all without holding the whole report;
/// ordinary inputs stay in an array and cost what they did before.
public struct ProcessReports: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    /// A report in memory, held by reference: ``withReport(at:events:_:)`` lends it from this immutable property
    /// as it is, where one read from an array's element or a pointer is a copy of every string and array in it.
    final class Held: Sendable {
        let report: ProcessReport

        init(_ report: ProcessReport) { self.report = report }
    }

    /// One run of processes: held in memory, or written to a file (all of one input).
    enum Part: Sendable {
        case memory([Held])
        case file(SpillFile, input: String, [SpillFile.Segment])

        var count: Int {
            switch self {
            case .memory(let reports): return reports.count
            case .file(_, _, let segments): return segments.count
            }
        }
    }

    private var parts: [Part] = []
    /// Where each part starts.
    private var starts: [Int] = []
    public private(set) var count = 0

    public init(_ reports: [ProcessReport]) { append(.memory(reports.map(Held.init))) }

    public init(arrayLiteral reports: ProcessReport...) { self.init(reports) }

    init() {}

    /// The processes of several inputs, one after the other: each input's part stays as it is (copying a batch's
    /// processes into one array is work done after the last input, when no other core can help; a process is
    /// found among the parts by a binary search).
    init(concatenating all: [ProcessReports]) {
        for reports in all {
            for part in reports.parts { append(part) }
        }
    }

    mutating func append(_ part: Part) {
        guard part.count > 0 else { return }
        starts.append(count)
        parts.append(part)
        count += part.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> ProcessReport { report(at: position, events: true) }

    /// The processes with their events left out when they are in a file, as a collection, for what picks among them
    /// (the HTML page's swimlanes): the events are most of a process and decoding them most of the cost. (A pass
    /// over each in turn borrows it with ``forEachReport(events:_:)`` or ``withReport(at:events:_:)`` instead of
    /// copying it.)
    var withoutEvents: LazyMapCollection<Range<Int>, ProcessReport> {
        indices.lazy.map { report(at: $0, events: false) }
    }

    /// Calls `body` with process `position` (its events left out when it is in a file and `events` is false):
    /// borrowed in place when it is in memory, not copied out as the subscript's value is. A copy retains every
    /// string and array of the report and releases them after, and the reports of a batch are read by several
    /// passes (the totals, the aggregate, each format's renderer), on two threads at once with two jobs, whose
    /// counts on the same objects then pass their cache lines back and forth.
    func withReport<Result>(
        at position: Int, events: Bool = true, _ body: (ProcessReport) throws -> Result
    ) rethrows -> Result {
        precondition(position >= 0 && position < count, "process index out of range")
        let (part, offset) = locate(position)
        switch parts[part] {
        case .memory(let reports): return try Self.lend(reports[offset], body)
        case .file(let file, _, let segments):
            var decoder = SpillDecoder(file.read(segments[offset]))
            return try body(decoder.process(events: events, file: file))
        }
    }

    /// Calls `body` with `held`'s report: passed on from a parameter, it is lent as it is (read from a local or
    /// an array, it would be copied).
    @inline(__always)
    private static func lend<Result>(_ held: Held, _ body: (ProcessReport) throws -> Result) rethrows -> Result {
        try body(held.report)
    }

    /// Calls `body` with each process in order (``withReport(at:events:_:)``).
    func forEachReport(events: Bool = true, _ body: (ProcessReport) throws -> Void) rethrows {
        for position in indices { try withReport(at: position, events: events, body) }
    }

    /// Calls `body` with each run of processes of one input, in order: the input's name and the processes'
    /// positions (a batch's processes come an input at a time; a spilled part is all of one input, and is not
    /// decoded).
    func forEachInputRun(_ body: (_ input: String, _ positions: Range<Int>) -> Void) {
        var run: (input: String, start: Int)?
        var position = 0
        func next(_ input: String, count: Int) {
            defer { position += count }
            if let current = run {
                if current.input == input { return }
                body(current.input, current.start..<position)
            }
            run = (input, position)
        }
        for part in parts {
            switch part {
            case .memory(let reports): for held in reports { next(held.report.input, count: 1) }
            case .file(_, let input, let segments): next(input, count: segments.count)
            }
        }
        if let run { body(run.input, run.start..<position) }
    }

    /// A copy of process `position` (``withReport(at:events:_:)``'s).
    private func report(at position: Int, events: Bool) -> ProcessReport {
        withReport(at: position, events: events) { $0 }
    }

    /// Whether some processes are in a file (tests).
    var isSpilled: Bool {
        parts.contains { part in
            if case .file = part { return true }
            return false
        }
    }

    private func locate(_ position: Int) -> (part: Int, offset: Int) {
        if parts.count == 1 { return (0, position) }
        // The last part starting at or before `position`.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }
}

/// Collects an input's reports as they are made, writing them to a file once the input is big (its history was
/// spilled while it was read, or the reports would exceed the threshold) and keeping them in memory otherwise.
struct ProcessReportSpiller {
    private(set) var reports = ProcessReports()
    private var memory: [ProcessReports.Held] = []
    private var segments: [SpillFile.Segment] = []
    private let input: String
    private let file: () -> SpillFile?
    /// Whether reports go to the file from now on.
    private var spilling: Bool
    private var keptBytes = 0
    private let threshold: Int
    private var failed = false
    /// Why the file could not be written, if it could not (then the reports stay in memory).
    private(set) var error: TraceAnalyzeError?

    /// `file` makes (or gives) the input's file, nil when it cannot be made (`error` says why).
    init(input: String, spilling: Bool, threshold: Int, file: @escaping () -> SpillFile?) {
        self.input = input
        self.spilling = spilling
        self.threshold = threshold
        self.file = file
    }

    mutating func append(_ report: consuming ProcessReport) {
        if !spilling {
            // Twice the estimate: reports in memory took about that (20,000 launches: 18 MB of array, its slack
            // included, and 2 MB of strings, for 8 MB estimated), so many small reports stay under the threshold.
            keptBytes += 2 * ProcessTimeline.estimatedBytes(of: report)
            memory.append(ProcessReports.Held(report))
            guard !failed, keptBytes > threshold else { return }
            // The reports kept so far go first, so the order stays the input's.
            spilling = true
            let kept = memory
            memory = []
            for held in kept { append(held.report) }
            return
        }
        guard let file = file() else {
            stopSpilling(report)
            return
        }
        do throws(TraceAnalyzeError) {
            var encoder = SpillEncoder()
            encoder.process(try report.withHistory(in: file))
            segments.append(try file.append(encoder.bytes))
        } catch {
            self.error = error
            stopSpilling(report)
        }
    }

    /// The file failed: what was written stays there, the rest is kept in memory.
    private mutating func stopSpilling(_ report: ProcessReport) {
        flushSegments()
        spilling = false
        failed = true
        memory.append(ProcessReports.Held(report))
    }

    private mutating func flushSegments() {
        guard !segments.isEmpty, let file = file() else { return }
        reports.append(.file(file, input: input, segments))
        segments = []
    }

    /// Every report appended, in order.
    mutating func finish() -> ProcessReports {
        flushSegments()
        reports.append(.memory(memory))
        memory = []
        return reports
    }
}

extension ProcessReport {
    /// The report as a big input's reports are written to `file`: what the summaries count of its episodes and
    /// violations counted now when it was not as they were written (``episodeTally``, ``resumeDurations``,
    /// ``violationCounts``), and its episodes, violations and events held in memory written to the file as segments
    /// of their own. What only adds the processes up (the aggregate, the summary) then reads a few bytes of each
    /// and decodes none of them; a reporter reads them as it goes, as it reads those written while the input was
    /// read.
    func withHistory(in file: SpillFile) throws(TraceAnalyzeError) -> ProcessReport {
        var report = self
        // Set before the counts: changing the episodes or the violations forgets what was counted of them.
        report.episodes = try episodes.writingTail(to: file)
        report.violations = try violations.writingTail(to: file)
        report.events = try events.writingTail(to: file)
        if let episodeTally, let resumeDurations {
            report.episodeTally = episodeTally
            report.resumeDurations = resumeDurations
        } else {
            var tally = EpisodeTally()
            var durations: [Double] = []
            for episode in episodes {
                tally.add(episode)
                if let duration = episode.resumeDuration { durations.append(duration) }
            }
            report.episodeTally = tally
            report.resumeDurations = TimelineDurations(durations)
        }
        report.violationCounts = countsByRule
        return report
    }

    /// How many of ``violations`` break each rule: as counted when they were written to the file, else counted now.
    var countsByRule: [ViolationRule: Int] {
        violationCounts ?? violations.reduce(into: [:]) { counts, each in counts[each.rule, default: 0] += 1 }
    }
}
