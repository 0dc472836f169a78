import Testing

@testable import TraceAnalysis

@Suite("Launch times")
struct LaunchTests {
    @Test func seedFreshLaunchIs27MillisecondsUnderBudget() throws {
        let report = try TestSupport.analyzeSample("app-delegate-scenarios.log")
        let launch = try #require(report.processes.first?.launch)
        #expect(launch.durationMs == 27)
        #expect(launch.budgetMs == 400)
        #expect(!launch.overBudget)
        #expect(!launch.excluded)
        #expect(
            launch.milestones.map(\.name) == [
                "first-awake-from-nib", "did-finish-launching", "first-view-did-load", "first-view-will-appear",
                "did-become-active", "first-view-did-appear",
            ])
        #expect(launch.milestones.map(\.offsetMs) == [0, 7, 13, 15, 27, 33])
        #expect(launch.milestones.map(\.phaseMs) == [nil, 7, 6, 2, 12, 6])
    }

    @Test func slowLaunchIsOverBudget() throws {
        let report = try TestSupport.analyzeSample("slow-launch.log")
        let launch = try #require(report.processes.first?.launch)
        #expect(launch.durationMs == 1902.584)
        #expect(launch.overBudget)
        #expect(report.exitStatus == .findings)
    }

    @Test func budgetsAreConfigurablePerApp() throws {
        let text = try String(
            contentsOf: TestSupport.samples.appendingPathComponent("slow-launch.log"), encoding: .utf8)
        let report = try TestSupport.analyzer { $0.appLaunchBudgetsMs["Photos Pro"] = 2500 }.analyze(text: text)
        #expect(report.processes.first?.launch?.budgetMs == 2500)
        #expect(report.processes.first?.launch?.overBudget == false)
        #expect(report.exitStatus == .clean)
    }

    @Test func backgroundLaunchIsExcludedFromBudget() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 application:didFinishLaunchingWithOptions:
            0.040 applicationDidEnterBackground:
            600.000 applicationWillEnterForeground:
            600.010 applicationDidBecomeActive:
            """)
        let launch = try #require(report.processes.first?.launch)
        #expect(launch.excluded)
        #expect(!launch.overBudget)
        #expect(launch.excludedReason == "launched into background first")
    }

    @Test func prewarmedLaunchIsExcluded() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 +[Analytics load]
            45.000 application:didFinishLaunchingWithOptions:
            45.100 applicationDidBecomeActive:
            """)
        let launch = try #require(report.processes.first?.launch)
        #expect(launch.excluded)
        #expect(launch.excludedReason?.hasPrefix("prewarmed") == true)
    }

    @Test func watchdogTerritoryIsFlagged() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 application:didFinishLaunchingWithOptions:
            25.000 applicationDidBecomeActive:
            """)
        let launch = try #require(report.processes.first?.launch)
        #expect(launch.watchdogRisk)
        #expect(launch.overBudget)
    }

    @Test(arguments: [("400ms", 400.0), ("1.5s", 1500), ("2m", 120_000), ("250", 250), ("500us", 0.5)])
    func durationsParse(_ text: String, _ ms: Double) {
        #expect(DurationParser.milliseconds(text) == ms)
    }

    @Test(arguments: ["", "fast", "-3s", "1x"])
    func badDurationsAreRejected(_ text: String) {
        #expect(DurationParser.milliseconds(text) == nil)
    }
}
