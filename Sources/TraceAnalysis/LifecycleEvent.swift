/// What a log message can mean for the lifecycle. Raw values are the stable ids used in JSON and configuration.
public enum LifecycleEvent: String, Sendable, Codable, CaseIterable, Hashable {
    // UIKit app delegate
    case willFinishLaunching = "will-finish-launching"
    case didFinishLaunching = "did-finish-launching"
    case didBecomeActive = "did-become-active"
    case willResignActive = "will-resign-active"
    case didEnterBackground = "did-enter-background"
    case willEnterForeground = "will-enter-foreground"
    case willTerminate = "will-terminate"
    case didReceiveMemoryWarning = "did-receive-memory-warning"
    case protectedDataWillBecomeUnavailable = "protected-data-will-become-unavailable"
    case protectedDataDidBecomeAvailable = "protected-data-did-become-available"
    case significantTimeChange = "significant-time-change"
    // Scene delegate (iOS 13+)
    case sceneWillConnect = "scene-will-connect"
    case sceneWillEnterForeground = "scene-will-enter-foreground"
    case sceneDidBecomeActive = "scene-did-become-active"
    case sceneWillResignActive = "scene-will-resign-active"
    case sceneDidEnterBackground = "scene-did-enter-background"
    case sceneDidDisconnect = "scene-did-disconnect"
    // SwiftUI scenePhase changes
    case scenePhaseActive = "scene-phase-active"
    case scenePhaseInactive = "scene-phase-inactive"
    case scenePhaseBackground = "scene-phase-background"
    // AppKit (macOS) callbacks UIKit does not have (the shared ones are the app-delegate cases above)
    case appKitWillBecomeActive = "appkit-will-become-active"
    case appKitDidResignActive = "appkit-did-resign-active"
    case appKitWillHide = "appkit-will-hide"
    case appKitDidHide = "appkit-did-hide"
    case appKitWillUnhide = "appkit-will-unhide"
    case appKitDidUnhide = "appkit-did-unhide"
    // System notices about the app
    case sceneLifecycleRequired = "scene-lifecycle-required"
    // View controller milestones
    case awakeFromNib = "awake-from-nib"
    case loadView = "load-view"
    case viewDidLoad = "view-did-load"
    case viewWillAppear = "view-will-appear"
    case viewIsAppearing = "view-is-appearing"
    case viewDidAppear = "view-did-appear"
    case viewWillDisappear = "view-will-disappear"
    case viewDidDisappear = "view-did-disappear"
    // Exit evidence: lines of the debugger or the system saying a process ended, and why
    case exitSignal = "exit-signal"
    case exitMemory = "exit-memory"
    case exitWatchdog = "exit-watchdog"
    case exitCrash = "exit-crash"
    case exitVoluntary = "exit-voluntary"

    /// Which group of callbacks the event belongs to.
    public enum Family: String, Sendable, Codable {
        case appDelegate = "app-delegate"
        case scene
        case swiftUI = "swiftui"
        case appKit = "appkit"
        case system
        case viewController = "view-controller"
        case exitEvidence = "exit-evidence"
    }

    public var family: Family {
        switch self {
        case .awakeFromNib, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear,
            .viewWillDisappear, .viewDidDisappear:
            return .viewController
        case .exitSignal, .exitMemory, .exitWatchdog, .exitCrash, .exitVoluntary:
            return .exitEvidence
        case .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
            .sceneDidEnterBackground, .sceneDidDisconnect:
            return .scene
        case .scenePhaseActive, .scenePhaseInactive, .scenePhaseBackground:
            return .swiftUI
        case .appKitWillBecomeActive, .appKitDidResignActive, .appKitWillHide, .appKitDidHide, .appKitWillUnhide,
            .appKitDidUnhide:
            return .appKit
        case .sceneLifecycleRequired:
            return .system
        default:
            return .appDelegate
        }
    }

    /// The app-delegate callback a scene callback mirrors (scene lanes run the same rules on it).
    public var appDelegateEquivalent: LifecycleEvent? {
        switch self {
        case .sceneWillEnterForeground: return .willEnterForeground
        case .sceneDidBecomeActive, .scenePhaseActive: return .didBecomeActive
        case .sceneWillResignActive: return .willResignActive
        case .sceneDidEnterBackground, .scenePhaseBackground: return .didEnterBackground
        default: return nil
        }
    }

    /// App-delegate callbacks that a scene-based app receives through its scenes instead (rule 8).
    public var isAppForegroundCallback: Bool {
        self == .didBecomeActive || self == .willResignActive || self == .didEnterBackground
            || self == .willEnterForeground
    }

