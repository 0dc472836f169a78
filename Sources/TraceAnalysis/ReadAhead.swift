import NativeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a ``LineReader``'s bytes come from: a file descriptor or bytes in memory, inflated on the way when they
/// are gzip. Used by one thread at a time: the reader's, or its ``ReadAhead``'s until that stops.
final class ChunkSource: @unchecked Sendable {
    private let fd: Int32
    /// Bytes to read instead of `fd` (tests, in-memory captures).
    private let memory: [UInt8]?
    private var memoryOffset = 0
    private let chunkSize: Int
    private var inflater: Inflater?
    private var sniffed = false
    /// Compressed bytes read so far, when the input is gzip.
    private(set) var compressedByteCount: Int64 = 0
    var isCompressed: Bool { inflater != nil }

    init(fd: Int32, memory: [UInt8]?, chunkSize: Int) {
        self.fd = fd
        self.memory = memory
        self.chunkSize = chunkSize
    }

    /// Up to `count` bytes of input (inflated when it is gzip); 0 at its end, -1 with `errno` set on a failed read.
    func fill(_ destination: UnsafeMutableRawPointer, _ count: Int) throws(LineReader.ReadError) -> Int {
        if let inflater { return try inflate(inflater, destination, count) }
        var got = readRaw(destination, count)
        guard !sniffed, got >= 0 else { return got }  // a failed first read (EINTR) sniffs again when retried
        sniffed = true
        // A pipe hands out what has been written so far: a first read of one byte that could start the gzip magic
        // number waits for the second (text never starts with 0x1F); any other short read is used as it is.
        if got == 1, count > 1, destination.load(as: UInt8.self) == 0x1F {
            var more: Int
            repeat { more = readRaw(destination + 1, count - 1) } while more < 0 && errno == EINTR
            if more > 0 { got += more }
        }
        guard got >= 2, Inflater.isGzip(UnsafeRawBufferPointer(start: destination, count: got)) else { return got }
        // Gzip: what was read is the start of the compressed stream.
        let inflater = Inflater(inputCapacity: max(chunkSize, got))
        inflater.input.copyMemory(from: destination, byteCount: got)
        inflater.supply(got)
        compressedByteCount = Int64(got)
        self.inflater = inflater
        return try inflate(inflater, destination, count)
    }

    private func inflate(_ inflater: Inflater, _ destination: UnsafeMutableRawPointer, _ count: Int)
        throws(LineReader.ReadError) -> Int
    {
        while true {
            let produced: Int
            do { produced = try inflater.inflate(into: destination, count: count) } catch {
                throw LineReader.ReadError(error)
            }
            if produced > 0 || inflater.finished { return produced }
            guard inflater.needsInput else { continue }
            let got = readRaw(inflater.input, inflater.inputCapacity)
            if got < 0 {
                if errno == EINTR { continue }
                throw LineReader.ReadError(code: errno)
            }
            compressedByteCount += Int64(got)
            inflater.supply(got)
        }
    }

    private func readRaw(_ destination: UnsafeMutableRawPointer, _ count: Int) -> Int {
        guard let memory else { return read(fd, destination, count) }
        let take = min(count, chunkSize, memory.count - memoryOffset)
        memory.withUnsafeBytes { source in
            if take > 0, let base = source.baseAddress {
                destination.copyMemory(from: base + memoryOffset, byteCount: take)
            }
        }
        memoryOffset += take
        return take
    }
}

/// A thread that fills a ``LineReader``'s next chunks from its ``ChunkSource``, and marks them, while the reader hands
/// out the lines of one: the kernel's copy of a file (a fifth of an analysis) and the marking scan, or the inflating of
/// gzip (whose chunks the reader marks), move off the reader's thread. The chunks go round ``slotCount`` buffers, each
/// with room before its bytes for the reader's unfinished line (``headroom``) and readable padding after them, and
/// bitmaps of marks for the whole; the reader takes them in order, gives each back once it has moved on, and stops the
/// thread when it is done (at the end of the input, on an error, or early).
final class ReadAhead: @unchecked Sendable {
    /// A filled chunk: `count` bytes in `slot` after its ``headroom`` (``room(_:)``; 0 at the end of the input), or
    /// the error that ended the reading.
    struct Chunk {
        let slot: Int
        let count: Int
        let error: LineReader.ReadError?
        /// Whether the thread marked the chunk's line feeds and keyword candidates: not when it inflates gzip, the
        /// longer of the two threads even with ISA-L's inflate (the reader marks the chunk when it takes it).
        var marked = false
        /// Whether the thread also checked the chunk's keyword marks, so that they are exact, and marked its loud
        /// lines (``room(_:)``): only when it marked them, and not when the reader was already waiting for the chunk
        /// (the thread then hands it over sooner, and the reader checks its marks as it would without this thread).
        var checked = false
    }

