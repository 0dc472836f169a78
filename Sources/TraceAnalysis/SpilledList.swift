/// An element of a process's report that a big input writes to its ``SpillFile`` while it is read: an episode or a
/// violation.
protocol SpillElement: Sendable {
    static func read(from decoder: inout SpillDecoder) -> Self
    func write(to encoder: inout SpillEncoder)
    /// The report lists the elements sorted by this (a stable sort: equal keys in the order made).
    var orderKey: (Int, Int) { get }
}

extension Episode: SpillElement {
    static func read(from decoder: inout SpillDecoder) -> Episode { decoder.episode() }
    func write(to encoder: inout SpillEncoder) { encoder.episode(self) }
}

extension TimelineEvent: SpillElement {
    static func read(from decoder: inout SpillDecoder) -> TimelineEvent { decoder.event() }
    func write(to encoder: inout SpillEncoder) { encoder.event(self) }
    var orderKey: (Int, Int) { (0, line) }
}

extension Violation: SpillElement {
    static func read(from decoder: inout SpillDecoder) -> Violation { decoder.violation() }
    func write(to encoder: inout SpillEncoder) { encoder.violation(self) }
    var orderKey: (Int, Int) { (0, line) }
}

/// Elements in the order they are made — one lane's episodes or violations — the older ones written to the
/// input's ``SpillFile`` (a big input) and read back only as the report is written: a process of hundreds of
/// thousands keeps a few in memory (see `Documentation/Performance.md`, eighth session).
struct SpilledList<Element: SpillElement> {
    /// Those made since the last spill.
    private(set) var recent: [Element] = []
    private var file: SpillFile?
    private var segments: [SpillFile.Segment] = []
    /// How many elements the segments up to each hold.
    private var segmentEnds: [Int] = []
    /// Written elements changed since (a memory warning that a later one extended), by index.
    private var changed: [Int: Element] = [:]
    /// Whether the written elements are in report order, each segment's after the last one's.
    private var inOrder = true
    /// The ``SpillElement/orderKey`` of the last element written.
    private var lastKey: (Int, Int)?

    init() {}

    var spilledCount: Int { segmentEnds.last ?? 0 }
    var count: Int { spilledCount + recent.count }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element) { recent.append(element) }

    /// Changes the element at `index` (in the order made) with `body`; one written to the file is read back
    /// (its segment) and kept, changed, in memory.
    mutating func update(_ index: Int, _ body: (inout Element) -> Void) {
        if index >= spilledCount {
            body(&recent[index - spilledCount])
            return
        }
        var element: Element
        if let kept = changed[index] {
            element = kept
        } else {
            let segment = segmentEnds.firstIndex { $0 > index } ?? 0
            let first = segment == 0 ? 0 : segmentEnds[segment - 1]
            element = read(segments[segment])[index - first]
        }
        body(&element)
        changed[index] = element
    }

    /// Writes the elements in memory to `file` and lets them go.
    mutating func spill(to file: SpillFile) throws(TraceAnalyzeError) {
        guard !recent.isEmpty else { return }
        var encoder = SpillEncoder()
        encoder.array(recent) { $1.write(to: &$0) }
        segments.append(try file.append(encoder.bytes))
        self.file = file
        segmentEnds.append(spilledCount + recent.count)
        var last = lastKey ?? recent[0].orderKey
        for element in recent {
            let key = element.orderKey
            if key < last { inOrder = false }
            last = key
        }
        lastKey = last
        recent = []
    }

    /// Every element, in memory, in the order made (or sorted, after ``sort()``).
    var all: [Element] {
        guard spilledCount > 0 else { return recent }
        // Appended in place: a lane of many elements holds them once, not twice.
        var all: [Element] = []
        all.reserveCapacity(count)
        for segment in segments { all += read(segment) }
        for (index, element) in changed { all[index] = element }
        all += recent
        return all
    }

    /// Puts the elements in report order (by ``SpillElement/orderKey``, ties in the order made). Those written to
    /// the file stay there when they are in order already and every later one comes after them, as nearly always;
    /// otherwise all are read back and sorted.
    mutating func sort() {
        if spilledCount > 0, let last = lastKey {
            guard inOrder, recent.allSatisfy({ !($0.orderKey < last) }) else {
                self = SpilledList(recent: all)
                recent.sort { $0.orderKey < $1.orderKey }
                return
            }
        }
        recent.sort { $0.orderKey < $1.orderKey }
    }

    private init(recent: [Element]) { self.recent = recent }

    /// The elements, in the order made (report order after ``sort()``): those written to the file are read from
    /// it as they are iterated.
    var sequence: SpilledSequence<Element> {
        guard let file, !segments.isEmpty else { return SpilledSequence(recent) }
        return SpilledSequence(
            file: file, segments: segments, count: count, tail: recent, changed: changed, read: Element.read(from:))
    }

    private func read(_ segment: SpillFile.Segment) -> [Element] {
        guard let file else { preconditionFailure("segments without their file") }
        var decoder = SpillDecoder(file.read(segment))
        return decoder.array(Element.read(from:))
    }

    // MARK: Writing out a dormant incarnation

    /// Writes every field; the elements already in the file stay there: only their segments are written.
    func encode(to encoder: inout SpillEncoder) {
        encoder.array(recent) { $1.write(to: &$0) }
        encoder.array(segments) { $0.segment($1) }
        encoder.array(segmentEnds) { $0.int($1) }
        // In index order, so equal states write equal bytes.
        encoder.array(changed.sorted { $0.key < $1.key }) { encoder, entry in
            encoder.int(entry.key)
            entry.value.write(to: &encoder)
        }
        encoder.bool(inOrder)
        encoder.optional(lastKey) { encoder, key in
            encoder.int(key.0)
            encoder.int(key.1)
        }
    }

    /// The list ``encode(to:)`` wrote; its segments are in `file`.
    init(decoding decoder: inout SpillDecoder, file: SpillFile) {
        recent = decoder.array(Element.read(from:))
        segments = decoder.array { $0.segment() }
        self.file = segments.isEmpty ? nil : file
        segmentEnds = decoder.array { $0.int() }
        for (index, element) in decoder.array({ ($0.int(), Element.read(from: &$0)) }) { changed[index] = element }
        inOrder = decoder.bool()
        lastKey = decoder.optional { ($0.int(), $0.int()) }
    }
}
