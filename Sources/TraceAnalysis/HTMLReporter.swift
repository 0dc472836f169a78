/// Renders a report as one self-contained HTML page for a person to look at: the result and the budgets, per app
/// the launch and resume figures with a chart of every launch against the budget, per input how it was read, and
/// per process a swimlane of its states over time with its episodes, violations, launch and exit.
///
/// The page loads nothing (a Content-Security-Policy forbids it): the style sheet is inline and the charts are SVG
/// drawn here. The output depends only on the report, so a golden file can hold it. See
/// `Documentation/HTMLReport.md`.
public enum HTMLReporter {
    /// Swimlanes are drawn for at most this many processes (those with findings first); the others are listed in a
    /// table under their input, so a batch of thousands still gives a page a browser opens.
    public static let swimlaneLimit = 200
    /// At most this many episodes and violations are listed under one swimlane.
    static let listLimit = 100

    public static func render(_ report: AnalysisReport, jobs: Int = 1) -> String {
        OrderedParallel.whole { write(report, jobs: jobs, to: $0) }
    }

    /// Streams the page to `sink` in pieces of about `chunkSize` bytes, a process at a time, so neither the page
    /// of a big report nor its processes ever exist whole; processes are rendered on up to `jobs` threads.
    public static func write(
        _ report: AnalysisReport, jobs: Int = 1, chunkSize: Int = 64 * 1024, to sink: ([UInt8]) throws -> Void
    ) rethrows {
        let aggregate = report.aggregate
        var head = self.head(report)
        head += "<body>\n"
        head += header(report, aggregate)
        head += "<main>\n"
        head += apps(report, aggregate)
        head += inputs(report, aggregate)
        let section = ProcessSection(report)
        head += section.opening
        try OrderedParallel.write(head: head, pieces: section.pieces.count, jobs: jobs, chunkSize: chunkSize, to: sink)
        {
            section.render($0)
        } tail: {
            var out = "</section>\n</main>\n"
            out += "<footer>Made by trace-analyze \(TraceAnalyzeVersion.current.htmlEscaped). "
            out += "This page loads nothing: its style and charts are part of the file.</footer>\n"
            return out + "</body>\n</html>\n"
        }
    }

    // MARK: Head and header

