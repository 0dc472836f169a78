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

    /// Where the report goes: standard output, or the file named with `--output`.
    struct Destination {
        let path: String?
        let fd: Int32

        init(path: String?) throws {
            self.path = path
            guard let path else {
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

        func write(_ bytes: [UInt8]) throws {
            guard !bytes.withUnsafeBytes({ Output.writeAll($0, to: fd) }) else { return }
            if path == nil, errno == EPIPE { exit(0) }
            let reason = String(cString: strerror(errno))
            throw TraceAnalyzeError.cannotWrite(path: path ?? "standard output", reason: reason)
        }

        func close() {
            if path != nil { _ = systemClose(fd) }
        }
    }

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
