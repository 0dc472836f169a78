#!/usr/bin/env bash
# Live mode's latency: from writing the line that decides a finding into `trace-analyze --follow`'s standard
# input to reading the finding on its standard output. Feeds captures through a pipe a line at a time, DELAY apart,
# and reports the median, p90 and max over every finding a line decides (findings decided by the idle timeout or
# at the end of input are left out: they wait on purpose).
#
#   Scripts/follow-latency.sh                       # the samples, 3 rounds, jsonl and text, debug build
#   ROUNDS=10 DELAY=0.02 Scripts/follow-latency.sh samples/app-delegate-scenarios.log
#   CONFIG=release Scripts/follow-latency.sh        # a release build (in .build-release)
#   QUICK=1 Scripts/follow-latency.sh               # one round of one sample: proves it works, asserts no timing
#
# Environment: ROUNDS (3), DELAY (0.05 s between lines), CONFIG (debug), SKIP_BUILD=1, QUICK.
# Needs bash and python3 (standard library only).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CONFIG=${CONFIG:-debug}
ROUNDS=${ROUNDS:-3}
DELAY=${DELAY:-0.05}
if [[ ${QUICK:-0} == 1 ]]; then
    ROUNDS=1
    set -- "${@:-samples/illegal-transitions.log}"
fi
if [[ $CONFIG == release ]]; then SCRATCH=(--scratch-path .build-release); else SCRATCH=(); fi
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    echo "==> swift build -c $CONFIG --product trace-analyze" >&2
    swift build -c "$CONFIG" --product trace-analyze "${SCRATCH[@]}" >&2
fi
TOOL=$(swift build -c "$CONFIG" "${SCRATCH[@]}" --show-bin-path)/trace-analyze
[[ -x $TOOL ]] || { echo "follow-latency: $TOOL is missing (build failed?)" >&2; exit 1; }
if (($# == 0)); then set -- samples/*.log; fi

exec python3 - "$TOOL" "$ROUNDS" "$DELAY" "$@" << 'PYTHON'
import json, os, platform, select, statistics, subprocess, sys, time

tool, rounds, delay, files = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
environment = dict(os.environ, NO_COLOR="1", TZ="UTC")


def feed(path, fmt, decided_at):
    """Feeds `path` a line at a time; returns [(deciding line, latency s)] for the findings lines decide.
    decided_at: for text, the deciding line of each finding in order (from a jsonl run of the same file)."""
    lines = open(path, "rb").read().splitlines(keepends=True)
    process = subprocess.Popen(
        [tool, "--follow", "--format", fmt, "--idle", "60s"], env=environment,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    fd = process.stdout.fileno()
    os.set_blocking(fd, False)
    written, pending, results, count = {}, b"", [], 0

    def drain(until):
        nonlocal pending, count
        while True:
            left = until - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(0, left))
            if not ready:
                return
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            now = time.monotonic()
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if fmt == "jsonl":
                    finding = json.loads(line)
                    if finding.get("decidedBy") in ("line", "log-clock"):
                        results.append((finding["decidedAtLine"], now - written[finding["decidedAtLine"]]))
                    decided_at.append(finding.get("decidedAtLine") if finding.get("decidedBy") in ("line", "log-clock") else None)
                else:
                    if count < len(decided_at) and decided_at[count] is not None:
                        results.append((decided_at[count], now - written[decided_at[count]]))
                    count += 1

    # A blank first line, then a pause: the process has started and read before the timed lines come.
    lines = [b"\n"] + lines
    written[1] = time.monotonic()
    process.stdin.write(lines[0])
    process.stdin.flush()
    drain(time.monotonic() + 0.5)
    for number, line in enumerate(lines[1:], 2):
        written[number] = time.monotonic()
        process.stdin.write(line)
        process.stdin.flush()
        drain(time.monotonic() + delay)
    process.stdin.close()
    drain(time.monotonic() + 5)
    process.wait()
    return results


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * p // 100) - 1))]


print(f"trace-analyze --follow latency — {len(files)} capture(s), {rounds} round(s), lines {delay * 1000:.0f} ms apart")
print(f"machine: {os.cpu_count()} CPUs, {platform.machine()}, {platform.system()} {platform.release()}; {tool}")
print()
print(f"{'format':8} {'findings':>9} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
for fmt in ("jsonl", "text"):
    latencies = []
    for _ in range(rounds):
        for path in files:
            decided = []
            first = feed(path, "jsonl", decided)
            latencies += [seconds for _, seconds in (first if fmt == "jsonl" else feed(path, "text", decided))]
    if not latencies:
        sys.exit(f"follow-latency: no finding was read back in {fmt} (is the tool broken?)")
    ms = [seconds * 1000 for seconds in latencies]
    print(f"{fmt:8} {len(ms):>9} {statistics.median(ms):>10.2f} {percentile(ms, 90):>8.2f} {max(ms):>8.2f}")
PYTHON
