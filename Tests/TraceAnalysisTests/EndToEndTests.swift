import Foundation
import Testing

@testable import TraceAnalysis

/// Runs the built `trace-analyze` binary the way a user does, on `samples/`.
@Suite("End to end", .serialized)
struct EndToEndTests {
    @Test(arguments: [
        ("app-delegate-scenarios.log", Int32(0)), ("illegal-transitions.log", 1), ("slow-launch.log", 1),
        ("background-and-exits.log", 0), ("same-session-nslog.log", 0), ("same-session-ndjson.log", 0),
        ("same-session-device-syslog.log", 0),
    ])
    func samplesGiveTheirReportAndExitCode(_ name: String, _ status: Int32) throws {
        let result = try TestSupport.run([
            "--timezone", "UTC", "--year", String(TestSupport.sampleYear), "samples/" + name,
        ])
        #expect(result.status == status, "\(result.stderr)")
        let golden = try String(contentsOf: TestSupport.golden.appendingPathComponent(name + ".txt"), encoding: .utf8)
        #expect(result.stdout == golden)
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test func analyzeSubcommandIsTheDefault() throws {
        let a = try TestSupport.run(["samples/slow-launch.log"])
        let b = try TestSupport.run(["analyze", "samples/slow-launch.log"])
        #expect(a.stdout == b.stdout)
        #expect(a.status == b.status)
    }

    @Test func jsonOutputParses() throws {
        let result = try TestSupport.run([
            "--format", "json", "samples/app-delegate-scenarios.log", "samples/slow-launch.log",
        ])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((object?["inputs"] as? [Any])?.count == 2)
        #expect((object?["summary"] as? [String: Any])?["exitCode"] as? Int == 1)
    }

    @Test func standardInputIsReadWithDashOrNoFile() throws {
        let text = try String(
            contentsOf: TestSupport.samples.appendingPathComponent("app-delegate-scenarios.log"), encoding: .utf8)
        for arguments in [["-"], []] {
            let result = try TestSupport.run(arguments + ["--format", "json"], stdin: text)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("\"name\": \"<stdin>\""))
            #expect(result.stdout.contains("\"scenario\": \"left-via-alert\""))
        }
    }

