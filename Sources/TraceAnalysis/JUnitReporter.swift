/// Renders a report as JUnit XML, the test-report format Jenkins, GitLab and GitHub test reporters show: a
/// `<testsuite>` per input, a `<testcase>` per process, a `<failure>` per finding the failure policy fails on.
///
/// The output validates against the Jenkins xUnit plugin's `junit-10.xsd` (vendored under the tests' `Golden/`).
/// Times are the spans of the log's own timestamps, in seconds, never the time of the analysis, so the same
/// input always gives the same bytes. See `Documentation/CIReports.md` for the mapping.
public enum JUnitReporter {
    /// The JUnit document.
    public static func render(_ report: AnalysisReport, jobs: Int = 1) -> String {
        OrderedParallel.whole { write(report, jobs: jobs, to: $0) }
    }

    /// Streams the document to `sink` in pieces of about `chunkSize` bytes, a test case at a time, so neither the
    /// document of a big report nor its processes ever exist whole; cases are made on up to `jobs` threads. The
    /// counts the document and each suite open with are added up first, in a pass over the processes without
    /// their events (the inputs' suites on up to `jobs` threads).
    public static func write(
        _ report: AnalysisReport, jobs: Int = 1, chunkSize: Int = 64 * 1024, to sink: ([UInt8]) throws -> Void
    ) rethrows {
        let document = Document(report, jobs: jobs)
        let totals = [
            ("name", "trace-analyze"), ("tests", "\(document.tests)"), ("failures", "\(document.failures)"),
            ("errors", "\(document.errors)"), ("time", seconds(document.timeMs)),
        ]
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites\(attributes(totals))>\n"
        try OrderedParallel.write(head: head, pieces: document.pieces.count, jobs: jobs, chunkSize: chunkSize, to: sink)
        {
            document.render($0)
        } tail: {
            "</testsuites>\n"
        }
    }

    /// The document as pieces: per input its suite's opening (with the counts), a case per process, and its
    /// closing (with the case that says why an input has none).
    private struct Document: Sendable {
        enum Piece {
            case suiteStart(Int)
            /// `repeatedName`: an earlier case of the suite has the process's name (a reused pid).
            case testCase(process: Int, suite: Int, repeatedName: Bool)
            case suiteEnd(Int)
        }

        let report: AnalysisReport
        private(set) var pieces: [Piece] = []
        private var suites: [Suite] = []

        var tests: Int { suites.reduce(0) { $0 + $1.counts.tests } }
        var failures: Int { suites.reduce(0) { $0 + $1.counts.failures } }
        var errors: Int { suites.reduce(0) { $0 + $1.counts.errors } }
        var timeMs: Int { suites.reduce(0) { $0 + $1.timeMs } }

        init(_ report: AnalysisReport, jobs: Int) {
            self.report = report
            OrderedParallel.forEach(count: report.inputs.count, jobs: jobs) { index in
                Self.suite(report, index)
            } sink: { suite, cases in
                pieces.append(.suiteStart(suites.count))
                pieces += cases
                pieces.append(.suiteEnd(suites.count))
                suites.append(suite)
            }
        }

