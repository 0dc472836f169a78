import Dispatch
import NativeKit

/// The reports of one analysis (`--format` and every `--report FORMAT=PATH`), written one after another in the
/// order given.
///
/// With more than one job, the reports rendered whole (Markdown, GitHub annotations) are rendered
/// ahead on other threads while the reports before them are written: after a batch's last input the reports are
/// what is left to do, and one report at a time leaves cores idle (the Markdown report is rendered on one thread).
/// The streamed reports (text, JSON, JSON Lines, HTML, JUnit) are rendered as they are written, a piece at a time,
/// so their text never exists whole; a report rendered ahead waits, whole, for its turn. What the reports add up
/// (the per-app table and the totals) is added up on one more thread from the start. The bytes are the same
/// as ``ReportFormat/write(_:color:showEvents:jobs:to:)``'s whatever the number of jobs.
public final class ReportSet: Sendable {
    /// One report: its format and the text report's options.
    public struct Entry: Sendable {
        public var format: ReportFormat
        /// Colour in the text report.
        public var color: Bool
        /// Every event in the text report.
        public var showEvents: Bool

        public init(format: ReportFormat, color: Bool = false, showEvents: Bool = false) {
            self.format = format
            self.color = color
            self.showEvents = showEvents
        }
    }

    private let report: AnalysisReport
    private let entries: [Entry]
    private let jobs: Int
    /// The reports rendered ahead, when any are.
    private let ahead: Ahead?

    /// Starts rendering ahead the whole reports after the first (with `jobs` > 1), on up to `jobs` - 1 threads.
    public init(_ report: AnalysisReport, _ entries: [Entry], jobs: Int) {
        self.report = report
        self.entries = entries
        self.jobs = max(1, jobs)
        // The per-app table and the totals (``AnalysisReport/aggregate``), which the text, JSON, HTML and Markdown
        // reports show after their processes (JSON Lines in its closing line), are added up on another thread from
        // the start: added up when the first report got to them, they were a serial end to a batch's reports, the
        // other cores having nothing left to do.
        if self.jobs > 1, entries.contains(where: \.format.showsAggregate) {
            DispatchQueue.global().async { _ = report.aggregate }
        }
        // The first report is written at once, by the caller: only the later ones can be ahead of it.
        let later = entries.indices.dropFirst().filter { entries[$0].format.rendersWhole }
        guard self.jobs > 1, !later.isEmpty else {
            ahead = nil
            return
        }
        let ahead = Ahead(later)
        self.ahead = ahead
        let render = { @Sendable (index: Int) -> [UInt8] in
            Self.render(report, entries[index], jobs: jobs)
        }
        for _ in 0..<min(self.jobs - 1, later.count) {
            DispatchQueue.global().async { ahead.work(render) }
        }
    }

    /// Writes the report at `index` to `sink`: the bytes rendered ahead (waiting for them if they are being
    /// rendered), or rendered now, a piece at a time for the streamed formats.
    public func write(_ index: Int, to sink: ([UInt8]) throws -> Void) rethrows {
        if let ahead, let bytes = ahead.take(index) {
            try sink(bytes)
            return
        }
        let entry = entries[index]
        try entry.format.write(report, color: entry.color, showEvents: entry.showEvents, jobs: jobs, to: sink)
    }

    private static func render(_ report: AnalysisReport, _ entry: Entry, jobs: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        entry.format.write(report, color: entry.color, showEvents: entry.showEvents, jobs: jobs) { bytes += $0 }
        return bytes
    }

    /// The reports rendered ahead: each claimed once, by a worker (which renders it and keeps its bytes) or by
    /// the writer (which renders it itself when it gets there first).
    private final class Ahead: @unchecked Sendable {
        private enum State {
            case waiting
            case rendering(DispatchSemaphore)
            case rendered([UInt8])
            /// Claimed by the writer, or handed to it.
            case gone
        }

        private let lock = Lock()
        private var states: [Int: State]
        private let order: [Int]
        private var next = 0

        init(_ indices: [Int]) {
            order = indices
            states = Dictionary(uniqueKeysWithValues: indices.map { ($0, State.waiting) })
        }

        /// Renders waiting reports, in order, until none is left.
        func work(_ render: (Int) -> [UInt8]) {
            while let (index, done) = claim() {
                let bytes = render(index)
                lock.withLock { states[index] = .rendered(bytes) }
                done.signal()
            }
        }

        private func claim() -> (Int, DispatchSemaphore)? {
            lock.withLock {
                while next < order.count {
                    let index = order[next]
                    next += 1
                    guard case .waiting = states[index] else { continue }
                    let done = DispatchSemaphore(value: 0)
                    states[index] = .rendering(done)
                    return (index, done)
                }
                return nil
            }
        }

        /// The bytes of the report at `index` once rendered; nil when the caller is to render it (no worker has
        /// started it, or it is not one rendered ahead).
        func take(_ index: Int) -> [UInt8]? {
            let state: State? = lock.withLock {
                let state = states[index]
                if case .waiting = state { states[index] = .gone }
                return state
            }
            switch state {
            case nil, .waiting, .gone: return nil
            case .rendered(let bytes):
                lock.withLock { states[index] = .gone }
                return bytes
            case .rendering(let done):
                done.wait()
                return lock.withLock {
                    defer { states[index] = .gone }
                    guard case .rendered(let bytes) = states[index] else { preconditionFailure("report not rendered") }
                    return bytes
                }
            }
        }
    }
}

extension ReportFormat {
    /// Shows the per-app table or the totals (``AnalysisReport/aggregate``).
    var showsAggregate: Bool {
        switch self {
        case .text, .json, .jsonl, .html, .markdown: return true
        case .junit, .github: return false
        }
    }

    /// Rendered as one string (not streamed a piece at a time).
    var rendersWhole: Bool {
        switch self {
        case .markdown, .github: return true
        case .text, .json, .jsonl, .html, .junit: return false
        }
    }
}
