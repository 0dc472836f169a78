/// Which user or system action caused an episode. The raw values are a public contract (JSON, CI assertions).
public enum Scenario: String, Sendable, Codable, CaseIterable {
    /// The candidate causes of an `interruption` of a Mac app: it lost focus and got it back.
    public static let appKitInterruptionCauses = [
        "switched to another app and back", "a system dialog, panel or menu-bar extra took focus",
    ]

    case launch
    case backgroundLaunch = "background-launch"
    case enterBackground = "enter-background"
    case interruptionToBackground = "interruption-to-background"
    case interruption
    case leftViaAlert = "left-via-alert"
    case returnToForeground = "return-to-foreground"
    case termination
    case killedInBackground = "killed-in-background"
    case killedInForeground = "killed-in-foreground"
    case memoryWarning = "memory-warning"
    case unresolvedInterruption = "unresolved-interruption"

    /// The signature the detector looks for, in the model's words (§4).
    public var signature: String {
        switch self {
        case .launch: return "new pid: didFinishLaunching … didBecomeActive"
        case .backgroundLaunch: return "new pid: didFinishLaunching → didEnterBackground, no didBecomeActive"
        case .enterBackground: return "willResignActive → didEnterBackground within the background gap"
        case .interruptionToBackground: return "willResignActive → didEnterBackground after a longer gap"
        case .interruption: return "willResignActive → didBecomeActive"
        case .leftViaAlert:
            return "inside an interruption: didBecomeActive, then soon willResignActive → didEnterBackground"
        case .returnToForeground: return "willEnterForeground → didBecomeActive"
        case .termination: return "willTerminate"
        case .killedInBackground: return "incarnation ends in background without willTerminate"
        case .killedInForeground: return "incarnation ends active or inactive without willTerminate"
        case .memoryWarning: return "didReceiveMemoryWarning"
        case .unresolvedInterruption: return "the log ends while inactive after willResignActive"
        }
    }

    /// What the user (or the system) probably did; the log cannot always tell these apart. One shared array per
    /// scenario, so the episodes of a long capture do not each hold a copy.
    public var causes: [String] { Self.causesByTag[Int(caseTag(self))] }

    /// The lists by the tag the compiler stores for each case (a case is one byte): looked up without hashing, as
    /// a dictionary keyed by the case hashed its raw value, a string, at every episode made, spilled and read back.
    private static let causesByTag: [[String]] = {
        precondition(MemoryLayout<Scenario>.size == 1, "Scenario is not stored as one byte")
        var lists = [[String]](repeating: [], count: 256)
        for scenario in allCases { lists[Int(caseTag(scenario))] = scenario.describedCauses }
        return lists
    }()

    private var describedCauses: [String] {
        switch self {
        case .launch: return ["user tapped the icon (cold or warm: text logs cannot tell)"]
        case .backgroundLaunch: return ["background fetch", "location", "push", "Bluetooth restoration"]
        case .enterBackground: return ["Home button or swipe up", "switched app", "locked the device"]
        case .interruptionToBackground:
            return [
                "answered a call", "stayed in the app switcher then left", "opened Notification Center then an app",
            ]
        case .interruption:
            return [
                "declined or ignored call", "dismissed alert", "closed Notification Center or Control Center",
                "app switcher and back",
            ]
        case .leftViaAlert: return ["tapped View or Reply on a notification alert, which opened another app"]
        case .returnToForeground:
            return ["tapped the icon while the app was in background", "unlocked the device"]
        case .termination:
            return ["system ended an app running in background", "app that does not run in background quit"]
        case .killedInBackground:
            return ["force-quit from the app switcher", "memory purge", "jetsam — normal OS behaviour"]
        case .killedInForeground: return ["crash", "watchdog kill", "debugger stop — worth a look"]
        case .memoryWarning: return ["memory pressure"]
        case .unresolvedInterruption: return ["capture stopped during an interruption"]
        }
    }

    /// Captures (``ExampleCapture`` notation) and the scenarios they must produce, in order, for the first pid.
    public var examples: [(capture: String, scenarios: [Scenario])] {
        switch self {
        case .launch:
            return [
                (
                    """
                    0.000 Root View Controller: Awake From Nib
                    0.007 App Delegate: didFinishLaunchingWithOptions
                    0.027 App Delegate: applicationDidBecomeActive
                    """, [.launch]
                )
            ]
        case .backgroundLaunch:
            return [
                (
                    """
                    0.000 application:didFinishLaunchingWithOptions:
                    0.040 applicationDidEnterBackground:
                    """, [.backgroundLaunch]
                )
            ]
        case .enterBackground:
            return [
                (
                    """
                    0.000 applicationWillResignActive
                    0.001 applicationDidEnterBackground
                    """, [.enterBackground]
                )
            ]
        case .interruptionToBackground:
            return [
                (
                    """
                    0.000 applicationWillResignActive
                    6.559 applicationDidEnterBackground
                    """, [.interruptionToBackground]
                )
            ]
        case .interruption:
            return [
                (
                    """
                    0.000 applicationWillResignActive
                    4.000 applicationDidBecomeActive
                    """, [.interruption]
                )
            ]
        case .leftViaAlert:
            return [
                (
                    """
                    0.000 applicationWillResignActive
                    3.000 applicationDidBecomeActive
                    3.604 applicationWillResignActive
                    3.612 applicationDidEnterBackground
                    """, [.leftViaAlert]
                )
            ]
        case .returnToForeground:
            return [
                (
                    """
                    0.000 applicationWillEnterForeground
                    0.005 applicationDidBecomeActive
                    """, [.returnToForeground]
                )
            ]
        case .termination:
            return [
                (
                    """
                    0.000 applicationWillResignActive
                    0.001 applicationDidEnterBackground
                    9.000 applicationWillTerminate
                    """, [.enterBackground, .termination]
                )
            ]
        case .killedInBackground:
            return [
                (
                    """
                    0.000 applicationWillResignActive
                    0.001 applicationDidEnterBackground
                    60.000 @200 application:didFinishLaunchingWithOptions:
                    """, [.enterBackground, .killedInBackground]
                )
            ]
        case .killedInForeground:
            return [
                (
                    """
                    0.000 application:didFinishLaunchingWithOptions:
                    0.100 applicationDidBecomeActive:
                    30.000 @200 application:didFinishLaunchingWithOptions:
                    """, [.launch, .killedInForeground]
                )
            ]
        case .memoryWarning:
            return [
                (
                    """
                    0.000 Received memory warning.
                    0.000 -[ZHFirstSubViewController didReceiveMemoryWarning]
                    0.001 -[ZHSecondViewController didReceiveMemoryWarning]
                    """, [.memoryWarning]
                )
            ]
        case .unresolvedInterruption:
            return [
                (
                    """
                    0.000 applicationDidBecomeActive
                    5.000 applicationWillResignActive
                    """, [.unresolvedInterruption]
                )
            ]
        }
    }
}

/// How sure the detector is of an episode's scenario id.
public enum Confidence: String, Sendable, Codable, Comparable {
    case low, medium, high

    private var rank: Int {
        switch self {
        case .low: return 0
        case .medium: return 1
        case .high: return 2
        }
    }

    public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rank < rhs.rank }
}
