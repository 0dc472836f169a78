import NativeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the lines of the `log` tool's three text styles (``LogFormat/logCompact``, ``LogFormat/logDefault``,
/// ``LogFormat/logSyslog``), of its JSON lines (``LogFormat/logNDJSON``), of a device's syslog
/// (``LogFormat/deviceSyslog``) and of BSD syslog (``LogFormat/syslog``) byte by byte, giving exactly the match
/// their patterns give, without running PCRE2.
///
/// Captures from a Mac or a simulator (`log show`, `log stream`, `xcrun simctl spawn booted log stream`), from a
/// device (`idevicesyslog`, Xcode's device console) and an older Mac's `/var/log/system.log` are read through these
/// formats, a line at a time. As with ``NSLogHeader``, the patterns stay the definition: ``RecordParser`` takes this
/// path only for a format whose pattern is one of these six, unchanged, and only when PCRE2 reads newlines as LF
/// (`.` then matches every byte of a line). Every part of the patterns is read the way PCRE2's backtracking reads
/// it; where a part can match in more than one way (the default style's TTL column, the device name before a
/// process, an ndjson key found more than once, BSD syslog's lazy process) the order PCRE2 tries them in is
/// followed. `LogStyleHeaderTests` compares both on the samples, the real corpus, generated captures of each style,
/// made ndjson lines, and mutated lines.
enum LogStyleHeader {
    enum Style: Sendable {
        case compact, `default`, syslog, deviceSyslog, ndjson, bsdSyslog

        /// The style whose lines a header run reads after a record of this one (none for ndjson: its lines repeat no
        /// header).
        var runStyle: HeaderRun.Style? {
            switch self {
            case .compact: .compact
            case .default: .default
            case .syslog: .syslog
            case .deviceSyslog: .deviceSyslog
            case .bsdSyslog: .bsdSyslog
            case .ndjson: nil
            }
        }
    }

    /// Where the groups of a matching line are (offsets into the line); nil for an optional group that did not
    /// take part. Held in ``ByteSpan``s, as ``NSLogHeader/Match`` is: one is made for every line.
    struct Match: Equatable {
        private var spans:
            (
                timestamp: ByteSpan, level: ByteSpan, process: ByteSpan, pid: ByteSpan, thread: ByteSpan,
                subsystem: ByteSpan, category: ByteSpan, message: ByteSpan, sequence: ByteSpan
            )

        @inline(__always)
        init(
            timestamp: Range<Int>, level: Range<Int>?, process: Range<Int>?, pid: Range<Int>?, thread: Range<Int>?,
            subsystem: Range<Int>?, category: Range<Int>?, message: Range<Int>, sequence: Range<Int>? = nil
        ) {
            spans = (
                ByteSpan(timestamp), ByteSpan(level), ByteSpan(process), ByteSpan(pid), ByteSpan(thread),
                ByteSpan(subsystem), ByteSpan(category), ByteSpan(message), ByteSpan(sequence)
            )
        }

        var timestamp: Range<Int> { spans.timestamp.whole }
        var level: Range<Int>? { spans.level.range }
        /// Always there but in `log-ndjson`, whose process and pid are optional.
        var process: Range<Int>? { spans.process.range }
        var pid: Range<Int>? { spans.pid.range }
        /// `log-ndjson`'s `machTimestamp` (the order of records whose timestamps tie).
        var sequence: Range<Int>? { spans.sequence.range }
        var thread: Range<Int>? { spans.thread.range }
        var subsystem: Range<Int>? { spans.subsystem.range }
        var category: Range<Int>? { spans.category.range }
        var message: Range<Int> { spans.message.whole }

        /// Sets the groups ``LogStyleHeader/rest(_:_:_:)`` reads.
        @inline(__always)
        mutating func setRest(subsystem: Range<Int>?, category: Range<Int>?, message: Range<Int>) {
            spans.subsystem = ByteSpan(subsystem)
            spans.category = ByteSpan(category)
            spans.message = ByteSpan(message)
        }

        static func == (a: Match, b: Match) -> Bool {
            a.timestamp == b.timestamp && a.level == b.level && a.process == b.process && a.pid == b.pid
                && a.thread == b.thread && a.subsystem == b.subsystem && a.category == b.category
                && a.message == b.message && a.sequence == b.sequence
        }
    }

