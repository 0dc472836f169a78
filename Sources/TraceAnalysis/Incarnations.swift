/// An input's incarnations in the order they appeared, with their index by name and pid, by pid and by name (the
/// current one): in memory, or — once quiet on a big input — written out whole to the input's ``SpillFile`` and
/// read back when they are needed again, so the memory of a capture with many pids or names stays small (see
/// `Documentation/Performance.md`, "Memory").
///
/// An incarnation is quiet when it has not logged since the last batch. Written out, it is reached only through
/// this index, which reads it back: its pid logs again (for one that another pid replaced, the kill inferred from
/// its successor is taken back), an exit line names its pid or its name, a new pid of its name ends it (an
/// inferred kill), a bare line belongs to its name, or the end of the input reports it. The analysis keeps its
/// other references to incarnations out of the batch (the last record's, for repeat lines, and the one just made),
/// and forgets its cache of recent ones after a batch.
///
/// Incarnations are written out in batches, when a new one is made and more than ``limit`` are in memory; the next
/// batch waits until twice as many as were left are in memory, so incarnations that cannot be written out cost no
/// scan per new one. An incarnation that logged since the last batch is not written out, so pids of one name that
/// log in turn are not written and read back every few lines.
///
/// What stays of an incarnation written out is 16 bytes (its name's number, its pid and where it was written) and
/// its place in two open-addressing tables of 32-bit positions (by name and pid, by pid), about 32 bytes in all: a
/// million pids take 32 MB (a dictionary of the name and pid and one of the pid took 100–170 bytes). Each name
/// costs its string, its number in a dictionary and the position of its current incarnation.
struct Incarnations {
    /// One incarnation as the index keeps it: 16 bytes.
    private struct Entry {
        /// Its pid, or ``Entry/widePid`` when the pid does not fit in 32 bits (it is then in ``widePids``).
        var pid: Int32
        /// Its name's number in ``names``.
        var name: UInt32
        /// ``Entry/resident`` while it is in memory (in ``objects``); else where it was written: the offset in the
        /// file above bit 24, bit 23 set when it has events (one without has no report, and is not read back at the
        /// end), and the length below.
        var place: UInt64

        static let widePid = Int32.min
        static let resident = UInt64.max
        static let eventsBit: UInt64 = 1 << 23
        /// Incarnations written at more than 1 TiB into the file or longer than 8 MiB stay in memory (one byte short,
        /// so that no place is ``resident``).
        static let lengthLimit = (1 << 23) - 1
        static let offsetLimit: Int64 = 1 << 40

        var isResident: Bool { place == Self.resident }
        var hasEvents: Bool { place & Self.eventsBit != 0 }
        var segment: SpillFile.Segment {
            SpillFile.Segment(offset: Int64(place >> 24), length: Int(place & (Self.eventsBit - 1)))
        }
    }

    /// The entries, in chunks of ``chunkSize``: a big array would be copied whole as it grows, with twice its size
    /// in memory for a moment.
    private var chunks: [[Entry]] = []
    private static let chunkShift = 12
    private static let chunkSize = 1 << chunkShift
    private(set) var count = 0
    /// The incarnations in memory, by position.
    private var objects: [UInt32: ProcessTimeline] = [:]
    /// The positions of the incarnations in memory, in the order they were made or read back (a batch looks at
    /// these, not at every incarnation).
    private var resident: [UInt32] = []
    /// The pids that do not fit in an entry, by position.
    private var widePids: [UInt32: Int] = [:]
    /// Names by their number (each name's first string, shared by its incarnations), and numbers by name.
    private(set) var names: [String] = []
    private var nameNumbers: [String: UInt32] = [:]
    /// Per name number, the position of the current incarnation of the name (``noPosition`` until one is made
    /// current).
    private var currentPositions: [UInt32] = []
    private static let noPosition = UInt32.max
    /// Positions by name and pid, and of the last incarnation of each pid (for exit lines that name a pid).
    private var byKey = PositionTable()
    private var byPid = PositionTable()

    private let shared: ProcessTimeline.Shared
    /// Past this many incarnations in memory, the quiet ones are written out (0: at every new incarnation, for
    /// tests; `Int.max`: never, as in live mode, which looks at every incarnation again on each change).
    let limit: Int
    private var nextBatch: Int
    /// The line at which the last batch ran.
    private var lastBatchLine = 0

    /// The spill threshold over this is ``limit``: 512 incarnations at the default 8 MB. Measured on the generated
    /// capture, each incarnation in memory adds 11–16 KB to the peak, several times its ~2 KB of state (the
    /// allocator's slack, segments of spilled history): keeping up to 512 or 128 peaked at 34.7 and 28.4 MB at 2 GB.
    /// Writing out and reading back is what costs, about 20 µs per incarnation: with 128, the 616 incarnations of
    /// the 200 MB capture were written out in part and read back, 5 % of its time. (The first batch writes nothing,
    /// since every incarnation logged after the start: the first are written at twice the limit.)
    static let thresholdPerIncarnation = 16 << 10

