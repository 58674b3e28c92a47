#!/usr/bin/env bash
# Installs the Debian 12 packages wrkbench needs to build, test and benchmark.
# Idempotent: when everything is present it only checks (quietly, in about a second).
set -euo pipefail

PACKAGES=(
    # build
    build-essential cmake ninja-build pkg-config ccache mold
    # engine
    libssl-dev openssl libfmt-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev libcurl4-openssl-dev libnghttp2-dev libluajit-5.1-dev zlib1g-dev
    # engine: users' regular expressions in linear time (--backend-from body-regex, --scrape-metric)
    libre2-dev
    # engine, HTTP/3: QUIC (ngtcp2 with its GnuTLS crypto helper: Debian's OpenSSL 3.0 has no QUIC API) and nghttp3
    libngtcp2-dev libngtcp2-crypto-gnutls-dev libnghttp3-dev libgnutls28-dev
    # GUI: Qt 6 Widgets, Charts (which needs the OpenGL module), Network, Test; DejaVu fonts (without a
    # font Qt renders text as empty boxes, silently)
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl1-mesa-dev fonts-dejavu-core
    # GUI tests: a virtual X server, keyboard automation, screenshots
    xvfb xauth xdotool imagemagick
    # the HTML report, rendered in a real headless browser (tests/app/htmlreport_cli_test)
    chromium
    # tests: GoogleTest, a real nginx on loopback, clang + its sanitizer runtimes (the ASan tree, libFuzzer)
    libgtest-dev libgmock-dev nginx-light clang libclang-rt-14-dev python3 ca-certificates
    # tests: a real Prometheus server scraping --metrics-listen during a run (tests/app/metrics_cli_test)
    prometheus
    # tests: the two HTTP/3 servers Debian ships (caddy; ngtcp2's gtlsserver), and sqlite3 to read a session back
    caddy ngtcp2-server ngtcp2-client sqlite3
    # tests: the interop matrix (tests/app/interop_cli_test): the HTTP servers and proxies Debian ships,
    # each started on loopback by the test (apache2's workers run as www-data, which it creates)
    haproxy h2o apache2 nghttp2-proxy
    # tests: real metrics endpoints scraped during runs (--scrape): node_exporter, and the exporters whose
    # output the parser's fixtures were captured from
    prometheus-node-exporter prometheus-nginx-exporter
    # tests: node, to check our HdrHistogram encoding with hdr-histogram-js (from npm, below)
    nodejs
    # packaging test: dpkg-shlibdeps for the Depends of the .debs, validators for the desktop file, the
    # AppStream metainfo and the MIME type, groff for the man page
    dpkg-dev desktop-file-utils appstream shared-mime-info groff-base
    # image test: the loader image built and run with podman (runc: crun is refused on these hosts), its
    # Debian base made from the mirror (no registry needed), the Job manifest read back as YAML
    podman runc debootstrap python3-yaml
    # benchmarks: peers and syscall counting
    wrk nghttp2-client strace procps util-linux time
)

missing=()
for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian's nodejs comes without npm (NodeSource's includes it).
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "install-deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Test peers from npm, never shipped: hdr-histogram-js, at the versions package-lock.json
# pins, into tests/support/npm/node_modules. Skipped when that lock file is what was installed.
npm_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/support/npm"
if ! cmp -s "$npm_dir/package-lock.json" "$npm_dir/node_modules/.installed-lock.json"; then
    echo "install-deps: npm ci in $npm_dir" >&2
    (cd "$npm_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
    cp "$npm_dir/package-lock.json" "$npm_dir/node_modules/.installed-lock.json"
fi
