import NativeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IANA time zone read from the system's zoneinfo files (TZif, RFC 8536): the UTC offset in force at any
/// instant, from the file's transitions and, past the last one, its POSIX rule (`CET-1CEST,M3.5.0,M10.5.0/3`).
/// Debian's files are "slim": a zone that still changes its clocks holds its rule, not the transitions of years
/// to come.
struct ZoneInfo: Sendable {
    /// The name the zone was asked for (`Europe/Paris`).
    let identifier: String
    /// Instants (seconds since 1970, UTC) at which the offset changes, in order, and the offset from each on.
    private let transitions: [Int64]
    private let offsets: [Int32]
    /// The offset before the first transition.
    private let initialOffset: Int32
    /// The rule past the last transition, when the file has one.
    private let rule: PosixRule?

    /// The folders zoneinfo files are looked for in (`TZDIR` first, as the C library does).
    static var directories: [String] {
        var folders = ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo", "/usr/lib/zoneinfo"]
        if let dir = getenv("TZDIR").map({ String(cString: $0) }), !dir.isEmpty { folders.insert(dir, at: 0) }
        return folders
    }

    /// Abbreviations ICU (and so the earlier Foundation-based reader) took as zone names, and the zones they meant.
    private static let abbreviations = [
        "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "MDT": "America/Denver",
        "CST": "America/Chicago", "CDT": "America/Chicago", "EDT": "America/New_York",
        "AKST": "America/Anchorage", "AKDT": "America/Anchorage",
    ]

    /// The machine's zone (``local(tz:)`` of this process's `TZ`), read once: every input's parser and dates ask for
    /// it.
    static let machine = local(tz: getenv("TZ").map { String(cString: $0) })

    /// The zones read so far by name, and those no file holds (each input's parser asks for its zone).
    private final class Cache: @unchecked Sendable {
        let lock = Lock()
        var zones: [String: ZoneInfo?] = [:]
    }

    private static let cache = Cache()

    /// The zone of a name, read once (``init(named:)``).
    static func cached(named name: String) -> ZoneInfo? {
        cache.lock.withLock {
            if let zone = cache.zones[name] { return zone }
            let zone = ZoneInfo(named: name)
            cache.zones[name] = zone
            return zone
        }
    }

    /// The zone of an IANA name (`Europe/Paris`, `UTC`, `EST5EDT`), nil when no zoneinfo file of that name reads.
    init?(named name: String) {
        let file = Self.abbreviations[name] ?? name
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard !file.isEmpty, !file.hasPrefix("/"),
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
            !["posixrules", "localtime"].contains(file), parts[0] != "posix", parts[0] != "right"
        else { return nil }
        for folder in Self.directories {
            if let zone = Self.read(path: folder + "/" + file, identifier: name) {
                self = zone
                return
            }
        }
        return nil
    }

