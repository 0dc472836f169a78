/// A recognised event at a point of the input: what the state machine and the detectors consume.
public struct EventOccurrence: Sendable {
    public var event: LifecycleEvent
    public var line: Int
    public var time: Timestamp?
}

/// What the state machine made of one transition event.
public struct Step: Sendable {
    public var occurrence: EventOccurrence
    public var before: AppState
    public var after: AppState
    /// The app-delegate callback the event counts as (a scene's sceneDidBecomeActive is a didBecomeActive of its
    /// lane; a scene's willConnect opens it like didFinishLaunching; sceneDidDisconnect is itself).
    public var kind: LifecycleEvent
    public var event: LifecycleEvent { occurrence.event }
}

/// The UIKit state machine of one lane of a process incarnation — the app delegate, or one scene (iOS 13+, and
/// SwiftUI's scenePhase) — with violations 1–7 (§3 of the model). A scene lane runs the same transitions on the
/// scene callbacks (unattached → background → inactive ⇄ active, background ↔ inactive), without rule 1 or 7:
/// `sceneDidDisconnect` releases the scene, not the process.
struct LifecycleStateMachine {
    enum Lane { case app, scene }
    let lane: Lane
    private(set) var state: AppState = .unknown
    /// The violations raised, in the order raised; on a big input the older ones are in the input's ``SpillFile``.
    private var raised = SpilledList<Violation>()
    private(set) var didFinishLaunchingSeen = false
    /// The first transition event seen before any didFinishLaunching (rule 1 if a launch follows).
    private var firstEventBeforeLaunch: (occurrence: EventOccurrence, state: AppState)?
    /// The willEnterForeground still waiting for its didBecomeActive (rule 6).
    private var pendingForeground: EventOccurrence?
    private let input: String
    /// ``Transition/uikit`` as a table: the state a transition event leads to from a state, at
    /// ``legalIndex(_:_:)``; nil where no transition goes.
    private static let legal: [AppState?] = {
        var table = [AppState?](repeating: nil, count: AppState.allCases.count * LifecycleEvent.transitionCount)
        for transition in Transition.uikit {
            for from in transition.from {
                // Every transition is of a transition event (a test checks it).
                if let index = legalIndex(from, transition.event) { table[index] = transition.to }
            }
        }
        return table
    }()

    /// Where ``legal`` holds the state `event` leads to from `state`; nil for an event that is no transition.
    private static func legalIndex(_ state: AppState, _ event: LifecycleEvent) -> Int? {
        event.transitionIndex.map { state.caseIndex * LifecycleEvent.transitionCount + $0 }
    }

    init(input: String, lane: Lane = .app) {
        self.input = input
        self.lane = lane
    }

    /// What `event` counts as in this lane, or nil when the lane does not follow it.
    private func kind(of event: LifecycleEvent, before: AppState) -> LifecycleEvent? {
        switch lane {
        case .app:
            // A Mac app that logs only the did… callbacks: didResignActive is its way out of active.
            if event == .appKitDidResignActive { return before == .active ? .willResignActive : nil }
            return event.isTransition ? event : nil
        case .scene:
            switch event {
            case .sceneWillConnect, .sceneDidDisconnect: return event
            case .scenePhaseInactive:
                // SwiftUI says "inactive" both on the way down (from active) and up (from background).
                switch before {
                case .active: return .willResignActive
                case .background: return .willEnterForeground
                default: return .sceneWillConnect
                }
            default: return event.appDelegateEquivalent
            }
        }
    }

    /// Applies a transition event; returns the step (nil for an event after willTerminate, which only
    /// raises rule 7, and for events the lane does not follow).
    mutating func apply(_ occurrence: EventOccurrence) -> Step? {
        let before = state
        if before == .terminated {
            report(.eventAfterTerminate, occurrence, before, expected: "no event after willTerminate in the same pid")
            return nil
        }
        guard let event = kind(of: occurrence.event, before: before) else { return nil }
        switch event {
        case .sceneWillConnect:
            // Connected, not yet shown (SwiftUI's first "inactive" is already on screen).
            let after: AppState =
                [.notRunning, .unknown].contains(before)
                ? (occurrence.event == .scenePhaseInactive ? .inactive : .background) : before
            state = after
            return Step(occurrence: occurrence, before: before, after: after, kind: .didFinishLaunching)
        case .sceneDidDisconnect:
            pendingForeground = nil
            state = .notRunning
            return Step(occurrence: occurrence, before: before, after: .notRunning, kind: .sceneDidDisconnect)
        default:
            break
        }

        if let pending = pendingForeground, event == .willResignActive || event == .didEnterBackground {
            report(
                .foregroundNotActivated, occurrence, before,
                expected: "didBecomeActive after willEnterForeground (line \(pending.line))")
            pendingForeground = nil
        }

        let legalTarget = Self.legalIndex(before, event).flatMap { Self.legal[$0] }
        switch event {
        case .willFinishLaunching, .didFinishLaunching:
            if didFinishLaunchingSeen {
                // A repeated launch callback (often logged twice) says nothing about the state: keep it.
                report(.launchOrder, occurrence, before, expected: "one didFinishLaunching per process")
                return Step(occurrence: occurrence, before: before, after: before, kind: event)
            } else if let early = firstEventBeforeLaunch {
                report(
                    .launchOrder, early.occurrence, early.state,
                    expected: "didFinishLaunching (line \(occurrence.line)) before any other lifecycle event")
                firstEventBeforeLaunch = nil
            }
            if event == .didFinishLaunching { didFinishLaunchingSeen = true }
        default:
            // Before any state is known, or between willFinishLaunching and didFinishLaunching: either way the
            // event comes before didFinishLaunching.
            if lane == .app, before == .unknown || before == .launching, !didFinishLaunchingSeen,
                firstEventBeforeLaunch == nil
            {
                firstEventBeforeLaunch = (occurrence, before)
            }
            if legalTarget == nil { checkRules(event, occurrence, before) }
        }

        switch event {
        case .willEnterForeground: pendingForeground = occurrence
        case .didBecomeActive, .willTerminate: pendingForeground = nil
        default: break
        }
        let after = legalTarget ?? Transition.target(of: event) ?? before
        state = after
        return Step(occurrence: occurrence, before: before, after: after, kind: event)
    }

