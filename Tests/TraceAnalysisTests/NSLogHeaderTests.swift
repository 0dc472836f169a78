import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

/// ``NSLogHeader`` stands in for the two NSLog patterns on the hot path: on every line it must give exactly what
/// PCRE2 gives with those patterns — which one matches (at most one) and every group's range.
@Suite("NSLog header reader")
struct NSLogHeaderTests {
    /// What the patterns give: the shape that matches and its groups, or nil.
    final class Reference {
        let patterns: [(NSLogHeader.Shape, Matcher, Regex)]

        init() throws {
            patterns = try [(NSLogHeader.Shape.modern, LogFormat.nslogModern), (.classic, LogFormat.nslogClassic)]
                .map { shape, format in
                    let regex = try Regex(format.pattern)
                    return (shape, Matcher(regex), regex)
                }
        }

        func match(_ line: [UInt8]) throws -> NSLogHeader.Match? {
            var found: [NSLogHeader.Match] = []
            for (shape, matcher, regex) in patterns {
                guard try line.withUnsafeBytes({ try matcher.matches($0) }) else { continue }
                func range(_ name: String) -> Range<Int> {
                    regex.groupNumber(name).flatMap { matcher.range($0) } ?? -1 ..< -1
                }
                found.append(
                    NSLogHeader.Match(
                        shape: shape, timestamp: range("timestamp"), process: range("process"), pid: range("pid"),
                        thread: range("thread"), message: range("message")))
            }
            #expect(found.count <= 1, "both NSLog patterns match \(String(decoding: line, as: UTF8.self))")
            return found.first
        }
    }

    static func same(_ a: NSLogHeader.Match?, _ b: NSLogHeader.Match?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.shape == b.shape && a.timestamp == b.timestamp && a.process == b.process && a.pid == b.pid
            && a.thread == b.thread && a.message == b.message
    }

    /// Checks `line` alone, and after `previous` (a line read as a record before it): with the tail `previous`
    /// leaves, the match must be the same, and where the line repeats the tail its process and pid bytes must be
    /// the previous line's. Returns whether it repeated the tail.
    @discardableResult
    static func check(_ line: [UInt8], after previous: [UInt8]? = nil, _ reference: Reference) throws -> Bool {
        let expected = try reference.match(line)
        let text = String(decoding: line, as: UTF8.self).debugDescription
        let actual = line.withUnsafeBytes { NSLogHeader.match($0) }
        #expect(same(actual, expected), "\(text)")
        guard let previous, let earlier = previous.withUnsafeBytes({ NSLogHeader.match($0) }),
            let tail = previous.withUnsafeBytes({ NSLogHeader.Tail(earlier, in: $0) })
        else { return false }
        // After the previous line's tail, and with the date and time its header was accepted with.
        var dates = NSLogHeader.DateTime()
        _ = previous.withUnsafeBytes { NSLogHeader.match($0, tails: [], first: -1, dates: &dates) }
        let (afterTail, repeated) = line.withUnsafeBytes {
            NSLogHeader.match($0, tails: [nil, tail], first: 0, dates: &dates)  // found after the one tried first
        }
        let repeatsTail = repeated == 1
        #expect(same(afterTail, expected), "after the tail of \(String(decoding: previous, as: UTF8.self)): \(text)")
        if repeatsTail, let afterTail {
            #expect(line[afterTail.process] == previous[earlier.process], "\(text)")
            #expect(line[afterTail.pid] == previous[earlier.pid], "\(text)")
        }
        return repeatsTail
    }

    @Test func agreesWithThePatternsOnEveryRealLine() throws {
        let reference = try Reference()
        let lines = try TestSupport.realLines()
        // The samples alone hold 139 lines, 83 of them NSLog; the real corpus (when it is beside the clone) thousands.
        let corpus = TestSupport.corpusExists
        #expect(lines.count > (corpus ? 1000 : 100))
        var matched = 0
        var repeated = 0
        var previous: [UInt8]?
        for line in lines {
            if try Self.check(line, after: previous, reference) { repeated += 1 }
            guard line.withUnsafeBytes({ NSLogHeader.match($0) }) != nil else { continue }
            matched += 1
            previous = line
        }
        #expect(matched > (corpus ? 100 : 50))
        #expect(repeated > (corpus ? 50 : 20), "lines that repeat the tail of the record before them")
    }

