#!/usr/bin/env bash
# A batch like a night of device logs: COUNT generated captures (every fourth gzip-compressed) in nested folders,
# analysed in one run. Prints wall time, CPU time (user + system), CPU use (CPU time / wall time: 2.0 means both
# cores busy) and peak RSS, for --jobs 1 and for the default (one job per core), run in turn RUNS times, each the run
# with the median wall time, then the speed-up: median wall time of --jobs 1 / median wall time of the default, and
# the median of each round's ratio. Each round then times what the host gives two independent processes at that
# moment (HOST_CEILING=0 skips it): two runs of --jobs 1, each on half the folders, one after the other and then side
# by side: a speed-up the host's two CPUs allow, to read the default's against (in the same rounds: the host's speed
# moves from minute to minute).
#
#   Scripts/batch-benchmark.sh              # 1000 captures of about 200 KB
#   COUNT=100 SIZE=50KB Scripts/batch-benchmark.sh
#
# Environment: COUNT (1000), SIZE (200KB per capture), RUNS (5), BUILD_DIR (.build-release), SKIP_BUILD=1,
# FORMATS (extra reports, default "--report markdown=/dev/null --report junit=/dev/null"), HOST_CEILING (1).
# Captures are kept in bench-data/batch-COUNT-SIZE/ (git-ignored) and reused.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export LC_ALL=C

COUNT=${COUNT:-1000}
SIZE=${SIZE:-200KB}
RUNS=${RUNS:-5}
BUILD_DIR=${BUILD_DIR:-.build-release}
FORMATS=${FORMATS:---report markdown=/dev/null --report junit=/dev/null}

source Scripts/release-build.sh
release_build

DIR=bench-data/batch-$COUNT-$SIZE
if [[ ! -f $DIR/.complete ]]; then
    rm -rf "$DIR"
    echo "==> generating $COUNT captures of $SIZE in $DIR" >&2
    for ((i = 1; i <= COUNT; i++)); do
        folder=$DIR/device-$((i % 10))/run-$((i / 10))
        mkdir -p "$folder"
        if ((i % 4 == 0)); then
            "$BIN/generate-capture" --size "$SIZE" --seed "$i" | gzip -1 > "$folder/capture-$i.log.gz"
        else
            "$BIN/generate-capture" --size "$SIZE" --seed "$i" --output "$folder/capture-$i.log"
        fi
    done
    touch "$DIR/.complete"
fi
echo "==> $(find "$DIR" -type f -name 'capture-*' | wc -l) captures, $(du -sh --apparent-size "$DIR" | cut -f1) on disk" >&2
# Warm the page cache, here and before each timed run: a host may take cached pages back while it has memory to spare
# (this one took back about 1 MB a second of a file read a minute before), and a run would read them from the disk.
warm() { find "$DIR" -type f -name 'capture-*' -exec cat {} + > /dev/null; }
warm

# One run: prints "wall user sys rss_kb". The wall time is the clock's, to the microsecond (GNU time's `%e` has
# hundredths: on runs of 0.14 s the speed-up could only be 1.79x, 1.86x, 1.93x ...), taken the way the ceiling's
# runs below are taken; user and system time and peak RSS are GNU time's.
once() {
    local stats start end
    stats=$(mktemp)
    warm
    start=$(date +%s%N)
    # Exit code 1 (findings) is expected: the generated captures hold violations on purpose.
    /usr/bin/time -o "$stats" -f '%U %S %M' "$BIN/trace-analyze" "$@" --no-progress $FORMATS "$DIR" \
        > /dev/null 2> /dev/null || true
    end=$(date +%s%N)
    echo "$(awk -v n=$((end - start)) 'BEGIN { printf "%.4f", n / 1e9 }') $(tail -1 "$stats")"
    rm -f "$stats"
}

