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
    func extraReports() throws -> [(ReportFormat, String)] { try Self.parse(reports) }

    /// `FORMAT=PATH` values of `--report`, checked.
    static func parse(_ reports: [String]) throws -> [(ReportFormat, String)] {
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
        let colour = Terminal.wantsColor(color.rawValue)
        try Self.writeEach([(format, output)] + extra.map { ($0.0, $0.1) }) { format, path in
            try Self.write(report, format, to: path, color: path == nil && colour, showEvents: events, jobs: jobs)
        }
    }

    /// Writes only `--report` files, for commands whose standard output is their own (`check`): like
    /// ``write(_:jobs:)``, in the reports' plain forms.
    static func writeExtra(_ report: AnalysisReport, reports: [String]) throws {
        try writeEach(try parse(reports).map { ($0.0, $0.1) }) { format, path in
            try write(report, format, to: path, color: false, showEvents: false, jobs: 1)
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

    private static func write(
        _ report: AnalysisReport, _ format: ReportFormat, to path: String?, color: Bool, showEvents: Bool, jobs: Int
    ) throws {
        let destination = try Terminal.Destination(path: path)
        defer { destination.close() }
        try format.write(report, color: color, showEvents: showEvents, jobs: jobs, to: destination.write)
    }
}
