import ArgumentParser
import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--follow`: wires standard input or a followed file, Ctrl-C and printing to the library's `LiveAnalysis`.
struct LiveRun {
    let analysis: AnalysisArguments
    let outputs: ReportOutputs
    let idle: String?

    static let defaultIdle = "2s"

    func run() throws {
        guard outputs.format == .text || outputs.format == .jsonl else {
            throw AnalysisArguments.invalid(
                "--format", outputs.format.rawValue, "a live format: use text or jsonl with --follow")
        }
        let extra = try outputs.extraReports()
        guard let idleMs = DurationParser.milliseconds(idle ?? Self.defaultIdle), idleMs > 0 else {
            throw AnalysisArguments.invalid("--idle", idle ?? "", "a duration above zero, like 2s or 500ms")
        }
        let config = try analysis.configuration.load()
        let options = try analysis.options(config)
        let source = try self.source()
        let analyzer = try analysis.analyzer(config, options)
        let destination = try Terminal.Destination(path: outputs.output)
        defer { destination.close() }
        let stop = try Interrupt.install()

        let text = LiveTextReporter(color: outputs.output == nil && Terminal.wantsColor(outputs.color.rawValue))
        let jsonl = outputs.format == .jsonl
        let name: String
        if case .file(let path) = source { name = path } else { name = InputSource.standardInput.name }
        let live = LiveAnalysis(analyzer: analyzer, name: name) { finding in
            // One write(2) per finding: nothing waits in a buffer.
            Self.write(jsonl ? LiveJSONReporter.line(finding) : Array(text.line(finding).utf8), to: destination)
        }
        let reader = LiveReader(idleMilliseconds: idleMs, stop: stop) { notice in
            Terminal.warn(notice.description)
        }
        let ending = reader.run(source, into: live)
        let report = live.finish()
        if case .failed(let error) = ending { Terminal.warn(String(describing: error)) }
        if report.failedInputs.isEmpty, report.lifecycleEventCount == 0 {
            Terminal.warn(String(describing: TraceAnalyzeError.noLifecycleEvents(inputs: [name])))
        }
        Self.write(jsonl ? LiveJSONReporter.summaryLine(report) : Array(text.closing(report).utf8), to: destination)
        if !extra.isEmpty {
            do {
                for (format, path) in extra {
                    let file = try Terminal.Destination(path: path)
                    defer { file.close() }
                    try format.write(report, showEvents: outputs.events, to: file.write)
                }
            } catch {
                Terminal.warn(String(describing: error))
                throw ExitCode(ExitStatus.inputProblem.rawValue)
            }
        }
        throw ExitCode(report.exitStatus.rawValue)
    }

    /// Standard input (no FILE, or `-`), or the one FILE to follow.
    private func source() throws -> LiveReader.Source {
        switch analysis.files.count {
        case 0:
            guard isatty(0) == 0 else {
                throw ValidationError(
                    "no input: pipe a log in (`log stream … | trace-analyze --follow`) or name a file to follow")
            }
            return .descriptor(0)
        case 1:
            let path = analysis.files[0]
            if path == "-" { return .descriptor(0) }
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                throw AnalysisArguments.invalid("--follow", path, "a file: live mode follows one file, not a folder")
            }
            return .file(path)
        default:
            throw ValidationError(
                "--follow reads one input: standard input, or one FILE followed like `tail -F` (got \(analysis.files.count))"
            )
        }
    }

    /// Writes a finding; a reader that went away ends the run quietly (the destination exits 0 on EPIPE).
    private static func write(_ bytes: [UInt8], to destination: Terminal.Destination) {
        do {
            try destination.write(bytes)
        } catch {
            Terminal.warn(String(describing: error))
            exit(ExitStatus.inputProblem.rawValue)
        }
    }
}