    /// The machine's zone for a value of `TZ` (a zone name, `:name`, or a zoneinfo file's path), else
    /// `/etc/localtime`, named by where its link points (`Etc/UTC`); UTC when neither reads.
    static func local(tz: String?) -> ZoneInfo {
        if var name = tz, !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if name.hasPrefix("/") {
                if let zone = read(path: name, identifier: identifier(ofPath: name)) { return zone }
            } else if let zone = ZoneInfo(named: name) {
                return zone
            }
        }
        let path = "/etc/localtime"
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &target, target.count - 1)
        let name =
            length > 0
            ? identifier(ofPath: String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
            : "UTC"
        return read(path: path, identifier: name) ?? utc
    }

    static let utc = ZoneInfo(identifier: "UTC", transitions: [], offsets: [], initialOffset: 0, rule: nil)

    /// `Europe/Paris` for `/usr/share/zoneinfo/Europe/Paris`.
    private static func identifier(ofPath path: String) -> String {
        guard let range = path.firstRange(of: "zoneinfo/") else { return path }
        return String(path[range.upperBound...])
    }

    private init(identifier: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32, rule: PosixRule?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// The offset (seconds east of UTC) in force at an instant.
    func offset(atInstant seconds: Int64) -> Int32 {
        if let rule, transitions.isEmpty || seconds >= transitions[transitions.count - 1] {
            return rule.offset(atInstant: seconds)
        }
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// A zoneinfo file read, nil when it is not one (missing, unreadable, not TZif, cut short).
    static func read(path: String, identifier: String) -> ZoneInfo? {
        guard let bytes = try? FileBytes.read(path) else { return nil }
        return parse(bytes, identifier: identifier)
    }

    /// The zone a TZif file's bytes describe: the version 1 block of 32-bit times, or, from version 2 on, the
    /// block of 64-bit times after it and the POSIX rule in the footer.
    static func parse(_ bytes: [UInt8], identifier: String) -> ZoneInfo? {
        var reader = ByteReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var counts = header.counts
        var timeSize = 4
        if header.version >= UInt8(ascii: "2") {
            guard reader.skip(counts.dataSize(timeSize: 4)), let second = reader.header() else { return nil }
            counts = second.counts
            timeSize = 8
        }
        var transitions: [Int64] = []
        var indices: [Int] = []
        for _ in 0..<counts.times {
            guard let time = timeSize == 8 ? reader.int64() : reader.int32().map(Int64.init) else { return nil }
            transitions.append(time)
        }
        for _ in 0..<counts.times {
            guard let index = reader.byte(), Int(index) < counts.types else { return nil }
            indices.append(Int(index))
        }
        var types: [Int32] = []
        for _ in 0..<counts.types {
            guard let offset = reader.int32(), reader.skip(2) else { return nil }  // isdst and the name's index
            types.append(offset)
        }
        guard !types.isEmpty || counts.times == 0,
            reader.skip(counts.chars + counts.leaps * (timeSize + 4) + counts.standards + counts.universals)
        else { return nil }
        var rule: PosixRule?
        if timeSize == 8, let footer = reader.footer(), !footer.isEmpty {
            rule = PosixRule(footer)
        }
        return ZoneInfo(
            identifier: identifier, transitions: transitions, offsets: indices.map { types[$0] },
            initialOffset: types.first ?? 0, rule: rule)
    }

    /// The counts a TZif header gives.
    private struct Counts {
        var universals = 0, standards = 0, leaps = 0, times = 0, types = 0, chars = 0

        func dataSize(timeSize: Int) -> Int {
            times * timeSize + times + types * 6 + chars + leaps * (timeSize + 4) + standards + universals
        }
    }

    /// Big-endian reads from the file's bytes; nil past the end.
    private struct ByteReader {
        let bytes: [UInt8]
        var index = 0

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= bytes.count - index else { return false }
            index += count
            return true
        }

        mutating func byte() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func int32() -> Int32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(bytes[index]); index += 1 }
            return Int32(bitPattern: value)
        }

        mutating func int64() -> Int64? {
            guard let high = int32(), let low = int32() else { return nil }
            return Int64(high) << 32 | Int64(UInt32(bitPattern: low))
        }

        /// "TZif", the version, 15 bytes kept for later, then six counts.
        mutating func header() -> (version: UInt8, counts: Counts)? {
            guard bytes.count - index >= 44, bytes[index..<index + 4].elementsEqual("TZif".utf8) else { return nil }
            let version = bytes[index + 4]
            index += 20
            var counts = Counts()
            var values: [Int] = []
            for _ in 0..<6 {
                guard let value = int32(), value >= 0 else { return nil }
                values.append(Int(value))
            }
            (counts.universals, counts.standards, counts.leaps) = (values[0], values[1], values[2])
            (counts.times, counts.types, counts.chars) = (values[3], values[4], values[5])
            return (version, counts)
        }

        /// The text between the newlines that end the file.
        mutating func footer() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\n"),
                let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n"))
            else { return nil }
            return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        }
    }
}

/// A POSIX `TZ` rule, as zoneinfo files end with: a standard offset and, for a zone with daylight saving time, its
/// offset and the two dates and times it starts and ends each year (`EST5EDT,M3.2.0,M11.1.0`). Offsets are written
/// west of UTC (`EST5` is UTC−5); a name may be quoted (`<+0330>-3:30`).
struct PosixRule: Sendable {
    /// Seconds east of UTC.
    let standard: Int32
    let daylight: Int32?
    let start: Change?
    let end: Change?

