import Testing

@testable import TraceAnalysis

/// The streaming `JSONWriter` against `JSONValue`'s serialisation, its reference: every byte must agree, in the
/// pretty and the compact form, for tricky strings, numbers, timestamps, nesting and whole reports.
@Suite("JSON writer")
struct JSONWriterTests {
    /// Replays `value` as emitter calls (what the report's field lists do).
    static func emit<E: JSONEmitter & ~Copyable>(_ value: JSONValue, into json: inout E) {
        switch value {
        case .null: json.null()
        case .bool(let flag): json.bool(flag)
        case .int(let number): json.int(number)
        case .double(let number): json.double(number)
        case .string(let text): json.string(text)
        case .array(let items):
            json.beginArray()
            for item in items { emit(item, into: &json) }
            json.endArray()
        case .object(let members):
            json.beginObject()
            for (key, member) in members {
                json.key(named: key)
                emit(member, into: &json)
            }
            json.endObject()
        }
    }

    static func written(_ value: JSONValue, pretty: Bool) -> String {
        var writer = JSONWriter(pretty: pretty)
        emit(value, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func expectSameText(_ value: JSONValue) {
        for pretty in [true, false] {
            #expect(written(value, pretty: pretty) == value.serialized(pretty: pretty), "pretty: \(pretty)")
        }
        var tree = JSONTreeBuilder()
        emit(value, into: &tree)
        // NaN is not equal to itself: such trees are compared as text.
        if value == value {
            #expect(tree.value == value)
        } else {
            #expect(tree.value.serialized() == value.serialized())
        }
    }

    static let trickyStrings = [
        "", "plain", "quote \" backslash \\ slash /", "newline \n return \r tab \t", "bell \u{7} esc \u{1B}[31m",
        "nul \u{0} unit \u{1F} delete \u{7F}", "é ü 日本 🚀 and \u{1B}", "\"", "\\", "\u{7F}",
        String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self),
    ]

    static let trickyNumbers: [Double] = [
        0, -0.0, 0.1, 0.2, 0.3, 1.5, -2.25, 0.0005, -0.0005, -0.0004, 0.0004, 0.001, -0.001, 123.4567, 2.675,
        1e20, -1e20, 1e15, 1e15 - 1, 999_999_999.9995, 1e9 + 0.001, 1e12 + 0.5, 9_007_199_254_740_992, 1e-7,
        .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, .nan, .infinity, -.infinity, 86_400_000.123,
    ]

    @Test func scalarsMatchJSONValue() {
        for text in Self.trickyStrings { Self.expectSameText(.string(text)) }
        for number in [0, 1, -1, 9, 10, -10, 12_345, Int.min, Int.max, Int.min + 1] {
            Self.expectSameText(.int(number))
        }
        for number in Self.trickyNumbers { Self.expectSameText(.double(number)) }
        for value in [JSONValue.null, .bool(true), .bool(false)] { Self.expectSameText(value) }
    }

    /// Strings of every length from 0 to 24 (short ones take the overlapping-word checks, longer ones the word loop
    /// and its overlapping last word), plain and with one byte that needs an escape at every position, as values
    /// and as keys, at a depth and at the top.
    @Test func shortStringsWithAnEscapeAtEveryPosition() {
        let escapes: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x22, 0x5C, 0x7F]
        var strings: [String] = []
        for length in 0...24 {
            let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            strings.append(String(decoding: plain, as: UTF8.self))
            for position in 0..<length {
                for escape in escapes {
                    var bytes = plain
                    bytes[position] = escape
                    strings.append(String(decoding: bytes, as: UTF8.self))
                }
                // Bytes of 0x80 and more never need an escape: multi-byte UTF-8 at every position.
                var bytes = plain
                bytes.replaceSubrange(position..<position + 1, with: Array("é".utf8))
                strings.append(String(decoding: bytes, as: UTF8.self))
                bytes = plain
                bytes.replaceSubrange(position..<position + 1, with: Array("🚀".utf8))
                strings.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        strings.append(String(decoding: [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x1F, 0x20], as: UTF8.self))
        for text in strings {
            for value in [JSONValue.string(text), .array([.string(text)]), .object([(text, .string(text))])] {
                for pretty in [true, false] {
                    let written = Self.written(value, pretty: pretty)
                    guard written == value.serialized(pretty: pretty) else {
                        Issue.record("\(Array(text.utf8)): \(written) != \(value.serialized(pretty: pretty))")
                        return
                    }
                }
            }
        }
    }

    /// Every byte value alone and in a run, so that each is escaped (or not) as `JSONValue.escape` does.
    @Test func everyByteIsEscapedAsJSONValueDoes() {
        for byte in 0..<128 {
            Self.expectSameText(.string(String(decoding: [UInt8(byte)], as: UTF8.self)))
            Self.expectSameText(.string(String(decoding: Array(repeating: UInt8(byte), count: 19), as: UTF8.self)))
        }
    }

    /// A writer that starts with no room grows across many small appends and keeps every byte.
    @Test func bufferGrowsAcrossManyAppends() {
        var items: [JSONValue] = []
        for index in 0..<20_000 {
            items.append(index % 3 == 0 ? .int(index * 7919) : .string("item \(index) \u{1}\"x\""))
        }
        let value = JSONValue.object([("items", .array(items)), ("after", .bool(false))])
        for pretty in [true, false] {
            var writer = JSONWriter(pretty: pretty, capacity: 0)
            Self.emit(value, into: &writer)
            #expect(writer.count == writer.bytes.count)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == value.serialized(pretty: pretty))
        }
    }

    /// Indentation deeper than 32 levels (more than 64 spaces) and at every depth up to there, with keys.
    @Test func deepIndentationMatchesJSONValue() {
        var value = JSONValue.array([.int(1), .string("deep"), .object([])])
        for level in 0..<40 {
            value = level % 2 == 0 ? .array([.null, value]) : .object([("k\(level)", value), ("n", .int(level))])
            if level < 12 { Self.expectSameText(value) }
        }
        Self.expectSameText(.array([.array([.array([])])]))
        var deep = JSONValue.string("bottom")
        for level in 0..<45 { deep = .object([("level \(level)", deep), ("x", .int(level))]) }
        Self.expectSameText(deep)
    }

    /// A key given as a literal (`key(_: StaticString)`, stored without the escape check) is written as the same
    /// name given at run time: first and later members, at the top and nested 20 levels deep (past the two words of
    /// indentation stored unconditionally), short and long names, pretty and compact; and in a tree.
    @Test func literalKeysAreWrittenAsKeysNamedAtRunTime() {
        func object<E: JSONEmitter & ~Copyable>(_ json: inout E, depth: Int, literal: Bool) {
            json.beginObject()
            if literal {
                json.key("a")
                json.int(depth)
                json.key("launchesOverBudget")
            } else {
                json.key(named: "a")
                json.int(depth)
                json.key(named: "launchesOverBudget")
            }
            if depth == 0 { json.null() } else { object(&json, depth: depth - 1, literal: literal) }
            json.endObject()
        }
        for pretty in [true, false] {
            var literal = JSONWriter(pretty: pretty)
            var named = JSONWriter(pretty: pretty)
            object(&literal, depth: 20, literal: true)
            object(&named, depth: 20, literal: false)
            #expect(literal.bytes == named.bytes)
            #expect(literal.bytes.count > 20 * 25)
        }
        var tree = JSONTreeBuilder()
        object(&tree, depth: 1, literal: true)
        #expect(
            tree.value
                == .object([
                    ("a", .int(1)), ("launchesOverBudget", .object([("a", .int(0)), ("launchesOverBudget", .null)])),
                ]))
    }

    /// Emptying a writer keeps writing at the start of its room.
    @Test func aWriterEmptiedWritesAgain() {
        var writer = JSONWriter(pretty: false, capacity: 8)
        writer.beginArray()
        writer.string("first, long enough to make room")
        writer.removeAll()
        writer.int(1)
        writer.endArray()
        writer.newline()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == ",1]\n")
        #expect(writer.count == 4)
    }

