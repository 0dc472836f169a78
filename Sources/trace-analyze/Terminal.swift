import ArgumentParser
import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard streams, colour decisions and output files.
enum Terminal {
    /// A message on standard error, prefixed with the tool's name. File names and log text in it are shown
    /// with their control characters as visible escapes: a message is one line and cannot drive the terminal.
    static func warn(_ message: String) {
        let bytes = Array("trace-analyze: \(Sanitizer.terminal(message))\n".utf8)
        _ = bytes.withUnsafeBytes { Output.writeAll($0, to: 2) }
    }

    /// A line of information on standard error (not prefixed: it is not a warning).
    static func say(_ message: String) {
        let bytes = Array("\(Sanitizer.terminal(message))\n".utf8)
        _ = bytes.withUnsafeBytes { Output.writeAll($0, to: 2) }
    }

    /// Standard output's reader went away (`trace-analyze big.log | head -1`): nothing more can be written there.
    /// Not a failure: the run goes on to its other outputs and ends with the exit code of its findings.
    struct ReaderGone: Error {}

    /// Where the report goes: standard output, or the file named with `--output`.
    struct Destination {
        let path: String?
        let fd: Int32

        init(path: String?) throws {
            self.path = path
            guard let path else {
                if Terminal.standardOutputWasClosed {
                    throw TraceAnalyzeError.cannotWrite(path: "standard output", reason: "it is closed")
                }
                // A reader that went away (`| head`) must end the program quietly, not kill it with SIGPIPE.
                signal(SIGPIPE, SIG_IGN)
                self.fd = 1
                return
            }
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else {
                throw TraceAnalyzeError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            self.fd = fd
        }

        /// Writes every byte; throws ``ReaderGone`` when standard output's reader has gone, `cannotWrite` naming
        /// the path on any other failure.
        func write(_ bytes: [UInt8]) throws {
            guard !bytes.withUnsafeBytes({ Output.writeAll($0, to: fd) }) else { return }
            if path == nil, errno == EPIPE { throw ReaderGone() }
            let reason = String(cString: strerror(errno))
            throw TraceAnalyzeError.cannotWrite(path: path ?? "standard output", reason: reason)
        }

        func close() {
            if path != nil { _ = systemClose(fd) }
        }
    }

    /// What the process's exit is left to free, instead of its deinitialisers: a batch's report is hundreds of
    /// thousands of small allocations (1,000 captures: 5–10 ms of freeing on one thread, after the last byte is
    /// written). Its files are closed by the exit too; a spill file is unlinked as soon as it is open.
    nonisolated(unsafe) private static var leftToExit: [Any] = []

    /// Keeps `value` until the process exits (see ``leftToExit``). Only on the way out: what is kept is never freed.
    static func leaveToExit(_ value: Any) { leftToExit.append(value) }

    /// Prints a command's text on standard output; a reader that went away ends the printing quietly, any other
    /// failure is named and ends the run with exit code 2.
    static func print(_ text: String) throws {
        do {
            try Destination(path: nil).write(Array(text.utf8))
        } catch is ReaderGone {
            return
        } catch {
            warn(String(describing: error))
            throw ExitCode(ExitStatus.inputProblem.rawValue)
        }
    }

    /// Makes sure descriptors 0, 1 and 2 are open before any file is: were one closed (`trace-analyze x.log 2>&-`),
    /// the next file opened (an input, a `--report` file) would take its number, and warnings or the report would
    /// land in it. A closed one is opened on /dev/null; a closed standard output is remembered, so writing the
    /// report there fails with a message instead of vanishing.
    static func guardStandardStreams() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != fd {
                _ = dup2(opened, fd)
                _ = systemClose(opened)
            }
            if fd == 1 { standardOutputWasClosed = true }
        }
    }

    /// Standard output was closed when the program started (set by ``guardStandardStreams()`` before any thread
    /// starts, read only after).
    nonisolated(unsafe) static var standardOutputWasClosed = false

    /// Colour only on a terminal, never when NO_COLOR is set (https://no-color.org), unless forced.
    static func wantsColor(_ mode: String) -> Bool {
        switch mode {
        case "always": return true
        case "never": return false
        default:
            if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isatty(1) != 0
        }
    }
}

extension Terminal {
    /// Cores online (the default number of inputs analysed at once).
    static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// A progress bar on standard error for long batches, drawn only when standard error is a terminal, at most
/// ten times a second; ``finish()`` clears it. The analyser calls ``update(_:)`` one call at a time.
final class ProgressBar: @unchecked Sendable {
    private let enabled = isatty(2) != 0
    private let started = ProgressBar.now()
    private var lastDrawn = 0.0
    private var drawn = false

    func update(_ progress: BatchProgress) {
        guard enabled else { return }
        let now = Self.now()
        guard now - lastDrawn >= 0.1 || progress.done == progress.total else { return }
        lastDrawn = now
        let width = 24
        let filled = progress.total == 0 ? width : width * progress.done / progress.total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let megabytes = Double(progress.bytes) / 1_048_576
        let size = megabytes >= 1024 ? "\(Self.rounded(megabytes / 1024)) GiB" : "\(Self.rounded(megabytes)) MiB"
        let line =
            "\r[\(bar)] \(progress.done)/\(progress.total) inputs · \(size) · \(Self.rounded(now - started)) s\u{1B}[K"
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { Output.writeAll($0, to: 2) }
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        let bytes = Array("\r\u{1B}[K".utf8)
        _ = bytes.withUnsafeBytes { Output.writeAll($0, to: 2) }
    }

    private static func rounded(_ value: Double) -> String { String((value * 10).rounded() / 10) }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// close(2), named apart from `Destination.close()`.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
