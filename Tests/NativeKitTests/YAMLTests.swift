import Testing

@testable import NativeKit

/// The YAML composer over libyaml: the tree, the lines, the scalar styles and tags, anchors, and every failure with
/// the line it names.
@Suite("YAML")
struct YAMLTests {
    /// The tree as text: scalars as `text` (plain) or `'text'` (quoted), `!tag` before a tagged one, lines after `@`.
    static func shape(_ node: YAML.Node) -> String {
        switch node.content {
        case .scalar(let text, let plain, let tag):
            return (tag.map { "!\($0) " } ?? "") + (plain ? text : "'\(text)'") + "@\(node.line)"
        case .sequence(let items): return "[" + items.map(shape).joined(separator: ", ") + "]@\(node.line)"
        case .mapping(let pairs):
            return "{" + pairs.map { "\(shape($0.key)): \(shape($0.value))" }.joined(separator: ", ") + "}@\(node.line)"
        }
    }

    static func compose(_ text: String) -> String {
        do {
            return try YAML.compose(text).map(shape) ?? "nil"
        } catch {
            return "error: \(error)"
        }
    }

    @Test(arguments: [
        ("", "nil"),
        ("# only a comment\n", "nil"),
        ("---\n...\n", "@2"),  // a document of nothing: an empty plain scalar
        ("a: 1\n", "{a@1: 1@1}@1"),
        ("a: 'x'\nb: \"y\"\nc: z\n", "{a@1: 'x'@1, b@2: 'y'@2, c@3: z@3}@1"),
        ("- 1\n- [2, 3]\n- {k: v}\n", "[1@1, [2@2, 3@2]@2, {k@3: v@3}@3]@1"),
        ("a:\n  b:\n    - x\n", "{a@1: {b@2: [x@3]@3}@2}@1"),
        ("{\"version\": 1, \"list\": [true, null]}", "{'version'@1: 1@1, 'list'@1: [true@1, null@1]@1}@1"),
        ("x: !!str 12\n", "{x@1: !tag:yaml.org,2002:str 12@1}@1"),
        ("text: |\n  one\n  two\n", "{text@1: 'one\ntwo\n'@1}@1"),
        ("a: &x [1]\nb: *x\n", "{a@1: [1@1]@1, b@2: [1@1]@1}@1"),
        ("\"quoted \\u00e9\\t\": 'it''s'\n", "{'quoted é\t'@1: 'it's'@1}@1"),
        ("k:\n", "{k@1: @1}@1"),  // an empty plain scalar: null
    ])
    func composesTheTree(_ text: String, _ expected: String) {
        #expect(Self.compose(text) == expected)
    }

    @Test(arguments: [
        ("a: 1\n\tb: 2\n", "line 2: found a tab character"),
        ("a: [1, 2\n", "line 2: did not find expected ',' or ']'"),
        ("a: b: c\n", "line 1: mapping values are not allowed in this context"),
        ("a: 1\n---\nb: 2\n", "line 2: expected a single document in the stream but found another document"),
        ("a: *nowhere\n", "line 1: found undefined alias"),
        ("a: 1\nb: 2\na: 3\nb: 4\nc: 5\n", "line 1: duplicated keys a, b"),
        ("top:\n  x: 1\n  y: 2\n  x: 3\n", "line 2: duplicated keys x"),
        ("- [" + String(repeating: "[", count: 1500), "line 1: collections nested more than 1000 deep"),
    ])
    func failuresNameTheirLine(_ text: String, _ expected: String) {
        #expect(Self.compose(text).hasPrefix("error: " + expected), "\(Self.compose(text))")
    }

    @Test func aControlCharacterIsAReaderFailureAtItsByte() throws {
        do {
            _ = try YAML.compose("a: é\nb: \u{1}\n")
            Issue.record("expected a reader failure")
        } catch {
            #expect(error == .reader(problem: "control characters are not allowed", offset: 9, value: 1))
        }
    }

    /// Nesting near the limit and far past it: read, or refused, without using the stack (a recursion 100,000
    /// deep would overflow a test thread's stack).
    @Test func deepNestingNeitherRecursesNorRunsAway() throws {
        let depth = YAML.maximumDepth
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var node = try #require(try YAML.compose(nested))
        var levels = 1
        while case .sequence(let items) = node.content, let first = items.first {
            node = first
            levels += 1
        }
        #expect(levels == depth)
        #expect(Self.compose("[" + nested + "]").hasPrefix("error: line 1: collections nested more than"))
        #expect(Self.compose(String(repeating: "- ", count: 100_000) + "x\n").hasPrefix("error: line 1: collections"))
        #expect(Self.compose(String(repeating: "[", count: 100_000)).hasPrefix("error: line 1: collections"))
    }

    /// Big flat documents and many anchors: every node kept, in order.
    @Test func aLongListKeepsEveryItemInOrder() throws {
        let text = (0..<20_000).map { "- &a\($0) item \($0)\n" }.joined() + "- *a19999\n"
        let root = try #require(try YAML.compose(text))
        guard case .sequence(let items) = root.content else {
            Issue.record("not a sequence")
            return
        }
        #expect(items.count == 20_001)
        guard case .scalar(let last, _, _) = items[20_000].content, case .scalar(let first, _, _) = items[0].content
        else {
            Issue.record("not scalars")
            return
        }
        #expect(first == "item 0" && last == "item 19999" && items[19_999].line == 20_000)
    }

    /// Random texts built from YAML's own punctuation, and a configuration cut and changed at random: each is a tree or
    /// a failure with a line inside the text, never a crash or a hang.
    @Test func randomTextsComposeOrFailWithALine() {
        var random = Random(seed: 42)
        let pieces = [
            "-", " ", "  ", "\n", ":", "? ", "[", "]", "{", "}", ",", "&a", "*a", "!!str", "!x", "|", ">", "'", "\"",
            "#",
            "a", "key", "1", "---", "...", "%YAML 1.1", "\t", "\\", "\u{e9}", "\r\n",
        ]
        let configuration =
            "version: 1\nbudgets:\n  launch: 400ms\nformats:\n  - id: x\n    pattern: '^(?<message>.*)$'\n"
        for round in 0..<3000 {
            var text: String
            if round % 2 == 0 {
                text = (0..<Int(random.next() % 40)).map { _ in random.pick(pieces) }.joined()
            } else {
                var bytes = Array(configuration.utf8)
                for _ in 0..<Int(1 + random.next() % 4) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] = Array(random.pick(pieces).utf8).first ?? 0x20
                }
                text = String(decoding: bytes.prefix(Int(random.next() % UInt64(bytes.count + 1))), as: UTF8.self)
            }
            // A line break is LF, CR or both (and NEL, LS, PS, which the pieces do not hold).
            let lines = text.utf8.count { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } + 2
            do {
                _ = try YAML.compose(text)
            } catch {
                switch error {
                case .syntax(_, let line), .duplicateKeys(_, let line): #expect((1...lines).contains(line), "\(text)")
                case .reader(_, let offset, _): #expect(offset <= text.utf8.count, "\(text)")
                }
            }
        }
    }
}
