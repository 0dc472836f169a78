import ArgumentParser
import Foundation
import Testing
import TraceAnalysis

@testable import trace_analyze

/// `QuickAnalysis` reads the command lines it takes as swift-argument-parser reads them, and takes none it could
/// read otherwise.
struct QuickAnalysisTests {
    /// An option `QuickAnalysis` reads: its name, whether it repeats (its values a list), and values
    /// swift-argument-parser takes (none: a flag).
    struct Option {
        let name: String
        let repeats: Bool
        let values: [String]
        var isFlag: Bool { values.isEmpty }
    }

    static let durations = ["400ms", "2s", "1.5s", "MyApp=300ms", "My App=1s"]
    static let options: [Option] = [
        Option(name: "include", repeats: true, values: ["*.log", "*.txt", "capture?.log", "[ab]*"]),
        Option(name: "exclude", repeats: true, values: ["old", "*.gz", "DerivedData"]),
        Option(name: "jobs", repeats: false, values: ["1", "2", "16", "0", "+3", "007"]),
        Option(name: "no-progress", repeats: false, values: []),
        Option(name: "launch-budget", repeats: true, values: durations),
        Option(name: "resume-budget", repeats: true, values: durations),
        Option(name: "watchdog", repeats: true, values: durations),
        Option(name: "background-gap", repeats: false, values: ["2s", "nonsense"]),
        Option(name: "alert-gap", repeats: false, values: ["1s", "250ms"]),
        Option(name: "memory-warning-window", repeats: false, values: ["1s", "3s"]),
        Option(name: "prewarm-gap", repeats: false, values: ["10s"]),
        Option(name: "fail-on", repeats: false, values: ["violations", "none", "over-budget,clock-anomalies", "x"]),
        Option(name: "input-format", repeats: false, values: ["nslog", "log-compact", "unknown"]),
        Option(name: "timezone", repeats: false, values: ["UTC", "Europe/Paris", "+02:00", "Nowhere"]),
        Option(name: "year", repeats: false, values: ["2019", "1969", "12"]),
        Option(name: "config", repeats: false, values: ["trace.yml", "dir/.trace-analyze.json"]),
        Option(name: "format", repeats: false, values: ReportFormat.allValueStrings),
        Option(name: "output", repeats: false, values: ["report.json", "out dir/r.txt"]),
        Option(name: "report", repeats: true, values: ["html=r.html", "junit=j.xml", "nope=x", "text="]),
        Option(name: "color", repeats: false, values: ["auto", "always", "never"]),
        Option(name: "events", repeats: false, values: []),
    ]
    static let files = [
        "capture.log", "logs", "a b.txt", "x=y.log", "Ünïcødé.log", "run.log.gz", "./samples/launch.log", "ok",
    ]

    /// What swift-argument-parser reads from `arguments`: the analysis's settings, or nil when it reads another
    /// command, live mode, or fails.
    static func parsed(_ arguments: [String]) -> QuickAnalysis? {
        guard let command = try? TraceAnalyzeCommand.parseAsRoot(arguments), let analyze = command as? Analyze,
            !analyze.follow, analyze.idle == nil
        else { return nil }
        return QuickAnalysis(analyze.analysis, analyze.outputs)
    }

    /// A command line of files and the options above, spelled either way, in any order, some repeated.
    static func plainLine(_ random: inout SplitMix64) -> [String] {
        var line: [String] = random.next() % 4 == 0 ? ["analyze"] : []
        for _ in 0..<Int(random.next() % 7) {
            if random.next() % 3 == 0 {
                line.append(random.pick(files))
                continue
            }
            let option = random.pick(options)
            if option.isFlag {
                line.append("--" + option.name)
            } else if random.next() % 2 == 0 {
                line.append("--\(option.name)=\(random.pick(option.values))")
            } else {
                line += ["--" + option.name, random.pick(option.values)]
            }
        }
        return line
    }

    @Test func plainCommandLinesAreReadAsSwiftArgumentParserReadsThem() {
        var random = SplitMix64(seed: 0x51_7A27)
        var lines: [[String]] = [[], ["analyze"], ["capture.log"], ["--format", "json", "--jobs", "1", "capture.log"]]
        // Each option twice (a list's values in order, the last of another's, a flag given twice).
        for option in Self.options {
            let values = option.isFlag ? [] : [option.values[0], option.values[option.values.count - 1]]
            lines.append(
                option.isFlag
                    ? ["--" + option.name, "capture.log", "--" + option.name]
                    : ["--" + option.name, values[0], "capture.log", "--\(option.name)=\(values[1])"])
        }
        // swift-argument-parser takes about 40 ms a command line in a debug build.
        for _ in 0..<250 { lines.append(Self.plainLine(&random)) }
        for line in lines {
            let quick = QuickAnalysis(line)
            #expect(quick != nil, "\(line)")
            #expect(quick == Self.parsed(line), "\(line)")
        }
        let last = QuickAnalysis(["--format", "json", "--format=html", "--jobs", "2", "--jobs", "3", "a", "--events"])
        #expect(last?.format == .html && last?.jobs == 3 && last?.files == ["a"] && last?.events == true)
    }

