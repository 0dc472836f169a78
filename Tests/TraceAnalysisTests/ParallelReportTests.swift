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
