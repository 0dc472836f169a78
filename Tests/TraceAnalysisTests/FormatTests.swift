import Foundation
import Testing

import class NativeKit.HeaderRun
import class NativeKit.Matcher

@testable import TraceAnalysis

@Suite("Log formats")
struct FormatTests {
    @Test func builtinCatalogueValidates() throws {
        try FormatCatalog().validate()
    }

    static func parser() throws -> RecordParser {
        RecordParser(
            catalog: try FormatCatalog(), dates: DateInference(reference: DateInference.sampleReference), zone: nil)
    }

    @Test(arguments: LogFormat.builtin.filter { !$0.isFallback })
    func everySampleParsesWithItsOwnFormatOnly(_ format: LogFormat) throws {
        let parser = try Self.parser()
        #expect(format.samples.contains { $0.kind == .record })
        for sample in format.samples where sample.kind == .record {
            #expect(parser.formatsMatching(sample.line) == [format.id], "\(sample.line)")
            let fields = try #require(parser.fields(of: sample.line))
            #expect(fields.format == format.id)
            #expect(fields.prefixes.isEmpty)
            if let pid = sample.pid { #expect(fields.pid == pid) }
            if let process = sample.process { #expect(fields.process == process) }
            if let message = sample.message { #expect(fields.message == message) }
            if let timestamp = sample.timestamp { #expect(fields.timestamp?.iso8601 == timestamp) }
            if let subsystem = sample.subsystem { #expect(fields.subsystem == subsystem) }
            if let category = sample.category { #expect(fields.category == category) }
            if let level = sample.level { #expect(fields.level == level) }
        }
        for sample in format.samples where sample.kind == .furniture {
            #expect(parser.formatsMatching(sample.line).isEmpty, "\(sample.line)")
            #expect(parser.isFurniture(sample.line), "\(sample.line)")
        }
        for sample in format.samples where sample.kind == .repeat {
            #expect(parser.repeatCount(sample.line) == sample.count, "\(sample.line)")
        }
    }

    @Test func bareSamplesMatchNoOtherFormat() throws {
        let parser = try Self.parser()
        for sample in LogFormat.bare.samples {
            #expect(parser.formatsMatching(sample.line).isEmpty)
            #expect(!parser.isFurniture(sample.line))
        }
    }

    @Test(arguments: LinePrefix.builtin)
    func everyPrefixSampleParsesOnceStripped(_ prefix: LinePrefix) throws {
        let parser = try Self.parser()
        #expect(!prefix.samples.isEmpty)
        for sample in prefix.samples {
            #expect(parser.formatsMatching(sample.line).isEmpty, "\(sample.line) parses without stripping")
            let fields = try #require(parser.fields(of: sample.line), "\(sample.line)")
            #expect(fields.format == sample.format)
            #expect(fields.prefixes.contains(prefix.id))
        }
    }

    @Test func stackedPrefixesAreStrippedInTurn() throws {
        let parser = try Self.parser()
        let fields = try #require(
            parser.fields(
                of: "12:>   2013-10-13 12:24:09.948 AppDelegate[12199:60b] App Delegate: applicationDidBecomeActive"))
        #expect(fields.prefixes == ["grep-line-number", "quote", "indentation"])
        #expect(fields.format == "nslog-classic")
        #expect(fields.message == "App Delegate: applicationDidBecomeActive")
    }

    @Test func ndjsonMessagesAreDecoded() throws {
        let parser = try Self.parser()
        let line =
            #"{"eventMessage":"say \"hi\"\n\u00e9\ud83d\ude00 a\/b","processImagePath":"\/Apps\/My.app\/My","processID":7,"timestamp":"2024-06-01 12:00:00.000001+0200","machTimestamp":99}"#
        let fields = try #require(parser.fields(of: line))
        #expect(fields.format == "log-ndjson")
        #expect(fields.message == "say \"hi\"\né😀 a/b")
        #expect(fields.process == "My")
        #expect(fields.pid == 7)
        #expect(fields.timestamp?.iso8601 == "2024-06-01T12:00:00.000001+02:00")
    }

    /// A search tries only the formats and prefixes that may begin with a line's byte, from tables made for up to 64
    /// of each; a catalogue of more tries every one. Both read every line of the samples and the corpus, with and
    /// without prefixes, the same way.
    @Test func aCatalogueOfMoreThan64FormatsReadsAsTheBuiltInOne() throws {
        let extra = (0..<60).map { index in
            LogFormat(
                id: "team-\(index)", title: "a team logger", origin: "a test",
                pattern: #"^\[team-"# + String(index) + #"\] (?<process>\w+)\[(?<pid>\d+)\] (?<message>.*)$"#,
                timestamp: nil, samples: [.init(line: "[team-\(index)] App[42] hello", process: "App", pid: 42)])
        }
        let builtin = try FormatCatalog()
        let large = try FormatCatalog(LogFormat.builtin.filter { !$0.isFallback } + extra + [LogFormat.bare])
        #expect(builtin.tables.formatsBeginning.count == 256)
        #expect(large.tables.formatsBeginning.isEmpty)
        let reference = DateInference(reference: DateInference.sampleReference)
        var small = RecordParser(catalog: builtin, dates: reference, zone: nil)
        var full = RecordParser(catalog: large, dates: reference, zone: nil)
        var lines = try TestSupport.realLines()
        lines += lines.map { Array("12:> ".utf8) + $0 }
        var read = 0
        for line in lines {
            let (one, other) = line.withUnsafeBytes { (small.parse($0), full.parse($0)) }
            #expect(
                one.map { builtin.formats[$0.formatIndex].format.id }
                    == other.map { large.formats[$0.formatIndex].format.id })
            #expect(one?.message == other?.message && one?.pid == other?.pid && one?.timestamp == other?.timestamp)
            if one != nil { read += 1 }
        }
        #expect(read > lines.count / 2)
        #expect(full.fields(of: "[team-59] App[42] hello")?.format == "team-59")
    }

    /// Right after a parse finds a record, the content of its line begins where its format matched when the record's
    /// prefixes are all markers (`parsedContentOffset`, which matches none of them again), as matching the marker
    /// prefixes again says (`contentOffset`); with the indentation among them, the markers are matched again.
    @Test func theContentOfALineJustParsedBeginsWhereItsMarkersEnd() throws {
        var parser = try RecordParser(
            catalog: FormatCatalog(), dates: DateInference(reference: DateInference.sampleReference), zone: nil)
        let markers = ["", "12:", "> ", "12:> ", "2024-05-01T10:00:00.1234567Z "]
        let indented = ["  ", "12:  ", "  12:", "> >  "]
        var checked = (markers: 0, indented: 0)
        // The samples (and the real corpus, where it is), and random NSLog captures with printed lines.
        var capture = RandomCapture(seed: 7, printed: 20)
        let made = capture.make(lines: 1_000).split(separator: 0x0A).map { Array($0) }
        for line in try TestSupport.realLines().prefix(2_000) + made {
            for wrapper in markers + indented {
                let bytes = Array(wrapper.utf8) + line
                bytes.withUnsafeBytes { raw in
                    guard parser.parse(raw) != nil else { return }
                    #expect(parser.parsedContentOffset(raw) == parser.contentOffset(raw), "\(wrapper)")
                    if indented.contains(wrapper) { checked.indented += 1 } else { checked.markers += 1 }
                }
            }
        }
        #expect(checked.markers > 1_000 && checked.indented > 1_000)
    }

    /// A line the record parser refuses (`RecordParser.refuses`) is one its search finds no record in, whatever the
    /// last record was, at its start or behind prefixes; a line it does not refuse is a record, or prefixes and
    /// nothing else. Told the last record's prefix's measure, it says the same.
    @Test func aLineTheParserRefusesIsNoRecord() throws {
        let reference = DateInference(reference: DateInference.sampleReference)
        var parser = try RecordParser(catalog: FormatCatalog(), dates: reference, zone: nil)
        var capture = RandomCapture(seed: 5, printed: 50)
        var lines =
            try TestSupport.realLines().prefix(2_000)
            + capture.make(lines: 2_000).split(separator: 0x0A).map {
                Array($0)
            }
        lines += lines.map { Array($0.dropFirst(24)) } + lines.map { Array($0.dropFirst(5)) }
        lines += ["Sync: a b", "main.swift:12: warning", "[Analytics] event", "Jan  5 10:57:52 host a[1]: b", "{"]
            .map { Array($0.utf8) }
        // Behind prefixes: a line of no format is refused through them, and a record behind them is not.
        let prefixes = ["2024-05-01T10:00:00.1234567Z ", "2024-05-01T10:00:00Z > ", "main.swift:12:", "> 7-"]
        let some = lines.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        lines += prefixes.flatMap { prefix in some.map { Array(prefix.utf8) + $0 } }
        var refused = 0
        for line in lines where !line.isEmpty {
            line.withUnsafeBytes { raw in
                let refuses = parser.refuses(raw)
                // Parsed after a record of each shape and none: the outcome does not depend on the last record.
                for before in [
                    "2019-05-04 10:46:18.565 a[1:60b] x", "2019-05-04 10:46:18.565123 a[1:60b] x", "12:> x",
                    "2024-05-01T10:00:00.1234567Z 2019-05-04 10:46:18.565123 a[1:60b] x",
                ] {
                    _ = Array(before.utf8).withUnsafeBytes { parser.parse($0) }
                    let text = String(decoding: line, as: UTF8.self)
                    // The same answer with the last record's prefix measured first (as a run asks it).
                    let offset = parser.contentOffset(raw)
                    #expect(parser.refuses(raw, contentOffset: offset) == refuses, "\(text.debugDescription)")
                    let parsed = parser.parse(raw) != nil
                    if refuses { #expect(!parsed, "\(text.debugDescription)") }
                    if !refuses, !parsed {
                        // Only where prefixes leave nothing of the line (a search then tries every format on it).
                        let rest = prefixes.reduce(text) { $0.hasPrefix($1) ? String($0.dropFirst($1.count)) : $0 }
                        let nothing = rest.allSatisfy { $0.isWhitespace }
                        #expect(nothing, "\(text.debugDescription)")
                    }
                }
                if refuses { refused += 1 }
            }
        }
        #expect(refused > 1_000)
    }

    /// Behind a CI runner's timestamp, with the built-in patterns, the parser refuses a line by walking its content
    /// alone (`RecordParser.refuses(_:contentOffset:)`), and searches it for a record behind the timestamp alone: it
    /// says what the whole walk says, and finds what the whole search finds, for timestamps with and without a
    /// fraction, at any second, and contents that are records, prefixes, records behind prefixes, or none.
    @Test func aLineBehindACIRunnersTimestampIsReadByWhatFollowsIt() throws {
        let fresh = try Self.parser()
        var capture = RandomCapture(seed: 11, printed: 50)
        var contents =
            try TestSupport.realLines().prefix(1_000)
            + capture.make(lines: 1_000).split(separator: 0x0A).map { Array($0) }
        contents += contents.map { Array($0.dropFirst(24)) }
        contents += [
            "", " ", "\t", ":", "-", "5-x", "Z x", ".5Z x", "00:01 x", "12:", "12:x", "12-x", "> x", ">",
            "Sync: a b", "main.swift:12: warning", "[Analytics] event", "{", "[7397:f803] x",
            "> 2019-05-04 10:46:18.565 a[1:60b] x", "12:2019-05-04 10:46:18.565123-0500 a[1:60b] x",
            "  2019-05-04 10:46:18.565 a[1:60b] x", "2019-05-04 10:46:18.565123 a[1:60b] x",
            "2024-05-01T10:00:00.1Z 2019-05-04 10:46:18.565 a[1:60b] x",
            "Jul  4 13:26:15 iPhone SpringBoard(IDS)[49] <Notice>: x", "Jul  1 09:01:05 host a[43]: x",
            "error\t10:37:14.650327-0500\tkernel\tSandbox: x", "\t10:37:14.650327-0500\tkernel\tx",
            "10:37:14.650327-0500\tkernel\tx", "info: [IOS_SYSLOG_ROW ] Jul  4 13:26:15 host a[1] <Notice>: x",
            #"{"timestamp":"2023-07-19 08:22:51.916784+0300","eventMessage":"x"}"#,
        ].map { Array($0.utf8) }
        let timestamps = [
            "2024-05-01T10:00:00.1234567Z ", "2024-05-01T10:00:09Z ", "2024-05-01T23:59:59.1Z ",
            "1999-12-31T00:00:00.123456789Z ", "2024-05-01T10:12:34.56Z ",
        ]
        var checked = (refused: 0, records: 0)
        for timestamp in timestamps {
            for content in contents {
                let bytes = Array(timestamp.utf8) + content
                bytes.withUnsafeBytes { raw in
                    var parser = fresh
                    let whole = parser.refuses(raw)
                    // A parser whose last record had no prefix searches the whole line.
                    var searching = fresh
                    let found = searching.parse(raw)
                    // After a record behind the timestamp alone, as a run asks it.
                    let before = Array((timestamp + "2019-05-04 10:46:18.565 a[1:60b] x").utf8)
                    #expect(before.withUnsafeBytes { parser.parse($0) } != nil)
                    #expect(parser.formatTriedFirstBehindCITimestamp != nil)
                    let offset = parser.contentOffset(raw)
                    #expect(offset == timestamp.utf8.count)
                    let text = String(decoding: bytes, as: UTF8.self).debugDescription
                    #expect(parser.refuses(raw, contentOffset: offset) == whole, "\(text)")
                    // Parsed behind the timestamp alone, the line is the same record, with the same prefixes.
                    let parsed = parser.parse(raw)
                    #expect(parsed?.formatIndex == found?.formatIndex, "\(text)")
                    #expect(parsed?.timestamp == found?.timestamp && parsed?.process == found?.process, "\(text)")
                    #expect(parsed?.message == found?.message, "\(text)")
                    if parsed != nil {
                        #expect(parser.parsedContentOffset(raw) == searching.parsedContentOffset(raw), "\(text)")
                    }
                    if whole { checked.refused += 1 } else if parsed != nil { checked.records += 1 }
                }
            }
        }
        #expect(checked.refused > 1_000 && checked.records > 1_000)
    }

    /// With a format of its own that reads a whole CI line, the parser walks and searches the line from its start
    /// again: that format may match where the built-in ones do not, so a line whose content is no record is still one.
    @Test func aCatalogueOfItsOwnIsWalkedWholeBehindACIRunnersTimestamp() throws {
        let runner = LogFormat(
            id: "runner-auth", title: "a runner's own lines", origin: "a test",
            pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z (?<message>Auth .*)$"#, timestamp: nil,
            samples: [
                .init(line: "2024-05-01T10:00:00.1234567Z Auth token refreshed", message: "Auth token refreshed")
            ])
        let catalog = try FormatCatalog(LogFormat.builtin.filter { !$0.isFallback } + [runner, LogFormat.bare])
        var parser = RecordParser(
            catalog: catalog, dates: DateInference(reference: DateInference.sampleReference), zone: nil)
        let before = Array("2024-05-01T10:00:00.1234567Z 2019-05-04 10:46:18.565 a[1:60b] x".utf8)
        #expect(before.withUnsafeBytes { parser.parse($0) } != nil)
        #expect(parser.formatTriedFirstBehindCITimestamp != nil)
        for (text, record) in [
            ("2024-05-01T10:00:09.2248546Z Auth token refreshed", true), ("2024-05-01T10:00:09Z Sync: a b", false),
        ] {
            Array(text.utf8).withUnsafeBytes { raw in
                let offset = parser.contentOffset(raw)
                #expect(offset > 0)
                #expect(parser.refuses(raw, contentOffset: offset) == !record, "\(text)")
                #expect(parser.refuses(raw) == !record, "\(text)")
                var searching = parser
                let format = searching.parse(raw).map { catalog.formats[$0.formatIndex].format.id }
                #expect(format == (record ? "runner-auth" : nil), "\(text)")
            }
        }
    }

    /// With the built-in patterns alone, a line the C test refuses (`HeaderRun.builtInRefuses`, asked before the
    /// walk) is one the walk refuses, at its start and behind a CI runner's timestamp: real and random lines, their
    /// tails, near misses of each pattern the test knows, and mutations of them. The test knows every built-in
    /// pattern (a new one fails here until it does), and a catalogue with a pattern of its own is walked.
    @Test func aLineTheBuiltInTestRefusesIsOneTheWalkRefuses() throws {
        #expect(
            LogFormat.builtin.map(\.id) == [
                "nslog-modern", "nslog-classic", "log-compact", "log-default", "log-syslog", "log-ndjson",
                "device-syslog", "syslog", "console-app", "nslog-untimed", "bare",
            ])
        #expect(LinePrefix.builtin.map(\.id) == ["indentation", "ci-timestamp", "grep-line-number", "quote", "appium"])
        let fresh = try Self.parser()
        #expect(fresh.catalog.tables.quickRefusal == HeaderRun.builtInRefusalIsQuick)
        var capture = RandomCapture(seed: 17, printed: 60)
        var random = SplitMix64(seed: 17)
        var lines =
            try TestSupport.realLines().prefix(3_000)
            + capture.make(lines: 3_000).split(separator: 0x0A).map { Array($0) }
        lines += lines.map { Array($0.dropFirst(24)) } + lines.map { Array($0.dropFirst(1)) }
        let nearMisses = [
            "Sync: a b", "main.swift:12: warning", "main.swift:x", "a:1", "a :1", "a\t:1", ":1", "12", "x-1",
            "[Analytics] event", "[7397:f803] x", "x[1:2] y", "x [12:ab] y", "x]:[1:2] y", "x:[1:2]", "x\t[1:2]",
            "[", "[1", "x[", "Jan  5 10:57:52 host a[1]: b", "Jan 15 10:57:52 h a[1] <Notice>: b", "Jan 5 x",
            "jan  5 x", "JAN  5 x", "Ja  5", "Jan  x5", "Jan  5", "Jan x5 y", "error\t10:37:14.650327-0500\tk\tx",
            "error\tx\t10:37", "error\t", "\t10:37", "x\u{0B}y", "\u{0C}x", "\rx", "x\r", "{", "{x", "> x", ">",
            "info: [IOS_SYSLOG_ROW ] Jul  4 13:26:15 host a[1] <Notice>: x", "[IOS_SYSLOG_ROW] x", "[IOS_SYSLOG_RO",
            "x [IOS_SYSLOG_ROW]", "é:1", "é[1:2] x", "ab\u{85}:1", "Sep 12 x", "CoreData: annotation: x",
            // Indented: Console.app's level and the untimed process may begin with spaces, and behind the
            // indentation any pattern may match.
            "  x[1:2] y", "  error\t10:37:14.650327-0500\tk\tx", " \terror\t10:37", "\t10:37", "  ", "\t",
            "    2019-05-04 10:46:18.565 a[1:60b] x", "\tJan  5 10:57:52 h a[1]: b", "  {x", " > x", " \u{0B}x",
            "    Server = nginx;", "\t\"id\" = 12;", "  main.swift:12: x", "  [IOS_SYSLOG_ROW] x", "  Sync: a b",
        ].map { Array($0.utf8) }
        lines += nearMisses
        // Indented copies of a third of the lines (spaces and tabs, one to four).
        lines += lines.enumerated().filter { $0.offset % 3 == 0 }.map { _, line in
            (0...(random.next() % 4)).map { _ in random.next() % 3 == 0 ? UInt8(ascii: "\t") : UInt8(ascii: " ") }
                + line
        }
        let alphabet = Array(" \t\r:[]0123456789{>AJaenx_IOSLGRW\u{7F}".utf8) + [0x0B, 0x85, 0xC3, 0xA9]
        for _ in 0..<20 {
            lines += nearMisses.map { TestSupport.mutate($0, alphabet: alphabet, within: 40, &random) }
        }
        let stamp = Array("2024-05-01T10:00:00.1234567Z ".utf8)
        let record = Array("2024-05-01T10:00:00.1234567Z 2019-05-04 10:46:18.565 a[1:60b] x".utf8)
        var checked = (quick: 0, walked: 0)
        for line in lines {
            line.withUnsafeBytes { raw in
                var parser = fresh
                let quick = HeaderRun.builtInRefuses(raw)
                let text = String(decoding: line, as: UTF8.self).debugDescription
                if quick {
                    #expect(parser.refuses(raw), "\(text)")
                    #expect(parser.parse(raw) == nil, "\(text)")
                    checked.quick += 1
                } else if parser.refuses(raw) {
                    checked.walked += 1
                }
                let walked = parser.refuses(raw)
                #expect(parser.refuses(raw, contentOffset: 0) == walked, "\(text)")
            }
            // Behind a runner's timestamp, after a record behind it alone (the content tested, then the walk).
            (stamp + line).withUnsafeBytes { raw in
                var parser = fresh
                _ = record.withUnsafeBytes { parser.parse($0) }
                let offset = parser.contentOffset(raw)
                let walked = parser.refuses(raw)
                #expect(parser.refuses(raw, contentOffset: offset) == walked)
            }
        }
        // Without the real corpus (a clone of the repository alone), the random lines and near misses still give
        // thousands of each.
        #expect(checked.quick > 2_000 && checked.walked > 100, "\(checked)")
        // A pattern of its own: the test is not asked (it knows nothing of this format).
        let own = LogFormat(
            id: "sync", title: "sync lines", origin: "a test", pattern: #"^Sync: (?<message>.*)$"#, timestamp: nil,
            samples: [.init(line: "Sync: a b", message: "a b")])
        var parser = RecordParser(
            catalog: try FormatCatalog(LogFormat.builtin.filter { !$0.isFallback } + [own, LogFormat.bare]),
            dates: DateInference(reference: DateInference.sampleReference), zone: nil)
        Array("Sync: a b".utf8).withUnsafeBytes { raw in
            #expect(HeaderRun.builtInRefuses(raw))
            let refused = parser.refuses(raw, contentOffset: 0)
            #expect(!refused)
            #expect(parser.parse(raw) != nil)
        }
    }

    /// The ways the runs take a repeat or furniture line to begin (`FormatCatalog.contentWays`, read from the patterns'
    /// text): the built-in catalogue has them, every sample of such a line that the built-in refusal refuses begins as
    /// one does, and a refused line that begins as none does is neither, for real and random lines, their tails, the
    /// samples and mutations of them.
    @Test func aRefusedLineThatBeginsAsNoContentWayDoesIsNoRepeatOrFurniture() throws {
        let catalog = try FormatCatalog()
        let ways = try #require(catalog.contentWays)
        // `---` (the repeat lines and `log`'s rule), `[co`, `[di`, `***`, and each `log` style's words.
        #expect(ways.count >= 8 && ways.count <= HeaderRun.contentPatterns)
        func takesAWay(_ line: [UInt8]) -> Bool {
            line.count < HeaderRun.contentPositions
                || ways.contains { way in
                    zip(way, line).allSatisfy { words, byte in
                        byte >= 0x80 || ((byte < 64 ? words.0 : words.1) >> UInt64(byte & 63)) & 1 != 0
                    }
                }
        }
        let samples = LogFormat.builtin.flatMap(\.samples).filter { $0.kind == .furniture || $0.kind == .repeat }
        for sample in samples {
            // A repeat line behind a syslog timestamp begins with the month, which the refusal does not refuse.
            let line = Array(sample.line.utf8)
            let refused = line.withUnsafeBytes { HeaderRun.builtInRefuses($0) }
            #expect(!refused || takesAWay(line), "\(sample.line)")
        }
        let parser = try Self.parser()
        var capture = RandomCapture(seed: 29, printed: 60)
        var random = SplitMix64(seed: 29)
        var lines =
            try TestSupport.realLines().prefix(2_000)
            + capture.make(lines: 2_000).split(separator: 0x0A).map { Array($0) }
        lines += lines.map { Array($0.dropFirst(24)) } + samples.map { Array($0.line.utf8) }
        let alphabet = Array("TEgFSLA{[*-imrektco\" :1".utf8)
        for _ in 0..<5 { lines += lines.map { TestSupport.mutate($0, alphabet: alphabet, within: 4, &random) } }
        var checked = 0
        for line in lines {
            let refused = line.withUnsafeBytes { HeaderRun.builtInRefuses($0) }
            guard refused, !takesAWay(line) else { continue }
            checked += 1
            line.withUnsafeBytes { raw in
                let text = String(decoding: line, as: UTF8.self).debugDescription
                #expect(!parser.isFurniture(content: raw), "\(text)")
                #expect(parser.repeatCount(content: raw) == nil, "\(text)")
            }
        }
        #expect(checked > 1_000)
    }

    /// An NSLog line behind a prefix is read by `NSLogHeader`, not PCRE2: its fields are where the format's pattern puts
    /// them, for every line of the samples, the corpus and a generated capture, and mutated ones, behind a grep line
    /// number and a quote.
    @Test func anNSLogLineBehindAPrefixHasItsPatternsFields() throws {
        let catalog = try FormatCatalog()
        var parser = RecordParser(
            catalog: catalog, dates: DateInference(reference: DateInference.sampleReference), zone: nil)
        let nslog = catalog.formats.indices.filter { catalog.tables.nslogShapes[$0] != nil }
        let matchers = nslog.map { Matcher(catalog.formats[$0].regex) }
        var random = SplitMix64(seed: 42)
        let alphabet = Array(" []:.0123456789x-+Z".utf8)
        var lines = try TestSupport.realLines()
        lines += try GeneratorStyleTests.generate(style: "nslog").split(separator: "\n").map { Array($0.utf8) }
        lines += lines.map { TestSupport.mutate($0, alphabet: alphabet, within: 60, &random) }
        let twoPrefixes = ["grep-line-number", "quote"].compactMap { id in
            catalog.prefixes.firstIndex { $0.prefix.id == id }
        }
        var read = 0
        for line in lines {
            let prefixed = Array("12:> ".utf8) + line
            let fields = prefixed.withUnsafeBytes { parser.parse($0) }
            // Only the lines read behind those two prefixes alone (a line may begin with a prefix of its own).
            guard fields == nil || parser.prefixChain == twoPrefixes else { continue }
            let expected = line.withUnsafeBytes { rest in
                zip(nslog, matchers).first { (try? $0.1.matches(rest)) == true }
            }
            guard let (index, matcher) = expected else {
                #expect(
                    fields.map { nslog.contains($0.formatIndex) } != true, "\(String(decoding: line, as: UTF8.self))")
                continue
            }
            let groups = catalog.formats[index]
            let found = try #require(fields, "\(String(decoding: line, as: UTF8.self))")
            #expect(found.formatIndex == index)
            func shifted(_ group: Int?) -> Range<Int>? {
                group.flatMap { matcher.range($0) }.map { ($0.lowerBound + 5)..<($0.upperBound + 5) }
            }
            #expect(found.pidRange == shifted(groups.pidGroup))
            #expect(found.thread == shifted(groups.threadGroup))
            #expect(found.timestampRange == shifted(groups.timestampGroup))
            #expect(found.message.lowerBound == shifted(groups.messageGroup)?.lowerBound)
            #expect(found.message.upperBound == prefixed.count)
            read += 1
        }
        #expect(read > lines.count / 3)
    }

    @Test func aSampleMatchingTwoFormatsIsRejected() throws {
        var greedy = LogFormat.nslogUntimed
        greedy.id = "greedy"
        greedy.pattern = #"^(?<message>.*)$"#
        greedy.samples = [.init(line: "2013-10-13 12:24:09.948 AppDelegate[12199:60b] hello")]
        let catalog = try FormatCatalog(LogFormat.builtin + [greedy])
        #expect(throws: TraceAnalyzeError.self) { try catalog.validate() }
    }

    @Test func aFormatWithoutMessageCaptureIsRejected() {
        var broken = LogFormat.nslogClassic
        broken.pattern = #"^(?<timestamp>\S+) (?<text>.*)$"#
        #expect(
            throws: TraceAnalyzeError.invalidFormat(
                id: "nslog-classic", field: "pattern", problem: "the pattern has no (?<message>…) capture; add one")
        ) {
            try FormatCatalog([broken])
        }
    }

    @Test func aPatternThatDoesNotCompileNamesTheFormatAndOffset() {
        var broken = LogFormat.nslogClassic
        broken.pattern = "^(?<message>.*"
        do {
            _ = try FormatCatalog([broken])
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains("format nslog-classic"))
            #expect(String(describing: error).contains("byte"))
        }
    }

    @Test func inputFormatOverrideRestrictsTheCatalogue() throws {
        let only = try FormatCatalog().only("nslog-modern")
        #expect(only.formats.map(\.format.id) == ["nslog-modern"])
        #expect(throws: TraceAnalyzeError.self) { try FormatCatalog().only("nope") }
    }

    @Test(arguments: [
        ("2013-10-13 12:24:09.948", "2013-10-13T12:24:09.948", 1_381_667_049_948_000 as Int64),
        ("2019-05-04 10:46:18.564743-0500", "2019-05-04T10:46:18.564743-05:00", 1_556_984_778_564_743),
        ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z", 1_709_251_199_000_000),
        ("1969-12-31 23:59:59.5+01:00", "1969-12-31T23:59:59.5+01:00", -3_600_500_000),
    ])
    func timestampsParseWithoutDateFormatter(_ text: String, _ iso: String, _ instant: Int64) throws {
        let timestamp = try #require(TimestampLayout.isoLike.parse(text))
        #expect(timestamp.iso8601 == iso)
        #expect(timestamp.instantMicros == instant)
    }

    /// Fractions of every length (read eight digits at a time where eight bytes are left) and the zones after them
    /// (kept from one timestamp to the next): each against a value worked out here, then all of them again, mixed,
    /// through one cache, against a fresh parse of each.
    @Test func fractionsAndZonesParseAlikeWithAndWithoutTheCache() throws {
        let zones: [(text: String, offset: Int32??)] = [
            ("", .some(nil)), ("Z", 0), ("-0500", -18_000), ("+05:30", 19_800), (" +0100", 3_600), ("-05", nil),
            ("x", nil), ("+0100 ", nil),
        ]
        var texts: [String] = []
        for count in 0...12 {
            let digits = String("735162849012".prefix(count))
            for zone in zones {
                let text = "2019-05-04 10:46:18" + (count == 0 ? "" : "." + digits) + zone.text
                texts.append(text)
                let parsed = TimestampLayout.isoLike.parse(text)
                guard let offset = zone.offset else {
                    #expect(parsed == nil, "\(text)")
                    continue
                }
                let kept = Int64(digits.prefix(6) + String(repeating: "0", count: 6 - min(count, 6))) ?? 0
                let expected = Timestamp(
                    wallMicros: 1_556_966_778 * 1_000_000 + kept, utcOffsetSeconds: offset,
                    fractionDigits: UInt8(min(count, 9)))
                #expect(parsed == expected, "\(text)")
            }
        }
        var cache = TimestampLayout.SecondCache()
        var dates = DateInference(reference: DateInference.sampleReference)
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let text = texts[Int(generator.next() % UInt64(texts.count))]
            let cached = Array(text.utf8).withUnsafeBytes {
                TimestampLayout.isoLike.parse($0, dates: &dates, cache: &cache)
            }
            #expect(cached == TimestampLayout.isoLike.parse(text), "\(text)")
        }
    }

    @Test(arguments: ["2013-13-01 00:00:00", "2013-10-13 25:00:00", "2013-10-13 12:24", "2013-10-13 12:24:09.", "x"])
    func malformedTimestampsAreRejected(_ text: String) {
        #expect(TimestampLayout.isoLike.parse(text) == nil)
    }

    @Test(arguments: [
        ("Jul  4 13:26:16", "2024-07-04T13:26:16"), ("Dec 15 11:48:28.972604", "2024-12-15T11:48:28.972604"),
        ("Feb 29 00:00:00", "2024-02-29T00:00:00"),
    ])
    func syslogTimestampsTakeTheirYearFromTheReference(_ text: String, _ iso: String) throws {
        #expect(try #require(TimestampLayout.syslog.parse(text)).iso8601 == iso)
    }

    @Test(arguments: ["Jul 32 13:26:16", "Foo  4 13:26:16", "Jul  4 13:26", "Jul  4 25:00:00"])
    func malformedSyslogTimestampsAreRejected(_ text: String) {
        #expect(TimestampLayout.syslog.parse(text) == nil)
    }

    @Test func theTimeOfDayIsTheISOTextBetweenItsTAndItsZone() {
        var random = SplitMix64(seed: 23)
        for round in 0..<20_000 {
            let wall =
                round < 10
                ? Int64(round - 5) : Int64.random(in: -5_000_000_000_000_000...5_000_000_000_000_000, using: &random)
            let offset: Int32? = [nil, 0, 19_800, -18_000][Int.random(in: 0..<4, using: &random)]
            let time = Timestamp(
                wallMicros: wall, utcOffsetSeconds: offset, fractionDigits: UInt8.random(in: 0...9, using: &random))
            let iso = time.iso8601
            var rest = iso[iso.index(after: iso.firstIndex(of: "T")!)...]
            if let zone = rest.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) { rest = rest[..<zone] }
            #expect(time.timeOfDay == String(rest), "\(iso)")
        }
    }

