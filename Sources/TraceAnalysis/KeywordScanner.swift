import NativeKit

/// Finds any of a set of ASCII keywords in a message, without case, in one pass over its bytes.
///
/// The vocabulary's cheap first test: most log messages hold no keyword and cost only this scan. When every
/// keyword has three bytes or more, the scan samples every second position: the three bytes there (read as one
/// word, case folded by setting bit 5 of each) are hashed into a 4 KiB bitset that says whether they can be a
/// keyword's first three bytes, or its second to fourth. Any keyword covers a sample at its first or its second
/// byte, one sample in fifty or so passes the test, and only there are keywords compared. A vocabulary with shorter
/// keywords is scanned at every position through a table of byte pairs.
final class KeywordScanner: Sendable {
    /// Keyword bytes, lowercased, one after another; `ranges[k]` is keyword `k`'s slice.
    private let bytes: [UInt8]
    private let ranges: [Range<Int>]
    /// For each lowercased first byte, the keywords starting with it: `order[starts[b]..<starts[b + 1]]`.
    private let starts: [Int32]
    private let order: [Int32]
    /// Per keyword: its first four bytes (fewer when it is shorter) as a little-endian word folded like
    /// ``hash(_:)``, and the mask of the bytes it has: a whole-word test before the bytes are compared.
    private let heads: [(word: UInt32, mask: UInt32)]
    /// Sampling every second position: two bits per ``hash(_:)`` of three folded bytes, at `hash * 2 + plane`:
    /// plane 0, they can begin a keyword; plane 1, they can be a keyword's second to fourth byte (for a
    /// three-byte keyword, its last two and any byte).
    private let samples: [UInt64]
    /// Scanning every position (some keyword is shorter than three bytes): two bits per lowercased pair
    /// `first << 8 | second`: plane 0, it begins a keyword of three bytes or more; plane 1, a shorter one.
    private let pairs: [UInt64]
    /// Every keyword has three bytes or more.
    private let sampled: Bool
    /// Whether ``find(in:from:)`` runs the vector search.
    var isVector: Bool { vector != nil }
    /// The vector search, where the processor has one (AVX2 or NEON) and every keyword has three bytes or
    /// more: it finds what the sampling scan finds, several times faster.
    private let vector: LiteralSearch?
    /// ``vector``'s search, called without retaining it (``vector`` keeps it alive): a caller that keeps this
    /// scanner can search through it with no reference counting at all.
    let vectorHandle: LiteralSearch.Handle?

    /// The FNV-1a digest of the keywords' lowercased bytes, each followed by a zero.
    let literalDigest: UInt64

    /// The vector search's buckets for the built-in vocabulary's keywords, known by the keywords' ``literalDigest``:
    /// worked out by `Scripts/keyword-placement.py`, a local search over log text, not by the letter-frequency model
    /// of ``LiteralSearch/placement(of:)`` that a vocabulary of your own gets at start-up. Log messages are not English
    /// text: with the model's buckets, 8.4 % of the benchmark capture's messages had a position the VBMI filter let
    /// through (17.8 % through the nibble tables), with these 1.9 % (12.0 %), where 1.3 % hold a keyword; the `did`
    /// spellings no longer share a bucket with `nib`, whose bucket accepts any byte from the fourth position on, so
    /// `didDetermineState` and `didUpdateLocations` no longer pass. `VocabularyTests` checks the digest, that each
    /// keyword is in one bucket, and that these let less log text through than the model's; a digest that no longer
    /// matches costs the model's millisecond at every start.
    static let builtinPlacement: (digest: UInt64, buckets: [[Int]]) = (
        0xD085_7950_D249_D8D4,
        [
            [15, 21, 22, 28, 29], [14, 17], [0, 8, 9, 10, 18, 19, 20, 24, 25, 26, 27], [7, 12, 13, 16, 31, 36, 49],
            [6, 23, 30, 34, 37, 41, 44], [3, 4, 32, 39, 45, 47], [2, 5, 33, 35, 43, 46], [1, 11, 38, 40, 42, 48],
        ]
    )

