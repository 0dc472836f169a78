#!/usr/bin/env bash
# Throughput of trace-analyze on a generated capture, next to cat, wc -l and grep -cP on the same file.
#
#   Scripts/benchmark.sh                 # 200MB capture, median of 5 runs
#   SIZE=2GB RUNS=3 Scripts/benchmark.sh
#   QUICK=1 Scripts/benchmark.sh         # 1MB capture, 1 run: proves the pipeline works (CI), asserts no timing
#   STYLE=log-compact Scripts/benchmark.sh   # the same records as `log show --style compact` prints them
#
# Environment: SIZE (default 200MB), RUNS (5), SEED (1), QUICK (0), STYLE (nslog, the default: the records' prefix,
# as generate-capture --style writes it; log-compact, log-default, log-syslog and log-ndjson are the `log` tool's
# styles, device-syslog a device's syslog as idevicesyslog writes it, syslog macOS's /var/log/system.log, xcode the
# NSLog capture as Xcode's console shows an app that also uses print, half its noise without a prefix, ci that capture
# in a CI runner's raw job log, each line behind the runner's timestamp; each style has its own loose grep and format
# grep, xcode NSLog's, ci NSLog's behind the timestamp),
# BUILD_DIR (.build-release), GREP_LOCALE (the caller's locale: both greps are timed once more in it, as a user
# typing the command gets them, unless it is C),
# SKIP_BUILD=1 (use the binaries already in BUILD_DIR), TOOL_ARGS (default "--format json --jobs 1": one core),
# TOOL_ARGS_CORES (default "--format json": a job per core, so the lone input is read ahead on a second thread),
# GREP_EXTRA (a pattern of your own, timed as a third grep -cP in the C locale, with the tool's ratios to it: the
# NSLog-header pattern you would have typed instead; its label is <extra>, and its text is printed at the end).
# Captures are kept in bench-data/ (git-ignored) and reused; delete them to regenerate.
# Needs bash, coreutils, GNU grep (-P) and /usr/bin/time (for peak RSS; skipped when missing).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The caller's locale, for the one grep timed as a user would type it (grep -P is slower in UTF-8: it checks it).
GREP_LOCALE=${GREP_LOCALE:-${LC_ALL:-${LC_CTYPE:-${LANG:-C}}}}
[[ $GREP_LOCALE == POSIX ]] && GREP_LOCALE=C
export LC_ALL=C  # byte semantics for grep and wc, '.' as decimal point, stable sort

if [[ ${QUICK:-0} == 1 ]]; then
    SIZE=1MB
    RUNS=1
