/// Elements of a report in order — a process's events or its episodes: an array, or, for a big input, encoded
/// arrays (segments) in the input's ``SpillFile`` followed by a tail in memory, decoded a segment at a time as they
/// are iterated. A process with very many events or episodes is then reported without them ever all being in
/// memory: making its report copies none, writing the report to the file writes where they are, and each reporter
/// reads them as it goes (see `Documentation/Performance.md`, seventh and eighth sessions).
///
/// A sequence, not a collection: each pass decodes the segments again, and an index would have to decode a segment
/// per element. ``count`` is known without decoding.
public struct SpilledSequence<Element: Sendable>: Sequence, ExpressibleByArrayLiteral, Sendable, CustomReflectable {
    /// The file the segments are in (nil when every element is in ``tail``).
    private let file: SpillFile?
    /// Encoded arrays of elements (``SpillEncoder/array(_:_:)``), in order, before ``tail``.
    private let segments: [SpillFile.Segment]
    private let tail: [Element]
    /// Reads one element (nil when there are no segments).
    private let read: (@Sendable (inout SpillDecoder) -> Element)?
    /// How many elements there are, in the segments and the tail.
    public let count: Int

    public init(_ elements: [Element]) {
        file = nil
        segments = []
        tail = elements
        read = nil
        count = elements.count
    }

    public init(arrayLiteral elements: Element...) { self.init(elements) }

    /// `count` elements: those encoded in `segments` of `file` (each read by `read`), then `tail`.
    init(
        file: SpillFile, segments: [SpillFile.Segment], count: Int, tail: [Element],
        read: @escaping @Sendable (inout SpillDecoder) -> Element
    ) {
        self.file = segments.isEmpty ? nil : file
        self.segments = segments
        self.tail = tail
        self.read = read
        self.count = count
    }

    public var isEmpty: Bool { count == 0 }

    /// The first element (decoding at most one segment).
    public var first: Element? {
        var iterator = makeIterator()
        return iterator.next()
    }

    /// The last element (decoding at most one segment).
    public var last: Element? {
        if let element = tail.last { return element }
        return segments.last.flatMap { decode($0).last }
    }

    /// How many elements are held in memory (the others are in the file).
    var inMemoryCount: Int { tail.count }

    /// Whether some elements are in the file.
    var isSpilled: Bool { !segments.isEmpty }

    private func decode(_ segment: SpillFile.Segment) -> [Element] {
        guard let file, let read else { preconditionFailure("segments without their file") }
        var decoder = SpillDecoder(file.read(segment))
        return decoder.array(read)
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    /// Decodes one segment at a time.
    public struct Iterator: IteratorProtocol {
        private let elements: SpilledSequence
        private var segment = 0
        private var current: [Element] = []
        private var index = 0
        private var inTail = false

        init(_ elements: SpilledSequence) {
            self.elements = elements
            if elements.segments.isEmpty {
                current = elements.tail
                inTail = true
            }
        }

        public mutating func next() -> Element? {
            while index == current.count {
                if inTail { return nil }
                if segment < elements.segments.count {
                    current = elements.decode(elements.segments[segment])
                    segment += 1
                } else {
                    current = elements.tail
                    inTail = true
                }
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }
    }

    /// Shown (and dumped, as the tests compare reports) as the elements themselves, wherever they are.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }

    // MARK: Spill file

    /// Writes the elements as where they are: the segments (of the file the report is written to: a report is only
    /// ever written to its own input's file) and the tail, or the elements themselves when all are in memory.
    func encode(to encoder: inout SpillEncoder, _ write: (inout SpillEncoder, Element) -> Void) {
        encoder.array(segments) { $0.segment($1) }
        encoder.int(count)
        encoder.array(tail, write)
    }

    /// The elements ``encode(to:_:)`` wrote, their segments in `file`.
    static func decode(
        _ decoder: inout SpillDecoder, file: SpillFile?, read: @escaping @Sendable (inout SpillDecoder) -> Element
    ) -> SpilledSequence {
        let segments = decoder.array { $0.segment() }
        let count = decoder.int()
        let tail = decoder.array(read)
        guard !segments.isEmpty else { return SpilledSequence(tail) }
        guard let file else { preconditionFailure("elements in segments of a file decoded without the file") }
        return SpilledSequence(file: file, segments: segments, count: count, tail: tail, read: read)
    }

    /// Collects elements in order, writing each full segment of them to a file (when given one) and keeping the
    /// rest in memory.
    struct Builder {
        private let file: SpillFile?
        private let write: (inout SpillEncoder, Element) -> Void
        private let read: @Sendable (inout SpillDecoder) -> Element
        private var segments: [SpillFile.Segment] = []
        private var tail: [Element] = []
        private var count = 0
        /// Why the file could not take a segment, if so: the rest stays in memory.
        private(set) var error: TraceAnalyzeError?
        /// Elements per segment.
        static var segmentSize: Int { 4096 }

        /// Writes to `file` (nil: keeps all in memory).
        init(
            file: SpillFile?, write: @escaping (inout SpillEncoder, Element) -> Void,
            read: @escaping @Sendable (inout SpillDecoder) -> Element
        ) {
            self.file = file
            self.write = write
            self.read = read
        }

        mutating func append(_ element: Element) {
            tail.append(element)
            count += 1
            guard tail.count >= Self.segmentSize, error == nil, let file else { return }
            var encoder = SpillEncoder()
            encoder.array(tail, write)
            do {
                segments.append(try file.append(encoder.bytes))
                tail.removeAll(keepingCapacity: true)
            } catch {
                self.error = error
            }
        }

        /// What was appended.
        func finish() -> SpilledSequence {
            guard let file, !segments.isEmpty else { return SpilledSequence(tail) }
            return SpilledSequence(file: file, segments: segments, count: count, tail: tail, read: read)
        }
    }
}

/// A process's events, in input order.
public typealias TimelineEvents = SpilledSequence<TimelineEvent>
/// A process's episodes, in report order.
public typealias TimelineEpisodes = SpilledSequence<Episode>

extension SpilledSequence where Element == TimelineEvent {
    /// `count` events: those encoded in `segments` of `file`, then `tail`.
    init(file: SpillFile, segments: [SpillFile.Segment], count: Int, tail: [TimelineEvent]) {
        self.init(file: file, segments: segments, count: count, tail: tail) { $0.event() }
    }

    func encode(to encoder: inout SpillEncoder) { encode(to: &encoder) { $0.event($1) } }

    static func decode(_ decoder: inout SpillDecoder, file: SpillFile?) -> TimelineEvents {
        decode(&decoder, file: file) { $0.event() }
    }
}

extension SpilledSequence where Element == Episode {
    func encode(to encoder: inout SpillEncoder) { encode(to: &encoder) { $0.episode($1) } }

    static func decode(_ decoder: inout SpillDecoder, file: SpillFile?) -> TimelineEpisodes {
        decode(&decoder, file: file) { $0.episode() }
    }

    /// Collects episodes, writing them to `file` a segment at a time (nil: keeps them in memory).
    static func builder(file: SpillFile?) -> Builder {
        Builder(file: file, write: { $0.episode($1) }, read: { $0.episode() })
    }
}
