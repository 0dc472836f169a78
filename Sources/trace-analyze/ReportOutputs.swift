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

    /// Writes every report (rendered on up to `jobs` threads); a report that cannot be written ends the run with
    /// exit code 2.
    func write(_ report: AnalysisReport, jobs: Int = 1) throws {
        let extra = try extraReports()
        do {
            try write(report, format, to: output, jobs: jobs)
            for (format, path) in extra { try write(report, format, to: path, jobs: jobs) }
        } catch {
            Terminal.warn(String(describing: error))
            throw ExitCode(ExitStatus.inputProblem.rawValue)
        }
    }

    /// Writes only the `--report` files (commands whose standard output is their own).
    func writeExtra(_ report: AnalysisReport) throws {
        do {
            for (format, path) in try extraReports() { try write(report, format, to: path) }
        } catch let error as TraceAnalyzeError {
            Terminal.warn(String(describing: error))
            throw ExitCode(ExitStatus.inputProblem.rawValue)
        }
    }

    private func write(_ report: AnalysisReport, _ format: ReportFormat, to path: String?, jobs: Int = 1) throws {
        let destination = try Terminal.Destination(path: path)
        defer { destination.close() }
        let colour = path == nil && Terminal.wantsColor(color.rawValue)
        try format.write(report, color: colour, showEvents: events, jobs: jobs, to: destination.write)
    }
}
