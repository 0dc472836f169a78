extension String {
    /// The text made safe anywhere in an HTML (or inline SVG) page, in element content as in quoted attribute
    /// values: `&`, `<`, `>`, `"` and `'` become character references, and control characters other than line
    /// feeds and tabs (ANSI escapes included) the visible escapes ``Sanitizer`` writes.
    var htmlEscaped: String {
        guard
            unicodeScalars.contains(where: {
                $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" || $0 == "'" || Self.isHiddenControl($0)
            })
        else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where Self.isHiddenControl(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
