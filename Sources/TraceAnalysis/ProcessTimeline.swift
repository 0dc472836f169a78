/// One process incarnation (name + pid) of one input, followed line by line.
final class ProcessTimeline {
    let name: String
    /// Whether the input's analysis holds this as the current incarnation of its name (kept by its
    /// `makeCurrent`).
    var isCurrentOfName = false
    let pid: Int
    let input: String
    let firstLine: Int
    let firstTime: Timestamp?
    private(set) var lastLine: Int
    private(set) var lastTime: Timestamp?
    private(set) var records = 0
    private(set) var events: [TimelineEvent] = []
    private(set) var clockAnomalies: [ClockAnomaly] = []
    private(set) var clockAnomalyCount = 0
    private var lastTimedLine: Int
    // Read by the live view (ProcessTimeline+Live.swift).
    private(set) var machine: LifecycleStateMachine
    private(set) var detector: ScenarioDetector
    private(set) var launch: LaunchTracker
    let options: AnalysisOptions
    /// Told of every change that can change a finding, in live mode only (nil in a batch: one nil check per event).
    private let tracking: LiveTracking?
    /// Live mode (LiveTracking): how far behind the latest timestamp its last timed record was (µs), and the latest
    /// clock its view was computed with.
    var liveLag: Int64 = 0
    var liveClockSeen: Int64?
    /// The detector as it was before an inferred kill, so the kill can be taken back if the pid logs again.
    private var detectorBeforeInferredKill: ScenarioDetector? {
        didSet { hasSavedDetector = detectorBeforeInferredKill != nil }
    }
    /// ``detectorBeforeInferredKill`` is set: tested on every record without copying the detector out.
    private var hasSavedDetector = false
    /// How the process ended, when a line of the debugger or the system said so.
    private(set) var exit: ProcessExit?
    /// One lane per scene (keyed by the identity the log gives, `""` when it gives none), in order of appearance.
    private(set) var scenes: [String: SceneLane] = [:]
    private(set) var sceneOrder: [String] = []
    /// The first app-delegate foreground callback and the first scene callback, for rule 8 (raised once).
    private var firstAppForeground: EventOccurrence?
    private var firstSceneCallback: EventOccurrence?
    private var mixedReported = false
    private(set) var otherViolations: [Violation] = []
    /// A Mac app (it logged an AppKit-only callback or spelling): no background, and no willTerminate is no kill
    /// (macOS ends apps by sudden termination).
    var isAppKit = false

    /// A scene's own machine and detector.
    struct SceneLane {
        var machine: LifecycleStateMachine
        var detector: ScenarioDetector
        let start: ScenarioDetector.Mark
    }

    init(
        name: String, pid: Int, input: String, line: Int, time: Timestamp?, options: AnalysisOptions,
        tracking: LiveTracking? = nil
    ) {
        self.name = name
        self.pid = pid
        self.input = input
        self.firstLine = line
        self.firstTime = time
        self.lastLine = line
        self.lastTime = time
        self.lastTimedLine = line
        self.options = options
        self.tracking = tracking
        self.machine = LifecycleStateMachine(input: input)
        self.detector = ScenarioDetector(options: options)
        self.launch = LaunchTracker(processStart: ScenarioDetector.Mark(line: line, time: time))
    }

    /// The state a kill is judged by: the app delegate's, or for a scene-based app the most visible scene's (the
    /// app delegate of a scene-based app never hears foreground or background callbacks).
    var state: AppState {
        guard !scenes.isEmpty, machine.state != .terminated else { return machine.state }
        let ranked: [AppState] = [.active, .inactive, .launching, .background, .notRunning]
        let states = scenes.values.map(\.machine.state)
        return ranked.first(where: states.contains) ?? machine.state
    }
    var hasEvents: Bool { !events.isEmpty }
    var displayName: String { ProcessReport.displayName(name: name, pid: pid) }

    /// Clock anomalies kept per incarnation (the rest are counted).
    static let keptAnomalies = 20

