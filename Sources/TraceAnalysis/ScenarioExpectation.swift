/// `check --expect launch,enter-background,return-to-foreground`: a scripted UI test must have produced exactly
/// this sequence of scenarios for its app, in every input.
///
/// The app's episodes are taken in order over all its incarnations in the input. `memory-warning` episodes (the
/// system's doing, not the script's) are left out unless the expectation names that scenario.
public struct ScenarioExpectation: Sendable {
    public var scenarios: [Scenario]
    /// The app (process name) the expectation is about; nil: the one app of each input.
    public var app: String?

    /// Reads `launch,enter-background,…`; throws naming the first word that is no scenario id.
    public init(_ text: String, app: String? = nil) throws(TraceAnalyzeError) {
        var scenarios: [Scenario] = []
        for word in text.split(separator: ",") {
            let id = String(word).trimmingCharacters(in: Character(" "))
            guard let scenario = Scenario(rawValue: id) else {
                throw .invalidOption(
                    option: "--expect", value: id,
                    expected: "a scenario id; use " + Scenario.allCases.map(\.rawValue).joined(separator: ", "))
            }
            scenarios.append(scenario)
        }
        guard !scenarios.isEmpty else {
            throw .invalidOption(option: "--expect", value: text, expected: "a comma-separated list of scenario ids")
        }
        self.scenarios = scenarios
        self.app = app
    }

    /// One input's verdict.
    public struct Outcome: Sendable {
        public var input: String
        /// The app judged; nil when the input holds none (or several and no app was named).
        public var app: String?
        public var actual: [Scenario]
        public var met: Bool
        /// Why it is not met, for people.
        public var problem: String?
    }

    public func check(_ report: AnalysisReport) -> [Outcome] {
        report.inputs.filter { $0.error == nil }.map { input in
            let processes = report.processes.filter { $0.input == input.name && !$0.episodes.isEmpty }
            let apps = Set(processes.map(Aggregate.appName)).sorted()
            let chosen: String
            if let app {
                chosen = app
            } else if apps.count == 1 {
                chosen = apps[0]
            } else {
                let problem =
                    apps.isEmpty
                    ? "no app episode in this input"
                    : "several apps (\(apps.joined(separator: ", "))): name one with --app"
                return Outcome(input: input.name, app: nil, actual: [], met: false, problem: problem)
            }
            let skipsMemory = !scenarios.contains(.memoryWarning)
            let actual = processes.filter { Aggregate.appName($0) == chosen }.flatMap { process in
                process.episodes.map(\.scenario).filter { !(skipsMemory && $0 == .memoryWarning) }
            }
            let met = actual == scenarios
            return Outcome(
                input: input.name, app: chosen, actual: actual, met: met,
                problem: met ? nil : actual.isEmpty ? "\(chosen) has no episode in this input" : nil)
        }
    }
}