    /// One being handed out, one ready, one being read: the reader waits only when it is faster than the source.
    static let slotCount = 3

    private let source: ChunkSource
    private let chunkSize: Int
    /// Bytes of room before each chunk (at least the reader's longest unfinished line, a multiple of 64).
    let headroom: Int
    /// The bytes a slot's marks cover: the room and the chunk.
    var span: Int { headroom + chunkSize }
    private let slots: [UnsafeMutableRawPointer]
    /// The bytes of a slot, and the words of each of its bitmaps.
    private let size: Int
    private let words: Int
    /// Per slot, its line feeds' marks (when `marking`), and its keywords' and its loud lines' (with `keywords`).
    private let newlines: [UnsafeMutablePointer<UInt64>?]
    private let candidates: [UnsafeMutablePointer<UInt64>?]
    private let loud: [UnsafeMutablePointer<UInt64>?]
    private let keywords: LiteralSearch.Handle?
    private let lock = Lock()
    private var free: [Int]
    private var filled: [Chunk] = []
    private var stopping = false
    /// Whether the reader waits in ``take()`` for a chunk.
    private var waiting = false
    /// Whether every chunk is checked (true) or none (false) whatever the reader does, when set: ``checking`` when
    /// the thread started.
    private let forcedChecking: Bool?

    /// Tests: whether the threads started from now on check every chunk (true), none (false), or as the reader's
    /// waits have it (nil, the default). Either way the reports are the same; the tests read both ways.
    static var checking: Bool? {
        get { checkingLock.withLock { forcedForTests } }
        set { checkingLock.withLock { forcedForTests = newValue } }
    }
    private static let checkingLock = Lock()
    nonisolated(unsafe) private static var forcedForTests: Bool?
    private var thread: pthread_t?

    /// Starts reading `source` in chunks of `chunkSize`, each with `headroom` bytes of room before it and
    /// `padding` zeroed bytes after it, and, unless it inflates (the reader then marks them, ``Chunk/marked``),
    /// marking their line feeds when `marking`, and where a literal of `keywords` can begin when given
    /// (``LineReader/mark(_:keywords:newlines:candidates:verifyingWithin:)``), checked here, off the reader's thread,
    /// with the lines a run of headers leaves whatever their header
    /// (``HeaderRun/loudLines(_:newlines:candidates:into:)``; ``Chunk/checked``); nil when no thread can be started
    /// (the reader then reads on its own thread).
    init?(
        _ source: ChunkSource, chunkSize: Int, headroom: Int, padding: Int, marking: Bool,
        keywords: LiteralSearch.Handle?
    ) {
        self.source = source
        self.chunkSize = chunkSize
        self.headroom = (headroom + 63) & ~63  // the chunk's bytes, and their marks, from a word's start
        self.keywords = keywords
        forcedChecking = Self.checking
        size = self.headroom + chunkSize + padding
        words = LiteralSearch.Marks.words(for: self.headroom + chunkSize)
        let pool = BufferPool.shared
        slots = (0..<Self.slotCount).map { [size] _ in
            let slot = pool.take(size)
            (slot + size - padding).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
            return slot
        }
        newlines = (0..<Self.slotCount).map { [words] _ in marking ? pool.takeZeroed(words: words) : nil }
        candidates = (0..<Self.slotCount).map { [words] _ in
            marking && keywords != nil ? pool.takeZeroed(words: words) : nil
        }
        loud = (0..<Self.slotCount).map { [words] _ in marking && keywords != nil ? pool.take(words: words) : nil }
        free = Array(0..<Self.slotCount)
        guard let thread = Self.start(self) else { return nil }
        self.thread = thread
    }