    /// Rules 2–5: the event (counted as `event`) is not a legal move from `before`.
    private mutating func checkRules(_ event: LifecycleEvent, _ occurrence: EventOccurrence, _ before: AppState) {
        switch event {
        case .didBecomeActive where before == .active:
            report(.activeTwice, occurrence, before, expected: "willResignActive before another didBecomeActive")
        case .willResignActive where before != .active:
            report(.resignWhileNotActive, occurrence, before, expected: "didBecomeActive before willResignActive")
        case .didEnterBackground where before == .active:
            report(
                .backgroundWithoutResign, occurrence, before, expected: "willResignActive before didEnterBackground")
        case .willEnterForeground where before != .background:
            report(
                .foregroundWhileNotBackground, occurrence, before,
                expected: "didEnterBackground before willEnterForeground")
        default:
            break  // a jump the model does not call illegal (a dropped line): follow the event
        }
    }

    /// The end of the log: a willEnterForeground still waiting breaks rule 6.
    mutating func finish() {
        if let pending = pendingForeground {
            report(
                .foregroundNotActivated, pending, .background,
                expected: "didBecomeActive after willEnterForeground before the log ends")
            pendingForeground = nil
        }
    }

    private mutating func report(
        _ rule: ViolationRule, _ occurrence: EventOccurrence, _ before: AppState, expected: String
    ) {
        raised.append(Violation(rule, at: occurrence, input: input, before: before, expected: expected))
    }

    /// Every violation so far, in memory, in the order raised.
    var violations: [Violation] { raised.all }

    /// Writes the violations in memory that no later one can come before to `file`
    /// (``SpilledList/spill(to:frontier:)``): a violation raised later is at the line of a later event or of the
    /// willEnterForeground still waiting (rule 6, which the next transition or the end decides). Rule 1 may still
    /// be raised at the line of an event before didFinishLaunching, but only if one comes, which a process the
    /// capture joined midway never logs: holding everything back for it would keep all in memory, so such a late
    /// violation sends the lane back to be sorted instead (``SpilledList/sort()``).
    mutating func spill(to file: SpillFile) throws(TraceAnalyzeError) {
        try raised.spill(to: file, frontier: (0, pendingForeground?.line ?? Int.max))
    }

    /// The violations in line order (those in the file nearly always stay there, ``SpilledList/sort()``), read
    /// from the file as they are iterated.
    mutating func sortedViolations() -> TimelineViolations {
        raised.sort()
        return raised.sequence
    }
}

extension Violation {
    /// A violation of `rule` at `occurrence`, with the message the reports print.
    init(_ rule: ViolationRule, at occurrence: EventOccurrence, input: String, before: AppState, expected: String) {
        let situation = before == .unknown ? "as the first lifecycle event" : "while \(before.rawValue)"
        self.init(
            rule: rule, input: input, line: occurrence.line, time: occurrence.time, state: before,
            event: occurrence.event, expected: expected,
            message: "\(occurrence.event.callbackName) \(situation); expected \(expected)")
    }
}

// MARK: Writing out a dormant incarnation

// Here rather than in SpillCoding.swift: the state is private to this file.
extension LifecycleStateMachine {
    /// Writes every field, for a dormant incarnation written out whole (``ProcessTimeline/encode(to:)``).
    func encode(to encoder: inout SpillEncoder) {
        encoder.bool(lane == .scene)
        encoder.enum(state)
        raised.encode(to: &encoder)
        encoder.bool(didFinishLaunchingSeen)
        encoder.optional(firstEventBeforeLaunch) { encoder, first in
            encoder.occurrence(first.occurrence)
            encoder.enum(first.state)
        }
        encoder.optional(pendingForeground) { $0.occurrence($1) }
        encoder.string(input)
    }

    /// The machine ``encode(to:)`` wrote; its spilled violations are in `file`.
    init(decoding decoder: inout SpillDecoder, file: SpillFile) {
        lane = decoder.bool() ? .scene : .app
        state = decoder.enum()
        raised = SpilledList(decoding: &decoder, file: file)
        didFinishLaunchingSeen = decoder.bool()
        firstEventBeforeLaunch = decoder.optional { ($0.occurrence(), $0.enum()) }
        pendingForeground = decoder.optional { $0.occurrence() }
        input = decoder.string()
    }
}
