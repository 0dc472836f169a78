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
/// are listed in byte order of their paths so every run reads and reports them in the same order, and handed over as
/// the walk finds them (``collect(_:each:)``), so reading can start before the walk ends. A file named on
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
        try collect(paths) { sources.append($0) }
        return sources
    }

    /// Hands over the inputs the paths name one at a time, as they are found, in the order ``collect(_:)`` lists
    /// them: a folder is walked in path order (each folder's entries sorted, a folder's name sorting as if it ended
    /// in `/`, as its files' paths do), so whoever reads the inputs can start before the walk ends. An error ends
    /// the walk (what was handed over before it stays handed over).
    public func collect(_ paths: [String], each found: (InputSource) -> Void) throws(TraceAnalyzeError) {
        for path in paths {
            if path == "-" {
                found(.standardInput)
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                found(.file(path))
                continue
            }
            var count = 0
            try walk(folder: path, relative: "") { file in
                count += 1
                found(.file(file))
            }
            guard count > 0 else {
                throw .noCaptures(folder: path, includes: includes, excludes: excludes)
            }
        }
    }

    private func walk(folder: String, relative: String, found: (String) -> Void) throws(TraceAnalyzeError) {
        guard let directory = opendir(folder) else {
            throw .cannotOpen(path: folder, reason: String(cString: strerror(errno)))
        }
        var entries: [(name: String, isFolder: Bool, key: [UInt8])] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            // The entry's type, from the folder itself where the file system gives it (a stat per file was most of
            // the walk of a folder of many captures besides reading the folder); otherwise from lstat.
            var kind: mode_t
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = S_IFREG
            case Int32(DT_DIR): kind = S_IFDIR
            default: kind = 0
            }
            var info = stat()
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            // lstat: a link to a folder is not followed (no loops); a link to a file is read like a file. A link
            // that leads nowhere (dangling, or a loop of links) is kept as a file when its name is a capture's, so
            // reading it reports why ("Too many levels of symbolic links") instead of the file silently missing.
            if kind == 0 {
                guard lstat(path, &info) == 0 else { continue }
                kind = info.st_mode & S_IFMT
            }
            if kind == S_IFLNK {
                if stat(path, &info) != 0 {
                    kind = S_IFREG
                } else {
                    guard (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    kind = S_IFREG
                }
            }
            // FIFOs, sockets and devices inside a folder are skipped: reading one could wait forever.
            guard kind == S_IFDIR || kind == S_IFREG else { continue }
            // Every path under a folder starts with its name and `/`, and a name holds no `/`: sorting the
            // entries on that key, then walking them in turn, lists the paths in byte order.
            let isFolder = kind == S_IFDIR
            entries.append((name, isFolder, Array(name.utf8) + (isFolder ? [UInt8(ascii: "/")] : [])))
        }
        closedir(directory)
        entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for entry in entries {
            let path = folder.hasSuffix("/") ? folder + entry.name : folder + "/" + entry.name
            let inside = relative.isEmpty ? entry.name : relative + "/" + entry.name
            if excludes.contains(where: { Self.matches($0, name: entry.name, relativePath: inside) }) { continue }
            if entry.isFolder {
                try walk(folder: path, relative: inside, found: found)
            } else if includes.contains(where: { Self.matches($0, name: entry.name, relativePath: inside) }) {
                found(path)
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
