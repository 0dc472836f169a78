#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small memo of what a pure function of a short byte string returned: sets of two slots (two-way set
/// associative), each slot holding a string of up to ``longest`` bytes (a copy), its hash and an `Int32` answer; a
/// string stored in a full set takes the place of the one of the two used less recently. (Direct-mapped slots, as
/// before, let two frequent messages whose hashes share a slot push each other out at every line: in the benchmark
/// capture `Received memory warning.` and `App Delegate: applicationWillResignActive` did, each miss a PCRE2 search.)
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
    /// The number of sets: a power of two.
    public static let sets = 256
    /// The number of slots: two a set.
    public static let slots = 2 * sets

    /// Per slot: hash (0 for an empty slot), length, answer, as three words.
    @usableFromInline let heads: UnsafeMutablePointer<UInt64>
    /// Per slot, ``longest`` bytes.
    @usableFromInline let bytes: UnsafeMutableRawPointer
    /// Per set, the slot (0 or 1) a store takes when neither holds its string: the one used less recently.
    @usableFromInline let victims: UnsafeMutablePointer<UInt8>
    /// Moved on by every ``clear()``.
    @usableFromInline let clears: UnsafeMutablePointer<Int>

    public init() {
        heads = .allocate(capacity: 3 * Self.slots)
        heads.initialize(repeating: 0, count: 3 * Self.slots)
        bytes = .allocate(byteCount: Self.slots * Self.longest, alignment: 16)
        victims = .allocate(capacity: Self.sets)
        victims.initialize(repeating: 0, count: Self.sets)
        clears = .allocate(capacity: 1)
        clears.initialize(to: 0)
    }

    deinit {
        heads.deallocate()
        bytes.deallocate()
        victims.deallocate()
        clears.deallocate()
    }

    /// How many times the memo was cleared: read before a lookup that misses, handed to the store after.
    @inlinable
    public var generation: Int { clears.pointee }

    /// Forgets every answer.
    public func clear() {
        heads.update(repeating: 0, count: 3 * Self.slots)
        victims.update(repeating: 0, count: Self.sets)
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

    /// The set of a string of hash `hash`: the first of its two slots is twice that.
    @inlinable @inline(__always)
    static func set(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 56) & (sets &- 1) }

    /// Whether `slot` holds `string` (of hash `hash`).
    @inlinable @inline(__always)
    func holds(_ slot: Int, _ string: UnsafeRawBufferPointer, hash: UInt64) -> Bool {
        let head = heads + 3 &* slot
        guard head[0] == hash, head[1] == UInt64(truncatingIfNeeded: string.count) else { return false }
        guard let base = string.baseAddress else { return true }
        return memcmp(bytes + slot &* Self.longest, base, string.count) == 0
    }

    /// The answer kept for `string` (whose ``hash(_:)`` is `hash`), or nil when none is. A hit makes the other slot
    /// of its set the next one replaced.
    @inlinable
    public func answer(for string: UnsafeRawBufferPointer, hash: UInt64) -> Int32? {
        let set = Self.set(hash)
        for way in 0..<2 where holds(2 &* set &+ way, string, hash: hash) {
            victims[set] = UInt8(truncatingIfNeeded: 1 &- way)
            return Int32(truncatingIfNeeded: heads[3 &* (2 &* set &+ way) &+ 2])
        }
        return nil
    }

    /// Keeps `answer` for `string` (whose hash is `hash`) in its set, in the slot that holds it already or else in
    /// place of the string used less recently, when `string` is no longer than ``longest`` and the memo was not
    /// cleared since `generation` was read.
    @inlinable
    public func store(_ string: UnsafeRawBufferPointer, hash: UInt64, answer: Int32, generation: Int) {
        guard string.count <= Self.longest, generation == clears.pointee else { return }
        let set = Self.set(hash)
        let way =
            holds(2 &* set, string, hash: hash)
            ? 0 : holds(2 &* set &+ 1, string, hash: hash) ? 1 : Int(victims[set])
        let slot = 2 &* set &+ way
        let head = heads + 3 &* slot
        if let base = string.baseAddress {
            (bytes + slot &* Self.longest).copyMemory(from: base, byteCount: string.count)
        }
        head[0] = hash
        head[1] = UInt64(truncatingIfNeeded: string.count)
        head[2] = UInt64(truncatingIfNeeded: Int64(answer))
        victims[set] = UInt8(truncatingIfNeeded: 1 &- way)
    }
}
