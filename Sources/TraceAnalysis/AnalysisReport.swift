import NativeKit

/// Everything an analysis found: the value every reporter renders. See `Documentation/JSON.md`.
public struct AnalysisReport: Sendable {
    /// The JSON contract's version; bumped only on incompatible changes.
    public static let schemaVersion = 1

    public var inputs: [InputSummary] { didSet { derived = Derived() } }
    /// The incarnations, in input then line order; a big input's are read back from a temporary file one at a
    /// time (see ``ProcessReports``).
    public var processes: ProcessReports { didSet { derived = Derived() } }
    public var options: AnalysisOptions { didSet { derived = Derived() } }
    /// What the reporters add up from the processes, worked out once per report (a new one on any change).
    private var derived = Derived()

    public init(inputs: [InputSummary], processes: [ProcessReport], options: AnalysisOptions) {
        self.init(inputs: inputs, processes: ProcessReports(processes), options: options)
    }

    public init(inputs: [InputSummary], processes: ProcessReports, options: AnalysisOptions) {
        self.inputs = inputs
        self.processes = processes
        self.options = options
    }

    /// Indices into ``processes`` by the name of the input each came from, in order.
    public var processIndicesByInput: [String: [Int]] {
        derived.byInput.value {
            // Looked up once a run of one input's processes, not once a process: hashing a path for each of a
            // batch's thousands of processes was a serial start to its reports.
            var byInput: [String: [Int]] = [:]
            processes.forEachInputRun { input, positions in byInput[input, default: []].append(contentsOf: positions) }
            return byInput
        }
    }

    /// The per-app and per-input table (``Aggregate``), added up once however many reports show it. Its pass counts
    /// the ``totals`` too, which are kept unless made already: each process of a big input is decoded from the
    /// temporary file once for both, not once for each.
    var aggregate: Aggregate {
        derived.aggregate.value {
            let aggregate = Aggregate(self)
            derived.totals.offer(aggregate.totals)
            return aggregate
        }
    }

    /// The CI findings as the Markdown and GitHub reports list them (``CIFinding/Digest``: the first
    /// ``CIFinding/listed`` in order, the counts), summed up once however many reports show them.
    var ciDigest: CIFinding.Digest { derived.digest.value { CIFinding.Digest(self, limit: CIFinding.listed) } }

    /// Every violation of every process, in input then line order.
    public var violations: [Violation] { processes.flatMap(\.violations) }
    /// Every launch the log shows.
    public var launches: [LaunchReport] { processes.compactMap(\.launch) }
    /// Launches with a measured duration that count against the budget.
    public var measuredLaunches: [LaunchReport] { launches.filter { $0.durationMs != nil && !$0.excluded } }
    /// Every completed launch that counts against the budget and exceeded it.
    public var launchesOverBudget: [ProcessReport] { processes.filter { $0.launch?.overBudget == true } }
    /// Inputs that could not be read.
    public var failedInputs: [InputSummary] { inputs.filter { $0.error != nil } }
    /// What the failed inputs were: `unreadable`, `incomplete`, or both.
    public var failedInputsLabel: String {
        let labels = Set(failedInputs.compactMap { $0.error?.inputLabel })
        if labels.count == 1, let label = labels.first { return label }
        return "unreadable or incomplete"
    }
    /// Lifecycle events over all inputs.
    public var lifecycleEventCount: Int { inputs.reduce(0) { $0 + $1.lifecycleEvents } }

    /// Resumes judged against their budget (timed return-to-foreground episodes).
    public var timedResumes: [Episode] { processes.flatMap(\.timedResumes) }
    /// Timed resumes over their budget.
    public var resumesOverBudget: [Episode] { timedResumes.filter(\.overBudget) }

    /// What the summaries count, added up in one pass over the processes (a big input's are decoded on each
    /// pass, so the summary does not go over them once per figure).
    struct Totals: Sendable, Equatable {
        /// The episodes of every process: counted from each process's ``ProcessReport/episodeTally`` when it has
        /// one (counted as its report was made), by a pass over them otherwise.
        var tally = EpisodeTally()
        var violations = 0
        var launches = 0
        var measuredLaunches = 0
        var slowestLaunchMs: Double?
        var launchesOverBudget = 0

        var episodes: Int { tally.episodes }
        var timedResumes: Int { tally.timedResumes }
        var resumesOverBudget: Int { tally.resumesOverBudget }
        var killedInForeground: Int { tally.killedInForeground }

