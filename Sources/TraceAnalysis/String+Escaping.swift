extension String {
    /// The string with each scalar `replacement` returns a text for replaced by it, the others kept: the loop every
    /// output language's escaper (HTML, XML, Markdown, workflow commands, the terminal) shares.
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        // Runs of scalars kept as they are are copied whole (as scalars: a run may begin inside a character, as the
        // "\n" of "\r\n" does); a string with nothing to replace is returned as is.
        var out = ""
        var changed = false
        var runStart = startIndex
        var index = startIndex
        while index != endIndex {
            let next = unicodeScalars.index(after: index)
            if let text = replacement(unicodeScalars[index]) {
                if !changed {
                    changed = true
                    out.reserveCapacity(utf8.count + 16)
                }
                out.unicodeScalars.append(contentsOf: unicodeScalars[runStart..<index])
                out += text
                runStart = next
            }
            index = next
        }
        guard changed else { return self }
        out.unicodeScalars.append(contentsOf: unicodeScalars[runStart..<endIndex])
        return out
    }

    /// A control character written so a reader sees it: `\u{1b}`.
    static func visibleEscape(_ scalar: Unicode.Scalar) -> String { "\\u{" + String(scalar.value, radix: 16) + "}" }

    /// C0 and C1 control characters and DEL (tab and line feed too: callers keep those they allow).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): invisible, they
    /// reorder how the text after them is shown ("Trojan Source"), so a process name holding U+202E could make a
    /// report line read backwards. The marks (LRM, RLM, ALM) only nudge neutral characters and stay.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// What log text never reaches a report for people as it is: control characters (ANSI escapes included) and
    /// bidi controls. Each escaper writes them as visible escapes (``visibleEscape(_:)``).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isBidiControl(scalar) }
}
