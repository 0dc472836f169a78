/// An input's incarnations in the order they appeared: in memory, or — once dormant on a big input — written out
/// whole to the input's ``SpillFile`` and read back when they are needed again, so the memory of a capture with
/// many pids stays bounded (see `Documentation/Performance.md`, "Memory").
///
/// An incarnation is dormant when another pid has become the current incarnation of its name: it is then reached
/// only in rare ways, each of which goes through ``timeline(at:)`` and reads it back (its pid logs again and the
/// kill inferred from its successor is taken back; an exit line names its pid; the end of the input reports it).
/// The current incarnation of each name stays in memory, since every new pid of the name ends it (an inferred
/// kill) and exit lines and bare lines find it by name. The analysis keeps the rest of its references to an
/// incarnation in memory (its last record's, for repeat lines) out of the batch, and forgets its cache of recent
/// ones after a batch.
///
/// Incarnations are written out in batches, when a new one is made and more than ``limit`` are in memory; the next
/// batch waits until twice as many as were left are in memory, so incarnations that cannot be written out (the
/// current ones of many names) cost no scan per new one. An incarnation that logged since the last batch is not
/// written out, so pids of one name that log in turn are not written and read back every few lines. A dormant
/// incarnation keeps an entry here (its place in the file) and the analysis's index entries (by name and pid, by
/// pid): 100–170 bytes with the tables' slack.
struct Incarnations {
    /// One incarnation: the object, or where it was written (and whether it has events, so one without, which has
    /// no report, is not read back at the end).
    private enum Slot {
        case resident(ProcessTimeline)
        case dormant(SpillFile.Segment, hasEvents: Bool)
    }

    private var slots: [Slot] = []
    /// The indices of the slots in memory (a batch looks at these, not at every incarnation).
    private var resident: [Int] = []
    private let shared: ProcessTimeline.Shared
    /// Past this many incarnations in memory, the dormant ones are written out (0: at every new incarnation, for
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
    var dormantCount: Int { slots.count - resident.count }

    /// Adds a new incarnation; returns its index.
    mutating func append(_ timeline: ProcessTimeline) -> Int {
        slots.append(.resident(timeline))
        resident.append(slots.count - 1)
        return slots.count - 1
    }

    /// The incarnation at `index`, read back into memory when it was written out.
    mutating func timeline(at index: Int) -> ProcessTimeline {
        switch slots[index] {
        case .resident(let timeline): return timeline
        case .dormant(let segment, _):
            let timeline = shared.readBack(segment)
            slots[index] = .resident(timeline)
            resident.append(index)
            return timeline
        }
    }

    /// Whether a batch is due (a new incarnation was just made).
    var isBatchDue: Bool { resident.count > nextBatch }

    /// Writes out every dormant incarnation in memory but `kept`, at `line`; returns whether any was (then
    /// references to them other than through ``timeline(at:)`` must be forgotten). Those the file cannot take stay
    /// in memory.
    mutating func writeOutDormant(keeping kept: ProcessTimeline?, line: Int) -> Bool {
        // Several pids of one name that log in turn each stop being current again and again: one that logged
        // since the last batch stays, or it could be written out and read back every few lines. (At every
        // opportunity, for tests, whatever logged last goes too.)
        let quietSince = limit == 0 ? Int.max : lastBatchLine
        lastBatchLine = line
        var stay: [Int] = []
        var wroteAny = false
        for index in resident {
            guard case .resident(let timeline) = slots[index], !timeline.isCurrentOfName, timeline !== kept,
                timeline.lastLine < quietSince, let segment = shared.writeOut(timeline)
            else {
                stay.append(index)
                continue
            }
            slots[index] = .dormant(segment, hasEvents: timeline.hasEvents)
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
        var pending = slots
        slots = []
        resident = []
        pending.reverse()
        while let slot = pending.popLast() {
            switch slot {
            case .resident(let timeline): if timeline.hasEvents { body(timeline) }
            case .dormant(let segment, let hasEvents): if hasEvents { body(shared.readBack(segment)) }
            }
        }
    }
}