    /// What a command line must not hold for `QuickAnalysis` to read it; each goes to swift-argument-parser.
    static let others: [[String]] = [
        ["--help"], ["-h"], ["--version"], ["help"], ["--"], ["-"], ["-x"], ["--unknown"], ["--follow"],
        ["--idle", "2s"], ["--idle=2s"], ["--generate-completion-script", "bash"], ["--experimental-dump-help"],
        ["check"], ["baseline"], ["config"], ["formats"], ["vocabulary"], ["analyze", "analyze"],
        ["--format"], ["--format="], ["--format", "nope"], ["--format=JSON"], ["--jobs", "x"], ["--jobs=1.5"],
        ["--jobs", "-1"], ["--year", "-2019"], ["--output", "-"], ["--config", "check"], ["--output=formats"],
        ["--color", "sometimes"], ["--events=true"], ["--no-progress=1"], ["--jobs", "--format", "json"],
        ["-j", "2"], ["--Format", "json"], ["--report", "--format"],
    ]

    @Test func anythingElseGoesToSwiftArgumentParser() {
        var random = SplitMix64(seed: 0xB0_7A11)
        for other in Self.others {
            #expect(QuickAnalysis(other) == nil, "\(other)")
            for _ in 0..<20 {
                // Anywhere: between an option and its value too (which then begins with `-`, or is missing, a
                // command's name or no value the option takes).
                var line = Self.plainLine(&random)
                line.insert(contentsOf: other, at: Int(random.next() % UInt64(line.count + 1)))
                #expect(QuickAnalysis(line) == nil, "\(line)")
            }
        }
    }

    /// Every option of `analyze` but live mode's and `--help` is one `QuickAnalysis` reads, with the
    /// arity swift-argument-parser gives it; a new option fails this until it is read here too (or left out, with
    /// the reason).
    @Test func theOptionsReadAreAnalyzesOwn() throws {
        let dump = try #require(Analyze._dumpHelp().data(using: .utf8))
        let root = try #require(try JSONSerialization.jsonObject(with: dump) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        var seen: [String: (flag: Bool, repeats: Bool)] = [:]
        for argument in arguments {
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            guard let name = names.last else { continue }  // the files
            seen[name] = (argument["kind"] as? String == "flag", argument["isRepeating"] as? Bool ?? false)
        }
        for left in ["follow", "idle", "help"] { #expect(seen.removeValue(forKey: left) != nil, "\(left)") }
        #expect(Set(seen.keys) == Set(Self.options.map(\.name)))
        for option in Self.options {
            #expect(seen[option.name]?.flag == option.isFlag, "\(option.name)")
            #expect(seen[option.name]?.repeats == option.repeats, "\(option.name)")
        }
    }

    @Test func theCommandNamesAreSwiftArgumentParsers() {
        let names = TraceAnalyzeCommand.configuration.subcommands.flatMap {
            [$0._commandName] + $0.configuration.aliases
        }
        #expect(QuickAnalysis.commandNames == Set(names + ["help"]))
    }
}

extension QuickAnalysis {
    /// The settings swift-argument-parser read, for comparison.
    init(_ analysis: AnalysisArguments, _ outputs: ReportOutputs) {
        self.init()
        files = analysis.files
        include = analysis.include
        exclude = analysis.exclude
        jobs = analysis.jobs
        noProgress = analysis.noProgress
        launchBudget = analysis.launchBudget
        resumeBudget = analysis.resumeBudget
        watchdog = analysis.watchdog
        backgroundGap = analysis.backgroundGap
        alertGap = analysis.alertGap
        memoryWarningWindow = analysis.memoryWarningWindow
        prewarmGap = analysis.prewarmGap
        failOn = analysis.failOn
        inputFormat = analysis.inputFormat
        timezone = analysis.timezone
        year = analysis.year
        configFile = analysis.configFile
        format = outputs.format
        output = outputs.output
        reports = outputs.reports
        color = outputs.color
        events = outputs.events
    }
}

extension SplitMix64 {
    /// An element of `elements` (not empty).
    mutating func pick<T>(_ elements: [T]) -> T { elements[Int(next() % UInt64(elements.count))] }
}
