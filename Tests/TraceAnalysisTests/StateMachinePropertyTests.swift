import Testing

@testable import TraceAnalysis

/// Seeded random lifecycle logs, written with the vocabulary's own spellings: whatever the order of the events,
/// the analysis ends, accounts for every line, gives the same bytes twice, and reports only violations the model
/// (§3, ``Transition/uikit``) names, on lines that hold the event. Walks through the transition table with some
/// illegal steps mixed in must raise exactly the violations the model's rules predict. The time limit only guards
/// against an analysis that never ends: a case's clock runs while it waits for a thread, and on two cores busy with
/// the end-to-end suites a limit of one minute was once exceeded by cases that take milliseconds.
@Suite("State machine properties", .timeLimit(.minutes(10)))
struct StateMachinePropertyTests {
    static let analyzer: Analyzer = {
        var options = TestSupport.fixedOptions
        options.failOn = .default
        // Built once: compiling the catalogue and the vocabulary costs more than a case.
        guard let analyzer = try? Analyzer(options: options) else { fatalError("the built-in definitions compile") }
        return analyzer
    }()

    /// Legal moves by state, from the model's table.
    static let legal: [AppState: [LifecycleEvent: AppState]] = {
        var table: [AppState: [LifecycleEvent: AppState]] = [:]
        for transition in Transition.uikit {
            for from in transition.from { table[from, default: [:]][transition.event] = transition.to }
        }
        return table
    }()

    /// How the vocabulary writes each event (UIKit spellings only for the app-delegate callbacks, so the walks
    /// stay iOS apps).
    static let spellings: [LifecycleEvent: [String]] = {
        var spellings: [LifecycleEvent: [String]] = [:]
        for entry in Vocabulary.builtin.entries where !entry.appKit || entry.event.family == .appKit {
            spellings[entry.event, default: []] += entry.examples
        }
        return spellings
    }()

    static let transitions: [LifecycleEvent] = [
        .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
        .willEnterForeground, .willTerminate,
    ]
    /// Events that move no app-delegate state.
    static let milestones: [LifecycleEvent] = [
        .didReceiveMemoryWarning, .viewDidLoad, .viewWillAppear, .viewDidAppear, .significantTimeChange,
        .protectedDataWillBecomeUnavailable,
    ]
    static let noise = [
        "Loaded 12 items from cache", "GET /api/feed 200 (143 ms)", "tap on button #3", "CoreData: saved context",
    ]

    // MARK: Wild sequences