fi
SIZE=${SIZE:-200MB}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
BUILD_DIR=${BUILD_DIR:-.build-release}
TOOL_ARGS=${TOOL_ARGS---format json --jobs 1}
TOOL_ARGS_CORES=${TOOL_ARGS_CORES---format json}
STYLE=${STYLE:-nslog}
# An NSLog line's prefix, loosely: a date, a time with a fraction, anything up to `[pid:thread] `.
GREP_PREFIX_NSLOG='^\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\S* .+?\[\d+:[0-9a-fx]+\] '
# The same for the `log` tool's styles: a date and time, the style's columns, up to the process's `[pid…]` or `name: `.
GREP_PREFIX_LOG_COMPACT='^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+ +.+?\[\d+:[0-9a-f]+\] '
GREP_PREFIX_LOG_DEFAULT='^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\S* +0x[0-9a-f]+ +\w+ +0x[0-9a-f]+ +\d+ +.+?: '
GREP_PREFIX_LOG_SYSLOG='^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\S* +\S+ .+?\[\d+\]: '
# A device's syslog (idevicesyslog): a month, day and time, anything up to `[pid]` and a `<Level>:`.
GREP_PREFIX_DEVICE_SYSLOG='^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d\S* .+?\[\d+\].*? <\w+>: '
# BSD syslog (macOS system.log): a month, day and time, a host, anything up to the first `: `.
GREP_PREFIX_SYSLOG='^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d\S* \S+ .+?: '
# `log --style ndjson`: an object with a `log` timestamp.
GREP_PREFIX_LOG_NDJSON='^\{".*"timestamp":"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d\d:?\d\d"'
# The patterns of the formats trace-analyze reads (from Sources/TraceAnalysis/LogFormat+Builtin.swift with the groups
# unnamed; a test keeps them the same): grep counting exactly the lines trace-analyze reads as records. NSLog has two
# formats (modern|classic).
GREP_FORMATS_NSLOG='^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{4,9}(?:[+-]\d\d:?\d\d|Z)?) (?!0x[0-9a-f]+ )([^\[\]\s][^\[\]]*?)\[(\d+):(\d+)\] ?(.*)$|^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,3}) (?!(?:Df|Db|E |I |A |F |Er|Fa|Ft) \S)([^\[\]\s][^\[\]]*?)\[(\d+):([0-9A-Fa-fx]+)\] ?(.*)$'
GREP_FORMATS_LOG_COMPACT='^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (Df|Db|E |I |A |F |Er|Fa|Ft) ([^\[\]]+?)\[(\d+):([0-9a-f]+)\] ?(?:\([^()]*\) )?(?:\[([^:\]\s]+):([^\]]*)\] )?(.*)$'
GREP_FORMATS_LOG_DEFAULT='^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d\d:?\d\d) +(0x[0-9a-f]+) +([A-Z][a-z]+) +0x[0-9a-f]+ +(\d+) +(?:\d+ +)?([^:]+?): (?:\([^()]*\) )?(?:\[([^:\]\s]+):([^\]]*)\] )?(.*)$'
GREP_FORMATS_LOG_SYSLOG='^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d\d:?\d\d)  ?\S+ ([^\[\]]+?)\[(\d+)\]: (?:\([^()]*\) )?(?:\[([^:\]\s]+):([^\]]*)\] )?(.*)$'
GREP_FORMATS_DEVICE_SYSLOG='^([A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?) (?:\S* )?([^\[\]()\s][^\[\]()]*?)(?:\([^()]*\))?\[(\d+)\](?: \([^()]*\))? <([A-Za-z]+)>: ?(.*)$'
GREP_FORMATS_SYSLOG='^([A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?) \S+ ([^\[\]\s<][^\[\]]*?)(?:\[(\d+)\])?(?: \([^()]*\))?: (.*)$'
GREP_FORMATS_LOG_NDJSON='^\{(?=.*?"eventMessage":"((?:[^"\\]++|\\.)*+)")(?=.*?"timestamp":"([^"]+)")(?=(?:.*?"processID":(\d+))?)(?=(?:.*?"threadID":(\d+))?)(?=(?:.*?"processImagePath":"(?:[^"]*/)?([^"/\\]+)")?)(?=(?:.*?"subsystem":"([^"\\]*)")?)(?=(?:.*?"category":"([^"\\]*)")?)(?=(?:.*?"messageType":"([^"\\]*)")?)(?=(?:.*?"machTimestamp":(\d+))?).*\}\s*$'
# A CI runner's raw job log of the xcode capture (STYLE=ci): NSLog's loose prefix and formats behind the runner's
# timestamp (the pattern of the built-in `ci-timestamp` prefix).
GREP_CI_TIMESTAMP='\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z '
GREP_PREFIX_CI="^$GREP_CI_TIMESTAMP${GREP_PREFIX_NSLOG#^}"
nslog_formats=${GREP_FORMATS_NSLOG#^}
GREP_FORMATS_CI="^$GREP_CI_TIMESTAMP(?:${nslog_formats//'|^('/'|('})"
case $STYLE in
    nslog | log-compact | log-default | log-syslog | log-ndjson | device-syslog | syslog | xcode | ci) ;;
    *)
        echo "benchmark: STYLE must be nslog, log-compact, log-default, log-syslog, log-ndjson, device-syslog," \
            "syslog, xcode or ci, got '$STYLE'" >&2
        exit 64
        ;;
