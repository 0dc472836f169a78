/// The short notation the rule and scenario examples are written in, expanded to real NSLog lines.
///
/// Each line is `SECONDS [@PID] MESSAGE`, optionally preceded by `↓` (a finding must land on this line).
/// `SECONDS` counts from 2024-06-01 12:00:00; PID defaults to 100 and stays until another `@PID`.
/// `0.027 App Delegate: applicationDidBecomeActive` becomes
/// `2024-06-01 12:00:00.027 Demo[100:1a03] App Delegate: applicationDidBecomeActive`.
public struct ExampleCapture: Sendable {
    /// The expanded log text.
    public let text: String
    /// 1-based lines that carry a `↓` marker.
    public let markedLines: [Int]

    public init(_ notation: String, process: String = "Demo") {
        var lines: [String] = []
        var marked: [Int] = []
        var pid = 100
        for (index, raw) in notation.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if line.hasPrefix("↓") {
                marked.append(index + 1)
                line = line.dropFirst()
            }
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let seconds = Double(parts.first ?? "0") ?? 0
            var message = parts.count > 1 ? parts[1] : ""
            if message.hasPrefix("@") {
                let pidParts = message.dropFirst().split(separator: " ", maxSplits: 1)
                pid = Int(pidParts.first ?? "") ?? pid
                message = pidParts.count > 1 ? pidParts[1] : ""
            }
            lines.append("\(ExampleCapture.timestamp(seconds)) \(process)[\(pid):1a03] \(message)")
        }
        self.text = lines.joined(separator: "\n") + "\n"
        self.markedLines = marked
    }

    private static func timestamp(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let total = 12 * 3600 + millis / 1000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = millis % 1000
        let fractionText = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "2024-06-01 \(two(total / 3600)):\(two(total / 60 % 60)):\(two(total % 60)).\(fractionText)"
    }
}
