import Foundation
import Testing

@testable import TraceAnalysis

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The CI formats: Markdown, JUnit XML and GitHub workflow commands. Goldens are re-recorded with
/// `RECORD_GOLDEN=1 swift test --filter CIReport`.
@Suite("CI reports")
struct CIReportTests {
    // MARK: Fixtures

    /// A process name and an exit line full of characters every target language treats specially.
    static let hostileName = "Evil<&\"'|`*_ @team #12 $x$ %25 \u{1B}\u{7}\u{7F}"
    static let hostileInput = "logs/hostile <&\"'|,:%\u{1B}.log"
    static let hostileCapture = """
        0.000 application:didFinishLaunchingWithOptions:
        0.500 applicationDidBecomeActive:
        0.600 applicationDidBecomeActive:
        0.550 <b>&amp; "quoted" | pipe ]]> `tick` *star* @team %0A 100% \u{1B}[31m\u{7}\u{FFFE}
        1.000 Message from debugger: <x> & "y" | 50% Terminated due to signal 9 \u{1B}\u{7}
        """

    static func hostileReport(_ configure: (inout AnalysisOptions) -> Void = { _ in }) throws -> AnalysisReport {
        let capture = ExampleCapture(hostileCapture, process: hostileName)
        return try TestSupport.analyzer(configure).analyze(text: capture.text, name: hostileInput)
    }

