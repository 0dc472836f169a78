/// The UIKit app states the state machine tracks. Raw values are stable ids used in JSON.
public enum AppState: String, Sendable, Codable, CaseIterable {
    /// Nothing seen yet and the log shows the launch (or has not shown anything).
    case notRunning = "not-running"
    /// willFinishLaunching seen, didFinishLaunching not yet.
    case launching
    case inactive
    case active
    /// In background (running or suspended: suspension is silent).
    case background
    /// willTerminate seen: the process is ending cleanly.
    case terminated
    /// The log began mid-session and no transition has been seen yet.
    case unknown

    /// Whether the user can see the app (used to tell killed-in-foreground from killed-in-background).
    public var isForeground: Bool { self == .inactive || self == .active || self == .launching }

    /// The state's place in ``allCases``: a table index, where hashing the raw value would cost a string hash.
    var caseIndex: Int {
        switch self {
        case .notRunning: 0
        case .launching: 1
        case .inactive: 2
        case .active: 3
        case .background: 4
        case .terminated: 5
        case .unknown: 6
        }
    }
}

/// One legal move of the UIKit app-delegate state machine, as data (`../shared/lifecycle-model.md` §3).
public struct Transition: Sendable, Hashable {
    public var from: [AppState]
    public var event: LifecycleEvent
    public var to: AppState
    /// What the transition means, in the model's words.
    public var meaning: String
}

extension Transition {
    /// The legal transitions. Anything else is either one of the ``ViolationRule``s or, where the model names
    /// no rule (say didBecomeActive straight from background, a missing willEnterForeground), accepted as a
    /// jump to the event's state: logs drop lines, and the model does not call that illegal.
    public static let uikit: [Transition] = [
        Transition(
            from: [.notRunning, .unknown], event: .willFinishLaunching, to: .launching,
            meaning: "launch begins"),
        Transition(
            from: [.notRunning, .launching, .unknown], event: .didFinishLaunching, to: .inactive,
            meaning: "not running → inactive"),
        Transition(from: [.inactive, .unknown], event: .didBecomeActive, to: .active, meaning: "inactive → active"),
        Transition(from: [.active, .unknown], event: .willResignActive, to: .inactive, meaning: "active → inactive"),
        Transition(
            from: [.inactive, .unknown], event: .didEnterBackground, to: .background,
            meaning: "inactive → background (or a launch into background)"),
        Transition(
            from: [.background, .unknown], event: .willEnterForeground, to: .inactive,
            meaning: "background → inactive, didBecomeActive must follow"),
        Transition(
            from: [.background, .inactive, .active, .unknown], event: .willTerminate, to: .terminated,
            meaning: "→ not running, the only clean exit"),
    ]

    /// The state an event leads to when it is seen out of order (mid-session start, violations, jumps).
    public static func target(of event: LifecycleEvent) -> AppState? {
        switch event {
        case .willFinishLaunching: return .launching
        case .didFinishLaunching, .willResignActive, .willEnterForeground: return .inactive
        case .didBecomeActive: return .active
        case .didEnterBackground: return .background
        case .willTerminate: return .terminated
        default: return nil
        }
    }
}
