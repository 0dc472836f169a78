/// Live mode's view of an incarnation: what is decided so far, given how far the log's clock has got.
///
/// It is computed from copies and changes nothing, so the report at the end of the input is the batch report
/// whatever live mode looked at on the way.
extension ProcessTimeline {
    struct LiveView {
        /// Decided episodes (scene-labelled and judged as the report judges them).
        var episodes: [Episode] = []
        /// Episodes that exist but may still change (a memory warning inside its window): neither new nor gone.
        var held: [Episode] = []
        var violations: [Violation] = []
        /// A launch that became active, or one launching for longer than its budget (``overdueMs`` set).
        var launch: LaunchReport?
        var overdueMs: Double?
        /// The incarnation's clock (µs since the epoch) at which the view may change without a new event.
        var deadline: Int64?

        mutating func wait(until time: Int64?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
    }

    /// The findings decided when this incarnation's clock (µs since the epoch; nil when it has no time) is `clock`.
    func liveView(clock: Int64?) -> LiveView {
        var view = LiveView()
        // An incarnation without a lifecycle event has decided nothing.
        guard let life = made else { return view }
        var episodes: [Episode] = []
        var held: [Episode] = []
        func collect(_ detector: ScenarioDetector, scene: String?) {
            var detector = detector
            if let clock { detector.advance(to: clock) }
            view.wait(until: detector.deadline)
            var lane = detector.episodes
            if let scene { for index in lane.indices { lane[index].scene = scene } }
            if let open = detector.openMemoryWarning(at: clock) {
                held.append(lane.remove(at: open.index))
                view.wait(until: open.until)
            }
            episodes += lane
        }
        collect(life.detector, scene: nil)
        var violations = life.machine.violations + life.otherViolations
        for key in life.sceneOrder {
            guard let lane = life.scenes[key] else { continue }
            collect(lane.detector, scene: key)
            violations += lane.machine.violations
        }
        view.episodes = judged(episodes).sorted(by: Episode.inOrder)
        view.held = judged(held)
        view.violations = violations.sorted { $0.line < $1.line }
        guard var launch = life.launch.report(process: name, options: options) else { return view }
        if launch.endLine != nil {
            view.launch = launch
        } else if !launch.excluded, let start = launch.start?.instantMicros, let clock {
            let elapsed = Double(clock - start) / 1000
            let watchdog = options.watchdog(for: name)
            if elapsed > launch.budgetMs {
                launch.overBudget = true
                launch.watchdogRisk = elapsed > watchdog
                view.launch = launch
                view.overdueMs = elapsed
                if !launch.watchdogRisk { view.wait(until: start + Int64((watchdog * 1000).rounded(.down))) }
            } else {
                view.wait(until: start + Int64((launch.budgetMs * 1000).rounded(.down)))
            }
        }
        return view
    }
}
