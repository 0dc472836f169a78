import Foundation
import Testing

@testable import TraceAnalysis

/// The zoneinfo reader (``ZoneInfo``, ``PosixRule``) against Foundation's `TimeZone` (ICU's copy of the same
/// database) and against rules worked out by hand.
@Suite("Time zones")
struct ZoneInfoTests {
    /// Zones whose rules neither ICU's copy nor the system's changed in recent releases: daylight saving north and
    /// south, half and quarter hours, negative daylight saving (Dublin's winter time), none at all.
    static let zones = [
        "Europe/Paris", "Europe/London", "Europe/Dublin", "America/New_York", "America/Los_Angeles", "America/St_Johns",
        "America/Santiago", "Australia/Sydney", "Australia/Lord_Howe", "Australia/Adelaide", "Pacific/Auckland",
        "Pacific/Chatham", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tokyo", "Asia/Shanghai", "Africa/Johannesburg",
        "Europe/Moscow", "UTC", "Etc/GMT+5", "EST5EDT", "Asia/Jerusalem",
    ]

    /// Every hour boundary of 1970–2060 at a prime stride, and each side of each change Foundation finds.
    @Test(arguments: zones)
    func offsetsAreFoundationsOffsets(_ name: String) throws {
        let zone = try #require(ZoneInfo(named: name), "no zoneinfo file for \(name)")
        let reference = try #require(TimeZone(identifier: name))
        var instants: [Int64] = []
        var instant: Int64 = 0
        while instant < 2_840_000_000 {  // 2060
            instants.append(instant)
            instant += 3_600 * 97 + 1_234
        }
        var date = Date(timeIntervalSince1970: 0)
        while let next = reference.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 2.84e9 {
            let seconds = Int64(next.timeIntervalSince1970)
            instants += [seconds - 1, seconds, seconds + 1]
            date = next
        }
        var mismatches: [String] = []
        for instant in instants {
            let expected = Int32(reference.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
            let offset = zone.offset(atInstant: instant)
            if offset != expected { mismatches.append("\(instant): \(offset) ≠ \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(5))")
    }

    @Test(arguments: [
        // Spring forward and fall back in the United States (2024: 10 March, 3 November, 02:00 local).
        ("EST5EDT,M3.2.0,M11.1.0", "2024-03-10T06:59:59Z", -18_000),
        ("EST5EDT,M3.2.0,M11.1.0", "2024-03-10T07:00:00Z", -14_400),
        ("EST5EDT,M3.2.0,M11.1.0", "2024-11-03T05:59:59Z", -14_400),
        ("EST5EDT,M3.2.0,M11.1.0", "2024-11-03T06:00:00Z", -18_000),
        // No dates: POSIX's default, the United States' rule.
        ("EST5EDT", "2024-07-01T00:00:00Z", -14_400), ("EST5EDT", "2024-01-01T00:00:00Z", -18_000),
        // South: daylight time across the new year (Sydney: first Sunday of October to first Sunday of April).
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2024-01-15T00:00:00Z", 39_600),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2024-07-15T00:00:00Z", 36_000),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2024-04-06T15:59:59Z", 39_600),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2024-04-06T16:00:00Z", 36_000),
        // Quoted names, minutes, a time past 24 hours (Israel: the Friday before the last Sunday of March, 02:00).
        ("<+0330>-3:30", "2024-06-01T00:00:00Z", 12_600), ("IST-2IDT,M3.4.4/26,M10.5.0", "2024-03-28T23:59:59Z", 7_200),
        ("IST-2IDT,M3.4.4/26,M10.5.0", "2024-03-29T00:00:00Z", 10_800),
        // A negative change time (Greenland: -02, and -01 from the hour before the last Sunday of March, which is
        // 01:00 UTC on that Sunday, with Europe).
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "2024-03-31T00:59:59Z", -7_200),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "2024-03-31T01:00:00Z", -3_600),
        // Julian days without February 29 (J60 is always 1 March) and zero-based days with it (59 is 29 February).
        ("AAA0BBB,J60/0,J300/0", "2024-02-29T23:59:59Z", 0), ("AAA0BBB,J60/0,J300/0", "2024-03-01T00:00:00Z", 3_600),
        ("AAA0BBB,59/0,300/0", "2024-02-28T23:59:59Z", 0), ("AAA0BBB,59/0,300/0", "2024-02-29T00:00:00Z", 3_600),
        // No daylight saving time.
        ("<+0545>-5:45", "2024-01-01T00:00:00Z", 20_700), ("UTC0", "2024-01-01T00:00:00Z", 0),
    ])
    func posixRulesGiveTheOffsetOfAnInstant(_ text: String, _ iso: String, _ offset: Int32) throws {
        let rule = try #require(PosixRule(text))
        let instant = try #require(ISO8601DateFormatter().date(from: iso)).timeIntervalSince1970
        #expect(rule.offset(atInstant: Int64(instant)) == offset, "\(text) at \(iso)")
    }

    @Test(arguments: [
        "", "E", "EST", "EST5EDT,M3.2.0", "EST5EDT,M13.1.0,M11.1.0", "<+03", "EST5EDT,M3.2.0,M11.1.0,x", "EST+",
        "AAA999999", "AAA0BBB999999,J1,J2",
    ])
    func brokenRulesAreRefused(_ text: String) {
        #expect(PosixRule(text) == nil)
    }

    @Test(arguments: [
        "Mars/Olympus", "../etc/passwd", "/etc/passwd", "posixrules", "right/UTC", "Europe//Paris", "europe/paris",
    ])
    func namesWithoutAZoneFileAreRefused(_ name: String) {
        #expect(ZoneInfo(named: name) == nil)
        #expect(ZoneSetting(name) == nil)
        #expect(ZoneInfo.cached(named: name) == nil)  // and again, from the cache
        #expect(ZoneInfo.cached(named: name) == nil)
    }

    /// The abbreviations ICU took are still taken, as the zones they stand for.
    @Test func abbreviationsICUTookAreZones() throws {
        let pacific = try #require(ZoneInfo(named: "PST"))
        #expect(pacific.identifier == "PST")
        #expect(pacific.offset(atInstant: 1_720_000_000) == -25_200)  // July 2024: daylight time
        for _ in 0..<2 { #expect(ZoneInfo.cached(named: "PST")?.offset(atInstant: 1_720_000_000) == -25_200) }
        #expect(ZoneSetting("PST") == .named("PST"))
    }

    /// A file that is not TZif, cut short anywhere, or with absurd counts is refused, never read past its end.
    @Test func damagedFilesAreRefused() throws {
        let path = try #require(
            ZoneInfo.directories.first { FileManager.default.fileExists(atPath: $0 + "/Europe/Paris") })
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/Europe/Paris")))
        #expect(ZoneInfo.parse(bytes, identifier: "x") != nil)
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            _ = ZoneInfo.parse(Array(bytes[..<cut]), identifier: "x")  // nil or a zone: no crash
        }
        #expect(ZoneInfo.parse(Array(bytes[..<43]), identifier: "x") == nil)
        #expect(
            ZoneInfo.parse(Array("not a zone file at all, no".utf8) + [UInt8](repeating: 0, count: 40), identifier: "x")
                == nil)
        var huge = bytes
        huge[32..<36] = [0x7f, 0xff, 0xff, 0xff]  // a count of transitions no file holds
        #expect(ZoneInfo.parse(huge, identifier: "x") == nil)
    }

    /// The local zone: `TZ` (a name, `:name`, a file's path), else `/etc/localtime` (the environment is left
    /// alone: other tests read it).
    @Test func theLocalZoneFollowsTZ() throws {
        #expect(ZoneInfo.local(tz: "Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(ZoneInfo.local(tz: "Asia/Tokyo").offset(atInstant: 0) == 32_400)
        #expect(ZoneInfo.local(tz: ":Asia/Kolkata").identifier == "Asia/Kolkata")
        let path = try #require(
            ZoneInfo.directories.first { FileManager.default.fileExists(atPath: $0 + "/Asia/Tokyo") })
        #expect(ZoneInfo.local(tz: path + "/Asia/Tokyo").identifier == "Asia/Tokyo")
        let machine = ZoneInfo.local(tz: nil)
        #expect(ZoneInfo.local(tz: "Nowhere/Land").identifier == machine.identifier)
        #expect(ZoneInfo.local(tz: "").identifier == machine.identifier)
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let range = link.range(of: "zoneinfo/")
        {
            #expect(machine.identifier == String(link[range.upperBound...]))
        }
    }
}
