/// Turns one incarnation's steps into episodes with scenario ids (§4 of the model).
///
/// It works incrementally: each step either closes an episode or leaves one pending (an interruption
/// that may still turn into `left-via-alert`, say), so the same code can serve a live stream.
struct ScenarioDetector {
    /// The episodes closed, in the order closed; on a big input the older ones are in the input's ``SpillFile``
    /// (shared by copies of the detector, which is fine since written bytes never change).
    private var closed = SpilledList<Episode>()
    /// The last memory-warning episode (the only episode that can still change: a warning within its window
    /// extends it): its end; ``closed`` follows where it is (``SpilledList/watchLast()``), so it can be extended once
    /// written to the file too.
    private var lastMemoryWarning: (endLine: Int, end: Timestamp?)?
    private var pending: Pending = .none
    private var launchOpened = false
    /// Only the gaps it judges by, not all the options: every incarnation keeps a detector (some two) until the
    /// end of the input, so its size counts on a big one.
    private let options: Gaps

    struct Gaps {
        let alertGapMs: Double
        let backgroundGapMs: Double
        let memoryWarningWindowMs: Double
        /// ``backgroundGapMs`` as the evidence of a move to the background shows it (`2 s`).
        let backgroundGapText: String

        init(alertGapMs: Double, backgroundGapMs: Double, memoryWarningWindowMs: Double) {
            self.alertGapMs = alertGapMs
            self.backgroundGapMs = backgroundGapMs
            self.memoryWarningWindowMs = memoryWarningWindowMs
            self.backgroundGapText = DurationFormat.text(backgroundGapMs)
        }
    }

    /// A point of the log: a line and its time.
    struct Mark {
        var line: Int
        var time: Timestamp?
        init(_ occurrence: EventOccurrence) {
            line = occurrence.line
            time = occurrence.time
        }
        init(line: Int, time: Timestamp?) {
            self.line = line
            self.time = time
        }
    }

    fileprivate enum Pending {
        case none
        /// didFinishLaunching seen; the launch runs from the incarnation's first line.
        case launch(start: Mark)
        /// willResignActive seen, nothing after it yet.
        case resign(Mark)
        /// willResignActive → didBecomeActive: an interruption, unless a quick resign follows (left-via-alert).
        case resolved(resign: Mark, active: Mark)
        /// … → didBecomeActive → willResignActive soon after: left-via-alert if didEnterBackground follows.
        case alertResign(resign: Mark, active: Mark, secondResign: Mark)
        /// willEnterForeground seen, waiting for didBecomeActive.
        case foreground(Mark)
    }

    init(options: AnalysisOptions) {
        self.options = Gaps(
            alertGapMs: options.alertGapMs, backgroundGapMs: options.backgroundGapMs,
            memoryWarningWindowMs: options.memoryWarningWindowMs)
    }

    /// Every episode so far, in the order closed (sorted by ``finish(lastRecord:)``).
    var episodes: [Episode] { closed.all }

    /// Writes the episodes in memory that no later episode can come before to `file` (``SpilledList/spill(to:frontier:)``):
    /// an episode closed later starts at what is pending or later (a kill comes last whatever its start).
    mutating func spill(to file: SpillFile) throws(TraceAnalyzeError) {
        let pendingStart: Mark? =
            switch pending {
            case .none: nil
            case .launch(let start), .resign(let start), .foreground(let start): start
            case .resolved(let resign, _), .alertResign(let resign, _, _): resign
            }
        try closed.spill(to: file, frontier: (0, pendingStart?.line ?? Int.max))
    }

    /// Puts the episodes in report order (``Episode/inOrder(_:_:)``, ties in the order closed), as
    /// ``finish(lastRecord:)`` does, without closing what is pending (``SpilledList/sort()``: those in the file
    /// nearly always stay there).
    mutating func sortEpisodes() {
        // The last memory warning closed stays the last in report order (they start at their own lines), and
        // ``closed`` follows where it goes.
        closed.sort()
    }

    /// The episodes in the order closed (in report order after ``sortEpisodes()``): those written to the file are
    /// read from it as they are iterated.
    var orderedEpisodes: TimelineEpisodes { closed.sequence }

