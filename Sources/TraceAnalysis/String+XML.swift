extension String {
    /// The string as the content of an XML 1.0 element: `&`, `<`, `>` as entities, a carriage return as `&#13;`
    /// (a parser would turn a raw one into a line feed), and characters XML 1.0 forbids as visible `\u{1b}` escapes.
    var xmlEscapedText: String { Self.xmlText(self) }

    /// The string as a double-quoted XML 1.0 attribute value: as ``xmlEscapedText``, with `"` as `&quot;` and tab,
    /// line feed and carriage return as character references (a parser would turn raw ones into spaces).
    var xmlEscapedAttribute: String { Self.xmlAttribute(self) }

    static let xmlText = ScalarEscaper { xmlReplacement($0, attribute: false) }
    static let xmlAttribute = ScalarEscaper { xmlReplacement($0, attribute: true) }

    private static func xmlReplacement(_ scalar: Unicode.Scalar, attribute: Bool) -> String? {
        switch scalar {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"" where attribute: return "&quot;"
        case "\r": return "&#13;"
        case "\n" where attribute: return "&#10;"
        case "\t" where attribute: return "&#9;"
        case "\n", "\t": return nil
        case _ where isXMLForbiddenOrControl(scalar): return String.visibleEscape(scalar)
        default: return nil
        }
    }

    /// C0 controls other than tab, line feed and carriage return, and U+FFFE and U+FFFF, are not XML 1.0
    /// characters; DEL, the C1 controls and the bidi controls are allowed but invisible, so they are shown the same
    /// way.
    private static func isXMLForbiddenOrControl(_ scalar: Unicode.Scalar) -> Bool {
        isHidden(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }
}
