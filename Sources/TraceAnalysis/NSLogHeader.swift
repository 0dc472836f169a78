import NativeKit

/// Reads the lines of the two NSLog formats (``LogFormat/nslogModern``, ``LogFormat/nslogClassic``) byte by byte,
/// giving exactly the match their patterns give, without running PCRE2.
///
/// NSLog lines are most of a typical capture, and the patterns stay the definition: ``RecordParser`` takes this
/// path only for formats whose pattern is one of these two, unchanged, and only where the result cannot differ
/// from trying the formats in catalogue order (tests compare both on samples, the real corpus, generated captures
/// and mutated lines). The two shapes cannot both match a line: modern has 4–9 fraction digits, classic 1–3.
///
/// `csimd_header_run` (``HeaderRun``) checks the same things again, in C, for a line that repeats a record's date
/// and minute (at its second or a later one), fraction length, zone and header tail (``Tail``): the seconds, the
/// fraction, the thread and its bracket. A change here is a change there; `HeaderRunTests` compares the reports
/// made with and without it.
enum NSLogHeader {
    enum Shape: Sendable { case modern, classic }

    /// Where the groups of a matching line are (offsets into the line), held in ``ByteSpan``s: one is made for
    /// every line.
    struct Match {
        var shape: Shape
        private var spans: (timestamp: ByteSpan, process: ByteSpan, pid: ByteSpan, thread: ByteSpan, message: ByteSpan)

        init(
            shape: Shape, timestamp: Range<Int>, process: Range<Int>, pid: Range<Int>, thread: Range<Int>,
            message: Range<Int>
        ) {
            self.shape = shape
            spans = (ByteSpan(timestamp), ByteSpan(process), ByteSpan(pid), ByteSpan(thread), ByteSpan(message))
        }

        var timestamp: Range<Int> { spans.timestamp.whole }
        var process: Range<Int> { spans.process.whole }
        var pid: Range<Int> { spans.pid.whole }
        var thread: Range<Int> { spans.thread.whole }
        var message: Range<Int> { spans.message.whole }
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
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// PCRE2's `\s` without Unicode properties: space, tab, LF, VT, FF, CR.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == space || byte &- 9 < 5 }

    @inline(__always)
    static func isLowerHex(_ byte: UInt8) -> Bool { isDigit(byte) || byte &- UInt8(ascii: "a") < 6 }

    /// The bytes of a header from the end of its timestamp to the colon after the pid (` name[pid:`), kept from
    /// one record to the next: a line of the same process and pid repeats them byte for byte, and then everything
    /// the patterns check in them (the process name's first bytes, its bracket, the pid's digits) is known, and
    /// the name and pid are the last record's. Kept when 8 to ``HeaderRun/tailLimit`` bytes long, as the runs
    /// keep it (``HeaderRun/Tail``).
    struct Tail {
        var shape: Shape
        var bytes: HeaderRun.Tail
        /// Lengths of the process name and of the pid within the tail.
        var processCount: Int
        var pidCount: Int

        var count: Int { bytes.count }

        /// The tail of `line` read as `match`, when it fits.
        init?(_ match: Match, in line: UnsafeRawBufferPointer) {
            let start = match.timestamp.upperBound
            guard let base = line.baseAddress,
                let bytes = HeaderRun.Tail(base + start, count: match.pid.upperBound &+ 1 &- start)
            else { return nil }
            self.bytes = bytes
            shape = match.shape
            processCount = match.process.count
            pidCount = match.pid.count
        }

        /// Whether the ``count`` bytes at `base + start` are this tail's (the caller checked they are in the line).
        @inline(__always)
        func isAt(_ base: UnsafeRawPointer, _ start: Int) -> Bool { bytes.isAt(base, start) }
    }

    /// The first 20 bytes of the last line whose date and time ``dateAndTime(_:)`` accepted, as its three
    /// little-endian words: the lines of one second repeat them, and then the check is three comparisons.
    struct DateTime {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var isSet = false
    }

    /// The match of whichever NSLog pattern matches `line`, or nil when neither does.
    static func match(_ line: UnsafeRawBufferPointer) -> Match? {
        var dates = DateTime()
        return match(line, tails: [], first: -1, dates: &dates).match
    }