        /// Episodes per scenario, in the order of ``Scenario/allCases``.
        var scenarioCounts: [(Scenario, Int)] {
            Scenario.allCases.compactMap { scenario in tally.scenarios[scenario].map { (scenario, $0) } }
        }
    }

    /// The totals: counted by the aggregate's pass when the aggregate was asked for first (``aggregate``), else in a
    /// pass of their own.
    var totals: Totals {
        derived.totals.value {
            var totals = Totals()
            processes.forEachReport(events: false) { totals.add($0) }
            return totals
        }
    }

    /// How many of each kind of finding the report holds.
    public var findingCounts: [FailurePolicy.Finding: Int] { findingCounts(totals) }

    func findingCounts(_ totals: Totals) -> [FailurePolicy.Finding: Int] {
        [
            .violations: totals.violations,
            .overBudget: totals.launchesOverBudget + totals.resumesOverBudget,
            .killedInForeground: totals.killedInForeground,
            .clockAnomalies: inputs.reduce(0) { $0 + $1.clockAnomalies },
        ]
    }

    /// The findings that fail the run under ``AnalysisOptions/failOn``, with their counts, in documented order.
    public var failingFindings: [(FailurePolicy.Finding, Int)] { failingFindings(totals) }

    func failingFindings(_ totals: Totals) -> [(FailurePolicy.Finding, Int)] {
        let counts = findingCounts(totals)
        return FailurePolicy.Finding.allCases.compactMap { finding in
            guard options.failOn.fails(on: finding), let count = counts[finding], count > 0 else { return nil }
            return (finding, count)
        }
    }

    /// The documented exit status: 2 an input problem, 1 a finding the failure policy fails on, 0 clean.
    public var exitStatus: ExitStatus {
        if !failedInputs.isEmpty || lifecycleEventCount == 0 { return .inputProblem }
        return failingFindings.isEmpty ? .clean : .findings
    }

    func exitStatus(_ totals: Totals) -> ExitStatus {
        if !failedInputs.isEmpty || lifecycleEventCount == 0 { return .inputProblem }
        return failingFindings(totals).isEmpty ? .clean : .findings
    }

    /// Episodes counted per scenario, in the order of ``Scenario/allCases``.
    public var scenarioCounts: [(Scenario, Int)] { totals.scenarioCounts }
}

extension AnalysisReport.Totals {
    /// Counts `process` in.
    mutating func add(_ process: ProcessReport) {
        tally.add(episodesOf: process)
        violations += process.violations.count
        guard let launch = process.launch else { return }
        launches += 1
        if launch.overBudget { launchesOverBudget += 1 }
        if let duration = launch.durationMs, !launch.excluded {
            measuredLaunches += 1
            slowestLaunchMs = max(slowestLaunchMs ?? duration, duration)
        }
    }
}

extension AnalysisReport {
    /// Values worked out from a report when first asked for, by whichever reporter asks first (reports are
    /// rendered on several threads at once).
    fileprivate final class Derived: Sendable {
        let totals = Once<Totals>()
        let aggregate = Once<Aggregate>()
        let digest = Once<CIFinding.Digest>()
        let byInput = Once<[String: [Int]]>()
    }
}

/// A value made once, the first time it is asked for; a thread asking while it is being made waits for it.
final class Once<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var made: Value?

    func value(_ make: () -> Value) -> Value {
        lock.withLock {
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }

    /// Keeps `value` as the one made, unless one was made already.
    func offer(_ value: Value) { lock.withLock { if made == nil { made = value } } }
}

/// The process exit codes (also in the README).
public enum ExitStatus: Int32, Sendable {
    /// No violation, no launch over budget.
    case clean = 0
    /// At least one violation or launch over budget.
    case findings = 1
    /// An input could not be read, or no input held a lifecycle event.
    case inputProblem = 2
    /// The command line was wrong.
    case usage = 64
}

