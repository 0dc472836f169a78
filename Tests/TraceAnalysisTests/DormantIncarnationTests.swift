import Foundation
import Testing

@testable import TraceAnalysis

/// A big input writes its dormant incarnations (another pid is the current one of their name) out whole to its
/// temporary file and reads them back when they are needed (`Incarnations`); these tests force that at every new
/// incarnation (a spill threshold of 0) and check that nothing a reader sees changes. `SpillTests` renders every
/// sample, alone and in a parallel batch, with the same threshold.
@Suite("Dormant incarnations written out")
struct DormantIncarnationTests {
    static func time(_ milliseconds: Int) -> Timestamp {
        Timestamp(
            wallMicros: 1_714_557_600_000_000 + Int64(milliseconds) * 1000, utcOffsetSeconds: 7_200, fractionDigits: 3)
    }

    static func occurrence(_ event: LifecycleEvent, _ line: Int) -> EventOccurrence {
        EventOccurrence(event: event, line: line, time: time(line * 100))
    }

    /// Every stored field of an incarnation but the shared part (the same object for both) and whether the
    /// shared part lists it for a spill (not written: a written-out incarnation has no history in memory).
    static func fields(_ timeline: ProcessTimeline) -> String {
        var out = ""
        for child in Mirror(reflecting: timeline).children where child.label != "shared" && child.label != "isUnspilled"
        {
            out += (child.label ?? "?") + ": "
            dump(child.value, to: &out)
        }
        return out
    }

    /// Incarnations with every part of their state set: a launch in progress and a scene connecting, a memory
    /// warning extended within its window, a clock anomaly, a kill inferred from a successor
    /// (the detector saved before it), an interruption that may still be left-via-alert, exit evidence after mixed app-delegate and scene callbacks, a Mac app
    /// without an event.
    static func incarnations(_ shared: ProcessTimeline.Shared) -> [ProcessTimeline] {
        let launching = ProcessTimeline(
            name: "Mÿ App ✓", pid: 100, input: "in", line: 1, time: time(100), shared: shared)
        for (line, event) in [(2, LifecycleEvent.didFinishLaunching), (3, .viewDidLoad)] {
            launching.noteRecord(line: line, time: time(line * 100))
            launching.handle(occurrence(event, line))
        }
        launching.noteRecord(line: 4, time: time(400))
        launching.handle(occurrence(.sceneWillConnect, 4), scene: "scene-1")
        for line in [7, 8] {
            launching.noteRecord(line: line, time: time(line * 100))
            launching.handle(occurrence(.didReceiveMemoryWarning, line))
        }
        launching.noteRecord(line: 9, time: time(50))  // the clock goes back
        let successor = ProcessTimeline(
            name: "Mÿ App ✓", pid: 200, input: "in", line: 20, time: time(2_000), shared: shared)
        launching.replaced(by: successor)
        for (line, event) in [
            (20, LifecycleEvent.didFinishLaunching), (21, .didBecomeActive), (22, .willResignActive),
            (23, .didBecomeActive),
        ] {
            successor.noteRecord(line: line, time: time(line * 100))
            successor.handle(occurrence(event, line))
        }

        let exited = ProcessTimeline(name: "Other", pid: 300, input: "in", line: 30, time: time(3_000), shared: shared)
        for (line, event) in [
            (31, LifecycleEvent.didFinishLaunching), (32, .didBecomeActive), (33, .sceneDidBecomeActive),
            (34, .willResignActive),
        ] {
            exited.noteRecord(line: line, time: time(line * 100))
            exited.handle(occurrence(event, line), scene: event.family == .scene ? "" : nil)
        }
        exited.exited(
            occurrence(.exitSignal, 35),
            exit: ProcessExit(reason: .signal, line: 35, time: time(3_500), signal: 9, evidence: "signal 9"))

        let mac = ProcessTimeline(name: "Finder", pid: 400, input: "in", line: 40, time: nil, shared: shared)
        mac.isAppKit = true
        mac.noteRecord(line: 41, time: nil)
        return [launching, successor, exited, mac]
    }

