/// One process incarnation (name + pid) of one input, followed line by line.
///
/// A system log names thousands of processes that never log a lifecycle event; each costs only the fields kept
/// for every record (lines, times, clock anomalies). The state machines, detectors and launch tracker
/// (``Lifecycle``) are made on the incarnation's first lifecycle event or exit line.
final class ProcessTimeline {
    let name: String
    /// Whether the input's analysis holds this as the current incarnation of its name (kept by its
    /// `makeCurrent`).
    var isCurrentOfName = false
    /// Its place among the input's incarnations (set by ``Incarnations``, not written out with it).
    var position: UInt32 = 0
    let pid: Int
    let input: String
    let firstLine: Int
    let firstTime: Timestamp?
    // Written for every record of the process: not checked for exclusive access at run time (only
    // ``noteRecord(line:time:)`` writes them, never while another access to them is open).
    @exclusivity(unchecked) private(set) var lastLine: Int
    @exclusivity(unchecked) private(set) var lastTime: Timestamp?
    @exclusivity(unchecked) private(set) var records = 0
    /// The events since the last spill; older ones are in ``spilledEvents`` (a big input, see ``Shared``).
    private var recentEvents: [TimelineEvent] = []
    private var spilledEvents: [SpillFile.Segment] = []
    private var eventCount = 0
    /// Listed in ``Shared/unspilled``: it has history in memory that a spill would write out.
    private var isUnspilled = false
    private(set) var clockAnomalies: [ClockAnomaly] = []
    private(set) var clockAnomalyCount = 0
    @exclusivity(unchecked) private var lastTimedLine: Int
    /// The options, shared by every incarnation of the input.
    private let shared: Shared
    var options: AnalysisOptions { shared.options }
    /// The lifecycle part; nil until the first event or exit line (then ``hasEvents`` is true too).
    private(set) var made: Lifecycle?
    /// ``Lifecycle/detectorBeforeInferredKill`` is set: tested on every record without reaching into ``made``.
    private var hasSavedDetector = false
    /// A Mac app (it logged an AppKit-only callback or spelling): no background, and no willTerminate is no kill
    /// (macOS ends apps by sudden termination).
    var isAppKit = false

    /// What every incarnation of one input shares.
    final class Shared {
        let options: AnalysisOptions
        /// Told of every change that can change a finding, in live mode only (nil in a batch: one nil check per
        /// event).
        let tracking: LiveTracking?
        /// Past this estimate of history kept in memory (bytes), the input's incarnations write their events and
        /// closed episodes to ``file`` and read them back for the report, so memory stays bounded on big inputs.
        /// Never in live mode, which looks at every episode again on each change.
        let spillThreshold: Int
        /// The estimate since the last spill.
        private var keptBytes = 0
        /// Incarnations with history in memory since the last spill.
        private var unspilled: [ProcessTimeline] = []
        /// Whether history was spilled (then the reports are too).
        private(set) var didSpill = false
        private var made: SpillFile?
        /// Why the file could not be made or written, if so: spilling stops and the rest stays in memory.
        private(set) var error: TraceAnalyzeError?

        init(options: AnalysisOptions, tracking: LiveTracking? = nil) {
            self.options = options
            self.tracking = tracking
            self.spillThreshold = tracking == nil ? options.spillThreshold : .max
        }

        /// The input's file, made on first use; nil (and ``error`` set) when it cannot be.
        func file() -> SpillFile? {
            if let made { return made }
            guard error == nil else { return nil }
            do {
                made = try SpillFile(folder: options.spillFolder)
            } catch {
                self.error = error
            }
            return made
        }

        /// `timeline` keeps one more event (and perhaps an episode) in memory.
        func kept(_ timeline: ProcessTimeline) {
            // Live mode (no threshold) and a file that failed keep everything in memory: nothing to track.
            guard spillThreshold != .max, error == nil else { return }
            if !timeline.isUnspilled {
                timeline.isUnspilled = true
                unspilled.append(timeline)
            }
            keptBytes += ProcessTimeline.bytesPerEvent
            if keptBytes > spillThreshold { spill() }
        }

