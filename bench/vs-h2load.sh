#!/usr/bin/env bash
# wrkbench-cli --http2 against h2load on loopback nginx (its http2 module).
# The set-up of bench/vs-wrk.sh: nginx pinned to CPU 0, every generator to CPU 1,
# interleaved pairs (h2load, wrkbench, h2load, ...). -t1 -c100 with -m10 and -m1,
# over h2c (prior knowledge) and h2 (TLS, ALPN). Reports medians of req/s and
# generator CPU seconds per 100k requests and the ratios against h2load; then
# 10,000 HTTP/2 connections x 1 stream (errors, peak RSS) and syscalls per
# request with -m10 (strace -f -c).
#
#   bench/vs-h2load.sh [PAIRS=5] [SECONDS=5]
#   BASELINE_CLI=/path/to/older/wrkbench-cli bench/vs-h2load.sh ...
# With BASELINE_CLI, an older build runs in the same interleaved rounds and is
# reported as the tool "baseline" beside wrkbench. With BASELINE_ENV (for example
# BASELINE_ENV=WB_HTTP2_SESSION=nghttp2: libnghttp2's session, the reference the
# framing layer replaced), the baseline is run with that environment, by default
# the same build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5}
SECONDS_PER_RUN=${2:-5}
CONNS=100
if [ -n "${BASELINE_ENV:-}" ]; then BASELINE_CLI=${BASELINE_CLI:-$CLI}; fi
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
command -v h2load >/dev/null || { echo "h2load missing (apt install nghttp2-client)" >&2; exit 1; }
start_nginx "$work" 0

results="$work/results.txt"
: > "$results"
for proto in h2c h2; do
    if [ $proto = h2c ]; then url="http://127.0.0.1:$NGINX_H2C_PORT/"; else url="https://127.0.0.1:$NGINX_H2_PORT/"; fi
    for m in 10 1; do
        for i in $(seq "$PAIRS"); do
            timed 1 "$work/h2load-$proto-$m-$i" h2load -t1 -c$CONNS -m$m -D$SECONDS_PER_RUN "$url"
            echo "$proto-m$m h2load $(parse_h2load "$work/h2load-$proto-$m-$i")" >> "$results"
            timed 1 "$work/wb-$proto-$m-$i" "$CLI" -t1 -c$CONNS -m$m -d${SECONDS_PER_RUN}s --http2 -k "$url"
            echo "$proto-m$m wrkbench $(parse_wrk "$work/wb-$proto-$m-$i")" >> "$results"
            if [ -n "${BASELINE_CLI:-}" ]; then
                timed 1 "$work/base-$proto-$m-$i" env ${BASELINE_ENV:-} "$BASELINE_CLI" -t1 -c$CONNS -m$m -d${SECONDS_PER_RUN}s --http2 -k "$url"
                echo "$proto-m$m baseline $(parse_wrk "$work/base-$proto-$m-$i")" >> "$results"
            fi
        done
    done
done

# 10,000 HTTP/2 connections x 1 stream: errors and peak RSS.
timed 1 "$work/wb-10k" "$CLI" -t1 -c10000 -d${SECONDS_PER_RUN}s --timeout 10s --http2 "http://127.0.0.1:$NGINX_H2C_PORT/"
errors=$(grep -cE "errors|resets|Non-2xx" "$work/wb-10k" || true)
echo "c10k wrkbench $(parse_wrk "$work/wb-10k") $errors" >> "$results"
timed 1 "$work/h2load-10k" h2load -t1 -c10000 -m1 -D$SECONDS_PER_RUN "http://127.0.0.1:$NGINX_H2C_PORT/"
echo "c10k h2load $(parse_h2load "$work/h2load-10k") 0" >> "$results"
if [ -n "${BASELINE_CLI:-}" ]; then
    timed 1 "$work/base-10k" env ${BASELINE_ENV:-} "$BASELINE_CLI" -t1 -c10000 -d${SECONDS_PER_RUN}s --timeout 10s --http2 "http://127.0.0.1:$NGINX_H2C_PORT/"
    errors=$(grep -cE "errors|resets|Non-2xx" "$work/base-10k" || true)
    echo "c10k baseline $(parse_wrk "$work/base-10k") $errors" >> "$results"
