import NativeKit

/// Splits one physical line into a record's fields with the first format of a catalogue that matches it.
///
/// Holds one reusable ``Matcher`` per pattern and the time context of one input (the year of year-less
/// timestamps, the zone of zone-less ones), so it belongs to one input on one thread. The format and the prefixes
/// that fitted the previous line are tried first: a capture rarely changes shape, and mixed captures still parse
/// line by line. A value type: the state it keeps per line is checked for exclusive access when compiled, not on
/// every access at run time.
public struct RecordParser {
    /// Byte ranges of a parsed line (offsets into the whole line) plus the values parsed on the spot.
    ///
    /// Kept small (``ByteSpan``s, absent values as sentinels): a record's fields are made and passed on for every
    /// line.
    public struct Fields {
        public var formatIndex: Int
        public var timestamp: Timestamp?
        private var spans:
            (
                process: ByteSpan, thread: ByteSpan, subsystem: ByteSpan, category: ByteSpan, level: ByteSpan,
                timestamp: ByteSpan, pid: ByteSpan
            )
        private var messageSpan: ByteSpan
        private var pidValue = Int.min
        private var sequenceValue = Int.min

        init(formatIndex: Int, message: Range<Int>) {
            self.formatIndex = formatIndex
            self.spans = (.none, .none, .none, .none, .none, .none, .none)
            self.messageSpan = ByteSpan(message)
        }

        /// Fields to be written by ``RecordParser/parse(_:into:)``: of no format.
        public static var unset: Fields { Fields(formatIndex: -1, message: 0..<0) }

        public var process: Range<Int>? {
            get { spans.process.range }
            set { spans.process = ByteSpan(newValue) }
        }
        public var thread: Range<Int>? {
            get { spans.thread.range }
            set { spans.thread = ByteSpan(newValue) }
        }
        public var subsystem: Range<Int>? {
            get { spans.subsystem.range }
            set { spans.subsystem = ByteSpan(newValue) }
        }
        public var category: Range<Int>? {
            get { spans.category.range }
            set { spans.category = ByteSpan(newValue) }
        }
        public var level: Range<Int>? {
            get { spans.level.range }
            set { spans.level = ByteSpan(newValue) }
        }
        /// Where the timestamp and the pid's digits are in the line (the analyser's header runs read a record's
        /// header from them).
        var timestampRange: Range<Int>? {
            get { spans.timestamp.range }
            set { spans.timestamp = ByteSpan(newValue) }
        }
        var pidRange: Range<Int>? {
            get { spans.pid.range }
            set { spans.pid = ByteSpan(newValue) }
        }
        public var message: Range<Int> {
            get { messageSpan.range ?? 0..<0 }
            set { messageSpan = ByteSpan(newValue) }
        }
        public var pid: Int? {
            get { pidValue == .min ? nil : pidValue }
            set { pidValue = newValue ?? .min }
        }
        public var sequence: Int? {
            get { sequenceValue == .min ? nil : sequenceValue }
            set { sequenceValue = newValue ?? .min }
        }
    }

    /// The same fields as strings, for samples, tests and cold paths.
    public struct TextFields: Equatable {
        public var format: String
        /// Ids of the prefixes stripped before the format matched.
        public var prefixes: [String]
        public var timestamp: Timestamp?
        public var process: String?
        public var pid: Int?
        public var thread: String?
        public var subsystem: String?
        public var category: String?
        public var level: String?
        public var message: String
    }

    public let catalog: FormatCatalog
    private let matchers: LazyMatchers
    private let prefixMatchers: LazyMatchers
    /// The repeat lines' matchers, in order, then the furniture's (``furnitureIndex``): asked of every line that is
    /// no record, borrowed (no reference counted per line).
    private let contentMatchers: LazyMatchers
    private let repeatCount: Int
    private let furnitureIndex: Int?
    /// Indices of the formats tried on every line, and the one tried first (the last that matched).
    private let recordFormats: [Int]
    private var preferred: Int
    /// The prefixes stripped from the last record (tried first on the next line).
    public private(set) var prefixChain: [Int] = []
    /// Whether every prefix of ``prefixChain`` is a marker (none is the indentation): then the content of a line
    /// parsed with it begins where its record does (``parsedContentOffset(_:)``).
    private var chainIsMarkers = true
    /// Whether ``prefixChain`` is a CI runner's timestamp alone (``MeasuredPrefix/ciTimestamp``).
    private var chainIsCITimestamp = false
    /// The prefix of ``prefixChain`` when it is one marker alone (whose measure is then a line's content offset),
    /// else -1.
    private var chainMarker = -1
    /// Where the last format tried matched, or was tried: that of the record, once a parse has found one.
    private var parsedOffset = 0
    private var searchChain: [Int] = []
    /// What the parser looks up per format: the catalogue's (``FormatCatalog/tables``).
    private let tables: Tables

    /// What a parser looks up per format, made once per catalogue (``FormatCatalog/tables``) rather than by each
    /// input's parser: a batch makes a parser per input, and copying each format's compiled form out of the
    /// catalogue counted references to objects both jobs' threads share.
    struct Tables: Sendable {
        /// Per format: whether its message is JSON-encoded (looked up per line, so kept flat).
        let jsonMessages: [Bool]
        /// Per format: its capture groups and timestamp layout, plain values (no reference counting per line).
        let groups: [Groups]
        /// Per format: the NSLog shape its pattern has, when ``NSLogHeader`` may read its lines instead of PCRE2.
        let nslogShapes: [NSLogHeader.Shape?]
        /// The format a line ``NSLogHeader`` reads as modern (classic) is a record of: the first record format of
        /// that shape when only NSLog formats come before it in the catalogue (so trying them in order gives it),
        /// else -1.
        let nslogModern: Int
        let nslogClassic: Int
        /// Per format: whether it reads an NSLog header's timestamp as ``TimestampLayout/isoLike`` does: the
        /// seconds from its first 19 bytes, the microseconds from its fraction's first six digits, the zone from
        /// what follows.
        let isoLike: [Bool]
        /// Per format: whether lines that follow a record of it are read raw (``LogFormat/rawContinuations``).
        let rawContinuations: [Bool]
        /// Per format: whether its message runs from its group's start to the line's end
        /// (``FormatCatalog/Compiled/messageToEnd``).
        let messageToEnd: [Bool]
        /// Per format: the style its pattern has (a `log` tool style, ndjson included, the device syslog or BSD
        /// syslog), when ``LogStyleHeader`` reads its lines instead of PCRE2.
        let logStyles: [LogStyleHeader.Style?]
        /// Per format and per prefix: what a line must have for its pattern to match there (``Regex/Prefilter``),
        /// checked before the matcher or the style's reader is reached: most lines are no record of most formats.
        let formatFilters: [Regex.Prefilter]
        let prefixFilters: PrefixFilters
        /// Per byte: the record formats (bit `f` for format `f`) and the prefixes (bit `p` for prefix `p`) whose
        /// prefilters let a match begin with it, so that a search tries only those; empty when the catalogue has
        /// more than 64 formats or prefixes (then each is tried, and refused by its prefilter).
        let formatsBeginning: [UInt64]
        let prefixesBeginning: [UInt64]
        /// The bits of the NSLog formats in ``formatsBeginning``.
        let nslogFormats: UInt64
        /// Positions of a line after the first byte of a match that keep formats, and prefixes, out before their
        /// prefilters are asked one by one (``formats(_:at:)``, ``prefixes(_:at:knowing:)``). Empty with
        /// ``formatsBeginning``.
        let formatPositions: PositionTables
        let prefixPositions: PositionTables
        /// Whether every format's and prefix's pattern is a built-in one (in any order, some left out): then a line
        /// that begins with a CI runner's timestamp followed by an NSLog header is a record of the catalogue's first
        /// format of its shape behind that prefix alone, whichever format the line before was of. At the line's start
        /// no format matches (the untimed NSLog format refuses a date followed by `T`), and the only prefix that does
        /// besides the timestamp, `grep -n`'s (`2024-05-01T10:00:`, tried after it in the built-in order), leaves
        /// `00.1234567Z …`, where an NSLog header's colons keep every format from matching.
        let onlyBuiltInPatterns: Bool
        /// Whether a line is asked ``HeaderRun/builtInRefuses(_:)`` before the walk of ``refuses(_:contentOffset:)``:
        /// with ``onlyBuiltInPatterns``, where the processor reads it with vectors
        /// (``HeaderRun/builtInRefusalIsQuick``).
        let quickRefusal: Bool