    private static func head(_ report: AnalysisReport) -> String {
        let title =
            "trace-analyze report: \(plural(report.inputs.count, "input")), "
            + plural(report.processes.count, "process", "processes")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="generator" content="trace-analyze \(TraceAnalyzeVersion.current.htmlEscaped)">
            <title>\(title.htmlEscaped)</title>
            <style>
            \(styleSheet)</style>
            </head>

            """
    }

    private static func header(_ report: AnalysisReport, _ aggregate: Aggregate) -> String {
        var out = "<header>\n"
        out += "<h1>trace-analyze <span class=\"version\">\(TraceAnalyzeVersion.current.htmlEscaped)</span>"
        out += " <span class=\"subtitle\">app-lifecycle report</span></h1>\n"
        out += result(report)
        let counts = report.findingCounts
        let totals = report.totals
        let episodes = totals.episodes
        let resumes = totals.timedResumes
        // What is counted (one, many), how many, and the finding that makes it red or amber.
        var tiles: [(one: String, many: String, count: Int, finding: FailurePolicy.Finding?)] = [
            ("input", "inputs", report.inputs.count, nil),
            ("process", "processes", report.processes.count, nil),
            ("episode", "episodes", episodes, nil),
            ("measured launch", "measured launches", totals.measuredLaunches, nil),
            ("launch over budget", "launches over budget", totals.launchesOverBudget, .overBudget),
        ]
        if resumes > 0 {
            tiles.append(("timed resume", "timed resumes", resumes, nil))
            tiles.append(("resume over budget", "resumes over budget", totals.resumesOverBudget, .overBudget))
        }
        tiles.append(("violation", "violations", counts[.violations] ?? 0, .violations))
        tiles.append(
            ("killed in foreground", "killed in foreground", counts[.killedInForeground] ?? 0, .killedInForeground))
        tiles.append(("clock anomaly", "clock anomalies", counts[.clockAnomalies] ?? 0, .clockAnomalies))
        out += "<ul class=\"tiles\">\n"
        for tile in tiles {
            var classes = "tile"
            if tile.count > 0, let finding = tile.finding {
                classes += report.options.failOn.fails(on: finding) ? " bad" : " warn"
            }
            out += "<li class=\"\(classes)\"><b>\(tile.count)</b> \(tile.count == 1 ? tile.one : tile.many)</li>\n"
        }
        if !report.failedInputs.isEmpty {
            out += "<li class=\"tile bad\"><b>\(report.failedInputs.count)</b> unreadable "
            out += report.failedInputs.count == 1 ? "input</li>\n" : "inputs</li>\n"
        }
        out += "</ul>\n"
        out += budgets(report.options, aggregate)
        out += "<nav><a href=\"#apps\">Apps</a> <a href=\"#inputs\">Inputs</a> <a href=\"#processes\">Processes</a>"
        if aggregate.apps.count <= 40 {
            out += " <span class=\"dim\">·</span> "
            out += aggregate.apps.enumerated().map {
                "<a href=\"#app-\($0.offset)\">\($0.element.name.htmlEscaped)</a>"
            }
            .joined(separator: " ")
        }
        out += "</nav>\n</header>\n"
        return out
    }

    private static func result(_ report: AnalysisReport) -> String {
        let status = report.exitStatus
        switch status {
        case .clean:
            return "<p class=\"result clean\"><b>Clean</b> no finding fails the run <span>exit 0</span></p>\n"
        case .findings:
            let failing = report.failingFindings.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
            return "<p class=\"result findings\"><b>Findings</b> \(failing.htmlEscaped) <span>exit 1</span></p>\n"
        case .inputProblem, .usage:
            let reason =
                report.failedInputs.isEmpty
                ? "no lifecycle events found" : "\(plural(report.failedInputs.count, "input")) unreadable"
            return
                "<p class=\"result problem\"><b>Input problem</b> \(reason) <span>exit \(status.rawValue)</span></p>\n"
        }
    }

    private static func budgets(_ options: AnalysisOptions, _ aggregate: Aggregate) -> String {
        var parts = [
            "launch <b>\(DurationFormat.text(options.launchBudgetMs))</b>",
            "resume <b>\(DurationFormat.text(options.resumeBudgetMs))</b>",
            "watchdog \(DurationFormat.text(options.watchdogMs))",
        ]
        for (label, table) in [
            ("launch", options.appLaunchBudgetsMs), ("resume", options.appResumeBudgetsMs),
            ("watchdog", options.appWatchdogMs),
        ] where !table.isEmpty {
            let apps = table.sorted { $0.key < $1.key }.map { "\($0.key.htmlEscaped) \(DurationFormat.text($0.value))" }
            parts.append("\(label) per app: " + apps.joined(separator: ", "))
        }
        let failOn = options.failOn.names.isEmpty ? "nothing" : options.failOn.names.joined(separator: ", ")
        var out = "<p class=\"budgets\">Budgets in force: " + parts.joined(separator: " · ")
        out += " · the run fails on: <b>\(failOn.htmlEscaped)</b></p>\n"
        return out
    }

    // MARK: Apps

    private static func apps(_ report: AnalysisReport, _ aggregate: Aggregate) -> String {
        var out = "<section id=\"apps\">\n<h2>Apps</h2>\n"
        out += "<p class=\"note\">Per process name over all inputs; nearest-rank percentiles. Launch: first line → "
        out += "didBecomeActive. Resume: willEnterForeground → didBecomeActive.</p>\n"
        guard !aggregate.apps.isEmpty else { return out + "<p class=\"dim\">No process.</p>\n</section>\n" }
        var charts = Charts(aggregate)
        report.processes.forEachReport(events: false) { charts.add($0) }
        for (index, app) in aggregate.apps.enumerated() {
            out += self.app(app, index: index, charts: charts.byApp[app.name])
        }
        return out + "</section>\n"
    }

    /// Every app's launch and resume charts, given their samples one process at a time.
    private struct Charts {
        var byApp: [String: (launches: DistributionChart?, resumes: DistributionChart?)] = [:]

        init(_ aggregate: Aggregate) {
            for app in aggregate.apps {
                byApp[app.name] = (
                    app.launches.map { DistributionChart(kind: .launch, budgetMs: app.launchBudgetMs, stats: $0) },
                    app.resumes.map { DistributionChart(kind: .resume, budgetMs: app.resumeBudgetMs, stats: $0) }
                )
            }
        }

        mutating func add(_ process: ProcessReport) {
            let name = Aggregate.appName(process)
            if let launch = process.launch, let duration = launch.durationMs, !launch.excluded {
                byApp[name]?.launches?.add(
                    .init(
                        ms: duration, overBudget: launch.overBudget,
                        label: "\(process.displayName) · \(process.input) · line \(launch.startLine)"))
            }
            for episode in process.episodes {
                guard episode.scenario == .returnToForeground, episode.budgetMs != nil,
                    let duration = episode.durationMs
                else { continue }
                byApp[name]?.resumes?.add(
                    .init(
                        ms: duration, overBudget: episode.overBudget,
                        label: "\(process.displayName) · \(process.input) · line \(episode.startLine)"))
            }
        }
    }

    private static func app(
        _ app: Aggregate.App, index: Int, charts: (launches: DistributionChart?, resumes: DistributionChart?)?
    ) -> String {
        var out = "<article class=\"app\" id=\"app-\(index)\">\n<div class=\"app-figures\">\n"
        out += "<h3>\(app.name.htmlEscaped)</h3>\n"
        var meta = [
            plural(app.processes, "process", "processes"), "in " + plural(app.inputs, "input"),
            plural(app.launchesSeen, "launch", "launches") + " seen",
        ]
        if app.launchesExcluded > 0 { meta.append("\(app.launchesExcluded) measured but not checked") }
        if app.watchdogRisks > 0 {
            meta.append("<span class=\"bad-text\">\(app.watchdogRisks) in watchdog territory</span>")
        }
        if app.violations.isEmpty { meta.append("no violation") }
        if app.uncleanExits.isEmpty { meta.append("no unclean exit") }
        out += "<p class=\"meta\">\(meta.joined(separator: " · "))</p>\n"
        out += "<table class=\"stats\">\n<thead><tr><th></th><th>count</th><th>min</th><th>p50</th><th>p90</th>"
        out += "<th>p99</th><th>max</th><th>over budget</th><th>budget</th></tr></thead>\n<tbody>\n"
        out += statsRow("launches", app.launches, budget: app.launchBudgetMs)
        out += statsRow("resumes", app.resumes, budget: app.resumeBudgetMs)
        out += "</tbody>\n</table>\n"
        out += "<dl class=\"counts\">\n"
        if !app.scenarios.isEmpty {
            out += "<dt>episodes</dt><dd>"
            out += app.scenarios.map { scenarioChip($0.0, count: $0.1) }.joined(separator: " ")
            out += "</dd>\n"
        }
        if !app.violations.isEmpty {
            out += "<dt>violations</dt><dd>"
            out += app.violations.map { rule, count in
                "<span class=\"chip violation-chip\" title=\"\(rule.title.htmlEscaped)\">\(rule.number) "
                    + "\(rule.rawValue) <b>\(count)</b></span>"
            }.joined(separator: " ")
            out += "</dd>\n"
        }
        if !app.uncleanExits.isEmpty {
            out += "<dt>unclean exits</dt><dd>"
            out += app.uncleanExits.map { "<span class=\"chip exit-chip\">\($0.0.rawValue) <b>\($0.1)</b></span>" }
                .joined(separator: " ")
            out += "</dd>\n"
        }
        out += "</dl>\n</div>\n<div class=\"app-charts\">\n"
        if let chart = charts?.launches {
            out += chart.svg
        } else {
            out += "<p class=\"no-chart\">No launch measured against the budget"
            out += app.launchesSeen > 0 ? " (never active in the log, no timestamps, or not checked).</p>\n" : ".</p>\n"
        }
        if let chart = charts?.resumes { out += chart.svg }
        return out + "</div>\n</article>\n"
    }

    private static func statsRow(_ what: String, _ stats: DurationStats?, budget: Double) -> String {
        guard let stats else {
            return "<tr class=\"empty\"><th>\(what)</th><td>0</td>"
                + String(repeating: "<td>—</td>", count: 6) + "<td>\(DurationFormat.text(budget))</td></tr>\n"
        }
        var out = "<tr><th>\(what)</th><td>\(stats.count)</td>"
        for value in [stats.minMs, stats.p50Ms, stats.p90Ms, stats.p99Ms] {
            out += "<td>\(DurationFormat.text(value))</td>"
        }
        let maxClass = stats.maxMs > budget ? " class=\"bad-text\"" : ""
        out += "<td\(maxClass)>\(DurationFormat.text(stats.maxMs))</td>"
        out += stats.overBudget > 0 ? "<td class=\"bad-cell\">\(stats.overBudget)</td>" : "<td class=\"ok-text\">0</td>"
        return out + "<td>\(DurationFormat.text(budget))</td></tr>\n"
    }

    // MARK: Inputs

    private static func inputs(_ report: AnalysisReport, _ aggregate: Aggregate) -> String {
        var out = "<section id=\"inputs\">\n<h2>Inputs</h2>\n<table class=\"inputs\">\n<thead><tr><th>input</th>"
        out += "<th>format</th><th>lines</th><th>unparsed</th><th>processes</th><th>lifecycle events</th>"
        out += "<th>launches</th><th>over budget</th><th>violations</th><th>killed in foreground</th></tr></thead>\n"
        out += "<tbody>\n"
        for (index, row) in aggregate.inputs.enumerated() {
            let name = "<a href=\"#input-\(index)\">\(row.name.htmlEscaped)</a>"
            if let error = row.error {
                out += "<tr class=\"unreadable\"><td>\(name)</td><td colspan=\"9\">unreadable: "
                out += "\(String(describing: error).htmlEscaped)</td></tr>\n"
                continue
            }
            out += "<tr><td>\(name)</td><td>\((row.format ?? "no known format").htmlEscaped)</td>"
            out += "<td>\(row.lines)</td>" + countCell(row.unparsedLines, bad: false)
            out += "<td>\(row.processes)</td>"
            out += row.lifecycleEvents == 0 ? "<td class=\"bad-cell\">0</td>" : "<td>\(row.lifecycleEvents)</td>"
            out += "<td>\(row.launches)</td>" + countCell(row.overBudget, bad: true)
            out += countCell(row.violations, bad: true) + countCell(row.killedInForeground, bad: true) + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    /// A table cell for a count: highlighted when not zero.
    private static func countCell(_ count: Int, bad: Bool) -> String {
        guard count > 0 else { return "<td>0</td>" }
        return "<td class=\"\(bad ? "bad-cell" : "warn-cell")\">\(count)</td>"
    }

    // MARK: Processes

    /// The processes section as pieces rendered one at a time: per input its heading, the swimlanes drawn, then
    /// the others as rows of one table.
    private struct ProcessSection: Sendable {
        enum Piece {
            /// An input's heading, and why it lists no process when it does not.
            case input(Int, Absence?)
            case swimlane(Int), tableStart, row(Int), tableEnd, inputEnd
        }

        enum Absence {
            /// An input with the same name is above: its processes are listed there.
            case listedAbove
            /// No lifecycle event was recognised.
            case noProcess
        }

        let report: AnalysisReport
        /// The section's heading, legend and note on swimlanes not drawn.
        let opening: String
        let pieces: [Piece]

        init(_ report: AnalysisReport) {
            self.report = report
            var opening = "<section id=\"processes\">\n<h2>Processes</h2>\n"
            opening += legend(report)
            let drawn = swimlaneSelection(report.processes.withoutEvents)
            let count = report.processes.count
            if drawn.count < count {
                opening += "<p class=\"cap\">Swimlanes are drawn for \(drawn.count) of \(count) processes "
                opening += "(those with findings first, then in input order); the other "
                opening += "\(count - drawn.count) are listed in a table under their input.</p>\n"
            }
            self.opening = opening
            var byInput = report.processIndicesByInput
            var listed: Set<String> = []
            var pieces: [Piece] = []
            for (inputIndex, input) in report.inputs.enumerated() {
                guard listed.insert(input.name).inserted else {
                    pieces += [.input(inputIndex, .listedAbove), .inputEnd]
                    continue
                }
                let indices = byInput.removeValue(forKey: input.name) ?? []
                pieces.append(.input(inputIndex, indices.isEmpty && input.error == nil ? .noProcess : nil))
                pieces += indices.filter(drawn.contains).map(Piece.swimlane)
                let undrawn = indices.filter { !drawn.contains($0) }
                if !undrawn.isEmpty { pieces += [.tableStart] + undrawn.map(Piece.row) + [.tableEnd] }
                pieces.append(.inputEnd)
            }
            self.pieces = pieces
        }

        func render(_ index: Int) -> String {
            switch pieces[index] {
            case .input(let index, let absence):
                let input = report.inputs[index]
                var out = "<section class=\"input\" id=\"input-\(index)\">\n<h3>\(input.name.htmlEscaped)</h3>\n"
                out += inputSummary(input)
                switch absence {
                case .listedAbove?:
                    out += "<p class=\"dim\">An input above has the same name: the processes of both are listed "
                    out += "there.</p>\n"
                case .noProcess?:
                    out += "<p class=\"dim\">No process: no lifecycle event was recognised in this input.</p>\n"
                case nil: break
                }
                return out
            case .swimlane(let process):
                return report.processes.withReport(at: process) { HTMLReporter.process($0, id: process) }
            case .tableStart: return processTableStart
            case .row(let process): return report.processes.withReport(at: process, events: false, processRow)
            case .tableEnd: return "</tbody>\n</table>\n"
            case .inputEnd: return "</section>\n"
            }
        }
    }

    /// The processes that get a swimlane: all of them up to the limit, else those with violations or over budget
    /// first, then those with other findings, each in input order.
    static func swimlaneSelection<Processes: RandomAccessCollection<ProcessReport>>(_ processes: Processes) -> Set<Int>
    where Processes.Index == Int {
        guard processes.count > swimlaneLimit else { return Set(processes.indices) }
        // Weighed once each: a big input's processes are decoded on every access.
        let weights = processes.map(weight)
        let ranked = weights.indices.sorted { (-weights[$0], $0) < (-weights[$1], $1) }
        return Set(ranked.prefix(swimlaneLimit))
    }

    /// 2 for violations or a duration over budget, 1 for other findings (a kill in foreground, an unclean exit,
    /// a clock going backwards), 0 for none.
    private static func weight(_ process: ProcessReport) -> Int {
        if !process.violations.isEmpty || process.launch?.overBudget == true || process.resumesOverBudget > 0 {
            return 2
        }
        let killed = process.killedInForeground > 0
        let unclean = process.exit.map { $0.reason != .voluntary } ?? false
        return killed || unclean || process.clockAnomalyCount > 0 ? 1 : 0
    }

    private static func inputSummary(_ input: InputSummary) -> String {
        if let error = input.error {
            return "<p class=\"unreadable\">Unreadable: \(String(describing: error).htmlEscaped)</p>\n"
        }
        let parts = input.readingParts
        var out = "<p class=\"meta\">\((input.format ?? "no known format").htmlEscaped) · \(input.lines) lines: "
        out += parts.joined(separator: ", ") + " · \(input.lifecycleEvents) lifecycle events</p>\n"
        let notes = input.readingNotes
        if !notes.isEmpty { out += "<p class=\"notes\">\(notes.joined(separator: " · ").htmlEscaped)</p>\n" }
        return out
    }

    private static func process(_ process: ProcessReport, id: Int) -> String {
        var out = "<article class=\"process\" id=\"process-\(id)\">\n"
        out += "<h4>\(process.displayName.htmlEscaped) <span class=\"meta\">\(span(process).htmlEscaped)"
        out += " · ends \(process.finalState.rawValue)</span>\(badges(process))</h4>\n"
        if let launch = process.launch { out += "<p class=\"launch-line\">\(launchText(launch))</p>\n" }
        out += Swimlane(process: process).svg
        out += findings(process)
        return out + "</article>\n"
    }

    private static func span(_ process: ProcessReport) -> String {
        var span = "lines \(process.firstLine)–\(process.lastLine)"
        if let first = process.firstTime, let last = process.lastTime {
            span += " · \(first.timeOfDay) → \(last.timeOfDay) (\(DurationFormat.text(first.milliseconds(to: last))))"
        }
        return span
    }

    private static func badges(_ process: ProcessReport) -> String {
        var badges: [String] = []
        if !process.violations.isEmpty {
            badges.append("<span class=\"badge bad\">\(plural(process.violations.count, "violation"))</span>")
        }
        if process.launch?.overBudget == true { badges.append("<span class=\"badge bad\">launch over budget</span>") }
        // No pass over the episodes of a process whose episodes were counted as they were written to the spill file.
        let resumesOverBudget = process.resumesOverBudget
        if resumesOverBudget > 0 {
            badges.append("<span class=\"badge bad\">\(plural(resumesOverBudget, "resume")) over budget</span>")
        }
        if process.launch?.watchdogRisk == true { badges.append("<span class=\"badge bad\">watchdog territory</span>") }
        if process.killedInForeground > 0 {
            badges.append("<span class=\"badge bad\">killed in foreground</span>")
        }
        if let exit = process.exit, exit.reason != .voluntary {
            badges.append("<span class=\"badge warn\">exit: \(exit.reason.rawValue)</span>")
        }
        if process.clockAnomalyCount > 0 {
            badges.append("<span class=\"badge warn\">clock went back \(process.clockAnomalyCount)×</span>")
        }
        return badges.isEmpty ? "" : " " + badges.joined(separator: " ")
    }

    private static func launchText(_ launch: LaunchReport) -> String {
        var text = "launch "
        if let duration = launch.durationMs {
            text +=
                "<b>\(DurationFormat.text(duration))</b> to active (budget \(DurationFormat.text(launch.budgetMs))) "
            if launch.excluded {
                text += "<span class=\"warn-text\">not checked: \((launch.excludedReason ?? "excluded").htmlEscaped)"
                text += "</span>"
            } else if launch.overBudget {
                text += "<span class=\"bad-text\">✗ over budget by "
                text += "\(DurationFormat.text(duration - launch.budgetMs))</span>"
            } else {
                text += "<span class=\"ok-text\">✓ within budget</span>"
            }
            if launch.watchdogRisk { text += " <span class=\"bad-text\">watchdog territory (0x8badf00d)</span>" }
        } else if launch.excluded {
            text += "<span class=\"warn-text\">not checked: \((launch.excludedReason ?? "excluded").htmlEscaped), "
            text += "never active in this log</span>"
        } else if launch.endLine == nil {
            text += "<span class=\"warn-text\">never became active in this log</span>"
        } else {
            text += "<span class=\"dim\">no timestamps to measure</span>"
        }
        let points = launch.milestones.map { milestone -> String in
            let offset = milestone.offsetMs.map { " +" + DurationFormat.text($0) } ?? ""
            return "\(milestone.name) L\(milestone.line)\(offset)"
        }
        if !points.isEmpty {
            text += "<br><span class=\"milestones\">\(points.joined(separator: " · ").htmlEscaped)</span>"
        }
        return text
    }

    /// Episodes, violations, the exit and clock anomalies of a process, in line order.
    private static func findings(_ process: ProcessReport) -> String {
        var rows: [(line: Int, html: String)] = []
        for episode in process.episodes.prefix(listLimit) {
            let lines = lineRange(episode.startLine, episode.endLine)
            var what = scenarioChip(episode.scenario)
            if let scene = episode.scene { what += " <span class=\"dim\">scene \(sceneName(scene).htmlEscaped)</span>" }
            var detail = "<span class=\"conf-\(episode.confidence.rawValue)\">\(episode.confidence.rawValue)</span>"
            if let duration = episode.durationMs {
                let over = episode.overBudget ? " bad-text" : ""
                detail += " <b class=\"duration\(over)\">\(DurationFormat.text(duration))</b>"
                if episode.overBudget, let budget = episode.budgetMs {
                    detail += " <span class=\"bad-text\">over \(DurationFormat.text(budget))</span>"
                }
            }
            detail += " " + "\(episode.evidence) — \(episode.causes.joined(separator: "; "))".htmlEscaped
            rows.append((min(episode.startLine, episode.endLine), row(lines, episode.start, what, detail)))
        }
        for violation in process.violations.prefix(listLimit) {
            let what =
                "<span class=\"chip violation-chip\">✗ \(violation.rule.number) \(violation.rule.rawValue)</span>"
            let detail = "\(violation.rule.title) — \(violation.message)".htmlEscaped
            rows.append(
                (violation.line, row("L\(violation.line)", violation.time, what, detail, class: "violation-row")))
        }
        if let exit = process.exit {
            let what = "<span class=\"chip exit-chip\">exit: \(exitDescription(exit))</span>"
            rows.append((exit.line, row("L\(exit.line)", exit.time, what, "“\(exit.evidence)”".htmlEscaped)))
        }
        for anomaly in process.clockAnomalies {
            let what = "<span class=\"chip warn-chip\">clock went back</span>"
            let detail =
                "\(DurationFormat.text(anomaly.backwardsMs)) from line \(anomaly.previousLine) "
                + "(\(anomaly.previousTime.timeOfDay)), kept in input order"
            rows.append((anomaly.line, row("L\(anomaly.line)", anomaly.time, what, detail.htmlEscaped)))
        }
        guard !rows.isEmpty else { return "" }
        var out = "<table class=\"findings\">\n<tbody>\n"
        // Stable: equal lines keep the order above (episode, violation, exit, anomaly).
        for item in rows.enumerated().sorted(by: { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }) {
            out += item.element.html
        }
        var more: [String] = []
        if process.episodes.count > listLimit { more.append(plural(process.episodes.count - listLimit, "episode")) }
        if process.violations.count > listLimit {
            more.append(plural(process.violations.count - listLimit, "violation"))
        }
        if process.clockAnomalyCount > process.clockAnomalies.count {
            more.append(
                plural(process.clockAnomalyCount - process.clockAnomalies.count, "clock anomaly", "clock anomalies"))
        }
        if !more.isEmpty {
            out += "<tr><td colspan=\"4\" class=\"dim\">… \(more.joined(separator: ", ")) more</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private static func row(
        _ lines: String, _ time: Timestamp?, _ what: String, _ detail: String, class rowClass: String? = nil
    ) -> String {
        let attribute = rowClass.map { " class=\"\($0)\"" } ?? ""
        return "<tr\(attribute)><td class=\"line\">\(lines)</td><td class=\"time\">\(time?.timeOfDay ?? "")</td>"
            + "<td class=\"what\">\(what)</td><td>\(detail)</td></tr>\n"
    }

    /// The head of the table of processes without a swimlane (over the limit).
    private static let processTableStart =
        "<table class=\"more-processes\">\n<thead><tr><th>process (no swimlane)</th><th>lines</th>"
        + "<th>ends</th><th>launch</th><th>episodes</th><th>violations</th></tr></thead>\n<tbody>\n"

    /// A process without a swimlane: one row of that table.
    private static func processRow(_ process: ProcessReport) -> String {
        let launch = process.launch?.durationMs.map { DurationFormat.text($0) } ?? "—"
        var out = "<tr><td>\(process.displayName.htmlEscaped)</td>"
        out += "<td>\(lineRange(process.firstLine, process.lastLine))</td>"
        out += "<td>\(process.finalState.rawValue)</td>"
        out += process.launch?.overBudget == true ? "<td class=\"bad-cell\">\(launch)</td>" : "<td>\(launch)</td>"
        return out + "<td>\(process.episodes.count)</td>" + countCell(process.violations.count, bad: true) + "</tr>\n"
    }

    /// The key to colours and marks, with the scenarios this report holds.
    private static func legend(_ report: AnalysisReport) -> String {
        var out = "<div class=\"legend\">\n<p>"
        out += report.scenarioCounts.map { scenarioChip($0.0) }.joined(separator: " ")
        out += "</p>\n<p><span class=\"key key-state\"></span> state lanes: the app delegate's state after each "
        out += "callback (scene lanes: each scene's) · <span class=\"key key-launch\"></span> launch, first line "
        out += "to didBecomeActive · <span class=\"key key-violation\"></span> violation · "
        out += "<span class=\"key key-exit\"></span> exit the log reports. "
        out += "Time runs left to right with idle stretches shortened: dashed stretches of the axis are labelled "
        out += "with the time they stand for. Hover a mark for its line and message.</p>\n</div>\n"
        return out
    }

    // MARK: Pieces

    static func scenarioChip(_ scenario: Scenario, count: Int? = nil) -> String {
        let number = count.map { " <b>\($0)</b>" } ?? ""
        return "<span class=\"chip sc-\(scenario.rawValue)\" title=\"\(scenario.signature.htmlEscaped)\">"
            + "\(scenario.rawValue)\(number)</span>"
    }

    /// `signal 9`, `crash (signal 11)`, `memory`.
    static func exitDescription(_ exit: ProcessExit) -> String {
        switch (exit.reason, exit.signal) {
        case (.signal, let signal?): return "signal \(signal)"
        case (let reason, let signal?): return "\(reason.rawValue) (signal \(signal))"
        case (let reason, nil): return reason.rawValue
        }
    }

    static func sceneName(_ scene: String) -> String { scene.isEmpty ? "(unnamed)" : scene }

    static func lineRange(_ start: Int, _ end: Int) -> String {
        start == end ? "L\(start)" : "L\(start)–\(end)"
    }

    /// `1 input`, `2 inputs`; `plural` when adding an s will not do.
    static func plural(_ count: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? word : plural ?? word + "s")
    }

    /// A coordinate with at most one decimal (SVG needs no more on a screen, and golden files stay stable).
    static func number(_ value: Double) -> String {
        DurationFormat.trim(DurationFormat.round(value, 1))
    }
}