    /// The style whose pattern `pattern` is, when it is one of the six built-in patterns this reads and PCRE2's
    /// newline is LF.
    static func style(ofPattern pattern: String) -> Style? {
        guard Regex.newlineIsLF else { return nil }
        switch pattern {
        case LogFormat.logCompact.pattern: return .compact
        case LogFormat.logDefault.pattern: return .default
        case LogFormat.logSyslog.pattern: return .syslog
        case LogFormat.deviceSyslog.pattern: return .deviceSyslog
        case LogFormat.logNDJSON.pattern: return .ndjson
        case LogFormat.syslog.pattern: return .bsdSyslog
        default: return nil
        }
    }

    /// The match of the `style` pattern on `line`, or nil when it does not match.
    @inline(__always)
    static func match(_ line: UnsafeRawBufferPointer, _ style: Style) -> Match? {
        guard let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        switch style {
        case .compact: return compact(base, line.count)
        case .default: return standard(base, line.count)
        case .syslog: return syslog(base, line.count)
        case .deviceSyslog: return deviceSyslog(base, line.count)
        case .ndjson: return ndjson(base, line.count)
        case .bsdSyslog: return bsdSyslog(base, line.count)
        }
    }

    private static let space = UInt8(ascii: " ")
    private static let colon = UInt8(ascii: ":")
    private static let open = UInt8(ascii: "[")
    private static let close = UInt8(ascii: "]")

    /// `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.` in the line's first 20 bytes (the caller checked it has 20 or more).
    @inline(__always)
    private static func dateAndTime(_ base: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(base)
        return NSLogHeader.dateAndTime(
            (
                UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            ))
    }

    /// `^(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (?<level>Df|Db|E |I |A |F |Er|Fa|Ft) `
    /// `(?<process>[^\[\]]+?)\[(?<pid>\d+):(?<thread>[0-9a-f]+)\] ?` and ``rest(_:_:_:)``.
    @inline(__always)
    private static func compact(_ base: UnsafePointer<UInt8>, _ count: Int) -> Match? {
        // Shortest possible: 23 (timestamp) + " Df " + "p[1:1]".
        guard count >= 33, dateAndTime(base), NSLogHeader.isDigit(base[20]), NSLogHeader.isDigit(base[21]),
            NSLogHeader.isDigit(base[22]), base[23] == space, NSLogHeader.isCompactType(base[24], base[25]),
            base[26] == space
        else { return nil }
        // The process runs to the first bracket, which must open (it holds neither).
        let bracket = NSLogHeader.firstOf(open, close, base, from: 27, count)
        guard bracket > 27, bracket < count, base[bracket] == open else { return nil }
        let pidEnd = NSLogHeader.digitRun(base, from: bracket &+ 1, count)
        guard pidEnd > bracket &+ 1, pidEnd < count, base[pidEnd] == colon else { return nil }
        var index = NSLogHeader.run(base, from: pidEnd &+ 1, count, stops: nonLowerHex, NSLogHeader.isLowerHex)
        guard index > pidEnd &+ 1, index < count, base[index] == close else { return nil }
        let thread = (pidEnd &+ 1)..<index
        index &+= 1
        if index < count, base[index] == space { index &+= 1 }
        return rest(
            base, count,
            Match(
                timestamp: 0..<23, level: 24..<26, process: 27..<bracket, pid: (bracket &+ 1)..<pidEnd, thread: thread,
                subsystem: nil, category: nil, message: index..<count))
    }

