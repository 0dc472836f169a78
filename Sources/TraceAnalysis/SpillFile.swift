import NativeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An append-only temporary file where a big input's history and reports wait until they are reported, so memory
/// stays bounded whatever the size of the input (see `Documentation/Performance.md`, "Memory").
///
/// The file is made in `$TMPDIR` (default `/tmp`) and unlinked as soon as it is open: nothing is left behind, even
/// when the run is killed, and the space is given back when the last ``SpillFile`` goes. What is written is never
/// changed, so a ``Segment`` stays valid for the life of the file and value types may share it when copied. Writes
/// go through a buffer; reads (`pread`) may come from several threads (reports rendered on `--jobs` threads).
final class SpillFile: @unchecked Sendable {
    /// Bytes written at `offset`, `length` long.
    struct Segment: Sendable {
        var offset: Int64
        var length: Int
    }

    private let fd: Int32
    /// The folder of the file, for error messages.
    let folder: String
    private let lock = Lock()
    /// Bytes appended so far; those from ``written`` on are still in ``pending``.
    private var size: Int64 = 0
    private var written: Int64 = 0
    private var pending: [UInt8] = []
    /// Set once a write failed: later appends fail at once, and what could not be written stays readable from
    /// ``pending``, so no segment handed out is lost.
    private var failure: TraceAnalyzeError?
    static let bufferSize = 256 * 1024

    /// Makes the file in `folder`, by default `$TMPDIR` (else `/tmp`), and unlinks it.
    init(folder: String? = nil) throws(TraceAnalyzeError) {
        var folder = folder ?? getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if folder.isEmpty { folder = "/tmp" }
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        self.folder = folder
        var template = Array((folder + "/trace-analyze-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else { throw .temporaryFile(folder: folder, reason: Self.errorText()) }
        template.withUnsafeBufferPointer { buffer in
            if let path = buffer.baseAddress { _ = unlink(path) }
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends `bytes` and says where they are. Throws when the file cannot take them (then they are not kept).
    func append(_ bytes: [UInt8]) throws(TraceAnalyzeError) -> Segment {
        // The lock's `withLock` rethrows untyped errors: the typed one comes out as a Result.
        try lock.withLock { () -> Result<Segment, TraceAnalyzeError> in
            if let failure { return .failure(failure) }
            if pending.count + bytes.count > Self.bufferSize {
                do throws(TraceAnalyzeError) {
                    try flushLocked()
                } catch {
                    return .failure(error)
                }
            }
            let segment = Segment(offset: size, length: bytes.count)
            if bytes.count > Self.bufferSize {
                // Written at once, not copied into the buffer: the buffer would keep the size of the largest
                // report (a process of many episodes) for the rest of the run.
                let (_, error) = bytes.withUnsafeBytes { writeLocked($0) }
                if let error { return .failure(error) }
            } else {
                pending.append(contentsOf: bytes)
            }
            size += Int64(bytes.count)
            return .success(segment)
        }.get()
    }

    /// The bytes of `segment` (handed out by ``append(_:)``).
    ///
    /// The file is ours, unlinked, and its bytes were written without error, so a read can fail only when the
    /// machine fails under us (an I/O error of the disk): a half-read report cannot be rendered, so that stops
    /// the run with the error's message.
    func read(_ segment: Segment) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: segment.length)
        let onDisk = lock.withLock { () -> Int in
            let onDisk = Int(max(0, min(Int64(segment.length), written - segment.offset)))
            if onDisk < segment.length {
                let from = Int(segment.offset + Int64(onDisk) - written)
                bytes.replaceSubrange(onDisk..., with: pending[from..<(from + segment.length - onDisk)])
            }
            return onDisk
        }
        var done = 0
        while done < onDisk {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress.map { $0 + done }, onDisk - done, off_t(segment.offset) + off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let reason = count == 0 ? "the file is shorter than written" : Self.errorText()
                fatalError(
                    TraceAnalyzeError.temporaryFile(folder: folder, reason: "read failed: " + reason).description)
            }
            done += count
        }
        return bytes
    }

    /// Writes what is buffered; on failure keeps what was not written and remembers why.
    private func flushLocked() throws(TraceAnalyzeError) {
        let (done, error) = pending.withUnsafeBytes { writeLocked($0) }
        // What could not be written stays, to be read from here.
        if done == pending.count { pending.removeAll(keepingCapacity: true) } else { pending.removeFirst(done) }
        if let error { throw error }
    }

    /// Writes `bytes` at the end of the file; how many were written (counted in ``written``) and, when not all
    /// were, why (then ``failure`` is set).
    private func writeLocked(_ bytes: UnsafeRawBufferPointer) -> (written: Int, error: TraceAnalyzeError?) {
        var done = 0
        defer { written += Int64(done) }
        while done < bytes.count {
            let count = write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let error = TraceAnalyzeError.temporaryFile(
                    folder: folder, reason: count == 0 ? "nothing written" : Self.errorText())
                failure = error
                return (done, error)
            }
            done += count
        }
        return (done, nil)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
