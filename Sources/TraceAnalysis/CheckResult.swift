/// The verdict of `trace-analyze check`: the analysis, compared with a baseline and checked against expected
/// scenario sequences when asked.
///
/// Without a baseline the failure policy decides (as `analyze` does). With one, only what is new fails: a
/// violation kind (app, rule, event) the baseline does not hold, or a launch or resume p90 slower than the
/// baseline's by more than the tolerance. An unmet `--expect` fails either way.
public struct CheckResult: Sendable {
    public var report: AnalysisReport
    public var baselineFile: String?
    public var comparison: BaselineComparison?
    public var expectation: ScenarioExpectation?
    public var outcomes: [ScenarioExpectation.Outcome]

    public init(
        report: AnalysisReport, baseline: Baseline? = nil, baselineFile: String? = nil, tolerance: Double = 0.1,
        expectation: ScenarioExpectation? = nil
    ) {
        self.report = report
        self.baselineFile = baselineFile
        comparison = baseline.map { BaselineComparison(baseline: $0, report: report, tolerance: tolerance) }
        self.expectation = expectation
        outcomes = expectation?.check(report) ?? []
    }

    /// `check`'s exit codes (also in the README).
    public enum Status: Int32, Sendable {
        /// Nothing new, every expectation met.
        case passed = 0
        /// A new violation, a slower app, an unmet expectation (or, without a baseline, a failing finding).
        case failed = 1
        /// An input could not be read, or no input held a lifecycle event.
        case inputProblem = 2
        /// The baseline file could not be read or is not a baseline.
        case badBaseline = 3
        /// The command line was wrong.
        case usage = 64
    }

    public var status: Status {
        if report.exitStatus == .inputProblem { return .inputProblem }
        if outcomes.contains(where: { !$0.met }) { return .failed }
        if let comparison { return comparison.regressed ? .failed : .passed }
        return report.failingFindings.isEmpty ? .passed : .failed
    }

    /// The verdict for a person (and a CI log): what is new, what is fixed, what got slower or faster.
    public func text(color: Bool = false) -> String {
        let paint = TextReporter(color: color)
        var out = "trace-analyze check: \(report.inputs.count) input\(report.inputs.count == 1 ? "" : "s"), "
        out += "\(report.processes.count) process\(report.processes.count == 1 ? "" : "es")"
        if let comparison, let baselineFile {
            out += ", against \(baselineFile) (tolerance \(Self.percent(comparison.tolerance)))"
        }
        out += "\n"
        if let comparison {
            out += section("new violations", comparison.newViolations.count)
            for new in comparison.newViolations {
                let first = new.occurrences.first
                let place = first.map { " — \(Sanitizer.terminal($0.input)):\($0.line)" } ?? ""
                let more = new.occurrences.count > 1 ? " (and \(new.occurrences.count - 1) more)" : ""
                out += paint.red("    ✗ \(Sanitizer.terminal(new.key.description))") + place + more + "\n"
                if let first { out += "      \(Sanitizer.terminal(first.message))\n" }
            }
            out += section("fixed violations", comparison.fixedViolations.count)
            for key in comparison.fixedViolations {
                out += paint.green("    ✓ \(Sanitizer.terminal(key.description))") + "\n"
            }
            out += section("slower", comparison.slower.count)
            for change in comparison.slower { out += paint.red("    ✗ " + describe(change)) + "\n" }
            out += section("faster", comparison.faster.count)
            for change in comparison.faster { out += paint.green("    ✓ " + describe(change)) + "\n" }
            if !comparison.regressed {
                out += "  nothing new: no violation kind the baseline does not hold, no p90 slower by more than "
                out += "\(Self.percent(comparison.tolerance))\n"
            }
            if !comparison.unmeasured.isEmpty {
                out += "  not measured now: \(comparison.unmeasured.map(Sanitizer.terminal).joined(separator: ", "))\n"
            }
        } else {
            let failing = report.failingFindings
            out += "  findings that fail the run: "
            out +=
                failing.isEmpty
                ? "none\n" : paint.red(failing.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")) + "\n"
        }
        if let expectation {
            let expected = expectation.scenarios.map(\.rawValue).joined(separator: ", ")
            out += "  expected scenarios: \(expected)\n"
            for outcome in outcomes {
                let who = outcome.app.map { " \(Sanitizer.terminal($0))" } ?? ""
                if outcome.met {
                    out += paint.green("    ✓ \(Sanitizer.terminal(outcome.input))\(who)") + "\n"
                } else {
                    let got = outcome.problem ?? "got " + outcome.actual.map(\.rawValue).joined(separator: ", ")
                    out += paint.red("    ✗ \(Sanitizer.terminal(outcome.input))\(who): \(got)") + "\n"
                }
            }
        }
        switch status {
        case .passed: out += "result: " + paint.green("passed") + " (exit 0)\n"
        case .failed: out += "result: " + paint.red("failed") + " (exit 1)\n"
        case .inputProblem: out += "result: " + paint.red("input problem") + " (exit 2)\n"
        case .badBaseline, .usage: break
        }
        return out
    }

    private func section(_ title: String, _ count: Int) -> String { count == 0 ? "" : "  \(title) (\(count)):\n" }

    private func describe(_ change: BaselineComparison.Change) -> String {
        let sign = change.ratio >= 0 ? "+" : ""
        return "\(Sanitizer.terminal(change.app)) \(change.metric) p90 \(DurationFormat.text(change.baselineMs)) → "
            + "\(DurationFormat.text(change.nowMs)) (\(sign)\(Self.percent(change.ratio)))"
    }

    static func percent(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "new" }
        return "\(DurationFormat.trim(DurationFormat.round(ratio * 100, 1)))%"
    }

    /// Parses a tolerance: `10%`, `0.1` or `10` (read as percent when above 1).
    public static func tolerance(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: " ")
        let isPercent = trimmed.hasSuffix("%")
        guard let value = Double(isPercent ? String(trimmed.dropLast()) : trimmed), value >= 0, value.isFinite else {
            return nil
        }
        return isPercent || value > 1 ? value / 100 : value
    }
}
