/// The report formats, by the names `--format` and `--report FORMAT=PATH` take.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// For a person at a terminal.
    case text
    /// The versioned JSON contract.
    case json

    /// What the format is for (help texts).
    public var purpose: String {
        switch self {
        case .text: return "for a person at a terminal"
        case .json: return "the versioned JSON contract, for scripts"
        }
    }

    /// Writes `report` in this format to `sink`, in pieces. `color` and `showEvents` shape the text report only.
    public func write(
        _ report: AnalysisReport, color: Bool = false, showEvents: Bool = false, to sink: ([UInt8]) throws -> Void
    ) rethrows {
        switch self {
        case .json: try JSONReporter.write(report, to: sink)
        case .text: try sink(Array(TextReporter(color: color, showEvents: showEvents).render(report).utf8))
        }
    }
}
