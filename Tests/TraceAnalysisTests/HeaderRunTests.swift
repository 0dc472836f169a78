import Foundation
import Testing

@testable import TraceAnalysis

/// The runs of NSLog lines that repeat a record's header (`HeaderRun`, read by one C loop) must change nothing but
/// the speed: every report is the one the line-by-line path gives, whatever the chunks the input is read in.
@Suite("Header runs")
struct HeaderRunTests {
    /// The JSON and text reports of `bytes` with the runs, at each chunk size, read ahead or not, against those
    /// without; returns the fewest lines the runs took. Read ahead, the runs take the same lines but those that may
    /// open a dump (the loud lines mark them; at most one per line of the capture, `text` when `bytes` is
    /// compressed, that ends with `{`, `(` or `[`), or (`styles`: the `log` styles and the device syslog, whose
    /// messages begin after more than the first `]` the loud lines take them to follow) no more.
    @discardableResult
    static func expectSameReports(
        _ bytes: [UInt8], chunkSizes: [Int], maximumLineLength: Int = LineReader.defaultMaximumLineLength,
        styles: Bool = false, text: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let analyzer = try TestSupport.analyzer()
        var fewest = Int.max
        let openers = (text ?? bytes).split(separator: UInt8(ascii: "\n")).count { line in
            guard let last = line.last(where: { $0 != 0x0D }) else { return false }
            return last == UInt8(ascii: "{") || last == UInt8(ascii: "(") || last == UInt8(ascii: "[")
        }
        for chunk in chunkSizes {
            let plain = analyzer.analyze(
                bytes: bytes, chunkSize: chunk, maximumLineLength: maximumLineLength, headerRuns: false)
            let runs = analyzer.analyze(
                bytes: bytes, chunkSize: chunk, maximumLineLength: maximumLineLength, headerRuns: true)
            let ahead = analyzer.analyze(
                bytes: bytes, chunkSize: chunk, maximumLineLength: maximumLineLength, headerRuns: true,
                readAhead: true)
            #expect(plain.runLines == 0, sourceLocation: sourceLocation)
            #expect(ahead.runLines <= runs.runLines, sourceLocation: sourceLocation)
            if !styles {
                #expect(runs.runLines - ahead.runLines <= openers, sourceLocation: sourceLocation)
            }
            // Compared as one value each, so that a failure does not print whole reports.
            let sameAhead = JSONReporter.bytes(ahead.report) == JSONReporter.bytes(plain.report)
            #expect(sameAhead, "JSON differs read ahead, chunks of \(chunk)", sourceLocation: sourceLocation)
            let sameJSON = JSONReporter.bytes(runs.report) == JSONReporter.bytes(plain.report)
            let sameText = TextReporter().render(runs.report) == TextReporter().render(plain.report)
            #expect(sameJSON, "JSON differs, chunks of \(chunk)", sourceLocation: sourceLocation)
            #expect(sameText, "text differs, chunks of \(chunk)", sourceLocation: sourceLocation)
            for input in runs.report.inputs { TestSupport.expectAccounted(input, sourceLocation: sourceLocation) }
            fewest = min(fewest, runs.runLines)
        }
        return fewest
    }

    /// `bytes` analysed with the runs, in chunks of `chunkSize`, read ahead or not.
    static func withRuns(_ bytes: [UInt8], chunkSize: Int = 1 << 20, readAhead: Bool) throws -> (
        report: AnalysisReport, runLines: Int, runPrinted: Int
    ) {
        try TestSupport.analyzer().analyze(
            bytes: bytes, chunkSize: chunkSize, maximumLineLength: LineReader.defaultMaximumLineLength,
            headerRuns: true, readAhead: readAhead)
    }

    /// The runs' lines of every `.log` file of `folder`, checked as ``expectSameReports(_:chunkSizes:)`` does.
    static func expectSameReports(folder: URL, styles: Bool = false) throws -> Int {
        var taken = 0
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        for name in names.sorted() where name.hasSuffix(".log") {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            taken += try expectSameReports(bytes, chunkSizes: [97, 1 << 20], styles: styles)
        }
        return taken
    }

    /// A hand-made capture `text`, checked in one chunk as
    /// ``expectSameReports(_:chunkSizes:maximumLineLength:styles:text:sourceLocation:)`` checks a capture, whose runs
    /// must take `taken` lines; returns its report.
    static func expectTaken(
        _ taken: Int, in text: String, styles: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> AnalysisReport {
        let lines = try expectSameReports(
            Array(text.utf8), chunkSizes: [1 << 20], styles: styles, sourceLocation: sourceLocation)
        #expect(lines == taken, sourceLocation: sourceLocation)
        return try TestSupport.analyzer().analyze(text: text, name: "hand-made.log")
    }

    @Test func theSamples() throws {
        #expect(try Self.expectSameReports(folder: TestSupport.samples) > 0)
    }

    @Test(.enabled(if: TestSupport.corpusExists))
    func theRealCorpus() throws {
        #expect(try Self.expectSameReports(folder: TestSupport.corpus) > 0)
    }

    /// The small captures of `Fixtures/styles`, which are also the fuzzer's seeds in these styles.
    @Test func theStyledFixtures() throws {
        let folder = TestSupport.packageRoot.appendingPathComponent("Tests/TraceAnalysisTests/Fixtures/styles")
        #expect(try Self.expectSameReports(folder: folder, styles: true) > 1_000)
    }

    /// The generator's captures in the `log` styles, the device syslog and BSD syslog.
    @Test(arguments: ["log-compact", "log-syslog", "log-default", "device-syslog", "syslog"])
    func generatedStyledCaptures(_ style: String) throws {
        let bytes = Array(try GeneratorStyleTests.generate(style: style).utf8)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [331, 1 << 20], styles: true)
        #expect(taken > 3_000, "the runs took only \(taken) lines")
    }

