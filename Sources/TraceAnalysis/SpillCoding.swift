/// Writes report values as compact bytes for a ``SpillFile``; ``SpillDecoder`` reads them back.
///
/// The format lives only as long as one run (the file is unlinked and never read by another build), so it is
/// as simple as it can be: integers as zigzag varints, doubles and timestamps' microseconds as eight-byte words,
/// strings as a length and their UTF-8, enums as a tag byte, optionals and arrays with a leading flag or count. Every
/// field is written, so a decoded report renders byte for byte like the one encoded (the round-trip test checks
/// each field).
struct SpillEncoder: ~Copyable {
    /// The bytes, written through raw pointers (``OutputBytes``: `[UInt8].append` checked the array's uniqueness and
    /// capacity for every byte of a big input's spilled history).
    private var output = OutputBytes(capacity: 4096)

    /// A copy of the bytes written.
    var bytes: [UInt8] { output.array }

    mutating func int(_ value: Int) { uint(UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1))))) }

    mutating func int64(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// One byte for a value under 128 (counts, flags, small numbers); a longer one is written in place, in room
    /// reserved for ten bytes (an array's append per byte was an eighth of what a big input's spilling cost).
    @inline(__always)
    mutating func uint(_ value: UInt64) {
        if value < 0x80 { return output.append(UInt8(truncatingIfNeeded: value)) }
        let text = output.reserve(10)  // at most ten bytes
        var value = value
        var index = 0
        while value >= 0x80 {
            text[index] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            index &+= 1
        }
        text[index] = UInt8(truncatingIfNeeded: value)
        output.commit(index &+ 1)
    }

    /// Eight bytes, little-endian: a timestamp's microseconds since 1970 are eight bytes as a varint too, read back
    /// with one load instead of eight.
    @inline(__always)
    mutating func word(_ value: UInt64) {
        UnsafeMutableRawPointer(output.reserve(8)).storeBytes(of: value.littleEndian, as: UInt64.self)
        output.commit(8)
    }

    mutating func bool(_ value: Bool) { output.append(value ? 1 : 0) }

    mutating func double(_ value: Double) { word(value.bitPattern) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            uint(UInt64(utf8.count))
            output.append(utf8)
        }
    }

    mutating func byte(_ value: UInt8) { output.append(value) }

    /// A flag, then the value when there is one.
    mutating func optional<T>(_ value: T?, _ write: (inout SpillEncoder, T) -> Void) {
        guard let value else { return output.append(0) }
        output.append(1)
        write(&self, value)
    }

    mutating func array<T>(_ values: [T], _ write: (inout SpillEncoder, T) -> Void) {
        uint(UInt64(values.count))
        for value in values { write(&self, value) }
    }
}

/// Reads what ``SpillEncoder`` wrote, in the same order. The bytes come from this run's own file, so bytes that
/// do not decode are a bug, not bad input: they stop the run (an index out of range).
struct SpillDecoder {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    @inline(__always)
    mutating func uint() -> UInt64 {
        let byte = bytes[position]
        if byte < 0x80 {
            position &+= 1
            return UInt64(byte)
        }
        return longUInt()
    }