        init(_ formats: [FormatCatalog.Compiled], prefixes: [FormatCatalog.CompiledPrefix], recordFormats: [Int]) {
            jsonMessages = formats.map { $0.format.encoding == .json }
            groups = formats.map(Groups.init)
            let shapes = formats.map { NSLogHeader.shape(ofPattern: $0.format.pattern) }
            func first(_ shape: NSLogHeader.Shape) -> Int {
                for index in recordFormats {
                    guard let other = shapes[index] else { return -1 }
                    if other == shape { return index }
                }
                return -1
            }
            nslogShapes = shapes
            nslogModern = first(.modern)
            nslogClassic = first(.classic)
            isoLike = groups.map { group in
                switch group.layout {
                case .isoLike, .timeOfDay: return true  // a time of day after a date is read as iso-like
                case .syslog, nil: return false
                }
            }
            rawContinuations = formats.map(\.format.rawContinuations)
            messageToEnd = formats.map(\.messageToEnd)
            logStyles = formats.map { LogStyleHeader.style(ofPattern: $0.format.pattern) }
            formatFilters = formats.map(\.regex.prefilter)
            prefixFilters = PrefixFilters(prefixes)
            let builtInFormats = Set(LogFormat.builtin.map(\.pattern))
            let builtInPrefixes = Set(LinePrefix.builtin.map(\.pattern))
            onlyBuiltInPatterns =
                formats.allSatisfy { builtInFormats.contains($0.format.pattern) }
                && prefixes.allSatisfy { builtInPrefixes.contains($0.prefix.pattern) }
            quickRefusal = onlyBuiltInPatterns && HeaderRun.builtInRefusalIsQuick
            if formats.count <= 64, prefixes.count <= 64 {
                func beginning(_ indices: [Int], _ filters: [Regex.Prefilter]) -> [UInt64] {
                    (0...255).map { byte in
                        indices.reduce(0) { bits, index in
                            filters[index].mayBegin(with: UInt8(byte)) ? bits | 1 << UInt64(index) : bits
                        }
                    }
                }
                formatsBeginning = beginning(recordFormats, formatFilters)
                prefixesBeginning = beginning(Array(prefixes.indices), prefixFilters.prefilters)
                nslogFormats = recordFormats.reduce(0) { shapes[$1] != nil ? $0 | 1 << UInt64($1) : $0 }
                formatPositions = PositionTables(recordFormats, formatFilters)
                prefixPositions = PositionTables(Array(prefixes.indices), prefixFilters.prefilters)
            } else {
                (formatsBeginning, prefixesBeginning, nslogFormats) = ([], [], 0)
                (formatPositions, prefixPositions) = (.none, .none)
            }
        }

        /// The record formats that may begin at `offset` (< the line's length) of `line` as its byte there and the
        /// bytes at ``formatPositions`` after it allow (bits as in ``formatsBeginning``): no format a prefilter would
        /// refuse for those bytes, and the same formats otherwise (each is still asked whole). Call only with
        /// ``formatsBeginning`` made.
        @inline(__always)
        func formats(_ line: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
            formatPositions.narrow(formatsBeginning[Int(line[offset])], line, at: offset)
        }

        /// ``formats(_:at:)`` for the prefixes (bits as in ``prefixesBeginning``): a CI runner's timestamp is kept
        /// out where a line's bytes cannot be its date, as behind `grep -n`'s reading of a timestamp's date and hour.
        /// The prefixes of `known` (bits) that may begin there are kept without a look-up (their measure is known).
        @inline(__always)
        func prefixes(_ line: UnsafeRawBufferPointer, at offset: Int, knowing known: UInt64 = 0) -> UInt64 {
            let beginning = prefixesBeginning[Int(line[offset])]
            return prefixPositions.narrow(beginning & ~known, line, at: offset) | beginning & known
        }
    }

    struct Groups: Sendable {
        var timestamp, process, pid, thread, subsystem, category, level, sequence: Int?
        var message: Int
        var layout: TimestampLayout?

        init(_ compiled: FormatCatalog.Compiled) {
            timestamp = compiled.timestampGroup
            process = compiled.processGroup
            pid = compiled.pidGroup
            thread = compiled.threadGroup
            subsystem = compiled.subsystemGroup
            category = compiled.categoryGroup
            level = compiled.levelGroup
            sequence = compiled.sequenceGroup
            message = compiled.messageGroup
            layout = compiled.format.timestamp
        }
    }
    /// The missing years and dates of timestamps, followed across the input.
    public private(set) var dates: DateInference
    private var zone: ZoneResolver?
    /// Whether a zone-less timestamp was read (the zone was assumed).
    public private(set) var assumedZone = false
    private var seconds = TimestampLayout.SecondCache()

    /// How many prefixes may be stacked on one line (`12:> ␣␣2013-…` is three).
    static let maxPrefixDepth = 4

    /// `failureLog` records the lines a format's pattern gave up on (a PCRE2 limit hit).
    public init(
        catalog: FormatCatalog, dates: DateInference, zone: ZoneSetting?, failureLog: MatchFailureLog? = nil
    ) {
        self.catalog = catalog
        self.matchers = LazyMatchers(catalog.formats.map(\.regex), failureLog: failureLog) {
            "format \(catalog.formats[$0].format.id)"
        }
        self.prefixMatchers = LazyMatchers(catalog.prefixes.map(\.regex), failureLog: failureLog) {
            "prefix \(catalog.prefixes[$0].prefix.id)"
        }
        let repeatCount = catalog.repeats.count
        self.contentMatchers = LazyMatchers(
            catalog.repeats.map(\.regex) + (catalog.furniture.map { [$0] } ?? []),
            failureLog: failureLog
        ) { $0 < repeatCount ? "a format's repeat pattern" : "the formats' furniture patterns" }
        self.repeatCount = repeatCount
        self.furnitureIndex = catalog.furniture != nil ? repeatCount : nil
        self.tables = catalog.tables
        self.recordFormats = catalog.recordFormats
        self.preferred = catalog.recordFormats.first ?? -1
        self.dates = dates
        self.zone = zone.map(ZoneResolver.init)
    }

