#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTMLReporter {
    /// Every measured launch (or resume) of an app as a dot on a duration axis, the budget as a red line with the
    /// region past it shaded, dots over it in red, and the p50 and p90 marked. Dots that land on the same spot
    /// stack up; when they would stack too high the chart becomes a histogram.
    struct DistributionChart {
        enum Kind: String {
            case launch, resume

            var plural: String { self == .launch ? "launches" : "resumes" }
        }

        struct Sample {
            var ms: Double
            var overBudget: Bool
            /// Which process (and line) the duration is of, for the tooltip.
            var label: String
        }

        static let width = 490.0
        static let left = 70.0
        static let right = 462.0
        static let dotRadius = 4.5
        static let dotStep = 8.0
        /// More dots than this on one spot and the chart becomes a histogram.
        static let maxStack = 12
        static let bins = 45

        var kind: Kind
        var budgetMs: Double
        var stats: DurationStats
        /// Where the axis ends: the longest duration or the budget, with room.
        private let axisMax: Double
        /// The samples by the spot their dot lands on, until one spot has more than ``maxStack`` (then the chart is
        /// a histogram and they are let go): a chart keeps at most a few hundred samples however many it is given.
        private var stacks: [Int: [Sample]] = [:]
        private var histogram = false
        /// Per bin, the durations within budget and those over it.
        private var within = [Int](repeating: 0, count: DistributionChart.bins)
        private var over = [Int](repeating: 0, count: DistributionChart.bins)

        /// An empty chart; ``add(_:)`` gives it its samples, one at a time.
        init(kind: Kind, budgetMs: Double, stats: DurationStats) {
            self.kind = kind
            self.budgetMs = budgetMs
            self.stats = stats
            axisMax = Self.axisMaximum(max(stats.maxMs, budgetMs) * 1.08)
        }

        init(kind: Kind, samples: [Sample], budgetMs: Double, stats: DurationStats) {
            self.init(kind: kind, budgetMs: budgetMs, stats: stats)
            for sample in samples { add(sample) }
        }

        /// The samples kept to be drawn as dots (tests).
        var keptSamples: Int { stacks.values.reduce(0) { $0 + $1.count } }

        private func x(_ ms: Double) -> Double { Self.left + (Self.right - Self.left) * ms / axisMax }

        mutating func add(_ sample: Sample) {
            let bin = min(max(Int(sample.ms / axisMax * Double(Self.bins)), 0), Self.bins - 1)
            if sample.overBudget { over[bin] += 1 } else { within[bin] += 1 }
            guard !histogram else { return }
            let bucket = Int(((x(sample.ms) - Self.left) / Self.dotStep).rounded())
            stacks[bucket, default: []].append(sample)
            if stacks[bucket, default: []].count > Self.maxStack {
                histogram = true
                stacks = [:]
            }
        }

        var svg: String {
            // Each spot's dots stack up from the shortest duration.
            var dots: [(x: Double, level: Int, sample: Sample)] = []
            for stack in stacks.values {
                let sorted = stack.sorted { ($0.ms, $0.label) < ($1.ms, $1.label) }
                for (level, sample) in sorted.enumerated() { dots.append((x(sample.ms), level, sample)) }
            }
            dots.sort { ($0.sample.ms, $0.sample.label, $0.level) < ($1.sample.ms, $1.sample.label, $1.level) }
            let highest = stacks.values.map(\.count).max() ?? 0
            let plotTop = 30.0
            let plotHeight = histogram ? 90 : max(34, Double(highest) * Self.dotStep + 12)
            let axisY = plotTop + plotHeight
            let height = axisY + 24

            let w = HTMLReporter.number(Self.width)
            let h = HTMLReporter.number(height)
            var out = "<svg class=\"chart \(kind.rawValue)-chart\" width=\"\(w)\" "
            out += "height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" role=\"img\" aria-label=\"\(kind.rawValue) durations\">\n"
            let budgetX = x(budgetMs)
            out += "<rect class=\"over-zone\" x=\"\(n(budgetX))\" y=\"\(n(plotTop - 8))\" "
            out += "width=\"\(n(Self.right - budgetX))\" height=\"\(n(plotHeight + 8))\"/>\n"
            out += "<text class=\"chart-label\" x=\"8\" y=\"\(n(axisY - plotHeight / 2))\">\(kind.plural)</text>\n"
            out +=
                "<text class=\"chart-count\" x=\"8\" y=\"\(n(axisY - plotHeight / 2 + 14))\">×\(stats.count)</text>\n"

            // Axis.
            out += "<g class=\"axis\"><line x1=\"\(n(Self.left))\" y1=\"\(n(axisY))\" x2=\"\(n(Self.right))\" "
            out += "y2=\"\(n(axisY))\"/>"
            let step = Self.niceStep(axisMax / 5)
            var tick = 0.0
            while tick <= axisMax + step / 1000 {
                out += "<line x1=\"\(n(x(tick)))\" y1=\"\(n(axisY))\" x2=\"\(n(x(tick)))\" y2=\"\(n(axisY + 4))\"/>"
                out += "<text class=\"tick\" x=\"\(n(x(tick)))\" y=\"\(n(axisY + 16))\">"
                out += "\(DurationFormat.text(tick))</text>"
                tick += step
            }
            out += "</g>\n"

            if histogram {
                out += bars(axisY: axisY, plotHeight: plotHeight)
            } else {
                for dot in dots {
                    let cy = axisY - Self.dotRadius - 2 - Double(dot.level) * Self.dotStep
                    let verdict = dot.sample.overBudget ? "over" : "ok"
                    let title = "\(DurationFormat.text(dot.sample.ms)) · \(dot.sample.label)"
                    out += "<circle class=\"dot \(verdict)\" cx=\"\(n(dot.x))\" cy=\"\(n(cy))\" "
                    out += "r=\"\(n(Self.dotRadius))\"><title>\(title.htmlEscaped)</title></circle>\n"
                }
            }

            // p50 and p90: labels on either side of their lines, so that close percentiles stay readable.
            for (name, value, after) in [("p50", stats.p50Ms, false), ("p90", stats.p90Ms, true)] {
                let px = x(value)
                let label = "\(name) \(DurationFormat.text(value))"
                let width = HTMLReporter.textWidth(label, size: 10)
                let right = after ? px + 4 + width <= Self.width - 2 : px - 4 - width < 2
                out += "<g class=\"pct\"><line x1=\"\(n(px))\" y1=\"\(n(plotTop - 4))\" x2=\"\(n(px))\" "
                out += "y2=\"\(n(axisY))\"/><text\(right ? "" : " class=\"end\"") x=\"\(n(right ? px + 4 : px - 4))\" "
                out += "y=\"\(n(plotTop - 6))\">\(label)</text></g>\n"
            }
            let budgetLabel = "budget \(DurationFormat.text(budgetMs))"
            let labelRight = budgetX + 4 + HTMLReporter.textWidth(budgetLabel, size: 10) <= Self.width - 2
            out += "<g class=\"budget\"><line class=\"budget-line\" x1=\"\(n(budgetX))\" y1=\"4\" x2=\"\(n(budgetX))\" "
            out += "y2=\"\(n(axisY))\"/><text\(labelRight ? "" : " class=\"end\"") "
            out += "x=\"\(n(labelRight ? budgetX + 4 : budgetX - 4))\" y=\"12\">\(budgetLabel)</text></g>\n"
            out += "</svg>\n"
            return out
        }

        /// The histogram: per bin, the durations within budget below and those over it on top.
        private func bars(axisY: Double, plotHeight: Double) -> String {
            let tallest = Double(zip(within, over).map { $0 + $1 }.max() ?? 1)
            let binWidth = axisMax / Double(Self.bins)
            var out = ""
            for bin in 0..<Self.bins where within[bin] + over[bin] > 0 {
                let x0 = x(Double(bin) * binWidth) + 0.5
                let width = x(binWidth) - Self.left - 1
                let low = (plotHeight - 8) * Double(within[bin]) / tallest
                let high = (plotHeight - 8) * Double(over[bin]) / tallest
                let range =
                    "\(DurationFormat.text(Double(bin) * binWidth))–\(DurationFormat.text(Double(bin + 1) * binWidth))"
                var title = "\(within[bin] + over[bin]) \(within[bin] + over[bin] == 1 ? kind.rawValue : kind.plural)"
                title += " of \(range)"
                if over[bin] > 0 { title += ", \(over[bin]) over budget" }
                out += "<g class=\"bar\"><title>\(title.htmlEscaped)</title>"
                if within[bin] > 0 {
                    out += "<rect class=\"ok\" x=\"\(n(x0))\" y=\"\(n(axisY - low))\" width=\"\(n(width))\" "
                    out += "height=\"\(n(low))\"/>"
                }
                if over[bin] > 0 {
                    out += "<rect class=\"over\" x=\"\(n(x0))\" y=\"\(n(axisY - low - high))\" width=\"\(n(width))\" "
                    out += "height=\"\(n(high))\"/>"
                }
                out += "</g>\n"
            }
            return out
        }

        private func n(_ value: Double) -> String { HTMLReporter.number(value) }

        /// A round value at or above `value` that the axis can end on.
        static func axisMaximum(_ value: Double) -> Double {
            guard value > 0 else { return 1 }
            let step = niceStep(value / 5)
            return (value / step).rounded(.up) * step
        }

        /// 1, 2 or 5 times a power of ten, at or above `raw`.
        static func niceStep(_ raw: Double) -> Double {
            guard raw > 0 else { return 1 }
            let magnitude = pow(10, (log10(raw)).rounded(.down))
            for multiple in [1.0, 2, 5, 10] where multiple * magnitude >= raw { return multiple * magnitude }
            return 10 * magnitude
        }
    }
}
