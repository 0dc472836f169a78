import Foundation
import Testing

@testable import TraceAnalysis

/// Live mode's library API: each finding handed out once, in order, as soon as it is decided; corrections
/// explicit; the report at the end the batch report.
@Suite("Live analysis")
struct LiveAnalysisTests {
    /// A finding as delivered: after which fed line (0-based index into the lines fed) it came.
    struct Delivered {
        var finding: LiveFinding
        var afterLine: Int
    }

    /// Feeds `text` a line at a time, calling `between(index)` after each line (pauses, idle calls), and returns
    /// what was delivered after each line, then at the end, with the report.
    static func live(
        _ text: String, name: String = "capture", analyzer: Analyzer? = nil,
        between: (LiveAnalysis, Int) -> Void = { _, _ in }
    ) throws -> (findings: [Delivered], report: AnalysisReport) {
        var delivered: [Delivered] = []
        var current = -1
        let live = LiveAnalysis(analyzer: try analyzer ?? TestSupport.analyzer(), name: name) { finding in
            delivered.append(Delivered(finding: finding, afterLine: current))
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in (text.hasSuffix("\n") ? lines.dropLast() : lines[...]).enumerated() {
            current = index
            live.feed(line: String(line))
            between(live, index)
        }
        current = Int.max
        let report = live.finish()
        return (delivered, report)
    }

    /// Replays findings as a reader would (new ones added, corrections applied) and checks that none is told
    /// twice, every correction names one told before, and what stands at the end is the report's findings.
    static func expectToldOnce(
        _ findings: [LiveFinding], match report: AnalysisReport, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var standing: [LiveFinding.Subject] = []
        for finding in findings {
            switch finding.kind {
            case .finding(let subject):
                #expect(
                    !standing.contains { $0.says(thesame: subject) }, "told twice: \(subject)",
                    sourceLocation: sourceLocation)
                standing.append(subject)
            case .correction(let previous, let current):
                guard let index = standing.firstIndex(where: { $0.says(thesame: previous) }) else {
                    Issue.record("corrects a finding never told: \(previous)", sourceLocation: sourceLocation)
                    continue
                }
                if let current { standing[index] = current } else { standing.remove(at: index) }
            }
        }
        var expected: [LiveFinding.Subject] = []
        for process in report.processes {
            expected += process.launch.map { [.launch($0)] } ?? []
            expected += process.episodes.map { .episode($0) } + process.violations.map { .violation($0) }
        }
        #expect(standing.count == expected.count, "findings standing ≠ the report's", sourceLocation: sourceLocation)
        for subject in expected {
            guard let index = standing.firstIndex(where: { $0.says(thesame: subject) }) else {
                Issue.record("the report's \(subject) was never told", sourceLocation: sourceLocation)
                continue
            }
            standing.remove(at: index)
        }
    }

    static func sample(_ name: String) throws -> String {
        try String(contentsOf: TestSupport.samples.appendingPathComponent(name), encoding: .utf8)
    }

    static func sampleAnalyzer() throws -> Analyzer { try TestSupport.analyzer { $0.year = TestSupport.sampleYear } }

    // MARK: The report at the end is the batch report

