extension String {
    /// The string as the message of a GitHub Actions workflow command (`::error …::MESSAGE`): `%`, carriage
    /// return and line feed percent-encoded, as the runner decodes them (`%25`, `%0D`, `%0A`).
    var workflowCommandMessage: String { Self.workflowMessage(self) }

    /// The string as a property value of a workflow command (`file=…,title=…`): as ``workflowCommandMessage``,
    /// and `:` and `,` (which end a value) as `%3A` and `%2C`.
    var workflowCommandProperty: String { Self.workflowProperty(self) }

    private static let workflowMessage = ScalarEscaper { workflowCommandReplacement($0, property: false) }
    private static let workflowProperty = ScalarEscaper { workflowCommandReplacement($0, property: true) }

    private static func workflowCommandReplacement(_ scalar: Unicode.Scalar, property: Bool) -> String? {
        switch scalar {
        case "%": return "%25"
        case "\r": return "%0D"
        case "\n": return "%0A"
        case ":" where property: return "%3A"
        case "," where property: return "%2C"
        // Other control characters (an ANSI escape would colour the log) and bidi controls are shown as visible
        // escapes.
        case _ where String.isHidden(scalar): return String.visibleEscape(scalar)
        default: return nil
        }
    }
}