    /// Syslog timestamps read through the parser's cache (a line's date reused from the line before when their
    /// first seven bytes are the same, its seconds of the day when their eight bytes are) give what reading each
    /// afresh gives, the inferred years and their rollovers included: random runs of a few dates across New Year,
    /// fractions of every length, malformed and unpadded ones among them.
    @Test func cachedSyslogTimestampsAreTheSameAsFreshOnes() {
        let texts = [
            "Dec 31 23:59:59", "Dec 31 23:59:59.5", "Jan  1 00:00:01.123456", "Jan  1 09:15:00", "Jan 12 10:00:00",
            "Jul  4 13:26:15", "Jul  4 13:26:16.972604", "Jul 4 13:26:16.5", "Jul  4 25:00:00", "Jul 32 13:26:16",
            "Jul  4 13:26", "Jul  4 13:26:15.", "Foo  4 13:26:15", "Jul  4 13:26:15,25", "Jul  4 13:26:15.1234567890",
            "Jul  4 13:26:15.12x", "Jul  4 13:26:15 ", "Jul  4 13:26:1x", "Jul  4 13:26:15.1234567",
        ]
        var cache = TimestampLayout.SecondCache()
        var cached = DateInference(reference: DateInference.sampleReference)
        var fresh = cached
        var generator = SplitMix64(seed: 11)
        for _ in 0..<3_000 {
            let text = texts[Int(generator.next() % UInt64(texts.count))]
            let bytes = Array(text.utf8)
            let viaCache = bytes.withUnsafeBytes { TimestampLayout.syslog.parse($0, dates: &cached, cache: &cache) }
            let afresh = bytes.withUnsafeBytes { TimestampLayout.syslog.parse($0, dates: &fresh) }
            #expect(viaCache == afresh, "\(text)")
            #expect(cached.rollovers == fresh.rollovers)
        }
        #expect(fresh.rollovers > 10)
    }

