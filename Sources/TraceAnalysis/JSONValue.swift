/// A JSON value with ordered object keys, so reports read in a stable, documented order.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Serialises with two-space indentation (`pretty`) or on one line.
    public func serialized(pretty: Bool = true) -> String {
        var out: [UInt8] = []
        write(into: &out, pretty: pretty)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 serialisation to `out` (reporters write straight into their output buffer).
    public func write(into out: inout [UInt8], pretty: Bool = true) {
        write(into: &out, indent: pretty ? 0 : nil)
    }

    /// Appends the serialisation as if nested `indent` levels deep (nil: on one line).
    func write(into out: inout [UInt8], indent: Int?) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value): out.append(contentsOf: JSONValue.number(value).utf8)
        case .string(let value): JSONValue.escape(value, into: &out)
        case .array(let values):
            guard !values.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, indent.map { $0 + 1 })
                value.write(into: &out, indent: indent.map { $0 + 1 })
            }
            JSONValue.newline(&out, indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, indent.map { $0 + 1 })
                JSONValue.escape(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                value.write(into: &out, indent: indent.map { $0 + 1 })
            }
            JSONValue.newline(&out, indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func newline(_ out: inout [UInt8], _ indent: Int?) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent * 2 { out.append(UInt8(ascii: " ")) }
    }

    /// Numbers without float noise: whole values print as integers, others with at most 3 decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// JSON string escaping: quotes, backslashes and every control character; the rest is UTF-8 as is.
    static func escape(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    init(_ value: String?) { self = value.map { .string($0) } ?? .null }
    init(_ value: Int?) { self = value.map { .int($0) } ?? .null }
    init(_ value: Double?) { self = value.map { .double($0) } ?? .null }
    init(_ value: Timestamp?) { self = value.map { .string($0.iso8601) } ?? .null }
}
