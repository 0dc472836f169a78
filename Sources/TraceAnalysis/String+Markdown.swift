extension String {
    /// Log-derived text made inert in GitHub-flavoured Markdown, inline or in a table cell.
    ///
    /// Characters that open inline markup (`\` `` ` `` `*` `_` `[` `]` `<` `>` `~` `&` `$`) and the table's `|`
    /// are backslash-escaped, which CommonMark allows for any ASCII punctuation; control and bidi characters become
    /// visible `\u{1b}` escapes (a line feed would end a table row). `@name` and `#123` get an empty HTML comment
    /// after the sign, so a process name cannot mention a person or link an issue in a pull-request comment; so do
    /// the `://` of a URL and the `www.` of a host name, which GitHub would turn into links with no markup at all.
    /// Log text never starts a line of a report, so it cannot open a heading, a list or a quote either.
    var markdownEscaped: String {
        if String.isInertInMarkdown(utf8) { return self }
        var text = self
        return text.withUTF8(String.markdownEscaped)
    }

    /// ``markdownEscaped`` of the UTF-8 bytes of a string, byte by byte: a scalar is decoded only where the rules
    /// look at one that is not ASCII (whether it is hidden, or a letter after `@` or `#`). No scalar but `W` and `w`
    /// lower-cases to `w`, none but `/` to `/` and none but `.` to `.`, and an ASCII scalar is alphabetic when it is
    /// a letter, so the bytes of the rest are compared as they are. (A string's bytes are valid UTF-8: each scalar
    /// decodes.)
    static func markdownEscaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        func at(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
        func scalar(at index: Int) -> Unicode.Scalar {
            var iterator = UnsafeBufferPointer(rebasing: bytes[index...]).makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return "\u{FFFD}" }
            return scalar
        }
        let comment = Array("<!-- -->".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x80...:
                let scalar = scalar(at: index)
                let width = UTF8.width(scalar)
                if String.isHidden(scalar) {
                    // The backslash of `\u{202e}` escaped, so Markdown shows it.
                    out.append(UInt8(ascii: "\\"))
                    out += String.visibleEscape(scalar).utf8
                } else {
                    out += UnsafeBufferPointer(rebasing: bytes[index..<Swift.min(index + width, bytes.count)])
                }
                index += width
                continue
            case _ where String.opensMarkup(byte):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "@"), UInt8(ascii: "#"):
                out.append(byte)
                let next = at(index + 1)
                let mentions =
                    next >= 0x80
                    ? scalar(at: index + 1).properties.isAlphabetic
                    : (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
                if mentions { out += comment }
            case UInt8(ascii: ":") where at(index + 1) == UInt8(ascii: "/") && at(index + 2) == UInt8(ascii: "/"):
                out.append(byte)
                out += comment
            case UInt8(ascii: "w"), UInt8(ascii: "W"):
                out.append(byte)
                if at(index + 1) | 0x20 == UInt8(ascii: "w") && at(index + 2) | 0x20 == UInt8(ascii: "w")
                    && at(index + 3) == UInt8(ascii: ".")
                {
                    out += comment
                }
            case ..<0x20, 0x7F:
                out.append(UInt8(ascii: "\\"))
                out += String.visibleEscape(Unicode.Scalar(byte)).utf8
            default:
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether ``markdownEscaped`` leaves `utf8` as it is: printable ASCII without a character that opens markup, a
    /// mention, an issue link or a URL (a `:` or a `www.`). A batch's paths and most process names are: for them
    /// ``markdownEscaped`` makes no array of bytes and no new string. (When escaping went scalar by scalar, each
    /// such string cost about 18,000 instructions in the Markdown report's table of inputs.)
    static func isInertInMarkdown(_ utf8: String.UTF8View) -> Bool {
        var ws = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: ":"):
                return false
            case _ where String.opensMarkup(byte):
                return false
            case UInt8(ascii: "w"), UInt8(ascii: "W"):
                ws += 1
            case UInt8(ascii: "."):
                if ws >= 3 { return false }
                ws = 0
            case 0x20...0x7E:
                ws = 0
            default:
                return false
            }
        }
        return true
    }

    /// The ASCII characters that open inline markup (`\` `` ` `` `*` `_` `[` `]` `<` `>` `~` `&` `$`) or end a table
    /// cell (`|`): ``markdownEscaped`` puts a backslash before each.
    static func opensMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "~"),
            UInt8(ascii: "&"), UInt8(ascii: "$"):
            return true
        default:
            return false
        }
    }
}
