extension Vocabulary {
    /// The built-in vocabulary: every UIKit app-delegate callback and view-controller milestone, however
    /// people log it (bare selector, `__PRETTY_FUNCTION__`, Swift `#function`, notification names, free text).
    public static let builtin = Vocabulary(entries: appDelegate + viewController)

    // MARK: Pattern pieces

    /// Not inside an identifier or a C++ scope (`AppleMultitouchDevice::willTerminate`). A receiver written with
    /// a dot (`AppDelegate.applicationDidBecomeActive(_:)`, Swift's `"\(Self.self).\(#function)"`) is fine.
    static let boundaryBefore = #"(?<!\w)(?<!::)"#
    /// A bare name must not follow a dot either: `.didBecomeActive` is a member, not a log of the callback.
    static let bareBoundaryBefore = #"(?<![\w.])(?<!::)"#
    /// Code, not a log of the callback: `super.viewDidLoad()`, `self.loadView()`.
    static let notCode = #"(?<!super\.)(?<!self\.)"#
    /// Not followed by more identifier (`applicationWillEnterForegroundForMedia`).
    static let boundaryAfter = #"(?!\w)"#
    /// The `application`/`UIApplication` receiver in all its spellings: `applicationDidBecomeActive`,
    /// `application:didFinish…`, `application(_:didFinish…`, `UIApplicationDidBecomeActiveNotification`,
    /// `UIApplication.didBecomeActiveNotification`.
    static let applicationPrefix = #"(?:UI)?application(?:[ _.:]|\(_:)? ?"#

    /// Words of a camel-case name, matched with or without a space or underscore between them.
    static func words(_ words: String) -> String {
        words.split(separator: " ").joined(separator: "[ _]?")
    }

    /// A UIApplicationDelegate callback or its notification, with the `application` receiver or bare
    /// (`App Delegate: didFinishLaunchingWithOptions`).
    static func callback(_ name: String, suffix: String = "") -> String {
        let tail = words(name) + suffix + "(?:[ _]?notification)?" + boundaryAfter
        return "(?:" + boundaryBefore + applicationPrefix + tail + "|" + bareBoundaryBefore + tail + ")"
    }

    /// A view-controller method, with or without receiver (`-[RootVC viewDidLoad]`, `HomeVC.viewDidLoad()`,
    /// `View Did Load`).
    static func viewControllerMethod(_ name: String) -> String {
        boundaryBefore + notCode + words(name) + boundaryAfter
    }

    // MARK: Entries