    /// Feeds one transition step; `processStart` is the incarnation's first line (where a launch starts).
    mutating func handle(_ step: Step, processStart: Mark) {
        let here = Mark(step.occurrence)
        switch step.kind {
        case .willFinishLaunching, .didFinishLaunching:
            // One launch per pid: a second didFinishLaunching is a violation, not a new launch.
            if case .launch = pending { return }
            guard !launchOpened else { return }
            flush()
            launchOpened = true
            pending = .launch(start: processStart)

        case .didBecomeActive:
            switch pending {
            case .launch(let start):
                emit(.launch, start, here, .high, evidence: "first didBecomeActive after didFinishLaunching")
                pending = .none
            case .foreground(let start):
                let duration = milliseconds(start, here)
                emit(
                    .returnToForeground, start, here, .high,
                    evidence: "willEnterForeground → didBecomeActive"
                        + (duration.map { $0 < 0 } == true ? " (the clock went backwards: not timed)" : ""),
                    duration: duration)
                pending = .none
            case .resign(let resign):
                pending = .resolved(resign: resign, active: here)
            case .alertResign(let resign, let active, let second):
                emit(.interruption, resign, active, .high, evidence: "willResignActive → didBecomeActive")
                pending = .resolved(resign: second, active: here)
            case .resolved:
                flush()
            case .none:
                if step.before == .background {
                    emit(
                        .returnToForeground, here, here, .low,
                        evidence: "didBecomeActive straight from background (willEnterForeground not logged)")
                }
            }

        case .willResignActive:
            if case .resolved(let resign, let active) = pending, let gap = milliseconds(active, here),
                gap <= options.alertGapMs
            {
                pending = .alertResign(resign: resign, active: active, secondResign: here)
                return
            }
            flush()
            pending = .resign(here)

        case .didEnterBackground:
            switch pending {
            case .launch(let start):
                emit(
                    .backgroundLaunch, start, here, .high,
                    evidence: "didFinishLaunching → didEnterBackground without didBecomeActive")
                pending = .none
            case .resign(let resign):
                emitBackground(from: resign, to: here)
                pending = .none
            case .alertResign(let resign, let active, let second):
                if let gap = milliseconds(second, here), gap > options.backgroundGapMs {
                    emit(.interruption, resign, active, .high, evidence: "willResignActive → didBecomeActive")
                    emitBackground(from: second, to: here)
                } else {
                    let quick = milliseconds(active, second).map { "\(DurationFormat.text($0)) after becoming active" }
                    emit(
                        .leftViaAlert, resign, here, .medium,
                        evidence:
                            "interruption resolved, then willResignActive → didEnterBackground \(quick ?? "right away")"
                    )
                }
                pending = .none
            default:
                flush()
                if step.before == .active {
                    emit(
                        .enterBackground, here, here, .low,
                        evidence: "didEnterBackground straight from active (willResignActive not logged)")
                }
            }

        case .willEnterForeground:
            // A scene comes on screen through willEnterForeground at launch too: the launch goes on.
            if case .launch = pending { return }
            flush()
            pending = .foreground(here)

        case .sceneDidDisconnect:
            // The scene is released (closed window, app switcher); the process lives on.
            flush()
            pending = .none

        case .willTerminate:
            if case .resign(let resign) = pending {
                emit(.termination, resign, here, .high, evidence: "willResignActive → willTerminate")
                pending = .none
            } else {
                flush()
                emit(.termination, here, here, .high, evidence: "willTerminate")
            }

        default:
            break
        }
    }

    /// A memory warning; warnings within the window are one episode.
    mutating func memoryWarning(_ occurrence: EventOccurrence) {
        let here = Mark(occurrence)
        if let last = lastMemoryWarning,
            let gap = milliseconds(Mark(line: last.endLine, time: last.end), here),
            gap <= options.memoryWarningWindowMs, gap >= 0
        {
            lastMemoryWarning = (here.line, here.time)
            closed.updateWatched {
                $0.endLine = here.line
                $0.end = here.time
            }
            return
        }
        emit(.memoryWarning, here, here, .high, evidence: "didReceiveMemoryWarning")
    }

    /// The incarnation was replaced by a new pid of the same name without willTerminate.
    mutating func killed(state: AppState, lastRecord: Mark, successor: Mark, successorName: String) {
        let evidence = "\(successorName) started at line \(successor.line) without willTerminate here"
        ended(state: state, lastRecord: lastRecord, end: successor, because: evidence, confidence: .medium)
    }