    @Test func syslogYearsRollOverAtNewYear() {
        var dates = DateInference(explicitYear: 2023, reference: DateInference.sampleReference)
        #expect(dates.year(month: 12, day: 31) == 2023)
        #expect(dates.year(month: 1, day: 1) == 2024)
        #expect(dates.year(month: 12, day: 31) == 2023)  // a line out of order across New Year steps back
        #expect(dates.rollovers == 2)
    }

    @Test func aReferenceInJanuaryPutsDecemberLinesInTheYearBefore() {
        var dates = DateInference(reference: .init(year: 2025, month: 1, day: 2, secondsOfDay: 3600))
        #expect(dates.year(month: 12, day: 30) == 2024)
        #expect(dates.year(month: 1, day: 1) == 2025)
    }

    @Test func consoleTimesTakeTheReferenceDayAndRollOverAtMidnight() throws {
        var dates = DateInference(reference: .init(year: 2025, month: 3, day: 10, secondsOfDay: 3600))
        // 23:59 is later in the day than the reference (01:00): the capture began the day before.
        var bytes = Array("23:59:59.5-0500".utf8)
        let first = try #require(bytes.withUnsafeBytes { TimestampLayout.timeOfDay.parse($0, dates: &dates) })
        #expect(first.iso8601 == "2025-03-09T23:59:59.5-05:00")
        bytes = Array("00:00:01.000000-0500".utf8)
        let second = try #require(bytes.withUnsafeBytes { TimestampLayout.timeOfDay.parse($0, dates: &dates) })
        #expect(second.iso8601 == "2025-03-10T00:00:01.000000-05:00")
        #expect(first.milliseconds(to: second) == 1500)
    }

