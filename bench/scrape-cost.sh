#!/usr/bin/env bash
# What --scrape and --metrics-listen cost the load: the same wrkbench-cli run
# against loopback nginx with and without two scraped endpoints (a real node_exporter and the
# built-in server's /metrics of a `wrkbench-cli serve`) and its own figures served on
# --metrics-listen, in interleaved pairs (A B A B ...) so drift on this shared machine hits
# both alike. nginx, node_exporter and the served /metrics are pinned to CPU 0, the load generator
# to CPU 1 (its scraper thread included: its CPU counts against the load). Prints medians of req/s
# and generator CPU seconds per 100k requests, and the ratios scraped / plain (goal: within 2%).
#
#   bench/scrape-cost.sh [PAIRS=7] [SECONDS=5] [INTERVAL=1s]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-7}
SECONDS_PER_RUN=${2:-5}
INTERVAL=${3:-1s}
work=$(mktemp -d /tmp/wrkbench-scrape-XXXXXX)
EXPORTER_PID=""
SERVE_PID=""
cleanup() {
    stop_nginx
    for pid in $EXPORTER_PID $SERVE_PID; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
command -v prometheus-node-exporter >/dev/null || { echo "prometheus-node-exporter is not installed" >&2; exit 1; }
start_nginx "$work" 0
NODE_PORT=$(free_port)
SERVE_PORT=$(free_port)
# Deadlines: both end by themselves even if this script is killed.
timeout 3600 taskset -c 0 prometheus-node-exporter --web.listen-address="127.0.0.1:$NODE_PORT" >"$work/node.log" 2>&1 &
EXPORTER_PID=$!
timeout 3600 taskset -c 0 "$CLI" serve --port "$SERVE_PORT" >"$work/serve.log" 2>&1 &
SERVE_PID=$!
for port in "$NODE_PORT" "$SERVE_PORT"; do
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
done

results="$work/results.txt"
: > "$results"
for i in $(seq "$PAIRS"); do
    for mode in plain scraped; do
        extra=()
        if [ "$mode" = scraped ]; then
            extra=(--scrape "node=http://127.0.0.1:$NODE_PORT/metrics" --scrape "server=http://127.0.0.1:$SERVE_PORT/metrics"
                --metrics-listen "127.0.0.1:$(free_port)")
        fi
        out="$work/$mode-$i.txt"
        timed 1 "$out" "$CLI" -t1 -c50 -d"${SECONDS_PER_RUN}s" --interval "$INTERVAL" "${extra[@]}" \
            "http://127.0.0.1:$NGINX_PORT/"
        if [ "$mode" = scraped ] && ! grep -q "node_cpu_busy_percent" "$out"; then
            echo "the scraped run has no node_exporter series:" >&2; cat "$out" >&2; exit 1
        fi
        echo "$mode $(parse_wrk "$out")" >> "$results"
    done
done

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" "$INTERVAL" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def med(mode, f):
    return statistics.median(f(r) for r in rows if r[0] == mode)
rps = lambda r: float(r[2])
cpu = lambda r: float(r[3]) / max(int(r[1]), 1) * 100000
print(f"scrape cost: {sys.argv[2]} interleaved pairs of {sys.argv[3]} s, -t1 -c50 against nginx, "
      f"--interval {sys.argv[4]}, two endpoints (node_exporter, wrkbench-cli serve /metrics) "
      f"and --metrics-listen")
print(f"{'':10}{'req/s':>12}{'cpu s/100k req':>16}")
for mode in ("plain", "scraped"):
    print(f"{mode:10}{med(mode, rps):12.0f}{med(mode, cpu):16.3f}")
print(f"{'ratio':10}{med('scraped', rps) / med('plain', rps):12.3f}{med('scraped', cpu) / med('plain', cpu):16.3f}")
PY