        /// The suite of the input at `index`, and the pieces of its cases.
        private static func suite(_ report: AnalysisReport, _ index: Int) -> (Suite, [Piece]) {
            let input = report.inputs[index]
            var pieces: [Piece] = []
            var suite = Suite(name: input.name, classname: classname(input.name))
            var closing: Case?
            if let error = input.error {
                closing = Case(
                    name: "read \(input.name)", classname: suite.classname, timeMs: 0,
                    outcome: [.error(type: "\(error.inputLabel)-input", message: String(describing: error), text: "")])
            } else {
                suite.properties = [
                    ("format", input.format ?? "none recognised"), ("lines", "\(input.lines)"),
                    ("unparsed-lines", "\(input.unparsedLines)"), ("lifecycle-events", "\(input.lifecycleEvents)"),
                ]
                let indices = report.processIndicesByInput[input.name] ?? []
                var seenNames: Set<String> = []
                var first: Timestamp?
                var last: Timestamp?
                for position in indices {
                    let process = report.processes.withoutEvents[position]
                    let repeated = seenNames.contains(process.displayName)
                    seenNames.insert(caseName(process, repeated: repeated))
                    pieces.append(.testCase(process: position, suite: index, repeatedName: repeated))
                    suite.counts.tests += 1
                    // Counted only, none kept.
                    let findings = CIFinding.Digest(process, at: position, options: report.options, limit: 0)
                    if findings.failing.count > 0 { suite.counts.failures += 1 }
                    if let time = process.firstTime { first = min(first ?? time, time) }
                    if let time = process.lastTime { last = max(last ?? time, time) }
                }
                if report.lifecycleEventCount == 0 && input.lifecycleEvents == 0 {
                    let message = "no lifecycle event in any input: is this an app's console or device log?"
                    closing = Case(
                        name: "lifecycle events", classname: suite.classname, timeMs: 0,
                        outcome: [.error(type: "no-lifecycle-events", message: message, text: "")])
                } else if indices.isEmpty {
                    // Nothing was checked, which is not a pass: the input held no process at all.
                    let message = "no process in \(input.lines) line\(input.lines == 1 ? "" : "s")"
                    closing = Case(
                        name: "lifecycle events", classname: suite.classname, timeMs: 0, outcome: [.skipped(message)])
                }
                // The span of the input's timestamps: its earliest process start to its latest process end.
                suite.timeMs = spanMs(first, last)
            }
            if let closing {
                suite.counts.tests += 1
                if closing.errored { suite.counts.errors += 1 }
                if closing.skipped { suite.counts.skipped += 1 }
            }
            suite.closing = closing
            return (suite, pieces)
        }

        /// A case's name: its process's, with the process's first line when an earlier case of the suite has that
        /// name (two incarnations with one name and pid, a reused pid, stay two test cases).
        private static func caseName(_ process: ProcessReport, repeated: Bool) -> String {
            repeated ? process.displayName + " from line \(process.firstLine)" : process.displayName
        }

        func render(_ index: Int) -> String {
            switch pieces[index] {
            case .suiteStart(let input): return opening(suites[input])
            case .testCase(let position, let suite, let repeatedName):
                let process = report.processes.withoutEvents[position]
                let findings = CIFinding.Digest(
                    process, at: position, options: report.options, limit: JUnitReporter.listedFindings)
                let name = Self.caseName(process, repeated: repeatedName)
                return write(testCase(process, name: name, suites[suite].classname, findings, report))
            case .suiteEnd(let input): return (suites[input].closing.map(write) ?? "") + "  </testsuite>\n"
            }
        }
    }

    // MARK: Model

    enum Outcome {
        case failure(type: String, message: String, text: String)
        case error(type: String, message: String, text: String)
        case skipped(String)
    }

    struct Case {
        var name: String
        var classname: String
        var timeMs: Int
        var outcome: [Outcome]
        var systemOut: [String] = []

        var failed: Bool { outcome.contains { if case .failure = $0 { true } else { false } } }
        var errored: Bool { outcome.contains { if case .error = $0 { true } else { false } } }
        var skipped: Bool { outcome.contains { if case .skipped = $0 { true } else { false } } }
    }

    struct Suite {
        var name: String
        var classname: String
        var timeMs = 0
        var properties: [(String, String)] = []
        var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
        /// The case the suite ends with when it has one beyond its processes' (an unreadable input's error, no
        /// lifecycle event in any input, no process).
        var closing: Case?
    }

    // MARK: Building

    /// At most this many failures, and as many findings reported without failing, are listed in a case; the
    /// others are counted (a process may have hundreds of thousands of violations).
    static let listedFindings = 1_000

