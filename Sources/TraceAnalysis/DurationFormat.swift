/// Renders durations for people.
public enum DurationFormat {
    /// `0.4 ms`, `27 ms`, `6.56 s`, `2 min 5 s`.
    public static func text(_ ms: Double) -> String {
        String(unsafeUninitializedCapacity: capacity) { text in
            guard let start = text.baseAddress else { return 0 }
            return write(ms, at: start)
        }
    }

    /// The most bytes ``write(_:at:)`` writes.
    static let capacity = 2 * JSONWriter.decimalCapacity + 8

    /// Writes ``text(_:)`` of `ms` at `text` (room for ``capacity`` bytes), and returns how many bytes: under a
    /// millisecond to two decimals, under ten to one, under a second none; seconds to two decimals under a minute;
    /// then whole minutes and seconds. Trailing zeros of the decimals are dropped, with the point when none is left.
    static func write(_ ms: Double, at text: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = abs(ms)
        var count: Int
        if magnitude < 1000 {
            count = writeRounded(ms, places: magnitude < 1 ? 2 : magnitude < 10 ? 1 : 0, at: text)
            count += put(" ms", at: text + count)
        } else if magnitude < 60_000 {
            count = writeRounded(ms / 1000, places: 2, at: text)
            count += put(" s", at: text + count)
        } else {
            let totalSeconds = Int((ms / 1000).rounded())
            count = JSONWriter.writeDecimal(totalSeconds / 60, at: text)
            count += put(" min ", at: text + count)
            count += JSONWriter.writeDecimal(totalSeconds % 60, at: text + count)
            count += put(" s", at: text + count)
        }
        return count
    }

    /// `value` rounded to `places` (0, 1 or 2) decimals, as the shortest decimal that reads back as that double:
    /// the rounded hundredths (or tenths) with their trailing zeros dropped, exact for a duration's magnitudes
    /// (far below 2⁵³ hundredths).
    private static func writeRounded(_ value: Double, places: Int, at text: UnsafeMutablePointer<UInt8>) -> Int {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * scale).rounded()
        let rounded = scaled / scale
        guard rounded != rounded.rounded() else { return JSONWriter.writeDecimal(Int(rounded), at: text) }
        let units = Int(scaled)
        let perUnit = Int(scale)
        var count = 0
        if units < 0 {
            text[0] = UInt8(ascii: "-")
            count = 1
        }
        count += JSONWriter.writeDecimal(Int(units.magnitude) / perUnit, at: text + count)
        text[count] = UInt8(ascii: ".")
        count += 1
        var fraction = Int(units.magnitude) % perUnit
        var width = places
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        return count + JSONWriter.writeDecimal(fraction, width: width, at: text + count)
    }

    static func round(_ value: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    static func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func put(_ literal: StaticString, at text: UnsafeMutablePointer<UInt8>) -> Int {
        text.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return literal.utf8CodeUnitCount
    }
}
