/// What live mode needs to hear from an input's analysis: which incarnations changed since it last looked, and
/// how far the log's clock has got. A batch has none (its hooks are one nil check each).
final class LiveTracking {
    /// Incarnations whose findings may have changed, in the order they changed.
    private(set) var changed: [ProcessTimeline] = []
    /// The latest timestamp of any record so far, in µs since the epoch (the log's own clock).
    private(set) var latest: Int64?

    func changed(_ timeline: ProcessTimeline) {
        // A handful at most between two looks: a scan beats hashing.
        if !changed.contains(where: { $0 === timeline }) { changed.append(timeline) }
    }

    func record(at time: Timestamp?) {
        guard let time else { return }
        let instant = time.instantMicros
        if latest.map({ instant > $0 }) ?? true { latest = instant }
    }

    /// The incarnations changed since the last call.
    func takeChanged() -> [ProcessTimeline] {
        defer { changed.removeAll(keepingCapacity: true) }
        return changed
    }
}
