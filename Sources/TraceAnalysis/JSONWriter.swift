/// Where JSON goes: straight into bytes (`JSONWriter`, for the report itself) or into a `JSONValue` tree
/// (`JSONTreeBuilder`, for `JSONReporter.value`). The report's field lists are written once, against this
/// protocol, so the streamed bytes and the tree cannot drift apart. (`SendableMetatype`: the reporter hands its
/// generic field-list functions to `field(_:array:_:)` as closures, which capture the emitter's type.)
protocol JSONEmitter: SendableMetatype {
    /// Opens an object as the next value (after a key, as an array element, or as the document).
    mutating func beginObject()
    mutating func endObject()
    /// Opens an array as the next value.
    mutating func beginArray()
    mutating func endArray()
    /// The key of the next object member; its value follows.
    mutating func key(_ name: String)
    mutating func string(_ value: String)
    mutating func int(_ value: Int)
    /// Rounded to three decimals as `JSONValue.number` does; NaN and infinities are null.
    mutating func double(_ value: Double)
    mutating func bool(_ value: Bool)
    mutating func null()
    /// A timestamp as its `iso8601` string.
    mutating func timestamp(_ value: Timestamp)
}

/// Members in one call: `name: value`, null for a nil optional.
extension JSONEmitter {
    mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    mutating func field(_ name: String, _ value: Double) {
        key(name)
        double(value)
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    mutating func field(_ name: String, _ value: String?) { field(name, value) { $0.string($1) } }
    mutating func field(_ name: String, _ value: Int?) { field(name, value) { $0.int($1) } }
    mutating func field(_ name: String, _ value: Double?) { field(name, value) { $0.double($1) } }
    mutating func field(_ name: String, _ value: Timestamp?) { field(name, value) { $0.timestamp($1) } }

    /// `name: value` written by `write`, or `name: null`.
    mutating func field<T>(_ name: String, _ value: T?, _ write: (inout Self, T) -> Void) {
        key(name)
        guard let value else { return null() }
        write(&self, value)
    }

    /// `name: [item, …]`, each item written by `write` (borrowed by index, not copied out by an iterator).
    mutating func field<T>(_ name: String, array items: [T], _ write: (inout Self, T) -> Void) {
        key(name)
        beginArray()
        for index in items.indices { write(&self, items[index]) }
        endArray()
    }

    /// `name: {label: count, …}` in the order given.
    mutating func field(_ name: String, counts: [(String, Int)]) {
        key(name)
        beginObject()
        for (label, count) in counts { field(label, count) }
        endObject()
    }
}

/// Writes JSON straight into a reusable byte buffer, formatted exactly as `JSONValue.write` formats the same
/// value: pretty (a newline and two spaces per level before each element, `[]` and `{}` when empty, `": "`
/// after keys) or compact (one line). The report is written through it so that no tree of values, and no
/// String per number or timestamp, is built for each process.
struct JSONWriter: JSONEmitter {
    /// The text so far. Its owner may hand it on and empty it between values (keeping the capacity).
    var bytes: [UInt8] = []
    /// Two-space indentation on separate lines, or all on one line.
    let pretty: Bool
    /// Containers open around the next value.
    private var depth = 0
    /// The innermost open container has no element yet: no comma before the next, and it closes as `[]`/`{}`.
    private var containerIsEmpty = true
    /// A key was just written: its value follows on the same line.
    private var afterKey = false
    /// A comma, a newline and 64 spaces: every separator is one slice of it, appended at once (a StaticString,
    /// so taking a slice costs no reference counting).
    private static let separator: StaticString = ",\n                                                                "
    /// What ends a key: `": ` (pretty) or its first two bytes.
    private static let keyEnd: StaticString = "\": "

    init(pretty: Bool, capacity: Int = 0) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// A writer for one element of an array open at `depth` (the first element or a later one), whose bytes a
    /// writer in that state appends with ``appendElement(_:)``: elements can be written on other threads.
    init(pretty: Bool, elementAt depth: Int, first: Bool) {
        self.pretty = pretty
        self.depth = depth
        self.containerIsEmpty = first
    }

    /// Appends the bytes of the next element of the open array, written by a writer made with
    /// ``init(pretty:elementAt:first:)``.
    mutating func appendElement(_ element: [UInt8]) {
        bytes.append(contentsOf: element)
        containerIsEmpty = false
    }

