import TraceAnalysis

/// libFuzzer's entry point: the whole pipeline on the bytes, every report format, the invariants of
/// ``PipelineCheck``. A broken invariant stops the run like a crash, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    check(UnsafeBufferPointer(start: data, count: size))
}

private func check(_ input: UnsafeBufferPointer<UInt8>) -> CInt {
    let problems = PipelineCheck.run(Array(input))
    if !problems.isEmpty {
        fatalError("invariant broken:\n" + problems.joined(separator: "\n"))
    }
    return 0
}

/// libFuzzer's driver (compiler-rt, `-sanitize=fuzzer`), what its own `main` calls.
@_extern(c, "LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable with `--defsym main=<Module>_main` (so tests can link it), which would hide
/// libFuzzer's `main`: this is that symbol, and it starts libFuzzer as its `main` would.
@_cdecl("TraceAnalyzeFuzzer_main")
public func fuzzerMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in check(UnsafeBufferPointer(start: data, count: size)) }
}
