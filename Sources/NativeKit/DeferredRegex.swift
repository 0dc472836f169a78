/// A pattern compiled the first time its ``regex`` is asked for, once, whichever thread asks; or a ``Regex`` already
/// compiled, handed out as it is.
///
/// For patterns known to compile: the built-in vocabulary's keyword groups, which the tests compile, and most of which
/// a capture never matches (an empty input compiled all fifty: 5.5 M instructions, an eighth of the start-up). A
/// pattern that comes from a configuration is compiled up front instead, so that its error is told before any input
/// is read.
public final class DeferredRegex: @unchecked Sendable {
    private let lock = Lock()
    private var made: Regex?
    /// What makes the pattern and compiles it (nil once compiled): building the pattern can cost as much as
    /// compiling it.
    private var make: (@Sendable () throws(RegexError) -> Regex)?

    /// `regex`, already compiled.
    public init(_ regex: Regex) { made = regex }

    /// The pattern `pattern` makes, to be made and compiled with `options` when first asked for. It must compile: a
    /// pattern that does not stops the program (a built-in pattern the tests compile, never one from a
    /// configuration).
    public init(compiling pattern: @escaping @Sendable () -> String, options: Regex.Options = []) {
        make = { () throws(RegexError) in try Regex(pattern(), options: options) }
    }

    /// The compiled pattern.
    public var regex: Regex {
        lock.withLock {
            if let made { return made }
            guard let make else { preconditionFailure("neither a pattern nor a regex") }
            let regex: Regex
            do {
                regex = try make()
            } catch {
                preconditionFailure("a built-in pattern does not compile: \(error)")
            }
            made = regex
            self.make = nil
            return regex
        }
    }

    /// Whether the pattern was compiled (by ``init(_:)`` or a use of ``regex``).
    public var isCompiled: Bool { lock.withLock { made != nil } }
}
