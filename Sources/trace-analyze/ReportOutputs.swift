import ArgumentParser
import TraceAnalysis

extension ReportFormat: ExpressibleByArgument {}

/// Where reports go: `--format` on standard output (or `--output`), plus any number of `--report FORMAT=PATH`.
struct ReportOutputs: ParsableArguments {
    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Report format: " + ReportFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".",
            valueName: "FORMAT"))
    var format: ReportFormat = .text

    @Option(name: .long, help: "Write the --format report to this file instead of standard output.")
    var output: String?

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Also write a report in FORMAT to PATH, e.g. `--report html=report.html --report junit=junit.xml`. "
                + "Repeatable.",
            valueName: "FORMAT=PATH"))
    var reports: [String] = []

    @Option(
        name: .long, help: "Colour in the text report: auto (only on a terminal, never with NO_COLOR), always, never.")
    var color: ColorMode = .auto

    @Flag(name: .long, help: "List every recognised event under its process in the text report.")
    var events = false

    /// The extra reports, checked before any input is read.
    func extraReports() throws -> [(ReportFormat, String)] {
        try reports.map { value in
            guard let equals = value.firstIndex(of: "="), let format = ReportFormat(rawValue: String(value[..<equals])),
                equals < value.index(before: value.endIndex)
            else {
                throw AnalysisArguments.invalid(
                    "--report", value,
                    "FORMAT=PATH with FORMAT one of " + ReportFormat.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return (format, String(value[value.index(after: equals)...]))
        }
    }

    /// Writes every report (rendered on up to `jobs` threads). Each is tried whatever became of the others: one
    /// that cannot be written is named on standard error and ends the run with exit code 2 once the others are
    /// written; a reader of standard output that went away (`| head`) stops that report quietly.
    func write(_ report: AnalysisReport, jobs: Int = 1) throws {
        let extra = try extraReports()
        try Self.writeEach([(format, output)] + extra.map { ($0.0, $0.1) }) { format, path in
            try write(report, format, to: path, jobs: jobs)
        }
    }

    /// Writes only the `--report` files (commands whose standard output is their own), like ``write(_:jobs:)``.
    func writeExtra(_ report: AnalysisReport) throws {
        try Self.writeEach(try extraReports().map { ($0.0, $0.1) }) { format, path in
            try write(report, format, to: path)
        }
    }

    private static func writeEach(
        _ outputs: [(ReportFormat, String?)], _ write: (ReportFormat, String?) throws -> Void
    ) throws {
        var failed = false
        for (format, path) in outputs {
            do {
                try write(format, path)
            } catch is Terminal.ReaderGone {
                continue
            } catch {
                Terminal.warn(String(describing: error))
                failed = true
            }
        }
        if failed { throw ExitCode(ExitStatus.inputProblem.rawValue) }
    }

    private func write(_ report: AnalysisReport, _ format: ReportFormat, to path: String?, jobs: Int = 1) throws {
        let destination = try Terminal.Destination(path: path)
        defer { destination.close() }
        let colour = path == nil && Terminal.wantsColor(color.rawValue)
        try format.write(report, color: colour, showEvents: events, jobs: jobs, to: destination.write)
    }
}