    /// A capture saved with CRLF line ends (on Windows, or pasted) is read as the reader hands its lines out, without
    /// the CR: the runs take the lines they take in the same capture with LF ends, read ahead or not.
    @Test(arguments: ["nslog", "device-syslog", "log-compact"])
    func aCRLFCaptureIsTakenAsItsLFCapture(_ style: String) throws {
        let text = try GeneratorStyleTests.generate(style: style)
        let crlf = Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let taken = try Self.expectSameReports(crlf, chunkSizes: [331, 1 << 20], styles: style != "nslog")
        let analyzer = try TestSupport.analyzer()
        let lf = analyzer.analyze(
            bytes: Array(text.utf8), chunkSize: 1 << 20, maximumLineLength: LineReader.defaultMaximumLineLength,
            headerRuns: true)
        #expect(taken == lf.runLines)
        #expect(taken > 3_000)
    }

    /// A long header tail (here 128 bytes, the longest kept) is compared whole: two names that differ in one byte
    /// of one of its middle words are two processes. The line that repeats the first one's tail but for that byte
    /// is the second's, whose clock goes back (a clock anomaly the report counts).
    @Test(arguments: Array(stride(from: 12, through: 116, by: 8)))
    func aLongTailIsComparedWhole(_ offset: Int) throws {
        let first = String(repeating: "NotificationServiceExtension", count: 5).prefix(123)
        var bytes = Array(first.utf8)
        bytes[offset - 1] = UInt8(ascii: "_")  // byte `offset` of the tail ` name[12:`
        let second = String(decoding: bytes, as: UTF8.self)
        let text = """
            2019-05-04 10:46:27.500 \(second)[12:3a] applicationDidBecomeActive
            2019-05-04 10:46:27.100 \(first)[12:3a] armed
            2019-05-04 10:46:27.200 \(second)[12:3a] back in time
            2019-05-04 10:46:27.300 \(first)[12:3a] taken

            """
        let report = try Self.expectTaken(2, in: text, styles: false)
        #expect(report.inputs[0].clockAnomalies == 1)
    }

    /// An NSLog record whose message ends with `{`, `(` or `[` is taken with its brackets: when they leave a dump
    /// open the run ends after it, the dump's lines are taken as continuations, and the run goes on once it closes;
    /// when they do not (`closes) then opens (`), the run goes on from the next line.
    @Test func aRecordThatOpensADumpIsTaken() throws {
        let text = """
            2019-05-04 10:46:20.010 State Lab[11457:70b] applicationDidBecomeActive
            2019-05-04 10:46:20.011 State Lab[11457:70b] Visible regions: (
                "{{0, 0}, {320, 480}}"
            )
            2019-05-04 10:46:20.012 State Lab[11457:70b] closes) then opens (
            2019-05-04 10:46:20.013 State Lab[11457:70b] quiet

            """
        let report = try Self.expectTaken(5, in: text, styles: false)
        #expect(report.inputs[0].records == 4)
        #expect(report.inputs[0].continuationLines == 2)
    }

    /// Inside a dump that a record the run took opened, a line is a record only of that record's format, though the
    /// last record read one by one was of the other NSLog shape: here the modern line inside the classic record's
    /// dump is a continuation line, as the line-by-line path reads it.
    @Test func aDumpTheRunOpenedEndsOnlyAtItsOwnFormat() throws {
        let text = """
            2019-05-04 10:46:20.010 State Lab[11457:70b] applicationDidBecomeActive
            2019-05-04 10:46:20.011000-0500 Other[4613:1702596] applicationDidBecomeActive
            2019-05-04 10:46:20.012 State Lab[11457:70b] quiet
            2019-05-04 10:46:20.013 State Lab[11457:70b] Push payload: {
            2019-05-04 10:46:20.014000-0500 Other[4613:1702596] inside the dump
            }
            2019-05-04 10:46:20.015 State Lab[11457:70b] after it

            """
        let report = try Self.expectTaken(3, in: text, styles: false)
        #expect(report.inputs[0].records == 5)
        #expect(report.inputs[0].continuationLines == 2)
    }

    /// A line that repeats the tail of a record of the other style (here a syslog record whose host is `Df`) is
    /// not a record of the style armed, though its bytes are that tail's: the compact pattern needs `[pid:`.
    @Test func aTailOfAnotherStyleIsNotTaken() throws {
        let text = """
            2019-05-04 10:46:27.221775-0500 Df App[12]: hello
            2019-05-04 10:46:27.221 Df Other[13:1a] armed
            2019-05-04 10:46:27.222 Df Other[13:1a] taken
            2019-05-04 10:46:27.223 Df App[12]: abc] not compact
            2019-05-04 10:46:27.224 Df Other[13:1a] read one by one, and arms again

            """
        // The one line taken: the third (the fourth is read one by one, and disarms).
        let taken = try Self.expectSameReports(Array(text.utf8), chunkSizes: [1 << 20])
        #expect(taken == 1)
    }

    /// A device syslog record read without a device name (PCRE2's second way, once the first failed) gives a tail
    /// whose lines are taken only when the first way fails for them too: the second line has the record's bytes up
    /// to its pid, but its message's brackets let the first way match (device `SampleApp(UIKitCore)[11710]`,
    /// another process), so it is read one by one; the third is taken.
    @Test func aDeviceRecordReadWithoutItsNameGivesATailTheFirstWayMustFail() throws {
        let text = """
            May  4 10:46:27.221775 SampleApp(UIKitCore)[11710] <Notice>: application:didFinishLaunchingWithOptions:
            May  4 10:46:27.300000 SampleApp(UIKitCore)[11710] <Notice>: x[12] <Error>: another process
            May  4 10:46:27.400000 SampleApp(UIKitCore)[11710] <Notice>: quiet, [1] (x) [2] <a>

            """
        let report = try Self.expectTaken(1, in: text)
        #expect(report.inputs[0].records == 3)
    }