    /// A varint of two bytes or more (a UTC offset, a line number): masking shifts, the index checked once a byte.
    private mutating func longUInt() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        while true {
            let byte = bytes[index]
            index &+= 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 {
                position = index
                return value
            }
            shift &+= 7
        }
    }

    /// Four bytes, little-endian (a timestamp's offsets).
    mutating func word32() -> UInt32 { littleEndian() }

    /// What ``SpillEncoder/word(_:)`` wrote.
    mutating func word() -> UInt64 { littleEndian() }

    /// The next `T`'s bytes, little-endian, read with one load.
    private mutating func littleEndian<T: FixedWidthInteger>() -> T {
        let size = MemoryLayout<T>.size
        precondition(position <= bytes.count &- size, "a spill segment ends inside a word")
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: T.self) }
        position &+= size
        return T(littleEndian: value)
    }

    mutating func int64() -> Int64 {
        let raw = uint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func int() -> Int { Int(int64()) }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bool() -> Bool { byte() != 0 }

    mutating func double() -> Double { Double(bitPattern: word()) }

    mutating func string() -> String {
        let count = Int(uint())
        defer { position += count }
        return bytes.withUnsafeBytes { buffer in
            let text = UnsafeRawBufferPointer(rebasing: buffer[position..<(position + count)])
            // Up to 15 bytes, a string is held inline: nothing to share.
            guard count > 15 else { return String(decoding: text, as: UTF8.self) }
            let slot = Self.slot(text)
            if recent.isEmpty { recent = Array(repeating: nil, count: Self.recentSlots) }
            if var known = recent[slot], known.utf8.count == count,
                known.withUTF8({ Bytes.equal(UnsafeRawBufferPointer($0), text) })
            {
                return known
            }
            let string = String(decoding: text, as: UTF8.self)
            recent[slot] = string
            return string
        }
    }

    /// The last string of more than 15 bytes read into each slot (``slot(_:)``): a segment holds the same texts
    /// many times (the evidence of a process's episodes, its violations' messages), and one found here is shared,
    /// not allocated and copied again. Made at the first such string. Sixteen slots: a decoder lives for one segment
    /// (thousands at 500 MB), and making and destroying 64 cost 1 % of such a run once an episode's causes were
    /// shared without them.
    private var recent: [String?] = []
    private static let recentSlots = 16

    /// A slot for `text` (more than 8 bytes) from its length and its first and last eight bytes.
    private static func slot(_ text: UnsafeRawBufferPointer) -> Int {
        let head = text.loadUnaligned(as: UInt64.self)
        let tail = text.loadUnaligned(fromByteOffset: text.count - 8, as: UInt64.self)
        let mixed = (head ^ (tail << 29 | tail >> 35) ^ UInt64(text.count)) &* 0x9E37_79B9_7F4A_7C15
        return Int(mixed >> UInt64(64 - recentSlots.trailingZeroBitCount))
    }

    mutating func optional<T>(_ read: (inout SpillDecoder) -> T) -> T? { bool() ? read(&self) : nil }

    mutating func array<T>(_ read: (inout SpillDecoder) -> T) -> [T] {
        let count = Int(uint())
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(read(&self)) }
        return values
    }
}

/// An enum without payloads, written as one byte: the tag the compiler stores for its case. The enums here have
/// raw values, and a raw-value enum hashes and compares its raw value, so a dictionary from case to index hashed
/// a string for every enum written; the tag is read straight from the value, and read back through a table.
protocol SpillCodableEnum {
    /// The cases by tag (``makeSpillTable(_:)``).
    static var spillTable: [Self?] { get }
}

extension SpillCodableEnum {
    /// The tag of `value`: a payload-free enum of 2 to 256 cases is stored as one byte.
    @inline(__always)
    static func spillTag(_ value: Self) -> UInt8 { caseTag(value) }

    /// The table of `cases`, every case of the enum.
    static func makeSpillTable(_ cases: [Self]) -> [Self?] {
        precondition(MemoryLayout<Self>.size == 1, "\(Self.self) is not stored as one byte")
        var table = [Self?](repeating: nil, count: 256)
        for value in cases { table[Int(spillTag(value))] = value }
        return table
    }
}

extension LifecycleEvent: SpillCodableEnum {
    static let spillTable = makeSpillTable(Array(allCases))
}

extension AppState: SpillCodableEnum {
    static let spillTable = makeSpillTable(Array(allCases))
}

extension Scenario: SpillCodableEnum {
    static let spillTable = makeSpillTable(Array(allCases))
}

extension ViolationRule: SpillCodableEnum {
    static let spillTable = makeSpillTable(Array(allCases))
}

extension ExitReason: SpillCodableEnum {
    static let spillTable = makeSpillTable(Array(allCases))
}

extension Confidence: SpillCodableEnum {
    static let spillTable = makeSpillTable([.low, .medium, .high])
}

extension SpillEncoder {
    mutating func `enum`<T: SpillCodableEnum>(_ value: T) {
        output.append(T.spillTag(value))
    }

    /// A byte of flags (bit 0 a UTC offset, bit 1 an assumed one), the fraction's digits, the microseconds, then each
    /// offset there is as four bytes: fixed widths, each read with one load (a varint offset was three bytes read one
    /// by one, and most timestamps have one).
    mutating func timestamp(_ value: Timestamp) {
        let offset = value.utcOffsetSeconds, assumed = value.assumedOffsetSeconds
        let text = output.reserve(18)
        text[0] = (offset == nil ? 0 : 1) | (assumed == nil ? 0 : 2)
        text[1] = value.fractionDigits
        let raw = UnsafeMutableRawPointer(text)
        raw.storeBytes(of: UInt64(bitPattern: value.wallMicros).littleEndian, toByteOffset: 2, as: UInt64.self)
        var count = 10
        if let offset {
            raw.storeBytes(of: UInt32(bitPattern: offset).littleEndian, toByteOffset: count, as: UInt32.self)
            count &+= 4
        }
        if let assumed {
            raw.storeBytes(of: UInt32(bitPattern: assumed).littleEndian, toByteOffset: count, as: UInt32.self)
            count &+= 4
        }
        output.commit(count)
    }

    mutating func timestamp(_ value: Timestamp?) { optional(value) { $0.timestamp($1) } }

