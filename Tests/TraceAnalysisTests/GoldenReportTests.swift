import Foundation
import Testing

@testable import TraceAnalysis

/// Reports of the samples against checked-in golden files. Re-record with `RECORD_GOLDEN=1 swift test`.
@Suite("Golden reports")
struct GoldenReportTests {
    @Test(arguments: TestSupport.sampleNames)
    func textReport(_ name: String) throws {
        let report = try TestSupport.analyzeSample(name)
        try TestSupport.compareGolden(TextReporter().render(report), golden: name + ".txt") { actual, expected in
            #expect(actual == expected, "text report of \(name) differs from its golden file")
        }
    }

    /// The text report in colour, every event listed, of every sample as one batch: the styled parts (bold names,
    /// dim spans and evidence, painted scenarios and verdicts) and the columns the scenarios are padded to inside
    /// their colour.
    @Test func colouredTextReportWithEvents() throws {
        let report = try TestSupport.analyzeAllSamples()
        try TestSupport.compareGolden(
            TextReporter(color: true, showEvents: true).render(report), golden: "samples.color-events.txt")
    }

    @Test(arguments: TestSupport.sampleNames)
    func jsonReport(_ name: String) throws {
        let report = try TestSupport.analyzeSample(name)
        try TestSupport.compareGolden(JSONReporter.render(report), golden: name + ".json") { actual, expected in
            // Structural comparison: key order and whitespace do not matter, values do.
            let a = try JSONSerialization.jsonObject(with: Data(actual.utf8)) as? NSDictionary
            let b = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
            #expect(a != nil)
            #expect(a == b, "JSON report of \(name) differs from its golden file")
        }
    }

    /// Live mode's output for two samples fed a line at a time (a launch told over budget before it is active, then
    /// corrected; findings decided at the end of input), and the batch's JSON Lines of every sample.
    /// `Scripts/validate-json-schema.py` checks the jsonl files against `$defs/liveLine`.
    @Test func liveOutput() throws {
        let analyzer = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }
        for (name, jsonl) in [("slow-launch.log", true), ("background-and-exits.log", false)] {
            let text = try String(contentsOf: TestSupport.samples.appendingPathComponent(name), encoding: .utf8)
            var out: [UInt8] = []
            let live = LiveAnalysis(analyzer: analyzer, name: "samples/" + name) { finding in
                out += jsonl ? LiveJSONReporter.line(finding) : Array(LiveTextReporter().line(finding).utf8)
            }
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                live.feed(line: String(line))
            }
            let report = live.finish()
            out += jsonl ? LiveJSONReporter.summaryLine(report) : Array(LiveTextReporter().closing(report).utf8)
            try TestSupport.compareGolden(
                String(decoding: out, as: UTF8.self), golden: "live-" + name + (jsonl ? ".jsonl" : ".txt"))
        }
        var batch: [UInt8] = []
        ReportFormat.jsonl.write(try TestSupport.analyzeAllSamples()) { batch += $0 }
        try TestSupport.compareGolden(String(decoding: batch, as: UTF8.self), golden: "samples.jsonl")
    }

    @Test func jsonHasTheDocumentedContract() throws {
        let report = try TestSupport.analyzeSample("app-delegate-scenarios.log")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReporter.render(report).utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        let input = try #require((object["inputs"] as? [[String: Any]])?.first)
        for key in ["name", "lines", "records", "continuationLines", "unparsedLines", "lifecycleEvents", "format"] {
            #expect(input[key] != nil, "inputs[].\(key)")
        }
        let process = try #require((object["processes"] as? [[String: Any]])?.first)
        for key in ["name", "pid", "input", "launch", "episodes", "violations"] {
            #expect(process[key] != nil, "processes[].\(key)")
        }
        let launch = try #require(process["launch"] as? [String: Any])
        for key in ["durationMs", "budgetMs", "overBudget", "excluded", "milestones"] {
            #expect(launch[key] != nil, "launch.\(key)")
        }
        let episode = try #require((process["episodes"] as? [[String: Any]])?.first)
        for key in ["scenario", "startLine", "endLine", "start", "end", "confidence", "causes"] {
            #expect(episode[key] != nil, "episodes[].\(key)")
        }
        #expect(object["summary"] is [String: Any])
    }

    @Test func jsonEscapesEverythingItMust() {
        let value = JSONValue.string("quote \" backslash \\ newline \n bell \u{7} esc \u{1B}[31m")
        #expect(value.serialized() == #""quote \" backslash \\ newline \n bell \u0007 esc \u001b[31m""#)
    }

    @Test func terminalTextShowsControlCharactersVisibly() {
        #expect(Sanitizer.terminal("App\u{1B}[31m") == "App\\u{1b}[31m")
    }
}
