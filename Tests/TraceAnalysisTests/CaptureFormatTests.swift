import Foundation
import Testing

@testable import TraceAnalysis

/// Every capture shape of the formats issue, read end to end through the analyser.
@Suite("Capture formats")
struct CaptureFormatTests {
    static let sameSession = [
        "same-session-nslog.log", "same-session-ndjson.log", "same-session-device-syslog.log",
    ]

    /// The scenario sequence per incarnation, the part of a report all three formats must agree on.
    static func episodes(_ report: AnalysisReport) -> [String] {
        report.processes.map { process in
            "\(process.name)[\(process.pid)]: " + process.episodes.map(\.scenario.rawValue).joined(separator: ",")
        }
    }

    /// A process as people read it: name and pid, either alone, or neither (written as bytes: the interpolation's
    /// text, for any name and pid).
    @Test func processDisplayNames() {
        #expect(ProcessReport.displayName(name: "App", pid: 123) == "App [123]")
        #expect(ProcessReport.displayName(name: "Caf\u{E9} \u{2615}", pid: 0) == "Caf\u{E9} \u{2615} [0]")
        #expect(ProcessReport.displayName(name: "x", pid: Int.max) == "x [\(Int.max)]")
        #expect(ProcessReport.displayName(name: "App", pid: -1) == "App")
        #expect(ProcessReport.displayName(name: "", pid: 7) == "pid 7")
        #expect(ProcessReport.displayName(name: "", pid: -1) == "unknown process")
        for name in ["a", "Photos Pro", String(repeating: "n", count: 300), "\u{1B}[31m"] {
            for pid in [1, 42, 65_535, 4_194_304] {
                #expect(ProcessReport.displayName(name: name, pid: pid) == "\(name) [\(pid)]")
            }
        }
    }

    @Test func oneSessionGivesTheSameEpisodesInEveryFormat() throws {
        let reports = try Self.sameSession.map { try TestSupport.analyzeSample($0) }
        #expect(reports.map { $0.inputs[0].format } == ["nslog-modern", "log-ndjson", "device-syslog"])
        let expected = [
            "Journal[4242]: launch,enter-background,return-to-foreground,interruption,enter-background,"
                + "killed-in-background",
            "Journal[4260]: launch",
        ]
        for report in reports {
            #expect(Self.episodes(report) == expected, "\(report.inputs[0].name)")
            #expect(report.violations.isEmpty, "\(report.inputs[0].name)")
            #expect(report.exitStatus == .clean)
            TestSupport.expectAccounted(report.inputs[0])
            #expect(report.inputs[0].unparsedLines == 0)
        }
        let ndjson = reports[1].inputs[0]
        #expect(ndjson.skippedLines == 2)  // the "Filtering the log data…" preamble and the count trailer
        let syslog = reports[2].inputs[0]
        #expect(syslog.repeatedMessages == 1)
        #expect(syslog.continuationLines == 4)  // the launch-options dictionary, tab-indented
        #expect(syslog.inferredDate == InferredDate(source: .option, firstYear: 2024, rollovers: 0))
        #expect(reports[2].processes[0].firstTime?.iso8601 == "2024-06-03T09:41:00")
    }

    @Test func ndjsonTiesAreOrderedByMachTimestamp() throws {
        // The sample writes didEnterBackground before willResignActive with one timestamp; machTimestamp says
        // resign came first, so no violation 4 or 3 is raised.
        let report = try TestSupport.analyzeSample("same-session-ndjson.log")
        let events = report.processes[0].events.suffix(2)
        #expect(events.map(\.event) == [.willResignActive, .didEnterBackground])
        #expect(events.map(\.line) == [18, 17])
    }

    @Test func wholeSecondTimestampsDoNotPassOrFailAMillisecondBudget() throws {
        let report = try TestSupport.analyzeSample("same-session-device-syslog.log")
        let launch = try #require(report.processes[0].launch)
        #expect(launch.excluded)
        #expect(launch.excludedReason?.contains("too coarse") == true)
        #expect(!launch.overBudget)
    }

    @Test(.enabled(if: TestSupport.corpusExists))
    func everyCorpusFileIsDetected() throws {
        let expected = [
            "01-ios5-child-vc-memory-warning.log": "nslog-untimed",
            "02-vc-lifecycle-memory-warning-2013.log": "nslog-classic",
            "04-ibeacon-backgrounddemo-annotated-multi-run.log": "nslog-classic",
            "05-ibeacon-ios71-indented-hash-annotations.log": "nslog-classic",
            "10-syslog-ios9-killed-then-bg-relaunch-tabs.log": "device-syslog",
            "11-syslog-ios9-memory-warning-jetsam-relaunch.log": "device-syslog",
            "18-creatingstatelab-full-session-sigkill.log": "nslog-modern",
            "mac-2k.log": "syslog",
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.path).filter {
            $0.hasSuffix(".log")
        }
        #expect(Set(files) == Set(expected.keys), "a new corpus file needs its expected format here")
        let analyzer = try TestSupport.analyzer()
        for file in files {
            let report = analyzer.analyze([.file(TestSupport.corpus.appendingPathComponent(file).path)])
            #expect(report.inputs[0].format == expected[file], "\(file)")
            TestSupport.expectAccounted(report.inputs[0])
        }
    }