    /// Each incarnation written and read back has every field it had, with its history in memory or in the file.
    @Test(arguments: [AnalysisOptions.defaultSpillThreshold, 0])
    func anIncarnationRoundTripsFieldByField(threshold: Int) throws {
        var options = AnalysisOptions()
        options.spillThreshold = threshold
        let shared = ProcessTimeline.Shared(options: options)
        let file = try #require(shared.file())
        let originals = Self.incarnations(shared)
        let life = try #require(originals[0].made)
        #expect(life.detectorBeforeInferredKill != nil)
        #expect(life.launch.report(process: "", options: options)?.endLine == nil)
        #expect(life.scenes["scene-1"] != nil)
        #expect(originals[2].made?.exit != nil)
        #expect(originals[2].made?.otherViolations.isEmpty == false)
        for original in originals {
            var encoder = SpillEncoder()
            original.encode(to: &encoder)
            var decoder = SpillDecoder(encoder.bytes)
            let decoded = ProcessTimeline(decoding: &decoder, shared: shared, file: file)
            #expect(decoder.isAtEnd)
            #expect(Self.fields(decoded) == Self.fields(original), "\(original.displayName)")
            var again = SpillEncoder()
            decoded.encode(to: &again)
            #expect(again.bytes == encoder.bytes)
            if original.hasEvents {
                #expect(SpillTests.fields(decoded.report()) == SpillTests.fields(original.report()))
            }
        }
    }

