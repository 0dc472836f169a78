extension String {
    /// The text made safe anywhere in an HTML (or inline SVG) page, in element content as in quoted attribute
    /// values: `&`, `<`, `>`, `"` and `'` become character references, and control characters other than line
    /// feeds and tabs (ANSI escapes included) and bidi controls the visible escapes ``Sanitizer`` writes.
    var htmlEscaped: String { Self.html(self) }

    private static let html = ScalarEscaper(htmlReplacement)

    private static func htmlReplacement(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        case "'": return "&#39;"
        case _ where isHiddenControl(scalar): return String.visibleEscape(scalar)
        default: return nil
        }
    }

    private static func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        isHidden(scalar) && scalar != "\n" && scalar != "\t"
    }
}
