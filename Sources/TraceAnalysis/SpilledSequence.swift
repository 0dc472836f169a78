/// Elements of a report in order — a process's events, episodes or violations: an array, or, for a big input,
/// encoded arrays (segments) in the input's ``SpillFile`` followed by a tail in memory, decoded a segment at a time
/// as they are iterated. A process with very many of them is then reported without them ever all being in memory:
/// making its report copies none, writing the report to the file writes where they are, and each reporter reads
/// them as it goes (see `Documentation/Performance.md`, seventh and eighth sessions).
///
/// A sequence, not a collection: each pass decodes the segments again, and an index would have to decode a segment
/// per element. ``count`` is known without decoding.
public struct SpilledSequence<Element: Sendable>: Sequence, ExpressibleByArrayLiteral, Sendable, CustomReflectable {
    /// The file the segments are in (nil when every element is in ``tail``).
    private let file: SpillFile?
    /// Encoded arrays of elements (``SpillEncoder/array(_:_:)``), in order, before ``tail``.
    private let segments: [SpillFile.Segment]
    private let tail: [Element]
    /// Elements of the segments changed since they were written, by index (read in their place).
    private let changed: [Int: Element]
    /// Reads one element (nil when there are no segments).
    private let read: (@Sendable (inout SpillDecoder) -> Element)?
    /// How many elements there are, in the segments and the tail.
    public let count: Int

    public init(_ elements: [Element]) {
        file = nil
        segments = []
        tail = elements
        changed = [:]
        read = nil
        count = elements.count
    }

    public init(arrayLiteral elements: Element...) { self.init(elements) }

    /// `count` elements: those encoded in `segments` of `file` (each read by `read`, those in `changed` replaced),
    /// then `tail`.
    init(
        file: SpillFile, segments: [SpillFile.Segment], count: Int, tail: [Element], changed: [Int: Element] = [:],
        read: @escaping @Sendable (inout SpillDecoder) -> Element
    ) {
        self.file = segments.isEmpty ? nil : file
        self.segments = segments
        self.tail = tail
        self.changed = changed
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
        if let element = changed[count - 1] { return element }
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
        /// The index of ``current``'s first element among all.
        private var currentStart = 0
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
                currentStart += current.count
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
            if !inTail, !elements.changed.isEmpty, let changed = elements.changed[currentStart + index] {
                return changed
            }
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
        // In index order, so equal values write equal bytes.
        encoder.array(changed.sorted { $0.key < $1.key }) { encoder, entry in
            encoder.int(entry.key)
            write(&encoder, entry.value)
        }
    }

    /// The same elements with those held in memory (``tail``) written to `file` as one more segment (each read
    /// back by `read`), so that what is encoded of them afterwards is where they are, not the elements themselves;
    /// the sequence itself when none is in memory. A sequence with segments must be of `file`.
    func writingTail(
        to file: SpillFile, _ write: (inout SpillEncoder, Element) -> Void,
        read: @escaping @Sendable (inout SpillDecoder) -> Element
    ) throws(TraceAnalyzeError) -> SpilledSequence {
        guard !tail.isEmpty else { return self }
        precondition(segments.isEmpty || self.file === file, "segments of another file")
        var encoder = SpillEncoder()
        encoder.array(tail, write)
        let segment = try file.append(encoder.bytes)
        // The changed elements keep their indices: they are all in the segments before the new one.
        return SpilledSequence(
            file: file, segments: segments + [segment], count: count, tail: [], changed: changed, read: read)
    }

