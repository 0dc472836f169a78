/// Renders live findings as JSON Lines (`--format jsonl`): one compact object per finding, then a summary object.
/// Episodes, violations, launches and the summary are written by the batch report's own field lists, so their
/// fields are the batch JSON's (Documentation/JSON.md, "Live mode (jsonl)"; `$defs/liveLine` in the schema).
public enum LiveJSONReporter {
    /// One finding: `{"type": "episode" | "violation" | "launch" | "correction", "process", "pid", "input",
    /// "decidedBy", "decidedAtLine", "elapsedMs", …}` and a newline.
    public static func line(_ finding: LiveFinding) -> [UInt8] {
        var json = JSONWriter(pretty: false, capacity: 1024)
        json.beginObject()
        switch finding.kind {
        case .finding(let subject): json.field("type", subject.typeName)
        case .correction: json.field("type", "correction")
        }
        json.field("process", finding.process)
        json.field("pid", finding.pid)
        json.field("input", finding.input)
        json.field("decidedBy", finding.trigger.rawValue)
        json.field("decidedAtLine", finding.line)
        json.field("elapsedMs", finding.elapsedMs)
        switch finding.kind {
        case .finding(let subject):
            json.key(named: subject.typeName)
            self.subject(&json, subject)
        case .correction(let previous, let current):
            json.field("finding", previous.typeName)
            json.key("previous")
            subject(&json, previous)
            json.field("current", current) { json, current in subject(&json, current) }
        }
        json.endObject()
        json.newline()
        return json.bytes
    }

    /// The closing line: `{"type": "summary", "schemaVersion", "inputs", "aggregate", "summary"}` as in the batch
    /// JSON (`summary.exitCode` is the exit code).
    public static func summaryLine(_ report: AnalysisReport) -> [UInt8] {
        var json = JSONWriter(pretty: false, capacity: 4096)
        json.beginObject()
        json.field("type", "summary")
        json.field("schemaVersion", AnalysisReport.schemaVersion)
        json.field("inputs", array: report.inputs, JSONReporter.input)
        json.key("aggregate")
        JSONReporter.aggregate(&json, report.aggregate)
        json.key("summary")
        JSONReporter.summary(&json, report)
        json.endObject()
        json.newline()
        return json.bytes
    }

    /// A finished report as JSON Lines: every finding of every process, in line order, as live mode hands them out
    /// at the end of an input it had printed nothing of (`decidedBy: "end"`), then the summary line.
    public static func write(_ report: AnalysisReport, to sink: ([UInt8]) throws -> Void) rethrows {
        let lines = report.inputs.reduce(into: [String: Int]()) { $0[$1.name] = $1.lines }
        var out: [UInt8] = []
        for process in report.processes {
            var subjects: [LiveFinding.Subject] = process.launch.map { [.launch($0)] } ?? []
            subjects += process.episodes.map { .episode($0) }
            subjects += process.violations.map { .violation($0) }
            for (_, subject) in subjects.enumerated().sorted(by: {
                ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
            }) {
                out += line(
                    LiveFinding(
                        kind: .finding(subject), process: process.name, pid: process.pid < 0 ? nil : process.pid,
                        input: process.input, line: lines[process.input] ?? 0, trigger: .end, elapsedMs: nil))
            }
            if out.count >= 64 * 1024 {
                try sink(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out += summaryLine(report)
        try sink(out)
    }

    private static func subject(_ json: inout JSONWriter, _ subject: LiveFinding.Subject) {
        switch subject {
        case .episode(let episode): JSONReporter.episode(&json, episode)
        case .violation(let violation): JSONReporter.violation(&json, violation)
        case .launch(let launch): JSONReporter.launch(&json, launch)
        }
    }
}