    /// Any record of this incarnation (events or not). Returns true when its time is earlier than the one before
    /// (a clock anomaly: the record stays in input order).
    @discardableResult
    func noteRecord(line: Int, time: Timestamp?) -> Bool {
        records += 1
        lastLine = line
        var anomaly = false
        if let time {
            if let previous = lastTime, time < previous {
                anomaly = true
                clockAnomalyCount += 1
                if clockAnomalies.count < Self.keptAnomalies {
                    clockAnomalies.append(
                        ClockAnomaly(
                            line: line, time: time, previousLine: lastTimedLine, previousTime: previous,
                            backwardsMs: time.milliseconds(to: previous)))
                }
            }
            lastTime = time
            lastTimedLine = line
        }
        if hasSavedDetector, let saved = detectorBeforeInferredKill {
            // The pid logs again: it was not killed after all (two processes of one name interleave).
            detector = saved
            detectorBeforeInferredKill = nil
            tracking?.changed(self)
        }
        return anomaly
    }

    /// A recognised event on the record at `line`; `scene` is the scene's identity for scene callbacks (`""` when
    /// the log does not give it).
    func handle(_ occurrence: EventOccurrence, scene: String? = nil) {
        let event = occurrence.event
        checkMixedCallbacks(occurrence)
        var sceneKey: String? = nil
        switch event.family {
        case .scene, .swiftUI:
            let key = scene ?? ""
            sceneKey = key
            if machine.state == .terminated {
                _ = machine.apply(occurrence)  // rule 7
                break
            }
            var lane =
                scenes[key]
                ?? SceneLane(
                    machine: LifecycleStateMachine(input: input, lane: .scene),
                    detector: ScenarioDetector(options: options),
                    start: scenes.isEmpty
                        ? ScenarioDetector.Mark(line: firstLine, time: firstTime) : ScenarioDetector.Mark(occurrence))
            if scenes[key] == nil { sceneOrder.append(key) }
            if let step = lane.machine.apply(occurrence) { lane.detector.handle(step, processStart: lane.start) }
            scenes[key] = lane
        default:
            if let step = machine.apply(occurrence) {
                detector.handle(step, processStart: ScenarioDetector.Mark(line: firstLine, time: firstTime))
            } else if machine.state != .terminated, event == .didReceiveMemoryWarning {
                detector.memoryWarning(occurrence)
            }
        }
        launch.observe(occurrence)
        events.append(
            TimelineEvent(
                event: event, line: occurrence.line, time: occurrence.time,
                state: sceneKey.flatMap { scenes[$0]?.machine.state } ?? machine.state, scene: sceneKey))
        tracking?.changed(self)
    }

    /// Rule 8: app-delegate foreground/background callbacks and scene callbacks in one process.
    private func checkMixedCallbacks(_ occurrence: EventOccurrence) {
        guard !mixedReported else { return }
        let event = occurrence.event
        if event.isAppForegroundCallback, firstAppForeground == nil { firstAppForeground = occurrence }
        if event.family == .scene, firstSceneCallback == nil { firstSceneCallback = occurrence }
        guard let app = firstAppForeground, let scene = firstSceneCallback else { return }
        mixedReported = true
        let earlier = app.line < scene.line ? app : scene
        otherViolations.append(
            Violation(
                .appAndSceneCallbacksMixed, at: occurrence, input: input, before: state,
                expected:
                    "scene callbacks only in a scene-based app (\(earlier.event.callbackName) at line \(earlier.line)); "
                    + "the app delegate then hears launch, memory warnings and termination"))
    }