        /// Writes the history of every incarnation that has some in memory.
        private func spill() {
            guard let file = file() else { return }
            didSpill = true
            do {
                for timeline in unspilled {
                    try timeline.spillHistory(to: file)
                    timeline.isUnspilled = false
                }
                unspilled = []
            } catch {
                self.error = error
            }
            keptBytes = 0
        }

        /// The file failed: spilling stops and the rest stays in memory.
        func failed(_ error: TraceAnalyzeError) {
            if self.error == nil { self.error = error }
        }

        /// The end of the input: the incarnations are let go one by one as their reports are made.
        func release() { unspilled = [] }

        /// Writes `timeline` out whole, its history first (``ProcessTimeline/encode(to:)``), so it can leave memory
        /// (a dormant incarnation, see ``Incarnations``); nil when the file cannot take it: then it stays in
        /// memory, whole, and ``error`` says why. Call ``forgetWrittenOut()`` after a batch.
        func writeOut(_ timeline: ProcessTimeline) -> SpillFile.Segment? {
            guard let file = file() else { return nil }
            do {
                try timeline.spillHistory(to: file)
                // It has no history left in memory: a later spill has nothing to write for it.
                timeline.isUnspilled = false
                var encoder = SpillEncoder()
                timeline.encode(to: &encoder)
                return try file.append(encoder.bytes)
            } catch {
                self.error = error
                return nil
            }
        }

        /// Lets go of the incarnations ``writeOut(_:)`` wrote, listed for a spill of their history.
        func forgetWrittenOut() { unspilled.removeAll { !$0.isUnspilled } }

        /// The incarnation ``writeOut(_:)`` wrote at `segment`, in memory again.
        func readBack(_ segment: SpillFile.Segment) -> ProcessTimeline {
            // Something was written, so the file was made.
            guard let file = made else { preconditionFailure("an incarnation was written out without a file") }
            var decoder = SpillDecoder(file.read(segment))
            return ProcessTimeline(decoding: &decoder, shared: self, file: file)
        }
    }

    /// What one event costs in memory, at most: the event, the episode it may close, the violation it may raise.
    static let bytesPerEvent =
        MemoryLayout<TimelineEvent>.stride + MemoryLayout<Episode>.stride + MemoryLayout<Violation>.stride

    /// About what a report holds in memory (the spill threshold's measure).
    static func estimatedBytes(of report: ProcessReport) -> Int {
        MemoryLayout<ProcessReport>.stride + report.events.inMemoryCount * MemoryLayout<TimelineEvent>.stride
            + report.episodes.inMemoryCount * MemoryLayout<Episode>.stride
            + report.violations.inMemoryCount * MemoryLayout<Violation>.stride
    }

    /// Writes the events and closed episodes kept in memory to `file`. What is written is dropped from memory only
    /// once written, so a failure leaves everything in one place or the other.
    private func spillHistory(to file: SpillFile) throws(TraceAnalyzeError) {
        if !recentEvents.isEmpty {
            var encoder = SpillEncoder()
            encoder.array(recentEvents) { $0.event($1) }
            spilledEvents.append(try file.append(encoder.bytes))
            recentEvents = []
        }
        guard let made else { return }
        try made.machine.spill(to: file)
        try made.detector.spill(to: file)
        // The saved detector shares the episodes closed before the kill: written again, they leave memory too.
        try made.detectorBeforeInferredKill?.spill(to: file)
        for key in made.sceneOrder {
            try made.scenes[key]?.machine.spill(to: file)
            try made.scenes[key]?.detector.spill(to: file)
        }
    }

    /// Every event, in input order: those written to the file stay there (read as they are iterated).
    var events: TimelineEvents {
        guard !spilledEvents.isEmpty, let file = shared.file() else { return TimelineEvents(recentEvents) }
        return TimelineEvents(file: file, segments: spilledEvents, count: eventCount, tail: recentEvents)
    }

