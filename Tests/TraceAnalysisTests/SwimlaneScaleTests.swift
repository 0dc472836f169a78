import Testing

@testable import TraceAnalysis

/// The swimlane's scale makes its points as it goes (``HTMLReporter/TimelineScale/Points``), leaving out those that
/// repeat an event's: checked against the plain way (every point, sorted by line and time, the earliest time kept
/// per line) on random processes — events in and out of line order, several points on a line with different times,
/// equal instants with different offsets, points without a time.
@Suite("Swimlane scale")
struct SwimlaneScaleTests {
    typealias Point = HTMLReporter.TimelineScale.Point

    /// The plain way: every point in the order given, sorted by line then instant (none first; a stable sort), the
    /// first on a line kept, taking the first time after it when it has none.
    static func model(_ process: ProcessReport) -> [Point] {
        var points = [Point(line: process.firstLine, time: process.firstTime)]
        points.append(Point(line: process.lastLine, time: process.lastTime))
        points += process.events.map { Point(line: $0.line, time: $0.time) }
        if let launch = process.launch {
            points.append(Point(line: launch.startLine, time: launch.start))
            if let end = launch.endLine { points.append(Point(line: end, time: launch.end)) }
            points += launch.milestones.map { Point(line: $0.line, time: $0.time) }
        }
        for episode in process.episodes {
            points.append(Point(line: episode.startLine, time: episode.start))
            points.append(Point(line: episode.endLine, time: episode.end))
        }
        points += process.violations.map { Point(line: $0.line, time: $0.time) }
        if let exit = process.exit { points.append(Point(line: exit.line, time: exit.time)) }
        points.sort { a, b in
            if a.line != b.line { return a.line < b.line }
            return (a.time?.instantMicros ?? .min) < (b.time?.instantMicros ?? .min)
        }
        var merged: [Point] = []
        for point in points {
            if let last = merged.last, last.line == point.line {
                if last.time == nil, let time = point.time { merged[merged.count - 1].time = time }
                continue
            }
            merged.append(point)
        }
        return merged
    }

    static func process(_ random: inout SplitMix64, inOrder: Bool) -> ProcessReport {
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        // Few distinct instants and offsets, so equal instants and equal lines with other times are common.
        func time() -> Timestamp? {
            guard pick(5) > 0 else { return nil }
            let offset = pick(3) == 0 ? Int32(3_600) : 0
            return Timestamp(
                wallMicros: Int64(pick(40)) * 1_000 + Int64(offset) * 1_000_000, utcOffsetSeconds: offset,
                fractionDigits: 3)
        }
        var events: [TimelineEvent] = []
        var line = 1
        for _ in 0..<pick(60) {
            line += pick(3)
            events.append(TimelineEvent(event: .didBecomeActive, line: line, time: time(), state: .active))
        }
        if !inOrder { events.shuffle(using: &random) }
        // Other points mostly repeat an event (its line and time), sometimes not.
        func point() -> (Int, Timestamp?) {
            if let event = events.randomElement(using: &random), pick(4) > 0 { return (event.line, event.time) }
            return (pick(line + 3), time())
        }
        let episodes = (0..<pick(30)).map { _ in
            let (start, startTime) = point()
            let (end, endTime) = point()
            return Episode(
                scenario: .interruption, startLine: start, endLine: end, start: startTime, end: endTime,
                confidence: .high, causes: [], evidence: "", durationMs: nil)
        }
        let violations = (0..<pick(8)).map { _ in
            let (line, time) = point()
            return Violation(
                rule: ViolationRule.allCases[0], input: "in", line: line, time: time, state: .active,
                event: .didBecomeActive, expected: "", message: "")
        }
        let (launchStart, launchTime) = point()
        let (milestoneLine, milestoneTime) = point()
        let (exitLine, exitTime) = point()
        return ProcessReport(
            name: "App", pid: 1, input: "in", firstLine: 1, lastLine: line + pick(3), firstTime: time(),
            lastTime: time(), records: 1, finalState: .active,
            launch: pick(2) == 0
                ? nil
                : LaunchReport(
                    startLine: launchStart, start: launchTime, endLine: nil, end: nil, durationMs: nil, budgetMs: 400,
                    overBudget: false, excluded: false, excludedReason: nil, watchdogRisk: false,
                    milestones: [
                        Milestone(
                            name: "did-finish-launching", line: milestoneLine, time: milestoneTime, offsetMs: nil,
                            phaseMs: nil)
                    ]),
            episodes: TimelineEpisodes(episodes), violations: TimelineViolations(violations),
            events: TimelineEvents(events),
            exit: pick(2) == 0
                ? nil : ProcessExit(reason: .memory, line: exitLine, time: exitTime, signal: nil, evidence: ""))
    }

    /// A big process's scale keeps no array per point and walks its points again to find an x: the same x for
    /// every line as the scale that keeps them, asked in any order (sweeps left to right as the drawing makes,
    /// steps back, jumps far back, lines outside the process), and the same ticks and gaps.
    @Test func aWalkedScaleGivesTheXOfAKeptOne() {
        var random = SplitMix64(seed: 3)
        var issues = 0
        for round in 0..<600 {
            let process = Self.process(&random, inOrder: round % 4 != 0)
            let kept = HTMLReporter.TimelineScale(process, from: 132, to: 1148, width: 1160, keptPoints: .max)
            // A walk that keeps 2 to 4 points behind it: steps back start it again from the first point.
            let walked = HTMLReporter.TimelineScale(
                process, from: 132, to: 1148, width: 1160, keptPoints: 0, window: round % 2 == 0 ? 2 : 4_096)
            #expect(kept.axis == walked.axis)
            #expect(
                kept.ticks.map(\.x) == walked.ticks.map(\.x) && kept.ticks.map(\.label) == walked.ticks.map(\.label))
            #expect(kept.gaps.map(\.from) == walked.gaps.map(\.from) && kept.gaps.map(\.to) == walked.gaps.map(\.to))
            let top = process.lastLine + 3
            var queries = Array(-1...top)
            for _ in 0..<3 { queries += (0..<40).map { _ in Int(random.next() % UInt64(top + 2)) - 1 } }
            queries += Array((0...top).reversed())
            for line in queries where kept.x(line).bitPattern != walked.x(line).bitPattern { issues += 1 }
        }
        #expect(issues == 0)
    }

    @Test(arguments: [true, false])
    func pointsAreThoseOfThePlainWay(eventsInOrder: Bool) {
        var random = SplitMix64(seed: eventsInOrder ? 1 : 2)
        var issues = 0
        for _ in 0..<2_000 {
            let process = Self.process(&random, inOrder: eventsInOrder)
            let expected = Self.model(process)
            let points = HTMLReporter.TimelineScale.Points(process)
            let made = Array(points)
            let same =
                made.count == expected.count
                && zip(made, expected).allSatisfy { $0.line == $1.line && $0.time == $1.time }
            if !same { issues += 1 }
            #expect(points.anyTime == expected.contains { $0.time != nil })
        }
        #expect(issues == 0)
    }
}
