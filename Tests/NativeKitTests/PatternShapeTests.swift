import Testing

@testable import NativeKit

/// ``Regex/Prefilter``'s reading of a pattern's own text (`PatternShape`): the bytes of a match's first positions,
/// and a run of bytes every match holds.
@Suite("Pattern shapes")
struct PatternShapeTests {
    private func admits(_ regex: Regex, _ subject: String, from start: Int = 0) -> Bool {
        Array(subject.utf8).withUnsafeBufferPointer {
            // An empty subject may have no address: a prefilter has nothing to refuse it by but its length.
            guard let base = $0.baseAddress else { return regex.prefilter.minimumLength == 0 }
            return regex.prefilter.admits(base, count: $0.count, from: start)
        }
    }

    @Test func anAnchoredPatternsFirstPositions() throws {
        let nslog = try Regex(
            #"^(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{4,9}) (?<process>[^\[\]]+)\[(?<pid>\d+)"#)
        #expect(admits(nslog, "2019-05-04 10:46:18.564743 App[1"))
        // A CI runner's timestamp: a `T` where the space is.
        #expect(!admits(nslog, "2024-05-01T10:00:00.1234567Z 2019-05-04 10:46:18.564743 App[1"))
        // Behind `grep -n`'s reading of that timestamp's head.
        #expect(!admits(nslog, "00.1234567Z 2019-05-04 10:46:18.564743 App[1"))
        #expect(!admits(nslog, "2019-05-04 10:46:18.564743 App[1", from: 1))
        #expect(admits(nslog, "x 2019-05-04 10:46:18.564743 App[1", from: 2))
        // A subject shorter than the positions known is read as far as it goes (the minimum length refuses it).
        #expect(!admits(nslog, "2019-05"))
        // Branches: each position holds what any of them allows there.
        let repeatLine = try Regex(
            #"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?:? (?:\S+ )?)?--- last message repeated (?<count>\d+) times? ---\s*$"#
        )
        #expect(admits(repeatLine, "--- last message repeated 3 times ---"))
        #expect(admits(repeatLine, "Dec  9 09:14:50 --- last message repeated 1 time ---"))
        #expect(!admits(repeatLine, "Task <3EC9E54C>.<14> finished with error --- last message repeated 3 times ---"))
        #expect(!admits(repeatLine, "Store: font completed --- last message repeated 3 times ---"))
        let furniture = try Regex(#"(?:^Timestamp +Ty +Process\[PID:TID\] *$)|(?:^Skipping (?:info and )?debug)"#)
        #expect(admits(furniture, "Timestamp               Ty Process[PID:TID]"))
        #expect(admits(furniture, "Skipping debug messages"))
        #expect(!admits(furniture, "Task <3EC9E54C>.<14> finished: Timestamp Ty Process[PID:TID]"))
        // A leading span (`nslog-untimed`'s process name): it ends at the first byte out of its set, which must be
        // what follows it.
        let untimed = try Regex(
            #"^(?!\d{4}-\d\d-\d\d[ T])(?<process>[^\[\]:\t]*?)\[(?<pid>\d+):(?<thread>[0-9A-Fa-fx]+)\] ?(?<message>.*)$"#
        )
        #expect(admits(untimed, "My App[12:ab] x") && admits(untimed, "[7397:f803] -[ThirdViewController viewDidLoad]"))
        #expect(admits(untimed, "Caf\u{E9}[12:ab] x"))
        #expect(!admits(untimed, "Task <3EC9E54C>.<14> finished with error [-1001] Error Domain"))
        #expect(!admits(untimed, "[SDWebImage] cache hit for https://cdn.example.net/images/ab.jpg (1471x1223)]"))
        #expect(!admits(untimed, "Store: font completed [12:ab]"))
        #expect(!admits(untimed, "00.1234567Z Loading data]"))
        // A caseless pattern's positions hold both cases.
        let caseless = try Regex("^ab[c-e]1", options: .caseless)
        #expect(admits(caseless, "ABd1") && admits(caseless, "aBE1") && !admits(caseless, "ABf1"))
        // A prefix compiled anchored, tried at an offset.
        let grep = try Regex(#"\d+[:-]"#, options: .anchored)
        #expect(admits(grep, "ab12:x", from: 2) && !admits(grep, "ab12:x", from: 1))
    }

    @Test func aRunOfBytesEveryMatchHolds() throws {
        let appium = try Regex(
            #"(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[:.]\d{3} - )?(?:(?:info|debug|warn|error|dbug):? |\[(?:debug|info|iOSLog|[A-Za-z]+@[0-9a-f]+)\] )*\[IOS_SYSLOG_ROW(?: [^\]]*)?\] ?"#,
            options: .anchored)
        #expect(admits(appium, "info: [IOS_SYSLOG_ROW ] Jan  5 10:57:52 host SpringBoard[2820] <Warning>: x"))
        // The pattern's required byte (`W`) is there; `[IOS_SYSLOG_ROW` is not.
        #expect(!admits(appium, "info: [IOS_SYSLOG_ROM] Warning"))
        // Unanchored: the run may be anywhere from the offset.
        let unanchored = try Regex(#"error (?:code )?\d+: timed out"#)
        #expect(admits(unanchored, "x error 12: timed out") && !admits(unanchored, "x error 12: timed ou"))
        #expect(!admits(unanchored, "error 12: timed out", from: 8))
        // A repeat: what it holds at least, and the run after it begins with its last copy.
        let repeated = try Regex("xa{2,}b")
        #expect(admits(repeated, "xaaaab") && !admits(repeated, "xaxab"))
    }

    @Test func whatIsNotUnderstoodRefusesNothing() throws {
        // Inline options, verbs, `\Q…\E`, back-references, conditionals, POSIX classes, recursion: the pattern's own
        // text is not read; PCRE2's first and required bytes still are.
        for (pattern, subject) in [
            ("(?i)^abc", "ABC"), ("(*UTF)^abc", "abc"), (#"^\Qa.b\E"#, "a.b"), (#"^(a)\1"#, "aa"),
            ("^(?(?=a)ab|cd)", "cd"), ("^[[:digit:]]x", "1x"), ("^(a|b(?1))", "ba"), ("^a{,2}b", "a{,2}b"),
            // `{,2}`: a brace PCRE2 10.42 reads as itself, and 10.43 as a repeat.
            ("^(?x) a b", "ab"), (#"^\x{41}b"#, "Ab"), (#"^\p{Lu}b"#, "Ab"),
        ] {
            let regex = try Regex(pattern)
            #expect(try Matcher(regex).matches(subject), "\(pattern)")
            #expect(admits(regex, subject), "\(pattern)")
        }
    }

    /// Random patterns of the syntax the shape reads (and some it does not), each with strings built to match it,
    /// those strings damaged, and others: wherever PCRE2 finds a match, the prefilter lets it through.
    @Test(arguments: 0..<8)
    func randomPatternsNeverRefuseAMatch(seed: UInt64) throws {
        var random = Random(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var matched = 0
        var refused = 0
        for _ in 0..<500 {
            // One to four items in a row (a repeated set first now and then: a leading span).
            var nodes = (0..<(1 + Int(random.next() % 4))).map { _ in Node.random(&random, depth: 0) }
            if random.next() % 4 == 0 {
                nodes.insert(.repeated(Node.atom(&random, depth: 3), minimum: 0, maximum: nil, written: "*?"), at: 0)
            }
            let node = Node.group([nodes], opening: "(?:")
            let anchored = random.next() % 2 == 0
            let caseless = random.next() % 5 == 0
            let text = (random.next() % 3 == 0 ? "^" : "") + nodes.map(\.pattern).joined()
            var options: Regex.Options = anchored ? [.anchored] : []
            if caseless { options.insert(.caseless) }
            guard let regex = try? Regex(text, options: options) else { continue }
            let matcher = Matcher(regex)
            for _ in 0..<40 {
                var subject = Array(node.sample(&random).utf8)
                if caseless, random.next() % 2 == 0 { subject = subject.map { $0 ^ (Node.isLetter($0) ? 0x20 : 0) } }
                Node.damage(&subject, &random)
                let lead = Array(Node.alphabet.shuffled(using: &random).prefix(Int(random.next() % 3)))
                subject = lead + subject
                let start = random.next() % 2 == 0 ? lead.count : 0
                let pcre2 = subject.withUnsafeBytes { (try? matcher.matches(admitted: $0, from: start)) == true }
                let admitted = subject.withUnsafeBufferPointer {
                    $0.baseAddress.map { regex.prefilter.admits($0, count: subject.count, from: start) } ?? true
                }
                if pcre2 {
                    matched += 1
                    #expect(admitted, "\(text) \(options) on \(String(decoding: subject, as: UTF8.self)) from \(start)")
                } else if !admitted {
                    refused += 1
                }
            }
        }
        #expect(matched > 500 && refused > 500, "matched \(matched), refused \(refused)")
    }

    /// The ways an anchored pattern may begin (`PatternShape.ways`, which the runs' printed-line check takes for the
    /// repeat and furniture patterns): every string PCRE2 matches begins as one of them does, for random patterns
    /// anchored by a `^` first; and they refuse strings (most patterns' ways say something).
    @Test(arguments: 0..<4)
    func everyMatchOfAnAnchoredPatternBeginsOneOfItsWays(seed: UInt64) throws {
        var random = Random(seed: seed &* 0xD1B5_4A32_D192_ED03 &+ 7)
        var matched = 0
        var refused = 0
        var read = 0
        for _ in 0..<500 {
            let nodes = (0..<(1 + Int(random.next() % 4))).map { _ in Node.random(&random, depth: 0) }
            let node = Node.group([nodes], opening: "(?:")
            let text = "^" + nodes.map(\.pattern).joined()
            guard let regex = try? Regex(text), let ways = PatternShape.ways(text, positions: 6) else { continue }
            read += 1
            #expect(ways.allSatisfy { $0.count == 6 })
            let matcher = Matcher(regex)
            for _ in 0..<40 {
                var subject = Array(node.sample(&random).utf8)
                Node.damage(&subject, &random)
                let taken = ways.contains { way in
                    zip(way, subject).allSatisfy { mask, byte in mask.contains(byte) }
                }
                if subject.withUnsafeBytes({ (try? matcher.matches(admitted: $0, from: 0)) == true }) {
                    matched += 1
                    #expect(taken, "\(text) on \(String(decoding: subject, as: UTF8.self).debugDescription)")
                } else if !taken {
                    refused += 1
                }
            }
        }
        #expect(read > 250 && matched > 500 && refused > 500, "read \(read), matched \(matched), refused \(refused)")
        // Not anchored, of several branches, beginning with a span, or not read: no ways.
        for pattern in ["abc", "^a|^b", "^a*b", #"^[^:]*:"#, "(?i)^abc", #"^(a)\1"#] {
            #expect(PatternShape.ways(pattern, positions: 4) == nil, "\(pattern)")
        }
        let repeatLine =
            #"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?:? (?:\S+ )?)?--- last message repeated (?<count>\d+) times? ---\s*$"#
        let ways = try #require(PatternShape.ways(repeatLine, positions: 4))
        #expect(ways.contains { way in zip(way, "---".utf8).allSatisfy { $0.contains($1) } && way[3].contains(32) })
        #expect(ways.contains { way in zip(way, "Dec ".utf8).allSatisfy { $0.contains($1) } })
        #expect(!ways.contains { way in zip(way, "Sync".utf8).allSatisfy { $0.contains($1) } })
    }

    /// The beginnings of a line the built-in refusal never refuses (`HeaderRun.refusalPasses`, by which the runs
    /// leave out the ways only such lines take): random lines that begin so are never refused, whatever follows.
    @Test func theRefusalNeverRefusesALineThatBeginsAsItsPassesSay() {
        var random = Random(seed: 11)
        for shape in HeaderRun.refusalPasses {
            for _ in 0..<5_000 {
                var line = shape.map { mask in
                    let bytes = (0..<UInt8(0x80)).filter { mask.contains($0) }
                    return random.pick(bytes)
                }
                line += (0..<Int(random.next() % 90)).map { _ in UInt8(0x20 + random.next() % 0x5F) }
                let refused = line.withUnsafeBytes { HeaderRun.builtInRefuses($0) }
                #expect(!refused, "\(String(decoding: line, as: UTF8.self).debugDescription)")
            }
        }
    }
}

/// A random pattern, written out (`pattern`) and able to make a string it matches (`sample`; lookarounds and
/// possessive repeats may still refuse it).
private indirect enum Node {
    case literal(String)
    case set(String, negated: Bool)
    case escape(Character)
    case dot
    case group([[Node]], opening: String)
    case zeroWidth(String)
    case repeated(Node, minimum: Int, maximum: Int?, written: String)

    static let alphabet: [UInt8] = Array("ab-:[] .xZ09\t{}é".utf8)

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    static func random(_ random: inout Random, depth: Int) -> Node {
        let atom = atom(&random, depth: depth)
        switch random.next() % 8 {
        case 0: return .repeated(atom, minimum: 0, maximum: 1, written: "?")
        case 1:
            return .repeated(atom, minimum: 0, maximum: nil, written: random.pick(["*", "*?", "*+"]))
        case 2:
            return .repeated(atom, minimum: 1, maximum: nil, written: random.pick(["+", "+?", "++"]))
        case 3:
            let minimum = Int(random.next() % 4)
            switch random.next() % 3 {
            case 0: return .repeated(atom, minimum: minimum, maximum: minimum, written: "{\(minimum)}")
            case 1: return .repeated(atom, minimum: minimum, maximum: nil, written: "{\(minimum),}")
            default:
                let maximum = minimum + Int(random.next() % 3)
                return .repeated(atom, minimum: minimum, maximum: maximum, written: "{\(minimum),\(maximum)}")
            }
        default: return atom
        }
    }

    static func atom(_ random: inout Random, depth: Int) -> Node {
        switch random.next() % (depth < 3 ? 10 : 7) {
        case 0, 1:
            let length = 1 + Int(random.next() % 4)
            return .literal(
                String(decoding: (0..<length).map { _ in random.pick(alphabet) }, as: UTF8.self))
        case 2:
            let members = ["a-c", "0-9", ":", " ", "\\]", "\\d", "\\s", "-", "x", "\\t", "Z", "\\w", "é"]
            let chosen = members.shuffled(using: &random).prefix(1 + Int(random.next() % 3))
            return .set(chosen.joined(), negated: random.next() % 3 == 0)
        case 3: return .escape(random.pick(Array("dDsSwWhHN")))
        case 4: return .dot
        case 5:
            return .zeroWidth(
                random.pick(["^", "$", "\\b", "\\B", "(?=a)", "(?!b)", "(?<=a)", "(?<!:)"]))
        case 6: return .literal(random.pick(["\\[", "\\.", "\\-", "\\x41", "\\t", "\\{"]))
        default:
            let name = random.next() % 1_000_000
            let branches = (0..<(1 + Int(random.next() % 3))).map { _ in
                (0..<(1 + Int(random.next() % 3))).map { _ in Node.random(&random, depth: depth + 1) }
            }
            return .group(
                branches,
                opening: random.pick(["(?:", "(", "(?<n\(name)>", "(?>", "(?|"]))
        }
    }

    var pattern: String {
        switch self {
        case .literal(let text):
            // Written as itself, but for the bytes the pattern syntax reads otherwise.
            if text.hasPrefix("\\") { return text }
            return String(text.flatMap { "[]{}().*+?^$|\\".contains($0) ? "\\\($0)" : "\($0)" })
        case .set(let members, let negated): return "[" + (negated ? "^" : "") + members + "]"
        case .escape(let letter): return "\\\(letter)"
        case .dot: return "."
        case .group(let branches, let opening):
            return opening + branches.map { $0.map(\.pattern).joined() }.joined(separator: "|") + ")"
        case .zeroWidth(let text): return text
        case .repeated(let node, _, _, let written):
            // A quantifier after a literal of several bytes repeats its last: group it.
            if case .literal = node { return "(?:" + node.pattern + ")" + written }
            return node.pattern + written
        }
    }

    func sample(_ random: inout Random) -> String {
        switch self {
        case .literal(let text):
            switch text {
            case "\\[": return "["
            case "\\.": return "."
            case "\\-": return "-"
            case "\\x41": return "A"
            case "\\t": return "\t"
            case "\\{": return "{"
            default: return text
            }
        case .set(let members, let negated):
            if negated { return random.pick(["q", "%", "~", "é"]) }
            let options: [String: [String]] = [
                "a-c": ["a", "b", "c"], "0-9": ["0", "5", "9"], ":": [":"], " ": [" "], "\\]": ["]"],
                "\\d": ["3"], "\\s": [" ", "\t"], "-": ["-"], "x": ["x"], "\\t": ["\t"], "Z": ["Z"], "\\w": ["w", "_"],
                "é": ["é"],
            ]
            let keys = options.keys.filter { members.contains($0) }
            guard !keys.isEmpty else { return "x" }
            return random.pick(options[random.pick(keys)] ?? ["x"])
        case .escape(let letter):
            let choices: [Character: [String]] = [
                "d": ["7"], "D": ["a", "-"], "s": [" ", "\t"], "S": ["q", "1"], "w": ["k", "_"], "W": [":", " "],
                "h": [" "], "H": ["h"], "N": ["n", " "],
            ]
            return random.pick(choices[letter] ?? [" "])
        case .dot: return random.pick(["a", " ", ":", "é"])
        case .group(let branches, _):
            return random.pick(branches).map { $0.sample(&random) }.joined()
        case .zeroWidth: return ""
        case .repeated(let node, let minimum, let maximum, _):
            let count = minimum + Int(random.next() % UInt64((maximum ?? minimum + 3) - minimum + 1))
            return (0..<count).map { _ in node.sample(&random) }.joined()
        }
    }

    /// Now and then a byte changed, dropped or added.
    static func damage(_ subject: inout [UInt8], _ random: inout Random) {
        switch random.next() % 6 {
        case 0 where !subject.isEmpty:
            subject[Int(random.next() % UInt64(subject.count))] = random.pick(alphabet)
        case 1 where !subject.isEmpty: subject.remove(at: Int(random.next() % UInt64(subject.count)))
        case 2:
            subject.insert(random.pick(alphabet), at: Int(random.next() % UInt64(subject.count + 1)))
        case 3: subject += (0..<Int(random.next() % 4)).map { _ in random.pick(alphabet) }
        default: break
        }
    }
}