    /// Adds an event to the history.
    private func append(_ event: TimelineEvent) {
        recentEvents.append(event)
        eventCount += 1
        shared.kept(self)
    }

    private var tracking: LiveTracking? { shared.tracking }
    /// Live mode (LiveTracking): how far behind the latest timestamp its last timed record was (µs), and the latest
    /// clock its view was computed with.
    var liveLag: Int64 = 0
    var liveClockSeen: Int64?

    /// The state an incarnation with lifecycle events carries: the app delegate's machine and detector, the launch,
    /// the scenes, the exit and rule 8.
    final class Lifecycle {
        var machine: LifecycleStateMachine
        var detector: ScenarioDetector
        var launch: LaunchTracker
        /// The detector as it was before an inferred kill, so the kill can be taken back if the pid logs again.
        var detectorBeforeInferredKill: ScenarioDetector?
        /// How the process ended, when a line of the debugger or the system said so.
        var exit: ProcessExit?
        /// One lane per scene (keyed by the identity the log gives, `""` when it gives none), in order of appearance.
        var scenes: [String: SceneLane] = [:]
        var sceneOrder: [String] = []
        /// The first app-delegate foreground callback and the first scene callback, for rule 8 (raised once).
        var firstAppForeground: EventOccurrence?
        var firstSceneCallback: EventOccurrence?
        var mixedReported = false
        var otherViolations: [Violation] = []

        init(input: String, options: AnalysisOptions, start: ScenarioDetector.Mark) {
            machine = LifecycleStateMachine(input: input)
            detector = ScenarioDetector(options: options)
            launch = LaunchTracker(processStart: start)
        }

        /// The state ``encode(to:)`` wrote; the detectors' spilled episodes are in `file`.
        init(decoding decoder: inout SpillDecoder, file: SpillFile) {
            machine = LifecycleStateMachine(decoding: &decoder, file: file)
            detector = ScenarioDetector(decoding: &decoder, file: file)
            launch = LaunchTracker(decoding: &decoder)
            detectorBeforeInferredKill = decoder.optional { ScenarioDetector(decoding: &$0, file: file) }
            exit = decoder.optional { $0.exit() }
            for (key, lane) in decoder.array({ ($0.string(), SceneLane(decoding: &$0, file: file)) }) {
                scenes[key] = lane
            }
            sceneOrder = decoder.array { $0.string() }
            firstAppForeground = decoder.optional { $0.occurrence() }
            firstSceneCallback = decoder.optional { $0.occurrence() }
            mixedReported = decoder.bool()
            otherViolations = decoder.array { $0.violation() }
        }

        /// Writes every field, for a dormant incarnation written out whole.
        func encode(to encoder: inout SpillEncoder) {
            machine.encode(to: &encoder)
            detector.encode(to: &encoder)
            launch.encode(to: &encoder)
            encoder.optional(detectorBeforeInferredKill) { $1.encode(to: &$0) }
            encoder.optional(exit) { $0.exit($1) }
            // Sorted, so equal states write equal bytes.
            encoder.array(scenes.sorted { $0.key < $1.key }) { encoder, entry in
                encoder.string(entry.key)
                entry.value.encode(to: &encoder)
            }
            encoder.array(sceneOrder) { $0.string($1) }
            encoder.optional(firstAppForeground) { $0.occurrence($1) }
            encoder.optional(firstSceneCallback) { $0.occurrence($1) }
            encoder.bool(mixedReported)
            encoder.array(otherViolations) { $0.violation($1) }
        }
    }

    /// A scene's own machine and detector.
    struct SceneLane {
        var machine: LifecycleStateMachine
        var detector: ScenarioDetector
        let start: ScenarioDetector.Mark

        init(machine: LifecycleStateMachine, detector: ScenarioDetector, start: ScenarioDetector.Mark) {
            self.machine = machine
            self.detector = detector
            self.start = start
        }

