import Foundation
import Testing

@testable import TraceAnalysis

/// The fuzz target's JSON check (``JSONSyntax``) agrees with Foundation's parser on texts right and wrong.
@Suite("JSON syntax")
struct JSONSyntaxTests {
    static func foundationSaysObject(_ text: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text))) is [String: Any]
    }

    @Test(arguments: [
        "{}", " {\"a\": 1}\n", "{\"a\": [1, -2.5e-3, 0, true, false, null, \"x\\u00e9\\n\\\"\"], \"b\": {}}",
        "{\"é\": \"日本\"}", "{\"a\":[[[[]]]]}", "[]", "1", "\"x\"", "{", "{\"a\" 1}", "{\"a\": 01}", "{\"a\": 1.}",
        "{\"a\": .5}", "{\"a\": +1}", "{'a': 1}", "{\"a\": tru}", "{\"a\": \"\u{1}\"}",
        "{\"a\": \"\\x\"}", "{\"a\": \"\\u12G4\"}", "{\"a\": 1} x", "{\"a\": 1}{}", "{\"a\": -}", "{\"a\": 1e}",
        "{\"a\": NaN}", "",
    ])
    func agreesWithFoundation(_ text: String) {
        let bytes = Array(text.utf8)
        #expect((JSONSyntax.objectProblem(bytes) == nil) == Self.foundationSaysObject(bytes), "\(text)")
    }

    /// Stricter than Foundation, which takes a trailing comma: RFC 8259 and the tools reports are read with (`jq`,
    /// Python's `json`) do not.
    @Test(arguments: ["{\"a\": [1,]}", "{\"a\": 1,}"])
    func trailingCommasAreRefused(_ text: String) {
        #expect(JSONSyntax.objectProblem(Array(text.utf8)) != nil)
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(JSONSyntax.objectProblem(Array("{\"a\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8)) != nil)
    }

    @Test func everySamplesJSONReportIsAnObject() throws {
        for name in TestSupport.sampleNames {
            let result = try TestSupport.run(["--timezone", "UTC", "--format", "json", "samples/" + name])
            let bytes = Array(result.stdout.utf8)
            #expect(JSONSyntax.objectProblem(bytes) == nil, "\(name)")
            #expect(Self.foundationSaysObject(bytes), "\(name)")
        }
    }
}
