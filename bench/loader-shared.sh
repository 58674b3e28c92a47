#!/usr/bin/env bash
# The measurements behind the loader flag's "shares the machine" rule (stats/loadercost.h,
# docs/LOADER-METRICS.md "A loader that shares the machine"): the loader beside its target (the
# built-in server, one thread), closed runs that share the CPUs and open runs that do not, then
# open runs beside two nice-19 busy loops (a full machine whose other work yields the CPU). Prints
# each run's share of time the workers waited for a CPU, the machine's busy share and the verdict.
# Hold the build lock while it runs (flock /tmp/wb-build.lock bench/loader-shared.sh) so that no
# build shares the machine too.
#
#   bench/loader-shared.sh [REPEATS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
REPEATS=${1:-3}
PORT=$(free_port)

run() { # label, then the run's arguments
    local label=$1
    shift
    "$CLI" serve -p "$PORT" --threads 1 >/dev/null 2>&1 &
    local server=$!
    sleep 0.5
    local out
    out=$("$CLI" "$@" -d3s --json - "http://127.0.0.1:$PORT/" 2>/dev/null)
    kill "$server"
    wait "$server" 2>/dev/null || true
    python3 -c '
import json, sys
s = json.loads(sys.argv[2])["summary"]
c = s["loader_cost"]
late = 100.0 * s["late_requests"] / s["requests"] if "late_requests" in s and s["requests"] else 0
print("%-22s wait %5.1f%%  busy %5.1f%%  work %5.1f%%  process %.2f CPUs  machine %5.1f%%  steal %4.1f%%  late %4.1f%%  flagged %s"
      % (sys.argv[1], c["worker_wait_pct"], c["worker_busy_pct"], c["worker_work_pct"], c["process_cpus"],
         c["machine_busy_pct"], c["machine_steal_pct"], late, s["loader_saturated"]))
if "loader_warning" in s:
    print("    " + s["loader_warning"])
' "$label" "$out"
}

uptime
for _ in $(seq "$REPEATS"); do
    run "-t2 -c64" -t2 -c64
    run "-t8 -c64" -t8 -c64
    run "-t1 -c10" -t1 -c10
    run "-t1 -c10 -R 1000" -t1 -c10 -R 1000
done
hogs=()
for _ in 1 2; do
    timeout 120 nice -n 19 sh -c 'while :; do :; done' &
    hogs+=($!)
done
for _ in $(seq "$REPEATS"); do
    run "nice19 -t1 -c10 -R 1000" -t1 -c10 -R 1000
    run "nice19 -t2 -c20 -R 5000" -t2 -c20 -R 5000
done
kill "${hogs[@]}"
wait 2>/dev/null || true
uptime
