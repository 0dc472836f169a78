/// One process incarnation (name + pid) of one input, followed line by line.
final class ProcessTimeline {
    let name: String
    let pid: Int
    let input: String
    let firstLine: Int
    let firstTime: Timestamp?
    private(set) var lastLine: Int
    private(set) var lastTime: Timestamp?
    private(set) var records = 0
    private(set) var events: [TimelineEvent] = []
    private var machine: LifecycleStateMachine
    private var detector: ScenarioDetector
    private var launch: LaunchTracker
    private let options: AnalysisOptions
    /// The detector as it was before an inferred kill, so the kill can be taken back if the pid logs again.
    private var detectorBeforeInferredKill: ScenarioDetector?

    init(name: String, pid: Int, input: String, line: Int, time: Timestamp?, options: AnalysisOptions) {
        self.name = name
        self.pid = pid
        self.input = input
        self.firstLine = line
        self.firstTime = time
        self.lastLine = line
        self.lastTime = time
        self.options = options
        self.machine = LifecycleStateMachine(input: input)
        self.detector = ScenarioDetector(options: options)
        self.launch = LaunchTracker(processStart: ScenarioDetector.Mark(line: line, time: time))
    }

    var state: AppState { machine.state }
    var hasEvents: Bool { !events.isEmpty }
    var displayName: String { ProcessReport.displayName(name: name, pid: pid) }

    /// Any record of this incarnation (events or not).
    func noteRecord(line: Int, time: Timestamp?) {
        records += 1
        lastLine = line
        if let time { lastTime = time }
        if let saved = detectorBeforeInferredKill {
            // The pid logs again: it was not killed after all (two processes of one name interleave).
            detector = saved
            detectorBeforeInferredKill = nil
        }
    }

    /// A recognised event on the record at `line`.
    func handle(_ occurrence: EventOccurrence) {
        let event = occurrence.event
        if let step = machine.apply(occurrence) {
            detector.handle(step, processStart: ScenarioDetector.Mark(line: firstLine, time: firstTime))
        } else if machine.state != .terminated, event == .didReceiveMemoryWarning {
            detector.memoryWarning(occurrence)
        }
        launch.observe(occurrence)
        events.append(TimelineEvent(event: event, line: occurrence.line, time: occurrence.time, state: machine.state))
    }

    /// A later incarnation of the same name started at `line` without this one logging willTerminate.
    ///
    /// A successor whose first line is earlier in time than this one's last line (a capture pasted out of time
    /// order, as in the corpus's multi-run blog post) is no evidence of a kill, so nothing is inferred.
    func replaced(by successor: ProcessTimeline) {
        if let last = lastTime, let next = successor.firstTime, next < last { return }
        detectorBeforeInferredKill = detector
        detector.killed(
            state: machine.state, lastRecord: ScenarioDetector.Mark(line: lastLine, time: lastTime),
            successor: ScenarioDetector.Mark(line: successor.firstLine, time: successor.firstTime),
            successorName: successor.displayName)
    }

    /// The end of the input.
    func report() -> ProcessReport {
        var finishedMachine = machine
        finishedMachine.finish()
        var finishedDetector = detector
        if detectorBeforeInferredKill == nil {
            finishedDetector.finish(lastRecord: ScenarioDetector.Mark(line: lastLine, time: lastTime))
        }
        return ProcessReport(
            name: name, pid: pid, input: input, firstLine: firstLine, lastLine: lastLine, firstTime: firstTime,
            lastTime: lastTime, records: records, finalState: machine.state,
            launch: launch.report(process: name, options: options),
            episodes: finishedDetector.episodes.sorted { $0.startLine < $1.startLine },
            violations: finishedMachine.violations.sorted { $0.line < $1.line }, events: events)
    }
}
