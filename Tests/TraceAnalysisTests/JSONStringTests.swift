import Foundation
import Testing

@testable import TraceAnalysis

/// `JSONString.unescape` decodes an ndjson message: as Foundation's JSON decoder on valid strings, and without
/// failing on what `log` never writes (a lone surrogate, a trailing backslash).
@Suite("JSON string decoding")
struct JSONStringTests {
    static func unescape(_ body: String) -> [UInt8] {
        var out: [UInt8] = [1, 2, 3]  // overwritten
        Array(body.utf8).withUnsafeBytes { JSONString.unescape($0, into: &out) }
        return out
    }

    @Test func decodesValidStringsAsFoundationDoes() throws {
        let tokens = [
            "plain", " ", "é", "日本", "😀", "\\n", "\\t", "\\r", "\\b", "\\f", "\\\"", "\\\\", "\\/", "\\u00e9",
            "\\u65e5", "\\ud83d\\ude00", "\\u0041", "{", "}", "a:b",
        ]
        var random = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            let body = (0..<Int(random.next() % 12)).map { _ in tokens[Int(random.next() % UInt64(tokens.count))] }
                .joined()
            let decoded = try JSONSerialization.jsonObject(with: Data("[\"\(body)\"]".utf8)) as? [String]
            let expected = try #require(decoded?.first)
            #expect(Self.unescape(body) == Array(expected.utf8), "\(body.debugDescription)")
        }
    }

    @Test func keepsGoingOnWhatIsNotValid() {
        #expect(Self.unescape("a\\") == Array("a\\".utf8))
        #expect(Self.unescape("\\ud800x") == Array("\u{FFFD}x".utf8))
        #expect(Self.unescape("\\ud800\\ud800\\udc00") == Array("\u{FFFD}\u{10000}".utf8))
        #expect(Self.unescape("\\udc00") == Array("\u{FFFD}".utf8))
        #expect(Self.unescape("\\q\\u12") == Array("qu12".utf8))
        #expect(Self.unescape("") == [])
    }
}