    /// The NSLog shape of the last record's format when it had no prefixes: the next line is most likely a
    /// record of an NSLog format, which ``NSLogHeader`` reads (see ``quickFields(_:format:in:)``). Nil otherwise.
    @inline(__always)
    var quickShape: NSLogHeader.Shape? { preferred >= 0 && prefixChain.isEmpty ? tables.nslogShapes[preferred] : nil }

    /// Whether the last record was of an NSLog format behind a CI runner's timestamp alone (the built-in
    /// ``LinePrefix/ciTimestamp``): the next line is most likely such a record too
    /// (``quickPrefixedFormat(_:likeLast:)``).
    @inline(__always)
    var isQuickPrefixed: Bool { chainIsCITimestamp && tables.nslogShapes[preferred] != nil }

    /// The format of a line that begins with a CI runner's timestamp (``HeaderRun/ciTimestampLength(_:)``) followed
    /// by a header ``NSLogHeader`` reads in shape `shape`, after a record ``isQuickPrefixed`` says is such a line:
    /// what ``parse(_:into:)`` would choose, its chain unchanged, made the format of the last record as it makes it,
    /// or (`likeLast`) what ``parseLikeLast(_:into:)`` would. The shape of the last record's format is that format
    /// (tried first, behind the same prefix); the other is the catalogue's first format of that shape only where
    /// ``Tables/onlyBuiltInPatterns``, else nil (the line is then read the general way).
    @inline(__always)
    mutating func quickPrefixedFormat(_ shape: NSLogHeader.Shape, likeLast: Bool) -> Int? {
        if shape == tables.nslogShapes[preferred] { return preferred }
        guard !likeLast, tables.onlyBuiltInPatterns else { return nil }
        let index = shape == .modern ? tables.nslogModern : tables.nslogClassic
        guard index >= 0 else { return nil }
        preferred = index
        return index
    }

    /// The format the next line is tried with first behind a CI runner's timestamp, when that was the last record's
    /// only prefix (the built-in ``LinePrefix/ciTimestamp``; nil otherwise): a line with that prefix (measured by
    /// ``HeaderRun/ciTimestampLength(_:)``) followed by what that format's pattern matches is a record of it,
    /// whatever the other formats (``parseLikeLast(_:into:)``).
    @inline(__always)
    var formatTriedFirstBehindCITimestamp: Int? { chainIsCITimestamp ? preferred : nil }

    /// The format the next line is tried with first, at its start, when the last record had no prefixes (nil
    /// otherwise): a line that format's pattern matches is a record of it, whatever the other formats.
    @inline(__always)
    var formatTriedFirst: Int? { preferred >= 0 && prefixChain.isEmpty ? preferred : nil }

    /// The format of a line ``NSLogHeader`` read as `header`, when the quick path may take it (``quickShape`` is
    /// not nil): what ``parse(_:header:)`` would choose, made the format of the last record as it makes it, or
    /// (`likeLast`) what ``parseLikeLast(_:header:)`` would. Nil where those take another way or none.
    @inline(__always)
    mutating func quickFormat(_ header: NSLogHeader.Match, likeLast: Bool) -> Int? {
        if likeLast { return header.shape == tables.nslogShapes[preferred] ? preferred : nil }
        let index = header.shape == .modern ? tables.nslogModern : tables.nslogClassic
        guard index >= 0 else { return nil }
        preferred = index
        return index
    }

    /// Makes NSLog format `format` the last record's, its prefixes unchanged: what ``quickFormat(_:likeLast:)`` or
    /// ``quickPrefixedFormat(_:likeLast:)`` made it for the last of a run's records, which the runs do not tell
    /// the parser of (the line after a run is read with its own shape's format, but for one inside a dump that
    /// record opened, ``parseLikeLast(_:into:)``).
    @inline(__always)
    mutating func takeQuickFormat(_ format: Int) { preferred = format }

    /// The fields of `line`, or nil when no record format matches it, with or without known prefixes.
    @inline(__always)
    public mutating func parse(_ line: UnsafeRawBufferPointer) -> Fields? {
        var fields = Fields.unset
        return parse(line, into: &fields) ? fields : nil
    }

    /// ``parse(_:)`` writing the fields into `fields` (whose old value is overwritten when it returns true, and
    /// may be when it returns false): the per-line path, where a returned value would be copied from step to step.
    @inline(__always)
    public mutating func parse(_ line: UnsafeRawBufferPointer, into fields: inout Fields) -> Bool {
        guard preferred >= 0 else { return false }
        let header = quickShape != nil ? NSLogHeader.match(line) : nil
        return parse(line, header: header, into: &fields)
    }

    /// ``parse(_:into:)`` where ``quickShape`` is not nil and `header` is already `NSLogHeader.match(line)`.
    @inline(__always)
    mutating func parse(_ line: UnsafeRawBufferPointer, header: NSLogHeader.Match?, into fields: inout Fields) -> Bool {
        guard preferred >= 0 else { return false }
        var nslog = false
        if quickShape != nil {
            // The last record was NSLog: read this line as NSLog first, without PCRE2.
            if let match = header {
                let index = match.shape == .modern ? tables.nslogModern : tables.nslogClassic
                if index >= 0 {
                    preferred = index
                    fill(&fields, of: match, format: index, in: line)
                    return true
                }
            } else {
                nslog = true  // no NSLog pattern matches: neither the preferred format nor any NSLog one is tried
            }
        }
        if !nslog, parseLikeLast(line, into: &fields) { return true }
        searchChain.removeAll(keepingCapacity: true)
        guard searchWhole(line, skippingNSLog: nslog, into: &fields) else { return false }
        prefixChain = searchChain
        chainIsMarkers = searchChain.allSatisfy { tables.prefixFilters.markers[$0] }
        chainIsCITimestamp = searchChain.count == 1 && tables.prefixFilters.measured[searchChain[0]] == .ciTimestamp
        chainMarker = searchChain.count == 1 && tables.prefixFilters.markers[searchChain[0]] ? searchChain[0] : -1
        return true
    }

    /// The fields of `line` when the format and prefixes of the last record fit it; nothing else is tried (for
    /// lines inside an open NSDictionary dump, which are continuations unless their own record resumes).
    @inline(__always)
    public mutating func parseLikeLast(_ line: UnsafeRawBufferPointer) -> Fields? {
        var fields = Fields.unset
        return parseLikeLast(line, into: &fields) ? fields : nil
    }

    /// ``parseLikeLast(_:)`` writing the fields into `fields`, as ``parse(_:into:)`` does.
    @inline(__always)
    public mutating func parseLikeLast(_ line: UnsafeRawBufferPointer, into fields: inout Fields) -> Bool {
        guard preferred >= 0 else { return false }
        if quickShape != nil {
            return parseLikeLast(line, header: NSLogHeader.match(line), into: &fields)
        }
        guard let offset = Self.strip(prefixChain, line, filters: tables.prefixFilters, matchers: prefixMatchers)
        else { return false }
        return parse(line, from: offset, with: preferred, into: &fields)
    }

