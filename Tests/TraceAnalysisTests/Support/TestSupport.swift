import Foundation
import Testing

@testable import TraceAnalysis

/// Paths and helpers shared by the suites.
enum TestSupport {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let samples = packageRoot.appendingPathComponent("samples")
    static let golden = packageRoot.appendingPathComponent("Tests/TraceAnalysisTests/Golden")
    /// The real captures of `../shared/corpus/real` (beside the repository, in CI too).
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/real")
    static var corpusExists: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    static let sampleNames = [
        "app-delegate-scenarios.log", "illegal-transitions.log", "slow-launch.log", "background-and-exits.log",
        "same-session-nslog.log", "same-session-ndjson.log", "same-session-device-syslog.log",
    ]

    /// The year golden runs give year-less samples (the command-line tests pass `--year` with it).
    static let sampleYear = 2024

    /// Options that do not depend on the machine: zone-less times in UTC, year-less captures ending in 2024.
    static var fixedOptions: AnalysisOptions {
        var options = AnalysisOptions()
        options.zone = .offset(0)
        options.referenceTime = 1_735_689_599  // 2024-12-31 23:59:59 UTC
        return options
    }

    static func analyzer(_ configure: (inout AnalysisOptions) -> Void = { _ in }) throws -> Analyzer {
        var options = fixedOptions
        configure(&options)
        return try Analyzer(options: options)
    }

    /// Analyses a sample as if it were read from `samples/NAME` (stable names for golden files).
    static func analyzeSample(_ name: String) throws -> AnalysisReport {
        let text = try String(contentsOf: samples.appendingPathComponent(name), encoding: .utf8)
        return try analyzer { $0.year = sampleYear }.analyze(text: text, name: "samples/" + name)
    }

    /// Every sample analysed as one batch, in ``sampleNames`` order (the report a batch over `samples/` gives).
    static func analyzeAllSamples() throws -> AnalysisReport {
        let sources = try sampleNames.map { name in
            InputSource.text(
                name: "samples/" + name,
                try String(contentsOf: samples.appendingPathComponent(name), encoding: .utf8))
        }
        return try analyzer { $0.year = sampleYear }.analyze(sources)
    }

    static var recordingGolden: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

    /// Compares `actual` with the golden file `name` (re-recorded with `RECORD_GOLDEN=1 swift test`).
    static func compareGolden(
        _ actual: String, golden name: String,
        _ check: (String, String) throws -> Void = { actual, expected in
            #expect(actual == expected, "report differs from its golden file")
        }
    ) throws {
        let url = golden.appendingPathComponent(name)
        if recordingGolden {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        try check(actual, expected)
    }

    /// Analyses a capture written in the ``ExampleCapture`` notation.
    /// A launch, the Home button and a return, in ``ExampleCapture`` notation: three findings, each decided by a line.
    static let launchHomeAndBack = """
        0.000 App Delegate: didFinishLaunchingWithOptions
        0.100 App Delegate: applicationDidBecomeActive
        5.000 App Delegate: applicationWillResignActive
        5.010 App Delegate: applicationDidEnterBackground
        9.000 App Delegate: applicationWillEnterForeground
        9.020 App Delegate: applicationDidBecomeActive
        """

    static func analyzeExample(_ notation: String) throws -> (AnalysisReport, ExampleCapture) {
        let capture = ExampleCapture(notation)
        return (try analyzer().analyze(text: capture.text, name: "example"), capture)
    }

    /// Every line accounted for exactly once.
    static func expectAccounted(_ input: InputSummary, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            input.lines == input.records + input.continuationLines + input.blankLines + input.skippedLines
                + input.unparsedLines,
            "\(input.name): \(input.lines) lines ≠ records + continuation + blank + skipped + unparsed",
            sourceLocation: sourceLocation)
    }