        /// The lane ``encode(to:)`` wrote.
        init(decoding decoder: inout SpillDecoder, file: SpillFile) {
            machine = LifecycleStateMachine(decoding: &decoder, file: file)
            detector = ScenarioDetector(decoding: &decoder, file: file)
            start = decoder.mark()
        }

        func encode(to encoder: inout SpillEncoder) {
            machine.encode(to: &encoder)
            detector.encode(to: &encoder)
            encoder.mark(start)
        }
    }

    init(name: String, pid: Int, input: String, line: Int, time: Timestamp?, shared: Shared) {
        self.name = name
        self.pid = pid
        self.input = input
        self.firstLine = line
        self.firstTime = time
        self.lastLine = line
        self.lastTime = time
        self.lastTimedLine = line
        self.shared = shared
    }

    /// The lifecycle part, made on first use (it starts where the incarnation's first line is, as it would have
    /// had it been made with the incarnation).
    private var life: Lifecycle {
        if let made { return made }
        let life = Lifecycle(
            input: input, options: options, start: ScenarioDetector.Mark(line: firstLine, time: firstTime))
        made = life
        return life
    }

    /// Keeps (or drops) the detector an inferred kill can be taken back to.
    private func saveDetector(_ detector: ScenarioDetector?) {
        life.detectorBeforeInferredKill = detector
        hasSavedDetector = detector != nil
    }

    /// The state a kill is judged by: the app delegate's, or for a scene-based app the most visible scene's (the
    /// app delegate of a scene-based app never hears foreground or background callbacks).
    var state: AppState {
        guard let made else { return .unknown }
        guard !made.scenes.isEmpty, made.machine.state != .terminated else { return made.machine.state }
        let ranked: [AppState] = [.active, .inactive, .launching, .background, .notRunning]
        let states = made.scenes.values.map(\.machine.state)
        return ranked.first(where: states.contains) ?? made.machine.state
    }
    var hasEvents: Bool { eventCount > 0 }
    var displayName: String { ProcessReport.displayName(name: name, pid: pid) }

    /// Clock anomalies kept per incarnation (the rest are counted).
    static let keptAnomalies = 20

    /// Any record of this incarnation (events or not). Returns true when its time is earlier than the one before
    /// (a clock anomaly: the record stays in input order).
    /// (Every record of a capture comes here: the rare cases are out of line, so the frame stays small.)
    @discardableResult
    @inline(__always)
    func noteRecord(line: Int, time: Timestamp?) -> Bool {
        records &+= 1  // at most one per line
        lastLine = line
        var anomaly = false
        if let time {
            if let previous = lastTime, time < previous {
                anomaly = true
                noteClockAnomaly(line: line, time: time, previous: previous)
            }
            lastTime = time
            lastTimedLine = line
        }
        if hasSavedDetector { takeBackInferredKill() }
        return anomaly
    }

    /// ``noteRecord(line:time:)`` for `count` more records up to `line`, the last at `time`, after one noted at or
    /// before each of them in time (no clock anomaly among them, and nothing left to take back).
    @inline(__always)
    func noteRecords(_ count: Int, line: Int, time: Timestamp) {
        records &+= count
        lastLine = line
        lastTime = time
        lastTimedLine = line
    }

    /// A record at `line` earlier than the one before (`previous`, at ``lastTimedLine``).
    @inline(never)
    private func noteClockAnomaly(line: Int, time: Timestamp, previous: Timestamp) {
        clockAnomalyCount += 1
        if clockAnomalies.count < Self.keptAnomalies {
            clockAnomalies.append(
                ClockAnomaly(
                    line: line, time: time, previousLine: lastTimedLine, previousTime: previous,
                    backwardsMs: time.milliseconds(to: previous)))
        }
    }

    /// The pid logs again after a kill was inferred from its successor: it was not killed after all (two processes
    /// of one name interleave).
    @inline(never)
    private func takeBackInferredKill() {
        guard let made, let saved = made.detectorBeforeInferredKill else { return }
        made.detector = saved
        saveDetector(nil)
        tracking?.changed(self)
    }

