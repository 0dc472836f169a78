import ArgumentParser
import TraceAnalysis

/// `trace-analyze formats`: the line formats and prefixes in force, each with one real sample.
struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the log formats and line prefixes trace-analyze reads, with a sample of each.")

    @OptionGroup var configuration: ConfigOptions

    func run() throws {
        let config = try configuration.load()
        let text = FormatListing.render(
            formats: config.allFormats, prefixes: config.allPrefixes, userFormats: Set(config.formats.map(\.id)),
            userPrefixes: Set(config.prefixes.map(\.id)), configFile: config.file)
        try Terminal.print(text)
    }
}
