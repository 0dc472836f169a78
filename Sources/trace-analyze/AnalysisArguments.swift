import ArgumentParser
import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every analysing command takes: the inputs, the budgets and thresholds, the configuration file and how
/// to run the batch. Defaults < configuration file < command line. Read by swift-argument-parser
/// (``AnalysisArguments``) or, for the plain analyses most runs ask for, by ``QuickAnalysis``.
protocol AnalysisSettings {
    var files: [String] { get }
    var include: [String] { get }
    var exclude: [String] { get }
    var jobs: Int? { get }
    var noProgress: Bool { get }
    var launchBudget: [String] { get }
    var resumeBudget: [String] { get }
    var watchdog: [String] { get }
    var backgroundGap: String? { get }
    var alertGap: String? { get }
    var memoryWarningWindow: String? { get }
    var prewarmGap: String? { get }
    var failOn: String? { get }
    var inputFormat: String? { get }
    var timezone: String? { get }
    var year: Int? { get }
    /// `--config`.
    var configFile: String? { get }
}

/// ``AnalysisSettings`` as swift-argument-parser reads them.
struct AnalysisArguments: ParsableArguments, AnalysisSettings {
    @Argument(help: "Captures to analyse: files (gzip too), folders (searched recursively), `-` for standard input.")
    var files: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "In folders, read files matching this glob (repeatable; default: "
                + InputCollector.defaultIncludes.joined(separator: " ") + ").", valueName: "GLOB"))
    var include: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("In folders, skip files and folders matching this glob (repeatable).", valueName: "GLOB"))
    var exclude: [String] = []

    @Option(
        name: .long,
        help: "Inputs analysed at once (default: one per core); with two jobs or more per input, each is read ahead.")
    var jobs: Int?

    @Flag(name: .long, help: "No progress bar on standard error (it is shown only on a terminal, for many inputs).")
    var noProgress = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Launch budget to first didBecomeActive (default 400ms); `APP=DURATION` sets one app's. Repeatable.",
            valueName: "[APP=]DURATION"))
    var launchBudget: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Resume budget, willEnterForeground → didBecomeActive (default 200ms); `APP=DURATION` sets one app's.",
            valueName: "[APP=]DURATION"))
    var resumeBudget: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A launch longer than this is watchdog territory (default 20s); `APP=DURATION` sets one app's.",
            valueName: "[APP=]DURATION"))
    var watchdog: [String] = []

    @Option(
        name: .long,
        help:
            "willResignActive → didEnterBackground within this gap is enter-background, else interruption-to-background (default 2s)."
    )
    var backgroundGap: String?

    @Option(
        name: .long,
        help:
            "didBecomeActive → willResignActive within this gap inside an interruption is left-via-alert (default 1s).")
    var alertGap: String?

    @Option(name: .long, help: "Memory warnings closer than this are one memory-warning episode (default 1s).")
    var memoryWarningWindow: String?

    @Option(
        name: .long,
        help:
            "A first line this long before didFinishLaunching means a prewarmed launch, kept out of budget checks (default 10s)."
    )
    var prewarmGap: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Findings that fail the run (exit 1): violations, over-budget, killed-in-foreground, clock-anomalies, "
                + "comma-separated, or none (default: violations,over-budget).",
            valueName: "LIST"))
    var failOn: String?

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

    var configFile: String? { configuration.config }
}

extension AnalysisSettings {
    static func invalid(_ option: String, _ value: String, _ expected: String) -> ValidationError {
        ValidationError(
            String(describing: TraceAnalyzeError.invalidOption(option: option, value: value, expected: expected)))
    }

    /// The options in force: defaults, then the configuration file's settings, then the command line.
    func options(_ config: Configuration) throws -> AnalysisOptions {
        var options = AnalysisOptions()
        config.settings.apply(to: &options)
        options.patternOrigins = config.patternOrigins
        try perApp("--launch-budget", launchBudget, &options.launchBudgetMs, &options.appLaunchBudgetsMs)
        try perApp("--resume-budget", resumeBudget, &options.resumeBudgetMs, &options.appResumeBudgetsMs)
        try perApp("--watchdog", watchdog, &options.watchdogMs, &options.appWatchdogMs)
        if let backgroundGap { options.backgroundGapMs = try milliseconds("--background-gap", backgroundGap) }
        if let alertGap { options.alertGapMs = try milliseconds("--alert-gap", alertGap) }
        if let memoryWarningWindow {
            options.memoryWarningWindowMs = try milliseconds("--memory-warning-window", memoryWarningWindow)
        }
        if let prewarmGap { options.prewarmGapMs = try milliseconds("--prewarm-gap", prewarmGap) }
        if let failOn {
            switch FailurePolicy.parse(list: failOn) {
            case .success(let policy): options.failOn = policy
            case .failure(let unknown):
                throw Self.invalid("--fail-on", unknown.word, "a finding; use \(unknown.expected)")
            }
        }
        options.inputFormat = inputFormat
        if let timezone {
            guard let zone = ZoneSetting(timezone) else {
                throw Self.invalid(
                    "--timezone", timezone, "a time zone; write an IANA name (Europe/Paris), UTC, or an offset (+02:00)"
                )
            }
            options.zone = zone
        }
        if let year {
            guard (1970...9999).contains(year) else {
                throw Self.invalid("--year", String(year), "a year between 1970 and 9999")
            }
            options.year = year
        }
        return options
    }

