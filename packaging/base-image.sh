#!/usr/bin/env bash
# Makes a Debian 12 base image from Debian's own packages, for machines that reach Debian's package mirror
# but no container registry (the tests' machines): `debootstrap --variant=minbase bookworm`, slimmed as
# Debian's own debian:12-slim is (no documentation, man pages or translations, and dpkg told to leave them
# out of what is installed later), then `podman import`. Prints the image's name on stdout.
#
#   packaging/base-image.sh            # localhost/wrkbench-base:bookworm-KEY
#
# Cached twice, keyed by content: KEY hashes this script, the mirror and the date of the bookworm release
# file apt last read (it changes with each point release), so a new recipe or a new point release makes a
# new base and nothing else does. The image is reused when the engine has it; else the root filesystem's
# tarball under $WB_IMAGE_CACHE (default ~/.cache/wrkbench) is imported again (after `podman system reset`,
# say) without the mirror. Older bases are removed when a new one is made.
#
# Environment: CONTAINER_ENGINE (default podman, may carry global flags: "podman --runtime /usr/sbin/runc"),
# DEBIAN_MIRROR (default: the one apt uses, from /etc/apt/sources.list*), WB_IMAGE_CACHE. Needs root
# (debootstrap) when the base is not cached yet.
set -euo pipefail

SUITE=bookworm
NAME=localhost/wrkbench-base
read -r -a engine <<<"${CONTAINER_ENGINE:-podman}"
cache=${WB_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wrkbench}
say() { echo "base-image: $*" >&2; }

# The mirror apt uses for the main suite: deb822 (.sources) "URIs:" or one-line "deb URL suite".
aptMirror() {
    local uri
    uri=$(awk '/^URIs:/ { print $2 }' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1 \
        || true)
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 == "'$SUITE'" { print $2; exit }' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
    echo "${uri:-http://deb.debian.org/debian}"
}
mirror=${DEBIAN_MIRROR:-$(aptMirror)}

release=$(grep -h -m1 '^Date:' /var/lib/apt/lists/*_dists_${SUITE}_InRelease 2>/dev/null | head -n 1 | sed 's/^Date: *//' \
    || true)
[ -n "$release" ] || release="week $(date -u +%G-%V)" # apt never read the suite: one base a week
key=$( (cat "$0"; echo "$mirror $SUITE $release") | sha256sum | cut -c1-12)
image=$NAME:$SUITE-$key
tarball=$cache/base-$SUITE-$key.tar.gz

if "${engine[@]}" image exists "$image" 2>/dev/null; then
    say "cached: $image"
    echo "$image"
    exit 0
fi

if [ ! -s "$tarball" ]; then
    command -v debootstrap >/dev/null || { say "no debootstrap (packaging/install-deps.sh installs it)"; exit 1; }
    [ "$(id -u)" -eq 0 ] || { say "debootstrap needs root"; exit 1; }
    mkdir -p "$cache"
    root=$(mktemp -d "$cache/rootfs.XXXXXX")
    trap 'rm -rf "$root" "$tarball.tmp"' EXIT
    say "debootstrap --variant=minbase $SUITE from $mirror (a few minutes, once)"
    if ! debootstrap --variant=minbase "$SUITE" "$root" "$mirror" >"$root.log" 2>&1; then
        tail -n 20 "$root.log" >&2
        rm -f "$root.log"
        say "debootstrap failed"
        exit 1
    fi
    rm -f "$root.log"
    # Slim as debian:12-slim: what a container never reads, and dpkg told to skip it from now on.
    cat >"$root/etc/dpkg/dpkg.cfg.d/wrkbench-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
EOF
    find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$root"/usr/share/{man,info,groff,lintian,locale}/* "$root"/var/cache/apt/archives/*.deb \
        "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* "$root"/var/log/*.log "$root"/tmp/*
    tar --numeric-owner --xattrs -C "$root" -czf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
fi

say "importing $tarball as $image"
"${engine[@]}" import --quiet --change 'CMD ["bash"]' "$tarball" "$image" >/dev/null
# Older bases of this suite go (their tarballs too): one cached base, the current one.
"${engine[@]}" images --format '{{.Repository}}:{{.Tag}}' "$NAME" | grep -Fxv "$image" | grep ":$SUITE-" \
    | xargs -r "${engine[@]}" rmi >/dev/null 2>&1 || true
find "$cache" -maxdepth 1 -name "base-$SUITE-*.tar.gz" -not -name "base-$SUITE-$key.tar.gz" -delete 2>/dev/null || true
echo "$image"
