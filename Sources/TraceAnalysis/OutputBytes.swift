/// A growable byte buffer written through raw pointers, for output assembled from many short pieces (the JSON
/// report: tens of thousands of keys, numbers and separators of a few bytes each). `[UInt8].append` costs about a
/// hundred instructions a call (uniqueness, capacity, dispatch over the source); here a writer asks
/// ``reserve(_:)`` for room (one compare), stores its bytes where it is told, and ``commit(_:)``s how many it
/// wrote.
///
/// Noncopyable: it owns its allocation (freed with it), and no two values can write into the same bytes, with no
/// reference count to keep or check (`[UInt8]` and a class-backed copy-on-write buffer check on every write that
/// the storage is not shared).
struct OutputBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for at least `size` more bytes: where the next byte goes. The bytes count once committed.
    @inline(__always)
    mutating func reserve(_ size: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(size > capacity &- count) { makeRoom(size) }
        return base + count
    }

    /// Where the next byte goes (valid as far as the last ``reserve(_:)`` made room).
    var end: UnsafeMutablePointer<UInt8> { base + count }

    /// Counts `size` bytes stored at ``reserve(_:)``'s pointer (no more than were reserved).
    @inline(__always)
    mutating func commit(_ size: Int) { count &+= size }

    /// Room for `size` more bytes: at least double, so appending stays linear.
    @inline(never)
    private mutating func makeRoom(_ size: Int) {
        let grown = max(capacity * 2, count + size)
        let next = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        next.update(from: base, count: count)
        base.deallocate()
        base = next
        capacity = grown
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

    mutating func append(_ text: String) { Self.withUTF8(text) { append($0) } }

    mutating func append(_ text: StaticString) { text.withUTF8Buffer { append($0) } }

    /// Calls `body` with the UTF-8 of `text` in place. Through the borrowed `span` where there is one (the
    /// string is neither retained nor released, small strings included: a key is a few dozen instructions cheaper
    /// than through `withContiguousStorageIfAvailable`).
    @inline(__always)
    static func withUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if #available(macOS 26, *) { return text.utf8.span.withUnsafeBufferPointer(body) }
        let done: Void? = text.utf8.withContiguousStorageIfAvailable(body)
        if done == nil { Array(text.utf8).withUnsafeBufferPointer(body) }
    }

    /// Empties the buffer, keeping its capacity.
    mutating func removeAll() { count = 0 }

    /// A copy of the bytes.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
