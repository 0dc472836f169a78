/// Renders a report for a person reading a terminal: per input, per process a timeline of episodes,
/// the launch against its budget and the violations with their lines; then a summary.
public struct TextReporter: Sendable {
    /// Use ANSI colours (only on a terminal, never with `NO_COLOR`: the caller decides).
    public var color: Bool
    /// List every recognised event under its process, not only the episodes.
    public var showEvents: Bool

    public init(color: Bool = false, showEvents: Bool = false) {
        self.color = color
        self.showEvents = showEvents
    }

    public func render(_ report: AnalysisReport) -> String {
        OrderedParallel.whole { write(report, to: $0) }
    }

    /// Streams the report to `sink` in pieces of about `chunkSize` bytes, a process at a time, so the text of a
    /// big report never exists whole; processes are rendered on up to `jobs` threads, written in order.
    public func write(
        _ report: AnalysisReport, jobs: Int = 1, chunkSize: Int = 64 * 1024, to sink: ([UInt8]) throws -> Void
    ) rethrows {
        // Each input's header, then its processes (an input without any has only its header).
        let byInput = report.processIndicesByInput
        let pieces: [(input: Int, process: Int?)] = report.inputs.indices.flatMap { input in
            [(input, nil)] + (byInput[report.inputs[input].name] ?? []).map { (input, $0) }
        }
        try OrderedParallel.write(head: "", pieces: pieces.count, jobs: jobs, chunkSize: chunkSize, to: sink) { index in
            let (input, process) = pieces[index]
            guard let process else { return (input == 0 ? "" : "\n") + inputHeader(report.inputs[input]) }
            let item = report.processes[process]
            // A process of very many items is written from its parts on the writing thread, not whole here.
            guard item.itemCount <= OrderedParallel.streamedItems else { return nil }
            var text = ""
            forEachPart(item) { text += $0 }
            return text
        } parts: { index, body in
            // Only a process gives no text above (an input header always does).
            try forEachPart(report.processes[pieces[index].process ?? 0], body)
        } tail: {
            (report.inputs.isEmpty ? "" : "\n") + apps(report.aggregate) + summary(report)
        }
    }