    /// ``parseLikeLast(_:into:)`` where ``quickShape`` is not nil and `header` is already
    /// `NSLogHeader.match(line)`.
    @inline(__always)
    mutating func parseLikeLast(_ line: UnsafeRawBufferPointer, header: NSLogHeader.Match?, into fields: inout Fields)
        -> Bool
    {
        guard let match = header, match.shape == quickShape else { return false }
        fill(&fields, of: match, format: preferred, in: line)
        return true
    }

    /// What a record of NSLog format `format` (``quickFormat(_:likeLast:)``) needs beyond `header`, read from
    /// `line` exactly as ``parse(_:)`` reads it, without making ``Fields``: the per-line path of NSLog captures.
    @inline(__always)
    mutating func quickFields(_ header: NSLogHeader.Match, format: Int, in line: UnsafeRawBufferPointer) -> (
        timestamp: Timestamp?, process: Range<Int>, pid: Int?
    ) {
        (
            quickTimestamp(header, format: format, in: line), Bytes.trimmingSpaces(header.process, in: line),
            Self.digits(header.pid, in: line)
        )
    }

    /// The timestamp of a record of NSLog format `format` (for a line whose process and pid are known, alone).
    @inline(__always)
    mutating func quickTimestamp(_ header: NSLogHeader.Match, format: Int, in line: UnsafeRawBufferPointer)
        -> Timestamp?
    {
        timestamp(format: format, header.timestamp, in: line)
    }

    /// The fields of a line ``NSLogHeader`` read as a record of format `index`.
    private mutating func fill(
        _ fields: inout Fields, of match: NSLogHeader.Match, format index: Int, in line: UnsafeRawBufferPointer
    ) {
        fill(
            &fields, format: index, in: line, timestamp: match.timestamp, process: match.process, pid: match.pid,
            thread: match.thread, subsystem: nil, category: nil, level: nil, message: match.message, sequence: nil)
    }

    /// Whether a line that begins with a CI runner's timestamp is read behind it alone: where the last record was
    /// behind that timestamp alone and the catalogue has only built-in patterns (``Tables/onlyBuiltInPatterns``),
    /// every other path through such a line finds no record, whatever follows the timestamp. At the line's start no
    /// format matches (a date is followed by `T`; the Console.app format needs a time or a level that begins with no
    /// digit; the others begin with no digit), and the only prefix besides the timestamp that matches there,
    /// `grep -n`'s, takes the date and hour and the minutes (`2024-05-01T10:00:`), which leaves the seconds, then `Z`
    /// or a fraction and `Z`: no format begins with two digits and a `Z` or `.`, nor a prefix (`grep -n`'s needs a
    /// colon or `-` after them). Half of a CI log is often printed lines behind the timestamp (a build's output), and
    /// the paths before it took two thirds of their walk (``refuses(_:contentOffset:)``,
    /// ``searchWhole(_:skippingNSLog:into:)``).
    private var readsBehindCITimestampAlone: Bool { chainIsCITimestamp && tables.onlyBuiltInPatterns }

    /// ``search(_:from:depth:skippingNSLog:into:)`` from the line's start; behind a CI runner's timestamp alone where
    /// ``readsBehindCITimestampAlone``, searched there as the whole search searches it (the same depth, the timestamp
    /// in the chain).
    @inline(__always)
    private mutating func searchWhole(
        _ line: UnsafeRawBufferPointer, skippingNSLog: Bool, into fields: inout Fields
    ) -> Bool {
        if readsBehindCITimestampAlone, let marker = prefixChain.first,
            let length = tables.prefixFilters.measured[marker]?.length(line, from: 0)
        {
            searchChain.append(marker)
            if search(line, from: length, depth: 1, into: &fields) { return true }
            searchChain.removeLast()
            return false
        }
        return search(line, from: 0, depth: 0, skippingNSLog: skippingNSLog, into: &fields)
    }

    /// Tries every format at `offset`, then every prefix that matches there followed by the formats.
    /// `skippingNSLog`: the NSLog formats are known not to match the line (at offset 0).
    private mutating func search(
        _ line: UnsafeRawBufferPointer, from offset: Int, depth: Int, skippingNSLog: Bool = false,
        into fields: inout Fields
    ) -> Bool {
        if offset < line.count, !tables.formatsBeginning.isEmpty {
            // Only the formats and prefixes that may begin with the byte there, in the catalogue's order.
            var formats = tables.formats(line, at: offset)
            if depth == 0, prefixChain.isEmpty, preferred >= 0 { formats &= ~(1 << UInt64(preferred)) }
            if depth == 0, skippingNSLog { formats &= ~tables.nslogFormats }
            while formats != 0 {
                let index = formats.trailingZeroBitCount
                formats &= formats &- 1
                if parse(line, from: offset, with: index, into: &fields) {
                    preferred = index
                    return true
                }
            }
            guard depth < Self.maxPrefixDepth else { return false }
            var prefixes = tables.prefixes(line, at: offset)
            while prefixes != 0 {
                let index = prefixes.trailingZeroBitCount
                prefixes &= prefixes &- 1
                if searchBehind(prefix: index, line, from: offset, depth: depth, into: &fields) { return true }
            }
            return false
        }
        for index in recordFormats {
            if depth == 0, index == preferred, prefixChain.isEmpty { continue }
            if depth == 0, skippingNSLog, tables.nslogShapes[index] != nil { continue }
            if parse(line, from: offset, with: index, into: &fields) {
                preferred = index
                return true
            }
        }
        guard depth < Self.maxPrefixDepth else { return false }
        for index in prefixMatchers.indices
        where searchBehind(prefix: index, line, from: offset, depth: depth, into: &fields) {
            return true
        }
        return false
    }

    /// Whether no record format matches `line` at its start, nor behind any prefixes that match there: then
    /// ``parse(_:into:)`` finds no record in it, whatever the last record was. The tree a search walks is walked
    /// whole: at each offset, each format and prefix that may begin with the byte there is asked as a search asks it
    /// (its prefilter, then its reader or its matcher, in the catalogue's order), and behind each prefix that
    /// matches, the same up to ``maxPrefixDepth`` prefixes; nothing is changed. False for a catalogue of more than
    /// 64 formats or prefixes (no per-byte tables), and where prefixes leave nothing of the line.
    func refuses(_ line: UnsafeRawBufferPointer) -> Bool {
        guard !tables.formatsBeginning.isEmpty else { return false }
        var parser = self
        return parser.refuses(line, from: 0, depth: 0, known: -1, knownLength: 0)
    }

