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
    public var event: LifecycleEvent { occurrence.event }
}

/// The UIKit app-delegate state machine of one process incarnation, with violations 1–7 (§3 of the model).
struct LifecycleStateMachine {
    private(set) var state: AppState = .unknown
    private(set) var violations: [Violation] = []
    private(set) var didFinishLaunchingSeen = false
    /// The first transition event seen before any didFinishLaunching (rule 1 if a launch follows).
    private var firstEventBeforeLaunch: (occurrence: EventOccurrence, state: AppState)?
    /// The willEnterForeground still waiting for its didBecomeActive (rule 6).
    private var pendingForeground: EventOccurrence?
    private let input: String
    private static let legal: [AppState: [LifecycleEvent: AppState]] = {
        var table: [AppState: [LifecycleEvent: AppState]] = [:]
        for transition in Transition.uikit {
            for from in transition.from { table[from, default: [:]][transition.event] = transition.to }
        }
        return table
    }()

    init(input: String) { self.input = input }

    /// Applies a transition event; returns the step (nil for an event after willTerminate, which only
    /// raises rule 7).
    mutating func apply(_ occurrence: EventOccurrence) -> Step? {
        let before = state
        let event = occurrence.event
        if before == .terminated {
            report(.eventAfterTerminate, occurrence, before, expected: "no event after willTerminate in the same pid")
            return nil
        }
        guard event.isTransition else { return nil }

        if let pending = pendingForeground, event == .willResignActive || event == .didEnterBackground {
            report(
                .foregroundNotActivated, occurrence, before,
                expected: "didBecomeActive after willEnterForeground (line \(pending.line))")
            pendingForeground = nil
        }

        let legalTarget = LifecycleStateMachine.legal[before]?[event]
        switch event {
        case .willFinishLaunching, .didFinishLaunching:
            if didFinishLaunchingSeen {
                // A repeated launch callback (often logged twice) says nothing about the state: keep it.
                report(.launchOrder, occurrence, before, expected: "one didFinishLaunching per process")
                return Step(occurrence: occurrence, before: before, after: before)
            } else if let early = firstEventBeforeLaunch {
                report(
                    .launchOrder, early.occurrence, early.state,
                    expected: "didFinishLaunching (line \(occurrence.line)) before any other lifecycle event")
                firstEventBeforeLaunch = nil
            }
            if event == .didFinishLaunching { didFinishLaunchingSeen = true }
        default:
            if before == .unknown, !didFinishLaunchingSeen, firstEventBeforeLaunch == nil {
                firstEventBeforeLaunch = (occurrence, before)
            }
            if legalTarget == nil { checkRules(occurrence, before) }
        }

        switch event {
        case .willEnterForeground: pendingForeground = occurrence
        case .didBecomeActive, .willTerminate: pendingForeground = nil
        default: break
        }
        let after = legalTarget ?? Transition.target(of: event) ?? before
        state = after
        return Step(occurrence: occurrence, before: before, after: after)
    }

    /// Rules 2–5: the event is not a legal move from `before`.
    private mutating func checkRules(_ occurrence: EventOccurrence, _ before: AppState) {
        switch occurrence.event {
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
        let situation = before == .unknown ? "as the first lifecycle event" : "while \(before.rawValue)"
        let message = "\(occurrence.event.callbackName) \(situation); expected \(expected)"
        violations.append(
            Violation(
                rule: rule, input: input, line: occurrence.line, time: occurrence.time, state: before,
                event: occurrence.event, expected: expected, message: message))
    }
}