/// How one input was read: every physical line is a record, a continuation, a blank line, a format's furniture
/// (headers, preambles, trailers) or unparsed.
public struct InputSummary: Sendable {
    public var name: String
    public var bytes: Int64 = 0
    public var lines = 0
    public var records = 0
    public var continuationLines = 0
    public var blankLines = 0
    /// Headers, preambles and trailers the format writes (`Filtering the log data…`, statistics).
    public var skippedLines = 0
    public var unparsedLines = 0
    /// Messages a syslog said were repeated (`--- last message repeated N times ---`).
    public var repeatedMessages = 0
    /// Timestamps earlier than the one before them in the same incarnation (kept in input order).
    public var clockAnomalies = 0
    /// Lines per prefix id that was stripped (`grep-line-number`, `quote`, `indentation` …).
    public var prefixes: [String: Int] = [:]
    /// The zone zone-less timestamps were read in, when the input had any.
    public var assumedZone: String?
    /// Where the missing years or dates of timestamps came from, when the input had any.
    public var inferredDate: InferredDate?
    /// Lines longer than the reader's bound, matched on their first bytes only.
    public var truncatedLines = 0
    public var lifecycleEvents = 0
    /// The format detected from the first records (most of the first 1,000); nil when no line matched any.
    public var format: String?
    /// Records per format id.
    public var formatCounts: [String: Int] = [:]
    /// The first few unparsed lines, so a reader can look at them.
    public var unparsedSamples: [Int] = []
    /// Patterns that gave up on some lines (a PCRE2 match, depth or heap limit hit): those lines were read as
    /// if the pattern did not match, so the analysis may miss records or events there.
    public var patternFailures: [MatchFailureLog.Failure] = []
    /// Why the input could not be read (or not wholly trusted), if so.
    public var error: TraceAnalyzeError?

    public init(name: String) { self.name = name }
}

extension InputSummary {
    /// How the lines were read: `9 records, 2 continuation, 0 unparsed (line 4, …)` parts, for reporters.
    var readingParts: [String] {
        var parts = ["\(records) records"]
        if continuationLines > 0 { parts.append("\(continuationLines) continuation") }
        if blankLines > 0 { parts.append("\(blankLines) blank") }
        if skippedLines > 0 { parts.append("\(skippedLines) header/trailer") }
        var unparsed = "\(unparsedLines) unparsed"
        if !unparsedSamples.isEmpty {
            let more = unparsedLines > unparsedSamples.count ? ", …" : ""
            unparsed += " (line \(unparsedSamples.map(String.init).joined(separator: ", "))\(more))"
        }
        parts.append(unparsed)
        if truncatedLines > 0 { parts.append("\(truncatedLines) cut at 64 KiB") }
        return parts
    }

    /// What a reader should know about how the input was read: other formats in it, prefixes stripped, assumed
    /// years and zones, repeats, clock anomalies.
    var readingNotes: [String] {
        var notes: [String] = []
        let others = formatCounts.filter { $0.key != format }.sorted { $0.key < $1.key }
        if !others.isEmpty {
            let counts = others.map { "\($0.key) (\($0.value) record\($0.value == 1 ? "" : "s"))" }
            notes.append("also " + counts.joined(separator: ", "))
        }
        if !prefixes.isEmpty {
            let stripped = prefixes.sorted { $0.key < $1.key }.map { "\($0.key) on \($0.value) lines" }
            notes.append("prefixes stripped: " + stripped.joined(separator: ", "))
        }
        if let date = inferredDate {
            let from: String
            switch date.source {
            case .option: from = "--year"
            case .modificationTime: from = "the file's modification time"
            case .now: from = "today's date"
            }
            var note = date.firstYear.map { "year \($0) from \(from)" } ?? "dates from \(from)"
            if date.rollovers > 0 { note += " (rolled over \(date.rollovers)×)" }
            notes.append(note)
        }
        if let zone = assumedZone { notes.append("zone-less times read as \(zone)") }
        if repeatedMessages > 0 {
            notes.append("\(repeatedMessages) repeated message\(repeatedMessages == 1 ? "" : "s")")
        }
        if clockAnomalies > 0 { notes.append("clock went backwards \(clockAnomalies)× (kept in input order)") }
        return notes
    }
}

/// How the years (or dates) timestamps leave out were filled in.
public struct InferredDate: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// `--year`.
        case option
        /// The file's modification time: the log is taken to end near it.
        case modificationTime = "modification-time"
        /// The time of the analysis (standard input).
        case now
    }

    public var source: Source
    /// The year given to the first year-less line.
    public var firstYear: Int?
    /// Times the months wrapped at New Year.
    public var rollovers: Int
}

