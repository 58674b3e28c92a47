#!/usr/bin/env bash
# Builds the Debian packages with this build tree's CPack configuration, unpacks them into temporary roots
# (dpkg-deb -x) and checks what an engineer gets: the file lists, the control fields (no Qt for the CLI
# package), the desktop integration files, the man page against the CLI's own --help, and that the unpacked
# wrkbench-cli runs: --version and a 1-second run against its built-in server.
# Environment (set by CTest): WB_BUILD_DIR, WB_VERSION, WB_BUILD_GUI (1 when the GUI is part of the build).
set -euo pipefail
: "${WB_BUILD_DIR:?}" "${WB_VERSION:?}"
WB_BUILD_GUI=${WB_BUILD_GUI:-0}

APP_ID=io.github.wrkbench.Wrkbench
ARCH=$(dpkg --print-architecture)
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
for tool in apt-get cpack dpkg-deb dpkg-shlibdeps ldd python3 groff desktop-file-validate appstreamcli \
    update-mime-database; do
    command -v "$tool" >/dev/null || { echo "FAIL: no $tool (packaging/install-deps.sh installs it)" >&2; exit 1; }
done

work=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# Files of an unpacked root, relative and sorted (directories are implied by their files).
filesOf() { (cd "$1" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort); }
field() { dpkg-deb -f "$1" "$2"; }
oneLine() { tr '\n' ' ' <<<"$1" | sed 's/ $//'; }

# --- build the packages -------------------------------------------------------------------------------------
if ! cpack --config "$WB_BUILD_DIR/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    echo "FAIL: cpack failed" >&2
    exit 1
fi
cliDeb=wrkbench-cli_${WB_VERSION}_${ARCH}.deb
guiDeb=wrkbench_${WB_VERSION}_${ARCH}.deb
expected=$cliDeb
[ "$WB_BUILD_GUI" = 1 ] && expected=$(printf '%s\n' "$cliDeb" "$guiDeb" | LC_ALL=C sort)
built=$(find "$work/out" -maxdepth 1 -name '*.deb' -printf '%f\n' | LC_ALL=C sort)
[ "$built" = "$expected" ] \
    || fail "packages built: '$(oneLine "$built")', expected '$(oneLine "$expected")' (WB_BUILD_GUI=$WB_BUILD_GUI)"

# --- wrkbench-cli: the package for loader VMs -------------------------------------------------------------------
deb=$work/out/$cliDeb
[ -f "$deb" ] || { echo "FAIL: $cliDeb was not built" >&2; exit 1; }
[ "$(field "$deb" Package)" = wrkbench-cli ] || fail "$cliDeb: Package is '$(field "$deb" Package)'"
[ "$(field "$deb" Version)" = "$WB_VERSION" ] || fail "$cliDeb: Version is '$(field "$deb" Version)'"
depends=$(field "$deb" Depends)
# dpkg-shlibdeps ran (libc6 and libssl3 are linked for real) and found no Qt.
grep -q 'libc6 (>=' <<<"$depends" || fail "$cliDeb: Depends lacks computed libc6: '$depends'"
grep -q 'libssl3' <<<"$depends" || fail "$cliDeb: Depends lacks libssl3: '$depends'"
grep -q 'libnghttp2-14' <<<"$depends" || fail "$cliDeb: Depends lacks libnghttp2-14 (HTTP/2): '$depends'"
grep -qi 'qt' <<<"$depends" && fail "$cliDeb: Depends names Qt: '$depends'"

cli=$work/cli
dpkg-deb -x "$deb" "$cli"
want=$(printf '%s\n' usr/bin/wrkbench-cli usr/lib/systemd/system/wrkbench-agent.service usr/share/man/man1/wrkbench-cli.1.gz)
[ "$(filesOf "$cli")" = "$want" ] || fail "$cliDeb files: $(oneLine "$(filesOf "$cli")")"
# The agent's unit runs the packaged binary, with a private state directory, and is not enabled by
# installing (no preset symlinks in the package: enabling is the administrator's step).
unit=$cli/usr/lib/systemd/system/wrkbench-agent.service
grep -q '^ExecStart=.*/usr/bin/wrkbench-cli agent --state-dir "$STATE_DIRECTORY"' "$unit" \
    || fail "wrkbench-agent.service does not run 'wrkbench-cli agent' in its state directory"
grep -q '^StateDirectoryMode=0700' "$unit" || fail "wrkbench-agent.service: state directory not private"
bin=$cli/usr/bin/wrkbench-cli
libs=$(ldd "$bin")
grep -qi 'libqt' <<<"$libs" && fail "unpacked wrkbench-cli links Qt: $(grep -i libqt <<<"$libs")"
version=$("$bin" --version)
[ "$version" = "wrkbench-cli $WB_VERSION" ] || fail "wrkbench-cli --version printed '$version'"