    /// The elements ``encode(to:_:)`` wrote, their segments in `file`.
    static func decode(
        _ decoder: inout SpillDecoder, file: SpillFile?, read: @escaping @Sendable (inout SpillDecoder) -> Element
    ) -> SpilledSequence {
        let segments = decoder.array { $0.segment() }
        let count = decoder.int()
        let tail = decoder.array(read)
        var changed: [Int: Element] = [:]
        for (index, element) in decoder.array({ ($0.int(), read(&$0)) }) { changed[index] = element }
        guard !segments.isEmpty else { return SpilledSequence(tail) }
        guard let file else { preconditionFailure("elements in segments of a file decoded without the file") }
        return SpilledSequence(file: file, segments: segments, count: count, tail: tail, changed: changed, read: read)
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
/// A process's violations, in line order.
public typealias TimelineViolations = SpilledSequence<Violation>
/// Durations of a process's episodes, in report order.
typealias TimelineDurations = SpilledSequence<Double>

extension SpilledSequence where Element == Double {
    func encode(to encoder: inout SpillEncoder) { encode(to: &encoder) { $0.double($1) } }

    static func decode(_ decoder: inout SpillDecoder, file: SpillFile?) -> SpilledSequence {
        decode(&decoder, file: file) { $0.double() }
    }

    /// Collects durations, writing them to `file` a segment at a time (nil: keeps them in memory).
    static func builder(file: SpillFile?) -> Builder {
        Builder(file: file, write: { $0.double($1) }, read: { $0.double() })
    }
}

extension SpilledSequence where Element: SpillElement {
    /// `count` elements: those encoded in `segments` of `file`, then `tail`.
    init(file: SpillFile, segments: [SpillFile.Segment], count: Int, tail: [Element]) {
        self.init(file: file, segments: segments, count: count, tail: tail, read: Element.read(from:))
    }

    func encode(to encoder: inout SpillEncoder) { encode(to: &encoder) { $1.write(to: &$0) } }

    /// ``writingTail(to:_:read:)`` for episodes, violations and events.
    func writingTail(to file: SpillFile) throws(TraceAnalyzeError) -> SpilledSequence {
        try writingTail(to: file, { $1.write(to: &$0) }, read: Element.read(from:))
    }

    static func decode(_ decoder: inout SpillDecoder, file: SpillFile?) -> SpilledSequence {
        decode(&decoder, file: file, read: Element.read(from:))
    }

    /// Collects elements, writing them to `file` a segment at a time (nil: keeps them in memory).
    static func builder(file: SpillFile?) -> Builder {
        Builder(file: file, write: { $1.write(to: &$0) }, read: Element.read(from:))
    }

    /// The elements of `lists` (each in report order) merged into report order, as a stable sort of them all in
    /// the order given would order them (on equal keys, the first list's first), each passed through `transform`
    /// (nil: left out). When some were in the file, the merged elements go to the file too, a segment at a time,
    /// so very many are never all in memory; `failed` is told when the file cannot take them (they stay in
    /// memory).
    static func merging(
        _ lists: [SpilledSequence], file: () -> SpillFile?, failed: (TraceAnalyzeError) -> Void,
        _ transform: (Int, Element) -> Element?
    ) -> SpilledSequence {
        var builder = builder(file: lists.contains { $0.isSpilled } ? file() : nil)
        let filled = lists.indices.filter { !lists[$0].isEmpty }
        if filled.count <= 1 {
            // One lane with elements, as most processes have: nothing to merge, each passed through once.
            if let lane = filled.first {
                for element in lists[lane] {
                    if let transformed = transform(lane, element) { builder.append(transformed) }
                }
            }
            if let error = builder.error { failed(error) }
            return builder.finish()
        }
        var iterators = lists.map { $0.makeIterator() }
        var heads = iterators.indices.map { iterators[$0].next() }
        while true {
            var next: Int?
            for list in heads.indices {
                guard let head = heads[list] else { continue }
                if let best = next, let bestHead = heads[best], !(head.orderKey < bestHead.orderKey) { continue }
                next = list
            }
            guard let list = next, let element = heads[list] else { break }
            heads[list] = iterators[list].next()
            if let transformed = transform(list, element) { builder.append(transformed) }
        }
        if let error = builder.error { failed(error) }
        return builder.finish()
    }
}
