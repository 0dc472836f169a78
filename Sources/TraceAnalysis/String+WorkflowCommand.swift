extension String {
    /// The string as the message of a GitHub Actions workflow command (`::error …::MESSAGE`): `%`, carriage
    /// return and line feed percent-encoded, as the runner decodes them (`%25`, `%0D`, `%0A`).
    var workflowCommandMessage: String { workflowCommandEscaped(property: false) }

    /// The string as a property value of a workflow command (`file=…,title=…`): as ``workflowCommandMessage``,
    /// and `:` and `,` (which end a value) as `%3A` and `%2C`.
    var workflowCommandProperty: String { workflowCommandEscaped(property: true) }

    private func workflowCommandEscaped(property: Bool) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            // Other control characters (an ANSI escape would colour the log) are shown as visible escapes.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