    static let appDelegate: [VocabularyEntry] = [
        VocabularyEntry(
            id: "uikit-will-finish-launching", event: .willFinishLaunching,
            pattern: callback("will finish launching", suffix: "(?:[ _]?with[ _]?options)?"), keywords: ["launching"],
            examples: [
                "application:willFinishLaunchingWithOptions:",
                "-[AppDelegate application:willFinishLaunchingWithOptions:]",
                "application(_:willFinishLaunchingWithOptions:)",
                "App Delegate: willFinishLaunchingWithOptions",
                "UIApplicationWillFinishLaunchingNotification",
            ]),
        VocabularyEntry(
            id: "uikit-did-finish-launching", event: .didFinishLaunching,
            pattern: callback("did finish launching", suffix: "(?:[ _]?with[ _]?options)?"), keywords: ["launching"],
            examples: [
                "application:didFinishLaunchingWithOptions:",
                "App Delegate: didFinishLaunchingWithOptions",
                "applicationDidFinishLaunching",
                "applicationDidFinishLaunching:",
                "-[AppDelegate application:didFinishLaunchingWithOptions:]",
                "application(_:didFinishLaunchingWithOptions:)",
                "AppDelegate.application(_:didFinishLaunchingWithOptions:)",
                "UIApplicationDidFinishLaunchingNotification",
                "UIApplication.didFinishLaunchingNotification",
            ],
            bait: ["didFinishLaunchingObserver added", "NSApplicationDidFinishLaunchingNotification"]),
        VocabularyEntry(
            id: "uikit-did-become-active", event: .didBecomeActive,
            pattern: callback("did become active"), keywords: ["active"],
            examples: [
                "applicationDidBecomeActive:",
                "applicationDidBecomeActive",
                "App Delegate: applicationDidBecomeActive",
                "-[AppDelegate applicationDidBecomeActive:]",
                "applicationDidBecomeActive(_:)",
                "AppDelegate.applicationDidBecomeActive(_:)",
                "UIApplicationDidBecomeActiveNotification",
                "UIApplication.didBecomeActiveNotification",
                "-> applicationDidBecomeActive()",
                "didBecomeActive",
            ],
            bait: [
                "sceneDidBecomeActive", "NSApplicationDidBecomeActiveNotification", "Became active",
                "observing .didBecomeActive",
            ]),
        VocabularyEntry(
            id: "uikit-will-resign-active", event: .willResignActive,
            pattern: callback("will resign active"), keywords: ["active"],
            examples: [
                "applicationWillResignActive:",
                "applicationWillResignActive",
                "App Delegate: applicationWillResignActive",
                "-[AppDelegate applicationWillResignActive:]",
                "applicationWillResignActive(_:)",
                "UIApplicationWillResignActiveNotification",
                "UIApplication.willResignActiveNotification",
            ],
            bait: ["About to be suspended", "sceneWillResignActive"]),
        VocabularyEntry(
            id: "uikit-did-enter-background", event: .didEnterBackground,
            pattern: callback("did enter background"), keywords: ["background"],
            examples: [
                "applicationDidEnterBackground:",
                "applicationDidEnterBackground",
                "App Delegate: applicationDidEnterBackground",
                "-[AppDelegate applicationDidEnterBackground:]",
                "applicationDidEnterBackground(_:)",
                "UIApplicationDidEnterBackgroundNotification",
                "UIApplication.didEnterBackgroundNotification",
            ],
            bait: ["backgroundTaskDidEnterBackgroundTimeout fired", "sceneDidEnterBackground"]),
        VocabularyEntry(
            id: "uikit-will-enter-foreground", event: .willEnterForeground,
            pattern: callback("will enter foreground"), keywords: ["foreground"],
            examples: [
                "applicationWillEnterForeground:",
                "applicationWillEnterForeground",
                "App Delegate: applicationWillEnterForeground",
                "-[AppDelegate applicationWillEnterForeground:]",
                "applicationWillEnterForeground(_:)",
                "UIApplicationWillEnterForegroundNotification",
                "UIApplication.willEnterForegroundNotification",
            ],
            bait: ["applicationWillEnterForegroundForMedia", "sceneWillEnterForeground"]),
        VocabularyEntry(
            id: "uikit-will-terminate", event: .willTerminate,
            pattern: callback("will terminate"), keywords: ["terminate"],
            examples: [
                "applicationWillTerminate:",
                "applicationWillTerminate",
                "App Delegate: applicationWillTerminate",
                "-[AppDelegate applicationWillTerminate:]",
                "applicationWillTerminate(_:)",
                "UIApplicationWillTerminateNotification",
                "UIApplication.willTerminateNotification",
            ],
            bait: [
                "AppleMultitouchDevice::willTerminate entered",
                "willTerminateObserver registered",
                "UIApplicationWillTerminateNotificationObserver",
            ]),
        VocabularyEntry(
            id: "uikit-did-receive-memory-warning", event: .didReceiveMemoryWarning,
            pattern: callback("did receive memory warning"), keywords: ["memory"],
            examples: [
                "applicationDidReceiveMemoryWarning:",
                "-[AppDelegate applicationDidReceiveMemoryWarning:]",
                "applicationDidReceiveMemoryWarning(_:)",
                "UIApplicationDidReceiveMemoryWarningNotification",
                "UIApplication.didReceiveMemoryWarningNotification",
                "-[ZHFirstSubViewController didReceiveMemoryWarning]",
                "WARNING -> applicationDidReceiveMemoryWarning()",
            ]),
        VocabularyEntry(
            id: "uikit-received-memory-warning", event: .didReceiveMemoryWarning,
            pattern: #"\breceived memory warning\b"#, keywords: ["memory"],
            examples: ["Received memory warning.", "Received memory warning"],
            bait: ["Received memory warnings are logged below"]),
        VocabularyEntry(
            id: "uikit-protected-data-will-become-unavailable", event: .protectedDataWillBecomeUnavailable,
            pattern: callback("protected data will become unavailable"), keywords: ["protected"],
            examples: [
                "applicationProtectedDataWillBecomeUnavailable:",
                "applicationProtectedDataWillBecomeUnavailable(_:)",
                "UIApplicationProtectedDataWillBecomeUnavailable",
            ]),
        VocabularyEntry(
            id: "uikit-protected-data-did-become-available", event: .protectedDataDidBecomeAvailable,
            pattern: callback("protected data did become available"), keywords: ["protected"],
            examples: [
                "applicationProtectedDataDidBecomeAvailable:",
                "-[AppDelegate applicationProtectedDataDidBecomeAvailable:]",
                "UIApplication.protectedDataDidBecomeAvailableNotification",
            ]),
        VocabularyEntry(
            id: "uikit-significant-time-change", event: .significantTimeChange,
            pattern: callback("significant time change"), keywords: ["significant"],
            examples: [
                "applicationSignificantTimeChange:",
                "applicationSignificantTimeChange(_:)",
                "UIApplicationSignificantTimeChangeNotification",
            ]),
    ]

