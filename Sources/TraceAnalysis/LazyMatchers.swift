import NativeKit

/// Matchers for a list of patterns, each made when it is first used. A batch makes a record parser and a
/// recogniser per input, and most inputs use few of their patterns (the formats they are not in, the vocabulary
/// groups of keywords they never hold): a matcher allocates PCRE2 match data and a match context, and frees them.
/// One per thread, as a ``Matcher`` is.
final class LazyMatchers {
    /// The pattern of each index: an array's element, no wrapper made per input (a batch made twenty
    /// ``DeferredRegex`` an input, each with its lock, and freed them: about 40,000 instructions an input).
    private let regex: (Int) -> Regex
    let indices: Range<Int>
    /// The owner a matcher names when its pattern gives up, written only then.
    private let owner: (Int) -> String
    private let failureLog: MatchFailureLog?
    // Not checked for exclusive access at run time (read per line and per prefix tried; written only by `make`, on
    // the one thread the matchers belong to, while no other access to them is open): the check cost more than
    // the read.
    @exclusivity(unchecked) private var made: [Matcher?]
    /// ``made``'s matchers, unretained (``made`` keeps them): read per line without counting a reference.
    @exclusivity(unchecked) private var references: [Unmanaged<Matcher>?]

    convenience init(_ regexes: [Regex], failureLog: MatchFailureLog?, owner: @escaping (Int) -> String) {
        self.init(count: regexes.count, { regexes[$0] }, failureLog: failureLog, owner: owner)
    }

    /// Matchers for patterns some of which may be compiled only when their matcher is first made.
    convenience init(deferred regexes: [DeferredRegex], failureLog: MatchFailureLog?, owner: @escaping (Int) -> String)
    {
        self.init(count: regexes.count, { regexes[$0].regex }, failureLog: failureLog, owner: owner)
    }

    private init(
        count: Int, _ regex: @escaping (Int) -> Regex, failureLog: MatchFailureLog?, owner: @escaping (Int) -> String
    ) {
        self.regex = regex
        indices = 0..<count
        self.owner = owner
        self.failureLog = failureLog
        made = Array(repeating: nil, count: count)
        references = Array(repeating: nil, count: count)
    }

    subscript(index: Int) -> Matcher {
        if let matcher = made[index] { return matcher }
        return make(index)
    }

    /// Calls `body` with matcher `index` (made if new), counting no reference to it: the per-line path.
    @inline(__always)
    func with<R>(_ index: Int, _ body: (Matcher) -> R) -> R {
        guard let reference = references[index] else { return body(make(index)) }
        return reference._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private func make(_ index: Int) -> Matcher {
        let matcher = Matcher(regex(index), describedBy: { [owner] in owner(index) }, failureLog: failureLog)
        made[index] = matcher
        references[index] = Unmanaged.passUnretained(matcher)
        return matcher
    }
}