    /// ``match(_:)``, and which of `tails` the line repeats, -1 for none (then the match's process and pid are
    /// that tail's): `tails[first]` is tried first, then the others in order. `dates`: the last date and time
    /// accepted, kept from line to line.
    @inline(__always)
    static func match(_ line: UnsafeRawBufferPointer, tails: [Tail?], first: Int, dates: inout DateTime) -> (
        match: Match?, repeated: Int
    ) {
        let count = line.count
        // Shortest possible: 19 (date and time) + ".0 " + "p[1:1]".
        guard count >= 28, let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (nil, -1) }
        // `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.`, eight bytes at a time, unless they are the last ones accepted.
        let raw = UnsafeRawPointer(base)
        let words = (
            UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
        )
        if !dates.isSet || words != dates.words {
            guard dateAndTime(words) else { return (nil, -1) }
            dates = DateTime(words: words, isSet: true)
        }
        guard let (shape, end) = timestampEnd(base, count) else { return (nil, -1) }
        @inline(__always) func repeats(_ tail: Tail?) -> Match? {
            guard let tail, tail.shape == shape, end &+ tail.count <= count, tail.isAt(UnsafeRawPointer(base), end)
            else { return nil }
            let process = (end &+ 1)..<(end &+ 1 &+ tail.processCount)
            let pid = (process.upperBound &+ 1)..<(process.upperBound &+ 1 &+ tail.pidCount)
            return rest(base, count, shape: shape, timestamp: 0..<end, process: process, pid: pid)
        }
        if first >= 0, first < tails.count, let match = repeats(tails[first]) { return (match, first) }
        for index in tails.indices where index != first {
            if let match = repeats(tails[index]) { return (match, index) }
        }
        return (header(base, count, shape: shape, timestampEnd: end), -1)
    }

