import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

/// A matcher refuses a line without calling PCRE2 when its pattern's ``Regex/Prefilter`` says no match can begin
/// there (`RecordParser` asks the prefilters of the formats and prefixes before reaching their matchers). These tests
/// hold every pattern a run matches lines with to that: on real, made and mutated lines, what the prefilter refuses,
/// PCRE2 run without its start-of-match optimisations (`(*NO_START_OPT)`) does not match either.
@Suite("Prefilters")
struct PrefilterTests {
    /// Every pattern the built-in catalogue and vocabulary match lines with, as they compile them.
    static func patterns() throws -> [(owner: String, regex: Regex)] {
        let catalog = try FormatCatalog()
        let uncut = try FormatCatalog(messageTail: false)
        var all = catalog.formats.map { ("format \($0.format.id)", $0.regex) }
        all += uncut.formats.map { ("format \($0.format.id), uncut", $0.regex) }
        all += catalog.prefixes.map { ("prefix \($0.prefix.id)", $0.regex) }
        if let furniture = catalog.furniture { all.append(("furniture", furniture)) }
        all += catalog.repeats.map { ("repeat", $0.regex) }
        let vocabulary = try EventRecognizer.Compiled(Vocabulary.builtin)
        all += vocabulary.groups.map { ("keyword group", $0.regex) }
        all += vocabulary.detailRegexes.map { ("vocabulary detail", $0.regex) }
        if let unfiltered = vocabulary.unfiltered { all.append(("unfiltered vocabulary", unfiltered)) }
        return all
    }

    /// The lines of every sample, real capture and style fixture, the formats' and prefixes' samples, and each of
    /// them behind the built-in prefixes, cut short, and mutated near its start.
    static func lines() throws -> [[UInt8]] {
        var lines = try TestSupport.realLines()
        let styles = TestSupport.packageRoot.appendingPathComponent("Tests/TraceAnalysisTests/Fixtures/styles")
        for name in try FileManager.default.contentsOfDirectory(atPath: styles.path).sorted() {
            let data = try Data(contentsOf: styles.appendingPathComponent(name))
            lines += data.split(separator: 0x0A).map { Array($0) }
        }
        lines += LogFormat.builtin.flatMap { $0.samples.map { Array($0.line.utf8) } }
        lines += LinePrefix.builtin.flatMap { $0.samples.map { Array($0.line.utf8) } }
        var random = SplitMix64(seed: 0x9E37_79B9)
        let alphabet = Array(" \t:[]()<>{}\"-.0123456789aAzZ\u{7F}".utf8) + [0x80, 0xC3, 0xFF]
        var made: [[UInt8]] = []
        for line in lines {
            for prefix in ["\t", "log.txt:7-", "> ", "2024-05-01T10:00:00.1234567Z ", "info: [IOS_SYSLOG_ROW] "] {
                made.append(Array(prefix.utf8) + line)
            }
            for length in [0, 1, 5, 19, 31] where length < line.count {
                made.append(Array(line[..<length]))
            }
            made.append(TestSupport.mutate(line, alphabet: alphabet, within: 48, &random))
        }
        return lines + made
    }

