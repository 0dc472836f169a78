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

    /// swift-argument-parser's `main`, but for a plain analysis's command line, which `QuickAnalysis` reads, and
    /// for the exit code every run throws at its end, which the parser's `exit(withError:)` would first describe
    /// (2.7 M instructions: the command's usage, built by reflection) only to print nothing.
    static func main() {
        Terminal.guardStandardStreams()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if let quick = QuickAnalysis(arguments) { try Analyze.analyze(quick, quick) }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let code as ExitCode {
            leave(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

/// `exit(3)`, which the command's own `exit(withError:)` hides.
private func leave(_ code: Int32) -> Never { exit(code) }