    /// ``refuses(_:)`` for a line whose ``contentOffset(_:)`` was just taken: behind a chain of one marker prefix (a
    /// CI runner's timestamp), that prefix's measure at the line's start is known (`contentOffset`, 0 where it does
    /// not match) and not taken again. Mutating, though it changes nothing, as the walk is: a method that is not
    /// is handed a copy of the whole parser (800 bytes), made for every line of no format.
    /// Where ``readsBehindCITimestampAlone``, only what follows the timestamp is walked.
    mutating func refuses(_ line: UnsafeRawBufferPointer, contentOffset: Int) -> Bool {
        guard !tables.formatsBeginning.isEmpty else { return false }
        // With the built-in patterns alone, most lines of no format (a `print`'s, a build's) fail a test every
        // pattern needs at their start, told in C without the walk (``Tables/quickRefusal``).
        if contentOffset > 0, readsBehindCITimestampAlone {
            if tables.quickRefusal, HeaderRun.builtInRefuses(UnsafeRawBufferPointer(rebasing: line[contentOffset...])) {
                return true
            }
            return refuses(line, from: contentOffset, depth: 1, known: -1, knownLength: 0)
        }
        if tables.quickRefusal, HeaderRun.builtInRefuses(line) { return true }
        return refuses(line, from: 0, depth: 0, known: chainMarker, knownLength: contentOffset)
    }

    /// `known`: a prefix whose measure at `offset` is `knownLength` (nil where 0), or -1.
    private mutating func refuses(
        _ line: UnsafeRawBufferPointer, from offset: Int, depth: Int, known: Int, knownLength: Int
    ) -> Bool {
        guard offset < line.count else { return false }
        var formats = tables.formats(line, at: offset)
        while formats != 0 {
            let index = formats.trailingZeroBitCount
            formats &= formats &- 1
            if mayMatch(line, from: offset, with: index) { return false }
        }
        guard depth < Self.maxPrefixDepth else { return true }
        // The known prefix is not looked up: its measure is.
        let knownBit: UInt64 = known >= 0 ? 1 << UInt64(known) : 0
        var prefixes = tables.prefixes(line, at: offset, knowing: knownBit)
        while prefixes != 0 {
            let index = prefixes.trailingZeroBitCount
            prefixes &= prefixes &- 1
            let length =
                index == known
                ? knownLength > 0 ? knownLength : nil
                : Self.prefixLength(index, line, from: offset, filters: tables.prefixFilters, matchers: prefixMatchers)
            if let length, !refuses(line, from: offset &+ length, depth: depth &+ 1, known: -1, knownLength: 0) {
                return false
            }
        }
        return true
    }

    /// Whether format `index` may read `line` as a record from `offset`, as ``parse(_:from:with:into:)`` tries it (a
    /// match of its pattern whose message group is unset reads as none there: counted here as a record).
    @inline(__always)
    private func mayMatch(_ line: UnsafeRawBufferPointer, from offset: Int, with index: Int) -> Bool {
        guard Self.admits(tables.formatFilters[index], line, from: offset) else { return false }
        let rest = offset == 0 ? line : UnsafeRawBufferPointer(rebasing: line[offset...])
        if let shape = tables.nslogShapes[index] { return NSLogHeader.match(rest)?.shape == shape }
        if let style = tables.logStyles[index] { return LogStyleHeader.match(rest, style) != nil }
        return matchers.with(index) { (try? $0.matches(admitted: rest)) == true }
    }

    /// Whether prefix `index` matches at `offset` and a search behind it finds a record.
    @inline(__always)
    private mutating func searchBehind(
        prefix index: Int, _ line: UnsafeRawBufferPointer, from offset: Int, depth: Int, into fields: inout Fields
    ) -> Bool {
        guard
            let length = Self.prefixLength(
                index, line, from: offset, filters: tables.prefixFilters, matchers: prefixMatchers)
        else { return false }
        searchChain.append(index)
        if search(line, from: offset + length, depth: depth + 1, into: &fields) { return true }
        searchChain.removeLast()
        return false
    }

    /// The bytes prefix `index` covers at `offset`, or nil when it does not match there (or matches nothing).
    /// Static, and handed only what it reads, as ``markerPrefixesLength(_:chain:filters:matchers:)`` is: a
    /// method called from a mutating one was handed a copy of the whole parser (584 bytes) for every prefix tried.
    @inline(__always)
    private static func prefixLength(
        _ index: Int, _ line: UnsafeRawBufferPointer, from offset: Int, filters: PrefixFilters,
        matchers: LazyMatchers
    ) -> Int? {
        // A measured prefix says exactly where PCRE2 would match: its prefilter would only ask again.
        if let measured = filters.measured[index] { return measured.length(line, from: offset) }
        guard admits(filters.prefilters[index], line, from: offset) else { return nil }
        return matchers.with(index) { prefixLength($0, line, from: offset) }
    }

    /// Whether `filter` lets a match begin at `offset` of `line` (an empty line's base may be nil: the matcher
    /// takes it).
    @inline(__always)
    private static func admits(_ filter: Regex.Prefilter, _ line: UnsafeRawBufferPointer, from offset: Int) -> Bool {
        guard let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        return filter.admits(base, count: line.count, from: offset)
    }

    /// The bytes `matcher` (a prefix's) covers at `offset`, its prefilter already asked there.
    @inline(__always)
    private static func prefixLength(_ matcher: Matcher, _ line: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        guard offset < line.count,
            (try? matcher.matches(admitted: UnsafeRawBufferPointer(rebasing: line[offset...]))) == true,
            let range = matcher.range(0), range.upperBound > 0
        else { return nil }
        return range.upperBound
    }

    /// The offset after the prefixes of `chain`, or nil when one does not match.
    @inline(__always)
    private static func strip(
        _ chain: [Int], _ line: UnsafeRawBufferPointer, filters: PrefixFilters, matchers: LazyMatchers
    ) -> Int? {
        if chain.isEmpty { return 0 }
        var offset = 0
        for index in chain {
            guard let length = prefixLength(index, line, from: offset, filters: filters, matchers: matchers)
            else { return nil }
            offset += length
        }
        return offset
    }

    /// Where the content of a line that is not a record starts: after the marker prefixes (line numbers,
    /// quoting, wrapper timestamps) the last record carried, so continuation lines can be measured and read.
    @inline(__always)
    public func contentOffset(_ line: UnsafeRawBufferPointer) -> Int {
        if prefixChain.isEmpty { return 0 }
        // One measured marker (every line of a CI log behind its timestamp, of `grep -n` output): measured, with no
        // walk of the chain.
        if chainMarker >= 0, let measured = tables.prefixFilters.measured[chainMarker] {
            return measured.length(line, from: 0) ?? 0
        }
        return Self.markerPrefixesLength(
            line, chain: prefixChain, filters: tables.prefixFilters, matchers: prefixMatchers)
    }

    /// ``contentOffset(_:)`` of the line the last parse found a record in, right after it: where its format matched,
    /// when the chain holds only markers (the strip matched the same prefixes from the same offsets), without matching
    /// them again.
    @inline(__always)
    public func parsedContentOffset(_ line: UnsafeRawBufferPointer) -> Int {
        prefixChain.isEmpty ? 0 : chainIsMarkers ? parsedOffset : contentOffset(line)
    }

    /// Static, and handed only what it reads: a method would be handed the whole parser, which the per-line path
    /// then copies (hundreds of bytes) for every line, prefixes or not.
    private static func markerPrefixesLength(
        _ line: UnsafeRawBufferPointer, chain: [Int], filters: PrefixFilters, matchers: LazyMatchers
    ) -> Int {
        var offset = 0
        for index in chain where filters.markers[index] {
            guard let length = prefixLength(index, line, from: offset, filters: filters, matchers: matchers)
            else { break }
            offset += length
        }
        return offset
    }