    /// A line of the debugger or the system says this incarnation ended. The first such line counts; a kill is
    /// reported unless willTerminate was logged (then the evidence only explains the exit).
    func exited(_ occurrence: EventOccurrence, exit: ProcessExit) {
        events.append(
            TimelineEvent(event: occurrence.event, line: occurrence.line, time: occurrence.time, state: machine.state))
        tracking?.changed(self)
        guard self.exit == nil else { return }
        self.exit = exit
        if let saved = detectorBeforeInferredKill {
            detector = saved  // the evidence replaces the kill inferred from a successor
            detectorBeforeInferredKill = nil
        }
        guard machine.state != .terminated else { return }
        detector.exited(
            state: state, lastRecord: ScenarioDetector.Mark(line: lastLine, time: lastTime),
            end: ScenarioDetector.Mark(occurrence), evidence: exit.summary)
    }

    /// A later incarnation of the same name started at `line` without this one logging willTerminate.
    ///
    /// A successor whose first line is earlier in time than this one's last line (a capture pasted out of time
    /// order, as in the corpus's multi-run blog post) is no evidence of a kill, so nothing is inferred.
    func replaced(by successor: ProcessTimeline) {
        if exit != nil || isAppKit { return }  // the exit evidence already ended it; a Mac app may just quit
        if let last = lastTime, let next = successor.firstTime, next < last { return }
        tracking?.changed(self)
        detectorBeforeInferredKill = detector
        detector.killed(
            state: state, lastRecord: ScenarioDetector.Mark(line: lastLine, time: lastTime),
            successor: ScenarioDetector.Mark(line: successor.firstLine, time: successor.firstTime),
            successorName: successor.displayName)
    }

    /// What the report makes of the detectors' episodes: on a Mac, focus changes are app switches; timed resumes
    /// are judged against their budget.
    func judged(_ episodes: [Episode]) -> [Episode] {
        var episodes = episodes
        if isAppKit {
            // Losing focus and getting it back is switching apps; ending inactive is ordinary on a Mac.
            episodes = episodes.compactMap { episode in
                guard episode.scenario != .unresolvedInterruption else { return nil }
                var episode = episode
                if episode.scenario == .interruption { episode.causes = Scenario.appKitInterruptionCauses }
                return episode
            }
        }
        let resumeBudget = options.resumeBudget(for: name)
        for index in episodes.indices where episodes[index].scenario == .returnToForeground {
            // A resume that ends before it starts (the clock went backwards) measured nothing.
            guard let duration = episodes[index].durationMs, duration >= 0, let start = episodes[index].start,
                let end = episodes[index].end, Budget.tooCoarse(duration, resumeBudget, start, end) == nil
            else { continue }
            episodes[index].budgetMs = resumeBudget
            episodes[index].overBudget = duration > resumeBudget
        }
        return episodes
    }

    /// The end of the input.
    func report() -> ProcessReport {
        var finishedMachine = machine
        finishedMachine.finish()
        var finishedDetector = detector
        let ended = detectorBeforeInferredKill != nil || (exit != nil && machine.state != .terminated)
        let lastRecord = ScenarioDetector.Mark(line: lastLine, time: lastTime)
        if detectorBeforeInferredKill == nil { finishedDetector.finish(lastRecord: lastRecord) }
        var episodes = finishedDetector.episodes
        var violations = finishedMachine.violations + otherViolations
        for key in sceneOrder {
            guard var lane = scenes[key] else { continue }
            lane.machine.finish()
            violations += lane.machine.violations
            // A process that ended leaves its scenes where they were: nothing is pending any more.
            if !ended { lane.detector.finish(lastRecord: lastRecord) }
            episodes += lane.detector.episodes.map { episode in
                var episode = episode
                episode.scene = key
                return episode
            }
        }
        episodes = judged(episodes)
        return ProcessReport(
            name: name, pid: pid, input: input, firstLine: firstLine, lastLine: lastLine, firstTime: firstTime,
            lastTime: lastTime, records: records, finalState: state,
            launch: launch.report(process: name, options: options),
            episodes: episodes.sorted(by: Episode.inOrder),
            violations: violations.sorted { $0.line < $1.line }, events: events,
            clockAnomalies: clockAnomalies, clockAnomalyCount: clockAnomalyCount, exit: exit)
    }
}
