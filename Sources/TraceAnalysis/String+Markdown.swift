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
        return text.withUTF8(String.markdownEscapedASCII) ?? markdownEscapedByScalars
    }

    /// ``markdownEscaped`` of ASCII text, byte by byte (what the scalars give: an ASCII letter's lower case is a
    /// byte, and only letters are alphabetic); nil for other text.
    static func markdownEscapedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        func at(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
        let comment = Array("<!-- -->".utf8)
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case 0x80...:
                return nil
            case _ where String.opensMarkup(byte):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "@"), UInt8(ascii: "#"):
                out.append(byte)
                let next = at(index + 1)
                if (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
                {
                    out += comment
                }
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
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ``markdownEscaped`` worked out scalar by scalar, whatever the text.
    var markdownEscapedByScalars: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        let scalars = Array(unicodeScalars)
        func follows(_ text: String, at index: Int) -> Bool {
            var position = index
            for expected in text.unicodeScalars {
                guard position < scalars.count, scalars[position].properties.lowercaseMapping == String(expected)
                else { return false }
                position += 1
            }
            return true
        }
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case _ where scalar.isASCII && String.opensMarkup(UInt8(scalar.value)):
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "@", "#":
                out.unicodeScalars.append(scalar)
                let next = index + 1 < scalars.count ? scalars[index + 1] : " "
                if next.properties.isAlphabetic || ("0"..."9").contains(next) { out += "<!-- -->" }
            case ":" where follows("//", at: index + 1):
                out += ":<!-- -->"
            case _ where (scalar == "w" || scalar == "W") && follows("ww.", at: index + 1):
                out.unicodeScalars.append(scalar)
                out += "<!-- -->"
            case _ where String.isHidden(scalar):
                // The backslash of `\u{1b}` escaped, so Markdown shows it.
                out += "\\" + String.visibleEscape(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether ``markdownEscaped`` leaves `utf8` as it is: printable ASCII without a character that opens markup, a
    /// mention, an issue link or a URL (a `:` or a `www.`). A batch's paths and most process names are, and taking
    /// them apart scalar by scalar cost about 18,000 instructions each (the Markdown report's table of inputs).
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