fi

# Syscalls per request with -m10, counted by strace (slows both alike; only the count matters).
for tool in h2load wrkbench ${BASELINE_CLI:+baseline}; do
    if [ $tool = h2load ]; then
        cmd=(h2load -t1 -c$CONNS -m10 -D3 "http://127.0.0.1:$NGINX_H2C_PORT/"); parse=parse_h2load
    elif [ $tool = baseline ]; then
        cmd=(env ${BASELINE_ENV:-} "$BASELINE_CLI" -t1 -c$CONNS -m10 -d3s --http2 "http://127.0.0.1:$NGINX_H2C_PORT/"); parse=parse_wrk
    else
        cmd=("$CLI" -t1 -c$CONNS -m10 -d3s --http2 "http://127.0.0.1:$NGINX_H2C_PORT/"); parse=parse_wrk
    fi
    taskset -c 1 strace -f -c -o "$work/strace-$tool" "${cmd[@]}" > "$work/strace-$tool.out" 2>&1
    calls=$(awk '$NF=="total" {print $(NF-2)}' "$work/strace-$tool")
    reqs=$($parse "$work/strace-$tool.out" | cut -d' ' -f1)
    echo "strace $tool $reqs $calls" >> "$results"
    grep -E "^ *[0-9]" "$work/strace-$tool" | sort -k4 -n -r | head -6 | sed "s/^/  [$tool] /" >&2
done

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
def med(xs): return st.median(xs) if xs else float('nan')
print(f"# wrkbench-cli --http2 vs h2load: nginx on CPU 0, generator on CPU 1, -t1 -c100 -d{sys.argv[3]}s, {sys.argv[2]} interleaved pairs\n")
print("| case | tool | runs | req/s (median) | CPU s per 100k req (median) | req/s vs h2load | CPU/req vs h2load | per-pair req/s ratio (median) |")
print("|---|---|---|---|---|---|---|---|")
for case in ("h2c-m10", "h2c-m1", "h2-m10", "h2-m1"):
    base = None
    peer = [r for r in rows if r[0] == case and r[1] == "h2load"]
    for tool in ("h2load", "wrkbench", "baseline"):
        rs = [r for r in rows if r[0] == case and r[1] == tool and float(r[3]) > 0]
        if not rs: continue
        rps = med([float(r[3]) for r in rs])
        cpu = med([float(r[4]) / int(r[2]) * 1e5 for r in rs if int(r[2]) > 0])
        if tool == "h2load": base = (rps, cpu)
        pairs = "" if tool == "h2load" else f"{med([float(w[3]) / float(h[3]) for h, w in zip(peer, rs) if float(h[3]) > 0]):.3f}"
        print(f"| {case} | {tool} | {len(rs)} | {rps:,.0f} | {cpu:.3f} | {rps/base[0]:.3f} | {cpu/base[1]:.3f} | {pairs} |")
print("\n## 10,000 HTTP/2 connections x 1 stream (h2c)\n")
print("| tool | req/s | error lines | max RSS (MB) |\n|---|---|---|---|")
for r in rows:
    if r[0] == "c10k":
        print(f"| {r[1]} | {float(r[3]):,.0f} | {r[6] if r[1] == 'h2load' else r[7]} | {int(r[5])/1024:.1f} |")
print("\n## Syscalls per request (strace -f -c, h2c -t1 -c100 -m10 -d3s)\n")
print("| tool | requests | syscalls | per request |\n|---|---|---|---|")
for r in rows:
    if r[0] == "strace" and int(r[2]) > 0:
        print(f"| {r[1]} | {int(r[2]):,} | {int(r[3]):,} | {int(r[3])/int(r[2]):.2f} |")
PY