    @Test(arguments: TestSupport.sampleNames)
    func fedALineAtATimeTheReportIsTheBatchReport(_ name: String) throws {
        let text = try Self.sample(name)
        let analyzer = try Self.sampleAnalyzer()
        let (findings, report) = try Self.live(text, name: "samples/" + name, analyzer: analyzer)
        let batch = analyzer.analyze(text: text, name: "samples/" + name)
        #expect(JSONReporter.render(report) == JSONReporter.render(batch))
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    @Test(arguments: TestSupport.sampleNames)
    func fedInOddChunksWithPausesTheReportIsStillTheBatchReport(_ name: String) throws {
        let bytes = Array(try Self.sample(name).utf8)
        let analyzer = try Self.sampleAnalyzer()
        var findings: [LiveFinding] = []
        let live = LiveAnalysis(analyzer: analyzer, name: "samples/" + name) { findings.append($0) }
        var offset = 0
        var size = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            live.feed(Array(bytes[offset..<end]))
            // Ties of the ndjson sample arrive together, as `log stream` writes them: caught up between lines only.
            if bytes[end - 1] == UInt8(ascii: "\n"), !name.hasSuffix("ndjson.log") { live.caughtUp() }
            offset = end
            size = size % 37 + 5
        }
        let report = live.finish()
        #expect(
            JSONReporter.render(report)
                == JSONReporter.render(
                    analyzer.analyze(text: String(decoding: bytes, as: UTF8.self), name: "samples/" + name)))
        Self.expectToldOnce(findings, match: report)
    }

    static let examples: [String] =
        Scenario.allCases.flatMap { $0.examples.map(\.capture) }
        + ViolationRule.allCases.flatMap { $0.triggeringExamples + $0.nonTriggeringExamples }

    /// Every scenario and rule example, with an idle pause after every line (the worst case for early
    /// decisions): each finding told once, the report the batch's.
    @Test func everyExampleIsToldOnceAndEndsAsTheBatchReport() throws {
        let analyzer = try TestSupport.analyzer()
        for notation in Self.examples {
            let capture = ExampleCapture(notation)
            for pause in [nil, 300.0, 5000.0] {
                let (findings, report) = try Self.live(capture.text, name: "example", analyzer: analyzer) { live, _ in
                    if let pause { live.idle(milliseconds: pause) }
                }
                let batch = analyzer.analyze(text: capture.text, name: "example")
                #expect(JSONReporter.render(report) == JSONReporter.render(batch), "\(capture.text)")
                Self.expectToldOnce(findings.map(\.finding), match: report)
            }
        }
    }

    // MARK: Every format `log stream` and idevicesyslog write

    /// A session as each streamable format writes it, headers included: (line at second s, message) → line.
    static let streamed: [String: (header: [String], record: @Sendable (Int, String) -> String)] = [
        "log-default": (
            [
                #"Filtering the log data using "process == "MyApp"""#,
                "Timestamp                       Thread     Type        Activity             PID    TTL  ",
            ],
            {
                "2024-06-01 12:00:0\($0).000000+0200 0x3058     Default     0x0                  4242   0    MyApp: (MyApp) [com.example:app] \($1)"
            }
        ),
        "log-compact": (
            ["Timestamp               Ty Process[PID:TID]"],
            { "2024-06-01 12:00:0\($0).000 Df MyApp[4242:1d2e] [com.example:app] \($1)" }
        ),
        "log-syslog": (
            ["Timestamp                       (process)[PID]    "],
            { "2024-06-01 12:00:0\($0).000000+0200  localhost MyApp[4242]: (MyApp) \($1)" }
        ),
        "log-ndjson": (
            [],
            {
                #"{"timestamp":"2024-06-01 12:00:0\#($0).000000+0200","processImagePath":"\/Applications\/MyApp.app\/MyApp","processID":4242,"threadID":7,"eventMessage":"\#($1)","subsystem":"","category":"","messageType":"Default","machTimestamp":\#(1000 + $0)}"#
            }
        ),
        "device-syslog": (
            ["[connected]"],
            { "Jun  1 12:00:0\($0) iPhone MyApp(UIKitCore)[4242] <Notice>: \($1)" }
        ),
    ]

    @Test(arguments: ["log-default", "log-compact", "log-syslog", "log-ndjson", "device-syslog"])
    func everyStreamableFormatIsToldLive(_ format: String) throws {
        let shape = try #require(Self.streamed[format])
        let session = [
            (0, "application(_:didFinishLaunchingWithOptions:)"), (1, "applicationDidBecomeActive(_:)"),
            (5, "applicationWillResignActive(_:)"), (5, "applicationDidEnterBackground(_:)"), (7, "a message"),
        ]
        let lines = shape.header + session.map { shape.record($0.0, $0.1) }
        let text = lines.joined(separator: "\n") + "\n"
        let analyzer = try TestSupport.analyzer { $0.year = 2024 }
        let (findings, report) = try Self.live(text, name: format, analyzer: analyzer) { live, _ in live.caughtUp() }
        #expect(report.inputs.first?.format == format)
        let didBecomeActive = shape.header.count + 1
        #expect(findings.map(\.afterLine) == [didBecomeActive, didBecomeActive, didBecomeActive + 2])
        #expect(findings.allSatisfy { $0.finding.trigger == .line && $0.finding.pid == 4242 })
        #expect(JSONReporter.render(report) == JSONReporter.render(analyzer.analyze(text: text, name: format)))
    }

    // MARK: When each finding is decided

    @Test func anEpisodeIsToldOnTheLineThatDecidesIt() throws {
        let capture = ExampleCapture(TestSupport.launchHomeAndBack)
        let (findings, _) = try Self.live(capture.text)
        let told = findings.map { ($0.afterLine, $0.finding.current?.typeName ?? "", $0.finding.trigger) }
        #expect(told.map(\.0) == [1, 1, 3, 5])
        #expect(told.map(\.1) == ["episode", "launch", "episode", "episode"])
        #expect(told.allSatisfy { $0.2 == .line })
        let scenarios = findings.compactMap { delivered -> Scenario? in
            if case .episode(let episode)? = delivered.finding.current { return episode.scenario }
            return nil
        }
        #expect(scenarios == [.launch, .enterBackground, .returnToForeground])
    }

    @Test func aViolationIsToldOnItsLine() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: didFinishLaunchingWithOptions
            0.100 App Delegate: applicationDidBecomeActive
            0.200 App Delegate: applicationDidBecomeActive
            """)
        let (findings, _) = try Self.live(capture.text)
        let violation = try #require(findings.first { $0.finding.current?.typeName == "violation" })
        #expect(violation.afterLine == 2)
        #expect(violation.finding.line == 3)
    }

    /// An interruption waits until it can no longer become left-via-alert: the log's clock (any later line)
    /// passing the alert gap decides it.
    @Test func anInterruptionIsDecidedWhenTheLogsClockPassesTheAlertGap() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: applicationWillResignActive
            3.000 App Delegate: applicationDidBecomeActive
            3.500 some other message
            4.100 some other message
            """)
        let (findings, report) = try Self.live(capture.text)
        #expect(findings.count == 1)
        let interruption = try #require(findings.first)
        #expect(interruption.afterLine == 3)
        #expect(interruption.finding.trigger == .logClock)
        if case .episode(let episode)? = interruption.finding.current {
            #expect(episode.scenario == .interruption)
            #expect(episode.startLine == 1 && episode.endLine == 2)
        } else {
            Issue.record("not an episode: \(interruption.finding)")
        }
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    @Test func aQuietStreamGetsItsVerdictAfterTheIdleTimeout() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: applicationWillResignActive
            3.000 App Delegate: applicationDidBecomeActive
            """)
        let (findings, _) = try Self.live(capture.text) { live, index in
            if index == 1 {
                live.idle(milliseconds: 500)  // within the 1 s alert gap: nothing decided yet
                live.idle(milliseconds: 1500)
            }
        }
        #expect(findings.count == 1)
        #expect(findings.first?.afterLine == 1)
        #expect(findings.first?.finding.trigger == .idle)
    }

    @Test func leftViaAlertIsNotToldAsAnInterruptionFirst() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: applicationWillResignActive
            2.000 App Delegate: applicationDidBecomeActive
            2.400 App Delegate: applicationWillResignActive
            2.410 App Delegate: applicationDidEnterBackground
            """)
        let (findings, _) = try Self.live(capture.text)
        #expect(findings.count == 1)
        #expect(findings.first?.afterLine == 3)
        if case .episode(let episode)? = findings.first?.finding.current {
            #expect(episode.scenario == .leftViaAlert)
        }
    }

    @Test func memoryWarningsAreToldOnceTheWindowHasPassed() throws {
        let capture = ExampleCapture(
            """
            0.000 Received memory warning.
            0.600 Received memory warning.
            1.200 Received memory warning.
            2.500 some other message
            """)
        let (findings, report) = try Self.live(capture.text)
        #expect(findings.count == 1)
        #expect(findings.first?.afterLine == 3)
        #expect(findings.first?.finding.trigger == .logClock)
        if case .episode(let episode)? = findings.first?.finding.current {
            #expect(episode.scenario == .memoryWarning)
            #expect(episode.startLine == 1 && episode.endLine == 3)
        }
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    /// A launch over its budget is told as soon as the log's clock says so, then corrected with its duration.
    @Test func aSlowLaunchIsToldBeforeItBecomesActiveThenCorrected() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: didFinishLaunchingWithOptions
            0.200 Root View Controller: View Did Load
            0.650 Root View Controller: View Will Appear
            0.900 App Delegate: applicationDidBecomeActive
            """)
        let (findings, report) = try Self.live(capture.text)
        let launches = findings.filter { $0.finding.current?.typeName == "launch" }
        #expect(launches.map(\.afterLine) == [2, 3])
        let overdue = try #require(launches.first)
        #expect(overdue.finding.trigger == .line)  // a line of the app itself moved the clock past the budget
        #expect(overdue.finding.elapsedMs == 650)
        guard case .finding(.launch(let pending)) = overdue.finding.kind else {
            Issue.record("not a new launch finding")
            return
        }
        #expect(pending.endLine == nil && pending.overBudget)
        guard case .correction(.launch, .launch(let measured)?) = launches[1].finding.kind else {
            Issue.record("not a launch correction: \(launches[1].finding.kind)")
            return
        }
        #expect(measured.durationMs == 900 && measured.overBudget)
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    /// Another process's lines move the clock a launch is judged by; unless their timestamps are on another clock
    /// (here zoned lines beside zone-less ones read five hours apart), when only the app's own times count.
    @Test(arguments: ["", "-0500"])
    func otherProcessesMoveTheClockWhenTheyShareIt(_ otherZone: String) throws {
        let other = otherZone.isEmpty ? ".000" : ".000000" + otherZone
        let text = """
            2024-06-01 12:00:00\(other) Other[1:1a] hello
            2024-06-01 12:00:00.100 App[2:1a] App Delegate: didFinishLaunchingWithOptions
            2024-06-01 12:00:00\(other.replacingOccurrences(of: ".000", with: ".600")) Other[1:1a] hello again
            2024-06-01 12:00:00.300 App[2:1a] App Delegate: applicationDidBecomeActive

            """
        let (findings, report) = try Self.live(text)
        let overdue = findings.filter { $0.finding.elapsedMs != nil }
        if otherZone.isEmpty {
            #expect(overdue.map(\.afterLine) == [2])
            #expect(overdue.first?.finding.trigger == .logClock)
        } else {
            #expect(overdue.isEmpty, "\(findings.map(\.finding))")
        }
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    @Test func aLaunchStillNotActiveAtTheEndIsCorrectedToTheBatchVerdict() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: didFinishLaunchingWithOptions
            0.700 Root View Controller: View Did Load
            """)
        let (findings, report) = try Self.live(capture.text)
        #expect(findings.map(\.afterLine) == [1, Int.max])
        #expect(findings.last?.finding.trigger == .end)
        #expect(report.processes.first?.launch?.endLine == nil)
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    /// A kill inferred from a new pid is taken back, explicitly, when the old pid logs again.
    @Test func anInferredKillIsWithdrawnWhenThePidLogsAgain() throws {
        let capture = ExampleCapture(
            """
            0.000 @100 App Delegate: didFinishLaunchingWithOptions
            0.100 App Delegate: applicationDidBecomeActive
            1.000 @200 App Delegate: didFinishLaunchingWithOptions
            1.100 @100 still logging
            """)
        let (findings, report) = try Self.live(capture.text)
        let aboutKill = findings.filter { delivered in
            let subject = delivered.finding.current ?? delivered.finding.previousSubject
            if case .episode(let episode) = subject { return episode.scenario == .killedInForeground }
            return false
        }
        #expect(aboutKill.map(\.afterLine) == [2, 3])
        #expect(aboutKill.last?.finding.isCorrection == true)
        #expect(aboutKill.last?.finding.current == nil)
        #expect(aboutKill.last?.finding.pid == 100)
        Self.expectToldOnce(findings.map(\.finding), match: report)
    }

    @Test func theEndOfInputDecidesWhatWasPending() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: applicationWillResignActive
            """)
        let (findings, _) = try Self.live(capture.text)
        #expect(findings.count == 1)
        #expect(findings.first?.finding.trigger == .end)
        if case .episode(let episode)? = findings.first?.finding.current {
            #expect(episode.scenario == .unresolvedInterruption)
        }
    }

    // MARK: Reading

    /// Lines of no known format are held while the format is detected; a pause decides rather than waiting for
    /// a hundred lines.
    @Test func barLinesWaitForThePauseNotForAHundredLines() throws {
        let text = """
            -> applicationDidFinishLaunching()
            -> applicationDidBecomeActive()
            -> applicationWillResignActive()
            -> applicationDidEnterBackground()

            """
        var paused = false
        let (findings, report) = try Self.live(text) { live, index in
            if index == 3 {
                paused = true
                live.idle(milliseconds: 2000)
            }
        }
        #expect(paused)
        #expect(findings.count == 3)
        #expect(findings.allSatisfy { $0.afterLine == 3 && $0.finding.trigger == .idle })
        #expect(report.inputs.first?.format == "bare")
    }

    /// ndjson records with equal timestamps are held for their tie-break until the input is caught up.
    @Test func tiedRecordsAreToldWhenTheInputIsCaughtUp() throws {
        let text = try Self.sample("same-session-ndjson.log")
        let analyzer = try Self.sampleAnalyzer()
        var told: [LiveFinding] = []
        let live = LiveAnalysis(analyzer: analyzer) { told.append($0) }
        let lines = text.split(separator: "\n").map(String.init)
        for line in lines[..<7] { live.feed(line: line) }
        #expect(told.isEmpty)  // line 7 (didBecomeActive) waits for a possible tie
        live.caughtUp()
        #expect(told.map { $0.current?.typeName } == ["episode", "launch"])
    }

    @Test func gzipInputIsRefusedAsAnInputProblem() throws {
        var findings: [LiveFinding] = []
        let live = LiveAnalysis(analyzer: try TestSupport.analyzer()) { findings.append($0) }
        live.feed([0x1F, 0x8B, 0x08, 0x00, 0x41, 0x42, 0x0A])
        let report = live.finish()
        #expect(findings.isEmpty)
        #expect(report.inputs.first?.error != nil)
        #expect(report.exitStatus == .inputProblem)
    }

    @Test func finishIsFinal() throws {
        var findings: [LiveFinding] = []
        let live = LiveAnalysis(analyzer: try TestSupport.analyzer()) { findings.append($0) }
        live.feed(line: ExampleCapture("0.000 App Delegate: applicationWillResignActive").text)
        let first = live.finish()
        live.feed(line: ExampleCapture("1.000 App Delegate: applicationDidBecomeActive").text)
        live.idle(milliseconds: 5000)
        let second = live.finish()
        #expect(findings.count == 1)
        #expect(JSONReporter.render(first) == JSONReporter.render(second))
    }

    // MARK: Rendering

    @Test func textAndJSONLinesSayTheSame() throws {
        let capture = ExampleCapture(
            """
            0.000 App Delegate: didFinishLaunchingWithOptions
            0.700 Root View Controller: View Did Load
            0.900 App Delegate: applicationDidBecomeActive
            1.000 App Delegate: applicationDidBecomeActive
            """)
        let (findings, report) = try Self.live(capture.text)
        let text = findings.map { LiveTextReporter().line($0.finding) }
        #expect(text.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().allSatisfy { $0 != "\n" } })
        #expect(text[0].contains("launch  not active yet after 700 ms (budget 400 ms)  ✗ over budget, still launching"))
        #expect(
            text.contains {
                $0.contains("↺ correction (line 3)  was: launch over budget, not active yet  now: launch  900 ms")
            })
        #expect(text.contains { $0.contains("✗ violation 2 active-twice  L4") })
        for delivered in findings {
            let line = LiveJSONReporter.line(delivered.finding)
            #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(object["decidedAtLine"] as? Int == delivered.finding.line)
            #expect(object["process"] as? String == "Demo" && object["pid"] as? Int == 100)
        }
        // The summary line carries the batch summary, exit code included.
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(LiveJSONReporter.summaryLine(report))) as? [String: Any])
        #expect(summary["type"] as? String == "summary")
        #expect((summary["summary"] as? [String: Any])?["exitCode"] as? Int == 1)
    }

    /// The jsonl objects carry the batch JSON's own episode, violation and launch objects.
    @Test func jsonLinesUseTheBatchFields() throws {
        let analyzer = try Self.sampleAnalyzer()
        let text = try Self.sample("illegal-transitions.log")
        let (findings, report) = try Self.live(text, name: "samples/illegal-transitions.log", analyzer: analyzer)
        let batch = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReporter.render(report).utf8)) as? [String: Any])
        let process = try #require((batch["processes"] as? [[String: Any]])?.first)
        let batchViolations = try #require(process["violations"] as? [[String: Any]])
        let liveViolations = try findings.compactMap { delivered -> [String: Any]? in
            let object = try JSONSerialization.jsonObject(with: Data(LiveJSONReporter.line(delivered.finding)))
            return (object as? [String: Any])?["violation"] as? [String: Any]
        }
        #expect(liveViolations.count == batchViolations.count)
        for (live, batch) in zip(liveViolations, batchViolations) {
            #expect(NSDictionary(dictionary: live).isEqual(to: batch))
        }
    }
}
