/// The bytes of UTF-8 text an escaper must look at: the ASCII characters it replaces, and every byte of a non-ASCII
/// character (a C1 control, a bidi control or U+FFFE may be among them). A string with none is returned as it is
/// after a scan of its bytes, without a scalar at a time through the escaper (most log text is plain ASCII).
struct EscapedBytes: Sendable {
    /// Bit `b` of word `b >> 6`: byte `b` is looked at.
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The ASCII scalars `replaced` says yes to, and every non-ASCII byte.
    init(_ replaced: (Unicode.Scalar) -> Bool) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for value in UInt8(0)..<0x80 where replaced(Unicode.Scalar(value)) {
            if value < 64 { low |= 1 << value } else { high |= 1 << (value - 64) }
        }
        words = (low, high, ~0, ~0)
    }

    func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        default: return true
        }
        return word >> (byte & 63) & 1 != 0
    }

    /// Whether `text` has a byte to look at.
    func any(in text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: contains) }) { return found }
        return text.utf8.contains(where: contains)
    }
}

extension String {
    /// The string with each scalar `replacement` returns a text for replaced by it, the others kept: the loop every
    /// output language's escaper (HTML, XML, Markdown, workflow commands, the terminal) shares. `bytes` holds at
    /// least the ASCII scalars `replacement` replaces; a string without any of its bytes is returned at once.
    func replacingScalars(looking bytes: EscapedBytes, _ replacement: (Unicode.Scalar) -> String?) -> String {
        guard bytes.any(in: self) else { return self }
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
