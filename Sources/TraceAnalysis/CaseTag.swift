/// The tag the compiler stores for a case of a payload-free enum of 2 to 256 cases (one byte): what the enums
/// below compare and hash instead of their raw values.
///
/// An enum with raw values gets `==` and `hash(into:)` from `RawRepresentable`, which compare and hash the raw
/// value: for these string-valued enums, a string compared or hashed at every dictionary or set lookup (the
/// episodes' scenario tallies, the violations' counts by rule, the launch milestones' set of events). Two cases are
/// equal exactly when their tags are (the raw values are distinct), so only the hash values change, and no output
/// depends on them (Swift seeds its hashes per process: every report sorts what it lists).
@inline(__always)
func caseTag<T>(_ value: T) -> UInt8 {
    assert(MemoryLayout<T>.size == 1, "\(T.self) is not stored as one byte")
    return withUnsafeBytes(of: value) { $0[0] }
}

extension Scenario {
    public static func == (a: Scenario, b: Scenario) -> Bool { caseTag(a) == caseTag(b) }
    public func hash(into hasher: inout Hasher) { hasher.combine(caseTag(self)) }
}

extension ViolationRule {
    public static func == (a: ViolationRule, b: ViolationRule) -> Bool { caseTag(a) == caseTag(b) }
    public func hash(into hasher: inout Hasher) { hasher.combine(caseTag(self)) }
}

extension LifecycleEvent {
    public static func == (a: LifecycleEvent, b: LifecycleEvent) -> Bool { caseTag(a) == caseTag(b) }
    public func hash(into hasher: inout Hasher) { hasher.combine(caseTag(self)) }
}

extension AppState {
    public static func == (a: AppState, b: AppState) -> Bool { caseTag(a) == caseTag(b) }
    public func hash(into hasher: inout Hasher) { hasher.combine(caseTag(self)) }
}
