import NativeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file descriptor in large chunks and hands out physical lines as byte buffers, without copying.
///
/// Lines end at LF; a CR before the LF is dropped (CRLF files). The last line needs no final newline.
/// Memory is one chunk plus the longest line it keeps: a line longer than ``maximumLineLength`` is handed
/// out cut to that length (flagged as truncated) and the rest of it is skipped, so one 100 MB line
/// costs no more memory than a short one. Bytes are never decoded: invalid UTF-8 passes through untouched.
/// Gzip-compressed input (recognised by its magic number, from a file or a pipe) is inflated on the way.
///
/// With ``readsAhead``, a thread of its own reads (and inflates) the next chunks and marks them while the lines of
/// one are handed out (``ReadAhead``): the lines, their marks and the counts are the same, and the reading costs the
/// caller's thread only the copy of an unfinished line to the next chunk, and the marks of its bytes there.
public struct LineReader: ~Copyable {
    /// The default read size.
    public static let defaultChunkSize = 1 << 20
    /// The default bound on the bytes of one line that are kept.
    public static let defaultMaximumLineLength = 64 * 1024

    public let chunkSize: Int
    public let maximumLineLength: Int
    /// Whether a thread of its own reads the chunks ahead of the lines handed out.
    public let readsAhead: Bool
    private let source: ChunkSource
    /// The bytes being handed out, and their marks (``newlines`` and ``candidates``): the reader's own, or a chunk
    /// of the ``ReadAhead`` with the unfinished line copied before it; ``place`` says the same for the ``marks``.
    private var buffer: UnsafeMutableRawPointer
    private let ownBuffer: UnsafeMutableRawPointer
    private let capacity: Int
    /// The line feeds of the bytes read so far into ``buffer`` (one bit per byte), where the processor marks them
    /// with vectors: each line's end is then a bit scan, not a `memchr` call.
    private var newlines: UnsafeMutablePointer<UInt64>?
    private let ownNewlines: UnsafeMutablePointer<UInt64>?
    /// Where the keyword search ``markKeywords(_:)`` was given can find a keyword in the bytes read so far, marked
    /// in the same pass as ``newlines`` (one bit per byte): a caller searches a line's message from these marks.
    private var candidates: UnsafeMutablePointer<UInt64>?
    private var ownCandidates: UnsafeMutablePointer<UInt64>?
    private var keywords: LiteralSearch.Handle?
    /// Where ``buffer`` and ``candidates`` are, for the ``marks`` (once keywords are marked).
    private var place: UnsafeMutablePointer<LiteralSearch.Marks.Place>?
    /// Read ahead, the LFs of the lines whose end or message a run of headers would not take, which the reading
    /// thread marked (``HeaderRun/loudLines(_:newlines:candidates:into:)``) with exact keyword marks.
    private var loud: UnsafeMutablePointer<UInt64>?

    /// Lines handed out so far.
    public private(set) var lineCount = 0
    /// Bytes read so far.
    public private(set) var byteCount: Int64 = 0
    /// Lines that were longer than ``maximumLineLength`` and were cut.
    public private(set) var truncatedLineCount = 0
    /// Compressed bytes read so far, when the input is gzip (``byteCount`` counts the inflated bytes); with
    /// ``readsAhead``, up to date once ``forEachLine(_:)`` has returned.
    public var compressedByteCount: Int64 { source.compressedByteCount }
    /// The input is gzip-compressed (with ``readsAhead``: known once ``forEachLine(_:)`` has returned).
    public var isCompressed: Bool { source.isCompressed }

    /// Reads from `fd`, which the caller keeps open and closes; `readAhead`: on a thread of its own.
    public init(
        fd: Int32, chunkSize: Int = defaultChunkSize, maximumLineLength: Int = defaultMaximumLineLength,
        readAhead: Bool = false
    ) {
        self.init(
            source: ChunkSource(fd: fd, memory: nil, chunkSize: max(chunkSize, 16)), chunkSize: chunkSize,
            maximumLineLength: maximumLineLength, readAhead: readAhead)
    }

    /// Reads from bytes in memory, in the same chunks a file would be read in.
    public init(
        bytes: [UInt8], chunkSize: Int = defaultChunkSize, maximumLineLength: Int = defaultMaximumLineLength,
        readAhead: Bool = false
    ) {
        self.init(
            source: ChunkSource(fd: -1, memory: bytes, chunkSize: max(chunkSize, 16)), chunkSize: chunkSize,
            maximumLineLength: maximumLineLength, readAhead: readAhead)
    }