    @Test func zoneLessTimesTakeTheAssumedZoneForInstantsButKeepTheirText() throws {
        let zone = try #require(ZoneSetting("Europe/Paris"))
        let parser = RecordParser(
            catalog: try FormatCatalog(), dates: DateInference(reference: DateInference.sampleReference), zone: zone)
        let winter = try #require(parser.fields(of: "2024-01-15 12:00:00.000 App[1:a] x")?.timestamp)
        let summer = try #require(parser.fields(of: "2024-07-15 12:00:00.000 App[1:a] x")?.timestamp)
        #expect(winter.iso8601 == "2024-01-15T12:00:00.000")
        #expect(winter.assumedOffsetSeconds == 3600)
        #expect(summer.assumedOffsetSeconds == 7200)
        // Across the spring change (31 March 2024, 02:00 → 03:00) two wall-clock hours are one hour.
        let before = try #require(parser.fields(of: "2024-03-31 01:30:00.000 App[1:a] x")?.timestamp)
        let after = try #require(parser.fields(of: "2024-03-31 03:30:00.000 App[1:a] x")?.timestamp)
        #expect(before.milliseconds(to: after) == 3_600_000)
    }

    /// The resolver caches the offset of the hour asked last: times in that hour, before it, after it, before 1970
    /// and across a daylight-saving change get the offset a fresh resolver gives.
    @Test func zoneOffsetsCachedByHourMatchAFreshResolver() throws {
        let setting = try #require(ZoneSetting("Europe/Paris"))
        var cached = ZoneResolver(setting)
        let hour: Int64 = 3_600_000_000
        let march31 = Int64(Timestamp.days(year: 2024, month: 3, day: 31)) * 86_400_000_000
        let times: [Int64] = [
            march31, march31 + hour - 1, march31 + hour, march31 + 3 * hour + 1, march31 + 2 * hour, march31 - 1,
            march31 + 3 * hour + 59, -hour - 1, -1, 0, march31 + 10 * hour, march31 + 10 * hour + hour / 2,
        ]
        for time in times {
            var fresh = ZoneResolver(setting)
            #expect(cached.offset(atWallMicros: time) == fresh.offset(atWallMicros: time), "at \(time) µs")
        }
    }

