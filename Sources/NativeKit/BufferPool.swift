/// Big buffers kept from one input's reader to the next (a line reader's chunk and marks, a read-ahead's, an
/// ``Inflater``'s state and input), so that a batch of many inputs allocates them about once per job instead of once
/// per input. Without it, the allocator's heap grew by about 125 KB per input of a batch read on one job (158 MB for
/// 1,000 captures of 200 KB instead of 33 MB): once glibc's mmap threshold has grown past the first freed chunk
/// buffer, the buffers come from the heap, where the small objects each input's report keeps come to lie between the
/// freed ones. And a buffer kept is a buffer whose pages are there: one made afresh is faulted in again page by page,
/// and with two jobs a page first read then written costs each core a TLB flush (see `Documentation/Performance.md`,
/// forty-eighth session).
public final class BufferPool: @unchecked Sendable {
    public static let shared = BufferPool()

    /// Buffers kept per size: enough for the jobs of a batch and their readers' threads.
    static let kept = 16

    private let lock = Lock()
    private var free: [Int: [UnsafeMutableRawPointer]] = [:]

    /// A buffer of `bytes` bytes, aligned to 64, its contents undefined.
    public func take(_ bytes: Int) -> UnsafeMutableRawPointer {
        if let buffer = lock.withLock({ free[bytes]?.popLast() }) { return buffer }
        return .allocate(byteCount: bytes, alignment: 64)
    }

    /// A bitmap of `words` words, its contents undefined.
    public func take(words: Int) -> UnsafeMutablePointer<UInt64> {
        take(words * 8).bindMemory(to: UInt64.self, capacity: words)
    }

    /// A bitmap of `words` words, all zero.
    public func takeZeroed(words: Int) -> UnsafeMutablePointer<UInt64> {
        let bits = take(words: words)
        bits.initialize(repeating: 0, count: words)
        return bits
    }

    /// Takes back `buffer`, of `bytes` bytes, from ``take(_:)``.
    public func give(_ buffer: UnsafeMutableRawPointer, _ bytes: Int) {
        let kept = lock.withLock { () -> Bool in
            guard free[bytes, default: []].count < Self.kept else { return false }
            free[bytes, default: []].append(buffer)
            return true
        }
        if !kept { buffer.deallocate() }
    }

    /// Takes back a bitmap of `words` words.
    public func give(_ bits: UnsafeMutablePointer<UInt64>, words: Int) {
        give(UnsafeMutableRawPointer(bits), words * 8)
    }
}
