/// The events of a process, in input order: an array, or — for a big input — the segments of its history in the
/// input's ``SpillFile`` followed by the events logged since, decoded a segment at a time as they are iterated. A
/// process with very many events is then reported without its events ever all being in memory: making its report
/// copies no event, writing the report to the file writes where the events are, and each reporter reads them as it
/// goes (see `Documentation/Performance.md`, seventh session).
///
/// A sequence, not a collection: each pass decodes the segments again, and an index would have to decode a segment
/// per element. ``count`` is known without decoding.
public struct TimelineEvents: Sequence, ExpressibleByArrayLiteral, Sendable, CustomReflectable {
    /// The file the segments are in (nil when every event is in ``tail``).
    private let file: SpillFile?
    /// Encoded arrays of events (``SpillEncoder/array(_:_:)``), in order, before ``tail``.
    private let segments: [SpillFile.Segment]
    private let tail: [TimelineEvent]
    /// How many events there are, in the segments and the tail.
    public let count: Int

    public init(_ events: [TimelineEvent]) {
        file = nil
        segments = []
        tail = events
        count = events.count
    }

    public init(arrayLiteral events: TimelineEvent...) { self.init(events) }

    /// `count` events: those encoded in `segments` of `file`, then `tail`.
    init(file: SpillFile, segments: [SpillFile.Segment], count: Int, tail: [TimelineEvent]) {
        self.file = segments.isEmpty ? nil : file
        self.segments = segments
        self.tail = tail
        self.count = count
    }

    public var isEmpty: Bool { count == 0 }

    /// The last event (decoding at most one segment).
    public var last: TimelineEvent? {
        if let event = tail.last { return event }
        guard let file, let segment = segments.last else { return nil }
        var decoder = SpillDecoder(file.read(segment))
        return decoder.array { $0.event() }.last
    }

    /// How many events are held in memory (the others are in the file).
    var inMemoryCount: Int { tail.count }

    public func makeIterator() -> Iterator { Iterator(self) }

    /// Decodes one segment at a time.
    public struct Iterator: IteratorProtocol {
        private let events: TimelineEvents
        private var segment = 0
        private var current: [TimelineEvent] = []
        private var index = 0
        private var inTail = false

        init(_ events: TimelineEvents) {
            self.events = events
            if events.segments.isEmpty {
                current = events.tail
                inTail = true
            }
        }

        public mutating func next() -> TimelineEvent? {
            while index == current.count {
                if inTail { return nil }
                if segment < events.segments.count, let file = events.file {
                    var decoder = SpillDecoder(file.read(events.segments[segment]))
                    current = decoder.array { $0.event() }
                    segment += 1
                } else {
                    current = events.tail
                    inTail = true
                }
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }
    }

    /// Shown (and dumped, as the tests compare reports) as the events themselves, wherever they are.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }

    // MARK: Spill file

    /// Writes the events as where they are: the segments (of the file the report is written to: a report is only
    /// ever written to its own input's file) and the tail, or the events themselves when they are all in memory.
    func encode(to encoder: inout SpillEncoder) {
        encoder.array(segments) { $0.segment($1) }
        encoder.int(count)
        encoder.array(tail) { $0.event($1) }
    }

    /// The events ``encode(to:)`` wrote, their segments in `file`.
    static func decode(_ decoder: inout SpillDecoder, file: SpillFile?) -> TimelineEvents {
        let segments = decoder.array { $0.segment() }
        let count = decoder.int()
        let tail = decoder.array { $0.event() }
        guard !segments.isEmpty else { return TimelineEvents(tail) }
        guard let file else { preconditionFailure("events in segments of a file decoded without the file") }
        return TimelineEvents(file: file, segments: segments, count: count, tail: tail)
    }
}
