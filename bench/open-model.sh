#!/usr/bin/env bash
# The open model at fixed rates well below saturation: wrkbench's corrected and
# service-time percentiles, its own scheduling error (send lag: send time minus
# due time, which the corrected latency counts as the target's), and the
# generator's CPU time. nginx on CPU 0, the generator on CPU 1, -t1 -c50.
#
# Runs are interleaved so drift hits every variant alike; each figure is the
# median of RUNS runs. Variants (each a whole command line prefix):
#   wrkbench            $CLI as built (default --send-spin)
#   wrkbench-nospin     $CLI --send-spin 0 (always sleep until the due time)
#   before              $WB_CLI_BEFORE, when set (e.g. a build of an older commit)
# With WB_BENCH_H2LOAD=1, h2load --rps runs too (it reports mean and max only).
# wrk2 is not packaged in Debian; the uncorrected (service-time) histogram stands
# in for it.
#
#   bench/open-model.sh [RUNS=3] [SECONDS=5] [RATES="1000 2000 10000 20000"]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
SECS=${2:-5}
RATES=${3:-1000 2000 10000 20000}
CONNS=50
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
start_nginx "$work" 0
url="http://127.0.0.1:$NGINX_PORT/"

variants=("wrkbench|$CLI" "wrkbench-nospin|$CLI --send-spin 0")
[ -n "${WB_CLI_BEFORE:-}" ] && variants+=("before|$WB_CLI_BEFORE")

: > "$work/rows"
for rate in $RATES; do
    for i in $(seq "$RUNS"); do
        for v in "${variants[@]}"; do
            name=${v%%|*}
            read -r -a cmd <<< "${v#*|}"
            out="$work/$name-$rate-$i"
            /usr/bin/time -f "%U %S" -o "$out.time" taskset -c 1 "${cmd[@]}" -t1 -c$CONNS -d${SECS}s -R "$rate" \
                --json "$out.json" "$url" > /dev/null 2>&1 || true
            python3 - "$out.json" "$out.time" "$name" "$rate" >> "$work/rows" <<'PY'
import json, sys
try:
    s = json.load(open(sys.argv[1]))["summary"]
except Exception:
    sys.exit(0)
user, sys_s = map(float, open(sys.argv[2]).read().split()[-2:])
lag = s["send_lag_us"]
print(sys.argv[3], sys.argv[4], s["rps"], s["latency_us"]["p50"], s["latency_us"]["p99"],
      s["service_latency_us"]["p50"], s["service_latency_us"]["p99"], lag["p50"], lag["p99"], lag["p99_9"],
      s["late_requests"], user + sys_s)
PY
        done
        if [ "${WB_BENCH_H2LOAD:-0}" = 1 ]; then
            taskset -c 1 h2load --h1 -t1 -c$CONNS --rps=$((rate / CONNS)) -D"$SECS" "$url" > "$work/h2-$rate-$i.txt" 2>&1 || true
            python3 - "$work/h2-$rate-$i.txt" "$rate" >> "$work/h2rows" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", t)
m = re.search(r"time for request:\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)", t)
f = {"us": 1, "ms": 1e3, "s": 1e6}
if rps and m:
    print(sys.argv[2], rps.group(1), float(m.group(5)) * f[m.group(6)], float(m.group(3)) * f[m.group(4)])
PY
        fi
    done
done

python3 - "$work/rows" "$RUNS" "$SECS" "$work/h2rows" <<'PY'
import os, sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
med = lambda xs: st.median(xs) if xs else float("nan")
secs = float(sys.argv[3])
print(f"# Open model vs loopback nginx: -t1 -c50 -d{sys.argv[3]}s, nginx on CPU 0, generator on CPU 1, medians of {sys.argv[2]} interleaved runs\n")
print("| variant | rate | achieved | send lag p50 / p99 / p99.9 | corrected p50 / p99 | service p50 / p99 | late (>1 ms) | generator CPU |")
print("|---|---|---|---|---|---|---|---|")
names = []
for r in rows:
    if r[0] not in names:
        names.append(r[0])
for rate in sorted({int(r[1]) for r in rows}):
    for name in names:
        w = [list(map(float, r[2:])) for r in rows if r[0] == name and int(r[1]) == rate]
        if not w:
            continue
        c = lambda i: med([x[i] for x in w])
        print(f"| {name} | {rate:,} | {c(0):,.0f} | {c(5):.0f} / {c(6):.0f} / {c(7):.0f} us | {c(1):.0f} / {c(2):.0f} us "
              f"| {c(3):.0f} / {c(4):.0f} us | {c(8):.0f} | {100 * c(9) / secs:.1f}% of a core |")
if os.path.exists(sys.argv[4]):
    h = [l.split() for l in open(sys.argv[4]) if l.strip()]
    print("\n| h2load --rps | achieved | mean / max |\n|---|---|---|")
    for rate in sorted({int(r[0]) for r in h}):
        x = [list(map(float, r[1:])) for r in h if int(r[0]) == rate]
        print(f"| {rate:,} | {med([v[0] for v in x]):,.0f} | {med([v[1] for v in x]):.0f} / {med([v[2] for v in x]):.0f} us |")
PY
