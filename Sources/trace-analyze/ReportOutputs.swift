import ArgumentParser
import TraceAnalysis

extension ReportFormat: StringCaseArgument {}

/// An option's value that is one of a `String` enum's cases, listed in help and completions as its raw values.
/// swift-argument-parser's own lists build a key path and interpolate each case, and it builds a command's argument
/// set three times whatever the arguments: 1.5 M instructions of every run's start-up for these two options.
protocol StringCaseArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension StringCaseArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// None: a case's description is its raw value (the parser lists descriptions that differ from it).
    public static var allValueDescriptions: [String: String] { [:] }
}

/// Where reports go: `--format` on standard output (or `--output`), plus any number of `--report FORMAT=PATH`. Read
/// by swift-argument-parser (``ReportOutputs``) or by ``QuickAnalysis``.
protocol OutputSettings {
    var format: ReportFormat { get }
    var output: String? { get }
    var reports: [String] { get }
    var color: ReportOutputs.ColorMode { get }
    var events: Bool { get }
}

/// ``OutputSettings`` as swift-argument-parser reads them.
struct ReportOutputs: ParsableArguments, OutputSettings {
    enum ColorMode: String, StringCaseArgument {
        case auto, always, never
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Report format: " + ReportFormat.allValueStrings.joined(separator: ", ") + ".",
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

    /// `FORMAT=PATH` values of `--report`, checked.
    static func parse(_ reports: [String]) throws -> [(ReportFormat, String)] {
        try reports.map { value in
            guard let equals = value.firstIndex(of: "="), let format = ReportFormat(rawValue: String(value[..<equals])),
                equals < value.index(before: value.endIndex)
            else {
                throw AnalysisArguments.invalid(
                    "--report", value,
                    "FORMAT=PATH with FORMAT one of " + ReportFormat.allValueStrings.joined(separator: ", "))
            }
            return (format, String(value[value.index(after: equals)...]))
        }
    }

    /// Writes only `--report` files, for commands whose standard output is their own (`check`): like
    /// ``OutputSettings/write(_:jobs:)``, in the reports' plain forms.
    static func writeExtra(_ report: AnalysisReport, reports: [String]) throws {
        let outputs = try parse(reports)
        let reports = ReportSet(report, outputs.map { ReportSet.Entry(format: $0.0) }, jobs: 1)
        try writeEach(outputs.map(\.1)) { index, path in try write(reports, index, to: path) }
    }

    /// Writes each report (by its index in `paths`) to its path, in order.
    fileprivate static func writeEach(_ paths: [String?], _ write: (Int, String?) throws -> Void) throws {
        var failed = false
        for (index, path) in paths.enumerated() {
            do {
                try write(index, path)
            } catch is Terminal.ReaderGone {
                continue
            } catch {
                Terminal.warn(String(describing: error))
                failed = true
            }
        }
        if failed { throw ExitCode(ExitStatus.inputProblem.rawValue) }
    }

    fileprivate static func write(_ reports: ReportSet, _ index: Int, to path: String?) throws {
        let destination = try Terminal.Destination(path: path)
        defer { destination.close() }
        try reports.write(index, to: destination.write)
    }
}

extension OutputSettings {
    /// The extra reports, checked before any input is read.
    func extraReports() throws -> [(ReportFormat, String)] { try ReportOutputs.parse(reports) }

    /// Writes every report, in order (rendered on up to `jobs` threads; those rendered whole are rendered ahead
    /// while the ones before them are written, see ``ReportSet``). Each is tried whatever became of the others: one
    /// that cannot be written is named on standard error and ends the run with exit code 2 once the others are
    /// written; a reader of standard output that went away (`| head`) stops that report quietly.
    func write(_ report: AnalysisReport, jobs: Int = 1) throws {
        let extra = try extraReports()
        let colour = Terminal.wantsColor(color.rawValue)
        let outputs = [(format, output)] + extra.map { ($0.0, Optional($0.1)) }
        let reports = ReportSet(
            report,
            outputs.map { ReportSet.Entry(format: $0.0, color: $0.1 == nil && colour, showEvents: events) },
            jobs: jobs)
        try ReportOutputs.writeEach(outputs.map(\.1)) { index, path in
            try ReportOutputs.write(reports, index, to: path)
        }
    }
}
