import Foundation
import Testing

@testable import TraceAnalysis

/// The fuzz target's checks (``PipelineCheck``) on the inputs the fuzzer found problems with, kept in
/// `Fixtures/fuzz/` as the raw bytes libFuzzer minimised (see Documentation/Fuzzing.md), and on the samples.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/TraceAnalysisTests/Fixtures/fuzz")

    static var fixtureNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }

    @Test(arguments: fixtureNames)
    func foundByTheFuzzer(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
        #expect(PipelineCheck.run(bytes) == [])
    }

    /// What the fuzzer starts from holds, read with detection as the command line does and forced to every
    /// format (most lines then parse as no record: the accounting must still add up).
    @Test(arguments: TestSupport.sampleNames)
    func samplesHold(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: TestSupport.samples.appendingPathComponent(name)))
        #expect(PipelineCheck.run(bytes) == [])
        for index in PipelineCheck.formatIDs.indices {
            let problems = PipelineCheck.run([PipelineCheck.formatSelector, UInt8(index)] + bytes)
            #expect(problems == [], "read as \(PipelineCheck.formatIDs[index])")
        }
    }

    @Test func selectorPicksTheFormat() {
        #expect(PipelineCheck.split(Array("plain".utf8)).format == nil)
        #expect(PipelineCheck.split([PipelineCheck.formatSelector]).format == nil)
        let (format, capture) = PipelineCheck.split([PipelineCheck.formatSelector, 1] + Array("x".utf8))
        #expect(format == PipelineCheck.formatIDs[1])
        #expect(Array(capture) == Array("x".utf8))
        let wrapped = PipelineCheck.split([PipelineCheck.formatSelector, UInt8(PipelineCheck.formatIDs.count)])
        #expect(wrapped.format == PipelineCheck.formatIDs[0])
    }

    /// Found by the fuzzer: a resume whose didBecomeActive is stamped before its willEnterForeground (the clock went
    /// backwards) had a negative duration, was judged against the budget, and sent the HTML histogram (more than 12
    /// resumes on one spot) to a negative bin. Such a resume, or launch, is now reported but not timed.
    @Test func durationsWhereTheClockWentBackwardsAreNotTimed() throws {
        var notation = "0.000 application:didFinishLaunchingWithOptions:\n0.100 applicationDidBecomeActive:\n"
        for index in 0..<14 {
            let start = 10.0 * Double(index + 1)
            notation += "\(start) applicationWillResignActive:\n\(start + 0.1) applicationDidEnterBackground:\n"
            notation += "\(start + 5) applicationWillEnterForeground:\n"
            // The last resume's didBecomeActive is stamped 300 s before its willEnterForeground.
            notation += "\(index == 13 ? start - 295 : start + 5.05) applicationDidBecomeActive:\n"
        }
        notation += "200.000 @200 application:didFinishLaunchingWithOptions:\n199.000 applicationDidBecomeActive:\n"
        let (report, capture) = try TestSupport.analyzeExample(notation)
        let resumes = report.processes[0].episodes.filter { $0.scenario == .returnToForeground }
        #expect(resumes.count == 14)
        #expect(report.timedResumes.count == 13)
        #expect(resumes.last?.budgetMs == nil)
        #expect(resumes.last?.evidence.contains("the clock went backwards") == true)
        let launch = try #require(report.processes.last?.launch)
        #expect(launch.durationMs == -1000)
        #expect(launch.excluded)
        #expect(launch.excludedReason == "the clock went backwards during the launch")
        #expect(report.measuredLaunches.count == 1)
        #expect(HTMLReporter.render(report).contains("resume-chart"))
        #expect(PipelineCheck.run(Array(capture.text.utf8)) == [])
    }

    /// Repeat counts of up to 18 digits summed past `Int.max` trapped; the sum now saturates.
    @Test func repeatCountsSaturate() throws {
        let line = "--- last message repeated 999999999999999999 times ---\n"
        let report = try TestSupport.analyzer().analyze(text: String(repeating: line, count: 10), name: "repeats")
        #expect(report.inputs[0].repeatedMessages == Int.max)
        #expect(report.inputs[0].records == 10)
    }

    /// The check finds what it is there to find: a report with a line nobody accounted for.
    @Test func brokenAccountingIsReported() throws {
        var report = try TestSupport.analyzer().analyze(text: "a\nb\n", name: "fuzz")
        report.inputs[0].unparsedLines -= 1
        let problems = PipelineCheck.problems(report, bytes: Array("a\nb\n".utf8))
        #expect(problems.count == 1)
        #expect(problems.first?.contains("2 lines but") == true)
    }
}
