import NativeKit

/// An accepted state of a set of captures, for CI gates: which violations are known (keyed by app, rule and
/// event, never by line, so editing a log or a test does not churn it) and how fast each app launched and
/// resumed (p90). Written by `trace-analyze baseline`, read by `trace-analyze check --baseline`.
public struct Baseline: Sendable, Equatable {
    public static let version = 1

    /// A kind of violation, independent of where it happened.
    public struct ViolationKey: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var app: String
        public var rule: String
        public var event: String

        public static func < (a: Self, b: Self) -> Bool { (a.app, a.rule, a.event) < (b.app, b.rule, b.event) }
        public var description: String { "\(app): \(rule) at \(event)" }
    }

    /// An app's timings.
    public struct AppTimes: Sendable, Equatable {
        public var launchCount = 0
        public var launchP90Ms: Double?
        public var resumeCount = 0
        public var resumeP90Ms: Double?
    }

    /// Violations per key, with how many times they occurred.
    public var violations: [ViolationKey: Int] = [:]
    /// Per app (process name).
    public var apps: [String: AppTimes] = [:]

    public init() {}

    /// The baseline a report gives.
    public init(_ report: AnalysisReport) {
        for process in report.processes {
            for violation in process.violations {
                violations[Self.key(violation, in: process), default: 0] += 1
            }
        }
        for app in Aggregate(report).apps where app.launches != nil || app.resumes != nil {
            apps[app.name] = AppTimes(
                launchCount: app.launches?.count ?? 0, launchP90Ms: app.launches?.p90Ms,
                resumeCount: app.resumes?.count ?? 0, resumeP90Ms: app.resumes?.p90Ms)
        }
    }

    static func key(_ violation: Violation, in process: ProcessReport) -> ViolationKey {
        ViolationKey(app: Aggregate.appName(process), rule: violation.rule.rawValue, event: violation.event.rawValue)
    }

    /// The baseline as JSON, in a stable order (so it diffs well under version control).
    public func json() -> String {
        let apps = self.apps.sorted { $0.key < $1.key }.map { name, times in
            (
                name,
                JSONValue.object([
                    ("launches", .int(times.launchCount)), ("launchP90Ms", JSONValue(times.launchP90Ms)),
                    ("resumes", .int(times.resumeCount)), ("resumeP90Ms", JSONValue(times.resumeP90Ms)),
                ])
            )
        }
        let violations = self.violations.sorted { $0.key < $1.key }.map { key, count in
            JSONValue.object([
                ("app", .string(key.app)), ("rule", .string(key.rule)), ("event", .string(key.event)),
                ("count", .int(count)),
            ])
        }
        let root = JSONValue.object([
            ("baselineVersion", .int(Self.version)),
            ("tool", .object([("name", .string("trace-analyze")), ("version", .string(TraceAnalyzeVersion.current))])),
            ("apps", .object(apps)),
            ("violations", .array(violations)),
        ])
        return root.serialized() + "\n"
    }

    /// Reads a baseline file; errors name the file and say what is wrong.
    public static func load(path: String) throws(TraceAnalyzeError) -> Baseline {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw .invalidBaseline(file: path, problem: "cannot read: \(error)")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    public static func parse(_ text: String, file: String) throws(TraceAnalyzeError) -> Baseline {
        func fail(_ problem: String) -> TraceAnalyzeError { .invalidBaseline(file: file, problem: problem) }
        let root: Node?
        do { root = try YAML.compose(text) } catch { throw fail("is not JSON: \(error)") }
        guard let map = root?.mapping, let version = map["baselineVersion"]?.int else {
            throw fail("is not a baseline (no baselineVersion); write one with `trace-analyze baseline --output FILE`")
        }
        guard version == Self.version else {
            throw fail("baselineVersion \(version) is not one this build reads (\(Self.version)); write it again")
        }
        var baseline = Baseline()
        for (key, value) in map["apps"]?.mapping ?? Node.Mapping(pairs: []) {
            guard let name = key.string, let times = value.mapping else { throw fail("apps: each app is an object") }
            baseline.apps[name] = AppTimes(
                launchCount: times["launches"]?.int ?? 0, launchP90Ms: times["launchP90Ms"]?.float,
                resumeCount: times["resumes"]?.int ?? 0, resumeP90Ms: times["resumeP90Ms"]?.float)
        }
        for item in map["violations"]?.sequence ?? [] {
            guard let entry = item.mapping, let app = entry["app"]?.string, let rule = entry["rule"]?.string,
                let event = entry["event"]?.string
            else { throw fail("violations: each needs app, rule and event") }
            baseline.violations[ViolationKey(app: app, rule: rule, event: event)] = entry["count"]?.int ?? 1
        }
        return baseline
    }
}

/// What changed between a baseline and a report: new and fixed violations, slower and faster apps.
public struct BaselineComparison: Sendable {
    /// A violation kind the baseline does not hold, with its occurrences now.
    public struct NewViolation: Sendable {
        public var key: Baseline.ViolationKey
        public var occurrences: [Violation]
    }

    /// A p90 that moved beyond the tolerance.
    public struct Change: Sendable {
        public var app: String
        /// `launch` or `resume`.
        public var metric: String
        public var baselineMs: Double
        public var nowMs: Double
        /// (now − baseline) / baseline.
        public var ratio: Double { baselineMs > 0 ? (nowMs - baselineMs) / baselineMs : .infinity }
    }

    public var newViolations: [NewViolation] = []
    /// Violation kinds the baseline holds and the report does not.
    public var fixedViolations: [Baseline.ViolationKey] = []
    public var slower: [Change] = []
    public var faster: [Change] = []
    /// Apps with timings in the baseline and no measured launch or resume now.
    public var unmeasured: [String] = []
    public var tolerance: Double

    /// Compares: a p90 is slower when it is more than `tolerance` (0.1 = 10 %) above the baseline's.
    public init(baseline: Baseline, report: AnalysisReport, tolerance: Double) {
        self.tolerance = tolerance
        var now: [Baseline.ViolationKey: [Violation]] = [:]
        for process in report.processes {
            for violation in process.violations {
                now[Baseline.key(violation, in: process), default: []].append(violation)
            }
        }
        newViolations = now.keys.sorted().filter { baseline.violations[$0] == nil }.map {
            NewViolation(key: $0, occurrences: now[$0] ?? [])
        }
        fixedViolations = baseline.violations.keys.sorted().filter { now[$0] == nil }
        let current = Baseline(report).apps
        for (app, before) in baseline.apps.sorted(by: { $0.key < $1.key }) {
            let after = current[app]
            let pairs: [(String, Double?, Double?)] = [
                ("launch", before.launchP90Ms, after?.launchP90Ms), ("resume", before.resumeP90Ms, after?.resumeP90Ms),
            ]
            var measured = false
            for (metric, old, new) in pairs {
                guard let old else { continue }
                guard let new else { continue }
                measured = true
                let change = Change(app: app, metric: metric, baselineMs: old, nowMs: new)
                if new > old * (1 + tolerance) {
                    slower.append(change)
                } else if new < old * (1 - tolerance) {
                    faster.append(change)
                }
            }
            if !measured, before.launchP90Ms != nil || before.resumeP90Ms != nil { unmeasured.append(app) }
        }
    }

    /// New violations or slower apps: the gate fails.
    public var regressed: Bool { !newViolations.isEmpty || !slower.isEmpty }
}
