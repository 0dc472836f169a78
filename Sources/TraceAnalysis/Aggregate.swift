/// Durations over many launches or resumes: count, min, p50, p90, p99 and max, and how many were over budget.
///
/// Percentiles are nearest-rank (the smallest value with at least p % of the values at or below it), so every
/// figure is a duration that was measured, as in Xcode Organizer's and Macrobenchmark's tables.
public struct DurationStats: Sendable, Equatable {
    public var count: Int
    public var minMs: Double
    public var p50Ms: Double
    public var p90Ms: Double
    public var p99Ms: Double
    public var maxMs: Double
    /// Durations longer than their budget.
    public var overBudget: Int

    /// Nil when there is no duration.
    public init?(_ durations: [Double], overBudget: Int) {
        guard !durations.isEmpty else { return nil }
        let sorted = durations.sorted()
        count = sorted.count
        minMs = sorted[0]
        maxMs = sorted[sorted.count - 1]
        p50Ms = Self.percentile(50, of: sorted)
        p90Ms = Self.percentile(90, of: sorted)
        p99Ms = Self.percentile(99, of: sorted)
        self.overBudget = overBudget
    }

    /// The nearest-rank percentile of ascending `sorted` values.
    public static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// What many captures add up to, per app (process name): the table a batch report or a CI gate starts from.
public struct Aggregate: Sendable {
    /// One app over every input: its launches and resumes, scenarios, violations and unclean exits.
    public struct App: Sendable {
        /// The process name (`unknown process` for lines no app could be attributed).
        public var name: String
        /// Incarnations (process name + pid) seen.
        public var processes = 0
        /// Inputs the app appears in.
        public var inputs = 0
        /// Launches the logs show, measured or not.
        public var launchesSeen = 0
        /// Measured launches that count against the budget.
        public var launches: DurationStats?
        /// Measured launches kept out of budget checks (prewarmed, launched into background, coarse timestamps).
        public var launchesExcluded = 0
        /// Launches in watchdog territory.
        public var watchdogRisks = 0
        /// Timed resumes (return-to-foreground, willEnterForeground → didBecomeActive).
        public var resumes: DurationStats?
        public var launchBudgetMs: Double
        public var resumeBudgetMs: Double
        /// Episodes per scenario, in ``Scenario/allCases`` order.
        public var scenarios: [(Scenario, Int)] = []
        /// Violations per rule, in ``ViolationRule/allCases`` order.
        public var violations: [(ViolationRule, Int)] = []
        /// Exits the system or the debugger reported, other than voluntary ones, per reason.
        public var uncleanExits: [(ExitReason, Int)] = []

        public var violationCount: Int { violations.reduce(0) { $0 + $1.1 } }
        public var uncleanExitCount: Int { uncleanExits.reduce(0) { $0 + $1.1 } }
        public func count(of scenario: Scenario) -> Int { scenarios.first { $0.0 == scenario }?.1 ?? 0 }
    }

    /// One input: how it was read and what it held.
    public struct InputRow: Sendable {
        public var name: String
        public var format: String?
        public var lines: Int
        public var unparsedLines: Int
        public var processes: Int
        public var lifecycleEvents: Int
        public var launches: Int
        public var overBudget: Int
        public var violations: Int
        public var killedInForeground: Int
        public var error: TraceAnalyzeError?
    }

    public var apps: [App]
    public var inputs: [InputRow]

    public init(_ report: AnalysisReport) {
        var byName: [String: [ProcessReport]] = [:]
        for process in report.processes { byName[Self.appName(process), default: []].append(process) }
        apps = byName.sorted { $0.key < $1.key }.map { Self.app($0.key, $0.value, report.options) }
        var byInput: [String: [ProcessReport]] = [:]
        for process in report.processes { byInput[process.input, default: []].append(process) }
        inputs = report.inputs.map { input in
            let processes = byInput[input.name] ?? []
            return InputRow(
                name: input.name, format: input.format, lines: input.lines, unparsedLines: input.unparsedLines,
                processes: processes.count, lifecycleEvents: input.lifecycleEvents,
                launches: processes.count { $0.launch != nil },
                overBudget: processes.reduce(0) { $0 + ($1.launch?.overBudget == true ? 1 : 0) + $1.resumesOverBudget },
                violations: processes.reduce(0) { $0 + $1.violations.count },
                killedInForeground: processes.reduce(0) { $0 + $1.killedInForeground },
                error: input.error)
        }
    }

    /// The name an app is grouped under.
    static func appName(_ process: ProcessReport) -> String {
        process.name.isEmpty ? ProcessReport.displayName(name: "", pid: -1) : process.name
    }

    private static func app(_ name: String, _ processes: [ProcessReport], _ options: AnalysisOptions) -> App {
        var app = App(
            name: name, launchBudgetMs: options.launchBudget(for: name), resumeBudgetMs: options.resumeBudget(for: name)
        )
        app.processes = processes.count
        app.inputs = Set(processes.map(\.input)).count
        let launches = processes.compactMap(\.launch)
        app.launchesSeen = launches.count
        let measured = launches.filter { $0.durationMs != nil && !$0.excluded }
        app.launches = DurationStats(measured.compactMap(\.durationMs), overBudget: measured.count(where: \.overBudget))
        app.launchesExcluded = launches.count { $0.durationMs != nil && $0.excluded }
        app.watchdogRisks = launches.count(where: \.watchdogRisk)
        let resumes = processes.flatMap(\.timedResumes)
        app.resumes = DurationStats(resumes.compactMap(\.durationMs), overBudget: resumes.count(where: \.overBudget))
        app.scenarios = counted(processes.flatMap { $0.episodes.map(\.scenario) }, in: Scenario.allCases)
        app.violations = counted(processes.flatMap { $0.violations.map(\.rule) }, in: ViolationRule.allCases)
        let unclean = processes.compactMap { $0.exit?.reason }.filter { $0 != .voluntary }
        app.uncleanExits = counted(unclean, in: ExitReason.allCases)
        return app
    }

    /// How often each value occurs, in the order of `all`, leaving out those that do not.
    private static func counted<T: Hashable>(_ values: [T], in all: [T]) -> [(T, Int)] {
        var counts: [T: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return all.compactMap { value in counts[value].map { (value, $0) } }
    }
}

extension ProcessReport {
    /// Resumes judged against their budget (timed `return-to-foreground` episodes).
    public var timedResumes: [Episode] { episodes.filter { $0.budgetMs != nil } }
    /// Timed resumes over their budget.
    public var resumesOverBudget: Int { episodes.count(where: \.overBudget) }
    /// `killed-in-foreground` episodes.
    public var killedInForeground: Int { episodes.count { $0.scenario == .killedInForeground } }
}
