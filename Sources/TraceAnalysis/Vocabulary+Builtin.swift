extension Vocabulary {
    /// The built-in vocabulary: every UIKit app-delegate callback and view-controller milestone, however
    /// people log it (bare selector, `__PRETTY_FUNCTION__`, Swift `#function`, notification names, free text).
    public static let builtin = Vocabulary(
        entries: appDelegate + scene + swiftUI + appKit + viewController + exitEvidence + system)

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

    /// Every spelling ``words(_:)`` matches, lowercased (`did load`: `didload`, `did load`, `did_load`): keywords
    /// that a message the pattern matches always holds one of.
    static func spellings(_ words: String) -> [String] {
        var spellings = [""]
        for (index, word) in words.lowercased().split(separator: " ").enumerated() {
            let gaps = index == 0 ? [""] : ["", " ", "_"]
            spellings = spellings.flatMap { spelling in gaps.map { spelling + $0 + word } }
        }
        return spellings
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
            bait: ["didFinishLaunchingObserver added"]),
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
                "Became active",
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
            bait: ["About to be suspended"]),
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
            bait: ["backgroundTaskDidEnterBackgroundTimeout fired"]),
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
            bait: ["applicationWillEnterForegroundForMedia"]),
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

    /// A UISceneDelegate callback or its `UIScene` notification: `sceneDidBecomeActive`, `sceneDidBecomeActive:`,
    /// `-[SceneDelegate sceneDidBecomeActive:]`, `sceneDidBecomeActive(_:)`, `UIScene.didActivateNotification`…
    static func sceneCallback(_ name: String, notification: String) -> String {
        "(?:" + boundaryBefore + "scene[ _]?" + words(name) + boundaryAfter + "|" + boundaryBefore
            + "UIScene(?:[ _.]?)" + words(notification) + "[ _]?notification" + boundaryAfter + ")"
    }

    static let scene: [VocabularyEntry] = [
        VocabularyEntry(
            id: "scene-will-connect", event: .sceneWillConnect,
            pattern:
                boundaryBefore
                + #"scene(?:\(_:|:|[ _])?\s*will[ _]?connect(?:[ _]?to(?:[ _]?session)?)?(?!\w)|"#
                + boundaryBefore + #"UIScene[ _.]?will[ _]?connect[ _]?notification(?!\w)"#,
            keywords: spellings("will connect"),
            examples: [
                "scene(_:willConnectTo:options:)",
                "-[SceneDelegate scene:willConnectToSession:options:]",
                "<AppLifeCycle.SceneDelegate: 0x600003f6cc40> scene(_:willConnectTo:options:)",
                "SceneDelegate.scene(_:willConnectTo:options:)",
                "UIScene.willConnectNotification",
            ],
            bait: ["sceneWillConnectObserver added", "Reconnecting scene transport"]),
        VocabularyEntry(
            id: "scene-will-enter-foreground", event: .sceneWillEnterForeground,
            pattern: sceneCallback("will enter foreground", notification: "will enter foreground"),
            keywords: ["foreground"],
            examples: [
                "sceneWillEnterForeground(_:)", "-[SceneDelegate sceneWillEnterForeground:]",
                "SceneDelegate.sceneWillEnterForeground(_:)", "UIScene.willEnterForegroundNotification",
                "sceneWillEnterForeground",
            ]),
        VocabularyEntry(
            id: "scene-did-become-active", event: .sceneDidBecomeActive,
            pattern: sceneCallback("did become active", notification: "did activate"),
            keywords: ["active", "activate"],
            examples: [
                "sceneDidBecomeActive(_:)", "-[SceneDelegate sceneDidBecomeActive:]",
                "<AppLifeCycle.SceneDelegate: 0x600003f6cc40> sceneDidBecomeActive(_:)",
                "sceneDidBecomeActive <UIWindowScene: 0x14cc2f9e0; scene = <FBSScene: 0x600002b55980; identifier: sceneID:com.example.journal-default>; persistentIdentifier = 58E4D271-1D3C-4B0E-9B8A-0B5E3E8C2F11; activationState = UISceneActivationStateForegroundActive>",
                "UIScene.didActivateNotification", "sceneDidBecomeActive",
            ]),
        VocabularyEntry(
            id: "scene-will-resign-active", event: .sceneWillResignActive,
            pattern: sceneCallback("will resign active", notification: "will deactivate"),
            keywords: ["active", "deactivate"],
            examples: [
                "sceneWillResignActive(_:)", "-[SceneDelegate sceneWillResignActive:]",
                "Demo[9565:1006064] -[SceneDelegate sceneWillResignActive:]", "UIScene.willDeactivateNotification",
            ]),
        VocabularyEntry(
            id: "scene-did-enter-background", event: .sceneDidEnterBackground,
            pattern: sceneCallback("did enter background", notification: "did enter background"),
            keywords: ["background"],
            examples: [
                "sceneDidEnterBackground(_:)", "-[SceneDelegate sceneDidEnterBackground:]",
                "UIScene.didEnterBackgroundNotification",
            ]),
        VocabularyEntry(
            id: "scene-did-disconnect", event: .sceneDidDisconnect,
            pattern: sceneCallback("did disconnect", notification: "did disconnect"), keywords: ["disconnect"],
            examples: [
                "sceneDidDisconnect(_:)", "-[SceneDelegate sceneDidDisconnect:]",
                "<AppLifeCycle.SceneDelegate: 0x600003f6cc40> sceneDidDisconnect(_:)",
                "UIScene.didDisconnectNotification",
            ],
            bait: ["sceneDidDisconnectHandler set"]),
    ]

    /// A SwiftUI `scenePhase` change as people print it: `scenePhase: active`, `Scene phase changed to: background`,
    /// `ScenePhase: Active`, `scenePhase(SwiftUI.ScenePhase.inactive)`, `scenePhase: active → inactive` (the last
    /// phase the message names is the new one).
    static func scenePhase(_ phase: String) -> String {
        #"\bscene[ _]?phase\b[^\n]*?(?:[:=(>.]|→|\bto\b)\s*(?:SwiftUI\.ScenePhase\.|\.)?"# + phase
            + #"\b(?![^\n]*\b(?:active|inactive|background)\b)"#
    }

    static let swiftUI: [VocabularyEntry] = [
        VocabularyEntry(
            id: "swiftui-scene-phase-active", event: .scenePhaseActive, pattern: scenePhase("active"),
            keywords: ["phase"],
            examples: [
                "scenePhase: active", "Scene phase changed to: active", "ScenePhase: Active",
                "ArchiveReducer.scenePhase(SwiftUI.ScenePhase.active)", "[scenePhase] scenePhase: inactive → active",
                "onChange(of: scenePhase): .active",
            ],
            bait: ["scenePhase observer is active for this window", "Using scenePhase to track activity"]),
        VocabularyEntry(
            id: "swiftui-scene-phase-inactive", event: .scenePhaseInactive, pattern: scenePhase("inactive"),
            keywords: ["phase"],
            examples: [
                "scenePhase: inactive", "Scene phase changed to: inactive", "🔄 ScenePhase: inactive",
                "10:11:19.848 [scenePhase] scenePhase: active → inactive",
            ]),
        VocabularyEntry(
            id: "swiftui-scene-phase-background", event: .scenePhaseBackground, pattern: scenePhase("background"),
            keywords: ["phase"],
            examples: [
                "scenePhase: background", "Scene phase changed to: background", "ScenePhase.background",
                "scenePhase changed: .background",
            ]),
    ]

    /// An NSApplicationDelegate callback or its `NSApplication` notification.
    static func appKitCallback(_ name: String) -> String {
        let tail = words(name) + "(?:[ _]?notification)?" + boundaryAfter
        return "(?:" + boundaryBefore + #"(?:NS)?application(?:[ _.:]|\(_:)? ?"# + tail + "|" + bareBoundaryBefore
            + tail
            + ")"
    }

    /// `NSApplicationDidBecomeActiveNotification`, `NSApplication.didBecomeActiveNotification`: a callback UIKit
    /// shares, in a spelling only a Mac app writes.
    static func appKitNotification(_ name: String) -> String {
        boundaryBefore + "NSApplication[ _.]?" + words(name) + "[ _]?notification" + boundaryAfter
    }

    static let appKit: [VocabularyEntry] = [
        VocabularyEntry(
            id: "appkit-will-become-active", event: .appKitWillBecomeActive,
            pattern: appKitCallback("will become active"),
            keywords: ["active"],
            examples: [
                "applicationWillBecomeActive:", "applicationWillBecomeActive(_:)",
                "NSApplicationWillBecomeActiveNotification", "NSApplication.willBecomeActiveNotification",
            ]),
        VocabularyEntry(
            id: "appkit-did-resign-active", event: .appKitDidResignActive, pattern: appKitCallback("did resign active"),
            keywords: ["active"],
            examples: [
                "applicationDidResignActive:", "-[AppDelegate applicationDidResignActive:]",
                "applicationDidResignActive(_:)", "NSApplicationDidResignActiveNotification",
            ]),
        VocabularyEntry(
            id: "appkit-will-hide", event: .appKitWillHide, pattern: appKitCallback("will hide"), keywords: ["hide"],
            examples: ["applicationWillHide", "applicationWillHide(_:)", "NSApplication.willHideNotification"]),
        VocabularyEntry(
            id: "appkit-did-hide", event: .appKitDidHide, pattern: appKitCallback("did hide"), keywords: ["hide"],
            examples: ["applicationDidHide:", "applicationDidHide(_:)", "NSApplicationDidHideNotification"]),
        VocabularyEntry(
            id: "appkit-will-unhide", event: .appKitWillUnhide, pattern: appKitCallback("will unhide"),
            keywords: ["unhide"], examples: ["applicationWillUnhide:", "applicationWillUnhide(_:)"]),
        VocabularyEntry(
            id: "appkit-did-unhide", event: .appKitDidUnhide, pattern: appKitCallback("did unhide"),
            keywords: ["unhide"],
            examples: ["applicationDidUnhide", "applicationDidUnhide(_:)", "NSApplicationDidUnhideNotification"]),
        VocabularyEntry(
            id: "appkit-will-finish-launching-notification", event: .willFinishLaunching,
            pattern: appKitNotification("will finish launching"), keywords: ["launching"],
            examples: ["NSApplicationWillFinishLaunchingNotification"], appKit: true),
        VocabularyEntry(
            id: "appkit-did-finish-launching-notification", event: .didFinishLaunching,
            pattern: appKitNotification("did finish launching"), keywords: ["launching"],
            examples: ["NSApplicationDidFinishLaunchingNotification", "NSApplication.didFinishLaunchingNotification"],
            appKit: true),
        VocabularyEntry(
            id: "appkit-did-become-active-notification", event: .didBecomeActive,
            pattern: appKitNotification("did become active"), keywords: ["active"],
            examples: ["NSApplicationDidBecomeActiveNotification", "NSApplication.didBecomeActiveNotification"],
            appKit: true),
        VocabularyEntry(
            id: "appkit-will-resign-active-notification", event: .willResignActive,
            pattern: appKitNotification("will resign active"), keywords: ["active"],
            examples: ["NSApplicationWillResignActiveNotification"], appKit: true),
        VocabularyEntry(
            id: "appkit-will-terminate-notification", event: .willTerminate,
            pattern: appKitNotification("will terminate"), keywords: ["terminate"],
            examples: ["NSApplicationWillTerminateNotification", "NSApplication.willTerminateNotification"],
            appKit: true),
    ]

    static let viewController: [VocabularyEntry] = [
        VocabularyEntry(
            id: "vc-awake-from-nib", event: .awakeFromNib, pattern: viewControllerMethod("awake from nib"),
            keywords: ["nib"],
            examples: ["Root View Controller: Awake From Nib", "-[RootViewController awakeFromNib]", "awakeFromNib()"]),
        VocabularyEntry(
            id: "vc-load-view", event: .loadView, pattern: viewControllerMethod("load view"),
            keywords: spellings("load view"),
            examples: ["-[ZHFirstSubViewController loadView]", "loadView()"],
            bait: ["Reload view requested", "super.loadView()"]),
        VocabularyEntry(
            id: "vc-view-did-load", event: .viewDidLoad, pattern: viewControllerMethod("view did load"),
            keywords: spellings("did load"),
            examples: [
                "Root View Controller: View Did Load", "-[ThirdViewController viewDidLoad]", "viewDidLoad()",
                "HomeViewController.viewDidLoad()",
            ],
            bait: ["-[SecondViewController viewDidUnload]", "viewDidLoadCount=3", "super.viewDidLoad()"]),
        VocabularyEntry(
            id: "vc-view-will-appear", event: .viewWillAppear, pattern: viewControllerMethod("view will appear"),
            keywords: spellings("will appear"),
            examples: [
                "Root View Controller: View Will Appear", "-[ThirdViewController viewWillAppear:]",
                "viewWillAppear(_:)",
            ]),
        VocabularyEntry(
            id: "vc-view-is-appearing", event: .viewIsAppearing, pattern: viewControllerMethod("view is appearing"),
            keywords: ["appearing"],
            examples: ["viewIsAppearing(_:)", "-[HomeViewController viewIsAppearing:]"]),
        VocabularyEntry(
            id: "vc-view-did-appear", event: .viewDidAppear, pattern: viewControllerMethod("view did appear"),
            keywords: spellings("did appear"),
            examples: [
                "Root View Controller: View Did Appear", "-[ThirdViewController viewDidAppear:]", "viewDidAppear(_:)",
                "HomeViewController.viewDidAppear(_:)",
            ]),
        VocabularyEntry(
            id: "vc-view-will-disappear", event: .viewWillDisappear,
            pattern: viewControllerMethod("view will disappear"), keywords: ["disappear"],
            examples: ["-[ThirdViewController viewWillDisappear:]", "viewWillDisappear(_:)"]),
        VocabularyEntry(
            id: "vc-view-did-disappear", event: .viewDidDisappear, pattern: viewControllerMethod("view did disappear"),
            keywords: ["disappear"],
            examples: ["-[ThirdViewController viewDidDisappear:]", "viewDidDisappear(_:)"],
            bait: ["-[FirstViewController willMoveToParentViewController:]"]),
    ]

    /// `Application 'UIKitApplication:com.example.app[0x1a2b]'` as SpringBoard names an app (straight or curly
    /// quotes; the `[0x…]` is launchd's job token, not a pid).
    static let springBoardApp =
        #"\bApplication (?:'|‘|’)(?:UIKitApplication:)?(?<bundle>[\w.-]+)\[0x[0-9a-fA-F]+\](?:\[(?<pid>\d+)\])?(?:'|‘|’)"#
    /// `(UIKitApplication:com.example.app[0x1a2b][567])`, `(org.example.main.358432[73977])` as launchd names a job.
    static let launchdJob =
        #"\((?:UIKitApplication:)?(?<bundle>[\w.-]+?)(?:\[(?:0x)?[0-9a-fA-F]+\])?(?:\[rb-legacy\])?\[(?<pid>\d+)\]\):?(?: <\w+>:)?"#
    /// `[app<com.example.app(UUID)>:4242]` as RunningBoard and FrontBoard name a process.
    static let runningBoardApp = #"\[(?:app|application)<(?<bundle>[\w.-]+)(?:\([^)]*\))?>:(?<pid>\d+)\]"#

    /// Lines of the debugger, SpringBoard, RunningBoard, launchd and the kernel that say a process ended and why.
    /// Their named captures (`pid`, `name`, `bundle`, `signal`) say which process: without them, the line's own app.
    /// Spellings are from real captures (see `Documentation/LifecycleModel.md`).
    static let exitEvidence: [VocabularyEntry] = [
        VocabularyEntry(
            id: "debugger-terminated-signal", event: .exitSignal,
            pattern: #"\bTerminated due to signal:? (?<signal>\d+)\b|\bMessage from debugger: killed\b"#,
            keywords: ["terminated", "debugger"],
            examples: [
                "Message from debugger: Terminated due to signal 9",
                "Message from debugger: Terminated due to signal 15",
                "Message from debugger: killed",
            ],
            bait: ["Message from debugger: The LLDB RPC server has crashed."]),
        VocabularyEntry(
            id: "debugger-terminated-memory", event: .exitMemory,
            pattern: #"\bTerminated due to memory (?:issue|pressure|error)\b"#, keywords: ["terminated"],
            examples: ["Message from debugger: Terminated due to memory issue"]),
        VocabularyEntry(
            id: "springboard-exited-via-signal", event: .exitSignal,
            pattern: springBoardApp + #" exited abnormally (?:via|with) signal(?: (?<signal>\d+))?"#,
            keywords: ["exited"],
            examples: [
                "Application 'UIKitApplication:io.heypiotr.EddyBckgrnd[0x3164]' exited abnormally via signal.",
                "Application ‘UIKitApplication:com.gx.uxart[0x57b0]’ exited abnormally with signal 9: Killed: 9",
            ]),
        VocabularyEntry(
            id: "springboard-exited-with-status", event: .exitCrash,
            pattern: springBoardApp + #" exited abnormally with exit status \d+"#, keywords: ["exited"],
            examples: [
                "Application 'UIKitApplication:com.example.journal[0x8a1c]' exited abnormally with exit status 1"
            ]
        ),
        VocabularyEntry(
            id: "springboard-crashed", event: .exitCrash,
            pattern: springBoardApp + #" (?:crashed|exited for an unknown reason)\b"#,
            keywords: ["crashed", "unknown reason"],
            examples: [
                "Application 'UIKitApplication:www.perivalebluebell.icdab-nsdata[0x51b9]' crashed.",
                "Application 'UIKitApplication:www.perivalebluebell.icdab-nsdata[0x51b9]' exited for an unknown reason.",
            ]),
        VocabularyEntry(
            id: "springboard-exited-voluntarily", event: .exitVoluntary,
            pattern: springBoardApp + #" exited voluntarily"#, keywords: ["voluntarily"],
            examples: ["Application 'UIKitApplication:com.example.journal[0x8a1c]' exited voluntarily."]),
        VocabularyEntry(
            id: "springboard-killed-by-jetsam", event: .exitMemory,
            pattern: springBoardApp + #" was killed by jetsam"#, keywords: ["jetsam"],
            examples: ["Application 'UIKitApplication:io.heypiotr.EddyBckgrnd[0xc435]' was killed by jetsam."]),
        VocabularyEntry(
            id: "runningboard-termination-reported", event: .exitSignal,
            pattern: runningBoardApp + #" termination reported by launchd \(\d+, \d+, (?<signal>\d+)\)"#,
            keywords: ["termination"],
            examples: [
                "[application<com.AppCo.MyApp>:432] termination reported by launchd (2, 10, 10)",
                "[app<com.example.journal(8E2C6A51-7B4F-4B7E-9E35-1C2D3E4F5A6B)>:4242] termination reported by launchd (2, 9, 9)",
            ]),
        VocabularyEntry(
            id: "runningboard-process-exited-signal", event: .exitSignal,
            pattern:
                runningBoardApp
                + #" Process exited: <RBSProcessExitContext\| specific, status:<RBSProcessExitStatus\| domain:signal\(\d+\) code:SIG\w+\((?<signal>\d+)\)>"#,
            keywords: ["exited"],
            examples: [
                "[app<com.boardsesh.app>:85886] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:signal(2) code:SIGSEGV(11)>>."
            ]),
        VocabularyEntry(
            id: "frontboard-process-exited-watchdog", event: .exitWatchdog,
            pattern: runningBoardApp + #" Process exited: <(?:RBS|FB)ProcessExitContext[|;] watchdog"#,
            keywords: ["watchdog"],
            examples: [
                #"[application<com.example.journal>:796] Process exited: <FBProcessExitContext; watchdog ("watchdog provision violated")>."#
            ]),
        VocabularyEntry(
            id: "runningboard-process-exited-voluntarily", event: .exitVoluntary,
            pattern: runningBoardApp + #" Process exited: <RBSProcessExitContext\| voluntary>"#,
            keywords: ["voluntary"],
            examples: ["[app<com.example.journal>:4242] Process exited: <RBSProcessExitContext| voluntary>."]),
        VocabularyEntry(
            id: "launchd-exited-due-to-signal", event: .exitSignal,
            pattern: launchdJob + #" Service exited due to (?:signal: [A-Za-z: ]+?(?<signal>\d+)|SIG[A-Z]+)"#,
            keywords: ["exited"],
            examples: [
                "(org.hacx.hacxdaemon[7473]) <Notice>: Service exited due to signal: Killed: 9",
                "(UIKitApplication:com.example.journal[0x8a1c][4242]) Service exited due to SIGKILL",
            ]),
        VocabularyEntry(
            id: "launchd-exited-abnormal-code", event: .exitCrash,
            pattern: launchdJob + #" Service exited with abnormal code: \d+"#, keywords: ["abnormal"],
            examples: [
                "(org.example.main.358432[73977]) Service exited with abnormal code: 1",
                "(UIKitApplication:net.dot.HelloiOS[9a0b][rb-legacy][57331]): Service exited with abnormal code: 200",
            ]),
        VocabularyEntry(
            id: "kernel-jetsam-kill", event: .exitMemory,
            pattern: #"\b(?:memorystatus[\w:]*|jetsam): (?:[\w-]+ )*?pid (?<pid>\d+) \[(?<name>[^\]]+)\]"#,
            keywords: ["memorystatus", "jetsam"],
            examples: [
                "memorystatus: killing_specific_process pid 14871 [keyboard] (per-process-limit 100 16s rf:-) 78848KB - memorystatus_available_pages: 121472"
            ]),
        VocabularyEntry(
            id: "kernel-memory-limit-fatal", event: .exitMemory,
            pattern:
                #"\b(?:EXC_RESOURCE ->|memorystatus:) (?<name>[^\[\]]+?) ?\[(?<pid>\d+)\] exceeded mem limit: [\w ]+ \d+ MB \(fatal\)"#,
            keywords: ["exc_resource", "memorystatus"],
            examples: [
                "EXC_RESOURCE -> duetexpertd[37309] exceeded mem limit: InactiveHard 14 MB (fatal)",
                "memorystatus: keyboard [14871] exceeded mem limit: ActiveHard 77 MB (fatal)",
            ],
            bait: ["memorystatus: keyboard [14871] exceeded mem limit: ActiveSoft 1536 MB (non-fatal)"]),
        VocabularyEntry(
            id: "report-system-memory-jetsam", event: .exitMemory,
            pattern: #"\bProcess (?<name>\S+) \[(?<pid>\d+)\] killed by jetsam\b"#, keywords: ["jetsam"],
            examples: ["ReportSystemMemory  Process KeyboardSpike [994] killed by jetsam reason per-process-limit"]),
        VocabularyEntry(
            id: "watchdog-forcing-crash-report", event: .exitWatchdog,
            pattern:
                #"\bForcing crash report of <FBApplicationProcess: 0x[0-9a-fA-F]+; (?<name>[^;()<>]+?)(?: \((?<bundle>[\w.-]+)\))?; pid: (?<pid>\d+)>"#,
            keywords: ["forcing"],
            examples: [
                "Forcing crash report of <FBApplicationProcess: 0x1394b57d0; SQLCipherVsShar; pid: 4146> (reason: 4, description: …)"
            ]),
        VocabularyEntry(
            id: "watchdog-8badf00d", event: .exitWatchdog,
            pattern:
                #"\b0x8badf00d\b|\bFRONTBOARD 2343432205\b|\bscene-(?:create|update) watchdog transgression(?:: application<(?<bundle>[\w.-]+)>:(?<pid>\d+))?"#,
            keywords: ["8badf00d", "2343432205", "watchdog"],
            examples: [
                "Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d",
                "Termination Reason: FRONTBOARD 2343432205",
                "Termination Description: SPRINGBOARD, scene-update watchdog transgression: application<com.example.journal>:307 exhausted real (wall clock) time allowance of 10.00 seconds",
            ]),
        VocabularyEntry(
            id: "segmentation-fault", event: .exitCrash, pattern: #"(?:\b(?<pid>\d+) +)?Segmentation fault\b"#,
            keywords: ["segmentation"],
            examples: [
                "/bin/bash: line 1: 72427 Segmentation fault: 11  /tmp/lode_seg",
                "setup-hook: line 1:  9083 Segmentation fault: 11  xcodebuild", "zsh: segmentation fault  ./vuln64 h",
            ]),
    ]

    /// UIKit's notices about the app itself (Apple TN3187: apps that do not adopt the UIScene lifecycle).
    static let system: [VocabularyEntry] = [
        VocabularyEntry(
            id: "uikit-scene-lifecycle-required", event: .sceneLifecycleRequired,
            pattern:
                #"\bThis process does not adopt UIScene lifecycle\b|`?UIScene`? lifecycle will soon be required\b"#,
            keywords: ["uiscene"],
            examples: [
                "CLIENT OF UIKIT REQUIRES UPDATE: This process does not adopt UIScene lifecycle. This will become an assert in a future version.",
                "`UIScene` lifecycle will soon be required. Failure to adopt will result in an assert in the future.",
            ])
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
        "Message from debugger: The LLDB RPC server has crashed.",
        "26054701212495: id=io.heypiotr.EddyBckgrnd pid=29805, state=0",
    ]
}