    /// A BSD syslog header can be as short as 21 bytes (`Mmm dd HH:MM:SS h p: `): inside a dump a BSD record
    /// opened, such a line is a record, not a continuation line (a device syslog header needs 25).
    @Test func aShortBSDHeaderEndsADump() throws {
        let text = """
            Jul  1 09:01:05 host App[12]: Response: {
                key = value;
            Jul  1 09:01:05 h A: x
            Jul  1 09:01:05 h A: y
            Jul  1 09:01:06 host App[12]: applicationDidBecomeActive
            Jul  1 09:01:06 host App[12]: quiet
            Jul  1 09:01:06 host App[12] (UIKit): with a sender
            Jul  1 09:01:06 host App[12] (UIKit): taken

            """
        // Taken: the dump's `key = value;`, the quiet line after the record that names a keyword, and the lines
        // that repeat its tail with a sender.
        let report = try Self.expectTaken(4, in: text)
        #expect(report.inputs[0].records == 7)
    }

    /// A BSD syslog record whose process holds a `(` gives no tail: the third line repeats its bytes to the pid's
    /// `]`, but the group opened in the name closes in its message, and the pattern reads the process as `a`, whose
    /// clock then goes back (a clock anomaly the report counts).
    @Test func aBSDProcessWithAParenthesisGivesNoTail() throws {
        let text = """
            Jul  1 09:01:09 host a: applicationDidBecomeActive
            Jul  1 09:01:05 host a (b[1]: hello
            Jul  1 09:01:05 host a (b[1]: x): y
            Jul  1 09:01:05 host a (b[1]: hello again

            """
        let report = try Self.expectTaken(0, in: text)
        #expect(report.inputs[0].clockAnomalies == 1)
    }

