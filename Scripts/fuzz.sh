#!/usr/bin/env bash
# Fuzzes the whole pipeline (bytes → records → events → state machines → scenarios → every report format) with
# libFuzzer and AddressSanitizer for SECONDS (default 60). See Documentation/Fuzzing.md.
#
#   Scripts/fuzz.sh [SECONDS]
#
# Builds Fuzz/ (a package of its own, so `swift build` and `swift test` never see it) with
# -sanitize=fuzzer,address; seeds .fuzz/seeds from samples/ (as they are, gzipped and forced to each input
# format), Tests/**/Fixtures and the real captures of ../shared/corpus/real when that folder exists
# (FUZZ_REAL_CORPUS names another), cut into pieces of at most 64 KB at line ends; and fuzzes into .fuzz/corpus,
# which grows from run to run. Crashes, invariant breaks, hangs (10 s), inputs needing over 2 GB and leaks are
# written to .fuzz/artifacts. Each run appends a line to .fuzz/history.tsv, so the time fuzzed across runs adds
# up. FUZZ_DIR names another folder than .fuzz; FUZZ_SEED fixes libFuzzer's seed and FUZZ_RUNS stops after that many
# inputs (CI: the same 300 inputs every time). Exits with libFuzzer's status: 0 when it found nothing.
set -euo pipefail