    mutating func double(_ value: Double?) { optional(value) { $0.double($1) } }

    mutating func int(_ value: Int?) { optional(value) { $0.int($1) } }

    mutating func string(_ value: String?) { optional(value) { $0.string($1) } }

    mutating func event(_ value: TimelineEvent) {
        `enum`(value.event)
        int(value.line)
        timestamp(value.time)
        `enum`(value.state)
        string(value.scene)
    }

    mutating func episode(_ value: Episode) {
        `enum`(value.scenario)
        int(value.startLine)
        int(value.endLine)
        timestamp(value.start)
        timestamp(value.end)
        `enum`(value.confidence)
        // Nearly every episode's causes are its scenario's own list (one shared array): a 0 says so, and it is
        // shared again when read; any other list is written with its count plus one.
        if value.causes == value.scenario.causes {
            uint(0)
        } else {
            uint(UInt64(value.causes.count) + 1)
            for cause in value.causes { string(cause) }
        }
        string(value.evidence)
        double(value.durationMs)
        string(value.scene)
        double(value.budgetMs)
        bool(value.overBudget)
    }

    /// Counts by case, in the order of the cases (the same counts write the same bytes).
    mutating func counts<T: SpillCodableEnum & CaseIterable>(_ counts: [T: Int]) {
        array(T.allCases.compactMap { value in counts[value].map { (value, $0) } }) {
            $0.`enum`($1.0)
            $0.int($1.1)
        }
    }

    mutating func tally(_ value: EpisodeTally) {
        int(value.episodes)
        counts(value.scenarios)
        int(value.timedResumes)
        int(value.resumesOverBudget)
        int(value.killedInForeground)
    }

    mutating func violation(_ value: Violation) {
        `enum`(value.rule)
        string(value.input)
        int(value.line)
        timestamp(value.time)
        `enum`(value.state)
        `enum`(value.event)
        string(value.expected)
        string(value.message)
    }

    mutating func milestone(_ value: Milestone) {
        string(value.name)
        int(value.line)
        timestamp(value.time)
        double(value.offsetMs)
        double(value.phaseMs)
    }

    mutating func launch(_ value: LaunchReport) {
        int(value.startLine)
        timestamp(value.start)
        int(value.endLine)
        timestamp(value.end)
        double(value.durationMs)
        double(value.budgetMs)
        bool(value.overBudget)
        bool(value.excluded)
        string(value.excludedReason)
        bool(value.watchdogRisk)
        array(value.milestones) { $0.milestone($1) }
    }

    mutating func clockAnomaly(_ value: ClockAnomaly) {
        int(value.line)
        timestamp(value.time)
        int(value.previousLine)
        timestamp(value.previousTime)
        double(value.backwardsMs)
    }

    mutating func exit(_ value: ProcessExit) {
        `enum`(value.reason)
        int(value.line)
        timestamp(value.time)
        int(value.signal)
        string(value.evidence)
    }

    mutating func occurrence(_ value: EventOccurrence) {
        `enum`(value.event)
        int(value.line)
        timestamp(value.time)
    }

    mutating func mark(_ value: ScenarioDetector.Mark) {
        int(value.line)
        timestamp(value.time)
    }

    mutating func segment(_ value: SpillFile.Segment) {
        int64(value.offset)
        int(value.length)
    }

    mutating func process(_ value: ProcessReport) {
        string(value.name)
        int(value.pid)
        string(value.input)
        int(value.firstLine)
        int(value.lastLine)
        timestamp(value.firstTime)
        timestamp(value.lastTime)
        int(value.records)
        `enum`(value.finalState)
        optional(value.launch) { $0.launch($1) }
        value.episodes.encode(to: &self)
        value.violations.encode(to: &self)
        array(value.clockAnomalies) { $0.clockAnomaly($1) }
        int(value.clockAnomalyCount)
        optional(value.exit) { $0.exit($1) }
        optional(value.episodeTally) { $0.tally($1) }
        optional(value.violationCounts) { $0.counts($1) }
        optional(value.resumeDurations) { $1.encode(to: &$0) }
        // Last, so what only counts the processes can stop before the longest part (see ``SpillDecoder/process``).
        value.events.encode(to: &self)
    }
}

extension SpillDecoder {
    mutating func `enum`<T: SpillCodableEnum>(_: T.Type = T.self) -> T {
        guard let value = T.spillTable[Int(byte())] else { preconditionFailure("no \(T.self) has this tag") }
        return value
    }