    /// For exit evidence: why the process ended.
    public var exitReason: ExitReason? {
        switch self {
        case .exitSignal: return .signal
        case .exitMemory: return .memory
        case .exitWatchdog: return .watchdog
        case .exitCrash: return .crash
        case .exitVoluntary: return .voluntary
        default: return nil
        }
    }

    /// Whether the event moves the app-delegate state machine (milestones, memory warnings and
    /// notifications about data or time do not).
    public var isTransition: Bool { transitionIndex != nil }

    /// The place of a transition event among the seven (a table index), nil for any other event.
    var transitionIndex: Int? {
        switch self {
        case .willFinishLaunching: 0
        case .didFinishLaunching: 1
        case .didBecomeActive: 2
        case .willResignActive: 3
        case .didEnterBackground: 4
        case .willEnterForeground: 5
        case .willTerminate: 6
        default: nil
        }
    }

    /// How many events ``transitionIndex`` numbers.
    static let transitionCount = 7

    /// The callback's name as an iOS engineer writes it in prose.
    public var callbackName: String {
        switch self {
        case .willFinishLaunching: return "willFinishLaunching"
        case .didFinishLaunching: return "didFinishLaunching"
        case .didBecomeActive: return "didBecomeActive"
        case .willResignActive: return "willResignActive"
        case .didEnterBackground: return "didEnterBackground"
        case .willEnterForeground: return "willEnterForeground"
        case .willTerminate: return "willTerminate"
        case .didReceiveMemoryWarning: return "didReceiveMemoryWarning"
        case .protectedDataWillBecomeUnavailable: return "protectedDataWillBecomeUnavailable"
        case .protectedDataDidBecomeAvailable: return "protectedDataDidBecomeAvailable"
        case .significantTimeChange: return "significantTimeChange"
        case .awakeFromNib: return "awakeFromNib"
        case .loadView: return "loadView"
        case .viewDidLoad: return "viewDidLoad"
        case .viewWillAppear: return "viewWillAppear"
        case .viewIsAppearing: return "viewIsAppearing"
        case .viewDidAppear: return "viewDidAppear"
        case .viewWillDisappear: return "viewWillDisappear"
        case .viewDidDisappear: return "viewDidDisappear"
        case .sceneWillConnect: return "scene(_:willConnectTo:)"
        case .sceneWillEnterForeground: return "sceneWillEnterForeground"
        case .sceneDidBecomeActive: return "sceneDidBecomeActive"
        case .sceneWillResignActive: return "sceneWillResignActive"
        case .sceneDidEnterBackground: return "sceneDidEnterBackground"
        case .sceneDidDisconnect: return "sceneDidDisconnect"
        case .scenePhaseActive: return "scenePhase .active"
        case .scenePhaseInactive: return "scenePhase .inactive"
        case .scenePhaseBackground: return "scenePhase .background"
        case .appKitWillBecomeActive: return "applicationWillBecomeActive"
        case .appKitDidResignActive: return "applicationDidResignActive"
        case .appKitWillHide: return "applicationWillHide"
        case .appKitDidHide: return "applicationDidHide"
        case .appKitWillUnhide: return "applicationWillUnhide"
        case .appKitDidUnhide: return "applicationDidUnhide"
        case .sceneLifecycleRequired: return "UIScene lifecycle required (TN3187)"
        case .exitSignal: return "exit (signal)"
        case .exitMemory: return "exit (memory)"
        case .exitWatchdog: return "exit (watchdog)"
        case .exitCrash: return "exit (crash)"
        case .exitVoluntary: return "exit (voluntary)"
        }
    }
}

/// Why a process ended, as exit evidence tells it (`exit.reason` in JSON).
public enum ExitReason: String, Sendable, Codable, CaseIterable {
    /// Killed by a signal: the debugger's stop, a force-quit from the app switcher (SIGKILL), SIGTERM.
    case signal
    /// Killed for memory: jetsam, the debugger's "Terminated due to memory issue".
    case memory
    /// Killed by the watchdog (0x8badf00d): a launch or a scene update took too long.
    case watchdog
    /// Crashed: a fatal signal of its own (SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGFPE), an abnormal exit code.
    case crash
    /// Exited by itself.
    case voluntary

    /// The reason a signal number means: crash signals are the process's own fault, the others were sent to it.
    static func forSignal(_ signal: Int?) -> ExitReason {
        guard let signal else { return .signal }
        return [4, 5, 6, 7, 8, 10, 11].contains(signal) ? .crash : .signal
    }
}
