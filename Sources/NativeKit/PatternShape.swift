/// What a pattern's source text says every match holds, beyond what PCRE2 reports (a first byte, one required
/// byte): the ASCII bytes each of the first positions of a match may hold, a run of bytes every match holds, and
/// what must follow a leading run of a set of bytes (``Regex/Prefilter`` checks them before it calls PCRE2).
///
/// Read from the text PCRE2 compiled, conservatively: only the syntax listed below is understood, and anything else
/// ends what is known (at an atom), or gives up on the pattern (a construct that could change how the rest reads:
/// inline options, `\Q…\E`, verbs, conditionals, back-references, recursion, POSIX classes). Every set is a superset
/// of what PCRE2 can match, so a refusal is always right:
/// - a byte from 0x80 is always allowed (no set holds anything but ASCII), so UTF-8, locale tables and `\s`'s
///   non-ASCII spaces change nothing;
/// - a caseless pattern's sets hold both cases of every letter, and it names no run of bytes;
/// - where a part of the pattern may match strings of different lengths, each length is followed as a path of its
///   own (up to ``maximumPaths``, then they are merged, each position keeping the union), and the positions after
///   an unbounded repeat are unknown;
/// - zero-width parts (`^`, `$`, `\b`, lookarounds) take no position: skipping one only allows more;
/// - a pattern that begins with a repeated set of bytes (`[^\[\]:\t]*?\[`, `nslog-untimed`'s process name) is
///   described by that set (``span``) and the positions after it, when the first of those holds no byte of the set
///   and none from 0x80: the span then ends exactly where that position is, at the first byte not in the set.
struct PatternShape: Equatable {
    /// Positions of a match described, at most.
    static let maximumPositions = 16
    /// Paths followed at once before they are merged.
    static let maximumPaths = 32

    /// The ASCII bytes each of the first positions of any match may hold (none allowing every ASCII byte last);
    /// with a ``span``, those after it.
    var leading: [ByteMask]
    /// The bytes of the run a match begins with (any number of them), when the pattern begins so and `leading`
    /// says what follows.
    var span: ByteMask?
    /// Bytes every match holds in a row (two or more, case-sensitive), or empty.
    var literal: [UInt8]

    /// The shape of `pattern` as PCRE2 compiles it with `caseless`; with `anchored` (a match begins where it is
    /// tried), its positions (`leading`, `span`) too. Nil when nothing is known.
    init?(_ pattern: String, caseless: Bool, anchored: Bool) {
        // An unanchored match may begin anywhere: only its run of bytes says something, and the paths (the costly
        // part: the vocabulary's alternations are long) are not followed.
        var reader = Reader(Array(pattern.utf8), followsPaths: anchored)
        guard let (paths, span, literal) = try? reader.pattern(), reader.index == reader.bytes.count else {
            return nil
        }
        var leading = anchored ? Path.merged(paths).masks : []
        var run = anchored ? span : nil
        if caseless {
            leading = leading.map { $0.caseClosed }
            run = run?.caseClosed
        }
        while let last = leading.last, last.holdsEveryASCIIByte { leading.removeLast() }
        if let set = run {
            // The paths leave the span out: they say nothing of the pattern unless the span ends exactly there.
            if let first = leading.first, !first.upper, first.isDisjoint(with: set) {
                self.span = set
            } else {
                leading = []
                self.span = nil
            }
        } else {
            self.span = nil
        }
        self.leading = leading
        self.literal = caseless || literal.count < 2 ? [] : literal
        if leading.isEmpty && self.literal.isEmpty { return nil }
    }
}

extension PatternShape {
    /// The ways a match of `pattern` (compiled with PCRE2's default options) may begin, when the pattern is anchored
    /// by its first byte (`^`) and has one branch: per way (a path of ``PatternShape``, unmerged), the ASCII bytes
    /// each of its first `positions` bytes may hold, every byte where nothing is known. Nil where the pattern is not
    /// read, not anchored so, or begins with a span of bytes (whose length is unknown).
    static func ways(_ pattern: String, positions: Int) -> [[ByteMask]]? {
        let bytes = Array(pattern.utf8)
        guard bytes.first == UInt8(ascii: "^") else { return nil }
        var reader = Reader(bytes, followsPaths: true, positions: positions)
        guard let paths = try? reader.branchPaths() else { return nil }
        var ways: [[ByteMask]] = []
        for path in paths {
            let way = (0..<positions).map { $0 < path.masks.count ? path.masks[$0] : .all }
            if !ways.contains(way) { ways.append(way) }
        }
        return ways
    }
}

