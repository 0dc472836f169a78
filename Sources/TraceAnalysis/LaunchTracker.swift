/// Measures one incarnation's launch: first line → first didBecomeActive, with milestones on the way (§5).
struct LaunchTracker {
    private let processStart: ScenarioDetector.Mark
    /// At most one of each name (a handful): looked up by scanning, as a set of the names would cost more memory
    /// than they do, kept for every incarnation until the end of the input.
    private var milestones: [Milestone] = []
    private var launchSeen = false
    private var passedThroughBackground = false
    private var active: ScenarioDetector.Mark?
    private var finishLaunching: ScenarioDetector.Mark?
    /// Still collecting milestones (until the first transition after didBecomeActive).
    private var open = true

    /// View-controller milestones a launch reports, first occurrence of each.
    static let milestoneEvents: Set<LifecycleEvent> = [
        .awakeFromNib, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear,
    ]

    init(processStart: ScenarioDetector.Mark) { self.processStart = processStart }

    /// Feeds every recognised event of the incarnation, in order.
    mutating func observe(_ occurrence: EventOccurrence) {
        guard open else { return }
        // A scene's callbacks count as the app's (sceneDidBecomeActive ends a launch like didBecomeActive).
        let event = occurrence.event.appDelegateEquivalent ?? occurrence.event
        let mark = ScenarioDetector.Mark(occurrence)
        switch event {
        case .sceneWillConnect:
            launchSeen = true
            add("scene-will-connect", mark)
        case .willFinishLaunching, .didFinishLaunching:
            if launchSeen, event == .didFinishLaunching, hasMilestone(event.rawValue) { open = false; return }
            launchSeen = true
            if finishLaunching == nil || event == .didFinishLaunching { finishLaunching = mark }
            add(event.rawValue, mark)
        case .didEnterBackground:
            guard launchSeen else { return }
            if active == nil { passedThroughBackground = true } else { open = false }
        case .didBecomeActive:
            guard launchSeen else { return }
            if active == nil {
                active = mark
                add(event.rawValue, mark)
            } else {
                open = false
            }
        case _ where LaunchTracker.milestoneEvents.contains(event):
            // Milestones count until the first transition after didBecomeActive (viewDidAppear often follows it).
            add("first-" + event.rawValue, mark)
        case _ where event.isTransition || event.family == .scene:
            if active != nil { open = false }
        default:
            break
        }
    }

    private func hasMilestone(_ name: String) -> Bool { milestones.contains { $0.name == name } }

    private mutating func add(_ name: String, _ mark: ScenarioDetector.Mark) {
        guard !hasMilestone(name) else { return }
        // Offsets and phases are computed once, in report(), after the first-line milestone is known.
        milestones.append(Milestone(name: name, line: mark.line, time: mark.time, offsetMs: nil, phaseMs: nil))
    }

    /// The launch report, or nil when the log does not show this incarnation's launch.
    func report(process: String, options: AnalysisOptions) -> LaunchReport? {
        guard launchSeen else { return nil }
        var points = milestones
        if points.first?.line != processStart.line {
            points.insert(
                Milestone(
                    name: "first-line", line: processStart.line, time: processStart.time, offsetMs: 0, phaseMs: nil),
                at: 0)
        }
        points.sort { $0.line < $1.line }
        for index in points.indices {
            points[index].offsetMs = sinceStart(points[index].time)
            if index > 0, let a = points[index - 1].time, let b = points[index].time {
                points[index].phaseMs = a.milliseconds(to: b)
            }
        }
        let duration = sinceStart(active?.time)
        var reason: String? = nil
        if let duration, duration < 0 {
            reason = "the clock went backwards during the launch"
        } else if passedThroughBackground {
            reason = "launched into background first"
        } else if let gap = sinceStart(finishLaunching?.time), gap > options.prewarmGapMs {
            reason = "prewarmed: first line \(DurationFormat.text(gap)) before didFinishLaunching"
        }
        let budget = options.launchBudget(for: process)
        if reason == nil, let duration, let start = processStart.time, let end = active?.time {
            reason = Budget.tooCoarse(duration, budget, start, end)
        }
        let excluded = reason != nil
        let over = !excluded && (duration.map { $0 > budget } ?? false)
        return LaunchReport(
            startLine: processStart.line, start: processStart.time, endLine: active?.line, end: active?.time,
            durationMs: duration, budgetMs: budget, overBudget: over, excluded: excluded, excludedReason: reason,
            watchdogRisk: !excluded && (duration.map { $0 > options.watchdog(for: process) } ?? false),
            milestones: points)
    }

    /// Milliseconds from the incarnation's first line to `time`, when both are known.
    private func sinceStart(_ time: Timestamp?) -> Double? {
        guard let start = processStart.time, let time else { return nil }
        return start.milliseconds(to: time)
    }
}

/// Judging a measured duration against a budget.
enum Budget {
    /// Why whole-second timestamps (syslog) cannot judge `duration` against `budget` (they cannot tell 0.3 s from
    /// 0.9 s), or nil when they can.
    static func tooCoarse(_ duration: Double, _ budget: Double, _ start: Timestamp, _ end: Timestamp) -> String? {
        let resolution = max(start.resolutionMs, end.resolutionMs)
        guard resolution > 1, duration - resolution <= budget, duration + resolution > budget else { return nil }
        return "timestamps too coarse (\(DurationFormat.text(resolution))) to check the budget"
    }
}

// MARK: Writing out a dormant incarnation

// Here rather than in SpillCoding.swift: the state is private to this file.
extension LaunchTracker {
    /// Writes every field, for a dormant incarnation written out whole (``ProcessTimeline/encode(to:)``).
    func encode(to encoder: inout SpillEncoder) {
        encoder.mark(processStart)
        encoder.array(milestones) { $0.milestone($1) }
        encoder.bool(launchSeen)
        encoder.bool(passedThroughBackground)
        encoder.optional(active) { $0.mark($1) }
        encoder.optional(finishLaunching) { $0.mark($1) }
        encoder.bool(open)
    }

    /// The tracker ``encode(to:)`` wrote.
    init(decoding decoder: inout SpillDecoder) {
        processStart = decoder.mark()
        milestones = decoder.array { $0.milestone() }
        launchSeen = decoder.bool()
        passedThroughBackground = decoder.bool()
        active = decoder.optional { $0.mark() }
        finishLaunching = decoder.optional { $0.mark() }
        open = decoder.bool()
    }
}
