/// Renders a report as the versioned JSON contract (`schemaVersion: 1`, `Documentation/trace-analyze.schema.json`).
public enum JSONReporter {
    public static func render(_ report: AnalysisReport, pretty: Bool = true) -> String {
        String(decoding: bytes(report, pretty: pretty), as: UTF8.self)
    }

    /// The report as UTF-8 bytes, ready to write.
    public static func bytes(_ report: AnalysisReport, pretty: Bool = true) -> [UInt8] {
        var all: [UInt8] = []
        write(report, pretty: pretty) { all.append(contentsOf: $0) }
        return all
    }

    /// Streams the report to `sink` in pieces of about `chunkSize` bytes. Processes are serialised one at a
    /// time, so neither the JSON tree nor the text of a big report ever exists whole.
    public static func write(
        _ report: AnalysisReport, pretty: Bool = true, chunkSize: Int = 64 * 1024,
        to sink: ([UInt8]) throws -> Void
    ) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(chunkSize + chunkSize / 4)
        let indent: Int? = pretty ? 1 : nil
        out.append(UInt8(ascii: "{"))
        for (index, (key, value)) in topLevel(report).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.newline(&out, indent)
            JSONValue.escape(key, into: &out)
            out.append(contentsOf: (pretty ? ": " : ":").utf8)
            if let value {
                value.write(into: &out, indent: indent)
                continue
            }
            // processes
            let inner = indent.map { $0 + 1 }
            guard !report.processes.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                continue
            }
            out.append(UInt8(ascii: "["))
            for (position, item) in report.processes.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, inner)
                process(item).write(into: &out, indent: inner)
                if out.count >= chunkSize {
                    try sink(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            JSONValue.newline(&out, indent)
            out.append(UInt8(ascii: "]"))
        }
        JSONValue.newline(&out, pretty ? 0 : nil)
        out.append(contentsOf: "}\n".utf8)
        try sink(out)
    }

    /// The report as a JSON value (tests compare it structurally).
    public static func value(_ report: AnalysisReport) -> JSONValue {
        .object(topLevel(report).map { ($0.0, $0.1 ?? .array(report.processes.map(process))) })
    }

    /// The top-level members in contract order; `processes` (nil here) is written separately.
    private static func topLevel(_ report: AnalysisReport) -> [(String, JSONValue?)] {
        [
            ("schemaVersion", .int(AnalysisReport.schemaVersion)),
            ("tool", .object([("name", .string("trace-analyze")), ("version", .string(TraceAnalyzeVersion.current))])),
            ("options", options(report.options)),
            ("inputs", .array(report.inputs.map(input))),
            ("processes", nil),
            ("aggregate", aggregate(Aggregate(report))),
            ("summary", summary(report)),
        ]
    }

    static func options(_ options: AnalysisOptions) -> JSONValue {
        .object([
            ("launchBudgetMs", .double(options.launchBudgetMs)),
            ("appLaunchBudgetsMs", msTable(options.appLaunchBudgetsMs)),
            ("resumeBudgetMs", .double(options.resumeBudgetMs)),
            ("appResumeBudgetsMs", msTable(options.appResumeBudgetsMs)),
            ("watchdogMs", .double(options.watchdogMs)),
            ("appWatchdogMs", msTable(options.appWatchdogMs)),
            ("backgroundGapMs", .double(options.backgroundGapMs)),
            ("alertGapMs", .double(options.alertGapMs)),
            ("memoryWarningWindowMs", .double(options.memoryWarningWindowMs)),
            ("prewarmGapMs", .double(options.prewarmGapMs)),
            ("inputFormat", JSONValue(options.inputFormat)),
            ("timezone", .string(options.zone.description)),
            ("year", JSONValue(options.year)),
            ("failOn", .array(options.failOn.names.map { .string($0) })),
        ])
    }

    private static func msTable(_ table: [String: Double]) -> JSONValue {
        .object(table.sorted { $0.key < $1.key }.map { ($0.key, .double($0.value)) })
    }

    static func aggregate(_ aggregate: Aggregate) -> JSONValue {
        .object([
            ("apps", .array(aggregate.apps.map(app))),
            ("inputs", .array(aggregate.inputs.map(inputRow))),
        ])
    }

    static func app(_ app: Aggregate.App) -> JSONValue {
        .object([
            ("name", .string(app.name)),
            ("processes", .int(app.processes)),
            ("inputs", .int(app.inputs)),
            ("launchesSeen", .int(app.launchesSeen)),
            ("launchesExcluded", .int(app.launchesExcluded)),
            ("watchdogRisks", .int(app.watchdogRisks)),
            ("launchBudgetMs", .double(app.launchBudgetMs)),
            ("launch", app.launches.map(stats) ?? .null),
            ("resumeBudgetMs", .double(app.resumeBudgetMs)),
            ("resume", app.resumes.map(stats) ?? .null),
            ("scenarios", .object(app.scenarios.map { ($0.0.rawValue, .int($0.1)) })),
            ("violations", .object(app.violations.map { ($0.0.rawValue, .int($0.1)) })),
            ("uncleanExits", .object(app.uncleanExits.map { ($0.0.rawValue, .int($0.1)) })),
        ])
    }

    static func stats(_ stats: DurationStats) -> JSONValue {
        .object([
            ("count", .int(stats.count)),
            ("minMs", .double(stats.minMs)),
            ("p50Ms", .double(stats.p50Ms)),
            ("p90Ms", .double(stats.p90Ms)),
            ("p99Ms", .double(stats.p99Ms)),
            ("maxMs", .double(stats.maxMs)),
            ("overBudget", .int(stats.overBudget)),
        ])
    }

    static func inputRow(_ row: Aggregate.InputRow) -> JSONValue {
        .object([
            ("name", .string(row.name)),
            ("format", JSONValue(row.format)),
            ("lines", .int(row.lines)),
            ("unparsedLines", .int(row.unparsedLines)),
            ("processes", .int(row.processes)),
            ("lifecycleEvents", .int(row.lifecycleEvents)),
            ("launches", .int(row.launches)),
            ("overBudget", .int(row.overBudget)),
            ("violations", .int(row.violations)),
            ("killedInForeground", .int(row.killedInForeground)),
            ("error", JSONValue(row.error.map { String(describing: $0) })),
        ])
    }

    static func input(_ input: InputSummary) -> JSONValue {
        .object([
            ("name", .string(input.name)),
            ("format", JSONValue(input.format)),
            ("formats", .object(input.formatCounts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("bytes", .int(Int(input.bytes))),
            ("lines", .int(input.lines)),
            ("records", .int(input.records)),
            ("continuationLines", .int(input.continuationLines)),
            ("blankLines", .int(input.blankLines)),
            ("skippedLines", .int(input.skippedLines)),
            ("unparsedLines", .int(input.unparsedLines)),
            ("truncatedLines", .int(input.truncatedLines)),
            ("repeatedMessages", .int(input.repeatedMessages)),
            ("prefixes", .object(input.prefixes.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("assumedTimezone", JSONValue(input.assumedZone)),
            (
                "inferredDate",
                input.inferredDate.map { date in
                    .object([
                        ("source", .string(date.source.rawValue)), ("firstYear", JSONValue(date.firstYear)),
                        ("rollovers", .int(date.rollovers)),
                    ])
                } ?? .null
            ),
            ("clockAnomalies", .int(input.clockAnomalies)),
            ("lifecycleEvents", .int(input.lifecycleEvents)),
            ("firstUnparsedLines", .array(input.unparsedSamples.map { .int($0) })),
            ("error", JSONValue(input.error.map { String(describing: $0) })),
        ])
    }

    static func process(_ process: ProcessReport) -> JSONValue {
        .object([
            ("name", .string(process.name)),
            ("pid", process.pid < 0 ? .null : .int(process.pid)),
            ("input", .string(process.input)),
            ("firstLine", .int(process.firstLine)),
            ("lastLine", .int(process.lastLine)),
            ("start", JSONValue(process.firstTime)),
            ("end", JSONValue(process.lastTime)),
            ("records", .int(process.records)),
            ("finalState", .string(process.finalState.rawValue)),
            ("launch", process.launch.map(launch) ?? .null),
            ("episodes", .array(process.episodes.map(episode))),
            ("violations", .array(process.violations.map(violation))),
            ("events", .array(process.events.map(event))),
            ("clockAnomalies", .array(process.clockAnomalies.map(clockAnomaly))),
            ("clockAnomalyCount", .int(process.clockAnomalyCount)),
            (
                "exit",
                process.exit.map { exit in
                    .object([
                        ("reason", .string(exit.reason.rawValue)), ("line", .int(exit.line)),
                        ("time", JSONValue(exit.time)), ("signal", JSONValue(exit.signal)),
                        ("evidence", .string(exit.evidence)),
                    ])
                } ?? .null
            ),
        ])
    }

    static func clockAnomaly(_ anomaly: ClockAnomaly) -> JSONValue {
        .object([
            ("line", .int(anomaly.line)), ("time", JSONValue(anomaly.time)),
            ("previousLine", .int(anomaly.previousLine)), ("previousTime", JSONValue(anomaly.previousTime)),
            ("backwardsMs", .double(anomaly.backwardsMs)),
        ])
    }

    static func launch(_ launch: LaunchReport) -> JSONValue {
        .object([
            ("startLine", .int(launch.startLine)),
            ("endLine", JSONValue(launch.endLine)),
            ("start", JSONValue(launch.start)),
            ("end", JSONValue(launch.end)),
            ("durationMs", JSONValue(launch.durationMs)),
            ("budgetMs", .double(launch.budgetMs)),
            ("overBudget", .bool(launch.overBudget)),
            ("excluded", .bool(launch.excluded)),
            ("excludedReason", JSONValue(launch.excludedReason)),
            ("watchdogRisk", .bool(launch.watchdogRisk)),
            (
                "milestones",
                .array(
                    launch.milestones.map { milestone in
                        .object([
                            ("name", .string(milestone.name)),
                            ("line", .int(milestone.line)),
                            ("time", JSONValue(milestone.time)),
                            ("offsetMs", JSONValue(milestone.offsetMs)),
                            ("phaseMs", JSONValue(milestone.phaseMs)),
                        ])
                    })
            ),
        ])
    }

    static func episode(_ episode: Episode) -> JSONValue {
        .object([
            ("scenario", .string(episode.scenario.rawValue)),
            ("startLine", .int(episode.startLine)),
            ("endLine", .int(episode.endLine)),
            ("start", JSONValue(episode.start)),
            ("end", JSONValue(episode.end)),
            ("durationMs", JSONValue(episode.durationMs)),
            ("budgetMs", JSONValue(episode.budgetMs)),
            ("overBudget", .bool(episode.overBudget)),
            ("confidence", .string(episode.confidence.rawValue)),
            ("causes", .array(episode.causes.map { .string($0) })),
            ("evidence", .string(episode.evidence)),
            ("scene", JSONValue(episode.scene)),
        ])
    }

    static func violation(_ violation: Violation) -> JSONValue {
        .object([
            ("rule", .string(violation.rule.rawValue)),
            ("ruleNumber", .int(violation.rule.number)),
            ("input", .string(violation.input)),
            ("line", .int(violation.line)),
            ("time", JSONValue(violation.time)),
            ("state", .string(violation.state.rawValue)),
            ("event", .string(violation.event.rawValue)),
            ("expected", .string(violation.expected)),
            ("message", .string(violation.message)),
        ])
    }

    static func event(_ event: TimelineEvent) -> JSONValue {
        .object([
            ("event", .string(event.event.rawValue)),
            ("line", .int(event.line)),
            ("time", JSONValue(event.time)),
            ("state", .string(event.state.rawValue)),
            ("scene", JSONValue(event.scene)),
        ])
    }

    static func summary(_ report: AnalysisReport) -> JSONValue {
        return .object([
            ("inputs", .int(report.inputs.count)),
            ("unreadableInputs", .int(report.failedInputs.count)),
            ("lines", .int(report.inputs.reduce(0) { $0 + $1.lines })),
            ("lifecycleEvents", .int(report.lifecycleEventCount)),
            ("processes", .int(report.processes.count)),
            ("episodes", .int(report.processes.reduce(0) { $0 + $1.episodes.count })),
            ("scenarios", .object(report.scenarioCounts.map { ($0.0.rawValue, .int($0.1)) })),
            ("violations", .int(report.violations.count)),
            ("launches", .int(report.launches.count)),
            ("launchesMeasured", .int(report.measuredLaunches.count)),
            ("launchesOverBudget", .int(report.launchesOverBudget.count)),
            ("resumesTimed", .int(report.timedResumes.count)),
            ("resumesOverBudget", .int(report.resumesOverBudget.count)),
            ("failingFindings", .object(report.failingFindings.map { ($0.0.rawValue, .int($0.1)) })),
            ("exitCode", .int(Int(report.exitStatus.rawValue))),
        ])
    }
}

/// The tool's version, shown by `--version` and in JSON.
public enum TraceAnalyzeVersion {
    public static let current = "0.1.0"
}
