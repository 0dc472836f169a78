extension Configuration {
    /// The configuration in force as YAML that `--config` would read back: budgets, thresholds and failure policy
    /// (each value commented with where it comes from: the default, the file, or the command line), then the
    /// user's formats, prefixes and vocabulary by id, and the built-in ones in comments.
    public func effectiveYAML(options: AnalysisOptions) -> String {
        let defaults = AnalysisOptions()
        var fromFile = AnalysisOptions()
        settings.apply(to: &fromFile)
        func origin<T: Equatable>(_ value: (AnalysisOptions) -> T) -> String {
            if value(options) != value(fromFile) { return "command line" }
            if value(fromFile) != value(defaults) { return file ?? "configuration file" }
            return "default"
        }
        func ms(_ value: Double) -> String { YAMLText.quoted(DurationFormat.compact(value)) }
        var out = "# trace-analyze \(TraceAnalyzeVersion.current): the configuration in force"
        out += file.map { " (file: \($0))" } ?? " (no configuration file)"
        out += "\nversion: \(Configuration.version)\nbudgets:\n"
        out += "  launch: \(ms(options.launchBudgetMs))  # \(origin(\.launchBudgetMs))\n"
        out += "  resume: \(ms(options.resumeBudgetMs))  # \(origin(\.resumeBudgetMs))\n"
        out += "  watchdog: \(ms(options.watchdogMs))  # \(origin(\.watchdogMs))\n"
        let apps = Set(options.appLaunchBudgetsMs.keys).union(options.appResumeBudgetsMs.keys).union(
            options.appWatchdogMs.keys
        ).sorted()
        if !apps.isEmpty {
            out += "  apps:\n"
            for app in apps {
                out += "    \(YAMLText.quoted(app)):\n"
                let rows: [(String, [String: Double], KeyPath<AnalysisOptions, [String: Double]>)] = [
                    ("launch", options.appLaunchBudgetsMs, \.appLaunchBudgetsMs),
                    ("resume", options.appResumeBudgetsMs, \.appResumeBudgetsMs),
                    ("watchdog", options.appWatchdogMs, \.appWatchdogMs),
                ]
                for (name, table, path) in rows {
                    guard let value = table[app] else { continue }
                    out += "      \(name): \(ms(value))  # \(origin { $0[keyPath: path][app] })\n"
                }
            }
        }
        out += "thresholds:\n"
        out += "  background-gap: \(ms(options.backgroundGapMs))  # \(origin(\.backgroundGapMs))\n"
        out += "  alert-gap: \(ms(options.alertGapMs))  # \(origin(\.alertGapMs))\n"
        out += "  memory-warning-window: \(ms(options.memoryWarningWindowMs))  # \(origin(\.memoryWarningWindowMs))\n"
        out += "  prewarm-gap: \(ms(options.prewarmGapMs))  # \(origin(\.prewarmGapMs))\n"
        out += "fail-on: [\(options.failOn.names.joined(separator: ", "))]  # \(origin(\.failOn))\n"
        out += "# formats: \(formats.count) of yours, then the built-in "
        out += LogFormat.builtin.map(\.id).joined(separator: ", ") + "\n"
        if !formats.isEmpty {
            out += "# your formats: \(formats.map(\.id).joined(separator: ", ")) (see \(file ?? ""))\n"
        }
        if !prefixes.isEmpty { out += "# your prefixes: \(prefixes.map(\.id).joined(separator: ", "))\n" }
        if !vocabulary.isEmpty { out += "# your vocabulary: \(vocabulary.map(\.id).joined(separator: ", "))\n" }
        out += "# built-in vocabulary: \(Vocabulary.builtin.entries.count) entries (`trace-analyze vocabulary`)\n"
        return out
    }
}

/// Writing YAML scalars.
enum YAMLText {
    /// A double-quoted YAML string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                out += "\\x" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension DurationFormat {
    /// A duration the duration parser reads back exactly: `400ms`, `1.5s`, `20s`, `0.25ms`.
    static func compact(_ ms: Double) -> String {
        if ms >= 1000, (ms / 1000 * 1000).rounded() == ms, (ms / 100).rounded() == ms / 100 {
            return "\(trim(ms / 1000))s"
        }
        return "\(trim(ms))ms"
    }
}
