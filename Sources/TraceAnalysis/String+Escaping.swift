extension String {
    /// The string with each scalar `replacement` returns a text for replaced by it, the others kept: the loop every
    /// output language's escaper (HTML, XML, Markdown, workflow commands, the terminal) shares.
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) {
                out += text
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A control character written so a reader sees it: `\u{1b}`.
    static func visibleEscape(_ scalar: Unicode.Scalar) -> String { "\\u{" + String(scalar.value, radix: 16) + "}" }

    /// C0 and C1 control characters and DEL (tab and line feed too: callers keep those they allow).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