    @Test(arguments: 0..<100)
    func wildSequences(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 17)
        let log = Self.wildLog(&random)
        let report = Self.analyzer.analyze(text: log.text, name: "wild")
        try Self.expectInvariants(report, log, seed: seed)
        for process in report.processes {
            for violation in process.violations { Self.expectForbidden(violation, in: process, seed: seed) }
        }
    }

    /// Any event of any family, from two apps that relaunch, with noise, continuation, blank and junk lines,
    /// untimed lines, timestamps that jitter and go backwards, LF or CRLF.
    static func wildLog(_ random: inout SplitMix64) -> GeneratedLog {
        var log = GeneratedLog(crlf: random.next() % 3 == 0)
        let events = spellings.keys.sorted { $0.rawValue < $1.rawValue }
        var pids = [100, 500]
        for _ in 0..<(40 + Int(random.next() % 80)) {
            let app = Int(random.next() % 5 == 0 ? 1 : 0)
            if random.next() % 25 == 0 { pids[app] += 1 }  // a relaunch
            log.advance(&random, backwards: random.next() % 8 == 0)
            let name = app == 0 ? "Demo" : "Other App"
            switch random.next() % 20 {
            case 0..<11:
                let event = events[Int(random.next() % UInt64(events.count))]
                log.record(spelling(of: event, &random), event: event, name: name, pid: pids[app])
            case 11..<13:
                log.record(noise[Int(random.next() % UInt64(noise.count))], name: name, pid: pids[app])
            case 13:
                // A dump: its lines continue the record that opens it.
                log.record("launchOptions: {", name: name, pid: pids[app])
                log.plain("    UIApplicationLaunchOptionsSourceApplicationKey = \"com.apple.springboard\";")
                log.plain("}")
            case 14:
                log.record("Fatal error: something", name: name, pid: pids[app])
                log.plain("    at frame \(random.next() % 9)")
            case 15: log.plain("")
            case 16: log.plain("*** junk \(random.next() % 1000) ***")
            case 17:
                let event = transitions[Int(random.next() % UInt64(transitions.count))]
                log.untimed(spelling(of: event, &random), event: event, name: name, pid: pids[app])
            default:
                let bait = Vocabulary.builtinBait
                log.record(bait[Int(random.next() % UInt64(bait.count))], name: name, pid: pids[app])
            }
        }
        return log
    }

    // MARK: Walks through the transition table

    @Test(arguments: 0..<100)
    func walksRaiseWhatTheRulesPredict(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 3)
        var log = GeneratedLog(crlf: false)
        var oracle = RuleOracle()
        var expected: [Expected] = []
        var pid = 100
        var step = 0
        func emit(_ event: LifecycleEvent) {
            log.advance(&random, backwards: false)
            log.record(Self.spelling(of: event, &random), event: event, name: "Demo", pid: pid)
            expected += oracle.apply(event, line: log.lineCount).map { Expected(pid: pid, line: $0.1, rule: $0.0) }
        }
        func launch() {
            if random.next() % 2 == 0 { emit(.willFinishLaunching) }
            // Now and then a callback out of place before didFinishLaunching (rule 1).
            if random.next() % 4 == 0 { emit(Self.transitions[2 + Int(random.next() % 4)]) }
            emit(.didFinishLaunching)
        }
        launch()
        while step < 20 + Int(random.next() % 40) {
            step += 1
            var roll = random.next() % 100
            // After willTerminate: a relaunch, or a line more of the ended incarnation (rule 7).
            if oracle.state == .terminated { roll = roll < 70 ? 0 : 6 + roll % 34 }
            if roll < 6 {
                // A new incarnation: the old one's open obligations end with it.
                expected += oracle.finish().map { Expected(pid: pid, line: $0.1, rule: $0.0) }
                oracle = RuleOracle()
                pid += 1 + Int(random.next() % 3)
                launch()
            } else if roll < 18 {
                emit(Self.milestones[Int(random.next() % UInt64(Self.milestones.count))])
            } else if roll < 24 {
                log.record(Self.noise[Int(random.next() % UInt64(Self.noise.count))], name: "Demo", pid: pid)
            } else if roll < 40 {
                emit(Self.transitions[Int(random.next() % UInt64(Self.transitions.count))])  // legal or not
            } else {
                let moves = (Self.legal[oracle.state] ?? [:]).keys
                    .filter { $0 != .willFinishLaunching && $0 != .didFinishLaunching }
                    .sorted { $0.rawValue < $1.rawValue }
                guard !moves.isEmpty else { continue }
                emit(moves[Int(random.next() % UInt64(moves.count))])
            }
        }
        expected += oracle.finish().map { Expected(pid: pid, line: $0.1, rule: $0.0) }

        let report = Self.analyzer.analyze(text: log.text, name: "walk")
        try Self.expectInvariants(report, log, seed: seed)
        let actual = report.processes.flatMap { process in
            process.violations.map { Expected(pid: process.pid, line: $0.line, rule: $0.rule) }
        }
        #expect(actual.sorted() == expected.sorted(), "seed \(seed):\n\(log.text)")
    }

    struct Expected: Comparable, CustomStringConvertible {
        var pid: Int
        var line: Int
        var rule: ViolationRule
        static func < (a: Self, b: Self) -> Bool { (a.pid, a.line, a.rule.number) < (b.pid, b.line, b.rule.number) }
        var description: String { "pid \(pid) line \(line) rule \(rule.number)" }
    }

    /// The model's rules 1–7 (§3) for one incarnation's app-delegate callbacks, written from the model's table
    /// and rules rather than from ``LifecycleStateMachine``.
    struct RuleOracle {
        var state: AppState = .unknown
        var launched = false
        /// The willEnterForeground still owing a didBecomeActive (rule 6).
        var pendingForeground: Int?
        /// The first transition before didFinishLaunching (rule 1 if it follows).
        var early: Int?

        mutating func apply(_ event: LifecycleEvent, line: Int) -> [(ViolationRule, Int)] {
            if state == .terminated { return [(.eventAfterTerminate, line)] }  // 7: any event after willTerminate
            guard event.isTransition else { return [] }
            var found: [(ViolationRule, Int)] = []
            if pendingForeground != nil, event == .willResignActive || event == .didEnterBackground {
                found.append((.foregroundNotActivated, line))  // 6
                pendingForeground = nil
            }
            let target = StateMachinePropertyTests.legal[state]?[event]
            if event == .willFinishLaunching || event == .didFinishLaunching {
                if launched { return found + [(.launchOrder, line)] }  // 1: a second launch; the state stays
                if let early { found.append((.launchOrder, early)) }  // 1: an event before the launch
                early = nil
                if event == .didFinishLaunching { launched = true }
            } else {
                if !launched, early == nil { early = line }
                if target == nil {
                    switch (event, state) {
                    case (.didBecomeActive, .active): found.append((.activeTwice, line))  // 2
                    case (.willResignActive, _) where state != .active:
                        found.append((.resignWhileNotActive, line))  // 3
                    case (.didEnterBackground, .active): found.append((.backgroundWithoutResign, line))  // 4
                    case (.willEnterForeground, _) where state != .background:
                        found.append((.foregroundWhileNotBackground, line))  // 5
                    default: break  // a dropped line: the model names no rule, the machine follows the event
                    }
                }
            }
            switch event {
            case .willEnterForeground: pendingForeground = line
            case .didBecomeActive, .willTerminate: pendingForeground = nil
            default: break
            }
            state = target ?? Transition.target(of: event) ?? state
            return found
        }

        /// The incarnation ends: a willEnterForeground still owing its didBecomeActive breaks rule 6.
        mutating func finish() -> [(ViolationRule, Int)] {
            defer { pendingForeground = nil }
            return pendingForeground.map { [(.foregroundNotActivated, $0)] } ?? []
        }
    }

    // MARK: Checks

    /// Every line accounted for, line numbers in range, each violation on a line that holds its event, and the
    /// same text and JSON bytes from a second analysis.
    static func expectInvariants(_ report: AnalysisReport, _ log: GeneratedLog, seed: Int) throws {
        let input = try #require(report.inputs.first)
        #expect(input.lines == log.lineCount, "seed \(seed)")
        TestSupport.expectAccounted(input)
        for process in report.processes {
            for violation in process.violations {
                let held = log.events[violation.line]?.rawValue ?? "no event"
                #expect(
                    log.events[violation.line] == violation.event,
                    "seed \(seed): \(violation.rule.rawValue) on line \(violation.line), which holds \(held)")
            }
        }
        let again = analyzer.analyze(text: log.text, name: report.inputs[0].name)
        #expect(JSONReporter.bytes(report) == JSONReporter.bytes(again), "seed \(seed): JSON differs")
        let text = TextReporter(color: false, showEvents: true)
        #expect(text.render(report) == text.render(again), "seed \(seed): text differs")
    }

    /// A violation of rules 2–5 or 7 names a move the table does not allow, the very one its rule describes;
    /// rules 1, 6 and 8 name the situations §3 gives them.
    static func expectForbidden(_ violation: Violation, in process: ProcessReport, seed: Int) {
        let state = violation.state
        let kind = appDelegateKind(of: violation.event, from: state)
        let context = "seed \(seed): \(violation.message) (line \(violation.line))"
        switch violation.rule {
        case .activeTwice, .resignWhileNotActive, .backgroundWithoutResign, .foregroundWhileNotBackground:
            #expect(kind.map { legal[state]?[$0] } == .some(nil), "a legal move reported: \(context)")
            switch violation.rule {
            case .activeTwice: #expect(kind == .didBecomeActive && state == .active, "\(context)")
            case .resignWhileNotActive: #expect(kind == .willResignActive && state != .active, "\(context)")
            case .backgroundWithoutResign: #expect(kind == .didEnterBackground && state == .active, "\(context)")
            default: #expect(kind == .willEnterForeground && state != .background, "\(context)")
            }
        case .eventAfterTerminate:
            #expect(state == .terminated && legal[state] == nil, "\(context)")
        case .launchOrder:
            #expect(
                process.events.contains { $0.event == .didFinishLaunching || $0.event == .willFinishLaunching }
                    || process.events.contains { $0.event == .sceneWillConnect }, "\(context)")
        case .foregroundNotActivated:
            #expect(
                [.willEnterForeground, .willResignActive, .didEnterBackground].contains(kind), "\(context)")
        case .appAndSceneCallbacksMixed:
            #expect(
                process.events.contains { $0.event.family == .scene }
                    && process.events.contains { $0.event.isAppForegroundCallback }, "\(context)")
        }
    }

    /// The app-delegate callback an event counts as in its lane's state machine, given the state before it.
    static func appDelegateKind(of event: LifecycleEvent, from state: AppState) -> LifecycleEvent? {
        if event.isTransition { return event }
        switch event {
        case .appKitDidResignActive: return .willResignActive
        case .scenePhaseInactive:
            return state == .active ? .willResignActive : state == .background ? .willEnterForeground : nil
        default: return event.appDelegateEquivalent
        }
    }

    static func spelling(of event: LifecycleEvent, _ random: inout SplitMix64) -> String {
        let choices = spellings[event] ?? [event.callbackName]
        return choices[Int(random.next() % UInt64(choices.count))]
    }
}

