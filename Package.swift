// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "trace-analyze",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "trace-analyze", targets: ["trace-analyze"]),
        .library(name: "TraceAnalysis", targets: ["TraceAnalysis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // PCRE2 from the system (Debian: libpcre2-dev, found through pkg-config).
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // The only module that touches PCRE2's C API and its unsafe pointers.
        .target(name: "PCRE2Kit", dependencies: ["CPCRE2"]),
        // Everything the tool does: reading, formats, vocabulary, state machine, scenarios, reports.
        .target(
            name: "TraceAnalysis", dependencies: ["PCRE2Kit", .product(name: "Yams", package: "Yams")],
            // The hot path is single-threaded class state; the compiler's static exclusivity checks stay on, the
            // per-access runtime ones (about a sixth of the time in release) go.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Thin command line: arguments in, exit code out.
        .executableTarget(
            name: "trace-analyze",
            dependencies: [
                "TraceAnalysis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Deterministic capture generator for benchmarks (Scripts/benchmark.sh).
        .executableTarget(name: "generate-capture", dependencies: ["TraceAnalysis"]),
        .testTarget(name: "PCRE2KitTests", dependencies: ["PCRE2Kit"]),
        .testTarget(name: "TraceAnalysisTests", dependencies: ["TraceAnalysis"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
