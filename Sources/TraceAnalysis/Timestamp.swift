/// A log timestamp as written: the wall-clock time, its UTC offset when the log gave one, and its precision.
///
/// Parsed straight from bytes (no DateFormatter). A zone-less timestamp is shown as written; the offset of the
/// zone it is assumed to be in (local time, or `--timezone`) is kept beside it and used for instants and
/// differences, so durations across a daylight-saving change and mixes of zoned and zone-less lines are right.
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Microseconds since 1970-01-01 00:00:00 of the wall clock the log was written in.
    public var wallMicros: Int64
    /// The UTC offset in seconds, when the log states one.
    public var utcOffsetSeconds: Int32?
    /// Digits of fractional seconds the log wrote (0, 3 for ms, 6 for µs, up to 9).
    public var fractionDigits: UInt8
    /// For a zone-less timestamp: the UTC offset of the zone it is taken to be in.
    public var assumedOffsetSeconds: Int32?

    public init(wallMicros: Int64, utcOffsetSeconds: Int32?, fractionDigits: UInt8, assumedOffsetSeconds: Int32? = nil)
    {
        self.wallMicros = wallMicros
        self.utcOffsetSeconds = utcOffsetSeconds
        self.fractionDigits = fractionDigits
        self.assumedOffsetSeconds = assumedOffsetSeconds
    }

    /// Microseconds since the Unix epoch in UTC when the offset is known or assumed; the wall-clock value otherwise.
    public var instantMicros: Int64 {
        guard let offset = utcOffsetSeconds ?? assumedOffsetSeconds else { return wallMicros }
        return wallMicros - Int64(offset) * 1_000_000
    }

    /// The smallest step the log's precision can show, in milliseconds (1000 for whole seconds).
    public var resolutionMs: Double {
        var resolution = 1000.0
        for _ in 0..<min(Int(fractionDigits), 6) { resolution /= 10 }
        return resolution
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.instantMicros < rhs.instantMicros }

    /// Milliseconds from `self` to `later` (negative if `later` is earlier).
    public func milliseconds(to later: Timestamp) -> Double {
        Double(later.instantMicros - instantMicros) / 1000
    }

    /// ISO 8601 text with the precision and the offset the log had: `2019-05-04T10:46:18.564743-05:00`.
    public var iso8601: String {
        let (days, secondsOfDay) = Timestamp.floorDivide(wallMicros, 86_400_000_000)
        let (year, month, day) = Timestamp.civil(fromDays: days)
        let micros = secondsOfDay % 1_000_000
        let seconds = secondsOfDay / 1_000_000
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(Int(seconds / 3600), 2)):\(pad(Int(seconds / 60 % 60), 2)):\(pad(Int(seconds % 60), 2))"
        if fractionDigits > 0 {
            let digits = min(Int(fractionDigits), 6)
            var fraction = Int(micros)
            for _ in digits..<6 { fraction /= 10 }
            text += "." + pad(fraction, digits)
        }
        if let utcOffsetSeconds {
            if utcOffsetSeconds == 0 {
                text += "Z"
            } else {
                let magnitude = Int(abs(utcOffsetSeconds))
                text +=
                    (utcOffsetSeconds < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
            }
        }
        return text
    }

    /// The time of day as the log wrote it, for compact reports: `12:24:09.948`.
    /// (The part of ``iso8601`` between its `T` and its zone, written as ``writeISO8601(into:dates:)`` writes it:
    /// reports write one per event and per episode, and an ISO string made and cut for each cost 11 % of a big
    /// HTML report.)
    public var timeOfDay: String {
        let microsOfDay = Timestamp.floorDivide(wallMicros, 86_400_000_000).1
        return String(unsafeUninitializedCapacity: Timestamp.timeOfDayCapacity) { text in
            guard let start = text.baseAddress else { return 0 }
            return writeTimeOfDay(microsOfDay, at: start)
        }
    }

    /// The most bytes ``writeTimeOfDay(_:at:)`` writes: `HH:MM:SS.ffffff`.
    static let timeOfDayCapacity = 15

    /// Writes the time of day `microsOfDay` (microseconds since midnight) at `start` as ``iso8601`` writes it
    /// (`HH:MM:SS`, then `.` and the fraction's first ``fractionDigits``, at most six, when there are any), and
    /// returns how many bytes.
    @inline(__always)
    func writeTimeOfDay(_ microsOfDay: Int64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var out = Digits(start: start)
        let seconds = Int(microsOfDay / 1_000_000)
        out.two(seconds / 3600)
        out.put(":")
        out.two(seconds / 60 % 60)
        out.put(":")
        out.two(seconds % 60)
        guard fractionDigits > 0 else { return out.count }
        let digits = min(Int(fractionDigits), 6)
        out.put(".")
        var fraction = Int(microsOfDay % 1_000_000)
        if digits == 3 {
            // Milliseconds and microseconds, the usual precisions, by pairs.
            fraction /= 1000
            out.one(fraction / 100)
            out.two(fraction % 100)
        } else if digits == 6 {
            out.two(fraction / 10_000)
            out.two(fraction / 100 % 100)
            out.two(fraction % 100)
        } else {
            for _ in digits..<6 { fraction /= 10 }
            for index in stride(from: out.count + digits - 1, through: out.count, by: -1) {
                start[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                fraction /= 10
            }
            out.count += digits
        }
        return out.count
    }

    /// Bytes stored one after another from `start`: the fields of a timestamp that fit their width, digit by
    /// digit, most as two (no counting of digits, no loop).
    struct Digits {
        let start: UnsafeMutablePointer<UInt8>
        var count = 0

        @inline(__always)
        mutating func one(_ value: Int) {
            start[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            count += 1
        }

        @inline(__always)
        mutating func two(_ value: Int) {
            start[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
            start[count + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            count += 2
        }

        @inline(__always)
        mutating func put(_ byte: Unicode.Scalar) {
            start[count] = UInt8(ascii: byte)
            count += 1
        }
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, Howard Hinnant's algorithms)

    /// Days in `month` (1–12) of `year` (proleptic Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a civil date.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b
        var r = a % b
        if r < 0 {
            q -= 1
            r += b
        }
        return (q, r)
    }
}
