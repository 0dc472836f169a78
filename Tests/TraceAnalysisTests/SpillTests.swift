import Foundation
import Testing

@testable import TraceAnalysis

/// A big input keeps its history, its dormant incarnations and its reports in a temporary file (`SpillFile`); these
/// tests force that on the samples (a threshold of 0 spills at every event and writes out every dormant incarnation
/// at every new one, see `DormantIncarnationTests`) and check that nothing a reader sees changes.
@Suite("Spilling to a temporary file")
struct SpillTests {
    /// Every field of a value, recursively (`dump`), to compare values that are not `Equatable`. A process's
    /// ``ProcessReport/episodeTally`` and ``ProcessReport/violationCounts`` are left out: a process whose episodes or
    /// violations went to the file carries what they count so the summaries need no pass over them, one kept in
    /// memory does not, and what they count is checked against the items themselves
    /// (`aSpilledProcessCarriesWhatItsEpisodesCount`).
    static func fields<T>(_ value: T) -> String {
        var out = ""
        switch value {
        case let report as ProcessReport: dump(report.untallied, to: &out)
        case let reports as [ProcessReport]: dump(reports.map(\.untallied), to: &out)
        default: dump(value, to: &out)
        }
        return out
    }

    static func sources() throws -> [InputSource] {
        try TestSupport.sampleNames.map { name in
            .bytes(
                name: "samples/" + name, Array(try Data(contentsOf: TestSupport.samples.appendingPathComponent(name))))
        }
    }

    /// Every report format, as bytes.
    static func rendered(_ report: AnalysisReport, jobs: Int = 1) -> [ReportFormat: [UInt8]] {
        var out: [ReportFormat: [UInt8]] = [:]
        for format in ReportFormat.allCases {
            var bytes: [UInt8] = []
            format.write(report, showEvents: true, jobs: jobs) { bytes += $0 }
            out[format] = bytes
        }
        return out
    }

    static let timestamp = Timestamp(
        wallMicros: -1_234_567, utcOffsetSeconds: -18_000, fractionDigits: 6, assumedOffsetSeconds: 3_600)

    /// A report with every field set, optionals both ways, strings with multi-byte characters.
    static let everyField = ProcessReport(
        name: "Mÿ App ✓", pid: 4_242, input: "captures/a.log", firstLine: 1, lastLine: Int.max, firstTime: timestamp,
        lastTime: nil, records: 99, finalState: .background,
        launch: LaunchReport(
            startLine: 1, start: timestamp, endLine: 7, end: nil, durationMs: 412.5, budgetMs: 400, overBudget: true,
            excluded: true, excludedReason: "prewarmed", watchdogRisk: true,
            milestones: [
                Milestone(name: "did-finish-launching", line: 3, time: timestamp, offsetMs: 0, phaseMs: nil),
                Milestone(name: "did-become-active", line: 7, time: nil, offsetMs: nil, phaseMs: -0.25),
            ]),
        episodes: [
            Episode(
                scenario: .returnToForeground, startLine: 10, endLine: 12, start: timestamp,
                end: Timestamp(wallMicros: 5, utcOffsetSeconds: nil, fractionDigits: 0), confidence: .medium,
                causes: ["one", "two ✓"], evidence: "e → f", durationMs: 12.75, scene: "", budgetMs: 200,
                overBudget: true),
            Episode(
                scenario: .memoryWarning, startLine: -3, endLine: 0, start: nil, end: nil, confidence: .low, causes: [],
                evidence: "", durationMs: nil),
        ],
        violations: [
            Violation(
                rule: ViolationRule.allCases[0], input: "captures/a.log", line: 11, time: nil, state: .inactive,
                event: .didBecomeActive, expected: "something", message: "a \"quoted\" message")
        ],
        events: [
            TimelineEvent(event: .didEnterBackground, line: 13, time: timestamp, state: .background, scene: "scene-1"),
            TimelineEvent(event: .willTerminate, line: 14, time: nil, state: .terminated),
        ],
        clockAnomalies: [
            ClockAnomaly(line: 20, time: timestamp, previousLine: 19, previousTime: timestamp, backwardsMs: 1.5)
        ],
        clockAnomalyCount: 21,
        exit: ProcessExit(reason: .memory, line: 30, time: timestamp, signal: 9, evidence: "Terminated"))

    @Test func aReportWithEveryFieldRoundTrips() {
        var tallied = Self.everyField
        tallied.episodeTally = EpisodeTally(
            episodes: 9, scenarios: [.launch: 1, .returnToForeground: 7, .killedInForeground: 1], timedResumes: 6,
            resumesOverBudget: 2, killedInForeground: 1)
        tallied.violationCounts = [.activeTwice: 3, .launchOrder: 1]
        tallied.resumeDurations = [12.75, 0, 1e9, 0.001]
        for report in [
            Self.everyField,
            tallied,
            ProcessReport(
                name: "", pid: -1, input: "", firstLine: 0, lastLine: 0, firstTime: nil, lastTime: nil, records: 0,
                finalState: .unknown, launch: nil, episodes: [], violations: [], events: []),
        ] {
            var encoder = SpillEncoder()
            encoder.process(report)
            var decoder = SpillDecoder(encoder.bytes)
            let decoded = decoder.process()
            #expect(decoder.isAtEnd)
            #expect(Self.fields(decoded) == Self.fields(report))
            #expect(decoded.episodeTally == report.episodeTally)
            #expect(decoded.violationCounts == report.violationCounts)
            #expect(decoded.resumeDurations.map(Array.init) == report.resumeDurations.map(Array.init))
        }
    }