    @inline(__always)
    private mutating func parse(
        _ line: UnsafeRawBufferPointer, from offset: Int, with index: Int, into fields: inout Fields
    ) -> Bool {
        parsedOffset = offset
        guard Self.admits(tables.formatFilters[index], line, from: offset) else { return false }
        let rest = offset == 0 ? line : UnsafeRawBufferPointer(rebasing: line[offset...])
        @inline(__always) func shift(_ range: Range<Int>) -> Range<Int> {
            offset == 0 ? range : (range.lowerBound &+ offset)..<(range.upperBound &+ offset)
        }
        if let shape = tables.nslogShapes[index] {
            // An NSLog format behind a prefix (`2024-05-01T10:00:00Z `, `12:`, `> `): read as the quick path reads
            // an unprefixed line, without PCRE2 (`NSLogHeader` gives exactly the NSLog patterns' matches).
            guard let match = NSLogHeader.match(rest), match.shape == shape else { return false }
            fill(
                &fields, format: index, in: line, timestamp: shift(match.timestamp), process: shift(match.process),
                pid: shift(match.pid), thread: shift(match.thread), subsystem: nil, category: nil, level: nil,
                message: shift(match.message), sequence: nil)
            return true
        }
        if let style = tables.logStyles[index] {
            guard let match = LogStyleHeader.match(rest, style) else { return false }
            fill(
                &fields, format: index, in: line, timestamp: shift(match.timestamp), process: match.process.map(shift),
                pid: match.pid.map(shift), thread: match.thread.map(shift), subsystem: match.subsystem.map(shift),
                category: match.category.map(shift), level: match.level.map(shift), message: shift(match.message),
                sequence: match.sequence.map(shift))
            return true
        }
        let compiled = tables.groups[index]
        // The groups are read while the matcher is borrowed: no reference counted per line.
        guard
            let ranges = matchers.with(
                index,
                { matcher -> GroupRanges? in
                    guard (try? matcher.matches(admitted: rest)) == true else { return nil }
                    return GroupRanges(compiled, of: matcher, offset: offset)
                }), var message = ranges.message
        else { return false }
        if tables.messageToEnd[index] { message = message.lowerBound..<line.count }
        fill(
            &fields, format: index, in: line, timestamp: ranges.timestamp, process: ranges.process, pid: ranges.pid,
            thread: ranges.thread, subsystem: ranges.subsystem, category: ranges.category, level: ranges.level,
            message: message, sequence: ranges.sequence)
        return true
    }

    /// Where a match put a format's groups, in the whole line.
    private struct GroupRanges {
        var timestamp, process, pid, thread, subsystem, category, level, sequence, message: Range<Int>?

        /// The groups of `compiled` in `matcher`'s last match, of a line's bytes from `offset`.
        @inline(__always)
        init(_ compiled: Groups, of matcher: Matcher, offset: Int) {
            func range(_ group: Int?) -> Range<Int>? {
                guard let group, let range = matcher.range(group) else { return nil }
                return (range.lowerBound &+ offset)..<(range.upperBound &+ offset)
            }
            timestamp = range(compiled.timestamp)
            process = range(compiled.process)
            pid = range(compiled.pid)
            thread = range(compiled.thread)
            subsystem = range(compiled.subsystem)
            category = range(compiled.category)
            level = range(compiled.level)
            sequence = range(compiled.sequence)
            message = range(compiled.message)
        }
    }

    /// Sets `fields` to those of a record of format `index` whose groups are at these ranges of `line`.
    @inline(__always)
    private mutating func fill(
        _ fields: inout Fields, format index: Int, in line: UnsafeRawBufferPointer, timestamp: Range<Int>?,
        process: Range<Int>?, pid: Range<Int>?, thread: Range<Int>?, subsystem: Range<Int>?, category: Range<Int>?,
        level: Range<Int>?, message: Range<Int>, sequence: Range<Int>?
    ) {
        fields = Fields(formatIndex: index, message: message)
        fields.timestampRange = timestamp
        fields.pidRange = pid
        fields.thread = thread
        fields.subsystem = subsystem
        fields.category = category
        fields.level = level
        if let range = timestamp { fields.timestamp = self.timestamp(format: index, range, in: line) }
        if let range = process { fields.process = Bytes.trimmingSpaces(range, in: line) }
        if let range = pid { fields.pid = Bytes.decimal(UnsafeRawBufferPointer(rebasing: line[range])) }
        if let range = sequence { fields.sequence = Bytes.decimal(UnsafeRawBufferPointer(rebasing: line[range])) }
    }

    /// The value of the digits at `range` of `line` (``NSLogHeader`` checked that they are digits): up to seven,
    /// where eight bytes can be read from the first, converted at once.
    @inline(__always)
    private static func digits(_ range: Range<Int>, in line: UnsafeRawBufferPointer) -> Int? {
        guard range.count <= 7, range.lowerBound + 8 <= line.count, let base = line.baseAddress else {
            return Bytes.decimal(UnsafeRawBufferPointer(rebasing: line[range]))
        }
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
        return range.isEmpty ? nil : Int(TimestampLayout.decimal(digits: word, count: range.count))
    }

    /// The timestamp a record of format `index` writes at `range` of `line`, with the zone it is assumed to be in
    /// when it gives none.
    @inline(__always)
    private mutating func timestamp(format index: Int, _ range: Range<Int>, in line: UnsafeRawBufferPointer)
        -> Timestamp?
    {
        guard let layout = tables.groups[index].layout,
            var timestamp = layout.parse(UnsafeRawBufferPointer(rebasing: line[range]), dates: &dates, cache: &seconds)
        else { return nil }
        if timestamp.utcOffsetSeconds == nil, zone != nil {
            timestamp.assumedOffsetSeconds = zone?.offset(atWallMicros: timestamp.wallMicros)
            assumedZone = true
        }
        return timestamp
    }

    /// Adds `times` (one, or the lines of a run) to `counts[i]` for each prefix `i` stripped from the last record.
    @inline(__always)
    public func countPrefixes(into counts: inout [Int], times: Int = 1) {
        if prefixChain.isEmpty { return }
        for index in prefixChain { counts[index] += times }
    }

    /// The message of a parsed line as written, and whether it must be decoded first (``decodeMessage(_:in:into:)``:
    /// its format encodes it, as ndjson does, and it holds an escape).
    @inline(__always)
    public func rawMessage(_ fields: Fields, in line: UnsafeRawBufferPointer) -> (
        bytes: UnsafeRawBufferPointer, encoded: Bool
    ) {
        let raw = UnsafeRawBufferPointer(rebasing: line[fields.message])
        return (raw, tables.jsonMessages[fields.formatIndex] && raw.contains(UInt8(ascii: "\\")))
    }

    /// Calls `body` with the message of a parsed line, decoded when its format encodes it (ndjson).
    public func withMessage<R>(
        _ fields: Fields, in line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        let (raw, encoded) = rawMessage(fields, in: line)
        guard encoded else { return body(raw) }
        var decoded: [UInt8] = []
        JSONString.unescape(raw, into: &decoded)
        return decoded.withUnsafeBytes(body)
    }