    /// The built-in analyser, after `userFormats` and `userPrefixes`, with each built-in format's and prefix's pattern
    /// wrapped in a group, `(?:…)`: the same patterns, which the analyser no longer knows as its own, so that it reads
    /// every line with PCRE2 (no NSLog or `log` style header reader, no quick path, no runs, no prefix measured in C).
    static func patternsOnlyAnalyzer(userFormats: [LogFormat] = [], userPrefixes: [LinePrefix] = []) throws
        -> Analyzer
    {
        let formats = LogFormat.builtin.map { format in
            var format = format
            format.pattern = "(?:" + format.pattern + ")"
            return format
        }
        let prefixes = LinePrefix.builtin.map { prefix in
            var prefix = prefix
            prefix.pattern = "(?:" + prefix.pattern + ")"
            return prefix
        }
        return try Analyzer(
            options: fixedOptions, formats: userFormats + formats, prefixes: userPrefixes + prefixes)
    }

    /// The JSON report of `bytes` is the same from the built-in analyser (after `userFormats` and `userPrefixes`), in
    /// chunks of 331 bytes and 1 MiB, as from ``patternsOnlyAnalyzer(userFormats:userPrefixes:)``: the header readers,
    /// the quick paths and the runs change nothing.
    static func expectSameAsThePatterns(
        _ bytes: [UInt8], userFormats: [LogFormat] = [], userPrefixes: [LinePrefix] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let analyzer = try Analyzer(
            options: fixedOptions, formats: userFormats + LogFormat.builtin, prefixes: userPrefixes + LinePrefix.builtin
        )
        let reference = try patternsOnlyAnalyzer(userFormats: userFormats, userPrefixes: userPrefixes).analyze(
            bytes: bytes, chunkSize: 1 << 20, maximumLineLength: LineReader.defaultMaximumLineLength, headerRuns: false
        ).report
        #expect(reference.inputs.first?.records ?? 0 > 0, sourceLocation: sourceLocation)
        for chunk in [331, 1 << 20] {
            let report = analyzer.analyze(
                bytes: bytes, chunkSize: chunk, maximumLineLength: LineReader.defaultMaximumLineLength, headerRuns: true
            ).report
            let same = JSONReporter.bytes(report) == JSONReporter.bytes(reference)
            #expect(same, "JSON differs from the patterns' own, chunks of \(chunk)", sourceLocation: sourceLocation)
        }
    }

    /// Lines of every sample and real capture, split at LF as the reader splits them.
    static func realLines() throws -> [[UInt8]] {
        var urls = sampleNames.map { samples.appendingPathComponent($0) }
        if corpusExists {
            urls += try FileManager.default.contentsOfDirectory(atPath: corpus.path)
                .filter { !$0.hasSuffix(".md") }.map { corpus.appendingPathComponent($0) }
        }
        return try urls.flatMap { url in try Data(contentsOf: url).split(separator: 0x0A).map { Array($0) } }
    }

    /// `line` with one to three random bytes of `alphabet` replaced, inserted or removed in its first `within`
    /// bytes: the header readers' mutation tests.
    static func mutate(_ line: [UInt8], alphabet: [UInt8], within: Int, _ random: inout SplitMix64) -> [UInt8] {
        var line = line
        for _ in 0...Int(random.next() % 3) {
            let position = Int(random.next() % UInt64(min(line.count, within) + 1))
            let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
            switch random.next() % 3 {
            case 0 where position < line.count: line[position] = byte
            case 1 where position < line.count: line.remove(at: position)
            default: line.insert(byte, at: position)
            }
        }
        return line
    }

    /// The built `generate-capture` binary, beside ``binary``.
    static var generator: URL { binary.deletingLastPathComponent().appendingPathComponent("generate-capture") }

    /// The built `trace-analyze` binary (built next to the test bundle by `swift test`).
    static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("trace-analyze")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/trace-analyze")
    }

    struct RunResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary (or `executable`, as ``generator``) with `arguments`, optionally feeding `stdin`.
    static func run(
        _ arguments: [String], executable: URL = binary, stdin: String? = nil, environment: [String: String] = [:]
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["TZ"] = "UTC"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
