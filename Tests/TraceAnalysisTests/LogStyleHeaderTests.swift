import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

/// ``LogStyleHeader`` stands in for the `log` style patterns (ndjson included) and the device syslog's: on every
/// line it must give exactly what PCRE2 gives with each of them — whether it matches, and every group's range.
@Suite("log style header reader")
struct LogStyleHeaderTests {
    static let styles: [(LogStyleHeader.Style, LogFormat)] = [
        (.compact, .logCompact), (.default, .logDefault), (.syslog, .logSyslog), (.ndjson, .logNDJSON),
        (.deviceSyslog, .deviceSyslog), (.bsdSyslog, .syslog),
    ]

    /// What the patterns give, per style: the groups, or nil.
    final class Reference {
        let patterns: [(LogStyleHeader.Style, Matcher, Regex)]

        init() throws {
            patterns = try LogStyleHeaderTests.styles.map { style, format in
                let regex = try Regex(format.pattern)
                return (style, Matcher(regex), regex)
            }
        }

        func match(_ line: [UInt8], _ index: Int) throws -> LogStyleHeader.Match? {
            let (_, matcher, regex) = patterns[index]
            guard try line.withUnsafeBytes({ try matcher.matches($0) }) else { return nil }
            func range(_ name: String) -> Range<Int>? { regex.groupNumber(name).flatMap { matcher.range($0) } }
            return LogStyleHeader.Match(
                timestamp: try #require(range("timestamp")), level: range("level"), process: range("process"),
                pid: range("pid"), thread: range("thread"), subsystem: range("subsystem"), category: range("category"),
                message: try #require(range("message")), sequence: range("sequence"))
        }
    }

    /// Checks `line` against each style's pattern; returns how many of them match it.
    @discardableResult
    static func check(_ line: [UInt8], _ reference: Reference) throws -> Int {
        var matched = 0
        for (index, (style, _)) in styles.enumerated() {
            let expected = try reference.match(line, index)
            let actual = line.withUnsafeBytes { LogStyleHeader.match($0, style) }
            #expect(actual == expected, "\(style): \(String(decoding: line, as: UTF8.self).debugDescription)")
            if expected != nil { matched += 1 }
        }
        return matched
    }

