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
    private var recent: [Element] = []
    private var file: SpillFile?
    private var segments: [SpillFile.Segment] = []
    /// How many elements the segments up to each hold.
    private var segmentEnds: [Int] = []
    /// Written elements changed since (a memory warning that a later one extended), by index.
    private var changed: [Int: Element] = [:]
    /// Whether the written elements are in report order, each segment's after the last one's (``sort()`` then
    /// leaves them in the file).
    private(set) var writtenInOrder = true
    /// The ``SpillElement/orderKey`` of the last element written.
    private var lastKey: (Int, Int)?
    /// Where the element the owner follows is (``watchLast()``), kept up to date as elements are written and sorted.
    private(set) var watched: Int?

    init() {}

    var spilledCount: Int { segmentEnds.last ?? 0 }
    var count: Int { spilledCount + recent.count }

    mutating func append(_ element: Element) { recent.append(element) }

    /// Follows the element appended last (the last memory warning, which a later one may extend).
    mutating func watchLast() { watched = count - 1 }

    /// Changes the element followed (``watchLast()``), if any.
    mutating func updateWatched(_ body: (inout Element) -> Void) {
        if let watched { update(watched, body) }
    }

    /// Changes the element at `index` (those written first, then those in memory) with `body`; one written to
    /// the file is read back (its segment) and kept, changed, in memory.
    private mutating func update(_ index: Int, _ body: (inout Element) -> Void) {
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

    /// Writes to `file` the elements in memory that no later one can come before in report order — those whose
    /// key is at most `frontier`, the smallest key an element made later can have (the owner knows it: the start
    /// of what is pending) — sorted, and lets them go; the others stay until a later spill or ``sort()``. So the
    /// file nearly always holds the elements in report order, and ``sort()`` has only those in memory to sort.
    mutating func spill(to file: SpillFile, frontier: (Int, Int)) throws(TraceAnalyzeError) {
        var ready: [Int] = []
        var held: [Int] = []
        for (index, element) in recent.enumerated() {
            if frontier < element.orderKey { held.append(index) } else { ready.append(index) }
        }
        guard !ready.isEmpty else { return }
        ready = Self.sorted(ready, of: recent)
        var encoder = SpillEncoder()
        encoder.array(ready) { recent[$1].write(to: &$0) }
        segments.append(try file.append(encoder.bytes))
        self.file = file
        let before = spilledCount
        segmentEnds.append(before + ready.count)
        if let watched, watched >= before {
            let position = watched - before
            if let index = ready.firstIndex(of: position) {
                self.watched = before + index
            } else if let index = held.firstIndex(of: position) {
                self.watched = before + ready.count + index
            }
        }
        var last = lastKey ?? recent[ready[0]].orderKey
        for index in ready {
            let key = recent[index].orderKey
            if key < last { writtenInOrder = false }
            last = key
        }
        lastKey = last
        recent = held.map { recent[$0] }
    }

    /// Whether `elements` are in report order already: no key smaller than the one before it.
    private static func isInOrder(_ elements: [Element]) -> Bool {
        var index = 1
        while index < elements.count {
            if elements[index].orderKey < elements[index - 1].orderKey { return false }
            index += 1
        }
        return true
    }

    /// `indices` of `elements` in report order: by key, then in the order given (a stable sort).
    private static func sorted(_ indices: [Int], of elements: [Element]) -> [Int] {
        indices.sorted { a, b in
            let (keyA, keyB) = (elements[a].orderKey, elements[b].orderKey)
            return keyA < keyB || (keyA == keyB && a < b)
        }
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
    /// the file stay there when they are in order already and every one in memory comes after them, as nearly
    /// always; otherwise all are read back and sorted.
    mutating func sort() {
        if spilledCount > 0, let last = lastKey,
            !(writtenInOrder && recent.allSatisfy({ !($0.orderKey < last) }))
        {
            let watched = self.watched
            self = SpilledList(recent: all)
            self.watched = watched
        }
        // Nearly always in order already (made line by line): then nothing moves, and no element is copied.
        if Self.isInOrder(recent) { return }
        let order = Self.sorted(Array(recent.indices), of: recent)
        if let watched, watched >= spilledCount, let index = order.firstIndex(of: watched - spilledCount) {
            self.watched = spilledCount + index
        }
        recent = order.map { recent[$0] }
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
        encoder.bool(writtenInOrder)
        encoder.optional(lastKey) { encoder, key in
            encoder.int(key.0)
            encoder.int(key.1)
        }
        encoder.optional(watched) { $0.int($1) }
    }

    /// The list ``encode(to:)`` wrote; its segments are in `file`.
    init(decoding decoder: inout SpillDecoder, file: SpillFile) {
        recent = decoder.array(Element.read(from:))
        segments = decoder.array { $0.segment() }
        self.file = segments.isEmpty ? nil : file
        segmentEnds = decoder.array { $0.int() }
        for (index, element) in decoder.array({ ($0.int(), Element.read(from: &$0)) }) { changed[index] = element }
        writtenInOrder = decoder.bool()
        lastKey = decoder.optional { ($0.int(), $0.int()) }
        watched = decoder.optional { $0.int() }
    }
}
