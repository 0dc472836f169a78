/// Renders a report as GitHub Actions workflow commands: one annotation per finding, on the log line it is about,
/// then one summary notice. See `Documentation/CIReports.md`.
///
/// Severity follows the failure policy (``AnalysisOptions/failOn``): `error` for what fails the run and for input
/// problems, `warning` for findings reported but not failing (and launches in watchdog territory), `notice` for
/// clock anomalies that do not fail the run. The `file` is the input's name as given, so paths relative to the
/// repository's root put the annotations on the file in a pull request.
public enum GitHubReporter {
    /// At most this many findings are annotated (the first in input and line order, failing or not); a notice
    /// counts the others. GitHub shows at most 10 error and 10 warning annotations of a step, 50 of a job.
    static let annotationLimit = CIFinding.listed

    public static func render(_ report: AnalysisReport) -> String {
        let findings = report.ciDigest
        var byInput: [String: [CIFinding]] = [:]
        for finding in findings.first.findings { byInput[finding.input, default: []].append(finding) }
        let noEvents = report.exitStatus == .inputProblem && report.failedInputs.isEmpty
        var lines: [String] = []
        var done: Set<String> = []
        for input in report.inputs where !done.contains(input.name) {
            done.insert(input.name)
            if let error = input.error {
                lines.append(
                    command("error", [("file", input.name), ("title", "Unreadable input")], String(describing: error)))
            } else if noEvents, input.lifecycleEvents == 0 {
                let detail =
                    "no lifecycle event found in \(input.lines) line\(input.lines == 1 ? "" : "s") "
                    + "(format: \(input.format ?? "none recognised"))"
                lines.append(command("error", [("file", input.name), ("title", "No lifecycle events")], detail))
            }
            for finding in byInput[input.name] ?? [] { lines.append(annotation(finding)) }
        }
        if findings.first.more > 0 {
            let more = findings.first.more
            let detail =
                "\(more) more finding\(more == 1 ? "" : "s") not annotated (the first \(annotationLimit) are): "
                + "the JSON and text reports list them all"
            lines.append(command("notice", [("title", "trace-analyze")], detail))
        }
        var summary = "\(report.resultSummary) (exit \(report.exitStatus.rawValue)); "
        summary += "\(report.inputs.count) input\(report.inputs.count == 1 ? "" : "s"), "
        summary += "\(report.processes.count) process\(report.processes.count == 1 ? "" : "es"); "
        summary += "fail on: \(report.failOnDescription)"
        lines.append(command("notice", [("title", "trace-analyze")], summary))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The annotation of one finding: its severity, location and title.
    static func annotation(_ finding: CIFinding) -> String {
        let severity: String
        if finding.failing {
            severity = "error"
        } else if finding.kind == .clockAnomaly {
            severity = "notice"
        } else {
            severity = "warning"
        }
        var properties: [(String, String)] = [("file", finding.input), ("line", "\(finding.line)")]
        if let end = finding.endLine, end > finding.line { properties.append(("endLine", "\(end)")) }
        properties.append(("title", finding.title))
        return command(severity, properties, finding.message)
    }

    /// `::NAME key=value,key=value::MESSAGE`, escaped as the runner reads it; properties in the order given.
    static func command(_ name: String, _ properties: [(String, String)], _ message: String) -> String {
        let list = properties.map { "\($0.0)=\($0.1.workflowCommandProperty)" }.joined(separator: ",")
        return "::\(name)\(list.isEmpty ? "" : " " + list)::\(message.workflowCommandMessage)"
    }
}
