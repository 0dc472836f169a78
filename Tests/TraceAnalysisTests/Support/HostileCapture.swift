import Foundation

@testable import TraceAnalysis

/// One capture written by an attacker, shared by the output-safety tests: every piece of log text that reaches a
/// report (process names, an exit line's message, a message decoded from ndjson, the input's name) carries
/// payloads for every output language at once.
///
/// - HTML: `<script>` and an attribute break-out (`"><img onerror=…>`) that would set `document.title` to
///   ``pwned`` if they ran.
/// - Markdown: a link, an image, a table row, backticks, a mention, an issue reference, bare URLs, a heading.
/// - GitHub workflow commands: `::set-env`, `::add-mask` and `::error` after a line feed, a carriage return and a
///   `%0A` that the runner would decode.
/// - Terminals: ESC sequences (OSC window title, clear screen, full reset), a C1 CSI, a carriage return, bidi
///   overrides.
/// - XML and JSON: `]]>`, `&amp;`, quotes, NUL, vertical tab, U+FFFE.
enum HostileCapture {
    /// What the HTML payloads write into `document.title` if they ever run.
    static let pwned = "PWNED"

    /// The NSLog process: a name that is markup, a terminal title escape (C1 OSC: NSLog names hold no `]`), a reset,
    /// a bidi override and a workflow command.
    static let processName =
        "Evil<script>document.title='\(pwned)'</script>\"><img src=x onerror=\"document.title='\(pwned)'\"> "
        + "\u{9D}0;\(pwned)\u{7}\u{1B}c\u{202E}gnp.exe | @team #12 %0A::set-env name=X::1 www.evil.example"

    /// Its exit line's message (quoted by every report as the exit evidence; under the 200 characters kept).
    static let exitMessage =
        "Message from debugger: Terminated due to signal 9 \u{1B}[2J\u{1B}]0;\(pwned)\u{7}\u{9B}31m [x](http://evil.example/) "
        + "![i](https://evil.example/i.png) `code` | a | b | <svg onload=alert(1)> \r::error::injected ]]> "
        + "&amp; \u{0}\u{B}\u{FFFE}\u{2066}"

    /// The ndjson process (`processImagePath` cannot hold `/`, `"` or `\` in the name).
    static let ndjsonProcessName = "Evil Nd<b>'x&amp;"

    /// Its exit message as the JSON decodes it: line feeds and a carriage return that would start workflow
    /// commands and Markdown blocks.
    static let ndjsonExitMessage =
        "Message from debugger: Terminated due to signal 9\n::add-mask::secret\r\n::set-env name=PWNED::1\n"
        + "# heading\n- item\n```"

    /// The input's name: markup, an ANSI colour, table pipes, a line feed and a workflow command, a bidi override.
    static let inputName =
        "logs/hostile <script>alert(1)</script> \u{1B}[31m|x|\n::set-env name=A::B %0A \u{202E}gol.txt"

    /// The capture: a launch, a violation (rule 2), a resign, an exit line; then an ndjson process killed with a
    /// multi-line message.
    static var text: String {
        func nslog(_ time: String, _ message: String) -> String {
            "2024-06-01 12:00:\(time) \(processName)[100:1a03] \(message)"
        }
        func ndjson(_ time: String, _ message: String) -> String {
            let object: [String: Any] = [
                "timestamp": "2024-06-01 12:00:\(time)+0000",
                "processImagePath": "/Applications/x/\(ndjsonProcessName)",
                "processID": 200, "threadID": 1, "eventMessage": message, "subsystem": "", "category": "",
                "messageType": "Default", "machTimestamp": 1,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        return [
            nslog("00.000", "application:didFinishLaunchingWithOptions:"),
            nslog("00.100", "applicationDidBecomeActive:"),
            nslog("00.200", "applicationDidBecomeActive:"),
            nslog("00.300", "applicationWillResignActive: \u{1B}[31mred\u{1B}[0m"),
            nslog("01.000", exitMessage),
            ndjson("01.500000", "applicationDidBecomeActive"),
            ndjson("02.000000", ndjsonExitMessage),
        ].joined(separator: "\n") + "\n"
    }

    /// The capture analysed; every finding fails the run, so every report lists all of them.
    static func report() throws -> AnalysisReport {
        try TestSupport.analyzer { $0.failOn = FailurePolicy(Set(FailurePolicy.Finding.allCases)) }
            .analyze(text: text, name: inputName)
    }

    /// Every log-derived string, as it is: what the reports must carry, escaped.
    static let logTexts = [processName, exitMessage, ndjsonProcessName, ndjsonExitMessage, inputName]
}
