/// Thresholds and budgets that shape the analysis; every one has a command-line option.
public struct AnalysisOptions: Sendable, Equatable {
    /// Launch budget to first didBecomeActive (Apple's first-frame target).
    public var launchBudgetMs: Double = 400
    /// Per-app launch budgets, by process name, overriding ``launchBudgetMs``.
    public var appLaunchBudgetsMs: [String: Double] = [:]
    /// A launch longer than this is in watchdog territory (0x8badf00d at about 20 s).
    public var watchdogMs: Double = 20_000
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

    public init() {}

    /// The launch budget that applies to `process`.
    public func launchBudget(for process: String) -> Double { appLaunchBudgetsMs[process] ?? launchBudgetMs }
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