    @Test(.enabled(if: TestSupport.corpusExists))
    func corpusSyslogsAreReadAsSyslogs() throws {
        let analyzer = try TestSupport.analyzer()
        func analyze(_ name: String) -> AnalysisReport {
            analyzer.analyze([.file(TestSupport.corpus.appendingPathComponent(name).path)])
        }
        let mac = analyze("mac-2k.log")
        #expect(mac.inputs[0].records == 2000)
        #expect(mac.inputs[0].unparsedLines == 0)
        #expect(mac.inputs[0].clockAnomalies >= 1)  // line 791 steps back 13 minutes
        #expect(mac.exitStatus == .inputProblem)

        let jetsam = analyze("11-syslog-ios9-memory-warning-jetsam-relaunch.log")
        #expect(jetsam.inputs[0].unparsedLines == 0)
        #expect(jetsam.processes.map(\.pid) == [32072])
        // SpringBoard's "was killed by jetsam" names the app by bundle id: the kill, for memory.
        #expect(jetsam.processes[0].episodes.map(\.scenario) == [.memoryWarning, .killedInBackground])
        #expect(jetsam.processes[0].exit?.reason == .memory)
        #expect(jetsam.processes[0].exit?.line == 2)

        // SpringBoard's "exited abnormally via signal" comes before any line of the app's pid 29805.
        let killed = analyze("10-syslog-ios9-killed-then-bg-relaunch-tabs.log")
        #expect(killed.processes.map(\.displayName) == ["EddyBckgrnd"])
        #expect(killed.processes[0].exit?.reason == .signal)
        #expect(killed.processes[0].episodes.map(\.scenario) == [.killedInBackground])
        #expect(killed.processes[0].episodes.first?.confidence == .low)

        let annotated = analyze("05-ibeacon-ios71-indented-hash-annotations.log")
        #expect(annotated.inputs[0].prefixes == ["indentation": 12])
    }

    @Test func prefixesAreStrippedAndCounted() throws {
        let nslog = try String(
            contentsOf: TestSupport.samples.appendingPathComponent("same-session-nslog.log"), encoding: .utf8)
        let lines = nslog.split(separator: "\n")
        let variants: [(String, String)] = [
            ("grep-line-number", lines.enumerated().map { "\($0.offset + 1):\($0.element)" }.joined(separator: "\n")),
            ("quote", lines.map { "> " + $0 }.joined(separator: "\n")),
            ("indentation", lines.map { "    " + $0 }.joined(separator: "\n")),
            ("ci-timestamp", lines.map { "2024-06-03T07:50:00.1234567Z " + $0 }.joined(separator: "\n")),
        ]
        let analyzer = try TestSupport.analyzer()
        let plain = Self.episodes(analyzer.analyze(text: nslog))
        for (prefix, text) in variants {
            let report = analyzer.analyze(text: text)
            #expect(Self.episodes(report) == plain, "\(prefix)")
            #expect(report.inputs[0].prefixes == [prefix: lines.count], "\(prefix)")
            #expect(report.inputs[0].unparsedLines == 0, "\(prefix)")
        }
    }

