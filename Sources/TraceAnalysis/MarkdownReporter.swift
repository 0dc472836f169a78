/// Renders a report as GitHub-flavoured Markdown for a pull-request comment or a job summary
/// (`$GITHUB_STEP_SUMMARY`): the result with its exit code, a table per app, the findings, the scenarios and a
/// table per input. See `Documentation/CIReports.md`.
///
/// Every piece of text that comes from a log or a file name is escaped (`String.markdownEscaped`), so a
/// process called `a|b` cannot break a table and one called `@team` cannot mention anybody.
public enum MarkdownReporter {
    /// Findings listed before "… and N more": a comment stays readable and far below GitHub's 65,536 characters.
    static let findingLimit = 25
    /// Above this many inputs the per-input table is folded into a `<details>` block.
    static let foldedInputs = 10

    public static func render(_ report: AnalysisReport) -> String {
        // Its list is the first `findingLimit` of the digest's.
        let findings = report.ciDigest
        var out = title(report) + "\n\n" + overview(report)
        out += apps(report.aggregate)
        out += findingList(findings, report)
        out += scenarios(report)
        out += inputs(report.aggregate, report, findings)
        return out
    }

    // MARK: Sections

    private static func title(_ report: AnalysisReport) -> String {
        let code = report.exitStatus.rawValue
        switch report.exitStatus {
        case .clean, .usage:
            return "## ✅ trace-analyze: clean (exit \(code))"
        case .findings:
            let counts = report.failingFindings.map { count(of: $0.0, $0.1) }.joined(separator: ", ")
            return "## ❌ trace-analyze: \(counts) (exit \(code))"
        case .inputProblem:
            return "## ⚠️ trace-analyze: \(report.resultSummary) (exit \(code))"
        }
    }

    /// One line of totals, then what was reported without failing the run.
    private static func overview(_ report: AnalysisReport) -> String {
        // One pass over the processes for every count (the report's totals).
        let totals = report.totals
        let resumes = totals.timedResumes
        var parts = [
            plural(report.inputs.count, "input"), plural(report.processes.count, "process", "processes"),
            plural(totals.episodes, "episode"),
            "\(plural(totals.launches, "launch", "launches")) (\(totals.measuredLaunches) measured, "
                + "\(totals.launchesOverBudget) over budget)",
        ]
        if resumes > 0 {
            parts.append("\(plural(resumes, "timed resume")) (\(totals.resumesOverBudget) over budget)")
        }
        var out = parts.joined(separator: " · ") + "  \n"
        out += "Fails on: `\(report.failOnDescription)`"
        let counts = report.findingCounts
        let reported = FailurePolicy.Finding.allCases.compactMap { finding -> String? in
            guard !report.options.failOn.fails(on: finding), let count = counts[finding], count > 0 else { return nil }
            return "\(count) \(finding.rawValue)"
        }
        if !reported.isEmpty { out += " · reported, not failing: " + reported.joined(separator: ", ") }
        let unreadable = report.failedInputs
        if !unreadable.isEmpty {
            out += "  \nUnreadable: "
            out += unreadable.map { ($0.error.map { String(describing: $0) } ?? $0.name).markdownEscaped }
                .joined(separator: "; ")
        }
        return out + "\n"
    }

    private static func apps(_ aggregate: Aggregate) -> String {
        guard !aggregate.apps.isEmpty else { return "" }
        var out = "\n### Apps\n\n"
        out += "| App | Launches | Min | p50 | p90 | p99 | Max | Over budget (budget) | Resumes p50/p90 | Violations "
        out += "| Unclean exits |\n"
        out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
        for app in aggregate.apps {
            var launches = app.launches.map { "\($0.count)" } ?? "0"
            if app.launchesExcluded > 0 { launches += " (+\(app.launchesExcluded) not checked)" }
            let figures: [String] =
                app.launches.map { stats in
                    [stats.minMs, stats.p50Ms, stats.p90Ms, stats.p99Ms, stats.maxMs].map(DurationFormat.text)
                } ?? Array(repeating: "–", count: 5)
            var over = "\(app.launches?.overBudget ?? 0) (\(DurationFormat.text(app.launchBudgetMs)))"
            if app.watchdogRisks > 0 { over += ", \(app.watchdogRisks) in watchdog territory" }
            var resumes = "–"
            if let stats = app.resumes {
                resumes = "\(DurationFormat.text(stats.p50Ms)) / \(DurationFormat.text(stats.p90Ms))"
                if stats.overBudget > 0 {
                    resumes += ", \(stats.overBudget) over \(DurationFormat.text(app.resumeBudgetMs))"
                }
            }
            let unclean =
                app.uncleanExits.isEmpty
                ? "0" : app.uncleanExits.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
            let cells =
                [app.name.markdownEscaped, launches] + figures + [over, resumes, "\(app.violationCount)", unclean]
            out += row(cells)
        }
        return out + "\nNearest-rank percentiles of the launches measured against the budget.\n"
    }