/// A line of the debugger or the system saying a process ended, and why.
public struct ProcessExit: Sendable, Equatable {
    public var reason: ExitReason
    public var line: Int
    public var time: Timestamp?
    /// The signal number, when the line gives one.
    public var signal: Int?
    /// The line's message (what the report quotes).
    public var evidence: String

    /// `signal 9 at line 15: "Message from debugger: Terminated due to signal 9"`.
    var summary: String {
        let what = signal.map { "\(reason.rawValue) (signal \($0))" } ?? reason.rawValue
        return "\(what) at line \(line): \"\(evidence)\""
    }
}

/// A timestamp earlier than the one before it in the same incarnation.
public struct ClockAnomaly: Sendable {
    public var line: Int
    public var time: Timestamp
    public var previousLine: Int
    public var previousTime: Timestamp
    /// How far the clock went back.
    public var backwardsMs: Double
}

/// One process incarnation (process name + pid) of one input.
public struct ProcessReport: Sendable {
    public var name: String
    public var pid: Int
    public var input: String
    public var firstLine: Int
    public var lastLine: Int
    public var firstTime: Timestamp?
    public var lastTime: Timestamp?
    /// Records the incarnation wrote.
    public var records: Int
    /// The state the log leaves it in.
    public var finalState: AppState
    public var launch: LaunchReport?
    /// In report order (for a big input, read from the temporary file as they are iterated).
    public var episodes: TimelineEpisodes {
        didSet {
            episodeTally = nil
            resumeDurations = nil
        }
    }
    /// In line order (for a big input, read from the temporary file as they are iterated).
    public var violations: TimelineViolations { didSet { violationCounts = nil } }
    /// Recognised events, in input order (for a big input, read from the temporary file as they are iterated).
    public var events: TimelineEvents
    /// The first timestamps that went backwards (at most ``ProcessTimeline/keptAnomalies``).
    public var clockAnomalies: [ClockAnomaly] = []
    /// How many timestamps went backwards in all.
    public var clockAnomalyCount = 0
    /// How the process ended, when the debugger or the system said so.
    public var exit: ProcessExit? = nil
    /// What the summaries count of ``episodes``, counted as the report was made (nil for a report made otherwise,
    /// and once they are changed): a summary then needs no pass over them.
    var episodeTally: EpisodeTally? = nil
    /// How many of ``violations`` break each rule, counted as the report was made (nil as ``episodeTally``).
    var violationCounts: [ViolationRule: Int]? = nil
    /// The durations of the timed resumes among ``episodes`` (those that have one), collected with ``episodeTally``
    /// (nil as it is), in the temporary file past a segment's worth: the aggregate's resume figures then need no
    /// pass over the episodes either.
    var resumeDurations: TimelineDurations? = nil

    /// Its episodes, violations and events: what a reporter writes one by one.
    var itemCount: Int { episodes.count + violations.count + events.count }

    /// The name as shown to people: processes without a logged name are shown by pid.
    public var displayName: String { Self.displayName(name: name, pid: pid) }

    /// `App [123]`, `App` when the log gives no pid, `pid 123` when it gives no name, `unknown process` for bare
    /// lines no app could be attributed.
    static func displayName(name: String, pid: Int) -> String {
        switch (name.isEmpty, pid < 0) {
        case (false, false):
            // Written as bytes, not interpolated: a batch's reports name each process several times, and an
            // interpolation took about 1,400 instructions a name (appending the pid's `String`, 1,600).
            var name = name
            return name.withUTF8 { bytes in
                String(unsafeUninitializedCapacity: bytes.count + 3 + JSONWriter.decimalCapacity) { text in
                    guard let start = text.baseAddress, let source = bytes.baseAddress else { return 0 }
                    start.initialize(from: source, count: bytes.count)
                    var count = bytes.count
                    (start + count).initialize(to: UInt8(ascii: " "))
                    (start + count + 1).initialize(to: UInt8(ascii: "["))
                    count += 2
                    count += JSONWriter.writeDecimal(pid, at: start + count)
                    (start + count).initialize(to: UInt8(ascii: "]"))
                    return count + 1
                }
            }
        case (false, true): return name
        case (true, false): return "pid \(pid)"
        case (true, true): return "unknown process"
        }
    }
}

