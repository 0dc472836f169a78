import NativeKit
import Testing

@testable import TraceAnalysis

/// Scalars read as numbers and booleans the way configuration files written for Yams (the Swift wrapper of libyaml
/// this project read them with before) were read: YAML 1.1's forms, from unquoted scalars only.
@Suite("YAML values")
struct YAMLValuesTests {
    static func value(_ text: String) throws -> Node {
        let root = try #require(try YAML.compose("v: \(text)\n"))
        return try #require(root.mapping?["v"])
    }

    @Test(arguments: [
        ("1", 1), ("-12", -12), ("+7", 7), ("1_000", 1000), ("0x1F", 31), ("0b101", 5), ("0o17", 15), ("017", 15),
        ("0", 0), ("1:30", 90), ("-1:00:01", -3601),
    ])
    func plainWholeNumbers(_ text: String, _ expected: Int) throws {
        #expect(try Self.value(text).int == expected)
    }

    @Test(arguments: ["\"1\"", "'1'", "1.5", "x", "09", "0x", "", "[1]", "99999999999999999999"])
    func notWholeNumbers(_ text: String) throws {
        #expect(try Self.value(text).int == nil)
    }

    @Test(arguments: [
        ("1.5", 1.5), ("-2", -2), ("1e3", 1000), ("1_000.25", 1000.25), (".inf", .infinity), ("-.Inf", -.infinity),
        ("1:30.5", 90.5),
    ])
    func plainNumbers(_ text: String, _ expected: Double) throws {
        #expect(try Self.value(text).float == expected)
    }

    @Test func notANumberIsOne() throws {
        #expect(try Self.value(".NaN").float?.isNaN == true)
        #expect(try Self.value("\"1.5\"").float == nil)
    }

    @Test(arguments: [
        ("true", true), ("True", true), ("TRUE", true), ("yes", true), ("on", true), ("ON", true), ("false", false),
        ("No", false), ("off", false), ("!!bool \"true\"", true),
    ])
    func booleans(_ text: String, _ expected: Bool) throws {
        #expect(try Self.value(text).bool == expected)
    }

    @Test(arguments: ["\"true\"", "'yes'", "tRUE", "1", "y", "!!str true", ""])
    func notBooleans(_ text: String) throws {
        #expect(try Self.value(text).bool == nil)
    }

    @Test func stringsAreTheTextHoweverWritten() throws {
        #expect(try Self.value("\"a: b\"").string == "a: b")
        #expect(try Self.value("12").string == "12")
        #expect(try Self.value("[1]").string == nil)
        let root = try #require(try YAML.compose("a: 1\nb: [x]\n"))
        #expect(root.mapping?["b"]?.sequence?.first?.string == "x")
        #expect(root.mapping?["c"] == nil)
        #expect(root.sequence == nil && root.string == nil)
    }
}
