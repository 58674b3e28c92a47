#!/usr/bin/env bash
# Builds the loader image (packaging/Containerfile) from a configured build tree, with podman or docker,
# whichever is there: builds wrkbench-cli and its man page when they are not, packages them (cpack, the CLI's
# .deb alone) and sends only that .deb to the engine.
#
#   packaging/build-image.sh [-t TAG] [--local-base] [--no-cache] [BUILD_DIR]
#
#   -t TAG        the image's name (default wrkbench-cli:VERSION, what --image defaults to)
#   --local-base  no registry at hand: build on a Debian 12 base made from Debian's mirror
#                 (packaging/base-image.sh; root, debootstrap) instead of docker.io/library/debian:12-slim
#   --no-cache    no layer of an earlier build (its packages from the mirror may be older): for a release
#   BUILD_DIR     default build/
#
# Then push it where your cluster pulls from and name it in the run (docs/DISTRIBUTED.md):
#   podman push TAG && wrkbench-cli run --on kubernetes --image TAG ...
#
# Environment: CONTAINER_ENGINE, the engine's command with any global flags (default: podman, else docker;
# e.g. "podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs"). The build's limits are the host's hard
# file limit and 4096 processes (some hosts refuse the engine's defaults). The last line on stdout is the
# image's name and size.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)

tag="" localBase=0 noCache=() buildDir=build
while [ $# -gt 0 ]; do
    case "$1" in
    -t) tag=$2; shift 2 ;;
    --local-base) localBase=1; shift ;;
    --no-cache) noCache=(--no-cache); shift ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-image: unknown option $1" >&2; exit 2 ;;
    *) buildDir=$1; shift ;;
    esac
done

if [ -z "${CONTAINER_ENGINE:-}" ]; then
    if command -v podman >/dev/null; then CONTAINER_ENGINE=podman
    elif command -v docker >/dev/null; then CONTAINER_ENGINE=docker
    else echo "build-image: neither podman nor docker is installed" >&2; exit 1
    fi
fi
export CONTAINER_ENGINE
read -r -a engine <<<"$CONTAINER_ENGINE"

[ -f "$buildDir/CPackConfig.cmake" ] || {
    echo "build-image: $buildDir is not a configured build tree (cmake --preset default -DWB_BUILD_GUI=OFF)" >&2
    exit 1
}
# What the CLI package holds (nothing to do when they are built).
cmake --build "$buildDir" --target wrkbench-cli wrkbench-manpage >&2
version=$("$buildDir/bin/wrkbench-cli" --version | awk '{ print $2 }')
[ -n "$tag" ] || tag=wrkbench-cli:$version

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
# The CLI's package alone (a tree with the GUI need not have built it), reproducible: dated by the binary,
# so the same build makes the same .deb and the engine reuses its layers instead of installing it again.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$buildDir/bin/wrkbench-cli")}
if ! cpack --config "$buildDir/CPackConfig.cmake" -D CPACK_COMPONENTS_ALL=cli -B "$context/out" \
    >"$context/cpack.log" 2>&1; then
    cat "$context/cpack.log" >&2
    echo "build-image: cpack failed" >&2
    exit 1
fi
mkdir "$context/ctx"
mv "$context"/out/wrkbench-cli_*.deb "$context/ctx/"

buildArgs=()
if [ "$localBase" = 1 ]; then
    base=$("$src/packaging/base-image.sh")
    buildArgs+=(--build-arg "BASE=$base")
fi
# Explicit limits: some hosts refuse the engine's defaults. Files: the host's hard limit; processes: 4096
# (podman itself runs with at most 32768, and a container may not be given more than its runtime has).
nofile=$(ulimit -Hn) nproc=4096
[ "$nofile" = unlimited ] && nofile=1048576
# --network host: apt in the build reaches the mirror the way this host does (no bridge needed).
"${engine[@]}" build --network host --ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc" \
    "${noCache[@]}" "${buildArgs[@]}" -f "$src/packaging/Containerfile" -t "$tag" "$context/ctx" >&2
size=$("${engine[@]}" image inspect --format '{{.Size}}' "$tag")
echo "$tag $((size / 1000000)) MB"
