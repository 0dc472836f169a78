import Testing

@testable import TraceAnalysis

/// Scene-based apps (iOS 13+), SwiftUI's scenePhase, and rule 8.
@Suite("Scenes and SwiftUI")
struct SceneTests {
    static func analyze(_ notation: String) throws -> ProcessReport {
        let (report, _) = try TestSupport.analyzeExample(notation)
        return try #require(report.processes.first)
    }

    @Test func aSceneLaunchIsALaunchTimedToSceneDidBecomeActive() throws {
        let process = try Self.analyze(
            """
            0.000 application(_:didFinishLaunchingWithOptions:)
            0.040 <Demo.SceneDelegate: 0x600003f6cc40> scene(_:willConnectTo:options:)
            0.050 <Demo.SceneDelegate: 0x600003f6cc40> sceneWillEnterForeground(_:)
            0.120 <Demo.SceneDelegate: 0x600003f6cc40> sceneDidBecomeActive(_:)
            5.000 <Demo.SceneDelegate: 0x600003f6cc40> sceneWillResignActive(_:)
            5.300 <Demo.SceneDelegate: 0x600003f6cc40> sceneDidEnterBackground(_:)
            9.000 <Demo.SceneDelegate: 0x600003f6cc40> sceneWillEnterForeground(_:)
            9.080 <Demo.SceneDelegate: 0x600003f6cc40> sceneDidBecomeActive(_:)
            """)
        #expect(process.episodes.map(\.scenario) == [.launch, .enterBackground, .returnToForeground])
        #expect(process.episodes.allSatisfy { $0.scene == "0x600003f6cc40" })
        #expect(process.launch?.durationMs == 120)
        #expect(process.violations.isEmpty)
        #expect(process.finalState == .active)
        #expect(process.episodes.last?.durationMs == 80)
    }

    /// iOS 13+: swiping the app away in the switcher.
    @Test func theIOS13AppSwitcherKillIsATermination() throws {
        let process = try Self.analyze(
            """
            0.000 application(_:didFinishLaunchingWithOptions:)
            0.040 scene(_:willConnectTo:options:)
            0.050 sceneWillEnterForeground(_:)
            0.120 sceneDidBecomeActive(_:)
            8.000 sceneWillResignActive(_:)
            11.000 sceneDidDisconnect(_:)
            11.020 applicationWillTerminate(_:)
            """)
        #expect(process.episodes.map(\.scenario) == [.launch, .termination])
        #expect(process.violations.isEmpty)
    }

    /// iOS 12 and apps without scenes: the same gesture.
    @Test func theIOS12AppSwitcherKillIsATermination() throws {
        let process = try Self.analyze(
            """
            0.000 application:didFinishLaunchingWithOptions:
            0.100 applicationDidBecomeActive:
            8.000 applicationWillResignActive:
            11.000 applicationDidEnterBackground:
            11.020 applicationWillTerminate:
            """)
        #expect(process.episodes.last?.scenario == .termination)
        #expect(process.violations.isEmpty)
    }

