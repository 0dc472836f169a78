/// One finding as the CI reporters (Markdown, JUnit, GitHub annotations) show it: where it lands, what kind it is
/// and whether the failure policy fails the run on it.
///
/// The three CI formats render the same list, so a finding that fails a pull request in one of them fails it in
/// all of them, with the same words.
struct CIFinding: Sendable {
    enum Kind: Sendable, Equatable {
        case violation(ViolationRule)
        case launchOverBudget
        case resumeOverBudget
        /// A launch in watchdog territory that is not over its budget (only when the watchdog threshold is set below
        /// the budget; otherwise the over-budget finding says it).
        case watchdogRisk
        case killedInForeground
        case clockAnomaly
    }

    var kind: Kind
    var input: String
    /// Where the finding starts (1-based physical line) and, for a span, where it ends.
    var line: Int
    var endLine: Int?
    /// The index of the process in ``AnalysisReport/processes``.
    var processIndex: Int
    /// The process as shown to people (`App [123]`).
    var process: String
    /// What happened, without the process's name.
    var detail: String
    /// True when ``AnalysisOptions/failOn`` fails the run on this kind of finding.
    var failing: Bool

    /// What the finding says with the process's name in front.
    var message: String { "\(process): \(detail)" }

    /// `3` or `1–10`.
    var lines: String {
        guard let endLine, endLine != line else { return "\(line)" }
        return "\(line)–\(endLine)"
    }

    /// `line 3` or `lines 1–10`.
    var location: String { lines == "\(line)" ? "line \(line)" : "lines \(lines)" }

    /// What the rule says, for a violation (a longer text than the title, for reports with room).
    var explanation: String? {
        guard case .violation(let rule) = kind else { return nil }
        return "rule \(rule.number), \(rule.rawValue): \(rule.title)"
    }

    /// The failure-policy finding this kind counts under; nil for notes that never fail a run.
    var policyFinding: FailurePolicy.Finding? {
        switch kind {
        case .violation: return .violations
        case .launchOverBudget, .resumeOverBudget: return .overBudget
        case .watchdogRisk: return nil
        case .killedInForeground: return .killedInForeground
        case .clockAnomaly: return .clockAnomalies
        }
    }

    /// A stable identifier: the rule's id for a violation, `over-budget`, `watchdog`, `killed-in-foreground`,
    /// `clock-anomaly` (JUnit's failure `type`).
    var type: String {
        switch kind {
        case .violation(let rule): return rule.rawValue
        case .launchOverBudget, .resumeOverBudget: return "over-budget"
        case .watchdogRisk: return "watchdog"
        case .killedInForeground: return Scenario.killedInForeground.rawValue
        case .clockAnomaly: return "clock-anomaly"
        }
    }

    /// A short heading (a GitHub annotation's title).
    var title: String {
        switch kind {
        case .violation(let rule): return "Lifecycle violation \(rule.rawValue) (rule \(rule.number))"
        case .launchOverBudget: return "Launch over budget"
        case .resumeOverBudget: return "Resume over budget"
        case .watchdogRisk: return "Launch in watchdog territory"
        case .killedInForeground: return "Killed in foreground"
        case .clockAnomaly: return "Clock went backwards"
        }
    }

    /// At most this many findings of a report are listed by the CI reports (the Markdown summary its first 25).
    static let listed = 1_000

    /// Every finding of `report`, in input order, then line order (the reports list the first ones: ``Digest``).
    static func all(in report: AnalysisReport) -> [CIFinding] {
        var found: [(key: Key, finding: CIFinding)] = []
        forEach(in: report) { found.append(($0, $1)) }
        return found.sorted { $0.key < $1.key }.map(\.finding)
    }

    /// Where a finding comes in report order: its input's place, its line, then the order made (so the order is
    /// the same on every run whatever a sort's stability).
    typealias Key = (input: Int, line: Int, made: Int)

    /// Every finding of `report` in the order made, with where it comes in report order; one process at a time
    /// (without its events), so a report of very many findings is never held whole.
    static func forEach(in report: AnalysisReport, _ body: (Key, CIFinding) -> Void) {
        var inputOrder: [String: Int] = [:]
        for (index, input) in report.inputs.enumerated() where inputOrder[input.name] == nil {
            inputOrder[input.name] = index
        }
        var made = 0
        for index in report.processes.indices {
            report.processes.withReport(at: index, events: false) { process in
                let input = inputOrder[process.input] ?? Int.max
                forEach(of: process, at: index, options: report.options) { finding in
                    body((input, finding.line, made), finding)
                    made += 1
                }
            }
        }
    }

    /// The first ``limit`` of any number of findings in an order (``Key``), offered one at a time: the others are
    /// only counted. A process of hundreds of thousands of violations is summed up without holding them.
    struct First: Sendable {
        let limit: Int
        private var kept: [(key: Key, finding: CIFinding)] = []
        /// How many were offered.
        private(set) var count = 0

        init(_ limit: Int) { self.limit = limit }

        /// The first ones, in order.
        var findings: [CIFinding] { kept.map(\.finding) }
        /// How many were offered and not kept.
        var more: Int { count - kept.count }

