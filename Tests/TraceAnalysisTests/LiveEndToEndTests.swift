import Foundation
import Testing

@testable import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `trace-analyze --follow`, run as a user runs it: a capture piped in a line at a time, Ctrl-C, a followed file
/// that is truncated and rotated.
@Suite("Live mode end to end", .serialized)
struct LiveEndToEndTests {
    /// The built binary running with pipes on its standard streams; its output read with a deadline.
    final class Running {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private let errors = Pipe()
        private var pending: [UInt8] = []
        private(set) var stderr: [UInt8] = []

        init(_ arguments: [String]) throws {
            process.executableURL = TestSupport.binary
            process.arguments = arguments
            process.currentDirectoryURL = TestSupport.packageRoot
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = "1"
            environment["TZ"] = "UTC"
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

        func closeInput() throws { try input.fileHandleForWriting.close() }

        /// Complete output lines that arrive within `seconds`, stopping as soon as `enough` of them have.
        func lines(within seconds: Double, enough: Int = .max) -> [String] {
            var lines: [String] = []
            let deadline = Date().addingTimeInterval(seconds)
            while lines.count < enough {
                while let newline = pending.firstIndex(of: 0x0A), lines.count < enough {
                    lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
                let left = deadline.timeIntervalSinceNow
                if lines.count >= enough || left <= 0 { break }
                var fds = [pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 1, Int32(left * 1000) + 1) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let got = buffer.withUnsafeMutableBytes { read(fds[0].fd, $0.baseAddress, $0.count) }
                if got <= 0 { break }
                pending += buffer[..<got]
            }
            return lines
        }

        /// Waits for the exit (killed after 15 s, so a test fails rather than hangs); everything it wrote after
        /// what was read.
        func finish() -> (status: Int32, rest: String, stderr: String) {
            let pid = process.processIdentifier
            let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 15, execute: watchdog)
            defer { watchdog.cancel() }
            let rest = output.fileHandleForReading.readDataToEndOfFile()
            let errorText = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: pending + rest, as: UTF8.self),
                String(decoding: errorText, as: UTF8.self)
            )
        }