    /// Hand-written edge cases around every part of the two patterns.
    @Test(arguments: [
        "2019-05-04 10:46:18.564743-0500 App[1:2] hi", "2019-05-04 10:46:18.564743-05:00 App[1:2]hi",
        "2019-05-04 10:46:18.564743Z App[1:2] hi", "2019-05-04 10:46:18.564743+05:0 App[1:2] hi",
        "2019-05-04 10:46:18.564743+0500App[1:2] hi", "2019-05-04 10:46:18.5647 App[1:2] hi",
        "2019-05-04 10:46:18.5647431234 App[1:2] hi", "2019-05-04 10:46:18.564 App[1:60b] hi",
        "2019-05-04 10:46:18.5 App[1:x] ", "2019-05-04 10:46:18.564 App[1:60b]",
        "2019-05-04 10:46:18.564 App[1:60b]  two",
        "2019-05-04 10:46:18.564 App[1:60g] hi", "2019-05-04 10:46:18.564743 App[1:60b] hi",
        "2019-05-04 10:46:18.564 Df node[1:2] hi", "2019-05-04 10:46:18.564 Df  node[1:2] hi",
        "2019-05-04 10:46:18.564 E  x[1:2] hi", "2019-05-04 10:46:18.564 Dfx[1:2] hi", "2019-05-04 10:46:18.564 Df ",
        "2019-05-04 10:46:18.564743 0x1a2b App[1:2] hi", "2019-05-04 10:46:18.564743 0x1a2bApp[1:2] hi",
        "2019-05-04 10:46:18.564743 0x App[1:2] hi", "2019-05-04 10:46:18.564743 0xZZ [1:2] hi",
        "2019-05-04 10:46:18.564  App[1:2] hi", "2019-05-04 10:46:18.564 \tApp[1:2] hi",
        "2019-05-04 10:46:18.564 A\tB C[1:2] hi", "2019-05-04 10:46:18.564 App]x[1:2] hi",
        "2019-05-04 10:46:18.564 App[x[1:2] hi", "2019-05-04 10:46:18.564 App[:2] hi",
        "2019-05-04 10:46:18.564 App[1:] hi", "2019-05-04 10:46:18.564 App[12:34 hi",
        "2019-05-04 10:46:18.564 [1:2] hi",
        "2019-05-04T10:46:18.564 App[1:2] hi", "2019-05-04 10:46:18,564 App[1:2] hi",
        "2019-5-04 10:46:18.564 App[1:2] hi",
        "2019-05-04 10:46:18. App[1:2] hi", "2019-05-04 10:46:18.564 My Great App [1:2] hi\r",
        "2019-05-04 10:46:18.564 App[1:2] \u{0}\u{7F} bytes", "9999-99-99 99:99:99.999 App[1:2] invalid date",
    ])
    func agreesWithThePatternsOnEdgeCases(_ line: String) throws {
        try Self.check(Array(line.utf8), try Reference())
    }

    /// NSLog lines with random bytes replaced, inserted or removed, mostly in their header.
    @Test func agreesWithThePatternsOnMutatedLines() throws {
        let reference = try Reference()
        let seeds = try TestSupport.realLines().filter { $0.withUnsafeBytes { NSLogHeader.match($0) } != nil }
        #expect(!seeds.isEmpty)
        let alphabet = Array("0123456789 -:.+Z[]x\tabcDfE0x\r".utf8) + [0, 0xFF, 0xC3]
        var random = SplitMix64(seed: 42)
        for round in 0..<20_000 {
            let line = TestSupport.mutate(seeds[round % seeds.count], alphabet: alphabet, within: 48, &random)
            try Self.check(line, after: seeds[(round + 1) % seeds.count], reference)
            try Self.check(line, after: seeds[round % seeds.count], reference)
        }
    }

