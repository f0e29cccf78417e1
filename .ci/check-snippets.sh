#!/usr/bin/env bash
# Compiles the Swift code blocks of README.md and Guides/**/*.md, as CONTRIBUTING.md's "Code
# blocks in the README and the guides" describes:
#   - every ```swift block is compiled on its own: it is the whole main.swift of a program of its
#     own (nothing added: the block's own imports, the block's own declarations), compiled by
#     swiftc against the package's library modules (Streams, StreamsTest, StreamsState, StreamsFoundation,
#     StreamsTrace) as `swift build` built them, in Swift 6 language mode with warnings as errors,
#     to an object file (so the SIL diagnostics of Swift 6 concurrency run too), not linked;
#   - a ```swift continues block is compiled together with the block(s) it continues, back to the
#     nearest compiled block without the marker; ```swift continues=NAME continues the block
#     fenced with id=NAME instead;
#   - a ```swift no-compile block must follow a paragraph that says why, with the words
#     "not compiled" or "not meant to compile";
#   - a ```swift from=PATH block must appear verbatim (trailing whitespace aside) in PATH.
# A failure names the markdown file and line: each block is preceded by a #sourceLocation
# directive, so the compiler reports its errors at the markdown line, and each error is then
# listed with the line of the block it is in.
#
# Usage: .ci/check-snippets.sh [MARKDOWN...]   (default: README.md and every Guides/**/*.md)
#   SNIPPETS_DIR=DIR to put the generated programs elsewhere (default .build/snippets);
#   SNIPPETS_JOBS=N compilers at a time (default: the number of CPUs); SWIFTC to use another
#   swiftc than the one on PATH (it must be the compiler that built the package).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${SNIPPETS_DIR:-$root/.build/snippets}

if [[ $# -gt 0 ]]; then
  files=("$@")
else
  files=(README.md)
  while IFS= read -r f; do files+=("$f"); done < <(find Guides -name '*.md' | LC_ALL=C sort)
fi

status=0
python3 .ci/snippets.py generate "$root" "$out" "${files[@]}" || status=1

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The blocks import the library modules that `swift build` puts in the build folder. StreamsTest
# depends on the other three, so building it builds all four; after .ci/run's
# `swift build --build-tests -Xswiftc -warnings-as-errors` this only checks they are up to date.
if ! swift build --target StreamsTest -Xswiftc -warnings-as-errors >"$log" 2>&1; then
  cat "$log" >&2
  echo "check-snippets: FAILED: the package's library modules do not build" >&2
  exit 1
fi
bin=$(swift build --show-bin-path)
flags=(
  -swift-version 6 -warnings-as-errors -Onone -DDEBUG -diagnostic-style llvm
  -I "$bin/Modules"
  # Streams imports the C module StreamsShims, so its clients need its module map.
  -Xcc "-fmodule-map-file=$bin/StreamsShims.build/module.modulemap"
  -Xcc -I -Xcc "$root/Sources/StreamsShims/include"
  -module-cache-path "$out/ModuleCache"
)
if [[ $(uname -s) == Darwin ]]; then
  # Testing and XCTest live in the platform's developer folder, as SwiftPM finds them for tests;
  # the deployment target is the one Observation (StateCell, RenderProbe) needs.
  platform=$(xcrun --show-sdk-platform-path)
  flags+=(
    -sdk "$(xcrun --show-sdk-path)" -target "$(uname -m)-apple-macosx14.0"
    -F "$platform/Developer/Library/Frameworks" -I "$platform/Developer/usr/lib"
    -plugin-path "$(dirname "$(xcrun --find swift)")/../lib/swift/host/plugins/testing"
  )
fi

if ! python3 .ci/snippets.py compile "$out" "${SWIFTC:-swiftc}" "${flags[@]}" >"$log"; then
  status=1
  cat "$log" >&2
  echo "== swift blocks that do not compile, by markdown file and line" >&2
  python3 .ci/snippets.py explain "$root" "$out" <"$log" >&2
fi

if [[ $status -ne 0 ]]; then
  echo "check-snippets: FAILED (see CONTRIBUTING.md, \"Code blocks in the README and the guides\")" >&2
  exit 1
fi
echo "check-snippets: every swift block compiles, every from= block matches its file"