/// A set of ASCII bytes (bit `b` of `low` for `b` < 64, of `high` for the others), and whether it may hold bytes
/// from 0x80 (`upper`: ``contains(_:)`` says yes to them anyway). Public for what the record parser reads of a
/// prefilter's positions (``Regex/Prefilter/leadingBytes(at:)``).
public struct ByteMask: Equatable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var upper = false

    static let all = ByteMask(low: ~0, high: ~0, upper: true)
    static let digits = ByteMask(range: UInt8(ascii: "0")...UInt8(ascii: "9"))
    /// `\s` (tab, LF, VT, FF, CR, space).
    static let spaces = ByteMask(bytes: [9, 10, 11, 12, 13, 32])
    /// `\h` (tab, space).
    static let horizontalSpaces = ByteMask(bytes: [9, 32])
    /// `\v` (LF, VT, FF, CR).
    static let verticalSpaces = ByteMask(bytes: [10, 11, 12, 13])
    static let word =
        digits.union(ByteMask(range: UInt8(ascii: "A")...UInt8(ascii: "Z")))
        .union(ByteMask(range: UInt8(ascii: "a")...UInt8(ascii: "z"))).union(ByteMask(bytes: [UInt8(ascii: "_")]))

    init(low: UInt64 = 0, high: UInt64 = 0, upper: Bool = false) {
        self.low = low
        self.high = high
        self.upper = upper
    }

    init(bytes: [UInt8]) {
        for byte in bytes { insert(byte) }
    }

    init(byte: UInt8) { insert(byte) }

    init(range: ClosedRange<UInt8>) {
        for byte in range { insert(byte) }
    }

    mutating func insert(_ byte: UInt8) {
        if byte < 64 {
            low |= 1 << UInt64(byte)
        } else if byte < 128 {
            high |= 1 << UInt64(byte &- 64)
        } else {
            upper = true
        }
    }

    public func contains(_ byte: UInt8) -> Bool {
        byte >= 128 || ((byte < 64 ? low : high) >> UInt64(byte & 63)) & 1 != 0
    }

    func union(_ other: ByteMask) -> ByteMask {
        ByteMask(low: low | other.low, high: high | other.high, upper: upper || other.upper)
    }

    /// Whether every byte it may hold `other` may hold.
    func isSubset(of other: ByteMask) -> Bool {
        low & ~other.low == 0 && high & ~other.high == 0 && (!upper || other.upper)
    }

    /// Its ASCII bytes as words: bit b of the first for b < 64, bit b - 64 of the second for the others.
    var words: (UInt64, UInt64) { (low, high) }

    /// Whether no byte is in both (a byte from 0x80 only when neither may hold one).
    func isDisjoint(with other: ByteMask) -> Bool {
        low & other.low == 0 && high & other.high == 0 && !(upper && other.upper)
    }

    /// The other bytes: the other ASCII bytes, and bytes from 0x80 (a set holds at most some of those).
    var complement: ByteMask { ByteMask(low: ~low, high: ~high, upper: true) }

    /// How many ASCII bytes it holds.
    public var asciiCount: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// Whether it holds every ASCII byte (it refuses none).
    var holdsEveryASCIIByte: Bool { low == ~0 && high == ~0 }

    /// With both cases of each letter it holds.
    var caseClosed: ByteMask {
        // `A`–`Z` are bits 1–26 of `high`, `a`–`z` bits 33–58.
        let capitals: UInt64 = 0x7FF_FFFE
        return ByteMask(low: low, high: high | (high >> 32) & capitals | (high & capitals) << 32, upper: upper)
    }
}

/// The strings a part of a pattern may match, as far as they are known: each position's bytes, then, when `open`,
/// anything (past the positions followed, after an unbounded repeat or what was not understood).
private struct Path {
    var masks: [ByteMask]
    var open: Bool