    private static func findingList(_ findings: CIFinding.Digest, _ report: AnalysisReport) -> String {
        var out = "\n### Findings\n\n"
        guard findings.first.count > 0 else { return out + "None.\n" }
        out += "❌ fails the run · ⚠️ reported, not failing · ℹ️ note\n\n"
        // What fails the run comes first, so the limit never hides it behind notes.
        let ordered = findings.failing.findings + findings.reported.findings
        for finding in ordered.prefix(findingLimit) {
            let mark = finding.failing ? "❌" : finding.kind == .clockAnomaly ? "ℹ️" : "⚠️"
            out += "- \(mark) \(finding.input.markdownEscaped):\(finding.lines) **\(label(finding))**: "
            out += finding.message.markdownEscaped + "\n"
        }
        let count = findings.first.count
        if count > findingLimit { out += "- … and \(count - findingLimit) more\n" }
        return out
    }

    private static func label(_ finding: CIFinding) -> String {
        switch finding.kind {
        case .violation(let rule): return "\(rule.rawValue)".markdownEscaped + " (rule \(rule.number))"
        case .launchOverBudget: return "launch over budget"
        case .resumeOverBudget: return "resume over budget"
        case .watchdogRisk: return "watchdog territory"
        case .killedInForeground: return "killed in foreground"
        case .clockAnomaly: return "clock went backwards"
        }
    }

    private static func scenarios(_ report: AnalysisReport) -> String {
        let counts = report.scenarioCounts
        guard !counts.isEmpty else { return "" }
        return "\n### Scenarios\n\n" + counts.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: " · ") + "\n"
    }

    private static func inputs(
        _ aggregate: Aggregate, _ report: AnalysisReport, _ findings: CIFinding.Digest
    ) -> String {
        let failing = findings.failingByInput
        let reported = findings.reportedByInput
        var table = "| Input | Format | Lines | Unparsed | Processes | Launches | Over budget | Violations | Status |\n"
        table += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
        for input in aggregate.inputs {
            let status: String
            if let error = input.error {
                status = "⚠️ \(error.inputLabel): " + String(describing: error).markdownEscaped
            } else if input.lifecycleEvents == 0 {
                status = "⚠️ no lifecycle events"
            } else if let count = failing[input.name] {
                status = "❌ \(plural(count, "finding"))"
            } else if let count = reported[input.name] {
                status = "⚠️ \(plural(count, "finding")) reported"
            } else {
                status = "✅ clean"
            }
            table += row([
                input.name.markdownEscaped, (input.format ?? "–").markdownEscaped, "\(input.lines)",
                "\(input.unparsedLines)", "\(input.processes)", "\(input.launches)", "\(input.overBudget)",
                "\(input.violations)", status,
            ])
        }
        guard report.inputs.count > foldedInputs else { return "\n### Inputs\n\n" + table }
        return "\n<details><summary><b>Inputs (\(report.inputs.count))</b></summary>\n\n" + table + "\n</details>\n"
    }

    // MARK: Helpers

    /// `7 violations`, `1 over budget`, `2 clock anomalies`: the title's words for a failure-policy finding.
    private static func count(of finding: FailurePolicy.Finding, _ count: Int) -> String {
        switch finding {
        case .violations: return plural(count, "violation")
        case .overBudget: return "\(count) over budget"
        case .killedInForeground: return "\(count) killed in foreground"
        case .clockAnomalies: return plural(count, "clock anomaly", "clock anomalies")
        }
    }

    private static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |\n" }

    private static func plural(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