        mutating func offer(_ finding: CIFinding, at key: Key) {
            count += 1
            if kept.count == limit {
                guard let last = kept.last, key < last.key else { return }
                kept.removeLast()
            }
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if kept[middle].key < key { low = middle + 1 } else { high = middle }
            }
            kept.insert((key, finding), at: low)
        }
    }

    /// The first findings of a process or a report in order, those that fail the run and those that do not
    /// apart, with counts (of all, and by input): what the CI reports show, made in one pass.
    struct Digest: Sendable {
        var first: First
        var failing: First
        var reported: First
        var failingByInput: [String: Int] = [:]
        var reportedByInput: [String: Int] = [:]

        init(limit: Int) {
            first = First(limit)
            failing = First(limit)
            reported = First(limit)
        }

        /// The findings of `report`.
        init(_ report: AnalysisReport, limit: Int) {
            self.init(limit: limit)
            CIFinding.forEach(in: report) { add($1, at: $0) }
        }

        /// The findings of `process` (the one at `index`), in line order. With a `limit` of 0 they are only
        /// counted, and not worded (``CIFinding/detail`` and ``CIFinding/process`` empty, never shown).
        init(_ process: ProcessReport, at index: Int, options: AnalysisOptions, limit: Int) {
            self.init(limit: limit)
            var made = 0
            CIFinding.forEach(of: process, at: index, options: options, worded: limit > 0) { finding in
                add(finding, at: (0, finding.line, made))
                made += 1
            }
        }

        private mutating func add(_ finding: CIFinding, at key: Key) {
            first.offer(finding, at: key)
            if finding.failing {
                failing.offer(finding, at: key)
                failingByInput[finding.input, default: 0] += 1
            } else {
                reported.offer(finding, at: key)
                reportedByInput[finding.input, default: 0] += 1
            }
        }
    }

    /// Every finding of one process (the one at `index`), in the order made; without `worded`, with an empty
    /// ``detail`` and ``process`` (for counting: JUnit's suites count a process's failures before its case lists
    /// them, and the words were most of that count's cost).
    private static func forEach(
        of process: ProcessReport, at index: Int, options: AnalysisOptions, worded: Bool = true,
        _ body: (CIFinding) -> Void
    ) {
        // Worked out at the first finding, once.
        var shownName: String?
        func add(_ kind: Kind, _ line: Int, _ endLine: Int?, _ detail: @autoclosure () -> String) {
            let name = worded ? shownName ?? process.displayName : ""
            shownName = name
            var finding = CIFinding(
                kind: kind, input: process.input, line: line, endLine: endLine, processIndex: index,
                process: name, detail: worded ? detail() : "", failing: false)
            finding.failing = finding.policyFinding.map(options.failOn.fails(on:)) ?? false
            body(finding)
        }
        for violation in process.violations {
            add(.violation(violation.rule), violation.line, nil, violation.message)
        }
        if let launch = process.launch, let duration = launch.durationMs {
            // Worded only for a launch that has a finding (most have none).
            var took: String { "launch took \(DurationFormat.text(duration)) to active" }
            var watchdog: String {
                "in watchdog territory (0x8badf00d at about \(DurationFormat.text(options.watchdog(for: process.name))))"
            }
            var overBudget: String {
                var detail = took + ", over its \(DurationFormat.text(launch.budgetMs)) budget by "
                detail += DurationFormat.text(duration - launch.budgetMs)
                if launch.watchdogRisk { detail += "; " + watchdog }
                return detail
            }
            if launch.overBudget {
                add(.launchOverBudget, launch.startLine, launch.endLine, overBudget)
            } else if launch.watchdogRisk {
                add(.watchdogRisk, launch.startLine, launch.endLine, took + ", " + watchdog)
            }
        }
        // A process whose episodes were counted as they went to the file is read again only when it has some to list.
        let listed = process.episodeTally.map { $0.resumesOverBudget > 0 || $0.killedInForeground > 0 } ?? true
        for episode in listed ? process.episodes : [] {
            if episode.overBudget, let duration = episode.durationMs, let budget = episode.budgetMs {
                var detail: String {
                    "resume (willEnterForeground → didBecomeActive) took \(DurationFormat.text(duration)), "
                        + "over its \(DurationFormat.text(budget)) budget by \(DurationFormat.text(duration - budget))"
                }
                add(.resumeOverBudget, episode.startLine, episode.endLine, detail)
            }
            if episode.scenario == .killedInForeground {
                add(.killedInForeground, episode.startLine, episode.endLine, episode.evidence)
            }
        }
        let unlisted = process.clockAnomalyCount - process.clockAnomalies.count
        for (position, anomaly) in process.clockAnomalies.enumerated() {
            var detail: String {
                let backwards = DurationFormat.text(anomaly.backwardsMs)
                var detail = "timestamp \(anomaly.time.timeOfDay) is \(backwards) earlier "
                detail += "than line \(anomaly.previousLine)'s \(anomaly.previousTime.timeOfDay) (kept in input order)"
                if unlisted > 0, position == process.clockAnomalies.count - 1 {
                    detail += "; \(unlisted) more in this process not listed"
                }
                return detail
            }
            add(.clockAnomaly, anomaly.line, nil, detail)
        }
    }
}

extension AnalysisReport {
    /// The run's result in a few words: `clean`, `findings: 7 violations, 1 over-budget`,
    /// `input problem: 1 input unreadable`.
    var resultSummary: String {
        switch exitStatus {
        case .clean, .usage:
            return "clean"
        case .findings:
            return "findings: " + failingFindings.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        case .inputProblem:
            if failedInputs.isEmpty { return "input problem: no lifecycle events found" }
            let count = failedInputs.count
            return "input problem: \(count) input\(count == 1 ? "" : "s") \(failedInputsLabel)"
        }
    }

    /// The failure policy as written in `--fail-on` (`violations,over-budget`, or `none`).
    var failOnDescription: String {
        let names = options.failOn.names
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
