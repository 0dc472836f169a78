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
    // View controller milestones
    case awakeFromNib = "awake-from-nib"
    case loadView = "load-view"
    case viewDidLoad = "view-did-load"
    case viewWillAppear = "view-will-appear"
    case viewIsAppearing = "view-is-appearing"
    case viewDidAppear = "view-did-appear"
    case viewWillDisappear = "view-will-disappear"
    case viewDidDisappear = "view-did-disappear"

    /// Which group of callbacks the event belongs to.
    public enum Family: String, Sendable, Codable {
        case appDelegate = "app-delegate"
        case viewController = "view-controller"
    }

    public var family: Family {
        switch self {
        case .awakeFromNib, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear,
            .viewWillDisappear, .viewDidDisappear:
            return .viewController
        default:
            return .appDelegate
        }
    }

    /// Whether the event moves the app-delegate state machine (milestones, memory warnings and
    /// notifications about data or time do not).
    public var isTransition: Bool {
        switch self {
        case .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
            .willEnterForeground, .willTerminate:
            return true
        default:
            return false
        }
    }

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
        }
    }
}
