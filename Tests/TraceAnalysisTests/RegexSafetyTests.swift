import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

/// A user pattern that backtracks catastrophically gives up line by line under PCRE2's limits, is named with the
/// line where it first did, and stops being tried: the run ends in bounded time with every line accounted for.
@Suite("Regex safety")
struct RegexSafetyTests {
    /// Nested quantifiers with a literal after them: on a long line of words ending in `: [` with no process after
    /// it, PCRE2 backtracks through every way of splitting the words.
    static let greedy = LogFormat(
        id: "greedy-logger", title: "A logger with a catastrophic pattern", origin: "a test",
        pattern: #"^(?:\w+\s?)+: \[(?<process>[A-Za-z]+):(?<pid>\d+)\] (?<message>.*)$"#,
        timestamp: nil,
        samples: [
            .init(
                line: "journal entry: [Journal:4242] applicationDidBecomeActive", process: "Journal", pid: 4242,
                message: "applicationDidBecomeActive")
        ])

    static func capture(runaways: Int) -> String {
        var lines = [
            "journal entry: [Journal:42] application(_:didFinishLaunchingWithOptions:)",
            "journal entry: [Journal:42] applicationDidBecomeActive",
        ]
        // The line holds `: [` (no prefilter can refuse it: every match holds that), with no process after it.
        lines += Array(repeating: String(repeating: "word ", count: 2_000) + "tail: [", count: runaways)
        lines.append("journal entry: [Journal:42] applicationWillResignActive")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aCatastrophicFormatGivesUpNamesTheLineAndRetires() throws {
        var options = AnalysisOptions()
        options.patternOrigins = ["greedy-logger": "team.yml:5"]
        let analyzer = try Analyzer(options: options, formats: [Self.greedy] + LogFormat.builtin)
        let report = analyzer.analyze(text: Self.capture(runaways: 150), name: "runaway.log")
        let input = try #require(report.inputs.first)
        TestSupport.expectAccounted(input)
        #expect(input.lines == 153)
        let failure = try #require(input.patternFailures.first { $0.owner.hasPrefix("format greedy-logger") })
        #expect(failure.owner == "format greedy-logger (team.yml:5)")
        #expect(failure.firstLine == 3)
        #expect(failure.lines == Matcher.Limits().failures)
        #expect(failure.retiredAfterLine == 2 + Matcher.Limits().failures)
        guard case .patternGaveUp(let path, let first, _) = input.error else {
            Issue.record("expected a patternGaveUp error, got \(String(describing: input.error))")
            return
        }
        #expect(path == "runaway.log")
        #expect(first == failure)
        let message = String(describing: try #require(input.error))
        #expect(message.hasPrefix("runaway.log:3: format greedy-logger (team.yml:5) gave up on this line"))
        #expect(message.contains("no longer tried"))
        #expect(message.contains(Self.greedy.pattern))
        #expect(report.exitStatus == .inputProblem)
        // The records around the runaway lines are still read: the launch before, the resign after.
        #expect(input.records == 3)
        #expect(input.lifecycleEvents == 3)
    }

    @Test func aFewGiveUpsAreReportedWithoutRetiring() throws {
        let analyzer = try Analyzer(formats: [Self.greedy] + LogFormat.builtin)
        let input = try #require(analyzer.analyze(text: Self.capture(runaways: 2)).inputs.first)
        let failure = try #require(input.patternFailures.first)
        #expect(failure.lines == 2)
        #expect(failure.retiredAfterLine == nil)
        #expect(!String(describing: try #require(input.error)).contains("no longer tried"))
    }

    /// A vocabulary entry that backtracks catastrophically is named by its id when its keyword's group gives up (the
    /// group's matcher, like the entry's detail matcher that reads the name on the first line, is made when first
    /// used).
    @Test func aCatastrophicVocabularyEntryIsNamed() throws {
        let entry = VocabularyEntry(
            id: "journal-closed", event: .didEnterBackground, pattern: #"journal (?:\w+\s?)+: closed (?<name>\w+)"#,
            keywords: ["journal"], examples: ["journal entry: closed Notes"], userDefined: true)
        let analyzer = try Analyzer(vocabulary: Vocabulary(entries: Vocabulary.builtin.entries + [entry]))
        var lines = ["2026-01-05 10:00:00.000 Notes[42:4242] journal entry: closed Notes"]
        lines += Array(
            repeating: "2026-01-05 10:00:01.000 Notes[42:4242] journal " + String(repeating: "word ", count: 2_000),
            count: 3)
        let input = try #require(analyzer.analyze(text: lines.joined(separator: "\n") + "\n").inputs.first)
        TestSupport.expectAccounted(input)
        #expect(input.lifecycleEvents == 1)
        let owners = Set(input.patternFailures.map(\.owner))
        #expect(owners == ["vocabulary journal-closed"], "\(owners)")
        #expect(input.patternFailures.first?.firstLine == 2)
    }

    /// A recogniser keeps the entry each message meant (``ByteMemo``), but not past a give-up: once the entry's
    /// group has given up often enough to be retired, a message it recognised before means nothing, as it would
    /// to a recogniser that never kept it.
    @Test func aRetiredVocabularyGroupIsNotAnsweredFromTheMemo() throws {
        let entry = VocabularyEntry(
            id: "journal-closed", event: .didEnterBackground, pattern: #"journal (?:\w+\s?)+: closed (?<name>\w+)"#,
            keywords: ["journal"], examples: ["journal entry: closed Notes"], userDefined: true)
        let compiled = try EventRecognizer.Compiled(Vocabulary(entries: Vocabulary.builtin.entries + [entry]))
        let log = MatchFailureLog()
        let recognizer = EventRecognizer(compiled: compiled, failureLog: log)
        let short = "journal entry: closed Notes"
        let runaway = "journal " + String(repeating: "word ", count: 2_000)
        for _ in 0..<3 { #expect(recognizer.recognize(short)?.entryID == "journal-closed") }
        for index in 0..<Matcher.Limits().failures {
            log.line = index + 1
            #expect(recognizer.recognize(runaway) == nil)
            // Until it retires, the group still answers; a give-up forgot what it had answered.
            if index + 1 < Matcher.Limits().failures {
                #expect(recognizer.recognize(short)?.entryID == "journal-closed")
            }
        }
        #expect(log.failures.first?.retiredAfterLine == Matcher.Limits().failures)
        #expect(recognizer.recognize(short) == nil)
        #expect(recognizer.recognize("applicationDidBecomeActive")?.event == .didBecomeActive)
    }

    /// Long runs of what the built-in prefixes start with: `> ` quoting overflowed the JIT stack when its run was
    /// greedy, and `grep -n`'s file-name part was quadratic on a long line without a colon.
    @Test func theBuiltInPrefixesDoNotGiveUpOnLongRuns() throws {
        let analyzer = try TestSupport.analyzer()
        let lines = [
            String(repeating: "> ", count: 30_000) + "x",
            String(repeating: "abc", count: 20_000),
            String(repeating: "a1", count: 30_000) + ":12: tail",
        ]
        let input = try #require(analyzer.analyze(text: lines.joined(separator: "\n") + "\n").inputs.first)
        #expect(input.patternFailures.isEmpty, "\(input.patternFailures.map(\.owner))")
        TestSupport.expectAccounted(input)
    }

    @Test func theBuiltInPatternsNeverGiveUpOnTheSamples() throws {
        let report = try TestSupport.analyzeAllSamples()
        for input in report.inputs { #expect(input.patternFailures.isEmpty, "\(input.name)") }
    }

    @Test func theCommandLineNamesTheConfigFileAndLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("regex-safety-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("team.yml")
        try """
        version: 1
        formats:
          - id: greedy-logger
            title: A logger with a catastrophic pattern
            pattern: '\(Self.greedy.pattern)'
            samples:
              - line: 'journal entry: [Journal:4242] applicationDidBecomeActive'
                process: Journal
                pid: 4242
                message: applicationDidBecomeActive

        """.write(to: config, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("runaway.log")
        try Self.capture(runaways: 120).write(to: log, atomically: true, encoding: .utf8)
        let result = try TestSupport.run(["--config", config.path, log.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(log.path):3: format greedy-logger (\(config.path):5) gave up on this line"))
        #expect(result.stdout.contains("incomplete"))
    }
}