    /// `^(?<timestamp>…) +(?<thread>0x[0-9a-f]+) +(?<level>[A-Z][a-z]+) +0x[0-9a-f]+ +(?<pid>\d+) +(?:\d+ +)?`
    /// `(?<process>[^:]+?): ` and ``rest(_:_:_:)``.
    @inline(__always)
    private static func standard(_ base: UnsafePointer<UInt8>, _ count: Int) -> Match? {
        guard let timestampEnd = logTimestampEnd(base, count) else { return nil }
        var index = spaces(base, from: timestampEnd, count)
        guard let threadEnd = hexNumber(base, from: index, count) else { return nil }
        let thread = index..<threadEnd
        index = spaces(base, from: threadEnd, count)
        // `[A-Z][a-z]+ +`
        guard index < count, base[index] &- UInt8(ascii: "A") < 26 else { return nil }
        let levelEnd = NSLogHeader.run(base, from: index &+ 1, count, stops: nonLowercase) {
            $0 &- UInt8(ascii: "a") < 26
        }
        guard levelEnd > index &+ 1, levelEnd < count, base[levelEnd] == space else { return nil }
        let level = index..<levelEnd
        index = spaces(base, from: levelEnd, count)
        guard let activityEnd = hexNumber(base, from: index, count) else { return nil }
        index = spaces(base, from: activityEnd, count)
        let pidEnd = NSLogHeader.digitRun(base, from: index, count)
        guard pidEnd > index, pidEnd < count, base[pidEnd] == space else { return nil }
        let pid = index..<pidEnd
        let afterPid = spaces(base, from: pidEnd, count)
        // `(?:\d+ +)?(?<process>[^:]+?): `: the process can hold no colon, so it ends at the first one, which a
        // space must follow, whichever way the spaces and the TTL column are read. The column is taken when it is
        // there; if the colon comes right after its spaces, PCRE2 backtracks: to one space fewer when there were
        // two or more (the process is the last space), else past the column (the process is the column and its
        // space). With no column and the colon right after the pid's spaces, it gives the pid's spaces one back
        // when there were two or more (the process is again the last space).
        let colonAt = firstColon(base, from: afterPid, count)
        guard colonAt &+ 1 < count, base[colonAt &+ 1] == space else { return nil }
        var processStart = afterPid
        if afterPid < count, NSLogHeader.isDigit(base[afterPid]) {
            let ttlEnd = NSLogHeader.digitRun(base, from: afterPid, count)
            if ttlEnd < count, base[ttlEnd] == space {
                let columnEnd = spaces(base, from: ttlEnd, count)
                if columnEnd < colonAt {
                    processStart = columnEnd
                } else if columnEnd &- ttlEnd >= 2 {
                    processStart = columnEnd &- 1
                }
            }
        }
        if processStart == colonAt, afterPid &- pidEnd >= 2 { processStart = afterPid &- 1 }
        guard processStart < colonAt else { return nil }
        return rest(
            base, count,
            Match(
                timestamp: 0..<timestampEnd, level: level, process: processStart..<colonAt, pid: pid, thread: thread,
                subsystem: nil, category: nil, message: (colonAt &+ 2)..<count))
    }

    /// `^(?<timestamp>…)  ?\S+ (?<process>[^\[\]]+?)\[(?<pid>\d+)\]: ` and ``rest(_:_:_:)``.
    @inline(__always)
    private static func syslog(_ base: UnsafePointer<UInt8>, _ count: Int) -> Match? {
        guard let timestampEnd = logTimestampEnd(base, count) else { return nil }
        // `  ?\S+ `: a second space is taken when there is one; `\S+` then ends at the first whitespace, which
        // must be a space (a shorter run would leave a non-space before it).
        var hostStart = timestampEnd &+ 1
        if hostStart < count, base[hostStart] == space { hostStart &+= 1 }
        let hostEnd = nonSpaces(base, from: hostStart, count)
        guard hostEnd > hostStart, hostEnd < count, base[hostEnd] == space else { return nil }
        let processStart = hostEnd &+ 1
        let bracket = NSLogHeader.firstOf(open, close, base, from: processStart, count)
        guard bracket > processStart, bracket < count, base[bracket] == open else { return nil }
        let pidEnd = NSLogHeader.digitRun(base, from: bracket &+ 1, count)
        guard pidEnd > bracket &+ 1, pidEnd &+ 2 < count, base[pidEnd] == close, base[pidEnd &+ 1] == colon,
            base[pidEnd &+ 2] == space
        else { return nil }
        return rest(
            base, count,
            Match(
                timestamp: 0..<timestampEnd, level: nil, process: processStart..<bracket, pid: (bracket &+ 1)..<pidEnd,
                thread: nil, subsystem: nil, category: nil, message: (pidEnd &+ 3)..<count))
    }

