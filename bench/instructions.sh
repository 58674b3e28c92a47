#!/usr/bin/env bash
# Marginal user-space instructions per request (callgrind), for differences of 1% that wall-clock CPU
# on a shared machine cannot see: (Ir(8 s) - Ir(3 s)) / (requests(8 s) - requests(3 s)), so start-up
# and TLS handshakes cancel out. nginx pinned to CPU 0 as in vs-wrk.sh, the generator to CPU 1.
#
#   bench/instructions.sh                                   this build
#   BASELINE_CLI=/path/to/older/wrkbench-cli bench/instructions.sh   and an older one beside it
#   SCRIPTS=1 bench/instructions.sh                          wrk scripts (-s): wrk and this build with the
#                                                           same script (none, static, a request() counter,
#                                                           a response() reading a header), h1 only
#
# Needs valgrind (which has no epoll_pwait2: the engine falls back to epoll_wait, net/eventwait.h).
# Run it on an otherwise idle machine: under valgrind a run is ~50x slower, and with the cores busy
# the 3-s run may not get past its handshakes, so the difference would not cancel them (such a row
# says "too few requests").
set -euo pipefail
source "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || { echo "valgrind missing (apt install valgrind)" >&2; exit 1; }
[ -x "$CLI" ] || { echo "build first: $CLI missing" >&2; exit 1; }
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
trap 'stop_nginx; rm -rf "$work"' EXIT
start_nginx "$work" 0
tools=(current); [ -n "${BASELINE_CLI:-}" ] && tools+=(baseline)
# marginal TOOL ARGS...: "requests(3 s), requests(8 s), instructions per request" of TOOL (a program)
marginal() {
    local bin=$1; shift
    declare -A ir rq
    for d in 3 8; do
        taskset -c 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.$d" "$bin" -t1 -c20 -d${d}s "$@" \
            > "$work/out.$d" 2>/dev/null
        ir[$d]=$(grep -m1 '^summary:' "$work/cg.$d" | awk '{print $2}')
        rq[$d]=$(parse_wrk "$work/out.$d" | cut -d' ' -f1)
    done
    if [ "${rq[3]}" -lt 1000 ] || [ "${rq[8]}" -le "${rq[3]}" ]; then
        echo "${rq[3]}, ${rq[8]} | too few requests (is the machine busy?)"
    else
        echo "${rq[3]}, ${rq[8]} | $(( (ir[8] - ir[3]) / (rq[8] - rq[3]) ))"
    fi
}
if [ -n "${SCRIPTS:-}" ]; then
    command -v wrk >/dev/null || { echo "wrk missing (apt install wrk)" >&2; exit 1; }
    printf 'wrk.method = "GET"\nwrk.headers["X-Bench"] = "static"\n' > "$work/static.lua"
    printf 'counter = 0\nrequest = function()\n  counter = counter + 1\n  return wrk.format(nil, "/?n=" .. counter)\nend\n' \
        > "$work/counter.lua"
    printf 'seen = 0\nresponse = function(status, headers, body)\n  if headers["Content-Length"] then seen = seen + 1 end\nend\n' \
        > "$work/header.lua"
    echo "| script | tool | requests (3 s, 8 s) | marginal instructions per request |"
    echo "|---|---|---|---|"
    for case in none static counter header; do
        sargs=(); [ $case != none ] && sargs=(-s "$work/$case.lua")
        echo "| $case | wrk | $(marginal "$(command -v wrk)" "${sargs[@]}" "http://127.0.0.1:$NGINX_PORT/") |"
        echo "| $case | current | $(marginal "$CLI" "${sargs[@]}" "http://127.0.0.1:$NGINX_PORT/") |"
    done
    exit 0
fi
echo "| case | build | requests (3 s, 8 s) | marginal instructions per request |"
echo "|---|---|---|---|"
for spec in "h1 http://127.0.0.1:$NGINX_PORT/" "h1-tls https://127.0.0.1:$NGINX_TLS_PORT/" \
    "h2-tls-m1 --http2 https://127.0.0.1:$NGINX_H2_PORT/" "h2c-m10 -m10 --http2 http://127.0.0.1:$NGINX_H2C_PORT/"; do
    set -- $spec
    name=$1
    shift
    for tool in "${tools[@]}"; do
        bin=$CLI; [ $tool = baseline ] && bin=$BASELINE_CLI
        declare -A ir rq
        for d in 3 8; do
            taskset -c 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.$d" "$bin" -t1 -c20 -d${d}s -k \
                --connect-timeout 30s --timeout 20s "$@" > "$work/out.$d" 2>/dev/null
            ir[$d]=$(grep -m1 '^summary:' "$work/cg.$d" | awk '{print $2}')
            rq[$d]=$(parse_wrk "$work/out.$d" | cut -d' ' -f1)
        done
        if [ "${rq[3]}" -lt 1000 ] || [ "${rq[8]}" -le "${rq[3]}" ]; then
            echo "| $name | $tool | ${rq[3]}, ${rq[8]} | too few requests (is the machine busy?) |"
            continue
        fi
        per=$(( (ir[8] - ir[3]) / (rq[8] - rq[3]) ))
        echo "| $name | $tool | ${rq[3]}, ${rq[8]} | $per |"
    done
done
