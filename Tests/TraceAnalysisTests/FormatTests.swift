import Testing

@testable import TraceAnalysis

@Suite("Log formats")
struct FormatTests {
    @Test func builtinCatalogueValidates() throws {
        try FormatCatalog().validate()
    }

    @Test(arguments: LogFormat.builtin)
    func everySampleParsesWithItsOwnFormatOnly(_ format: LogFormat) throws {
        let parser = RecordParser(catalog: try FormatCatalog())
        #expect(!format.samples.isEmpty)
        for sample in format.samples {
            #expect(parser.formatsMatching(sample.line) == [format.id], "\(sample.line)")
            let fields = try #require(parser.fields(of: sample.line))
            #expect(fields.format == format.id)
            if let pid = sample.pid { #expect(fields.pid == pid) }
            if let process = sample.process { #expect(fields.process == process) }
            if let message = sample.message { #expect(fields.message == message) }
            if let timestamp = sample.timestamp { #expect(fields.timestamp?.iso8601 == timestamp) }
        }
    }

    @Test func aSampleMatchingTwoFormatsIsRejected() throws {
        var greedy = LogFormat.nslogUntimed
        greedy.id = "greedy"
        greedy.pattern = #"^(?<message>.*)$"#
        greedy.samples = [.init(line: "anything")]
        let catalog = try FormatCatalog(LogFormat.builtin + [greedy])
        #expect(throws: TraceAnalyzeError.self) { try catalog.validate() }
    }

    @Test func aFormatWithoutMessageCaptureIsRejected() {
        var broken = LogFormat.nslogClassic
        broken.pattern = #"^(?<timestamp>\S+) (?<text>.*)$"#
        #expect(
            throws: TraceAnalyzeError.invalidFormat(
                id: "nslog-classic", problem: "the pattern has no (?<message>…) capture")
        ) {
            try FormatCatalog([broken])
        }
    }

    @Test func aPatternThatDoesNotCompileNamesTheFormatAndOffset() {
        var broken = LogFormat.nslogClassic
        broken.pattern = "^(?<message>.*"
        do {
            _ = try FormatCatalog([broken])
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains("format nslog-classic"))
            #expect(String(describing: error).contains("byte"))
        }
    }

    @Test func inputFormatOverrideRestrictsTheCatalogue() throws {
        let only = try FormatCatalog().only("nslog-modern")
        #expect(only.formats.map(\.format.id) == ["nslog-modern"])
        #expect(throws: TraceAnalyzeError.self) { try FormatCatalog().only("nope") }
    }

    @Test(arguments: [
        ("2013-10-13 12:24:09.948", "2013-10-13T12:24:09.948", 1_381_667_049_948_000 as Int64),
        ("2019-05-04 10:46:18.564743-0500", "2019-05-04T10:46:18.564743-05:00", 1_556_984_778_564_743),
        ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z", 1_709_251_199_000_000),
        ("1969-12-31 23:59:59.5+01:00", "1969-12-31T23:59:59.5+01:00", -3_600_500_000),
    ])
    func timestampsParseWithoutDateFormatter(_ text: String, _ iso: String, _ instant: Int64) throws {
        let timestamp = try #require(TimestampLayout.isoLike.parse(text))
        #expect(timestamp.iso8601 == iso)
        #expect(timestamp.instantMicros == instant)
    }

    @Test(arguments: ["2013-13-01 00:00:00", "2013-10-13 25:00:00", "2013-10-13 12:24", "2013-10-13 12:24:09.", "x"])
    func malformedTimestampsAreRejected(_ text: String) {
        #expect(TimestampLayout.isoLike.parse(text) == nil)
    }

    @Test func differencesUseTheOffset() throws {
        let a = try #require(TimestampLayout.isoLike.parse("2019-05-04 10:00:00.000000-0500"))
        let b = try #require(TimestampLayout.isoLike.parse("2019-05-04 16:00:00.250000+0100"))
        #expect(a.milliseconds(to: b) == 250)
    }
}