    static let viewController: [VocabularyEntry] = [
        VocabularyEntry(
            id: "vc-awake-from-nib", event: .awakeFromNib, pattern: viewControllerMethod("awake from nib"),
            keywords: ["nib"],
            examples: ["Root View Controller: Awake From Nib", "-[RootViewController awakeFromNib]", "awakeFromNib()"]),
        VocabularyEntry(
            id: "vc-load-view", event: .loadView, pattern: viewControllerMethod("load view"), keywords: ["view"],
            examples: ["-[ZHFirstSubViewController loadView]", "loadView()"],
            bait: ["Reload view requested", "super.loadView()"]),
        VocabularyEntry(
            id: "vc-view-did-load", event: .viewDidLoad, pattern: viewControllerMethod("view did load"),
            keywords: ["view"],
            examples: [
                "Root View Controller: View Did Load", "-[ThirdViewController viewDidLoad]", "viewDidLoad()",
                "HomeViewController.viewDidLoad()",
            ],
            bait: ["-[SecondViewController viewDidUnload]", "viewDidLoadCount=3", "super.viewDidLoad()"]),
        VocabularyEntry(
            id: "vc-view-will-appear", event: .viewWillAppear, pattern: viewControllerMethod("view will appear"),
            keywords: ["view"],
            examples: [
                "Root View Controller: View Will Appear", "-[ThirdViewController viewWillAppear:]",
                "viewWillAppear(_:)",
            ]),
        VocabularyEntry(
            id: "vc-view-is-appearing", event: .viewIsAppearing, pattern: viewControllerMethod("view is appearing"),
            keywords: ["view"],
            examples: ["viewIsAppearing(_:)", "-[HomeViewController viewIsAppearing:]"]),
        VocabularyEntry(
            id: "vc-view-did-appear", event: .viewDidAppear, pattern: viewControllerMethod("view did appear"),
            keywords: ["view"],
            examples: [
                "Root View Controller: View Did Appear", "-[ThirdViewController viewDidAppear:]", "viewDidAppear(_:)",
                "HomeViewController.viewDidAppear(_:)",
            ]),
        VocabularyEntry(
            id: "vc-view-will-disappear", event: .viewWillDisappear,
            pattern: viewControllerMethod("view will disappear"), keywords: ["view"],
            examples: ["-[ThirdViewController viewWillDisappear:]", "viewWillDisappear(_:)"]),
        VocabularyEntry(
            id: "vc-view-did-disappear", event: .viewDidDisappear, pattern: viewControllerMethod("view did disappear"),
            keywords: ["view"],
            examples: ["-[ThirdViewController viewDidDisappear:]", "viewDidDisappear(_:)"],
            bait: ["-[FirstViewController willMoveToParentViewController:]"]),
    ]

    /// Messages from real captures that look like lifecycle lines and are not.
    public static let builtinBait: [String] = [
        "AppleMultitouchDevice::willTerminate entered",
        "applicationWillEnterForegroundForMedia",
        "Failed to connect (view) outlet from (NSApplication) to (NSWindow): missing setter or instance variable",
        "locationManager didDetermineState INSIDE for region1",
        "UIApplicationLaunchOptionsBluetoothCentralsKey = (",
        "[CoreBluetooth] WARNING: <CBCentralManager: 0x1475483d0> is disabling duplicate filtering",
        "Became active",
        "About to be suspended",
        "-[SecondViewController viewDidUnload]",
        "-[FirstViewController willMoveToParentViewController:]",
    ]
}
