#!/usr/bin/env bash
# What the loader's honesty and the live metrics cost the load (docs/LOADER-METRICS.md):
#  1. --metrics-listen: wrkbench-cli with and without it, in interleaved pairs (A B A B ...) against
#     nginx on CPU 0, the generator on CPU 1, a scraper on CPU 0 polling /metrics every 100 ms (ten
#     times a usual Prometheus rate); medians of req/s and CPU seconds per 100k requests, and ratios.
#  2. The per-interval CPU sampling: one worker's reading (clock_gettime, getrusage, pread of its
#     schedstat) and the controller's (getrusage, /proc/stat), timed by run_loadercost_bench; and,
#     with BASELINE_CLI (a build without the sampling), whole runs against it, interleaved.
#
#   bench/loadercost.sh [PAIRS=5] [SECONDS=5]
#   BASELINE_CLI=/path/to/main/wrkbench-cli bench/loadercost.sh ...
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5}
SECONDS_PER_RUN=${2:-5}
CONNS=100
COSTBENCH=${WB_COSTBENCH:-$BENCH_ROOT/build/tests/run_loadercost_bench}
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
scraper=""
trap '[ -n "$scraper" ] && kill "$scraper" 2>/dev/null; stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
start_nginx "$work" 0
url="http://127.0.0.1:$NGINX_PORT/"
mport=$(free_port)
results="$work/results.txt"
: > "$results"

# The scraper: polls /metrics every 100 ms while there is something to scrape, on nginx's CPU.
taskset -c 0 python3 - "$mport" "$work/scrapes" <<'PY' &
import sys, time, urllib.request
port, out = sys.argv[1], sys.argv[2]
n = 0
deadline = time.time() + 3600
while time.time() < deadline:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1).read()
        n += 1
        open(out, "w").write(str(n))
    except Exception:
        pass
    time.sleep(0.1)
PY
scraper=$!

for i in $(seq "$PAIRS"); do
    timed 1 "$work/plain-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s "$url"
    echo "metrics off $(parse_wrk "$work/plain-$i")" >> "$results"
    timed 1 "$work/metrics-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s --metrics-listen "127.0.0.1:$mport" \
        --metrics-linger 0 "$url"
    echo "metrics on $(parse_wrk "$work/metrics-$i")" >> "$results"
    if [ -n "${BASELINE_CLI:-}" ]; then
        timed 1 "$work/base-$i" "$BASELINE_CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s "$url"
        echo "sampling baseline $(parse_wrk "$work/base-$i")" >> "$results"
    fi
done
echo "scrapes served: $(cat "$work/scrapes" 2>/dev/null || echo 0)" >&2

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
def fig(a, b):
    rs = [r for r in rows if r[0] == a and r[1] == b and float(r[3]) > 0]
    return (st.median([float(r[3]) for r in rs]), st.median([float(r[4]) / int(r[2]) * 1e5 for r in rs]), len(rs))
print(f"# --metrics-listen and the loader's cost: nginx on CPU 0, generator on CPU 1, -t1 -c100 -d{sys.argv[3]}s, "
      f"{sys.argv[2]} interleaved pairs\n")
print("| case | runs | req/s (median) | CPU s per 100k req (median) |\n|---|---|---|---|")
off, on = fig("metrics", "off"), fig("metrics", "on")
for name, f in (("without --metrics-listen", off), ("with --metrics-listen, scraped every 100 ms", on)):
    print(f"| {name} | {f[2]} | {f[0]:,.0f} | {f[1]:.3f} |")
print(f"\nwith / without: req/s {on[0]/off[0]:.3f}, CPU per request {on[1]/off[1]:.3f}")
if any(r[0] == "sampling" for r in rows):
    b = fig("sampling", "baseline")
    print(f"this build / baseline build (no per-interval sampling): req/s {off[0]/b[0]:.3f}, "
          f"CPU per request {off[1]/b[1]:.3f}")
PY

if [ -x "$COSTBENCH" ]; then
    echo
    "$COSTBENCH"
else
    echo "(build run_loadercost_bench for the per-reading cost: $COSTBENCH missing)" >&2
fi