    /// Random `log` style captures made to hit every way a line can leave a style's run, as ``randomCaptures(_:)``.
    @Test(arguments: 0..<12)
    func randomStyledCaptures(_ seed: Int) throws {
        var capture = RandomStyleCapture(seed: UInt64(seed))
        let bytes = capture.make(lines: 3_000)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [64, 331, 4096, 1 << 20], styles: true)
        #expect(taken > 300, "the runs took only \(taken) lines: the test no longer exercises them")
        try Self.expectSameReports(bytes, chunkSizes: [211, 1 << 20], maximumLineLength: 90, styles: true)
        if seed < 3 {
            let zipped = try BatchTests.gzip(bytes)
            #expect(try Self.expectSameReports(zipped, chunkSizes: [331, 1 << 20], styles: true) > 300)
        }
    }

    /// Random captures as ``randomStyledCaptures(_:)``, each line behind a CI runner's timestamp, now and then one a
    /// run must leave (``RandomCapture/ciTimestamp()``): the runs take the lines behind the timestamps, and the
    /// reports are the built-in patterns' too.
    @Test(arguments: 0..<12)
    func randomStyledCapturesBehindCITimestamps(_ seed: Int) throws {
        var capture = RandomStyleCapture(seed: UInt64(seed))
        capture.base.ciTimestamps = true
        let bytes = capture.make(lines: 3_000)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [64, 331, 4096, 1 << 20], styles: true)
        #expect(taken > 300, "the runs took only \(taken) lines: the test no longer exercises them")
        try Self.expectSameReports(bytes, chunkSizes: [211, 1 << 20], maximumLineLength: 90, styles: true)
        try TestSupport.expectSameAsThePatterns(bytes)
    }

    /// Random captures made to hit every way a line can leave a run, read in chunks from 64 bytes up.
    @Test(arguments: 0..<12)
    func randomCaptures(_ seed: Int) throws {
        var capture = RandomCapture(seed: UInt64(seed))
        let bytes = capture.make(lines: 3_000)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [64, 331, 4096, 1 << 20])
        #expect(taken > 300, "the runs took only \(taken) lines: the test no longer exercises them")
        try Self.expectSameReports(bytes, chunkSizes: [211, 1 << 20], maximumLineLength: 90)
        // Gzip: the reading thread inflates, and leaves the chunk scan and the marks' checks to the reader.
        if seed < 3 {
            let zipped = try BatchTests.gzip(bytes)
            #expect(try Self.expectSameReports(zipped, chunkSizes: [331, 1 << 20], text: bytes) > 300)
        }
    }

    /// Random captures as ``randomCaptures(_:)``, a third of whose lines are printed (Xcode's console of an app that
    /// also calls `print`): lines of no format the runs count between headers, and lines that look like them but are
    /// not (a keyword, a prefix, furniture, a repeat line, an indentation, a month, a blank line, a CR).
    @Test(arguments: 0..<12)
    func randomCapturesWithPrintedLines(_ seed: Int) throws {
        var capture = RandomCapture(seed: UInt64(seed), printed: 33)
        let bytes = capture.make(lines: 3_000)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [64, 331, 4096, 1 << 20])
        #expect(taken > 600, "the runs took only \(taken) lines: the test no longer exercises them")
        try Self.expectSameReports(bytes, chunkSizes: [211, 1 << 20], maximumLineLength: 90)
    }

    /// Random captures as ``randomCaptures(_:)``, each line behind a CI runner's timestamp (a GitHub Actions raw log),
    /// now and then one a run must leave (``RandomCapture/ciTimestamp()``); in half of them a fifth of the lines are
    /// printed, and in half the processes write one NSLog shape (as a CI job's device or simulator does; a line of
    /// the other is drawn now and then). The runs take the lines behind the timestamps, and the reports are the
    /// built-in patterns' too, with a prefix of the caller's before them (in whose catalogue a run behind a prefix
    /// takes one shape at a time) and without.
    @Test(arguments: 0..<12)
    func randomCapturesBehindCITimestamps(_ seed: Int) throws {
        var capture = RandomCapture(seed: UInt64(seed), printed: seed % 2 == 0 ? 0 : 20, ciTimestamps: true)
        if seed >= 6 { capture.processes.removeAll { $0.modern != (seed % 4 < 2) } }
        let bytes = capture.make(lines: 3_000)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [64, 331, 4096, 1 << 20])
        // A printed line behind a prefix ends a run (it is read one by one).
        let least = capture.printed > 0 ? 150 : 300
        #expect(taken > least, "the runs took only \(taken) lines: the test no longer exercises them")
        try Self.expectSameReports(bytes, chunkSizes: [211, 1 << 20], maximumLineLength: 90)
        try TestSupport.expectSameAsThePatterns(bytes)
        // A prefix of the caller's, tried first, that takes the CI runner's timestamps before classic NSLog lines: after
        // a modern record behind the built-in prefix, such a line is a record behind the caller's.
        let classicInCI = LinePrefix(
            id: "ci-classic", title: "CI runner timestamps before classic NSLog lines",
            pattern: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z (?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} )"#,
            samples: [
                .init(
                    line: "2024-05-01T10:00:00.1234567Z 2013-11-06 14:43:24.413 BackgroundDemo[385:60b] hi",
                    format: "nslog-classic")
            ])
        try TestSupport.expectSameAsThePatterns(bytes, userPrefixes: [classicInCI])
    }

    /// The generator's Xcode console: the runs take the printed lines between the NSLog records, which are then
    /// taken too (a printed line leaves the run armed); read ahead as well (a printed line has no `]` for the loud
    /// lines to take a message to follow: all of it is their message).
    @Test func theGeneratedXcodeCapture() throws {
        let bytes = Array(try GeneratorStyleTests.generate(style: "xcode").utf8)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [331, 1 << 20])
        let (runs, ahead) = try (Self.withRuns(bytes, readAhead: false), Self.withRuns(bytes, readAhead: true))
        let input = try #require(runs.report.inputs.first)
        #expect(input.unparsedLines > 2_000)
        #expect(taken > input.lines * 3 / 4, "the runs took \(taken) of \(input.lines) lines")
        #expect(
            ahead.runPrinted > runs.runPrinted * 9 / 10,
            "read ahead, the runs counted \(ahead.runPrinted) printed lines of \(runs.runPrinted)")
    }

    /// Read ahead, the reading thread checks a chunk's marks and marks its loud lines unless the reader is already
    /// waiting for it (``ReadAhead/checking``): forced either way, every chunk checked or none, the reports are the
    /// same as without reading ahead (the Xcode console, the CI log, random captures with printed lines, the
    /// samples), and the runs take as many lines as on one thread when no chunk is checked.
    @Test func chunksCheckedOrNotByTheReadingThreadGiveTheSameReports() throws {
        defer { ReadAhead.checking = nil }
        var capture = RandomCapture(seed: 7, printed: 33)
        let captures = [
            Array(try GeneratorStyleTests.generate(style: "xcode").utf8),
            Array(try GeneratorStyleTests.generate(style: "ci").utf8),
            capture.make(lines: 3_000),
        ]
        for checking in [true, false] {
            ReadAhead.checking = checking
            for bytes in captures {
                try Self.expectSameReports(bytes, chunkSizes: [331, 1 << 20])
                if !checking {
                    let (runs, ahead) = try (
                        Self.withRuns(bytes, chunkSize: 331, readAhead: false),
                        Self.withRuns(bytes, chunkSize: 331, readAhead: true)
                    )
                    #expect(ahead.runLines == runs.runLines)
                }
            }
            try Self.expectSameReports(folder: TestSupport.samples)
        }
    }

    /// The generator's CI runner log (its Xcode console behind the runner's timestamps): the runs take the NSLog
    /// records and the printed lines behind the timestamps, and the reports are the patterns' own, read by PCRE2.
    @Test func theGeneratedCICapture() throws {
        let bytes = Array(try GeneratorStyleTests.generate(style: "ci").utf8)
        let taken = try Self.expectSameReports(bytes, chunkSizes: [331, 1 << 20])
        let lines = bytes.lazy.filter { $0 == 0x0A }.count
        #expect(taken > lines * 3 / 4, "the runs took \(taken) of \(lines) lines")
        try TestSupport.expectSameAsThePatterns(bytes)
    }

    /// The printed lines a run counts itself (`csimd_header_state.printed`) are the ones the line-by-line path counts
    /// as lines of no format, and no others: between quiet records, with and without a CI runner's timestamp, lines
    /// each pattern the run's tests know would read (or nearly), with keywords, a CR, bytes from 0x80, and lines too
    /// short for them or longer than the longest line; every chunk size.
    @Test func printedLinesTheRunCountsAreTheLineByLinePathsOnes() throws {
        let printed = [
            "Sync: user download layout map", "Response JSON: {\"id\": 1}", "applicationDidEnterBackground",
            "Timestamp               Ty Process[PID:TID]", "--- last message repeated 3 times ---",
            "Jan  5 10:57:52 host a[1]: b", "Jul  4 13:26:15 iPhone SpringBoard(IDS)[49] <Notice>: x",
            "error\t10:37:14.650327-0500\tkernel\tx", "Tab\tinside the line", "x[123:45] untimed", "x[a:45] not",
            "info: [IOS_SYSLOG_ROW ] Jul  4 13:26:15 host a[1] <Notice>: x", "main.swift:12: warning", "ab", "Abc",
            "Sync with a CR\r", "{\"count\":2,\"finished\":1}", "[connected]", "Error from getpwuid_r: 0",
            "CoreData: annotation: x", "<UIView: 0x7f116c7c62f0>", "é accented and long enough to be read",
            "Skipping info and debug messages, pass --info and/or --debug to include.", "> quoted line here",
            "Log      - Default:          5, Info:                0", "View did load: the first screen",
            String(repeating: "Long printed line ", count: 20),
        ]
        let header = "2019-05-04 10:46:18.565123-0500 BackgroundDemo[12959:1702596]"
        let stamp = "2024-05-01T10:00:00.1234567Z "
        var plain = "\(header) armed\n"
        var behind = "\(stamp)\(header) armed\n"
        for line in printed {
            plain += "\(line)\n\(header) quiet\n"
            behind += "\(stamp)\(line)\n\(stamp)\(header) quiet\n\(line)\n\(stamp)\(header) quiet\n"
        }
        for text in [plain, behind] {
            for longest in [LineReader.defaultMaximumLineLength, 200] {
                try Self.expectSameReports(Array(text.utf8), chunkSizes: [61, 331], maximumLineLength: longest)
                try Self.expectSameReports(Array(text.utf8), chunkSizes: [1 << 20], maximumLineLength: longest)
            }
        }
        // Those the run counts itself, each of them, in one chunk: no digit, space or tab first, no first bytes a
        // repeat or furniture pattern allows, no keyword, refused by every pattern, within the longest line.
        let counted = [
            "Sync: user download layout map", "Response JSON: {\"id\": 1}", "Tab\tinside the line",
            "x[a] not an untimed record",
            "CoreData: annotation: x", "<UIView: 0x7f116c7c62f0>", "é accented and long enough to be read",
            "HTTP GET https://cdn.example.net/v3/search/59491 -> 503", "Sync with a CR\r",
            String(repeating: "Long printed line ", count: 20),
        ]
        for (prefix, longest) in [("", LineReader.defaultMaximumLineLength), (stamp, 200)] {
            let text = counted.reduce("\(prefix)\(header) armed\n") {
                $0 + "\(prefix)\($1)\n\(prefix)\(header) quiet\n"
            }
            let bytes = Array(text.utf8)
            try Self.expectSameReports(bytes, chunkSizes: [1 << 20], maximumLineLength: longest)
            let runs = try TestSupport.analyzer().analyze(
                bytes: bytes, chunkSize: 1 << 20, maximumLineLength: longest, headerRuns: true)
            // The longest line (its CR kept) of 200 bytes leaves the long one to the line-by-line path.
            #expect(runs.runPrinted == counted.count - (longest == 200 ? 1 : 0))
        }
        let input = try #require(try TestSupport.analyzer().analyze(text: plain, name: "printed.log").inputs.first)
        #expect(input.unparsedLines > printed.count / 2)
    }

    /// What a printed line between two NSLog records is read as: counted as a line of no format by the run (lines 2,
    /// 4, 12, 13 and 14, and the records after them), or left to the line-by-line path, which finds a bare record (a
    /// keyword), a record behind a `grep -n` prefix, a repeat line, a blank line. After a printed line, an indented
    /// line is no continuation: there is no record's indentation to compare it with (line 13).
    @Test func printedLinesBetweenRecords() throws {
        let header = "2019-05-04 10:46:18.565 BackgroundDemo[12959:60b]"
        let text = """
            \(header) armed
            Sync: user download layout map
            \(header) quiet
            HTTP GET https://cdn.example.net/v3/search/59491 -> 503
            \(header) quiet
            applicationDidEnterBackground
            \(header) quiet
            main.swift:12:2019-05-04 10:46:18.566 BackgroundDemo[12959:60b] behind a prefix
            \(header) quiet
            --- last message repeated 3 times ---
            \(header) quiet
            Response headers: {
                Server = nginx;
            }
            \(header) quiet

            \(header) quiet

            """
        let report = try Self.expectTaken(8, in: text)
        let input = try #require(report.inputs.first)
        #expect(input.unparsedLines == 5)
        #expect(input.unparsedSamples == [2, 4, 12, 13, 14])
        #expect(input.blankLines == 1)
        #expect(input.continuationLines == 0)
    }
}