# All in one function, read whole before it runs: editing this file during a long run cannot change the run.
main() {

    duration=${1:-60}
    if ! [[ $duration =~ ^[0-9]+$ ]] || ((duration < 1)); then
        echo "usage: Scripts/fuzz.sh [SECONDS]  (default 60)" >&2
        exit 64
    fi

    root=$(cd "$(dirname "$0")/.." && pwd)
    work=${FUZZ_DIR:-$root/.fuzz}
    seeds="$work/seeds"
    corpus="$work/corpus"
    artifacts="$work/artifacts"
    real=${FUZZ_REAL_CORPUS:-$root/../shared/corpus/real}
    max_len=65536

    # One -sanitize= flag with both: a second -sanitize= replaces the first instead of adding to it.
    build=(swift build --package-path "$root/Fuzz" -c debug -Xswiftc -sanitize=fuzzer,address)
    echo "== building the fuzzer"
    # The linker's notes about local symbols are noise; a failed build stops here (an older binary may exist).
    if ! "${build[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }; then
        echo "fuzz.sh: the fuzzer did not build. After a file was added to the library, an older Fuzz/.build" >&2
        echo "may not see it: remove Fuzz/.build and run again." >&2
        exit 2
    fi
    binary="$("${build[@]}" --show-bin-path)/TraceAnalyzeFuzzer"
    [[ -x $binary ]] || { echo "fuzz.sh: the build did not produce $binary" >&2; exit 2; }

    mkdir -p "$corpus" "$artifacts"
    rm -rf "$seeds"
    mkdir -p "$seeds"

    # Writes file $1 into $seeds as it is, or, when longer than $max_len bytes (libFuzzer's -max_len), as pieces of
    # at most that many bytes cut at line ends (a longer line is cut too; a big .gz is inflated first), named after $2.
    split_seed() {
        local file=$1 name=$2
        if (($(stat -c %s "$file") <= max_len)); then
            cp "$file" "$seeds/$name"
        elif [[ $file == *.gz ]]; then
            gzip -dc "$file" 2>/dev/null | split_stream "$name" || true
        else
            split_stream "$name" <"$file"
        fi
    }

    split_stream() {
        LC_ALL=C awk -v prefix="$seeds/$1" -v max="$max_len" '
            function flush() {
                if (size > 0) { printf "%s", piece > (prefix "." count); close(prefix "." count); count++ }
                piece = ""; size = 0
            }
            BEGIN { count = 0; size = 0; piece = "" }
            {
                line = $0 "\n"
                if (length(line) > max) line = substr(line, 1, max)
                if (size + length(line) > max) flush()
                piece = piece line; size += length(line)
            }
            END { flush() }'
    }

    echo "== seeding $seeds"
    shopt -s globstar nullglob
    sources=()
    for file in "$root"/samples/**/*.{log,txt,ndjson,syslog,out,gz}; do sources+=("$file"); done
    for file in "$root"/Tests/**/Fixtures/**/*; do [[ -f $file ]] && sources+=("$file"); done
    if [[ -d $real ]]; then
        for file in "$real"/**/*.{log,txt,ndjson,syslog,out,gz}; do sources+=("$file"); done
    else
        echo "   (no real corpus at $real)"
    fi
    for file in "${sources[@]}"; do
        if [[ $file == "$real"/* ]]; then name=real/${file#"$real"/}; else name=${file#"$root"/}; fi
        split_seed "$file" "${name//\//_}"
    done
    # Some inputs that force an input format (0x01 K: the K-th format of the catalogue, modulo its size) instead of
    # detecting it, so every format's parser is fuzzed from the start, not only once the fuzzer finds the prefix.
    pieces=("$seeds"/samples_*)
    for k in $(seq 0 31); do
        ((${#pieces[@]} > 0)) || break
        piece=${pieces[k % ${#pieces[@]}]}
        { printf "\\x01\\x$(printf %02x "$k")"; head -c $((max_len - 2)) "$piece"; } >"$seeds/forced-format-$k"
    done
    # Gzip-compressed captures are inflated on the way in (the ISA-L wrapper in NativeKit): a few whole, one cut short.
    for file in "$root"/samples/*.log; do
        gzip -9c "$file" >"$seeds/gzip-$(basename "$file").gz"
        (($(stat -c %s "$seeds/gzip-$(basename "$file").gz") <= max_len)) || rm "$seeds/gzip-$(basename "$file").gz"
    done
    for file in "$seeds"/gzip-*.gz; do
        head -c $(($(stat -c %s "$file") / 2)) "$file" >"$seeds/truncated-$(basename "$file")"
        break
    done
    echo "   $(find "$seeds" -type f | wc -l) seed pieces from ${#sources[@]} files; working corpus $corpus holds" \
        "$(find "$corpus" -type f | wc -l) inputs"

    before=$(find "$artifacts" -type f | sort)
    log="$work/last-run.log"
    echo "== fuzzing for $duration s (libFuzzer's output: $log)"
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    start_seconds=$(date +%s)
    status=0
    # SWIFT_BACKTRACE=enable=no: Swift's own crash handler would wait on the crash instead of letting libFuzzer save
    # the input.
    SWIFT_BACKTRACE=enable=no "$binary" \
        -max_total_time="$duration" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
        ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} \
        -artifact_prefix="$artifacts/" -print_final_stats=1 -print_pcs=0 \
        "$corpus" "$seeds" >"$log" 2>&1 || status=$?

    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # A finding stops libFuzzer before its "Done … in N second(s)": the wall clock counts then.
    seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    seconds=${seconds:-$(($(date +%s) - start_seconds))}
    # -a: libFuzzer's log may hold NUL bytes (the dictionary entries it prints), which makes grep call it binary.
    final=$(grep -a -E '^#[0-9]+' "$log" | tail -1 || true)
    corpus_units=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\) .*/\1/p' <<<"$final")
    new=$(comm -13 <(echo "$before") <(find "$artifacts" -type f | sort) | sed '/^$/d')
    findings=$(grep -c . <<<"$new" || true)

    echo "== done (libFuzzer status $status)"
    echo "   executions:  ${executions:-?} in ${seconds:-?} s"
    echo "   corpus:      ${corpus_units:-?} (inputs/bytes in memory);" \
        "$(find "$corpus" -type f | wc -l) files in $corpus"
    echo "   coverage:    $(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$final") edges"
    echo "   findings:    $findings"
    if ((findings > 0)); then
        sed 's/^/     /' <<<"$new"
        echo "   what broke:"
        grep -a -E "Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|^SUMMARY" "$log" |
            sed 's/^/     /' || true
        grep -a -A12 "Fatal error: invariant broken" "$log" | sed -n '2,12p' |
            sed '/^Current stack trace/,$d;s/^/     /' || true
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$started" "${seconds:-0}" "${executions:-0}" "${corpus_units:-}" "$findings" \
        "$status" >>"$work/history.tsv"
    total=$(awk -F'\t' '{ s += $2; e += $3 } END { printf "%d s (%.1f h), %d executions", s, s / 3600, e }' \
        "$work/history.tsv")
    echo "   all runs:    $total ($work/history.tsv)"
    exit "$status"
}

main "$@"
exit
