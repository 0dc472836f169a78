/// Runs the whole pipeline on any bytes — read, split lines, parse records, recognise events, follow the state
/// machines, detect scenarios, write every report format — and checks what must hold whatever the input: every
/// line accounted for, line numbers inside the input, violations on lines that hold an event, JSON that parses,
/// and the same bytes giving the same reports (the second time with every incarnation and its history written to
/// the temporary file at every opportunity, read in 4 KiB chunks by a thread of their own, every line one by one
/// (no ``HeaderRun``) when the input has an even number of bytes, else with the runs, which then read the loud lines
/// the reading thread marks (and the printed lines it refuses), and the reports rendered on two threads).
///
/// The fuzz target (`Fuzz/`) and the fuzz regression tests call this one function, so they check the same things.
/// A crash inside the pipeline is a finding too: it stops the fuzzer (and the test process) where it happens.
public enum PipelineCheck {
    /// The formats a capture can be read as when forced (`--input-format`), in catalogue order.
    public static let formatIDs: [String] = LogFormat.builtin.map(\.id)

    /// The byte that makes a fuzz input choose its input format: `0x01 K …` is the capture `…` read only as
    /// ``formatIDs``[K % count]; any other input is read with detection, as by default. (0x01 does not start a
    /// log, so the seeds, real captures, are read as they would be.)
    public static let formatSelector: UInt8 = 0x01

    /// The capture a fuzz input holds and the format it forces, if any.
    public static func split(_ data: [UInt8]) -> (format: String?, capture: ArraySlice<UInt8>) {
        guard data.count >= 2, data[0] == formatSelector else { return (nil, data[...]) }
        return (formatIDs[Int(data[1]) % formatIDs.count], data[2...])
    }

    /// The broken invariants of the analysis of `data` (see ``split(_:)``), empty when all hold.
    public static func run(_ data: [UInt8]) -> [String] {
        let (format, capture) = split(data)
        guard let analyzer = analyzers[format ?? ""] else {
            return ["no analyser for input format \(format ?? "(detected)")"]
        }
        let bytes = Array(capture)
        let first = analyzer.analyze([.bytes(name: "fuzz", bytes)], jobs: 1)
        var found = problems(first, bytes: bytes)
        let written = writingAnalyzers[format ?? ""] ?? analyzer
        // Half the inputs (by their length, so that a finding is read again the same way) compare the runs with the
        // path one by one; the other half the runs on one thread with the runs read ahead, where the reading thread
        // marks the lines they leave (`csimd_loud_lines`).
        let runsAhead = bytes.count % 2 == 1
        let second = written.analyze(
            bytes: bytes, name: "fuzz", chunkSize: 4096, headerRuns: runsAhead, readAhead: true
        ).report
        for reportFormat in ReportFormat.allCases {
            let once = render(first, reportFormat, jobs: 1)
            let again = render(second, reportFormat, jobs: 2)
            if once != again {
                found.append(
                    "\(reportFormat.rawValue) report differs between two analyses of the same bytes "
                        + "(\(once.count) and \(again.count) bytes; the second with everything written to the "
                        + "temporary file, read ahead in 4 KiB chunks \(runsAhead ? "with" : "without") header runs, "
                        + "rendered on 2 threads)")
            }
            if reportFormat == .json { found += checkJSON(once) }
        }
        return found
    }

    /// One analyser per forced format (and "" for detection), built once: compiling the catalogue and the
    /// vocabulary costs far more than analysing a small input.
    private static let analyzers = makeAnalyzers(spillThreshold: AnalysisOptions.defaultSpillThreshold)
    /// The same, writing every quiet incarnation and all history to the temporary file at every opportunity (as
    /// a big input does), so the second analysis checks that what is read back reports the same.
    private static let writingAnalyzers = makeAnalyzers(spillThreshold: 0)

    private static func makeAnalyzers(spillThreshold: Int) -> [String: Analyzer] {
        var analyzers: [String: Analyzer] = [:]
        for format in [nil] + formatIDs.map(Optional.some) {
            var options = AnalysisOptions()
            options.zone = .offset(0)
            options.referenceTime = 1_735_689_599  // 2024-12-31 23:59:59 UTC: no dependence on the clock
            options.inputFormat = format
            options.spillThreshold = spillThreshold
            analyzers[format ?? ""] = try? Analyzer(options: options)
        }
        return analyzers
    }

    private static func render(_ report: AnalysisReport, _ format: ReportFormat, jobs: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        format.write(report, color: true, showEvents: true, jobs: jobs) { bytes += $0 }
        return bytes
    }

    /// Line accounting and line numbers in the analysis of `bytes`.
    static func problems(_ report: AnalysisReport, bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        guard report.inputs.count == 1, let input = report.inputs.first else {
            return ["\(report.inputs.count) input summaries for one input"]
        }
        let accounted =
            input.records + input.continuationLines + input.blankLines + input.skippedLines + input.unparsedLines
        if input.lines != accounted {
            problems.append(
                "\(input.lines) lines but \(input.records) records + \(input.continuationLines) continuation + "
                    + "\(input.blankLines) blank + \(input.skippedLines) skipped + \(input.unparsedLines) unparsed "
                    + "= \(accounted)")
        }
        // A gzip input is inflated first: its lines are not the newlines of the bytes given.
        let compressed = bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
        if !compressed {
            let newlines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            let lines = newlines + (bytes.isEmpty || bytes.last == 0x0A ? 0 : 1)
            if input.lines != lines { problems.append("\(input.lines) lines read from bytes holding \(lines)") }
            if input.bytes != Int64(bytes.count) {
                problems.append("\(input.bytes) bytes read of \(bytes.count)")
            }
            if let error = input.error { problems.append("reading bytes in memory failed: \(error)") }
        }
        // Only inside the input, not first ≤ last: records whose timestamps tie are taken in their sequence order
        // (ndjson's machTimestamp), so an episode may start on a later line than it ends.
        let valid = 1...max(input.lines, 1)
        for process in report.processes {
            let who = process.displayName
            let eventLines = Set(process.events.map(\.line))
            if !valid.contains(process.firstLine) || !valid.contains(process.lastLine) {
                problems.append("\(who): lines \(process.firstLine)–\(process.lastLine) outside 1–\(input.lines)")
            }
            for event in process.events where !valid.contains(event.line) {
                problems.append("\(who): event \(event.event.rawValue) on line \(event.line) of \(input.lines)")
            }
            for violation in process.violations where !eventLines.contains(violation.line) {
                problems.append(
                    "\(who): violation \(violation.rule.rawValue) on line \(violation.line), which holds none of "
                        + "its events")
            }
            for episode in process.episodes where !valid.contains(episode.startLine) || !valid.contains(episode.endLine)
            {
                problems.append(
                    "\(who): \(episode.scenario.rawValue) on lines \(episode.startLine)–\(episode.endLine) of "
                        + "\(input.lines)")
            }
        }
        return problems
    }

    /// The JSON report parses, as an object.
    private static func checkJSON(_ bytes: [UInt8]) -> [String] {
        JSONSyntax.objectProblem(bytes).map { [$0] } ?? []
    }
}
