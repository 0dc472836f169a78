import Testing

@testable import TraceAnalysis

@Suite("Scenarios")
struct ScenarioTests {
    @Test(arguments: Scenario.allCases)
    func examplesProduceTheirScenario(_ scenario: Scenario) throws {
        #expect(!scenario.examples.isEmpty)
        for (notation, expected) in scenario.examples {
            let (report, capture) = try TestSupport.analyzeExample(notation)
            let first = try #require(report.processes.first, "\(capture.text)")
            #expect(first.episodes.map(\.scenario) == expected, "\(scenario.rawValue):\n\(capture.text)")
            for episode in first.episodes {
                #expect(episode.causes == episode.scenario.causes)
                #expect(!episode.evidence.isEmpty)
                #expect(episode.startLine <= episode.endLine)
            }
        }
    }

    /// Each scenario has its own causes (looked up by the case's tag), one array shared by every episode.
    @Test func eachScenarioHasItsOwnSharedCauses() {
        #expect(Scenario.launch.causes == ["user tapped the icon (cold or warm: text logs cannot tell)"])
        #expect(Scenario.unresolvedInterruption.causes == ["capture stopped during an interruption"])
        #expect(Scenario.enterBackground.causes.first == "Home button or swipe up")
        #expect(Scenario.allCases.allSatisfy { !$0.causes.isEmpty })
        #expect(Set(Scenario.allCases.map(\.causes)).count == Scenario.allCases.count)
        for scenario in Scenario.allCases {
            let (a, b) = (scenario.causes, scenario.causes)
            #expect(a.withUnsafeBufferPointer { $0.baseAddress } == b.withUnsafeBufferPointer { $0.baseAddress })
        }
    }

    /// The enums that compare and hash their case's tag (`CaseTag.swift`) instead of their raw value: equal exactly
    /// when the raw values are, one tag per case, and sets and dictionaries of every case find each once.
    @Test func enumsComparedByTagAgreeWithTheirRawValues() {
        func check<T: CaseIterable & Hashable & RawRepresentable>(_: T.Type) where T.RawValue == String {
            let cases = Array(T.allCases)
            #expect(MemoryLayout<T>.size == 1)
            #expect(Set(cases.map(caseTag)).count == cases.count, "\(T.self)")
            for a in cases {
                for b in cases { #expect((a == b) == (a.rawValue == b.rawValue), "\(a) \(b)") }
                #expect(a.hashValue == T(rawValue: a.rawValue)?.hashValue)
            }
            let set = Set(cases)
            var counts: [T: Int] = [:]
            for (index, value) in cases.enumerated() { counts[value, default: 0] += index + 1 }
            #expect(set.count == cases.count && cases.allSatisfy { set.contains($0) })
            #expect(cases.enumerated().allSatisfy { counts[$0.element] == $0.offset + 1 })
        }
        check(Scenario.self)
        check(ViolationRule.self)
        check(LifecycleEvent.self)
        check(AppState.self)
    }

    @Test func gapThresholdIsConfigurable() throws {
        let capture = ExampleCapture(
            """
            0.000 applicationWillResignActive
            1.500 applicationDidEnterBackground
            """)
        let strict = try TestSupport.analyzer { $0.backgroundGapMs = 1000 }.analyze(text: capture.text)
        let lax = try TestSupport.analyzer().analyze(text: capture.text)
        #expect(strict.processes.first?.episodes.map(\.scenario) == [.interruptionToBackground])
        #expect(lax.processes.first?.episodes.map(\.scenario) == [.enterBackground])
    }

    @Test func aSlowResignAfterAnInterruptionIsNotLeftViaAlert() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationWillResignActive
            3.000 applicationDidBecomeActive
            9.000 applicationWillResignActive
            9.010 applicationDidEnterBackground
            """)
        #expect(report.processes.first?.episodes.map(\.scenario) == [.interruption, .enterBackground])
    }

    @Test func resumeIsTimed() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationWillEnterForeground
            0.266 applicationDidBecomeActive
            """)
        let episode = try #require(report.processes.first?.episodes.first)
        #expect(episode.scenario == .returnToForeground)
        #expect(episode.durationMs == 266)
    }

    @Test func interleavedPidsOfOneNameAreNotKills() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationDidBecomeActive
            1.000 @200 applicationDidBecomeActive
            2.000 @100 applicationWillResignActive
            2.001 applicationDidEnterBackground
            """)
        let scenarios = report.processes.flatMap { $0.episodes.map(\.scenario) }
        #expect(!scenarios.contains(.killedInForeground))
        #expect(scenarios == [.enterBackground])
    }

    @Test func killIsInferredOnlyWithoutWillTerminate() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationWillResignActive
            0.001 applicationDidEnterBackground
            5.000 applicationWillTerminate
            9.000 @200 application:didFinishLaunchingWithOptions:
            9.100 applicationDidBecomeActive
            """)
        #expect(report.processes.map { $0.episodes.map(\.scenario) } == [[.enterBackground, .termination], [.launch]])
    }
}

extension ScenarioTests {
    @Test func aSecondDidFinishLaunchingIsNotASecondLaunch() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 application:didFinishLaunchingWithOptions:
            0.050 applicationDidBecomeActive:
            0.300 application:didFinishLaunchingWithOptions:
            5.000 applicationWillResignActive:
            5.001 applicationDidBecomeActive:
            """)
        #expect(report.processes.first?.episodes.map(\.scenario) == [.launch, .interruption])
        #expect(report.violations.map(\.rule) == [.launchOrder])
    }
}

extension ScenarioTests {
    @Test func aSuccessorEarlierInTimeIsNoEvidenceOfAKill() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            100.000 applicationWillResignActive
            100.001 applicationDidEnterBackground
            10.000 @200 application:didFinishLaunchingWithOptions:
            10.100 applicationDidBecomeActive
            """)
        #expect(report.processes.map { $0.episodes.map(\.scenario) } == [[.enterBackground], [.launch]])
    }
}