esac
style_key=${STYLE^^}
style_key=${style_key//-/_}
[[ $STYLE == xcode ]] && style_key=NSLOG  # NSLog records, and lines of no format that neither grep counts
prefix_var=GREP_PREFIX_$style_key
formats_var=GREP_FORMATS_$style_key
GREP_PATTERN=${!prefix_var}
GREP_FORMATS=${!formats_var}
PREFIX_LABEL="<$STYLE-prefix>"
FORMATS_LABEL="<$STYLE-format>"
[[ $style_key == NSLOG ]] && FORMATS_LABEL="<nslog-formats>"
[[ $style_key == CI ]] && FORMATS_LABEL="<ci-nslog-formats>"

if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "benchmark: RUNS must be a positive integer, got '$RUNS'" >&2
    exit 64
fi
# A pattern of one's own that grep cannot compile fails before the build, with grep's own message.
if [[ -n ${GREP_EXTRA:-} ]]; then
    rc=0
    grep -cP "$GREP_EXTRA" /dev/null > /dev/null || rc=$?
    ((rc <= 1)) || { echo "benchmark: GREP_EXTRA is no pattern grep -P takes" >&2; exit 64; }
fi

# --- Build -------------------------------------------------------------------------------------------
source Scripts/release-build.sh
release_build
TOOL=$BIN/trace-analyze
GENERATOR=$BIN/generate-capture
for binary in "$TOOL" "$GENERATOR"; do
    [[ -x $binary ]] || { echo "benchmark: $binary is missing (build failed?)" >&2; exit 1; }
done

# --- Capture -----------------------------------------------------------------------------------------
mkdir -p bench-data
FILE=bench-data/capture-$SIZE
[[ $SEED == 1 ]] || FILE+=-seed$SEED
[[ $STYLE == nslog ]] || FILE+=-$STYLE
FILE+=.log
if [[ -s $FILE ]]; then
    echo "==> reusing $FILE" >&2
else
    echo "==> generating $FILE" >&2
    "$GENERATOR" --size "$SIZE" --seed "$SEED" --style "$STYLE" --output "$FILE.partial"
    mv "$FILE.partial" "$FILE"
fi
BYTES=$(stat -c %s "$FILE")
LINES=$(wc -l < "$FILE")
cat "$FILE" > /dev/null  # warm the page cache

# --- Timing helpers (integer µs, no awk/bc/python needed) ----------------------------------------------
if [[ -n ${EPOCHREALTIME:-} ]]; then
    stamp() { REPLY=${EPOCHREALTIME//[.,]/}; }
else
    stamp() { REPLY=$(($(date +%s%N) / 1000)); }
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run_cat() { cat "$FILE" > /dev/null; }
run_wc() { wc -l "$FILE" > /dev/null; }
# grep -cP with pattern $1, its count in $TMP/$2.
grep_count() {
    local rc=0
    grep -cP "$1" "$FILE" > "$TMP/$2" || rc=$?
    ((rc <= 1)) || { echo "benchmark: grep failed with exit code $rc" >&2; return 1; }
}
run_grep() { grep_count "$GREP_PATTERN" grep-count; }
run_grep_formats() { grep_count "$GREP_FORMATS" grep-formats-count; }
run_grep_formats_locale() { LC_ALL=$GREP_LOCALE grep_count "$GREP_FORMATS" grep-locale-count; }
run_grep_locale() { LC_ALL=$GREP_LOCALE grep_count "$GREP_PATTERN" grep-prefix-locale-count; }
run_grep_extra() { grep_count "$GREP_EXTRA" grep-extra-count; }
# trace-analyze with the arguments $1 (a word list).
tool_run() {
    local rc=0
    # shellcheck disable=SC2086  # the arguments are a word list on purpose
    "$TOOL" $1 "$FILE" > /dev/null 2> "$TMP/tool-stderr" || rc=$?
    # 1: violations or slow launches found, 2: usage-level problems in the input; both are results.
    if ((rc > 2)); then
        echo "benchmark: trace-analyze failed with exit code $rc:" >&2
        cat "$TMP/tool-stderr" >&2
        return 1
    fi
    echo "$rc" > "$TMP/tool-rc"
}
run_tool() { tool_run "$TOOL_ARGS"; }
run_tool_cores() { tool_run "$TOOL_ARGS_CORES"; }

# The median and the fastest (µs) of a list of samples, in MEDIAN and FASTEST.
summarize() {
    local sorted
    mapfile -t sorted < <(printf '%s\n' "$@" | sort -n)
    local n=${#sorted[@]}
    FASTEST=${sorted[0]}
    if ((n % 2 == 1)); then
        MEDIAN=${sorted[n / 2]}
    else
        MEDIAN=$(((sorted[n / 2 - 1] + sorted[n / 2]) / 2))
    fi
}

# The median over the rounds of the time of function $1 over that of function $2 in the same round, with two
# decimals, in REPLY: the ratio least moved by a shared host's slow minutes.
paired() {
    local -a first second ratios=()
    read -ra first <<< "${samples[$1]}"
    read -ra second <<< "${samples[$2]}"
    local i
    for i in "${!first[@]}"; do ratios+=($((first[i] * 10000 / second[i]))); done
    summarize "${ratios[@]}"
    ratio "$MEDIAN" 10000 2
}

# x/y with `decimals` decimals (integers in, text out).
ratio() {
    local x=$1 y=$2 decimals=$3 scale=1 i
    for ((i = 0; i < decimals; i++)); do scale=$((scale * 10)); done
    ((y > 0)) || { REPLY="n/a"; return; }
    local q=$(((x * scale + y / 2) / y))
    if ((decimals == 0)); then REPLY=$q; else printf -v REPLY '%d.%0*d' $((q / scale)) "$decimals" $((q % scale)); fi
}

# --- Run ---------------------------------------------------------------------------------------------
echo "==> timing $RUNS round(s) of every command on $FILE" >&2
names=("cat FILE > /dev/null" "wc -l FILE" "grep -cP '$PREFIX_LABEL' FILE" "grep -cP '$FORMATS_LABEL' FILE")
names+=("trace-analyze ${TOOL_ARGS:+$TOOL_ARGS }FILE" "trace-analyze ${TOOL_ARGS_CORES:+$TOOL_ARGS_CORES }FILE")
functions=(run_cat run_wc run_grep run_grep_formats run_tool run_tool_cores)
if [[ $GREP_LOCALE != C ]]; then
    names+=("grep -cP '$FORMATS_LABEL' FILE ($GREP_LOCALE)" "grep -cP '$PREFIX_LABEL' FILE ($GREP_LOCALE)")
    functions+=(run_grep_formats_locale run_grep_locale)
fi
if [[ -n ${GREP_EXTRA:-} ]]; then
    names+=("grep -cP '<extra>' FILE")
    functions+=(run_grep_extra)
fi
# RUNS rounds, each running every command once: on a shared host, whose speed moves from minute to minute, every
# command sees the same minutes. The file is read (untimed) before each command: a host may take cached pages back
# while it has memory to spare (this one took back about 1 MB a second of a file read a minute before), and a command
# would then read them from the disk, the later ones in a round the most.
declare -A samples
for ((round = 0; round < RUNS; round++)); do
    for f in "${functions[@]}"; do
        cat "$FILE" > /dev/null
        stamp
        start=$REPLY
        "$f"
        stamp
        samples[$f]+="$((REPLY - start)) "
    done
done
medians=()
fastest=()
for f in "${functions[@]}"; do
    # shellcheck disable=SC2086  # the samples are a word list
    summarize ${samples[$f]}
    medians+=("$MEDIAN")
    fastest+=("$FASTEST")
done

# Peak RSS (KB) of trace-analyze with the arguments $1, in REPLY (empty without /usr/bin/time).
peak_rss() {
    REPLY=""
    [[ -x /usr/bin/time ]] || return 0
    local rc=0
    # shellcheck disable=SC2086
    /usr/bin/time -f '%M' -o "$TMP/rss" "$TOOL" $1 "$FILE" > /dev/null 2> /dev/null || rc=$?
    if ((rc > 2)); then
        echo "benchmark: trace-analyze failed with exit code $rc under /usr/bin/time" >&2
        exit 1
    fi
    REPLY=$(tail -n 1 "$TMP/rss")
}
peak_rss "$TOOL_ARGS"
RSS_KB=$REPLY
peak_rss "$TOOL_ARGS_CORES"
RSS_CORES_KB=$REPLY

# --- Report ------------------------------------------------------------------------------------------
cpu=$(grep -m1 -E '^(model name|Hardware|cpu model|Processor)[[:space:]]*:' /proc/cpuinfo 2> /dev/null \
    | cut -d: -f2- || true)
cpu=${cpu# }
ratio "$BYTES" 1000000 1
size_mb=$REPLY

echo
echo "trace-analyze benchmark — $FILE ($size_mb MB = $BYTES bytes, $LINES lines, seed $SEED)"
echo "machine: $(nproc) CPUs, $(uname -m), ${cpu:-unknown CPU}; $(uname -sr)"
echo "$RUNS round(s) of every command in turn, warm page cache, LC_ALL=C unless a locale is named;" \
    "MB/s and lines/s of the median; MB = 10^6 bytes"
echo
printf '%-44s %10s %10s %10s %14s\n' "command" "median s" "fastest s" "MB/s" "lines/s"
for i in "${!names[@]}"; do
    us=${medians[i]}
    ratio "$us" 1000000 3
    seconds=$REPLY
    ratio "${fastest[i]}" 1000000 3
    best=$REPLY
    ratio "$BYTES" "$us" 1  # bytes/µs = MB/s
    mbps=$REPLY
    ratio $((LINES * 1000000)) "$us" 0
    lps=$REPLY
    printf '%-44s %10s %10s %10s %14s\n' "${names[i]}" "$seconds" "$best" "$mbps" "$lps"
done
echo
ratio "${medians[4]}" "${medians[2]}" 2
vs_grep=$REPLY
ratio "${medians[4]}" "${medians[3]}" 2
vs_formats=$REPLY
ratio "${medians[4]}" "${medians[1]}" 2
vs_wc=$REPLY
echo "time with ${TOOL_ARGS:-no arguments}: / grep $PREFIX_LABEL: ${vs_grep}x    / grep $FORMATS_LABEL: ${vs_formats}x" \
    "   / wc -l: ${vs_wc}x"
ratio "${medians[5]}" "${medians[2]}" 2
cores_grep=$REPLY
ratio "${medians[5]}" "${medians[3]}" 2
cores_formats=$REPLY
echo "time with ${TOOL_ARGS_CORES:-no arguments} ($(nproc) CPUs): / grep $PREFIX_LABEL: ${cores_grep}x    /" \
    "grep $FORMATS_LABEL: ${cores_formats}x"
paired run_tool run_grep
paired_tool=$REPLY
paired run_tool_cores run_grep
echo "round by round (median of each round's ratio) / grep $PREFIX_LABEL: ${paired_tool}x with" \
    "${TOOL_ARGS:-no arguments}, ${REPLY}x with ${TOOL_ARGS_CORES:-no arguments}"
paired run_tool run_grep_formats
paired_formats=$REPLY
paired run_tool_cores run_grep_formats
echo "round by round / grep $FORMATS_LABEL: ${paired_formats}x with ${TOOL_ARGS:-no arguments}, ${REPLY}x with" \
    "${TOOL_ARGS_CORES:-no arguments}"
if [[ $GREP_LOCALE != C ]]; then
    ratio "${medians[4]}" "${medians[6]}" 2
    locale_tool=$REPLY
    ratio "${medians[5]}" "${medians[6]}" 2
    echo "time / grep $FORMATS_LABEL in $GREP_LOCALE: ${locale_tool}x with ${TOOL_ARGS:-no arguments}," \
        "${REPLY}x with ${TOOL_ARGS_CORES:-no arguments}"
    paired run_tool run_grep_locale
    locale_prefix=$REPLY
    paired run_tool_cores run_grep_locale
    echo "round by round / grep $PREFIX_LABEL in $GREP_LOCALE: ${locale_prefix}x with ${TOOL_ARGS:-no arguments}," \
        "${REPLY}x with ${TOOL_ARGS_CORES:-no arguments}"
fi
if [[ -n ${GREP_EXTRA:-} ]]; then
    paired run_tool run_grep_extra
    extra_tool=$REPLY
    paired run_tool_cores run_grep_extra
    echo "round by round / grep <extra>: ${extra_tool}x with ${TOOL_ARGS:-no arguments}, ${REPLY}x with" \
        "${TOOL_ARGS_CORES:-no arguments}"
fi
echo "grep matched $(cat "$TMP/grep-count") ($PREFIX_LABEL) and $(cat "$TMP/grep-formats-count") ($FORMATS_LABEL)" \
    "of $LINES lines; trace-analyze exit code $(cat "$TMP/tool-rc")"
if [[ -n ${GREP_EXTRA:-} ]]; then
    echo "grep matched $(cat "$TMP/grep-extra-count") with <extra> = '$GREP_EXTRA'"
fi
if [[ -n $RSS_KB ]]; then
    ratio "$RSS_KB" 1024 1
    rss=$REPLY
    ratio "$RSS_CORES_KB" 1024 1
    echo "trace-analyze peak RSS: $rss MB ($RSS_KB KB, /usr/bin/time -f %M); $REPLY MB with ${TOOL_ARGS_CORES:-no arguments}"
else
    echo "trace-analyze peak RSS: n/a (/usr/bin/time not installed)"
fi