    /// A day of the year and the local time (seconds, may be negative or past 24 hours) the clocks change at.
    struct Change: Sendable {
        enum Day: Sendable {
            /// `Jn`: day 1–365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0–365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5: the last) of month `m`.
            case weekday(month: Int, week: Int, day: Int)
        }
        let day: Day
        let time: Int64
    }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        // An offset is less than 25 hours either way (RFC 8536); a larger one is not a zone's.
        let limit = 25 * 3600
        guard scanner.name(), let standardWest = scanner.offset(), abs(standardWest) < limit else { return nil }
        standard = Int32(-standardWest)
        guard !scanner.atEnd else {
            (daylight, start, end) = (nil, nil, nil)
            return
        }
        guard scanner.name() else { return nil }
        var daylightWest = standardWest - 3600
        if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
            guard let west = scanner.offset(), abs(west) < limit else { return nil }
            daylightWest = west
        }
        daylight = Int32(-daylightWest)
        if scanner.atEnd {
            // No dates: POSIX's default, the United States' rule.
            start = Change(day: .weekday(month: 3, week: 2, day: 0), time: 7200)
            end = Change(day: .weekday(month: 11, week: 1, day: 0), time: 7200)
            return
        }
        guard scanner.take(UInt8(ascii: ",")), let first = scanner.change(), scanner.take(UInt8(ascii: ",")),
            let second = scanner.change(), scanner.atEnd
        else { return nil }
        (start, end) = (first, second)
    }

    /// The offset in force at an instant.
    func offset(atInstant seconds: Int64) -> Int32 {
        guard let daylight, let start, let end else { return standard }
        let year = Timestamp.civil(fromDays: Timestamp.floorDivide(seconds + Int64(standard), 86_400).0).year
        // The instants (UTC) daylight time starts (a standard-time clock reading) and ends (a daylight one).
        let begins = Self.instant(of: start, year: year) - Int64(standard)
        let ends = Self.instant(of: end, year: year) - Int64(daylight)
        let inDaylight = begins < ends ? (seconds >= begins && seconds < ends) : (seconds < ends || seconds >= begins)
        return inDaylight ? daylight : standard
    }

    /// The local clock reading, as seconds since 1970, of a change in a year.
    private static func instant(of change: Change, year: Int) -> Int64 {
        let january1 = Timestamp.days(year: year, month: 1, day: 1)
        let leap = Timestamp.daysIn(month: 2, year: year) == 29
        let day: Int64
        switch change.day {
        case .julian(let n): day = january1 + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n): day = january1 + Int64(n)
        case .weekday(let month, let week, let weekday):
            let first = Timestamp.days(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (4).
            let firstWeekday = Int((first % 7 + 11) % 7)
            var date = first + Int64((weekday - firstWeekday + 7) % 7) + Int64(week - 1) * 7
            let nextMonth = first + Int64(Timestamp.daysIn(month: month, year: year))
            while date >= nextMonth { date -= 7 }
            day = date
        }
        return day * 86_400 + change.time
    }

    /// Reads the rule's parts from its bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or anything between `<` and `>`.
        mutating func name() -> Bool {
            if take(UInt8(ascii: "<")) {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return false }
                index = close + 1
                return true
            }
            let start = index
            while let byte = peek, (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") { index += 1 }
            return index - start >= 3
        }

        mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 6 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return digits == 0 ? nil : value
        }

        /// `[+|-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            let negative = take(UInt8(ascii: "-"))
            if !negative { _ = take(UInt8(ascii: "+")) }
            guard let hours = number() else { return nil }
            var seconds = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number() else { return nil }
                seconds += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let rest = number() else { return nil }
                    seconds += rest
                }
            }
            return negative ? -seconds : seconds
        }

        /// `Jn`, `n` or `Mm.w.d`, then `/time` (02:00 when absent).
        mutating func change() -> Change? {
            let day: Change.Day
            if take(UInt8(ascii: "J")) {
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if take(UInt8(ascii: "M")) {
                guard let month = number(), (1...12).contains(month), take(UInt8(ascii: ".")),
                    let week = number(), (1...5).contains(week), take(UInt8(ascii: ".")),
                    let weekday = number(), (0...6).contains(weekday)
                else { return nil }
                day = .weekday(month: month, week: week, day: weekday)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time: Int64 = 7200
            if take(UInt8(ascii: "/")) {
                guard let seconds = offset() else { return nil }
                time = Int64(seconds)
            }
            return Change(day: day, time: time)
        }
    }
}
