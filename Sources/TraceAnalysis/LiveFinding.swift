/// A finding of live mode (``LiveAnalysis``), handed out once, as soon as it is decided: an episode, a violation or
/// a launch result, or a correction of one handed out before.
///
/// The episode, violation and launch values are the batch report's (`ProcessReport`), so live and batch reports
/// cannot disagree on a field. See README.md, "Live mode", and Documentation/JSON.md, "Live mode (jsonl)".
public struct LiveFinding: Sendable {
    /// What a finding is about.
    public enum Subject: Sendable {
        case episode(Episode)
        case violation(Violation)
        /// A launch result: measured when the launch became active; or, with `endLine` nil and `overBudget`
        /// true, a launch that has been launching longer than its budget by the log's clock (``elapsedMs``) and is
        /// not active yet (corrected when it becomes active or the input ends).
        case launch(LaunchReport)
    }

    /// What decided a finding.
    public enum Trigger: String, Sendable {
        /// The line ``LiveFinding/line`` (an event, or the records held for a tie-break it released).
        case line
        /// The log's clock: line ``LiveFinding/line``, of any process, has a timestamp later than the threshold
        /// the decision waited for (the alert gap, the memory-warning window, the launch budget).
        case logClock = "log-clock"
        /// Nothing arrived for the idle timeout: the log's clock is taken to have run on like the wall clock.
        case idle
        /// The end of the input (or Ctrl-C): what was pending is decided as the batch report decides it.
        case end
    }

    public enum Kind: Sendable {
        /// A new finding.
        case finding(Subject)
        /// A finding handed out before that later lines changed (`current`) or withdrew (`current` nil: a kill
        /// inferred from a successor when the pid logs again, say).
        case correction(previous: Subject, current: Subject?)
    }

    public var kind: Kind
    /// The incarnation's process name (`""` when the log names none) and pid (nil when the log gives none).
    public var process: String
    public var pid: Int?
    public var input: String
    /// Lines read when it was decided.
    public var line: Int
    public var trigger: Trigger
    /// For a launch not active yet: how long it has been launching, by the log's clock.
    public var elapsedMs: Double?

    /// The process as reports show it: `App [123]`.
    public var displayName: String { ProcessReport.displayName(name: process, pid: pid ?? -1) }

    /// The finding as it now stands: the new finding, or a correction's current one (nil when withdrawn).
    public var current: Subject? {
        switch kind {
        case .finding(let subject): return subject
        case .correction(_, let current): return current
        }
    }

    public var isCorrection: Bool {
        if case .correction = kind { return true }
        return false
    }
}

extension LiveFinding.Subject {
    /// `episode`, `violation`, `launch`: the jsonl `type` and the text line's label.
    public var typeName: String {
        switch self {
        case .episode: return "episode"
        case .violation: return "violation"
        case .launch: return "launch"
        }
    }

    /// The line the finding is about (an episode's first, a violation's, a launch's end or else start).
    public var line: Int {
        switch self {
        case .episode(let episode): return episode.startLine
        case .violation(let violation): return violation.line
        case .launch(let launch): return launch.endLine ?? launch.startLine
        }
    }

    /// Whether two versions of one finding say the same thing: what a reader acts on, not what only fills in (a
    /// launch's milestones after it became active, the end of a memory-warning episode that later warnings
    /// extend).
    func says(thesame other: LiveFinding.Subject) -> Bool {
        switch (self, other) {
        case (.episode(let a), .episode(let b)):
            let extendable = a.scenario == .memoryWarning
            return a.scenario == b.scenario && a.startLine == b.startLine && a.scene == b.scene
                && a.confidence == b.confidence && a.causes == b.causes && a.durationMs == b.durationMs
                && a.overBudget == b.overBudget && (extendable || (a.endLine == b.endLine && a.evidence == b.evidence))
        case (.violation(let a), .violation(let b)):
            return a.rule == b.rule && a.line == b.line && a.message == b.message
        case (.launch(let a), .launch(let b)):
            return a.endLine == b.endLine && a.durationMs == b.durationMs && a.overBudget == b.overBudget
                && a.excluded == b.excluded && a.excludedReason == b.excludedReason && a.watchdogRisk == b.watchdogRisk
        default:
            return false
        }
    }
}
