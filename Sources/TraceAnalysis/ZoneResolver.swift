/// The time zone zone-less timestamps are read in: the machine's local zone unless `--timezone` says otherwise.
public enum ZoneSetting: Sendable, Equatable, CustomStringConvertible {
    /// The local zone of the machine running the analysis (`TZ`, else `/etc/localtime`).
    case local
    /// A fixed UTC offset in seconds (`UTC`, `+02:00`).
    case offset(Int32)
    /// An IANA zone (`Europe/Paris`), with its daylight-saving rules.
    case named(String)

    /// Reads `UTC`, `Z`, `±HH:MM`, `±HHMM`, `±HH`, `local` or an IANA zone name; nil when it is none of them.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: " ")
        switch trimmed {
        case "local": self = .local
        case "UTC", "utc", "Z", "GMT": self = .offset(0)
        default:
            if let sign = trimmed.first, sign == "+" || sign == "-" {
                let digits = trimmed.dropFirst().filter { $0 != ":" }
                guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                    digits.count == 2 || digits.count == 4,
                    let hours = Int32(digits.prefix(2)),
                    let minutes = Int32(digits.count == 4 ? digits.suffix(2) : "0"),
                    hours <= 14, minutes < 60
                else { return nil }
                let magnitude = hours * 3600 + minutes * 60
                self = .offset(sign == "-" ? -magnitude : magnitude)
            } else {
                guard ZoneInfo.cached(named: trimmed) != nil else { return nil }
                self = .named(trimmed)
            }
        }
    }

    /// The zone's name as reports show it: `local time (Europe/Paris)`, `Europe/Paris`, `UTC`, `+02:00`.
    public var description: String {
        switch self {
        case .local: return "local time (\(ZoneInfo.machine.identifier))"
        case .named(let name): return name
        case .offset(0): return "UTC"
        case .offset(let seconds):
            let magnitude = abs(Int(seconds))
            let minutes = magnitude / 60 % 60
            return (seconds < 0 ? "-" : "+") + (magnitude / 3600 < 10 ? "0" : "") + "\(magnitude / 3600):"
                + (minutes < 10 ? "0" : "") + "\(minutes)"
        }
    }

    /// The wall-clock date and time of an instant in this zone (the day a file was last modified).
    func civilDate(ofEpochSeconds seconds: Int64) -> (year: Int, month: Int, day: Int, secondsOfDay: Int64) {
        var resolver = ZoneResolver(self)
        let offset = resolver.offset(atInstantSeconds: seconds)
        let (days, secondsOfDay) = Timestamp.floorDivide(seconds + Int64(offset), 86_400)
        let (year, month, day) = Timestamp.civil(fromDays: days)
        return (year, month, day, secondsOfDay)
    }
}

/// Finds the UTC offset of wall-clock times in a zone, caching it per wall-clock hour (the hot path asks once
/// an hour of log, not once a line).
struct ZoneResolver {
    private let zone: ZoneInfo?
    private let fixed: Int32?
    /// The first microsecond of the hour whose offset is ``cachedOffset`` (none yet: an hour no log reaches).
    private var cachedHourStart = Int64.min
    private var cachedOffset: Int32 = 0

    init(_ setting: ZoneSetting) {
        switch setting {
        case .offset(let seconds):
            fixed = seconds
            zone = nil
        case .local:
            fixed = nil
            zone = ZoneInfo.machine
        case .named(let name):
            fixed = nil
            zone = ZoneInfo.cached(named: name) ?? ZoneInfo.utc
        }
    }

    /// The offset in force at a wall-clock time of the zone (the later offset for a time that a
    /// daylight-saving change skips or repeats).
    @inline(__always)
    mutating func offset(atWallMicros wallMicros: Int64) -> Int32 {
        if let fixed { return fixed }
        // The hour asked last, as a range of microseconds: a comparison, not a division, per line.
        // (Unsigned: a time before the start wraps to a large number; so does, against the unset start, any time of
        // the years 0–9999 a log can write.)
        if UInt64(bitPattern: wallMicros &- cachedHourStart) < UInt64(Self.hourMicros) { return cachedOffset }
        return offset(inNewHour: wallMicros)
    }

    private static let hourMicros: Int64 = 3_600_000_000

    @inline(never)
    private mutating func offset(inNewHour wallMicros: Int64) -> Int32 {
        let (hour, _) = Timestamp.floorDivide(wallMicros, Self.hourMicros)
        let wallSeconds = hour * 3600
        let guess = offset(atInstantSeconds: wallSeconds)
        let offset = offset(atInstantSeconds: wallSeconds - Int64(guess))
        cachedHourStart = hour * Self.hourMicros
        cachedOffset = offset
        return offset
    }

    /// The offset in force at an instant.
    mutating func offset(atInstantSeconds seconds: Int64) -> Int32 {
        if let fixed { return fixed }
        guard let zone else { return 0 }
        return zone.offset(atInstant: seconds)
    }
}
