/// How a format writes its timestamps; each layout parses bytes directly.
public enum TimestampLayout: String, Sendable, CaseIterable {
    /// `YYYY-MM-DD HH:MM:SS[.f…][±HHMM|±HH:MM|Z]` (a space or `T` between date and time): NSLog, `log show`.
    case isoLike = "iso-like"
    /// `Mmm dd HH:MM:SS[.f…]` with no year (BSD and device syslog): the year comes from ``DateInference``.
    case syslog
    /// `HH:MM:SS.f…[ ]±HHMM`, optionally after `YYYY-MM-DD ` (Console.app copies): a missing date comes from
    /// ``DateInference``.
    case timeOfDay = "time-of-day"

    /// What the layout looks like, for `trace-analyze formats` and error messages.
    public var shape: String {
        switch self {
        case .isoLike: return "YYYY-MM-DD HH:MM:SS[.f][±HHMM]"
        case .syslog: return "Mmm dd HH:MM:SS[.f] (no year)"
        case .timeOfDay: return "[YYYY-MM-DD ]HH:MM:SS[.f][ ±HHMM]"
        }
    }

    /// Parses the timestamp in `bytes`, or returns nil when the bytes do not have this layout.
    /// Year-less and date-less layouts take what is missing from `dates`, which follows the log's order.
    public func parse(_ bytes: UnsafeRawBufferPointer, dates: inout DateInference) -> Timestamp? {
        var cache = SecondCache()
        return parse(bytes, dates: &dates, cache: &cache)
    }

    /// ``parse(_:dates:)`` reusing the date and time to the second of the previous timestamp when its first 19
    /// bytes are the same: consecutive lines of a capture mostly share their second.
    @inline(__always)
    public func parse(_ bytes: UnsafeRawBufferPointer, dates: inout DateInference, cache: inout SecondCache)
        -> Timestamp?
    {
        switch self {
        case .isoLike: return TimestampLayout.parseISOLike(bytes, cache: &cache)
        case .syslog: return TimestampLayout.parseSyslog(bytes, dates: &dates, cache: &cache)
        case .timeOfDay:
            if bytes.count > 4, bytes[4] == UInt8(ascii: "-") {
                return TimestampLayout.parseISOLike(bytes, cache: &cache)
            }
            return TimestampLayout.parseTimeOfDay(bytes, dates: &dates)
        }
    }

    /// The first 19 bytes of the last ISO-like timestamp read (`YYYY-MM-DD HH:MM:SS`) and what they meant.
    public struct SecondCache: Sendable {
        fileprivate var key: (UInt64, UInt64, UInt32)?
        /// Seconds since 1970 of the wall clock, nil when those bytes are no date and time.
        fileprivate var seconds: Int64?
        /// The bytes after the fraction of the last timestamp whose were eight or fewer (its zone: `-0500`,
        /// `+05:30`, `Z`, nothing), as a little-endian word, their count, and what ``parseOffset(_:)`` made of
        /// them: consecutive lines mostly share their zone too.
        fileprivate var zoneKey: (word: UInt64, count: Int) = (0, -1)
        fileprivate var zone: Int32?? = nil
        /// The first seven bytes of the last syslog timestamp read (`Mmm dd `, or `Mmm d H` without the day's
        /// padding), the days since 1970 of its date and where its time of day began: the lines of one day
        /// repeat them, and their year is the last one's (the inference moves only when the month does).
        fileprivate var syslogKey: UInt64?
        fileprivate var syslogDays: Int64 = 0
        fileprivate var syslogClock = 0
        /// The eight bytes of the last syslog time of day read (`HH:MM:SS`) and its seconds.
        fileprivate var syslogTimeKey: UInt64?
        fileprivate var syslogTimeSeconds: Int64 = 0

        public init() {}
    }

