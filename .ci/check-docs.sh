#!/usr/bin/env bash
# Builds the API reference of the four library modules with the toolchain's DocC and fails on any
# warning (a broken ``symbol`` link, a parameter documented under the wrong name or not at all, an
# ambiguous link, a Topics group naming nothing, ...).
#
#   1. `swift package dump-symbol-graph` builds the package and writes one symbol graph per module
#      (public API, doc comments included) to .build/<triple>/symbolgraph;
#   2. `docc convert Sources/<Module>/<Module>.docc` turns each module's graphs and its catalog
#      (landing page, articles) into Module.doccarchive, with `--warnings-as-errors`.
#
# The modules are converted in dependency order (StreamsState, Streams, StreamsTraceRecording,
# StreamsTrace, StreamsTest)
# and each archive is passed to the later ones with `--dependency`, so that a doc comment in one
# module can link a symbol of another with an absolute link: ``/Streams/Observable``.
#
# Usage:
#   .ci/check-docs.sh [OUTPUT_DIR]     # archives in OUTPUT_DIR (default: .build/docs)
#   docc preview Sources/Streams/Streams.docc \
#     --additional-symbol-graph-dir .build/docs/symbolgraph/Streams   # read them in a browser
# Needs only the Swift toolchain (docc ships with it); the package keeps no dependency on the
# swift-docc-plugin.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-.build/docs}
# The toolchain's docc: on PATH, or beside `swift` (Linux toolchains), or through xcrun (Xcode).
if command -v docc >/dev/null; then
  docc=(docc)
elif [[ -x "$(dirname "$(command -v swift)")/docc" ]]; then
  docc=("$(dirname "$(command -v swift)")/docc")
elif command -v xcrun >/dev/null; then
  docc=(xcrun docc)
else
  echo "check-docs: no docc found (it ships with the Swift toolchain)" >&2
  exit 1
fi
modules=(StreamsState Streams StreamsTraceRecording StreamsTrace StreamsTest)

mkdir -p "$(dirname "$out")"
graphs="$(swift build --show-bin-path)/../symbolgraph"
rm -rf "$graphs"
# dump-symbol-graph also tries the test modules and fails on them when the tests are not built;
# what counts is that it wrote a fresh graph for each library module, checked below.
swift package dump-symbol-graph --emit-extension-block-symbols >"$out.dump.log" 2>&1 || true
for module in "${modules[@]}"; do
  if [[ ! -f $graphs/$module.symbols.json ]]; then
    cat "$out.dump.log" >&2
    echo "check-docs: no symbol graph for $module in $graphs" >&2
    exit 1
  fi
done

rm -rf "$out"
mkdir -p "$out/symbolgraph"
status=0
dependencies=()
for module in "${modules[@]}"; do
  # A module's graphs: its own and the extensions it makes to other modules' types
  # (Module@Other.symbols.json); the other modules' graphs stay out of its archive.
  mkdir -p "$out/symbolgraph/$module"
  cp "$graphs/$module.symbols.json" "$out/symbolgraph/$module/"
  for extension in "$graphs/$module@"*.symbols.json; do
    [[ -e $extension ]] && cp "$extension" "$out/symbolgraph/$module/"
  done

  catalog=Sources/$module/$module.docc
  if [[ $status -ne 0 ]]; then
    # Each module links into the ones before it: with an earlier archive missing, its links
    # would fail too and bury the first error.
    echo "-- skipped $catalog: fix the module above first" >&2
    continue
  fi
  if [[ ! -f $catalog/$module.md ]]; then
    echo "check-docs: $catalog/$module.md (the landing page) is missing" >&2
    status=1
    continue
  fi

  echo "-- docc convert $catalog"
  log="$out/$module.log"
  if ! "${docc[@]}" convert "$catalog" \
    --additional-symbol-graph-dir "$out/symbolgraph/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "$module" \
    --enable-experimental-external-link-support \
    "${dependencies[@]}" \
    --warnings-as-errors \
    --output-dir "$out/$module.doccarchive" >"$log" 2>&1; then
    cat "$log" >&2
    echo "check-docs: docc convert $module failed" >&2
    status=1
  elif grep -qE '(^|: )(warning|error): ' "$log"; then
    # --warnings-as-errors already fails the run on a warning; this is the belt to its braces.
    cat "$log" >&2
    echo "check-docs: docc reported diagnostics for $module" >&2
    status=1
  fi
  dependencies+=(--dependency "$out/$module.doccarchive")
done

if [[ $status -ne 0 ]]; then
  echo "check-docs: the documentation does not build cleanly (see above)" >&2
  exit 1
fi
echo "check-docs: ${modules[*]} built without warnings into $out"
