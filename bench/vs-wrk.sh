#!/usr/bin/env bash
# wrkbench-cli against wrk (and h2load --h1) on loopback nginx.
# nginx is pinned to CPU 0, every load generator to CPU 1; wrk and wrkbench-cli
# run interleaved (A B A B ...) so drift on this shared machine hits both alike.
# Reports medians of req/s and generator CPU seconds per 100k requests, and
# the ratios against wrk, for plain HTTP and TLS; then the 10k-connection RSS
# check and syscalls per request (strace -f -c).
#
#   bench/vs-wrk.sh [PAIRS=5] [SECONDS=5]
#   BASELINE_CLI=/path/to/older/wrkbench-cli bench/vs-wrk.sh ...
#   SCRIPTS_ONLY=1 bench/vs-wrk.sh ...   only the wrk-script cases (-s): none, a static script,
#                                        a request() counter, a response() reading a header, and
#                                        that response() on 1 MB bodies (-c10, /big)
# With BASELINE_CLI, an older build (say, of the commit before a change) runs in
# the same interleaved rounds, and every table gains its ratio against it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5}
SECONDS_PER_RUN=${2:-5}
CONNS=100
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
start_nginx "$work" 0

results="$work/results.txt"
: > "$results"

# wrk scripts: the same script under both tools, interleaved.
cat > "$work/static.lua" <<'LUA'
wrk.method = "GET"
wrk.headers["X-Bench"] = "static"
LUA
cat > "$work/counter.lua" <<'LUA'
counter = 0
request = function()
   counter = counter + 1
   return wrk.format(nil, "/?n=" .. counter)
end
LUA
cat > "$work/header.lua" <<'LUA'
seen = 0
response = function(status, headers, body)
   if headers["Content-Length"] then seen = seen + 1 end
end
LUA
url="http://127.0.0.1:$NGINX_PORT/"
for i in $(seq "$PAIRS"); do
    for case in none static counter header bigbody; do
        sargs=(); [ $case != none ] && sargs=(-s "$work/${case/bigbody/header}.lua")
        conns=$CONNS; target=$url
        [ $case = bigbody ] && conns=10 && target="${url}big"
        timed 1 "$work/swrk-$case-$i" wrk -t1 -c$conns -d${SECONDS_PER_RUN}s "${sargs[@]}" "$target"
        echo "script-$case wrk $(parse_wrk "$work/swrk-$case-$i")" >> "$results"
        timed 1 "$work/swb-$case-$i" "$CLI" -t1 -c$conns -d${SECONDS_PER_RUN}s "${sargs[@]}" "$target"
        echo "script-$case wrkbench $(parse_wrk "$work/swb-$case-$i")" >> "$results"
    done
done

[ -n "${SCRIPTS_ONLY:-}" ] || for scheme in http https; do
    port=$NGINX_PORT; [ $scheme = https ] && port=$NGINX_TLS_PORT
    url="$scheme://127.0.0.1:$port/"
    insecure=(); [ $scheme = https ] && insecure=(-k)
    for i in $(seq "$PAIRS"); do
        timed 1 "$work/wrk-$scheme-$i" wrk -t1 -c$CONNS -d${SECONDS_PER_RUN}s "$url"
        echo "$scheme wrk $(parse_wrk "$work/wrk-$scheme-$i")" >> "$results"
        timed 1 "$work/wb-$scheme-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s "${insecure[@]}" "$url"
        echo "$scheme wrkbench $(parse_wrk "$work/wb-$scheme-$i")" >> "$results"
        if [ -n "${BASELINE_CLI:-}" ]; then
            timed 1 "$work/base-$scheme-$i" "$BASELINE_CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s "${insecure[@]}" "$url"
            echo "$scheme baseline $(parse_wrk "$work/base-$scheme-$i")" >> "$results"
        fi
        if [ "$i" -le 3 ]; then
            timed 1 "$work/h2-$scheme-$i" h2load --h1 -t1 -c$CONNS -D$SECONDS_PER_RUN "$url"
            echo "$scheme h2load $(parse_h2load "$work/h2-$scheme-$i")" >> "$results"
        fi
    done
done

