import Foundation
import Testing

@testable import TraceAnalysis

@Suite("Samples and the real corpus")
struct SampleTests {
    /// Seed 004 (the Flatiron School blog's AppDelegate app) written as a chronological capture.
    @Test func seed004ScenariosComeOutWithTheModelsIds() throws {
        let report = try TestSupport.analyzeSample("app-delegate-scenarios.log")
        #expect(report.processes.map(\.pid) == [12199, 12220])
        #expect(
            report.processes[0].episodes.map(\.scenario) == [
                .launch,  // Fresh Launch
                .enterBackground,  // Pushed Home Button
                .returnToForeground,  // Tapped on the icon
                .interruptionToBackground,  // Phone call … Answered
                .returnToForeground,  // back to the app after the call
                .interruption,  // Phone call … Declined (12:30:07.440)
                .interruption,  // Notification Center opened and closed
                .killedInForeground,  // stopped from Xcode, re-run as 12220
            ])
        #expect(report.processes[1].episodes.map(\.scenario) == [.launch, .leftViaAlert])  // Clicked View on the alert
        #expect(report.violations.isEmpty)
        #expect(report.exitStatus == .clean)
    }

    @Test func illegalTransitionsSampleRaisesEveryRule() throws {
        let report = try TestSupport.analyzeSample("illegal-transitions.log")
        #expect(report.violations.map(\.rule.number) == [1, 2, 4, 3, 5, 6, 7])
        #expect(report.exitStatus == .findings)
    }

    @Test func backgroundSampleShowsExitsAndBackgroundLaunch() throws {
        let report = try TestSupport.analyzeSample("background-and-exits.log")
        #expect(
            report.processes.map { $0.episodes.map(\.scenario) } == [
                [.backgroundLaunch, .memoryWarning, .killedInBackground],
                [.launch, .enterBackground, .termination],
                [.launch, .unresolvedInterruption],
            ])
        #expect(report.inputs[0].continuationLines == 2)
    }

    @Test(arguments: TestSupport.sampleNames)
    func everySampleLineIsAccountedFor(_ name: String) throws {
        let report = try TestSupport.analyzeSample(name)
        TestSupport.expectAccounted(report.inputs[0])
        #expect(report.inputs[0].unparsedLines == 0)
    }

    @Test(.enabled(if: TestSupport.corpusExists, "../shared/corpus/real is beside the repository"))
    func realCorpusIsReadWholeWithoutCrash() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.path).filter {
            $0.hasSuffix(".log")
        }
        #expect(files.count >= 8)
        let analyzer = try TestSupport.analyzer()
        for file in files {
            let report = analyzer.analyze([.file(TestSupport.corpus.appendingPathComponent(file).path)])
            let input = report.inputs[0]
            #expect(input.error == nil)
            TestSupport.expectAccounted(input)
            let size =
                try FileManager.default.attributesOfItem(atPath: TestSupport.corpus.appendingPathComponent(file).path)[
                    .size] as? Int
            #expect(Int(input.bytes) == size, "\(file) read whole")
        }
    }

    @Test(.enabled(if: TestSupport.corpusExists))
    func realCorpusReadsPlausibly() throws {
        let analyzer = try TestSupport.analyzer()
        func analyze(_ name: String) -> AnalysisReport {
            analyzer.analyze([.file(TestSupport.corpus.appendingPathComponent(name).path)])
        }
        // One continuous session of seven scenarios, then the debugger's SIGKILL (an unprefixed line): the kill from
        // the app switcher, with its reason.
        let session = analyze("18-creatingstatelab-full-session-sigkill.log")
        #expect(
            session.processes.first?.episodes.map(\.scenario) == [
                .launch, .enterBackground, .returnToForeground, .interruption, .enterBackground, .returnToForeground,
                .enterBackground, .killedInBackground,
            ])
        #expect(session.processes.first?.episodes.last?.confidence == .high)
        #expect(session.processes.first?.exit?.reason == .signal)
        #expect(session.processes.first?.exit?.signal == 9)
        #expect(session.processes.first?.exit?.line == 15)
        #expect(session.processes.first?.launch?.durationMs == 31.461)
        #expect(session.inputs[0].unparsedLines == 0)

        // Seven runs of one app; each relaunch ends the run before it.
        let beacons = analyze("04-ibeacon-backgrounddemo-annotated-multi-run.log")
        #expect(beacons.processes.map(\.pid) == [385, 400, 410, 528, 555, 441, 459])
        #expect(beacons.processes.allSatisfy { $0.launch?.overBudget == false })
        #expect(beacons.inputs[0].unparsedLines == 13)  // the author's "** I hit …" annotations
        #expect(beacons.violations.isEmpty)
        // Document order is not time order: 441 (18:35) follows 555 (21:23) in the file but is no evidence of a kill.
        #expect(
            beacons.processes.map { $0.episodes.last?.scenario } == [
                .killedInBackground, .killedInBackground, .killedInBackground, .killedInBackground, .enterBackground,
                .killedInForeground, .launch,
            ])

        // The bracketless [pid:tid] prefix, CJK text, memory warnings.
        let child = analyze("01-ios5-child-vc-memory-warning.log")
        #expect(child.inputs[0].format == "nslog-untimed")
        #expect(child.processes.first?.episodes.map(\.scenario) == [.memoryWarning])

        // Three bursts of memory warnings in the second pid, each one episode.
        let warnings = analyze("02-vc-lifecycle-memory-warning-2013.log")
        #expect(warnings.processes.last?.episodes.map(\.scenario) == [.memoryWarning, .memoryWarning, .memoryWarning])

        // A big macOS syslog with no app lifecycle: read whole, nothing found, exit 2.
        let mac = analyze("mac-2k.log")
        #expect(mac.inputs[0].lines == 2000)
        #expect(mac.lifecycleEventCount == 0)
        #expect(mac.exitStatus == .inputProblem)
    }
}
