#!/usr/bin/env bash
# The report a developer opens in a browser: `streams-trace report` over the main job's dump and
# the generated 200-screen app's dump (both in DIR), then for each
#   - Graphviz draws its coupling map (coupling.dot) within 60 seconds;
#   - headless Chromium opens index.html offline: the search script ran (its count of entries is
#     in the page) and the map's picture loaded;
#   - a screenshot is taken (report-NAME/shot.png) and is not blank (a blank page's PNG is a few
#     KB; the report's is tens of KB).
# Installs Graphviz, Chromium and python3 with apt-get when missing.
#
# Usage: .ci/check-report.sh DIR   (DIR holds screen.dump.json and generated-200.dump.json)
set -euo pipefail

if [[ $# -ne 1 || ! -d $1 ]]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)

. "$(dirname "$0")/lib.sh"
need_graph_tools
swift build --package-path Sources/Tools --product streams-trace >/dev/null
cli=$(swift build --package-path Sources/Tools --show-bin-path)/streams-trace

for name in screen generated-200; do
  dump=$dir/$name.dump.json
  out=$dir/report-$name
  if [[ ! -f $dump ]]; then
    echo "check-report: $dump is missing" >&2
    exit 1
  fi
  "$cli" report "$dump" --output "$out" --title "StreamsTrace report: $name"
  start=$(date +%s.%N)
  timeout 60 dot -Tsvg "$out/coupling.dot" -o "$out/coupling.svg"
  echo "$name: coupling map drawn by Graphviz in $(python3 -c "import sys; print(round($(date +%s.%N) - $start, 2))") s"
  "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
    --virtual-time-budget=5000 --dump-dom "file://$out/index.html" >"$out/dom.html" 2>/dev/null
  if ! grep -q '<span id="found">[0-9]* entries</span>' "$out/dom.html"; then
    echo "check-report: $name: the search script did not run (no count of entries)" >&2
    exit 1
  fi
  if ! grep -q '<img id="map" src="coupling.svg"' "$out/dom.html"; then
    echo "check-report: $name: the coupling map's picture did not load" >&2
    exit 1
  fi
  "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
    --hide-scrollbars --window-size=1280,1800 --screenshot="$out/shot.png" \
    "file://$out/index.html" >/dev/null 2>&1
  size=$(stat -c %s "$out/shot.png")
  if ((size < 20000)); then
    echo "check-report: $name: the screenshot is $size bytes: a blank page?" >&2
    exit 1
  fi
  echo "$name: report opened in Chromium, screenshot $out/shot.png ($size bytes)"
done