    init(shared: ProcessTimeline.Shared) {
        self.shared = shared
        limit = shared.spillThreshold == .max ? .max : shared.spillThreshold / Self.thresholdPerIncarnation
        nextBatch = limit
    }

    /// How many incarnations are written out (not in memory).
    var dormantCount: Int { count - resident.count }

    private func entry(_ position: UInt32) -> Entry { Self.entry(position, in: chunks) }

    /// The pid of the entry at `position`.
    private static func pid(_ entry: Entry, _ position: UInt32, _ widePids: [UInt32: Int]) -> Int {
        entry.pid != Entry.widePid ? Int(entry.pid) : widePids[position] ?? 0
    }

    private static func entry(_ position: UInt32, in chunks: [[Entry]]) -> Entry {
        chunks[Int(position) >> chunkShift][Int(position) & (chunkSize - 1)]
    }

    private mutating func setEntry(_ position: UInt32, _ entry: Entry) {
        chunks[Int(position) >> Self.chunkShift][Int(position) & (Self.chunkSize - 1)] = entry
    }

    /// The incarnation of `name` with `pid`, read back into memory when it was written out.
    mutating func find(name: String, pid: Int) -> ProcessTimeline? {
        guard let number = nameNumbers[name] else { return nil }
        let (chunks, widePids) = (self.chunks, self.widePids)
        let position = byKey.find(hash(number, pid)) { position in
            let entry = Self.entry(position, in: chunks)
            return entry.name == number && Self.pid(entry, position, widePids) == pid
        }
        return position.map { timeline(at: $0) }
    }

    /// The last incarnation made with `pid`, read back into memory when it was written out.
    mutating func last(pid: Int) -> ProcessTimeline? {
        let (chunks, widePids) = (self.chunks, self.widePids)
        return byPid.find(hash(pid)) { Self.pid(Self.entry($0, in: chunks), $0, widePids) == pid }.map {
            timeline(at: $0)
        }
    }

    /// The current incarnation of `name`, read back into memory when it was written out.
    mutating func current(named name: String) -> ProcessTimeline? {
        guard let number = nameNumbers[name], currentPositions[Int(number)] != Self.noPosition else { return nil }
        return timeline(at: currentPositions[Int(number)])
    }

    /// The string of `name` that its incarnations share, when it has any.
    func sharedName(_ name: String) -> String? { nameNumbers[name].map { names[Int($0)] } }

    /// Makes `timeline` (one of these) the current incarnation of its name, the only writer of
    /// ``ProcessTimeline/isCurrentOfName``, so it stays true exactly while it is (a written-out incarnation that
    /// stopped being current is told when it is read back); returns whether the name had none.
    mutating func makeCurrent(_ timeline: ProcessTimeline) -> Bool {
        guard let number = nameNumbers[timeline.name] else { preconditionFailure("\(timeline.name) is not indexed") }
        let previous = currentPositions[Int(number)]
        currentPositions[Int(number)] = timeline.position
        timeline.isCurrentOfName = true
        guard previous != Self.noPosition else { return true }
        if previous != timeline.position { objects[previous]?.isCurrentOfName = false }
        return false
    }

