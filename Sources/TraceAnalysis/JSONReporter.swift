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

    /// Streams the report to `sink` in pieces of about `chunkSize` bytes. The bytes are written directly
    /// (`JSONWriter`, no tree of values) and handed on after each process that fills a piece, so the text of a
    /// big report never exists whole.
    /// Processes are written on up to `jobs` threads, each into its own bytes, appended in order; with one job
    /// straight into the piece being filled (no bytes of their own to grow and copy).
    public static func write(
        _ report: AnalysisReport, pretty: Bool = true, jobs: Int = 1, chunkSize: Int = 64 * 1024,
        to sink: ([UInt8]) throws -> Void
    ) rethrows {
        var json = JSONWriter(pretty: pretty, capacity: chunkSize + chunkSize / 4)
        try document(report, into: &json) { json in
            guard jobs > 1, report.processes.count > 1 else {
                for index in report.processes.indices {
                    try report.processes.withReport(at: index) { item in
                        try process(&json, item) { try handOn(&$0, ifOver: chunkSize, to: sink) }
                    }
                    try handOn(&json, ifOver: chunkSize, to: sink)
                }
                return
            }
            let depth = json.currentDepth
            try OrderedParallel.forEach(count: report.processes.count, jobs: jobs) { index in
                // A process with very many items is written here, handed on as it goes, not whole on a thread.
                report.processes.withReport(at: index) { item in
                    guard item.itemCount <= OrderedParallel.streamedItems else { return (index, nil) }
                    var element = JSONWriter(pretty: pretty, elementAt: depth, first: index == 0)
                    process(&element, item) { _ in }
                    return (index, element.bytes)
                }
            } sink: { (index: Int, element: [UInt8]?) in
                if let element {
                    json.appendElement(element)
                } else {
                    try report.processes.withReport(at: index) { item in
                        try process(&json, item) { try handOn(&$0, ifOver: chunkSize, to: sink) }
                    }
                }
                try handOn(&json, ifOver: chunkSize, to: sink)
            }
        }
        json.newline()
        try sink(json.bytes)
    }

    /// Hands the bytes written to `sink` and forgets them once there are `chunkSize` or more.
    private static func handOn(
        _ json: inout JSONWriter, ifOver chunkSize: Int, to sink: ([UInt8]) throws -> Void
    ) rethrows {
        guard json.count >= chunkSize else { return }
        try sink(json.bytes)
        json.removeAll()
    }

    /// The report as a JSON value (tests compare it structurally), from the same field lists as the bytes.
    public static func value(_ report: AnalysisReport) -> JSONValue {
        var tree = JSONTreeBuilder()
        document(report, into: &tree) { tree in
            for item in report.processes { process(&tree, item) { _ in } }
        }
        return tree.value
    }

    /// The whole document in contract order; `processes` writes the elements of the processes array.
    private static func document<E: JSONEmitter & ~Copyable>(
        _ report: AnalysisReport, into json: inout E, processes: (inout E) throws -> Void
    ) rethrows {
        json.beginObject()
        json.field("schemaVersion", AnalysisReport.schemaVersion)
        json.key("tool")
        json.beginObject()
        json.field("name", "trace-analyze")
        json.field("version", TraceAnalyzeVersion.current)
        json.endObject()
        json.key("options")
        options(&json, report.options)
        json.field("inputs", array: report.inputs, input)
        json.key("processes")
        json.beginArray()
        try processes(&json)
        json.endArray()
        json.key("aggregate")
        aggregate(&json, report.aggregate)
        json.key("summary")
        summary(&json, report)
        json.endObject()
    }

    static func options<E: JSONEmitter & ~Copyable>(_ json: inout E, _ options: AnalysisOptions) {
        json.beginObject()
        json.field("launchBudgetMs", options.launchBudgetMs)
        msTable(&json, "appLaunchBudgetsMs", options.appLaunchBudgetsMs)
        json.field("resumeBudgetMs", options.resumeBudgetMs)
        msTable(&json, "appResumeBudgetsMs", options.appResumeBudgetsMs)
        json.field("watchdogMs", options.watchdogMs)
        msTable(&json, "appWatchdogMs", options.appWatchdogMs)
        json.field("backgroundGapMs", options.backgroundGapMs)
        json.field("alertGapMs", options.alertGapMs)
        json.field("memoryWarningWindowMs", options.memoryWarningWindowMs)
        json.field("prewarmGapMs", options.prewarmGapMs)
        json.field("inputFormat", options.inputFormat)
        json.field("timezone", options.zone.description)
        json.field("year", options.year)
        json.field("failOn", array: options.failOn.names) { $0.string($1) }
        json.endObject()
    }

    private static func msTable<E: JSONEmitter & ~Copyable>(
        _ json: inout E, _ name: StaticString, _ table: [String: Double]
    ) {
        json.key(name)
        json.beginObject()
        for (app, ms) in table.sorted(by: { $0.key < $1.key }) {
            json.key(named: app)
            json.double(ms)
        }
        json.endObject()
    }

    static func aggregate<E: JSONEmitter & ~Copyable>(_ json: inout E, _ aggregate: Aggregate) {
        json.beginObject()
        json.field("apps", array: aggregate.apps, app)
        json.field("inputs", array: aggregate.inputs, inputRow)
        json.endObject()
    }

    static func app<E: JSONEmitter & ~Copyable>(_ json: inout E, _ app: Aggregate.App) {
        json.beginObject()
        json.field("name", app.name)
        json.field("processes", app.processes)
        json.field("inputs", app.inputs)
        json.field("launchesSeen", app.launchesSeen)
        json.field("launchesExcluded", app.launchesExcluded)
        json.field("watchdogRisks", app.watchdogRisks)
        json.field("launchBudgetMs", app.launchBudgetMs)
        json.field("launch", app.launches, stats)
        json.field("resumeBudgetMs", app.resumeBudgetMs)
        json.field("resume", app.resumes, stats)
        json.field("scenarios", counts: app.scenarios.map { ($0.0.rawValue, $0.1) })
        json.field("violations", counts: app.violations.map { ($0.0.rawValue, $0.1) })
        json.field("uncleanExits", counts: app.uncleanExits.map { ($0.0.rawValue, $0.1) })
        json.endObject()
    }

    static func stats<E: JSONEmitter & ~Copyable>(_ json: inout E, _ stats: DurationStats) {
        json.beginObject()
        json.field("count", stats.count)
        json.field("minMs", stats.minMs)
        json.field("p50Ms", stats.p50Ms)
        json.field("p90Ms", stats.p90Ms)
        json.field("p99Ms", stats.p99Ms)
        json.field("maxMs", stats.maxMs)
        json.field("overBudget", stats.overBudget)
        json.endObject()
    }

    static func inputRow<E: JSONEmitter & ~Copyable>(_ json: inout E, _ row: Aggregate.InputRow) {
        json.beginObject()
        json.field("name", row.name)
        json.field("format", row.format)
        json.field("lines", row.lines)
        json.field("unparsedLines", row.unparsedLines)
        json.field("processes", row.processes)
        json.field("lifecycleEvents", row.lifecycleEvents)
        json.field("launches", row.launches)
        json.field("overBudget", row.overBudget)
        json.field("violations", row.violations)
        json.field("killedInForeground", row.killedInForeground)
        json.field("error", row.error.map { String(describing: $0) })
        json.endObject()
    }

    static func input<E: JSONEmitter & ~Copyable>(_ json: inout E, _ input: InputSummary) {
        json.beginObject()
        json.field("name", input.name)
        json.field("format", input.format)
        json.field("formats", counts: input.formatCounts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        json.field("bytes", Int(input.bytes))
        json.field("lines", input.lines)
        json.field("records", input.records)
        json.field("continuationLines", input.continuationLines)
        json.field("blankLines", input.blankLines)
        json.field("skippedLines", input.skippedLines)
        json.field("unparsedLines", input.unparsedLines)
        json.field("truncatedLines", input.truncatedLines)
        json.field("repeatedMessages", input.repeatedMessages)
        json.field("prefixes", counts: input.prefixes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        json.field("assumedTimezone", input.assumedZone)
        json.field("inferredDate", input.inferredDate) { json, date in
            json.beginObject()
            json.field("source", date.source.rawValue)
            json.field("firstYear", date.firstYear)
            json.field("rollovers", date.rollovers)
            json.endObject()
        }
        json.field("clockAnomalies", input.clockAnomalies)
        json.field("lifecycleEvents", input.lifecycleEvents)
        json.field("firstUnparsedLines", array: input.unparsedSamples) { $0.int($1) }
        json.field("error", input.error.map { String(describing: $0) })
        json.endObject()
    }

    /// A process; `afterEachItem` (called after each episode, violation and event) may hand on what is written so
    /// far: a process may have hundreds of thousands of them.
    static func process<E: JSONEmitter & ~Copyable>(
        _ json: inout E, _ process: ProcessReport, afterEachItem: (inout E) throws -> Void
    ) rethrows {
        json.beginObject()
        json.field("name", process.name)
        json.field("pid", process.pid < 0 ? nil : process.pid)
        json.field("input", process.input)
        json.field("firstLine", process.firstLine)
        json.field("lastLine", process.lastLine)
        json.field("start", process.firstTime)
        json.field("end", process.lastTime)
        json.field("records", process.records)
        json.field("finalState", process.finalState.rawValue)
        json.field("launch", process.launch, launch)
        try array(&json, "episodes", process.episodes, episode, then: afterEachItem)
        try array(&json, "violations", process.violations, violation, then: afterEachItem)
        try array(&json, "events", process.events, event, then: afterEachItem)
        json.field("clockAnomalies", array: process.clockAnomalies, clockAnomaly)
        json.field("clockAnomalyCount", process.clockAnomalyCount)
        json.field("exit", process.exit) { json, exit in
            json.beginObject()
            json.field("reason", exit.reason.rawValue)
            json.field("line", exit.line)
            json.field("time", exit.time)
            json.field("signal", exit.signal)
            json.field("evidence", exit.evidence)
            json.endObject()
        }
        json.endObject()
    }

    /// `name: [item, …]`, calling `then` after each item.
    private static func array<E: JSONEmitter & ~Copyable, Items: Sequence>(
        _ json: inout E, _ name: StaticString, _ items: Items, _ write: (inout E, Items.Element) -> Void,
        then: (inout E) throws -> Void
    ) rethrows {
        json.key(name)
        json.beginArray()
        for item in items {
            write(&json, item)
            try then(&json)
        }
        json.endArray()
    }

    static func clockAnomaly<E: JSONEmitter & ~Copyable>(_ json: inout E, _ anomaly: ClockAnomaly) {
        json.beginObject()
        json.field("line", anomaly.line)
        json.field("time", anomaly.time)
        json.field("previousLine", anomaly.previousLine)
        json.field("previousTime", anomaly.previousTime)
        json.field("backwardsMs", anomaly.backwardsMs)
        json.endObject()
    }

    static func launch<E: JSONEmitter & ~Copyable>(_ json: inout E, _ launch: LaunchReport) {
        json.beginObject()
        json.field("startLine", launch.startLine)
        json.field("endLine", launch.endLine)
        json.field("start", launch.start)
        json.field("end", launch.end)
        json.field("durationMs", launch.durationMs)
        json.field("budgetMs", launch.budgetMs)
        json.field("overBudget", launch.overBudget)
        json.field("excluded", launch.excluded)
        json.field("excludedReason", launch.excludedReason)
        json.field("watchdogRisk", launch.watchdogRisk)
        json.field("milestones", array: launch.milestones) { json, milestone in
            json.beginObject()
            json.field("name", milestone.name)
            json.field("line", milestone.line)
            json.field("time", milestone.time)
            json.field("offsetMs", milestone.offsetMs)
            json.field("phaseMs", milestone.phaseMs)
            json.endObject()
        }
        json.endObject()
    }

    static func episode<E: JSONEmitter & ~Copyable>(_ json: inout E, _ episode: Episode) {
        json.beginObject()
        json.field("scenario", episode.scenario.rawValue)
        json.field("startLine", episode.startLine)
        json.field("endLine", episode.endLine)
        json.field("start", episode.start)
        json.field("end", episode.end)
        json.field("durationMs", episode.durationMs)
        json.field("budgetMs", episode.budgetMs)
        json.field("overBudget", episode.overBudget)
        json.field("confidence", episode.confidence.rawValue)
        json.field("causes", array: episode.causes) { $0.string($1) }
        json.field("evidence", episode.evidence)
        json.field("scene", episode.scene)
        json.endObject()
    }

    static func violation<E: JSONEmitter & ~Copyable>(_ json: inout E, _ violation: Violation) {
        json.beginObject()
        json.field("rule", violation.rule.rawValue)
        json.field("ruleNumber", violation.rule.number)
        json.field("input", violation.input)
        json.field("line", violation.line)
        json.field("time", violation.time)
        json.field("state", violation.state.rawValue)
        json.field("event", violation.event.rawValue)
        json.field("expected", violation.expected)
        json.field("message", violation.message)
        json.endObject()
    }

    static func event<E: JSONEmitter & ~Copyable>(_ json: inout E, _ event: TimelineEvent) {
        json.beginObject()
        json.field("event", event.event.rawValue)
        json.field("line", event.line)
        json.field("time", event.time)
        json.field("state", event.state.rawValue)
        json.field("scene", event.scene)
        json.endObject()
    }

    static func summary<E: JSONEmitter & ~Copyable>(_ json: inout E, _ report: AnalysisReport) {
        json.beginObject()
        json.field("inputs", report.inputs.count)
        json.field("unreadableInputs", report.failedInputs.count)
        json.field("lines", report.inputs.reduce(0) { $0 + $1.lines })
        json.field("lifecycleEvents", report.lifecycleEventCount)
        let totals = report.totals
        json.field("processes", report.processes.count)
        json.field("episodes", totals.episodes)
        json.field("scenarios", counts: totals.scenarioCounts.map { ($0.0.rawValue, $0.1) })
        json.field("violations", totals.violations)
        json.field("launches", totals.launches)
        json.field("launchesMeasured", totals.measuredLaunches)
        json.field("launchesOverBudget", totals.launchesOverBudget)
        json.field("resumesTimed", totals.timedResumes)
        json.field("resumesOverBudget", totals.resumesOverBudget)
        json.field("failingFindings", counts: report.failingFindings(totals).map { ($0.0.rawValue, $0.1) })
        json.field("exitCode", Int(report.exitStatus(totals).rawValue))
        json.endObject()
    }
}

/// The tool's version, shown by `--version` and in JSON.
public enum TraceAnalyzeVersion {
    public static let current = "0.1.0"
}
