/// Renders durations for people.
public enum DurationFormat {
    /// `0.4 ms`, `27 ms`, `6.56 s`, `2 min 5 s`.
    public static func text(_ ms: Double) -> String {
        let magnitude = abs(ms)
        if magnitude < 1 { return "\(trim(round(ms, 2))) ms" }
        if magnitude < 1000 { return "\(trim(round(ms, magnitude < 10 ? 1 : 0))) ms" }
        if magnitude < 60_000 { return "\(trim(round(ms / 1000, 2))) s" }
        let totalSeconds = Int((ms / 1000).rounded())
        return "\(totalSeconds / 60) min \(totalSeconds % 60) s"
    }

    static func round(_ value: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    static func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