    /// A line of the debugger or the system says the process ended (`exit` at `end`), without willTerminate.
    /// In an unknown state (no transition logged) the kill is taken as in background, with low confidence.
    mutating func exited(state: AppState, lastRecord: Mark, end: Mark, evidence: String) {
        if state == .unknown || state == .notRunning {
            ended(
                state: .background, lastRecord: lastRecord, end: end,
                because: evidence + " (state unknown: no transition logged)", confidence: .low)
        } else {
            ended(state: state, lastRecord: lastRecord, end: end, because: evidence, confidence: .high)
        }
    }

    private mutating func ended(
        state: AppState, lastRecord: Mark, end: Mark, because evidence: String, confidence: Confidence
    ) {
        var start = lastRecord
        switch pending {
        case .launch(let launchStart): start = launchStart
        case .resign(let resign): start = resign
        case .alertResign(let resign, let active, let second):
            emit(.interruption, resign, active, .high, evidence: "willResignActive → didBecomeActive")
            start = second
        case .resolved, .foreground, .none: flush()
        }
        pending = .none
        switch state {
        case .background:
            emit(.killedInBackground, start, end, confidence, evidence: "ended in background; " + evidence)
        case .active, .inactive, .launching:
            emit(.killedInForeground, start, end, confidence, evidence: "ended while \(state.rawValue); " + evidence)
        case .terminated, .unknown, .notRunning:
            break
        }
    }

    /// The end of the log: an interruption still open is `unresolved-interruption`.
    mutating func finish(lastRecord: Mark) {
        switch pending {
        case .resign(let resign):
            emit(
                .unresolvedInterruption, resign, lastRecord, .high,
                evidence: "the log ends while inactive after willResignActive")
        case .alertResign(let resign, let active, let second):
            emit(.interruption, resign, active, .high, evidence: "willResignActive → didBecomeActive")
            emit(
                .unresolvedInterruption, second, lastRecord, .high,
                evidence: "the log ends while inactive after willResignActive")
        default:
            flush()
        }
        pending = .none
        sortEpisodes()
    }

    /// The log's clock (any line's timestamp, in µs since the epoch) has reached `clock`: an interruption resolved
    /// longer than the alert gap ago can no longer turn into left-via-alert, so it is decided now. Live mode runs
    /// this on a copy; the batch decides the same interruption, identically, at the next event.
    mutating func advance(to clock: Int64) {
        guard case .resolved(_, let active) = pending, let time = active.time,
            Double(clock - time.instantMicros) / 1000 > options.alertGapMs
        else { return }
        flush()
    }

    /// The clock at which ``advance(to:)`` would decide what is pending, if time can decide it (rounded down).
    var deadline: Int64? {
        guard case .resolved(_, let active) = pending, let time = active.time else { return nil }
        return time.instantMicros + Int64((options.alertGapMs * 1000).rounded(.down))
    }

    /// The last memory-warning episode while a warning at `clock` could still extend it, with the clock at which it
    /// no longer can: live mode holds it until then.
    func openMemoryWarning(at clock: Int64?) -> (index: Int, until: Int64)? {
        guard let last = lastMemoryWarning, let end = last.end, let index = closed.watched else { return nil }
        let until = end.instantMicros + Int64((options.memoryWarningWindowMs * 1000).rounded(.down))
        if let clock, Double(clock - end.instantMicros) / 1000 > options.memoryWarningWindowMs { return nil }
        return (index, until)
    }

    /// Closes whatever is pending that no longer waits for anything.
    private mutating func flush() {
        if case .resolved(let resign, let active) = pending {
            emit(.interruption, resign, active, .high, evidence: "willResignActive → didBecomeActive")
        }
        pending = .none
    }