    /// `^(?<timestamp>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?) (?:\S* )?` and
    /// ``deviceProcess(_:_:from:timestamp:)``: the device name is taken when it is there, and when what follows it
    /// does not match, PCRE2 reads the line again without it (the process then starts where the name did).
    @inline(__always)
    private static func deviceSyslog(_ base: UnsafePointer<UInt8>, _ count: Int) -> Match? {
        // Shortest possible: 15 (timestamp) + " p[1] <A>:".
        guard count >= 25, let timestampEnd = syslogTimestampEnd(base, count) else { return nil }
        let nameStart = timestampEnd &+ 1
        let nameEnd = nonSpaces(base, from: nameStart, count)
        if nameEnd < count, base[nameEnd] == space,
            let match = deviceProcess(base, count, from: nameEnd &+ 1, timestamp: 0..<timestampEnd)
        {
            return match
        }
        return deviceProcess(base, count, from: nameStart, timestamp: 0..<timestampEnd)
    }

    /// The end of `[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?` (a syslog timestamp, no year), when a space
    /// follows it, or nil. The caller checked the line has 17 bytes or more.
    @inline(__always)
    private static func syslogTimestampEnd(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard base[0] &- UInt8(ascii: "A") < 26, base[1] &- UInt8(ascii: "a") < 26, base[2] &- UInt8(ascii: "a") < 26,
            base[3] == space, base[4] == space || NSLogHeader.isDigit(base[4]), NSLogHeader.isDigit(base[5]),
            base[6] == space, NSLogHeader.isDigit(base[7]), NSLogHeader.isDigit(base[8]), base[9] == colon,
            NSLogHeader.isDigit(base[10]), NSLogHeader.isDigit(base[11]), base[12] == colon,
            NSLogHeader.isDigit(base[13]), NSLogHeader.isDigit(base[14])
        else { return nil }
        var timestampEnd = 15
        if base[15] == UInt8(ascii: "."), NSLogHeader.isDigit(base[16]) {
            timestampEnd = NSLogHeader.digitRun(base, from: 16, count)
        }
        guard timestampEnd < count, base[timestampEnd] == space else { return nil }
        return timestampEnd
    }

    /// BSD syslog: `^(?<timestamp>…) \S+ (?<process>[^\[\]\s<][^\[\]]*?)(?:\[(?<pid>\d+)\])?(?: \([^()]*\))?: `
    /// `(?<message>.*)$`. The host runs to the first whitespace, which must be a space. The process is lazy: it ends
    /// at the first place where the rest matches, and since it holds no bracket, that place is at most its first
    /// bracket. There, the rest can only match with the pid's brackets (a `[` is neither ` (` nor `:`); before it,
    /// only without them, at a ` (` whose parenthesis closes before `: `, or at a `: `.
    @inline(__always)
    private static func bsdSyslog(_ base: UnsafePointer<UInt8>, _ count: Int) -> Match? {
        // Shortest possible: 15 (timestamp) + " h p: ".
        guard count >= 21, let timestampEnd = syslogTimestampEnd(base, count) else { return nil }
        let hostStart = timestampEnd &+ 1
        let hostEnd = nonSpaces(base, from: hostStart, count)
        guard hostEnd > hostStart, hostEnd < count, base[hostEnd] == space else { return nil }
        let start = hostEnd &+ 1
        guard start < count else { return nil }
        let first = base[start]
        guard first != open, first != close, first != UInt8(ascii: "<"), !NSLogHeader.isSpace(first) else {
            return nil
        }
        let bracket = NSLogHeader.firstOf(open, close, base, from: start &+ 1, count)
        var end = start &+ 1
        while end < bracket {
            if base[end] == space || base[end] == colon, let messageStart = senderAndColon(base, at: end, count) {
                return Match(
                    timestamp: 0..<timestampEnd, level: nil, process: start..<end, pid: nil, thread: nil,
                    subsystem: nil, category: nil, message: messageStart..<count)
            }
            end &+= 1
        }
        guard bracket < count, base[bracket] == open else { return nil }
        let pidEnd = NSLogHeader.digitRun(base, from: bracket &+ 1, count)
        guard pidEnd > bracket &+ 1, pidEnd < count, base[pidEnd] == close,
            let messageStart = senderAndColon(base, at: pidEnd &+ 1, count)
        else { return nil }
        return Match(
            timestamp: 0..<timestampEnd, level: nil, process: start..<bracket, pid: (bracket &+ 1)..<pidEnd,
            thread: nil, subsystem: nil, category: nil, message: messageStart..<count)
    }