        /// Standard error so far, without waiting.
        func stderrSoFar() -> String {
            let fd = errors.fileHandleForReading.fileDescriptor
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            while poll(&fds, 1, 0) > 0, fds[0].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if got <= 0 { break }
                stderr += buffer[..<got]
            }
            return String(decoding: stderr, as: UTF8.self)
        }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// The acceptance test: a capture fed through a pipe a line at a time, each finding read back before
    /// the next line is written (100 ms apart). What each line decides comes from the library's live analysis.
    @Test func eachFindingAppearsBeforeTheNextLineIsFed() throws {
        let name = "illegal-transitions.log"
        let text = try LiveAnalysisTests.sample(name)
        let lines = text.split(separator: "\n").map { String($0) + "\n" }
        let analyzer = try TestSupport.analyzer()
        var expected = [Int](repeating: 0, count: lines.count + 1)
        var atTheEnd = 0
        let reference = LiveAnalysis(analyzer: analyzer) { finding in
            if finding.trigger == .end { atTheEnd += 1 } else { expected[finding.line] += 1 }
        }
        for line in lines { reference.feed(Array(line.utf8)) }
        _ = reference.finish()
        #expect(expected.reduce(0, +) == 11)

        let running = try Running(["--follow", "--format", "jsonl", "--idle", "10s"])
        for (index, line) in lines.enumerated() {
            let sent = Date()
            running.write(line)
            let arrived = running.lines(within: 2, enough: expected[index + 1])
            #expect(arrived.count == expected[index + 1], "after line \(index + 1)")
            for finding in arrived {
                #expect(try Self.object(finding)["decidedAtLine"] as? Int == index + 1)
            }
            if !arrived.isEmpty { #expect(Date().timeIntervalSince(sent) < 1, "line \(index + 1) took too long") }
            usleep(100_000)
            #expect(running.lines(within: 0).isEmpty, "nothing more after line \(index + 1)")
        }
        try running.closeInput()
        let (status, rest, _) = running.finish()
        let closing = rest.split(separator: "\n").map(String.init)
        #expect(closing.count == atTheEnd + 1)
        let summary = try Self.object(try #require(closing.last))
        #expect(summary["type"] as? String == "summary")
        #expect((summary["summary"] as? [String: Any])?["exitCode"] as? Int == 1)
        #expect(status == 1)
    }

    /// Ctrl-C prints the summary and exits with the batch exit code, instead of dying.
    @Test func ctrlCPrintsTheSummaryWithTheBatchExitCode() throws {
        let text = try LiveAnalysisTests.sample("illegal-transitions.log")
        let running = try Running(["--follow"])
        running.write(text.split(separator: "\n")[..<6].map { $0 + "\n" }.joined())
        let shown = running.lines(within: 5, enough: 6)
        #expect(shown.count == 6)
        #expect(shown.first?.contains("✗ violation 1 launch-order  L1") == true)
        running.process.interrupt()  // SIGINT, as Ctrl-C sends
        let (status, rest, _) = running.finish()
        #expect(rest.contains("<stdin> — nslog-modern · 6 lines"))
        #expect(rest.contains("Summary: 1 input, 1 process, 2 episodes"))
        #expect(rest.contains("result: findings: 3 violations (exit 1)"))
        #expect(status == 1)
    }

    /// `--follow FILE` like `tail -F`: the file is read from its start, truncated and rewritten, then rotated
    /// (moved away and a new one written); Ctrl-C ends it with the summary of everything read.
    @Test func aFollowedFileIsReadThroughTruncationAndRotation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("follow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.log")
        let capture = ExampleCapture(TestSupport.launchHomeAndBack).text.split(separator: "\n").map {
            String($0) + "\n"
        }
        try Data(capture[0...1].joined().utf8).write(to: path)
        let running = try Running(["--follow", path.path, "--format", "jsonl"])
        #expect(running.lines(within: 5, enough: 2).count == 2)  // the launch episode and the launch time

        try Data().write(to: path)
        usleep(300_000)
        try Data(capture[2...3].joined().utf8).write(to: path)
        let afterTruncation = running.lines(within: 5, enough: 1)
        #expect(afterTruncation.count == 1)
        if let line = afterTruncation.first {
            let finding = try Self.object(line)
            #expect((finding["episode"] as? [String: Any])?["scenario"] as? String == "enter-background")
            #expect(finding["decidedAtLine"] as? Int == 4)
        }
        #expect(running.stderrSoFar().contains("app.log: truncated; reading it again from its start"))

        try FileManager.default.moveItem(at: path, to: folder.appendingPathComponent("app.log.1"))
        try Data(capture[4...5].joined().utf8).write(to: path)
        let afterRotation = running.lines(within: 5, enough: 1)
        #expect(afterRotation.count == 1)
        if let line = afterRotation.first {
            let finding = try Self.object(line)
            #expect((finding["episode"] as? [String: Any])?["scenario"] as? String == "return-to-foreground")
            #expect(finding["decidedAtLine"] as? Int == 6)
        }
        #expect(running.stderrSoFar().contains("app.log: replaced by a new file (rotated)"))

        running.process.interrupt()
        let (status, rest, _) = running.finish()
        let summary = try Self.object(try #require(rest.split(separator: "\n").last.map(String.init)))
        #expect((summary["summary"] as? [String: Any])?["episodes"] as? Int == 3)
        #expect((summary["inputs"] as? [[String: Any]])?.first?["lines"] as? Int == 6)
        #expect(status == 0)
    }

    @Test func liveModeRefusesWhatItCannotDo() throws {
        let twoFiles = try TestSupport.run(["--follow", "samples/slow-launch.log", "samples/illegal-transitions.log"])
        #expect(twoFiles.status == 64)
        #expect(twoFiles.stderr.contains("--follow reads one input"))
        let html = try TestSupport.run(["--follow", "--format", "html"], stdin: "")
        #expect(html.status == 64)
        #expect(html.stderr.contains("use text or jsonl with --follow"))
        let folder = try TestSupport.run(["--follow", "samples"])
        #expect(folder.status == 64)
        let idle = try TestSupport.run(["--idle", "1s", "samples/slow-launch.log"])
        #expect(idle.status == 64)
        let badIdle = try TestSupport.run(["--follow", "--idle", "0s"], stdin: "")
        #expect(badIdle.status == 64)
    }

    /// Input that ends by itself (a capture piped in whole) ends live mode like a batch run.
    @Test func aPipedCaptureThatEndsGivesTheBatchSummaryAndExitCode() throws {
        let text = try LiveAnalysisTests.sample("slow-launch.log")
        let live = try TestSupport.run(["--follow"], stdin: text)
        let batch = try TestSupport.run(["-"], stdin: text)
        #expect(live.status == 1 && batch.status == 1)
        #expect(live.stdout.contains("launch  1.9 s to active (budget 400 ms)  ✗ over budget by 1.5 s"))
        let summary = try #require(batch.stdout.range(of: "Per app"))
        #expect(live.stdout.hasSuffix(String(batch.stdout[summary.lowerBound...])))
    }

    /// The batch's `--format jsonl`: every finding then the summary, one object a line.
    @Test func batchJSONLinesListEveryFindingThenTheSummary() throws {
        let run = try TestSupport.run(["--format", "jsonl", "samples/illegal-transitions.log"])
        #expect(run.status == 1)
        let objects = try run.stdout.split(separator: "\n").map { try Self.object(String($0)) }
        // In line order: L1 launch episode and violation 1, L3 launch time, L4 violation 2, L6 enter-background
        // and violation 4, L7–9 violations 3, 5, 6, L10 termination, L11 violation 7.
        #expect(
            objects.map { $0["type"] as? String } == [
                "episode", "violation", "launch", "violation", "episode", "violation", "violation", "violation",
                "violation", "episode", "violation", "summary",
            ])
        #expect(objects.dropLast().allSatisfy { $0["decidedBy"] as? String == "end" })
    }
}