    private mutating func emitBackground(from resign: Mark, to here: Mark) {
        let threshold = options.backgroundGapMs
        guard let gap = milliseconds(resign, here) else {
            emit(
                .enterBackground, resign, here, .low,
                evidence: "willResignActive → didEnterBackground (no timestamps to measure the gap)")
            return
        }
        // `27 ms between willResignActive and didEnterBackground (≤ 2 s)`, the episode most captures have most of:
        // the threshold formatted once per detector (``Gaps/backgroundGapText``), the string grown once (two
        // interpolations, the threshold formatted in the second, cost 29 % more; one, 16 % more).
        var evidence = DurationFormat.text(gap)
        evidence.reserveCapacity(Self.backgroundEvidenceCapacity)
        evidence += " between willResignActive and didEnterBackground ("
        evidence += gap <= threshold ? "≤ " : "> "
        evidence += options.backgroundGapText
        evidence += ")"
        if gap <= threshold {
            let confidence: Confidence = gap <= threshold * 0.75 ? .high : .medium
            emit(.enterBackground, resign, here, confidence, evidence: evidence)
        } else {
            let confidence: Confidence = gap >= threshold * 1.5 ? .high : .medium
            emit(.interruptionToBackground, resign, here, confidence, evidence: evidence)
        }
    }

    /// Room for ``emitBackground(from:to:)``'s evidence when both durations are under an hour (`59 min 59 s`); a
    /// longer one grows the string.
    private static let backgroundEvidenceCapacity = 80

    private mutating func emit(
        _ scenario: Scenario, _ start: Mark, _ end: Mark, _ confidence: Confidence, evidence: String,
        duration: Double? = nil
    ) {
        closed.append(
            Episode(
                scenario: scenario, startLine: start.line, endLine: end.line, start: start.time, end: end.time,
                confidence: confidence, causes: scenario.causes, evidence: evidence, durationMs: duration))
        if scenario == .memoryWarning {
            closed.watchLast()
            lastMemoryWarning = (end.line, end.time)
        }
    }

    private func milliseconds(_ from: Mark, _ to: Mark) -> Double? {
        guard let a = from.time, let b = to.time else { return nil }
        return a.milliseconds(to: b)
    }
}

// MARK: Writing out a dormant incarnation

// Here rather than in SpillCoding.swift: the state is private to this file.
extension ScenarioDetector {
    /// Writes every field, for a dormant incarnation written out whole (``ProcessTimeline/encode(to:)``). The
    /// episodes already in the file stay there: only their segments are written.
    func encode(to encoder: inout SpillEncoder) {
        closed.encode(to: &encoder)
        encoder.optional(lastMemoryWarning) { encoder, last in
            encoder.int(last.endLine)
            encoder.timestamp(last.end)
        }
        pending.encode(to: &encoder)
        encoder.bool(launchOpened)
        encoder.double(options.alertGapMs)
        encoder.double(options.backgroundGapMs)
        encoder.double(options.memoryWarningWindowMs)
    }

    /// The detector ``encode(to:)`` wrote; its spilled episodes are in `file`.
    init(decoding decoder: inout SpillDecoder, file: SpillFile) {
        closed = SpilledList(decoding: &decoder, file: file)
        lastMemoryWarning = decoder.optional { ($0.int(), $0.optionalTimestamp()) }
        pending = Pending(decoding: &decoder)
        launchOpened = decoder.bool()
        options = Gaps(
            alertGapMs: decoder.double(), backgroundGapMs: decoder.double(), memoryWarningWindowMs: decoder.double())
    }
}

extension ScenarioDetector.Pending {
    func encode(to encoder: inout SpillEncoder) {
        switch self {
        case .none: encoder.byte(0)
        case .launch(let start):
            encoder.byte(1)
            encoder.mark(start)
        case .resign(let resign):
            encoder.byte(2)
            encoder.mark(resign)
        case .resolved(let resign, let active):
            encoder.byte(3)
            encoder.mark(resign)
            encoder.mark(active)
        case .alertResign(let resign, let active, let secondResign):
            encoder.byte(4)
            encoder.mark(resign)
            encoder.mark(active)
            encoder.mark(secondResign)
        case .foreground(let start):
            encoder.byte(5)
            encoder.mark(start)
        }
    }

    init(decoding decoder: inout SpillDecoder) {
        switch decoder.byte() {
        case 1: self = .launch(start: decoder.mark())
        case 2: self = .resign(decoder.mark())
        case 3: self = .resolved(resign: decoder.mark(), active: decoder.mark())
        case 4: self = .alertResign(resign: decoder.mark(), active: decoder.mark(), secondResign: decoder.mark())
        case 5: self = .foreground(decoder.mark())
        default: self = .none
        }
    }
}
