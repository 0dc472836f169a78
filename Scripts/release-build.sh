# Sourced by the benchmark scripts: builds trace-analyze and generate-capture in release mode (unless SKIP_BUILD=1)
# in BUILD_DIR and sets BIN to the folder holding them.
#
# On Linux the Swift runtime and Foundation are linked statically (--static-swift-stdlib), as a release should be:
# the dynamic linker no longer resolves thousands of symbols at every start (3 ms of the start-up), calls into the
# runtime skip the PLT, and about 7 MB of shared-library pages stay out of the resident set. macOS keeps its runtime
# in the OS. (The linker's warning that "the use of `mktemp' is dangerous" comes from Foundation's static library,
# which trace-analyze does not call for it: its temporary files are made with mkstemp.)
release_build() {
    local flags=(-c release --scratch-path "$BUILD_DIR")
    [[ $(uname -s) == Linux ]] && flags+=(--static-swift-stdlib)
    # The metadata of concrete generic types made by accessor functions, as before Swift 5.1, instead of from their
    # mangled names: a name is demangled at its first use and each of its generic requirements looked up in the
    # runtime's protocol-conformance records (a scan of the binary's 5,853), about 6 M instructions of every run's
    # start-up (35.8 -> 29.6 M, 1 ms), for 80 KB more code. A hidden frontend flag: used where the compiler has it
    # (read whole, not piped to `grep -q`, whose early exit fails the pipe under `pipefail`).
    local frontend
    frontend=$(swiftc -frontend -help-hidden 2>/dev/null || true)
    if [[ $frontend == *-disable-concrete-type-metadata-mangled-name-accessors* ]]; then
        flags+=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
    fi
    if [[ ${SKIP_BUILD:-0} != 1 ]]; then
        echo "==> swift build ${flags[*]} (trace-analyze, generate-capture)" >&2
        # One product per invocation: SwiftPM only honours the last --product flag.
        swift build "${flags[@]}" --product trace-analyze >&2
        swift build "${flags[@]}" --product generate-capture >&2
    fi
    BIN=$(swift build "${flags[@]}" --show-bin-path)
}
