/// What live mode needs to hear from an input's analysis: which incarnations changed since it last looked, and
/// how far the log's clock has got. A batch has none (its hooks are one nil check each).
///
/// The stream's clock is the latest timestamp read (µs since the epoch), pushed on by idle pauses: what an
/// incarnation's pending decisions are judged by, as long as its own timestamps keep up with it. One whose records
/// are far behind the stream when written (its zone-less times read in the wrong zone beside zoned ones, another
/// device's clock) is judged by its own timestamps, and idle pauses, alone.
final class LiveTracking {
    /// Incarnations whose findings may have changed, in the order they changed.
    private(set) var changed: [ProcessTimeline] = []
    /// The latest timestamp of any record so far.
    private(set) var latest: Int64?
    /// The stream's clock: ``latest``, or further on after an idle pause (it never goes back).
    private(set) var stream: Int64?

    func changed(_ timeline: ProcessTimeline) {
        // A handful at most between two looks: a scan beats hashing.
        if !changed.contains(where: { $0 === timeline }) { changed.append(timeline) }
    }

    /// A record of `timeline` at `time`.
    func record(at time: Timestamp?, of timeline: ProcessTimeline) {
        guard let time else { return }
        let instant = time.instantMicros
        if latest.map({ instant > $0 }) ?? true { latest = instant }
        if let latest, stream.map({ latest > $0 }) ?? true { stream = latest }
        timeline.liveLag = (latest ?? instant) - instant
    }

    /// How far behind the latest timestamp a record may be and still be on the stream's clock (µs): a minute.
    static let sameClock: Int64 = 60_000_000

    /// `timeline`'s clock: the stream's if its last record kept up with it, else its own last timestamp (pushed on
    /// by idle pauses); never earlier than before. Nil before it logs a time.
    func clock(of timeline: ProcessTimeline) -> Int64? {
        guard let last = timeline.lastTime?.instantMicros, let stream, let latest else { return timeline.liveClockSeen }
        let clock = timeline.liveLag <= Self.sameClock ? max(stream, last) : last + max(0, stream - latest)
        return max(clock, timeline.liveClockSeen ?? clock)
    }

    /// Nothing has arrived for `elapsedMs` since the latest record: the stream's clock is taken to have run on.
    func idle(elapsedMs: Double) {
        guard let latest else { return }
        let estimate = latest + Int64(max(0, elapsedMs) * 1000)
        if stream.map({ estimate > $0 }) ?? true { stream = estimate }
    }

    /// The incarnations changed since the last call.
    func takeChanged() -> [ProcessTimeline] {
        defer { changed.removeAll(keepingCapacity: true) }
        return changed
    }
}
