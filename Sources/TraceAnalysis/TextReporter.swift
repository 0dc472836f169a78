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
    /// big report never exists whole; processes are rendered on up to `jobs` threads, written in order. Each piece
    /// is written as bytes (``ReportText``).
    public func write(
        _ report: AnalysisReport, jobs: Int = 1, chunkSize: Int = 64 * 1024, to sink: ([UInt8]) throws -> Void
    ) rethrows {
        // Each input's header, then its processes (an input without any has only its header).
        let byInput = report.processIndicesByInput
        let pieces: [(input: Int, process: Int?)] = report.inputs.indices.flatMap { input in
            [(input, nil)] + (byInput[report.inputs[input].name] ?? []).map { (input, $0) }
        }
        try OrderedParallel.writeBytes(pieces: pieces.count, jobs: jobs, chunkSize: chunkSize, to: sink) { index in
            let (input, process) = pieces[index]
            var out = ReportText()
            guard let process else {
                if input > 0 { out.append("\n") }
                inputHeader(report.inputs[input], &out)
                return out.take()
            }
            // A process of very many items is written from its parts on the writing thread, not whole here.
            return report.processes.withReport(at: process) { item in
                guard item.itemCount <= OrderedParallel.streamedItems else { return nil }
                forEachPart(item, &out) { _ in }
                return out.take()
            }
        } parts: { index, emit in
            // Only a process gives no bytes above (an input header always does).
            var out = ReportText()
            try report.processes.withReport(at: pieces[index].process ?? 0) { item in
                try forEachPart(item, &out) { try emit($0.take()) }
            }
        } tail: {
            Array(((report.inputs.isEmpty ? "" : "\n") + apps(report.aggregate) + summary(report)).utf8)
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
        // At least one space after the count: `resume ×279 min 1 ms`, never `resume ×279min`.
        return "\(what) ×\(stats.count) ".padding(11) + figures.joined(separator: " · ") + " · " + over
    }

    private func inputHeader(_ input: InputSummary, _ out: inout ReportText) {
        styled(.bold, &out) { $0.append(input.name, escaping: Sanitizer.escaper) }
        if let error = input.error {
            out.append(" — ")
            styled(.red, &out) { $0.append(error.inputLabel) }
            out.append(": ")
            out.append(String(describing: error), escaping: Sanitizer.escaper)
            out.append("\n")
            return
        }
        out.append(" — ")
        out.append(input.format ?? "no known format")
        out.append(" · ")
        out.append(input.lines)
        out.append(" lines: ")
        out.append(input.readingParts.joined(separator: ", "))
        out.append(" · ")
        out.append(input.lifecycleEvents)
        out.append(" lifecycle events\n")
        let notes = input.readingNotes
        if !notes.isEmpty {
            styled(.dim, &out) { $0.append("  " + notes.joined(separator: " · ")) }
            out.append("\n")
        }
    }

    /// A process's text, written to `out` a part at a time: its head, each episode, each event (with
    /// `showEvents`), the notices, each violation, the clock anomalies; `partWritten` is called with `out` after
    /// each part, so a process of very many episodes, events or violations is written without its text ever being
    /// whole.
    private func forEachPart(
        _ process: ProcessReport, _ out: inout ReportText, _ partWritten: (inout ReportText) throws -> Void
    ) rethrows {
        head(process, &out)
        try partWritten(&out)
        if process.episodes.isEmpty {
            styled(.dim, &out) { $0.append("    no episode: no app-delegate transition was logged") }
            out.append("\n")
            try partWritten(&out)
        } else {
            for episode in process.episodes {
                self.episode(episode, &out)
                try partWritten(&out)
            }
        }
        if showEvents {
            for event in process.events {
                styled(.dim, &out) { out in
                    out.append("      L")
                    out.append(event.line)
                    out.append("  ")
                    if let time = event.time {
                        out.appendTimeOfDay(time)
                        out.append("  ")
                    }
                    out.append(event.event.callbackName)
                    out.append(" → ")
                    out.append(event.state.rawValue)
                }
                out.append("\n")
                try partWritten(&out)
            }
        }
        notices(process, &out)
        try partWritten(&out)
        for violation in process.violations {
            self.violation(violation, &out)
            try partWritten(&out)
        }
        anomalies(process, &out)
        try partWritten(&out)
    }

    /// What comes before the episodes: the name, the span and the launch.
    private func head(_ process: ProcessReport, _ out: inout ReportText) {
        out.append("\n  ")
        styled(.bold, &out) { $0.append(process.displayName, escaping: Sanitizer.escaper) }
        out.append("  ")
        styled(.dim, &out) { $0.appendSpan(of: process, timesAfter: " · ") }
        out.append(" · ends ")
        out.append(process.finalState.rawValue)
        out.append("\n")
        if let launch = process.launch { self.launch(launch, &out) }
    }

    /// What comes after the episodes and events: the scene notice and the exit.
    private func notices(_ process: ProcessReport, _ out: inout ReportText) {
        if let notice = process.events.first(where: { $0.event == .sceneLifecycleRequired }) {
            styled(.yellow, &out) { $0.append("    ⚠ UIKit") }
            out.append("  L")
            out.append(notice.line)
            out.append("  the app does not adopt the UIScene lifecycle (TN3187): an assert in a future iOS\n")
        }
        if let exit = process.exit {
            styled(.yellow, &out) { out in
                out.append("    exit  ")
                out.append(exit.reason.rawValue)
                if let signal = exit.signal {
                    out.append(", signal ")
                    out.append(signal)
                }
            }
            out.append("  L")
            out.append(exit.line)
            out.append("  ")
            out.append(exit.evidence, escaping: Sanitizer.escaper)
            out.append("\n")
        }
    }

    /// The clock anomalies, after the violations.
    private func anomalies(_ process: ProcessReport, _ out: inout ReportText) {
        for anomaly in process.clockAnomalies {
            styled(.yellow, &out) { $0.append("    ⚠ clock anomaly") }
            out.append("  L")
            out.append(anomaly.line)
            out.append(" ")
            out.appendTimeOfDay(anomaly.time)
            out.append("  went back ")
            out.appendDuration(anomaly.backwardsMs)
            out.append(" from L")
            out.append(anomaly.previousLine)
            out.append(" ")
            out.appendTimeOfDay(anomaly.previousTime)
            out.append(" (kept in input order)\n")
        }
        if process.clockAnomalyCount > process.clockAnomalies.count {
            styled(.dim, &out) { out in
                out.append("      … ")
                out.append(process.clockAnomalyCount - process.clockAnomalies.count)
                out.append(" more clock anomalies")
            }
            out.append("\n")
        }
    }

    private func launch(_ launch: LaunchReport, _ out: inout ReportText) {
        out.append("    launch  ")
        launchVerdict(launch, &out)
        out.append("\n")
        guard !launch.milestones.isEmpty else { return }
        styled(.dim, &out) { out in
            out.append("      ")
            for (index, milestone) in launch.milestones.enumerated() {
                if index > 0 { out.append(" · ") }
                out.append(milestone.name)
                out.append(" L")
                out.append(milestone.line)
                if let offset = milestone.offsetMs {
                    out.append(" +")
                    out.appendDuration(offset)
                }
            }
        }
        out.append("\n")
    }

    /// `1.9 s to active (budget 400 ms)  ✗ over budget by 1.5 s`, `never became active in this log` …
    func launchVerdict(_ launch: LaunchReport) -> String {
        var out = ReportText()
        launchVerdict(launch, &out)
        return String(decoding: out.take(), as: UTF8.self)
    }

    private func launchVerdict(_ launch: LaunchReport, _ out: inout ReportText) {
        if let duration = launch.durationMs {
            styled(.bold, &out) { $0.appendDuration(duration) }
            out.append(" to active (budget ")
            out.appendDuration(launch.budgetMs)
            out.append(")  ")
            if launch.excluded {
                styled(.yellow, &out) { out in
                    out.append("not checked: ")
                    out.append(launch.excludedReason ?? "excluded")
                }
            } else if launch.overBudget {
                styled(.red, &out) { out in
                    out.append("✗ over budget by ")
                    out.appendDuration(duration - launch.budgetMs)
                }
            } else {
                styled(.green, &out) { $0.append("✓ within budget") }
            }
            if launch.watchdogRisk {
                styled(.red, &out) { $0.append("  watchdog territory (0x8badf00d)") }
            }
        } else if launch.excluded {
            styled(.yellow, &out) { out in
                out.append("not checked: ")
                out.append(launch.excludedReason ?? "excluded")
                out.append(", never active in this log")
            }
        } else if launch.endLine == nil {
            styled(.yellow, &out) { $0.append("never became active in this log") }
        } else {
            styled(.dim, &out) { $0.append("no timestamps to measure") }
        }
    }

    private func episode(_ episode: Episode, _ out: inout ReportText) {
        out.append("    ")
        var start = out.count
        out.append("L")
        out.append(episode.startLine)
        if episode.startLine != episode.endLine {
            out.append("–")
            out.append(episode.endLine)
        }
        out.pad(from: start, to: 11)
        out.append(" ")
        start = out.count
        if let time = episode.start { out.appendTimeOfDay(time) }
        out.pad(from: start, to: 15)
        out.append(" ")
        styled(color(for: episode.scenario), &out) { out in
            let start = out.count
            out.append(episode.scenario.rawValue)
            out.pad(from: start, to: 26)
        }
        out.append(" ")
        start = out.count
        out.append(episode.confidence.rawValue)
        out.pad(from: start, to: 7)
        if let duration = episode.durationMs {
            out.append(" ")
            out.appendDuration(duration)
        }
        out.trimTrailingSpaces()
        out.append("\n")
        // The evidence quotes log text (an exit line, a successor's name).
        styled(.dim, &out) { out in
            out.append("        ")
            out.append(episode.evidence, escaping: Sanitizer.escaper)
            out.append(" — ")
            for (index, cause) in episode.causes.enumerated() {
                if index > 0 { out.append("; ") }
                out.append(cause)
            }
        }
        out.append("\n")
    }

    private func violation(_ violation: Violation, _ out: inout ReportText) {
        styled(.red, &out) { out in
            out.append("    ✗ violation ")
            out.append(violation.rule.number)
            out.append(" ")
            out.append(violation.rule.rawValue)
        }
        out.append("  L")
        out.append(violation.line)
        if let time = violation.time {
            out.append(" ")
            out.appendTimeOfDay(time)
        }
        out.append("  ")
        out.append(violation.rule.title)
        out.append("\n        ")
        out.append(violation.message, escaping: Sanitizer.escaper)
        out.append("\n")
    }

    /// What live mode prints at the end: each input's reading, the per-app figures and the summary with the
    /// result and exit code (the end of the batch report).
    public func closing(_ report: AnalysisReport) -> String {
        var out = ReportText()
        out.append("\n")
        for input in report.inputs { inputHeader(input, &out) }
        return String(decoding: out.take(), as: UTF8.self) + "\n" + apps(report.aggregate) + summary(report)
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

    /// SGR codes: the colours, and bold and faint for names and quieter text.
    enum Colour: String {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
        case bold = "1", dim = "2"
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
        guard color else { return text }
        var out = ReportText()
        styled(colour, &out) { $0.append(text) }
        return String(decoding: out.take(), as: UTF8.self)
    }

    func red(_ text: String) -> String { paint(.red, text) }
    func green(_ text: String) -> String { paint(.green, text) }
    func bold(_ text: String) -> String { paint(.bold, text) }
    func dim(_ text: String) -> String { paint(.dim, text) }

    /// What `body` writes, in `style` when the report is in colour.
    private func styled(_ style: Colour, _ out: inout ReportText, _ body: (inout ReportText) -> Void) {
        guard color else { return body(&out) }
        out.append("\u{1B}[")
        out.append(style.rawValue)
        out.append("m")
        body(&out)
        out.append("\u{1B}[0m")
    }
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
    public static func terminal(_ text: String) -> String { escaper(text) }

    static let escaper = ScalarEscaper { String.isHidden($0) ? String.visibleEscape($0) : nil }
}
