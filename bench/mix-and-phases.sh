#!/usr/bin/env bash
# What a request mix and the connection-phase timings cost (issue: "a 100-entry mix is within 5%
# of the single-URL figure"; "recording must not cost more than 2% CPU per request").
# nginx on CPU 0, every generator on CPU 1, runs interleaved so drift hits all alike:
#   single  wrkbench-cli, one URL
#   mix     wrkbench-cli --requests with 100 entries to the same nginx location ("/?e=N")
#   wrk     wrk, one URL (the yardstick of bench/vs-wrk.sh)
#   base    a wrkbench-cli built without the phase timings, when WB_BASE_CLI names one
#           (e.g. a worktree of the commit before them: git worktree add /tmp/base <commit>)
# Prints medians of req/s and of CPU seconds per 100k requests, and the ratios pair by pair.
#
#   bench/mix-and-phases.sh [PAIRS=5] [SECONDS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5}
SECONDS_PER_RUN=${2:-5}
CONNS=100
BASE=${WB_BASE_CLI:-}
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
start_nginx "$work" 0
url="http://127.0.0.1:$NGINX_PORT/"
mix="$work/mix.txt"
for i in $(seq 100); do printf 'GET %s?e=%d\nAccept: text/plain\n\n' "$url" "$i"; done > "$mix"

results="$work/results.txt"
: > "$results"
for i in $(seq "$PAIRS"); do
    timed 1 "$work/single-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s -H "Accept: text/plain" "$url"
    echo "single $(parse_wrk "$work/single-$i")" >> "$results"
    timed 1 "$work/mix-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s --requests "$mix"
    echo "mix $(parse_wrk "$work/mix-$i")" >> "$results"
    timed 1 "$work/wrk-$i" wrk -t1 -c$CONNS -d${SECONDS_PER_RUN}s -H "Accept: text/plain" "$url"
    echo "wrk $(parse_wrk "$work/wrk-$i")" >> "$results"
    if [ -n "$BASE" ]; then
        timed 1 "$work/base-$i" "$BASE" -t1 -c$CONNS -d${SECONDS_PER_RUN}s -H "Accept: text/plain" "$url"
        echo "base $(parse_wrk "$work/base-$i")" >> "$results"
    fi
done
grep -h "Socket errors" "$work"/mix-* "$work"/single-* >&2 || true

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
runs = {}
for r in rows:
    runs.setdefault(r[0], []).append((float(r[2]), float(r[3]) / max(float(r[1]), 1) * 1e5))
print(f"# nginx on CPU 0, generator on CPU 1, -t1 -c100 -d{sys.argv[3]}s, {sys.argv[2]} interleaved rounds\n")
print("| run | req/s (median) | CPU s per 100k requests (median) |")
print("|---|---|---|")
for name, v in runs.items():
    print(f"| {name} | {st.median(x[0] for x in v):.0f} | {st.median(x[1] for x in v):.3f} |")
def pairs(a, b, i):
    return [x[i] / y[i] for x, y in zip(runs[a], runs[b])]
print()
for a, b in (("mix", "single"), ("single", "wrk"), ("single", "base")):
    if a in runs and b in runs:
        print(f"{a}/{b}: req/s per-pair median {st.median(pairs(a, b, 0)):.3f}, "
              f"CPU per request per-pair median {st.median(pairs(a, b, 1)):.3f}")
PY