    /// A recognised event on the record at `line`; `scene` is the scene's identity for scene callbacks (`""` when
    /// the log does not give it).
    func handle(_ occurrence: EventOccurrence, scene: String? = nil) {
        let life = self.life
        let event = occurrence.event
        checkMixedCallbacks(occurrence)
        var sceneKey: String? = nil
        switch event.family {
        case .scene, .swiftUI:
            let key = scene ?? ""
            sceneKey = key
            if life.machine.state == .terminated {
                _ = life.machine.apply(occurrence)  // rule 7
                break
            }
            var lane =
                life.scenes[key]
                ?? SceneLane(
                    machine: LifecycleStateMachine(input: input, lane: .scene),
                    detector: ScenarioDetector(options: options),
                    start: life.scenes.isEmpty
                        ? ScenarioDetector.Mark(line: firstLine, time: firstTime) : ScenarioDetector.Mark(occurrence))
            if life.scenes[key] == nil { life.sceneOrder.append(key) }
            if let step = lane.machine.apply(occurrence) { lane.detector.handle(step, processStart: lane.start) }
            life.scenes[key] = lane
        default:
            if let step = life.machine.apply(occurrence) {
                life.detector.handle(step, processStart: ScenarioDetector.Mark(line: firstLine, time: firstTime))
            } else if life.machine.state != .terminated, event == .didReceiveMemoryWarning {
                life.detector.memoryWarning(occurrence)
            }
        }
        life.launch.observe(occurrence)
        append(
            TimelineEvent(
                event: event, line: occurrence.line, time: occurrence.time,
                state: sceneKey.flatMap { life.scenes[$0]?.machine.state } ?? life.machine.state, scene: sceneKey))
        tracking?.changed(self)
    }

    /// Rule 8: app-delegate foreground/background callbacks and scene callbacks in one process.
    private func checkMixedCallbacks(_ occurrence: EventOccurrence) {
        let life = self.life
        guard !life.mixedReported else { return }
        let event = occurrence.event
        if event.isAppForegroundCallback, life.firstAppForeground == nil { life.firstAppForeground = occurrence }
        if event.family == .scene, life.firstSceneCallback == nil { life.firstSceneCallback = occurrence }
        guard let app = life.firstAppForeground, let scene = life.firstSceneCallback else { return }
        life.mixedReported = true
        let earlier = app.line < scene.line ? app : scene
        life.otherViolations.append(
            Violation(
                .appAndSceneCallbacksMixed, at: occurrence, input: input, before: state,
                expected:
                    "scene callbacks only in a scene-based app (\(earlier.event.callbackName) at line \(earlier.line)); "
                    + "the app delegate then hears launch, memory warnings and termination"))
    }

    /// A line of the debugger or the system says this incarnation ended. The first such line counts; a kill is
    /// reported unless willTerminate was logged (then the evidence only explains the exit).
    func exited(_ occurrence: EventOccurrence, exit: ProcessExit) {
        let life = self.life
        append(
            TimelineEvent(
                event: occurrence.event, line: occurrence.line, time: occurrence.time, state: life.machine.state))
        tracking?.changed(self)
        guard life.exit == nil else { return }
        life.exit = exit
        if let saved = life.detectorBeforeInferredKill {
            life.detector = saved  // the evidence replaces the kill inferred from a successor
            saveDetector(nil)
        }
        guard life.machine.state != .terminated else { return }
        life.detector.exited(
            state: state, lastRecord: ScenarioDetector.Mark(line: lastLine, time: lastTime),
            end: ScenarioDetector.Mark(occurrence), evidence: exit.summary)
    }

