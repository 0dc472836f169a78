import Testing

@testable import TraceAnalysis

/// Mac apps: AppKit's own callbacks, no background, no kill without willTerminate.
@Suite("AppKit")
struct AppKitTests {
    @Test func aMacAppSwitchingAwayAndBackIsAnInterruptionOfFocus() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationWillFinishLaunching(_:)
            0.020 applicationDidFinishLaunching(_:)
            0.030 applicationWillBecomeActive(_:)
            0.060 applicationDidBecomeActive(_:)
            4.000 applicationWillResignActive(_:)
            4.001 applicationDidResignActive(_:)
            6.000 applicationWillBecomeActive(_:)
            6.001 applicationDidBecomeActive(_:)
            9.000 applicationWillHide(_:)
            9.010 applicationDidHide(_:)
            9.020 applicationDidResignActive(_:)
            12.000 applicationDidUnhide(_:)
            """)
        let process = try #require(report.processes.first)
        #expect(process.violations.isEmpty)
        #expect(process.episodes.map(\.scenario) == [.launch, .interruption])
        #expect(Array(process.episodes)[1].causes == Scenario.appKitInterruptionCauses)
        #expect(process.launch?.durationMs == 60)
    }

    @Test func didCallbacksAloneDoNotLookLikeActiveTwice() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationDidFinishLaunching(_:)
            0.060 applicationDidBecomeActive(_:)
            4.000 applicationDidResignActive(_:)
            6.000 applicationDidBecomeActive(_:)
            """)
        #expect(report.violations.isEmpty)
        #expect(report.processes.first?.episodes.map(\.scenario) == [.launch, .interruption])
    }

    @Test func aMissingWillTerminateOnMacOSIsNoKill() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 NSApplicationDidFinishLaunchingNotification
            0.060 NSApplicationDidBecomeActiveNotification
            4.000 NSApplicationWillResignActiveNotification
            60.000 @101 NSApplicationDidFinishLaunchingNotification
            """)
        #expect(report.processes.map(\.pid) == [100, 101])
        #expect(report.processes[0].episodes.map(\.scenario) == [.launch])
        #expect(report.violations.isEmpty)
    }

    @Test func anIOSAppReplacedWithoutWillTerminateIsStillKilled() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationDidFinishLaunching:
            0.060 applicationDidBecomeActive:
            60.000 @101 applicationDidFinishLaunching:
            """)
        #expect(report.processes[0].episodes.last?.scenario == .killedInForeground)
    }
}