    /// What ``SpillEncoder/timestamp(_:)`` wrote.
    mutating func timestamp() -> Timestamp {
        let flags = byte()
        let digits = byte()
        let wall = Int64(bitPattern: word())
        let offset = flags & 1 == 0 ? nil : Int32(bitPattern: word32())
        let assumed = flags & 2 == 0 ? nil : Int32(bitPattern: word32())
        return Timestamp(
            wallMicros: wall, utcOffsetSeconds: offset, fractionDigits: digits, assumedOffsetSeconds: assumed)
    }

    mutating func optionalTimestamp() -> Timestamp? { optional { $0.timestamp() } }
    mutating func optionalDouble() -> Double? { optional { $0.double() } }
    mutating func optionalInt() -> Int? { optional { $0.int() } }
    mutating func optionalString() -> String? { optional { $0.string() } }

    mutating func event() -> TimelineEvent {
        TimelineEvent(
            event: `enum`(), line: int(), time: optionalTimestamp(), state: `enum`(), scene: optionalString())
    }

    mutating func episode() -> Episode {
        let scenario: Scenario = `enum`()
        return Episode(
            scenario: scenario, startLine: int(), endLine: int(), start: optionalTimestamp(), end: optionalTimestamp(),
            confidence: `enum`(), causes: causes(of: scenario), evidence: string(), durationMs: optionalDouble(),
            scene: optionalString(), budgetMs: optionalDouble(), overBudget: bool())
    }

    /// An episode's causes as ``SpillEncoder/episode(_:)`` wrote them: its scenario's shared list, or its own.
    private mutating func causes(of scenario: Scenario) -> [String] {
        let count = Int(uint())
        guard count > 0 else { return scenario.causes }
        var causes: [String] = []
        causes.reserveCapacity(count - 1)
        for _ in 1..<count { causes.append(string()) }
        return causes
    }

    /// The counts ``SpillEncoder/counts(_:)`` wrote.
    mutating func counts<T: SpillCodableEnum & Hashable>() -> [T: Int] {
        Dictionary(array { decoder -> (T, Int) in (decoder.`enum`(), decoder.int()) }, uniquingKeysWith: +)
    }

    mutating func tally() -> EpisodeTally {
        EpisodeTally(
            episodes: int(), scenarios: counts(), timedResumes: int(), resumesOverBudget: int(),
            killedInForeground: int())
    }

    mutating func violation() -> Violation {
        Violation(
            rule: `enum`(), input: string(), line: int(), time: optionalTimestamp(), state: `enum`(), event: `enum`(),
            expected: string(), message: string())
    }

    mutating func milestone() -> Milestone {
        Milestone(
            name: string(), line: int(), time: optionalTimestamp(), offsetMs: optionalDouble(),
            phaseMs: optionalDouble())
    }

    mutating func launch() -> LaunchReport {
        LaunchReport(
            startLine: int(), start: optionalTimestamp(), endLine: optionalInt(), end: optionalTimestamp(),
            durationMs: optionalDouble(), budgetMs: double(), overBudget: bool(), excluded: bool(),
            excludedReason: optionalString(), watchdogRisk: bool(), milestones: array { $0.milestone() })
    }

    mutating func clockAnomaly() -> ClockAnomaly {
        ClockAnomaly(
            line: int(), time: timestamp(), previousLine: int(), previousTime: timestamp(), backwardsMs: double())
    }

    mutating func exit() -> ProcessExit {
        ProcessExit(reason: `enum`(), line: int(), time: optionalTimestamp(), signal: optionalInt(), evidence: string())
    }

    mutating func occurrence() -> EventOccurrence {
        EventOccurrence(event: `enum`(), line: int(), time: optionalTimestamp())
    }

    mutating func mark() -> ScenarioDetector.Mark { ScenarioDetector.Mark(line: int(), time: optionalTimestamp()) }

    mutating func segment() -> SpillFile.Segment { SpillFile.Segment(offset: int64(), length: int()) }

    /// A process; without `events`, its events are left out (empty) and not decoded. Its events that are in
    /// segments of the file are read from `file` as they are iterated.
    mutating func process(events: Bool = true, file: SpillFile? = nil) -> ProcessReport {
        var report = ProcessReport(
            name: string(), pid: int(), input: string(), firstLine: int(), lastLine: int(),
            firstTime: optionalTimestamp(), lastTime: optionalTimestamp(), records: int(), finalState: `enum`(),
            launch: optional { $0.launch() }, episodes: TimelineEpisodes.decode(&self, file: file),
            violations: TimelineViolations.decode(&self, file: file),
            events: [], clockAnomalies: array { $0.clockAnomaly() }, clockAnomalyCount: int(),
            exit: optional { $0.exit() }, episodeTally: optional { $0.tally() },
            violationCounts: optional { $0.counts() },
            resumeDurations: optional { TimelineDurations.decode(&$0, file: file) })
        if events { report.events = TimelineEvents.decode(&self, file: file) }
        return report
    }
}