extension HeaderRunTests {
    /// An indented line a run stops at is a line of no format only after one (the lines of a dictionary a `print`
    /// wrote), and a continuation line after a record, though the records before it were taken by the run after a
    /// line of no format; blank, it is blank. The same behind a CI runner's timestamp, where a record's dump is
    /// taken by the run too.
    @Test func anIndentedLineIsOfNoFormatOnlyAfterALineOfNoFormat() throws {
        let header = "2019-05-04 10:46:18.565 BackgroundDemo[12959:60b]"
        let lines = [
            "\(header) armed", "Sync: user download layout map", "\(header) quiet", "    indented after a record",
            "\(header) quiet", "Response headers: {", "    Server = nginx;", "\tVary = Accept-Encoding;", "}",
            "\(header) quiet", "   ", "\(header) quiet", "\(header) opens a dump {", "    \"id\" = 12;", "}",
            "\(header) quiet",
        ]
        for stamp in ["", "2024-05-01T10:00:00.1234567Z "] {
            let text = lines.map { stamp + $0 + "\n" }.joined()
            let taken = try Self.expectSameReports(Array(text.utf8), chunkSizes: [61, 1 << 20])
            // As many behind the runner's timestamp as without it, the dump's lines included.
            #expect(taken == 11, "\(stamp.isEmpty ? "plain" : "CI"): \(taken)")
            let input = try #require(try TestSupport.analyzer().analyze(text: text, name: "hand-made.log").inputs.first)
            #expect(input.records == 7)
            #expect(input.unparsedLines == 5)
            #expect(input.unparsedSamples == [2, 6, 7, 8, 9])
            #expect(input.continuationLines == 3)
            #expect(input.blankLines == 1)
        }
    }
}