/// What the summaries count of some episodes: how many, per scenario, the timed resumes and those over budget, and
/// the kills in the foreground.
struct EpisodeTally: Sendable, Equatable {
    var episodes = 0
    var scenarios: [Scenario: Int] = [:]
    var timedResumes = 0
    var resumesOverBudget = 0
    var killedInForeground = 0

    mutating func add(_ episode: Episode) {
        episodes += 1
        scenarios[episode.scenario, default: 0] += 1
        if episode.budgetMs != nil {
            timedResumes += 1
            if episode.overBudget { resumesOverBudget += 1 }
        }
        if episode.scenario == .killedInForeground { killedInForeground += 1 }
    }

    /// Adds the episodes of `process`: what was counted of them as its report was made
    /// (``ProcessReport/episodeTally``), else each of them.
    mutating func add(episodesOf process: ProcessReport) {
        if let counted = process.episodeTally {
            add(counted)
        } else {
            for episode in process.episodes { add(episode) }
        }
    }

    mutating func add(_ other: EpisodeTally) {
        episodes += other.episodes
        scenarios.merge(other.scenarios, uniquingKeysWith: +)
        timedResumes += other.timedResumes
        resumesOverBudget += other.resumesOverBudget
        killedInForeground += other.killedInForeground
    }
}

/// A recognised event on a process's timeline.
public struct TimelineEvent: Sendable {
    public var event: LifecycleEvent
    public var line: Int
    public var time: Timestamp?
    /// The state after the event (of the event's scene, for scene callbacks).
    public var state: AppState
    /// For scene callbacks: the scene's identity as logged (`""` when the log does not give it); nil otherwise.
    public var scene: String? = nil
}

/// A run of events that one user or system action caused.
public struct Episode: Sendable {
    public var scenario: Scenario
    public var startLine: Int
    public var endLine: Int
    public var start: Timestamp?
    public var end: Timestamp?
    public var confidence: Confidence
    public var causes: [String]
    /// Why the detector chose this scenario (the gap it measured, the evidence it used).
    public var evidence: String
    /// For return-to-foreground: the resume time, willEnterForeground → didBecomeActive.
    public var durationMs: Double?
    /// For episodes of a scene: its identity as logged (`""` when not logged); nil for the app delegate's.
    public var scene: String? = nil
    /// For a timed return-to-foreground: the resume budget it was judged against (nil when it could not be judged).
    public var budgetMs: Double? = nil
    /// A timed return-to-foreground that took longer than its budget.
    public var overBudget = false

    /// The duration a timed resume adds to the resume figures (those judged against a budget); nil for the others.
    var resumeDuration: Double? { budgetMs != nil ? durationMs : nil }

    /// Report order: by first line, except that a kill (which ends the incarnation) comes last even when records
    /// were reordered (ndjson ties) and its start line is smaller.
    static func inOrder(_ a: Episode, _ b: Episode) -> Bool { a.orderKey < b.orderKey }

    /// What ``inOrder(_:_:)`` compares.
    var orderKey: (Int, Int) {
        (scenario == .killedInBackground || scenario == .killedInForeground ? 1 : 0, startLine)
    }
}

/// A lifecycle event the state machine does not allow.
public struct Violation: Sendable {
    public var rule: ViolationRule
    public var input: String
    public var line: Int
    public var time: Timestamp?
    /// The state before the event.
    public var state: AppState
    public var event: LifecycleEvent
    public var expected: String
    public var message: String
}

/// The launch of an incarnation, from its first line to its first didBecomeActive.
public struct LaunchReport: Sendable {
    public var startLine: Int
    public var start: Timestamp?
    public var endLine: Int?
    public var end: Timestamp?
    /// Time to active; nil when the process never became active or the log has no times.
    public var durationMs: Double?
    public var budgetMs: Double
    /// True only for a measured launch that counts against the budget and took longer.
    public var overBudget: Bool
    /// Kept out of budget checks (passed through background, prewarmed).
    public var excluded: Bool
    public var excludedReason: String?
    /// Longer than the watchdog threshold (about 20 s, code 0x8badf00d).
    public var watchdogRisk: Bool
    public var milestones: [Milestone]
}

/// A point of a launch: the first line, didFinishLaunching, the first viewDidLoad, didBecomeActive …
public struct Milestone: Sendable {
    public var name: String
    public var line: Int
    public var time: Timestamp?
    /// Since the launch started.
    public var offsetMs: Double?
    /// Since the milestone before (the phase's duration).
    public var phaseMs: Double?
}