    private static func testCase(
        _ process: ProcessReport, name: String, _ classname: String, _ findings: CIFinding.Digest,
        _ report: AnalysisReport
    ) -> Case {
        var outcome: [Outcome] = []
        var notes: [String] = []
        var span = "lines \(process.firstLine)–\(process.lastLine)"
        if let first = process.firstTime, let last = process.lastTime {
            span += ", \(first.timeOfDay) → \(last.timeOfDay)"
        }
        notes.append("\(span), ends \(process.finalState.rawValue)")
        if let launch = process.launch { notes.append(launchNote(launch)) }
        if !process.episodes.isEmpty { notes.append(scenariosNote(process.episodes)) }
        for finding in findings.failing.findings {
            let text = "\(finding.location): \(finding.detail)"
            let full = finding.explanation.map { text + "\n" + $0 } ?? text
            outcome.append(.failure(type: finding.type, message: finding.detail, text: full))
        }
        for finding in findings.reported.findings {
            let text = "\(finding.location): \(finding.detail)"
            notes.append(
                "reported, not failing under --fail-on \(report.failOnDescription): \(finding.type) at \(text)")
        }
        if findings.reported.more > 0 {
            notes.append("… and \(findings.reported.more) more reported, not failing")
        }
        let failing = findings.failing
        if failing.count > 1 {
            // Some consumers show only a case's first <failure>: the output names them all (up to the limit).
            var list = failing.findings.map { "\($0.type) at \($0.location)" }.joined(separator: ", ")
            if failing.more > 0 { list += ", … and \(failing.more) more" }
            notes.insert("\(failing.count) failures: \(list)", at: 1)
        }
        var testCase = Case(
            name: name, classname: classname, timeMs: spanMs(process.firstTime, process.lastTime), outcome: outcome)
        testCase.systemOut = notes
        return testCase
    }

    /// At most this many scenarios are named one by one in a case's output; the others are counted by scenario.
    static let listedScenarios = 1_000

    /// `scenarios: launch, enter-background, …`, in report order; past ``listedScenarios``, `… and 599001 more:
    /// enter-background ×299500, return-to-foreground ×299501` (a process may have hundreds of thousands).
    private static func scenariosNote(_ episodes: TimelineEpisodes) -> String {
        var note = "scenarios: "
        var listed = 0
        var more: [Scenario: Int] = [:]
        for episode in episodes {
            guard listed < listedScenarios else {
                more[episode.scenario, default: 0] += 1
                continue
            }
            note += (listed == 0 ? "" : ", ") + episode.scenario.rawValue
            listed += 1
        }
        guard !more.isEmpty else { return note }
        let counts = Scenario.allCases.compactMap { scenario in more[scenario].map { "\(scenario.rawValue) ×\($0)" } }
        return note + ", … and \(episodes.count - listed) more: " + counts.joined(separator: ", ")
    }

    private static func launchNote(_ launch: LaunchReport) -> String {
        let budget = DurationFormat.text(launch.budgetMs)
        guard let duration = launch.durationMs else {
            if launch.excluded { return "launch: not checked (\(launch.excludedReason ?? "excluded")), never active" }
            return launch.endLine == nil
                ? "launch: never became active in this log" : "launch: no timestamps to measure"
        }
        var note = "launch: \(DurationFormat.text(duration)) to active (budget \(budget))"
        if launch.excluded {
            note += ", not checked: \(launch.excludedReason ?? "excluded")"
        } else {
            note += launch.overBudget ? ", over budget" : ", within budget"
        }
        return note
    }

    /// The test-case class an input's cases belong to: its path without the extension, folders joined by dots
    /// (`samples/slow-launch.log` → `samples.slow-launch`), so tools that split class names on dots group cases by
    /// folder and file. Dots inside a name become `_`.
    static func classname(_ input: String) -> String {
        // An ASCII path (nearly every one) byte by byte: each of its bytes is a character of its own but in a CR LF
        // pair, which is neither `/` nor `.`, so the bytes give what the characters give, without the grapheme
        // breaking that made a name cost about 50,000 instructions (a batch of 1,000 inputs, 15 ms).
        if input.utf8.allSatisfy({ $0 < 0x80 }) { return asciiClassname(input) }
        return characterClassname(input)
    }

