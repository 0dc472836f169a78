/// The text of `trace-analyze formats`: every format and prefix in the order they are tried, with one sample.
public enum FormatListing {
    public static func render(
        formats: [LogFormat], prefixes: [LinePrefix], userFormats: Set<String> = [], userPrefixes: Set<String> = [],
        configFile: String? = nil
    ) -> String {
        var out = "Formats, in the order they are tried (detected per input; force one with --input-format NAME):\n"
        let width = max(formats.map(\.id.count).max() ?? 0, prefixes.map(\.id.count).max() ?? 0) + 2
        for format in formats {
            let origin = userFormats.contains(format.id) ? " (from \(configFile ?? "the configuration"))" : ""
            // Titles and origins come from configuration files: shown like log text.
            out += "\n  " + format.id.padding(width) + Sanitizer.terminal(format.title + origin) + "\n"
            let indent = String(repeating: " ", count: width + 2)
            if !format.origin.isEmpty { out += indent + "written by: " + Sanitizer.terminal(format.origin) + "\n" }
            if let layout = format.timestamp {
                out += indent + "timestamp: \(layout.rawValue) (\(layout.shape))\n"
            } else {
                out += indent + "timestamp: none (order only)\n"
            }
            if let sample = format.samples.first(where: { $0.kind == .record }) {
                out += indent + "e.g. " + visible(sample.line) + "\n"
            }
        }
        out += "\nPrefixes stripped before the formats are tried (reported per input):\n"
        for prefix in prefixes {
            let origin = userPrefixes.contains(prefix.id) ? " (from \(configFile ?? "the configuration"))" : ""
            out += "\n  " + prefix.id.padding(width) + Sanitizer.terminal(prefix.title + origin) + "\n"
            if let sample = prefix.samples.first {
                out += String(repeating: " ", count: width + 2) + "e.g. " + visible(sample.line) + "\n"
            }
        }
        return out
    }

    /// A sample as one visible terminal line: tabs as `\t`, control characters escaped, long lines cut.
    static func visible(_ line: String, limit: Int = 150) -> String {
        var text = line.replacingTabs()
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        return Sanitizer.terminal(text)
    }
}

extension String {
    fileprivate func replacingTabs() -> String {
        var out = ""
        for character in self { out += character == "\t" ? "\\t" : String(character) }
        return out
    }
}
