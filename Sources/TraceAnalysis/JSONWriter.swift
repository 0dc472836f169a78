/// Where JSON goes: straight into bytes (`JSONWriter`, for the report itself) or into a `JSONValue` tree
/// (`JSONTreeBuilder`, for `JSONReporter.value`). The report's field lists are written once, against this
/// protocol, so the streamed bytes and the tree cannot drift apart. (`SendableMetatype`: the reporter hands its
/// generic field-list functions to `field(_:array:_:)` as closures, which capture the emitter's type. `~Copyable`:
/// the writer is noncopyable, as its buffer owns its bytes outright; the tree builder is an ordinary value.)
protocol JSONEmitter: ~Copyable, SendableMetatype {
    /// Opens an object as the next value (after a key, as an array element, or as the document).
    mutating func beginObject()
    mutating func endObject()
    /// Opens an array as the next value.
    mutating func beginArray()
    mutating func endArray()
    /// The key of the next object member, one of the report's own names (ASCII, nothing to escape); its value
    /// follows.
    mutating func key(_ name: StaticString)
    /// A key made at run time (an app's name, a scenario's id), escaped as a string is.
    mutating func key(named name: String)
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
extension JSONEmitter where Self: ~Copyable {
    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    mutating func field(_ name: StaticString, _ value: Double) {
        key(name)
        double(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    mutating func field(_ name: StaticString, _ value: String?) { field(name, value) { $0.string($1) } }
    mutating func field(_ name: StaticString, _ value: Int?) { field(name, value) { $0.int($1) } }
    mutating func field(_ name: StaticString, _ value: Double?) { field(name, value) { $0.double($1) } }
    mutating func field(_ name: StaticString, _ value: Timestamp?) { field(name, value) { $0.timestamp($1) } }

    /// `name: value` written by `write`, or `name: null`.
    mutating func field<T>(_ name: StaticString, _ value: T?, _ write: (inout Self, T) -> Void) {
        key(name)
        guard let value else { return null() }
        write(&self, value)
    }

    /// `name: [item, …]`, each item written by `write` (borrowed by index, not copied out by an iterator).
    mutating func field<T>(_ name: StaticString, array items: [T], _ write: (inout Self, T) -> Void) {
        key(name)
        beginArray()
        for index in items.indices { write(&self, items[index]) }
        endArray()
    }

    /// `name: {label: count, …}` in the order given.
    mutating func field(_ name: StaticString, counts: [(String, Int)]) {
        key(name)
        beginObject()
        for (label, count) in counts {
            key(named: label)
            int(count)
        }
        endObject()
    }
}

/// Writes JSON straight into a reusable byte buffer, formatted exactly as `JSONValue.write` formats the same
/// value: pretty (a newline and two spaces per level before each element, `[]` and `{}` when empty, `": "`
/// after keys) or compact (one line). The report is written through it so that no tree of values, and no
/// String per number or timestamp, is built for each process. Each piece (a separator, a key, a number, a
/// timestamp) reserves its room in `output` once and is stored in place: the report is about a megabyte of
/// such pieces, a few bytes each.
struct JSONWriter: JSONEmitter, ~Copyable {
    /// The text so far. Its owner may hand it on and empty it between values (keeping the capacity).
    private var output: OutputBytes
    /// Two-space indentation on separate lines, or all on one line.
    let pretty: Bool
    /// Containers open around the next value.
    private var depth = 0
    /// The innermost open container has no element yet: no comma before the next, and it closes as `[]`/`{}`.
    private var containerIsEmpty = true
    /// A key was just written: its value follows on the same line.
    private var afterKey = false
    /// The date of the timestamp written last.
    private var dates = ISO8601Dates()

    init(pretty: Bool, capacity: Int = 0) {
        self.pretty = pretty
        output = OutputBytes(capacity: capacity)
    }

    /// A writer for one element of an array open at `depth` (the first element or a later one), whose bytes a
    /// writer in that state appends with ``appendElement(_:)``: elements can be written on other threads.
    init(pretty: Bool, elementAt depth: Int, first: Bool) {
        self.pretty = pretty
        self.depth = depth
        self.containerIsEmpty = first
        output = OutputBytes(capacity: 1024)
    }

    /// Appends the bytes of the next element of the open array, written by a writer made with
    /// ``init(pretty:elementAt:first:)``.
    mutating func appendElement(_ element: [UInt8]) {
        output.append(element)
        containerIsEmpty = false
    }

    /// How deep the next value is.
    var currentDepth: Int { depth }

    /// How many bytes are written.
    var count: Int { output.count }

    /// A copy of the bytes written.
    var bytes: [UInt8] { output.array }

    /// Forgets the bytes written (once handed on), keeping the capacity.
    mutating func removeAll() { output.removeAll() }

    /// Ends a line (JSON Lines, or the end of the document).
    mutating func newline() { output.append(UInt8(ascii: "\n")) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// The name's bytes are stored without the escape check a string's get (`assert`ed in debug builds): a key is
    /// about a third of the report's pieces, and with the literal's length known where it is inlined, its copy is
    /// a few moves.
    @inline(__always)
    mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { utf8 in
            assert(utf8.allSatisfy { (0x20..<0x7F).contains($0) && $0 != 0x22 && $0 != 0x5C }, "\(name) needs escapes")
            let count = utf8.count
            let text = startElement(at: output.reserve(separatorCapacity &+ count &+ 4))
            text[0] = UInt8(ascii: "\"")
            if let start = utf8.baseAddress { (text + 1).update(from: start, count: count) }
            text[count &+ 1] = UInt8(ascii: "\"")
            text[count &+ 2] = UInt8(ascii: ":")
            text[count &+ 3] = UInt8(ascii: " ")
            output.commit(count &+ (pretty ? 4 : 3))
        }
        afterKey = true
    }

    mutating func key(named name: String) {
        OutputBytes.withUTF8(name) { appendQuoted($0, isKey: true) }
        afterKey = true
    }

    mutating func string(_ value: String) { OutputBytes.withUTF8(value) { appendQuoted($0, isKey: false) } }

    mutating func int(_ value: Int) {
        let text = startValue(room: Self.decimalCapacity)
        output.commit(Self.writeDecimal(value, at: text))
    }

    mutating func double(_ value: Double) { appendNumber(value) }

    mutating func bool(_ value: Bool) {
        let text = startValue(room: 5)
        if value {
            text.initialize(ascii: "true")
            output.commit(4)
        } else {
            text.initialize(ascii: "false")
            output.commit(5)
        }
    }

    mutating func null() {
        startValue(room: 4).initialize(ascii: "null")
        output.commit(4)
    }

    mutating func timestamp(_ value: Timestamp) {
        // Written in place; ISO 8601 text is digits and `-:T.Z+` only, nothing to escape.
        let text = startValue(room: Timestamp.iso8601Capacity + 2)
        text[0] = UInt8(ascii: "\"")
        guard
            let count = value.writeISO8601(
                into: UnsafeMutableBufferPointer(start: text + 1, count: Timestamp.iso8601Capacity), dates: &dates)
        else { return OutputBytes.withUTF8(value.iso8601) { appendQuoted($0, isKey: false, afterSeparator: true) } }
        text[count + 1] = UInt8(ascii: "\"")
        output.commit(count + 2)
    }

    // MARK: Layout

    private mutating func open(_ bracket: UInt8) {
        startValue(room: 1).pointee = bracket
        output.commit(1)
        depth += 1
        containerIsEmpty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        var text = output.reserve(separatorCapacity + 1)
        if !containerIsEmpty { text += writeSeparator(comma: false, at: text) }
        text.pointee = bracket
        output.commit(text + 1 - output.end)
        containerIsEmpty = false
    }

    /// Room for the longest separator at the current depth, with the overshoot of its words of spaces.
    private var separatorCapacity: Int { 2 &+ 2 &* depth &+ 16 }

    /// Before a value: reserves room for its separator and `size` bytes, writes and commits the separator
    /// (nothing after a key, else that of a new element), and returns where the value goes: one reservation, one
    /// check of the capacity, for both.
    @inline(__always)
    private mutating func startValue(room size: Int) -> UnsafeMutablePointer<UInt8> {
        let text = output.reserve(separatorCapacity &+ size)
        if afterKey {
            afterKey = false
            return text
        }
        guard depth > 0 else { return text }
        return startElement(at: text)
    }

    /// The separator of a new element at `text` (reserved), committed: where the element goes.
    @inline(__always)
    private mutating func startElement(at text: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let count = writeSeparator(comma: !containerIsEmpty, at: text)
        containerIsEmpty = false
        output.commit(count)
        return text + count
    }

    /// Writes a comma if asked, then (pretty) a newline and the current depth's indentation at `text`, with room
    /// for `separatorCapacity` bytes; returns how many bytes it is. The spaces are stored eight at a time, the
    /// first sixteen (eight levels) unconditionally (the words may overshoot into the room, uncounted).
    @inline(__always)
    private func writeSeparator(comma: Bool, at text: UnsafeMutablePointer<UInt8>) -> Int {
        var next = text
        if comma {
            next.pointee = UInt8(ascii: ",")
            next += 1
        }
        guard pretty else { return next - text }
        next.pointee = UInt8(ascii: "\n")
        next += 1
        let indent = 2 &* depth
        let spaces = UnsafeMutableRawPointer(next)
        let eight: UInt64 = 0x2020_2020_2020_2020
        spaces.storeBytes(of: eight, as: UInt64.self)
        spaces.storeBytes(of: eight, toByteOffset: 8, as: UInt64.self)
        var offset = 16
        while offset < indent {
            spaces.storeBytes(of: eight, toByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        return next + indent - text
    }

    // MARK: Scalars

    /// Room for an Int in decimal: a sign and 19 digits.
    static let decimalCapacity = 20

    /// `JSONValue.number`'s text without its Strings for the common cases. A whole value prints as an integer.
    /// Otherwise the value is k/1000 for an integer k (not a multiple of 1000); for |k| < 10¹² (values below
    /// 10⁹) the double nearest k/1000 lies within 10⁻⁶ of it while any decimal with fewer digits lies at least
    /// 10⁻³ away, so Swift's shortest round-trip `description` is exactly k/1000 in plain notation without
    /// trailing zeros, which is what is written. Anything else goes through `JSONValue.number` itself.
    private mutating func appendNumber(_ value: Double) {
        let text = startValue(room: 2 * Self.decimalCapacity + 2)
        guard value.isFinite else {
            text.initialize(ascii: "null")
            return output.commit(4)
        }
        let thousandths = (value * 1000).rounded()
        let rounded = thousandths / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            return output.commit(Self.writeDecimal(Int(rounded), at: text))
        }
        if abs(thousandths) < 1e12 {
            let k = Int(thousandths)
            var fraction = Int(k.magnitude % 1000)
            if fraction != 0 {
                var count = 0
                if k < 0 {
                    text[0] = UInt8(ascii: "-")
                    count = 1
                }
                count += Self.writeDecimal(Int(k.magnitude / 1000), at: text + count)
                text[count] = UInt8(ascii: ".")
                count += 1
                var width = 3
                while fraction % 10 == 0 {
                    fraction /= 10
                    width -= 1
                }
                return output.commit(count + Self.writeDecimal(fraction, width: width, at: text + count))
            }
        }
        var number = JSONValue.number(value)
        number.withUTF8 { output.append($0) }
    }

    /// Writes `value` in decimal at `text`, zero-padded to `width` digits (room: `decimalCapacity`, or `width`
    /// and a sign if more), from its last digit; returns how many bytes.
    @inline(__always)
    static func writeDecimal(_ value: Int, width: Int = 1, at text: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var rest = value.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, width)
        let sign = value < 0 ? 1 : 0
        text[0] = UInt8(ascii: "-")  // overwritten by the first digit when there is no sign
        rest = value.magnitude
        var index = sign + digits
        repeat {
            index -= 1
            text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while index > sign
        return sign + digits
    }

    /// `JSONValue.escape`'s output, with the separator before it (unless `afterSeparator`, or after a key) and,
    /// for a key, the `": "` after it, all in one reservation. Text that needs no escape (nearly all of it: keys,
    /// names, words, paths) is copied by ``copyUnescaped(_:to:)``; the rest goes on at
    /// ``appendEscapedSlowly(_:from:)`` from where that copy stopped.
    @inline(__always)
    private mutating func appendQuoted(
        _ utf8: UnsafeBufferPointer<UInt8>, isKey: Bool, afterSeparator: Bool = false
    ) {
        let count = utf8.count
        var text = output.reserve(separatorCapacity &+ count &+ 4)
        if isKey {
            text = startElement(at: text)
        } else if afterKey {
            afterKey = false
        } else if depth > 0 && !afterSeparator {
            text = startElement(at: text)
        }
        text[0] = UInt8(ascii: "\"")
        text += 1
        let copied = Self.copyUnescaped(utf8, to: text)
        if copied < count {
            output.commit(text + copied - output.end)
            appendEscapedSlowly(UnsafeRawBufferPointer(utf8), from: copied)
            text = output.reserve(3)
        } else {
            text += count
        }
        text[0] = UInt8(ascii: "\"")
        if isKey {
            text[1] = UInt8(ascii: ":")
            text[2] = UInt8(ascii: " ")
            text += pretty ? 3 : 2
        } else {
            text += 1
        }
        output.commit(text - output.end)
    }

    /// Copies the bytes of `utf8` to `target` (room for as many) as long as none may need an escape, and returns
    /// how many it copied: all of them, or where the first word that may need one starts. A check and a copy of a
    /// word or two for short text: 4 to 8 bytes are loaded as two overlapping halves, 1 to 3 as first, middle
    /// and last padded with a letter; longer text a word at a time, and its end as one more word overlapping the
    /// last.
    @inline(__always)
    private static func copyUnescaped(_ utf8: UnsafeBufferPointer<UInt8>, to text: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        let count = utf8.count
        guard let start = utf8.baseAddress, count > 0 else { return 0 }
        let source = UnsafeRawPointer(start)
        let target = UnsafeMutableRawPointer(text)
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                guard !mayNeedEscape(word) else { return offset }
                target.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            let last = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            guard !mayNeedEscape(last) else { return offset }
            target.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            guard !mayNeedEscape(UInt64(first) | UInt64(last) << 32) else { return 0 }
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
        } else {
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: count / 2, as: UInt8.self)
            let last = source.load(fromByteOffset: count - 1, as: UInt8.self)
            guard !mayNeedEscape(UInt64(first) | UInt64(middle) << 8 | UInt64(last) << 16 | 0x4141_4141_4100_0000)
            else { return 0 }
            target.storeBytes(of: first, as: UInt8.self)
            target.storeBytes(of: middle, toByteOffset: count / 2, as: UInt8.self)
            target.storeBytes(of: last, toByteOffset: count - 1, as: UInt8.self)
        }
        return count
    }

    /// The rest of `source` from `start`, escaped byte by byte, with room reserved for the worst
    /// case (`\u00XX`, six bytes each) at once. Runs of eight bytes that need no escape are still copied a word at
    /// a time.
    @inline(never)
    private mutating func appendEscapedSlowly(_ source: UnsafeRawBufferPointer, from start: Int) {
        let count = source.count
        let text = output.reserve(6 * (count - start))
        var written = 0
        var index = start
        while index < count {
            if index + 8 <= count {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if !Self.mayNeedEscape(word) {
                    UnsafeMutableRawPointer(text + written).storeBytes(of: word, as: UInt64.self)
                    written += 8
                    index += 8
                    continue
                }
            }
            let byte = source[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                text[written] = byte
                written += 1
                continue
            }
            text[written] = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text[written + 1] = byte
            case UInt8(ascii: "\n"): text[written + 1] = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): text[written + 1] = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): text[written + 1] = UInt8(ascii: "t")
            default:
                text[written + 1] = UInt8(ascii: "u")
                text[written + 2] = UInt8(ascii: "0")
                text[written + 3] = UInt8(ascii: "0")
                text[written + 4] = Self.hexDigit(byte >> 4)
                text[written + 5] = Self.hexDigit(byte & 0xF)
                written += 4
            }
            written += 2
        }
        output.commit(written)
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
    mutating func key(_ name: StaticString) { pendingKey = name.description }
    mutating func key(named name: String) { pendingKey = name }
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

extension Timestamp {
    /// Room `writeISO8601` may need: a four-digit year, seconds to six decimals, an offset of up to 596523 hours.
    static let iso8601Capacity = 40

