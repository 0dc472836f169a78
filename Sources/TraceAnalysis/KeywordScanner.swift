/// Finds any of a set of ASCII keywords in a message, without case, in one pass over its bytes.
///
/// The vocabulary's cheap first test: most log messages hold no keyword and cost only this scan. A 64 KiB table
/// says which (lowercased) byte pairs begin a keyword, so each position of the message costs one lookup, and the
/// keywords starting with that byte are compared only where the pair fits.
struct KeywordScanner: Sendable {
    /// Keyword bytes, lowercased, one after another; `ranges[k]` is keyword `k`'s slice.
    private let bytes: [UInt8]
    private let ranges: [Range<Int>]
    /// For each lowercased first byte, the keywords starting with it: `order[starts[b]..<starts[b + 1]]`.
    private let starts: [Int32]
    private let order: [Int32]
    /// Where a lowercased byte pair `first << 8 | second` begins some keyword: 1 when only keywords of three bytes
    /// or more (the third byte is checked next), 2 when a shorter one too.
    private let pairs: [UInt8]
    /// 1 where the hash of three lowercased bytes (``triple(_:_:_:)``) begins a keyword of three bytes or more: most
    /// pairs that begin a keyword in English text ("de", "te", "ac") are not followed by its third byte.
    private let triples: [UInt8]

    init(_ keywords: [String]) {
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
        var pairs = [UInt8](repeating: 0, count: 65_536)
        var triples = [UInt8](repeating: 0, count: 65_536)
        for range in ranges where range.count >= 2 {
            let pair = Int(bytes[range.lowerBound]) << 8 | Int(bytes[range.lowerBound + 1])
            if range.count == 2 {
                pairs[pair] = 2
            } else {
                pairs[pair] = max(pairs[pair], 1)
                triples[Self.triple(pair, Int(bytes[range.lowerBound + 2]))] = 1
            }
        }
        // A one-byte keyword matches before any pair: mark every pair it can begin.
        for range in ranges where range.count == 1 {
            for second in 0..<256 { pairs[Int(bytes[range.lowerBound]) << 8 | second] = 2 }
        }
        self.pairs = pairs
        self.triples = triples
        self.bytes = bytes
        self.ranges = ranges
        self.starts = starts
        self.order = order
    }

    /// The slot of a pair and a third byte in ``triples``.
    @inline(__always)
    static func triple(_ pair: Int, _ third: Int) -> Int { (pair &* 31 &+ third) & 0xFFFF }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }

    /// The first keyword found at or after `start`: its index and where it begins.
    func find(in message: UnsafeRawBufferPointer, from start: Int) -> (keyword: Int, position: Int)? {
        let count = message.count
        guard start < count, let base = message.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        return pairs.withUnsafeBufferPointer { pairs in
            triples.withUnsafeBufferPointer { triples in
                let last = count - 1
                var position = start
                var first = Int(Self.lower(base[position]))
                // Every position but the last has a second byte: one table lookup each, no other branch.
                while position < last {
                    let second = Int(Self.lower(base[position + 1]))
                    let pair = first << 8 | second
                    let kind = pairs[pair]
                    if kind != 0,
                        kind == 2
                            || (position + 2 <= last
                                && triples[Self.triple(pair, Int(Self.lower(base[position + 2])))] != 0),
                        let keyword = keyword(at: position, first: first, in: message)
                    {
                        return (keyword, position)
                    }
                    first = second
                    position += 1
                }
                // The last byte can only begin a one-byte keyword.
                return keyword(at: last, first: first, in: message).map { ($0, last) }
            }
        }
    }

    /// The keyword starting at `position`, if one does.
    private func keyword(at position: Int, first: Int, in message: UnsafeRawBufferPointer) -> Int? {
        var candidate = Int(starts[first])
        let end = Int(starts[first + 1])
        while candidate < end {
            let keyword = Int(order[candidate])
            let range = ranges[keyword]
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