    /// A timestamp comes back as written, with or without either offset, at the edges of each field's range.
    @Test func timestampsRoundTrip() {
        let offsets: [Int32?] = [nil, 0, -18000, 19800, 50400, .min, .max]
        var written: [Timestamp?] = [nil]
        for wall: Int64 in [0, -1, 1_556_984_787_221_775, .min, .max] {
            for digits: UInt8 in [0, 3, 6, 9, 255] {
                for offset in offsets {
                    for assumed in offsets {
                        written.append(
                            Timestamp(
                                wallMicros: wall, utcOffsetSeconds: offset, fractionDigits: digits,
                                assumedOffsetSeconds: assumed))
                    }
                }
            }
        }
        var encoder = SpillEncoder()
        for timestamp in written {
            encoder.timestamp(timestamp)
            encoder.byte(0xA5)  // what follows is read where it was written
        }
        var decoder = SpillDecoder(encoder.bytes)
        for timestamp in written {
            #expect(decoder.optionalTimestamp() == timestamp)
            #expect(decoder.byte() == 0xA5)
        }
        #expect(decoder.isAtEnd)
    }

    /// An episode's causes come back as written: its scenario's own list is read back as that same shared array
    /// (not a copy per episode), any other list (AppKit's interruption causes, an empty one, one that starts like
    /// the scenario's) as itself.
    @Test func anEpisodesCausesRoundTripSharedOrNot() {
        let lists: [(Scenario, [String])] = [
            (.enterBackground, Scenario.enterBackground.causes), (.interruption, Scenario.appKitInterruptionCauses),
            (.launch, []), (.memoryWarning, Scenario.memoryWarning.causes + ["more"]),
            (.interruption, Array(Scenario.interruption.causes.dropLast())),
        ]
        var encoder = SpillEncoder()
        for (scenario, causes) in lists {
            encoder.episode(
                Episode(
                    scenario: scenario, startLine: 1, endLine: 2, start: nil, end: nil, confidence: .high,
                    causes: causes, evidence: "e", durationMs: nil))
        }
        var decoder = SpillDecoder(encoder.bytes)
        for (scenario, causes) in lists {
            let episode = decoder.episode()
            #expect(episode.scenario == scenario && episode.causes == causes && episode.evidence == "e")
        }
        #expect(decoder.isAtEnd)
        var again = SpillDecoder(encoder.bytes)
        let shared = again.episode().causes
        #expect(
            shared.withUnsafeBufferPointer { $0.baseAddress }
                == Scenario.enterBackground.causes.withUnsafeBufferPointer { $0.baseAddress })
    }

    /// A report written among a big input's, its episodes, violations and events all in memory (a process of a few,
    /// as most are), goes with what the summaries count of them, and they go to the file as segments of their own:
    /// the report's own bytes hold none of them (a summary's pass reads those bytes and decodes no item), and a
    /// reporter reads them back as they were. One that already carries counts keeps them.
    @Test func aReportWrittenToTheFileTakesItsItemsToSegmentsOfTheirOwn() throws {
        let file = try SpillFile()
        let report = Self.everyField
        let written = try report.withHistory(in: file)
        #expect(written.episodes.isSpilled && written.violations.isSpilled && written.events.isSpilled)
        #expect(Self.fields(written) == Self.fields(report))
        var counted = EpisodeTally()
        for episode in report.episodes { counted.add(episode) }
        #expect(written.episodeTally == counted && counted.timedResumes == 1 && counted.resumesOverBudget == 1)
        #expect(written.resumeDurations.map(Array.init) == [12.75])
        #expect(written.violationCounts == [ViolationRule.allCases[0]: 1])
        var whole = SpillEncoder()
        whole.process(report)
        var encoder = SpillEncoder()
        encoder.process(written)
        let evidence = Array("e → f".utf8)
        #expect(whole.bytes.firstRange(of: evidence) != nil)
        #expect(encoder.bytes.firstRange(of: evidence) == nil, "the episodes are in a segment, not the report")
        for events in [true, false] {
            var decoder = SpillDecoder(encoder.bytes)
            let decoded = decoder.process(events: events, file: file)
            #expect(decoder.isAtEnd == events, "without its events, a report's decoding stops before them")
            #expect(decoded.episodes.count == 2 && decoded.violations.count == 1)
            #expect(Self.fields(decoded.episodes) == Self.fields(report.episodes))
            #expect(Self.fields(decoded.violations) == Self.fields(report.violations))
            #expect(Self.fields(decoded.events) == Self.fields(events ? report.events : []))
            #expect(decoded.episodeTally == counted)
        }
        var tallied = Self.everyField
        tallied.episodeTally = EpisodeTally(episodes: 7)
        tallied.violationCounts = [.activeTwice: 3]
        tallied.resumeDurations = [1, 2]
        let kept = try tallied.withHistory(in: file)
        #expect(kept.episodeTally == EpisodeTally(episodes: 7) && kept.violationCounts == [.activeTwice: 3])
        #expect(kept.resumeDurations.map(Array.init) == [1, 2])
    }

    @Test func everyEnumCaseRoundTrips() {
        var encoder = SpillEncoder()
        for event in LifecycleEvent.allCases { encoder.enum(event) }
        for state in AppState.allCases { encoder.enum(state) }
        for scenario in Scenario.allCases { encoder.enum(scenario) }
        for rule in ViolationRule.allCases { encoder.enum(rule) }
        for reason in ExitReason.allCases { encoder.enum(reason) }
        for confidence in [Confidence.low, .medium, .high] { encoder.enum(confidence) }
        for value in [0, 1, -1, Int.max, Int.min, 300, -300] { encoder.int(value) }
        var decoder = SpillDecoder(encoder.bytes)
        #expect(
            LifecycleEvent.allCases.map { _ in decoder.enum(LifecycleEvent.self) } == Array(LifecycleEvent.allCases))
        #expect(AppState.allCases.map { _ in decoder.enum(AppState.self) } == Array(AppState.allCases))
        #expect(Scenario.allCases.map { _ in decoder.enum(Scenario.self) } == Array(Scenario.allCases))
        #expect(ViolationRule.allCases.map { _ in decoder.enum(ViolationRule.self) } == Array(ViolationRule.allCases))
        #expect(ExitReason.allCases.map { _ in decoder.enum(ExitReason.self) } == Array(ExitReason.allCases))
        #expect((0..<3).map { _ in decoder.enum(Confidence.self) } == [.low, .medium, .high])
        #expect((0..<7).map { _ in decoder.int() } == [0, 1, -1, Int.max, Int.min, 300, -300])
        #expect(decoder.isAtEnd)
    }

    /// A decoder shares a long string it read before instead of allocating it again (``SpillDecoder/string()``):
    /// repeats, strings of one length that differ only in the middle (one slot when their first and last eight
    /// bytes agree), non-ASCII text and short strings all read back as written, in a seeded sequence.
    @Test func stringsReadBackAsWrittenWhetherSharedOrNot() {
        var random = SplitMix64(seed: 11)
        let pool = [
            "", "short", String(repeating: "x", count: 15), String(repeating: "x", count: 16),
            "first didBecomeActive after didFinishLaunching", "first didBecomeActive after didFinishLaunchinG",
            "user tapped the icon (cold or warm: text logs cannot tell)",
            "user tapped the icon (cold ÖR warm: text logs cannot tell)",
            "user tapped the icon (cold or warm: text logs cannot tell)x",
        ]
        var written: [String] = []
        var encoder = SpillEncoder()
        for index in 0..<2_000 {
            var text = pool[Int(random.next() % UInt64(pool.count))]
            // Now and then one that differs from a pooled string in the middle only.
            if index % 7 == 0, text.utf8.count > 20 {
                var bytes = Array(text.utf8)
                bytes[bytes.count / 2] = UInt8(ascii: "a") + UInt8(index % 26)
                text = String(decoding: bytes, as: UTF8.self)
            }
            written.append(text)
            encoder.string(text)
        }
        var decoder = SpillDecoder(encoder.bytes)
        #expect(written.map { _ in decoder.string() } == written)
        #expect(decoder.isAtEnd)
    }

    @Test func theSamplesReportsRoundTripThroughTheFile() throws {
        let report = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }.analyze(try Self.sources(), jobs: 1)
        #expect(!report.processes.isSpilled)
        let file = try SpillFile()
        var segments: [SpillFile.Segment] = []
        for process in report.processes {
            var encoder = SpillEncoder()
            encoder.process(process)
            segments.append(try file.append(encoder.bytes))
        }
        for (segment, process) in zip(segments, report.processes) {
            var decoder = SpillDecoder(file.read(segment))
            #expect(Self.fields(decoder.process()) == Self.fields(process))
        }
    }

    /// Each sample alone, spilled at every event, renders byte for byte as without spilling, in every format.
    @Test(arguments: TestSupport.sampleNames)
    func aSpilledSampleRendersIdentically(_ name: String) throws {
        let source = try Self.sources().first { $0.name == "samples/" + name }
        let input = try #require(source)
        let kept = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }.analyze([input])
        let spilled = try TestSupport.analyzer {
            $0.year = TestSupport.sampleYear
            $0.spillThreshold = 0
        }.analyze([input])
        #expect(spilled.processes.isSpilled == !kept.processes.isEmpty)
        #expect(spilled.inputs.map(\.error) == kept.inputs.map(\.error))
        #expect(Self.fields(Array(spilled.processes)) == Self.fields(Array(kept.processes)))
        let expected = Self.rendered(kept)
        for (format, bytes) in Self.rendered(spilled) {
            #expect(bytes == expected[format], "\(name): \(format.rawValue) differs when spilled")
        }
    }

    /// What can still change after it was spilled: a memory warning extended by one within its window, a kill
    /// inferred from a new pid and taken back when the old pid logs again, exit evidence ending an earlier
    /// incarnation, scene lanes.
    static let changesAfterSpilling = """
        2024-05-01 10:00:00.000 App[100:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:00.200 App[100:1] applicationDidBecomeActive:
        2024-05-01 10:00:01.000 App[100:1] -[ViewController didReceiveMemoryWarning]
        2024-05-01 10:00:01.100 App[100:1] applicationWillResignActive:
        2024-05-01 10:00:01.200 App[100:1] applicationDidBecomeActive:
        2024-05-01 10:00:01.500 App[100:1] -[ViewController didReceiveMemoryWarning]
        2024-05-01 10:00:01.900 App[100:1] -[ViewController didReceiveMemoryWarning]
        2024-05-01 10:00:05.000 App[200:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:05.100 App[200:1] applicationDidBecomeActive:
        2024-05-01 10:00:05.200 App[100:1] applicationWillResignActive:
        2024-05-01 10:00:05.300 App[100:1] applicationDidEnterBackground:
        2024-05-01 10:00:05.400 App[100:1] -[ViewController didReceiveMemoryWarning]
        2024-05-01 10:00:06.000 App[200:1] -[ViewController didReceiveMemoryWarning]
        2024-05-01 10:00:06.500 App[200:1] -[ViewController didReceiveMemoryWarning]
        2024-05-01 10:00:07.000 Scenes[300:1] scene(_:willConnectTo:options:)
        2024-05-01 10:00:07.100 Scenes[300:1] sceneDidBecomeActive(_:)
        2024-05-01 10:00:07.200 Scenes[300:1] sceneWillResignActive(_:)
        2024-05-01 10:00:07.300 Scenes[300:1] sceneDidEnterBackground(_:)
        2024-05-01 10:00:08.000 App[300:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:09.000 kernel[0:1] memorystatus: killing process 200 [App] in high band
        2024-05-01 10:00:09.500 App[300:1] applicationDidBecomeActive:
        """

    @Test func historyThatChangesAfterSpillingIsReportedIdentically() throws {
        let input = InputSource.text(name: "changes", Self.changesAfterSpilling)
        let kept = try TestSupport.analyzer().analyze([input])
        let spilled = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        #expect(spilled.processes.isSpilled)
        #expect(
            kept.processes.contains {
                $0.episodes.contains { $0.scenario == .memoryWarning && $0.endLine > $0.startLine }
            })
        #expect(Self.fields(Array(spilled.processes)) == Self.fields(Array(kept.processes)))
        let expected = Self.rendered(kept)
        for (format, bytes) in Self.rendered(spilled) {
            #expect(bytes == expected[format], "\(format.rawValue) differs when spilled")
        }
    }

    /// The reporters' passes borrow each process (`withReport`, `forEachReport`) instead of copying it out: what
    /// they are lent is what the subscript gives, kept in memory or read from the file, and without its events only
    /// a spilled process lacks them.
    @Test(arguments: [AnalysisOptions.defaultSpillThreshold, 0])
    func aLentProcessIsTheSubscriptsOwn(_ threshold: Int) throws {
        let input = InputSource.text(name: "changes", Self.changesAfterSpilling)
        let report = try TestSupport.analyzer { $0.spillThreshold = threshold }.analyze([input])
        #expect(report.processes.isSpilled == (threshold == 0))
        var lent: [ProcessReport] = []
        report.processes.forEachReport { lent.append($0) }
        #expect(lent.count == report.processes.count && report.processes.count > 1)
        #expect(Self.fields(lent) == Self.fields(Array(report.processes)))
        for index in report.processes.indices {
            let whole = report.processes[index]
            let (name, events) = report.processes.withReport(at: index, events: false) { ($0.name, $0.events.count) }
            #expect(name == whole.name && whole.events.count > 0)
            #expect(events == (threshold == 0 ? 0 : whole.events.count))
        }
    }

    /// A batch of every sample on two threads, spilled, rendered on two threads: as the batch kept in memory.
    @Test func aSpilledBatchRendersIdentically() throws {
        let sources = try Self.sources()
        let kept = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }.analyze(sources, jobs: 1)
        let spilled = try TestSupport.analyzer {
            $0.year = TestSupport.sampleYear
            $0.spillThreshold = 0
        }.analyze(sources, jobs: 2)
        #expect(spilled.processes.isSpilled)
        #expect(spilled.processes.count == kept.processes.count)
        #expect(spilled.processIndicesByInput == kept.processIndicesByInput)
        let expected = Self.rendered(kept)
        for (format, bytes) in Self.rendered(spilled, jobs: 2) {
            #expect(bytes == expected[format], "\(format.rawValue) differs when spilled")
        }
    }

    /// The aggregate's pass counts the totals as their own pass does, kept in memory or spilled; a report asked for
    /// its aggregate first takes its totals from that pass.
    @Test func theAggregatesPassCountsTheTotals() throws {
        for threshold in [AnalysisOptions.defaultSpillThreshold, 0] {
            let analyse = {
                try TestSupport.analyzer {
                    $0.year = TestSupport.sampleYear
                    $0.spillThreshold = threshold
                }.analyze(try Self.sources(), jobs: 1)
            }
            let own = try analyse().totals
            #expect(own.launches > 10 && own.violations > 5 && own.episodes > 40 && own.launchesOverBudget == 1)
            #expect(Aggregate(try analyse()).totals == own)
            let report = try analyse()
            #expect(report.processes.isSpilled == (threshold == 0))
            _ = report.aggregate
            #expect(report.totals == own)
        }
    }

    /// A temporary file that cannot be made is the input's error; the report is still whole (kept in memory).
    @Test func aFolderThatCannotBeWrittenIsAnError() throws {
        let sources = try Self.sources()
        let kept = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }.analyze(sources, jobs: 1)
        let failed = try TestSupport.analyzer {
            $0.year = TestSupport.sampleYear
            $0.spillThreshold = 0
            $0.spillFolder = "/nonexistent/trace-analyze-spill"
        }.analyze(sources, jobs: 1)
        #expect(!failed.processes.isSpilled)
        #expect(Self.fields(Array(failed.processes)) == Self.fields(Array(kept.processes)))
        for (input, before) in zip(failed.inputs, kept.inputs) where before.lifecycleEvents > 0 {
            guard case .temporaryFile(let folder, let reason) = input.error else {
                Issue.record("\(input.name): expected a temporary-file error, got \(String(describing: input.error))")
                continue
            }
            #expect(folder == "/nonexistent/trace-analyze-spill")
            #expect(!reason.isEmpty)
            #expect(input.error?.description.contains("TMPDIR") == true)
        }
        #expect(failed.exitStatus == .inputProblem)
    }

    /// Nothing is left in the folder: the file is unlinked as soon as it is open.
    /// A process's events that went to the file stay there in its report: iterated, counted, dumped and written
    /// back as the events themselves, and the report written to the file refers to them instead of copying them.
    @Test func eventsInTheFileAreReadAsTheyAreIterated() throws {
        let file = try SpillFile()
        let events = (0..<10).map { index in
            TimelineEvent(
                event: index % 2 == 0 ? .didBecomeActive : .willResignActive, line: index + 1,
                time: index % 3 == 0 ? nil : Self.timestamp, state: index % 2 == 0 ? .active : .inactive,
                scene: index == 4 ? "scene" : nil)
        }
        var segments: [SpillFile.Segment] = []
        for range in [0..<3, 3..<4, 4..<8] {
            var encoder = SpillEncoder()
            encoder.array(Array(events[range])) { $0.event($1) }
            segments.append(try file.append(encoder.bytes))
        }
        let stored = TimelineEvents(file: file, segments: segments, count: 10, tail: Array(events[8...]))
        let plain = TimelineEvents(events)
        #expect(stored.count == 10 && stored.inMemoryCount == 2 && plain.inMemoryCount == 10)
        #expect(Self.fields(Array(stored)) == Self.fields(events))
        #expect(Self.fields(stored) == Self.fields(plain))
        #expect(stored.last?.line == 10)
        #expect(TimelineEvents(file: file, segments: segments, count: 8, tail: []).last?.line == 8)
        #expect(Array(stored.prefix(5)).map(\.line) == [1, 2, 3, 4, 5])
        var encoder = SpillEncoder()
        stored.encode(to: &encoder)
        #expect(encoder.bytes.count < 60, "the report refers to the segments, not copies of the events")
        var decoder = SpillDecoder(encoder.bytes)
        #expect(Self.fields(TimelineEvents.decode(&decoder, file: file)) == Self.fields(plain))
    }

    /// A process with more events than a thread renders whole (``JSONReporter/streamedItems``), its events
    /// written to the file: the JSON report is handed on in pieces inside the process, with the same bytes at one
    /// and two jobs and as when everything is kept in memory.
    @Test func aProcessWithManyEventsIsWrittenInPieces() throws {
        var lines = ["2024-05-01 10:00:00.000 Other[1:1] application:didFinishLaunchingWithOptions:"]
        lines.append("2024-05-01 10:00:00.000 App[7:1] application:didFinishLaunchingWithOptions:")
        for index in 0..<(OrderedParallel.streamedItems + 100) {
            let time = String(format: "2024-05-01 10:%02d:%02d.%03d", index / 60_000, index / 1000 % 60, index % 1000)
            lines.append(
                "\(time) App[7:1] "
                    + (index % 2 == 0 ? "applicationDidEnterBackground:" : "applicationWillEnterForeground:"))
        }
        lines.append("2024-05-01 11:00:00.000 Other[1:1] applicationDidBecomeActive:")
        let input = InputSource.text(name: "many", lines.joined(separator: "\n"))
        let kept = try TestSupport.analyzer().analyze([input])
        let spilled = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        let app = try #require(spilled.processes.first { $0.name == "App" })
        #expect(app.events.count == OrderedParallel.streamedItems + 101)
        #expect(app.events.inMemoryCount < 10, "the events stay in the file")
        var expected: [UInt8] = []
        JSONReporter.write(kept, jobs: 1) { expected += $0 }
        for jobs in [1, 2] {
            var bytes: [UInt8] = []
            var largest = 0
            JSONReporter.write(spilled, jobs: jobs, chunkSize: 4096) {
                bytes += $0
                largest = max(largest, $0.count)
            }
            #expect(bytes == expected, "\(jobs) jobs")
            #expect(largest < 2 * 4096, "a piece of \(largest) bytes: the process was not handed on as it went")
        }
    }

    /// `spilled` (everything written to the file) has the processes of `kept` and renders the same bytes in every
    /// format at one and two jobs; its text report arrives in pieces under twice the chunk size, a process of very
    /// many items included.
    static func expectRenderedAsKept(
        _ spilled: AnalysisReport, _ kept: AnalysisReport, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            Self.fields(Array(spilled.processes)) == Self.fields(Array(kept.processes)), sourceLocation: sourceLocation)
        let expected = Self.rendered(kept)
        for jobs in [1, 2] {
            for (format, bytes) in Self.rendered(spilled, jobs: jobs) {
                #expect(
                    bytes == expected[format], "\(format.rawValue) differs when spilled, \(jobs) jobs",
                    sourceLocation: sourceLocation)
            }
            var largest = 0
            TextReporter().write(spilled, jobs: jobs, chunkSize: 4096) { largest = max(largest, $0.count) }
            #expect(
                largest < 2 * 4096, "a piece of \(largest) bytes: the process was not handed on as it went",
                sourceLocation: sourceLocation)
        }
    }

    /// A process of more episodes than a segment holds, in two lanes (the app delegate's and a scene's): the
    /// report's episodes stay in the file, merged in report order as they are read, and every format renders the
    /// same bytes at one and two jobs as when everything is kept in memory; the text report is handed on in pieces
    /// inside the process.
    @Test func aProcessWithManyEpisodesKeepsThemInTheFile() throws {
        var lines = ["2024-05-01 10:00:00.000 App[7:1] application:didFinishLaunchingWithOptions:"]
        lines.append("2024-05-01 10:00:00.010 App[7:1] applicationDidBecomeActive:")
        let cycles = TimelineEpisodes.Builder.segmentSize + 50
        for index in 0..<cycles {
            let time = { (offset: Int) -> String in
                let ms = 100 + index * 40 + offset
                return String(format: "2024-05-01 10:%02d:%02d.%03d", ms / 60_000, ms / 1000 % 60, ms % 1000)
            }
            lines.append("\(time(0)) App[7:1] applicationWillResignActive:")
            lines.append("\(time(1)) App[7:1] applicationDidEnterBackground:")
            lines.append("\(time(10)) App[7:1] applicationWillEnterForeground:")
            lines.append("\(time(20)) App[7:1] applicationDidBecomeActive:")
            if index % 1000 == 0 {
                // A scene's episode at the same line as none of the app's, and a memory warning.
                lines.append("\(time(30)) App[7:1] sceneWillResignActive(_:)")
                lines.append("\(time(31)) App[7:1] sceneDidBecomeActive(_:)")
                lines.append("\(time(32)) App[7:1] -[ViewController didReceiveMemoryWarning]")
            }
        }
        let input = InputSource.text(name: "cycles", lines.joined(separator: "\n"))
        let kept = try TestSupport.analyzer().analyze([input])
        let spilled = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        let app = try #require(spilled.processes.first)
        let keptApp = try #require(kept.processes.first)
        #expect(app.episodes.count == keptApp.episodes.count)
        #expect(app.episodes.count > 2 * cycles)
        #expect(keptApp.episodes.contains { $0.scene != nil } && keptApp.episodes.contains { $0.scene == nil })
        #expect(app.episodes.inMemoryCount < TimelineEpisodes.Builder.segmentSize, "the episodes stay in the file")
        Self.expectRenderedAsKept(spilled, kept)
    }

    /// The timestamp `ms` milliseconds after 2024-05-01 10:00:00.000.
    static func stamp(ms: Int) -> String {
        String(
            format: "2024-05-01 %02d:%02d:%02d.%03d", 10 + ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    /// One app launched at 10:00 and then `lines`, analysed with everything kept in memory and with everything
    /// written to the file.
    static func keptAndSpilled(_ name: String, _ lines: [String]) throws -> (
        kept: AnalysisReport, spilled: AnalysisReport
    ) {
        let launch = [
            "2024-05-01 10:00:00.000 App[7:1] application:didFinishLaunchingWithOptions:",
            "2024-05-01 10:00:00.010 App[7:1] applicationDidBecomeActive:",
        ]
        let input = InputSource.text(name: name, (launch + lines).joined(separator: "\n"))
        return (
            try TestSupport.analyzer().analyze([input]),
            try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        )
    }

    /// A process whose episodes went to the file carries what the summaries count of them (so no pass of the
    /// summary's decodes them again), equal to what counting them gives; one kept in memory carries nothing, and
    /// nor does a process whose episodes are replaced. The summary is the same either way.
    @Test func aSpilledProcessCarriesWhatItsEpisodesCount() throws {
        var lines: [String] = []
        for index in 0..<(TimelineEpisodes.Builder.segmentSize + 10) {
            let time = { (offset: Int) in Self.stamp(ms: 100 + index * 400 + offset) }
            lines.append("\(time(0)) App[7:1] applicationWillResignActive:")
            lines.append("\(time(1)) App[7:1] applicationDidEnterBackground:")
            lines.append("\(time(10)) App[7:1] applicationWillEnterForeground:")
            // Every third resume over the default budget.
            lines.append("\(time(index % 3 == 0 ? 390 : 20)) App[7:1] applicationDidBecomeActive:")
        }
        // More violations than a segment holds (of one rule, and three others around them).
        for index in 0..<(TimelineViolations.Builder.segmentSize + 10) {
            let second = index / 1000, ms = index % 1000
            lines.append(String(format: "2024-05-01 10:59:%02d.%03d App[7:1] applicationDidBecomeActive:", second, ms))
        }
        lines.append("2024-05-01 10:59:59.000 App[7:1] applicationWillEnterForeground:")
        lines.append("2024-05-01 11:00:00.000 App[7:1] applicationWillResignActive:")
        lines.append("2024-05-01 11:00:00.001 kernel[0:1] memorystatus: killing_specific_process pid 7 [App] (limit)")
        let (kept, spilled) = try Self.keptAndSpilled("tally", lines)
        var app = try #require(spilled.processes.first)
        #expect(app.episodes.isSpilled)
        let tally = try #require(app.episodeTally)
        var counted = EpisodeTally()
        for episode in app.episodes { counted.add(episode) }
        #expect(tally == counted)
        #expect(tally.episodes == app.episodes.count && tally.timedResumes > 0)
        #expect(tally.resumesOverBudget > 0 && tally.resumesOverBudget < tally.timedResumes)
        // The timed resumes' durations beside the tally, in the file too (more than a segment's worth): the
        // aggregate takes them instead of a pass over the episodes.
        let durations = try #require(app.resumeDurations)
        #expect(durations.isSpilled)
        #expect(Array(durations) == app.episodes.compactMap { $0.budgetMs == nil ? nil : $0.durationMs })
        #expect(durations.count == tally.timedResumes)
        let violationCounts = try #require(app.violationCounts)
        #expect(violationCounts == Dictionary(app.violations.map { ($0.rule, 1) }, uniquingKeysWith: +))
        #expect(
            violationCounts[.activeTwice] == TimelineViolations.Builder.segmentSize + 10 && violationCounts.count > 1)
        // Kept in memory, the report was counted as it was made too (no summary copies its episodes again).
        let keptApp = try #require(kept.processes.first)
        #expect(keptApp.episodeTally == tally && keptApp.violationCounts == violationCounts)
        #expect(keptApp.resumeDurations.map { !$0.isSpilled && Array($0) == Array(durations) } == true)
        #expect(spilled.totals.tally == kept.totals.tally)
        #expect(spilled.totals.tally.killedInForeground == 1)
        #expect(Self.fields(spilled.aggregate.apps) == Self.fields(kept.aggregate.apps))
        Self.expectRenderedAsKept(spilled, kept)
        app.episodes = TimelineEpisodes(Array(app.episodes.prefix(3)))
        #expect(app.episodeTally == nil, "episodes replaced: what was counted of the old ones is dropped")
        #expect(app.resumeDurations == nil, "episodes replaced: the old ones' durations are dropped")
        app.violations = TimelineViolations(Array(app.violations.prefix(3)))
        #expect(app.violationCounts == nil, "violations replaced: what was counted of the old ones is dropped")
    }

    /// A process of more episodes than a segment holds, none of them a timed resume (interruptions: resigning
    /// active and coming back without going to the background): the aggregate takes what was counted of them as
    /// they were written, without a pass, and every format renders as when they are kept in memory.
    @Test func episodesWithoutResumesAreAddedUpFromTheirTally() throws {
        var lines: [String] = []
        for index in 0..<(TimelineEpisodes.Builder.segmentSize + 10) {
            let time = { (offset: Int) in Self.stamp(ms: 1000 + index * 2000 + offset) }
            lines.append("\(time(0)) App[7:1] applicationWillResignActive:")
            lines.append("\(time(700)) App[7:1] applicationDidBecomeActive:")
        }
        let (kept, spilled) = try Self.keptAndSpilled("interruptions", lines)
        let tally = try #require(spilled.processes.first?.episodeTally)
        #expect(tally.timedResumes == 0 && tally.episodes > TimelineEpisodes.Builder.segmentSize, "\(tally)")
        Self.expectRenderedAsKept(spilled, kept)
    }

    /// Episodes closed out of report order across a spill (a memory warning during a launch, which is closed
    /// later but starts earlier; a kill, which comes last) are read back and sorted, as in memory.
    @Test func episodesWrittenOutOfOrderAreSortedAsInMemory() throws {
        let input = InputSource.text(
            name: "order",
            """
            2024-05-01 10:00:00.000 App[100:1] Starting up
            2024-05-01 10:00:00.100 App[100:1] -[ViewController didReceiveMemoryWarning]
            2024-05-01 10:00:00.200 App[100:1] application:didFinishLaunchingWithOptions:
            2024-05-01 10:00:00.300 App[100:1] applicationDidBecomeActive:
            2024-05-01 10:00:01.000 App[100:1] applicationWillResignActive:
            2024-05-01 10:00:01.100 App[100:1] applicationDidEnterBackground:
            2024-05-01 10:00:02.000 App[200:1] application:didFinishLaunchingWithOptions:
            2024-05-01 10:00:02.100 App[200:1] applicationDidBecomeActive:
            """)
        let kept = try TestSupport.analyzer().analyze([input])
        let spilled = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        let first = try #require(kept.processes.first { $0.pid == 100 })
        #expect(first.episodes.map(\.scenario) == [.launch, .memoryWarning, .enterBackground, .killedInBackground])
        #expect(spilled.processes.isSpilled)
        #expect(Self.fields(Array(spilled.processes)) == Self.fields(Array(kept.processes)))
    }

    /// A process of more violations than a segment holds, in two lanes (the app delegate's and a scene's, whose
    /// violations interleave by line): they stay in the file, merged in line order as they are read, and every
    /// format renders as when everything is kept in memory; the text report is handed on in pieces.
    @Test func aProcessWithManyViolationsKeepsThemInTheFile() throws {
        var lines = [
            "2024-05-01 10:00:00.000 App[7:1] application:didFinishLaunchingWithOptions:",
            "2024-05-01 10:00:00.010 App[7:1] applicationDidBecomeActive:",
            "2024-05-01 10:00:00.020 App[7:1] sceneDidBecomeActive(_:)",
        ]
        let count = TimelineViolations.Builder.segmentSize + 50
        for index in 0..<count {
            let ms = 100 + index * 2
            let time = String(format: "2024-05-01 10:%02d:%02d.%03d", ms / 60_000, ms / 1000 % 60, ms % 1000)
            // Active twice, in the app delegate's lane or (one in ten) the scene's.
            lines.append(
                "\(time) App[7:1] " + (index % 10 == 0 ? "sceneDidBecomeActive(_:)" : "applicationDidBecomeActive:"))
        }
        let input = InputSource.text(name: "violations", lines.joined(separator: "\n"))
        let kept = try TestSupport.analyzer().analyze([input])
        let spilled = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        let app = try #require(spilled.processes.first)
        // Active twice in either lane, and app-delegate and scene callbacks mixed (once).
        #expect(app.violations.count == count + 1)
        #expect(
            app.violations.inMemoryCount < TimelineViolations.Builder.segmentSize, "the violations stay in the file")
        Self.expectRenderedAsKept(spilled, kept)
    }

    /// A violation raised for an earlier line than one already written to the file (an event before
    /// didFinishLaunching is a violation once didFinishLaunching comes): all are read back and sorted, as in memory.
    @Test func violationsWrittenOutOfOrderAreSortedAsInMemory() throws {
        let input = InputSource.text(
            name: "order",
            """
            2024-05-01 10:00:00.000 App[100:1] applicationDidEnterBackground:
            2024-05-01 10:00:00.100 App[100:1] applicationWillResignActive:
            2024-05-01 10:00:00.200 App[100:1] application:didFinishLaunchingWithOptions:
            2024-05-01 10:00:00.300 App[100:1] applicationDidBecomeActive:
            2024-05-01 10:00:00.400 App[100:1] applicationDidBecomeActive:
            """)
        let kept = try TestSupport.analyzer().analyze([input])
        let spilled = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze([input])
        let violations = try #require(kept.processes.first).violations
        #expect(violations.map(\.line) == [1, 2, 5])
        #expect(violations.first?.rule == .launchOrder)
        #expect(spilled.processes.isSpilled)
        #expect(Self.fields(Array(spilled.processes)) == Self.fields(Array(kept.processes)))
    }

    /// A lane's list, written to the file bit by bit with the frontier its owner gives (no element made later
    /// comes before it), the element it follows changed before and after it was written: sorted, it is a stable
    /// sort of everything appended, changes included. When every element honours the frontiers, the file is in
    /// order (nothing is read back); when some do not, all are read back and sorted, with the same result.
    @Test func aSpilledListIsAStableSortOfWhatWasAppended() throws {
        let file = try SpillFile()
        var random = SplitMix64(seed: 5)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var fallBack = 0
        for round in 0..<400 {
            let honest = round % 2 == 0
            var list = SpilledList<Violation>()
            var model: [Violation] = []
            var watched: Int?
            var frontier = 0
            for step in 0..<pick(90) {
                switch pick(10) {
                case 0..<6:
                    let line = honest || pick(8) > 0 ? frontier + pick(12) : pick(frontier + 1)
                    let violation = Violation(
                        rule: .activeTwice, input: "in", line: line, time: nil, state: .active,
                        event: .didBecomeActive, expected: "", message: "\(step)")
                    list.append(violation)
                    model.append(violation)
                    if pick(3) == 0 {
                        list.watchLast()
                        watched = model.count - 1
                    }
                case 6:
                    list.updateWatched { $0.message += "+" }
                    if let watched { model[watched].message += "+" }
                case 7, 8:
                    try list.spill(to: file, frontier: (0, frontier))
                default:
                    frontier += pick(6)
                }
            }
            if honest { #expect(list.writtenInOrder, "round \(round)") }
            if !list.writtenInOrder { fallBack += 1 }
            list.sort()
            let expected = model.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            #expect(Array(list.sequence).map(\.message) == expected.map(\.element.message), "round \(round)")
            #expect(list.count == model.count)
        }
        #expect(fallBack > 0, "no round wrote out of order: the reading back is not exercised")
    }

    @Test func theFileIsUnlinkedAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try TestSupport.analyzer {
            $0.year = TestSupport.sampleYear
            $0.spillThreshold = 0
            $0.spillFolder = folder.path
        }.analyze(try Self.sources(), jobs: 1)
        #expect(report.processes.isSpilled)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(!JSONReporter.bytes(report).isEmpty)
    }
}

extension ProcessReport {
    /// The report without what was counted of its episodes and violations as they were written (``episodeTally``,
    /// ``violationCounts``, ``resumeDurations``).
    fileprivate var untallied: ProcessReport {
        var report = self
        report.episodeTally = nil
        report.violationCounts = nil
        report.resumeDurations = nil
        return report
    }
}