    /// A later incarnation of the same name started at `line` without this one logging willTerminate.
    ///
    /// A successor whose first line is earlier in time than this one's last line (a capture pasted out of time
    /// order, as in the corpus's multi-run blog post) is no evidence of a kill, so nothing is inferred.
    func replaced(by successor: ProcessTimeline) {
        // Without a lifecycle event there is nothing to end: the kill would be taken back by the incarnation's next
        // record or exit line, the only ways it can get an event, so it is not inferred at all.
        guard let made else { return }
        if made.exit != nil || isAppKit { return }  // the exit evidence already ended it; a Mac app may just quit
        if let last = lastTime, let next = successor.firstTime, next < last { return }
        tracking?.changed(self)
        saveDetector(made.detector)
        made.detector.killed(
            state: state, lastRecord: ScenarioDetector.Mark(line: lastLine, time: lastTime),
            successor: ScenarioDetector.Mark(line: successor.firstLine, time: successor.firstTime),
            successorName: successor.displayName)
    }

    /// The episodes as the report gives them: a Mac app's interruptions are app switches, and each resume is
    /// judged against its budget. Live mode judges its view the same way.
    func judged(_ episodes: [Episode]) -> [Episode] {
        let resumeBudget = options.resumeBudget(for: name)
        return episodes.compactMap { judged($0, resumeBudget: resumeBudget) }
    }

    /// One episode as the report gives it (nil: a Mac app's unresolved interruption, left out).
    private func judged(_ episode: Episode, resumeBudget: Double) -> Episode? {
        var episode = episode
        if isAppKit {
            // Losing focus and getting it back is switching apps; ending inactive is ordinary on a Mac.
            if episode.scenario == .unresolvedInterruption { return nil }
            if episode.scenario == .interruption { episode.causes = Scenario.appKitInterruptionCauses }
        }
        // A resume the clock went back during cannot be judged either.
        guard episode.scenario == .returnToForeground, let duration = episode.durationMs, duration >= 0,
            let start = episode.start, let end = episode.end,
            Budget.tooCoarse(duration, resumeBudget, start, end) == nil
        else { return episode }
        episode.budgetMs = resumeBudget
        episode.overBudget = duration > resumeBudget
        return episode
    }

    /// The end of the input: the incarnation's report. Made once, as the incarnation is let go: its lifecycle part
    /// is taken, not copied (finishing a copy would copy every lane's episodes and violations in memory).
    func report() -> ProcessReport {
        let finalState = state
        let life = self.life
        made = nil
        let ended = life.detectorBeforeInferredKill != nil || (life.exit != nil && life.machine.state != .terminated)
        life.machine.finish()
        let lastRecord = ScenarioDetector.Mark(line: lastLine, time: lastTime)
        if life.detectorBeforeInferredKill == nil {
            life.detector.finish(lastRecord: lastRecord)
        } else {
            life.detector.sortEpisodes()
        }
        // Each lane's episodes and violations in report order, merged as they are read: the app delegate's first
        // on equal keys, then the scenes' in order of appearance (as a stable sort of them all would order them).
        var episodes = [life.detector.orderedEpisodes]
        var violations = [
            life.machine.sortedViolations(),
            TimelineViolations(life.otherViolations.sorted { $0.line < $1.line }),
        ]
        var scenes: [String?] = [nil]
        for key in life.sceneOrder {
            guard var lane = life.scenes.removeValue(forKey: key) else { continue }
            lane.machine.finish()
            violations.append(lane.machine.sortedViolations())
            // A process that ended leaves its scenes where they were: nothing is pending any more.
            if ended { lane.detector.sortEpisodes() } else { lane.detector.finish(lastRecord: lastRecord) }
            episodes.append(lane.detector.orderedEpisodes)
            scenes.append(key)
        }
        let resumeBudget = options.resumeBudget(for: name)
        // The episodes and violations are counted for the summaries as they pass here, so that no pass of the
        // summaries goes over them again: decoding those in the file, copying those in memory (each copy counts
        // references to its strings and lists, shared with other threads' with two jobs).
        var tally = EpisodeTally()
        // The timed resumes' durations beside the tally, for the aggregate (in the file too, as the episodes).
        var resumeDurations = TimelineDurations.builder(
            file: episodes.contains(where: \.isSpilled) ? shared.file() : nil)
        let mergedEpisodes = TimelineEpisodes.merging(episodes, file: shared.file, failed: shared.failed) {
            lane, episode in
            var episode = episode
            if let scene = scenes[lane] { episode.scene = scene }
            guard let judged = judged(episode, resumeBudget: resumeBudget) else { return nil }
            tally.add(judged)
            if let duration = judged.resumeDuration { resumeDurations.append(duration) }
            return judged
        }
        if let error = resumeDurations.error { shared.failed(error) }
        var violationCounts: [ViolationRule: Int] = [:]
        let mergedViolations = TimelineViolations.merging(violations, file: shared.file, failed: shared.failed) {
            violationCounts[$1.rule, default: 0] += 1
            return $1
        }
        return ProcessReport(
            name: name, pid: pid, input: input, firstLine: firstLine, lastLine: lastLine, firstTime: firstTime,
            lastTime: lastTime, records: records, finalState: finalState,
            launch: life.launch.report(process: name, options: options), episodes: mergedEpisodes,
            violations: mergedViolations, events: events, clockAnomalies: clockAnomalies,
            clockAnomalyCount: clockAnomalyCount, exit: life.exit, episodeTally: tally,
            violationCounts: violationCounts, resumeDurations: resumeDurations.finish())
    }
}

