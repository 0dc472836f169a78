import ArgumentParser
import TraceAnalysis

/// `trace-analyze analyze`: parse arguments, run the library, write the reports, map to an exit code.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse captures (the default command).",
        discussion: """
            With no FILE and standard input not a terminal, the capture is read from standard input. Folders are \
            searched recursively; gzip-compressed captures are read as they are; inputs are analysed in parallel \
            and reported in the order given (folders: in path order).

            --follow analyses one input live (`log stream … | trace-analyze --follow`, or `--follow FILE`): \
            a compact line per finding as soon as it is decided (--format jsonl: one JSON object per finding), \
            corrections when a later line changes one, and the summary at the end of input or on Ctrl-C, with \
            the same exit codes.
            """)

    @OptionGroup var analysis: AnalysisArguments
    @OptionGroup var outputs: ReportOutputs

    @Flag(
        name: .long,
        help: """
            Live mode: read standard input (or follow FILE like `tail -F`) and print each episode, violation and \
            launch result as soon as it is decided; the end of input or Ctrl-C prints the summary.
            """)
    var follow = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --follow: after this long without input, decide what waits on time (default \(LiveRun.defaultIdle)).",
            valueName: "DURATION"))
    var idle: String?

    func run() throws {
        if follow { return try LiveRun(analysis: analysis, outputs: outputs, idle: idle).run() }
        if idle != nil { throw AnalysisArguments.invalid("--idle", idle ?? "", "used without --follow") }
        try Self.analyze(analysis, outputs)
    }

    /// Analyses the inputs and writes the reports; ends with the exit code, thrown.
    static func analyze(_ analysis: some AnalysisSettings, _ outputs: some OutputSettings) throws -> Never {
        _ = try outputs.extraReports()
        let (report, _) = try analysis.analyze()
        try outputs.write(report, jobs: analysis.jobs ?? Terminal.cores)
        Terminal.leaveToExit(report)
        throw ExitCode(report.exitStatus.rawValue)
    }
}