    private init(source: ChunkSource, chunkSize: Int, maximumLineLength: Int, readAhead: Bool) {
        self.source = source
        self.readsAhead = readAhead
        self.chunkSize = max(chunkSize, 16)
        self.maximumLineLength = max(maximumLineLength, 16)
        self.capacity = self.chunkSize + self.maximumLineLength
        // With the bytes the one-pass scan reads past the end of what was read (zeroed; the buffer itself is
        // not, so a small input touches only the pages it fills). Marks that depend on bytes past the end are
        // at positions no literal fits in, and a literal is only ever compared inside a line.
        let padding = LiteralSearch.Marks.padding
        self.ownBuffer = BufferPool.shared.take(capacity + padding)
        (ownBuffer + capacity).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        self.buffer = ownBuffer
        // Both bitmaps have the marks' size, as a ``ReadAhead``'s do: the pool keeps one size for them all.
        self.ownNewlines =
            NewlineScan.isAvailable ? BufferPool.shared.take(words: LiteralSearch.Marks.words(for: capacity)) : nil
        self.newlines = ownNewlines
    }

    deinit {
        let pool = BufferPool.shared
        pool.give(ownBuffer, capacity + LiteralSearch.Marks.padding)
        let words = LiteralSearch.Marks.words(for: capacity)
        for case let bits? in [ownNewlines, ownCandidates] { pool.give(bits, words: words) }
        place?.deallocate()
    }

    /// Hands out the bytes at `bytes`, marked in `newlines`, `candidates` and `loud` for `count` bytes, from now on.
    private mutating func move(
        to bytes: UnsafeMutableRawPointer, newlines: UnsafeMutablePointer<UInt64>?,
        candidates: UnsafeMutablePointer<UInt64>?, loud: UnsafeMutablePointer<UInt64>?, count: Int
    ) {
        buffer = bytes
        self.newlines = newlines
        self.candidates = candidates
        self.loud = loud
        if let place, let candidates {
            place.pointee = LiteralSearch.Marks.Place(
                origin: UnsafeRawPointer(bytes), bits: UnsafePointer(candidates), count: count)
        }
    }

    /// Marks, with each chunk's line feeds, where `search` can find a literal (``marks``), where the processor
    /// runs the one-pass scan; else nothing changes.
    public mutating func markKeywords(_ search: LiteralSearch.Handle) {
        guard newlines != nil, candidates == nil else { return }
        // Not zeroed: each fill's scan writes the words of the bytes it marks (and clears the bits past them in the
        // last), as it does the line feeds', and nothing reads a mark outside a line. Zeroing the 136 KB for each
        // input was about 5 % of a batch of small captures. Debug builds (the tests) fill it with marks instead, so
        // that a reader that relied on zeros would be seen.
        let words = LiteralSearch.Marks.words(for: capacity)
        let bits = BufferPool.shared.take(words: words)
        #if DEBUG
            bits.initialize(repeating: ~0, count: words)
        #endif
        ownCandidates = bits
        candidates = bits
        keywords = search
        place = .allocate(capacity: 1)
        place?.initialize(
            to: LiteralSearch.Marks.Place(origin: UnsafeRawPointer(buffer), bits: UnsafePointer(bits), count: capacity))
    }

    /// The positions of the reader's buffer where the search given to ``markKeywords(_:)`` can find a literal,
    /// valid for each line while it is handed out; nil when nothing is marked.
    public var marks: LiteralSearch.Marks? { place.map { LiteralSearch.Marks(UnsafePointer($0)) } }

    /// Marks the line feeds (and the keywords' candidates) of the first `count` bytes of the buffer.
    @inline(__always)
    private func mark(_ count: Int) {
        guard let newlines else { return }
        Self.mark(
            UnsafeRawBufferPointer(start: buffer, count: count), keywords: keywords, newlines: newlines,
            candidates: candidates)
    }

    /// Marks the line feeds of `bytes` in `newlines`, and where `keywords` can find a literal in `candidates` when
    /// both are given (``LiteralSearch/Handle/scan(_:newlines:candidates:verifyingWithin:)``): bit p of word p / 64
    /// for byte p. With `verifyingWithin`, only where a literal begins, compared inside that many bytes from
    /// `bytes`' start (a keyword begun in them may run on into the bytes that follow): the marks are exact.
    @inline(__always)
    static func mark(
        _ bytes: UnsafeRawBufferPointer, keywords: LiteralSearch.Handle?, newlines: UnsafeMutablePointer<UInt64>,
        candidates: UnsafeMutablePointer<UInt64>?, verifyingWithin valid: Int? = nil
    ) {
        if let keywords, let candidates {
            keywords.scan(bytes, newlines: newlines, candidates: candidates, verifyingWithin: valid)
        } else {
            NewlineScan.mark(bytes, into: newlines)
        }
    }