    /// The index finds every incarnation by name and pid, the last made for a pid and the current one of a name,
    /// against a dictionary model: over several chunks of entries and several growths of its tables, with pids
    /// shared by names, and with incarnations written out (current ones too) and read back.
    @Test(arguments: [AnalysisOptions.defaultSpillThreshold, 0])
    func theIndexFindsWhatADictionaryWould(threshold: Int) throws {
        var options = AnalysisOptions()
        options.spillThreshold = threshold
        let shared = ProcessTimeline.Shared(options: options)
        var incarnations = Incarnations(shared: shared)
        var byKey: [String: (name: String, pid: Int, line: Int)] = [:]
        var lastByPid: [Int: Int] = [:]  // pid → line of the incarnation made last
        var random = SplitMix64(seed: 11)
        var currentLine: [String: Int] = [:]  // name → line of its current incarnation
        let count = 10_000
        for line in 1...count {
            let name = "App\(random.next() % 40)"
            // Pids repeat across names (pid reuse), and a few are negative or huge.
            let pid =
                line % 97 == 0 ? -Int(random.next() % 3) : line % 89 == 0 ? Int.max - line : Int(random.next() % 3_000)
            guard byKey["\(name)|\(pid)"] == nil else { continue }
            let timeline = ProcessTimeline(name: name, pid: pid, input: "in", line: line, time: nil, shared: shared)
            incarnations.append(timeline)
            #expect(incarnations.makeCurrent(timeline) == (currentLine[name] == nil))
            currentLine[name] = line
            byKey["\(name)|\(pid)"] = (name, pid, line)
            lastByPid[pid] = line
            if incarnations.isBatchDue { _ = incarnations.writeOutQuiet(line: line) }
        }
        if threshold == 0 { #expect(incarnations.dormantCount > 1_000) }
        for (name, pid, line) in byKey.values.sorted(by: { $0.line < $1.line }) {
            let found = incarnations.find(name: name, pid: pid)
            #expect(found != nil, "\(name) [\(pid)]")
            guard let found else { continue }
            #expect(found.name == name && found.pid == pid && found.firstLine == line)
            // Told it is no longer current when read back, if another became current while it was written out.
            #expect(found.isCurrentOfName == (currentLine[name] == line), "\(name) [\(pid)]")
        }
        for (name, line) in currentLine {
            #expect(incarnations.current(named: name)?.firstLine == line, "\(name)")
        }
        for (pid, line) in lastByPid {
            #expect(incarnations.last(pid: pid)?.firstLine == line, "pid \(pid)")
        }
        #expect(incarnations.find(name: "App1", pid: 3_000) == nil)
        #expect(incarnations.find(name: "Unknown", pid: 1) == nil)
        #expect(incarnations.last(pid: 3_001) == nil)
    }

    /// Feeds `text` line by line, calling `after` with each line's number and the analysis.
    static func analyse(
        _ text: String, threshold: Int, after: (Int, InputAnalysis) -> Void = { _, _ in }
    ) throws -> AnalysisReport {
        let analyzer = try TestSupport.analyzer { $0.spillThreshold = threshold }
        var analysis = InputAnalysis(name: "dormant", analyzer: analyzer, modified: nil)
        for (index, line) in text.split(separator: "\n").enumerated() {
            Array(line.utf8).withUnsafeBytes { analysis.consume($0) }
            after(index + 1, analysis)
        }
        let (summary, processes) = analysis.finish()
        return AnalysisReport(inputs: [summary], processes: processes, options: analyzer.options)
    }

    /// The same report, byte for byte in every format, with every quiet incarnation written out as without;
    /// returns it with the number of incarnations written out after each line.
    static func expectSameReport(_ text: String) throws -> (AnalysisReport, dormant: [Int: Int]) {
        let kept = try analyse(text, threshold: AnalysisOptions.defaultSpillThreshold)
        var dormant: [Int: Int] = [:]
        let written = try analyse(text, threshold: 0) { line, analysis in dormant[line] = analysis.dormantIncarnations }
        #expect(written.inputs.map(\.error) == kept.inputs.map(\.error))
        #expect(SpillTests.fields(Array(written.processes)) == SpillTests.fields(Array(kept.processes)))
        let expected = SpillTests.rendered(kept)
        for (format, bytes) in SpillTests.rendered(written) {
            #expect(bytes == expected[format], "\(format.rawValue) differs with incarnations written out")
        }
        return (kept, dormant)
    }

    /// App[100] is ended by App[200] (a kill inferred), written out once Other[300] appears, and read back when it
    /// logs again: the kill is taken back as without writing it out; App[200], no longer current, goes out in turn,
    /// with Other[300], current but quiet since it appeared.
    static let revival = """
        2024-05-01 10:00:00.000 App[100:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:00.200 App[100:1] applicationDidBecomeActive:
        2024-05-01 10:00:00.300 App[100:1] applicationWillResignActive:
        2024-05-01 10:00:05.000 App[200:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:05.100 Other[300:1] hello
        2024-05-01 10:00:05.200 App[200:1] applicationDidBecomeActive:
        2024-05-01 10:00:06.000 App[100:1] applicationDidBecomeActive:
        2024-05-01 10:00:06.100 App[100:1] applicationWillResignActive:
        2024-05-01 10:00:06.200 Third[400:1] hello
        2024-05-01 10:00:06.300 App[100:1] applicationDidEnterBackground:
        """

    @Test func anIncarnationWrittenOutComesBackWhenItsPidLogsAgain() throws {
        let (kept, dormant) = try Self.expectSameReport(Self.revival)
        #expect(dormant[4] == 0)  // App[100] was the last record's: kept
        #expect(dormant[5] == 1)  // written out
        #expect(dormant[7] == 0)  // read back
        #expect(dormant[9] == 2)  // App[200] and Other[300] written out
        let first = try #require(kept.processes.first { $0.pid == 100 })
        #expect(!first.episodes.contains { $0.scenario == .killedInForeground || $0.scenario == .killedInBackground })
        #expect(first.events.count == 6)
    }

    /// An exit line names a pid written out: it is read back and ended by the evidence (not by the kill inferred
    /// from its successor), then written out again and reported from the file.
    static let exitOfWrittenOutPid = """
        2024-05-01 10:00:00.000 App[100:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:00.200 App[100:1] applicationDidBecomeActive:
        2024-05-01 10:00:00.300 App[100:1] applicationWillResignActive:
        2024-05-01 10:00:00.400 App[100:1] applicationDidEnterBackground:
        2024-05-01 10:00:05.000 App[200:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:05.100 Other[300:1] hello
        2024-05-01 10:00:09.000 kernel[0:1] memorystatus: killing_specific_process pid 100 [App] (per-process-limit 100 16s rf:-)
        2024-05-01 10:00:09.100 Third[400:1] hello
        2024-05-01 10:00:09.500 App[200:1] applicationDidBecomeActive:
        """

    @Test func exitEvidenceNamingAWrittenOutPidReachesIt() throws {
        let (kept, dormant) = try Self.expectSameReport(Self.exitOfWrittenOutPid)
        #expect(dormant[6] == 1)  // App[100], which App[200] replaced
        // The kernel's new incarnation writes out App[200] (current, but quiet), then its line reads App[100] back.
        #expect(dormant[7] == 1)
        #expect(dormant[8] == 3)  // Third's: App[100] and Other[300] too (the kernel's line is the last record)
        let first = try #require(kept.processes.first { $0.pid == 100 })
        #expect(first.exit?.reason == .memory)
        #expect(first.episodes.contains { $0.scenario == .killedInBackground && $0.evidence.contains("memorystatus") })
    }

    /// App[100], the current incarnation of its name, is written out once quiet, and read back each way a name
    /// reaches it: an exit line that names it by a pid no line had and its name in another case, a new pid of its
    /// name (which infers no kill: the exit line ended it), and a bare line (App is the one app with events).
    static let currentWrittenOut = """
        2024-05-01 10:00:00.000 App[100:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:00.200 App[100:1] applicationDidBecomeActive:
        2024-05-01 10:00:00.300 Other[200:1] hello
        2024-05-01 10:00:00.400 Third[300:1] hello
        2024-05-01 10:00:01.000 kernel[0:1] memorystatus: killing_specific_process pid 999 [app] (per-process-limit)
        2024-05-01 10:00:01.100 Fourth[500:1] hello
        2024-05-01 10:00:02.000 App[400:1] application:didFinishLaunchingWithOptions:
        2024-05-01 10:00:02.100 Fifth[600:1] hello
        applicationDidBecomeActive:
        """

    @Test func aCurrentIncarnationWrittenOutComesBackByName() throws {
        let (kept, dormant) = try Self.expectSameReport(Self.currentWrittenOut)
        #expect(dormant[3] == 0)  // App[100] logged the last record: kept
        #expect(dormant[4] == 1)  // App[100], current but quiet, written out
        let first = try #require(kept.processes.first { $0.pid == 100 })
        #expect(first.exit?.reason == .memory)
        let second = try #require(kept.processes.first { $0.pid == 400 })
        #expect(second.events.map(\.event) == [.didFinishLaunching, .didBecomeActive])
    }

    /// Two pids of one name that log in turn while new pids come and go, with one incarnation kept in memory (the
    /// lowest limit that is not "at every opportunity"): the pair, each current in turn, is never written out and
    /// read back (what logged since the last batch stays); the others are; the report is as without.
    @Test func pidsThatLogInTurnStayInMemory() throws {
        var lines: [String] = []
        for pid in [100, 200] {
            lines.append("2024-05-01 10:00:00.000 App[\(pid):1] application:didFinishLaunchingWithOptions:")
        }
        for step in 0..<40 {
            let time = String(format: "2024-05-01 10:00:%02d.%03d", 1 + step / 10, step % 10 * 100)
            lines.append("\(time) App[\(step % 2 == 0 ? 100 : 200):1] applicationDidBecomeActive:")
            lines.append("\(time) Other\(step % 3)[\(1000 + step):1] hello")
        }
        let text = lines.joined(separator: "\n")
        let kept = try Self.analyse(text, threshold: AnalysisOptions.defaultSpillThreshold)
        var counts: [Int] = []
        let written = try Self.analyse(text, threshold: Incarnations.thresholdPerIncarnation) { _, analysis in
            counts.append(analysis.dormantIncarnations)
        }
        #expect(counts.last ?? 0 > 0)
        #expect(counts == counts.sorted(), "an incarnation was read back: \(counts)")
        #expect(SpillTests.fields(Array(written.processes)) == SpillTests.fields(Array(kept.processes)))
    }

    /// Each sample with one incarnation kept in memory renders byte for byte as without, in every format.
    @Test(arguments: TestSupport.sampleNames)
    func aSampleWithOneIncarnationInMemoryRendersIdentically(_ name: String) throws {
        let input = try #require(try SpillTests.sources().first { $0.name == "samples/" + name })
        let kept = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }.analyze([input])
        let written = try TestSupport.analyzer {
            $0.year = TestSupport.sampleYear
            $0.spillThreshold = Incarnations.thresholdPerIncarnation
        }.analyze([input])
        #expect(SpillTests.fields(Array(written.processes)) == SpillTests.fields(Array(kept.processes)))
        let expected = SpillTests.rendered(kept)
        for (format, bytes) in SpillTests.rendered(written) {
            #expect(bytes == expected[format], "\(name): \(format.rawValue) differs")
        }
    }