    @Test(arguments: [
        ("UTC", ZoneSetting.offset(0)), ("+02:00", .offset(7200)), ("-0530", .offset(-19800)), ("+09", .offset(32400)),
        ("Europe/Paris", .named("Europe/Paris")),
    ])
    func timezoneOptionsAreRead(_ text: String, _ expected: ZoneSetting) {
        #expect(ZoneSetting(text) == expected)
    }

    @Test(arguments: ["Mars/Olympus", "+25:00", "+2", "utc+1", ""])
    func badTimezonesAreRejected(_ text: String) {
        #expect(ZoneSetting(text) == nil)
    }

    @Test func differencesUseTheOffset() throws {
        let a = try #require(TimestampLayout.isoLike.parse("2019-05-04 10:00:00.000000-0500"))
        let b = try #require(TimestampLayout.isoLike.parse("2019-05-04 16:00:00.250000+0100"))
        #expect(a.milliseconds(to: b) == 250)
    }
}

/// The benchmark's grep of a style's formats (`Scripts/benchmark.sh`, `GREP_FORMATS_<STYLE>`) must count the lines
/// the tool reads as records of them: its pattern is the built-in formats' own, with their groups unnamed (grep -P
/// refuses a name used twice).
@Suite("Benchmark patterns")
struct BenchmarkPatternTests {
    @Test(arguments: [
        ("NSLOG", [LogFormat.nslogModern, LogFormat.nslogClassic]), ("LOG_COMPACT", [LogFormat.logCompact]),
        ("LOG_DEFAULT", [LogFormat.logDefault]), ("LOG_SYSLOG", [LogFormat.logSyslog]),
        ("LOG_NDJSON", [LogFormat.logNDJSON]), ("DEVICE_SYSLOG", [LogFormat.deviceSyslog]),
        ("SYSLOG", [LogFormat.syslog]),
    ])
    func theBenchmarksFormatPatternIsTheStylesFormats(style: String, formats: [LogFormat]) throws {
        let script = try String(
            contentsOf: TestSupport.packageRoot.appendingPathComponent("Scripts/benchmark.sh"), encoding: .utf8)
        let prefix = "GREP_FORMATS_\(style)='"
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix(prefix) })
        #expect(line.hasSuffix("'"))
        let pattern = line.dropFirst(prefix.count).dropLast()
        let unnamed = try Regex(#"\(\?<[A-Za-z]+>"#)
        let expected = formats.map { $0.pattern.replacing(unnamed, with: "(") }.joined(separator: "|")
        #expect(String(pattern) == expected)
        #expect(!pattern.contains("'"))
    }

    /// A CI runner's raw log (`STYLE=ci`): the grep of its formats is NSLog's behind the pattern of the built-in
    /// `ci-timestamp` prefix, as the script puts them together.
    @Test func theCIBenchmarksFormatPatternIsNSLogsBehindTheCITimestamp() throws {
        let script = try String(
            contentsOf: TestSupport.packageRoot.appendingPathComponent("Scripts/benchmark.sh"), encoding: .utf8)
        let lines: [Substring] = script.split(separator: "\n")
        let assignments = lines.filter { $0.hasPrefix("GREP_") || $0.hasPrefix("nslog_") }.joined(separator: "\n")
        let result = try TestSupport.run(
            ["-c", assignments + "\nprintf %s \"$GREP_FORMATS_CI\""], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(result.status == 0, "\(result.stderr)")
        let unnamed = try Regex(#"\(\?<[A-Za-z]+>"#)
        var nslog: [String] = []
        for format in [LogFormat.nslogModern, LogFormat.nslogClassic] {
            nslog.append(String(format.pattern.replacing(unnamed, with: "(").dropFirst()))  // without its `^`
        }
        let expected = "^" + LinePrefix.ciTimestamp.pattern + "(?:" + nslog.joined(separator: "|") + ")"
        #expect(result.stdout == expected)
    }
}