    /// The line feeds of `buffer[0..<end]` in order: from the marks of the bytes read (``newlines``), a bit scan
    /// that carries its word from one line to the next, or with `memchr`.
    private struct Newlines {
        let marks: UnsafePointer<UInt64>?
        let buffer: UnsafeRawPointer
        let end: Int
        /// The word of the marks being scanned and its bits not handed out yet.
        var word = 0
        var bits: UInt64
        /// Where `memchr` searches from, without marks.
        var from = 0

        init(_ marks: UnsafePointer<UInt64>?, _ buffer: UnsafeRawPointer, end: Int) {
            self.marks = marks
            self.buffer = buffer
            self.end = end
            bits = end > 0 ? marks?[0] ?? 0 : 0
        }

        /// Goes on from `offset` (a line's start) instead of the last line feed handed out.
        @inline(__always)
        mutating func skip(to offset: Int) {
            guard let marks else { return from = offset }
            word = offset &>> 6
            bits = offset < end ? marks[word] & (~0 &<< UInt64(offset & 63)) : 0
        }

        @inline(__always)
        mutating func next() -> Int? {
            guard let marks else {
                guard from < end, let found = memchr(buffer + from, 0x0A, end - from) else { return nil }
                let offset = buffer.distance(to: found)
                from = offset &+ 1
                return offset
            }
            while bits == 0 {
                word &+= 1
                guard word << 6 < end else { return nil }
                bits = marks[word]
            }
            let found = word << 6 | bits.trailingZeroBitCount
            bits &= bits &- 1
            return found < end ? found : nil
        }
    }

    /// Where a caller can read lines of the buffer itself (``forEachLine(runs:_:)``): the next line starts at
    /// `start`, the bytes read end at `end`, and the reader's marks of them are `newlines` and `candidates`, and,
    /// read ahead but not inflated, `loud`: the LFs of the lines a run of headers leaves whatever their header
    /// (``HeaderRun/loudLines(_:newlines:candidates:into:)``), which the reading thread works out with the rest.
    public struct Run {
        public let buffer: UnsafeRawPointer
        public let start: Int
        public let end: Int
        public let newlines: UnsafePointer<UInt64>
        public let candidates: UnsafePointer<UInt64>
        public let loud: UnsafePointer<UInt64>?
        public let maximumLineLength: Int

        /// The line feed that ends the line begun at `start`, when it is before ``end``: from the marks.
        @inline(__always)
        func lineFeed(from start: Int) -> Int? {
            var feeds = Newlines(newlines, buffer, end: end)
            feeds.skip(to: start)
            return feeds.next()
        }
    }

    /// Calls `body` with each line (without its ending) and whether it was cut, until the end of input.
    /// Throws the `errno` of a failed read.
    @inline(__always)
    public mutating func forEachLine(_ body: (UnsafeRawBufferPointer, _ truncated: Bool) throws -> Void) throws {
        try forEachLine(runs: { _ in (0, 0) }, takingRuns: false, body)
    }

    /// ``forEachLine(_:)``, where `runs`, when the reader marks keywords (``markKeywords(_:)``), is asked before
    /// each line whether it takes the lines from there itself: it returns how many whole lines it took (each
    /// ending with an LF before `end`, no longer than ``maximumLineLength``) and where the next begins; `body` is
    /// not called for them.
    @inline(__always)
    public mutating func forEachLine(
        runs: (Run) -> (lines: Int, next: Int), _ body: (UnsafeRawBufferPointer, _ truncated: Bool) throws -> Void
    ) throws {
        try forEachLine(runs: runs, takingRuns: true, body)
    }

