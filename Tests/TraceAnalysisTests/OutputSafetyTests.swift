import Foundation
import Testing

@testable import TraceAnalysis

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every piece of log text that reaches a report is escaped for that report's language: one test per format over
/// the one hostile capture (``HostileCapture``). Where a real reader exists on the machine (headless Chromium,
/// xmllint, cmark-gfm) the report is given to it; in CI those tests always run.
@Suite("Output safety")
struct OutputSafetyTests {
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// The same capture with harmless names and messages: a report of the same shape, to compare markup with.
    static func plainReport() throws -> AnalysisReport {
        var text = HostileCapture.text
        for (hostile, plain) in [
            (HostileCapture.processName, "Plain App"),
            (HostileCapture.exitMessage, "Message from debugger: Terminated due to signal 9"),
            (HostileCapture.ndjsonProcessName, "Plain Nd"),
        ] {
            text = text.replacing(hostile, with: plain)
        }
        text = text.replacing(
            #"Message from debugger: Terminated due to signal 9\n::add-mask::secret\r\n::set-env name=PWNED::1\n# heading\n- item\n```"#,
            with: "Message from debugger: Terminated due to signal 9")
        text = text.replacing("\u{1B}[31mred\u{1B}[0m", with: "red")
        return try TestSupport.analyzer { $0.failOn = FailurePolicy(Set(FailurePolicy.Finding.allCases)) }
            .analyze(text: text, name: "logs/plain.txt")
    }

    /// Characters no report for people may carry raw (line feeds and, where allowed, tabs aside).
    static func hiddenScalars(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { String.isHidden($0) && !allowed.contains($0) }
    }

    // MARK: The capture