    /// `(?: \([^()]*\))?: ` at `index`: where the message starts after it, or nil.
    @inline(__always)
    private static func senderAndColon(_ base: UnsafePointer<UInt8>, at index: Int, _ count: Int) -> Int? {
        guard let colonAt = optionalGroupEnd(base, at: index, count), colonAt &+ 1 < count, base[colonAt] == colon,
            base[colonAt &+ 1] == space
        else { return nil }
        return colonAt &+ 2
    }

    /// `(?: \([^()]*\))?` at `index` (after a pid's `]`): the index after the group when one opens there, `index`
    /// when none does, or nil when one opens and does not close. A group that matches is taken: what follows it in
    /// these patterns (`: `, ` <`) cannot match at its space without it.
    @inline(__always)
    private static func optionalGroupEnd(_ base: UnsafePointer<UInt8>, at index: Int, _ count: Int) -> Int? {
        guard index &+ 1 < count, base[index] == space, base[index &+ 1] == UInt8(ascii: "(") else { return index }
        return closingParenthesis(base, after: index &+ 1, count).map { $0 &+ 1 }
    }

    /// `(?<process>[^\[\]()\s][^\[\]()]*?)(?:\([^()]*\))?\[(?<pid>\d+)\](?: \([^()]*\))? <(?<level>[A-Za-z]+)>: ?`
    /// from `start`, the message after it. The process can hold no bracket or parenthesis, so it ends at the first
    /// one; an optional group that matches is kept, since nothing after it matches without it.
    @inline(__always)
    private static func deviceProcess(
        _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int, timestamp: Range<Int>
    ) -> Match? {
        guard start < count else { return nil }
        let first = base[start]
        guard first != open, first != close, first != UInt8(ascii: "("), first != UInt8(ascii: ")"),
            !NSLogHeader.isSpace(first)
        else { return nil }
        var end = NSLogHeader.firstOf(open, close, base, from: start &+ 1, count)
        let parenthesis = NSLogHeader.firstOf(UInt8(ascii: "("), UInt8(ascii: ")"), base, from: start &+ 1, end)
        var index = end
        if parenthesis < end {
            // `(?:\([^()]*\))?\[`: the group must match, and a bracket follow it.
            end = parenthesis
            guard base[parenthesis] == UInt8(ascii: "(") else { return nil }
            guard let closing = closingParenthesis(base, after: parenthesis, count) else { return nil }
            index = closing &+ 1
        }
        guard index < count, base[index] == open else { return nil }
        let pidEnd = NSLogHeader.digitRun(base, from: index &+ 1, count)
        guard pidEnd > index &+ 1, pidEnd < count, base[pidEnd] == close else { return nil }
        let pid = (index &+ 1)..<pidEnd
        // `(?: \([^()]*\))? <`
        guard let groupEnd = optionalGroupEnd(base, at: pidEnd &+ 1, count) else { return nil }
        index = groupEnd
        guard index &+ 1 < count, base[index] == space, base[index &+ 1] == UInt8(ascii: "<") else { return nil }
        // `(?<level>[A-Za-z]+)>: ?`
        let levelStart = index &+ 2
        let levelEnd = NSLogHeader.run(base, from: levelStart, count, stops: nonLetter) {
            ($0 | 0x20) &- UInt8(ascii: "a") < 26
        }
        guard levelEnd > levelStart, levelEnd &+ 1 < count, base[levelEnd] == UInt8(ascii: ">"),
            base[levelEnd &+ 1] == colon
        else { return nil }
        var messageStart = levelEnd &+ 2
        if messageStart < count, base[messageStart] == space { messageStart &+= 1 }
        return Match(
            timestamp: timestamp, level: levelStart..<levelEnd, process: start..<end, pid: pid, thread: nil,
            subsystem: nil, category: nil, message: messageStart..<count)
    }

