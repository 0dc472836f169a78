import CSIMD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    private let heads: UnsafeMutableBufferPointer<UInt64>
    /// The literals by head (`csimd_literals_index`): 512 slots, then one chain link per literal.
    private let index: UnsafeMutableBufferPointer<Int32>

    /// Whether this processor can run the search.
    public static let isAvailable = csimd_vector_level() != 0

    /// A search for `literals` (their bytes; compared without ASCII case), or nil when this processor cannot run
    /// it or a literal is shorter than three bytes. `placement`: the literals' buckets as ``placement(of:)`` works
    /// them out, known ahead (a literal set met on every run; working it out takes about a millisecond); used when
    /// it puts every literal in exactly one of the eight buckets, else worked out. Any such placement finds the
    /// same literals: only how many positions pass the filter depends on it.
    public init?(_ literals: [[UInt8]], placement: [[Int]]? = nil) {
        guard Self.isAvailable, !literals.isEmpty, literals.allSatisfy({ $0.count >= 3 }) else { return nil }
        let lowered = Self.lowered(literals)
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
            var word: UInt64 = 0
            var mask: UInt64 = 0
            for (position, byte) in literal.prefix(8).enumerated() {
                word |= UInt64(byte | 0x20) << (8 * position)
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
        let known = placement.flatMap { Self.isPartition($0, count: lowered.count) ? $0 : nil }
        let buckets = known ?? Self.buckets(lowered)
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

        /// Marks a buffer's line feeds in `newlines` and in `candidates` the positions where a literal can begin
        /// (``Marks``), in one pass (`csimd_scan`): bit p of word p / 64, bits past the end clear. Each bitmap
        /// holds `(bytes.count + 63) / 64` words, and ``Marks/padding`` readable bytes follow `bytes`. Call only
        /// on a set made here (the scan runs wherever ``LiteralSearch/isAvailable``).
        ///
        /// With `verifyingWithin`, each position marked is then checked (`csimd_verify_marks`), comparing inside
        /// that many bytes from `bytes`' start (at least `bytes.count`: a literal begun in the buffer may run on
        /// into bytes that follow it), and only those where a literal begins stay marked: the marks are exact.
        @inlinable
        public func scan(
            _ bytes: UnsafeRawBufferPointer, newlines: UnsafeMutablePointer<UInt64>,
            candidates: UnsafeMutablePointer<UInt64>, verifyingWithin valid: Int? = nil
        ) {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            csimd_scan(set, base, bytes.count, newlines, candidates)
            if let valid { csimd_verify_marks(set, base, bytes.count, max(valid, bytes.count), candidates) }
        }

        /// ``first(in:from:)`` for a buffer inside the bytes `marks` covers: only the positions marked there are
        /// checked (a buffer elsewhere is searched as usual). A buffer of up to 114 bytes with no mark costs two
        /// loads of the marks.
        @inlinable @inline(__always)
        public func first(in buffer: UnsafeRawBufferPointer, from start: Int, marks: Marks) -> (
            literal: Int, position: Int
        )? {
            guard let base = buffer.baseAddress else { return nil }
            let offset = marks.origin.distance(to: base)
            guard offset >= 0, offset &+ buffer.count <= marks.count else { return unmarked(buffer, from: start) }
            guard start >= 0, start &+ 3 <= buffer.count else { return nil }
            let from = offset &+ start
            if marks.noneMarked(from: from, positions: buffer.count &- 2 &- start) { return nil }
            return marked(buffer, offset: offset, from: from, marks: marks)
        }

        /// The first literal at a marked position of `buffer` from `from` on (positions in the marked bytes).
        @usableFromInline @inline(never)
        func marked(_ buffer: UnsafeRawBufferPointer, offset: Int, from: Int, marks: Marks) -> (
            literal: Int, position: Int
        )? {
            guard let base = buffer.baseAddress else { return nil }
            let count = buffer.count
            let end = offset &+ count &- 2
            var word = from >> 6
            var bits = marks.bits[word] & (~0 << UInt64(from & 63))
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            while true {
                while bits == 0 {
                    word &+= 1
                    guard word << 6 < end else { return nil }
                    bits = marks.bits[word]
                }
                let position = word << 6 | bits.trailingZeroBitCount
                guard position < end else { return nil }
                bits &= bits &- 1
                let literal = csimd_literal_verify(set, bytes, count, position &- offset)
                if literal >= 0 { return (Int(literal), position &- offset) }
            }
        }

        /// ``first(in:from:)``, out of line (a buffer outside the marked bytes: a copy of a line).
        @usableFromInline @inline(never)
        func unmarked(_ buffer: UnsafeRawBufferPointer, from start: Int) -> (literal: Int, position: Int)? {
            first(in: buffer, from: start)
        }
    }

    /// The positions of a span of bytes where a literal can begin, as ``Handle/scan(_:newlines:candidates:)``
    /// marked them: bit p of `bits[p / 64]` for the byte at `origin + p`, for `count` bytes, in a bitmap of
    /// ``words(for:)`` words. The three are read through a ``Place`` that the owner of the marks moves when it
    /// hands out bytes marked elsewhere (a reader whose chunks are in several buffers), so the marks stay the
    /// current bytes'. Valid while those bytes and marks are unchanged (a reader's chunk, while its lines are handed
    /// out).
    @frozen
    public struct Marks: @unchecked Sendable {
        /// Where marked bytes and their marks are.
        @frozen
        public struct Place {
            public var origin: UnsafeRawPointer
            public var bits: UnsafePointer<UInt64>
            public var count: Int

            public init(origin: UnsafeRawPointer, bits: UnsafePointer<UInt64>, count: Int) {
                self.origin = origin
                self.bits = bits
                self.count = count
            }
        }

        public let place: UnsafePointer<Place>

        public init(_ place: UnsafePointer<Place>) { self.place = place }

        /// Where the marked bytes begin now.
        @inlinable @inline(__always)
        public var origin: UnsafeRawPointer { place.pointee.origin }
        /// Their marks.
        @inlinable @inline(__always)
        public var bits: UnsafePointer<UInt64> { place.pointee.bits }
        /// How many bytes are marked.
        @inlinable @inline(__always)
        public var count: Int { place.pointee.count }

        /// Whether `buffer` lies inside the marked bytes with none of its positions marked (positions with three
        /// bytes or more left; for a buffer of up to 114 bytes: a longer one is not looked at and gives false):
        /// then no literal begins in it. Two loads of the marks.
        @inlinable @inline(__always)
        public func noneMarked(in buffer: UnsafeRawBufferPointer) -> Bool {
            guard let base = buffer.baseAddress else { return true }
            let offset = origin.distance(to: base)
            guard offset >= 0, offset &+ buffer.count <= count else { return false }
            return noneMarked(from: offset, positions: buffer.count &- 2)
        }

        /// Whether none of the `positions` marks from `from` on is set, for at most 112 positions (more: false).
        /// The marks are read as two windows of 56 from the bytes that hold them (the bitmaps have words to spare
        /// at their end for these reads).
        @inlinable @inline(__always)
        func noneMarked(from: Int, positions: Int) -> Bool {
            guard positions <= 112 else { return false }
            guard positions > 0 else { return true }
            let raw = UnsafeRawPointer(bits)
            let second = from &+ 56
            let low = raw.loadUnaligned(fromByteOffset: from &>> 3, as: UInt64.self) &>> UInt64(from & 7)
            let high = raw.loadUnaligned(fromByteOffset: second &>> 3, as: UInt64.self) &>> UInt64(second & 7)
            let lowCount = min(positions, 56)
            let highCount = max(positions &- 56, 0)
            return low & ((1 &<< UInt64(lowCount)) &- 1) | high & ((1 &<< UInt64(highCount)) &- 1) == 0
        }

        /// Bytes past the end of a scanned buffer that the scan may read (and ignore).
        public static let padding = Int(CSIMD_SCAN_PADDING)

        /// The words of a bitmap of marks for `count` bytes: one bit per byte, and words to spare for the
        /// unaligned reads near its end.
        public static func words(for count: Int) -> Int { (count + 63) / 64 + 3 }
    }

    /// How often each byte is in the text searched, as a model of log messages: English letters at their usual
    /// frequencies (either case; the tables accept both), spaces, digits, and a little of everything else. A
    /// bucket costs the product, over the fingerprint's positions, of how much of the text its tables accept
    /// there: the chance that it survives at a random position. Indexed by `high << 4 | low` nibble.
    static let byteWeights: [Double] = {
        var weights = [Double](repeating: 0.002, count: 256)
        let letters: [(Character, Double)] = [
            ("e", 12.7), ("t", 9.1), ("a", 8.2), ("o", 7.5), ("i", 7.0), ("n", 6.7), ("s", 6.3), ("h", 6.1),
            ("r", 6.0), ("d", 4.3), ("l", 4.0), ("c", 2.8), ("u", 2.8), ("m", 2.4), ("w", 2.4), ("f", 2.2),
            ("g", 2.0), ("y", 2.0), ("p", 1.9), ("b", 1.5), ("v", 1.0), ("k", 0.8), ("j", 0.15), ("x", 0.15),
            ("q", 0.1), ("z", 0.07),
        ]
        for (letter, percent) in letters { weights[Int(letter.asciiValue ?? 0)] = percent / 100 * 0.7 }
        for digit in UInt8(ascii: "0")...UInt8(ascii: "9") { weights[Int(digit)] = 0.008 }
        weights[Int(UInt8(ascii: " "))] = 0.15
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }()

    /// ``byteWeights`` summed over the low nibbles a mask accepts, by halves of the mask: entry
    /// `high << 9 | half << 8 | bits` is the weight of the bytes with high nibble `high` and a low nibble among
    /// `bits` shifted left by `8 * half`.
    static let nibbleWeights: [Double] = {
        var sums = [Double](repeating: 0, count: 16 << 9)
        for high in 0..<16 {
            for half in 0..<2 {
                let row = high << 9 | half << 8
                for bits in 1..<256 {
                    // The sum without the lowest bit, plus that bit's byte.
                    let byte = high << 4 | (half * 8 + bits.trailingZeroBitCount)
                    sums[row | bits] = sums[row | (bits & (bits - 1))] + byteWeights[byte]
                }
            }
        }
        return sums
    }()

    /// The buckets ``init(_:placement:)`` puts `literals` in when it is given no placement.
    public static func placement(of literals: [[UInt8]]) -> [[Int]] { buckets(lowered(literals)) }

    /// ASCII upper case lowered.
    private static func lowered(_ literals: [[UInt8]]) -> [[UInt8]] {
        literals.map { $0.map { $0 &- 65 < 26 ? $0 | 0x20 : $0 } }
    }

    /// Whether `buckets` are eight that hold each of `count` literals once.
    static func isPartition(_ buckets: [[Int]], count: Int) -> Bool {
        guard buckets.count == 8 else { return false }
        var seen = [Bool](repeating: false, count: count)
        for index in buckets.joined() {
            guard index >= 0, index < count, !seen[index] else { return false }
            seen[index] = true
        }
        return !seen.contains(false)
    }

    /// Literals spread over eight buckets so that together they survive at as few positions of typical text as can
    /// be (``byteWeights``): literals with the same first five bytes go together; the others are placed one at a
    /// time where they add least, then single moves and swaps between buckets are made while one lowers the total,
    /// for at most 20 passes. (A cost that counts the nibbles a bucket accepts treats `q` like `e`, and let several
    /// times more positions through on log messages.)
    static func buckets(_ literals: [[UInt8]]) -> [[Int]] {
        let positions = Int(CSIMD_POSITIONS)
        var byFingerprint: [[UInt8]: [Int]] = [:]
        for (index, literal) in literals.enumerated() {
            byFingerprint[Array(literal.prefix(positions)).map { $0 | 0x20 }, default: []].append(index)
        }
        let fingerprints = byFingerprint.keys.sorted { $0.lexicographicallyPrecedes($1) }
        // Per fingerprint, the low and high nibbles the tables accept at each position as one-hot masks (lanes
        // 2p and 2p + 1; every nibble past a short fingerprint's end): a bucket's are the OR of its members'.
        let masks: [SIMD16<UInt16>] = fingerprints.map { fingerprint in
            var mask = SIMD16<UInt16>(repeating: 0)
            for position in 0..<positions {
                guard position < fingerprint.count else {
                    mask[2 * position] = 0xFFFF
                    mask[2 * position + 1] = 0xFFFF
                    continue
                }
                let byte = fingerprint[position]
                mask[2 * position] = 1 << UInt16(byte & 0x0F)
                mask[2 * position + 1] = 1 << UInt16(byte >> 4) | 1 << UInt16(byte >> 4 & ~2)
            }
            return mask
        }
        // Read without bounds checks: some 6,500 costs are reckoned at start-up.
        let weights = nibbleWeights
        let table = UnsafeMutablePointer<Double>.allocate(capacity: weights.count)
        defer { table.deallocate() }
        table.initialize(from: weights, count: weights.count)
        let halves = UnsafePointer(table)
        /// The chance that a bucket whose nibble masks are `union` survives at a position.
        func cost(_ union: SIMD16<UInt16>) -> Double {
            var product = 1.0
            for position in 0..<Int(CSIMD_POSITIONS) {
                let low = Int(union[2 &* position])
                var highs = union[2 &* position &+ 1]
                guard low != 0xFFFF || highs != 0xFFFF else { continue }  // a short fingerprint: any byte
                var accepted = 0.0
                while highs != 0 {
                    let row = highs.trailingZeroBitCount &<< 9
                    highs &= highs &- 1
                    accepted += halves[row | low & 0xFF] + halves[row | 256 | low &>> 8]
                }
                product *= accepted
            }
            return product
        }
        /// The masks of `group` without its member `excluded` (-1: none).
        func union(_ group: [Int], without excluded: Int = -1) -> SIMD16<UInt16> {
            var union = SIMD16<UInt16>(repeating: 0)
            for index in group where index != excluded { union |= masks[index] }
            return union
        }
        var groups = [[Int]](repeating: [], count: 8)  // indices into `fingerprints`
        var unions = [SIMD16<UInt16>](repeating: SIMD16(repeating: 0), count: 8)
        var costs = [Double](repeating: 0, count: 8)
        for index in fingerprints.indices {
            var best = 0
            var bestIncrease = Double.infinity
            for bucket in 0..<8 {
                let increase = cost(unions[bucket] | masks[index]) - costs[bucket]
                if increase < bestIncrease {
                    best = bucket
                    bestIncrease = increase
                }
            }
            groups[best].append(index)
            unions[best] |= masks[index]
            costs[best] = cost(unions[best])
        }
        for _ in 0..<20 {
            var improved = false
            for a in 0..<8 {
                for x in groups[a] where groups[a].contains(x) {
                    let unionWithoutX = union(groups[a], without: x)
                    let costWithoutX = groups[a].count == 1 ? 0 : cost(unionWithoutX)
                    moves: for b in 0..<8 where b != a {
                        let before = (costs[a] + costs[b]) * (1 - 1e-9)
                        let costBWithX = cost(unions[b] | masks[x])
                        if costWithoutX + costBWithX < before {
                            groups[a].removeAll { $0 == x }
                            groups[b].append(x)
                            (unions[a], unions[b]) = (unionWithoutX, unions[b] | masks[x])
                            (costs[a], costs[b]) = (costWithoutX, costBWithX)
                            improved = true
                            break moves
                        }
                        for y in groups[b] {
                            // A swap: `a` loses x and gains y, `b` loses y and gains x.
                            let (newA, newB) = (unionWithoutX | masks[y], union(groups[b], without: y) | masks[x])
                            let (costA, costB) = (cost(newA), cost(newB))
                            if costA + costB < before {
                                groups[a].removeAll { $0 == x }
                                groups[a].append(y)
                                groups[b].removeAll { $0 == y }
                                groups[b].append(x)
                                (unions[a], unions[b], costs[a], costs[b]) = (newA, newB, costA, costB)
                                improved = true
                                break moves
                            }
                        }
                    }
                }
            }
            if !improved { break }
        }
        return groups.map { group in group.flatMap { byFingerprint[fingerprints[$0]] ?? [] } }
    }
}

