import ArgumentParser
import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@main
struct TraceAnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace-analyze",
        abstract:
            "Turn iOS app-lifecycle logs (NSLog, log show/stream, device syslog, Console.app copies) into timelines, "
            + "scenarios, violations and launch times.",
        usage: "trace-analyze [analyze] [<options>] [<file> ...]",
        discussion: """
            `trace-analyze FILE…` is the same as `trace-analyze analyze FILE…`; \
            `trace-analyze analyze --help` lists every option.

            Exit codes: 0 clean · 1 a finding the failure policy fails on (by default a lifecycle violation, or a \
            launch or resume over budget) · 2 an input problem (an unreadable file, or no lifecycle event in any \
            input) · 64 usage error. `trace-analyze check --help` gives check's.
            """,
        version: TraceAnalyzeVersion.current,
        subcommands: [
            Analyze.self, Check.self, BaselineCommand.self, ConfigCommand.self, Formats.self, VocabularyCommand.self,
        ],
        defaultSubcommand: Analyze.self
    )

    static func main() {
        Terminal.guardStandardStreams()
        // A plain analysis skips swift-argument-parser's reading (a third of a small capture's run); its errors and
        // exit code end the run as swift-argument-parser's `main` ends it.
        if let quick = QuickAnalysis(Array(CommandLine.arguments.dropFirst())) {
            do {
                try Analyze.analyze(quick, quick)
            } catch {
                exit(withError: error)
            }
        }
        main(nil)
    }
}