    /// `(?:\([^()]*\) )?(?:\[(?<subsystem>[^:\]\s]+):(?<category>[^\]]*)\] )?(?<message>.*)$` from the start of
    /// `match.message`, and `match` with them: each optional group is taken where it matches (the message then
    /// matches whatever is left, so PCRE2 never backtracks into them), and the message is what follows.
    @inline(__always)
    private static func rest(_ base: UnsafePointer<UInt8>, _ count: Int, _ match: Match) -> Match {
        var match = match
        var index = match.message.lowerBound
        var subsystem: Range<Int>?
        var category: Range<Int>?
        if index < count, base[index] == UInt8(ascii: "(") {
            if let end = closingParenthesis(base, after: index, count), end &+ 1 < count, base[end &+ 1] == space {
                index = end &+ 2
            }
        }
        if index < count, base[index] == open {
            let subsystemEnd = NSLogHeader.run(base, from: index &+ 1, count, stops: subsystemEnds) {
                $0 != colon && $0 != close && !NSLogHeader.isSpace($0)
            }
            if subsystemEnd > index &+ 1, subsystemEnd < count, base[subsystemEnd] == colon {
                let end = NSLogHeader.firstOf(close, close, base, from: subsystemEnd &+ 1, count)
                if end &+ 1 < count, base[end &+ 1] == space {
                    subsystem = (index &+ 1)..<subsystemEnd
                    category = (subsystemEnd &+ 1)..<end
                    index = end &+ 2
                }
            }
        }
        match.setRest(subsystem: subsystem, category: category, message: index..<count)
        return match
    }

    /// The end of `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d\d:?\d\d` (the `log` tool's timestamp with its zone), when
    /// a space follows it, or nil.
    @inline(__always)
    private static func logTimestampEnd(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard count >= 26, dateAndTime(base), let end = zoneEnd(base, count), end < count, base[end] == space else {
            return nil
        }
        return end
    }