    /// Where the timestamp that ``dateAndTime(_:)`` began ends (its fraction and, for the modern shape, its zone),
    /// and the shape its fraction gives.
    @inline(__always)
    private static func timestampEnd(_ base: UnsafePointer<UInt8>, _ count: Int) -> (Shape, Int)? {
        var index = digitRun(base, from: 20, count)
        let fraction = index &- 20
        let shape: Shape
        switch fraction {
        case 1...3:
            shape = .classic
        case 4...9:
            shape = .modern
            // `(?:[+-]\d\d:?\d\d|Z)?`
            if index < count, base[index] == UInt8(ascii: "Z") {
                index &+= 1
            } else if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                index &+= 1
                guard index &+ 1 < count, isDigit(base[index]), isDigit(base[index &+ 1]) else { return nil }
                index &+= 2
                if index < count, base[index] == UInt8(ascii: ":") { index &+= 1 }
                guard index &+ 1 < count, isDigit(base[index]), isDigit(base[index &+ 1]) else { return nil }
                index &+= 2
            }
        default:
            return nil
        }
        return (shape, index)
    }

    /// The rest of the header after a timestamp ending at `timestampEnd`.
    @inline(__always)
    private static func header(_ base: UnsafePointer<UInt8>, _ count: Int, shape: Shape, timestampEnd: Int) -> Match? {
        var index = timestampEnd
        let timestamp = 0..<index
        guard index < count, base[index] == space else { return nil }
        let processStart = index &+ 1
        guard processStart < count else { return nil }
        if shape == .modern {
            // `(?!0x[0-9a-f]+ )`
            if processStart &+ 2 < count, base[processStart] == zero, base[processStart &+ 1] == UInt8(ascii: "x") {
                var hex = processStart &+ 2
                while hex < count, isLowerHex(base[hex]) { hex &+= 1 }
                if hex > processStart &+ 2, hex < count, base[hex] == space { return nil }
            }
        } else if processStart &+ 3 < count, base[processStart &+ 2] == space, !isSpace(base[processStart &+ 3]),
            isCompactType(base[processStart], base[processStart &+ 1])
        {
            // `(?!(?:Df|Db|E |I |A |F |Er|Fa|Ft) \S)`
            return nil
        }
        // `[^\[\]\s][^\[\]]*?\[`: the process runs to the first bracket, which must open.
        let first = base[processStart]
        guard first != open, first != close, !isSpace(first) else { return nil }
        index = bracket(base, from: processStart &+ 1, count)
        guard index < count, base[index] == open else { return nil }
        let process = processStart..<index
        // `(?<pid>\d+):`
        index &+= 1
        let pidStart = index
        index = digitRun(base, from: index, count)
        guard index > pidStart, index < count, base[index] == UInt8(ascii: ":") else { return nil }
        let pid = pidStart..<index
        return rest(base, count, shape: shape, timestamp: timestamp, process: process, pid: pid)
    }

    /// The thread and message after the colon that ends `pid`.
    @inline(__always)
    private static func rest(
        _ base: UnsafePointer<UInt8>, _ count: Int, shape: Shape, timestamp: Range<Int>, process: Range<Int>,
        pid: Range<Int>
    ) -> Match? {
        // `(?<thread>\d+)\]` (modern) or `(?<thread>[0-9A-Fa-fx]+)\]` (classic)
        var index = pid.upperBound &+ 1
        let threadStart = index
        if shape == .modern {
            index = digitRun(base, from: index, count)
        } else {
            while index < count, isThreadByte(base[index]) { index &+= 1 }
        }
        guard index > threadStart, index < count, base[index] == close else { return nil }
        let thread = threadStart..<index
        // ` ?(?<message>.*)$`
        index &+= 1
        if index < count, base[index] == space { index &+= 1 }
        return Match(
            shape: shape, timestamp: timestamp, process: process, pid: pid, thread: thread, message: index..<count)
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0

    /// Per byte of `word`, bits of its high nibble set where the byte is no ASCII digit: XORed with 0x30 it has a
    /// high nibble, or adding 6 gives it one. Only the lowest such byte is sure (a carry from a non-digit can mark
    /// the bytes above it), which is all a scan for the end of a run needs, and a word whose every byte passes had
    /// no carry (digits and separators stay below 0xFA).
    @inline(__always)
    static func nonDigits(_ word: UInt64) -> UInt64 {
        let offset = word ^ 0x3030_3030_3030_3030
        return (offset & highNibbles) | ((offset &+ 0x0606_0606_0606_0606) & highNibbles)
    }

    /// The high bit of each byte of `word` that is zero; again only the lowest is sure.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }

    /// Where the run of digits starting at `index` ends (eight bytes at a time while eight are left).
    @inline(__always)
    static func digitRun(_ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
        run(base, from: start, count, stops: nonDigits, isDigit)
    }

    /// The end of the run of bytes from `start` that are `member`s: eight bytes at a time while eight are left,
    /// `stops` marking (with any bit of each byte) the bytes that are not; only its lowest mark need be sure.
    @inline(__always)
    static func run(
        _ base: UnsafePointer<UInt8>, from start: Int, _ count: Int, stops: (UInt64) -> UInt64,
        _ member: (UInt8) -> Bool
    ) -> Int {
        var index = start
        while index &+ 8 <= count {
            let marks = stops(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            if marks != 0 { return index &+ marks.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < count, member(base[index]) { index &+= 1 }
        return index
    }

    /// The first `[` or `]` at or after `start`, or `count`.
    @inline(__always)
    private static func bracket(_ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
        firstOf(open, close, base, from: start, count)
    }

    /// The first `a` or `b` at or after `start`, or `count` (eight bytes at a time while eight are left).
    @inline(__always)
    static func firstOf(_ a: UInt8, _ b: UInt8, _ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
        var index = start
        let (wordA, wordB) = (ones &* UInt64(a), ones &* UInt64(b))
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let marks = zeroBytes(word ^ wordA) | zeroBytes(word ^ wordB)
            if marks != 0 { return index &+ marks.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < count, base[index] != a, base[index] != b { index &+= 1 }
        return index
    }

    /// Whether the 20 bytes whose three overlapping little-endian words (bytes 0–7, 8–15, 12–19) are `words` are
    /// `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.`: each word checked at once for digits where digits belong and for the
    /// separators elsewhere (``nonDigits(_:)``).
    @inline(__always)
    static func dateAndTime(_ words: (UInt64, UInt64, UInt64)) -> Bool {
        @inline(__always)
        func fits(_ word: UInt64, digits: UInt64, separators: UInt64) -> Bool {
            nonDigits(word) & digits == 0 && word & ~digits == separators
        }
        // Byte masks (first byte lowest) and the separators where the mask is clear.
        return fits(words.0, digits: 0x00FF_FF00_FFFF_FFFF, separators: 0x2D00_002D_0000_0000)
            && fits(words.1, digits: 0xFFFF_00FF_FF00_FFFF, separators: 0x0000_3A00_0020_0000)
            && fits(words.2, digits: 0x00FF_FF00_FFFF_00FF, separators: 0x2E00_003A_0000_3A00)
    }

    /// `Df|Db|E |I |A |F |Er|Fa|Ft`, the type codes of `log --style compact`.
    @inline(__always)
    static func isCompactType(_ a: UInt8, _ b: UInt8) -> Bool {
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
