/// The bytes of UTF-8 text an escaper must look at: the ASCII characters it replaces, and the first byte of every
/// non-ASCII character (a C1 control, a bidi control or U+FFFE may be among them). The others, most of any log text,
/// are copied in runs without being decoded or shown to the escaper.
struct EscapedBytes: Sendable {
    /// Bit `b` of word `b >> 6`: byte `b` is looked at.
    private let words: (UInt64, UInt64)

    /// The ASCII scalars `replaced` says yes to (and every non-ASCII scalar).
    init(_ replaced: (Unicode.Scalar) -> Bool) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for value in UInt8(0)..<0x80 where replaced(Unicode.Scalar(value)) {
            if value < 64 { low |= 1 << value } else { high |= 1 << (value - 64) }
        }
        words = (low, high)
    }

    /// Walks `utf8` (valid UTF-8), showing `replacement` the scalars that start with a byte this set holds, and
    /// hands `emit`, in order, each run of bytes kept before a scalar replaced and the UTF-8 of its replacement.
    /// Returns where the bytes kept after the last replacement start: 0 when nothing was replaced (and nothing
    /// emitted).
    func forEachRun(
        _ utf8: UnsafeBufferPointer<UInt8>, _ replacement: (Unicode.Scalar) -> String?,
        _ emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard contains(byte) else {
                index += 1
                continue
            }
            // A String's UTF-8 is valid: the first byte gives the length, the others six bits each.
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            var value = length == 1 ? UInt32(byte) : UInt32(byte) & (0x7F >> UInt32(length))
            for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
            if let scalar = Unicode.Scalar(value), let text = replacement(scalar) {
                emit(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                OutputBytes.withUTF8(text, emit)
                runStart = index + length
            }
            index += length
        }
        return runStart
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        switch byte >> 6 {
        case 0: return words.0 >> byte & 1 != 0
        case 1: return words.1 >> (byte & 63) & 1 != 0
        default: return true
        }
    }
}

/// An escaper: the text each scalar is replaced by (nil: kept as it is), and the bytes it must look at for that,
/// made from it. Called on a string, gives the string escaped (``String/replacingScalars(looking:_:)``).
struct ScalarEscaper: Sendable {
    let bytes: EscapedBytes
    let replacement: @Sendable (Unicode.Scalar) -> String?

    init(_ replacement: @escaping @Sendable (Unicode.Scalar) -> String?) {
        self.replacement = replacement
        bytes = EscapedBytes { replacement($0) != nil }
    }

    func callAsFunction(_ text: String) -> String { text.replacingScalars(looking: bytes, replacement) }

    /// Appends `text` escaped to `output`.
    func append(_ text: String, to output: inout OutputBytes) {
        OutputBytes.withUTF8(text) { utf8 in
            let kept = bytes.forEachRun(utf8, replacement) { output.append($0) }
            output.append(UnsafeBufferPointer(rebasing: utf8[kept...]))
        }
    }
}

extension String {
    /// The string with each scalar `replacement` returns a text for replaced by it, the others kept: the loop every
    /// output language's escaper (HTML, XML, Markdown, workflow commands, the terminal) shares. Only the scalars
    /// that start with a byte of `bytes` (which holds at least the ASCII scalars `replacement` replaces) are shown
    /// to it; a string with nothing to replace is returned as is.
    func replacingScalars(looking bytes: EscapedBytes, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var text = self
        return text.withUTF8 { utf8 -> String in
            var out: [UInt8] = []
            let kept = bytes.forEachRun(utf8, replacement) { piece in
                if out.isEmpty { out.reserveCapacity(utf8.count + 16) }
                out += piece
            }
            guard kept > 0 else { return self }
            out += UnsafeBufferPointer(rebasing: utf8[kept...])
            return String(decoding: out, as: UTF8.self)
        }
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
