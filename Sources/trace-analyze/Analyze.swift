import ArgumentParser
import TraceAnalysis

/// `trace-analyze analyze`: parse arguments, run the library, write the reports, map to an exit code.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse captures (the default command).",
        discussion: """
            With no FILE and standard input not a terminal, the capture is read from standard input. Folders are \
            searched recursively; gzip-compressed captures are read as they are; inputs are analysed in parallel \
            and reported in the order given (folders: in path order).
            """)

    @OptionGroup var analysis: AnalysisArguments
    @OptionGroup var outputs: ReportOutputs

    func run() throws {
        _ = try outputs.extraReports()
        let (report, _) = try analysis.analyze()
        try outputs.write(report, jobs: analysis.jobs ?? Terminal.cores)
        throw ExitCode(report.exitStatus.rawValue)
    }
}
