import Testing

@testable import NativeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Vector literal search")
struct LiteralSearchTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func findsTheFirstLiteralWithoutCaseLowestNumberFirst() throws {
        guard let search = LiteralSearch([Self.bytes("terminate"), Self.bytes("terminated"), Self.bytes("nib")])
        else {
            #expect(!LiteralSearch.isAvailable)  // no AVX2: the callers keep their scalar scan
            return
        }
        func first(_ text: String, from start: Int = 0) -> (Int, Int)? {
            Self.bytes(text).withUnsafeBytes { search.first(in: $0, from: start) }.map { ($0.literal, $0.position) }
        }
        #expect(first("App TERMINATED") ?? (-1, -1) == (0, 4))
        #expect(first("awakeFromNib") ?? (-1, -1) == (2, 9))
        #expect(first("awakeFromNi") == nil)
        #expect(first(String(repeating: "x", count: 100) + "Nib") ?? (-1, -1) == (2, 100))
        #expect(first("nib nib", from: 1) ?? (-1, -1) == (2, 4))
        #expect(first("") == nil)
        #expect(LiteralSearch([Self.bytes("go")]) == nil)  // shorter than three bytes: not for the vector search
    }

    /// A placement given ahead is used when it holds each literal once in eight buckets, and ignored otherwise; any
    /// placement finds what the worked-out one finds.
    @Test func anyPlacementFindsTheSameLiterals() throws {
        let literals = ["terminate", "terminated", "nib", "active", "background", "foreground"].map(Self.bytes)
        let worked = LiteralSearch.placement(of: literals)
        #expect(worked.count == 8)
        #expect(worked.joined().sorted() == Array(0..<literals.count))
        let empty: [[Int]] = Array(repeating: [], count: 7)
        let placements: [[[Int]]?] = [
            nil, worked, [[5, 4, 3, 2, 1, 0]] + empty,  // valid
            [[0, 1, 2], [3, 4]], [[0, 0, 1, 2, 3, 4, 5]] + empty, [[0, 1, 2, 3, 4, 9]] + empty,  // not
        ]
        let texts = ["App TERMINATED x", "awakeFromNib", "will enter Foreground", "nothing here", "background"]
        for placement in placements {
            guard let search = LiteralSearch(literals, placement: placement) else {
                #expect(!LiteralSearch.isAvailable)
                return
            }
            for text in texts {
                let found = Self.bytes(text).withUnsafeBytes { search.first(in: $0, from: 0) }
                let expected: (Int, Int)? =
                    text.lowercased().utf8.indices.lazy.compactMap { start -> (Int, Int)? in
                        let offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
                        let rest = Array(text.lowercased().utf8.dropFirst(offset))
                        return literals.firstIndex { rest.starts(with: $0) }.map { ($0, offset) }
                    }.first
                #expect(found?.literal == expected?.0 && found?.position == expected?.1, "\(text), \(placement ?? [])")
            }
        }
    }

    /// Buffers that end exactly at the end of a readable page, before one that cannot be read: any read past the
    /// buffer's end would crash the test. Every length and every literal position near the end.
    @Test func neverReadsPastTheEndOfTheBuffer() throws {
        guard let search = LiteralSearch([Self.bytes("nib"), Self.bytes("active"), Self.bytes("background")]) else {
            return
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let region = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            region != MAP_FAILED
        else {
            Issue.record("mmap failed")
            return
        }
        defer { munmap(region, 2 * page) }
        #expect(mprotect(region + page, page, PROT_NONE) == 0)
        let end = region + page
        for length in 0...100 {
            for literal in ["nib", "active", "background", "ni", "backgroun"] {
                guard literal.utf8.count <= length else { continue }
                let start = end - length
                start.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "-"), count: length)
                let text = Self.bytes(literal)
                let at = length - text.count
                (start + at).copyMemory(from: text, byteCount: text.count)
                let found = search.first(in: UnsafeRawBufferPointer(start: start, count: length), from: 0)
                let expected: Int? = ["nib", "active", "background"].contains(literal) ? at : nil
                #expect(found?.position == expected, "\(literal) at \(at) of \(length)")
            }
        }
    }
}

@Suite("Bracket balance")
struct BracketBalanceTests {
    /// The vector count against a byte loop, on text rich in brackets, from every start to every length.
    @Test func countsLikeAByteLoop() {
        var random = SeededBits(state: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 { random.next() }
        let pool = Array("{}()[]{{((x ]".utf8)
        let text = (0..<300).map { _ in
            next() % 3 == 0 ? UInt8(truncatingIfNeeded: next()) : pool[Int(next()) % pool.count]
        }
        text.withUnsafeBytes { all in
            for start in 0..<40 {
                for end in start...all.count {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<end])
                    let expected = slice.reduce(0) { sum, byte in
                        switch byte {
                        case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["): return sum + 1
                        case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"): return sum - 1
                        default: return sum
                        }
                    }
                    if BracketBalance.of(slice) != expected { Issue.record("from \(start) to \(end)") }
                }
            }
        }
        #expect(BracketBalance.of(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
    }
}

@Suite("Byte pair scan")
struct BytePairScanTests {
    /// Every position of a byte followed by another, in order, from every start, as a byte loop finds them: across
    /// the windows of 1,024 bytes the vectors mark (a pair may straddle two), and stopping where the caller says.
    @Test func findsWhatAByteLoopFinds() {
        var random = SeededBits(state: 0x2545_F491_4F6C_DD1D)
        func next() -> UInt64 { random.next() }
        let (quote, colon) = (UInt8(ascii: "\""), UInt8(ascii: ":"))
        var text = (0..<2_600).map { _ in
            switch next() % 8 {
            case 0, 1: quote
            case 2, 3: colon
            default: UInt8(truncatingIfNeeded: next())
            }
        }
        for straddle in [63, 1_023, 2_047] { (text[straddle], text[straddle + 1]) = (quote, colon) }
        text.withUnsafeBytes { all in
            for length in [0, 1, 2, 63, 64, 65, 1_023, 1_024, 1_025, 2_048, 2_600] {
                let bytes = UnsafeRawBufferPointer(rebasing: all[0..<length])
                for start in [0, 1, 5, 63, 64, 1_000, 1_024, 1_030, length] where start <= length {
                    let expected = (start..<length).filter {
                        $0 + 1 < length && bytes[$0] == quote && bytes[$0 + 1] == colon
                    }
                    var found: [Int] = []
                    BytePairScan.forEach(quote, colon, in: bytes, from: start) { position in
                        found.append(position)
                        return true
                    }
                    #expect(found == expected, "length \(length), from \(start)")
                    // The same without vectors, as a processor without them runs it.
                    var plain: [Int] = []
                    BytePairScan.withoutVectors(quote, colon, in: bytes, from: start) { position in
                        plain.append(position)
                        return true
                    }
                    #expect(plain == expected, "length \(length), from \(start), without vectors")
                    // Stopped after the third.
                    var first: [Int] = []
                    BytePairScan.forEach(quote, colon, in: bytes, from: start) { position in
                        first.append(position)
                        return first.count < 3
                    }
                    #expect(first == Array(expected.prefix(3)), "length \(length), from \(start), three")
                }
            }
        }
    }
}

/// A linear congruential generator's high bits: the same random text for a test on every run.
struct SeededBits {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
