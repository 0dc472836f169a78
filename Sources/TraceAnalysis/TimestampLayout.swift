/// How a format writes its timestamps; each layout parses bytes directly.
public enum TimestampLayout: String, Sendable, Codable, CaseIterable {
    /// `YYYY-MM-DD HH:MM:SS[.f…][±HHMM|±HH:MM|Z]` (a space or `T` between date and time): NSLog, `log show`.
    case isoLike = "iso-like"

    /// Parses the timestamp in `bytes`, or returns nil when the bytes do not have this layout.
    public func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        switch self {
        case .isoLike: return TimestampLayout.parseISOLike(bytes)
        }
    }

    /// Parses a Swift string (tests, configuration): the hot path uses the byte form.
    public func parse(_ text: String) -> Timestamp? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    private static func parseISOLike(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        var cursor = ByteCursor(bytes)
        guard let year = cursor.digits(4), cursor.skip(UInt8(ascii: "-")),
            let month = cursor.digits(2), cursor.skip(UInt8(ascii: "-")),
            let day = cursor.digits(2)
        else { return nil }
        guard cursor.skip(UInt8(ascii: " ")) || cursor.skip(UInt8(ascii: "T")) else { return nil }
        guard let hour = cursor.digits(2), cursor.skip(UInt8(ascii: ":")),
            let minute = cursor.digits(2), cursor.skip(UInt8(ascii: ":")),
            let second = cursor.digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }

        var micros: Int64 = 0
        var fractionDigits: UInt8 = 0
        if cursor.skip(UInt8(ascii: ".")) || cursor.skip(UInt8(ascii: ",")) {
            var scale: Int64 = 100_000
            while let digit = cursor.digit() {
                if fractionDigits < 9 { fractionDigits += 1 }
                micros += Int64(digit) * scale
                scale /= 10
            }
            if fractionDigits == 0 { return nil }
        }

        var offset: Int32? = nil
        if cursor.skip(UInt8(ascii: "Z")) {
            offset = 0
        } else if let sign = cursor.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            cursor.advance()
            guard let hours = cursor.digits(2) else { return nil }
            _ = cursor.skip(UInt8(ascii: ":"))
            guard let minutes = cursor.digits(2), hours < 24, minutes < 60 else { return nil }
            let magnitude = Int32(hours * 3600 + minutes * 60)
            offset = sign == UInt8(ascii: "-") ? -magnitude : magnitude
        }
        guard cursor.isAtEnd else { return nil }

        let days = Timestamp.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(
            wallMicros: seconds * 1_000_000 + micros, utcOffsetSeconds: offset, fractionDigits: fractionDigits)
    }
}

/// A forward-only reader over bytes for the hand-written parsers.
struct ByteCursor {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func advance() { index += 1 }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count else { return nil }
        let value = Int(bytes[index]) &- 48
        guard value >= 0, value <= 9 else { return nil }
        index += 1
        return value
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
