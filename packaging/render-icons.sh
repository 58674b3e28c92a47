#!/usr/bin/env bash
# Renders the application icon's PNG sizes from its SVG into the hicolor layout under resources/icons/.
# The PNGs are committed, so a build needs no SVG renderer; run this after editing the SVG.
# Needs rsvg-convert (Debian: librsvg2-bin); ImageMagick's own SVG renderer draws arcs poorly.
set -euo pipefail
cd "$(dirname "$0")/../resources/icons"

APP_ID=io.github.wrkbench.Wrkbench
SIZES=(16 22 24 32 48 64 128 256 512)

if ! command -v rsvg-convert >/dev/null; then
    echo "render-icons: needs rsvg-convert (apt install librsvg2-bin)" >&2
    exit 1
fi
for size in "${SIZES[@]}"; do
    dir="hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    rsvg-convert --width "$size" --height "$size" "$APP_ID.svg" --output "$dir/$APP_ID.png"
done