    /// Whether `content` (a line past its marker prefixes, ``contentOffset(_:)``) is a format's furniture: a
    /// header, a preamble, a statistics trailer. (Inlined, as ``repeatCount(content:)`` is: a call would be
    /// handed the whole parser, copied for every line that is not a record.)
    @inline(__always)
    public func isFurniture(content: UnsafeRawBufferPointer) -> Bool {
        guard let furnitureIndex else { return false }
        return contentMatchers.with(furnitureIndex) { (try? $0.matches(content)) == true }
    }

    /// How many times the previous message was repeated, when `content` (a line past its marker prefixes) is a
    /// repeat line.
    @inline(__always)
    public func repeatCount(content: UnsafeRawBufferPointer) -> Int? {
        for index in 0..<repeatCount {
            let range = contentMatchers.with(index) { matcher -> Range<Int>? in
                guard (try? matcher.matches(content)) == true else { return nil }
                return matcher.range(catalog.repeats[index].countGroup)
            }
            if let range { return Bytes.decimal(UnsafeRawBufferPointer(rebasing: content[range])) }
        }
        return nil
    }

    /// `line` past the marker prefixes the last record carried.
    private func content(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: line[contentOffset(line)...])
    }

    // MARK: Strings (samples, tests, cold paths)

    /// Ids of every record format whose pattern matches `line` as it is (a sample must match exactly one).
    public func formatsMatching(_ line: String) -> [String] {
        Self.withBytes(line) { raw in
            recordFormats.compactMap { index in
                (try? matchers[index].matches(raw)) == true ? catalog.formats[index].format.id : nil
            }
        }
    }

    public func isFurniture(_ line: String) -> Bool { Self.withBytes(line) { isFurniture(content: content($0)) } }

    public func repeatCount(_ line: String) -> Int? { Self.withBytes(line) { repeatCount(content: content($0)) } }

    /// Parses a Swift string into text fields (prefixes stripped as needed).
    /// Parses a Swift string into text fields (prefixes stripped as needed), as the first line of a capture:
    /// nothing is remembered for the next call.
    public func fields(of line: String) -> TextFields? {
        var parser = self
        return Self.withBytes(line) { raw -> TextFields? in
            parser.textFields(of: raw)
        }
    }

    private mutating func textFields(of raw: UnsafeRawBufferPointer) -> TextFields? {
        guard let fields = parse(raw) else { return nil }
        func text(_ range: Range<Int>?) -> String? { range.map { Bytes.string(raw, $0) } }
        return TextFields(
            format: catalog.formats[fields.formatIndex].format.id,
            prefixes: prefixChain.map { catalog.prefixes[$0].prefix.id },
            timestamp: fields.timestamp, process: text(fields.process), pid: fields.pid,
            thread: text(fields.thread), subsystem: text(fields.subsystem), category: text(fields.category),
            level: text(fields.level),
            message: withMessage(fields, in: raw) { String(decoding: $0, as: UTF8.self) })
    }

    private static func withBytes<R>(_ line: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var copy = line
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

/// Decodes the body of a JSON string (between its quotes) to UTF-8 bytes.
enum JSONString {
    static func unescape(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var index = 0
        var pendingHigh: UInt32?
        func append(scalar value: UInt32) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let backslash = UInt8(ascii: "\\")
        while index < bytes.count {
            // The bytes up to the next backslash (or a backslash that ends the string), as they are.
            var next = NSLogHeader.firstOf(backslash, backslash, base, from: index, bytes.count)
            if next == index, index + 1 == bytes.count { next = bytes.count }
            if next > index {
                if let high = pendingHigh {
                    append(scalar: high)
                    pendingHigh = nil
                }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<next]))
                index = next
                continue
            }
            let code = bytes[index + 1]
            index += 2
            if code == UInt8(ascii: "u"), index + 4 <= bytes.count,
                let value = UInt32(
                    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self),
                    radix: 16)
            {
                index += 4
                if (0xD800...0xDBFF).contains(value) {
                    if pendingHigh != nil { append(scalar: 0xFFFD) }
                    pendingHigh = value
                } else if (0xDC00...0xDFFF).contains(value), let high = pendingHigh {
                    append(scalar: 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                    pendingHigh = nil
                } else {
                    if pendingHigh != nil { append(scalar: 0xFFFD) }
                    pendingHigh = nil
                    append(scalar: value)
                }
                continue
            }
            if pendingHigh != nil {
                append(scalar: 0xFFFD)
                pendingHigh = nil
            }
            switch code {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            default: out.append(code)
            }
        }
        if pendingHigh != nil { append(scalar: 0xFFFD) }
    }
}

/// A byte range in 32 bits, where a negative lower bound means none: the parsers' per-line values hold several,
/// and a value of 16-byte ranges is copied with `memmove` at every step of the per-line path. Lines are at most
/// ``LineReader/defaultMaximumLineLength`` bytes long, far inside 32 bits.
struct ByteSpan {
    var lower: Int32
    var upper: Int32

    static let none = ByteSpan(lower: -1, upper: -1)

    init(lower: Int32, upper: Int32) {
        self.lower = lower
        self.upper = upper
    }

    @inline(__always)
    init(_ range: Range<Int>?) {
        guard let range else {
            self = .none
            return
        }
        self.init(
            lower: Int32(truncatingIfNeeded: range.lowerBound), upper: Int32(truncatingIfNeeded: range.upperBound))
    }

    @inline(__always)
    var range: Range<Int>? { lower < 0 ? nil : Int(lower)..<Int(upper) }

    /// The bounds as they are (for spans that are never none).
    @inline(__always)
    var whole: Range<Int> { Int(lower)..<Int(upper) }
}

/// Small byte helpers shared by the parsers.
enum Bytes {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// Decodes bytes as UTF-8, replacing invalid sequences (never fails).
    static func string(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// A decimal number, or nil when the bytes are not all digits or overflow.
    @inline(__always)
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            let digit = Int(byte) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// `range` without leading and trailing spaces and tabs.
    @inline(__always)
    static func trimmingSpaces(_ range: Range<Int>, in buffer: UnsafeRawBufferPointer) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, buffer[lower] == space || buffer[lower] == tab { lower += 1 }
        while upper > lower, buffer[upper - 1] == space || buffer[upper - 1] == tab { upper -= 1 }
        return lower..<upper
    }

    /// The number of leading spaces and tabs.
    @inline(__always)
    static func indentation(_ buffer: UnsafeRawBufferPointer) -> Int {
        var count = 0
        while count < buffer.count, buffer[count] == space || buffer[count] == tab { count += 1 }
        return count
    }

    /// Whether `needle` occurs in `haystack` as a run of bytes. (Not `Collection.contains` on two UTF-8 views:
    /// that goes through _StringProcessing's generic searcher, which cost 30 M instructions at start-up when the
    /// built-in vocabulary's keywords were compared with it.)
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// Whether the line holds only spaces and tabs.
    static func isBlank(_ buffer: UnsafeRawBufferPointer) -> Bool { indentation(buffer) == buffer.count }

