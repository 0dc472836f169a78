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

    public init(
        count: Int, minMs: Double, p50Ms: Double, p90Ms: Double, p99Ms: Double, maxMs: Double, overBudget: Int
    ) {
        self.count = count
        self.minMs = minMs
        self.p50Ms = p50Ms
        self.p90Ms = p90Ms
        self.p99Ms = p99Ms
        self.maxMs = maxMs
        self.overBudget = overBudget
    }

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
    /// The report's totals, counted in the same pass (``AnalysisReport/totals`` takes them from here).
    let totals: AnalysisReport.Totals

    /// Adds up the processes in one pass, one at a time: a big input's processes are decoded from its temporary
    /// file as they are read, so none is held longer than it takes to count it.
    public init(_ report: AnalysisReport) {
        var byName: [String: AppTally] = [:]
        // The inputs by number (the first of a name), so that a process's input is looked up once, not hashed for
        // each tally: a batch's processes come input after input, and most are looked up not at all.
        var numbers: [String: Int] = [:]
        for input in report.inputs where numbers[input.name] == nil { numbers[input.name] = numbers.count }
        var byInput = Array(repeating: InputTally(), count: numbers.count)
        var last: (name: String, number: Int)?
        let folder = report.options.spillFolder
        var totals = AnalysisReport.Totals()
        report.processes.forEachReport(events: false) { process in
            totals.add(process)
            let number: Int
            if let last, last.name == process.input {
                number = last.number
            } else if let known = numbers[process.input] {
                number = known
            } else {
                number = numbers.count
                numbers[process.input] = number
                byInput.append(InputTally())
            }
            last = (process.input, number)
            // One pass over a process's episodes for both (a process may have hundreds of thousands, read back from
            // the spill file).
            let episodes = byName[Self.appName(process), default: AppTally(folder: folder)].add(process, input: number)
            byInput[number].add(process, episodes)
        }
        self.totals = totals
        apps = byName.sorted { $0.key < $1.key }.map { $0.value.app($0.key, report.options) }
        inputs = report.inputs.map { input in
            let tally = numbers[input.name].map { byInput[$0] } ?? InputTally()
            return InputRow(
                name: input.name, format: input.format, lines: input.lines, unparsedLines: input.unparsedLines,
                processes: tally.processes, lifecycleEvents: input.lifecycleEvents, launches: tally.launches,
                overBudget: tally.overBudget, violations: tally.violations,
                killedInForeground: tally.killedInForeground, error: input.error)
        }
    }

    /// The name an app is grouped under.
    static func appName(_ process: ProcessReport) -> String {
        process.name.isEmpty ? ProcessReport.displayName(name: "", pid: -1) : process.name
    }

    /// One app's figures as its processes go by.
    private struct AppTally {
        var processes = 0
        /// The inputs' numbers (``Aggregate/init(_:)``'s).
        var inputs: Set<Int> = []
        var launchesSeen = 0
        var launchDurations: Durations
        var launchesOverBudget = 0
        var launchesExcluded = 0
        var watchdogRisks = 0
        var resumeDurations: Durations
        /// The app's episodes: per scenario, and the timed resumes over budget.
        var episodes = EpisodeTally()
        var violations: [ViolationRule: Int] = [:]
        var uncleanExits: [ExitReason: Int] = [:]

        /// Durations past the first 65,536 go to a temporary file in `folder` (nil: `$TMPDIR`).
        init(folder: String?) {
            launchDurations = Durations(folder: folder)
            resumeDurations = Durations(folder: folder)
        }

        /// Adds `process`, from the input numbered `input`, and gives what its input's tally counts of its episodes.
        mutating func add(_ process: ProcessReport, input: Int) -> EpisodeCounts {
            let before = EpisodeCounts(
                overBudget: episodes.resumesOverBudget, killedInForeground: episodes.killedInForeground)
            processes += 1
            inputs.insert(input)
            if let launch = process.launch {
                launchesSeen += 1
                if let duration = launch.durationMs {
                    if launch.excluded {
                        launchesExcluded += 1
                    } else {
                        launchDurations.append(duration)
                        if launch.overBudget { launchesOverBudget += 1 }
                    }
                }
                if launch.watchdogRisk { watchdogRisks += 1 }
            }
            if let tally = process.episodeTally, let durations = process.resumeDurations {
                // Counted as the report was made, the resumes' durations collected beside them: no pass over them
                // (only over the durations, eight bytes each).
                episodes.add(tally)
                for duration in durations { resumeDurations.append(duration) }
            } else {
                for episode in process.episodes {
                    episodes.add(episode)
                    if let duration = episode.resumeDuration { resumeDurations.append(duration) }
                }
            }
            violations.merge(process.countsByRule, uniquingKeysWith: +)
            if let reason = process.exit?.reason, reason != .voluntary { uncleanExits[reason, default: 0] += 1 }
            // Only a timed resume is judged against a budget (`ProcessTimeline.judged`).
            return EpisodeCounts(
                overBudget: episodes.resumesOverBudget - before.overBudget,
                killedInForeground: episodes.killedInForeground - before.killedInForeground)
        }

        func app(_ name: String, _ options: AnalysisOptions) -> App {
            var app = App(
                name: name, launchBudgetMs: options.launchBudget(for: name),
                resumeBudgetMs: options.resumeBudget(for: name))
            app.processes = processes
            app.inputs = inputs.count
            app.launchesSeen = launchesSeen
            app.launches = launchDurations.stats(overBudget: launchesOverBudget)
            app.launchesExcluded = launchesExcluded
            app.watchdogRisks = watchdogRisks
            app.resumes = resumeDurations.stats(overBudget: episodes.resumesOverBudget)
            app.scenarios = counted(episodes.scenarios, in: Scenario.allCases)
            app.violations = counted(violations, in: ViolationRule.allCases)
            app.uncleanExits = counted(uncleanExits, in: ExitReason.allCases)
            return app
        }
    }

    /// One input's figures as its processes go by.
    private struct InputTally {
        var processes = 0
        var launches = 0
        var overBudget = 0
        var violations = 0
        var killedInForeground = 0

        mutating func add(_ process: ProcessReport, _ episodes: EpisodeCounts) {
            processes += 1
            if process.launch != nil { launches += 1 }
            overBudget += (process.launch?.overBudget == true ? 1 : 0) + episodes.overBudget
            violations += process.violations.count
            killedInForeground += episodes.killedInForeground
        }
    }

    /// What an input's tally counts of a process's episodes, counted in its app's pass over them.
    private struct EpisodeCounts {
        var overBudget = 0
        var killedInForeground = 0
    }

    /// The counts of the values that occur, in the order of `all`.
    private static func counted<T: Hashable>(_ counts: [T: Int], in all: [T]) -> [(T, Int)] {
        all.compactMap { value in counts[value].map { (value, $0) } }
    }
}

extension ProcessReport {
    /// Resumes judged against their budget (timed `return-to-foreground` episodes).
    public var timedResumes: [Episode] { episodes.filter { $0.budgetMs != nil } }
    /// Timed resumes over their budget (counted as the report was made: ``episodeTally``; else, for a report made
    /// otherwise, in a pass over them).
    public var resumesOverBudget: Int { episodeTally?.resumesOverBudget ?? episodes.count(where: \.overBudget) }
    /// `killed-in-foreground` episodes (as ``resumesOverBudget``, from ``episodeTally`` when there is one).
    public var killedInForeground: Int {
        episodeTally?.killedInForeground ?? episodes.count { $0.scenario == .killedInForeground }
    }
}