/// Where the line feeds of a buffer are, 64 bytes per step (``CSIMD``'s `csimd_byte_marks`).
public enum NewlineScan {
    /// Whether this processor runs the scan with vectors (x86-64 with AVX2, or AArch64); a reader keeps `memchr`
    /// otherwise.
    public static let isAvailable = csimd_vector_level() != 0

    /// Marks every LF of `bytes` in `bitmap` (bit p of `bitmap[p / 64]`, bits past the end clear); `bitmap` holds
    /// at least `(bytes.count + 63) / 64` words.
    @inlinable
    public static func mark(_ bytes: UnsafeRawBufferPointer, into bitmap: UnsafeMutablePointer<UInt64>) {
        guard let base = bytes.baseAddress else { return }
        csimd_byte_marks(base.assumingMemoryBound(to: UInt8.self), bytes.count, 0x0A, bitmap)
    }
}

/// Where a pair of bytes is in a buffer (each `":` of a `log-ndjson` line, where its keys end): 64 bytes per step
/// with vectors (`csimd_pair_marks`, a window of 1,024 bytes at a time), with `memchr` where ``NewlineScan`` has none.
public enum BytePairScan {
    /// Calls `body` with each position of `first` followed by `second` in `bytes` from `start` on, in order, while
    /// it returns true.
    @inlinable
    public static func forEach(
        _ first: UInt8, _ second: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, _ body: (Int) -> Bool
    ) {
        guard let base = bytes.baseAddress, start < bytes.count else { return }
        guard NewlineScan.isAvailable else { return withoutVectors(first, second, in: bytes, from: start, body) }
        let count = bytes.count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: window >> 6 &+ 1) { bits in
            guard let marks = bits.baseAddress else { return }
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            var from = start
            while from < count {
                let size = min(window, count &- from)
                // With the byte after the window, when there is one: a pair may begin at the window's last byte.
                csimd_pair_marks(bytes + from, min(size &+ 1, count &- from), first, second, marks)
                for word in 0..<(size &+ 63) >> 6 {
                    var bits = marks[word]
                    while bits != 0 {
                        guard body(from &+ word << 6 &+ bits.trailingZeroBitCount) else { return }
                        bits &= bits &- 1
                    }
                }
                from &+= size
            }
        }
    }

    /// ``forEach(_:_:in:from:_:)`` where the processor has no vectors for it: `memchr` for each `first`.
    @usableFromInline
    static func withoutVectors(
        _ first: UInt8, _ second: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, _ body: (Int) -> Bool
    ) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var from = start
        while from < count, let found = memchr(base + from, Int32(first), count &- from) {
            let position = UnsafeRawPointer(found) - base
            if position &+ 1 < count, bytes[position &+ 1] == second { guard body(position) else { return } }
            from = position &+ 1
        }
    }

    /// The bytes marked per call of `csimd_pair_marks`.
    @usableFromInline
    static let window = 1_024
}

/// Opening minus closing brackets (`{([` and `})]`) in a buffer: how far a line opens or closes an NSDictionary
/// or NSArray dump. With vectors where ``NewlineScan`` has them (`csimd_bracket_balance`), else byte by byte.
public enum BracketBalance {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return Int(csimd_bracket_balance(base.assumingMemoryBound(to: UInt8.self), bytes.count, vectors))
    }

    /// Whether the count uses vectors (`csimd_bracket_balance`'s `vectors`).
    static let vectors: Int32 = NewlineScan.isAvailable ? 1 : 0
}
