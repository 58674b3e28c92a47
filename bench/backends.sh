#!/usr/bin/env bash
# The cost of --backend-from body and --upstream-time: CPU per request of
# wrkbench-cli with both against the same run without them, and wrk beside them, on
# loopback nginx answering as one of 16 pods ("pod-<hex>", by the first digit of its
# $request_id: as serve_hostname answers, a name per response) with Envoy's
# x-envoy-upstream-service-time header. nginx is pinned to CPU 0, every load generator
# to CPU 1; the three run interleaved (wrk, plain, with) so drift on a shared machine
# hits all alike. Reports medians of req/s and CPU seconds per 100k requests, and the
# ratio with/without (the budget: at most 1.05).
#
#   bench/backends.sh [PAIRS=5] [SECONDS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-5}
SECONDS_PER_RUN=${2:-5}
CONNS=100
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
command -v nginx >/dev/null || { echo "nginx is not installed" >&2; exit 1; }

port=$(free_port)
mkdir -p "$work/logs"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
worker_cpu_affinity 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 100000000;
    keepalive_timeout 300s;
    client_body_temp_path $work/cbt; proxy_temp_path $work/pt; fastcgi_temp_path $work/ft;
    uwsgi_temp_path $work/ut; scgi_temp_path $work/st;
    map \$request_id \$pod { ~^(?<d>.) pod-\$d; }
    server {
        listen 127.0.0.1:$port backlog=4096;
        location / {
            default_type text/plain;
            add_header x-envoy-upstream-service-time 1;
            return 200 "\$pod\n";
        }
    }
}
CONF
taskset -c 0 nginx -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" &
NGINX_PID=$!
trap 'kill $NGINX_PID 2>/dev/null; wait $NGINX_PID 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.05
done
url="http://127.0.0.1:$port/"
options=(--backend-from body --upstream-time header:x-envoy-upstream-service-time)
# The breakdown is there (16 pods), or the figures measure nothing.
"$CLI" -t1 -c4 -d1s "${options[@]}" "$url" > "$work/check" 2>&1
grep -q "Backends (body): 16," "$work/check" || { echo "no breakdown of 16 pods:" >&2; cat "$work/check" >&2; exit 1; }

results="$work/results.txt"
: > "$results"
for i in $(seq "$PAIRS"); do
    timed 1 "$work/wrk-$i" wrk -t1 -c$CONNS -d${SECONDS_PER_RUN}s "$url"
    echo "wrk $(parse_wrk "$work/wrk-$i")" >> "$results"
    timed 1 "$work/plain-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s "$url"
    echo "plain $(parse_wrk "$work/plain-$i")" >> "$results"
    timed 1 "$work/with-$i" "$CLI" -t1 -c$CONNS -d${SECONDS_PER_RUN}s "${options[@]}" "$url"
    echo "with $(parse_wrk "$work/with-$i")" >> "$results"
done

python3 - "$results" "$PAIRS" "$SECONDS_PER_RUN" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print(f"# --backend-from body --upstream-time header:...: nginx on CPU 0 (16 pods, Envoy's header), "
      f"generator on CPU 1, -t1 -c100 -d{sys.argv[3]}s, {sys.argv[2]} interleaved rounds\n")
print("| run | runs | req/s (median) | CPU s per 100k req (median) | CPU/req vs without |")
print("|---|---|---|---|---|")
fig = {}
for tool, label in (("wrk", "wrk"), ("plain", "wrkbench-cli"), ("with", "wrkbench-cli --backend-from --upstream-time")):
    rs = [r for r in rows if r[0] == tool and int(r[1]) > 0]
    if not rs: continue
    rps = st.median(float(r[2]) for r in rs)
    cpu = st.median(float(r[3]) / int(r[1]) * 1e5 for r in rs)
    fig[tool] = cpu
    rel = f"{cpu / fig['plain']:.3f}" if "plain" in fig else "-"
    print(f"| {label} | {len(rs)} | {rps:,.0f} | {cpu:.3f} | {rel} |")
# Per round, with/without of the same round (the drift between rounds cancels).
pairs = [(p, w) for p, w in zip([r for r in rows if r[0] == "plain"], [r for r in rows if r[0] == "with"])]
ratios = [(float(w[3]) / int(w[1])) / (float(p[3]) / int(p[1])) for p, w in pairs if int(p[1]) and int(w[1])]
if ratios:
    print(f"\nCPU per request, with / without, per round: {', '.join(f'{x:.3f}' for x in ratios)}; "
          f"median {st.median(ratios):.3f} (budget 1.05)")
PY
