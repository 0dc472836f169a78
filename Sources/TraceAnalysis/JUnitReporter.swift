/// Renders a report as JUnit XML, the test-report format Jenkins, GitLab and GitHub test reporters show: a
/// `<testsuite>` per input, a `<testcase>` per process, a `<failure>` per finding the failure policy fails on.
///
/// The output validates against the Jenkins xUnit plugin's `junit-10.xsd` (vendored under the tests' `Golden/`).
/// Times are the spans of the log's own timestamps, in seconds, never the time of the analysis, so the same
/// input always gives the same bytes. See `Documentation/CIReports.md` for the mapping.
public enum JUnitReporter {
    /// The JUnit document; its suites are made and written on up to `jobs` threads.
    public static func render(_ report: AnalysisReport, jobs: Int = 1) -> String {
        let byProcess = Dictionary(grouping: CIFinding.all(in: report), by: \.processIndex)
        let byInput = report.processIndicesByInput
        let noEventsAnywhere = report.lifecycleEventCount == 0
        var tests = 0
        var failures = 0
        var errors = 0
        var time = 0
        var suites = ""
        OrderedParallel.forEach(count: report.inputs.count, jobs: jobs) { index in
            let suite = self.suite(report.inputs[index], byInput, byProcess, noEventsAnywhere, report)
            return (
                tests: suite.cases.count, failures: suite.cases.count(where: \.failed),
                errors: suite.cases.count(where: \.errored), time: suite.timeMs, text: write(suite)
            )
        } sink: { suite in
            tests += suite.tests
            failures += suite.failures
            errors += suite.errors
            time += suite.time
            suites += suite.text
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites\(attributes([("name", "trace-analyze"), ("tests", "\(tests)"), ("failures", "\(failures)"), ("errors", "\(errors)"), ("time", seconds(time))]))>\n"
        out += suites
        out += "</testsuites>\n"
        return out
    }

    /// One input's suite: a case per process, or the error that kept it from being read.
    private static func suite(
        _ input: InputSummary, _ byInput: [String: [Int]], _ byProcess: [Int: [CIFinding]], _ noEventsAnywhere: Bool,
        _ report: AnalysisReport
    ) -> Suite {
        var suite = Suite(name: input.name, classname: classname(input.name))
        if let error = input.error {
            suite.cases.append(
                Case(
                    name: "read \(input.name)", classname: suite.classname, timeMs: 0,
                    outcome: [
                        .error(type: "\(error.inputLabel)-input", message: String(describing: error), text: "")
                    ]))
            return suite
        }
        suite.properties = [
            ("format", input.format ?? "none recognised"), ("lines", "\(input.lines)"),
            ("unparsed-lines", "\(input.unparsedLines)"), ("lifecycle-events", "\(input.lifecycleEvents)"),
        ]
        let indices = byInput[input.name] ?? []
        var seenNames: Set<String> = []
        for index in indices {
            let process = report.processes[index]
            var name = process.displayName
            // Two incarnations with one name and pid (a reused pid) stay two test cases.
            if seenNames.contains(name) { name += " from line \(process.firstLine)" }
            seenNames.insert(name)
            suite.cases.append(testCase(process, name: name, suite.classname, byProcess[index] ?? [], report))
        }
        if noEventsAnywhere && input.lifecycleEvents == 0 {
            let message = "no lifecycle event in any input: is this an app's console or device log?"
            suite.cases.append(
                Case(
                    name: "lifecycle events", classname: suite.classname, timeMs: 0,
                    outcome: [.error(type: "no-lifecycle-events", message: message, text: "")]))
        } else if indices.isEmpty {
            // Nothing was checked, which is not a pass: the input held no process at all.
            let message = "no process in \(input.lines) line\(input.lines == 1 ? "" : "s")"
            suite.cases.append(
                Case(name: "lifecycle events", classname: suite.classname, timeMs: 0, outcome: [.skipped(message)]))
        }
        suite.timeMs = inputSpanMs(indices.map { report.processes[$0] })
        return suite
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
        var cases: [Case] = []
    }

    // MARK: Building

    private static func testCase(
        _ process: ProcessReport, name: String, _ classname: String, _ findings: [CIFinding], _ report: AnalysisReport
    ) -> Case {
        var outcome: [Outcome] = []
        var notes: [String] = []
        var span = "lines \(process.firstLine)–\(process.lastLine)"
        if let first = process.firstTime, let last = process.lastTime {
            span += ", \(first.timeOfDay) → \(last.timeOfDay)"
        }
        notes.append("\(span), ends \(process.finalState.rawValue)")
        if let launch = process.launch { notes.append(launchNote(launch)) }
        if !process.episodes.isEmpty {
            notes.append("scenarios: " + process.episodes.map(\.scenario.rawValue).joined(separator: ", "))
        }
        for finding in findings {
            let text = "\(finding.location): \(finding.detail)"
            if finding.failing {
                let full = finding.explanation.map { text + "\n" + $0 } ?? text
                outcome.append(.failure(type: finding.type, message: finding.detail, text: full))
            } else {
                notes.append(
                    "reported, not failing under --fail-on \(report.failOnDescription): \(finding.type) at \(text)")
            }
        }
        let failing = findings.filter(\.failing)
        if failing.count > 1 {
            // Some consumers show only a case's first <failure>: the output names them all.
            let list = failing.map { "\($0.type) at \($0.location)" }.joined(separator: ", ")
            notes.insert("\(failing.count) failures: \(list)", at: 1)
        }
        var testCase = Case(
            name: name, classname: classname, timeMs: spanMs(process.firstTime, process.lastTime), outcome: outcome)
        testCase.systemOut = notes
        return testCase
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

    /// The span of an input's timestamps: its earliest process start to its latest process end.
    private static func inputSpanMs(_ processes: [ProcessReport]) -> Int {
        let firsts = processes.compactMap(\.firstTime)
        let lasts = processes.compactMap(\.lastTime)
        return spanMs(firsts.min(), lasts.max())
    }

    /// `1.905`: seconds with milliseconds, as the schema's `SUREFIRE_TIME` (at most three decimals) wants.
    static func seconds(_ ms: Int) -> String {
        let fraction = ms % 1000
        let digits = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(ms / 1000).\(digits)"
    }

    // MARK: Writing

    private static func write(_ suite: Suite) -> String {
        let attributes = attributes([
            ("name", suite.name), ("tests", "\(suite.cases.count)"),
            ("failures", "\(suite.cases.count(where: \.failed))"), ("errors", "\(suite.cases.count(where: \.errored))"),
            ("skipped", "\(suite.cases.count(where: \.skipped))"), ("time", seconds(suite.timeMs)),
        ])
        var out = "  <testsuite\(attributes)>\n"
        if !suite.properties.isEmpty {
            out += "    <properties>\n"
            for (name, value) in suite.properties {
                out += "      <property\(self.attributes([("name", name), ("value", value)]))/>\n"
            }
            out += "    </properties>\n"
        }
        for testCase in suite.cases { out += write(testCase) }
        out += "  </testsuite>\n"
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
