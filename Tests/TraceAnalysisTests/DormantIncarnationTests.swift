import Foundation
import Testing

@testable import TraceAnalysis

/// A dormant incarnation can be written out whole to its input's temporary file and read back with every field.
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
}