    @Test func theBuiltinPatternsAreRecognisedAndNoOther() throws {
        #expect(Regex.newlineIsLF)
        for (style, format) in Self.styles { #expect(LogStyleHeader.style(ofPattern: format.pattern) == style) }
        #expect(LogStyleHeader.style(ofPattern: LogFormat.nslogModern.pattern) == nil)
        #expect(LogStyleHeader.style(ofPattern: LogFormat.logCompact.pattern + " ") == nil)
        let tables = try FormatCatalog().tables
        let ids = try FormatCatalog().formats.map(\.format.id)
        #expect(ids.indices.filter { tables.logStyles[$0] != nil }.map { ids[$0] } == Self.styles.map(\.1.id))
    }

    @Test func agreesWithThePatternsOnEveryLine() throws {
        let reference = try Reference()
        // The samples and the corpus, a generated capture of each style, lines with odd bytes in a message, and
        // the formats' own sample lines (real lines of every style, from public captures).
        let formatSamples = LogFormat.builtin.flatMap { $0.samples.map(\.line) }
        let lines = try MessageTailTests.lines() + formatSamples
        var matched = 0
        for line in lines { matched += try Self.check(Array(line.utf8), reference) }
        #expect(matched > 10_000)
        let samplesMatched = try formatSamples.map { try Self.check(Array($0.utf8), reference) }.reduce(0, +)
        #expect(samplesMatched >= 11)
    }

    /// The parser reads a `log` or device syslog line behind prefixes (a CI runner's timestamp, quoting, grep's line numbers) to
    /// the same fields as alone: the reader's offsets are moved past the prefixes.
    @Test func aLineBehindPrefixesParsesToTheSameFields() throws {
        let parser = RecordParser(
            catalog: try FormatCatalog(), dates: DateInference(reference: DateInference.sampleReference), zone: nil)
        var checked = 0
        for style in ["log-compact", "log-default", "log-syslog", "device-syslog"] {
            let lines = try GeneratorStyleTests.generate(style: style).split(separator: "\n").prefix(400)
            for line in lines.map(String.init) {
                guard let alone = parser.fields(of: line), alone.format == style else { continue }
                for prefix in ["2024-01-02T03:04:05.678Z ", "> ", "12:> "] {
                    var behind = try #require(parser.fields(of: prefix + line), "\(prefix)\(line)")
                    #expect(!behind.prefixes.isEmpty)
                    behind.prefixes = []
                    #expect(behind == alone, "\(prefix)\(line)")
                    checked += 1
                }
            }
        }
        #expect(checked > 2_000)
    }

    /// The default style's pattern backtracks quadratically on a line whose pid is followed by a long run of spaces
    /// and no `: `: PCRE2 tries every split of the spaces, each scanning to the line's end, and gives up under its
    /// limits (the input used to be reported incomplete, with advice for a pattern the user never wrote). The reader
    /// gives the pattern's answer, no match, in one pass: the input is complete, the line a raw continuation.
    @Test func aLineThePatternGivesUpOnIsReadExactly() throws {
        let header = "2023-07-19 08:22:51.916784+0300 0x3058     Info        0x0                  599"
        let record = header + "    0    app: applicationDidBecomeActive"
        let hostile = header + String(repeating: " ", count: 3_000) + String(repeating: "x", count: 3_000)
        let matcher = Matcher(try Regex(LogFormat.logDefault.pattern))
        #expect(throws: RegexError.self) { try matcher.matches(hostile) }
        try Self.check(Array(record.utf8), try Reference())
        #expect(Array(hostile.utf8).withUnsafeBytes { LogStyleHeader.match($0, .default) } == nil)
        let report = try TestSupport.analyzer().analyze(
            text: [record, hostile, record].joined(separator: "\n"), name: "hostile.log")
        let input = try #require(report.inputs.first)
        TestSupport.expectAccounted(input)
        #expect(input.error == nil)
        #expect(input.patternFailures.isEmpty)
        #expect(input.format == "log-default")
        #expect(input.records == 2)
        #expect(input.continuationLines == 1)
    }

    /// Hand-written edge cases around every part of the three patterns.
    @Test(arguments: [
        // compact
        "2026-08-17 19:20:56.402 Df node[19887:b199e5] [com.apple.network:path] nw_path_libinfo_path_check",
        "2026-08-17 19:20:56.402 Df node[1:a]msg", "2026-08-17 19:20:56.402 Df node[1:a]",
        "2026-08-17 19:20:56.402 Df n[1:a]",
        "2026-08-17 19:20:56.402 Df node[1:A] x", "2026-08-17 19:20:56.402 Df node[1:ag] x",
        "2026-08-17 19:20:56.402 Dx node[1:a] x", "2026-08-17 19:20:56.4021 Df node[1:a] x",
        "2026-08-17 19:20:56.402 E  kernel[0:9b86] (Sandbox) Sandbox: mapssyncd(14783) deny(1)",
        "2026-08-17 19:20:56.402 Er no]de[1:a] x", "2026-08-17 19:20:56.402 Fa [1:a] x",
        "2026-08-17 19:20:56.402 Ft My App[1:a] (a(b) c", "2026-08-17 19:20:56.402 Df a[1:a] (ab)c",
        "2026-08-17 19:20:56.402 Df a[1:a] () x", "2026-08-17 19:20:56.402 Df a[1:a] (x) [s:c] m",
        "2026-08-17 19:20:56.402 Df a[1:a] [a:b]c", "2026-08-17 19:20:56.402 Df a[1:a] [a b:c] x",
        "2026-08-17 19:20:56.402 Df a[1:a] [:c] x", "2026-08-17 19:20:56.402 Df a[1:a] [a:] x",
        "2026-08-17 19:20:56.402 Df a[1:a] [a:b] ", "2026-08-17 19:20:56.402 Df a[1:a] [a:b]]",
        "2026-08-17 19:20:56.402 Df a[1:a] [a[b:c:d] x", "2026-08-17 19:20:56.402 Df a[1:a] [a\t:b] x",
        "2026-08-17 19:20:56.402 Df a[1:a] [a:b\t] x", "2026-08-17 19:20:56.402 Df a[1:a]  [a:b] x",
        "2026-08-17 19:20:56.402 Df a[1:a] (x)  [a:b] x", "2026-08-17 19:20:56.402 Df a[1:a] (x)",
        // default
        "2023-07-19 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    remotepairingd: (RemotePairing) [com.apple.dt.remotepairing:networktunnelmanager] tunnel-1: up",
        "2017-12-07 18:33:57.087589+0800 0x1db404   Default     0x0                  48240  Ur iOS AppName: (CFNetwork) Task",
        "2023-07-19 08:22:51.916784+03:00 0x3058 Info 0x0 599 0 d: x",
        "2023-07-19 08:22:51.916784+030 0x3058 Info 0x0 599 d: x",
        "2023-07-19 08:22:51.916784 0x3058 Info 0x0 599 d: x", "2023-07-19 08:22:51.9+0300 0x3058 Info 0x0 599 d: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599    0    : x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599    0 : x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599    0: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599    : x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599    0    d:x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599 12ab: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599 12 34 d: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599 d:: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599 d: ",
        "2023-07-19 08:22:51.916784+0300 0x3058 INFO 0x0 599 d: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 I 0x0 599 d: x",
        "2023-07-19 08:22:51.916784+0300 0X3058 Info 0x0 599 d: x",
        "2023-07-19 08:22:51.916784+0300 0x Info 0x0 599 d: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 599\td: x",
        "2023-07-19 08:22:51.916784+0300 0x3058 Info 0x0 d: x",
        "2023-07-19 08:22:51.916784+0300  0x3058  Info  0x0af  599  d [x]: (y) [s:c] m",
        // syslog
        "2023-09-27 22:55:39.622369+0200  localhost legacyScreenSaver[41737]: (ScreenSaverExample) hello",
        "2017-09-13 15:26:57.228948-0700 localhost Runner[37195]: (Flutter) Observatory listening",
        "2017-09-13 15:26:57.228948-0700   localhost Runner[1]: x",
        "2017-09-13 15:26:57.228948-0700 \tlocalhost Runner[1]: x",
        "2017-09-13 15:26:57.228948-0700 local\thost Runner[1]: x",
        "2017-09-13 15:26:57.228948-0700 localhost Runner[1]:x",
        "2017-09-13 15:26:57.228948-0700 localhost Runner[1] : x", "2017-09-13 15:26:57.228948-0700 localhost [1]: x",
        "2017-09-13 15:26:57.228948-0700 localhost  Runner[1]: x",
        "2017-09-13 15:26:57.228948-0700 localhost My App[1]: ",
        "2017-09-13 15:26:57.228948-0700 localhost a]b[1]: x", "2017-09-13 15:26:57.228948-0700 h p[12a]: x",
        "2017-09-13 15:26:57.228948-07:00 h p[1]: [s:c] \0\r\u{FF}",
        // device syslog
        "Jul  4 13:26:15 iPhone-de-Sergi SpringBoard(IDS)[49] <Notice>: <private> got identifier",
        "Dec 15 11:48:28.972604 SampleApp(UIKitCore)[11710] <Notice>: Sending UIEvent type: 0",
        "Dec 15 11:48:28 SampleApp[1] <Notice>: got x[5] <Info>: y", "Dec 15 11:48:28 a(b)[1] <N>: c[2] <M>: d",
        "Dec 15 11:48:28 host App[1] (CoreFoundation) <Notice>: m", "Dec 15 11:48:28 host App[1] (Core <Notice>: m",
        "Dec 15 11:48:28 host App[1] (a) (b) <Notice>: m", "Dec 15 11:48:28 host App(x)(y)[1] <Notice>: m",
        "Dec 15 11:48:28 host App()[1] <Notice>:m", "Dec 15 11:48:28 host App(x) [1] <Notice>: m",
        "Dec 15 11:48:28 host App[1] <>: m", "Dec 15 11:48:28 host App[1] <N0>: m",
        "Dec 15 11:48:28 host App[1] <Notice> m", "Dec 15 11:48:28 host App[1] <Notice>:  two",
        "Dec 15 11:48:28  App[1] <Notice>: m", "Dec 15 11:48:28 \tApp[1] <Notice>: m",
        "Dec 15 11:48:28 host\tApp[1] <Notice>: m", "Dec 15 11:48:28 host My App[1] <Notice>: m",
        "Dec 15 11:48:28 My App[1] <Notice>: m", "Dec 15 11:48:28 host ]App[1] <Notice>: m",
        "Dec 15 11:48:28 host App][1] <Notice>: m", "Dec 15 11:48:28 host App)[1] <Notice>: m",
        "dec 15 11:48:28 host App[1] <Notice>: m", "Dec 5 11:48:28 host App[1] <Notice>: m",
        "Dec  5 11:48:28.5x host App[1] <Notice>: m", "Dec 15 11:48:28. host App[1] <Notice>: m",
        "Dec 15 11:48:28 host App[] <Notice>: m", "Dec 15 11:48:28 host App[1a] <Notice>: m",
        "Dec 15 11:48:28 [1] <Notice>: m", "Dec 15 11:48:28 host [1] <Notice>: m", "Dec 15 11:48:28 h p[1] <A>:",
        // BSD syslog
        "Jul  1 09:01:05 calvisitor-10-105-160-95 com.apple.CDScheduler[43]: Thermal pressure state: 1",
        "Jul  1 09:01:05 host kernel[0]: ARPT: 620.031 wl0: MDNS: IPV6 Addr", "Jul  1 09:01:05 host kernel: x: y",
        "Jul  1 09:01:05 host kernel:x: y", "Jul  1 09:01:05 host a b: c", "Jul  1 09:01:05 host a: ",
        "Jul  1 09:01:05 host a:", "Jul  1 09:01:05 host a", "Jul  1 09:01:05 h p: ",
        "Jul  1 09:01:05 host com.apple.xpc.launchd[1] (com.apple.quicklook[1234]): Service exited",
        "Jul  1 09:01:05 host launchd[1] (x) (y): m", "Jul  1 09:01:05 host launchd[1] (x: m",
        "Jul  1 09:01:05 host launchd[1] (x)): m", "Jul  1 09:01:05 host launchd[1] (x):m",
        "Jul  1 09:01:05 host launchd[1](x): m", "Jul  1 09:01:05 host launchd[1]: (x): m",
        "Jul  1 09:01:05 host launchd (x): m", "Jul  1 09:01:05 host launchd (x) (y): m",
        "Jul  1 09:01:05 host launchd (x[1]): m", "Jul  1 09:01:05 host a (b: c (d): e",
        "Jul  1 09:01:05 host a[1]b: c", "Jul  1 09:01:05 host a[1] b: c", "Jul  1 09:01:05 host a[]: c",
        "Jul  1 09:01:05 host a[x]: c", "Jul  1 09:01:05 host a]: c", "Jul  1 09:01:05 host a b]: c",
        "Jul  1 09:01:05 host [1]: c", "Jul  1 09:01:05 host <a>: c", "Jul  1 09:01:05 host a<b>: c",
        "Jul  1 09:01:05 host  a: c", "Jul  1 09:01:05  host a: c", "Jul  1 09:01:05 host\ta: c",
        "Jul  1 09:01:05 host a\tb: c", "Jul  1 09:01:05 host a:\tc", "Jul  1 09:01:05.123456 host a[1]: c",
        "Jul  1 09:01:05. host a[1]: c", "Jul  1 09:01:05.1x host a[1]: c", "Jul 1 09:01:05 host a[1]: c",
        "Jul  1 09:01:05 host a[1]: c: d[2]: e", "Jul  1 09:01:05 host a: b[1]: c",
        "Jul  1 09:01:05 host a (b) c: d", "Jul  1 09:01:05 host a ()  : d", "Jul  1 09:01:05 host a (): d",
        "Jul  1 09:01:05 host --- last message repeated 1 time ---",
        "Oct 30 15:55:32 Mikes-MacBook-Pro Google Chrome Helper[8133]: Libnotify: notify_register_coalesced_registration failed",
    ])
    func agreesWithThePatternsOnEdgeCases(_ line: String) throws {
        try Self.check(Array(line.utf8), try Reference())
    }

    /// `log-ndjson` lines made to try every way a key can be found or not: keys in any order, twice (the first
    /// value not fitting), in a nested object, values with escapes, slashes and backslashes, digits or none, and
    /// the line's end with spaces, a CR or no `}`.
    static func ndjsonLines(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        let strings = [
            "ok", "", "a\\\"b", "tail\\", "x\\/y", "\\/System\\/App", "/a/b/", "a/b\\c", "Sp ace", "é",
            "applicationDidBecomeActive", "\\u00e9\\n", "\\", "q\"",
        ]
        let numbers = ["1", "42", "", "x", "007", "-1", "12345678901234567890"]
        func field(_ key: String) -> String {
            switch key {
            case "processID", "threadID", "machTimestamp": return "\"\(key)\":\(pick(numbers))"
            case "processImagePath":
                return "\"\(key)\":\"" + pick(["\\/Applications\\/My App.app\\/My App", "App", "a/b", "/", "a\\b"])
                    + "\""
            default: return "\"\(key)\":\"" + pick(strings) + (chance(95) ? "\"" : "")
            }
        }
        let keys = [
            "eventMessage", "timestamp", "processID", "threadID", "processImagePath", "subsystem", "category",
            "messageType", "machTimestamp", "formatString", "senderImagePath",
        ]
        var lines: [[UInt8]] = []
        for _ in 0..<count {
            var fields = keys.filter { _ in chance(85) }.map(field)
            if chance(30) { fields.insert(field(pick(keys)), at: Int(random.next() % UInt64(fields.count + 1))) }
            if chance(15) {
                let nested = "\"backtrace\":{\"frames\":[{" + field(pick(keys)) + "," + field(pick(keys)) + "}]}"
                fields.insert(nested, at: Int(random.next() % UInt64(fields.count + 1)))
            }
            var line =
                "{" + fields.joined(separator: chance(90) ? "," : ", ") + pick(["}", "}", "}", "} ", "}\r", "", "}x"])
            if chance(3) { line = pick([" ", "x"]) + line }
            lines.append(Array(line.utf8))
        }
        return lines
    }

    @Test func agreesWithTheNDJSONPatternOnMadeLines() throws {
        let reference = try Reference()
        var matched = 0
        for line in Self.ndjsonLines(count: 4_000, seed: 11) { matched += try Self.check(line, reference) }
        #expect(matched > 1_000)
    }

    /// `log-ndjson` lines (the sample's and made ones) with random bytes replaced, inserted or removed anywhere.
    @Test func agreesWithTheNDJSONPatternOnMutatedLines() throws {
        let reference = try Reference()
        let sample = try String(
            contentsOf: TestSupport.samples.appendingPathComponent("same-session-ndjson.log"), encoding: .utf8)
        let seeds =
            sample.split(separator: "\n").map { Array($0.utf8) } + Self.ndjsonLines(count: 200, seed: 5)
        let alphabet = Array("\"\\:/{}[], 0123456789eiptsmcaTIDPy\r\t".utf8) + [0, 0x0B, 0x80, 0xFF]
        var random = SplitMix64(seed: 9)
        var matched = 0
        for round in 0..<10_000 {
            let seed = seeds[round % seeds.count]
            let line = TestSupport.mutate(seed, alphabet: alphabet, within: seed.count, &random)
            matched += try Self.check(line, reference)
        }
        #expect(matched > 2_000)
    }

    /// Lines of the three styles with random bytes replaced, inserted or removed, mostly in their header.
    @Test func agreesWithThePatternsOnMutatedLines() throws {
        let reference = try Reference()
        let lines = try (MessageTailTests.lines() + LogFormat.builtin.flatMap { $0.samples.map(\.line) }).map {
            Array($0.utf8)
        }
        var random = SplitMix64(seed: 7)
        // A hundred lines of each style (the real device syslog lines are few beside the generated captures).
        var seeds: [[UInt8]] = []
        for (style, _) in Self.styles {
            let matching = lines.filter { line in line.withUnsafeBytes { LogStyleHeader.match($0, style) } != nil }
            #expect(matching.count > 10, "\(style)")
            seeds += (0..<100).map { _ in matching[Int(random.next() % UInt64(matching.count))] }
        }
        // The patterns' bytes, and the neighbours of every byte class the reader tests eight at a time.
        let alphabet =
            Array("0123456789 -+:.[]()<>x\tabfDEIAFNJrt:\r`{/;@gzG\\^".utf8)
            + [0, 0x08, 0x0B, 0x0C, 0x0E, 0x1F, 0x21, 0x7F, 0x80, 0xBA, 0xDD, 0xFF, 0xC3]
        var matched = 0
        for round in 0..<20_000 {
            let line = TestSupport.mutate(seeds[round % seeds.count], alphabet: alphabet, within: 96, &random)
            matched += try Self.check(line, reference)
        }
        #expect(matched > 5_000)
    }
}