    /// ``classname(_:)`` of an ASCII path, over its bytes.
    static func asciiClassname(_ input: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var parts = Array(input.utf8).split(separator: slash).filter { !($0.count == 1 && $0.first == dot) }
        if let last = parts.last, let end = last.lastIndex(of: dot), end != last.startIndex {
            parts[parts.count - 1] = last[..<end]
        }
        var bytes: [UInt8] = []
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(dot) }
            bytes += part.map { $0 == dot ? UInt8(ascii: "_") : $0 }
        }
        return bytes.isEmpty ? "trace-analyze" : String(decoding: bytes, as: UTF8.self)
    }

    /// ``classname(_:)`` over the path's characters.
    static func characterClassname(_ input: String) -> String {
        var parts = input.split(separator: "/").map(String.init).filter { $0 != "." && !$0.isEmpty }
        if var last = parts.popLast() {
            if let dot = last.lastIndex(of: "."), dot != last.startIndex { last = String(last[..<dot]) }
            parts.append(last)
        }
        let name = parts.map { $0.replacingDots() }.joined(separator: ".")
        return name.isEmpty ? "trace-analyze" : name
    }

    /// Milliseconds from the first timestamp to the last, rounded; 0 without both or when the clock went back.
    private static func spanMs(_ first: Timestamp?, _ last: Timestamp?) -> Int {
        guard let first, let last else { return 0 }
        return Int(max(0, first.milliseconds(to: last)).rounded())
    }

    /// `1.905`: seconds with milliseconds, as the schema's `SUREFIRE_TIME` (at most three decimals) wants.
    static func seconds(_ ms: Int) -> String {
        let fraction = ms % 1000
        let digits = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(ms / 1000).\(digits)"
    }

    // MARK: Writing

    /// A suite's opening tag, with its counts, and its properties.
    private static func opening(_ suite: Suite) -> String {
        let attributes = attributes([
            ("name", suite.name), ("tests", "\(suite.counts.tests)"), ("failures", "\(suite.counts.failures)"),
            ("errors", "\(suite.counts.errors)"), ("skipped", "\(suite.counts.skipped)"),
            ("time", seconds(suite.timeMs)),
        ])
        var out = "  <testsuite\(attributes)>\n"
        if !suite.properties.isEmpty {
            out += "    <properties>\n"
            for (name, value) in suite.properties {
                out += "      <property\(self.attributes([("name", name), ("value", value)]))/>\n"
            }
            out += "    </properties>\n"
        }
        return out
    }

    private static func write(_ testCase: Case) -> String {
        let head =
            "    <testcase"
            + attributes([
                ("classname", testCase.classname), ("name", testCase.name), ("time", seconds(testCase.timeMs)),
            ])
        guard !testCase.outcome.isEmpty || !testCase.systemOut.isEmpty else { return head + "/>\n" }
        var out = head + ">\n"
        for outcome in testCase.outcome {
            switch outcome {
            case .failure(let type, let message, let text):
                out += element("failure", [("message", message), ("type", type)], text)
            case .error(let type, let message, let text):
                out += element("error", [("message", message), ("type", type)], text)
            case .skipped(let message):
                out += element("skipped", [("message", message)], "")
            }
        }
        if !testCase.systemOut.isEmpty {
            out += "      <system-out>" + testCase.systemOut.joined(separator: "\n").xmlEscapedText + "</system-out>\n"
        }
        out += "    </testcase>\n"
        return out
    }

    private static func element(_ name: String, _ attributes: [(String, String)], _ text: String) -> String {
        let head = "      <\(name)\(self.attributes(attributes))"
        return text.isEmpty ? head + "/>\n" : head + ">\(text.xmlEscapedText)</\(name)>\n"
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\($0.1.xmlEscapedAttribute)\"" }.joined()
    }
}

extension String {
    fileprivate func replacingDots() -> String { String(map { $0 == "." ? "_" : $0 }) }
}
