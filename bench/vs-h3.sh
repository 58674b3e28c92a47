#!/usr/bin/env bash
# wrkbench-cli --http3 beside our own --http2 on the same caddy (HTTP/3 on by default, h2 on
# the same port over TCP). caddy pinned to CPU 0, the generator to CPU 1, interleaved pairs
# (h2, h3, h2, ...) at -t1 -c10 -m10 and -m1. Reports medians of req/s and generator CPU
# seconds per 100k requests, HTTP/3's ratios to HTTP/2 (goal: CPU per request <= 2x at
# -m10), syscalls per request with -m10 (strace -f -c; goal <= 1), and peak RSS for 1,000
# HTTP/3 connections. (No h2load: Debian's is built without HTTP/3.)
#
#   bench/vs-h3.sh [PAIRS=5] [SECONDS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5}
SECONDS_PER_RUN=${2:-5}
CONNS=10
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
caddy_pid=""
stop_caddy() { [ -n "$caddy_pid" ] && kill "$caddy_pid" 2>/dev/null; wait "$caddy_pid" 2>/dev/null || true; }
trap 'stop_caddy; rm -rf "$work"' EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
command -v caddy >/dev/null || { echo "caddy missing (apt install caddy)" >&2; exit 1; }

# A test CA and a certificate for localhost (caddy answers HTTP/3 only with SNI).
"$BENCH_ROOT/tests/support/testcerts.sh" "$work"
PORT=$(free_port --udp)
cat > "$work/Caddyfile" <<CONF
{
	admin off
	auto_https off
	default_bind 127.0.0.1
	http_port $(free_port)
	https_port $PORT
	servers {
		protocols h1 h2 h3
	}
}
https://localhost:$PORT {
	tls $work/cert.pem $work/key.pem
	respond "hello world" 200
}
CONF
XDG_CONFIG_HOME=$work XDG_DATA_HOME=$work timeout 3600 taskset -c 0 caddy run --config "$work/Caddyfile" \
    --adapter caddyfile > "$work/caddy.log" 2>&1 &
caddy_pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.05; done
url="https://localhost:$PORT/"

results="$work/results.txt"
: > "$results"
for m in 10 1; do
    for i in $(seq "$PAIRS"); do
        for proto in h2 h3; do
            timed 1 "$work/$proto-$m-$i" "$CLI" -t1 -c$CONNS -m$m -d${SECONDS_PER_RUN}s --$proto --cacert "$work/ca.pem" "$url"
            echo "m$m $proto $(parse_wrk "$work/$proto-$m-$i")" >> "$results"
        done
    done
done

# 1,000 HTTP/3 connections x 1 stream: errors and peak RSS (and HTTP/2's beside it).
for proto in h2 h3; do
    timed 1 "$work/c1k-$proto" "$CLI" -t1 -c1000 -d${SECONDS_PER_RUN}s --timeout 10s --connect-timeout 10s --$proto \
        --cacert "$work/ca.pem" "$url"
    errors=$(grep -cE "errors|resets|Non-2xx|QUIC connections ended" "$work/c1k-$proto" || true)
    echo "c1k $proto $(parse_wrk "$work/c1k-$proto") $errors" >> "$results"
done

# Syscalls per request with -m10, counted by strace (slows both alike; only the count matters).
for proto in h2 h3; do
    taskset -c 1 strace -f -c -o "$work/strace-$proto" "$CLI" -t1 -c$CONNS -m10 -d3s --$proto --cacert "$work/ca.pem" \
        "$url" > "$work/strace-$proto.out" 2>&1
    calls=$(awk '$NF=="total" {print $(NF-2)}' "$work/strace-$proto")
    reqs=$(parse_wrk "$work/strace-$proto.out" | cut -d' ' -f1)
    echo "strace $proto $reqs $calls" >> "$results"
    grep -E "^ *[0-9]" "$work/strace-$proto" | sort -k4 -n -r | head -6 | sed "s/^/  [$proto] /" >&2
done

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" "$CONNS" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
def med(xs): return st.median(xs) if xs else float('nan')
print(f"# wrkbench-cli --http3 vs --http2 on caddy: caddy on CPU 0, generator on CPU 1, -t1 -c{sys.argv[4]} -d{sys.argv[3]}s, {sys.argv[2]} interleaved pairs\n")
print("| case | protocol | runs | req/s (median) | CPU s per 100k req (median) | req/s vs h2 | CPU/req vs h2 |")
print("|---|---|---|---|---|---|---|")
for case in ("m10", "m1"):
    base = None
    for proto in ("h2", "h3"):
        rs = [r for r in rows if r[0] == case and r[1] == proto and float(r[3]) > 0]
        if not rs: continue
        rps = med([float(r[3]) for r in rs])
        cpu = med([float(r[4]) / int(r[2]) * 1e5 for r in rs if int(r[2]) > 0])
        if proto == "h2": base = (rps, cpu)
        print(f"| {case} | {proto} | {len(rs)} | {rps:,.0f} | {cpu:.3f} | {rps/base[0]:.3f} | {cpu/base[1]:.3f} |")
print("\n## 1,000 connections x 1 stream\n")
print("| protocol | req/s | error lines | max RSS (MB) |\n|---|---|---|---|")
for r in rows:
    if r[0] == "c1k":
        print(f"| {r[1]} | {float(r[3]):,.0f} | {r[-1]} | {int(r[5])/1024:.1f} |")
print(f"\n## Syscalls per request (strace -f -c, -t1 -c{sys.argv[4]} -m10 -d3s)\n")
print("| protocol | requests | syscalls | per request |\n|---|---|---|---|")
for r in rows:
    if r[0] == "strace" and int(r[2]) > 0:
        print(f"| {r[1]} | {int(r[2]):,} | {int(r[3]):,} | {int(r[3])/int(r[2]):.2f} |")
PY
