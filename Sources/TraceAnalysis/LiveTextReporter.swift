/// Renders a live finding as one compact line for a terminal (`--follow`, text): the log time, the process, then
/// what was found, in the batch report's words.
///
/// ```
/// 12:25:57.286  AppDelegate [12199]  enter-background high  L8–9  1 ms between willResignActive and … — Home button…
/// 12:30:01.127  AppDelegate [12199]  ✗ violation 3 resign-while-not-active  L14  applicationWillResignActive while …
/// 12:24:09.941  AppDelegate [12199]  launch  27 ms to active (budget 400 ms)  ✓ within budget  L1–5
/// 12:33:21.602  AppDelegate [12199]  ↺ correction  was: killed-in-background medium L40  now: withdrawn (line 45)
/// ```
public struct LiveTextReporter: Sendable {
    private let text: TextReporter

    /// `color`: ANSI colours (the caller decides: only on a terminal, never with NO_COLOR).
    public init(color: Bool = false) { text = TextReporter(color: color) }

    /// The finding's line, with its newline; log text in it is made safe for a terminal.
    public func line(_ finding: LiveFinding) -> String {
        let subject = finding.current ?? finding.previousSubject
        let time = subject.time.map { $0.timeOfDay + "  " } ?? ""
        let head = time + text.bold(Sanitizer.terminal(finding.displayName)) + "  "
        switch finding.kind {
        case .finding(let subject):
            return head + describe(subject, elapsedMs: finding.elapsedMs) + "\n"
        case .correction(let previous, let current):
            let why: String
            switch finding.trigger {
            case .line, .logClock: why = "line \(finding.line)"
            case .idle: why = "idle after line \(finding.line)"
            case .end: why = "end of input"
            }
            let now = current.map { "now: " + describe($0, elapsedMs: finding.elapsedMs) } ?? "now: withdrawn"
            return head + text.paint(.yellow, "↺ correction") + " (\(why))  was: " + brief(previous) + "  " + now
                + "\n"
        }
    }

    /// What ends the output: the input's reading, the per-app figures and the summary with the exit code, as
    /// the batch text report ends.
    public func closing(_ report: AnalysisReport) -> String { text.closing(report) }

    private func describe(_ subject: LiveFinding.Subject, elapsedMs: Double?) -> String {
        switch subject {
        case .episode(let episode):
            var out = text.paint(text.color(for: episode.scenario), episode.scenario.rawValue) + " "
            out += episode.confidence.rawValue + "  " + lines(episode.startLine, episode.endLine)
            if let scene = episode.scene { out += " scene \(scene.isEmpty ? "-" : Sanitizer.terminal(scene))" }
            if let duration = episode.durationMs {
                out += "  " + DurationFormat.text(duration)
                if let budget = episode.budgetMs {
                    out +=
                        episode.overBudget
                        ? " " + text.paint(.red, "✗ over the \(DurationFormat.text(budget)) resume budget")
                        : " " + text.paint(.green, "✓")
                }
            }
            return out + "  "
                + text.dim(Sanitizer.terminal("\(episode.evidence) — \(episode.causes.joined(separator: "; "))"))
        case .violation(let violation):
            return text.paint(.red, "✗ violation \(violation.rule.number) \(violation.rule.rawValue)")
                + "  L\(violation.line)  " + Sanitizer.terminal(violation.message)
        case .launch(let launch):
            let span = launch.endLine.map { lines(launch.startLine, $0) } ?? "L\(launch.startLine)–"
            guard launch.endLine == nil, launch.overBudget else {
                return "launch  " + text.launchVerdict(launch) + "  " + span
            }
            let elapsed = elapsedMs.map { " after \(DurationFormat.text($0))" } ?? ""
            var out = "launch  not active yet\(elapsed) (budget \(DurationFormat.text(launch.budgetMs)))  "
            out += text.paint(.red, "✗ over budget, still launching")
            if launch.watchdogRisk { out += text.paint(.red, "  watchdog territory (0x8badf00d)") }
            return out + "  " + span
        }
    }

    /// What a correction replaces, in a few words.
    private func brief(_ subject: LiveFinding.Subject) -> String {
        switch subject {
        case .episode(let episode):
            return
                "\(episode.scenario.rawValue) \(episode.confidence.rawValue) \(lines(episode.startLine, episode.endLine))"
        case .violation(let violation):
            return "violation \(violation.rule.number) \(violation.rule.rawValue) L\(violation.line)"
        case .launch(let launch):
            if let duration = launch.durationMs { return "launch \(DurationFormat.text(duration)) to active" }
            return launch.overBudget ? "launch over budget, not active yet" : "launch never active"
        }
    }

    private func lines(_ start: Int, _ end: Int) -> String { start == end ? "L\(start)" : "L\(start)–\(end)" }
}

extension LiveFinding {
    /// A correction's previous finding, else the finding itself.
    var previousSubject: Subject {
        switch kind {
        case .finding(let subject): return subject
        case .correction(let previous, _): return previous
        }
    }
}

extension LiveFinding.Subject {
    /// When it happened, by the log: an episode's start, a violation's time, a launch's end (else start).
    public var time: Timestamp? {
        switch self {
        case .episode(let episode): return episode.start
        case .violation(let violation): return violation.time
        case .launch(let launch): return launch.end ?? launch.start
        }
    }
}