    /// The end of `\d+[+-]\d\d:?\d\d` from byte 20 (the fraction and the zone of a `log` timestamp), or nil.
    @inline(__always)
    private static func zoneEnd(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        var index = NSLogHeader.digitRun(base, from: 20, count)
        guard index > 20, index &+ 2 < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-"),
            NSLogHeader.isDigit(base[index &+ 1]), NSLogHeader.isDigit(base[index &+ 2])
        else { return nil }
        index &+= 3
        if index < count, base[index] == colon { index &+= 1 }
        guard index &+ 1 < count, NSLogHeader.isDigit(base[index]), NSLogHeader.isDigit(base[index &+ 1]) else {
            return nil
        }
        return index &+ 2
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Per byte of `word` below 0x80, its high bit set where the byte is `n` or more (exact for every byte: no
    /// sum reaches the next one); `low` is `word` without its high bits.
    @inline(__always)
    private static func atLeast(_ n: UInt8, _ low: UInt64) -> UInt64 { (low &+ ones &* UInt64(0x80 &- n)) & highBits }

    /// Per byte, the high bit where it is in `lower...upper` (ASCII), exactly.
    @inline(__always)
    private static func within(_ lower: UInt8, _ upper: UInt8, _ word: UInt64) -> UInt64 {
        let low = word & ~highBits
        return atLeast(lower, low) & ~atLeast(upper &+ 1, low) & ~word
    }

    /// The bytes of `word` that are not `[0-9a-f]`.
    @inline(__always)
    private static func nonLowerHex(_ word: UInt64) -> UInt64 {
        ~(within(0x30, 0x39, word) | within(0x61, 0x66, word)) & highBits
    }

    /// The bytes of `word` that are not `[A-Za-z]` (a letter ORed with 0x20 is lowercase, and no other byte
    /// becomes one).
    @inline(__always)
    private static func nonLetter(_ word: UInt64) -> UInt64 {
        ~within(0x61, 0x7A, word | 0x2020_2020_2020_2020) & highBits
    }

    /// The bytes of `word` that are not `[a-z]`.
    @inline(__always)
    private static func nonLowercase(_ word: UInt64) -> UInt64 { ~within(0x61, 0x7A, word) & highBits }

    /// The bytes of `word` that end a subsystem (`[^:\]\s]`): a colon, a closing bracket or PCRE2's `\s`.
    @inline(__always)
    private static func subsystemEnds(_ word: UInt64) -> UInt64 {
        within(0x3A, 0x3A, word) | within(0x5D, 0x5D, word) | within(0x20, 0x20, word) | within(0x09, 0x0D, word)
    }

    /// The end of the run of spaces at `start` (eight bytes at a time: the default style pads its columns with
    /// dozens).
    @inline(__always)
    private static func spaces(_ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
        NSLogHeader.run(base, from: start, count, stops: { $0 ^ 0x2020_2020_2020_2020 }) { $0 == space }
    }

    /// The end of the run of `\S` (no PCRE2 `\s`) at `start`: a host or device name.
    @inline(__always)
    private static func nonSpaces(_ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
        var index = start
        while index < count, !NSLogHeader.isSpace(base[index]) { index &+= 1 }
        return index
    }

    /// Where `\([^()]*\)` that opens at `opening` closes: the first parenthesis after it, when that one closes.
    @inline(__always)
    private static func closingParenthesis(_ base: UnsafePointer<UInt8>, after opening: Int, _ count: Int) -> Int? {
        let end = NSLogHeader.firstOf(UInt8(ascii: "("), UInt8(ascii: ")"), base, from: opening &+ 1, count)
        return end < count && base[end] == UInt8(ascii: ")") ? end : nil
    }

    /// The end of `0x[0-9a-f]+` at `start` when a space follows it (as ` +` does in every place it is used), or nil.
    @inline(__always)
    private static func hexNumber(_ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int? {
        guard start &+ 2 < count, base[start] == UInt8(ascii: "0"), base[start &+ 1] == UInt8(ascii: "x") else {
            return nil
        }
        var index = start &+ 2
        index = NSLogHeader.run(base, from: index, count, stops: nonLowerHex, NSLogHeader.isLowerHex)
        guard index > start &+ 2, index < count, base[index] == space else { return nil }
        return index
    }

    /// The first colon at or after `start`, or `count`.
    @inline(__always)
    private static func firstColon(_ base: UnsafePointer<UInt8>, from start: Int, _ count: Int) -> Int {
        NSLogHeader.firstOf(colon, colon, base, from: start, count)
    }

    /// `log-ndjson`: `^\{`, then lookaheads that each take the first occurrence of a key (from byte 1) whose value
    /// fits, `eventMessage` and `timestamp` required, the others optional, and `.*\}\s*$`. Every `":` of the line
    /// (where a key's name ends) is visited in order, and a key whose name ends there and has no value yet is tried:
    /// what the lookaheads' lazy `.*?` finds, as keys may stand in any order, more than once, or in nested objects.
    /// (Visiting every `"` instead, and trying the keys that begin there, finds the same and took 1.2× the time.)
    @inline(__always)
    private static func ndjson(_ base: UnsafePointer<UInt8>, _ count: Int) -> Match? {
        // `.*\}\s*$`: the last byte that is not `\s` is a `}` after the first.
        var last = count &- 1
        while last > 0, NSLogHeader.isSpace(base[last]) { last &-= 1 }
        guard count >= 2, base[0] == UInt8(ascii: "{"), last >= 1, base[last] == UInt8(ascii: "}") else {
            return nil
        }
        var values = NDJSONValues()
        // Each key holds `":` where its name ends, a fixed distance from its opening quote: the keys are tried at
        // those pairs, in order.
        let line = UnsafeRawBufferPointer(start: base, count: count)
        BytePairScan.forEach(UInt8(ascii: "\""), UInt8(ascii: ":"), in: line, from: 2) { end in
            values.tryKeys(endingAt: end, base, count)
            return !values.isComplete
        }
        guard let message = values.message, let timestamp = values.timestamp else { return nil }
        return Match(
            timestamp: timestamp, level: values.level, process: values.process, pid: values.pid,
            thread: values.thread, subsystem: values.subsystem, category: values.category, message: message,
            sequence: values.sequence)
    }

    /// The values of `log-ndjson`'s keys found so far (``ndjson(_:_:)``).
    private struct NDJSONValues {
        var message, timestamp, pid, thread, process, subsystem, category, level, sequence: Range<Int>?
        private var found = 0

        var isComplete: Bool { found == 9 }

        /// Tries the keys whose name may end at the `"` at `end` (a `:` follows it), by the name's last letter, and
        /// keeps the value of each that fits and has none.
        @inline(__always)
        mutating func tryKeys(endingAt end: Int, _ base: UnsafePointer<UInt8>, _ count: Int) {
            switch base[end &- 1] {
            case UInt8(ascii: "e"):
                Self.take(&message, &found, #""eventMessage":""#, end, base, count, Self.escapedString)
                Self.take(&level, &found, #""messageType":""#, end, base, count, Self.plainString)
            case UInt8(ascii: "p"):
                Self.take(&timestamp, &found, #""timestamp":""#, end, base, count, Self.nonEmptyString)
                Self.take(&sequence, &found, #""machTimestamp":"#, end, base, count, Self.digits)
            case UInt8(ascii: "D"):
                Self.take(&thread, &found, #""threadID":"#, end, base, count, Self.digits)
                Self.take(&pid, &found, #""processID":"#, end, base, count, Self.digits)
            case UInt8(ascii: "h"):
                Self.take(&process, &found, #""processImagePath":""#, end, base, count, Self.lastPathComponent)
            case UInt8(ascii: "m"):
                Self.take(&subsystem, &found, #""subsystem":""#, end, base, count, Self.plainString)
            case UInt8(ascii: "y"):
                Self.take(&category, &found, #""category":""#, end, base, count, Self.plainString)
            default: break
            }
        }

        /// Sets `value` to what `read` gives from after `key` when `key` is at the line's byte 1 or later with the
        /// `":` after its name at `end`, and `value` has none yet, counting it in `found`.
        @inline(__always)
        private static func take(
            _ value: inout Range<Int>?, _ found: inout Int, _ key: StaticString, _ end: Int,
            _ base: UnsafePointer<UInt8>, _ count: Int, _ read: (UnsafePointer<UInt8>, Int, Int) -> Range<Int>?
        ) {
            guard value == nil else { return }
            let length = key.utf8CodeUnitCount
            // The name's quotes and `:`, and the value's opening quote for a string.
            let quote = end &+ 2 &+ (key.utf8Start[length &- 1] == UInt8(ascii: "\"") ? 1 : 0) &- length
            guard quote >= 1, quote &+ length <= count, memcmp(base + quote, key.utf8Start, length) == 0,
                let range = read(base, quote &+ length, count)
            else { return }
            value = range
            found &+= 1
        }

        /// `(?:[^"\\]++|\\.)*+"`: a string with escapes, up to its closing quote.
        static func escapedString(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Range<Int>? {
            var index = start
            while true {
                index = NSLogHeader.firstOf(UInt8(ascii: "\""), UInt8(ascii: "\\"), base, from: index, count)
                guard index < count else { return nil }
                if base[index] == UInt8(ascii: "\"") { return start..<index }
                index &+= 2
            }
        }

        /// `[^"]+"`.
        static func nonEmptyString(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Range<Int>? {
            guard start < count, let end = firstQuote(base, start, count), end > start else { return nil }
            return start..<end
        }

        /// `[^"\\]*"`.
        static func plainString(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Range<Int>? {
            let index = NSLogHeader.firstOf(UInt8(ascii: "\""), UInt8(ascii: "\\"), base, from: start, count)
            return index < count && base[index] == UInt8(ascii: "\"") ? start..<index : nil
        }

        /// `\d+`.
        static func digits(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Range<Int>? {
            let end = NSLogHeader.digitRun(base, from: start, count)
            return end > start ? start..<end : nil
        }

        /// `(?:[^"]*/)?(?<process>[^"/\\]+)"`: within the string, after its last `/` (or the whole string when it
        /// has none), a name with no `\\` up to the closing quote. After an earlier `/` a later one stands in the
        /// way, and the whole string holds a `/`: no other reading can match.
        static func lastPathComponent(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Range<Int>? {
            guard let end = firstQuote(base, start, count) else { return nil }
            var name = start
            var index = end
            while index > start {
                index &-= 1
                if base[index] == UInt8(ascii: "/") {
                    name = index &+ 1
                    break
                }
            }
            guard name < end else { return nil }
            for index in name..<end where base[index] == UInt8(ascii: "\\") { return nil }
            return name..<end
        }

        private static func firstQuote(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
            guard start < count, let found = memchr(base + start, Int32(UInt8(ascii: "\"")), count &- start) else {
                return nil
            }
            return UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
        }
    }
}
