import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

/// A format pattern's closing `(?<message>.*)$` is matched without its `.*$` (`FormatCatalog.withoutMessageTail`),
/// the message taken to the line's end: every line parses to the same fields either way.
@Suite("Format patterns without their message tail")
struct MessageTailTests {
    @Test func theBuiltinFormatsThatEndInTheTailAreShortened() throws {
        #expect(Regex.newlineIsLF)
        let catalog = try FormatCatalog()
        let shortened = Set(catalog.formats.filter(\.messageToEnd).map(\.format.id))
        let ending = Set(LogFormat.builtin.filter { $0.pattern.hasSuffix("(?<message>.*)$") }.map(\.id))
        #expect(shortened == ending)
        #expect(
            shortened.isSuperset(of: ["nslog-modern", "nslog-classic", "log-compact", "log-default", "log-syslog"]))
        #expect(!shortened.contains("log-ndjson"))
        let unchanged = try FormatCatalog(messageTail: false)
        let anyShortened = unchanged.formats.map(\.messageToEnd).contains(true)
        #expect(!anyShortened)
    }

    @Test(arguments: [
        (#"^(?<process>\w+): (?<message>.*)$"#, "App: did launch"), (#"^(?<message>.*)$"#, "did launch"),
        (#"^\[(?<pid>\d+)\] ?(?<message>.*)$"#, "[12] did launch"),
    ])
    func aPatternEndingInTheTailIsShortened(_ pattern: String, line: String) throws {
        let regex = try Regex(pattern)
        let shortened = try #require(FormatCatalog.withoutMessageTail(regex))
        #expect(shortened.pattern == pattern)  // as written, in messages
        #expect(shortened.groupNumbers == regex.groupNumbers)
        let matcher = Matcher(shortened)
        #expect(try matcher.matches(line))
        let message = try #require(matcher.range(named: "message"))
        #expect(message.isEmpty && message.lowerBound == line.utf8.count - "did launch".utf8.count)
    }

    @Test(arguments: [
        // Not the tail, or text that may not be what it looks like: left as written.
        #"^(?<message>.*) $"#, #"^(?<message>.+)$"#, #"(*CR)^(?<message>.*)$"#, #"^\Q(?<message>.*)$"#,
        #"(?x) ^ (?<message>.*)$ # comment"#, #"(?x)^a#(?<message>.*)$"#,
    ])
    func otherPatternsAreLeftAsWritten(_ pattern: String) throws {
        guard let regex = try? Regex(pattern) else { return }  // one that does not compile is not shortened either
        #expect(FormatCatalog.withoutMessageTail(regex) == nil)
    }

    /// Lines of every kind: the samples and the real corpus, generated captures in every style, and lines with
    /// bytes a message may hold (a CR, U+FFFD, trailing blanks, NUL).
    static func lines() throws -> [String] {
        var lines = try TestSupport.realLines().map { String(decoding: $0, as: UTF8.self) }
        for style in ["nslog", "log-compact", "log-default", "log-syslog", "device-syslog", "log-ndjson", "syslog"] {
            lines += try GeneratorStyleTests.generate(style: style).utf8.split(
                separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
            ).map { String(decoding: $0, as: UTF8.self) }
        }
        let odd = ["\r", "a\rb", "\u{FFFD}", "\0", "   ", "\t", "(?<message>.*)$", ""]
        let headers = [
            "2019-05-04 10:46:18.564743-0500 CreatingStateLab[11053:1702596] ",
            "2013-10-13 12:24:09.948 AppDelegate[12199:60b]", "2026-08-17 19:20:56.402 Df node[19887:b199e5] ",
            "2023-07-19 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    remotepairingd: ",
            "2023-09-27 22:55:39.622369+0200  localhost legacyScreenSaver[41737]: ",
        ]
        for header in headers { lines += odd.map { header + $0 + "applicationDidBecomeActive" + $0 } }
        return lines
    }

    @Test func everyLineParsesToTheSameFieldsEitherWay() throws {
        let dates = DateInference(reference: DateInference.sampleReference)
        let shortened = RecordParser(catalog: try FormatCatalog(), dates: dates, zone: nil)
        let written = RecordParser(catalog: try FormatCatalog(messageTail: false), dates: dates, zone: nil)
        let lines = try Self.lines()
        #expect(lines.count > 20_000)
        var records = 0
        for line in lines {
            let fields = shortened.fields(of: line)
            #expect(fields == written.fields(of: line), "\(line)")
            #expect(shortened.formatsMatching(line) == written.formatsMatching(line), "\(line)")
            if fields != nil { records += 1 }
        }
        #expect(records > lines.count / 2)
    }
}
