import TraceAnalysis

/// A plain analysis's command line — files and folders, and options that take one value (`--format json`, `--jobs=1`)
/// or none — read without swift-argument-parser, whose reflection over the commands' properties was 10 M of the 25 M
/// instructions of an empty capture's run (1–2.5 of 7 ms). Whatever else a command line holds makes `init?` fail, and
/// it goes to swift-argument-parser, which reads it and reports its mistakes as it always did: a command's name (a
/// subcommand, or a file or value spelled like one), `--help`, `--version`, `--follow` and `--idle`, `--`, a short
/// option, an option it does not know, an option without its value, a value that begins with `-` or is empty, and a
/// value swift-argument-parser would refuse (`--format nope`, `--jobs x`). What it reads, it reads as
/// swift-argument-parser does (a repeated option's last value, a list option's values in order, a repeated flag);
/// `QuickAnalysisTests` hold the two readings equal.
struct QuickAnalysis: AnalysisSettings, OutputSettings, Equatable {
    var files: [String] = []
    var include: [String] = []
    var exclude: [String] = []
    var jobs: Int?
    var noProgress = false
    var launchBudget: [String] = []
    var resumeBudget: [String] = []
    var watchdog: [String] = []
    var backgroundGap: String?
    var alertGap: String?
    var memoryWarningWindow: String?
    var prewarmGap: String?
    var failOn: String?
    var inputFormat: String?
    var timezone: String?
    var year: Int?
    var configFile: String?
    var format: ReportFormat = .text
    var output: String?
    var reports: [String] = []
    var color: ReportOutputs.ColorMode = .auto
    var events = false

    /// The names swift-argument-parser reads as commands: the subcommands and its own `help`.
    static let commandNames: Set<String> = ["analyze", "check", "baseline", "config", "formats", "vocabulary", "help"]

    init() {}

    /// The analysis `arguments` (the command line without the program's name) ask for, or nil when they are not
    /// only files and the options read here.
    init?(_ arguments: [String]) {
        var rest = arguments[...]
        if rest.first == "analyze" { rest = rest.dropFirst() }
        while let argument = rest.popFirst() {
            guard !Self.commandNames.contains(argument) else { return nil }
            guard argument.hasPrefix("-") else {
                files.append(argument)
                continue
            }
            let equals = argument.firstIndex(of: "=")
            let name = argument[..<(equals ?? argument.endIndex)]
            switch name {
            case "--no-progress", "--events":
                guard equals == nil else { return nil }
                if name == "--events" { events = true } else { noProgress = true }
            default:
                guard let value = equals.map({ String(argument[argument.index(after: $0)...]) }) ?? rest.popFirst(),
                    !value.isEmpty, !value.hasPrefix("-"), !Self.commandNames.contains(value), read(name, value)
                else { return nil }
            }
        }
    }

    /// Takes `value` for the option `name`; false for a name that is no such option, or a value
    /// swift-argument-parser refuses.
    private mutating func read(_ name: Substring, _ value: String) -> Bool {
        switch name {
        case "--include": include.append(value)
        case "--exclude": exclude.append(value)
        case "--jobs":
            guard let number = Int(value) else { return false }
            jobs = number
        case "--launch-budget": launchBudget.append(value)
        case "--resume-budget": resumeBudget.append(value)
        case "--watchdog": watchdog.append(value)
        case "--background-gap": backgroundGap = value
        case "--alert-gap": alertGap = value
        case "--memory-warning-window": memoryWarningWindow = value
        case "--prewarm-gap": prewarmGap = value
        case "--fail-on": failOn = value
        case "--input-format": inputFormat = value
        case "--timezone": timezone = value
        case "--year":
            guard let number = Int(value) else { return false }
            year = number
        case "--config": configFile = value
        case "--format":
            guard let format = ReportFormat(rawValue: value) else { return false }
            self.format = format
        case "--output": output = value
        case "--report": reports.append(value)
        case "--color":
            guard let color = ReportOutputs.ColorMode(rawValue: value) else { return false }
            self.color = color
        default: return false
        }
        return true
    }
}
