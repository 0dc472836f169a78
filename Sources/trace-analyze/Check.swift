import ArgumentParser
import TraceAnalysis

/// `trace-analyze check`: a CI gate. Analyses like `analyze`, then compares with a baseline and checks expected
/// scenario sequences; prints what is new, fixed, slower and faster.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Gate CI on captures: fail only on what is new against a baseline, or on unmet expectations.",
        discussion: """
            Without --baseline, the failure policy decides (as analyze does). With it, only new violation kinds \
            (app, rule, event) and launch or resume p90s slower than the baseline's by more than --tolerance fail.
            Exit codes: 0 passed · 1 failed (new violation, slower, unmet --expect) · 2 an input problem · \
            3 the baseline cannot be read · 64 usage error.
            """)

    @Option(name: .long, help: "An accepted baseline (written by `trace-analyze baseline`).")
    var baseline: String?

    @Option(name: .long, help: "How much slower a p90 may get before it fails: 10%, 0.1 (default 10%).")
    var tolerance: String = "10%"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Scenario ids the app must have produced, in order, in every input (launch,enter-background,…).",
            valueName: "LIST"))
    var expect: String?

    @Option(name: .long, help: "The app (process name) --expect is about, when an input holds several.")
    var app: String?

    @OptionGroup var analysis: AnalysisArguments

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Also write the analysis as FORMAT to PATH (`--report junit=junit.xml`). Repeatable.",
            valueName: "FORMAT=PATH"))
    var reports: [String] = []

    func run() throws {
        guard let tolerance = CheckResult.tolerance(tolerance) else {
            throw AnalysisArguments.invalid("--tolerance", self.tolerance, "a tolerance like 10% or 0.1")
        }
        let expectation: ScenarioExpectation?
        do {
            expectation = try expect.map { try ScenarioExpectation($0, app: app) }
        } catch {
            throw ValidationError(String(describing: error))
        }
        // Checked before any input is read. (A `ReportOutputs` made here would have no parsed options to read.)
        _ = try ReportOutputs.parse(reports)
        var accepted: Baseline?
        if let baseline {
            do {
                accepted = try Baseline.load(path: baseline)
            } catch {
                Terminal.warn(String(describing: error))
                throw ExitCode(CheckResult.Status.badBaseline.rawValue)
            }
        }
        let (report, _) = try analysis.analyze()
        try ReportOutputs.writeExtra(report, reports: reports)
        let result = CheckResult(
            report: report, baseline: accepted, baselineFile: baseline, tolerance: tolerance, expectation: expectation)
        try Terminal.print(result.text(color: Terminal.wantsColor("auto")))
        throw ExitCode(result.status.rawValue)
    }
}

/// `trace-analyze baseline --output FILE captures/`: writes the accepted state of the captures.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Write a baseline (known violations by app, rule and event; launch and resume p90 per app).",
        discussion: "Commit the file; `trace-analyze check --baseline FILE` then fails only on what is new.")

    @Option(name: .long, help: "Where to write the baseline (JSON).")
    var output: String

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let (report, _) = try analysis.analyze()
        if report.exitStatus == .inputProblem { throw ExitCode(ExitStatus.inputProblem.rawValue) }
        let baseline = Baseline(report)
        do {
            let destination = try Terminal.Destination(path: output)
            defer { destination.close() }
            try destination.write(Array(baseline.json().utf8))
        } catch {
            Terminal.warn(String(describing: error))
            throw ExitCode(ExitStatus.inputProblem.rawValue)
        }
        let apps = baseline.apps.count
        let kinds = baseline.violations.count
        Terminal.say(
            "\(output): \(apps) app\(apps == 1 ? "" : "s") timed, \(kinds) known violation kind\(kinds == 1 ? "" : "s") "
                + "from \(report.inputs.count) input\(report.inputs.count == 1 ? "" : "s")")
    }
}

/// `trace-analyze config --effective`: the configuration in force, as a file that could be used as it is.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the configuration in force (defaults, the configuration file, the command line's options).")

    @Flag(name: .long, help: "Print the effective configuration (YAML) with where each value comes from.")
    var effective = false

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        guard effective else { throw ValidationError("say what to print: `trace-analyze config --effective`") }
        let config = try analysis.configuration.load()
        let options = try analysis.options(config)
        try Terminal.print(config.effectiveYAML(options: options))
    }
}