    /// How deep the next value is.
    var currentDepth: Int { depth }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    mutating func key(_ name: String) {
        startElement()
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(name)
        append(Self.keyEnd, 0..<(pretty ? 3 : 2))
        afterKey = true
    }

    mutating func string(_ value: String) {
        startValue()
        appendQuoted(value)
    }

    mutating func int(_ value: Int) {
        startValue()
        bytes.appendDecimal(value)
    }

    mutating func double(_ value: Double) {
        startValue()
        appendNumber(value)
    }

    mutating func bool(_ value: Bool) {
        startValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        startValue()
        bytes.append(contentsOf: "null".utf8)
    }

    mutating func timestamp(_ value: Timestamp) {
        startValue()
        // Composed on the stack and appended at once; ISO 8601 text is digits and `-:T.Z+` only, nothing to escape.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Timestamp.iso8601Capacity + 2) { text in
            text[0] = UInt8(ascii: "\"")
            guard let count = value.writeISO8601(into: UnsafeMutableBufferPointer(rebasing: text[1...])) else {
                return appendQuoted(value.iso8601)
            }
            text[count + 1] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeMutableBufferPointer(rebasing: text[..<(count + 2)]))
        }
    }

    // MARK: Layout

    private mutating func open(_ bracket: UInt8) {
        startValue()
        bytes.append(bracket)
        depth += 1
        containerIsEmpty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if !containerIsEmpty { appendSeparator(from: 1) }
        bytes.append(bracket)
        containerIsEmpty = false
    }

    /// Before a value: nothing after a key, else the separator of a new element.
    private mutating func startValue() {
        if afterKey {
            afterKey = false
        } else if depth > 0 {
            startElement()
        }
    }

    /// A comma after the previous element, then (pretty) a new line at the current depth.
    private mutating func startElement() {
        appendSeparator(from: containerIsEmpty ? 1 : 0)
        containerIsEmpty = false
    }

    /// `separator` from `start` (0: with the comma, 1: without) to the end of the current indentation.
    private mutating func appendSeparator(from start: Int) {
        let end = pretty ? 2 + 2 * depth : 1
        guard start < end else { return }
        guard end <= Self.separator.utf8CodeUnitCount else {
            append(Self.separator, start..<2)
            return bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        append(Self.separator, start..<end)
    }

    /// Appends the bytes `range` of a literal.
    private mutating func append(_ literal: StaticString, _ range: Range<Int>) {
        literal.withUTF8Buffer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    // MARK: Scalars

    /// `JSONValue.number`'s text without its Strings for the common cases. A whole value prints as an integer.
    /// Otherwise the value is k/1000 for an integer k (not a multiple of 1000); for |k| < 10¹² (values below
    /// 10⁹) the double nearest k/1000 lies within 10⁻⁶ of it while any decimal with fewer digits lies at least
    /// 10⁻³ away, so Swift's shortest round-trip `description` is exactly k/1000 in plain notation without
    /// trailing zeros, which is what is written. Anything else goes through `JSONValue.number` itself.
    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        let thousandths = (value * 1000).rounded()
        let rounded = thousandths / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return bytes.appendDecimal(Int(rounded)) }
        if abs(thousandths) < 1e12 {
            let k = Int(thousandths)
            var fraction = Int(k.magnitude % 1000)
            if fraction != 0 {
                if k < 0 { bytes.append(UInt8(ascii: "-")) }
                bytes.appendDecimal(Int(k.magnitude / 1000))
                bytes.append(UInt8(ascii: "."))
                var width = 3
                while fraction % 10 == 0 {
                    fraction /= 10
                    width -= 1
                }
                return bytes.appendDecimal(fraction, width: width)
            }
        }
        bytes.append(contentsOf: JSONValue.number(value).utf8)
    }

    /// `JSONValue.escape`'s output.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The inside of `JSONValue.escape`'s output: runs of bytes that need no escape are copied whole.
    private mutating func appendEscaped(_ text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if copied == nil { Array(text.utf8).withUnsafeBufferPointer { appendEscaped($0) } }
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            // Eight bytes at a time while none of them needs an escape (the usual case: words, paths, numbers).
            if index + 8 <= count, let base = utf8.baseAddress,
                !Self.mayNeedEscape(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<(index - 1)]))
            runStart = index
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    /// Whether a byte of `word` may need an escape: below 0x20, `"`, `\` or 0x7F (bytes of 0x80 and more never
    /// do). Exact where it says no, which is all the fast path needs.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & high }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & high
        return control | zeroByte(word ^ 0x2222_2222_2222_2222) | zeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
            | zeroByte(word ^ 0x7F7F_7F7F_7F7F_7F7F) != 0
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// Builds a `JSONValue` through the same calls the report writer gets (`JSONReporter.value`).
struct JSONTreeBuilder: JSONEmitter {
    /// An open array or object, with the key it will have in its parent.
    private struct Open {
        var key: String?
        var isObject: Bool
        var items: [JSONValue] = []
        var members: [(String, JSONValue)] = []
    }

