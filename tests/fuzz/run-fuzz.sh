#!/usr/bin/env bash
# Builds a libFuzzer target with clang and fuzzes it for a bounded time.
#   run-fuzz.sh [--fuzzer <binary>] <source_dir> <work_dir> <seconds> [name]
# With --fuzzer it builds nothing and fuzzes that binary (the ASan tree's bounded runs, label
# libfuzzer, use the fuzzers that tree built); without, it builds its own optimised clang tree.
# name (default responseparser) selects target fuzz_<name>, seeds corpus/<name>/ and,
# when present, the dictionary <name>.dict. Seconds 0 with name "all" builds every fuzz
# target of its own tree and fuzzes nothing.
# Exit status: 0 when the fuzzer found nothing, non-zero on a crash, timeout, OOM or
# build failure. The corpus in <work_dir>/corpus/<name> grows across runs (seeded from
# the repository every time); crash inputs land in <work_dir>/artifacts/<name>.
# Builds take the shared build lock ($WB_BUILD_LOCK, default /tmp/wrkbench-build.lock);
# set WB_BUILD_LOCK=none when the caller already holds it, or it would wait forever.
set -euo pipefail

fuzzer=""
if [[ ${1:-} == --fuzzer ]]; then
    fuzzer=$2
    shift 2
fi
if [[ $# -lt 3 || $# -gt 4 ]]; then
    echo "usage: $0 [--fuzzer <binary>] <source_dir> <work_dir> <seconds> [name]" >&2
    exit 2
fi
source_dir=$(cd "$1" && pwd)
work_dir=$2
seconds=$3
name=${4:-responseparser}
target=fuzz_$name
build_dir=$work_dir/build
lock=${WB_BUILD_LOCK:-/tmp/wrkbench-build.lock}

locked() {
    if [[ $lock == none ]] || ! command -v flock >/dev/null; then
        "$@"
    else
        flock -w 3600 "$lock" "$@"
    fi
}

mkdir -p "$work_dir"
work_dir=$(cd "$work_dir" && pwd)

# fuzzer-no-link instruments the libraries too: without coverage from the parser
# itself libFuzzer would mutate blindly.
sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# Optimised as the release is, with line tables only: a crash's stack trace names files and lines,
# and the tree builds in about half the time full debug information takes (docs/DEVELOPMENT.md).
optimise="-O2 -gline-tables-only -DNDEBUG"
configuration="$sanitizers | $optimise"
if [[ -n $fuzzer ]]; then
    : # built by the caller's tree
elif [[ ! -f $build_dir/CMakeCache.txt || "$(cat "$build_dir/wb-fuzz-flags" 2>/dev/null)" != "$configuration" ]]; then
    locked cmake -S "$source_dir" -B "$build_dir" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$optimise" \
        -DCMAKE_C_FLAGS_RELWITHDEBINFO="$optimise" \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DCMAKE_C_FLAGS="$sanitizers" -DCMAKE_CXX_FLAGS="$sanitizers" \
        -DWB_FUZZ=ON -DWB_BUILD_TESTS=OFF -DWB_BUILD_GUI=OFF
    printf '%s' "$configuration" >"$build_dir/wb-fuzz-flags"
fi
if [[ -z $fuzzer && $name == all && $seconds == 0 ]]; then
    locked cmake --build "$build_dir" --target fuzz_all -j2
    echo "built every fuzz target in $build_dir"
    exit 0
fi
if [[ -z $fuzzer ]]; then
    locked cmake --build "$build_dir" --target "$target" -j2
    fuzzer=$(find "$build_dir" -type f -name "$target" -perm -u+x | head -n 1)
fi
if [[ -z $fuzzer || ! -x $fuzzer ]]; then
    echo "$target was not built (${fuzzer:-$build_dir})" >&2
    exit 2
fi

corpus=$work_dir/corpus/$name
artifacts=$work_dir/artifacts/$name
mkdir -p "$corpus" "$artifacts"
cp "$source_dir/tests/fuzz/corpus/$name"/* "$corpus"/
dict=$source_dir/tests/fuzz/$name.dict
options=()
if [[ -f $dict ]]; then
    options+=(-dict="$dict")
fi

echo "fuzzing $fuzzer for ${seconds}s (corpus $corpus)"
status=0
"$fuzzer" "$corpus" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "${options[@]}" || status=$?
if [[ $status -ne 0 ]]; then
    echo "fuzzer failed with status $status; reproducer(s) in $artifacts:" >&2
    ls -l "$artifacts" >&2
    exit 1
fi
echo "fuzzing found nothing"
