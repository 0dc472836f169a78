import NativeKit

/// Live mode: analyses one input as its bytes arrive and hands each finding to a sink as soon as it is decided.
///
/// ```swift
/// let live = LiveAnalysis(analyzer: analyzer) { finding in print(LiveTextReporter().line(finding)) }
/// live.feed(bytes)                 // as they arrive: each complete line is analysed at once
/// live.caughtUp()                  // nothing more to read for now (releases records held for a tie-break)
/// live.idle(milliseconds: 2000)    // nothing arrived for 2 s: decide what waits on time
/// let report = live.finish()       // the end of the input: the batch report
/// ```
///
/// A finding is handed out once. Decisions that wait on time (an interruption that might still become
/// left-via-alert, a memory warning that a later one might extend, a launch not active yet) are taken when the
/// log's own clock — the latest timestamp of any line — passes their threshold, or after an idle pause, when the
/// clock is taken to have run on like the wall clock (see ``LiveTracking`` for processes on another clock). A finding that a later line changes or withdraws is
/// corrected explicitly (``LiveFinding/Kind/correction(previous:current:)``), never silently. The analysis itself
/// is the batch's: ``finish()`` returns the report a batch run over the same bytes gives.
public final class LiveAnalysis {
    /// The input's name in findings and the report.
    public let name: String
    private let options: AnalysisOptions
    private var input: InputAnalysis
    private let tracking = LiveTracking()
    private var splitter = LineSplitter()
    private let sink: (LiveFinding) -> Void
    /// What each incarnation has been told so far, by finding.
    private var told: [ProcessKey: [FindingKey: LiveFinding.Subject]] = [:]
    /// Incarnations whose view changes when their clock passes a time, with that time.
    private var waiting: [ProcessKey: (timeline: ProcessTimeline, deadline: Int64)] = [:]
    private var sniffed = false
    private var rejected = false
    private var report: AnalysisReport?

    private struct ProcessKey: Hashable {
        var name: String
        var pid: Int
    }

    /// One finding of one incarnation, stable while later lines change what it says.
    private enum FindingKey: Hashable {
        /// Episodes that can replace one another start on the same line of the same lane and are of one group.
        case episode(scene: String?, line: Int, group: Int, ordinal: Int)
        case violation(rule: ViolationRule, line: Int, ordinal: Int)
        case launch
    }

    /// `sink` is called on the caller's thread, from ``feed(_:)-(UnsafeRawBufferPointer)``, ``caughtUp()``,
    /// ``idle(milliseconds:)`` and ``finish()``, one finding at a time, in the order decided.
    public init(
        analyzer: Analyzer, name: String = InputSource.standardInput.name,
        sink: @escaping (LiveFinding) -> Void
    ) {
        self.name = name
        self.options = analyzer.options
        self.sink = sink
        // A live input is being written now: missing years and dates are today's.
        input = InputAnalysis(name: name, analyzer: analyzer, modified: nil, tracking: tracking)
    }

    /// Lines read so far.
    public var lineCount: Int { input.lineCount }