/// NSLog captures of a few processes, each line drawn to repeat the header before it or to differ from it in one
/// way: the second, the fraction's length, the zone, the process, the pid, the thread, a message that holds a
/// keyword or opens a dump, a CR, a line too short or too long, a line of another kind.
struct RandomCapture {
    var random: SplitMix64
    var clock: Int64 = 1_556_966_778 * 1_000_000  // 2019-05-04 10:46:18 in microseconds
    var processes: [(name: String, pid: Int, modern: Bool, digits: Int, zone: String)] = [
        ("BackgroundDemo", 12959, false, 3, ""),
        ("7_1UIViewController", 11606, true, 6, "-0500"),
        ("My App", 4242, true, 6, "+02:00"),
        ("a", 7, false, 3, ""),
        ("AVeryLongProcessNameOfMoreThanThirtyTwoBytes", 31337, true, 6, ""),
        ("ANameLongEnoughThatItsHeaderTailRunsPastFiftySixBytes", 424_242, false, 3, ""),
        (String(repeating: "AnExtensionWhoseHeaderTailIsLongerThanTheRunsKeep.", count: 3), 77, true, 6, ""),
        ("Journal", 1_880_001, true, 9, "Z"),
    ]

    /// The share of lines, in per cent, that are printed (`print` beside NSLog, in Xcode's console) instead.
    var printed = 0
    /// Whether each line is behind a CI runner's timestamp (``ciTimestamp()``), as in a GitHub Actions raw log.
    var ciTimestamps = false

    init(seed: UInt64, printed: Int = 0, ciTimestamps: Bool = false) {
        random = SplitMix64(seed: seed ^ 0x4845_4144_4552)
        self.printed = printed
        self.ciTimestamps = ciTimestamps
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
    }

    mutating func timestamp(digits: Int, zone: String) -> String {
        let seconds = clock / 1_000_000
        let (year, month, day) = Timestamp.civil(fromDays: seconds / 86_400)
        let second = seconds % 86_400
        func two<Value: BinaryInteger>(_ value: Value) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var fraction = String(clock % 1_000_000 + 1_000_000).dropFirst()
        while fraction.count < digits { fraction += digits > 6 ? String(Int.random(in: 0...9, using: &random)) : "0" }
        let date =
            "\(year)-\(two(month))-\(two(day)) \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
        return date + "." + fraction.prefix(digits) + zone
    }

    mutating func thread(modern: Bool) -> String {
        if chance(2) { return pick(["", "12g", "X1", "-1"]) }  // no thread a header allows
        if modern { return digits(Int.random(in: 1...10, using: &random)) }
        return pick(["60b", "907", "2bde", "0x1a2b", "1F03", "x"])
    }

    mutating func message() -> String {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<4:
            return pick([
                "applicationDidEnterBackground(_:)", "applicationWillEnterForeground(_:)",
                "applicationDidBecomeActive(_:)", "applicationWillResignActive(_:)",
                "Received memory warning.", "application(_:didFinishLaunchingWithOptions:)",
            ])
        case 4..<8: return pick(["the background fetch ended", "Foreground colour set", "launching the timer"])
        case 8..<10: return pick(["Response: {", "items: (", "list ["])
        case 10..<12: return ""
        default:
            let words = ["cache", "hit", "for", "tile", "render", "merge", "token", "HTTP", "GET", "ok", "retry"]
            return (0..<Int.random(in: 1...20, using: &random)).map { _ in pick(words) }.joined(separator: " ")
        }
    }

    /// Moves the clock: mostly a few milliseconds on, sometimes a new second, sometimes back, now and then a jump
    /// to another minute or hour (to a later second of it, or an earlier one); and now and then relaunches a
    /// process.
    mutating func tick() {
        if chance(3) {
            clock -= Int64.random(in: 1...5_000, using: &random)
        } else if chance(1) {
            clock += Int64.random(in: 30_000_000...4_000_000_000, using: &random)
        } else {
            clock += Int64.random(in: 0...(chance(5) ? 900_000 : 3_000), using: &random)
        }
        if chance(2) { processes[Int.random(in: 0..<processes.count, using: &random)].pid += 1 }  // a relaunch
    }

    mutating func line() -> String {
        tick()
        if printed > 0, chance(printed) { return printedLine() }
        var process = pick(processes)
        if chance(3) { process.digits = Int.random(in: 1...10, using: &random) }
        if chance(2) { process.zone = pick(["", "Z", "+0530", "+05:30", "-08", "+1"]) }
        let header = "\(timestamp(digits: process.digits, zone: process.zone)) \(process.name)[\(process.pid):"
        return damaged(header + thread(modern: process.modern) + "]" + (chance(95) ? " " : "") + message())
    }

    /// A line as `print` writes it: most of no format, some a run must leave (a keyword, a `grep -n` or quoting
    /// prefix, an NSLog header behind one, furniture, a repeat line, an indentation, a blank line, a CR, a dump).
    mutating func printedLine() -> String {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<3: return pick(["applicationDidEnterBackground", "-> applicationWillResignActive()"])
        case 3..<5: return "main.swift:\(digits(2)): " + message()
        case 5..<7: return "12:\(timestamp(digits: 3, zone: "")) BackgroundDemo[12959:60b] " + message()
        case 7..<9: return pick(["> quoted", "--- last message repeated 2 times ---", "    indented", "", "\r"])
        case 9..<11: return pick(["Timestamp               Thread     Type        Activity", "Filtering the log data"])
        case 11..<13: return pick(["Response: {", "    key = value;", "}"])
        case 13..<15: return pick(["Sync: ", "Jan  5 10:57:52 ", "[Analytics] ", "CoreData: sql: "]) + message() + "\r"
        default:
            return pick(["Sync: ", "Store: ", "HTTP GET ", "Saved ", "[Analytics] ", "Reachability: ", "", "42 "])
                + message()
        }
    }

    /// `text`, or now and then a line made from it that a run must leave: a CR at its end, too long, cut short,
    /// a line of another kind, garbage, a timestamp without its `.`.
    mutating func damaged(_ line: String) -> String {
        var text = line
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<2: text += "\r"
        case 2..<4: text += " " + String(repeating: "long ", count: 30)
        case 4..<6: text = String(text.prefix(Int.random(in: 20...30, using: &random)))
        case 6..<8: text = pick(["", "    continued", "}", ")", "--- last message repeated 3 times ---"])
        case 8: text = "garbage \u{1}\u{7f} line"
        case 9 where text.count > 20:  // the date and time of a header, and no `.` before the fraction
            text = String(text.prefix(19)) + pick([",", ":", " "]) + String(text.dropFirst(20))
        default: break
        }
        return text
    }

    /// A CI runner's timestamp before a line (`2024-05-01T10:00:00.1234567Z `), mostly as GitHub writes it; now and
    /// then without a fraction or with another length of it, none, two, one followed by indentation, or one that is
    /// no prefix (a byte of it changed, the fraction empty, no space after the `Z`).
    mutating func ciTimestamp() -> String {
        let stamp = "2024-05-01T10:\(digits(1))\(digits(1)):\(Int.random(in: 0...5, using: &random))\(digits(1))"
        let usual = stamp + "." + digits(7) + "Z "
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<3: return stamp + "Z "
        case 3..<6: return stamp + "." + digits(Int.random(in: 1...12, using: &random)) + "Z "
        case 6..<8: return ""
        case 8: return usual + usual
        case 9: return usual + pick([" ", "\t", "  "])
        case 10: return stamp + pick([".Z ", ".1234567 ", ".1234567Z", "Z", ".1234567z "])
        case 11:  // one byte of the date and time replaced
            var bytes = Array(usual.utf8)
            bytes[Int.random(in: 0..<19, using: &random)] = pick(Array("0aT:-. Z\u{7F}".utf8))
            return String(decoding: bytes, as: UTF8.self)
        default: return usual
        }
    }

    mutating func make(lines: Int) -> [UInt8] {
        var text = ""
        for _ in 0..<lines { text += (ciTimestamps ? ciTimestamp() : "") + line() + "\n" }
        return Array(text.utf8)
    }
}

