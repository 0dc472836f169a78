import ArgumentParser
import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--config FILE`, shared by the commands that read formats: the file named, else `.trace-analyze.yml`
/// (or `.yaml`, `.json`) in the working folder, else none.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A configuration file (YAML or JSON) with your own formats and prefixes; default: "
                + ".trace-analyze.yml, .yaml or .json in the working folder.",
            valueName: "FILE"))
    var config: String?

    /// The configuration in force, checked; a bad file ends the run with exit code 64 and a message naming the
    /// file, line and field.
    func load() throws -> Configuration { try Self.load(config) }

    /// ``load()`` for the file named `config`, if any.
    static func load(_ config: String?) throws -> Configuration {
        let path = config ?? Configuration.defaultNames.first { access($0, F_OK) == 0 }
        guard let path else { return Configuration() }
        do {
            return try Configuration.load(path: path)
        } catch {
            Terminal.warn(String(describing: error))
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