# The man page renders without groff warnings, names the version, and documents every subcommand and every
# flag that the installed binary's --help lists.
man=$work/wrkbench-cli.1
gzip -dc "$cli/usr/share/man/man1/wrkbench-cli.1.gz" >"$man"
warnings=$(groff -man -ww -z -Tutf8 "$man" 2>&1) || fail "groff failed on the man page"
[ -z "$warnings" ] || fail "man page warnings: $warnings"
grep -q "^\.TH .*\"wrkbench $WB_VERSION\"" "$man" || fail "man page .TH lacks 'wrkbench $WB_VERSION'"
"$bin" --help >"$work/help-top.txt" 2>&1 || true
mapfile -t subcommands < <(sed -n '/^Subcommands:/,/^$/p' "$work/help-top.txt" | awk 'NR > 1 && NF { print $1 }')
[ ${#subcommands[@]} -gt 0 ] || fail "no subcommands found in 'wrkbench-cli --help'"
for sub in "${subcommands[@]}"; do
    "$bin" "$sub" --help >"$work/help-$sub.txt" 2>&1 || fail "wrkbench-cli $sub --help failed"
done
python3 - "$man" "$work" "${subcommands[@]}" <<'EOF' || fail "man page is out of step with --help (above)"
import re, sys
manPath, workDir, subcommands = sys.argv[1], sys.argv[2], sys.argv[3:]
# Sections by their .SH title; roff writes a dash as "\-", undone to compare with the plain help text.
sections = {}
for chunk in re.split(r"^\.SH ", open(manPath).read(), flags=re.M)[1:]:
    title, _, body = chunk.partition("\n")
    sections[title.strip().strip('"')] = body.replace("\\-", "-")
missing = []
for sub in ["top"] + subcommands:
    title = "GENERAL OPTIONS" if sub == "top" else sub.upper()
    if title not in sections:
        missing.append(f"a section .SH {title}")
        continue
    # Option lines of CLI11's help: "  -t,--threads TEXT   ..." or "  --latency   ...".
    for line in open(f"{workDir}/help-{sub}.txt"):
        m = re.match(r"^  (-[^ ]+)", line)
        for flag in m.group(1).split(",") if m else []:
            if sub != "top" and flag in ("-h", "--help"):
                continue  # documented once, under GENERAL OPTIONS
            if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", sections[title]):
                missing.append(f"{flag} in .SH {title}")
for item in missing:
    print(f"man page lacks {item}", file=sys.stderr)
sys.exit(1 if missing else 0)
EOF

# A 1-second run of the unpacked CLI against its own built-in server.
# The log exists before the server starts: a poll that came first would find no file, and under
# set -e that sed's failure ended the test (seen on a busy machine).
: >"$work/serve.log"
"$bin" serve --port 0 --duration 30s >"$work/serve.log" 2>&1 &
server=$!
port=""
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/serve.log")
    [ -n "$port" ] && break
    sleep 0.05
done
if [ -z "$port" ]; then
    fail "the unpacked server did not start: $(cat "$work/serve.log")"
elif ! "$bin" -t1 -c4 -d1s --json "$work/run.json" "http://127.0.0.1:$port/" >"$work/run.txt" 2>&1; then
    fail "the unpacked wrkbench-cli run failed: $(cat "$work/run.txt")"
else
    python3 - "$work/run.json" <<'EOF' || fail "1-second run result (above)"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
problems = []
if s["requests"] < 100: problems.append(f"only {s['requests']} requests")
if not 0.9 <= s["duration_s"] <= 1.5: problems.append(f"duration {s['duration_s']} s")
if s["status_codes"] != {"200": s["requests"]}: problems.append(f"status codes {s['status_codes']}")
if any(s["errors"].values()): problems.append(f"errors {s['errors']}")
for p in problems: print(f"run: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
fi
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=""

# --- wrkbench: GUI + desktop integration, on top of wrkbench-cli -------------------------------------------------
deb=$work/out/$guiDeb
if [ "$WB_BUILD_GUI" = 1 ] && [ -f "$deb" ]; then
    [ "$(field "$deb" Package)" = wrkbench ] || fail "$guiDeb: Package is '$(field "$deb" Package)'"
    [ "$(field "$deb" Version)" = "$WB_VERSION" ] || fail "$guiDeb: Version is '$(field "$deb" Version)'"
    depends=$(field "$deb" Depends)
    for dep in "wrkbench-cli (= $WB_VERSION)" libqt6widgets6 libqt6charts6 qt6-qpa-plugins libqt6svg6; do
        grep -qF "$dep" <<<"$depends" || fail "$guiDeb: Depends lacks '$dep': '$depends'"
    done

    gui=$work/gui
    dpkg-deb -x "$deb" "$gui"
    share=usr/share
    want=$(printf '%s\n' usr/bin/wrkbench "$share/applications/$APP_ID.desktop" "$share/metainfo/$APP_ID.metainfo.xml" \
        "$share/mime/packages/$APP_ID.xml" "$share/icons/hicolor/scalable/apps/$APP_ID.svg")
    for size in 16 22 24 32 48 64 128 256 512; do
        want+=$'\n'"$share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
    done
    want=$(LC_ALL=C sort <<<"$want")
    [ "$(filesOf "$gui")" = "$want" ] \
        || fail "$guiDeb files differ (< expected, > built): $(oneLine "$(diff <(echo "$want") <(filesOf "$gui"))")"

    # Each PNG is as large as its directory says (the PNG header holds width and height).
    python3 - "$gui/$share/icons/hicolor" "$APP_ID" <<'EOF' || fail "icon sizes (above)"
import glob, os, struct, sys
root, appId = sys.argv[1], sys.argv[2]
bad = 0
for path in glob.glob(f"{root}/*x*/apps/{appId}.png"):
    size = os.path.basename(os.path.dirname(os.path.dirname(path)))
    data = open(path, "rb").read(24)
    w, h = struct.unpack(">II", data[16:24])
    if not data.startswith(b"\x89PNG") or f"{w}x{h}" != size:
        print(f"{path}: {w}x{h}, expected {size}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
EOF

    desktop=$gui/$share/applications/$APP_ID.desktop
    out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
    exec=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
    [ -x "$gui/usr/bin/$exec" ] || fail "desktop Exec '$exec' is not an installed binary"
    grep -q '^Exec=.* %[fFuU]' "$desktop" || fail "desktop Exec takes no file argument: session files would not open"
    grep -q "^Icon=$APP_ID$" "$desktop" || fail "desktop Icon is not $APP_ID"
    grep -q '^MimeType=.*application/x-wrkbench-session;' "$desktop" || fail "desktop file lacks the session MIME type"

    metainfo=$gui/$share/metainfo/$APP_ID.metainfo.xml
    out=$(appstreamcli validate --no-net --strict "$metainfo" 2>&1) || fail "appstreamcli validate: $out"
    grep -q "<release version=\"$WB_VERSION\"" "$metainfo" || fail "metainfo has no release $WB_VERSION"
    grep -q "<launchable type=\"desktop-id\">$APP_ID.desktop</launchable>" "$metainfo" || fail "metainfo launchable"

    # The MIME type, compiled as the shared-mime-info trigger would: *.wrkbench maps to the session type.
    mkdir -p "$work/mime/packages"
    cp "$gui/$share/mime/packages/$APP_ID.xml" "$work/mime/packages/"
    out=$(XDG_DATA_HOME=$work update-mime-database "$work/mime" 2>&1) || fail "update-mime-database: $out"
    [ -z "$out" ] || fail "update-mime-database warned: $out"
    grep -q ':application/x-wrkbench-session:\*\.wrkbench' "$work/mime/globs2" 2>/dev/null \
        || fail "*.wrkbench is not mapped to application/x-wrkbench-session"

    libs=$(ldd "$gui/usr/bin/wrkbench")
    grep -q 'libQt6Widgets' <<<"$libs" || fail "unpacked wrkbench does not link Qt 6 Widgets"
    version=$(QT_QPA_PLATFORM=offscreen timeout 20 "$gui/usr/bin/wrkbench" --version 2>&1) || true
    grep -qF "$WB_VERSION" <<<"$version" || fail "wrkbench --version printed '$version'"
fi

# Every Depends resolves on this Debian release: the CLI package alone (a loader VM), and both together.
# A simulation only: nothing is installed.
installSet=("./$cliDeb")
[ -f "$work/out/$guiDeb" ] && installSet+=("./$guiDeb")
for debs in "./$cliDeb" "${installSet[*]}"; do
    # shellcheck disable=SC2086 # the set is split on purpose
    out=$(cd "$work/out" && apt-get install --simulate --no-install-recommends $debs 2>&1) \
        || fail "apt-get install --simulate $debs: $(tail -n 5 <<<"$out")"
done

if [ "$failures" -gt 0 ]; then
    echo "package_test: $failures failure(s)" >&2
    exit 1
fi
echo "package_test: OK ($(oneLine "$built"))"
