import PCRE2Kit

/// Splits one physical line into a record's fields with the first format of a catalogue that matches it.
///
/// Holds one reusable ``Matcher`` per format, so it belongs to one thread. The format that matched the
/// previous line is tried first: a capture rarely changes format, and mixed captures still parse line by line.
public final class RecordParser {
    /// Byte ranges of a parsed line (offsets into the line) plus the values parsed on the spot.
    public struct Fields {
        public var formatIndex: Int
        public var timestamp: Timestamp?
        public var process: Range<Int>?
        public var pid: Int?
        public var thread: Range<Int>?
        public var message: Range<Int>
    }

    /// The same fields as strings, for samples, tests and cold paths.
    public struct TextFields: Equatable {
        public var format: String
        public var timestamp: Timestamp?
        public var process: String?
        public var pid: Int?
        public var thread: String?
        public var message: String
    }

    public let catalog: FormatCatalog
    private let matchers: [Matcher]
    private var preferred = 0

    public init(catalog: FormatCatalog) {
        self.catalog = catalog
        self.matchers = catalog.formats.map { Matcher($0.regex) }
    }

    /// The fields of `line`, or nil when no format matches it.
    @inline(__always)
    public func parse(_ line: UnsafeRawBufferPointer) -> Fields? {
        if let fields = parse(line, with: preferred) { return fields }
        for index in matchers.indices where index != preferred {
            if let fields = parse(line, with: index) {
                preferred = index
                return fields
            }
        }
        return nil
    }

    private func parse(_ line: UnsafeRawBufferPointer, with index: Int) -> Fields? {
        let matcher = matchers[index]
        guard (try? matcher.matches(line)) == true else { return nil }
        let compiled = catalog.formats[index]
        guard let message = matcher.range(compiled.messageGroup) else { return nil }
        var fields = Fields(formatIndex: index, timestamp: nil, process: nil, pid: nil, thread: nil, message: message)
        if let group = compiled.timestampGroup, let range = matcher.range(group), let layout = compiled.format.timestamp
        {
            fields.timestamp = layout.parse(UnsafeRawBufferPointer(rebasing: line[range]))
        }
        if let group = compiled.processGroup, let range = matcher.range(group) {
            fields.process = Bytes.trimmingSpaces(range, in: line)
        }
        if let group = compiled.pidGroup, let range = matcher.range(group) {
            fields.pid = Bytes.decimal(UnsafeRawBufferPointer(rebasing: line[range]))
        }
        if let group = compiled.threadGroup { fields.thread = matcher.range(group) }
        return fields
    }

    /// Ids of every format whose pattern matches `line` (validation: a sample must match exactly one).
    public func formatsMatching(_ line: String) -> [String] {
        var copy = line
        return copy.withUTF8 { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            return matchers.indices.compactMap { index in
                (try? matchers[index].matches(raw)) == true ? catalog.formats[index].format.id : nil
            }
        }
    }

    /// Parses a Swift string into text fields.
    public func fields(of line: String) -> TextFields? {
        var copy = line
        return copy.withUTF8 { buffer -> TextFields? in
            let raw = UnsafeRawBufferPointer(buffer)
            guard let fields = parse(raw) else { return nil }
            return TextFields(
                format: catalog.formats[fields.formatIndex].format.id,
                timestamp: fields.timestamp,
                process: fields.process.map { Bytes.string(raw, $0) },
                pid: fields.pid,
                thread: fields.thread.map { Bytes.string(raw, $0) },
                message: Bytes.string(raw, fields.message))
        }
    }
}

/// Small byte helpers shared by the parsers.
enum Bytes {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// Decodes bytes as UTF-8, replacing invalid sequences (never fails).
    static func string(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// A decimal number, or nil when the bytes are not all digits or overflow.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            let digit = Int(byte) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// `range` without leading and trailing spaces and tabs.
    static func trimmingSpaces(_ range: Range<Int>, in buffer: UnsafeRawBufferPointer) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, buffer[lower] == space || buffer[lower] == tab { lower += 1 }
        while upper > lower, buffer[upper - 1] == space || buffer[upper - 1] == tab { upper -= 1 }
        return lower..<upper
    }

    /// The number of leading spaces and tabs.
    static func indentation(_ buffer: UnsafeRawBufferPointer) -> Int {
        var count = 0
        while count < buffer.count, buffer[count] == space || buffer[count] == tab { count += 1 }
        return count
    }

    /// Whether the line holds only spaces and tabs.
    static func isBlank(_ buffer: UnsafeRawBufferPointer) -> Bool { indentation(buffer) == buffer.count }

    /// Byte-wise equality of two buffers.
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == 0 }
        return memcmp(pa, pb, a.count) == 0
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
