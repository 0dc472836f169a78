import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard streams, colour decisions and output files.
enum Terminal {
    /// A message on standard error, prefixed with the tool's name.
    static func warn(_ message: String) {
        let bytes = Array("trace-analyze: \(message)\n".utf8)
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

/// close(2), named apart from `Destination.close()`.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