    static let empty = Path(masks: [], open: false)
    static let unknown = Path(masks: [], open: true)

    /// One path that holds every string of `paths`: each position the union of theirs, up to the shortest.
    static func merged(_ paths: [Path]) -> Path {
        let length = paths.map(\.masks.count).min() ?? 0
        var masks = [ByteMask](repeating: ByteMask(), count: length)
        for path in paths {
            for position in 0..<length { masks[position] = masks[position].union(path.masks[position]) }
        }
        return Path(masks: masks, open: true)
    }

    /// Each path of `paths` followed by each of `next`.
    static func concatenated(_ paths: [Path], _ next: [Path], limit: Int) -> [Path] {
        var out: [Path] = []
        for path in paths {
            if path.open {
                out.append(path)
                continue
            }
            for tail in next {
                var masks = path.masks + tail.masks
                var open = tail.open
                if masks.count >= limit {
                    masks.removeLast(masks.count - limit)
                    open = true
                }
                out.append(Path(masks: masks, open: open))
            }
        }
        return capped(out)
    }

    static func capped(_ paths: [Path]) -> [Path] {
        paths.count > PatternShape.maximumPaths ? [merged(paths)] : paths
    }

    var opened: Path { Path(masks: masks, open: true) }
}

/// What an atom of a pattern matches: its paths, the byte of a literal one, and the set of a group that is a
/// repeated set of bytes and nothing else.
private struct Atom {
    var paths: [Path]
    var literal: UInt8? = nil
    var star: ByteMask? = nil
}

/// Reads a pattern's text (see ``PatternShape``); throws where it gives up on the whole pattern.
private struct Reader {
    struct Unsupported: Error {}

    let bytes: [UInt8]
    var index = 0
    /// Group depth: the run of literal bytes is looked for at depth 0, in a pattern of one branch.
    private var depth = 0
    private var run: [UInt8] = []
    private var longest: [UInt8] = []

    /// Whether the paths are followed (else every sequence's are left unknown, and no path is made: a long
    /// alternation of the vocabulary's took a millisecond of the start-up to read).
    private var followsPaths: Bool
    private static let emptyPaths = [Path.empty]
    private static let unknownPaths = [Path.unknown]

    /// The paths of an atom of one position, of bytes `mask`.
    private func one(_ mask: ByteMask) -> [Path] {
        followsPaths ? [Path(masks: [mask], open: false)] : Self.unknownPaths
    }

    /// Positions a path follows, at most.
    private let positions: Int

    init(_ bytes: [UInt8], followsPaths: Bool, positions: Int = PatternShape.maximumPositions) {
        self.bytes = bytes
        self.followsPaths = followsPaths
        self.positions = positions
    }

    /// The paths of a pattern of one branch that begins with no span (``PatternShape/ways(_:positions:)``).
    mutating func branchPaths() throws -> [Path] {
        let (paths, branches, _) = try alternation()
        guard branches == 1, span == nil, index == bytes.count else { throw Unsupported() }
        return paths
    }

