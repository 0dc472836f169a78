#!/usr/bin/env bash
# Linear scaling: trace-analyze on a SMALL and a LARGE generated capture (default 50MB and 500MB, ten times as
# big), median of RUNS runs each, then the ratio of the times (10.0 is perfectly linear) and each peak RSS. An empty
# capture is timed too: what every run pays whatever its input (start-up, an empty report), which makes the ratio of
# whole runs fall below the ratio of sizes as the cost per byte falls; the ratio of the times less that one is
# printed beside it.
#
#   Scripts/scaling-benchmark.sh
#   SMALL=100MB LARGE=1GB RUNS=3 Scripts/scaling-benchmark.sh
#
# Environment: SMALL (50MB), LARGE (500MB), RUNS (5), BUILD_DIR (.build-release), SKIP_BUILD=1,
# TOOL_ARGS (default "--format json --jobs 1"). Captures are kept in bench-data/ (git-ignored) and reused.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export LC_ALL=C
SMALL=${SMALL:-50MB}
LARGE=${LARGE:-500MB}
RUNS=${RUNS:-5}
BUILD_DIR=${BUILD_DIR:-.build-release}
TOOL_ARGS=${TOOL_ARGS---format json --jobs 1}

source Scripts/release-build.sh
release_build
mkdir -p bench-data

# Median wall time (µs) of RUNS runs on $1, in REPLY; peak RSS (KB) of the last run in RSS.
time_tool() {
    local file=$1 samples=() i start end
    for ((i = 0; i < RUNS; i++)); do
        start=${EPOCHREALTIME//[.,]/}
        # shellcheck disable=SC2086  # TOOL_ARGS is a word list on purpose
        /usr/bin/time -f '%M' -o "$TMP/rss" "$BIN/trace-analyze" $TOOL_ARGS "$file" > /dev/null 2>&1 || (($? <= 2))
        end=${EPOCHREALTIME//[.,]/}
        samples+=($((end - start)))
    done
    mapfile -t samples < <(printf '%s\n' "${samples[@]}" | sort -n)
    REPLY=${samples[RUNS / 2]}
    RSS=$(tail -n 1 "$TMP/rss")
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
declare -A micros rss bytes
: > "$TMP/empty.log"
time_tool "$TMP/empty.log"
empty=$REPLY
for size in "$SMALL" "$LARGE"; do
    file=bench-data/capture-$size.log
    [[ -s $file ]] || "$BIN/generate-capture" --size "$size" --output "$file"
    cat "$file" > /dev/null
    bytes[$size]=$(stat -c %s "$file")
    time_tool "$file"
    micros[$size]=$REPLY
    rss[$size]=$RSS
done

echo "trace-analyze $TOOL_ARGS — median of $RUNS run(s), warm page cache, $(nproc) CPUs"
for size in "$SMALL" "$LARGE"; do
    us=${micros[$size]}
    printf '%-8s %12d bytes %9d.%03d s %8d MB/s   peak RSS %6d KB\n' "$size" "${bytes[$size]}" $((us / 1000000)) \
        $((us / 1000 % 1000)) $((bytes[$size] / us)) "${rss[$size]}"
done
ratio=$((micros[$LARGE] * 100 / micros[$SMALL]))
size_ratio=$((bytes[$LARGE] * 100 / bytes[$SMALL]))
within() { ((${1} * 100 >= size_ratio * 85 && ${1} * 100 <= size_ratio * 115)) && echo yes || echo no; }
printf 'time %s / time %s = %d.%02d (input %d.%02d times as big; linear within 15%%: %s)\n' "$LARGE" "$SMALL" \
    $((ratio / 100)) $((ratio % 100)) $((size_ratio / 100)) $((size_ratio % 100)) "$(within "$ratio")"
net=0
((micros[$SMALL] > empty)) && net=$(((micros[$LARGE] - empty) * 100 / (micros[$SMALL] - empty)))
printf 'an empty capture takes %d.%03d s; less that, %s / %s = %d.%02d (linear within 15%%: %s)\n' \
    $((empty / 1000000)) $((empty / 1000 % 1000)) "$LARGE" "$SMALL" $((net / 100)) $((net % 100)) "$(within "$net")"