    @Test func nestingAndEmptyContainersMatchJSONValue() {
        let leaves: [JSONValue] = [.int(-3), .double(0.1), .string("a\tb"), .null, .bool(true)]
        Self.expectSameText(.array([]))
        Self.expectSameText(.object([]))
        Self.expectSameText(.array([.array([])]))
        Self.expectSameText(.array([.object([]), .array([.array([]), .object([])])]))
        Self.expectSameText(.object([("a", .object([])), ("b", .array([])), ("c", .array([.array([])]))]))
        Self.expectSameText(
            .object([
                ("key \"quoted\"\n", .array(leaves)), ("", .object([("x", .array([.object([("y", .array([]))])]))])),
                ("leaves", .object(leaves.enumerated().map { ("k\($0.offset)", $0.element) })),
            ]))
    }

    /// The fast path for doubles (whole values and up to three decimals) against `JSONValue.number`, densely
    /// around zero and at random across the magnitudes where it applies and beyond.
    @Test func doublesMatchJSONValueNumber() {
        var random = SplitMix64(seed: 7)
        var values: [Double] = []
        for k in -20_000...20_000 {
            values += [Double(k) / 1000, Double(k) / 1000 + 0.0004, Double(k) / 1000 - 0.0005]
        }
        for _ in 0..<100_000 {
            let magnitude = Double(random.next() % 16)
            let value = Double(random.next() % 1_000_000_000) / 1e9 * Self.power(magnitude)
            values += [value, -value, (value * 1000).rounded() / 1000]
        }
        for value in values {
            var writer = JSONWriter(pretty: false)
            writer.double(value)
            let expected = JSONValue.number(value)
            guard String(decoding: writer.bytes, as: UTF8.self) == expected else {
                Issue.record("\(value): \(String(decoding: writer.bytes, as: UTF8.self)) != \(expected)")
                return
            }
        }
    }

