import Foundation
import Testing
import TraceAnalysis

/// `generate-capture --style` writes the same records as the `log` tool's styles, or a device's syslog, print them:
/// each capture is read whole as that style's format, with the same lifecycle as the NSLog capture of the same seed,
/// so the benchmark of a style measures the same work through another format.
@Suite("Capture generator styles")
struct GeneratorStyleTests {
    static func generate(style: String) throws -> String {
        let result = try TestSupport.run(
            ["--size", "1MB", "--seed", "3", "--style", style], executable: TestSupport.generator)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test(arguments: ["log-compact", "log-default", "log-syslog", "device-syslog", "syslog"])
    func aStyledCaptureIsReadAsItsFormatWithTheNSLogCapturesLifecycle(style: String) throws {
        // The same records line for line; a longer prefix fits fewer in the size, so both are cut to the shorter.
        let nslogLines = try Self.generate(style: "nslog").split(separator: "\n", omittingEmptySubsequences: false)
        let styledLines = try Self.generate(style: style).split(separator: "\n", omittingEmptySubsequences: false)
        let count = min(nslogLines.count, styledLines.count) - 1
        let analyzer = try TestSupport.analyzer()
        let nslog = analyzer.analyze(text: nslogLines[..<count].joined(separator: "\n"), name: "nslog")
        let styled = analyzer.analyze(text: styledLines[..<count].joined(separator: "\n"), name: style)
        let (reference, input) = (nslog.inputs[0], styled.inputs[0])
        #expect(reference.lines > 5_000)
        TestSupport.expectAccounted(input)
        #expect(input.format == style)
        #expect(input.formatCounts == [style: input.records])
        #expect(input.lines == reference.lines)
        #expect(input.records == reference.records)
        if style.hasPrefix("log-") {
            // The NSLog capture's unparsed lines are its garbage: lines the `log` styles' raw continuations take.
            #expect(input.unparsedLines == 0)
            #expect(input.continuationLines == reference.continuationLines + reference.unparsedLines)
        } else {
            #expect(input.unparsedLines == reference.unparsedLines)
            #expect(input.continuationLines == reference.continuationLines)
        }
        #expect(input.lifecycleEvents == reference.lifecycleEvents)
        #expect(styled.processes.map(\.name) == nslog.processes.map(\.name))
        #expect(styled.processes.map(\.pid) == nslog.processes.map(\.pid))
        #expect(styled.violations.map(\.rule) == nslog.violations.map(\.rule))
    }

    /// `--style xcode` drops the NSLog prefix from about half of the noise records, as Xcode's console shows what an app
    /// prints with `print`: those lines are of no format (counted, not read as records), and the lifecycle, which the
    /// delegates log with NSLog, is the NSLog capture's.
    @Test func anXcodeCaptureHasTheNSLogCapturesLifecycleAndPrintedLinesOfNoFormat() throws {
        let nslogLines = try Self.generate(style: "nslog").split(separator: "\n", omittingEmptySubsequences: false)
        let xcodeLines = try Self.generate(style: "xcode").split(separator: "\n", omittingEmptySubsequences: false)
        let count = min(nslogLines.count, xcodeLines.count) - 1
        let analyzer = try TestSupport.analyzer()
        let nslog = analyzer.analyze(text: nslogLines[..<count].joined(separator: "\n"), name: "nslog")
        let xcode = analyzer.analyze(text: xcodeLines[..<count].joined(separator: "\n"), name: "xcode")
        let (reference, input) = (nslog.inputs[0], xcode.inputs[0])
        TestSupport.expectAccounted(input)
        #expect(input.lines == reference.lines)
        #expect(input.format?.hasPrefix("nslog-") == true)
        // A printed line is a record no more, and a line of no format now; so are the lines of a printed dump.
        let printed = input.unparsedLines - reference.unparsedLines
        #expect(printed > count / 3 && printed < count * 2 / 3)
        #expect(input.records + input.continuationLines + printed == reference.records + reference.continuationLines)
        #expect(input.lifecycleEvents == reference.lifecycleEvents)
        #expect(xcode.processes.map(\.name) == nslog.processes.map(\.name))
        #expect(xcode.processes.map(\.pid) == nslog.processes.map(\.pid))
        #expect(xcode.violations.map(\.rule) == nslog.violations.map(\.rule))
    }

    /// `--style ci` is the `xcode` capture with the runner's timestamp before every line: the same lines behind the
    /// built-in `ci-timestamp` prefix, counted on each, read as the `xcode` capture reads them.
    @Test func aCICaptureIsTheXcodeCaptureBehindTheRunnersTimestamps() throws {
        let xcodeLines = try Self.generate(style: "xcode").split(separator: "\n", omittingEmptySubsequences: false)
        let ciLines = try Self.generate(style: "ci").split(separator: "\n", omittingEmptySubsequences: false)
        let stamp = try Regex(#"^2024-05-01T\d\d:\d\d:\d\d\.\d{7}Z "#)
        // A longer line fits fewer in the size: both are cut to the shorter.
        let count = min(xcodeLines.count, ciLines.count) - 1
        #expect(count > 5_000)
        for (ci, xcode) in zip(ciLines[..<count], xcodeLines[..<count]) {
            #expect(ci.replacing(stamp, with: "", maxReplacements: 1) == xcode)
        }
        let analyzer = try TestSupport.analyzer()
        let reference = analyzer.analyze(text: xcodeLines[..<count].joined(separator: "\n"), name: "xcode").inputs[0]
        let input = analyzer.analyze(text: ciLines[..<count].joined(separator: "\n"), name: "ci").inputs[0]
        TestSupport.expectAccounted(input)
        #expect(input.prefixes == ["ci-timestamp": input.records])
        #expect(input.records == reference.records)
        #expect(input.formatCounts == reference.formatCounts)
        #expect(input.lifecycleEvents == reference.lifecycleEvents)
    }

    /// `log --style ndjson` writes a record as one object, its dump's lines joined into its message: the capture holds
    /// the NSLog capture's first records, garbage and blank lines, with no continuation lines, and the same lifecycle.
    @Test func anNDJSONCaptureIsReadAsItsFormatWithTheNSLogCapturesLifecycle() throws {
        let analyzer = try TestSupport.analyzer()
        let ndjson = analyzer.analyze(text: try Self.generate(style: "log-ndjson"), name: "log-ndjson")
        let nslog = analyzer.analyze(text: try Self.generate(style: "nslog"), name: "nslog")
        let (reference, input) = (nslog.inputs[0], ndjson.inputs[0])
        TestSupport.expectAccounted(input)
        #expect(input.format == "log-ndjson")
        #expect(input.formatCounts == ["log-ndjson": input.records])
        #expect(input.records > 800)
        #expect(input.continuationLines == 0)
        #expect(input.lines == input.records + input.blankLines + input.unparsedLines)
        #expect(input.unparsedLines <= reference.unparsedLines)
        // An object is about six times an NSLog line: the same records, cut sooner.
        #expect(input.records * 4 < reference.records)
        #expect(input.lifecycleEvents > 10)
        #expect(input.lifecycleEvents < reference.lifecycleEvents)
        let names = ndjson.processes.map { "\($0.name)[\($0.pid)]" }
        #expect(names.count >= 3)
        #expect(Set(names).isSubset(of: nslog.processes.map { "\($0.name)[\($0.pid)]" }))
        #expect(ndjson.violations.isEmpty && nslog.violations.isEmpty)
        // A dump's lines are in its record's message, unescaped: `Response headers: {` and its keys on one record.
        let dump = try #require(Self.firstDumpMessage(try Self.generate(style: "log-ndjson")))
        #expect(dump.contains("\n    "))
    }

    /// The `eventMessage` of the first object whose message spans lines, decoded by Foundation.
    static func firstDumpMessage(_ capture: String) -> String? {
        for line in capture.split(separator: "\n") where line.contains(#"\n    "#) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let message = object["eventMessage"] as? String
            else { continue }
            return message
        }
        return nil
    }

    @Test func anUnknownStyleIsAUsageError() throws {
        let result = try TestSupport.run(["--size", "1MB", "--style", "oslog"], executable: TestSupport.generator)
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                "bad style 'oslog' (nslog, log-compact, log-default, log-syslog, device-syslog, log-ndjson, syslog, xcode, ci)"
            ))
        #expect(result.stdout.isEmpty)
    }
}
