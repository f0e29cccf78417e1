#!/usr/bin/env bash
# Measures the static map (`streams-trace map`) against recordings of the same code: for each
# fixture, the share of the recorded subscription, control and chain edges the map has (recall)
# and the share of the map's chain edges the run exercised (a lower bound of its precision), with
# every difference listed. Guides/Performance.md ("The static map against recordings") has the
# results.
#
#   Benchmarks/static-map-recall.sh [OUT]      (from the repository root; OUT: trace-output/recall)
#
# The fixtures: the observer-sprawl fixture (Tests/StreamsTraceTests/Sprawl), the player
# fixture (Player), the transform(input:) fixture (Signup), recorded by StaticMapFixturesTests;
# and the seed scenario (Sources/ScreenDemo), recorded by running screen-demo.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-trace-output/recall}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

swift build --build-tests -q
STREAMS_EXPORT_DIR="$out" swift test --skip-build --no-parallel \
  --filter StaticMapFixturesTests > "$out/fixtures-test.log" 2>&1
swift run -q screen-demo > "$out/screen-demo.log" 2>&1
cp trace-output/screen.dump.json "$out/seed.dump.json"
swift build -q --package-path Sources/Tools --product streams-trace
tool="$(swift build --package-path Sources/Tools --show-bin-path)/streams-trace"

measure() {  # NAME FOLDER
  "$tool" map "$2" --output "$out/$1.map.json" > "$out/$1.map.txt"
  echo "== $1: map of $2 against its recording"
  # diff exits 1 while the two differ; that is a result here, not a failure.
  "$tool" diff "$out/$1.map.json" "$out/$1.dump.json" || true
  echo
}
measure sprawl Tests/StreamsTraceTests/Sprawl
measure player Tests/StreamsTraceTests/Player
measure signup Tests/StreamsTraceTests/Signup
measure seed Sources/ScreenDemo
