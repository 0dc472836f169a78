// swift-tools-version:6.0
import PackageDescription

// The libFuzzer target, in a package of its own so `swift build` / `swift test` of the root package never see
// it. Build and run it with Scripts/fuzz.sh (which passes -sanitize=fuzzer,address); see Documentation/Fuzzing.md.
let package = Package(
    name: "trace-analyze-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "trace-analyze", path: "..")],
    targets: [
        .executableTarget(
            name: "TraceAnalyzeFuzzer",
            dependencies: [.product(name: "TraceAnalysis", package: "trace-analyze")],
            // libFuzzer brings main(); the file only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"]), .enableExperimentalFeature("Extern")]
        )
    ],
    swiftLanguageModes: [.v6]
)
