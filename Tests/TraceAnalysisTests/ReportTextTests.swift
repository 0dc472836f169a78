import Testing

@testable import TraceAnalysis

/// The text and JUnit reports are written as bytes (``ReportText``): each of its writers gives the bytes the
/// String way gave.
@Suite("Report text")
struct ReportTextTests {
    /// ``DurationFormat`` as it was written over Strings: the reference the byte writer is checked against.
    static func durationTheStringWay(_ ms: Double) -> String {
        let magnitude = abs(ms)
        if magnitude < 1 { return "\(DurationFormat.trim(DurationFormat.round(ms, 2))) ms" }
        if magnitude < 1000 {
            return "\(DurationFormat.trim(DurationFormat.round(ms, magnitude < 10 ? 1 : 0))) ms"
        }
        if magnitude < 60_000 { return "\(DurationFormat.trim(DurationFormat.round(ms / 1000, 2))) s" }
        let totalSeconds = Int((ms / 1000).rounded())
        return "\(totalSeconds / 60) min \(totalSeconds % 60) s"
    }

    @Test func durationsAreWrittenAsTheStringWayWroteThem() {
        var values: [Double] = [
            0, -0.0, 0.004, 0.005, 0.0049999, 0.01, 0.05, 0.1, 0.25, 0.995, 0.999, 1, 1.04, 1.05, 1.25, 9.94, 9.95,
            9.96, 10, 10.5, 99.5, 480, 999.4, 999.5, 1000, 1004.9, 1005, 1234.5, 59_994, 59_995, 59_999.9, 60_000,
            61_000, 119_500, 3_600_000, 86_400_000 * 400.0, 0.1 + 0.2, 1.005, 2.675, 1.115,
        ]
        values += values.map { -$0 }
        var generator = SplitMix64(seed: 36)
        for _ in 0..<200_000 {
            // Every branch's magnitudes (up to 10 ms, 100 ms, … 100 s), and halves of hundredths on rounding edges.
            let scale = [1e6, 1e5, 1e4, 1e3, 1e2][Int(generator.next() % 5)]
            let sign: Double = generator.next() % 5 == 0 ? -1 : 1
            values.append(sign * Double(generator.next() % 10_000_000) / scale)
            values.append(sign * (Double(generator.next() % 6_000_000) + 0.5) / 100)
        }
        var mismatches: [String] = []
        for value in values where DurationFormat.text(value) != Self.durationTheStringWay(value) {
            mismatches.append("\(value): \(DurationFormat.text(value)) ≠ \(Self.durationTheStringWay(value))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(DurationFormat.text(1234.5) == "1.23 s")
        #expect(DurationFormat.text(0.05) == "0.05 ms")
        #expect(DurationFormat.text(-1.25) == "-1.3 ms")
        #expect(DurationFormat.text(125_000) == "2 min 5 s")
    }

    @Test func columnsAreCharacters() {
        let texts = [
            "", "L12", "L12–14", "résumé", "e\u{301}", "\r\n", "a\r\nb", "👩‍👩‍👧", "🇫🇷🇩🇪", "tab\there", "\u{1B}[31m",
            "× 3", "→", "L1–2–3", "–\u{301}", "x\u{200D}y", "Big&<App> [777]",
        ]
        for text in texts {
            var out = ReportText()
            out.append("prefix ")
            let start = out.count
            out.append(text)
            #expect(out.columns(from: start) == text.count, "\(text.debugDescription)")
            out.pad(from: start, to: 12)
            let written = String(decoding: out.take(), as: UTF8.self)
            #expect(written == "prefix " + text.padding(12), "\(text.debugDescription)")
        }
    }

    @Test func escapedTextIsTheStringEscape() {
        let escapers: [(String, ScalarEscaper)] = [
            ("terminal", Sanitizer.escaper), ("XML text", String.xmlText), ("XML attribute", String.xmlAttribute),
        ]
        let pieces = [
            "plain", "a & b", "<tag>", "\"quoted\"", "\r\n", "\t", "\u{1B}[31m", "\u{202E}", "\u{85}", "\u{FFFE}",
            "é", "🇫🇷", "\u{7F}", "",
        ]
        var generator = SplitMix64(seed: 7)
        var texts = pieces
        for _ in 0..<2_000 {
            texts.append((0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % 14)] }.joined())
        }
        for (name, escaper) in escapers {
            for text in texts {
                var out = ReportText()
                out.append(text, escaping: escaper)
                let written = String(decoding: out.take(), as: UTF8.self)
                #expect(written == escaper(text), "\(name): \(text.debugDescription)")
            }
        }
    }

    @Test func numbersTimesAndTrimming() {
        var out = ReportText()
        out.append(Int.min)
        out.append(" ")
        out.append(0)
        out.append(" ")
        out.appendTimeOfDay(Timestamp(wallMicros: 45_849_948_000, utcOffsetSeconds: nil, fractionDigits: 3))
        out.append(" ")
        out.appendDuration(1234.5)
        out.appendSpaces(3)
        out.trimTrailingSpaces()
        #expect(String(decoding: out.take(), as: UTF8.self) == "\(Int.min) 0 12:44:09.948 1.23 s")
        #expect(out.count == 0)
        out.appendSpaces(2)
        out.trimTrailingSpaces()
        #expect(out.take().isEmpty)
        #expect(JUnitReporter.seconds(5) == "0.005")
        #expect(JUnitReporter.seconds(70) == "0.070")
    }

    /// The per-app figures keep a space after a count of three digits or more (`resume ×150 min …`).
    @Test func aLongCountIsFollowedByASpace() throws {
        var lines = [
            "2024-03-05 09:00:00.100 Shop[7:11] application(_:didFinishLaunchingWithOptions:)",
            "2024-03-05 09:00:00.200 Shop[7:11] applicationDidBecomeActive(_:)",
        ]
        for cycle in 0..<150 {
            let second = String(format2: cycle % 60)
            let minute = String(format2: 1 + cycle / 60)
            for (fraction, callback) in [
                ("100", "applicationWillResignActive(_:)"), ("200", "applicationDidEnterBackground(_:)"),
                ("300", "applicationWillEnterForeground(_:)"), ("400", "applicationDidBecomeActive(_:)"),
            ] {
                lines.append("2024-03-05 09:\(minute):\(second).\(fraction) Shop[7:11] \(callback)")
            }
        }
        let report = try TestSupport.analyzer().analyze(text: lines.joined(separator: "\n") + "\n")
        let text = TextReporter().render(report)
        #expect(text.contains("resume ×150 min 100 ms · p50 100 ms"), "\(text)")
        // The short label keeps its column as before.
        #expect(text.contains("launch ×1  min 100 ms"))
    }
}

extension String {
    /// Two digits: `07`.
    fileprivate init(format2 value: Int) { self = (value < 10 ? "0" : "") + String(value) }
}