    @Test func whatAPrefilterRefusesPCRE2DoesNotMatch() throws {
        let lines = try Self.lines()
        var refusedInAll = 0
        for (owner, regex) in try Self.patterns() {
            let raw = try Regex("(*NO_START_OPT)" + regex.pattern, options: regex.options)
            #expect(raw.prefilter.minimumLength == 0, "\(owner): the reference must run PCRE2 on every line")
            let filtered = Matcher(regex)
            let reference = Matcher(raw)
            var refused = 0
            for line in lines {
                try line.withUnsafeBytes { bytes in
                    let starts = regex.options.contains(.anchored) ? [0, min(2, bytes.count)] : [0]
                    for start in starts {
                        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                        let admitted = base.map { regex.prefilter.admits($0, count: bytes.count, from: start) } ?? true
                        let expected = try reference.matches(bytes, from: start)
                        if !admitted {
                            refused += 1
                            #expect(
                                !expected,
                                "\(owner) refuses a line PCRE2 matches: \(String(decoding: line, as: UTF8.self))")
                        }
                        #expect(try filtered.matches(bytes, from: start) == expected, "\(owner)")
                    }
                }
            }
            refusedInAll += refused
        }
        // The prefilters refuse lines at all: most lines are no record of most formats.
        #expect(refusedInAll > lines.count)
    }

    /// The built-in patterns whose lines a capture of another format holds most: their prefilters refuse most of a
    /// capture of another format's lines without calling PCRE2.
    @Test func theBuiltInPatternsRefuseOtherFormatsLines() throws {
        let catalog = try FormatCatalog()
        func filter(_ id: String) throws -> Regex.Prefilter {
            if let format = catalog.formats.first(where: { $0.format.id == id }) { return format.regex.prefilter }
            return try #require(catalog.prefixes.first { $0.prefix.id == id }).regex.prefilter
        }
        // A Console.app copy's columns need a tab; a line of no format (`print` output) has none.
        #expect(try filter("console-app").requiredBytes?.0 == UInt8(ascii: "\t"))
        #expect(try filter("nslog-untimed").requiredBytes?.0 == UInt8(ascii: "]"))
        #expect(try !filter("indentation").mayBegin(with: UInt8(ascii: "S")))
        #expect(try !filter("quote").mayBegin(with: UInt8(ascii: "S")))
        #expect(try !filter("ci-timestamp").mayBegin(with: UInt8(ascii: "S")))
        #expect(try !filter("appium").mayBegin(with: UInt8(ascii: "S")))
        #expect(try !filter("log-compact").mayBegin(with: UInt8(ascii: "S")))
        #expect(try filter("syslog").mayBegin(with: UInt8(ascii: "S")))  // `Sep 12 …`
    }

    /// The record parser keeps formats out by a few of a line's bytes after the first before it asks their
    /// prefilters one by one (`RecordParser.Tables.formats(_:at:)`): it keeps every format whose prefilter admits the
    /// line there, on the lines above at their start and further in; and a CI runner's timestamp keeps out every
    /// format that may begin with its `2`, behind `grep -n`'s reading of its date too.
    @Test func thePositionTablesKeepOutOnlyWhatThePrefiltersRefuse() throws {
        for catalog in [try FormatCatalog(), try FormatCatalog(messageTail: false)] {
            let tables = catalog.tables
            let most = PositionTables.kept
            #expect(!tables.formatPositions.positions.isEmpty && tables.formatPositions.positions.count <= most)
            #expect(tables.formatPositions.checkedFrom.count == tables.formatPositions.positions.count)
            #expect(tables.formatPositions.allowing.count == tables.formatPositions.positions.count * 256)
            var kept = 0
            for line in try Self.lines() {
                line.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                    for offset in [0, 1, 5, 8] where offset < bytes.count {
                        let beginning = tables.formatsBeginning[Int(bytes[offset])]
                        let allowed = tables.formats(bytes, at: offset)
                        #expect(allowed & ~beginning == 0)
                        for index in 0..<64 where beginning & (1 << UInt64(index)) != 0 {
                            if tables.formatFilters[index].admits(base, count: bytes.count, from: offset) {
                                #expect(
                                    allowed & (1 << UInt64(index)) != 0,
                                    "\(catalog.formats[index].format.id) at \(offset): \(String(decoding: line, as: UTF8.self))"
                                )
                            } else if allowed & (1 << UInt64(index)) == 0 {
                                kept += 1
                            }
                        }
                    }
                }
            }
            #expect(kept > 1000, "the tables keep formats out at all")
            // The prefixes' tables the same way (`prefixes(_:at:knowing:)`), and the prefixes said known are kept as
            // they are.
            var keptPrefixes = 0
            for line in try Self.lines() {
                line.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                    for offset in [0, 1, 5, 8, 17] where offset < bytes.count {
                        let beginning = tables.prefixesBeginning[Int(bytes[offset])]
                        let allowed = tables.prefixes(bytes, at: offset)
                        #expect(allowed & ~beginning == 0)
                        #expect(tables.prefixes(bytes, at: offset, knowing: ~0) == beginning)
                        for index in catalog.prefixes.indices where beginning & (1 << UInt64(index)) != 0 {
                            if tables.prefixFilters.prefilters[index].admits(base, count: bytes.count, from: offset) {
                                #expect(allowed & (1 << UInt64(index)) != 0, "\(catalog.prefixes[index].prefix.id)")
                            } else if allowed & (1 << UInt64(index)) == 0 {
                                keptPrefixes += 1
                            }
                        }
                    }
                }
            }
            #expect(keptPrefixes > 100, "the tables keep prefixes out at all")
            // Left: the formats whose lines need not begin with a date (their prefilters look for a tab and a `[`).
            let ci = Array("2024-05-01T10:00:00.1234567Z Sync: user download layout map tile".utf8)
            ci.withUnsafeBytes { bytes in
                #expect(tables.formatsBeginning[Int(bytes[0])].nonzeroBitCount >= 7)
                for offset in [0, 5, 8] {
                    let left = (0..<64).filter { tables.formats(bytes, at: offset) & (1 << UInt64($0)) != 0 }
                    #expect(left.map { catalog.formats[$0].format.id } == ["console-app", "nslog-untimed"])
                }
                // Behind `grep -n`'s reading of its date and hour (`2024-05-01T10:00:`), `00.1234567Z …` cannot
                // begin another CI timestamp: only `grep -n`'s prefix is left to measure there.
                let left = (0..<64).filter { tables.prefixes(bytes, at: 17) & (1 << UInt64($0)) != 0 }
                #expect(left.map { catalog.prefixes[$0].prefix.id } == ["grep-line-number"])
            }
        }
    }

    /// The `grep -n` prefix measured without PCRE2 (`GrepLineNumber`, which the record parser asks instead, as PCRE2
    /// names no byte every match of that pattern holds): the length of PCRE2's match, or none where it finds none, at
    /// the line's start and further in (behind another prefix), on the lines above, on made ones around its colon,
    /// spaces and control bytes, and on those with bytes replaced, inserted or removed.
    @Test func theGrepPrefixIsMeasuredAsPCRE2MatchesIt() throws {
        let catalog = try FormatCatalog()
        let prefix = try #require(catalog.prefixes.first { $0.prefix.id == LinePrefix.grepLineNumber.id })
        let reference = Matcher(try Regex("(*NO_START_OPT)" + prefix.regex.pattern, options: prefix.regex.options))
        var lines = try Self.lines()
        let heads = ["a:1:", "a:1-", "a:", ":1:", "a :1:", "a\t1:", "a\u{0B}:1:", "é:3-", "x:y:1:", "12:", "1a:2:"]
        lines += heads.flatMap { head in ["", " x", "Sync", "9", ":4:", "-"].map { Array((head + $0).utf8) } }
        lines += [[0x85, 0x3A, 0x31, 0x3A], [0xA0, 0x3A, 0x31, 0x2D], [0x41, 0x0C, 0x3A, 0x31, 0x3A]]
        var random = SplitMix64(seed: 0x6E)
        let alphabet = Array("0123456789:- \t\u{0B}a.Z".utf8) + [0x80, 0xFF]
        // Runs before the colon or blank shorter and longer than the eight bytes measured at a time.
        let mutated = [
            "main.swift:12:", "12-", "log.txt:7-x", "2024-05-01T10:00:00Z ", "12345678:9:", "1234567890123456a:5:",
            "Sources/TraceAnalysis/RecordParser.swift:1096:",
        ]
        for head in mutated.map({ Array($0.utf8) }) {
            lines += (0..<3_000).map { _ in TestSupport.mutate(head, alphabet: alphabet, within: 16, &random) }
        }
        var matched = 0
        for line in lines {
            try line.withUnsafeBytes { bytes in
                for start in [0, 1, 3] where start <= bytes.count {
                    let expected = try reference.matches(bytes, from: start) ? reference.range(0)?.upperBound : nil
                    let measured = GrepLineNumber.length(bytes, from: start).map { $0 + start }
                    let text = String(decoding: line, as: UTF8.self).debugDescription
                    #expect(measured == expected, "\(text) at \(start)")
                    if expected != nil { matched += 1 }
                }
            }
        }
        #expect(matched > 1_000)
    }

    /// Indentation measured without PCRE2 (``MeasuredPrefix/indentation``): the length of PCRE2's match of `[ \t]+`,
    /// or none, from three offsets of the lines above and of runs of blanks and other bytes.
    @Test func theIndentationIsMeasuredAsPCRE2MatchesIt() throws {
        let catalog = try FormatCatalog()
        let prefix = try #require(catalog.prefixes.first { $0.prefix.id == LinePrefix.indentation.id })
        let measuring = try #require(MeasuredPrefix(pattern: prefix.prefix.pattern))
        let reference = Matcher(try Regex("(*NO_START_OPT)" + prefix.regex.pattern, options: prefix.regex.options))
        var lines = try Self.lines()
        var random = SplitMix64(seed: 0x1D)
        let alphabet = Array(" \t\u{0B}\u{0C}\r\na".utf8) + [0xA0, 0x85]
        lines += (0..<5_000).map { _ in TestSupport.mutate(Array("  \t x".utf8), alphabet: alphabet, within: 8, &random)
        }
        var matched = 0
        for line in lines {
            try line.withUnsafeBytes { bytes in
                for start in [0, 1, 3] where start < bytes.count {
                    let expected = try reference.matches(bytes, from: start) ? reference.range(0)?.upperBound : nil
                    let measured = measuring.length(bytes, from: start).map { $0 + start }
                    #expect(
                        measured == expected, "\(String(decoding: line, as: UTF8.self).debugDescription) at \(start)")
                    if expected != nil { matched += 1 }
                }
            }
        }
        #expect(matched > 1_000)
    }

    /// The CI runner's timestamp measured in C (``HeaderRun/ciTimestampLength(_:)``, which the record parser and the
    /// runs use instead of PCRE2): the length of PCRE2's match of the prefix's pattern, or 0 where it does not match,
    /// on the lines above and on timestamps with bytes replaced, inserted or removed, and cut at every length.
    @Test func theCITimestampIsMeasuredAsPCRE2MatchesIt() throws {
        let catalog = try FormatCatalog()
        let prefix = try #require(catalog.prefixes.first { $0.prefix.id == LinePrefix.ciTimestamp.id })
        let reference = Matcher(try Regex("(*NO_START_OPT)" + prefix.regex.pattern, options: prefix.regex.options))
        var lines = try Self.lines()
        var random = SplitMix64(seed: 0xC1)
        // Fractions of every length the measure reads eight digits at a time or byte by byte.
        let stamps = [
            "2024-05-01T10:00:00.1234567Z x", "2024-05-01T10:00:00Z ", "1999-12-31T23:59:59.9Z 2019",
            "2024-05-01T10:00:00.12345678Z ", "2024-05-01T10:00:00.1234567890123456789Z hello",
        ]
        let alphabet = Array("0123456789-T:.Z \t\u{0}\u{7F}z/".utf8) + [0x80, 0xC3, 0xFF]
        for stamp in stamps.map({ Array($0.utf8) }) {
            lines += (0...stamp.count).map { Array(stamp[..<$0]) }
            lines += (0..<5_000).map { _ in TestSupport.mutate(stamp, alphabet: alphabet, within: 32, &random) }
        }
        var matched = 0
        for line in lines {
            try line.withUnsafeBytes { bytes in
                let expected = try reference.matches(bytes, from: 0) ? reference.range(0)?.upperBound ?? 0 : 0
                let measured = HeaderRun.ciTimestampLength(bytes)
                #expect(measured == expected, "\(String(decoding: line, as: UTF8.self))")
                if expected > 0 { matched += 1 }
            }
        }
        #expect(matched > 1_000)
    }
}