    @Test func eachLoggedSceneHasItsOwnMachine() throws {
        let process = try Self.analyze(
            """
            0.000 application(_:didFinishLaunchingWithOptions:)
            0.040 <Demo.SceneDelegate: 0xa1> scene(_:willConnectTo:options:)
            0.050 <Demo.SceneDelegate: 0xa1> sceneWillEnterForeground(_:)
            0.120 <Demo.SceneDelegate: 0xa1> sceneDidBecomeActive(_:)
            3.000 <Demo.SceneDelegate: 0xb2> scene(_:willConnectTo:options:)
            3.010 <Demo.SceneDelegate: 0xb2> sceneWillEnterForeground(_:)
            3.020 <Demo.SceneDelegate: 0xb2> sceneDidBecomeActive(_:)
            4.000 <Demo.SceneDelegate: 0xa1> sceneWillResignActive(_:)
            4.100 <Demo.SceneDelegate: 0xa1> sceneDidEnterBackground(_:)
            6.000 <Demo.SceneDelegate: 0xb2> sceneDidDisconnect(_:)
            """)
        // Two active scenes in a row are no violation 2: they are different scenes.
        #expect(process.violations.isEmpty)
        #expect(
            process.episodes.map { "\($0.scene ?? "app") \($0.scenario.rawValue)" } == [
                "0xa1 launch", "0xb2 launch", "0xa1 enter-background",
            ])
        // A disconnected scene is not a dead process.
        #expect(process.finalState == .background)
        #expect(process.events.last?.scene == "0xb2")
    }

    @Test func sceneRulesApplyPerScene() throws {
        let process = try Self.analyze(
            """
            0.000 scene(_:willConnectTo:options:)
            0.010 sceneWillEnterForeground(_:)
            0.020 sceneDidBecomeActive(_:)
            1.000 sceneDidEnterBackground(_:)
            """)
        #expect(process.violations.map(\.rule) == [.backgroundWithoutResign])
    }

    @Test func mixingAppAndSceneForegroundCallbacksIsRule8Once() throws {
        let process = try Self.analyze(
            """
            0.000 application(_:didFinishLaunchingWithOptions:)
            0.040 scene(_:willConnectTo:options:)
            0.050 sceneWillEnterForeground(_:)
            0.120 sceneDidBecomeActive(_:)
            0.121 applicationDidBecomeActive(_:)
            5.000 applicationWillResignActive(_:)
            5.001 sceneWillResignActive(_:)
            """)
        #expect(process.violations.map(\.rule) == [.appAndSceneCallbacksMixed])
        #expect(process.violations.first?.line == 5)
    }

    @Test func aSceneAppKilledInBackgroundIsKilledInBackground() throws {
        let process = try Self.analyze(
            """
            0.000 application(_:didFinishLaunchingWithOptions:)
            0.040 scene(_:willConnectTo:options:)
            0.050 sceneWillEnterForeground(_:)
            0.120 sceneDidBecomeActive(_:)
            5.000 sceneWillResignActive(_:)
            5.300 sceneDidEnterBackground(_:)
            60.000 @101 application(_:didFinishLaunchingWithOptions:)
            """)
        #expect(process.episodes.map(\.scenario) == [.launch, .enterBackground, .killedInBackground])
    }

    @Test func swiftUIScenePhasesDriveTheSameMachine() throws {
        let process = try Self.analyze(
            """
            0.000 scenePhase: active
            5.000 Scene phase changed to: inactive
            5.200 Scene phase changed to: background
            9.000 scenePhase: background → inactive
            9.050 scenePhase: inactive → active
            """)
        #expect(process.episodes.map(\.scenario) == [.enterBackground, .returnToForeground])
        #expect(process.violations.isEmpty)
        #expect(
            process.events.map(\.event) == [
                .scenePhaseActive, .scenePhaseInactive, .scenePhaseBackground, .scenePhaseInactive, .scenePhaseActive,
            ])
    }

    @Test func sceneIdentityComesFromTheDelegateTheWindowSceneOrThePersistentIdentifier() throws {
        let recognizer = try EventRecognizer()
        func identity(_ message: String) -> String? {
            var copy = message
            return copy.withUTF8 { recognizer.sceneIdentity(in: UnsafeRawBufferPointer($0)) }
        }
        #expect(identity("<AppLifeCycle.SceneDelegate: 0x600003f6cc40> sceneDidBecomeActive(_:)") == "0x600003f6cc40")
        #expect(
            identity("sceneDidBecomeActive <UIWindowScene: 0x14cc2f9e0; scene = <FBSScene: 0x6000>; …>")
                == "0x14cc2f9e0")
        #expect(identity("sceneDidBecomeActive persistentIdentifier = 58E4D271-1D3C-4B0E") == "58E4D271-1D3C-4B0E")
        #expect(identity("sceneDidBecomeActive(_:)") == nil)
    }

    @Test func uikitsSceneAdoptionNoticeIsAnEventThatChangesNothing() throws {
        let process = try Self.analyze(
            """
            0.000 application(_:didFinishLaunchingWithOptions:)
            0.010 CLIENT OF UIKIT REQUIRES UPDATE: This process does not adopt UIScene lifecycle. This will become an assert in a future version.
            0.050 applicationDidBecomeActive(_:)
            """)
        #expect(process.events.map(\.event) == [.didFinishLaunching, .sceneLifecycleRequired, .didBecomeActive])
        #expect(process.episodes.map(\.scenario) == [.launch])
        #expect(process.violations.isEmpty)
    }
}