    /// The whole pattern: its paths (after its leading span, when it has one), that span, and its longest run of
    /// literal bytes outside groups (none with several branches).
    mutating func pattern() throws -> ([Path], ByteMask?, [UInt8]) {
        let (paths, branches, _) = try alternation()
        endRun()
        // The span was taken from the first branch, whose paths leave it out.
        if branches > 1 && span != nil { throw Unsupported() }
        return (paths, span, branches == 1 ? longest : [])
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func byte(at offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    /// Branches separated by `|`, up to a `)` (not taken) or the end: their paths, how many there are, and for a
    /// single branch that is a repeated set of bytes and nothing else, that set.
    private mutating func alternation() throws -> ([Path], Int, ByteMask?) {
        var (paths, star) = try sequence()
        var branches = 1
        while current == UInt8(ascii: "|") {
            index += 1
            branches += 1
            let next = try sequence().paths
            if followsPaths { paths = Path.capped(paths + next) }
        }
        return (paths, branches, branches == 1 ? star : nil)
    }

    /// The set of the pattern's leading span (see ``PatternShape/span``), once found.
    private(set) var span: ByteMask?

    /// A sequence's paths, and its set when it is one repeated set of bytes (`[^:]*`, `(?:\d)*?`) and nothing else.
    private mutating func sequence() throws -> (paths: [Path], star: ByteMask?) {
        var paths = followsPaths ? Self.emptyPaths : Self.unknownPaths
        var items = 0
        var onlyStar: ByteMask?
        while let byte = current, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
            // Past what is known, an atom's paths are not needed.
            let follows = followsPaths
            followsPaths = follows && !paths.allSatisfy(\.open)
            let atom = try self.atom()
            followsPaths = follows
            let (minimum, maximum) = try quantifier()
            guard let atom else {
                // A quantified assertion is left to PCRE2.
                if minimum != 1 || maximum != 1 { throw Unsupported() }
                continue
            }
            items += 1
            var star: ByteMask?
            if minimum == 0, maximum == nil, atom.paths.count == 1, !atom.paths[0].open,
                atom.paths[0].masks.count == 1
            {
                star = atom.paths[0].masks[0]
            } else if minimum == 1, maximum == 1 {
                star = atom.star
            }
            if items == 1 { onlyStar = star }
            noteRun(atom.literal, minimum: minimum, maximum: maximum)
            if items == 1, depth == 0, span == nil, let star {
                // The pattern begins with a span: the paths say what follows it.
                span = star
                continue
            }
            if !followsPaths || paths.allSatisfy(\.open) { continue }
            paths = Path.concatenated(
                paths, repeated(atom.paths, minimum: minimum, maximum: maximum), limit: positions)
        }
        return (paths, items == 1 ? onlyStar : nil)
    }

    /// An atom's paths, for one literal byte that byte, and for a group that is a repeated set of bytes and nothing
    /// else that set; nil for a zero-width atom.
    private mutating func atom() throws -> Atom? {
        guard let byte = current else { throw Unsupported() }
        switch byte {
        case UInt8(ascii: "^"), UInt8(ascii: "$"):
            index += 1
            return nil
        case UInt8(ascii: "."):
            index += 1
            return Atom(paths: one(.all))
        case UInt8(ascii: "["):
            return Atom(paths: one(try characterClass()))
        case UInt8(ascii: "("):
            return try group()
        case UInt8(ascii: "\\"):
            switch try escape(inClass: false) {
            case .zeroWidth: return nil
            case .mask(let mask): return Atom(paths: one(mask))
            case .byte(let literal): return Atom(paths: one(ByteMask(byte: literal)), literal: literal)
            }
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
            // A quantifier with nothing before it, or a brace PCRE2 may read either way.
            throw Unsupported()
        default:
            index += 1
            return Atom(paths: one(ByteMask(byte: byte)), literal: byte)
        }
    }

    /// `(…)`: a group (its branches' paths, and its set when it is a repeated set of bytes) or, for a lookaround or
    /// comment, nil.
    private mutating func group() throws -> Atom? {
        index += 1
        var zeroWidth = false
        if current == UInt8(ascii: "*") { throw Unsupported() }  // a verb
        if current == UInt8(ascii: "?") {
            switch byte(at: 1) {
            case UInt8(ascii: ":"), UInt8(ascii: ">"), UInt8(ascii: "|"):
                index += 2
            case UInt8(ascii: "="), UInt8(ascii: "!"):
                index += 2
                zeroWidth = true
            case UInt8(ascii: "<") where byte(at: 2) == UInt8(ascii: "=") || byte(at: 2) == UInt8(ascii: "!"):
                index += 3
                zeroWidth = true
            case UInt8(ascii: "<"), UInt8(ascii: "'"):
                try skipName(from: 2, to: byte(at: 1) == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'"))
            case UInt8(ascii: "P") where byte(at: 2) == UInt8(ascii: "<"):
                try skipName(from: 3, to: UInt8(ascii: ">"))
            case UInt8(ascii: "#"):
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ")")) else { throw Unsupported() }
                index = end + 1
                return nil
            default:
                // Options, conditionals, recursion, callouts, back-references by name.
                throw Unsupported()
            }
        }
        depth += 1
        endRun()
        // A lookaround takes no position: its paths are not needed.
        let follows = followsPaths
        if zeroWidth { followsPaths = false }
        let (paths, _, star) = try alternation()
        followsPaths = follows
        guard current == UInt8(ascii: ")") else { throw Unsupported() }
        index += 1
        depth -= 1
        endRun()
        return zeroWidth ? nil : Atom(paths: paths, star: star)
    }

