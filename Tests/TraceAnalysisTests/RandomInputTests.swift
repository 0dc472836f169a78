import Testing

@testable import TraceAnalysis

/// Seeded random inputs: the analysis never crashes, accounts for every line and is deterministic.
@Suite("Random input")
struct RandomInputTests {
    static let messages =
        LifecycleEvent.allCases.flatMap { event in
            Vocabulary.builtin.entries.filter { $0.event == event }.flatMap(\.examples)
        } + Vocabulary.builtinBait + ["launchOptions: {", "    key = value;", "}", "", "** note", "noise line"]

    @Test(arguments: 0..<20)
    func randomEventSequences(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed))
        var lines: [String] = []
        var seconds = 0.0
        var pid = 100
        for _ in 0..<300 {
            seconds += Double(random.next() % 3000) / 1000
            if random.next() % 40 == 0 { pid += 1 }
            let message = Self.messages[Int(random.next() % UInt64(Self.messages.count))]
            switch random.next() % 10 {
            case 0: lines.append(message)  // unprefixed
            case 1: lines.append("[\(pid):1a03] \(message)")  // untimed
            default:
                lines.append(ExampleCapture(String(format: seconds, pid: pid, message)).text.dropLast().description)
            }
        }
        let text = lines.joined(separator: random.next() % 2 == 0 ? "\n" : "\r\n")
        let analyzer = try TestSupport.analyzer()
        let first = analyzer.analyze(text: text, name: "random")
        TestSupport.expectAccounted(first.inputs[0])
        #expect(first.inputs[0].lines == lines.count)
        let second = analyzer.analyze(text: text, name: "random")
        #expect(JSONReporter.render(first) == JSONReporter.render(second))
        _ = TextReporter(color: true, showEvents: true).render(first)
        for process in first.processes {
            for episode in process.episodes { #expect(episode.startLine <= episode.endLine) }
        }
    }

    @Test(arguments: 0..<10)
    func randomBytes(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &+ 1000)
        let count = Int(random.next() % 200_000)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            // Mostly printable with newlines, CRs, NULs and high bytes mixed in.
            let roll = random.next() % 100
            bytes[index] =
                roll < 3
                ? 0x0A
                : roll < 4
                    ? 0x0D
                    : roll < 5
                        ? 0
                        : roll < 10
                            ? UInt8(0x80 + random.next() % 128)
                            : UInt8(0x20 + random.next() % 95)
        }
        var reader = LineReader(bytes: bytes, chunkSize: 4096, maximumLineLength: 512)
        var lines = 0
        try reader.forEachLine { _, _ in lines += 1 }
        let newlines = bytes.filter { $0 == 0x0A }.count
        #expect(lines == newlines + (bytes.last == 0x0A || bytes.isEmpty ? 0 : 1))
        let report = try TestSupport.analyzer().analyze([.bytes(name: "bytes", bytes)])
        TestSupport.expectAccounted(report.inputs[0])
        #expect(report.inputs[0].lines == lines)
        #expect(report.inputs[0].bytes == Int64(bytes.count))
    }
}

extension String {
    /// One line in the ``ExampleCapture`` notation.
    fileprivate init(format seconds: Double, pid: Int, _ message: String) {
        self = "\(seconds) @\(pid) \(message)"
    }
}
