import Foundation
import Testing

@testable import TraceAnalysis

/// The guard of every optimisation: the JSON and text reports of every sample and every real capture are
/// byte-identical to the recorded ones (`Golden/output-digests.txt`: a 64-bit FNV-1a digest and the length of
/// each). A change meant to alter reports re-records them with `RECORD_GOLDEN=1 swift test`; a speed-up must not.
@Suite("Output identity")
struct OutputIdentityTests {
    static let digestFile = "output-digests.txt"

    /// Every sample, and every real capture when `../shared/corpus/real` is there.
    static func captures() throws -> [(name: String, url: URL)] {
        var captures = TestSupport.sampleNames.map { ("samples/" + $0, TestSupport.samples.appendingPathComponent($0)) }
        if TestSupport.corpusExists {
            let files = try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.path)
                .filter { !$0.hasSuffix(".md") }.sorted()
            captures += files.map { ("corpus/" + $0, TestSupport.corpus.appendingPathComponent($0)) }
        }
        return captures
    }

    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    @Test func reportsAreByteIdenticalToTheRecordedOnes() throws {
        let analyzer = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }
        var lines: [String] = []
        for (name, url) in try Self.captures() {
            let report = analyzer.analyze([.bytes(name: name, Array(try Data(contentsOf: url)))])
            for (format, bytes) in [
                ("json", JSONReporter.bytes(report)), ("text", Array(TextReporter().render(report).utf8)),
            ] {
                lines.append("\(name) \(format) \(String(Self.fnv1a(bytes), radix: 16)) \(bytes.count)")
            }
        }
        let actual = lines.joined(separator: "\n") + "\n"
        let url = TestSupport.golden.appendingPathComponent(Self.digestFile)
        if TestSupport.recordingGolden {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        // Without the corpus (outside this workspace), only the samples' lines are compared.
        let relevant = TestSupport.corpusExists ? expected : expected.filter { $0.hasPrefix("samples/") }
        for (got, want) in zip(lines, relevant) {
            #expect(got == want, "report differs from the recorded one")
        }
        #expect(lines.count == relevant.count)
    }
}