    static func digest(_ literals: [[UInt8]]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for literal in literals {
            for byte in literal { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash &*= 0x0000_0100_0000_01B3  // the zero after each
        }
        return hash
    }

    /// The keywords' lowercased bytes, in order.
    var literals: [[UInt8]] { Self.literals(bytes, ranges) }

    /// Each keyword's lowercased bytes.
    private static func literals(_ bytes: [UInt8], _ ranges: [Range<Int>]) -> [[UInt8]] {
        ranges.map { Array(bytes[$0]) }
    }

    /// `vector: false` keeps the scalar scan even where the vector search could run (tests compare the two).
    init(_ keywords: [String], vector: Bool = true) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for keyword in keywords {
            let lowered = keyword.utf8.map(Self.lower)
            ranges.append(bytes.count..<(bytes.count + lowered.count))
            bytes.append(contentsOf: lowered)
        }
        var starts = [Int32](repeating: 0, count: 257)
        var order: [Int32] = []
        for first in 0..<256 {
            starts[first] = Int32(order.count)
            for (index, range) in ranges.enumerated() where !range.isEmpty && bytes[range.lowerBound] == first {
                order.append(Int32(index))
            }
        }
        starts[256] = Int32(order.count)
        func set(_ bits: inout [UInt64], _ index: Int) { bits[index >> 6] |= 1 << UInt64(index & 63) }
        func word(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 { UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 }
        let sampled = ranges.allSatisfy { $0.count >= 3 }
        var samples = [UInt64](repeating: 0, count: sampled ? Self.slots * 2 / 64 : 0)
        var pairs = [UInt64](repeating: 0, count: sampled ? 0 : 65_536 * 2 / 64)
        for range in ranges {
            let k = Array(bytes[range])
            if sampled {
                set(&samples, Self.hash(word(k[0], k[1], k[2])) * 2)
                if k.count >= 4 {
                    set(&samples, Self.hash(word(k[1], k[2], k[3])) * 2 + 1)
                } else {
                    for any in 0..<256 { set(&samples, Self.hash(word(k[1], k[2], UInt8(any))) * 2 + 1) }
                }
            } else if k.count >= 3 {
                set(&pairs, (Int(k[0]) << 8 | Int(k[1])) * 2)
            } else if k.count == 2 {
                set(&pairs, (Int(k[0]) << 8 | Int(k[1])) * 2 + 1)
            } else if k.count == 1 {
                // A one-byte keyword matches before any pair: mark every pair it can begin.
                for second in 0..<256 { set(&pairs, (Int(k[0]) << 8 | second) * 2 + 1) }
            }
        }
        self.samples = samples
        self.pairs = pairs
        self.sampled = sampled
        let literals = Self.literals(bytes, ranges)
        literalDigest = Self.digest(literals)
        let known = literalDigest == Self.builtinPlacement.digest ? Self.builtinPlacement.buckets : nil
        self.vector = sampled && vector ? LiteralSearch(literals, placement: known) : nil
        self.vectorHandle = self.vector?.handle
        self.bytes = bytes
        self.ranges = ranges
        self.starts = starts
        self.order = order
        self.heads = ranges.map { range in
            var word: UInt32 = 0
            var mask: UInt32 = 0
            for (offset, byte) in bytes[range].prefix(4).enumerated() {
                word |= UInt32(byte | 0x20) << (8 * offset)
                mask |= 0xFF << (8 * offset)
            }
            return (word, mask)
        }
    }

    /// Slots of the sampling table (a power of two).
    static let slots = 1 << 14

    /// The slot of three bytes (the low 24 bits of `word`, first byte lowest) after folding case by setting bit 5
    /// of each: letters fold exactly, a few other bytes fold onto each other, which only costs a comparison.
    @inline(__always)
    static func hash(_ word: UInt32) -> Int { Int((((word | 0x20_2020) & 0xFF_FFFF) &* 0x9E37_79B1) >> 18) }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }

    /// The first keyword found at or after `start`: its index and where it begins.
    @inline(__always)
    func find(in message: UnsafeRawBufferPointer, from start: Int) -> (keyword: Int, position: Int)? {
        if let vectorHandle { return vectorHandle.first(in: message, from: start).map { ($0.literal, $0.position) } }
        return scan(message, from: start)
    }

    /// ``find(in:from:)`` without the vector search.
    private func scan(_ message: UnsafeRawBufferPointer, from start: Int) -> (keyword: Int, position: Int)? {
        let count = message.count
        guard start < count, let base = message.baseAddress else { return nil }
        if !sampled { return scanEveryPosition(message, from: start) }
        return samples.withUnsafeBufferPointer { samples in
            var position = start
            // Sample `position` covers keywords starting there and one byte before; it reads four bytes.
            while position &+ 4 <= count {
                let slot = Self.hash(word(base, position)) &* 2
                let bits = samples[slot &>> 6] &>> UInt64(slot & 63) & 3
                if bits != 0 {
                    if bits & 2 != 0, position > start, let keyword = keyword(at: position &- 1, in: message) {
                        return (keyword, position &- 1)
                    }
                    if bits & 1 != 0, let keyword = keyword(at: position, in: message) { return (keyword, position) }
                }
                position &+= 2
            }
            // The last few positions, which no sample covered, one by one.
            for candidate in max(start, position - 1)..<count {
                if let keyword = keyword(at: candidate, in: message) { return (keyword, candidate) }
            }
            return nil
        }
    }

    /// ``find(in:from:)`` for vocabularies with keywords of one or two bytes.
    private func scanEveryPosition(_ message: UnsafeRawBufferPointer, from start: Int) -> (keyword: Int, position: Int)?
    {
        let count = message.count
        var position = start
        while position + 1 < count {
            let pair = Int(Self.lower(message[position])) << 8 | Int(Self.lower(message[position + 1]))
            if pairs[pair >> 5] >> UInt64((pair & 31) << 1) & 3 != 0, let keyword = keyword(at: position, in: message) {
                return (keyword, position)
            }
            position += 1
        }
        // The last byte can only begin a one-byte keyword.
        return keyword(at: count - 1, in: message).map { ($0, count - 1) }
    }

    /// Four bytes of `base` at `offset`, the first lowest.
    @inline(__always)
    private func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The keyword starting at `position`, if one does.
    private func keyword(at position: Int, in message: UnsafeRawBufferPointer) -> Int? {
        let first = Int(Self.lower(message[position]))
        var candidate = Int(starts[first])
        let end = Int(starts[first + 1])
        // Where four bytes can be read, keywords whose first bytes differ (even folded) are passed over at once.
        let head = position + 4 <= message.count ? message.baseAddress.map { word($0, position) | 0x2020_2020 } : nil
        while candidate < end {
            let keyword = Int(order[candidate])
            let range = ranges[keyword]
            if let head, head & heads[keyword].mask != heads[keyword].word {
                candidate += 1
                continue
            }
            if position + range.count <= message.count {
                var offset = 1
                while offset < range.count, Self.lower(message[position + offset]) == bytes[range.lowerBound + offset] {
                    offset += 1
                }
                if offset == range.count { return keyword }
            }
            candidate += 1
        }
        return nil
    }
}
