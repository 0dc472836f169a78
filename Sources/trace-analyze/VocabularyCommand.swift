import ArgumentParser
import TraceAnalysis

/// `trace-analyze vocabulary`: the event vocabulary in force (built-in and from the configuration file).
struct VocabularyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vocabulary",
        abstract: "Print the effective event vocabulary: every entry, the event it means and an example message.")

    @OptionGroup var configuration: ConfigOptions

    func run() throws {
        let config = try configuration.load()
        let text = VocabularyListing.render(config.allVocabulary, configFile: config.file)
        try Terminal.print(text)
    }
}
