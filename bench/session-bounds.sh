#!/usr/bin/env bash
# The measurements behind the bounds on what a session file can make wrkbench do
# (engine/store/sqldatabase.h, docs/SESSIONS.md "A session file from someone else"): builds a
# large legitimate session (1,000 runs of 600 intervals by default, about 230 MB, half a minute)
# through the store's own calls, then does what the CLI and the window do with it and prints the
# most SQLite VM steps one statement took, beside the step budget, and SQLite's peak heap.
# Steps are SQLite's own count: they do not depend on the machine (times are printed too, for
# orientation only). Then the time to list the session with wrkbench-cli, which includes opening
# and checking it, with hyperfine when installed.
#
#   bench/session-bounds.sh [RUNS=1000] [INTERVALS=600]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
RUNS=${1:-1000}
INTERVALS=${2:-600}
BENCH=${WB_SESSION_BOUNDS_BENCH:-$BENCH_ROOT/build/tests/session_bounds_bench}
[ -x "$BENCH" ] || { echo "$BENCH missing: build first (cmake --build --preset default)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
session=$dir/large.wrkbench
"$BENCH" "$session" "$RUNS" "$INTERVALS"
if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 "$CLI runs --db $session --target none" "$CLI runs --db $session"
else
    for args in "--target none" ""; do
        start=$(date +%s.%N)
        "$CLI" runs --db "$session" $args >/dev/null
        echo "wrkbench-cli runs $args: $(echo "$(date +%s.%N) - $start" | bc) s"
    done
fi
