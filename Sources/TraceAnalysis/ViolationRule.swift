/// An illegal lifecycle transition rule of the model (§3), as data with examples that run as tests.
///
/// Examples are written in the ``ExampleCapture`` notation; `↓` marks the line where the violation must land.
public enum ViolationRule: String, Sendable, Codable, CaseIterable {
    case launchOrder = "launch-order"
    case activeTwice = "active-twice"
    case resignWhileNotActive = "resign-while-not-active"
    case backgroundWithoutResign = "background-without-resign"
    case foregroundWhileNotBackground = "foreground-while-not-background"
    case foregroundNotActivated = "foreground-not-activated"
    case eventAfterTerminate = "event-after-terminate"
    case appAndSceneCallbacksMixed = "app-and-scene-callbacks-mixed"

    /// The rule's number in `lifecycle-model.md` §3.
    public var number: Int {
        switch self {
        case .launchOrder: return 1
        case .activeTwice: return 2
        case .resignWhileNotActive: return 3
        case .backgroundWithoutResign: return 4
        case .foregroundWhileNotBackground: return 5
        case .foregroundNotActivated: return 6
        case .eventAfterTerminate: return 7
        case .appAndSceneCallbacksMixed: return 8
        }
    }

    /// One-line statement of the rule.
    public var title: String {
        switch self {
        case .launchOrder: return "a lifecycle event before didFinishLaunching, or a second didFinishLaunching"
        case .activeTwice: return "didBecomeActive while already active"
        case .resignWhileNotActive: return "willResignActive while not active"
        case .backgroundWithoutResign: return "didEnterBackground straight from active (willResignActive missing)"
        case .foregroundWhileNotBackground: return "willEnterForeground while not in background"
        case .foregroundNotActivated: return "willEnterForeground not followed by didBecomeActive"
        case .eventAfterTerminate: return "an event after willTerminate in the same process"
        case .appAndSceneCallbacksMixed:
            return "app-delegate foreground/background callbacks mixed with scene callbacks in one process"
        }
    }

    /// Captures that must raise this rule at the marked line.
    public var triggeringExamples: [String] {
        switch self {
        case .launchOrder:
            return [
                """
                ↓0.000 applicationDidBecomeActive:
                0.100 applicationWillResignActive:
                0.200 application:didFinishLaunchingWithOptions:
                """,
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.050 applicationDidBecomeActive:
                ↓0.300 application:didFinishLaunchingWithOptions:
                """,
                // Between willFinishLaunching and didFinishLaunching is still before didFinishLaunching.
                """
                0.000 application:willFinishLaunchingWithOptions:
                ↓0.050 applicationDidBecomeActive:
                0.300 application:didFinishLaunchingWithOptions:
                """,
            ]
        case .activeTwice:
            return [
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.050 applicationDidBecomeActive:
                ↓0.300 applicationDidBecomeActive:
                """
            ]
        case .resignWhileNotActive:
            return [
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.050 applicationDidBecomeActive:
                1.000 applicationWillResignActive:
                ↓1.100 applicationWillResignActive:
                """,
                """
                0.000 application:didFinishLaunchingWithOptions:
                ↓0.010 applicationWillResignActive:
                """,
            ]
        case .backgroundWithoutResign:
            return [
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.050 applicationDidBecomeActive:
                ↓5.000 applicationDidEnterBackground:
                """
            ]
        case .foregroundWhileNotBackground:
            return [
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.050 applicationDidBecomeActive:
                ↓5.000 applicationWillEnterForeground:
                """
            ]
        case .foregroundNotActivated:
            return [
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.050 applicationDidBecomeActive:
                1.000 applicationWillResignActive:
                1.100 applicationDidEnterBackground:
                9.000 applicationWillEnterForeground:
                ↓9.200 applicationDidEnterBackground:
                """,
                """
                0.000 applicationDidEnterBackground:
                ↓9.000 applicationWillEnterForeground:
                """,
            ]
        case .eventAfterTerminate:
            return [
                """
                0.000 applicationWillResignActive:
                0.100 applicationDidEnterBackground:
                5.000 applicationWillTerminate:
                ↓5.100 applicationDidBecomeActive:
                """
            ]
        case .appAndSceneCallbacksMixed:
            return [
                ViolationRule.sceneLaunch + """

                    ↓0.031 applicationDidBecomeActive(_:)
                    """,
                """
                0.000 applicationWillResignActive(_:)
                ↓0.001 sceneWillResignActive(_:)
                """,
            ]
        }
    }

    /// Captures close to the rule that must not raise it.
    public var nonTriggeringExamples: [String] {
        switch self {
        case .launchOrder:
            return [
                // The log starts mid-session: the first event sets the state.
                """
                0.000 applicationWillResignActive:
                0.100 applicationDidEnterBackground:
                """,
                // View-controller milestones before didFinishLaunching are normal (seed 004).
                """
                0.000 Root View Controller: Awake From Nib
                0.007 App Delegate: didFinishLaunchingWithOptions
                0.027 App Delegate: applicationDidBecomeActive
                """,
            ]
        case .activeTwice:
            return [
                """
                0.000 applicationDidBecomeActive:
                1.000 applicationWillResignActive:
                2.000 applicationDidBecomeActive:
                """
            ]
        case .resignWhileNotActive:
            return ["0.000 applicationWillResignActive:"]
        case .backgroundWithoutResign:
            return [
                // A launch into background goes straight from didFinishLaunching to background.
                """
                0.000 application:didFinishLaunchingWithOptions:
                0.100 applicationDidEnterBackground:
                """
            ]
        case .foregroundWhileNotBackground:
            return [
                """
                0.000 applicationDidEnterBackground:
                9.000 applicationWillEnterForeground:
                9.200 applicationDidBecomeActive:
                """
            ]
        case .foregroundNotActivated:
            return [
                """
                0.000 applicationDidEnterBackground:
                9.000 applicationWillEnterForeground:
                9.200 applicationDidBecomeActive:
                12.000 applicationWillResignActive:
                """
            ]
        case .eventAfterTerminate:
            return [
                """
                0.000 applicationDidEnterBackground:
                5.000 applicationWillTerminate:
                9.000 @200 application:didFinishLaunchingWithOptions:
                """
            ]
        case .appAndSceneCallbacksMixed:
            return [
                // A scene-based app: the app delegate hears launch, memory and termination only.
                ViolationRule.sceneLaunch + """

                    5.000 applicationDidReceiveMemoryWarning(_:)
                    9.000 sceneWillResignActive(_:)
                    9.100 sceneDidDisconnect(_:)
                    9.200 applicationWillTerminate(_:)
                    """
            ]
        }
    }

    /// A scene-based app's launch, in the example notation: the app delegate, then the scene comes on screen.
    static let sceneLaunch = """
        0.000 application(_:didFinishLaunchingWithOptions:)
        0.010 scene(_:willConnectTo:options:)
        0.020 sceneWillEnterForeground(_:)
        0.030 sceneDidBecomeActive(_:)
        """
}