    /// Parses a Swift string (tests, configuration): the hot path uses the byte form. Missing years and dates
    /// are read as if the log ended at ``DateInference/sampleReference``.
    public func parse(_ text: String) -> Timestamp? {
        var copy = text
        var dates = DateInference(reference: DateInference.sampleReference)
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0), dates: &dates) }
    }

    private static let monthNames: [(UInt8, UInt8, UInt8)] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ].map { name in
        let bytes = Array(name.utf8)
        return (bytes[0], bytes[1], bytes[2])
    }

    private static func parseSyslog(
        _ bytes: UnsafeRawBufferPointer, dates: inout DateInference, cache: inout SecondCache
    ) -> Timestamp? {
        guard bytes.count >= 15, let base = bytes.baseAddress else { return nil }
        let key = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) & 0x00FF_FFFF_FFFF_FFFF
        if cache.syslogKey == key {
            // The date of the last timestamp, read from the same bytes: its month and day, and the year the
            // inference gave them (asked again for the same month, it would change nothing).
            guard let clock = syslogClock(bytes, from: cache.syslogClock, cache: &cache) else { return nil }
            return Timestamp(
                wallMicros: (cache.syslogDays * 86_400 + clock.seconds) * 1_000_000 + clock.micros,
                utcOffsetSeconds: nil, fractionDigits: clock.fractionDigits)
        }
        let name = (bytes[0], bytes[1], bytes[2])
        guard let monthIndex = monthNames.firstIndex(where: { $0 == name }), bytes[3] == Bytes.space else {
            return nil
        }
        var cursor = ByteCursor(bytes)
        cursor.index = 4
        _ = cursor.skip(Bytes.space)
        guard let day = cursor.digit() else { return nil }
        var dayOfMonth = day
        if let second = cursor.digit() { dayOfMonth = day * 10 + second }
        guard cursor.skip(Bytes.space), (1...31).contains(dayOfMonth) else { return nil }
        let clockStart = cursor.index
        guard let clock = syslogClock(bytes, from: clockStart, cache: &cache) else { return nil }
        let month = monthIndex + 1
        let year = dates.year(month: month, day: dayOfMonth)
        let days = Timestamp.days(year: year, month: month, day: dayOfMonth)
        (cache.syslogKey, cache.syslogDays, cache.syslogClock) = (key, days, clockStart)
        return Timestamp(
            wallMicros: (days * 86_400 + clock.seconds) * 1_000_000 + clock.micros, utcOffsetSeconds: nil,
            fractionDigits: clock.fractionDigits)
    }

    /// `HH:MM:SS[.f…]` from `start` to the end of `bytes`, as ``parseClock(_:)`` reads it, the seconds of the
    /// day reused while their eight bytes repeat.
    @inline(__always)
    private static func syslogClock(_ bytes: UnsafeRawBufferPointer, from start: Int, cache: inout SecondCache) -> (
        seconds: Int64, micros: Int64, fractionDigits: UInt8
    )? {
        guard start &+ 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let key = base.loadUnaligned(fromByteOffset: start, as: UInt64.self)
        let seconds: Int64
        if cache.syslogTimeKey == key {
            seconds = cache.syslogTimeSeconds
        } else {
            var cursor = ByteCursor(bytes)
            cursor.index = start
            guard let parsed = parseSecondOfDay(&cursor) else { return nil }  // eight bytes when it gives a time
            (cache.syslogTimeKey, cache.syslogTimeSeconds) = (key, parsed)
            seconds = parsed
        }
        guard let (micros, digits, end) = fraction(bytes, from: start &+ 8), end == bytes.count else { return nil }
        return (seconds, micros, digits)
    }

    private static func parseTimeOfDay(_ bytes: UnsafeRawBufferPointer, dates: inout DateInference) -> Timestamp? {
        var cursor = ByteCursor(bytes)
        guard let clock = parseClock(&cursor) else { return nil }
        guard let offset = parseOffset(&cursor), cursor.isAtEnd else { return nil }
        let days = dates.day(secondsOfDay: clock.seconds)
        return Timestamp(
            wallMicros: (days * 86_400 + clock.seconds) * 1_000_000 + clock.micros, utcOffsetSeconds: offset,
            fractionDigits: clock.fractionDigits)
    }

    /// `Z`, `±HHMM`, `±HH:MM` (after at most one space), or nothing: `.some(nil)`; nil when malformed.
    private static func parseOffset(_ cursor: inout ByteCursor) -> Int32?? {
        if cursor.peek() == Bytes.space, cursor.index + 1 < cursor.bytes.count,
            cursor.bytes[cursor.index + 1] == UInt8(ascii: "+") || cursor.bytes[cursor.index + 1] == UInt8(ascii: "-")
        {
            cursor.advance()
        }
        if cursor.skip(UInt8(ascii: "Z")) { return .some(0) }
        guard let sign = cursor.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            return .some(nil)
        }
        cursor.advance()
        guard let hours = cursor.digits(2) else { return nil }
        _ = cursor.skip(UInt8(ascii: ":"))
        guard let minutes = cursor.digits(2), hours < 24, minutes < 60 else { return nil }
        let magnitude = Int32(hours * 3600 + minutes * 60)
        return .some(sign == UInt8(ascii: "-") ? -magnitude : magnitude)
    }

    /// `HH:MM:SS[.f…]`: seconds of the day, microseconds and the digits written.
    private static func parseClock(_ cursor: inout ByteCursor) -> (
        seconds: Int64, micros: Int64, fractionDigits: UInt8
    )? {
        guard let seconds = parseSecondOfDay(&cursor), let fraction = parseFraction(&cursor) else { return nil }
        return (seconds, fraction.micros, fraction.digits)
    }

    /// `HH:MM:SS`: seconds of the day.
    private static func parseSecondOfDay(_ cursor: inout ByteCursor) -> Int64? {
        guard let hour = cursor.digits(2), cursor.skip(UInt8(ascii: ":")),
            let minute = cursor.digits(2), cursor.skip(UInt8(ascii: ":")),
            let second = cursor.digits(2), hour < 24, minute < 60, second < 61
        else { return nil }
        return Int64(hour * 3600 + minute * 60 + second)
    }

    /// The number the first `count` bytes of `word` (1 to 7 ASCII digits, the first lowest) write: the digits
    /// are moved to the top of the word behind zeros and the eight combined pairwise (SWAR).
    @inline(__always)
    static func decimal(digits word: UInt64, count: Int) -> Int64 {
        let shift = UInt64(8 * (8 - count))
        var value = ((word << shift) | (0x3030_3030_3030_3030 >> UInt64(8 * count))) &- 0x3030_3030_3030_3030
        value = (value &* 10 &+ (value >> 8)) & 0x00FF_00FF_00FF_00FF
        value = (value &* 100 &+ (value >> 16)) & 0x0000_FFFF_0000_FFFF
        value = (value &* 10_000 &+ (value >> 32)) & 0xFFFF_FFFF
        return Int64(value)
    }

    /// What `k` fraction digits are multiplied by to give microseconds.
    private static let microScale: [Int64] = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1]

    /// `[.f…]` or `[,f…]`: microseconds and the digits written (0 when there is no fraction).
    private static func parseFraction(_ cursor: inout ByteCursor) -> (micros: Int64, digits: UInt8)? {
        var micros: Int64 = 0
        var fractionDigits: UInt8 = 0
        if cursor.skip(UInt8(ascii: ".")) || cursor.skip(UInt8(ascii: ",")) {
            // The first six digits are the microseconds; more are counted (up to nine) but not kept.
            var kept = 0
            while let digit = cursor.digit() {
                if fractionDigits < 9 { fractionDigits += 1 }
                if kept < 6 {
                    micros = micros &* 10 &+ Int64(digit)
                    kept += 1
                }
            }
            if fractionDigits == 0 { return nil }
            micros &*= Self.microScale[kept]
        }
        return (micros, fractionDigits)
    }

    /// `YYYY-MM-DD[ T]HH:MM:SS`, always the first 19 bytes: seconds since 1970 of the wall clock.
    private static func parseDateAndTime(_ cursor: inout ByteCursor) -> Int64? {
        guard let year = cursor.digits(4), cursor.skip(UInt8(ascii: "-")),
            let month = cursor.digits(2), cursor.skip(UInt8(ascii: "-")),
            let day = cursor.digits(2)
        else { return nil }
        guard cursor.skip(UInt8(ascii: " ")) || cursor.skip(UInt8(ascii: "T")) else { return nil }
        // An impossible date (2023-02-29, 2024-04-31) is no time at all, not a day of the next month.
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
            let seconds = parseSecondOfDay(&cursor)
        else { return nil }
        return Timestamp.days(year: year, month: month, day: day) * 86_400 + seconds
    }

    /// `[.,]f…` at `start` of `bytes` (8 bytes or more), as ``parseFraction(_:)`` reads it: the microseconds (the
    /// first six digits), how many digits there were (up to nine counted), and where they end; no fraction when
    /// neither separator is there, nil when one is and no digit follows.
    @inline(__always)
    private static func fraction(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (
        micros: Int64, digits: UInt8, end: Int
    )? {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        var micros: Int64 = 0
        var fractionDigits: UInt8 = 0
        if index < count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index &+= 1
            // A run of fewer than eight digits is measured and read at once: from the eight bytes at `index`, or,
            // nearer the end, from the word that ends the buffer shifted down (zeros come in above its last byte).
            var run = 8
            if index < count {
                let word =
                    index &+ 8 <= count
                    ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    : UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                        >> UInt64(8 &* (8 &- (count &- index)))
                run = NSLogHeader.nonDigits(word).trailingZeroBitCount >> 3
                if run < 8 {
                    guard run > 0 else { return nil }
                    let value = Self.decimal(digits: word, count: run)
                    micros = run <= 6 ? value &* Self.microScale[run] : value / 10
                    fractionDigits = UInt8(run)
                    index &+= run
                }
            }
            if run == 8 {
                var kept = 0
                while index < count {
                    let digit = bytes[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { break }
                    if fractionDigits < 9 { fractionDigits += 1 }
                    if kept < 6 {
                        micros = micros &* 10 &+ Int64(digit)
                        kept += 1
                    }
                    index &+= 1
                }
                if fractionDigits == 0 { return nil }
                micros &*= Self.microScale[kept]
            }
        }
        return (micros, fractionDigits, index)
    }

    @inline(__always)
    private static func parseISOLike(_ bytes: UnsafeRawBufferPointer, cache: inout SecondCache) -> Timestamp? {
        let count = bytes.count
        guard count >= 19, let base = bytes.baseAddress else { return nil }
        let key = (
            base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            base.loadUnaligned(fromByteOffset: 15, as: UInt32.self)
        )
        let seconds: Int64?
        if let known = cache.key, known == key {
            seconds = cache.seconds
        } else {
            var cursor = ByteCursor(bytes)
            seconds = parseDateAndTime(&cursor)  // reads exactly 19 bytes when it gives a time
            cache.key = key
            cache.seconds = seconds
        }
        guard let seconds, let (micros, fractionDigits, index) = fraction(bytes, from: 19) else { return nil }
        // The zone: the rest of the bytes, the same as the last timestamp's more often than not.
        let rest = count &- index
        let offset: Int32?
        if rest <= 8 {
            // The last `rest` bytes, read as the top of the word that ends the buffer (19 bytes or more).
            let word =
                rest == 0
                ? 0
                : UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                    >> UInt64(8 &* (8 &- rest))
            if cache.zoneKey.count == rest, cache.zoneKey.word == word {
                guard let known = cache.zone else { return nil }
                offset = known
            } else {
                var cursor = ByteCursor(bytes)
                cursor.index = index
                let parsed = parseOffset(&cursor)
                let zone: Int32?? = cursor.isAtEnd ? parsed : nil
                cache.zoneKey = (word, rest)
                cache.zone = zone
                guard let zone else { return nil }
                offset = zone
            }
        } else {
            var cursor = ByteCursor(bytes)
            cursor.index = index
            guard let zone = parseOffset(&cursor), cursor.isAtEnd else { return nil }
            offset = zone
        }
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

/// What a timestamp leaves out: the year (syslog) or the whole date (Console.app's time column).
///
/// The year is given (`--year`) or guessed from a reference, the moment the log is taken to end near (the file's
/// modification time, or now for standard input); then it is carried along as the months wrap at New Year. A
/// missing date is the reference's day (or the day before, when the first time is later in the day than the
/// reference), carried along as the clock wraps at midnight.
public struct DateInference: Sendable, Equatable {
    /// A wall-clock moment: a civil date and the seconds since its midnight.
    public struct Moment: Sendable, Equatable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var secondsOfDay: Int64

        public init(year: Int, month: Int, day: Int, secondsOfDay: Int64) {
            self.year = year
            self.month = month
            self.day = day
            self.secondsOfDay = secondsOfDay
        }
    }

    /// Samples of year-less formats are read as if their log ended at the last second of 2024.
    public static let sampleReference = Moment(year: 2024, month: 12, day: 31, secondsOfDay: 86_399)

    /// The year of the first year-less line, as the user stated it (`--year`).
    public let explicitYear: Int?
    /// The moment the log is taken to end near.
    public let reference: Moment
    /// The year assigned to the first year-less timestamp, once one was read.
    public private(set) var firstYear: Int?
    /// Times the months wrapped at New Year (or stepped back across it).
    public private(set) var rollovers = 0
    private var year = 0
    private var lastMonth = 0
    /// The day (since 1970-01-01) given to the first date-less timestamp, once one was read.
    public private(set) var firstDay: Int64?
    private var day: Int64?
    private var lastSeconds: Int64 = 0

    public init(explicitYear: Int? = nil, reference: Moment) {
        self.explicitYear = explicitYear
        self.reference = reference
    }

    /// The year of a timestamp in `month` and `day`, following the log's order.
    public mutating func year(month: Int, day: Int) -> Int {
        if firstYear == nil {
            if let explicitYear {
                year = explicitYear
            } else {
                year = (month, day) > (reference.month, reference.day + 1) ? reference.year - 1 : reference.year
            }
            firstYear = year
        } else if month < lastMonth - 6 {
            year += 1
            rollovers += 1
        } else if month > lastMonth + 6 {
            year -= 1
            rollovers += 1
        }
        lastMonth = month
        return year
    }

    /// Days since 1970-01-01 of a date-less time of day, following the log's order.
    public mutating func day(secondsOfDay seconds: Int64) -> Int64 {
        let halfDay: Int64 = 43_200
        if let current = day {
            if seconds < lastSeconds - halfDay {
                day = current + 1
            } else if seconds > lastSeconds + halfDay {
                day = current - 1
            }
        } else {
            let referenceDay = Timestamp.days(year: reference.year, month: reference.month, day: reference.day)
            day = seconds > reference.secondsOfDay + 3600 ? referenceDay - 1 : referenceDay
            firstDay = day
        }
        lastSeconds = seconds
        return day ?? 0
    }
}