# 10,000 keep-alive connections: errors and peak RSS.
[ -n "${SCRIPTS_ONLY:-}" ] || {
timed 1 "$work/wb-10k" "$CLI" -t1 -c10000 -d${SECONDS_PER_RUN}s --timeout 10s "http://127.0.0.1:$NGINX_PORT/"
echo "c10k wrkbench $(parse_wrk "$work/wb-10k")" >> "$results"
timed 1 "$work/wrk-10k" wrk -t1 -c10000 -d${SECONDS_PER_RUN}s --timeout 10s "http://127.0.0.1:$NGINX_PORT/"
echo "c10k wrk $(parse_wrk "$work/wrk-10k")" >> "$results"
if [ -n "${BASELINE_CLI:-}" ]; then
    timed 1 "$work/base-10k" "$BASELINE_CLI" -t1 -c10000 -d${SECONDS_PER_RUN}s --timeout 10s "http://127.0.0.1:$NGINX_PORT/"
    echo "c10k baseline $(parse_wrk "$work/base-10k")" >> "$results"
fi

# Syscalls per request, counted by strace (slows both tools alike; only the count matters).
for tool in wrk wrkbench ${BASELINE_CLI:+baseline}; do
    bin=wrk; [ $tool = wrkbench ] && bin=$CLI; [ $tool = baseline ] && bin=$BASELINE_CLI
    taskset -c 1 strace -f -c -o "$work/strace-$tool" "$bin" -t1 -c$CONNS -d3s "http://127.0.0.1:$NGINX_PORT/" > "$work/strace-$tool.out" 2>&1
    calls=$(awk '/^[ ]+[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]* *total$/ {print $4}' "$work/strace-$tool")
    [ -z "$calls" ] && calls=$(awk '$NF=="total" {print $(NF-2)}' "$work/strace-$tool")
    reqs=$(parse_wrk "$work/strace-$tool.out" | cut -d' ' -f1)
    echo "strace $tool $reqs $calls" >> "$results"
    grep -E "^ *[0-9]" "$work/strace-$tool" | sort -k4 -n -r | head -6 | sed "s/^/  [$tool] /" >&2
done
}

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
def med(xs): return st.median(xs) if xs else float('nan')
print(f"# wrkbench-cli vs wrk: nginx on CPU 0, generator on CPU 1, -t1 -c100 -d{sys.argv[3]}s, {sys.argv[2]} interleaved pairs\n")
for scheme in ("script-none", "script-static", "script-counter", "script-header", "script-bigbody", "http", "https"):
    if not any(r[0] == scheme for r in rows): continue
    print(f"## {scheme}\n")
    print("| tool | runs | req/s (median) | CPU s per 100k req (median) | req/s vs wrk | CPU/req vs wrk |")
    print("|---|---|---|---|---|---|")
    base = None
    fig = {}
    for tool in ("wrk", "wrkbench", "baseline", "h2load"):
        rs = [r for r in rows if r[0] == scheme and r[1] == tool and float(r[3]) > 0]
        if not rs: continue
        rps = med([float(r[3]) for r in rs])
        cpu = med([float(r[4]) / int(r[2]) * 1e5 for r in rs if int(r[2]) > 0])
        if tool == "wrk": base = (rps, cpu)
        fig[tool] = (rps, cpu)
        print(f"| {tool} | {len(rs)} | {rps:,.0f} | {cpu:.3f} | {rps/base[0]:.3f} | {cpu/base[1]:.3f} |")
    if "baseline" in fig:
        w, b = fig["wrkbench"], fig["baseline"]
        print(f"\nwrkbench vs baseline build: req/s {w[0]/b[0]:.3f}, CPU per request {w[1]/b[1]:.3f}")
    print()
print("## 10,000 keep-alive connections (plain HTTP)\n")
print("| tool | req/s | socket errors | max RSS (MB) |\n|---|---|---|---|")
for r in rows:
    if r[0] == "c10k":
        print(f"| {r[1]} | {float(r[3]):,.0f} | {r[6]} | {int(r[5])/1024:.1f} |")
print("\n## Syscalls per request (strace -f -c, -t1 -c100 -d3s)\n")
print("| tool | requests | syscalls | per request |\n|---|---|---|---|")
for r in rows:
    if r[0] == "strace" and int(r[2]) > 0:
        print(f"| {r[1]} | {int(r[2]):,} | {int(r[3]):,} | {int(r[3])/int(r[2]):.2f} |")
PY
