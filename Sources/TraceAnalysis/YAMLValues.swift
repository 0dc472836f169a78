import NativeKit

/// A node of a configuration file or baseline.
typealias Node = YAML.Node

/// The values of YAML 1.1's scalars that configuration files and baselines hold, read as libyaml's earlier Swift
/// wrapper (Yams) read them, so files written for it read the same: numbers and booleans from plain (unquoted)
/// scalars only, `_` between digits, `0x`/`0o`/`0b` and leading-zero octal, `1:30` as 90.
extension YAML.Node {
    /// The pairs of a mapping, looked up by their scalar keys' text.
    struct Mapping: Sequence {
        let pairs: [(key: Node, value: Node)]

        subscript(key: String) -> Node? { pairs.first { $0.key.string == key }?.value }

        func makeIterator() -> IndexingIterator<[(key: Node, value: Node)]> { pairs.makeIterator() }
    }

    var mapping: Mapping? {
        guard case .mapping(let pairs) = content else { return nil }
        return Mapping(pairs: pairs)
    }

    var sequence: [Node]? {
        guard case .sequence(let items) = content else { return nil }
        return items
    }

    /// A scalar's text, however it was written.
    var string: String? {
        guard case .scalar(let text, _, _) = content else { return nil }
        return text
    }

    /// The text of a plain scalar with `_` taken out and its sign apart.
    private var number: (negative: Bool, digits: Substring)? {
        guard case .scalar(let text, plain: true, _) = content else { return nil }
        let bare = text.filter { $0 != "_" }
        let negative = bare.hasPrefix("-")
        return (negative, bare.dropFirst(negative || bare.hasPrefix("+") ? 1 : 0)[...])
    }

    var int: Int? {
        guard let (negative, digits) = number else { return nil }
        if digits == "0" { return 0 }
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int(sign + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") { return Self.sexagesimal(digits, negative: negative).flatMap { Int(exactly: $0) } }
        return Int(sign + digits)
    }

    var float: Double? {
        guard let (negative, digits) = number else { return nil }
        switch digits.lowercased() {
        case ".inf": return negative ? -.infinity : .infinity
        case ".nan": return .nan
        default:
            if digits.contains(":") { return Self.sexagesimal(digits, negative: negative) }
            return Double((negative ? "-" : "") + digits)
        }
    }

    /// YAML 1.1's booleans: `true`/`false`, `yes`/`no`, `on`/`off` in lower, capitalised or upper case, unquoted
    /// (or tagged `!!bool`).
    var bool: Bool? {
        guard case .scalar(let text, let plain, let tag) = content else { return nil }
        if let tag {
            guard tag == "tag:yaml.org,2002:bool" else { return nil }
            return Self.booleans[text.lowercased()]
        }
        guard plain, text == text.lowercased() || text == text.uppercased() || text == Self.capitalised(text) else {
            return nil
        }
        return Self.booleans[text.lowercased()]
    }

    private static let booleans = ["true": true, "yes": true, "on": true, "false": false, "no": false, "off": false]

    private static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst().lowercased()
    }

    /// `1:30:05` as 1 × 3600 + 30 × 60 + 5 (the last part may have a fraction).
    private static func sexagesimal(_ digits: Substring, negative: Bool) -> Double? {
        var value = 0.0
        for part in digits.split(separator: ":", omittingEmptySubsequences: false) {
            guard let number = Double(part), number >= 0 else { return nil }
            value = value * 60 + number
        }
        return negative ? -value : value
    }
}
