import Foundation
import Testing

@testable import TraceAnalysis

/// Many inputs: folders, globs, gzip, parallel analysis, the aggregate, the failure policy.
@Suite("Batch")
struct BatchTests {
    /// A temporary folder, removed by the caller.
    static func folder(_ files: [String: [UInt8]]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return root
    }

    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestSupport.samples.appendingPathComponent(name)))
    }

    /// `gzip -c`, through the system's gzip.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    @Test func foldersAreWalkedRecursivelyInPathOrderWithGlobs() throws {
        let log = try Self.sample("slow-launch.log")
        let root = try Self.folder([
            "b/run.log": log, "a/run.log": log, "a/deep/x.txt": log, "a/shot.png": [0x89, 0x50],
            ".git/HEAD.log": log, "DerivedData/build.log": log, "c.log.gz": try Self.gzip(log),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let names = { (collector: InputCollector) throws -> [String] in
            try collector.collect([root.path]).map { $0.name.replacingOccurrences(of: root.path + "/", with: "") }
        }
        #expect(
            try names(InputCollector())
                == ["DerivedData/build.log", "a/deep/x.txt", "a/run.log", "b/run.log", "c.log.gz"])
        #expect(
            try names(InputCollector(excludes: ["DerivedData", "*.gz"])) == ["a/deep/x.txt", "a/run.log", "b/run.log"])
        #expect(try names(InputCollector(includes: ["a/**/*.txt"])) == ["a/deep/x.txt"])
        #expect(
            try names(InputCollector(includes: ["*.log"], excludes: ["a/*"])) == ["DerivedData/build.log", "b/run.log"])
        #expect(throws: TraceAnalyzeError.noCaptures(folder: root.path, includes: ["*.json"], excludes: [])) {
            try InputCollector(includes: ["*.json"]).collect([root.path])
        }
        // A file named on the command line is read whatever its name; `-` is standard input.
        let png = root.appendingPathComponent("a/shot.png").path
        #expect(try InputCollector().collect([png, "-"]) == [.file(png), .standardInput])
    }

    @Test func gzipCapturesReadLikePlainOnesFromFilesAndMemory() throws {
        let plain = try Self.sample("same-session-nslog.log")
        let zipped = try Self.gzip(plain)
        let analyzer = try TestSupport.analyzer()
        let a = analyzer.analyze([.bytes(name: "x", plain)])
        let b = analyzer.analyze([.bytes(name: "x", zipped)])
        #expect(JSONReporter.render(a) == JSONReporter.render(b))
        // Concatenated members (`cat a.gz b.gz`) read one after the other.
        let twice = analyzer.analyze([.bytes(name: "x", zipped + zipped)])
        #expect(twice.inputs[0].lines == 2 * a.inputs[0].lines)
        #expect(twice.inputs[0].error == nil)
    }

    @Test func aTruncatedOrCorruptGzipIsAnInputProblemNamingTheLine() throws {
        let zipped = try Self.gzip(try Self.sample("same-session-nslog.log"))
        let analyzer = try TestSupport.analyzer()
        let cut = analyzer.analyze([.bytes(name: "cut.gz", Array(zipped.prefix(zipped.count - 20)))])
        let error = String(describing: try #require(cut.inputs[0].error))
        #expect(error.hasPrefix("cut.gz: read failed: gzip data ends early (the file is truncated), after line "))
        #expect(cut.inputs[0].lines > 0)
        TestSupport.expectAccounted(cut.inputs[0])
        #expect(cut.exitStatus == .inputProblem)
        let corrupt = analyzer.analyze([.bytes(name: "bad.gz", [0x1F, 0x8B, 0x63, 0, 0, 0, 0, 0, 0, 3, 9, 9])])
        #expect(String(describing: try #require(corrupt.inputs[0].error)).contains("not valid gzip data"))
    }

    @Test func parallelAnalysisReportsInInputOrderAndMatchesSerial() throws {
        let sources = try TestSupport.sampleNames.map { InputSource.bytes(name: $0, try Self.sample($0)) }
        let analyzer = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }
        let serial = JSONReporter.render(analyzer.analyze(sources, jobs: 1))
        let progress = ProgressLog()
        let parallel = analyzer.analyze(sources + sources, jobs: 4) { progress.add($0) }
        #expect(parallel.inputs.map(\.name) == (sources + sources).map(\.name))
        #expect(progress.seen.map(\.done) == Array(1...sources.count * 2))
        #expect(progress.seen.last?.bytes == parallel.inputs.reduce(Int64(0)) { $0 + $1.bytes })
        let again = analyzer.analyze(sources, jobs: 3)
        #expect(JSONReporter.render(again) == serial)
    }

    /// Reports rendered on several threads are byte-identical to serial ones, windows and all.
    @Test func parallelRenderingKeepsOrder() throws {
        let sources = try TestSupport.sampleNames.map { InputSource.bytes(name: $0, try Self.sample($0)) }
        let analyzer = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }
        let report = analyzer.analyze(sources + sources, jobs: 1)
        for format in ReportFormat.allCases {
            var serial: [UInt8] = []
            var parallel: [UInt8] = []
            format.write(report, showEvents: true, jobs: 1) { serial += $0 }
            format.write(report, showEvents: true, jobs: 3) { parallel += $0 }
            #expect(serial == parallel, "\(format)")
        }
        var seen: [Int] = []
        OrderedParallel.forEach(count: 100, jobs: 4, window: 7, { $0 * 2 }, sink: { seen.append($0) })
        #expect(seen == Array(0..<100).map { $0 * 2 })
    }

    final class ProgressLog: @unchecked Sendable {
        private(set) var seen: [BatchProgress] = []
        func add(_ progress: BatchProgress) { seen.append(progress) }
    }

    @Test func percentilesAreNearestRank() throws {
        let stats = try #require(DurationStats((1...100).map(Double.init).reversed(), overBudget: 3))
        let figures: [Double] = [stats.minMs, stats.p50Ms, stats.p90Ms, stats.p99Ms, stats.maxMs]
        #expect(stats.count == 100)
        #expect(figures == [1, 50, 90, 99, 100])
        let one = try #require(DurationStats([42], overBudget: 0))
        #expect([one.p50Ms, one.p90Ms, one.p99Ms] == [42, 42, 42])
        let ten = try #require(DurationStats((1...10).map(Double.init), overBudget: 0))
        #expect([ten.p50Ms, ten.p90Ms, ten.p99Ms] == [5, 9, 10])
        #expect(DurationStats([], overBudget: 0) == nil)
    }

    /// Durations past the in-memory limit go to a file and their percentiles come from a radix selection over it:
    /// the same figures as sorting them all, on random values (repeats, negatives, zeros, fractions, wide ranges).
    @Test func percentilesOfDurationsInAFileAreThoseOfASort() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let count = Int(random.next() % 120)
            let values = (0..<count).map { _ -> Double in
                switch random.next() % 4 {
                case 0: return Double(random.next() % 5)
                case 1: return -Double(random.next() % 1000) / 8
                case 2: return Double(random.next() % 1_000_000) / 1000
                default: return Double(random.next() % 1_000_000_000) * 1e6
                }
            }
            var durations = Durations(limit: 7)
            for value in values { durations.append(value) }
            #expect(durations.stats(overBudget: 2) == DurationStats(values, overBudget: 2), "\(values)")
        }
        for value in [-1e300, -2.5, -0.0001, 0, 1e-300, 3, 1e300] {
            #expect(Durations.value(Durations.key(value)) == value)
        }
        #expect(Durations.key(-1) < Durations.key(0) && Durations.key(0) < Durations.key(0.5))
    }

    @Test func theAggregateCountsPerAppOverInputs() throws {
        let report = try TestSupport.analyzeAllSamples()
        let aggregate = Aggregate(report)
        let journal = try #require(aggregate.apps.first { $0.name == "Journal" })
        #expect(journal.inputs == 3)
        #expect(journal.processes == 6)
        #expect(journal.launchesSeen == 6)
        // The device syslog's whole-second launches cannot be judged against 400 ms.
        #expect(journal.launches?.count == 4)
        #expect(journal.resumes?.count == 2)
        #expect(journal.count(of: .killedInBackground) == 3)
        let checkout = try #require(aggregate.apps.first { $0.name == "Checkout" })
        #expect(
            checkout.violationCount == report.processes.filter { $0.name == "Checkout" }.flatMap(\.violations).count)
        let photos = try #require(aggregate.apps.first { $0.name == "Photos Pro" })
        #expect(photos.launches?.overBudget == 1)
        #expect(aggregate.inputs.map(\.name) == report.inputs.map(\.name))
        #expect(aggregate.inputs.reduce(0) { $0 + $1.violations } == report.violations.count)
    }

    @Test func aSlowResumeIsOverItsBudgetAndThePolicyDecidesTheExit() throws {
        let capture = """
            2024-03-01 10:00:00.000 App[1:1] application:didFinishLaunchingWithOptions:
            2024-03-01 10:00:00.100 App[1:1] applicationDidBecomeActive:
            2024-03-01 10:00:05.000 App[1:1] applicationWillResignActive:
            2024-03-01 10:00:05.100 App[1:1] applicationDidEnterBackground:
            2024-03-01 10:00:09.000 App[1:1] applicationWillEnterForeground:
            2024-03-01 10:00:09.450 App[1:1] applicationDidBecomeActive:
            """
        let report = try TestSupport.analyzer().analyze(text: capture)
        let resume = try #require(report.processes[0].episodes.first { $0.scenario == .returnToForeground })
        #expect(resume.durationMs == 450)
        #expect(resume.budgetMs == 200)
        #expect(resume.overBudget)
        #expect(report.exitStatus == .findings)
        #expect(report.failingFindings.map(\.0) == [.overBudget])
        let lenient = try TestSupport.analyzer { $0.appResumeBudgetsMs["App"] = 500 }.analyze(text: capture)
        #expect(lenient.exitStatus == .clean)
        let violationsOnly = try TestSupport.analyzer { $0.failOn = FailurePolicy([.violations]) }.analyze(
            text: capture)
        #expect(violationsOnly.exitStatus == .clean)
        #expect(violationsOnly.findingCounts[.overBudget] == 1)
    }

    @Test func killedInForegroundFailsOnlyWhenThePolicySaysSo() throws {
        let report = try TestSupport.analyzeSample("app-delegate-scenarios.log")
        #expect(report.findingCounts[.killedInForeground] == 1)
        #expect(report.exitStatus == .clean)
        var strict = report
        strict.options.failOn = FailurePolicy([.violations, .killedInForeground])
        #expect(strict.exitStatus == .findings)
        #expect(
            FailurePolicy.parse(list: "violations, clock-anomalies")
                == .success(FailurePolicy([.violations, .clockAnomalies])))
        #expect(FailurePolicy.parse(list: "none") == .success(FailurePolicy([])))
        #expect(FailurePolicy.parse(list: "violation") == .failure(.init(word: "violation")))
    }
}
