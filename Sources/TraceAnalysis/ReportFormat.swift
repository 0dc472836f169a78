/// The report formats, by the names `--format` and `--report FORMAT=PATH` take.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// For a person at a terminal.
    case text
    /// The versioned JSON contract.
    case json
    /// A pull-request comment or a CI step summary.
    case markdown
    /// One self-contained page: swimlanes per process, launch-time charts per app.
    case html
    /// JUnit XML for CI test views.
    case junit
    /// GitHub Actions workflow annotations.
    case github
    /// JSON Lines: one object per finding, then a summary object (live mode's format; a batch prints every
    /// finding at once).
    case jsonl

    /// What the format is for (help texts).
    public var purpose: String {
        switch self {
        case .text: return "for a person at a terminal"
        case .json: return "the versioned JSON contract, for scripts"
        case .markdown: return "a pull-request comment or a CI step summary"
        case .html: return "one self-contained page with swimlanes and launch-time charts"
        case .junit: return "JUnit XML for CI test views"
        case .github: return "GitHub Actions annotations on the log lines"
        case .jsonl: return "JSON Lines, one object per finding then the summary (live mode's machine format)"
        }
    }

    /// Writes `report` in this format to `sink`, in pieces. `color` and `showEvents` shape the text report only;
    /// the text, JSON, HTML and JUnit reports render their processes on up to `jobs` threads, and write them a
    /// piece at a time.
    public func write(
        _ report: AnalysisReport, color: Bool = false, showEvents: Bool = false, jobs: Int = 1,
        to sink: ([UInt8]) throws -> Void
    ) rethrows {
        switch self {
        case .json: try JSONReporter.write(report, jobs: jobs, to: sink)
        case .text: try TextReporter(color: color, showEvents: showEvents).write(report, jobs: jobs, to: sink)
        case .markdown: try sink(Array(MarkdownReporter.render(report).utf8))
        case .html: try HTMLReporter.write(report, jobs: jobs, to: sink)
        case .junit: try JUnitReporter.write(report, jobs: jobs, to: sink)
        case .github: try sink(Array(GitHubReporter.render(report).utf8))
        case .jsonl: try LiveJSONReporter.write(report, to: sink)
        }
    }
}
