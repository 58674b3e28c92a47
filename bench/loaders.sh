#!/usr/bin/env bash
# Many loaders, one run: what spreading a run costs (docs/DISTRIBUTED.md).
#
#  1. throughput: one process against --loaders 2 and --loaders 4 (--on local), the same total
#     connections and threads (each loader runs -t threads of its own, capped at its connections,
#     so a fleet of N gets -t 4/N), against nginx pinned to CPU 0, every generator on CPU 1, in
#     interleaved rounds; medians of req/s and the ratio of each fleet to one process;
#  2. merge cost: tests/engine/fleet/mergecost_bench.cpp feeds 16 loaders' intervals (5,000
#     responses each, a long-tailed latency) to the coordinator's FleetMerge: time per merged interval;
#  3. the coordinator's memory: its peak RSS (VmHWM, the coordinator alone, not its loaders)
#     for a short and a four times longer run without --json: it must not grow with the run.
#
#   bench/loaders.sh [ROUNDS=3] [SECONDS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
SECONDS_PER_RUN=${2:-5}
CONNS=120
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
start_nginx "$work" 0
url="http://127.0.0.1:$NGINX_PORT/"

results="$work/results.txt"
: > "$results"
for i in $(seq "$ROUNDS"); do
    for n in 1 2 4; do
        # -t is per loader: 4 threads in all, whatever the number of loaders.
        args=(-t$((4 / n)) -c$CONNS -d${SECONDS_PER_RUN}s "$url")
        [ "$n" -gt 1 ] && args=(--loaders "$n" "${args[@]}")
        timed 1 "$work/wb-$n-$i" "$CLI" "${args[@]}"
        echo "loaders$n $(parse_wrk "$work/wb-$n-$i")" >> "$results"
    done
done

# Merge cost: 16 loaders' intervals through the coordinator's merge, in-process (a built test tool).
merge_line=$(taskset -c 1 "$BENCH_ROOT/build/tests/fleet_mergecost_bench" 16 600 5)

# The coordinator's own peak RSS, short run against a 4x longer one.
coordinator_hwm() { # SECONDS
    "$CLI" --loaders 2 -t2 -c20 -d"$1"s "$url" > "$work/hwm.out" 2>&1 &
    local pid=$! hwm=0
    while kill -0 "$pid" 2>/dev/null; do
        local v; v=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
        [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
        sleep 0.2
    done
    wait "$pid" || true
    echo "$hwm"
}
short_s=$SECONDS_PER_RUN
long_s=$((SECONDS_PER_RUN * 4))
hwm_short=$(coordinator_hwm "$short_s")
hwm_long=$(coordinator_hwm "$long_s")

echo "$merge_line"
python3 - "$results" "$short_s" "$hwm_short" "$long_s" "$hwm_long" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
rps = {}
for name, req, r, cpu, rss, err in rows:
    rps.setdefault(name, []).append(float(r))
base = statistics.median(rps["loaders1"])
print("| run | req/s (median) | vs one process | rounds |\n|---|---|---|---|")
for name in ("loaders1", "loaders2", "loaders4"):
    m = statistics.median(rps[name])
    print(f"| {name.replace('loaders', '')} loader(s) | {m:,.0f} | {m / base:.3f} | {len(rps[name])} |")
print(f"\ncoordinator peak RSS: {int(sys.argv[3]) / 1024:.1f} MB for {sys.argv[2]} s, {int(sys.argv[5]) / 1024:.1f} MB for {sys.argv[4]} s")
PY
