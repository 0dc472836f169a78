/// Reads the lines of the two NSLog formats (``LogFormat/nslogModern``, ``LogFormat/nslogClassic``) byte by byte,
/// giving exactly the match their patterns give, without running PCRE2.
///
/// NSLog lines are most of a typical capture, and the patterns stay the definition: ``RecordParser`` takes this
/// path only for formats whose pattern is one of these two, unchanged, and only where the result cannot differ
/// from trying the formats in catalogue order (tests compare both on samples, the real corpus, generated captures
/// and mutated lines). The two shapes cannot both match a line: modern has 4–9 fraction digits, classic 1–3.
enum NSLogHeader {
    enum Shape: Sendable { case modern, classic }

    /// Where the groups of a matching line are (offsets into the line).
    struct Match {
        var shape: Shape
        var timestamp: Range<Int>
        var process: Range<Int>
        var pid: Range<Int>
        var thread: Range<Int>
        var message: Range<Int>
    }

    /// The shape whose pattern `pattern` is, when it is one of the two built-in NSLog patterns.
    static func shape(ofPattern pattern: String) -> Shape? {
        if pattern == LogFormat.nslogModern.pattern { return .modern }
        if pattern == LogFormat.nslogClassic.pattern { return .classic }
        return nil
    }

    private static let zero = UInt8(ascii: "0")
    private static let space = UInt8(ascii: " ")
    private static let open = UInt8(ascii: "[")
    private static let close = UInt8(ascii: "]")

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// PCRE2's `\s` without Unicode properties: space, tab, LF, VT, FF, CR.
    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == space || byte &- 9 < 5 }

    @inline(__always)
    private static func isLowerHex(_ byte: UInt8) -> Bool { isDigit(byte) || byte &- UInt8(ascii: "a") < 6 }

    /// The match of whichever NSLog pattern matches `line`, or nil when neither does.
    static func match(_ line: UnsafeRawBufferPointer) -> Match? {
        let count = line.count
        // Shortest possible: 19 (date and time) + ".0 " + "p[1:1]".
        guard count >= 28, let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        // `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.`
        guard isDigit(base[0]), isDigit(base[1]), isDigit(base[2]), isDigit(base[3]), isDigit(base[5]),
            isDigit(base[6]), isDigit(base[8]), isDigit(base[9]), isDigit(base[11]), isDigit(base[12]),
            isDigit(base[14]), isDigit(base[15]), isDigit(base[17]), isDigit(base[18]),
            base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"), base[10] == space,
            base[13] == UInt8(ascii: ":"), base[16] == UInt8(ascii: ":"), base[19] == UInt8(ascii: ".")
        else { return nil }
        var index = 20
        while index < count, isDigit(base[index]) { index += 1 }
        let fraction = index - 20
        let shape: Shape
        switch fraction {
        case 1...3:
            shape = .classic
        case 4...9:
            shape = .modern
            // `(?:[+-]\d\d:?\d\d|Z)?`
            if index < count, base[index] == UInt8(ascii: "Z") {
                index += 1
            } else if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                index += 1
                guard index + 1 < count, isDigit(base[index]), isDigit(base[index + 1]) else { return nil }
                index += 2
                if index < count, base[index] == UInt8(ascii: ":") { index += 1 }
                guard index + 1 < count, isDigit(base[index]), isDigit(base[index + 1]) else { return nil }
                index += 2
            }
        default:
            return nil
        }
        let timestamp = 0..<index
        guard index < count, base[index] == space else { return nil }
        let processStart = index + 1
        guard processStart < count else { return nil }
        if shape == .modern {
            // `(?!0x[0-9a-f]+ )`
            if processStart + 2 < count, base[processStart] == zero, base[processStart + 1] == UInt8(ascii: "x") {
                var hex = processStart + 2
                while hex < count, isLowerHex(base[hex]) { hex += 1 }
                if hex > processStart + 2, hex < count, base[hex] == space { return nil }
            }
        } else if processStart + 3 < count, base[processStart + 2] == space, !isSpace(base[processStart + 3]),
            isCompactType(base[processStart], base[processStart + 1])
        {
            // `(?!(?:Df|Db|E |I |A |F |Er|Fa|Ft) \S)`
            return nil
        }
        // `[^\[\]\s][^\[\]]*?\[`: the process runs to the first bracket, which must open.
        let first = base[processStart]
        guard first != open, first != close, !isSpace(first) else { return nil }
        index = processStart + 1
        while index < count, base[index] != open, base[index] != close { index += 1 }
        guard index < count, base[index] == open else { return nil }
        let process = processStart..<index
        // `(?<pid>\d+):`
        index += 1
        let pidStart = index
        while index < count, isDigit(base[index]) { index += 1 }
        guard index > pidStart, index < count, base[index] == UInt8(ascii: ":") else { return nil }
        let pid = pidStart..<index
        // `(?<thread>\d+)\]` (modern) or `(?<thread>[0-9A-Fa-fx]+)\]` (classic)
        index += 1
        let threadStart = index
        if shape == .modern {
            while index < count, isDigit(base[index]) { index += 1 }
        } else {
            while index < count, isThreadByte(base[index]) { index += 1 }
        }
        guard index > threadStart, index < count, base[index] == close else { return nil }
        let thread = threadStart..<index
        // ` ?(?<message>.*)$`
        index += 1
        if index < count, base[index] == space { index += 1 }
        return Match(
            shape: shape, timestamp: timestamp, process: process, pid: pid, thread: thread, message: index..<count)
    }

    /// `Df|Db|E |I |A |F |Er|Fa|Ft`, the type codes of `log --style compact`.
    @inline(__always)
    private static func isCompactType(_ a: UInt8, _ b: UInt8) -> Bool {
        switch (a, b) {
        case (UInt8(ascii: "D"), UInt8(ascii: "f")), (UInt8(ascii: "D"), UInt8(ascii: "b")),
            (UInt8(ascii: "E"), space), (UInt8(ascii: "I"), space), (UInt8(ascii: "A"), space),
            (UInt8(ascii: "F"), space), (UInt8(ascii: "E"), UInt8(ascii: "r")), (UInt8(ascii: "F"), UInt8(ascii: "a")),
            (UInt8(ascii: "F"), UInt8(ascii: "t")):
            return true
        default:
            return false
        }
    }

    /// `[0-9A-Fa-fx]`
    @inline(__always)
    private static func isThreadByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6 || byte == UInt8(ascii: "x")
    }
}