    /// Writes `iso8601`'s bytes into `text` (at least `iso8601Capacity` long) without building Strings, and
    /// returns how many; nil for years outside 0...9999, which `iso8601` pads oddly (callers use it then). The
    /// date is copied from `dates` when it is the day written last (the civil date is the dearest part, and the
    /// timestamps of a report mostly fall on a few days), else worked out and kept there.
    func writeISO8601(into text: UnsafeMutableBufferPointer<UInt8>, dates: inout ISO8601Dates) -> Int? {
        let (days, microsOfDay) = Timestamp.floorDivide(wallMicros, 86_400_000_000)
        guard text.count >= Timestamp.iso8601Capacity, let start = text.baseAddress else { return nil }
        let raw = UnsafeMutableRawPointer(start)
        var out = Timestamp.Digits(start: start)
        if days == dates.day {
            raw.storeBytes(of: dates.text.0, as: UInt64.self)
            raw.storeBytes(of: dates.text.1, toByteOffset: 8, as: UInt16.self)
            out.count = 10
        } else {
            let (year, month, day) = Timestamp.civil(fromDays: days)
            guard (0...9999).contains(year) else { return nil }
            out.two(year / 100)
            out.two(year % 100)
            out.put("-")
            out.two(month)
            out.put("-")
            out.two(day)
            dates.day = days
            dates.text = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        }
        out.put("T")
        out.count += writeTimeOfDay(microsOfDay, at: start + out.count)
        guard let utcOffsetSeconds else { return out.count }
        guard utcOffsetSeconds != 0 else {
            out.put("Z")
            return out.count
        }
        let magnitude = Int(utcOffsetSeconds.magnitude)
        out.put(utcOffsetSeconds < 0 ? "-" : "+")
        if magnitude / 3600 < 100 {
            out.two(magnitude / 3600)
        } else {
            out.count += JSONWriter.writeDecimal(magnitude / 3600, at: start + out.count)
        }
        out.put(":")
        out.two(magnitude / 60 % 60)
        return out.count
    }
}

/// The date part (`YYYY-MM-DD`) of the timestamp a writer wrote last, and its day, for `writeISO8601`.
struct ISO8601Dates {
    /// Days since 1970-01-01 of `text` (none at first).
    var day = Int64.min
    /// The ten bytes of the date.
    var text: (UInt64, UInt16) = (0, 0)
}

extension UnsafeMutablePointer<UInt8> {
    /// Stores the bytes of a short ASCII literal here (`true`, `null`: a few stores, no copy call).
    @inline(__always)
    fileprivate func initialize(ascii literal: StaticString) {
        for index in 0..<literal.utf8CodeUnitCount { self[index] = literal.utf8Start[index] }
    }
}
