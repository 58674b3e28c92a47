#!/usr/bin/env bash
# What the GUI costs the engine: the same run (-t2 -c50 -d10s, the GUI's default
# profile) from wrkbench-cli and from the real wrkbench window, against one nginx
# pinned to CPU 0, with the generator pinned to CPU 1. The GUI run is started with
# F5 on a virtual X display (Xvfb, pinned to CPU 1 with the GUI: drawing the live
# charts is part of what the GUI costs). The CLI gets the GUI default profile's
# exact settings (4 intervals a second, 2 s connect timeout), so both store the
# same run. Nothing else runs while either measures: the script sleeps through
# the GUI run before it looks at the session (an earlier version polled the
# session with wrkbench-cli ten times a second during the GUI run only, which
# cost the GUI ~8%). Interleaved pairs (CLI, GUI, CLI, GUI...); reports the
# median req/s of each, the ratio, and the UI thread's CPU time during each GUI
# run. Target: GUI >= 0.95 x CLI.
#
#   bench/gui-overhead.sh [PAIRS=3]
#
# WB_PERF_DIR=DIR: also profiles the UI thread during each GUI run (perf record
# --call-graph dwarf into DIR/ui-N.perf) and writes each GUI thread's CPU ticks
# over the run to DIR/threads-N.txt. perf costs CPU 1 time itself: figures from
# a profiled run are not the benchmark's.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${1:-3}
GUI=${WB_GUI:-$BENCH_ROOT/build/bin/wrkbench}
work=$(mktemp -d /tmp/wrkbench-bench-XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    stop_nginx
    rm -rf "$work"
}
trap cleanup EXIT
for tool in Xvfb xdotool; do command -v $tool >/dev/null || { echo "$tool missing" >&2; exit 1; }; done
start_nginx "$work" 0
url="http://127.0.0.1:$NGINX_PORT/"
session=$work/bench.wrkbench
export XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config XDG_RUNTIME_DIR=$work/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

# The session's first (and only) target is nginx: the GUI selects it when it opens.
"$CLI" run -t1 -c1 -d200ms --db "$session" --target nginx "$url" > /dev/null

display=
for n in $(seq 151 199); do [ ! -e "/tmp/.X11-unix/X$n" ] && { display=$n; break; }; done
taskset -c 1 Xvfb ":$display" -screen 0 1600x1000x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb=$!
pids+=($xvfb)
export DISPLAY=":$display"
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done

completed() { "$CLI" runs --db "$session" --status completed --csv | tail -n +2 | grep -c . || true; }
# CPU time (user + system, clock ticks) of a process' main thread: the UI thread.
ui_cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/task/$1/stat"; }
# CPU time of a whole process (all its threads; Xvfb draws what the GUI asks on the same CPU).
proc_cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# "TID NAME TICKS" for each thread of a process, sorted by TID (for join).
thread_ticks() {
    for t in /proc/$1/task/*; do
        echo "$(basename "$t") $(tr ' ' '_' < "$t/comm") $(awk '{print $14 + $15}' "$t/stat")"
    done | sort
}
last_rps() { "$CLI" runs --db "$session" --status completed --csv | tail -n 1 | cut -d, -f9; }

: > "$work/rows"
for i in $(seq "$PAIRS"); do
    cli_rps=$(taskset -c 1 "$CLI" -t2 -c50 -d10s --interval 250ms --connect-timeout 2s \
        --db "$session" --target nginx "$url" | sed -n 's/^Requests\/sec: *//p')
    echo "cli $cli_rps" >> "$work/rows"

    before=$(completed)
    unset QT_QPA_PLATFORM
    taskset -c 1 "$GUI" "$session" > "$work/gui-$i.log" 2>&1 &
    gui=$!
    pids+=($gui)
    window=$(xdotool search --sync --onlyvisible --name "bench.wrkbench" | head -1)
    sleep 1
    xdotool windowfocus --sync "$window" 2>/dev/null || true
    ui_before=$(ui_cpu_ticks "$gui")
    x_before=$(proc_cpu_ticks "$xvfb")
    if [ -n "${WB_PERF_DIR:-}" ]; then
        mkdir -p "$WB_PERF_DIR"
        thread_ticks "$gui" > "$work/threads-before"
        taskset -c 0 perf record -q -t "$gui" --call-graph dwarf,16384 -F 999 -o "$WB_PERF_DIR/ui-$i.perf" -- sleep 10.5 &
        perf_pid=$!
        sleep 0.3
    fi
    xdotool key --clearmodifiers F5
    sleep 10.5 # the run's planned duration: nothing may compete with it
    ui_after=$(ui_cpu_ticks "$gui")
    if [ -n "${WB_PERF_DIR:-}" ]; then
        thread_ticks "$gui" | join -a1 - "$work/threads-before" \
            | awk '{print $1, $2, $3 - ($5 == "" ? 0 : $5)}' > "$WB_PERF_DIR/threads-$i.txt"
        wait "$perf_pid" || true
    fi
    x_after=$(proc_cpu_ticks "$xvfb")
    for _ in $(seq 100); do [ "$(completed)" -gt "$before" ] && break; sleep 0.2; done
    [ "$(completed)" -gt "$before" ] || { echo "the GUI run did not complete" >&2; cat "$work/gui-$i.log" >&2; exit 1; }
    echo "gui $(last_rps) $(( ui_after - ui_before )) $(( x_after - x_before ))" >> "$work/rows"
    kill "$gui"; wait "$gui" 2>/dev/null || true
done

python3 - "$work/rows" "$PAIRS" <<'PY'
import os, sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
cli = [float(r[1]) for r in rows if r[0] == "cli"]
gui = [float(r[1]) for r in rows if r[0] == "gui"]
print(f"# GUI vs CLI: -t2 -c50 -d10s against nginx (CPU 0), generator on CPU 1, {sys.argv[2]} interleaved pairs\n")
print("| | runs | req/s (median) | all runs |\n|---|---|---|---|")
print(f"| wrkbench-cli | {len(cli)} | {st.median(cli):,.0f} | {', '.join(f'{x:,.0f}' for x in cli)} |")
print(f"| wrkbench (GUI, live charts on Xvfb) | {len(gui)} | {st.median(gui):,.0f} | {', '.join(f'{x:,.0f}' for x in gui)} |")
ui = [int(r[2]) / os.sysconf("SC_CLK_TCK") for r in rows if r[0] == "gui"]
# Each GUI run against the CLI run just before it: robust to the machine drifting between pairs.
pairs = [g / c for c, g in zip(cli, gui)]
print(f"\nGUI / CLI = {st.median(gui) / st.median(cli):.3f} (ratio of medians; target >= 0.95); "
      f"per pair: {', '.join(f'{x:.3f}' for x in pairs)}, median {st.median(pairs):.3f}")
print(f"UI thread CPU during each 10.5 s GUI run: {', '.join(f'{x:.2f} s' for x in ui)} (median {st.median(ui) / 10.5:.1%} of a core)")
xv = [int(r[3]) / os.sysconf("SC_CLK_TCK") for r in rows if r[0] == "gui"]
print(f"Xvfb CPU during each GUI run: {', '.join(f'{x:.2f} s' for x in xv)} (median {st.median(xv) / 10.5:.1%} of a core)")
PY
