#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits bytes pushed in as they arrive (a pipe, a growing file) into physical lines, the way ``LineReader``
/// splits what it pulls: lines end at LF, a CR before the LF is dropped, an unfinished line longer than
/// ``maximumLineLength`` is handed out cut to that length (flagged) and the rest of it skipped. A line is handed
/// out as soon as its LF arrives; a line whose end has not arrived yet waits for it (or for ``finish(_:)``).
struct LineSplitter {
    let maximumLineLength: Int
    /// The beginning of a line whose end has not arrived yet.
    private var pending: [UInt8] = []
    /// Discarding the rest of a line that was already handed out cut.
    private var skipping = false
    private(set) var lineCount = 0
    private(set) var byteCount: Int64 = 0
    private(set) var truncatedLineCount = 0

    init(maximumLineLength: Int = LineReader.defaultMaximumLineLength) {
        self.maximumLineLength = max(maximumLineLength, 16)
    }

    /// Hands `body` every line that `bytes` completes, then keeps what is left for the next call.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, _ truncated: Bool) -> Void) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        byteCount += Int64(bytes.count)
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else { break }
            let newline = base.distance(to: UnsafeRawPointer(found))
            let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
            if skipping {
                skipping = false
            } else if pending.isEmpty {
                emit(piece, body)
            } else {
                pending.append(contentsOf: piece)
                pending.withUnsafeBytes { emit($0, body) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        guard start < bytes.count, !skipping else { return }
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        if pending.count >= maximumLineLength {
            pending.withUnsafeBytes {
                emit(UnsafeRawBufferPointer(rebasing: $0[..<maximumLineLength]), body, truncated: true)
            }
            pending.removeAll(keepingCapacity: true)
            skipping = true
        }
    }

    /// Hands out the line whose end never came (the end of the input, or of a file that was rotated or truncated).
    mutating func finish(_ body: (UnsafeRawBufferPointer, _ truncated: Bool) -> Void) {
        defer {
            pending.removeAll(keepingCapacity: true)
            skipping = false
        }
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { emit($0, body) }
    }

    private mutating func emit(
        _ line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Bool) -> Void, truncated: Bool = false
    ) {
        var line = line
        if !truncated, line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        lineCount += 1
        if truncated { truncatedLineCount += 1 }
        body(line, truncated)
    }
}
