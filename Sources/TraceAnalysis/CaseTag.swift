/// A payload-free enum with string raw values that compares and hashes the tag the compiler stores for its case
/// (one byte) instead of its raw value.
///
/// An enum with raw values gets `==` and `hash(into:)` from `RawRepresentable`, which compare and hash the raw
/// value: for these enums, a string compared or hashed at every dictionary or set lookup (the episodes' scenario
/// tallies, the violations' counts by rule, the launch milestones' set of events). Two cases are equal exactly when
/// their tags are (the raw values are distinct), so only the hash values change, and no output depends on them
/// (Swift seeds its hashes per process: every report sorts what it lists). This protocol refines
/// `RawRepresentable`, so its members are the ones a conforming enum takes, in generic code too.
public protocol CaseTagged: RawRepresentable, Hashable {}

extension CaseTagged {
    public static func == (a: Self, b: Self) -> Bool { caseTag(a) == caseTag(b) }
    public func hash(into hasher: inout Hasher) { hasher.combine(caseTag(self)) }
    // `RawRepresentable` has a `hashValue` of its own, from the raw value; this one agrees with `hash(into:)`.
    public var hashValue: Int {
        var hasher = Hasher()
        hash(into: &hasher)
        return hasher.finalize()
    }
}

extension Scenario: CaseTagged {}
extension ViolationRule: CaseTagged {}
extension LifecycleEvent: CaseTagged {}
extension AppState: CaseTagged {}

/// The tag of `value`'s case, an enum stored as one byte (2 to 256 cases without payloads).
@inline(__always)
func caseTag<T>(_ value: T) -> UInt8 {
    assert(MemoryLayout<T>.size == 1, "\(T.self) is not stored as one byte")
    return withUnsafeBytes(of: value) { $0[0] }
}