// MARK: Writing out a dormant incarnation

// Here rather than in SpillCoding.swift: the state is private to this file.
extension ProcessTimeline {
    /// Writes every field but ``Shared``'s own (the options, and whether ``Shared`` lists it for a spill of its
    /// history: written out, it has none in memory), so the incarnation read back is the one written: a dormant
    /// incarnation leaves memory whole and comes back whole when its pid logs again or an exit line names it
    /// (see ``Incarnations``).
    func encode(to encoder: inout SpillEncoder) {
        encoder.string(name)
        encoder.bool(isCurrentOfName)
        encoder.int(pid)
        encoder.string(input)
        encoder.int(firstLine)
        encoder.timestamp(firstTime)
        encoder.int(lastLine)
        encoder.timestamp(lastTime)
        encoder.int(records)
        encoder.array(recentEvents) { $0.event($1) }
        encoder.array(spilledEvents) { $0.segment($1) }
        encoder.int(eventCount)
        encoder.array(clockAnomalies) { $0.clockAnomaly($1) }
        encoder.int(clockAnomalyCount)
        encoder.int(lastTimedLine)
        encoder.optional(made) { $1.encode(to: &$0) }
        encoder.bool(hasSavedDetector)
        encoder.bool(isAppKit)
        encoder.int64(liveLag)
        encoder.optional(liveClockSeen) { $0.int64($1) }
    }

    /// The incarnation ``encode(to:)`` wrote, sharing `shared`; its history is in `file`.
    convenience init(decoding decoder: inout SpillDecoder, shared: Shared, file: SpillFile) {
        let name = decoder.string()
        let isCurrentOfName = decoder.bool()
        let pid = decoder.int()
        let input = decoder.string()
        let firstLine = decoder.int()
        let firstTime = decoder.optionalTimestamp()
        self.init(name: name, pid: pid, input: input, line: firstLine, time: firstTime, shared: shared)
        self.isCurrentOfName = isCurrentOfName
        lastLine = decoder.int()
        lastTime = decoder.optionalTimestamp()
        records = decoder.int()
        recentEvents = decoder.array { $0.event() }
        spilledEvents = decoder.array { $0.segment() }
        eventCount = decoder.int()
        clockAnomalies = decoder.array { $0.clockAnomaly() }
        clockAnomalyCount = decoder.int()
        lastTimedLine = decoder.int()
        made = decoder.optional { Lifecycle(decoding: &$0, file: file) }
        hasSavedDetector = decoder.bool()
        isAppKit = decoder.bool()
        liveLag = decoder.int64()
        liveClockSeen = decoder.optional { $0.int64() }
    }
}
