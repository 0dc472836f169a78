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
