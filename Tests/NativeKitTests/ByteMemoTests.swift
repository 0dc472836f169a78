import NativeKit
import Testing

@Suite("Byte memo")
struct ByteMemoTests {
    private static func with<T>(_ text: String, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        var copy = text
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    private static func answer(_ memo: ByteMemo, _ text: String) -> Int32? {
        with(text) { memo.answer(for: $0, hash: ByteMemo.hash($0)) }
    }

    private static func store(_ memo: ByteMemo, _ text: String, _ answer: Int32, generation: Int? = nil) {
        let generation = generation ?? memo.generation
        with(text) { memo.store($0, hash: ByteMemo.hash($0), answer: answer, generation: generation) }
    }

    @Test func keepsAnswersForTheSameBytesOnly() {
        let memo = ByteMemo()
        #expect(Self.answer(memo, "applicationDidBecomeActive:") == nil)
        Self.store(memo, "applicationDidBecomeActive:", 7)
        Self.store(memo, "Received memory warning.", -1)
        Self.store(memo, "", 3)
        #expect(Self.answer(memo, "applicationDidBecomeActive:") == 7)
        #expect(Self.answer(memo, "Received memory warning.") == -1)
        #expect(Self.answer(memo, "") == 3)
        // A string one byte longer or shorter, or one byte different, is another string.
        #expect(Self.answer(memo, "applicationDidBecomeActive") == nil)
        #expect(Self.answer(memo, "applicationDidBecomeActive:x") == nil)
        #expect(Self.answer(memo, "applicationDidBecomeActivf:") == nil)
    }

    /// Texts whose hashes fall in one set, at least `count` of them.
    private static func sharingASet(_ count: Int) throws -> [String] {
        var bySet: [UInt64: [String]] = [:]
        for index in 0..<4_000 {
            let text = "message \(index)"
            bySet[Self.with(text) { ByteMemo.hash($0) } >> 56 & UInt64(ByteMemo.sets - 1), default: []].append(text)
        }
        return try #require(bySet.values.first { $0.count >= count })
    }

    /// Two strings that share a set are both kept (direct-mapped slots made two frequent messages push each other
    /// out at every line); a third takes the place of the one used less recently. The bytes are compared, not only
    /// the hash.
    @Test func aSetKeepsTheTwoStringsUsedLast() throws {
        let memo = ByteMemo()
        let texts = try Self.sharingASet(3)
        let (first, second, third) = (texts[0], texts[1], texts[2])
        Self.store(memo, first, 1)
        Self.store(memo, second, 2)
        for _ in 0..<3 {
            #expect(Self.answer(memo, first) == 1)
            #expect(Self.answer(memo, second) == 2)
        }
        // `first` used last: `second` makes way for `third`.
        #expect(Self.answer(memo, first) == 1)
        Self.store(memo, third, 3)
        #expect(Self.answer(memo, second) == nil)
        #expect(Self.answer(memo, first) == 1)
        #expect(Self.answer(memo, third) == 3)
        // Stored again, a string takes its own slot, not the other one's.
        Self.store(memo, third, 4)
        #expect(Self.answer(memo, third) == 4)
        #expect(Self.answer(memo, first) == 1)
        // The same hash with other bytes: no answer.
        let hash = Self.with(third) { ByteMemo.hash($0) }
        #expect(Self.with("another message") { memo.answer(for: $0, hash: hash) } == nil)
    }

    /// The hash reads the length and three words (the first, the middle and the last eight bytes): strings that
    /// differ only elsewhere share a hash, and the memo still tells them apart by their bytes.
    @Test func hashesReadTheLengthAndThreeWords() {
        let texts = [
            "", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnoq",
            "bbcdefghijklmnop", "abcdefgxijklmnop", String(repeating: "x", count: 200),
            String(repeating: "x", count: 201),
        ]
        let hashes = texts.map { Self.with($0) { ByteMemo.hash($0) } }
        #expect(Set(hashes).count == texts.count)
        #expect(hashes.allSatisfy { $0 & 1 == 1 })
        #expect(Self.with("abcdefghi") { ByteMemo.hash($0) } == hashes[5])
        // 32 bytes: the words at 0, 12 and 24; byte 9 is in none of them.
        let one = "applicationDidBecomeActive(_:) 1"
        let other = "applicatiXnDidBecomeActive(_:) 1"
        #expect(Self.with(one) { ByteMemo.hash($0) } == Self.with(other) { ByteMemo.hash($0) })
        let memo = ByteMemo()
        Self.store(memo, one, 4)
        #expect(Self.answer(memo, one) == 4)
        #expect(Self.answer(memo, other) == nil)
    }

    @Test func longStringsAreNotKept() {
        let memo = ByteMemo()
        let longest = String(repeating: "k", count: ByteMemo.longest)
        let longer = longest + "k"
        Self.store(memo, longest, 5)
        Self.store(memo, longer, 6)
        #expect(Self.answer(memo, longest) == 5)
        #expect(Self.answer(memo, longer) == nil)
    }

    /// A clearing between the lookup that missed and the store drops the answer; one before the lookup does not.
    @Test func clearingForgetsAndRefusesAnswersFromBeforeIt() {
        let memo = ByteMemo()
        Self.store(memo, "kept", 1)
        let before = memo.generation
        memo.clear()
        #expect(memo.generation == before + 1)
        #expect(Self.answer(memo, "kept") == nil)
        Self.store(memo, "late", 2, generation: before)
        #expect(Self.answer(memo, "late") == nil)
        Self.store(memo, "late", 2)
        #expect(Self.answer(memo, "late") == 2)
    }
}
