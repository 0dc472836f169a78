import Foundation
import Testing

@testable import TraceAnalysis

/// What a batch does after its last input on several threads gives the bytes it gives on one.
@Suite("Parallel reports")
struct ParallelReportTests {
    static func bytes(_ report: AnalysisReport, _ format: ReportFormat, color: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        format.write(report, color: color, showEvents: color) { bytes += $0 }
        return bytes
    }

    @Test func reportsRenderedAheadAreTheBytesOfReportsRenderedInTurn() throws {
        let report = try TestSupport.analyzeAllSamples()
        let formats = ReportFormat.allCases
        // Every format first (written at once) and later (rendered ahead), twice over, in colour and not.
        let entries = (formats + formats.reversed() + [.markdown, .junit, .text]).enumerated().map { index, format in
            ReportSet.Entry(format: format, color: index % 2 == 0, showEvents: index % 2 == 0)
        }
        for jobs in [1, 2, 4] {
            let reports = ReportSet(report, entries, jobs: jobs)
            for (index, entry) in entries.enumerated() {
                var bytes: [UInt8] = []
                reports.write(index) { bytes += $0 }
                #expect(
                    bytes == Self.bytes(report, entry.format, color: entry.color),
                    "\(entry.format) at \(index) with \(jobs) jobs")
            }
        }
    }

    /// The text, JSON, HTML and JUnit reports arrive in pieces of about the chunk size (their text never exists
    /// whole), with the same bytes at any number of jobs and any chunk size.
    @Test func streamedReportsArriveInPiecesWithTheSameBytes() throws {
        let report = try TestSupport.analyzeAllSamples()
        typealias Writer = (Int, Int, ([UInt8]) -> Void) -> Void
        let writers: [(String, Writer)] = [
            ("text", { TextReporter().write(report, jobs: $0, chunkSize: $1, to: $2) }),
            ("html", { HTMLReporter.write(report, jobs: $0, chunkSize: $1, to: $2) }),
            ("junit", { JUnitReporter.write(report, jobs: $0, chunkSize: $1, to: $2) }),
        ]
        for (name, write) in writers {
            var whole: [UInt8] = []
            var pieces = 0
            write(1, 1 << 30) {
                whole += $0; pieces += 1
            }
            #expect(pieces == 1, "\(name): one piece when the chunk is larger than the report")
            for jobs in [1, 3] {
                var bytes: [UInt8] = []
                var sizes: [Int] = []
                write(jobs, 1024) {
                    bytes += $0; sizes.append($0.count)
                }
                #expect(bytes == whole, "\(name) with \(jobs) jobs")
                #expect(sizes.count > 3, "\(name): \(sizes.count) pieces for \(whole.count) bytes")
                // A piece is flushed as soon as it reaches the chunk size: none between the first (which has the
                // report's head: the HTML page's style sheet and charts) and the last holds more than the chunk
                // size plus one process's text.
                #expect(
                    sizes.dropFirst().dropLast().allSatisfy { $0 >= 1024 && $0 < 1024 + 30_000 }, "\(name): \(sizes)")
            }
        }
    }

    @Test func aReportSetWrittenOutOfOrderOrNotAtAllLeavesNothingWaiting() throws {
        let report = try TestSupport.analyzeSample("background-and-exits.log")
        let entries = [ReportFormat.text, .markdown, .junit, .html, .github].map { ReportSet.Entry(format: $0) }
        let reports = ReportSet(report, entries, jobs: 3)
        for index in [4, 2, 0] {
            var bytes: [UInt8] = []
            reports.write(index) { bytes += $0 }
            #expect(bytes == Self.bytes(report, entries[index].format))
        }
    }

    /// The processes of each input, looked up a run at a time: in order, an input's runs together however the
    /// inputs interleave (a name given twice, processes of several inputs in one part, a part spilled to a file).
    @Test func processesByInputKeepOrderWhateverTheRuns() throws {
        let sample = try TestSupport.analyzeSample("background-and-exits.log")
        let one = try #require(sample.processes.first)
        func process(_ input: String) -> ProcessReport {
            var process = one
            process.input = input
            return process
        }
        var report = sample
        report.processes = ProcessReports(["a", "a", "b", "a", "c", "b"].map(process))
        #expect(report.processIndicesByInput == ["a": [0, 1, 3], "b": [2, 5], "c": [4]])
        var runs: [(String, Range<Int>)] = []
        report.processes.forEachInputRun { runs.append(($0, $1)) }
        #expect(runs.map(\.0) == ["a", "b", "a", "c", "b"])
        #expect(runs.map(\.1) == [0..<2, 2..<3, 3..<4, 4..<5, 5..<6])
        // Spilled parts (each all of one input) among parts in memory.
        let spilled = try TestSupport.analyzer {
            $0.year = TestSupport.sampleYear
            $0.spillThreshold = 0
        }.analyze(
            TestSupport.sampleNames.prefix(3).map { InputSource.bytes(name: $0, try BatchTests.sample($0)) }, jobs: 1)
        #expect(spilled.processes.isSpilled)
        report.processes = ProcessReports(
            concatenating: [ProcessReports([process("x")]), spilled.processes, ProcessReports([process("x")])])
        var expected: [String: [Int]] = ["x": [0, report.processes.count - 1]]
        for index in spilled.processes.indices {
            let input = spilled.processes.withReport(at: index, events: false) { $0.input }
            expected[input, default: []].append(index + 1)
        }
        #expect(report.processIndicesByInput == expected)
    }

    /// With more than one job the aggregate is added up on another thread as the reports start, for the formats
    /// that show it (the per-app table of the text, JSON, HTML and Markdown reports, JSON Lines' closing line); a
    /// report written then has the bytes of one written alone.
    @Test func theAggregateWorkedOutAheadLeavesTheBytes() throws {
        #expect(ReportFormat.allCases.filter(\.showsAggregate) == [.text, .json, .markdown, .html, .jsonl])
        for format in ReportFormat.allCases where format.showsAggregate {
            let report = try TestSupport.analyzeAllSamples()
            let reports = ReportSet(report, [ReportSet.Entry(format: format)], jobs: 2)
            var bytes: [UInt8] = []
            reports.write(0) { bytes += $0 }
            #expect(bytes == Self.bytes(report, format), "\(format)")
        }
    }

    @Test func whatReportsAddUpIsWorkedOutAgainAfterAChange() throws {
        var report = try TestSupport.analyzeAllSamples()
        let failing = CIFinding.all(in: report).filter(\.failing).count
        #expect(failing > 0)
        #expect(report.exitStatus == .findings)
        let markdown = MarkdownReporter.render(report)
        // A copy keeps what was worked out; a changed report is worked out anew.
        let copy = report
        report.options.failOn = FailurePolicy([])
        #expect(CIFinding.all(in: report).filter(\.failing).isEmpty)
        #expect(report.exitStatus == .clean)
        #expect(MarkdownReporter.render(copy) == markdown)
        #expect(CIFinding.all(in: copy).filter(\.failing).count == failing)
        let processes = report.processes.count
        report.processes = ProcessReports(Array(report.processes.prefix(1)))
        #expect(report.aggregate.apps.reduce(0) { $0 + $1.processes } == 1)
        #expect(copy.aggregate.apps.reduce(0) { $0 + $1.processes } == processes)
        report.inputs = []
        #expect(report.processIndicesByInput.count == 1)
        #expect(report.totals.episodes == report.processes[0].episodes.count)
    }
}
