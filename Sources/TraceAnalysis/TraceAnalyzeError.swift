import NativeKit

/// Every failure that stops trace-analyze (or one of its inputs), with one message each.
///
/// Findings about the log (violations, slow launches) are values in ``AnalysisReport``, never errors.
public enum TraceAnalyzeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input could not be opened.
    case cannotOpen(path: String, reason: String)
    /// Reading an input failed part-way.
    case readFailed(path: String, reason: String)
    /// An input is a folder (the command line walks folders; the library reads files).
    case isDirectory(path: String)
    /// A folder named on the command line holds no capture the include/exclude globs let through.
    case noCaptures(folder: String, includes: [String], excludes: [String])
    /// A format or vocabulary pattern does not compile.
    case invalidPattern(owner: String, error: RegexError)
    /// A format (or prefix) definition is wrong: `field` names the part, `problem` says what to do.
    case invalidFormat(id: String, field: String, problem: String)
    /// A sample line does not match exactly one format / vocabulary entry, or extracts the wrong fields.
    case sampleMismatch(owner: String, sample: String, problem: String)
    /// `--input-format` names no known format.
    case unknownFormat(id: String, known: [String])
    /// A duration option could not be read.
    case invalidDuration(option: String, value: String)
    /// No input held a single lifecycle event.
    case noLifecycleEvents(inputs: [String])
    /// An output could not be written.
    case cannotWrite(path: String, reason: String)
    /// A configuration file is wrong: where (file, line, field), what, and how to mend it.
    case invalidConfig(file: String, line: Int?, field: String, problem: String)
    /// A baseline file could not be read or is not a baseline.
    case invalidBaseline(file: String, problem: String)
    /// An option's value could not be read.
    case invalidOption(option: String, value: String, expected: String)
    /// A format or vocabulary pattern gave up on lines of an input (a PCRE2 match, depth or heap limit hit): it
    /// backtracks catastrophically. `others` more patterns did too.
    case patternGaveUp(path: String, failure: MatchFailureLog.Failure, others: Int)
    /// The temporary file a big input's history and reports are kept in (in `folder`, from `$TMPDIR`) could not
    /// be made or written; what could not be written stayed in memory.
    case temporaryFile(folder: String, reason: String)

    /// How a report labels an input that has this error: `incomplete` when a pattern gave up on some of its
    /// lines (the rest is analysed), `unreadable` otherwise.
    public var inputLabel: String {
        if case .patternGaveUp = self { return "incomplete" }
        return "unreadable"
    }

    /// At most this many inputs are named in a message about them all; the others are counted.
    static let listedInputs = 10

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "\(path): cannot open: \(reason)"
        case .patternGaveUp(let path, let failure, let others):
            let retired =
                failure.retiredAfterLine.map { "; after line \($0) it was no longer tried (results may be incomplete)" }
                ?? ""
            let more = others > 0 ? " (and \(others) more pattern\(others == 1 ? "" : "s"))" : ""
            return
                "\(path):\(failure.firstLine): \(failure.owner) gave up on this line (PCRE2: \(failure.message)) and on "
                + "\(failure.lines) line\(failure.lines == 1 ? "" : "s") in all\(retired)\(more). The pattern backtracks "
                + "catastrophically: make nested quantifiers possessive (a++) or atomic ((?>…)), anchor it. "
                + "Pattern: \(failure.pattern)"
        case .readFailed(let path, let reason):
            return "\(path): read failed: \(reason)"
        case .isDirectory(let path):
            return "\(path): is a folder; name the log files inside it"
        case .noCaptures(let folder, let includes, let excludes):
            let excluded = excludes.isEmpty ? "" : " and not matching \(excludes.joined(separator: ", "))"
            return
                "\(folder): no capture in this folder (files matching \(includes.joined(separator: ", "))\(excluded)); "
                + "name the files, or widen --include"
        case .invalidPattern(let owner, let error):
            return "\(owner): \(error)"
        case .invalidFormat(let id, let field, let problem):
            return "format \(id), \(field): \(problem)"
        case .sampleMismatch(let owner, let sample, let problem):
            return "\(owner): sample \"\(sample)\": \(problem)"
        case .unknownFormat(let id, let known):
            return "unknown input format \"\(id)\"; known formats: \(known.joined(separator: ", "))"
        case .invalidDuration(let option, let value):
            return "\(option): \"\(value)\" is not a duration; write it like 400ms, 1.5s or 2m"
        case .noLifecycleEvents(let inputs):
            // A batch of a thousand captures names the first few and counts the others.
            let limit = Self.listedInputs
            let names =
                inputs.count <= limit
                ? inputs.joined(separator: ", ")
                : "\(inputs.count) inputs (\(inputs.prefix(limit).joined(separator: ", ")), … and "
                    + "\(inputs.count - limit) more)"
            return "no lifecycle events found in \(names): no app-delegate, scene or view-controller callback was "
                + "recognised. Is this an app's console or device log? (`trace-analyze formats` lists the line formats "
                + "read; a --config file adds your own.)"
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write: \(reason)"
        case .invalidConfig(let file, let line, let field, let problem):
            return "\(file)\(line.map { ":\($0)" } ?? ""): \(field.isEmpty ? "" : field + ": ")\(problem)"
        case .invalidBaseline(let file, let problem):
            return "\(file): \(problem)"
        case .invalidOption(let option, let value, let expected):
            return "\(option): \"\(value)\" is not \(expected)"
        case .temporaryFile(let folder, let reason):
            return "\(folder): cannot write the temporary file a big input's report is kept in: \(reason); "
                + "set TMPDIR to a folder with free space (the report is complete, but held in memory)"
        }
    }
}
