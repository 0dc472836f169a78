/// A strict check of JSON text (RFC 8259): what the fuzz target asks of every JSON report, that it parses as one
/// object. Checks the syntax only; builds nothing.
enum JSONSyntax {
    /// Nil when `bytes` are one JSON object (with white space around it), else what is wrong and where.
    static func objectProblem(_ bytes: [UInt8]) -> String? {
        var checker = Checker(bytes: bytes)
        checker.space()
        guard checker.peek == UInt8(ascii: "{") else { return "the JSON report is not an object" }
        do throws(Checker.Failure) {
            try checker.value(depth: 0)
            checker.space()
            guard checker.index == bytes.count else { throw Checker.Failure(index: checker.index, what: "text after") }
            return nil
        } catch {
            return "the JSON report does not parse: \(error.what) at byte \(error.index)"
        }
    }

    private struct Checker {
        struct Failure: Error {
            let index: Int
            let what: String
        }

        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        func fail(_ what: String) -> Failure { Failure(index: index, what: what) }

        mutating func space() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Failure) {
            guard peek == byte else { throw fail("expected \(Character(Unicode.Scalar(byte)))") }
            index += 1
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < 512 else { throw fail("nesting too deep") }
            space()
            switch peek {
            case UInt8(ascii: "{"):
                try list(closedBy: UInt8(ascii: "}")) { (checker) throws(Failure) in
                    checker.space()
                    try checker.string()
                    checker.space()
                    try checker.expect(UInt8(ascii: ":"))
                    try checker.value(depth: depth + 1)
                }
            case UInt8(ascii: "["):
                try list(closedBy: UInt8(ascii: "]")) { (checker) throws(Failure) in try checker.value(depth: depth + 1)
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try word("true")
            case UInt8(ascii: "f"): try word("false")
            case UInt8(ascii: "n"): try word("null")
            default: try number()
            }
        }

        /// An object's members or an array's items, from its opening byte: `item` for each, commas between, up to
        /// `close`.
        mutating func list(closedBy close: UInt8, _ item: (inout Checker) throws(Failure) -> Void) throws(Failure) {
            index += 1
            space()
            if peek == close {
                index += 1
                return
            }
            while true {
                try item(&self)
                space()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(close)
                return
            }
        }

        mutating func word(_ text: StaticString) throws(Failure) {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count,
                bytes[index..<index + count].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count))
            else { throw fail("expected \(text)") }
            index += count
        }

        /// A string: no control characters, known escapes, valid UTF-8.
        mutating func string() throws(Failure) {
            try expect(UInt8(ascii: "\""))
            let start = index
            while true {
                guard let byte = peek else { throw fail("unterminated string") }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard String(validating: bytes[start..<index - 1], as: UTF8.self) != nil else {
                        throw Failure(index: start, what: "invalid UTF-8 in a string")
                    }
                    return
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { throw fail("unterminated escape") }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let hex = peek, Self.isHex(hex) else { throw fail("bad \\u escape") }
                            index += 1
                        }
                    default: throw fail("bad escape")
                    }
                case 0..<0x20: throw fail("control character in a string")
                default: break
                }
            }
        }

        static func isHex(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }

        mutating func digits() -> Int {
            let start = index
            while let byte = peek, (0x30...0x39).contains(byte) { index += 1 }
            return index - start
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() throws(Failure) {
            if peek == UInt8(ascii: "-") { index += 1 }
            if peek == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw fail("expected a value") }
            }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw fail("expected a digit after the point") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw fail("expected an exponent") }
            }
        }
    }
}