    /// Reads `DURATION` (the default) and `APP=DURATION` (one app's) values of a repeatable option.
    private func perApp(_ option: String, _ values: [String], _ all: inout Double, _ apps: inout [String: Double])
        throws
    {
        for value in values {
            if let equals = value.lastIndex(of: "=") {
                apps[String(value[..<equals])] = try milliseconds(option, String(value[value.index(after: equals)...]))
            } else {
                all = try milliseconds(option, value)
            }
        }
    }

    private func milliseconds(_ option: String, _ value: String) throws -> Double {
        guard let ms = DurationParser.milliseconds(value) else {
            throw ValidationError(String(describing: TraceAnalyzeError.invalidDuration(option: option, value: value)))
        }
        return ms
    }

    /// The inputs: the files and folders named, else standard input when it is not a terminal.
    func sources() throws -> [InputSource] {
        if files.isEmpty {
            guard isatty(0) == 0 else {
                throw ValidationError(
                    "no input: name a log file or folder, or pipe one in (`log stream … | trace-analyze`)")
            }
            return [.standardInput]
        }
        do {
            return try InputCollector(includes: include, excludes: exclude).collect(files)
        } catch {
            Terminal.warn(String(describing: error))
            throw ExitCode(ExitStatus.inputProblem.rawValue)
        }
    }

    /// The analyser the configuration (its formats, prefixes and vocabulary) and the options describe.
    func analyzer(_ config: Configuration, _ options: AnalysisOptions) throws -> Analyzer {
        do {
            return try Analyzer(
                options: options, formats: config.allFormats, prefixes: config.allPrefixes,
                vocabulary: config.allVocabulary)
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// Reads the configuration, builds the analyser and analyses every input (in parallel, with a progress bar
    /// on a terminal); warns about unreadable inputs and inputs without lifecycle events.
    /// Folders are walked while their first captures are analysed.
    func analyze() throws -> (AnalysisReport, Configuration) {
        let config = try ConfigOptions.load(configFile)
        let options = try options(config)
        let analyzer: Analyzer
        do {
            analyzer = try self.analyzer(config, options)
            if let jobs, jobs < 1 { throw Self.invalid("--jobs", String(jobs), "a number of inputs of at least 1") }
        } catch {
            // The inputs are checked first, as they always were: a folder without captures is what is reported.
            _ = try sources()
            throw error
        }
        // A bar for two inputs or more (the total is known when the walk is over, before the first update).
        let bar = noProgress ? nil : ProgressBar()
        let update = bar.map { bar in
            { @Sendable (progress: BatchProgress) in if progress.total >= 2 { bar.update(progress) } }
        }
        let report: AnalysisReport
        if files.isEmpty {
            report = analyzer.analyze(try sources(), jobs: jobs ?? Terminal.cores, progress: update)
        } else {
            do {
                report = try analyzer.analyze(
                    files, collector: InputCollector(includes: include, excludes: exclude),
                    jobs: jobs ?? Terminal.cores, progress: update)
            } catch {
                Terminal.warn(String(describing: error))
                throw ExitCode(ExitStatus.inputProblem.rawValue)
            }
        }
        bar?.finish()
        for input in report.failedInputs {
            if let error = input.error { Terminal.warn(String(describing: error)) }
        }
        if report.failedInputs.count < report.inputs.count, report.lifecycleEventCount == 0 {
            let names = report.inputs.filter { $0.error == nil }.map { $0.bytes == 0 ? "\($0.name) (empty)" : $0.name }
            Terminal.warn(String(describing: TraceAnalyzeError.noLifecycleEvents(inputs: names)))
        }
        return (report, config)
    }
}
