import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

@Suite("Event vocabulary")
struct VocabularyTests {
    @Test func builtinVocabularyValidates() throws {
        try Vocabulary.builtin.validate()
    }

    @Test(arguments: Vocabulary.builtin.entries)
    func examplesMeanTheirEventAndBaitMeansNothing(_ entry: VocabularyEntry) throws {
        let recognizer = try EventRecognizer()
        for example in entry.examples {
            #expect(recognizer.recognize(example)?.entryID == entry.id, "\(example)")
            #expect(
                recognizer.recognize("2013 App: " + example + " done")?.event == entry.event,
                "in a sentence: \(example)")
        }
        for bait in entry.bait {
            #expect(recognizer.recognize(bait) == nil, "bait \(bait)")
        }
    }

    @Test(arguments: Vocabulary.builtinBait)
    func realWorldBaitMatchesNothing(_ bait: String) throws {
        #expect(try EventRecognizer().recognize(bait) == nil)
    }

    @Test func everyUIKitCallbackAndMilestoneHasAnEntry() {
        let covered = Set(Vocabulary.builtin.entries.map(\.event))
        #expect(covered == Set(LifecycleEvent.allCases))
    }

    @Test func aBadUserPatternNamesItsEntry() {
        let vocabulary = Vocabulary(entries: [
            VocabularyEntry(
                id: "team-became-active", event: .didBecomeActive, pattern: "Became (active",
                examples: ["Became active"])
        ])
        do {
            try vocabulary.validate()
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).hasPrefix("vocabulary team-became-active"))
        }
    }

    /// A user's entry is compiled alone even where the alternation of its group would take it: `became)|(active`
    /// is no pattern, but `(?:(?:became)|(active))(*MARK:0)` is one.
    @Test func aUserPatternAnAlternationWouldTakeIsStillRefused() {
        let vocabulary = Vocabulary(
            entries: Vocabulary.builtin.entries + [
                VocabularyEntry(
                    id: "team-broken", event: .didBecomeActive, pattern: "became)|(active", keywords: ["became"],
                    examples: ["became active"])
            ])
        do {
            _ = try EventRecognizer.Compiled(vocabulary)
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).hasPrefix("vocabulary team-broken"))
        }
    }

    /// The built-in vocabulary's keyword groups and its entries that name groups are compiled when first matched
    /// (most never are): each group to the alternation an up-front compilation makes, each entry that may name
    /// groups (``EventRecognizer/Compiled/mayNameGroups(_:)``) to a pattern that names some, all of them capture
    /// names the recogniser reads. A group that holds an entry of your own is compiled up front, so that its error
    /// is told before any input is read (above).
    @Test func theBuiltInPatternsWaitForTheirFirstMatch() throws {
        let compiled = try EventRecognizer.Compiled(Vocabulary.builtin)
        #expect(!compiled.groups.isEmpty)
        #expect(compiled.groups.allSatisfy { !$0.isCompiled })
        for group in compiled.groups {
            #expect(group.regex.options == [.caseless])
            #expect(group.regex.pattern.hasPrefix("(?:(?:"))
            #expect(group.isCompiled)
        }
        let naming = Vocabulary.builtin.entries.indices.filter {
            EventRecognizer.Compiled.mayNameGroups(Vocabulary.builtin.entries[$0].pattern)
        }
        #expect(!naming.isEmpty)
        #expect(compiled.detailEntries == naming)
        #expect(compiled.detailRegexes.allSatisfy { !$0.isCompiled })
        for (index, detail) in zip(compiled.detailEntries, compiled.detailRegexes) {
            let names = Set(detail.regex.groupNumbers.keys)
            #expect(!names.isEmpty, "\(Vocabulary.builtin.entries[index].id)")
            #expect(names.isSubset(of: EventRecognizer.Compiled.captureNames), "\(names)")
        }
        let own = VocabularyEntry(
            id: "team-launched", event: .didFinishLaunching, pattern: "app launched", keywords: ["launched"],
            examples: ["app launched"])
        let mixed = try EventRecognizer.Compiled(Vocabulary(entries: Vocabulary.builtin.entries + [own]))
        let ownIndex = Vocabulary.builtin.entries.count
        for (group, members) in zip(mixed.groups, mixed.groupMembers) {
            #expect(group.isCompiled == members.contains(ownIndex), "\(members)")
        }
        // A message only a group that waited can mean is recognised once it is compiled.
        let recognizer = EventRecognizer(compiled: compiled)
        let message = Array("applicationDidBecomeActive:".utf8)
        let entry = message.withUnsafeBytes { recognizer.entryIndex($0) }
        #expect(entry.map { Vocabulary.builtin.entries[$0].event } == .didBecomeActive)
        #expect(compiled.groups.contains { $0.isCompiled })
    }

    /// Of two bad entries, the first is named, whichever fault each has (a syntax error in an entry that names no
    /// group, then an unknown capture name), as when every entry is compiled alone in order.
    @Test func theFirstBadEntryIsNamed() {
        let entries = [
            VocabularyEntry(id: "first", event: .didBecomeActive, pattern: "went (active", examples: []),
            VocabularyEntry(id: "second", event: .willResignActive, pattern: "(?<who>\\w+) resigned", examples: []),
        ]
        for (order, expected) in [(entries, "vocabulary first"), (entries.reversed(), "vocabulary second")] {
            do {
                _ = try EventRecognizer.Compiled(Vocabulary(entries: Vocabulary.builtin.entries + order))
                Issue.record("expected an error")
            } catch {
                #expect(String(describing: error).hasPrefix(expected), "\(error)")
            }
        }
    }

    @Test(arguments: [
        ("(?<pid>\\d+) died", true), ("(?'name'\\w+)", true), ("(?P<bundle>[\\w.]+)", true),
        ("(?<_x>a)", true), ("(?<=did)become", false), ("(?<!\\w)(?<!::)viewDidLoad", false),
        ("applicationDidBecomeActive", false), ("(?:will|did)Enter", false), ("\\(\\?<", false), ("(?<", false),
        ("(?", false),
    ])
    func whetherAPatternMayNameGroups(_ pattern: String, _ may: Bool) {
        #expect(EventRecognizer.Compiled.mayNameGroups(pattern) == may)
    }

    @Test func anExampleThatMeansAnotherEntryIsRejected() {
        let vocabulary = Vocabulary(
            entries: Vocabulary.builtin.entries + [
                VocabularyEntry(
                    id: "dup", event: .didBecomeActive, pattern: "zzz", examples: ["applicationDidBecomeActive:"])
            ])
        #expect(throws: TraceAnalyzeError.self) { try vocabulary.validate() }
    }

    /// A vocabulary of more than 64 keywords (the groups tried in a message past the 64th are kept in a set): a
    /// message naming many keywords whose groups do not match is recognised by the one that does, wherever it is.
    @Test func moreThanSixtyFourKeywordsAreAllTried() throws {
        var entries: [VocabularyEntry] = (0..<70).map { index in
            VocabularyEntry(
                id: "team-\(index)", event: .didBecomeActive, pattern: "zqx\(index)word done",
                keywords: ["zqx\(index)word"],
                examples: ["zqx\(index)word done"])
        }
        entries.append(Vocabulary.builtin.entries.first { $0.event == .didEnterBackground }!)
        let recognizer = try EventRecognizer(vocabulary: Vocabulary(entries: entries))
        let noise = (0..<70).map { "zqx\($0)word " }.joined()  // every keyword, no group matches
        #expect(recognizer.recognize(noise + "applicationDidEnterBackground:")?.event == .didEnterBackground)
        #expect(recognizer.recognize(noise + "zqx69word done")?.entryID == "team-69")
        #expect(recognizer.recognize(noise) == nil)
    }

    /// The analyser skips the checks for the built-in definitions alone (the tests above make them), never for a
    /// config's changes: a bad example or sample added to the built-in ones still stops it before any input.
    @Test func theAnalyserChecksWhatAConfigChanges() throws {
        _ = try Analyzer()
        let vocabulary = Vocabulary(
            entries: Vocabulary.builtin.entries + [
                VocabularyEntry(
                    id: "dup", event: .didBecomeActive, pattern: "zzz", examples: ["applicationDidBecomeActive:"])
            ])
        #expect(throws: TraceAnalyzeError.self) { try Analyzer(vocabulary: vocabulary) }
        var greedy = LogFormat.nslogUntimed
        greedy.id = "greedy"
        greedy.pattern = #"^(?<message>.*)$"#
        greedy.samples = [.init(line: "2013-10-13 12:24:09.948 AppDelegate[12199:60b] hello")]
        #expect(throws: TraceAnalyzeError.self) { try Analyzer(formats: LogFormat.builtin + [greedy]) }
        #expect(throws: TraceAnalyzeError.self) {
            try Analyzer(formats: Array(LogFormat.builtin.dropLast()) + [greedy])
        }
    }
}

