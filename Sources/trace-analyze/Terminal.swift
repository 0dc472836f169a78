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
        _ = writeAll("trace-analyze: \(message)\n", to: 2)
    }

    /// Writes to standard output; a reader that went away (`| head`) ends the program quietly.
    static func print(_ text: [UInt8]) {
        signal(SIGPIPE, SIG_IGN)
        if !writeAll(text, to: 1), errno == EPIPE { exit(0) }
    }

    private static func writeAll(_ text: String, to fd: Int32) -> Bool {
        writeAll(Array(text.utf8), to: fd)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { Output.writeAll($0, to: fd) }
    }

    static func write(_ bytes: [UInt8], toFile path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw TraceAnalyzeError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        let written = writeAll(bytes, to: fd)
        let writeError = errno
        if close(fd) != 0 || !written {
            throw TraceAnalyzeError.cannotWrite(
                path: path, reason: String(cString: strerror(written ? errno : writeError)))
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
