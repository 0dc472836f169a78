#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small memo of what a pure function of a short byte string returned: direct-mapped slots, each holding a
/// string of up to ``longest`` bytes (a copy), its hash and an `Int32` answer.
///
/// Made for the vocabulary search, whose answer for a message depends on nothing but the message while no pattern
/// gives up: a capture's lifecycle messages are a few dozen strings repeated thousands of times, and the search
/// (a keyword, then a PCRE2 alternation) costs about 2,000 instructions where the memo's hit costs under 100.
/// ``clear()`` forgets every answer and moves ``generation`` on; ``store(_:hash:answer:generation:)`` keeps an
/// answer only when no clearing came between the lookup that missed and the store (a search that gave up, which
/// can retire a pattern and so change later answers, clears the memo).
///
/// Not thread-safe: one per thread, as the matchers it sits beside. Its storage is behind pointers, so that a
/// lookup makes no exclusive-access check.
public final class ByteMemo {
    /// The longest string kept: longer ones are always looked up again (the lifecycle messages that repeat are
    /// short; long ones carry addresses, options or counts that make each different).
    public static let longest = 128
    /// The number of slots: a power of two.
    public static let slots = 256

    /// Per slot: hash (0 for an empty slot), length, answer, as three words.
    @usableFromInline let heads: UnsafeMutablePointer<UInt64>
    /// Per slot, ``longest`` bytes.
    @usableFromInline let bytes: UnsafeMutableRawPointer
    /// Moved on by every ``clear()``.
    @usableFromInline let clears: UnsafeMutablePointer<Int>

    public init() {
        heads = .allocate(capacity: 3 * Self.slots)
        heads.initialize(repeating: 0, count: 3 * Self.slots)
        bytes = .allocate(byteCount: Self.slots * Self.longest, alignment: 16)
        clears = .allocate(capacity: 1)
        clears.initialize(to: 0)
    }

    deinit {
        heads.deallocate()
        bytes.deallocate()
        clears.deallocate()
    }

    /// How many times the memo was cleared: read before a lookup that misses, handed to the store after.
    @inlinable
    public var generation: Int { clears.pointee }

    /// Forgets every answer.
    public func clear() {
        heads.update(repeating: 0, count: 3 * Self.slots)
        clears.pointee &+= 1
    }

    /// The hash of `string` (never 0), from its length and three of its words (the first eight bytes, the last
    /// eight and eight from the middle; a shorter string's bytes one by one): a constant cost whatever the length,
    /// where strings that share those bytes and their length only share a slot (the bytes are compared whole).
    @inlinable
    public static func hash(_ string: UnsafeRawBufferPointer) -> UInt64 {
        let count = string.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = string.baseAddress, count >= 8 else {
            var word: UInt64 = 0
            for byte in string { word = word << 8 | UInt64(byte) }
            return mix(hash ^ word, 0) | 1
        }
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        hash = mix(hash ^ word(0), word((count &- 8) >> 1))
        return mix(hash, word(count &- 8)) | 1
    }

    /// `hash` and `word` stirred together (multiplications and shifts of SplitMix64's finaliser).
    @inlinable @inline(__always)
    static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        var mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 31
        mixed = mixed &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 29)
    }

    @inlinable @inline(__always)
    static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 56) & (slots &- 1) }

    /// The answer kept for `string` (whose ``hash(_:)`` is `hash`), or nil when none is.
    @inlinable
    public func answer(for string: UnsafeRawBufferPointer, hash: UInt64) -> Int32? {
        let slot = Self.slot(hash)
        let head = heads + 3 &* slot
        guard head[0] == hash, head[1] == UInt64(truncatingIfNeeded: string.count) else { return nil }
        guard let base = string.baseAddress else { return Int32(truncatingIfNeeded: head[2]) }
        let kept = bytes + slot &* Self.longest
        return memcmp(kept, base, string.count) == 0 ? Int32(truncatingIfNeeded: head[2]) : nil
    }

    /// Keeps `answer` for `string` (whose hash is `hash`) in its slot, in place of what was there, when `string`
    /// is no longer than ``longest`` and the memo was not cleared since `generation` was read.
    @inlinable
    public func store(_ string: UnsafeRawBufferPointer, hash: UInt64, answer: Int32, generation: Int) {
        guard string.count <= Self.longest, generation == clears.pointee else { return }
        let slot = Self.slot(hash)
        let head = heads + 3 &* slot
        if let base = string.baseAddress {
            (bytes + slot &* Self.longest).copyMemory(from: base, byteCount: string.count)
        }
        head[0] = hash
        head[1] = UInt64(truncatingIfNeeded: string.count)
        head[2] = UInt64(truncatingIfNeeded: Int64(answer))
    }
}
