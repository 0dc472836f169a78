#!/usr/bin/env bash
# The bad inputs of Documentation/HostileInput.md at full size, each run through the built binary with its time and
# peak memory (/usr/bin/time): the test suite runs smaller versions of the same code paths.
#
#   Scripts/hostile-input-check.sh                     # the debug build (swift build), as the tests use it
#   CONFIG=release Scripts/hostile-input-check.sh      # a release build in .build-release (as Scripts/benchmark.sh)
#
# Environment: CONFIG (debug), SKIP_BUILD=1 (use the binary already built), PIDS (1000000), LINE_MB (100),
# NEWLINES (10000000), CYCLES (300000: one app's background and foreground cycles, and its violations). Prints one row per case: seconds, peak RSS, exit code and what the input summary counted.
# Needs bash, coreutils, awk, python3 (to read the JSON) and /usr/bin/time.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export LC_ALL=C TZ=UTC NO_COLOR=1

CONFIG=${CONFIG:-debug}
PIDS=${PIDS:-1000000}
LINE_MB=${LINE_MB:-100}
NEWLINES=${NEWLINES:-10000000}
CYCLES=${CYCLES:-300000}

if [[ $CONFIG == release ]]; then
    # The benchmarks' release build (the runtime linked statically on Linux), in their folder.
    BUILD_DIR=.build-release
    source Scripts/release-build.sh
    release_build
    BIN_DIR=$BIN
else
    if [[ ${SKIP_BUILD:-0} != 1 ]]; then
        echo "==> swift build --product trace-analyze" >&2
        swift build --product trace-analyze >&2
    fi
    BIN_DIR=$(swift build --show-bin-path)
fi
TOOL=$BIN_DIR/trace-analyze
[[ -x $TOOL ]] || { echo "hostile-input-check: $TOOL is missing (build failed?)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "hostile-input-check: /usr/bin/time is needed for peak memory" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# What the JSON report's first input counted, as `key=value` pairs.
counted() {
    python3 -c '
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception as error:
    print("(no JSON: %s)" % error); sys.exit(0)
i = report["inputs"][0]
keys = ["lines", "records", "continuationLines", "blankLines", "skippedLines", "unparsedLines", "truncatedLines", "lifecycleEvents"]
print(" ".join("%s=%s" % (k, i[k]) for k in keys if i.get(k)) + " processes=%d" % len(report["processes"]))
' "$1"
}

printf '%-34s %9s %12s %5s  %s\n' "case" "seconds" "peak RSS" "exit" "counted"
# run NAME INPUT-COMMAND...: the command writes the capture on standard output, piped into trace-analyze.
run() {
    local name=$1
    shift
    "$@" | /usr/bin/time -o "$WORK/time" -f '%e %M' "$TOOL" --format json --jobs 1 - > "$WORK/report.json" \
        2> "$WORK/stderr" && status=0 || status=$?
    # /usr/bin/time adds a "Command exited with non-zero status" line before its own when the tool fails.
    read -r seconds kilobytes < <(tail -n 1 "$WORK/time")
    printf '%-34s %9s %9d MB %5s  %s\n' "$name" "$seconds" $((kilobytes / 1024)) "$status" "$(counted "$WORK/report.json")"
}

launch() {
    printf '2024-06-01 12:00:00.000 App[7:1a03] application:didFinishLaunchingWithOptions:\n'
    printf '2024-06-01 12:00:00.100 App[7:1a03] applicationDidBecomeActive:\n'
}

run "a short capture (baseline)" launch
run "empty input" true
run "$NEWLINES newlines" awk -v n="$NEWLINES" 'BEGIN { for (i = 0; i < n; i++) print "" }'
run "10 MB of random bytes" head -c 10485760 /dev/urandom
run "one $LINE_MB MB line, then a launch" bash -c "head -c $((LINE_MB * 1000000)) /dev/zero | tr '\\0' a; echo; $(declare -f launch); launch"
run "$PIDS pids, no lifecycle event" awk -v n="$PIDS" 'BEGIN {
    for (i = 1; i <= n; i++) printf "2024-06-01 12:00:%02d.%03d App%d[%d:1a03] hello\n", (i / 1000) % 60, i % 1000, i % 100, i }'
run "$((PIDS / 10)) pids, each a launch" awk -v n="$((PIDS / 10))" 'BEGIN {
    for (i = 1; i <= n; i++) {
        printf "2024-06-01 12:00:00.000 App%d[%d:1a03] application:didFinishLaunchingWithOptions:\n", i % 100, i
        printf "2024-06-01 12:00:00.100 App%d[%d:1a03] applicationDidBecomeActive:\n", i % 100, i } }'
run "$((PIDS / 10)) pids + exits of unknown pids" awk -v n="$((PIDS / 10))" 'BEGIN {
    for (i = 1; i <= n; i++) printf "2024-06-01 12:00:00.000 App%d[%d:1a03] hello\n", i, i
    for (i = 1; i <= n / 5; i++)
        printf "2024-06-01 12:00:01.000 kernel[0:1a03] memorystatus: killing_specific_process pid %d [Other%d] (limit)\n", n + i, i }'
# One app with very many episodes (a background and a foreground each cycle), then very many violations.
run "$CYCLES fg/bg cycles of one app" awk -v n="$CYCLES" 'BEGIN {
    print "2024-06-01 12:00:00.000 App[7:1a03] application:didFinishLaunchingWithOptions:"
    split("applicationWillEnterForeground: applicationDidBecomeActive: applicationWillResignActive: applicationDidEnterBackground:", callback, " ")
    for (i = 0; i < n; i++) {
        ms = i * 2
        stamp = sprintf("2024-06-01 %02d:%02d:%02d.%03d", 12 + int(ms / 3600000), int(ms / 60000) % 60, int(ms / 1000) % 60, ms % 1000)
        for (c = 1; c <= 4; c++) printf "%s App[7:1a03] %s\n", stamp, callback[c] } }'
run "$CYCLES violations of one app" awk -v n="$CYCLES" 'BEGIN {
    print "2024-06-01 12:00:00.000 App[7:1a03] application:didFinishLaunchingWithOptions:"
    for (i = 0; i < n; i++) {
        ms = i * 2
        printf "2024-06-01 %02d:%02d:%02d.%03d App[7:1a03] applicationDidBecomeActive:\n", 12 + int(ms / 3600000), int(ms / 60000) % 60, int(ms / 1000) % 60, ms % 1000 } }'

# A configuration file with a YAML alias bomb (9^9 nodes as a mapping key): refused before it is parsed.
cat > "$WORK/bomb.yml" <<'YAML'
a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
? *i
: 1
version: 1
YAML
/usr/bin/time -o "$WORK/time" -f '%e %M' "$TOOL" --config "$WORK/bomb.yml" samples/slow-launch.log \
    > /dev/null 2> "$WORK/stderr" && status=0 || status=$?
read -r seconds kilobytes < <(tail -n 1 "$WORK/time")
printf '%-34s %9s %9d MB %5s  %s\n' "YAML alias bomb (--config)" "$seconds" $((kilobytes / 1024)) "$status" \
    "$(head -n 1 "$WORK/stderr" | cut -c 1-90)"