    @inline(__always)
    private mutating func forEachLine(
        runs: (Run) -> (lines: Int, next: Int), takingRuns: Bool,
        _ body: (UnsafeRawBufferPointer, _ truncated: Bool) throws -> Void
    ) throws {
        var pending = 0  // bytes of an unfinished line, at `tail` in `buffer`
        var tail = 0
        var skipping = false  // discarding the rest of a line that was already handed out cut
        let ahead =
            readsAhead
            ? ReadAhead(
                source, chunkSize: chunkSize, headroom: maximumLineLength, padding: LiteralSearch.Marks.padding,
                marking: newlines != nil, keywords: candidates != nil ? keywords : nil)
            : nil
        defer { ahead?.stop() }
        var slot: Int?  // the chunk of `ahead` being handed out
        while true {
            let got: Int
            let first: Int  // where the chunk's first line begins
            if let ahead {
                let chunk = ahead.take()
                if let error = chunk.error { throw error }
                if chunk.count == 0 { break }
                // The unfinished line goes just before the chunk, into the room the chunk keeps for it, and is marked
                // there from the start of its first word up to the chunk (its keywords checked on into the chunk when
                // the thread checked the chunk's), whose marks the thread made from the word the chunk begins; a
                // chunk the thread inflated and left unmarked is marked here whole, with the unfinished line.
                let room = ahead.room(chunk)
                first = ahead.headroom - pending
                (room.bytes + first).copyMemory(from: buffer + tail, byteCount: pending)
                if pending > 0 || !chunk.marked, let marks = room.newlines {
                    let word = first / 64
                    let count = ahead.headroom + (chunk.marked ? 0 : chunk.count) - word * 64
                    Self.mark(
                        UnsafeRawBufferPointer(start: room.bytes + word * 64, count: count), keywords: keywords,
                        newlines: marks + word, candidates: room.candidates.map { $0 + word },
                        verifyingWithin: chunk.checked ? count + chunk.count : nil)
                }
                if let slot { ahead.give(slot) }
                slot = chunk.slot
                move(
                    to: room.bytes, newlines: room.newlines, candidates: room.candidates, loud: room.loud,
                    count: ahead.span)
                if let loud = room.loud, let lineFeeds = room.newlines, let exact = room.candidates {
                    // The thread saw only the end of the chunk's first line, begun before it (whose first byte's bit,
                    // in the room, is an earlier chunk's until then).
                    HeaderRun.loudLine(
                        room.bytes, start: first, end: ahead.headroom + chunk.count, newlines: lineFeeds,
                        candidates: exact, loud: loud)
                }
                got = chunk.count
            } else {
                got = try source.fill(buffer + pending, capacity - pending)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ReadError(code: errno)
                }
                first = 0
                if got > 0 { mark(pending + got) }
            }
            if got == 0 { break }
            byteCount += Int64(got)
            let end = first + pending + got
            var start = first
            var lineFeeds = Newlines(newlines, buffer, end: end)
            if start > 0 { lineFeeds.skip(to: start) }
            while true {
                if takingRuns, !skipping, let newlines, let candidates {
                    let taken = runs(
                        Run(
                            buffer: UnsafeRawPointer(buffer), start: start, end: end,
                            newlines: UnsafePointer(newlines), candidates: UnsafePointer(candidates),
                            loud: loud.map { UnsafePointer($0) }, maximumLineLength: maximumLineLength))
                    if taken.lines > 0 {
                        lineCount &+= taken.lines
                        start = taken.next
                        lineFeeds.skip(to: start)
                    }
                }
                guard let newline = lineFeeds.next() else { break }
                if skipping {
                    skipping = false
                } else if newline &- start > maximumLineLength,
                    newline &- start &- (buffer.load(fromByteOffset: newline - 1, as: UInt8.self) == 0x0D ? 1 : 0)
                        > maximumLineLength
                {
                    // A long line found whole in one chunk is cut like one that spans chunks: the bound is on the
                    // line, not on where the reads happened to fall.
                    try emit(start, start + maximumLineLength, body, truncated: true)
                } else {
                    try emit(start, newline, body)
                }
                start = newline &+ 1
            }
            // What is left is the beginning of a line whose end has not been read yet: moved to the buffer's start
            // for the next read, or, read ahead, copied before the next chunk from where it is.
            var remaining = end - start
            if skipping {
                remaining = 0
            } else if remaining >= maximumLineLength {
                try emit(start, start + maximumLineLength, body, truncated: true)
                skipping = true
                remaining = 0
            }
            if ahead != nil {
                tail = start
            } else if remaining > 0, start > 0 {
                memmove(buffer, buffer + start, remaining)
            }
            pending = remaining
        }
        if pending > 0 {
            // Moved since it was marked, unless it was read ahead (marked where it still is).
            if ahead == nil { mark(pending) }
            try emit(tail, tail + pending, body)
        }
    }

    private mutating func emit(
        _ start: Int, _ end: Int, _ body: (UnsafeRawBufferPointer, Bool) throws -> Void, truncated: Bool = false
    ) throws {
        var stop = end
        if !truncated, stop > start, buffer.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D { stop -= 1 }
        lineCount &+= 1
        if truncated { truncatedLineCount += 1 }
        try body(UnsafeRawBufferPointer(start: buffer + start, count: stop - start), truncated)
    }

    /// A failed `read(2)`, or compressed data that does not inflate.
    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
        init(code: Int32) { description = String(cString: strerror(code)) }
        init(_ failure: Inflater.Failure) { description = failure.description }
    }
}
