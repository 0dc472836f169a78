import Foundation
import Testing

@testable import TraceAnalysis

@Suite("Configuration files")
struct ConfigurationTests {
    static let teamConfig = TestSupport.samples.appendingPathComponent("custom/trace-analyze.yml")

    @Test func aUserFormatAndPrefixReadTheTeamsLogger() throws {
        let config = try Configuration.load(path: Self.teamConfig.path)
        #expect(config.formats.map(\.id) == ["team-logger"])
        #expect(config.prefixes.map(\.id) == ["build-step"])
        var options = TestSupport.fixedOptions
        options.launchBudgetMs = 400
        let analyzer = try Analyzer(
            options: options, formats: config.allFormats, prefixes: config.allPrefixes, vocabulary: config.allVocabulary
        )
        let report = analyzer.analyze([.file(TestSupport.samples.appendingPathComponent("custom/team-logger.log").path)]
        )
        #expect(report.inputs[0].format == "team-logger")
        #expect(report.inputs[0].prefixes == ["build-step": 7])
        #expect(report.processes.first?.episodes.map(\.scenario) == [.launch, .enterBackground])
        #expect(report.processes.first?.launch?.durationMs == 102)
        // "Became active" and "going to background" are the team's own words for the callbacks.
        #expect(config.vocabulary.map(\.id) == ["team-became-active", "team-going-background"])
        #expect(report.processes.first?.events.map(\.event).contains(.didEnterBackground) == true)
    }

    @Test func aUserMessageWinsOverBuiltInBait() throws {
        let config = try Configuration.parse(
            "version: 1\nvocabulary:\n  - id: team-active\n    event: did-become-active\n    message: Became active\n",
            file: "c.yml")
        let entry = try #require(config.vocabulary.first)
        #expect(entry.keywords == ["Became"])
        #expect(entry.userDefined)
        let recognizer = try EventRecognizer(vocabulary: config.allVocabulary)
        #expect(recognizer.recognize("[Lifecycle] Became active")?.entryID == "team-active")
        #expect(recognizer.recognize("Became actively involved") == nil)
    }

    @Test func jsonIsReadToo() throws {
        let json = #"""
            {"version": 1, "formats": [{"id": "mine", "pattern": "^MINE (?<message>.*)$",
              "samples": [{"line": "MINE applicationDidBecomeActive", "message": "applicationDidBecomeActive"}]}]}
            """#
        let config = try Configuration.parse(json, file: "c.json")
        #expect(config.formats.first?.samples.first?.message == "applicationDidBecomeActive")
    }

    /// Each broken file and the start of the message it must give (file:line: field: problem).
    @Test(arguments: [
        ("formats: []\n", "c.yml:1: version: missing"),
        ("version: 2\n", "c.yml:1: version: \"2\" is not a version this build reads"),
        ("version: 1\nformat: []\n", "c.yml:2: format: unknown key"),
        ("version: 1\nformats: [\n", "c.yml:3: is not valid YAML or JSON"),
        (
            "version: 1\nformats:\n  - id: bad\n    pattern: \"^(?<message>.*\"\n    samples: [x]\n",
            "c.yml:4: formats[0].pattern: pattern does not compile at byte 14"
        ),
        (
            "version: 1\nformats:\n  - id: greedy\n    pattern: \"^(?<message>.*)$\"\n    samples: [x]\n",
            "c.yml:4: formats[0].pattern: also matches the built-in format"
        ),
        (
            "version: 1\nformats:\n  - id: mine\n    pattern: \"^MINE (?<message>.*)$\"\n    samples:\n"
                + "      - line: MINE hello\n        message: hullo\n",
            "c.yml:6: formats[0].samples: the sample \"MINE hello\" message is \"hello\", expected \"hullo\""
        ),
        (
            "version: 1\nformats:\n  - id: mine\n    pattern: \"^MINE (?<text>.*)$\"\n    samples: [MINE x]\n",
            "c.yml:4: formats[0].pattern: the pattern has no (?<message>…) capture"
        ),
        (
            "version: 1\nformats:\n  - id: mine\n    pattern: \"^MINE (?<message>.*)$\"\n    timestamp: epoch\n"
                + "    samples: [MINE x]\n",
            "c.yml:5: formats[0].timestamp: unknown layout \"epoch\"; use iso-like"
        ),
        ("version: 1\nformats:\n  - id: My_Format\n", "c.yml:3: formats[0].id: must be kebab-case"),
        (
            "version: 1\nformats:\n  - id: mine\n    pattern: \"^MINE (?<message>.*)$\"\n",
            "c.yml:3: formats[0].samples: missing"
        ),
        (
            "version: 1\nvocabulary:\n  - id: x\n    event: did-wake-up\n    message: Woke\n",
            "c.yml:4: vocabulary[0].event: unknown event; use one of will-finish-launching"
        ),
        (
            "version: 1\nvocabulary:\n  - id: x\n    event: did-become-active\n    pattern: 'Woke'\n"
                + "    examples: [Woke]\n",
            "c.yml:5: vocabulary[0].keywords: missing"
        ),
        (
            "version: 1\nvocabulary:\n  - id: x\n    event: did-become-active\n    message: Woke up\n"
                + "    examples: [Slept]\n",
            "c.yml:6: vocabulary[0].examples: the message \"Slept\" contains none of the keywords Woke"
        ),
        (
            "version: 1\nvocabulary:\n  - id: x\n    event: did-become-active\n    pattern: '(active'\n"
                + "    keywords: [active]\n    examples: [active]\n",
            "c.yml:5: vocabulary[0].pattern: pattern does not compile"
        ),
        (
            "version: 1\nprefixes:\n  - id: tag\n    pattern: \"TAG \"\n    samples:\n"
                + "      - {line: \"TAG nothing known\", format: nslog-modern}\n",
            "c.yml:6: prefixes[0].samples: the sample \"TAG nothing known\" does not parse once stripped"
        ),
    ])
    func brokenFilesSayWhereAndWhat(_ text: String, _ message: String) {
        do {
            _ = try Configuration.parse(text, file: "c.yml")
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(String(describing: error).hasPrefix(message), "\(error)")
        }
    }
}