    static func power(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= 10 }
        return result
    }

    /// Timestamps written by the writer against `Timestamp.iso8601`: every precision, zoned and zone-less, and dates
    /// outside four-digit years (which take `iso8601` itself).
    @Test func timestampsMatchISO8601() {
        var random = SplitMix64(seed: 42)
        var stamps: [Timestamp] = []
        let offsets: [Int32?] = [nil, 0, 3600, -18_000, 19_800, -34_200, 50_400, -43_200, 1, -59, .max, -.max, 360_000]
        for _ in 0..<20_000 {
            // From about 1900 to 2100.
            let micros = Int64(bitPattern: random.next() % 6_311_390_400_000_000) - 2_208_988_800_000_000
            stamps.append(
                Timestamp(
                    wallMicros: micros, utcOffsetSeconds: offsets[Int(random.next() % UInt64(offsets.count))],
                    fractionDigits: UInt8(random.next() % 10)))
        }
        for micros: Int64 in [
            0, -1, 86_399_999_999, -62_167_219_200_000_000, -62_167_219_200_000_001, 253_402_300_800_000_000,
            253_402_300_799_999_999,
        ] {
            for digits: UInt8 in [0, 3, 6, 9] {
                stamps.append(Timestamp(wallMicros: micros, utcOffsetSeconds: -3600, fractionDigits: digits))
            }
        }
        for stamp in stamps {
            var writer = JSONWriter(pretty: false)
            writer.timestamp(stamp)
            let written = String(decoding: writer.bytes, as: UTF8.self)
            guard written == "\"" + stamp.iso8601 + "\"" else {
                Issue.record("\(stamp): \(written) != \(stamp.iso8601)")
                return
            }
        }
        var writer = JSONWriter(pretty: true)
        writer.beginArray()
        for stamp in stamps.prefix(50) { writer.timestamp(stamp) }
        writer.endArray()
        let value = JSONValue.array(stamps.prefix(50).map { .string($0.iso8601) })
        #expect(String(decoding: writer.bytes, as: UTF8.self) == value.serialized())
        // Through one writer, which keeps the date of the last timestamp: runs on one day (sorted, and a day's
        // first and last microsecond), changes of day, and dates outside four-digit years between them.
        var sameDay: [Timestamp] = []
        for micros: Int64 in [0, 86_399_999_999, 86_400_000_000, -1, -86_400_000_000, -86_400_000_001] {
            for offset: Int32? in [nil, 0, 3600] {
                sameDay.append(Timestamp(wallMicros: micros, utcOffsetSeconds: offset, fractionDigits: 3))
            }
        }
        let sorted = stamps.sorted { $0.wallMicros < $1.wallMicros }
        for series in [stamps, sorted, sameDay, sameDay.reversed() + stamps.suffix(40) + sameDay] {
            var writer = JSONWriter(pretty: false)
            writer.beginArray()
            for stamp in series { writer.timestamp(stamp) }
            writer.endArray()
            let value = JSONValue.array(series.map { .string($0.iso8601) })
            #expect(String(decoding: writer.bytes, as: UTF8.self) == value.serialized(pretty: false))
        }
    }

    /// Whole reports, pretty and compact, chunked or not: the bytes are the serialisation of `value(_:)`, the
    /// tree built from the same field lists.
    @Test(arguments: TestSupport.sampleNames)
    func reportsMatchTheirValueTree(_ name: String) throws {
        let report = try TestSupport.analyzeSample(name)
        let tree = JSONReporter.value(report)
        for pretty in [true, false] {
            let bytes = JSONReporter.bytes(report, pretty: pretty)
            #expect(String(decoding: bytes, as: UTF8.self) == tree.serialized(pretty: pretty) + "\n")
            var chunked: [UInt8] = []
            JSONReporter.write(report, pretty: pretty, chunkSize: 1) { chunked += $0 }
            #expect(chunked == bytes)
        }
    }
}