    /// Byte-wise equality of two buffers.
    /// Short buffers (process names, compared on every record) are compared eight bytes at a time in place;
    /// `memcmp` is a call through the PLT that costs more than the comparison.
    @inline(__always)
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return count == 0 }
        guard count <= 32 else { return memcmp(pa, pb, count) == 0 }
        var offset = 0
        while offset + 8 <= count {
            if pa.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != pb.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        // The last bytes of eight or more: the word that ends them, overlapping the one before.
        if offset < count, count >= 8 {
            return pa.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == pb.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        while offset < count {
            if pa.load(fromByteOffset: offset, as: UInt8.self) != pb.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The prefixes' prefilters (``Regex/Prefilter``), which prefixes are measured without PCRE2, and which are
/// markers.
struct PrefixFilters: Sendable {
    let prefilters: [Regex.Prefilter]
    /// Per prefix: whether it is a marker (line numbers, quoting, wrapper timestamps), not the indentation.
    let markers: [Bool]
    /// Per prefix: how it is measured without PCRE2, when it has the pattern of one of those built-in prefixes.
    let measured: [MeasuredPrefix?]

    init(_ prefixes: [FormatCatalog.CompiledPrefix]) {
        prefilters = prefixes.map(\.regex.prefilter)
        markers = prefixes.map { !$0.prefix.isIndentation }
        measured = prefixes.map { MeasuredPrefix(pattern: $0.prefix.pattern) }
    }
}

/// For the formats or the prefixes of a catalogue (at most 64): positions of a line after the first byte of a match
/// where their prefilters refuse most bytes (``Regex/Prefilter/leadingBytes(at:)``), up to ``kept``, in that order;
/// per position, the patterns checked there or at a later one (bit `i` for pattern `i`: the look-ups stop once none
/// of those left is); and per position, 256 words: per byte, the patterns that allow it there.
struct PositionTables: Sendable {
    let positions: [Int]
    let checkedFrom: [UInt64]
    let allowing: [UInt64]
    static let kept = 8
    /// No positions: ``narrow(_:_:at:)`` keeps every pattern.
    static let none = PositionTables(positions: [], checkedFrom: [], allowing: [])

    private init(positions: [Int], checkedFrom: [UInt64], allowing: [UInt64]) {
        (self.positions, self.checkedFrom, self.allowing) = (positions, checkedFrom, allowing)
    }

    /// The tables of the patterns `indices` (each below 64) and their prefilters.
    init(_ indices: [Int], _ filters: [Regex.Prefilter]) {
        // Per position a prefilter may check (``PatternShape``'s leading positions go up to 32), each pattern's
        // bytes there; the positions by how many ASCII bytes they refuse over the patterns.
        let bytes = (0..<32).map { position in indices.map { filters[$0].leadingBytes(at: position) } }
        let refused = bytes.indices.dropFirst().map { position in
            let count = bytes[position].reduce(0) { sum, set in sum + (set.map { 128 - $0.asciiCount } ?? 0) }
            return (position: position, count: count)
        }
        let positions = refused.filter { $0.count > 0 }
            .sorted { ($1.count, $0.position) < ($0.count, $1.position) }.prefix(Self.kept).map(\.position)
        let checked = positions.map { position in
            zip(indices, bytes[position]).reduce(UInt64(0)) { bits, pattern in
                pattern.1 == nil ? bits : bits | 1 << UInt64(pattern.0)
            }
        }
        self.positions = positions
        checkedFrom = checked.indices.map { first in checked[first...].reduce(0, |) }
        // Every pattern allows a byte from 0x80 (a set holds them all), and any byte where it checks nothing; the
        // ASCII bytes a set refuses clear its bit (one pass over them a pattern: the start-up made these tables with
        // a closure per byte and pattern, 1.5 M instructions).
        let every = indices.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
        allowing = positions.flatMap { position in
            var table = [UInt64](repeating: every, count: 256)
            for (index, set) in zip(indices, bytes[position]) {
                guard let set else { continue }
                for byte in 0..<128 where !set.contains(UInt8(byte)) { table[byte] &= ~(1 << UInt64(index)) }
            }
            return table
        }
    }

    /// `patterns` (bits as above) less those the bytes of `line` at ``positions`` after `offset` keep out.
    @inline(__always)
    func narrow(_ patterns: UInt64, _ line: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        var patterns = patterns
        var check = 0
        while check < positions.count, patterns & checkedFrom[check] != 0 {
            let position = offset &+ positions[check]
            if position < line.count { patterns &= allowing[check &<< 8 | Int(line[position])] }
            check &+= 1
        }
        return patterns
    }
}

/// The built-in prefixes measured without PCRE2, by code that gives exactly their pattern's match (tests hold each to
/// PCRE2), for any prefix with that pattern: `grep -n`'s, for which PCRE2 names no byte every match holds, a CI
/// runner's timestamp, which begins every line of a CI log, and indentation, which begins every line of a dump.
enum MeasuredPrefix: Sendable {
    case grepLineNumber  // ``GrepLineNumber``
    case ciTimestamp  // in C, as the runs measure it (``HeaderRun/ciTimestampLength(_:)``)
    case indentation  // `[ \t]+`: every space and tab from the offset

    init?(pattern: String) {
        switch pattern {
        case LinePrefix.grepLineNumber.pattern: self = .grepLineNumber
        case LinePrefix.ciTimestamp.pattern: self = .ciTimestamp
        case LinePrefix.indentation.pattern: self = .indentation
        default: return nil
        }
    }

    /// The length of the prefix's match at `offset` of `line` (anchored), or nil where PCRE2 finds none.
    @inline(__always)
    func length(_ line: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        switch self {
        case .grepLineNumber: return GrepLineNumber.length(line, from: offset)
        case .ciTimestamp:
            let length = HeaderRun.ciTimestampLength(UnsafeRawBufferPointer(rebasing: line[offset...]))
            return length > 0 ? length : nil
        case .indentation:
            var end = offset
            while end < line.count, line[end] == UInt8(ascii: " ") || line[end] == UInt8(ascii: "\t") { end &+= 1 }
            return end > offset ? end &- offset : nil
        }
    }
}

/// The `grep -n` prefix (``LinePrefix/grepLineNumber``, `(?:(?=[^\s:]*?[^\s:\d])[^\s:]++:)?\d+[:-]`) measured without
/// PCRE2, which names no byte every match of it holds (every line that begins with a letter, or a digit, would be
/// handed to it). PCRE2 tries the file name first: the run of bytes that are neither `\s` nor a colon (taken whole,
/// possessively) must hold a non-digit and end at a colon; then `\d+[:-]`. Where that fails, nothing is given back
/// but the whole group: `\d+[:-]` at the start.
enum GrepLineNumber {
    /// The length of the pattern's match at `offset` of `line` (anchored), or nil where PCRE2 finds none: the bytes
    /// up to the first `\s` or colon read eight at a time, in C (``HeaderRun/grepPrefixLength(_:)``).
    @inline(__always)
    static func length(_ line: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        guard offset < line.count else { return nil }
        let length = HeaderRun.grepPrefixLength(UnsafeRawBufferPointer(rebasing: line[offset...]))
        return length > 0 ? length : nil
    }
}
