#!/usr/bin/env bash
# Checks the Chrome JSON trace exports (TraceGraph.chromeTrace(), for Perfetto UI and
# chrome://tracing) that the tests write when STREAMS_EXPORT_DIR is set.
#
#   .ci/check-perfetto-exports.sh DIR
#
# When DIR holds no *.trace.json yet, it first runs the export tests to write them there
# (STREAMS_EXPORT_DIR=DIR swift test --no-parallel --filter TraceGraphPerfettoTests).
#
# Each NAME.trace.json is checked by .ci/validate_chrome_trace.py against the trace-event
# format's rules and against how Perfetto's JSON importer reads them, and against what the test
# expected of it (NAME.expect.json: slices per delivery and their tracks, the cause pairs the
# arrows must join, instants, counters, processes). Then the validator's self-test breaks every
# trace in 15 ways and fails unless each broken copy is rejected by the rule it breaks.
#
# Needs python3 (standard library only); installs it with apt-get when missing.
#
# Perfetto's own trace processor is not run: the `perfetto` package on PyPI is Python only and
# downloads trace_processor_shell from Google's storage at run time (no network here: curl fails
# to resolve the host), no wheel or Debian package ships the binary, and Debian's chromium is
# built without the catapult trace viewer behind chrome://tracing (disable/catapult.patch), so no
# real consumer of the format can run offline.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$1
ci=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$ci")
started=$SECONDS

. "$ci/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
  apt_install python3
  command -v python3 >/dev/null  # stop here if it could not be installed
fi

mkdir -p "$dir"
shopt -s nullglob
traces=("$dir"/*.trace.json)
if [[ ${#traces[@]} -eq 0 ]]; then
  echo "== writing the exports: the Chrome trace tests with STREAMS_EXPORT_DIR=$dir"
  (cd "$root" && STREAMS_EXPORT_DIR="$(cd "$dir" && pwd)" \
    swift test --no-parallel --filter TraceGraphPerfettoTests)
  traces=("$dir"/*.trace.json)
fi
if [[ ${#traces[@]} -eq 0 ]]; then
  echo "no *.trace.json in $dir" >&2
  exit 1
fi

echo "== validating ${#traces[@]} trace files"
python3 "$ci/validate_chrome_trace.py" "${traces[@]}"

# The self-test breaks the traces the tests wrote with their expectations (NAME.expect.json):
# some rules (which track a delivery belongs on) can only be checked against them.
expected=()
for trace in "${traces[@]}"; do
  if [[ -f ${trace%.trace.json}.expect.json ]]; then expected+=("$trace"); fi
done
if [[ ${#expected[@]} -eq 0 ]]; then
  echo "no trace with expectations (NAME.expect.json) in $dir for the self-test" >&2
  exit 1
fi
echo "== self-test: broken copies of the traces must be rejected, each for what broke it"
status=0
report=$(python3 "$ci/validate_chrome_trace.py" --self-test "${expected[@]}") || status=$?
# One line per broken copy is long; show the summary and anything missed.
grep -v ': rejected ' <<<"$report" || true
if [[ $status -ne 0 ]]; then
  exit "$status"
fi

echo "== Chrome trace exports checked in $((SECONDS - started)) s"