    /// Adds a new incarnation (none has its name and pid yet).
    mutating func append(_ timeline: ProcessTimeline) {
        precondition(count < Int(UInt32.max), "more than 4 billion incarnations in one input")
        let position = UInt32(count)
        timeline.position = position
        let number: UInt32
        if let known = nameNumbers[timeline.name] {
            number = known
        } else {
            number = UInt32(names.count)
            names.append(timeline.name)
            nameNumbers[timeline.name] = number
            currentPositions.append(Self.noPosition)
        }
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Entry] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        let pid = timeline.pid
        let narrow = Int32(exactly: pid).flatMap { $0 == Entry.widePid ? nil : $0 }
        if narrow == nil { widePids[position] = pid }
        chunks[chunks.count - 1].append(Entry(pid: narrow ?? Entry.widePid, name: number, place: Entry.resident))
        count += 1
        objects[position] = timeline
        resident.append(position)
        let (chunks, widePids, seed) = (self.chunks, self.widePids, self.seed)
        func pidAt(_ position: UInt32) -> Int { Self.pid(Self.entry(position, in: chunks), position, widePids) }
        byKey.insert(position, hash: hash(number, pid)) { position in
            Self.hash(Self.entry(position, in: chunks).name, pidAt(position), seed)
        }
        byPid.insert(position, hash: hash(pid), replacing: { pidAt($0) == pid }) { Self.hash(pidAt($0), seed) }
    }

    /// The incarnation at `position`, read back into memory when it was written out.
    private mutating func timeline(at position: UInt32) -> ProcessTimeline {
        var entry = entry(position)
        guard !entry.isResident else {
            guard let timeline = objects[position] else { preconditionFailure("incarnation \(position) is lost") }
            return timeline
        }
        let timeline = shared.readBack(entry.segment)
        timeline.position = position
        timeline.isCurrentOfName = currentPositions[Int(entry.name)] == position
        entry.place = Entry.resident
        setEntry(position, entry)
        objects[position] = timeline
        resident.append(position)
        return timeline
    }

    /// Whether a batch is due (a new incarnation was just made).
    var isBatchDue: Bool { resident.count > nextBatch }

    /// Writes out every quiet incarnation in memory but those `kept`, at `line`; returns whether any was (then
    /// references to them other than through this index must be forgotten). Those the file cannot take stay in
    /// memory.
    mutating func writeOutQuiet(line: Int, keeping kept: ProcessTimeline?...) -> Bool {
        // Several pids of one name that log in turn each stop being current again and again: one that logged
        // since the last batch stays, or it could be written out and read back every few lines. (At every
        // opportunity, for tests, whatever logged last goes too.)
        let quietSince = limit == 0 ? Int.max : lastBatchLine
        lastBatchLine = line
        var stay: [UInt32] = []
        var wroteAny = false
        for position in resident {
            guard let timeline = objects[position], !kept.contains(where: { $0 === timeline }),
                timeline.lastLine < quietSince, let segment = shared.writeOut(timeline),
                segment.length < Entry.lengthLimit, segment.offset < Entry.offsetLimit
            else {
                stay.append(position)
                continue
            }
            var entry = entry(position)
            entry.place =
                UInt64(segment.offset) << 24 | (timeline.hasEvents ? Entry.eventsBit : 0) | UInt64(segment.length)
            setEntry(position, entry)
            objects[position] = nil
            wroteAny = true
        }
        resident = stay
        if wroteAny { shared.forgetWrittenOut() }
        nextBatch = limit == 0 ? 0 : max(limit, 2 * resident.count)
        return wroteAny
    }

    /// Hands every incarnation with events (those with a report) to `body` in order, read back when written out,
    /// and lets each go once `body` is done with it (the end of the input: they are never all in memory again).
    mutating func removeAll(reporting body: (ProcessTimeline) -> Void) {
        let chunks = self.chunks
        var objects = self.objects
        self = Incarnations(shared: shared, limit: limit)
        for (index, chunk) in chunks.enumerated() {
            for (offset, entry) in chunk.enumerated() {
                if entry.isResident {
                    let position = UInt32(index << Self.chunkShift + offset)
                    guard let timeline = objects.removeValue(forKey: position) else { continue }
                    if timeline.hasEvents { body(timeline) }
                } else if entry.hasEvents {
                    body(shared.readBack(entry.segment))
                }
            }
        }
    }

    private init(shared: ProcessTimeline.Shared, limit: Int) {
        self.shared = shared
        self.limit = limit
        nextBatch = limit
    }

    // MARK: Hashing

    /// Mixed into every hash, so an input cannot choose pids that collide: drawn once a run, as the standard
    /// library's `Hasher` draws its seed (drawn per input, it cost a batch two `getrandom` calls a capture).
    private static let runSeed = UInt64.random(in: .min ... .max)
    private let seed = Incarnations.runSeed

    private func hash(_ pid: Int) -> UInt64 { Self.hash(pid, seed) }
    private func hash(_ name: UInt32, _ pid: Int) -> UInt64 { Self.hash(name, pid, seed) }

    private static func hash(_ pid: Int, _ seed: UInt64) -> UInt64 { mix(UInt64(bitPattern: Int64(pid)) ^ seed) }

    private static func hash(_ name: UInt32, _ pid: Int, _ seed: UInt64) -> UInt64 {
        mix((UInt64(bitPattern: Int64(pid)) ^ seed) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(name))
    }

    /// A 64-bit finaliser (splitmix64's): every bit of the key moves every bit of the hash.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An open-addressing hash table of 32-bit positions (linear probing, at most 70 % full): the keys live
/// elsewhere (``Incarnations``'s entries), so the table asks the caller whether a position holds the key looked
/// for, and to hash a position's key again when it grows.
struct PositionTable {
    /// Position + 1 per slot; 0 is empty.
    private var slots: [UInt32] = []
    private var count = 0

    /// The position whose key `matches`, among those of hash `hash`.
    func find(_ hash: UInt64, matches: (UInt32) -> Bool) -> UInt32? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = self.slot(hash, mask)
        while slots[slot] != 0 {
            let position = slots[slot] - 1
            if matches(position) { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds `position` under `hash`, in place of the position that `replacing` accepts if there is one;
    /// `rehash` gives a position's hash when the table grows.
    mutating func insert(
        _ position: UInt32, hash: UInt64, replacing: (UInt32) -> Bool = { _ in false }, rehash: (UInt32) -> UInt64
    ) {
        if (count + 1) * 10 > slots.count * 7 { grow(rehash) }
        let mask = slots.count - 1
        var slot = self.slot(hash, mask)
        while slots[slot] != 0 {
            if replacing(slots[slot] - 1) {
                slots[slot] = position + 1
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = position + 1
        count += 1
    }

    private func slot(_ hash: UInt64, _ mask: Int) -> Int { Int(truncatingIfNeeded: hash) & mask }

    private mutating func grow(_ rehash: (UInt32) -> UInt64) {
        let old = slots
        slots = [UInt32](repeating: 0, count: max(16, old.count * 2))
        let mask = slots.count - 1
        for value in old where value != 0 {
            var slot = self.slot(rehash(value - 1), mask)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = value
        }
    }
}