    /// Past a group's name (letters, digits, underscores) and its closing byte, from `offset` past `(`.
    private mutating func skipName(from offset: Int, to close: UInt8) throws {
        index += offset
        while let byte = current, ByteMask.word.contains(byte), byte < 128 { index += 1 }
        guard current == close else { throw Unsupported() }
        index += 1
    }

    /// `[…]`: its bytes.
    private mutating func characterClass() throws -> ByteMask {
        index += 1
        let negated = current == UInt8(ascii: "^")
        if negated { index += 1 }
        var mask = ByteMask()
        var first = true
        while true {
            guard let byte = current else { throw Unsupported() }
            if byte == UInt8(ascii: "]") && !first {
                index += 1
                break
            }
            first = false
            if byte == UInt8(ascii: "["),
                let next = self.byte(at: 1),
                next == UInt8(ascii: ":") || next == UInt8(ascii: ".") || next == UInt8(ascii: "=")
            {
                throw Unsupported()  // POSIX classes and collating elements
            }
            let low: UInt8
            if byte == UInt8(ascii: "\\") {
                switch try escape(inClass: true) {
                case .mask(let set):
                    // `[\d-z]`: PCRE2 may refuse it or read the hyphen as itself.
                    if current == UInt8(ascii: "-"), self.byte(at: 1) != UInt8(ascii: "]") { throw Unsupported() }
                    mask = mask.union(set)
                    continue
                case .byte(let value): low = value
                case .zeroWidth: throw Unsupported()
                }
            } else {
                low = byte
                index += 1
            }
            guard current == UInt8(ascii: "-"), let next = self.byte(at: 1), next != UInt8(ascii: "]") else {
                mask.insert(low)
                continue
            }
            index += 1
            let high: UInt8
            if next == UInt8(ascii: "\\") {
                guard case .byte(let value) = try escape(inClass: true) else { throw Unsupported() }
                high = value
            } else if next == UInt8(ascii: "[") {
                throw Unsupported()
            } else {
                high = next
                index += 1
            }
            guard low <= high else { throw Unsupported() }
            for value in low...high { mask.insert(value) }
        }
        return negated ? mask.complement : mask
    }

    private enum Escape {
        case byte(UInt8)
        case mask(ByteMask)
        case zeroWidth
    }

