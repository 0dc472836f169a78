import Testing

@testable import TraceAnalysis

@Suite("State machine and violations")
struct StateMachineTests {
    @Test(arguments: Transition.uikit)
    func legalTransitionsRaiseNothing(_ transition: Transition) {
        for from in transition.from {
            var machine = LifecycleStateMachine(input: "t")
            drive(&machine, to: from)
            let violationsBefore = machine.violations.count
            let step = machine.apply(EventOccurrence(event: transition.event, line: 99, time: nil))
            #expect(step?.after == transition.to, "\(from.rawValue) + \(transition.event.rawValue)")
            #expect(machine.violations.count == violationsBefore, "\(from.rawValue) + \(transition.event.rawValue)")
        }
    }

    @Test func theTransitionTableIndicesAreThePlacesOfStatesAndTransitionEvents() {
        #expect(AppState.allCases.map(\.caseIndex) == Array(AppState.allCases.indices))
        let transitions = LifecycleEvent.allCases.filter(\.isTransition)
        #expect(transitions.compactMap(\.transitionIndex).sorted() == Array(0..<LifecycleEvent.transitionCount))
        #expect(Set(Transition.uikit.map(\.event)).isSubset(of: transitions))
    }

    @Test(arguments: ViolationRule.allCases)
    func triggeringExamplesLandOnTheMarkedLines(_ rule: ViolationRule) throws {
        #expect(!rule.triggeringExamples.isEmpty)
        for example in rule.triggeringExamples {
            let (report, capture) = try TestSupport.analyzeExample(example)
            let lines = report.violations.filter { $0.rule == rule }.map(\.line)
            #expect(lines == capture.markedLines, "\(rule.rawValue):\n\(capture.text)")
            #expect(report.exitStatus == .findings)
            for violation in report.violations {
                #expect(violation.input == "example")
                #expect(violation.time != nil)
                #expect(!violation.expected.isEmpty)
            }
        }
    }

    @Test(arguments: ViolationRule.allCases)
    func nonTriggeringExamplesRaiseNothing(_ rule: ViolationRule) throws {
        for example in rule.nonTriggeringExamples {
            let (report, capture) = try TestSupport.analyzeExample(example)
            #expect(
                report.violations.isEmpty, "\(rule.rawValue):\n\(capture.text)\n\(report.violations.map(\.message))")
        }
    }

    @Test func violationNamesInputLineTimeStateEventAndExpectation() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 application:didFinishLaunchingWithOptions:
            0.050 applicationDidBecomeActive:
            5.000 applicationDidEnterBackground:
            """)
        let violation = try #require(report.violations.first)
        #expect(violation.rule == .backgroundWithoutResign)
        #expect(violation.line == 3)
        #expect(violation.time?.iso8601 == "2024-06-01T12:00:05.000")
        #expect(violation.state == .active)
        #expect(violation.event == .didEnterBackground)
        #expect(violation.expected.contains("willResignActive"))
        #expect(violation.message.contains("didEnterBackground while active"))
    }

    @Test func aLogStartingMidSessionIsNotAViolation() throws {
        let (report, _) = try TestSupport.analyzeExample(
            """
            0.000 applicationDidEnterBackground:
            5.000 applicationWillEnterForeground:
            5.010 applicationDidBecomeActive:
            """)
        #expect(report.violations.isEmpty)
        #expect(report.processes.first?.launch == nil)
    }

    /// Puts a fresh machine in `state` through legal events.
    private func drive(_ machine: inout LifecycleStateMachine, to state: AppState) {
        let paths: [AppState: [LifecycleEvent]] = [
            .unknown: [], .notRunning: [],
            .launching: [.willFinishLaunching],
            .inactive: [.didFinishLaunching],
            .active: [.didFinishLaunching, .didBecomeActive],
            .background: [.didFinishLaunching, .didEnterBackground],
            .terminated: [.didFinishLaunching, .didEnterBackground, .willTerminate],
        ]
        for (index, event) in (paths[state] ?? []).enumerated() {
            _ = machine.apply(EventOccurrence(event: event, line: index + 1, time: nil))
        }
    }
}
