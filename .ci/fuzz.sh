#!/usr/bin/env bash
# Fuzzes every parser with libFuzzer: marble diagrams (FuzzMarbles), trace dumps (FuzzTraceDump)
# and the streams-trace command line (FuzzTraceCommand), each for a time box.
#
#   .ci/fuzz.sh [seconds-per-target] [target...]      (default: 60 seconds, every target)
#
# Builds Tests/Fuzz (its own package) with -sanitize=fuzzer and AddressSanitizer, then runs each
# target over its seed corpus (Tests/Fuzz/Corpus/<target>, read only) and a working corpus in a
# temporary folder (kept when STREAMS_FUZZ_WORK names a folder). A crash, a trap or a leak stops
# the run: the input is written to Tests/Fuzz/Crashes/<target>-crash-<sha1> (not in git) and the
# script exits 1. Replay one input with `Tests/Fuzz/.build/release/<target> <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(FuzzMarbles FuzzTraceDump FuzzTraceCommand)
fi

echo "== build the fuzz targets (-sanitize=fuzzer,address)"
swift build --package-path Tests/Fuzz -c release \
  -Xswiftc -sanitize=fuzzer,address
bin=$(swift build --package-path Tests/Fuzz -c release --show-bin-path \
  -Xswiftc -sanitize=fuzzer,address)

work=${STREAMS_FUZZ_WORK:-$(mktemp -d)}
mkdir -p Tests/Fuzz/Crashes
status=0
for target in "${targets[@]}"; do
  echo "== $target for $seconds s"
  mkdir -p "$work/$target"
  if ! "$bin/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="Tests/Fuzz/Crashes/$target-" \
    "$work/$target" "Tests/Fuzz/Corpus/$target"; then
    echo "$target: crash; the input is in Tests/Fuzz/Crashes/" >&2
    status=1
  fi
done
exit $status
