# Shared helpers for the benchmark scripts: a pinned nginx on loopback with a
# generated certificate, and parsers for the peers' reports.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${WB_CLI:-$BENCH_ROOT/build/bin/wrkbench-cli}

free_port() { # [--udp]: a port for a server started next, below the ephemeral range (tests/support/free-port)
    "$BENCH_ROOT/tests/support/free-port" "$@"
}

# start_nginx DIR CPU: nginx with one worker pinned to CPU; HTTP/1.1 plain (NGINX_PORT) and TLS
# (NGINX_TLS_PORT), HTTP/2 h2c with prior knowledge (NGINX_H2C_PORT) and h2 by ALPN (NGINX_H2_PORT).
start_nginx() {
    local dir=$1 cpu=$2
    mkdir -p "$dir/logs"
    NGINX_PORT=$(free_port)
    NGINX_TLS_PORT=$(free_port)
    NGINX_H2C_PORT=$(free_port)
    NGINX_H2_PORT=$(free_port)
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
        -keyout "$dir/key.pem" -out "$dir/cert.pem" -subj /CN=localhost \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" >/dev/null 2>&1
    head -c 1048576 /dev/zero > "$dir/big.bin" # /big: a 1 MB response body
    chmod 711 "$dir"; chmod 644 "$dir/big.bin" # nginx's worker user reaches the file, lists nothing
    cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
worker_cpu_affinity $(python3 -c "print(format(1<<$cpu,'b'))");
worker_rlimit_nofile 30000;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 20000; }
http {
    access_log off;
    keepalive_requests 100000000;
    keepalive_timeout 300s;
    client_body_temp_path $dir/cbt; proxy_temp_path $dir/pt; fastcgi_temp_path $dir/ft;
    uwsgi_temp_path $dir/ut; scgi_temp_path $dir/st;
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=16384;
        listen 127.0.0.1:$NGINX_TLS_PORT ssl backlog=16384;
        listen 127.0.0.1:$NGINX_H2C_PORT http2 backlog=16384;
        listen 127.0.0.1:$NGINX_H2_PORT ssl http2 backlog=16384;
        ssl_certificate $dir/cert.pem;
        ssl_certificate_key $dir/key.pem;
        location / { default_type text/plain; return 200 "hello world\n"; }
        location = /big { default_type application/octet-stream; alias $dir/big.bin; }
    }
}
CONF
    taskset -c "$cpu" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log" &
    NGINX_PID=$!
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$NGINX_PORT") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "nginx did not start: $(cat "$dir/logs/error.log")" >&2
    return 1
}

stop_nginx() { [ -n "${NGINX_PID:-}" ] && kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null || true; }

# timed CPU OUTFILE CMD...: runs CMD pinned to CPU; stdout+stderr to OUTFILE;
# appends "cpu_s=<user+sys> maxrss_kb=<kb>" as the last line.
timed() {
    local cpu=$1 out=$2
    shift 2
    /usr/bin/time -f "cpu_s=%U+%S maxrss_kb=%M" -o "$out.time" taskset -c "$cpu" "$@" > "$out" 2>&1 || true
    local t; t=$(tail -n 1 "$out.time")
    local user=${t#cpu_s=}; user=${user%%+*}
    local sys=${t#*+}; sys=${sys%% *}
    echo "cpu_s=$(python3 -c "print($user+$sys)") ${t##* }" >> "$out"
}

# Parsers: print requests, req/s, cpu seconds, max RSS from an output file.
parse_wrk() { # works for wrk and wrkbench-cli (same report)
    python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
req = re.search(r"(\d+) requests in", t); rps = re.search(r"Requests/sec:\s+([\d.]+)", t)
cpu = re.search(r"cpu_s=([\d.]+)", t); rss = re.search(r"maxrss_kb=(\d+)", t)
err = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", t)
print(req.group(1) if req else 0, rps.group(1) if rps else 0, cpu.group(1) if cpu else 0,
      rss.group(1) if rss else 0, sum(map(int, err.groups())) if err else 0)
PY
}
parse_h2load() {
    python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
req = re.search(r"requests: \d+ total, \d+ started, (\d+) done", t); rps = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", t)
cpu = re.search(r"cpu_s=([\d.]+)", t); rss = re.search(r"maxrss_kb=(\d+)", t)
fail = re.search(r"(\d+) failed, (\d+) errored", t)
print(req.group(1) if req else 0, rps.group(1) if rps else 0, cpu.group(1) if cpu else 0,
      rss.group(1) if rss else 0, int(fail.group(1)) if fail else 0)
PY
}