    /// Analyses every line `bytes` completes, handing out what each decides before reading the next.
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        guard report == nil, !rejected, !bytes.isEmpty else { return }
        if !sniffed {
            sniffed = true
            if Inflater.isGzip(bytes) {
                rejected = true
                input.fail(
                    .readFailed(
                        path: name, reason: "gzip-compressed; live mode reads text: analyse it without --follow"))
                return
            }
        }
        splitter.feed(bytes) { line, _ in
            input.consume(line)
            settle(.line)
        }
    }

    public func feed(_ bytes: [UInt8]) { bytes.withUnsafeBytes { feed($0) } }

    /// Analyses one line (its newline added).
    public func feed(line: String) { feed(Array((line + "\n").utf8)) }

    /// Nothing more can be read for now: records held back for ordering (ndjson records with equal timestamps,
    /// ordered by their mach time) are analysed, since any record tying with them would have come with them.
    public func caughtUp() {
        guard report == nil else { return }
        input.releaseHeldRecords()
        settle(.line)
    }

    /// Nothing has arrived for `elapsed` milliseconds (call it again as the pause goes on): the log's clock is taken
    /// to have run on by as much, so what waits on time is decided; lines held while the format is detected are
    /// analysed if they carry an event.
    public func idle(milliseconds elapsed: Double) {
        guard report == nil else { return }
        input.releaseHeldRecords()
        input.decideFormatOnPause()
        tracking.idle(elapsedMs: elapsed)
        settle(.idle)
    }

    /// The current file ended (it was rotated or truncated): a last line without its newline is analysed.
    public func endOfSegment() {
        guard report == nil else { return }
        splitter.finish { line, _ in
            input.consume(line)
            settle(.line)
        }
    }

    /// Reading failed; ``finish()`` reports it as the input's error (the lines before are analysed).
    public func fail(_ error: TraceAnalyzeError) { input.fail(error) }

    /// The end of the input (or an interrupt): decides what was pending as the batch does, hands out what that
    /// adds or changes, and returns the report (the one a batch run over the same bytes gives). Later calls
    /// return the same report.
    @discardableResult
    public func finish() -> AnalysisReport {
        if let report { return report }
        if !rejected {
            splitter.finish { line, _ in input.consume(line) }
        }
        input.account(bytes: splitter.byteCount, truncatedLines: splitter.truncatedLineCount)
        let (summary, processes) = input.finish()
        var reported = Set<ProcessKey>()
        for process in processes {
            let key = ProcessKey(name: process.name, pid: process.pid)
            reported.insert(key)
            reconcile(
                key, episodes: Array(process.episodes), held: [], violations: Array(process.violations),
                launch: process.launch,
                overdueMs: nil, trigger: .end)
        }
        for key in told.keys.sorted(by: { ($0.name, $0.pid) < ($1.name, $1.pid) }) where !reported.contains(key) {
            reconcile(key, episodes: [], held: [], violations: [], launch: nil, overdueMs: nil, trigger: .end)
        }
        waiting = [:]
        let report = AnalysisReport(inputs: [summary], processes: processes, options: options)
        self.report = report
        return report
    }

    // MARK: Deciding

    /// Looks at what the last step may have decided: the incarnations it changed, and those waiting on a clock
    /// it passed.
    private func settle(_ trigger: LiveFinding.Trigger) {
        let changed = tracking.takeChanged()
        for timeline in changed { review(timeline, trigger) }
        guard !waiting.isEmpty else { return }
        // A few at most: incarnations with an interruption, a memory warning or a launch still open.
        let due = waiting.values.filter { entry in
            guard let clock = tracking.clock(of: entry.timeline) else { return false }
            return clock > entry.deadline && !changed.contains { $0 === entry.timeline }
        }.sorted { $0.timeline.firstLine < $1.timeline.firstLine }
        for entry in due { review(entry.timeline, trigger == .line ? .logClock : trigger) }
    }

    private func review(_ timeline: ProcessTimeline, _ trigger: LiveFinding.Trigger) {
        let key = ProcessKey(name: timeline.name, pid: timeline.pid)
        let clock = tracking.clock(of: timeline)
        timeline.liveClockSeen = clock
        let view = timeline.liveView(clock: clock)
        reconcile(
            key, episodes: view.episodes, held: view.held, violations: view.violations, launch: view.launch,
            overdueMs: view.overdueMs, trigger: trigger)
        if let deadline = view.deadline {
            waiting[key] = (timeline, deadline)
        } else {
            waiting[key] = nil
        }
    }

    /// Hands out what differs between what the incarnation was told and what is now decided: new findings,
    /// changed ones (corrections) and findings no longer decided (withdrawn; held ones excepted), in line order.
    private func reconcile(
        _ key: ProcessKey, episodes: [Episode], held: [Episode], violations: [Violation], launch: LaunchReport?,
        overdueMs: Double?, trigger: LiveFinding.Trigger
    ) {
        var before = told[key] ?? [:]
        guard !before.isEmpty || !episodes.isEmpty || !violations.isEmpty || launch != nil else { return }
        let current = Self.keyed(episodes: episodes, violations: violations, launch: launch)
        let heldKeys = Set(Self.keyed(episodes: held, violations: [], launch: nil).map(\.0))
        var changes: [LiveFinding.Kind] = []
        var seen = Set<FindingKey>()
        for (findingKey, subject) in current {
            seen.insert(findingKey)
            if let previous = before[findingKey] {
                guard !previous.says(thesame: subject) else { continue }
                changes.append(.correction(previous: previous, current: subject))
            } else {
                changes.append(.finding(subject))
            }
            before[findingKey] = subject
        }
        var withdrawn: [LiveFinding.Subject] = []
        for (findingKey, previous) in before where !seen.contains(findingKey) && !heldKeys.contains(findingKey) {
            withdrawn.append(previous)
            before[findingKey] = nil
        }
        withdrawn.sort { ($0.line, $0.typeName) < ($1.line, $1.typeName) }
        changes += withdrawn.map { .correction(previous: $0, current: nil) }
        told[key] = before
        guard !changes.isEmpty else { return }
        let line = input.lineCount
        // Stable: the line order of what each change is about, new and changed before withdrawn on a line.
        let ordered = changes.enumerated().sorted { a, b in
            (Self.line(of: a.element), a.offset) < (Self.line(of: b.element), b.offset)
        }
        for (_, kind) in ordered {
            var elapsed: Double? = nil
            if case .launch(let report)? = Self.current(of: kind), report.endLine == nil { elapsed = overdueMs }
            sink(
                LiveFinding(
                    kind: kind, process: key.name, pid: key.pid < 0 ? nil : key.pid, input: name, line: line,
                    trigger: trigger, elapsedMs: elapsed))
        }
    }

    private static func current(of kind: LiveFinding.Kind) -> LiveFinding.Subject? {
        switch kind {
        case .finding(let subject): return subject
        case .correction(_, let current): return current
        }
    }

    private static func line(of kind: LiveFinding.Kind) -> Int {
        switch kind {
        case .finding(let subject): return subject.line
        case .correction(let previous, let current): return current?.line ?? previous.line
        }
    }

    /// Each finding with its key; findings that would share a key are told apart by their order.
    private static func keyed(episodes: [Episode], violations: [Violation], launch: LaunchReport?) -> [(
        FindingKey, LiveFinding.Subject
    )] {
        var result: [(FindingKey, LiveFinding.Subject)] = []
        var ordinals: [FindingKey: Int] = [:]
        func next(_ base: FindingKey) -> Int {
            defer { ordinals[base, default: 0] += 1 }
            return ordinals[base, default: 0]
        }
        for episode in episodes {
            let group = Self.group(of: episode.scenario)
            let base = FindingKey.episode(scene: episode.scene, line: episode.startLine, group: group, ordinal: 0)
            let key = FindingKey.episode(
                scene: episode.scene, line: episode.startLine, group: group, ordinal: next(base))
            result.append((key, .episode(episode)))
        }
        for violation in violations {
            let base = FindingKey.violation(rule: violation.rule, line: violation.line, ordinal: 0)
            let key = FindingKey.violation(rule: violation.rule, line: violation.line, ordinal: next(base))
            result.append((key, .violation(violation)))
        }
        if let launch { result.append((.launch, .launch(launch))) }
        return result
    }

    /// Scenarios that later lines can turn one into another, from the same first line: an interruption into
    /// left-via-alert (a clock that went backwards), a kill inferred from a successor into one the exit evidence
    /// tells.
    private static func group(of scenario: Scenario) -> Int {
        switch scenario {
        case .launch, .backgroundLaunch: return 0
        case .killedInBackground, .killedInForeground: return 1
        case .memoryWarning: return 2
        case .returnToForeground: return 3
        case .enterBackground, .interruptionToBackground, .interruption, .leftViaAlert, .termination,
            .unresolvedInterruption:
            return 4
        }
    }
}
