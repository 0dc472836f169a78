#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTMLReporter {
    /// One process drawn as an SVG swimlane: episodes as labelled bands on top, a row of marks (launch, exit,
    /// violations), one lane per app state with the state over time, one lane per scene, and the time axis.
    struct Swimlane {
        static let width = 1160.0
        static let plotLeft = 132.0
        static let plotRight = 1148.0
        static let laneHeight = 16.0
        static let laneStep = 20.0
        static let episodeRow = 19.0
        static let maxEpisodeRows = 4
        static let maxSceneLanes = 8
        /// Above this many episodes a swimlane draws them without labels; above this many violations it draws the
        /// first ones only (the list below has more).
        static let maxMarks = 300
        /// Above this many events the per-event dots (hover targets) are left out to keep the page light.
        static let maxEventDots = 400
        /// The app-delegate lanes, top to bottom: foreground on top, the way out of the process at the bottom.
        static let laneOrder: [AppState] = [.active, .inactive, .background, .launching, .terminated, .notRunning]

        let process: ProcessReport
        let scale: TimelineScale

        init(process: ProcessReport) {
            self.process = process
            scale = TimelineScale(process, from: Self.plotLeft, to: Self.plotRight, width: Self.width)
        }

        /// A run of one state, from the line of the event that entered it to the line of the one that left it.
        struct Segment {
            var state: AppState
            var from: Int
            var to: Int
        }

        /// The states of one lane (the app delegate's, or one scene's) as runs; the unknown state is no run. Made
        /// as they are iterated, from the events: a process may have millions of them.
        func segments(scene: String?) -> Segments {
            Segments(events: process.events, scene: scene, end: process.lastLine)
        }

        struct Segments: Sequence {
            let events: TimelineEvents
            let scene: String?
            /// The process's last line, where the last run ends.
            let end: Int

            func makeIterator() -> Iterator { Iterator(events: events.makeIterator(), scene: scene, end: end) }

            struct Iterator: IteratorProtocol {
                var events: TimelineEvents.Iterator
                let scene: String?
                let end: Int
                var current: Segment?
                var done = false

                mutating func next() -> Segment? {
                    guard !done else { return nil }
                    while let event = events.next() {
                        guard event.scene == scene else { continue }
                        if let open = current, open.state == event.state { continue }
                        let closed = current.map { Segment(state: $0.state, from: $0.from, to: event.line) }
                        current =
                            event.state == .unknown
                            ? nil : Segment(state: event.state, from: event.line, to: event.line)
                        if let closed { return closed }
                    }
                    done = true
                    return current.map { Segment(state: $0.state, from: $0.from, to: Swift.max(end, $0.from)) }
                }
            }
        }

        var svg: String {
            let appSegments = segments(scene: nil)
            var visited: Set<AppState> = []
            var appSegmentCount = 0
            for segment in appSegments {
                visited.insert(segment.state)
                appSegmentCount += 1
            }
            let lanes = Self.laneOrder.filter {
                [.active, .inactive, .background].contains($0) || visited.contains($0)
            }
            var sceneKeys: [String] = []
            for event in process.events {
                if let scene = event.scene, !sceneKeys.contains(scene) { sceneKeys.append(scene) }
            }
            let shownScenes = Array(sceneKeys.prefix(Self.maxSceneLanes))

            let dense = process.episodes.count > Self.maxMarks
            let episodes = dense ? [] : placedEpisodes()
            let rows = dense ? 1 : (episodes.map(\.row).max() ?? -1) + 1
            let episodesTop = 4.0
            let marksTop = episodesTop + Double(rows) * Self.episodeRow + (rows > 0 ? 2 : 0)
            let lanesTop = marksTop + 18
            let laneCount = lanes.count + shownScenes.count
            let lanesBottom = lanesTop + Double(laneCount - 1) * Self.laneStep + Self.laneHeight
            let axisY = lanesBottom + 8
            let height = axisY + 34

            var out = ""
            if scale.axis == .lines {
                out += "<p class=\"axis-note\">No timestamps in this process: its swimlane is drawn against line "
                out += "numbers.</p>\n"
            }
            let w = number(Self.width)
            let h = number(height)
            out += "<svg class=\"swimlane\" width=\"\(w)\" height=\"\(h)\" "
            out += "viewBox=\"0 0 \(w) \(h)\" role=\"img\" aria-label=\"\(process.displayName.htmlEscaped) "
            out += "swimlane\">\n"

            // Lanes: background stripes and labels.
            func laneY(_ index: Int) -> Double { lanesTop + Double(index) * Self.laneStep }
            for (index, state) in lanes.enumerated() {
                out += laneBackground(y: laneY(index), label: state.rawValue, extra: "")
            }
            for (offset, scene) in shownScenes.enumerated() {
                out += laneBackground(
                    y: laneY(lanes.count + offset), label: "scene " + sceneName(scene), extra: " scene-lane")
            }

            // The launch, behind everything else.
            if let launch = process.launch { out += launchSpan(launch, top: marksTop, bottom: lanesBottom) }

            // Episodes.
            if dense { out += denseEpisodes(y: episodesTop) }
            for episode in episodes {
                out += episodeBand(episode, y: episodesTop + Double(episode.row) * Self.episodeRow)
            }

            // App-delegate states: bars, the steps between them, and a dot per event.
            func centre(_ state: AppState) -> Double? {
                lanes.firstIndex(of: state).map { laneY($0) + Self.laneHeight / 2 }
            }
            // Runs closer than a pixel to the previous run of their state are drawn as one bar: a process with
            // thousands of transitions still gives a few hundred rectangles.
            var bars: [(state: AppState, x0: Double, x1: Double, from: Int, to: Int)] = []
            var lastBar: [AppState: Int] = [:]
            var steps = ""
            // The steps are drawn only for a few runs: not even made for more.
            let drawsSteps = appSegmentCount <= Self.maxEventDots
            var previous: AppState?
            for segment in appSegments {
                guard lanes.contains(segment.state) else { continue }
                let (x0, x1) = span(segment.from, segment.to)
                if drawsSteps, let previous, previous != segment.state, let from = centre(previous),
                    let to = centre(segment.state)
                {
                    steps += "<line class=\"step\" x1=\"\(number(x0))\" y1=\"\(number(from))\" x2=\"\(number(x0))\" "
                    steps += "y2=\"\(number(to))\"/>\n"
                }
                previous = segment.state
                if let index = lastBar[segment.state], x0 - bars[index].x1 < 1 {
                    bars[index].x1 = max(bars[index].x1, x1)
                    bars[index].to = segment.to
                } else {
                    lastBar[segment.state] = bars.count
                    bars.append((segment.state, x0, x1, segment.from, segment.to))
                }
            }
            out += steps
            for bar in bars {
                guard let index = lanes.firstIndex(of: bar.state) else { continue }
                out += "<rect class=\"state st-\(bar.state.rawValue)\" x=\"\(number(bar.x0))\" "
                out += "y=\"\(number(laneY(index) + 2))\" width=\"\(number(bar.x1 - bar.x0))\" "
                out += "height=\"\(number(Self.laneHeight - 4))\"><title>"
                out += "\(bar.state.rawValue) · \(lineRange(bar.from, bar.to))</title></rect>\n"
            }
            if process.events.count <= Self.maxEventDots {
                for event in process.events where event.scene == nil {
                    guard let y = centre(event.state) else { continue }
                    out += "<circle class=\"ev\" cx=\"\(number(scale.x(event.line)))\" cy=\"\(number(y))\" r=\"2.5\">"
                    out += "<title>\(eventText(event).htmlEscaped)</title></circle>\n"
                }
            }

            // Scene lanes: one strip each, coloured by state and labelled when there is room. A lane of more than
            // a few hundred runs draws the runs closer than a pixel to the previous run of their state as one, as
            // the app delegate's lanes do.
            for (offset, scene) in shownScenes.enumerated() {
                let y = laneY(lanes.count + offset)
                let merges = segments(scene: scene).dropFirst(Self.maxEventDots).contains { _ in true }
                var runs: [(state: AppState, x0: Double, x1: Double, from: Int, to: Int)] = []
                var lastRun: [AppState: Int] = [:]
                for segment in segments(scene: scene) {
                    let (x0, x1) = span(segment.from, segment.to)
                    if merges, let index = lastRun[segment.state], x0 - runs[index].x1 < 1 {
                        runs[index].x1 = max(runs[index].x1, x1)
                        runs[index].to = segment.to
                        continue
                    }
                    if merges { lastRun[segment.state] = runs.count }
                    runs.append((segment.state, x0, x1, segment.from, segment.to))
                    // Drawn as they come when not merged: a lane of a few hundred runs.
                    if !merges { out += sceneRun(runs.removeLast(), scene: scene, y: y) }
                }
                for run in runs { out += sceneRun(run, scene: scene, y: y) }
            }

            // Exit and violations over the lanes.
            if let exit = process.exit { out += exitMark(exit, top: marksTop, bottom: lanesBottom) }
            for violation in process.violations.prefix(Self.maxMarks) {
                out += violationMark(violation, top: marksTop, bottom: lanesBottom)
            }

            out += axis(y: axisY)
            out += "</svg>\n"
            var notDrawn: [String] = []
            if sceneKeys.count > shownScenes.count {
                notDrawn.append(plural(sceneKeys.count - shownScenes.count, "scene"))
            }
            if process.violations.count > Self.maxMarks {
                notDrawn.append(plural(process.violations.count - Self.maxMarks, "violation"))
            }
            if !notDrawn.isEmpty {
                out += "<p class=\"axis-note\">Not drawn, to keep the page light: "
                out += "\(notDrawn.joined(separator: ", ")).</p>\n"
            }
            if dense {
                out += "<p class=\"axis-note\">\(process.episodes.count) episodes: drawn in one row without labels, "
                out += "the list below has them.</p>\n"
            }
            return out
        }

        // MARK: Lanes

        /// One run of a scene's lane: its strip, and its state's name when there is room.
        private func sceneRun(
            _ run: (state: AppState, x0: Double, x1: Double, from: Int, to: Int), scene: String, y: Double
        ) -> String {
            var out = "<rect class=\"state st-\(run.state.rawValue)\" x=\"\(number(run.x0))\" "
            out += "y=\"\(number(y + 2))\" width=\"\(number(run.x1 - run.x0))\" "
            out += "height=\"\(number(Self.laneHeight - 4))\"><title>scene \(sceneName(scene).htmlEscaped) · "
            out += "\(run.state.rawValue) · \(lineRange(run.from, run.to))</title></rect>\n"
            if run.x1 - run.x0 >= textWidth(run.state.rawValue, size: 10) + 6 {
                let dark = [.inactive, .launching, .notRunning].contains(run.state) ? " dark" : ""
                out += "<text class=\"seg-label\(dark)\" x=\"\(number(run.x0 + 3))\" "
                out += "y=\"\(number(y + Self.laneHeight / 2 + 3.5))\">\(run.state.rawValue)</text>\n"
            }
            return out
        }

        private func laneBackground(y: Double, label: String, extra: String) -> String {
            var out = "<rect class=\"lane\(extra)\" x=\"\(number(Self.plotLeft))\" y=\"\(number(y))\" "
            out += "width=\"\(number(Self.plotRight - Self.plotLeft))\" height=\"\(number(Self.laneHeight))\"/>\n"
            let text = label.count > 22 ? String(label.prefix(21)) + "…" : label
            out += "<text class=\"lane-label\" x=\"\(number(Self.plotLeft - 8))\" "
            out += "y=\"\(number(y + Self.laneHeight / 2 + 4))\">\(text.htmlEscaped)</text>\n"
            return out
        }

        /// The x range of lines `a`…`b`, at least a few pixels wide so a short run stays visible.
        private func span(_ a: Int, _ b: Int) -> (Double, Double) {
            let x0 = scale.x(min(a, b))
            let x1 = scale.x(max(a, b))
            return x1 - x0 >= 2 ? (x0, x1) : (x0, min(x0 + 2, Self.width - 2))
        }

        private func eventText(_ event: TimelineEvent) -> String {
            var text = "L\(event.line)"
            if let time = event.time { text += " \(time.timeOfDay)" }
            text += " \(event.event.callbackName)"
            if event.event.isTransition { text += " → \(event.state.rawValue)" }
            return text
        }

        // MARK: Episodes

        struct PlacedEpisode {
            enum Label { case inside, right, left, none }
            var episode: Episode
            var x0: Double
            var x1: Double
            var text: String
            var label: Label
            var row: Int
        }

        /// Episodes packed into as few rows as keep their bands and labels apart (at most ``maxEpisodeRows``).
        func placedEpisodes() -> [PlacedEpisode] {
            // Where each row is taken up to: episodes come in line order, so a row is free after its end.
            var rowEnds: [Double] = []
            var placed: [PlacedEpisode] = []
            for episode in process.episodes {
                let (x0, x1) = span(episode.startLine, episode.endLine)
                var text = episode.scenario.rawValue
                if let duration = episode.durationMs { text += " " + DurationFormat.text(duration) }
                let labelWidth = textWidth(text, size: 11)
                // Where the label can go, best first, with the room the band then takes.
                var options: [(PlacedEpisode.Label, Double, Double)] = []
                if x1 - x0 >= labelWidth + 8 { options.append((.inside, x0, x1)) }
                if x1 + 4 + labelWidth <= Self.width - 2 { options.append((.right, x0, x1 + 4 + labelWidth)) }
                if x0 - 4 - labelWidth >= 2 { options.append((.left, x0 - 4 - labelWidth, x1)) }
                options.append((.none, x0, x1))
                var choice: (label: PlacedEpisode.Label, row: Int)?
                for (label, from, to) in options {
                    if let row = rowEnds.firstIndex(where: { $0 + 6 <= from }) {
                        rowEnds[row] = to
                        choice = (label, row)
                        break
                    }
                    if rowEnds.count < Self.maxEpisodeRows {
                        rowEnds.append(to)
                        choice = (label, rowEnds.count - 1)
                        break
                    }
                }
                // No room anywhere: over the row that frees first, without a label (the tooltip has it).
                let row = choice?.row ?? rowEnds.indices.min { rowEnds[$0] < rowEnds[$1] } ?? 0
                if choice == nil, rowEnds.indices.contains(row) { rowEnds[row] = max(rowEnds[row], x1) }
                placed.append(
                    PlacedEpisode(
                        episode: episode, x0: x0, x1: x1, text: text, label: choice?.label ?? .none, row: row))
            }
            return placed
        }

        /// Too many episodes to label: one row, one group per scenario, bands closer than a pixel drawn as one.
        private func denseEpisodes(y: Double) -> String {
            // One pass over the episodes (read back from the spill file when there are this many), each scenario's
            // bands made as its episodes go by; a scenario has at most a band per pixel.
            let scenarios = Scenario.allCases
            var bandsByScenario = Array(repeating: [(Double, Double)](), count: scenarios.count)
            var counts = Array(repeating: 0, count: scenarios.count)
            for episode in process.episodes {
                guard let index = scenarios.firstIndex(of: episode.scenario) else { continue }
                counts[index] += 1
                let (x0, x1) = span(episode.startLine, episode.endLine)
                if let last = bandsByScenario[index].last, x0 - last.1 < 1 {
                    bandsByScenario[index][bandsByScenario[index].count - 1].1 = max(last.1, x1)
                } else {
                    bandsByScenario[index].append((x0, x1))
                }
            }
            var out = ""
            for (index, scenario) in scenarios.enumerated() {
                let bands = bandsByScenario[index]
                let count = counts[index]
                guard count > 0 else { continue }
                out +=
                    "<g class=\"episode sc-\(scenario.rawValue) dense\"><title>\(scenario.rawValue) ×\(count)</title>"
                for (x0, x1) in bands {
                    out += "<rect x=\"\(number(x0))\" y=\"\(number(y))\" width=\"\(number(x1 - x0))\" height=\"15\"/>"
                }
                out += "</g>\n"
            }
            return out
        }

        private func episodeBand(_ placed: PlacedEpisode, y: Double) -> String {
            let episode = placed.episode
            var title = "\(episode.scenario.rawValue) · \(lineRange(episode.startLine, episode.endLine))"
            if let start = episode.start { title += " · \(start.timeOfDay)" }
            if let scene = episode.scene { title += " · scene \(sceneName(scene))" }
            title += " · \(episode.confidence.rawValue) confidence"
            if let duration = episode.durationMs { title += " · \(DurationFormat.text(duration))" }
            if episode.overBudget, let budget = episode.budgetMs { title += " over \(DurationFormat.text(budget))" }
            title += "\n\(episode.evidence)\n\(episode.causes.joined(separator: "; "))"
            let over = episode.overBudget ? " over-budget" : ""
            var out = "<g class=\"episode sc-\(episode.scenario.rawValue)\(over)\"><title>\(title.htmlEscaped)</title>"
            out += "<rect x=\"\(number(placed.x0))\" y=\"\(number(y))\" width=\"\(number(placed.x1 - placed.x0))\" "
            out += "height=\"15\" rx=\"3\"/>"
            let baseline = number(y + 11.5)
            switch placed.label {
            case .inside:
                out += "<text class=\"in\" x=\"\(number(placed.x0 + 4))\" y=\"\(baseline)\">"
                out += "\(placed.text.htmlEscaped)</text>"
            case .right:
                out += "<text x=\"\(number(placed.x1 + 4))\" y=\"\(baseline)\">\(placed.text.htmlEscaped)</text>"
            case .left:
                out += "<text class=\"end\" x=\"\(number(placed.x0 - 4))\" y=\"\(baseline)\">"
                out += "\(placed.text.htmlEscaped)</text>"
            case .none:
                break
            }
            return out + "</g>\n"
        }

        // MARK: Marks

        private func launchSpan(_ launch: LaunchReport, top: Double, bottom: Double) -> String {
            let (x0, x1) = span(launch.startLine, launch.endLine ?? process.lastLine)
            let verdict: String
            var label = "launch"
            if let duration = launch.durationMs {
                label += " " + DurationFormat.text(duration)
                if launch.excluded {
                    verdict = "unchecked"
                    label += " (not checked)"
                } else if launch.overBudget {
                    verdict = "over"
                    label += " > \(DurationFormat.text(launch.budgetMs)) budget"
                } else {
                    verdict = "ok"
                }
            } else {
                verdict = "unchecked"
                label += launch.endLine == nil ? " (never active)" : " (not measured)"
            }
            var title = "launch · \(lineRange(launch.startLine, launch.endLine ?? process.lastLine))"
            if let duration = launch.durationMs {
                title += " · \(DurationFormat.text(duration)), budget \(DurationFormat.text(launch.budgetMs))"
            }
            if let reason = launch.excludedReason { title += " · not checked: \(reason)" }
            for milestone in launch.milestones {
                title += "\n\(milestone.name) L\(milestone.line)"
                if let offset = milestone.offsetMs { title += " +\(DurationFormat.text(offset))" }
            }
            var out = "<g class=\"launch-span \(verdict)\"><title>\(title.htmlEscaped)</title>"
            out += "<rect x=\"\(number(x0))\" y=\"\(number(top + 1))\" width=\"\(number(x1 - x0))\" "
            out += "height=\"\(number(bottom - top + 1))\"/>"
            let width = textWidth(label, size: 10)
            // Clear of a violation's marker at the launch's first line.
            let start = process.violations.contains { abs(scale.x($0.line) - x0) < 7 } ? x0 + 8 : x0 + 3
            let anchorEnd = start + width > Self.width - 2
            out += "<text\(anchorEnd ? " class=\"end\"" : "") x=\"\(number(anchorEnd ? x1 - 3 : start))\" "
            out += "y=\"\(number(top + 12))\">\(label.htmlEscaped)</text></g>\n"
            return out
        }

        private func exitMark(_ exit: ProcessExit, top: Double, bottom: Double) -> String {
            let x = scale.x(exit.line)
            let label = "✕ " + exitDescription(exit)
            var title = "exit: \(exit.reason.rawValue) at line \(exit.line)"
            if let time = exit.time { title += " (\(time.timeOfDay))" }
            title += "\n\(exit.evidence)"
            var out = "<g class=\"exit\"><title>\(title.htmlEscaped)</title>"
            out += "<line x1=\"\(number(x))\" y1=\"\(number(top + 2))\" x2=\"\(number(x))\" y2=\"\(number(bottom))\"/>"
            let anchorEnd = x - 4 - textWidth(label, size: 10) >= Self.plotLeft
            out += "<text\(anchorEnd ? " class=\"end\"" : "") x=\"\(number(anchorEnd ? x - 4 : x + 4))\" "
            out += "y=\"\(number(top + 12))\">\(label.htmlEscaped)</text></g>\n"
            return out
        }

        private func violationMark(_ violation: Violation, top: Double, bottom: Double) -> String {
            let x = scale.x(violation.line)
            var title = "violation \(violation.rule.number) \(violation.rule.rawValue) at line \(violation.line)"
            if let time = violation.time { title += " (\(time.timeOfDay))" }
            title += "\n\(violation.rule.title)\n\(violation.message)"
            var out = "<g class=\"violation\"><title>\(title.htmlEscaped)</title>"
            out += "<line x1=\"\(number(x))\" y1=\"\(number(top + 14))\" x2=\"\(number(x))\" y2=\"\(number(bottom))\"/>"
            out += "<path d=\"M\(number(x - 5)) \(number(top + 2))h10l-5 12z\"/></g>\n"
            return out
        }

        // MARK: Axis

        private func axis(y: Double) -> String {
            var out = "<g class=\"axis\">"
            out += "<text class=\"lane-label\" x=\"\(number(Self.plotLeft - 8))\" y=\"\(number(y + 14))\">"
            out += scale.axis == .time ? "time" : "line"
            out += "</text>"
            out += "<line x1=\"\(number(Self.plotLeft))\" y1=\"\(number(y))\" x2=\"\(number(Self.plotRight))\" "
            out += "y2=\"\(number(y))\"/>"
            for gap in scale.gaps {
                out += "<line class=\"gap\" x1=\"\(number(gap.from + 3))\" y1=\"\(number(y))\" "
                out += "x2=\"\(number(gap.to - 3))\" y2=\"\(number(y))\"/>"
                if gap.to - gap.from >= textWidth(gap.label, size: 10) + 8 {
                    out += "<text class=\"gap-label\" x=\"\(number((gap.from + gap.to) / 2))\" "
                    out += "y=\"\(number(y + 27))\">\(gap.label.htmlEscaped)</text>"
                }
            }
            for tick in scale.ticks {
                out += "<line x1=\"\(number(tick.x))\" y1=\"\(number(y - 3))\" x2=\"\(number(tick.x))\" "
                out += "y2=\"\(number(y + 3))\"/>"
                out += "<text class=\"tick\" x=\"\(number(tick.labelX))\" y=\"\(number(y + 14))\">"
                out += "\(tick.label.htmlEscaped)</text>"
            }
            return out + "</g>\n"
        }
    }

    /// About how wide `text` is in the page's sans-serif face at `size` pixels: enough to keep labels apart.
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.62
    }

    /// Where each line of a process goes on its swimlane. Time runs left to right in input order; every stretch
    /// between two points the drawing marks gets a width that grows with the logarithm of its duration (of its
    /// line count when the process has no timestamps), plus a minimum so that points never merge. A 27 ms launch
    /// and a two-minute stay in background so both stay readable; the axis labels long stretches with their length.
    final class TimelineScale {
        enum Axis { case time, lines }

        let axis: Axis
        /// Time of day (or line) labels at marked points, kept apart (the first and last pulled inside the
        /// drawing): where the tick is, where its label is centred, the label.
        private(set) var ticks: [(x: Double, labelX: Double, label: String)] = []
        /// Long stretches: where they are and the time (or lines) they stand for.
        private(set) var gaps: [(from: Double, to: Double, label: String)] = []
        /// The points with their x, as every walk over them computes it.
        private let placed: Placed
        /// The lines the drawing marks, ascending, and their x — for a process of at most ``keptPoints`` points;
        /// a bigger one is walked again to find an x (``walk``), so that its scale holds no array per point.
        private var lines: [Int] = []
        private var xs: [Double] = []
        private var walk: Walk?
        /// The first and last points' lines and x.
        private var first: (line: Int, x: Double)?
        private var last: (line: Int, x: Double)?

        /// Up to this many points, the scale keeps every point's line and x.
        static let keptPoints = 1 << 16

        /// The scale of `process` between `left` and `right`, on a drawing `width` wide; `keptPoints` and `window`
        /// (the points a walk keeps behind it, at least 2) are for the tests.
        init(
            _ process: ProcessReport, from left: Double, to right: Double, width: Double,
            keptPoints: Int = keptPoints, window: Int = Walk.window
        ) {
            let points = Points(process)
            let axis: Axis = points.anyTime ? .time : .lines
            self.axis = axis
            // Two passes over the points (made again for each: a process may have millions): the weights' total,
            // then where each point goes.
            var count = 0
            var total = 0.0
            var previous: Point?
            var lastTime: Timestamp?
            for point in points {
                count += 1
                if let previous {
                    total += log1p(Self.length(of: point, after: previous, lastTime: &lastTime, axis: axis))
                } else {
                    lastTime = point.time
                }
                previous = point
            }
            let stretches = max(0, count - 1)
            let available = right - left
            var minimum = stretches == 0 ? 0 : min(6, available / Double(stretches) / 2)
            if total == 0, stretches > 0 { minimum = available / Double(stretches) }
            let perWeight = total > 0 ? (available - minimum * Double(stretches)) / total : 0
            placed = Placed(
                points: points, axis: axis, start: stretches == 0 ? (left + right) / 2 : left, minimum: minimum,
                perWeight: perWeight)
            let keepsPoints = count <= keptPoints
            if keepsPoints {
                lines.reserveCapacity(count)
                xs.reserveCapacity(count)
            }
            var lastRight = -Double.infinity
            var from: Double?
            for (point, x, length) in placed {
                if first == nil { first = (point.line, x) }
                last = (point.line, x)
                if keepsPoints {
                    lines.append(point.line)
                    xs.append(x)
                }
                // Stretches long enough to say so.
                if let from, let length {
                    switch axis {
                    case .time where length >= 1000 && x - from >= 16:
                        gaps.append((from, x, DurationFormat.text(length)))
                    case .lines where length >= 20 && x - from >= 16:
                        gaps.append((from, x, "\(Int(length)) lines"))
                    default: break
                    }
                }
                from = x

                // A tick at each point, kept where its label does not collide with the last one kept.
                let label: String
                switch axis {
                case .time:
                    guard let time = point.time else { continue }
                    label = Self.shortTime(time)
                case .lines:
                    label = "L\(point.line)"
                }
                let labelWidth = HTMLReporter.textWidth(label, size: 10)
                let labelX = min(max(x, left + labelWidth / 2 - 4), width - labelWidth / 2 - 2)
                guard labelX - labelWidth / 2 >= lastRight + 10 else { continue }
                lastRight = labelX + labelWidth / 2
                ticks.append((x, labelX, label))
            }
            if !keepsPoints { walk = Walk(placed, window: max(2, window)) }
        }

        /// The length of the stretch from `previous` to `point` (the time or lines it stands for); `lastTime` is the
        /// last time seen, brought up to date.
        static func length(of point: Point, after previous: Point, lastTime: inout Timestamp?, axis: Axis) -> Double {
            switch axis {
            case .time:
                defer { lastTime = point.time ?? lastTime }
                guard let time = point.time, let last = lastTime else { return 0 }
                return max(0, last.milliseconds(to: time))
            case .lines:
                return Double(point.line - previous.line)
            }
        }

        /// The points with their x (and the length of the stretch before each, but the first's), in order: the
        /// same computation for the drawing's pass and for every walk that looks an x up.
        struct Placed: Sequence {
            let points: Points
            let axis: Axis
            /// The first point's x.
            let start: Double
            let minimum: Double
            let perWeight: Double

            func makeIterator() -> Iterator { Iterator(placed: self, points: points.makeIterator()) }

            struct Iterator: IteratorProtocol {
                let placed: Placed
                var points: Points.Iterator
                var previous: Point?
                var x = 0.0
                var lastTime: Timestamp?

                mutating func next() -> (point: Point, x: Double, length: Double?)? {
                    guard let point = points.next() else { return nil }
                    defer { previous = point }
                    guard let previous else {
                        x = placed.start
                        lastTime = point.time
                        return (point, x, nil)
                    }
                    let length = TimelineScale.length(
                        of: point, after: previous, lastTime: &lastTime, axis: placed.axis)
                    x = x + placed.minimum + placed.perWeight * log1p(length)
                    return (point, x, length)
                }
            }
        }

        /// A walk along the points of a big process, for ``x(_:)``: it goes forward as the lines asked for do
        /// (nearly always: the drawing goes left to right), keeps the last few thousand points it passed so that a
        /// step back is looked up, and starts again from the first point for a line further back.
        struct Walk {
            let placed: Placed
            private var iterator: Placed.Iterator
            /// The points passed lately, ascending: the last is the furthest reached.
            private var recent: [(line: Int, x: Double)] = []
            /// At least this many points passed are kept (at most twice as many).
            let window: Int
            static let window = 4_096

            init(_ placed: Placed, window: Int) {
                self.placed = placed
                self.window = window
                iterator = placed.makeIterator()
            }

            /// The x of `line`, strictly between the first and last points' lines.
            mutating func x(_ line: Int) -> Double {
                if let oldest = recent.first, line < oldest.line {
                    iterator = placed.makeIterator()
                    recent = []
                }
                while recent.last.map({ $0.line <= line }) ?? true, let next = iterator.next() {
                    recent.append((next.point.line, next.x))
                    if recent.count > 2 * window { recent.removeFirst(window) }
                    if next.point.line > line { break }
                }
                return TimelineScale.x(line, lines: recent.lazy.map(\.line), xs: recent.lazy.map(\.x))
            }
        }

        struct Point {
            var line: Int
            var time: Timestamp?
        }

        /// The points the drawing marks, one per line, ascending, each with the earliest time given for it (the
        /// first given, among equal ones): the first and last lines, the events, the launch and its milestones,
        /// the episodes' starts and ends, the violations, the exit.
        ///
        /// Made as they are iterated from the events, which come in line order, merged with the other points that
        /// add something. Nearly every other point is on an event's line with its time, and adds nothing: a
        /// process of millions of events and episodes keeps only the few that add a line or a time. Events out of
        /// line order are all kept and sorted with the others.
        struct Points: Sequence {
            /// The events, when in line order (else they are among ``others``).
            private let events: TimelineEvents
            /// The points that may add something, in line order, those given before the events first on a line.
            private let others: [(point: Point, beforeEvents: Bool)]
            /// Whether some point has a time.
            let anyTime: Bool

            init(_ process: ProcessReport) {
                var inOrder = true
                var anyTime = false
                var lastLine = Int.min
                for event in process.events {
                    if event.line < lastLine { inOrder = false }
                    lastLine = event.line
                    if event.time != nil { anyTime = true }
                }
                var others: [(point: Point, beforeEvents: Bool)] = [
                    (Point(line: process.firstLine, time: process.firstTime), true),
                    (Point(line: process.lastLine, time: process.lastTime), true),
                ]
                if !inOrder {
                    for event in process.events { others.append((Point(line: event.line, time: event.time), false)) }
                }
                // Walks the events along ascending lines, to tell whether a point repeats one.
                var episodeStarts = Cursor(process.events)
                var episodeEnds = Cursor(process.events)
                var violations = Cursor(process.events)
                func add(_ line: Int, _ time: Timestamp?, _ cursor: inout Cursor) {
                    if cursor.repeats(line, time) { return }
                    others.append((Point(line: line, time: time), false))
                }
                var launchCursor = Cursor(process.events)
                if let launch = process.launch {
                    add(launch.startLine, launch.start, &launchCursor)
                    if let end = launch.endLine { add(end, launch.end, &launchCursor) }
                    for milestone in launch.milestones { add(milestone.line, milestone.time, &launchCursor) }
                }
                for episode in process.episodes {
                    add(episode.startLine, episode.start, &episodeStarts)
                    add(episode.endLine, episode.end, &episodeEnds)
                }
                for violation in process.violations { add(violation.line, violation.time, &violations) }
                if let exit = process.exit { add(exit.line, exit.time, &launchCursor) }
                // Stable: on a line, the points keep the order they were given in.
                others.sort { $0.point.line < $1.point.line }
                if others.contains(where: { $0.point.time != nil }) { anyTime = true }
                self.events = inOrder ? process.events : []
                self.others = others
                self.anyTime = anyTime
            }

            func makeIterator() -> Iterator { Iterator(events: events.makeIterator(), others: others) }

            struct Iterator: IteratorProtocol {
                var events: TimelineEvents.Iterator
                let others: [(point: Point, beforeEvents: Bool)]
                var nextEvent: TimelineEvent?
                var nextOther = 0

                init(events: TimelineEvents.Iterator, others: [(point: Point, beforeEvents: Bool)]) {
                    self.events = events
                    self.others = others
                    nextEvent = self.events.next()
                }

                mutating func next() -> Point? {
                    let otherLine = nextOther < others.count ? others[nextOther].point.line : nil
                    guard let line = [nextEvent?.line, otherLine].compactMap({ $0 }).min() else { return nil }
                    // The earliest time given for the line; on equal times the first given.
                    var time: Timestamp?
                    func consider(_ given: Timestamp?) {
                        guard let given else { return }
                        if let earliest = time, earliest.instantMicros <= given.instantMicros { return }
                        time = given
                    }
                    while nextOther < others.count, others[nextOther].point.line == line,
                        others[nextOther].beforeEvents
                    {
                        consider(others[nextOther].point.time)
                        nextOther += 1
                    }
                    while let event = nextEvent, event.line == line {
                        consider(event.time)
                        nextEvent = events.next()
                    }
                    while nextOther < others.count, others[nextOther].point.line == line {
                        consider(others[nextOther].point.time)
                        nextOther += 1
                    }
                    return Point(line: line, time: time)
                }
            }

            /// A walk along the events in line order, telling whether a point is an event's own: its line, its time.
            struct Cursor {
                private var events: TimelineEvents.Iterator
                private var current: TimelineEvent?

                init(_ events: TimelineEvents) {
                    self.events = events.makeIterator()
                    current = self.events.next()
                }

                /// Whether an event at `line` has `time` (looked for ahead only: false for a line already passed).
                mutating func repeats(_ line: Int, _ time: Timestamp?) -> Bool {
                    while let event = current, event.line < line { current = events.next() }
                    guard let event = current, event.line == line else { return false }
                    return event.time == time
                }
            }
        }

        /// The x of `line`: its own when the drawing marks it, else between its neighbours.
        func x(_ line: Int) -> Double {
            guard let first, let last else { return 0 }
            if line <= first.line { return first.x }
            if line >= last.line { return last.x }
            // Mutated in place (the walk moves on): optional chaining, not a copy.
            return walk?.x(line) ?? Self.x(line, lines: lines, xs: xs)
        }

        /// The x of `line` among points at `lines` (ascending, one at or before `line` and one after it) and `xs`.
        static func x<Lines: RandomAccessCollection<Int>, Xs: RandomAccessCollection<Double>>(
            _ line: Int, lines: Lines, xs: Xs
        ) -> Double where Lines.Index == Int, Xs.Index == Int {
            var low = lines.startIndex
            var high = lines.endIndex - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if lines[middle] <= line { low = middle } else { high = middle }
            }
            if lines[low] == line { return xs[low] }
            let fraction = Double(line - lines[low]) / Double(lines[high] - lines[low])
            return xs[low] + (xs[high] - xs[low]) * fraction
        }

        /// `12:24:09.941`: the time of day to the millisecond at most.
        static func shortTime(_ time: Timestamp) -> String {
            let text = time.timeOfDay
            guard let dot = text.firstIndex(of: ".") else { return text }
            return String(text.prefix(upTo: text.index(dot, offsetBy: 4, limitedBy: text.endIndex) ?? text.endIndex))
        }
    }
}
