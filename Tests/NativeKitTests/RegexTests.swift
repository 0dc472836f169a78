import Dispatch
import NativeKit
import Testing

@Suite("PCRE2 wrapper")
struct RegexTests {
    @Test func compileErrorNamesTheOffset() {
        #expect(throws: RegexError.self) { try Regex("abc(def") }
        do {
            _ = try Regex("ab[c")
            Issue.record("expected a compile error")
        } catch {
            guard case .compile(let pattern, let offset, let message) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(pattern == "ab[c")
            #expect(offset == 4)
            #expect(message.contains("missing terminating ]"))
        }
    }

    @Test func namedGroupsGiveByteOffsets() throws {
        let regex = try Regex(#"(?<word>\w+)\[(?<pid>\d+)\]"#)
        #expect(regex.captureCount == 2)
        #expect(regex.groupNumber("pid") == 2)
        let matcher = Matcher(regex)
        // "é" is two bytes: offsets are UTF-8 byte offsets, not characters or UTF-16 units.
        let subject = "é App[42] x"
        #expect(try matcher.matches(subject))
        #expect(matcher.range(named: "word") == 3..<6)
        #expect(matcher.range(named: "pid") == 7..<9)
    }

    @Test func matchDataIsReusedAcrossCalls() throws {
        let matcher = Matcher(try Regex(#"(\d+)"#))
        #expect(try matcher.matches("abc 123"))
        #expect(matcher.range(1) == 4..<7)
        #expect(try !matcher.matches("no digits"))
        #expect(try matcher.matches("7"))
        #expect(matcher.range(1) == 0..<1)
    }

    @Test func unsetGroupIsNil() throws {
        let matcher = Matcher(try Regex(#"a(b)?c"#))
        #expect(try matcher.matches("ac"))
        #expect(matcher.range(1) == nil)
    }

    @Test func invalidUTF8IsToleratedInBothModes() throws {
        let bytes: [UInt8] = [0x41, 0xFF, 0xC3, 0x28, 0x42]
        for options in [Regex.Options(), .utf] {
            let matcher = Matcher(try Regex("B", options: options))
            let matched = try bytes.withUnsafeBytes { try matcher.matches($0) }
            #expect(matched)
        }
    }

    /// The run a leading span covers (`nslog-untimed`'s process name), found 32 bytes at a time (`csimd_span_end`):
    /// runs of every length up to past two vectors, with bytes from 0x80 in them, ended by each byte out of the set or
    /// by the subject's end, from two offsets; wherever the prefilter and PCRE2 disagree on the end, one of them is
    /// wrong.
    @Test func aLeadingSpanEndsWherePCRE2SeesItEnd() throws {
        let regex = try Regex(#"[^\[\]:\t]*?\[\d+:"#, options: .anchored)
        let matcher = Matcher(regex)
        var admittedInAll = 0
        for length in 0..<80 {
            var run: [UInt8] = []
            for index in 0..<length {
                let letter = UInt8(ascii: "a") + UInt8(index % 26)
                run.append(index % 7 == 3 ? 0x80 | UInt8(index) : letter)
            }
            let match = Array("[12:".utf8)
            let ends: [[UInt8]] = [
                [], match, Array("]x[1:".utf8), Array(":[1:".utf8), Array("\t[1:".utf8), [0x5B, 0x5B],
            ]
            let prefix: [UInt8] = Array("ab".utf8)
            for end in ends {
                let subject: [UInt8] = prefix + run + end
                for start in [0, 2] {
                    let admitted = subject.withUnsafeBufferPointer {
                        regex.prefilter.admits($0.baseAddress!, count: $0.count, from: start)
                    }
                    let matched = try subject.withUnsafeBytes { try matcher.matches(admitted: $0, from: start) }
                    #expect(admitted == (end == match), "run of \(length) then \(end) from \(start)")
                    #expect(matched == (end == match), "run of \(length) then \(end) from \(start)")
                    if admitted { admittedInAll += 1 }
                }
            }
        }
        #expect(admittedInAll == 160)
    }

    /// What PCRE2 works out about a pattern when compiling it, read into ``Regex/Prefilter``: the subjects it refuses
    /// are ones PCRE2 would not match, and a matcher refuses them without calling it.
    @Test func prefilterReadsWhatPCRE2Knows() throws {
        func admits(_ regex: Regex, _ subject: String, from start: Int = 0) -> Bool {
            Array(subject.utf8).withUnsafeBufferPointer {
                regex.prefilter.admits($0.baseAddress!, count: $0.count, from: start)
            }
        }
        // A required tab (a Console.app copy's columns), a minimum length.
        let columns = try Regex(#"^(?:(?<level>[^\t\d][^\t]*)\t)?(?<time>\d\d:\d\d)\t(?<message>.*)$"#)
        #expect(columns.prefilter.requiredBytes?.0 == 0x09)
        #expect(columns.prefilter.minimumLength == 6)
        #expect(admits(columns, "error\t10:37\tkernel"))
        #expect(!admits(columns, "no tab in this line at all"))
        #expect(!admits(columns, "\t1\t"))  // shorter than any match
        #expect(!columns.prefilter.mayBegin(with: UInt8(ascii: "\t")))
        #expect(
            columns.prefilter.mayBegin(with: UInt8(ascii: "e")) && columns.prefilter.mayBegin(with: UInt8(ascii: "1")))
        // An anchored prefix begins with what its first item allows, from the offset it is tried at.
        let indentation = try Regex("[ \t]+", options: .anchored)
        #expect(indentation.prefilter.mayBegin(with: 0x20) && indentation.prefilter.mayBegin(with: 0x09))
        #expect(!indentation.prefilter.mayBegin(with: UInt8(ascii: "a")))
        #expect(admits(indentation, "ab  c", from: 2) && !admits(indentation, "ab  c", from: 1))
        // A caseless first letter, in either case (PCRE2 does not say whether its first code unit is caseless).
        let caseless = try Regex("(?i)^abc")
        #expect(admits(caseless, "ABC") && admits(caseless, "abc") && !admits(caseless, "bc a"))
        // Unanchored: a match may begin anywhere, so no first byte is refused; the last literal still counts.
        let unanchored = try Regex("abc")
        #expect(unanchored.prefilter.mayBegin(with: UInt8(ascii: "z")))
        #expect(admits(unanchored, "zzabc") && !admits(unanchored, "zzab z"))
        // A pattern that matches an empty subject refuses nothing; a byte from 0x80 is always tried.
        let anything = try Regex("^(?<message>.*)$")
        #expect(admits(anything, "") && admits(anything, "\t"))
        #expect(try Regex("^é", options: .utf).prefilter.mayBegin(with: 0xC3))
        // In UTF mode a caseless `k` matches the Kelvin sign, whose bytes hold no `k`: no first or required bytes.
        for pattern in ["(*UTF)(?i)^k", "(*UTF)(?i)^x+k"] {
            let kelvin = try Regex(pattern)
            #expect(admits(kelvin, "\u{212A}") && admits(kelvin, "xx\u{212A}"), "\(pattern)")
            #expect(try Matcher(kelvin).matches(pattern.hasSuffix("^k") ? "\u{212A}" : "xx\u{212A}"), "\(pattern)")
        }
        // A matcher refuses what its prefilter refuses, and matches the rest as PCRE2 does.
        let matcher = Matcher(columns)
        #expect(try !matcher.matches("no tab in this line at all"))
        #expect(try matcher.matches("10:37\tkernel"))
        #expect(matcher.range(named: "message") == 6..<12)
    }

    @Test func caselessAndMarks() throws {
        let matcher = Matcher(try Regex("(?:foo(*MARK:0)|bar(*MARK:1))", options: .caseless))
        #expect(try matcher.matches("xx BAR"))
        #expect(matcher.mark == "1")
        #expect(try matcher.matches("Foo"))
        #expect(matcher.mark == "0")
        #expect(matcher.markNumber == 0)
        let numbered = Matcher(try Regex("a(*MARK:123456789012345678)|b(*MARK:1234567890123456789)|c(*MARK:7x)|d"))
        #expect(try numbered.matches("a") && numbered.markNumber == 123_456_789_012_345_678)
        #expect(try numbered.matches("b") && numbered.markNumber == nil)  // nineteen digits: not read
        #expect(try numbered.matches("c") && numbered.mark == "7x" && numbered.markNumber == nil)
        #expect(try numbered.matches("d") && numbered.mark == nil && numbered.markNumber == nil)
        #expect(try !numbered.matches("e"))
    }

    @Test func jitIsUsed() throws {
        #expect(try Regex("a+b").isJITCompiled)
    }

    /// The JIT compilation waits for the first match; matchers on many threads starting at once on one fresh
    /// pattern compile it once and all match as they should.
    @Test func matchersOnManyThreadsShareTheLazyCompilation() throws {
        let regex = try Regex(#"(?<pid>\d+):(?<thread>[0-9a-f]+)\]"#)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let matcher = Matcher(regex)
            var good = 0
            for round in 0..<200 {
                let hit = (try? matcher.matches("App[\(index * 1000 + round):a\(round)] message")) == true
                let miss = (try? matcher.matches("App[x:y] message")) == false
                if hit, miss, matcher.range(named: "pid").map({ $0.count > 0 }) == true { good += 1 }
            }
            results.add(good)
        }
        #expect(results.total == 16 * 200)
        #expect(regex.isJITCompiled)
    }

    @Test func runawayPatternHitsTheMatchLimit() throws {
        let matcher = Matcher(try Regex("(a+)+$"), limits: .init(match: 10_000, depth: 1_000))
        let subject = String(repeating: "a", count: 40) + "!"
        #expect(throws: RegexError.self) { try matcher.matches(subject) }
    }

    @Test func giveUpsAreLoggedByLineAndThePatternRetires() throws {
        let log = MatchFailureLog()
        let matcher = Matcher(
            try Regex("(a+)+$"), owner: "format greedy", limits: .init(match: 10_000, failures: 3), failureLog: log)
        let runaway = String(repeating: "a", count: 40) + "!"
        for line in 1...5 {
            log.line = line * 10
            if line <= 3 {
                #expect(throws: RegexError.self) { try matcher.matches(runaway) }
            } else {
                // Retired after three give-ups: "no match" at once, even where the pattern would match.
                #expect(try matcher.matches("aaa") == false)
            }
        }
        #expect(matcher.isRetired)
        #expect(log.failures.count == 1)
        let failure = try #require(log.failures.first)
        #expect(failure.owner == "format greedy")
        #expect(failure.pattern == "(a+)+$")
        #expect(failure.lines == 3)
        #expect(failure.firstLine == 10)
        #expect(failure.retiredAfterLine == 30)
        #expect(failure.message.contains("limit"))
    }

    @Test func anOwnerDescribedLaterIsWrittenOnlyForAGiveUp() throws {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let log = MatchFailureLog()
        let matcher = Matcher(
            try Regex("(a+)+$"),
            describedBy: {
                calls.count += 1
                return "vocabulary journal-closed, journal-opened"
            }, limits: .init(match: 10_000), failureLog: log)
        #expect(try matcher.matches("aaa"))
        #expect(try matcher.matches("b") == false)
        #expect(calls.count == 0)
        log.line = 4
        #expect(throws: RegexError.self) { try matcher.matches(String(repeating: "a", count: 40) + "!") }
        #expect(calls.count == 1)
        #expect(matcher.owner == "vocabulary journal-closed, journal-opened")
        #expect(log.failures.map(\.owner) == ["vocabulary journal-closed, journal-opened"])
    }

    @Test func twoGiveUpsOnOneLineCountTheLineOnce() throws {
        let log = MatchFailureLog()
        let matcher = Matcher(try Regex("(a+)+$"), limits: .init(match: 10_000), failureLog: log)
        log.line = 7
        let runaway = String(repeating: "a", count: 40) + "!"
        for _ in 0..<2 { #expect(throws: RegexError.self) { try matcher.matches(runaway) } }
        #expect(log.failures.map(\.lines) == [1])
        #expect(!matcher.isRetired)
    }
}

/// A sum that threads add to under a lock.
private final class Results: @unchecked Sendable {
    private let lock = Lock()
    private var sum = 0
    func add(_ value: Int) { lock.withLock { sum += value } }
    var total: Int { lock.withLock { sum } }
}
