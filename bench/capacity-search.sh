#!/usr/bin/env bash
# The capacity search's own cost: trials and seconds to bracket a known capacity within 2%, against
# two ways of doing without it, on the same targets:
#   search     wrkbench-cli capacity: short trials while wide, final-length ones near the boundary,
#              REPEAT repeats of each final rate (--may-fail 0), both ends of the bracket measured
#   bisection  Nighthawk's way: one trial per step, every trial of the final length, no repeats
#              (capacity --trial F --final F --repeat 1)
#   sweep      a fixed-step staircase (k6, Hyperfoil, Gatling by hand): from FROM up in steps of 2%
#              of the known capacity, one final-length run each, until the first failure
# Targets, whose capacity nothing of ours decides on the client side:
#   builtin    wrkbench-cli serve --capacity 2000 (503 beyond the rate)
#   nginx      nginx's own limit_req at 1500 r/s on a static file (burst 15, nodelay)
# SLO non2xx<0.1%; loader -t1 -c20. Each figure: one search (they are deterministic given the
# verdicts; the seconds include warm-ups and the settling probes between trials).
#
#   bench/capacity-search.sh [TRIAL=1s] [FINAL=3s] [REPEAT=3] [FROM=400]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
TRIAL=${1:-1s}
FINAL=${2:-3s}
REPEAT=${3:-3}
FROM=${4:-400}
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }

serve_port=$(free_port)
"$CLI" serve --port "$serve_port" --capacity 2000 >"$work/serve.log" 2>&1 &
pids+=($!)
nginx_port=$(free_port)
mkdir -p "$work/nginx/logs" "$work/nginx/html"
echo ok >"$work/nginx/html/small"
chmod 755 "$work" "$work/nginx" "$work/nginx/html"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 100000000;
    client_body_temp_path $work/nginx/cbt; proxy_temp_path $work/nginx/pt; fastcgi_temp_path $work/nginx/ft;
    uwsgi_temp_path $work/nginx/ut; scgi_temp_path $work/nginx/st;
    limit_req_zone \$server_port zone=limited:1m rate=1500r/s;
    server {
        listen 127.0.0.1:$nginx_port backlog=4096;
        location = /limited { limit_req zone=limited burst=15 nodelay; limit_req_status 503;
            default_type text/plain; alias $work/nginx/html/small; }
    }
}
CONF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" &
pids+=($!)
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$serve_port") 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && break
    sleep 0.05
done

now() { date +%s.%N; }
seconds_since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(now)"; }
LOAD=(-t1 -c20 --slo 'non2xx<0.1%')

# search LABEL ARGS...: prints "label trials seconds lower upper"
search() {
    local label=$1
    shift
    local t0
    t0=$(now)
    "$CLI" capacity "${LOAD[@]}" --from "$FROM" --json "$work/out.json" "$@" >/dev/null 2>"$work/err.txt" || true
    local secs
    secs=$(seconds_since "$t0")
    python3 - "$work/out.json" "$label" "$secs" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]
print(f"{sys.argv[2]:<28} {len(c['trials']):>6} {sys.argv[3]:>8} {c['lower_rps']!s:>8} {c['upper_rps']!s:>8} {c['limited_by']}")
PY
}

# sweep LABEL URL CAPACITY: one final-length run per 2% step from FROM until the first failure
sweep() {
    local label=$1 url=$2 capacity=$3
    local step rate trials=0 t0 last=0
    step=$(python3 -c "print(max(1, round($capacity * 0.02)))")
    rate=$FROM
    t0=$(now)
    while :; do
        trials=$((trials + 1))
        if "$CLI" "${LOAD[@]}" -R "$rate" -d "$FINAL" --warmup 200ms "$url" >/dev/null 2>&1; then
            last=$rate
            rate=$((rate + step))
        else
            break
        fi
        [ "$trials" -ge 500 ] && break
    done
    printf '%-28s %6d %8s %8s %8s sweep\n' "$label" "$trials" "$(seconds_since "$t0")" "$last" "$rate"
}

printf '%-28s %6s %8s %8s %8s %s\n' "method / target" trials seconds lower upper limited_by
for target in builtin nginx; do
    if [ "$target" = builtin ]; then url="http://127.0.0.1:$serve_port/"; cap=2000; else url="http://127.0.0.1:$nginx_port/limited"; cap=1500; fi
    search "search $target" --trial "$TRIAL" --final "$FINAL" --repeat "$REPEAT" "$url"
    search "bisection $target" --trial "$FINAL" --final "$FINAL" --repeat 1 "$url"
    sweep "sweep $target" "$url" "$cap"
done