    /// `\…`, at the backslash.
    private mutating func escape(inClass: Bool) throws -> Escape {
        guard let letter = byte(at: 1) else { throw Unsupported() }
        index += 2
        switch letter {
        case UInt8(ascii: "d"): return .mask(.digits)
        case UInt8(ascii: "D"): return .mask(ByteMask.digits.complement)
        case UInt8(ascii: "s"): return .mask(.spaces)
        case UInt8(ascii: "S"): return .mask(ByteMask.spaces.complement)
        case UInt8(ascii: "w"): return .mask(.word)
        case UInt8(ascii: "W"): return .mask(ByteMask.word.complement)
        case UInt8(ascii: "h"): return .mask(.horizontalSpaces)
        case UInt8(ascii: "H"): return .mask(ByteMask.horizontalSpaces.complement)
        case UInt8(ascii: "v"): return .mask(.verticalSpaces)
        case UInt8(ascii: "V"): return .mask(ByteMask.verticalSpaces.complement)
        case UInt8(ascii: "N") where !inClass: return .mask(.all)
        case UInt8(ascii: "b") where inClass: return .byte(8)
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"),
            UInt8(ascii: "G"), UInt8(ascii: "K"):
            if inClass { throw Unsupported() }
            return .zeroWidth
        case UInt8(ascii: "n"): return .byte(10)
        case UInt8(ascii: "t"): return .byte(9)
        case UInt8(ascii: "r"): return .byte(13)
        case UInt8(ascii: "f"): return .byte(12)
        case UInt8(ascii: "e"): return .byte(27)
        case UInt8(ascii: "a"): return .byte(7)
        case UInt8(ascii: "x"):
            guard let high = byte(at: 0).flatMap(Self.hexValue), let low = byte(at: 1).flatMap(Self.hexValue) else {
                throw Unsupported()  // `\x{…}` or fewer than two digits
            }
            index += 2
            return .byte(high << 4 | low)
        default:
            // Any other letter or digit means something (or is an error); punctuation stands for itself.
            guard letter < 128, !ByteMask.word.contains(letter) else { throw Unsupported() }
            return .byte(letter)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The quantifier after an atom (its lazy or possessive mark taken too): `(1, 1)` when there is none, a nil
    /// maximum for no bound.
    private mutating func quantifier() throws -> (Int, Int?) {
        let bounds: (Int, Int?)
        switch current {
        case UInt8(ascii: "?"): bounds = (0, 1)
        case UInt8(ascii: "*"): bounds = (0, nil)
        case UInt8(ascii: "+"): bounds = (1, nil)
        case UInt8(ascii: "{"):
            // Only `{n}`, `{n,}` and `{n,m}`: PCRE2 versions differ on the other forms.
            index += 1
            guard let minimum = number() else { throw Unsupported() }
            var maximum: Int? = minimum
            if current == UInt8(ascii: ",") {
                index += 1
                maximum = number()
            }
            guard current == UInt8(ascii: "}"), maximum.map({ $0 >= minimum }) ?? true else { throw Unsupported() }
            bounds = (minimum, maximum)
        default:
            return (1, 1)
        }
        index += 1
        if current == UInt8(ascii: "?") || current == UInt8(ascii: "+") { index += 1 }
        return bounds
    }

    private mutating func number() -> Int? {
        var value = 0
        let start = index
        while let byte = current, byte &- UInt8(ascii: "0") < 10, index - start < 6 {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }

    /// The paths of an atom repeated `minimum` to `maximum` times (nil: no bound).
    private func repeated(_ paths: [Path], minimum: Int, maximum: Int?) -> [Path] {
        if minimum == 1 && maximum == 1 { return paths }
        if minimum == 0 && maximum == 1 { return Path.capped([.empty] + paths) }
        var out = [Path.empty]
        for _ in 0..<minimum where !out.allSatisfy(\.open) { out = Path.concatenated(out, paths, limit: positions) }
        if maximum == minimum { return out }
        // Further repeats: none, or some (whose end is unknown).
        return Path.concatenated(out, Path.capped([.empty] + paths.map(\.opened)), limit: positions)
    }

    /// Notes a literal byte (or any other atom, `nil`) of the pattern for its longest run of literal bytes outside
    /// groups.
    private mutating func noteRun(_ literal: UInt8?, minimum: Int, maximum: Int?) {
        guard depth == 0, let literal, minimum > 0 else { return endRun() }
        for _ in 0..<min(minimum, PatternShape.maximumPositions) { run.append(literal) }
        if maximum != minimum {
            // More of the byte may follow: the run ends here, and the next one begins with its last copy.
            endRun()
            run = [literal]
        }
    }

    private mutating func endRun() {
        if run.count > longest.count { longest = run }
        run = []
    }
}

/// The words and bytes of prefilters' shapes (``Regex/Prefilter``), interned for the life of the process: a
/// prefilter holds plain pointers into them, which it can be copied with at no cost. Each distinct shape is stored
/// once (a run compiles some 130 patterns; the tests compile the same ones again and again).
final class ShapeStore: @unchecked Sendable {
    static let shared = ShapeStore()

    private let lock = Lock()
    private var words: [[UInt64]: UnsafePointer<UInt64>] = [:]
    private var bytes: [[UInt8]: UnsafePointer<UInt8>] = [:]

    func intern(_ value: [UInt64]) -> UnsafePointer<UInt64> { lock.withLock { Self.intern(value, in: &words) } }

    func intern(_ value: [UInt8]) -> UnsafePointer<UInt8> { lock.withLock { Self.intern(value, in: &bytes) } }

    private static func intern<T: Hashable>(_ value: [T], in table: inout [[T]: UnsafePointer<T>]) -> UnsafePointer<T> {
        if let stored = table[value] { return stored }
        let storage = UnsafeMutablePointer<T>.allocate(capacity: value.count)
        storage.initialize(from: value, count: value.count)
        table[value] = UnsafePointer(storage)
        return UnsafePointer(storage)
    }
}