/// A log being written line by line, with the event each line holds.
struct GeneratedLog {
    var lines: [String] = []
    /// The event written on each 1-based line that holds one.
    var events: [Int: LifecycleEvent] = [:]
    let crlf: Bool
    /// Milliseconds since 2024-06-01 12:00:00.
    private var millis = 0

    init(crlf: Bool) { self.crlf = crlf }

    var lineCount: Int { lines.count }
    var text: String { lines.joined(separator: crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n") }

    mutating func advance(_ random: inout SplitMix64, backwards: Bool) {
        millis = backwards ? max(0, millis - Int(random.next() % 3000)) : millis + Int(random.next() % 1500)
    }

    /// An NSLog line.
    mutating func record(_ message: String, event: LifecycleEvent? = nil, name: String, pid: Int) {
        lines.append("\(timestamp) \(name)[\(pid):1a03] \(message)")
        if let event { events[lines.count] = event }
    }

    /// An NSLog line whose date was cut off.
    mutating func untimed(_ message: String, event: LifecycleEvent, name: String, pid: Int) {
        lines.append("\(name)[\(pid):1a03] \(message)")
        events[lines.count] = event
    }

    mutating func plain(_ line: String) { lines.append(line) }

    private var timestamp: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let seconds = 12 * 3600 + millis / 1000
        let fraction = millis % 1000
        let fractionText = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "2024-06-01 \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(fractionText)"
    }
}