    /// A CI runner's raw job log of a capture reads as the capture itself: every sample, real capture and the
    /// generator's capture, each line behind the runner's timestamp, gives the same processes, scenarios, violations
    /// and line counts, the prefix counted on every record a format read (an untimed NSLog line is no record behind
    /// `grep -n`'s reading of the timestamp's head, and an empty line behind the timestamp is blank).
    @Test func aCapturesCILogReadsAsTheCapture() throws {
        var captures = try TestSupport.sampleNames.map {
            ($0, try String(contentsOf: TestSupport.samples.appendingPathComponent($0), encoding: .utf8))
        }
        if TestSupport.corpusExists {
            for name in try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.path).sorted()
            where !name.hasSuffix(".md") {
                let data = try Data(contentsOf: TestSupport.corpus.appendingPathComponent(name))
                captures.append((name, String(decoding: data, as: UTF8.self)))
            }
        }
        captures.append(("generated", try GeneratorStyleTests.generate(style: "nslog")))
        // NSLog lines whose date was cut off (`nslog-untimed`), as corpus file 01 has them.
        let untimed = [
            "[7397:f803] -[ThirdViewController viewDidLoad]", "[7397:f803] -[ThirdViewController viewWillAppear:]",
            "AppDelegate[7397:f803] applicationDidBecomeActive", "[7397:f803] Received memory warning.",
            "", "AppDelegate[7397:f803] applicationWillResignActive",
        ]
        captures.append(("untimed", untimed.joined(separator: "\n") + "\n"))
        let analyzer = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }
        for (name, text) in captures {
            // Split at LF as the reader splits (a CRLF is one Character of a String); none after the last LF.
            var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            let ci = lines.map { "2024-05-01T10:00:00.1234567Z " + String(decoding: $0, as: UTF8.self) + "\n" }.joined()
            let (plain, behind) = (analyzer.analyze(text: text), analyzer.analyze(text: ci))
            let (expected, input) = (plain.inputs[0], behind.inputs[0])
            #expect(Self.episodes(behind) == Self.episodes(plain), "\(name)")
            #expect(behind.violations.map(\.rule) == plain.violations.map(\.rule), "\(name)")
            #expect(input.formatCounts == expected.formatCounts, "\(name)")
            // A record a format read counts it; a bare record (the fallback format's) and a repeat line do not.
            let read = input.formatCounts.filter { $0.key != "bare" }.values.reduce(0, +)
            var prefixes = expected.prefixes
            if read > 0 { prefixes["ci-timestamp"] = read }
            #expect(input.prefixes == prefixes, "\(name)")
            #expect(input.lifecycleEvents == expected.lifecycleEvents, "\(name)")
            let counts = [input.continuationLines, input.blankLines, input.skippedLines, input.unparsedLines]
            let plainCounts = [
                expected.continuationLines, expected.blankLines, expected.skippedLines, expected.unparsedLines,
            ]
            #expect(counts == plainCounts, "\(name)")
        }
    }

    @Test func appiumWrappedDeviceSyslogIsRead() throws {
        let text = """
            2015-06-19 20:34:05:820 - info: [IOS_SYSLOG_ROW ] Jun 19 15:34:05 iPhone Journal[812] <Warning>: applicationDidFinishLaunching:
            2015-06-19 20:34:05:857 - info: [IOS_SYSLOG_ROW ] Jun 19 15:34:05 iPhone Journal[812] <Warning>: applicationDidBecomeActive:
            2015-06-19 20:34:05:859 - info: [IOS_SYSLOG_ROW ] Jun 19 15:34:05 --- last message repeated 1 time ---
            """
        let report = try TestSupport.analyzer().analyze(text: text)
        #expect(report.inputs[0].format == "device-syslog")
        #expect(report.inputs[0].prefixes == ["appium": 2])
        #expect(report.inputs[0].repeatedMessages == 1)
        // A repeated didBecomeActive is a second didBecomeActive: the state machine says so.
        #expect(report.violations.map(\.rule) == [.activeTwice])
        #expect(report.violations.first?.line == 3)
    }

    @Test func logShowDefaultStyleSkipsItsFurnitureAndKeepsRawContinuations() throws {
        let text = """
            Filtering the log data using "process == "Journal""
            Skipping info and debug messages, pass --info and/or --debug to include.
            Timestamp                       Thread     Type        Activity             PID    TTL  
            2024-06-03 09:41:00.118210+0200 0x1cb0e1   Default     0x0                  4242   0    Journal: (Foundation) application(_:didFinishLaunchingWithOptions:)
            2024-06-03 09:41:00.140001+0200 0x1cb0e1   Default     0x0                  4242   0    Journal: (Foundation) Settings:
            Traceback-like raw continuation, not indented
            2024-06-03 09:41:00.203998+0200 0x1cb0e1   Default     0x0                  4242   0    Journal: [com.example.journal:lifecycle] applicationDidBecomeActive(_:)
            --------------------------------------------------------------------------------------------------------------------
            Log      - Default:          3, Info:                0, Debug:             0, Error:          0, Fault:          0
            Activity - Create:           0, Transition:          0, Actions:           0
            """
        let report = try TestSupport.analyzer().analyze(text: text)
        let input = report.inputs[0]
        #expect(input.format == "log-default")
        #expect(input.skippedLines == 6)
        #expect(input.continuationLines == 1)
        #expect(input.unparsedLines == 0)
        TestSupport.expectAccounted(input)
        #expect(report.processes.first?.launch?.durationMs == 85.788)
    }

    @Test func consoleAppCopiesTakeTheReferenceDate() throws {
        let text = [
            "default\t09:41:00.118210+0200\tJournal\tapplication(_:didFinishLaunchingWithOptions:)",
            "default\t09:41:00.203998+0200\tJournal\tapplicationDidBecomeActive(_:)",
            "error\t09:41:01.000000+0200\tkernel\tSandbox: Journal(4242) deny(1) sysctl-read kern.bootargs",
        ].joined(separator: "\n")
        let report = try TestSupport.analyzer().analyze(text: text)
        #expect(report.inputs[0].format == "console-app")
        #expect(report.processes.first?.launch?.durationMs == 85.788)
        #expect(report.processes.first?.firstTime?.iso8601 == "2024-12-31T09:41:00.118210+02:00")
        #expect(report.inputs[0].inferredDate?.source == .now)
    }

    @Test func bareLinesMakeABareInput() throws {
        let text = """
            -> applicationDidFinishLaunching()
            UnloadTime: 1.126375 ms
            -> applicationDidBecomeActive()
            -> applicationWillResignActive()
            -> applicationDidEnterBackground()
            """
        let report = try TestSupport.analyzer().analyze(text: text)
        let input = report.inputs[0]
        #expect(input.format == "bare")
        #expect(input.records == 5)
        #expect(report.processes.count == 1)
        #expect(report.processes[0].displayName == "unknown process")
        #expect(report.processes[0].episodes.map(\.scenario) == [.launch, .enterBackground])
    }

    @Test func bareLifecycleLinesBetweenNSLogLinesBelongToTheApp() throws {
        let text = """
            2024-06-03 09:41:00.118210+0200 Journal[4242:1880001] application(_:didFinishLaunchingWithOptions:)
            ** the tester pressed Home here
            -> applicationWillResignActive()
            2024-06-03 09:41:31.512930+0200 Journal[4242:1880001] applicationDidEnterBackground(_:)
            """
        let report = try TestSupport.analyzer().analyze(text: text)
        let input = report.inputs[0]
        #expect(input.format == "nslog-modern")
        #expect(input.formatCounts == ["nslog-modern": 2, "bare": 1])
        #expect(input.unparsedLines == 1)  // the annotation: no event, no format
        #expect(report.processes.map(\.pid) == [4242])
        #expect(
            report.processes[0].events.map(\.event) == [
                .didFinishLaunching, .willResignActive, .didEnterBackground,
            ])
    }

    @Test func aForcedFormatIsTheOnlyOneTried() throws {
        let text = "2024-06-03 09:41:00.118210+0200 Journal[4242:1880001] applicationDidBecomeActive(_:)"
        let bare = try TestSupport.analyzer { $0.inputFormat = "bare" }.analyze(text: text)
        #expect(bare.inputs[0].format == "bare")
        #expect(bare.processes.first?.displayName == "unknown process")
        let syslog = try TestSupport.analyzer { $0.inputFormat = "syslog" }.analyze(text: text)
        #expect(syslog.inputs[0].unparsedLines == 1)
    }

    @Test func clockAnomaliesAreReportedAndNotReordered() throws {
        let text = """
            2024-06-03 09:41:00.100000+0200 Journal[4242:1] application(_:didFinishLaunchingWithOptions:)
            2024-06-03 09:41:00.200000+0200 Journal[4242:1] applicationDidBecomeActive(_:)
            2024-06-03 09:40:58.000000+0200 Journal[4242:1] applicationWillResignActive(_:)
            2024-06-03 09:41:05.000000+0200 Journal[4242:1] applicationDidEnterBackground(_:)
            """
        let report = try TestSupport.analyzer().analyze(text: text)
        let process = try #require(report.processes.first)
        #expect(process.clockAnomalyCount == 1)
        #expect(process.clockAnomalies.first?.line == 3)
        #expect(process.clockAnomalies.first?.previousLine == 2)
        #expect(process.clockAnomalies.first?.backwardsMs == 2200)
        #expect(process.events.map(\.line) == [1, 2, 3, 4])
        #expect(report.inputs[0].clockAnomalies == 1)
    }

    @Test func syslogYearComesFromTheOptionAndRollsOver() throws {
        let text = """
            Dec 31 23:59:59 iPhone Journal[9] <Notice>: applicationWillResignActive:
            Jan  1 00:00:01 iPhone Journal[9] <Notice>: applicationDidEnterBackground:
            """
        let report = try TestSupport.analyzer { $0.year = 2019 }.analyze(text: text)
        #expect(report.processes[0].events.map { $0.time?.iso8601 } == ["2019-12-31T23:59:59", "2020-01-01T00:00:01"])
        #expect(report.inputs[0].inferredDate == InferredDate(source: .option, firstYear: 2019, rollovers: 1))
        #expect(report.processes[0].clockAnomalyCount == 0)
        #expect(report.processes[0].episodes.map(\.scenario) == [.enterBackground])
    }
}
