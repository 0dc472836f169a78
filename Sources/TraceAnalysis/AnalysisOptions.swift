/// Thresholds and budgets that shape the analysis; every one has a command-line option.
public struct AnalysisOptions: Sendable, Equatable {
    /// Launch budget to first didBecomeActive (Apple's first-frame target).
    public var launchBudgetMs: Double = 400
    /// Per-app launch budgets, by process name, overriding ``launchBudgetMs``.
    public var appLaunchBudgetsMs: [String: Double] = [:]
    /// Resume budget: willEnterForeground → didBecomeActive of a `return-to-foreground`.
    public var resumeBudgetMs: Double = 200
    /// Per-app resume budgets, by process name, overriding ``resumeBudgetMs``.
    public var appResumeBudgetsMs: [String: Double] = [:]
    /// A launch longer than this is in watchdog territory (0x8badf00d at about 20 s).
    public var watchdogMs: Double = 20_000
    /// Per-app watchdog thresholds, by process name, overriding ``watchdogMs``.
    public var appWatchdogMs: [String: Double] = [:]
    /// Which findings fail the run (exit code 1).
    public var failOn: FailurePolicy = .default
    /// willResignActive → didEnterBackground within this gap is `enter-background`, after it
    /// `interruption-to-background`.
    public var backgroundGapMs: Double = 2_000
    /// didBecomeActive → willResignActive within this gap inside an interruption is `left-via-alert`.
    public var alertGapMs: Double = 1_000
    /// Memory warnings closer than this form one `memory-warning` episode.
    public var memoryWarningWindowMs: Double = 1_000
    /// A launch whose first line comes this long before didFinishLaunching was prewarmed by the system.
    public var prewarmGapMs: Double = 10_000
    /// Only this format is tried (`--input-format`), when set.
    public var inputFormat: String?
    /// The zone of zone-less timestamps (`--timezone`); the machine's local zone by default.
    public var zone: ZoneSetting = .local
    /// The year of the first line of year-less captures (syslog), when the user states it (`--year`).
    public var year: Int?
    /// The moment (seconds since 1970) logs without a year or a date are taken to end near, instead of the file's
    /// modification time (or now, for standard input).
    public var referenceTime: Int64?

    /// Where user-defined formats, prefixes and vocabulary entries were written (`trace-analyze.yml:12`), by id,
    /// so a pattern that gives up on a line can be traced to its definition.
    public var patternOrigins: [String: String] = [:]

    /// Past this estimate of an input's history in memory (bytes), its events, episodes and then its reports are
    /// kept in a temporary file instead (``SpillFile``): ordinary inputs never reach it and run as before; big
    /// ones stay within a bounded memory. Internal, so tests can set it to 0 and spill every sample.
    var spillThreshold = AnalysisOptions.defaultSpillThreshold
    /// About 35,000 lifecycle events: a capture of several hundred megabytes.
    static let defaultSpillThreshold = 8 << 20
    /// The folder of that file; nil for `$TMPDIR` (default `/tmp`). Internal: tests name one that cannot be written.
    var spillFolder: String?

    public init() {}

    /// The launch budget that applies to `process`.
    public func launchBudget(for process: String) -> Double { appLaunchBudgetsMs[process] ?? launchBudgetMs }
    /// The resume budget that applies to `process`.
    public func resumeBudget(for process: String) -> Double { appResumeBudgetsMs[process] ?? resumeBudgetMs }
    /// The watchdog threshold that applies to `process`.
    public func watchdog(for process: String) -> Double { appWatchdogMs[process] ?? watchdogMs }
}

/// The findings that fail a run (exit code 1); the others are reported and do not fail it.
public struct FailurePolicy: Sendable, Equatable {
    /// One kind of finding, as written in `fail-on:` and `--fail-on`.
    public enum Finding: String, Sendable, CaseIterable {
        /// An illegal lifecycle transition.
        case violations
        /// A launch or a resume over its budget.
        case overBudget = "over-budget"
        /// A `killed-in-foreground` episode (a crash, a watchdog or memory kill while the user looked at the app).
        case killedInForeground = "killed-in-foreground"
        /// A timestamp that went backwards.
        case clockAnomalies = "clock-anomalies"
    }

    public var findings: Set<Finding>

    public init(_ findings: Set<Finding>) { self.findings = findings }

    /// Violations and over-budget launches or resumes fail the run (0.1's behaviour).
    public static let `default` = FailurePolicy([.violations, .overBudget])

    public func fails(on finding: Finding) -> Bool { findings.contains(finding) }

    /// The findings in their documented order, as written.
    public var names: [String] { Finding.allCases.filter(findings.contains).map(\.rawValue) }

    /// Reads `violations, over-budget` (or `none`), as `--fail-on` takes it.
    public static func parse(list: String) -> Result<FailurePolicy, UnknownFinding> {
        parse(list.split(separator: ",").map { String($0).trimmingCharacters(in: " ") })
    }

    /// Reads finding names (or `none`); a failure names the first word that is not a finding.
    public static func parse(_ words: [String]) -> Result<FailurePolicy, UnknownFinding> {
        var findings: Set<Finding> = []
        for word in words where word != "none" {
            guard let finding = Finding(rawValue: word) else { return .failure(UnknownFinding(word: word)) }
            findings.insert(finding)
        }
        return .success(FailurePolicy(findings))
    }

    public struct UnknownFinding: Error, Equatable {
        public var word: String
        public var expected: String { Finding.allCases.map(\.rawValue).joined(separator: ", ") + " or none" }
    }
}

/// Reads durations as people write them: `400ms`, `1.5s`, `2m`, `250us`, or a bare number of milliseconds.
public enum DurationParser {
    public static func milliseconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: " ")
        let units: [(String, Double)] = [("ms", 1), ("us", 0.001), ("µs", 0.001), ("s", 1000), ("m", 60_000)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count)), value >= 0, value.isFinite else { return nil }
            return value * scale
        }
        guard let value = Double(trimmed), value >= 0, value.isFinite else { return nil }
        return value
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return String(slice)
    }
}