    static var xmllintAvailable: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/xmllint")
        }
    }

    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    // MARK: Goldens

    @Test func markdownGolden() throws {
        try TestSupport.compareGolden(
            MarkdownReporter.render(try TestSupport.analyzeAllSamples()), golden: "samples.md")
    }

    @Test func junitGolden() throws {
        try TestSupport.compareGolden(
            JUnitReporter.render(try TestSupport.analyzeAllSamples()), golden: "samples.junit.xml")
    }

    @Test func githubGolden() throws {
        try TestSupport.compareGolden(
            GitHubReporter.render(try TestSupport.analyzeAllSamples()), golden: "samples.github.txt")
    }

    @Test func reportsAreDeterministic() throws {
        let first = try TestSupport.analyzeAllSamples()
        let second = try TestSupport.analyzeAllSamples()
        #expect(MarkdownReporter.render(first) == MarkdownReporter.render(second))
        #expect(JUnitReporter.render(first) == JUnitReporter.render(second))
        #expect(GitHubReporter.render(first) == GitHubReporter.render(second))
    }

    // MARK: JUnit

    /// JUnit's suites count a process's findings without wording them (a digest of limit 0): the counts are those
    /// of the findings listed with their words, on the samples and the hostile capture (violations, launches,
    /// clock anomalies, a kill).
    @Test func findingsCountedWithoutWordsAreTheListedOnes() throws {
        var failing = 0
        var clockAnomalies = 0
        for report in [try TestSupport.analyzeAllSamples(), try Self.hostileReport()] {
            for index in report.processes.indices {
                let process = report.processes.withoutEvents[index]
                let counted = CIFinding.Digest(process, at: index, options: report.options, limit: 0)
                let listed = CIFinding.Digest(process, at: index, options: report.options, limit: CIFinding.listed)
                #expect(counted.first.count == listed.first.count)
                #expect(counted.failing.count == listed.failing.count)
                #expect(counted.reported.count == listed.reported.count)
                #expect(counted.failingByInput == listed.failingByInput)
                #expect(counted.reportedByInput == listed.reportedByInput)
                #expect(counted.first.findings.isEmpty && listed.first.more == 0)
                failing += listed.failing.count
                clockAnomalies += listed.first.findings.filter { $0.kind == .clockAnomaly }.count
            }
        }
        #expect(failing > 0 && clockAnomalies > 0)
    }

    @Test(.enabled(if: xmllintAvailable || inCI))
    func junitOfTheSamplesValidatesAgainstTheSchema() throws {
        try expectValid(JUnitReporter.render(try TestSupport.analyzeAllSamples()))
    }

    @Test(.enabled(if: xmllintAvailable || inCI))
    func junitOfAHostileCaptureValidatesAgainstTheSchema() throws {
        try expectValid(JUnitReporter.render(try Self.hostileReport()))
        try expectValid(
            JUnitReporter.render(
                try Self.hostileReport { $0.failOn = FailurePolicy(Set(FailurePolicy.Finding.allCases)) }))
    }

    @Test(.enabled(if: xmllintAvailable || inCI))
    func junitOfUnreadableAndEmptyInputsValidates() throws {
        let report = try TestSupport.analyzer().analyze([
            .file("/nonexistent/trace-analyze/missing.log"), .text(name: "empty.log", "no lifecycle here\n"),
            .text(name: "app.log", ExampleCapture("0.000 application:didFinishLaunchingWithOptions:").text),
        ])
        let xml = JUnitReporter.render(report)
        try expectValid(xml)
        #expect(xml.contains(#"<error message="/nonexistent/trace-analyze/missing.log: cannot open"#))
        #expect(xml.contains(#"type="unreadable-input""#))
        #expect(xml.contains(#"<skipped message="no process in 1 line"/>"#))

        let nothing = try TestSupport.analyzer().analyze(text: "no lifecycle here\n", name: "empty.log")
        let noEvents = JUnitReporter.render(nothing)
        try expectValid(noEvents)
        #expect(noEvents.contains(#"type="no-lifecycle-events""#))
    }

    /// A process of more episodes than a case names one by one: the first ``JUnitReporter/listedScenarios`` are
    /// named, the others counted by scenario.
    @Test func junitCountsTheScenariosPastTheFirstThousand() throws {
        var lines = [
            "2024-05-01 10:00:00.000 App[7:1] application:didFinishLaunchingWithOptions:",
            "2024-05-01 10:00:00.010 App[7:1] applicationDidBecomeActive:",
        ]
        for index in 0..<600 {
            let ms = 100 + index * 40
            let time = { (offset: Int) in
                String(
                    format: "2024-05-01 10:%02d:%02d.%03d", (ms + offset) / 60_000, (ms + offset) / 1000 % 60,
                    (ms + offset) % 1000)
            }
            lines.append("\(time(0)) App[7:1] applicationWillResignActive:")
            lines.append("\(time(1)) App[7:1] applicationDidEnterBackground:")
            lines.append("\(time(10)) App[7:1] applicationWillEnterForeground:")
            lines.append("\(time(20)) App[7:1] applicationDidBecomeActive:")
        }
        let report = try TestSupport.analyzer().analyze(text: lines.joined(separator: "\n"), name: "cycles.log")
        #expect(report.processes.first?.episodes.count == 1_201)
        let xml = JUnitReporter.render(report)
        let named = "scenarios: launch" + String(repeating: ", enter-background, return-to-foreground", count: 499)
        #expect(
            xml.contains(named + ", enter-background, … and 201 more: enter-background ×100, return-to-foreground ×101")
        )
    }

    /// One app active twice `count` times: `count` violations, all failing.
    static func violations(_ count: Int) throws -> AnalysisReport {
        var lines = [
            "2024-05-01 10:00:00.000 App[7:1] application:didFinishLaunchingWithOptions:",
            "2024-05-01 10:00:00.010 App[7:1] applicationDidBecomeActive:",
        ]
        for index in 0..<count {
            let ms = 100 + index
            let time = String(format: "2024-05-01 10:%02d:%02d.%03d", ms / 60_000, ms / 1000 % 60, ms % 1000)
            lines.append("\(time) App[7:1] applicationDidBecomeActive:")
        }
        return try TestSupport.analyzer().analyze(text: lines.joined(separator: "\n"), name: "violations.log")
    }

    /// Past ``GitHubReporter/annotationLimit`` findings, the first ones are annotated and a notice counts the rest;
    /// a JUnit case lists the first ``JUnitReporter/listedFindings`` failures and counts the rest.
    @Test func theCIReportsListTheFirstFindingsAndCountTheOthers() throws {
        let count = GitHubReporter.annotationLimit + 200
        let report = try Self.violations(count)
        #expect(report.processes.first?.violations.count == count)
        let annotations = GitHubReporter.render(report).split(separator: "\n")
        let errors = annotations.filter { $0.hasPrefix("::error ") }
        #expect(errors.count == GitHubReporter.annotationLimit)
        #expect(errors.first?.contains("line=3,") == true && errors.last?.contains("line=1002,") == true)
        #expect(annotations.contains { $0.contains("::200 more findings not annotated (the first 1000 are)") })
        #expect(annotations.count == GitHubReporter.annotationLimit + 2)

        let xml = JUnitReporter.render(report)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == JUnitReporter.listedFindings)
        #expect(xml.contains("\(count) failures: active-twice at line 3, "))
        #expect(xml.contains("active-twice at line 1002, … and 200 more"))
        if Self.xmllintAvailable || Self.inCI { try expectValid(xml) }

        let markdown = MarkdownReporter.render(report)
        #expect(markdown.contains("- … and \(count - MarkdownReporter.findingLimit) more"))
    }

    /// The first findings kept are those a sort of them all would put first, whatever order they are offered in.
    @Test func theFirstFindingsAreThoseASortPutsFirst() {
        var random = SplitMix64(seed: 7)
        let finding = CIFinding(
            kind: .clockAnomaly, input: "in", line: 1, endLine: nil, processIndex: 0, process: "App", detail: "",
            failing: false)
        for limit in [0, 1, 5, 40] {
            for _ in 0..<200 {
                var keys: [CIFinding.Key] = []
                for made in 0..<Int(random.next() % 60) {
                    keys.append((Int(random.next() % 3), Int(random.next() % 20), made))
                }
                keys.shuffle(using: &random)
                var first = CIFinding.First(limit)
                for key in keys {
                    var offered = finding
                    offered.line = key.line * 1000 + key.made
                    first.offer(offered, at: key)
                }
                let expected = keys.sorted { $0 < $1 }.prefix(limit).map { $0.line * 1000 + $0.made }
                #expect(first.findings.map(\.line) == expected)
                #expect(first.count == keys.count && first.more == keys.count - expected.count)
            }
        }
    }

    @Test func junitCountsMatchTheReport() throws {
        let report = try TestSupport.analyzeAllSamples()
        let parsed = try JUnitDocument(JUnitReporter.render(report))
        #expect(parsed.root["name"] == "trace-analyze")
        #expect(parsed.suites.map { $0["name"] } == report.inputs.map(\.name))
        #expect(parsed.testcases.count == report.processes.count)
        #expect(parsed.root["tests"] == "\(report.processes.count)")
        let failingProcesses = report.processes.count {
            !$0.violations.isEmpty || $0.launch?.overBudget == true || $0.resumesOverBudget > 0
        }
        #expect(parsed.root["failures"] == "\(failingProcesses)")
        #expect(parsed.root["errors"] == "0")
        let ruleIDs = Set(ViolationRule.allCases.map(\.rawValue))
        #expect(parsed.failureTypes.count(where: ruleIDs.contains) == report.violations.count)
        #expect(
            parsed.failureTypes.count { $0 == "over-budget" }
                == report.launchesOverBudget.count + report.resumesOverBudget.count)
        // Killed-in-foreground does not fail the run by default: a note, not a failure.
        #expect(!parsed.failureTypes.contains("killed-in-foreground"))
        #expect(report.findingCounts[.killedInForeground, default: 0] > 0)
        #expect(parsed.systemOut.contains { $0.contains("killed-in-foreground at line") })
        // Suite counts add up to the root's.
        #expect(parsed.suites.reduce(0) { $0 + (Int($1["tests"] ?? "") ?? 0) } == report.processes.count)
        #expect(parsed.suites.reduce(0) { $0 + (Int($1["failures"] ?? "") ?? 0) } == failingProcesses)
    }

    @Test func junitFailsOnWhatThePolicyFailsOn() throws {
        var report = try TestSupport.analyzeAllSamples()
        report.options.failOn = FailurePolicy([.violations, .killedInForeground])
        let parsed = try JUnitDocument(JUnitReporter.render(report))
        #expect(
            parsed.failureTypes.count { $0 == "killed-in-foreground" }
                == report.findingCounts[.killedInForeground])
        #expect(!parsed.failureTypes.contains("over-budget"))
        #expect(parsed.systemOut.contains { $0.contains("over-budget at line") })
    }

    @Test func junitEscapesEverything() throws {
        let report = try Self.hostileReport { $0.failOn = FailurePolicy(Set(FailurePolicy.Finding.allCases)) }
        let xml = JUnitReporter.render(report)
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!xml.contains("\u{FFFE}"))
        let parsed = try JUnitDocument(xml)
        let expectedName = #"Evil<&"'|`*_ @team #12 $x$ %25 \u{1b}\u{7}\u{7f} [100]"#
        #expect(parsed.testcases.map { $0["name"] } == [expectedName])
        #expect(parsed.suites.first?["name"] == #"logs/hostile <&"'|,:%\u{1b}.log"#)
        #expect(parsed.failureTypes.contains("killed-in-foreground"))
        #expect(parsed.failureTypes.contains("clock-anomaly"))
        #expect(parsed.failureTypes.contains("over-budget"))
        #expect(parsed.failureTypes.contains("active-twice"))
    }

    @Test func xmlEscaping() {
        #expect("a<b>&\"c\"".xmlEscapedText == "a&lt;b&gt;&amp;\"c\"")
        #expect("a<b>&\"c\"\n\t\r".xmlEscapedAttribute == "a&lt;b&gt;&amp;&quot;c&quot;&#10;&#9;&#13;")
        #expect("bell\u{7} esc\u{1B} nul\u{0} \u{FFFF}".xmlEscapedText == #"bell\u{7} esc\u{1b} nul\u{0} \u{ffff}"#)
        #expect("]]>".xmlEscapedText == "]]&gt;")
        // A replacement inside one character (CR LF is one) keeps the rest of it once; combining marks stay.
        #expect("a\r\nb".xmlEscapedText == "a&#13;\nb")
        #expect("e\u{301}<\u{301}x".xmlEscapedText == "e\u{301}&lt;\u{301}x")
        #expect("plain text".xmlEscapedText == "plain text")
    }

    @Test func junitTimesComeFromTheLog() throws {
        #expect(JUnitReporter.seconds(0) == "0.000")
        #expect(JUnitReporter.seconds(2029) == "2.029")
        #expect(JUnitReporter.seconds(123_456_789) == "123456.789")
        let xml = JUnitReporter.render(try TestSupport.analyzeSample("slow-launch.log"))
        // 08:15:03.201337 → 08:15:05.230552
        #expect(xml.contains(#"<testcase classname="samples.slow-launch" name="Photos Pro [2231]" time="2.029">"#))
    }

    @Test(arguments: [
        ("samples/slow-launch.log", "samples.slow-launch"), ("app.2024-01-02.log", "app_2024-01-02"),
        ("./a/b/c", "a.b.c"), ("<stdin>", "<stdin>"), ("/", "trace-analyze"), (".hidden", "_hidden"),
    ])
    func junitClassNames(_ input: String, _ expected: String) {
        #expect(JUnitReporter.classname(input) == expected)
    }

    /// An ASCII path's class name is worked out over its bytes, and is the one its characters give: on made and
    /// random paths (dots, slashes, `.` and empty folders, a CR LF pair, which is one character).
    @Test func anASCIIClassNameIsTheOneItsCharactersGive() {
        var random = SplitMix64(seed: 0xC1A5_5E5)
        let pieces = ["/", ".", "..", "a", "b.c", ".log", "x.y.z", "\r\n", "\r", "-", "_", " ", "", "./", "2024.01"]
        var paths = ["", "/", ".", "..", "./.", "a/./b", "/a//b/", ".hidden", "a.", "a/.b", "\r\n.log", "a\r\n/b.c"]
        for _ in 0..<2_000 {
            paths.append(
                (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for path in paths {
            #expect(
                JUnitReporter.asciiClassname(path) == JUnitReporter.characterClassname(path), "\(path.debugDescription)"
            )
        }
        // Other paths keep the characters' way: a dot with a combining accent is no dot.
        #expect(JUnitReporter.classname("caf\u{E9}/a.\u{301}b.log") == "caf\u{E9}.a.\u{301}b")
    }

    // MARK: GitHub

    @Test func githubEscaping() {
        #expect("50% done\r\nnext".workflowCommandMessage == "50%25 done%0D%0Anext")
        #expect("a,b:c%d\ne".workflowCommandProperty == "a%2Cb%3Ac%25d%0Ae")
        #expect("x:y,z".workflowCommandMessage == "x:y,z")
        #expect("esc\u{1B}[31m".workflowCommandMessage == #"esc\u{1b}[31m"#)
        let command = GitHubReporter.command(
            "error", [("file", "logs/a,b:c.log"), ("line", "3"), ("title", "T: x")], "100%\nsure")
        #expect(command == "::error file=logs/a%2Cb%3Ac.log,line=3,title=T%3A x::100%25%0Asure")
    }

    @Test func githubAnnotatesAHostileCaptureOneLineEach() throws {
        let report = try Self.hostileReport()
        let output = GitHubReporter.render(report)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.hasPrefix("::") })
        #expect(lines.count == CIFinding.all(in: report).count + 1)
        let file = "file=logs/hostile <&\"'|%2C%3A%25\\u{1b}.log"
        #expect(lines.dropLast().allSatisfy { $0.contains(file) })
        let killed = try #require(lines.first { $0.contains("title=Killed in foreground") })
        #expect(killed.hasPrefix("::warning "))
        #expect(killed.contains("50%25 Terminated due to signal 9"))
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func githubSeverityFollowsTheFailurePolicy() throws {
        let report = try TestSupport.analyzeAllSamples()
        func severities(_ report: AnalysisReport, _ title: String) -> Set<Substring> {
            let lines = GitHubReporter.render(report).split(separator: "\n").filter { $0.contains("title=\(title)") }
            return Set(lines.map { $0.dropFirst(2).prefix { $0 != " " } })
        }
        #expect(severities(report, "Killed in foreground") == ["warning"])
        #expect(severities(report, "Launch over budget") == ["error"])
        #expect(severities(report, "Lifecycle violation launch-order (rule 1)") == ["error"])

        var changed = report
        changed.options.failOn = FailurePolicy([.violations, .killedInForeground])
        #expect(severities(changed, "Killed in foreground") == ["error"])
        #expect(severities(changed, "Launch over budget") == ["warning"])

        changed.options.failOn = FailurePolicy([])
        #expect(severities(changed, "Lifecycle violation launch-order (rule 1)") == ["warning"])
        #expect(
            GitHubReporter.render(changed).hasSuffix(
                "::notice title=trace-analyze::clean (exit 0); 7 inputs, 13 processes; fail on: none\n"))
    }

    @Test func githubClockAnomaliesAreNoticesUnlessTheyFail() throws {
        let report = try Self.hostileReport()
        #expect(GitHubReporter.render(report).contains("::notice file="))
        let failing = try Self.hostileReport { $0.failOn = FailurePolicy([.clockAnomalies]) }
        let line = try #require(
            GitHubReporter.render(failing).split(separator: "\n").first { $0.contains("title=Clock went backwards") })
        #expect(line.hasPrefix("::error "))
    }

    @Test func githubUnreadableInput() throws {
        let report = try TestSupport.analyzer().analyze([
            .file("/nonexistent/trace-analyze/missing.log"),
            .text(name: "app.log", ExampleCapture("0.000 application:didFinishLaunchingWithOptions:").text),
        ])
        let first = try #require(GitHubReporter.render(report).split(separator: "\n").first)
        #expect(first.hasPrefix("::error file=/nonexistent/trace-analyze/missing.log,title=Unreadable input::"))
        let nothing = try TestSupport.analyzer().analyze(text: "no lifecycle here\n", name: "empty.log")
        #expect(
            GitHubReporter.render(nothing).hasPrefix(
                "::error file=empty.log,title=No lifecycle events::no lifecycle event found in 1 line"))
    }

    // MARK: Markdown

    @Test func markdownEscapesLogText() throws {
        let markdown = MarkdownReporter.render(try Self.hostileReport())
        let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| Evil") })
        // Eleven columns: twelve unescaped pipes.
        #expect(unescapedPipes(row) == 12)
        #expect(row.hasPrefix(#"| Evil\<\&"'\|\`\*\_ @<!-- -->team #<!-- -->12 \$x\$ %25 \\u{1b}\\u{7}\\u{7f} |"#))
        let inputRow = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| logs/") })
        #expect(unescapedPipes(inputRow) == 10)
        #expect(!markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func markdownEscaping() {
        #expect("a|b".markdownEscaped == #"a\|b"#)
        #expect(
            "[x](y) *b* _i_ `c` <t> & ~s~ $m$ \\".markdownEscaped
                == #"\[x\](y) \*b\* \_i\_ \`c\` \<t\> \& \~s\~ \$m\$ \\"#)
        #expect("@team #12 # @".markdownEscaped == "@<!-- -->team #<!-- -->12 # @")
        #expect("line\nbreak".markdownEscaped == #"line\\u{a}break"#)
        // A letter that is not ASCII after `@` makes a mention too; C1 controls are hidden, other scalars stay.
        #expect("@équipe @1 #Ω ✓".markdownEscaped == "@<!-- -->équipe @<!-- -->1 #<!-- -->Ω ✓")
        #expect("a\u{85}b\u{2066}é".markdownEscaped == #"a\\u{85}b\\u{2066}é"#)
    }

    /// The Markdown escaping's rules worked out scalar by scalar, as they are written (``String/markdownEscaped``
    /// reads bytes and decodes a scalar only where a rule looks at one that is not ASCII): the tests' reference.
    static func markdownEscapedByScalars(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        func follows(_ text: String, at index: Int) -> Bool {
            var position = index
            for expected in text.unicodeScalars {
                guard position < scalars.count, scalars[position].properties.lowercaseMapping == String(expected)
                else { return false }
                position += 1
            }
            return true
        }
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case _ where scalar.isASCII && String.opensMarkup(UInt8(scalar.value)):
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "@", "#":
                out.unicodeScalars.append(scalar)
                let next = index + 1 < scalars.count ? scalars[index + 1] : " "
                if next.properties.isAlphabetic || ("0"..."9").contains(next) { out += "<!-- -->" }
            case ":" where follows("//", at: index + 1):
                out += ":<!-- -->"
            case _ where (scalar == "w" || scalar == "W") && follows("ww.", at: index + 1):
                out.unicodeScalars.append(scalar)
                out += "<!-- -->"
            case _ where String.isHidden(scalar):
                out += "\\" + String.visibleEscape(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The escaping reads bytes, and leaves inert text as it is: on made and random texts of plain and special
    /// pieces, ASCII and not, it gives what the rules worked out scalar by scalar give.
    @Test func markdownEscapingLeavesInertTextAsItIs() {
        let path = "bench-data/batch-1000-200KB/device-0/run-1/capture-10.log"
        #expect(String.isInertInMarkdown(path.utf8) && path.markdownEscaped == path)
        let made = [
            "www.example", "a WwW.b", "http://x", "a:b", "@me", "#1", "a_b", "tab\t", "café", "w.ww.wwx.", "@équipe",
            "#Ω", "@中文", "#١٢", "ｗｗｗ.x", "Ｗww.x", "\u{85}next", "a\u{2066}b\u{2069}", "\u{200F}@x", "🙂#1 @🙂",
        ]
        for text in made {
            #expect(text.markdownEscaped == Self.markdownEscapedByScalars(text), "\(text.debugDescription)")
        }
        #expect(!String.isInertInMarkdown("see www.example.com".utf8))
        #expect(String.isInertInMarkdown("ww.w w.ww".utf8))
        var random = SplitMix64(seed: 0x4D44)
        let pieces = [
            "w", "W", "ww", ".", "www.", ":", "//", "@", "#", "a", "Z", "9", " ", "-", "/", "(", ")", "_", "|", "\\",
            "\u{1B}", "\u{7F}", "é", "\u{202E}", "!", "%", "+", "=", "?", "'", "\"", "Ω", "中", "\u{85}", "\u{2066}",
            "ｗ", "🙂", "١",
        ]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            #expect(text.markdownEscaped == Self.markdownEscapedByScalars(text), "\(text.debugDescription)")
        }
    }

    @Test func markdownCapsTheFindings() throws {
        var notation = "0.000 application:didFinishLaunchingWithOptions:\n0.050 applicationDidBecomeActive:"
        for index in 1...40 { notation += "\n\(Double(index) / 10 + 0.05) applicationDidBecomeActive:" }
        let report = try TestSupport.analyzeExample(notation).0
        let total = CIFinding.all(in: report).count
        #expect(total == 40)
        let markdown = MarkdownReporter.render(report)
        let items = markdown.split(separator: "\n").filter { $0.hasPrefix("- ") }
        #expect(items.count == MarkdownReporter.findingLimit + 1)
        #expect(items.last == "- … and \(total - MarkdownReporter.findingLimit) more")
        #expect(markdown.hasPrefix("## ❌ trace-analyze: 40 violations (exit 1)\n"))
    }

    @Test func markdownTitles() throws {
        let clean = try TestSupport.analyzeExample(
            "0.000 application:didFinishLaunchingWithOptions:\n0.050 applicationDidBecomeActive:"
        ).0
        #expect(MarkdownReporter.render(clean).hasPrefix("## ✅ trace-analyze: clean (exit 0)\n"))
        let two = try Self.hostileReport { $0.failOn = FailurePolicy([.violations, .clockAnomalies]) }
        #expect(MarkdownReporter.render(two).hasPrefix("## ❌ trace-analyze: 1 violation, 1 clock anomaly (exit 1)\n"))
        let unreadable = try TestSupport.analyzer().analyze([.file("/nonexistent/trace-analyze/missing.log")])
        #expect(
            MarkdownReporter.render(unreadable).hasPrefix(
                "## ⚠️ trace-analyze: input problem: 1 input unreadable (exit 2)\n"))
    }

    @Test func markdownFoldsManyInputs() throws {
        let capture = ExampleCapture(
            "0.000 application:didFinishLaunchingWithOptions:\n0.050 applicationDidBecomeActive:")
        let few = try TestSupport.analyzer().analyze((1...3).map { .text(name: "run-\($0).log", capture.text) })
        #expect(!MarkdownReporter.render(few).contains("<details>"))
        let many = try TestSupport.analyzer().analyze((1...12).map { .text(name: "run-\($0).log", capture.text) })
        let markdown = MarkdownReporter.render(many)
        #expect(markdown.contains("<details><summary><b>Inputs (12)</b></summary>\n\n| Input |"))
        #expect(markdown.hasSuffix("</details>\n"))
    }

    // MARK: Helpers

    private func unescapedPipes(_ line: Substring) -> Int {
        var count = 0
        var escaped = false
        for character in line {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                count += 1
            }
        }
        return count
    }

    /// Runs `xmllint --noout --schema Golden/junit-10.xsd` on `xml`.
    private func expectValid(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let schema = TestSupport.golden.appendingPathComponent("junit-10.xsd").path
        process.arguments = ["xmllint", "--noout", "--schema", schema, file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xmllint: \(message)", sourceLocation: sourceLocation)
    }
}

/// The parts of a JUnit document the tests look at, read with Foundation's XMLParser.
private final class JUnitDocument: NSObject, XMLParserDelegate {
    var root: [String: String] = [:]
    var suites: [[String: String]] = []
    var testcases: [[String: String]] = []
    var failureTypes: [String] = []
    var systemOut: [String] = []
    private var text = ""
    private var parseError: Error?

    struct Invalid: Error { var reason: String }

    init(_ xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw Invalid(reason: parser.parserError.map { "\($0)" } ?? parseError.map { "\($0)" } ?? "unknown")
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch elementName {
        case "testsuites": root = attributes
        case "testsuite": suites.append(attributes)
        case "testcase": testcases.append(attributes)
        case "failure": failureTypes.append(attributes["type"] ?? "")
        default: break
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "system-out" { systemOut.append(text) }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: Error) { parseError = error }
}