/// `log` captures (compact, syslog and default style), device and BSD syslogs of the same processes, each line drawn
/// to repeat a record's header or to differ from it in one way: the second, the fraction, the zone, the type (one of
/// the style's, or none), the process, the pid, the thread, the host and its spaces, the default style's columns, a
/// sender or subsystem group, a message that holds a keyword or opens a dump, a prefix, and the line damaged as
/// ``RandomCapture`` damages its own; now and then a stretch of another style, or of NSLog.
struct RandomStyleCapture {
    var base: RandomCapture
    /// 0 compact, 1 syslog, 2 default, 3 device syslog, 4 NSLog, 5 BSD syslog.
    var style = 0
    /// The device syslog's device name for the lines being drawn ("  ": none, and two spaces).
    var device = "iPhone"

    init(seed: UInt64) { base = RandomCapture(seed: seed ^ 0x5354_594C_4553) }

    /// `text` padded with spaces to `width`.
    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// A default-style line's columns and name, up to its `: ` (the TTL column there or not, the name empty now
    /// and then: PCRE2 then reads the column, or the pid's spaces, again).
    mutating func defaultColumns(_ name: String, pid: Int) -> String {
        var type = base.pick(["Default", "Info", "Debug", "Error", "Fault", "Default", "Default"])
        if base.chance(2) { type = base.pick(["default", "DEFAULT", "E", "Ok1"]) }
        var thread = "0x" + String(UInt32.random(in: 1...0xFFFFFF, using: &base.random), radix: 16)
        if base.chance(2) { thread = base.pick(["0x", "12", "0xZZ", "0X1f"]) }
        var text = " " + Self.padded(thread, 10) + " " + Self.padded(type, 11) + " "
        text += Self.padded(base.chance(98) ? "0x0" : base.pick(["0x1a2", "x0", "0x"]), 20) + " "
        text += Self.padded(String(pid), base.chance(95) ? 6 : 1) + " "
        if base.chance(90) { text += Self.padded(base.chance(95) ? "0" : "12", base.chance(95) ? 4 : 1) + " " }
        return text + (base.chance(3) ? "" : name) + (base.chance(98) ? ": " : base.pick([":", " "]))
    }

    /// A device syslog line up to its message: the device name there or not (or one PCRE2 must read again), a
    /// sender group or a group after the pid, the level's brackets and colon, now and then not as the pattern has
    /// them.
    mutating func deviceHeader(_ name: String, pid: Int) -> String {
        var text = syslogTimestamp(digits: base.chance(5) ? base.pick([0, 0, 3, 10]) : 6)
        // The device name holds for a stretch of lines (none: PCRE2's second way, or its first with an empty name
        // when two spaces follow the timestamp), and now and then one line has another.
        if base.chance(3) { device = base.pick(["iPhone", "iPhone", "", "", "My-iPad", "iP[1]hone", "a(b)", "  "]) }
        var shown = device
        if base.chance(3) { shown = base.pick(["", "My-iPad", "iP[1]hone", "a(b)"]) }
        text += shown == "  " ? "  " : shown.isEmpty ? " " : " \(shown) "
        text += name + (base.chance(10) ? base.pick(["(CFNetwork)", "(UIKitCore)", "(a(b))", "()"]) : "")
        text += "[\(pid)]" + (base.chance(3) ? base.pick([" (x)", " (", " (a) (b)"]) : "")
        var level = base.pick(["Notice", "Error", "Warning", "Debug", "Notice", "Notice"])
        if base.chance(2) { level = base.pick(["No tice", "", "N1"]) }
        return text + " <\(level)>" + (base.chance(97) ? ": " : base.pick([":", " ", ">: "]))
    }

