#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the command line's paths into inputs: files as named, folders walked recursively for captures.
///
/// Inside a folder, a file is a capture when its name matches an `include` glob (by default the usual
/// capture names: `*.log`, `*.txt`, `*.ndjson`, `*.syslog`, `*.out` and any of them gzipped, `*.gz`) and no
/// `exclude` glob. A glob without `/` matches a file's (or folder's) name; one with `/` matches its path
/// relative to the folder named, `*` and `**` crossing folders. Excluded folders are not entered, hidden files
/// and folders (`.git`) are skipped, symbolic links to folders are not followed (so a loop of links ends), links
/// that lead nowhere are listed (their reading says why it fails), FIFOs, sockets and devices are skipped. Files
/// are listed in byte order of their paths so every run reads and reports them in the same order. A file named on
/// the command line is always read (a FIFO too: it is read until its writer closes it).
public struct InputCollector: Sendable {
    public static let defaultIncludes = ["*.log", "*.txt", "*.ndjson", "*.syslog", "*.out", "*.gz"]

    public var includes: [String]
    public var excludes: [String]

    public init(includes: [String] = [], excludes: [String] = []) {
        self.includes = includes.isEmpty ? Self.defaultIncludes : includes
        self.excludes = excludes
    }

    /// The inputs the paths name, in order: `-` is standard input, a folder its captures (sorted), anything else
    /// a file (an unreadable one is reported when it is read). A folder that cannot be read, or holds no capture,
    /// is an error.
    public func collect(_ paths: [String]) throws(TraceAnalyzeError) -> [InputSource] {
        var sources: [InputSource] = []
        for path in paths {
            if path == "-" {
                sources.append(.standardInput)
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                sources.append(.file(path))
                continue
            }
            var found: [String] = []
            try walk(folder: path, relative: "", into: &found)
            guard !found.isEmpty else {
                throw .noCaptures(folder: path, includes: includes, excludes: excludes)
            }
            sources += found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { .file($0) }
        }
        return sources
    }

    private func walk(folder: String, relative: String, into found: inout [String]) throws(TraceAnalyzeError) {
        guard let directory = opendir(folder) else {
            throw .cannotOpen(path: folder, reason: String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var entries: [(name: String, isFolder: Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            var info = stat()
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            // lstat: a link to a folder is not followed (no loops); a link to a file is read like a file. A link
            // that leads nowhere (dangling, or a loop of links) is kept as a file when its name is a capture's, so
            // reading it reports why ("Too many levels of symbolic links") instead of the file silently missing.
            guard lstat(path, &info) == 0 else { continue }
            var kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                if stat(path, &info) != 0 {
                    kind = S_IFREG
                } else {
                    guard (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    kind = S_IFREG
                }
            }
            // FIFOs, sockets and devices inside a folder are skipped: reading one could wait forever.
            if kind == S_IFDIR || kind == S_IFREG { entries.append((name, kind == S_IFDIR)) }
        }
        for entry in entries {
            let path = folder.hasSuffix("/") ? folder + entry.name : folder + "/" + entry.name
            let inside = relative.isEmpty ? entry.name : relative + "/" + entry.name
            if excludes.contains(where: { Self.matches($0, name: entry.name, relativePath: inside) }) { continue }
            if entry.isFolder {
                try walk(folder: path, relative: inside, into: &found)
            } else if includes.contains(where: { Self.matches($0, name: entry.name, relativePath: inside) }) {
                found.append(path)
            }
        }
    }

    /// A glob without `/` matches the name; with `/`, the path relative to the folder named (`**` = `*`, and
    /// `*` crosses folders).
    static func matches(_ glob: String, name: String, relativePath: String) -> Bool {
        guard glob.contains("/") else { return fnmatch(glob, name, 0) == 0 }
        var pattern = glob
        while pattern.contains("**") { pattern = pattern.replacing("**", with: "*") }
        if pattern.hasPrefix("*/"), fnmatch(String(pattern.dropFirst(2)), relativePath, 0) == 0 { return true }
        return fnmatch(pattern, relativePath, 0) == 0
    }
}