    /// The real captures, in a parallel batch with every dormant incarnation written out at every new one (and
    /// history spilled at every event), render byte for byte as kept in memory, in every format.
    @Test(.enabled(if: TestSupport.corpusExists))
    func theCorpusRendersIdenticallyWrittenOut() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.path)
            .filter { $0.hasSuffix(".log") }.sorted()
        let sources = try names.map { name in
            InputSource.bytes(
                name: "corpus/" + name, Array(try Data(contentsOf: TestSupport.corpus.appendingPathComponent(name))))
        }
        let kept = try TestSupport.analyzer().analyze(sources, jobs: 1)
        let written = try TestSupport.analyzer { $0.spillThreshold = 0 }.analyze(sources, jobs: 2)
        #expect(written.processes.isSpilled)
        #expect(SpillTests.fields(Array(written.processes)) == SpillTests.fields(Array(kept.processes)))
        let expected = SpillTests.rendered(kept)
        for (format, bytes) in SpillTests.rendered(written, jobs: 2) {
            #expect(bytes == expected[format], "\(format.rawValue) differs with incarnations written out")
        }
    }

    /// The samples do write incarnations out at this threshold (so `SpillTests`' renderings cover it).
    @Test func theSamplesWriteIncarnationsOut() throws {
        var written = 0
        for source in try SpillTests.sources() {
            guard case .bytes(_, let bytes) = source else { continue }
            _ = try Self.analyse(String(decoding: bytes, as: UTF8.self), threshold: 0) { _, analysis in
                written = max(written, analysis.dormantIncarnations)
            }
        }
        #expect(written > 0)
    }
}