@Suite("Keyword scanner")
struct KeywordScannerTests {
    /// The vector search's buckets for the built-in keywords are known ahead (``KeywordScanner/builtinPlacement``,
    /// from `Scripts/keyword-placement.py`): the digest must be the built-in keywords', each keyword must be in one of
    /// the eight buckets, and on log text they must let fewer positions where no keyword begins through the filter
    /// than the buckets the letter-frequency model works out: a quarter fewer at least in an NSLog capture of another
    /// seed than the one the search read (46 instead of 711 with VBMI, 927 instead of 1,618 through the nibble
    /// tables), and no more in the samples (21 instead of 78, 87 instead of 283).
    @Test func theBuiltinKeywordPlacementLetsLessLogTextThroughThanTheModel() throws {
        let keywords = try EventRecognizer.Compiled(Vocabulary.builtin).keywords
        #expect(
            keywords.literalDigest == KeywordScanner.builtinPlacement.digest,
            "builtinPlacement.digest should be \(String(keywords.literalDigest, radix: 16))")
        let literals = keywords.literals
        let buckets = KeywordScanner.builtinPlacement.buckets
        #expect(buckets.count == 8 && buckets.joined().sorted() == Array(literals.indices))
        guard let builtin = LiteralSearch(literals, placement: buckets), let model = LiteralSearch(literals) else {
            return  // no vector search on this processor
        }
        /// The positions of `text` each search's filter lets through where no keyword begins.
        func passing(_ text: [UInt8]) -> (builtin: Int, model: Int) {
            let words = LiteralSearch.Marks.words(for: text.count)
            let padded = text + [UInt8](repeating: 0, count: LiteralSearch.Marks.padding)
            var newlines = [UInt64](repeating: 0, count: words)
            var candidates = [UInt64](repeating: 0, count: words)
            let counts = padded.withUnsafeBytes { raw in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[..<text.count])
                func marks() -> Int { candidates.reduce(0) { $0 + $1.nonzeroBitCount } }
                return [builtin, model].map { search in
                    search.handle.scan(bytes, newlines: &newlines, candidates: &candidates)
                    let marked = marks()
                    // Verified, only the positions where a keyword begins stay marked.
                    search.handle.scan(bytes, newlines: &newlines, candidates: &candidates, verifyingWithin: text.count)
                    return marked - marks()
                }
            }
            return (counts[0], counts[1])
        }
        let capture = try TestSupport.run(["--size", "1MB", "--seed", "3"], executable: TestSupport.generator)
        #expect(capture.status == 0, "\(capture.stderr)")
        let generated = passing(Array(capture.stdout.utf8))
        #expect(generated.builtin * 4 <= generated.model * 3, "\(generated)")
        var samples: [UInt8] = []
        for name in TestSupport.sampleNames {
            samples += try Array(Data(contentsOf: TestSupport.samples.appendingPathComponent(name)))
        }
        let sampled = passing(samples)
        #expect(sampled.builtin <= sampled.model, "\(sampled)")
    }

    /// Lines UIKit prints often hold no keyword of the built-in vocabulary, so the runs of headers take them whole:
    /// `Unbalanced calls to begin/end appearance transitions` held `appear`, the view controllers' keyword, until
    /// their entries took the spellings of their callbacks (412 of the 663 keyword lines of the benchmark capture's
    /// first 3 MB were that warning, each read line by line). The callbacks' own lines still hold one.
    @Test func commonUIKitWarningsHoldNoKeyword() throws {
        let keywords = try EventRecognizer.Compiled(Vocabulary.builtin).keywords
        for line in [
            "Unbalanced calls to begin/end appearance transitions for <UINavigationController: 0x7feb50e03c60>.",
            "Attempt to present <UIAlertController: 0x7f8> whose view is not in the window hierarchy!",
            "[LayoutConstraints] Unable to simultaneously satisfy constraints.",
        ] {
            #expect(Self.find(keywords, line) == nil, "\(line)")
        }
        for line in [
            "-[ThirdViewController viewWillAppear:]", "viewIsAppearing(_:)", "Root View Controller: View Did Appear",
            "-[ThirdViewController viewWillDisappear:]", "viewDidDisappear(_:)", "view_did_appear",
        ] {
            #expect(Self.find(keywords, line) != nil, "\(line)")
        }
    }

    static func find(_ scanner: KeywordScanner, _ text: String, from start: Int = 0) -> (Int, Int)? {
        var copy = text
        return copy.withUTF8 { scanner.find(in: UnsafeRawBufferPointer($0), from: start) }.map {
            ($0.keyword, $0.position)
        }
    }

    @Test func findsKeywordsWithoutCaseInOrderOfPosition() {
        let scanner = KeywordScanner(["active", "terminate", "terminated", "x"])
        #expect(Self.find(scanner, "App did become ACTIVE")! == (0, 15))
        #expect(Self.find(scanner, "Terminated due to signal 9")!.1 == 0)
        #expect(Self.find(scanner, "nothing here") == nil)
        #expect(Self.find(scanner, "last byte x")! == (3, 10))
        #expect(Self.find(scanner, "active and active", from: 1)! == (0, 11))
        #expect(Self.find(scanner, "", from: 0) == nil)
        #expect(Self.find(scanner, "activ") == nil)
        // Two- and three-byte keywords, at the very end and cut short by it.
        let short = KeywordScanner(["go", "nib", "active"])
        #expect(Self.find(short, "let's go")! == (0, 6))
        #expect(Self.find(short, "awakeFromNib")! == (1, 9))
        #expect(Self.find(short, "awakeFromNi") == nil)
        #expect(Self.find(short, "Nib")! == (1, 0))
        #expect(Self.find(short, "acted, then active")! == (2, 12))
    }

    /// The first keyword at or after `start` by comparing every keyword at every position.
    static func naive(_ keywords: [String], _ text: [UInt8], from start: Int) -> (Int, Int)? {
        let lowered = keywords.map { Array($0.utf8).map(KeywordScanner.lower) }
        let message = text.map(KeywordScanner.lower)
        for position in start..<max(start, message.count) {
            for (index, keyword) in lowered.enumerated()
            where position + keyword.count <= message.count
                && Array(message[position..<position + keyword.count]) == keyword
            {
                return (index, position)
            }
        }
        return nil
    }

    /// Sampling every second position (all keywords ≥ 3 bytes) and every position (a shorter one) both find
    /// exactly what a naive search finds, from every start, in random messages built from keyword pieces.
    @Test(arguments: [["active", "nib", "terminate", "terminated", "view", "hide"], ["go", "nib", "active", "x"]])
    func findsWhatANaiveSearchFinds(keywords: [String]) {
        let scanner = KeywordScanner(keywords)
        var random = SplitMix64(seed: 7)
        let pieces = keywords + ["Ac", "TIV", "e", " ", "ni", "B", "vie", "W", "termin", "ATED", "zz", "q"]
        for _ in 0..<3000 {
            var text: [UInt8] = []
            for _ in 0..<Int(random.next() % 8) {
                var piece = Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8)
                if random.next() % 2 == 0 { piece = piece.map { $0 &- 97 < 26 ? $0 - 32 : $0 } }
                text += piece
            }
            for start in 0...text.count {
                let found = text.withUnsafeBytes { scanner.find(in: $0, from: start) }
                let expected = Self.naive(keywords, text, from: start)
                #expect(found?.keyword == expected?.0 && found?.position == expected?.1, "\(text) from \(start)")
            }
        }
    }

    /// The vector search (x86-64 with AVX2) finds exactly what the scalar scan finds, from every start, in long
    /// random messages of keyword pieces, noise and bytes that fold onto letters — the built-in keywords and a
    /// vocabulary of many that share their first bytes (every bucket holds several).
    @Test(arguments: [
        Array(Set(Vocabulary.builtin.entries.flatMap(\.keywords).map { $0.lowercased() })).sorted(),
        (0..<40).map { "ke\($0 % 7)y\($0)word" } + ["nib", "abc", "abcd", "zzz"],
    ])
    func theVectorSearchFindsWhatTheScalarScanFinds(keywords: [String]) {
        let vector = KeywordScanner(keywords)
        let scalar = KeywordScanner(keywords, vector: false)
        #expect(!scalar.isVector)
        guard vector.isVector else { return }  // no AVX2 here: both are the scalar scan
        var random = SplitMix64(seed: 11)
        let pieces =
            keywords + ["Ac", "TIV", "e", " ", "ni", "B", "vie", "W", "termin", "ATED", "zz", "q", "ke3y"]
            + ["reachability flag status", "@", "`", "\u{7F}", "{", "[", "\u{C3}\u{A9}", "connection", "for"]
        for _ in 0..<1500 {
            var text: [UInt8] = []
            for _ in 0..<Int(random.next() % 40) {
                var piece = Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8)
                if random.next() % 2 == 0 { piece = piece.map { $0 &- 97 < 26 ? $0 - 32 : $0 } }
                if random.next() % 9 == 0 { piece = piece.map { $0 ^ 0x20 } }  // bytes that fold alike
                text += piece
            }
            for start in stride(from: 0, through: text.count, by: text.count > 64 ? 7 : 1) {
                let found = text.withUnsafeBytes { vector.find(in: $0, from: start) }
                let expected = text.withUnsafeBytes { scalar.find(in: $0, from: start) }
                #expect(
                    found?.keyword == expected?.keyword && found?.position == expected?.position,
                    "\(String(decoding: text, as: UTF8.self).debugDescription) from \(start)")
            }
        }
    }

    @Test func everyBuiltInExampleHoldsAKeywordTheScannerFinds() throws {
        let keywords = Array(Set(Vocabulary.builtin.entries.flatMap(\.keywords).map { $0.lowercased() })).sorted()
        let scanner = KeywordScanner(keywords)
        for entry in Vocabulary.builtin.entries {
            for example in entry.examples { #expect(Self.find(scanner, example) != nil, "\(entry.id): \(example)") }
        }
    }
}
