import CSIMD

/// Finds the first of a set of ASCII-caseless literals (three bytes or more) in a buffer, 32 positions at a time
/// (16 on AArch64), with the vector byte shuffles of Hyperscan's "Teddy" algorithm (``CSIMD``'s
/// `csimd_literals_find`).
///
/// Needs x86-64 with AVX2 or AArch64 (NEON): ``init(_:)`` returns nil elsewhere, or when a literal is shorter than
/// three bytes, and the caller keeps its scalar scan. Immutable once made, so one set serves every thread.
public final class LiteralSearch: @unchecked Sendable {
    private let set = UnsafeMutablePointer<csimd_literals>.allocate(capacity: 1)
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let offsets: UnsafeMutableBufferPointer<Int32>
    private let members: UnsafeMutableBufferPointer<Int32>
    private let heads: UnsafeMutableBufferPointer<UInt32>
    /// The literals by head (`csimd_literals_index`): 512 slots, then one chain link per literal.
    private let index: UnsafeMutableBufferPointer<Int32>

    /// Whether this processor can run the search.
    public static let isAvailable = csimd_literals_available() != 0

    /// A search for `literals` (their bytes; compared without ASCII case), or nil when this processor cannot run
    /// it or a literal is shorter than three bytes.
    public init?(_ literals: [[UInt8]]) {
        guard Self.isAvailable, !literals.isEmpty, literals.allSatisfy({ $0.count >= 3 }) else { return nil }
        let lowered = literals.map { $0.map { $0 &- 65 < 26 ? $0 | 0x20 : $0 } }
        bytes = .allocate(capacity: lowered.reduce(0) { $0 + $1.count })
        offsets = .allocate(capacity: lowered.count + 1)
        members = .allocate(capacity: lowered.count)
        heads = .allocate(capacity: lowered.count * 2)
        index = .allocate(capacity: 512 + lowered.count)
        var offset = 0
        for (index, literal) in lowered.enumerated() {
            offsets[index] = Int32(offset)
            for byte in literal {
                bytes[offset] = byte
                offset += 1
            }
        }
        offsets[lowered.count] = Int32(offset)
        for (index, literal) in lowered.enumerated() {
            var word: UInt32 = 0
            var mask: UInt32 = 0
            for (position, byte) in literal.prefix(4).enumerated() {
                word |= UInt32(byte | 0x20) << (8 * position)
                mask |= 0xFF << (8 * position)
            }
            heads[index] = word
            heads[lowered.count + index] = mask
        }
        set.initialize(to: csimd_literals())
        set.pointee.bytes = UnsafePointer(bytes.baseAddress)
        set.pointee.offsets = UnsafePointer(offsets.baseAddress)
        set.pointee.members = UnsafePointer(members.baseAddress)
        set.pointee.heads = UnsafePointer(heads.baseAddress)
        set.pointee.head_masks = UnsafePointer(heads.baseAddress.map { $0 + lowered.count })
        if let slots = index.baseAddress {
            csimd_literals_index(set, Int32(lowered.count), slots, slots + 512)
        }
        let buckets = Self.buckets(lowered)
        var next = 0
        withUnsafeMutableBytes(of: &set.pointee.starts) { raw in
            let starts = raw.bindMemory(to: Int32.self)
            for (bucket, literalIndices) in buckets.enumerated() {
                starts[bucket] = Int32(next)
                for index in literalIndices.sorted() {
                    members[next] = Int32(index)
                    next += 1
                    lowered[index].withUnsafeBufferPointer { literal in
                        csimd_literals_add(set, literal.baseAddress, literal.count, Int32(bucket))
                    }
                }
            }
            starts[8] = Int32(next)
        }
    }

    deinit {
        set.deallocate()
        bytes.deallocate()
        offsets.deallocate()
        members.deallocate()
        heads.deallocate()
        index.deallocate()
    }

    /// The first literal that begins at or after `start`: its index and position.
    @inline(__always)
    public func first(in buffer: UnsafeRawBufferPointer, from start: Int) -> (literal: Int, position: Int)? {
        handle.first(in: buffer, from: start)
    }

    /// The search without its owner: valid while the ``LiteralSearch`` it came from lives. A caller that keeps
    /// both searches through this on its per-line path, where a call through the class would retain and release
    /// it every time.
    public var handle: Handle { Handle(set: UnsafePointer(set)) }

    /// Inlinable, so that a search costs the C call alone.
    @frozen
    public struct Handle: @unchecked Sendable {
        @usableFromInline
        let set: UnsafePointer<csimd_literals>

        @usableFromInline
        init(set: UnsafePointer<csimd_literals>) { self.set = set }