    /// Lines of a dozen incarnations (more than the analyser's cache of recent ones, names shared by two pids,
    /// names with spaces, both NSLog shapes, a few device-syslog records) in random runs: every line must land on its own incarnation whether it
    /// repeats the header tail of the line before, of an older line, or of none.
    @Test func everyRecordLandsOnItsIncarnation() throws {
        let processes: [(name: String, pid: Int)] = [
            ("App", 101), ("App", 102), ("My Great App", 7), ("Helper", 9_999_999), ("a", 1),
            ("VeryLongProcessNameForTheTail", 42),
            ("B", 5), ("C", 6), ("D", 8), ("E", 10), ("F", 11), ("G", 12),
        ]
        var random = SplitMix64(seed: 9)
        var lines: [String] = []
        var expected: [String: (records: Int, last: Int)] = [:]
        while lines.count < 3000 {
            let (name, pid) = processes[Int(random.next() % UInt64(processes.count))]
            for _ in 0...Int(random.next() % 4) {
                let modern = random.next() % 2 == 0
                let second = String(format: "%02d", lines.count / 60 % 60)
                let stamp = modern ? "2019-05-04 10:\(second):18.564743-0500" : "2019-05-04 10:\(second):18.564"
                let thread = modern ? "\(random.next() % 90_000)" : String(random.next() % 4096, radix: 16)
                // Each incarnation's first record is a lifecycle event: a report lists only those that have one.
                let message =
                    expected["\(name)/\(pid)"] == nil
                    ? "application:didFinishLaunchingWithOptions:" : "line \(lines.count + 1)"
                if random.next() % 8 == 0, !name.contains(" ") {
                    // A device-syslog record between them: found by the general path, which may replace the
                    // cache's entry the last quick record's tail names.
                    lines.append("May  4 10:\(second):18 iPhone \(name)[\(pid)] <Notice>: \(message)")
                } else {
                    lines.append("\(stamp) \(name)[\(pid):\(thread)] \(message)")
                }
                expected["\(name)/\(pid)", default: (0, 0)].records += 1
                expected["\(name)/\(pid)"]?.last = lines.count
            }
        }
        let report = try Analyzer().analyze(text: lines.joined(separator: "\n"))
        var found: [String: (records: Int, last: Int)] = [:]
        for process in report.processes {
            found["\(process.name)/\(process.pid)"] = (process.records, process.lastLine)
        }
        #expect(found.count == expected.count)
        for (key, value) in expected {
            #expect(found[key]?.records == value.records, "\(key)")
            #expect(found[key]?.last == value.last, "\(key)")
        }
    }

    /// A line that repeats the header tail of an older incarnation of a name (another pid of it logged since) goes
    /// to that incarnation as the lookup would: it becomes the current one of its name again, so the next new pid
    /// of the name replaces it, not the other.
    @Test func anOlderTailMakesItsIncarnationCurrentAgain() throws {
        let lines = [
            "2019-05-04 10:00:00.100 App[101:1] application:didFinishLaunchingWithOptions:",
            "2019-05-04 10:00:00.200 App[101:1] applicationDidBecomeActive",
            "2019-05-04 10:00:01.100 App[102:1] application:didFinishLaunchingWithOptions:",
            "2019-05-04 10:00:01.200 App[102:1] applicationDidBecomeActive",
            "2019-05-04 10:00:02.100 App[101:1] still here",  // 101's tail, from the cache: 101 is current again
            "2019-05-04 10:00:03.100 App[103:1] application:didFinishLaunchingWithOptions:",  // replaces 101
            "2019-05-04 10:00:03.200 App[103:1] applicationDidBecomeActive",
        ]
        let report = try Analyzer().analyze(text: lines.joined(separator: "\n"))
        let scenarios = Dictionary(
            uniqueKeysWithValues: report.processes.map { ($0.pid, Set($0.episodes.map(\.scenario))) })
        #expect(scenarios[101]?.contains(.killedInForeground) == true)
        #expect(scenarios[102]?.contains(.killedInForeground) == false)
    }

    /// The case the tail must not survive: a record read the general way (another format) makes a new incarnation
    /// in the cache entry the last quick record's tail names, and a later NSLog line repeats that old tail.
    @Test func aTailDoesNotOutliveItsCacheEntry() throws {
        let launch = "application:didFinishLaunchingWithOptions:"
        var lines = (0..<8).map { "2019-05-04 10:00:0\($0).100 P\($0)[10\($0):1] \(launch)" }  // fill the cache
        lines += [
            "2019-05-04 10:00:09.100 P0[100:1] again",  // quick: the tail names P0's entry
            "May  4 10:00:10 iPhone Q[200] <Notice>: \(launch)",  // general: Q takes the oldest entry, P0's
            "2019-05-04 10:00:11.100 Q[200:1] more",  // general (the last record was syslog): Q's entry hit
            "2019-05-04 10:00:12.100 P0[100:1] last",  // quick again, with P0's old tail
        ]
        let report = try Analyzer().analyze(text: lines.joined(separator: "\n"))
        let records = Dictionary(uniqueKeysWithValues: report.processes.map { ("\($0.name)[\($0.pid)]", $0.records) })
        #expect(records["P0[100]"] == 3)
        #expect(records["Q[200]"] == 2)
    }
}