    @Test func theHostileTextReachesTheReport() throws {
        let report = try HostileCapture.report()
        #expect(report.inputs.map(\.name) == [HostileCapture.inputName])
        #expect(report.processes.map(\.name) == [HostileCapture.processName, HostileCapture.ndjsonProcessName])
        #expect(
            report.processes.map { $0.exit?.evidence } == [
                HostileCapture.exitMessage, HostileCapture.ndjsonExitMessage,
            ])
        #expect(report.violations.map(\.rule) == [.activeTwice])
        #expect(report.processes.flatMap(\.episodes).contains { $0.evidence.contains(HostileCapture.exitMessage) })
        let plain = try Self.plainReport()
        #expect(plain.processes.map(\.name) == ["Plain App", "Plain Nd"])
        #expect(CIFinding.all(in: plain).count == CIFinding.all(in: report).count)
    }

    // MARK: Text (the terminal)

    @Test func textShowsControlAndBidiCharactersVisibly() throws {
        let report = try HostileCapture.report()
        let plain = TextReporter(color: false, showEvents: true).render(report)
        #expect(Self.hiddenScalars(plain).isEmpty, "raw: \(Self.hiddenScalars(plain))")
        #expect(plain.contains(Sanitizer.terminal(HostileCapture.processName)))
        #expect(plain.contains(#"\u{9d}0;PWNED\u{7}\u{1b}c\u{202e}gnp.exe"#))
        #expect(plain.contains(#"signal 9 \u{1b}[2J\u{1b}]0;PWNED\u{7}\u{9b}31m"#))
        #expect(plain.contains(#"\u{0}\u{b}"#))
        #expect(plain.contains(#"Terminated due to signal 9\u{a}::add-mask::secret\u{d}\u{a}::set-env"#))
        #expect(plain.contains(Sanitizer.terminal(HostileCapture.inputName)))
        // With colour, the only escape sequences are the report's own SGR colours.
        let coloured = TextReporter(color: true, showEvents: true).render(report)
        let stripped = coloured.replacing(/\x{1B}\[[0-9;]*m/, with: "")
        #expect(Self.hiddenScalars(stripped).isEmpty)
        // What `check` and `trace-analyze formats` print goes through the same sanitizer.
        #expect(Sanitizer.terminal("a\u{1B}[2Jb\u{202E}c\u{85}") == #"a\u{1b}[2Jb\u{202e}c\u{85}"#)
    }

    // MARK: JSON

    @Test func jsonIsValidAndCarriesTheTextExactly() throws {
        let report = try HostileCapture.report()
        let bytes = JSONReporter.bytes(report)
        #expect(String(validating: bytes, as: UTF8.self) != nil, "not UTF-8")
        #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A }, "a raw control character")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let inputs = try #require(root["inputs"] as? [[String: Any]])
        let processes = try #require(root["processes"] as? [[String: Any]])
        #expect(inputs.first?["name"] as? String == HostileCapture.inputName)
        #expect(
            processes.map { $0["name"] as? String } == [HostileCapture.processName, HostileCapture.ndjsonProcessName])
        let evidence = processes.map { ($0["exit"] as? [String: Any])?["evidence"] as? String }
        #expect(evidence == [HostileCapture.exitMessage, HostileCapture.ndjsonExitMessage])
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"\u001b]0;PWNED\u0007"#))
    }

    // MARK: Markdown

    static var cmarkGFM: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: "\($0)/cmark-gfm") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test func markdownHasNoInjectedMarkupInTheText() throws {
        let markdown = MarkdownReporter.render(try HostileCapture.report())
        #expect(Self.hiddenScalars(markdown).isEmpty, "raw: \(Self.hiddenScalars(markdown))")
        // Headings, lists and quotes start lines: every line starts with the report's own words, never log text.
        let starts = [
            "## ", "### ", "| ", "- ", "❌ ", "Fails on", "Nearest-rank", "None.", "launch ", "<details>", "</details>",
        ]
        for line in markdown.split(separator: "\n") {
            #expect(starts.contains { line.hasPrefix($0) } || line.first?.isNumber == true, "line starts with: \(line)")
        }
        #expect(!markdown.contains(/[^\\]\]\(/), "a link or an image")
        #expect(!markdown.contains("://"), "a bare URL GitHub would link")
        #expect(!markdown.contains("www.evil"), "a bare host name GitHub would link")
        #expect(markdown.contains(#"\[x\](http:<!-- -->//evil.example/)"#))
        #expect(markdown.contains(#"!\[i\](https:<!-- -->//evil.example/i.png)"#))
    }

    /// Renders the report with GitHub's own Markdown engine (cmark-gfm, its extensions on, raw HTML let through):
    /// the hostile report must give exactly the elements the same report with harmless names gives.
    @Test(.enabled(if: cmarkGFM != nil || inCI))
    func markdownRendersToTheSameElementsAsAHarmlessReport() throws {
        let cmark = try #require(Self.cmarkGFM, "cmark-gfm is not installed (Debian: apt-get install cmark-gfm)")
        func render(_ markdown: String) throws -> String {
            let result = try Self.run(
                cmark, ["--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tasklist"],
                stdin: markdown)
            #expect(result.status == 0, "cmark-gfm: \(result.stderr)")
            return result.stdout
        }
        let hostile = try render(MarkdownReporter.render(try HostileCapture.report()))
        let plain = try render(MarkdownReporter.render(try Self.plainReport()))
        #expect(Self.tags(hostile) == Self.tags(plain), "the log text added or removed elements")
        for tag in ["<a ", "<img", "<script", "<svg", "<h1", "<h4", "<del", "<input"] {
            #expect(!hostile.contains(tag), "rendered \(tag)")
        }
        // The text is there, as text (once the empty comments that break links are taken out).
        let text = hostile.replacing("<!-- -->", with: "")
        #expect(text.contains("[x](http://evil.example/)"))
        #expect(text.contains("@team #12"))
        #expect(text.contains("www.evil.example"))
        #expect(text.contains("&lt;script&gt;document.title="))
    }

    // MARK: HTML

    @Test func htmlEscapesEveryPieceOfLogText() throws {
        let html = HTMLReporter.render(try HostileCapture.report())
        #expect(Self.hiddenScalars(html, allowing: ["\n", "\t"]).isEmpty, "raw: \(Self.hiddenScalars(html))")
        for raw in ["<script", "<img", "<svg onload", "<b>'x", "onerror=\"", "onerror='"] {
            #expect(!html.contains(raw), "\(raw) reached the page")
        }
        #expect(html.contains("Evil&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;&quot;&gt;&lt;img"))
        #expect(html.contains("Evil Nd&lt;b&gt;&#39;x&amp;amp;"))
        #expect(html.contains(#"\u{202e}gnp.exe"#))
        #expect(Self.tags(html) == Self.tags(HTMLReporter.render(try Self.plainReport())))
    }

    /// Loads the hostile page in headless Chromium with its Content-Security-Policy taken out, so that escaping is
    /// the only defence: no payload may run (each would set `document.title`) and none may add an element.
    @Test(.enabled(if: HTMLReportTests.chromiumAvailable || inCI))
    func htmlRunsNoScriptInChromium() throws {
        let chromium = try #require(HTMLReportTests.chromium, "chromium is not installed (apt-get install chromium)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-html-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var html = HTMLReporter.render(try HostileCapture.report())
        let policy = try #require(html.firstRange(of: /<meta http-equiv="Content-Security-Policy"[^>]*>\n?/))
        html.removeSubrange(policy)
        #expect(!html.contains("Content-Security-Policy"))
        let page = folder.appendingPathComponent("hostile.html")
        try html.write(to: page, atomically: true, encoding: .utf8)

        let dom = try HTMLReportTests.runChromium(
            chromium, ["--virtual-time-budget=2000", "--dump-dom", page.absoluteString], profile: folder)
        #expect(dom.status == 0, "chromium failed: \(dom.stderr)")
        let title = try #require(dom.stdout.firstMatch(of: /<title>([^<]*)<\/title>/)?.output.1)
        #expect(title.hasPrefix("trace-analyze"), "document.title is now \(title)")
        #expect(!dom.stdout.contains(HostileCapture.pwned + "</title>"))
        for element in ["<img", "<script", "<svg onload", "<b>'x"] {
            #expect(!dom.stdout.contains(element), "the page gained \(element)")
        }
        #expect(dom.stdout.contains("Evil&lt;script&gt;document.title='PWNED'&lt;/script&gt;"))
        HTMLReportTests.expectNoPageErrors(dom.stderr)
    }

    // MARK: JUnit XML

    @Test func junitIsWellFormedXMLOnePointZero() throws {
        let xml = JUnitReporter.render(try HostileCapture.report())
        // XML 1.0 forbids C0 controls but tab, line feed and carriage return, and U+FFFE/U+FFFF; a raw carriage
        // return would be read back as a line feed, so it is written as a reference too.
        let forbidden = xml.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0xFFFE || $0.value == 0xFFFF
                || String.isHidden($0) && $0 != "\n" && $0 != "\t"
        }
        #expect(forbidden.isEmpty, "\(forbidden)")
        let names = try XMLNames(xml)
        #expect(names.testcases.contains(Sanitizer.terminal(HostileCapture.processName) + " [100]"))
        #expect(names.suites == [Self.visible(HostileCapture.inputName, keeping: ["\n"])])
        #expect(names.texts.contains { $0.contains("::add-mask::secret") })
        if CIReportTests.xmllintAvailable || Self.inCI {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).xml")
            try xml.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let schema = TestSupport.golden.appendingPathComponent("junit-10.xsd").path
            let result = try Self.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["xmllint", "--noout", "--schema", schema, file.path], stdin: "")
            #expect(result.status == 0, "xmllint: \(result.stderr)")
        }
    }

    // MARK: GitHub workflow commands

    /// Reads the output as the Actions runner does (`::command k=v,k=v::data`, percent-decoded): one annotation per
    /// finding and a summary, each line a command of ours whose data holds the log text, never a command of its own.
    @Test func githubAnnotationsCannotStartAWorkflowCommand() throws {
        let report = try HostileCapture.report()
        let output = GitHubReporter.render(report)
        #expect(Self.hiddenScalars(output).isEmpty, "raw: \(Self.hiddenScalars(output))")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == CIFinding.all(in: report).count + 1)
        var messages: [String] = []
        for line in lines {
            let command = try #require(WorkflowCommand(line), "not a workflow command: \(line)")
            #expect(["error", "warning", "notice"].contains(command.name), "\(command.name)")
            #expect(Set(command.properties.keys).isSubset(of: ["file", "line", "endLine", "title"]))
            if let file = command.properties["file"] {
                // The runner decodes the name as it is, line feed included; nothing else hides in it.
                #expect(file == Self.visible(HostileCapture.inputName, keeping: ["\n"]))
            }
            messages.append(command.data)
        }
        #expect(messages.contains { $0.contains("signal 9\n::add-mask::secret\r\n::set-env name=PWNED::1") })
        #expect(messages.contains { $0.contains("%0A::set-env name=X::1") })
        #expect(messages.contains { $0.contains(#"\r::error::injected"#) || $0.contains("\r::error::injected") })
        for line in lines {
            #expect(line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice "))
        }
    }

    // MARK: The escapers

    @Test func everyEscaperShowsBidiControlsAndBreaksBareLinks() {
        let bidi = "a\u{202E}b\u{2066}c\u{200F}d"
        #expect(Sanitizer.terminal(bidi) == #"a\u{202e}b\u{2066}c"# + "\u{200F}d")
        #expect(bidi.htmlEscaped == #"a\u{202e}b\u{2066}c"# + "\u{200F}d")
        #expect(bidi.xmlEscapedText == #"a\u{202e}b\u{2066}c"# + "\u{200F}d")
        #expect(bidi.workflowCommandMessage == #"a\u{202e}b\u{2066}c"# + "\u{200F}d")
        #expect(bidi.markdownEscaped == #"a\\u{202e}b\\u{2066}c"# + "\u{200F}d")
        #expect("see https://x.io or WWW.x.io".markdownEscaped == "see https:<!-- -->//x.io or W<!-- -->WW.x.io")
        #expect("a:b // www".markdownEscaped == "a:b // www")
    }

    /// The escapers decode only the characters that can need escaping (``EscapedBytes``) and copy the rest as
    /// bytes: each must give, for any text, what it gives for the text's scalars one at a time (every one of them
    /// escapes scalar by scalar). Random texts of ASCII, controls, bidi controls, U+FFFE, and kept characters of two
    /// to four bytes (combining marks, an emoji), in a seeded sequence.
    @Test func escapersGiveForAnyTextWhatTheyGiveScalarByScalar() {
        let escapers: [(String, (String) -> String)] = [
            ("xml text", \.xmlEscapedText), ("xml attribute", \.xmlEscapedAttribute), ("html", \.htmlEscaped),
            ("workflow message", \.workflowCommandMessage), ("workflow property", \.workflowCommandProperty),
            ("terminal", Sanitizer.terminal),
        ]
        let unusual: [Unicode.Scalar] = [
            "é", "\u{85}", "\u{9F}", "\u{A0}", "\u{7FF}", "я", "\u{800}", "\u{200F}", "\u{202A}", "\u{202E}",
            "\u{2066}", "\u{2069}", "→", "–",
            "\u{301}", "中", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "😀", "\u{10FFFF}",
        ]
        let pool = (UInt8(0)..<0x80).map { Unicode.Scalar($0) } + unusual
        var random = SplitMix64(seed: 6)
        var changed = Set<String>()
        for length in 0..<400 {
            var text = ""
            for _ in 0..<(length % 40) {
                // Mostly plain letters, as log text is, so runs are copied between the characters looked at.
                let pick = Int(random.next() % UInt64(pool.count * 2))
                text.unicodeScalars.append(pick < pool.count ? pool[pick] : "x")
            }
            for (name, escape) in escapers {
                let expected = text.unicodeScalars.map { escape(String($0)) }.joined()
                let escaped = escape(text)
                #expect(escaped == expected, "\(name) of \(Array(text.unicodeScalars.map(\.value)))")
                if escaped != text { changed.insert(name) }
            }
        }
        #expect(changed.count == escapers.count)
        // What each escaper gives for one character beyond ASCII: a visible escape for a hidden one (and, in XML,
        // for U+FFFE and U+FFFF), else the character.
        for scalar in unusual {
            for (name, escape) in escapers {
                let forbidden = name.hasPrefix("xml") && (0xFFFE...0xFFFF).contains(scalar.value)
                let hidden = String.isHidden(scalar) || forbidden
                let expected = hidden ? String.visibleEscape(scalar) : String(scalar)
                #expect(escape("a" + String(scalar) + "b") == "a" + expected + "b", "\(name) of \(scalar.value)")
            }
        }
    }

    // MARK: Helpers

    /// `text` with its hidden characters but `kept` written as visible escapes.
    static func visible(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String {
        ScalarEscaper { kept.contains($0) || !String.isHidden($0) ? nil : String.visibleEscape($0) }(text)
    }

    /// The element names of an HTML document, counted (comments and text left out).
    static func tags(_ html: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for match in html.matches(of: /<([a-zA-Z][a-zA-Z0-9-]*)/) { counts[String(match.output.1), default: 0] += 1 }
        return counts
    }

    /// Runs a small tool on `stdin` (kept in a file, so no writer thread is needed; the tools write little to
    /// standard error, read after standard output).
    static func run(_ executable: URL, _ arguments: [String], stdin: String) throws -> TestSupport.RunResult {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString)")
        try stdin.write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TestSupport.RunResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A line read the way the GitHub Actions runner reads a workflow command: `::name k=v,…::data`, the properties
/// ending at the first `::`, values and data percent-decoded.
struct WorkflowCommand {
    var name: String
    var properties: [String: String]
    var data: String

    init?(_ line: String) {
        guard line.hasPrefix("::"),
            let end = line.range(of: "::", range: line.index(line.startIndex, offsetBy: 2)..<line.endIndex)
        else { return nil }
        let info = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]
        let parts = info.split(separator: " ", maxSplits: 1)
        name = String(parts.first ?? "")
        properties = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: ",") {
                let keyValue = pair.split(separator: "=", maxSplits: 1)
                guard keyValue.count == 2 else { return nil }
                properties[String(keyValue[0])] = Self.decode(String(keyValue[1]), property: true)
            }
        }
        data = Self.decode(String(line[end.upperBound...]), property: false)
    }

    private static func decode(_ text: String, property: Bool) -> String {
        var out = text.replacing("%0D", with: "\r").replacing("%0A", with: "\n")
        if property { out = out.replacing("%3A", with: ":").replacing("%2C", with: ",") }
        return out.replacing("%25", with: "%")
    }
}

/// The names and texts of a JUnit document, read with Foundation's XMLParser.
private final class XMLNames: NSObject, XMLParserDelegate {
    var suites: [String] = []
    var testcases: [String] = []
    var texts: [String] = []
    private var text = ""

    struct Invalid: Error { var reason: String }

    init(_ xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else { throw Invalid(reason: parser.parserError.map { "\($0)" } ?? "unknown") }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if elementName == "testsuite", let name = attributes["name"] { suites.append(name) }
        if elementName == "testcase", let name = attributes["name"] { testcases.append(name) }
        if let message = attributes["message"] { texts.append(message) }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        texts.append(text)
    }
}