        /// The first literal that begins at or after `start`: its index and position.
        @inlinable
        public func first(in buffer: UnsafeRawBufferPointer, from start: Int) -> (literal: Int, position: Int)? {
            guard start < buffer.count, let base = buffer.baseAddress else { return nil }
            let count = buffer.count - start
            var literal: Int32 = -1
            let found = csimd_literals_find(set, base.assumingMemoryBound(to: UInt8.self) + start, count, &literal)
            return found < count ? (Int(literal), start + found) : nil
        }
    }

    /// Literals spread over eight buckets so that each bucket's nibble tables accept as few byte strings as can be:
    /// the cost of a bucket is the product, over the four fingerprint positions, of how many low and high nibbles
    /// its literals have there (a three-byte literal accepts every fourth byte). Literals with the same first four
    /// bytes go together; then single moves and swaps between buckets are made while one lowers the total.
    static func buckets(_ literals: [[UInt8]]) -> [[Int]] {
        var byFingerprint: [[UInt8]: [Int]] = [:]
        for (index, literal) in literals.enumerated() {
            byFingerprint[Array(literal.prefix(4)).map { $0 | 0x20 }, default: []].append(index)
        }
        let fingerprints = byFingerprint.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var groups = [[Int]](repeating: [], count: 8)  // indices into `fingerprints`
        for index in fingerprints.indices { groups[index * 8 / fingerprints.count].append(index) }
        // Per fingerprint, the nibbles it has at each position (low and high, alternately), as one-hot masks: a
        // bucket's nibble sets are the OR of its members' (every nibble past a short fingerprint's end).
        let masks: [SIMD8<UInt16>] = fingerprints.map { fingerprint in
            var mask = SIMD8<UInt16>(repeating: 0xFFFF)
            for (position, byte) in fingerprint.prefix(4).enumerated() {
                mask[2 * position] = 1 << UInt16(byte & 0x0F)
                mask[2 * position + 1] = 1 << UInt16(byte >> 4)
            }
            return mask
        }
        /// The cost of `group` without `removed` and with `added` (-1: none), made without building the group.
        func cost(_ group: [Int], removing removed: Int = -1, adding added: Int = -1) -> Double {
            var union = SIMD8<UInt16>(repeating: 0)
            var members = 0
            for index in group where index != removed {
                union |= masks[index]
                members += 1
            }
            if added >= 0 {
                union |= masks[added]
                members += 1
            }
            guard members > 0 else { return 0 }
            let counts = union.nonzeroBitCount
            var product = 1.0
            for position in 0..<4 { product *= Double(counts[2 * position] * counts[2 * position + 1]) }
            return product
        }
        var improved = true
        var rounds = 0
        while improved, rounds < 1000 {
            improved = false
            rounds += 1
            search: for a in 0..<8 {
                for b in 0..<8 where b != a {
                    let before = cost(groups[a]) + cost(groups[b])
                    for x in groups[a] {
                        let movedA = cost(groups[a], removing: x)
                        if movedA + cost(groups[b], adding: x) < before {
                            groups[a] = groups[a].filter { $0 != x }
                            groups[b].append(x)
                            improved = true
                            break search
                        }
                        for y in groups[b] {
                            // A swap: `a` loses x and gains y, `b` loses y and gains x.
                            if cost(groups[a], removing: x, adding: y) + cost(groups[b], removing: y, adding: x)
                                < before
                            {
                                groups[a] = groups[a].filter { $0 != x } + [y]
                                groups[b] = groups[b].filter { $0 != y } + [x]
                                improved = true
                                break search
                            }
                        }
                    }
                }
            }
        }
        return groups.map { group in group.flatMap { byFingerprint[fingerprints[$0]] ?? [] } }
    }
}

/// Where the line feeds of a buffer are, 64 bytes per step (``CSIMD``'s `csimd_newlines`).
public enum NewlineScan {
    /// Whether this processor runs the scan with vectors (x86-64 with AVX2, or AArch64); a reader keeps `memchr`
    /// otherwise.
    public static let isAvailable = csimd_newlines_available() != 0

    /// Marks every LF of `bytes` in `bitmap` (bit p of `bitmap[p / 64]`, bits past the end clear); `bitmap` holds
    /// at least `(bytes.count + 63) / 64` words.
    @inlinable
    public static func mark(_ bytes: UnsafeRawBufferPointer, into bitmap: UnsafeMutablePointer<UInt64>) {
        guard let base = bytes.baseAddress else { return }
        csimd_newlines(base.assumingMemoryBound(to: UInt8.self), bytes.count, bitmap)
    }
}

/// Opening minus closing brackets (`{([` and `})]`) in a buffer: how far a line opens or closes an NSDictionary
/// or NSArray dump. With vectors where ``NewlineScan`` has them (`csimd_bracket_balance`), else byte by byte.
public enum BracketBalance {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let vectors: Int32 = NewlineScan.isAvailable ? 1 : 0
        return Int(csimd_bracket_balance(base.assumingMemoryBound(to: UInt8.self), bytes.count, vectors))
    }
}
