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
        var head = ReportText()
        head.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites")
        attribute("name", "trace-analyze", &head)
        attribute("tests", document.tests, &head)
        attribute("failures", document.failures, &head)
        attribute("errors", document.errors, &head)
        attribute("time", milliseconds: document.timeMs, &head)
        head.append(">\n")
        try OrderedParallel.writeBytes(
            head: head.take(), pieces: document.pieces.count, jobs: jobs, chunkSize: chunkSize, to: sink
        ) {
            document.render($0)
        } parts: { _, _ in
        } tail: {
            Array("</testsuites>\n".utf8)
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
                    name: "read \(input.name)",
                    outcome: .error(type: "\(error.inputLabel)-input", message: String(describing: error)))
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
                    report.processes.withReport(at: position, events: false) { process in
                        let name = process.displayName
                        let repeated = seenNames.contains(name)
                        seenNames.insert(caseName(name, process, repeated: repeated))
                        pieces.append(.testCase(process: position, suite: index, repeatedName: repeated))
                        suite.counts.tests += 1
                        // Counted only, none kept.
                        let findings = CIFinding.Digest(process, at: position, options: report.options, limit: 0)
                        if findings.failing.count > 0 { suite.counts.failures += 1 }
                        if let time = process.firstTime { first = min(first ?? time, time) }
                        if let time = process.lastTime { last = max(last ?? time, time) }
                    }
                }
                if report.lifecycleEventCount == 0 && input.lifecycleEvents == 0 {
                    let message = "no lifecycle event in any input: is this an app's console or device log?"
                    closing = Case(
                        name: "lifecycle events", outcome: .error(type: "no-lifecycle-events", message: message))
                } else if indices.isEmpty {
                    // Nothing was checked, which is not a pass: the input held no process at all.
                    let message = "no process in \(input.lines) line\(input.lines == 1 ? "" : "s")"
                    closing = Case(name: "lifecycle events", outcome: .skipped(message))
                }
                // The span of the input's timestamps: its earliest process start to its latest process end.
                suite.timeMs = spanMs(first, last)
            }
            if let closing {
                suite.counts.tests += 1
                switch closing.outcome {
                case .error: suite.counts.errors += 1
                case .skipped: suite.counts.skipped += 1
                }
            }
            suite.closing = closing
            return (suite, pieces)
        }

        /// A case's name: its process's, with the process's first line when an earlier case of the suite has that
        /// name (two incarnations with one name and pid, a reused pid, stay two test cases).
        private static func caseName(_ displayName: String, _ process: ProcessReport, repeated: Bool) -> String {
            repeated ? displayName + " from line \(process.firstLine)" : displayName
        }

        func render(_ index: Int) -> [UInt8] {
            var out = ReportText()
            switch pieces[index] {
            case .suiteStart(let input): opening(suites[input], &out)
            case .testCase(let position, let suite, let repeatedName):
                report.processes.withReport(at: position, events: false) { process in
                    let findings = CIFinding.Digest(
                        process, at: position, options: report.options, limit: JUnitReporter.listedFindings)
                    let name = Self.caseName(process.displayName, process, repeated: repeatedName)
                    testCase(process, name: name, suites[suite].classname, findings, report, &out)
                }
            case .suiteEnd(let input):
                if let closing = suites[input].closing { write(closing, suites[input].classname, &out) }
                out.append("  </testsuite>\n")
            }
            return out.take()
        }
    }

    // MARK: Model

    /// The case a suite ends with beyond its processes': its name and what it says (its class is the suite's,
    /// its time 0).
    struct Case {
        enum Outcome {
            case error(type: String, message: String)
            case skipped(String)
        }

        var name: String
        var outcome: Outcome
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

    /// A process's test case: a `<failure>` per failing finding (up to the limit), then in `<system-out>` its
    /// span, how many failures (when more than one), its launch, its scenarios and the findings reported without
    /// failing, a line each.
    private static func testCase(
        _ process: ProcessReport, name: String, _ classname: String, _ findings: CIFinding.Digest,
        _ report: AnalysisReport, _ out: inout ReportText
    ) {
        caseHead(classname, name, spanMs(process.firstTime, process.lastTime), &out)
        out.append(">\n")
        for finding in findings.failing.findings {
            out.append("      <failure")
            attribute("message", finding.detail, &out)
            attribute("type", finding.type, &out)
            out.append(">")
            out.append(finding.location, escaping: String.xmlText)
            out.append(": ")
            out.append(finding.detail, escaping: String.xmlText)
            if let explanation = finding.explanation {
                out.append("\n")
                out.append(explanation, escaping: String.xmlText)
            }
            out.append("</failure>\n")
        }
        // The output's lines, escaped as the text they join into (a line feed is kept as it is).
        out.append("      <system-out>")
        out.appendSpan(of: process, timesAfter: ", ")
        out.append(", ends ")
        out.append(process.finalState.rawValue)
        let failing = findings.failing
        if failing.count > 1 {
            // Some consumers show only a case's first <failure>: the output names them all (up to the limit).
            out.append("\n")
            out.append(failing.count)
            out.append(" failures: ")
            for (index, finding) in failing.findings.enumerated() {
                if index > 0 { out.append(", ") }
                out.append(finding.type, escaping: String.xmlText)
                out.append(" at ")
                out.append(finding.location, escaping: String.xmlText)
            }
            if failing.more > 0 {
                out.append(", … and ")
                out.append(failing.more)
                out.append(" more")
            }
        }
        if let launch = process.launch {
            out.append("\n")
            launchNote(launch, &out)
        }
        if !process.episodes.isEmpty {
            out.append("\n")
            scenariosNote(process.episodes, &out)
        }
        for finding in findings.reported.findings {
            out.append("\nreported, not failing under --fail-on ")
            out.append(report.failOnDescription, escaping: String.xmlText)
            out.append(": ")
            out.append(finding.type, escaping: String.xmlText)
            out.append(" at ")
            out.append(finding.location, escaping: String.xmlText)
            out.append(": ")
            out.append(finding.detail, escaping: String.xmlText)
        }
        if findings.reported.more > 0 {
            out.append("\n… and ")
            out.append(findings.reported.more)
            out.append(" more reported, not failing")
        }
        out.append("</system-out>\n    </testcase>\n")
    }

    /// At most this many scenarios are named one by one in a case's output; the others are counted by scenario.
    static let listedScenarios = 1_000

    /// `scenarios: launch, enter-background, …`, in report order; past ``listedScenarios``, `… and 599001 more:
    /// enter-background ×299500, return-to-foreground ×299501` (a process may have hundreds of thousands).
    private static func scenariosNote(_ episodes: TimelineEpisodes, _ out: inout ReportText) {
        out.append("scenarios: ")
        var listed = 0
        var more: [Scenario: Int] = [:]
        for episode in episodes {
            guard listed < listedScenarios else {
                more[episode.scenario, default: 0] += 1
                continue
            }
            if listed > 0 { out.append(", ") }
            out.append(episode.scenario.rawValue)
            listed += 1
        }
        guard !more.isEmpty else { return }
        out.append(", … and ")
        out.append(episodes.count - listed)
        out.append(" more: ")
        var first = true
        for scenario in Scenario.allCases {
            guard let count = more[scenario] else { continue }
            if !first { out.append(", ") }
            first = false
            out.append(scenario.rawValue)
            out.append(" ×")
            out.append(count)
        }
    }

    /// `launch: 1.2 s to active (budget 400 ms), over budget`, or why it has no duration, written into `out`
    /// (escaped where it quotes a configured reason).
    private static func launchNote(_ launch: LaunchReport, _ out: inout ReportText) {
        guard let duration = launch.durationMs else {
            if launch.excluded {
                out.append("launch: not checked (")
                out.append(launch.excludedReason ?? "excluded", escaping: String.xmlText)
                out.append("), never active")
            } else {
                out.append(
                    launch.endLine == nil
                        ? "launch: never became active in this log" : "launch: no timestamps to measure")
            }
            return
        }
        out.append("launch: ")
        out.appendDuration(duration)
        out.append(" to active (budget ")
        out.appendDuration(launch.budgetMs)
        if launch.excluded {
            out.append("), not checked: ")
            out.append(launch.excludedReason ?? "excluded", escaping: String.xmlText)
        } else {
            out.append(launch.overBudget ? "), over budget" : "), within budget")
        }
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

    /// ``classname(_:)`` of an ASCII path, over its bytes: the parts between slashes but empty ones and `.`, the
    /// last without its extension, joined by dots, their own dots made `_` (one pass, one array of parts).
    static func asciiClassname(_ input: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var input = input
        return input.withUTF8 { bytes in
            var parts: [Range<Int>] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == slash {
                if index > start, index - start > 1 || bytes[start] != dot { parts.append(start..<index) }
                start = index + 1
            }
            guard let last = parts.last else { return "trace-analyze" }
            if let end = bytes[last].lastIndex(of: dot), end != last.lowerBound {
                parts[parts.count - 1] = last.lowerBound..<end
            }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                var count = 0
                for (index, part) in parts.enumerated() {
                    if index > 0 {
                        out[count] = dot
                        count += 1
                    }
                    for byte in bytes[part] {
                        out[count] = byte == dot ? UInt8(ascii: "_") : byte
                        count += 1
                    }
                }
                return count
            }
        }
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
        var out = ReportText()
        seconds(ms, &out)
        return String(decoding: out.take(), as: UTF8.self)
    }

    private static func seconds(_ ms: Int, _ out: inout ReportText) {
        out.append(ms / 1000)
        out.append(".")
        let fraction = ms % 1000
        if fraction >= 0 && fraction < 100 { out.append(fraction < 10 ? "00" : "0") }
        out.append(fraction)
    }

    // MARK: Writing

    /// A suite's opening tag, with its counts, and its properties.
    private static func opening(_ suite: Suite, _ out: inout ReportText) {
        out.append("  <testsuite")
        attribute("name", suite.name, &out)
        attribute("tests", suite.counts.tests, &out)
        attribute("failures", suite.counts.failures, &out)
        attribute("errors", suite.counts.errors, &out)
        attribute("skipped", suite.counts.skipped, &out)
        attribute("time", milliseconds: suite.timeMs, &out)
        out.append(">\n")
        guard !suite.properties.isEmpty else { return }
        out.append("    <properties>\n")
        for (name, value) in suite.properties {
            out.append("      <property")
            attribute("name", name, &out)
            attribute("value", value, &out)
            out.append("/>\n")
        }
        out.append("    </properties>\n")
    }

    /// `    <testcase classname=… name=… time=…`, the tag left open.
    private static func caseHead(_ classname: String, _ name: String, _ timeMs: Int, _ out: inout ReportText) {
        out.append("    <testcase")
        attribute("classname", classname, &out)
        attribute("name", name, &out)
        attribute("time", milliseconds: timeMs, &out)
    }

    /// A suite's closing case: an error or a skip, each an element with no text.
    private static func write(_ testCase: Case, _ classname: String, _ out: inout ReportText) {
        caseHead(classname, testCase.name, 0, &out)
        out.append(">\n")
        switch testCase.outcome {
        case .error(let type, let message):
            out.append("      <error")
            attribute("message", message, &out)
            attribute("type", type, &out)
        case .skipped(let message):
            out.append("      <skipped")
            attribute("message", message, &out)
        }
        out.append("/>\n    </testcase>\n")
    }

    /// ` name="value"`, the value escaped for a double-quoted attribute.
    private static func attribute(_ name: StaticString, _ value: String, _ out: inout ReportText) {
        attribute(name, &out) { $0.append(value, escaping: String.xmlAttribute) }
    }

    private static func attribute(_ name: StaticString, _ value: Int, _ out: inout ReportText) {
        attribute(name, &out) { $0.append(value) }
    }

    /// ` name="1.905"`: milliseconds as ``seconds(_:)`` writes them.
    private static func attribute(_ name: StaticString, milliseconds: Int, _ out: inout ReportText) {
        attribute(name, &out) { seconds(milliseconds, &$0) }
    }

    /// ` name="…"`, what `value` writes between the quotes.
    private static func attribute(
        _ name: StaticString, _ out: inout ReportText, _ value: (inout ReportText) -> Void
    ) {
        out.append(" ")
        out.append(name)
        out.append("=\"")
        value(&out)
        out.append("\"")
    }
}

extension String {
    fileprivate func replacingDots() -> String { String(map { $0 == "." ? "_" : $0 }) }
}
