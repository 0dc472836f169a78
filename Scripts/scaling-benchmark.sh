#!/usr/bin/env bash
# Linear scaling: trace-analyze on a SMALL and a LARGE generated capture (default 50MB and 500MB, ten times as
# big), in RUNS rounds that time each in turn: the median time of each, the median of each round's ratio of the times
# (10.0 is perfectly linear) and each peak RSS (from a run of its own). An empty capture is timed too: what every run
# pays whatever its input (start-up, an empty report), which makes the ratio of whole runs fall below the ratio of
# sizes as the cost per byte falls; the ratio of the times less that one is printed beside it, and `cat`'s ratio, what
# reading the bytes alone costs at each size on this machine.
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

# Runs the command with its output thrown away (an exit status up to 2, findings or an input problem, is no failure),
# and puts its wall time (µs) in REPLY.
timed() {
    local start end
    start=${EPOCHREALTIME//[.,]/}
    "$@" > /dev/null 2>&1 || (($? <= 2))
    end=${EPOCHREALTIME//[.,]/}
    REPLY=$((end - start))
}

# The file $1 read before a timed command (untimed): a host may take cached pages back while it has memory to spare
# (this one took back about 1 MB a second of a file read a minute before), and the command would read them from the disk.
warm() { cat "$1" > /dev/null; }

# Wall time (µs) of one run of the tool on $1, in REPLY. (Timed alone, as benchmark.sh times it: run under
# /usr/bin/time, each run also paid for starting that program, 2.2 ms on the benchmark host, a twentieth of a 50 MB run.)
# shellcheck disable=SC2086  # TOOL_ARGS is a word list on purpose
run_tool() {
    warm "$1"
    timed "$BIN/trace-analyze" $TOOL_ARGS "$1"
}

# Peak RSS (KB) of one more run of the tool on $1, in REPLY.
peak_rss() {
    # shellcheck disable=SC2086
    timed /usr/bin/time -f '%M' -o "$TMP/rss" "$BIN/trace-analyze" $TOOL_ARGS "$1"
    REPLY=$(tail -n 1 "$TMP/rss")
}

# Wall time (µs) of `cat $1 > /dev/null`, in REPLY: what reading the bytes costs on this machine at that size (a
# capture that fits the processor's last-level cache is read faster per byte than one that does not).
run_cat() {
    warm "$1"
    timed cat "$1"
}

# The median of the arguments.
median() {
    local sorted
    mapfile -t sorted < <(printf '%s\n' "$@" | sort -n)
    REPLY=${sorted[$# / 2]}
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
declare -A bytes
: > "$TMP/empty.log"
for size in "$SMALL" "$LARGE"; do
    file=bench-data/capture-$size.log
    [[ -s $file ]] || "$BIN/generate-capture" --size "$size" --output "$file"
    cat "$file" > /dev/null
    bytes[$size]=$(stat -c %s "$file")
done

# Round by round, each command once in turn (an empty capture, the small one, the large one, then `cat` of each), so
# that a host whose speed drifts during the runs weighs on both sizes alike; the ratios are each round's.
empties=() smalls=() larges=() cats_small=() cats_large=() ratios=() nets=() cat_ratios=()
for ((i = 0; i < RUNS; i++)); do
    run_tool "$TMP/empty.log"
    empty=$REPLY
    run_tool "bench-data/capture-$SMALL.log"
    small=$REPLY
    run_tool "bench-data/capture-$LARGE.log"
    large=$REPLY
    run_cat "bench-data/capture-$SMALL.log"
    cat_small=$REPLY
    run_cat "bench-data/capture-$LARGE.log"
    cat_large=$REPLY
    empties+=("$empty") smalls+=("$small") larges+=("$large") cats_small+=("$cat_small") cats_large+=("$cat_large")
    ratios+=($((large * 100 / small)))
    ((small > empty)) && nets+=($(((large - empty) * 100 / (small - empty))))
    ((cat_small > 0)) && cat_ratios+=($((cat_large * 100 / cat_small)))
done
declare -A micros rss
median "${empties[@]}" && empty=$REPLY
median "${smalls[@]}" && micros[$SMALL]=$REPLY
median "${larges[@]}" && micros[$LARGE]=$REPLY
peak_rss "bench-data/capture-$SMALL.log" && rss[$SMALL]=$REPLY
peak_rss "bench-data/capture-$LARGE.log" && rss[$LARGE]=$REPLY

echo "trace-analyze $TOOL_ARGS — median of $RUNS round(s), each size in turn, warm page cache, $(nproc) CPUs"
for size in "$SMALL" "$LARGE"; do
    us=${micros[$size]}
    printf '%-8s %12d bytes %9d.%03d s %8d MB/s   peak RSS %6d KB\n' "$size" "${bytes[$size]}" $((us / 1000000)) \
        $((us / 1000 % 1000)) $((bytes[$size] / us)) "${rss[$size]}"
done
median "${ratios[@]}" && ratio=$REPLY
size_ratio=$((bytes[$LARGE] * 100 / bytes[$SMALL]))
within() { ((${1} * 100 >= size_ratio * 85 && ${1} * 100 <= size_ratio * 115)) && echo yes || echo no; }
printf 'time %s / time %s = %d.%02d round by round (input %d.%02d times as big; linear within 15%%: %s)\n' "$LARGE" \
    "$SMALL" $((ratio / 100)) $((ratio % 100)) $((size_ratio / 100)) $((size_ratio % 100)) "$(within "$ratio")"
net=0
((${#nets[@]} > 0)) && median "${nets[@]}" && net=$REPLY
printf 'an empty capture takes %d.%03d s; less that, %s / %s = %d.%02d round by round\n' \
    $((empty / 1000000)) $((empty / 1000 % 1000)) "$LARGE" "$SMALL" $((net / 100)) $((net % 100))
cat_ratio=0
((${#cat_ratios[@]} > 0)) && median "${cat_ratios[@]}" && cat_ratio=$REPLY
median "${cats_small[@]}" && cat_small=$REPLY
median "${cats_large[@]}" && cat_large=$REPLY
printf 'cat FILE > /dev/null: %s in %d.%03d s, %s in %d.%03d s, %d.%02d times as long round by round\n' "$SMALL" \
    $((cat_small / 1000000)) $((cat_small / 1000 % 1000)) "$LARGE" $((cat_large / 1000000)) \
    $((cat_large / 1000 % 1000)) $((cat_ratio / 100)) $((cat_ratio % 100))
