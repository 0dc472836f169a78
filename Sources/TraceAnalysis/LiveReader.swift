#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Feeds a ``LiveAnalysis`` from a pipe (standard input) or from a file followed like `tail -F`, telling it when
/// the input pauses, until the input ends or the stop descriptor becomes readable (a Ctrl-C handler writes to it).
///
/// A followed file is read from its beginning, then polled for growth. When it shrinks below what was read it was
/// truncated: it is read again from its start. When another file appears at its path it was rotated: the old file
/// is read to its end, then the new one from its start. A path that does not exist (yet, or for a while during a
/// rotation) is waited for. Line numbers go on across files: they count the lines read through the path, as
/// `tail -F` would hand them on. Truncation is seen only when the file is shorter than what was read when polled:
/// a file truncated and refilled beyond that between two polls looks like growth (as for `tail -F`).
public struct LiveReader {
    /// Where lines come from.
    public enum Source: Sendable, Equatable {
        /// A descriptor read until its end (a pipe, a terminal, a file given as standard input).
        case descriptor(Int32)
        /// A path followed like `tail -F`; it never ends by itself.
        case file(String)
    }

    /// How reading ended.
    public enum Ending: Sendable, Equatable {
        /// The descriptor reached its end (the writer closed the pipe).
        case endOfInput
        /// The stop descriptor became readable.
        case stopped
        /// Reading failed (already reported to the analysis).
        case failed(TraceAnalyzeError)
    }

    /// What happened to a followed file, for a line on standard error.
    public enum Notice: Sendable, Equatable, CustomStringConvertible {
        case waiting(path: String)
        case appeared(path: String)
        case truncated(path: String, line: Int)
        case rotated(path: String, line: Int)
        case missing(path: String)

        public var description: String {
            switch self {
            case .waiting(let path): return "\(path): waiting for the file to appear"
            case .appeared(let path): return "\(path): appeared; following it"
            case .truncated(let path, let line):
                return "\(path): truncated; reading it again from its start (its lines count on from line \(line + 1))"
            case .rotated(let path, let line):
                return "\(path): replaced by a new file (rotated); following the new one (its lines count on from "
                    + "line \(line + 1))"
            case .missing(let path): return "\(path): gone; still reading the file it was, waiting for a new one"
            }
        }
    }

    /// How long without input counts as a pause (``LiveAnalysis/idle(milliseconds:)`` is called then, and again
    /// each time as long again passes).
    public var idleMilliseconds: Double
    /// How often a followed file is looked at for growth, truncation and rotation.
    public var pollMilliseconds: Double
    /// Readable when reading must stop (the read end of a self-pipe a signal handler writes to).
    public var stop: Int32?
    public var notice: (Notice) -> Void

    public init(
        idleMilliseconds: Double = 2000, pollMilliseconds: Double = 100, stop: Int32? = nil,
        notice: @escaping (Notice) -> Void = { _ in }
    ) {
        self.idleMilliseconds = max(1, idleMilliseconds)
        self.pollMilliseconds = max(1, pollMilliseconds)
        self.stop = stop
        self.notice = notice
    }

    /// Reads `source` into `live` until it ends or is stopped; the caller then calls ``LiveAnalysis/finish()``.
    public func run(_ source: Source, into live: LiveAnalysis) -> Ending {
        switch source {
        case .descriptor(let fd): return stream(fd, into: live)
        case .file(let path): return follow(path, into: live)
        }
    }

    private static let chunkSize = 64 * 1024

    // MARK: A pipe