    @Test func unreadableFileIsExit2AndOthersStillAnalysed() throws {
        let result = try TestSupport.run(["/nonexistent.log", "samples/app-delegate-scenarios.log"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent.log: cannot open: No such file or directory"))
        #expect(result.stdout.contains("AppDelegate [12220]"))
    }

    @Test func noLifecycleEventIsExit2WithAMessage() throws {
        let result = try TestSupport.run(["-"], stdin: "hello\nworld\n")
        #expect(result.status == 2)
        #expect(result.stderr.contains("no lifecycle events found"))
    }

    @Test func budgetOptionChangesTheVerdict() throws {
        #expect(try TestSupport.run(["--launch-budget", "2s", "samples/slow-launch.log"]).status == 0)
        #expect(try TestSupport.run(["--launch-budget", "Photos Pro=2s", "samples/slow-launch.log"]).status == 0)
        #expect(try TestSupport.run(["--launch-budget", "20ms", "samples/app-delegate-scenarios.log"]).status == 1)
    }

    @Test(arguments: [
        ["--launch-budget", "fast", "samples/slow-launch.log"], ["--format", "xml", "samples/slow-launch.log"],
        ["--input-format", "nope", "samples/slow-launch.log"], ["--no-such-flag"],
    ])
    func usageErrorsAreExit64(_ arguments: [String]) throws {
        let result = try TestSupport.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func colourIsForcedOnlyWhenAsked() throws {
        let plain = try TestSupport.run(["samples/slow-launch.log", "--color", "always"], environment: [:])
        #expect(plain.stdout.contains("\u{1B}["))
    }

    @Test func outputFileIsWritten() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-analyze-\(getpid()).json").path
        let result = try TestSupport.run(["--format", "json", "--output", path, "samples/slow-launch.log"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"overBudget\": true"))
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension EndToEndTests {
    @Test func aFolderWithoutCapturesIsAnInputProblemWithAClearMessage() throws {
        let result = try TestSupport.run(["Sources/CPCRE2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Sources/CPCRE2: no capture in this folder (files matching *.log"))
    }

    @Test func helpListsTheOptionsAndExitCodes() throws {
        let root = try TestSupport.run(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("Exit codes"))
        let analyze = try TestSupport.run(["analyze", "--help"])
        for option in ["--format", "--launch-budget", "--background-gap", "--alert-gap", "--input-format"] {
            #expect(analyze.stdout.contains(option), "\(option)")
        }
        // The values of the enum options, listed by their raw values (`StringCaseArgument`).
        #expect(analyze.stdout.contains("(values: text, json, markdown, html,"))
        #expect(analyze.stdout.contains("(values: auto,"))
    }
}

extension EndToEndTests {
    @Test func unwritableOutputIsExit2WithTheReason() throws {
        let result = try TestSupport.run([
            "--format", "json", "--output", "/nonexistent/report.json", "samples/slow-launch.log",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/report.json: cannot write: No such file or directory"))
    }

    @Test func aReaderThatStopsEarlyEndsTheRunQuietly() throws {
        // A capture whose report is far bigger than a pipe's buffer, so the tool really meets EPIPE. The run still
        // writes its other reports and ends with the exit code of its findings, as if its reader had read it all.
        let generator = TestSupport.generator
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(getpid()).log")
        let extra = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(getpid()).md")
        defer {
            try? FileManager.default.removeItem(at: capture)
            try? FileManager.default.removeItem(at: extra)
        }
        let script = """
            '\(generator.path)' --size 3MB --output '\(capture.path)' || exit 99
            '\(TestSupport.binary.path)' --format json '\(capture.path)' > /dev/null
            echo "whole ${PIPESTATUS[0]}"
            '\(TestSupport.binary.path)' --format json '\(capture.path)' --report markdown='\(extra.path)' | head -c 10 > /dev/null
            echo "status ${PIPESTATUS[0]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("whole "), "\(stdout) \(stderr)")
        #expect(lines.last == "status " + (lines.first?.dropFirst("whole ".count) ?? ""), "\(stdout)")
        #expect(stderr.isEmpty)
        #expect(try String(contentsOf: extra, encoding: .utf8).hasPrefix("## "))
    }

    @Test func formatsListsEveryFormatAndPrefixWithASample() throws {
        let result = try TestSupport.run(["formats"])
        #expect(result.status == 0)
        for format in LogFormat.builtin { #expect(result.stdout.contains("  \(format.id) "), "\(format.id)") }
        for prefix in LinePrefix.builtin { #expect(result.stdout.contains("  \(prefix.id) "), "\(prefix.id)") }
        #expect(result.stdout.contains("e.g. Jul  4 13:26:15 iPhone-de-Sergi SpringBoard(IDS)[49] <Notice>:"))
        let custom = try TestSupport.run(["formats", "--config", "samples/custom/trace-analyze.yml"])
        #expect(custom.stdout.contains("team-logger       Journal team logger (from samples/custom/trace-analyze.yml)"))
    }

    @Test func aConfigFileAddsFormatsAndABrokenOneIsExit64() throws {
        let good = try TestSupport.run([
            "--config", "samples/custom/trace-analyze.yml", "--format", "json", "samples/custom/team-logger.log",
        ])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains(#""format": "team-logger""#))
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).yml")
        try "version: 1\nformats:\n  - id: x\n    pattern: \"(\"\n    samples: [x]\n".write(
            to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }
        let bad = try TestSupport.run(["--config", broken.path, "samples/slow-launch.log"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("\(broken.path):4: formats[0].pattern: pattern does not compile"))
        #expect(bad.stdout.isEmpty)
    }

    @Test(.enabled(if: TestSupport.corpusExists))
    func aBigSyslogWithoutAppLifecycleIsReadWholeAndExit2() throws {
        let path = TestSupport.corpus.appendingPathComponent("mac-2k.log").path
        let result = try TestSupport.run(["--format", "json", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no lifecycle events found in \(path)"))
        #expect(result.stdout.contains(#""format": "syslog""#))
        #expect(result.stdout.contains(#""lines": 2000"#))
    }

    @Test func timeOptionsAreCheckedAndUsed() throws {
        let zone = try TestSupport.run(["--timezone", "Mars/Olympus", "samples/slow-launch.log"])
        #expect(zone.status == 64)
        #expect(zone.stderr.contains("--timezone: \"Mars/Olympus\" is not a time zone"))
        let year = try TestSupport.run([
            "--year", "2019", "--timezone", "Europe/Paris", "--format", "json",
            "samples/same-session-device-syslog.log",
        ])
        #expect(year.status == 0, "\(year.stderr)")
        #expect(year.stdout.contains(#""start": "2019-06-03T09:41:00""#))
        #expect(year.stdout.contains(#""assumedTimezone": "Europe/Paris""#))
        #expect(year.stdout.contains(#""source": "option""#))
    }

    @Test func aForcedInputFormatIsUsedAndAnUnknownOneRefused() throws {
        let forced = try TestSupport.run(["--input-format", "syslog", "samples/slow-launch.log"])
        #expect(forced.status == 2)
        let unknown = try TestSupport.run(["--input-format", "nope", "samples/slow-launch.log"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown input format \"nope\"; known formats: nslog-modern"))
    }

    @Test func vocabularyPrintsTheEffectiveTable() throws {
        let builtin = try TestSupport.run(["vocabulary"])
        #expect(builtin.status == 0)
        for entry in Vocabulary.builtin.entries { #expect(builtin.stdout.contains("  \(entry.id) "), "\(entry.id)") }
        let custom = try TestSupport.run(["vocabulary", "--config", "samples/custom/trace-analyze.yml"])
        #expect(custom.stdout.contains("Your entries (samples/custom/trace-analyze.yml):"))
        #expect(custom.stdout.contains("team-became-active"))
    }
}
