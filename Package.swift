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
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // PCRE2 from the system (Debian: libpcre2-dev, found through pkg-config).
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // ISA-L from the system (Debian: libisal-dev), whose inflate reads gzip-compressed captures.
        .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]),
        // libyaml from the system (Debian: libyaml-dev), which configuration files and baselines are read with.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        // zlib from the system (Debian: zlib1g-dev): the tests compress their gzip inputs with it.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Vector byte scans (AVX2 shuffles) Swift cannot write portably, and the loop over runs of repeated NSLog
        // headers beside them; used only through NativeKit.
        .target(name: "CSIMD"),
        // The only module that touches C APIs and their unsafe pointers: PCRE2 (regexes), ISA-L (inflate), libyaml,
        // the vector scans and a pthread lock.
        .target(name: "NativeKit", dependencies: ["CPCRE2", "CIsal", "CYAML", "CSIMD"]),
        // Everything the tool does: reading, formats, vocabulary, state machine, scenarios, reports.
        .target(name: "TraceAnalysis", dependencies: ["NativeKit"]),
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
        .testTarget(name: "NativeKitTests", dependencies: ["NativeKit", "CZlib", "CSIMD"]),
        .testTarget(name: "TraceAnalysisTests", dependencies: ["TraceAnalysis"], exclude: ["Golden", "Fixtures"]),
        .testTarget(
            name: "TraceAnalyzeCommandTests",
            dependencies: ["trace-analyze", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