    private func stream(_ fd: Int32, into live: LiveAnalysis) -> Ending {
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        var lastInput = Self.now()
        var nextIdle = idleMilliseconds
        while true {
            let waited = Self.now() - lastInput
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let stop { fds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
            let timeout = Int32(max(0, (nextIdle - waited).rounded(.up)))
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return fail(live, fd: fd)
            }
            if fds.count > 1, fds[1].revents != 0 { return .stopped }
            if ready == 0 {
                let idle = Self.now() - lastInput
                live.idle(milliseconds: idle)
                nextIdle = idle + idleMilliseconds
                continue
            }
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return fail(live, fd: fd)
            }
            if got == 0 { return .endOfInput }
            buffer.withUnsafeBytes { live.feed(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            lastInput = Self.now()
            nextIdle = idleMilliseconds
            if !Self.readable(fd) { live.caughtUp() }
        }
    }

    private func fail(_ live: LiveAnalysis, fd: Int32) -> Ending {
        let error = TraceAnalyzeError.readFailed(
            path: live.name,
            reason: String(cString: strerror(errno)) + (live.lineCount > 0 ? ", after line \(live.lineCount)" : ""))
        live.fail(error)
        return .failed(error)
    }

    // MARK: A followed file

    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    private func follow(_ path: String, into live: LiveAnalysis) -> Ending {
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        var fd: Int32 = -1
        var identity: Identity?
        var offset: Int64 = 0
        var announcedMissing = false
        var lastInput = Self.now()
        var nextIdle = idleMilliseconds
        defer { if fd >= 0 { close(fd) } }

        /// Reads what the file has beyond `offset`; true when anything was read.
        func drain() -> Bool {
            var any = false
            while true {
                let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if got < 0, errno == EINTR { continue }
                if got <= 0 { return any }
                any = true
                offset += Int64(got)
                buffer.withUnsafeBytes { live.feed(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
                // A big file read from its start: Ctrl-C need not wait for its end.
                if let stop, Self.readable(stop) { return any }
            }
        }

        while true {
            if fd < 0 {
                if let opened = Self.openFile(path) {
                    (fd, identity, offset) = (opened.fd, opened.identity, 0)
                    if announcedMissing { notice(.appeared(path: path)) }
                    announcedMissing = false
                } else if errno != ENOENT {
                    let error = TraceAnalyzeError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
                    live.fail(error)
                    return .failed(error)
                } else if !announcedMissing {
                    notice(.waiting(path: path))
                    announcedMissing = true
                }
            }
            if fd >= 0 {
                if drain() {
                    lastInput = Self.now()
                    nextIdle = idleMilliseconds
                    live.caughtUp()
                }
                var info = stat()
                if fstat(fd, &info) == 0, Int64(info.st_size) < offset {
                    live.endOfSegment()
                    notice(.truncated(path: path, line: live.lineCount))
                    lseek(fd, 0, SEEK_SET)
                    offset = 0
                    continue
                }
                var atPath = stat()
                if stat(path, &atPath) != 0 {
                    if !announcedMissing {
                        notice(.missing(path: path))
                        announcedMissing = true
                    }
                } else if Self.identity(atPath) != identity {
                    // Rotated: what was appended to the old file before the new one appeared comes first.
                    if drain() { live.caughtUp() }
                    live.endOfSegment()
                    close(fd)
                    fd = -1
                    announcedMissing = false
                    notice(.rotated(path: path, line: live.lineCount))
                    continue
                } else if announcedMissing {
                    announcedMissing = false
                }
            }
            if let stop {
                if Self.readable(stop) { return .stopped }
                var fds = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 1, Int32(pollMilliseconds.rounded(.up)))
                if ready > 0 { return .stopped }
            } else {
                usleep(useconds_t(pollMilliseconds * 1000))
            }
            let idle = Self.now() - lastInput
            if idle >= nextIdle {
                live.idle(milliseconds: idle)
                nextIdle = idle + idleMilliseconds
            }
        }
    }

    private static func openFile(_ path: String) -> (fd: Int32, identity: Identity)? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return nil
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            errno = EISDIR
            return nil
        }
        return (fd, identity(info))
    }

    private static func identity(_ info: stat) -> Identity {
        Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// More bytes can be read from `fd` at once.
    private static func readable(_ fd: Int32) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 0) > 0 && fds[0].revents & Int16(POLLIN) != 0
    }

    /// Monotonic milliseconds.
    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }
}
