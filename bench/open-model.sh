#!/usr/bin/env bash
# The open model at fixed rates well below saturation: wrkbench's corrected and
# service-time percentiles, its own scheduling error (send time minus due time),
# and h2load --rps as a peer (it reports mean and max only). wrk2 is not packaged
# in Debian, so the uncorrected (service-time) histogram stands in for it.
# nginx on CPU 0, generators on CPU 1; medians of RUNS runs per rate.
#
#   bench/open-model.sh [RUNS=3] [SECONDS=10]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
SECS=${2:-10}
CONNS=50
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
start_nginx "$work" 0
url="http://127.0.0.1:$NGINX_PORT/"

: > "$work/rows"
for rate in 2000 10000 20000; do
    for i in $(seq "$RUNS"); do
        taskset -c 1 "$CLI" -t1 -c$CONNS -d${SECS}s -R $rate --json "$work/wb-$rate-$i.json" "$url" > /dev/null
        python3 - "$work/wb-$rate-$i.json" "$rate" >> "$work/rows" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); s = j["summary"]
print("wrkbench", sys.argv[2], s["rps"], s["latency_us"]["p50"], s["latency_us"]["p99"], s["service_latency_us"]["p50"],
      s["service_latency_us"]["p99"], s["send_lag_us"]["p50"], s["send_lag_us"]["p99"], s["send_lag_us"]["p99_9"], s["late_requests"])
PY
        taskset -c 1 h2load --h1 -t1 -c$CONNS --rps=$((rate / CONNS)) -D$SECS "$url" > "$work/h2-$rate-$i.txt" 2>&1 || true
        python3 - "$work/h2-$rate-$i.txt" "$rate" >> "$work/rows" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", t)
m = re.search(r"time for request:\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)", t)
f = {"us": 1, "ms": 1e3, "s": 1e6}
if rps and m:
    print("h2load", sys.argv[2], rps.group(1), float(m.group(5)) * f[m.group(6)], float(m.group(3)) * f[m.group(4)])
PY
    done
done

python3 - "$work/rows" "$RUNS" "$SECS" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
med = lambda xs: st.median(xs) if xs else float("nan")
print(f"# Open model vs loopback nginx: -t1 -c50 -d{sys.argv[3]}s, medians of {sys.argv[2]} runs\n")
print("| rate | achieved | corrected p50 / p99 | service p50 / p99 | send lag p50 / p99 / p99.9 | late (>1 ms) | h2load --rps: achieved, mean / max |")
print("|---|---|---|---|---|---|---|")
for rate in sorted({int(r[1]) for r in rows}):
    w = [list(map(float, r[2:])) for r in rows if r[0] == "wrkbench" and int(r[1]) == rate]
    h = [list(map(float, r[2:])) for r in rows if r[0] == "h2load" and int(r[1]) == rate]
    c = lambda i: med([x[i] for x in w])
    hs = f"{med([x[0] for x in h]):,.0f}, {med([x[1] for x in h]):.0f} / {med([x[2] for x in h]):.0f} us" if h else "n/a"
    print(f"| {rate:,} | {c(0):,.0f} | {c(1):.0f} / {c(2):.0f} us | {c(3):.0f} / {c(4):.0f} us | {c(5):.0f} / {c(6):.0f} / {c(7):.0f} us | {c(8):.0f} | {hs} |")
PY
