/// A growable byte buffer written through raw pointers, for output assembled from many short pieces (the JSON
/// report: tens of thousands of keys, numbers and separators of a few bytes each). `[UInt8].append` costs about a
/// hundred instructions a call (uniqueness, capacity, dispatch over the source); here a writer asks
/// ``reserve(_:)`` for room (a compare and a check of the owner), stores its bytes where it is told, and
/// ``commit(_:)``s how many it wrote.
///
/// It is a value like the array it replaces: copies share the storage until one of them reserves room to write,
/// which then copies it first (`isKnownUniquelyReferenced`). `@unchecked Sendable` for the same reason an array
/// is Sendable: shared storage is never written.
struct OutputBytes: @unchecked Sendable {
    /// Owns the allocation (freed with it); being uniquely referenced says the bytes may be written in place. Its
    /// fields are constants, so reading them takes no exclusivity check.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// `storage.base` and `storage.capacity`, kept here so that the fast path loads nothing through the reference.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 0) {
        storage = Storage(capacity: max(capacity, 64))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// Room for at least `size` more bytes, unshared: where the next byte goes. The bytes count once committed.
    @inline(__always)
    mutating func reserve(_ size: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(size > capacity &- count || !isKnownUniquelyReferenced(&storage)) { makeRoom(size) }
        return base + count
    }

    /// Where the next byte goes (valid as far as the last ``reserve(_:)`` made room).
    var end: UnsafeMutablePointer<UInt8> { base + count }

    /// Counts `size` bytes stored at ``reserve(_:)``'s pointer (no more than were reserved).
    @inline(__always)
    mutating func commit(_ size: Int) { count &+= size }

    /// A storage of its own with room for `size` more bytes: at least double, so appending stays linear.
    @inline(never)
    private mutating func makeRoom(_ size: Int) {
        let next = Storage(capacity: Swift.max(capacity * 2, count + size))
        next.base.update(from: base, count: count)
        storage = next
        base = next.base
        capacity = next.capacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count &+= 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count).update(from: source, count: bytes.count)
        count &+= bytes.count
    }

    mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    /// Appends the bytes of another buffer (an element written on another thread).
    mutating func append(_ other: OutputBytes) {
        append(UnsafeBufferPointer(start: other.base, count: other.count))
    }

    /// Empties the buffer, keeping its capacity when it is not shared.
    mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) {
            count = 0
        } else {
            self = OutputBytes(capacity: capacity)
        }
    }

    /// A copy of the bytes.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