    deinit {
        let pool = BufferPool.shared
        for slot in slots { pool.give(slot, size) }
        for case let bits? in newlines + candidates + loud { pool.give(bits, words: words) }
    }

    /// The thread that runs ``produce()`` (holding `ahead` until it ends).
    private static func start(_ ahead: ReadAhead) -> pthread_t? {
        let context = Unmanaged.passRetained(ahead).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            let failed = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<ReadAhead>.fromOpaque(context).takeRetainedValue().produce()
                    return nil
                }, context)
        #else
            var thread = pthread_t()
            let failed = pthread_create(
                &thread, nil,
                { context in
                    if let context { Unmanaged<ReadAhead>.fromOpaque(context).takeRetainedValue().produce() }
                    return nil
                }, context)
        #endif
        guard failed == 0 else {
            Unmanaged<ReadAhead>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// Where the bytes of `slot` begin (``headroom`` bytes into it).
    private func bytes(_ slot: Int) -> UnsafeMutableRawPointer { slots[slot] + headroom }

    /// The whole of `chunk`'s slot (its room, then its chunk) and its marks, bit p of word p / 64 for byte p: the
    /// loud lines' when the thread ``Chunk/checked`` the chunk (for the chunk only: in the room, where no line ends,
    /// they are not kept, but for the first byte of the reader's unfinished line, once the reader marks it).
    func room(_ chunk: Chunk) -> (
        bytes: UnsafeMutableRawPointer, newlines: UnsafeMutablePointer<UInt64>?,
        candidates: UnsafeMutablePointer<UInt64>?, loud: UnsafeMutablePointer<UInt64>?
    ) {
        let slot = chunk.slot
        return (slots[slot], newlines[slot], candidates[slot], chunk.checked ? loud[slot] : nil)
    }

    /// The next chunk, once it is read.
    func take() -> Chunk {
        lock.withLock {
            while filled.isEmpty {
                waiting = true
                lock.wait()
            }
            waiting = false
            return filled.removeFirst()
        }
    }

    /// Gives `slot` back to be filled again.
    func give(_ slot: Int) {
        lock.withLock {
            free.append(slot)
            lock.broadcast()
        }
    }

    /// Stops the thread and waits for it (it ends its read in progress first).
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func produce() {
        while true {
            let (slot, behind): (Int?, Bool) = lock.withLock {
                while free.isEmpty, !stopping { lock.wait() }
                return (stopping ? nil : free.removeFirst(), waiting)
            }
            guard let slot else { return }
            var chunk: Chunk
            do {
                var got: Int
                repeat { got = try source.fill(bytes(slot), chunkSize) } while got < 0 && errno == EINTR
                chunk = Chunk(slot: slot, count: got, error: got < 0 ? LineReader.ReadError(code: errno) : nil)
                if got > 0, let marks = newlines[slot], !source.isCompressed {
                    let word = headroom / 64
                    // The thread also checks the positions where a keyword can begin, so that the marks are exact
                    // and the reader's callers check none (a keyword cut at the chunk's end is in an unfinished line,
                    // which the reader marks again before the next chunk), and marks the lines a run of headers
                    // leaves whatever their header: unless the reader was waiting for this chunk when the thread
                    // began it, so that the two threads share the work whichever is the quicker (on a host where
                    // the kernel's copy is slow, the checks and the loud lines made this thread the longer on an
                    // NSLog capture, and the reader waited for two chunks in three).
                    chunk.marked = true
                    chunk.checked = loud[slot] != nil && (forcedChecking ?? !behind)
                    let read = UnsafeRawBufferPointer(start: bytes(slot), count: got)
                    LineReader.mark(
                        read, keywords: keywords, newlines: marks + word,
                        candidates: candidates[slot].map { $0 + word }, verifyingWithin: chunk.checked ? got : nil)
                    if chunk.checked, let exact = candidates[slot], let loud = loud[slot] {
                        HeaderRun.loudLines(read, newlines: marks + word, candidates: exact + word, into: loud + word)
                    }
                }
            } catch {
                chunk = Chunk(slot: slot, count: 0, error: error)
            }
            lock.withLock {
                filled.append(chunk)
                lock.broadcast()
            }
            if chunk.count <= 0 { return }
        }
    }
}