    /// A device syslog line's message, now and then one that lets PCRE2's first way match a line whose header has
    /// no device name (or nearly: each one differs from a header in one way).
    mutating func deviceMessage() -> String {
        guard base.chance(8) else { return base.message() }
        // After a few words or none, so that the search for the first bracket meets it anywhere in a word of eight.
        let words = String(repeating: "ab ", count: Int.random(in: 0...7, using: &base.random))
        return words
            + base.pick([
                "x[12] <Error>: y", "a(b)[3] <Info>: z", "(x)[3] <I>: z", "a(b[3] <I>: z", "a[3] (g) <I>: z",
                "a[3] (g <I>: z", "a[] <I>: z", "a[3]<I>: z", "a[3] <>: z", "a[3] <I> z", "a b[3] <I>:",
                "a]b[3] <I>: z",
                "[3] <I>: z", "a[3] <I>:", "a[3] (g)(h) <I>: z", "a[3x] <I>: z",
            ])
    }

    /// The clock as a syslog writes it: `Mmm dd HH:MM:SS`, and a fraction of `digits` digits unless 0.
    mutating func syslogTimestamp(digits: Int) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let iso = Array(base.timestamp(digits: max(digits, 1), zone: ""))
        let month = months[(Int(String(iso[5...6])) ?? 1) - 1]
        let day = iso[8] == "0" ? " " + String(iso[9]) : String(iso[8...9])
        return "\(month) \(day) " + String(iso[11...18]) + (digits > 0 ? "." + String(iso[20...]) : "")
    }

    /// A BSD syslog line up to its message: whole seconds mostly, a host (now and then one with a bracket or a
    /// colon, or none), a name that opens a group now and then, the pid's brackets or none (the process then ends
    /// at the first `: `), a sender group now and then, and the colon, now and then not as the pattern has them.
    mutating func bsdHeader(_ name: String, pid: Int) -> String {
        var text = syslogTimestamp(digits: base.chance(90) ? 0 : base.pick([3, 6, 10]))
        let host =
            base.chance(90) ? "MacBook-Pro" : base.pick(["", "a]b", "h:", "calvisitor-10-105-160-95-a-long-one"])
        text +=
            " \(host) \(name)" + (base.chance(3) ? " (b" : "")
            + (base.chance(95) ? "[\(pid)]" : base.pick(["", "[]", "[x]", ": a"]))
        if base.chance(5) { text += base.pick([" (com.apple.UIKit)", " (", " (a) (b)", " (a: b)", "(x)"]) }
        text += base.chance(97) ? ": " : base.pick([":", " ", "]: "])
        return text + (base.chance(3) ? "a: b " : "")
    }

    mutating func line() -> String {
        if base.chance(2) { style = Int.random(in: 0..<6, using: &base.random) }
        if style == 4 { return base.line() }
        base.tick()
        let process = base.pick(base.processes)
        let name = base.chance(1) ? process.name + " " : process.name
        var text: String
        if style == 0 {
            var type = base.pick(["Df", "Db", "E ", "I ", "A ", "F ", "Er", "Fa", "Ft", "Df", "Df", "I "])
            if base.chance(2) { type = base.pick(["D ", "e ", "Xx", "  ", "Dff"]) }
            var digits = 3
            if base.chance(2) { digits = base.pick([2, 4, 6]) }
            text = "\(base.timestamp(digits: digits, zone: "")) \(type) \(name)[\(process.pid):"
            text +=
                base.chance(3)
                ? base.pick(["", "B19", "x1", "-"])
                : String(UInt32.random(in: 1...0xFFFFFF, using: &base.random), radix: 16)
            text += "]" + (base.chance(95) ? " " : "")
        } else {
            var zone = process.zone.isEmpty || process.zone == "Z" ? "-0500" : process.zone
            if base.chance(2) { zone = base.pick(["", "Z", "+0530", "+05:30", "-08"]) }
            var digits = 6
            if base.chance(3) { digits = Int.random(in: 1...10, using: &base.random) }
            if style == 2 {
                return base.damaged(
                    base.timestamp(digits: digits, zone: zone) + defaultColumns(name, pid: process.pid)
                        + base.message())
            }
            if style == 3 { return base.damaged(deviceHeader(name, pid: process.pid) + deviceMessage()) }
            if style == 5 { return base.damaged(bsdHeader(name, pid: process.pid) + base.message()) }
            let host = base.chance(3) ? base.pick(["otherhost", "h[1]", "", "a b"]) : "localhost"
            text = base.timestamp(digits: digits, zone: zone) + (base.chance(90) ? "  " : " ") + host
            text += " \(name)[\(process.pid)]" + (base.chance(97) ? ": " : base.pick([":", " ", "]: "]))
        }
        if base.chance(10) { text += base.pick(["(libffi.dylib) ", "(CFNetwork) ", "() ", "(a(b)) "]) }
        if base.chance(15) { text += base.pick(["[com.example.app:ui] ", "[com.apple.UIKit:Lifecycle] ", "[x:] "]) }
        text += base.message()
        if base.chance(2) { text = base.pick(["12:> ", "  ", "[connected] "]) + text }
        return base.damaged(text)
    }

    mutating func make(lines: Int) -> [UInt8] {
        var text = ""
        for _ in 0..<lines { text += (base.ciTimestamps ? base.ciTimestamp() : "") + line() + "\n" }
        return Array(text.utf8)
    }
}
