import ArgumentParser
import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trace-analyze analyze`: parse arguments, run the library, print, map to an exit code. Nothing else.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse captures (the default command).",
        discussion: "With no FILE and standard input not a terminal, the capture is read from standard input.")

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Argument(help: "Log files to analyse; `-` is standard input.")
    var files: [String] = []

    @Option(name: .long, help: "Report format: text or json.")
    var format: ReportFormat = .text

    @Option(name: .long, help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Launch budget to first didBecomeActive (default 400ms); `APP=DURATION` sets one app's budget. Repeatable.",
            valueName: "[APP=]DURATION"))
    var launchBudget: [String] = []

    @Option(name: .long, help: "A launch longer than this is flagged as watchdog territory.")
    var watchdog: String = "20s"

    @Option(
        name: .long,
        help:
            "willResignActive → didEnterBackground within this gap is enter-background, else interruption-to-background."
    )
    var backgroundGap: String = "2s"

    @Option(
        name: .long,
        help: "didBecomeActive → willResignActive within this gap inside an interruption is left-via-alert.")
    var alertGap: String = "1s"

    @Option(name: .long, help: "Memory warnings closer than this are one memory-warning episode.")
    var memoryWarningWindow: String = "1s"

    @Option(
        name: .long,
        help: "A first line this long before didFinishLaunching means a prewarmed launch (kept out of budget checks).")
    var prewarmGap: String = "10s"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Parse every input with this format only, instead of detecting it (`trace-analyze formats` lists them).",
            valueName: "NAME"))
    var inputFormat: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The zone of timestamps written without one: an IANA name (Europe/Paris), UTC, or an offset (+02:00). "
                + "Default: this machine's local zone.",
            valueName: "ZONE"))
    var timezone: String?

    @Option(
        name: .long,
        help:
            "The year of the first line of captures that write none (syslog); default: from the file's modification time."
    )
    var year: Int?

    @OptionGroup var configuration: ConfigOptions

    @Option(
        name: .long, help: "Colour in the text report: auto (only on a terminal, never with NO_COLOR), always, never.")
    var color: ColorMode = .auto

    @Flag(name: .long, help: "List every recognised event under its process in the text report.")
    var events = false

    func run() throws {
        let options = try analysisOptions()
        let sources = try inputSources()
        let config = try configuration.load()
        let analyzer: Analyzer
        do {
            analyzer = try Analyzer(
                options: options, formats: config.allFormats, prefixes: config.allPrefixes,
                vocabulary: config.allVocabulary)
        } catch {
            throw ValidationError(String(describing: error))
        }
        let report = analyzer.analyze(sources)
        for input in report.failedInputs {
            if let error = input.error { Terminal.warn(String(describing: error)) }
        }
        if report.failedInputs.count < report.inputs.count, report.lifecycleEventCount == 0 {
            let names = report.inputs.filter { $0.error == nil }.map(\.name)
            Terminal.warn(String(describing: TraceAnalyzeError.noLifecycleEvents(inputs: names)))
        }

        do {
            let destination = try Terminal.Destination(path: output)
            defer { destination.close() }
            switch format {
            case .json:
                try JSONReporter.write(report, to: destination.write)
            case .text:
                let colour = output == nil && Terminal.wantsColor(color.rawValue)
                try destination.write(Array(TextReporter(color: colour, showEvents: events).render(report).utf8))
            }
        } catch {
            Terminal.warn(String(describing: error))
            throw ExitCode(ExitStatus.inputProblem.rawValue)
        }
        throw ExitCode(report.exitStatus.rawValue)
    }

    private func analysisOptions() throws -> AnalysisOptions {
        var options = AnalysisOptions()
        for budget in launchBudget {
            if let equals = budget.lastIndex(of: "=") {
                let app = String(budget[..<equals])
                options.appLaunchBudgetsMs[app] = try milliseconds(
                    "--launch-budget", String(budget[budget.index(after: equals)...]))
            } else {
                options.launchBudgetMs = try milliseconds("--launch-budget", budget)
            }
        }
        options.watchdogMs = try milliseconds("--watchdog", watchdog)
        options.backgroundGapMs = try milliseconds("--background-gap", backgroundGap)
        options.alertGapMs = try milliseconds("--alert-gap", alertGap)
        options.memoryWarningWindowMs = try milliseconds("--memory-warning-window", memoryWarningWindow)
        options.prewarmGapMs = try milliseconds("--prewarm-gap", prewarmGap)
        options.inputFormat = inputFormat
        if let timezone {
            guard let zone = ZoneSetting(timezone) else {
                throw ValidationError(
                    String(
                        describing: TraceAnalyzeError.invalidOption(
                            option: "--timezone", value: timezone,
                            expected: "a time zone; write an IANA name (Europe/Paris), UTC, or an offset (+02:00)")))
            }
            options.zone = zone
        }
        if let year {
            guard (1970...9999).contains(year) else {
                throw ValidationError(
                    String(
                        describing: TraceAnalyzeError.invalidOption(
                            option: "--year", value: String(year), expected: "a year between 1970 and 9999")))
            }
            options.year = year
        }
        return options
    }

    private func milliseconds(_ option: String, _ value: String) throws -> Double {
        guard let ms = DurationParser.milliseconds(value) else {
            throw ValidationError(String(describing: TraceAnalyzeError.invalidDuration(option: option, value: value)))
        }
        return ms
    }

    private func inputSources() throws -> [InputSource] {
        if files.isEmpty {
            guard isatty(0) == 0 else {
                throw ValidationError("no input: name a log file, or pipe one in (`log stream … | trace-analyze`)")
            }
            return [.standardInput]
        }
        return files.map { $0 == "-" ? .standardInput : .file($0) }
    }
}