# Prints the label and, of the runs given (each "wall user sys rss_kb"), the one with the median wall time, and
# leaves that time in $median.
report() {
    local label=$1
    shift
    local middle
    middle=$(printf '%s\n' "$@" | sort -n -k1,1 | sed -n "$((($# + 1) / 2))p")
    read -r wall user sys rss <<< "$middle"
    median=$wall
    awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN {
        printf "%-14s wall %6.3f s   cpu %6.2f s (user %.2f + sys %.2f)   cpu/wall %.2f   peak RSS %.1f MB\n",
            l, w, u + s, u, s, (u + s) / w, r / 1024 }'
}
# RUNS rounds of --jobs 1 then the default: on a shared host, whose speed moves from minute to minute, both see the
# same minutes, and the median of each round's speed-up is the steadiest figure.
ceiling=${HOST_CEILING:-1}
if [[ $ceiling == 1 ]]; then
    mapfile -t folders < <(find "$DIR" -mindepth 1 -maxdepth 1 -type d | sort)
    half=$((${#folders[@]} / 2))
    first=("${folders[@]:0:half}")
    second=("${folders[@]:half}")
    ((${#first[@]} > 0)) || ceiling=0
fi
halves() {
    # Exit code 1 (findings) is expected, as above.
    "$BIN/trace-analyze" --jobs 1 --no-progress $FORMATS "$@" > /dev/null 2> /dev/null || true
}
# Wall time in microseconds of two --jobs 1 processes on a half each: one after the other, then side by side.
pair() {
    local start middle end one
    warm
    start=$(date +%s%N)
    halves "${first[@]}"
    halves "${second[@]}"
    middle=$(date +%s%N)
    one=$((middle - start))
    warm
    middle=$(date +%s%N)
    halves "${first[@]}" &
    halves "${second[@]}"
    wait
    end=$(date +%s%N)
    echo "$((one / 1000)) $(((end - middle) / 1000))"
}
echo "==> $RUNS round(s) of --jobs 1 and the default$([[ $ceiling == 1 ]] && echo ", then two --jobs 1 processes on" \
    "${#first[@]} and ${#second[@]} of the ${#folders[@]} folders, one after the other and side by side"), warm page" \
    "cache, $(nproc) CPUs" >&2
serial_runs=()
parallel_runs=()
ratios=()
pairs=()
for ((i = 0; i < RUNS; i++)); do
    serial_runs+=("$(once --jobs 1)")
    parallel_runs+=("$(once)")
    ratios+=("$(awk -v a="${serial_runs[i]%% *}" -v b="${parallel_runs[i]%% *}" 'BEGIN { printf "%.4f", a / b }')")
    [[ $ceiling == 1 ]] && pairs+=("$(pair) ${parallel_runs[i]%% *}")
done
report "--jobs 1" "${serial_runs[@]}"
serial=$median
report "default jobs" "${parallel_runs[@]}"
round=$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
awk -v a="$serial" -v b="$median" -v r="$round" 'BEGIN {
    printf "speed-up: median --jobs 1 / median default %.2fx; round by round (median of each round'"'"'s) %.2fx\n",
        a / b, r }'
[[ $ceiling == 1 ]] || exit 0
# The host's ceiling in the same rounds: what two independent processes get from the two CPUs (their start-ups and
# reports run side by side too), and the default's wall time against theirs for the same captures.
printf '%s\n' "${pairs[@]}" | awk -v runs="$RUNS" -v round="$round" '
    { serial[NR] = $1; side[NR] = $2; ratio[NR] = $1 / $2; against[NR] = $3 * 1e6 / $2 }
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return a[int((n + 1) / 2)]
    }
    END {
        s = median(serial, runs); p = median(side, runs); r = median(ratio, runs); g = median(against, runs)
        printf "two --jobs 1 processes, a half each: one after the other %.3f s, side by side %.3f s\n", s / 1e6, p / 1e6
        printf "host ceiling: side by side %.2fx round by round; the default jobs %.2fx (%.0f %% of it), its wall time " \
            "%.2fx theirs round by round\n", r, round, 100 * round / r, g
    }'