    private var open: [Open] = []
    private var pendingKey: String?
    /// The document once its outermost value is complete (null before).
    private(set) var value: JSONValue = .null

    mutating func beginObject() { open.append(Open(key: takeKey(), isObject: true)) }
    mutating func beginArray() { open.append(Open(key: takeKey(), isObject: false)) }
    mutating func endObject() { close() }
    mutating func endArray() { close() }
    mutating func key(_ name: String) { pendingKey = name }
    mutating func string(_ value: String) { add(.string(value), key: takeKey()) }
    mutating func int(_ value: Int) { add(.int(value), key: takeKey()) }
    mutating func double(_ value: Double) { add(.double(value), key: takeKey()) }
    mutating func bool(_ value: Bool) { add(.bool(value), key: takeKey()) }
    mutating func null() { add(.null, key: takeKey()) }
    mutating func timestamp(_ value: Timestamp) { add(.string(value.iso8601), key: takeKey()) }

    private mutating func takeKey() -> String? {
        defer { pendingKey = nil }
        return pendingKey
    }

    private mutating func close() {
        guard let done = open.popLast() else { return }
        add(done.isObject ? .object(done.members) : .array(done.items), key: done.key)
    }

    private mutating func add(_ item: JSONValue, key: String?) {
        guard let last = open.indices.last else { return value = item }
        if open[last].isObject {
            open[last].members.append((key ?? "", item))
        } else {
            open[last].items.append(item)
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in decimal, zero-padded to `width` digits, without building a String.
    fileprivate mutating func appendDecimal(_ value: Int, width: Int = 1) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if width > digits.count - start {
                append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - (digits.count - start)))
            }
            append(contentsOf: UnsafeMutableBufferPointer(rebasing: digits[start...]))
        }
    }
}

extension Timestamp {
    /// Room `writeISO8601` may need: a four-digit year, seconds to six decimals, an offset of up to 596523 hours.
    static let iso8601Capacity = 40

    /// Writes `iso8601`'s bytes into `text` (at least `iso8601Capacity` long) without building Strings, and
    /// returns how many; nil for years outside 0...9999, which `iso8601` pads oddly (callers use it then).
    func writeISO8601(into text: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let (days, microsOfDay) = Timestamp.floorDivide(wallMicros, 86_400_000_000)
        let (year, month, day) = Timestamp.civil(fromDays: days)
        guard (0...9999).contains(year), text.count >= Timestamp.iso8601Capacity else { return nil }
        var count = 0
        func put(_ value: Int, _ width: Int) {
            var digits = width
            var rest = value / Int(power10[width])
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            rest = value
            for index in stride(from: count + digits - 1, through: count, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            count += digits
        }
        func put(_ byte: Unicode.Scalar) {
            text[count] = UInt8(ascii: byte)
            count += 1
        }
        let seconds = Int(microsOfDay / 1_000_000)
        put(year, 4)
        put("-")
        put(month, 2)
        put("-")
        put(day, 2)
        put("T")
        put(seconds / 3600, 2)
        put(":")
        put(seconds / 60 % 60, 2)
        put(":")
        put(seconds % 60, 2)
        if fractionDigits > 0 {
            let digits = min(Int(fractionDigits), 6)
            put(".")
            put(Int(microsOfDay % 1_000_000) / Int(power10[6 - digits]), digits)
        }
        guard let utcOffsetSeconds else { return count }
        guard utcOffsetSeconds != 0 else {
            put("Z")
            return count
        }
        let magnitude = Int(utcOffsetSeconds.magnitude)
        put(utcOffsetSeconds < 0 ? "-" : "+")
        put(magnitude / 3600, 2)
        put(":")
        put(magnitude / 60 % 60, 2)
        return count
    }
}

/// 10⁰ … 10⁶, for the digits of timestamps.
private let power10: [Int32] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]
