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

    @Test func anExampleThatMeansAnotherEntryIsRejected() {
        let vocabulary = Vocabulary(
            entries: Vocabulary.builtin.entries + [
                VocabularyEntry(
                    id: "dup", event: .didBecomeActive, pattern: "zzz", examples: ["applicationDidBecomeActive:"])
            ])
        #expect(throws: TraceAnalyzeError.self) { try vocabulary.validate() }
    }
}

@Suite("Keyword scanner")
struct KeywordScannerTests {
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

    @Test func everyBuiltInExampleHoldsAKeywordTheScannerFinds() throws {
        let keywords = Array(Set(Vocabulary.builtin.entries.flatMap(\.keywords).map { $0.lowercased() })).sorted()
        let scanner = KeywordScanner(keywords)
        for entry in Vocabulary.builtin.entries {
            for example in entry.examples { #expect(Self.find(scanner, example) != nil, "\(entry.id): \(example)") }
        }
    }
}