    /// Per app: launches and resumes (count, min, p50, p90, p99, max, over budget), violations, unclean exits.
    private func apps(_ aggregate: Aggregate) -> String {
        let shown = aggregate.apps.filter { $0.launches != nil || $0.resumes != nil || $0.violationCount > 0 }
        guard !shown.isEmpty else { return "" }
        let width = min(max(shown.map(\.name.count).max() ?? 0, 8), 32)
        var out = bold("Per app") + dim(" (nearest-rank percentiles)") + "\n"
        for app in shown {
            var lines: [String] = []
            if let launches = app.launches { lines.append(stats("launch", launches, budget: app.launchBudgetMs)) }
            if let resumes = app.resumes { lines.append(stats("resume", resumes, budget: app.resumeBudgetMs)) }
            var notes: [String] = []
            if app.launchesExcluded > 0 { notes.append("\(app.launchesExcluded) launch(es) not checked") }
            if app.watchdogRisks > 0 { notes.append(paint(.red, "\(app.watchdogRisks) in watchdog territory")) }
            if app.violationCount > 0 {
                let rules = app.violations.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
                notes.append(paint(.red, "violations: \(rules)"))
            }
            if !app.uncleanExits.isEmpty {
                notes.append(
                    "unclean exits: " + app.uncleanExits.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", "))
            }
            if !notes.isEmpty { lines.append(notes.joined(separator: " · ")) }
            let name = Sanitizer.terminal(app.name)
            for (index, line) in lines.enumerated() {
                out +=
                    "  "
                    + (index == 0 ? bold(name.padding(width)) : String(repeating: " ", count: max(width, name.count)))
                out += "  " + line + "\n"
            }
        }
        return out + "\n"
    }

    private func stats(_ what: String, _ stats: DurationStats, budget: Double) -> String {
        let figures = [
            ("min", stats.minMs), ("p50", stats.p50Ms), ("p90", stats.p90Ms), ("p99", stats.p99Ms),
            ("max", stats.maxMs),
        ].map { "\($0.0) \(DurationFormat.text($0.1))" }
        let over =
            stats.overBudget == 0
            ? paint(.green, "none over \(DurationFormat.text(budget))")
            : paint(.red, "\(stats.overBudget) over \(DurationFormat.text(budget))")
        return "\(what) ×\(stats.count)".padding(11) + figures.joined(separator: " · ") + " · " + over
    }

    private func inputHeader(_ input: InputSummary) -> String {
        let name = bold(Sanitizer.terminal(input.name))
        if let error = input.error {
            return "\(name) — \(paint(.red, error.inputLabel)): \(Sanitizer.terminal(String(describing: error)))\n"
        }
        let parts = input.readingParts
        let format = input.format ?? "no known format"
        var text = "\(name) — \(format) · \(input.lines) lines: \(parts.joined(separator: ", "))"
        text += " · \(input.lifecycleEvents) lifecycle events\n"
        let notes = input.readingNotes
        if !notes.isEmpty { text += dim("  " + notes.joined(separator: " · ")) + "\n" }
        return text
    }

    /// A process's text, handed to `body` a part at a time: its head, each episode, each event (with `showEvents`),
    /// the notices, each violation, the clock anomalies. So a process of very many episodes, events or violations
    /// is written without its text ever being whole.
    private func forEachPart(_ process: ProcessReport, _ body: (String) throws -> Void) rethrows {
        try body(head(process))
        if process.episodes.isEmpty {
            try body(dim("    no episode: no app-delegate transition was logged") + "\n")
        } else {
            for episode in process.episodes { try body(self.episode(episode)) }
        }
        if showEvents {
            for event in process.events {
                let time = event.time.map { $0.timeOfDay + "  " } ?? ""
                let text = "      L\(event.line)  \(time)\(event.event.callbackName) → \(event.state.rawValue)"
                try body(dim(text) + "\n")
            }
        }
        try body(notices(process))
        for violation in process.violations { try body(self.violation(violation)) }
        try body(anomalies(process))
    }

    /// What comes before the episodes: the name, the span and the launch.
    private func head(_ process: ProcessReport) -> String {
        var span = "lines \(process.firstLine)–\(process.lastLine)"
        if let first = process.firstTime, let last = process.lastTime {
            span += " · \(first.timeOfDay) → \(last.timeOfDay)"
        }
        var out =
            "\n  \(bold(Sanitizer.terminal(process.displayName)))  \(dim(span)) · ends \(process.finalState.rawValue)\n"
        if let launch = process.launch { out += self.launch(launch) }
        return out
    }

    /// What comes after the episodes and events: the scene notice and the exit.
    private func notices(_ process: ProcessReport) -> String {
        var out = ""
        if let notice = process.events.first(where: { $0.event == .sceneLifecycleRequired }) {
            out += paint(.yellow, "    ⚠ UIKit") + "  L\(notice.line)  the app does not adopt the UIScene lifecycle "
            out += "(TN3187): an assert in a future iOS\n"
        }
        if let exit = process.exit {
            let what = exit.signal.map { "\(exit.reason.rawValue), signal \($0)" } ?? exit.reason.rawValue
            out += paint(.yellow, "    exit  \(what)") + "  L\(exit.line)  \(Sanitizer.terminal(exit.evidence))\n"
        }
        return out
    }

    /// The clock anomalies, after the violations.
    private func anomalies(_ process: ProcessReport) -> String {
        var out = ""
        for anomaly in process.clockAnomalies {
            out += paint(.yellow, "    ⚠ clock anomaly") + "  L\(anomaly.line) \(anomaly.time.timeOfDay)  went back "
            out += "\(DurationFormat.text(anomaly.backwardsMs)) from L\(anomaly.previousLine) "
            out += "\(anomaly.previousTime.timeOfDay) (kept in input order)\n"
        }
        if process.clockAnomalyCount > process.clockAnomalies.count {
            out +=
                dim("      … \(process.clockAnomalyCount - process.clockAnomalies.count) more clock anomalies") + "\n"
        }
        return out
    }

    private func launch(_ launch: LaunchReport) -> String {
        var out = "    launch  " + launchVerdict(launch) + "\n"
        let points = launch.milestones.map { milestone -> String in
            let offset = milestone.offsetMs.map { " +" + DurationFormat.text($0) } ?? ""
            return "\(milestone.name) L\(milestone.line)\(offset)"
        }
        if !points.isEmpty { out += dim("      " + points.joined(separator: " · ")) + "\n" }
        return out
    }

    /// `1.9 s to active (budget 400 ms)  ✗ over budget by 1.5 s`, `never became active in this log` …
    func launchVerdict(_ launch: LaunchReport) -> String {
        var line = ""
        if let duration = launch.durationMs {
            line +=
                bold(DurationFormat.text(duration)) + " to active (budget \(DurationFormat.text(launch.budgetMs)))  "
            if launch.excluded {
                line += paint(.yellow, "not checked: \(launch.excludedReason ?? "excluded")")
            } else if launch.overBudget {
                line += paint(.red, "✗ over budget by \(DurationFormat.text(duration - launch.budgetMs))")
            } else {
                line += paint(.green, "✓ within budget")
            }
            if launch.watchdogRisk { line += paint(.red, "  watchdog territory (0x8badf00d)") }
        } else if launch.excluded {
            line += paint(.yellow, "not checked: \(launch.excludedReason ?? "excluded"), never active in this log")
        } else if launch.endLine == nil {
            line += paint(.yellow, "never became active in this log")
        } else {
            line += dim("no timestamps to measure")
        }
        return line
    }

    private func episode(_ episode: Episode) -> String {
        let lines =
            episode.startLine == episode.endLine ? "L\(episode.startLine)" : "L\(episode.startLine)–\(episode.endLine)"
        let time = episode.start?.timeOfDay ?? ""
        let scenario = episode.scenario.rawValue.padding(26)
        var out = "    \(lines.padding(11)) \(time.padding(15)) \(paint(color(for: episode.scenario), scenario))"
        out += " \(episode.confidence.rawValue.padding(7))"
        if let duration = episode.durationMs { out += " " + DurationFormat.text(duration) }
        while out.last == " " { out.removeLast() }
        out += "\n"
        // The evidence quotes log text (an exit line, a successor's name).
        out += dim("        \(Sanitizer.terminal(episode.evidence)) — \(episode.causes.joined(separator: "; "))") + "\n"
        return out
    }

    private func violation(_ violation: Violation) -> String {
        let time = violation.time.map { " \($0.timeOfDay)" } ?? ""
        let head = paint(.red, "    ✗ violation \(violation.rule.number) \(violation.rule.rawValue)")
        return "\(head)  L\(violation.line)\(time)  \(violation.rule.title)\n"
            + "        \(Sanitizer.terminal(violation.message))\n"
    }

    /// What live mode prints at the end: each input's reading, the per-app figures and the summary with the
    /// result and exit code (the end of the batch report).
    public func closing(_ report: AnalysisReport) -> String {
        var out = "\n"
        for input in report.inputs { out += inputHeader(input) }
        out += "\n" + apps(report.aggregate) + summary(report)
        return out
    }

    private func summary(_ report: AnalysisReport) -> String {
        let totals = report.totals
        let episodes = totals.episodes
        let scenarios = totals.scenarioCounts.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
        var out = bold("Summary") + ": \(report.inputs.count) input\(report.inputs.count == 1 ? "" : "s"), "
        out += "\(report.processes.count) process\(report.processes.count == 1 ? "" : "es"), "
        out += "\(episodes) episode\(episodes == 1 ? "" : "s")"
        if !scenarios.isEmpty { out += " (\(scenarios))" }
        out += "\n"
        let violations = totals.violations
        out += "  violations: " + (violations == 0 ? paint(.green, "none") : paint(.red, "\(violations)")) + "\n"
        var launchLine = "  launches: \(totals.launches), \(totals.measuredLaunches) measured"
        let over = totals.launchesOverBudget
        launchLine += over == 0 ? ", none over budget" : ", " + paint(.red, "\(over) over budget")
        if let slowest = totals.slowestLaunchMs {
            launchLine += ", slowest \(DurationFormat.text(slowest))"
        }
        out += launchLine + "\n"
        let resumes = totals.timedResumes
        if resumes > 0 {
            let overResumes = totals.resumesOverBudget
            out += "  resumes: \(resumes) timed, "
            out += overResumes == 0 ? "none over budget\n" : paint(.red, "\(overResumes) over budget") + "\n"
        }
        switch report.exitStatus(totals) {
        case .clean: out += "  result: " + paint(.green, "clean") + " (exit 0)\n"
        case .findings:
            let failing = report.failingFindings(totals).map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
            out += "  result: " + paint(.red, "findings: \(failing)") + " (exit 1)\n"
        case .inputProblem:
            let reason =
                report.failedInputs.isEmpty
                ? "no lifecycle events found" : "\(report.failedInputs.count) input(s) \(report.failedInputsLabel)"
            out += "  result: " + paint(.yellow, "input problem: \(reason)") + " (exit 2)\n"
        case .usage: break
        }
        return out
    }

    // MARK: Styling

    enum Colour: String {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    }

    func color(for scenario: Scenario) -> Colour {
        switch scenario {
        case .launch, .returnToForeground: return .green
        case .killedInForeground, .unresolvedInterruption: return .red
        case .killedInBackground, .memoryWarning, .termination: return .yellow
        case .interruption, .leftViaAlert, .interruptionToBackground: return .magenta
        case .enterBackground, .backgroundLaunch: return .cyan
        }
    }

    func paint(_ colour: Colour, _ text: String) -> String {
        color ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }

    func red(_ text: String) -> String { paint(.red, text) }
    func green(_ text: String) -> String { paint(.green, text) }
    func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}

extension String {
    /// Left-aligned in `width` columns (never cut).
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

/// Makes log text safe to show on a terminal: control characters (ANSI escapes, carriage returns, C1 controls)
/// and bidi controls become visible escapes (`\u{1b}`, `\u{202e}`), so a log can neither drive the terminal nor
/// reorder what it shows.
public enum Sanitizer {
    public static func terminal(_ text: String) -> String { hidden(text) }

    private static let hidden = ScalarEscaper { String.isHidden($0) ? String.visibleEscape($0) : nil }
}
