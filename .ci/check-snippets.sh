#!/usr/bin/env bash
# Compiles the Swift code blocks of README.md and Guides/**/*.md, as CONTRIBUTING.md's "Code
# blocks in the README and the guides" describes:
#   - every ```swift block is compiled: the blocks of one markdown file, in file order, are the
#     main.swift of one executable target of a scratch package (default .build/snippets, outside
#     git) that depends on this repository by path and links Streams, StreamsTest, StreamsState
#     and StreamsTrace; built in Swift 6 language mode with warnings as errors, not run;
#   - a ```swift no-compile block must follow a paragraph that says why, with the words
#     "not compiled" or "not meant to compile";
#   - a ```swift from=PATH block must appear verbatim (trailing whitespace aside) in PATH.
# A failure names the markdown file and line: each block is preceded by a #sourceLocation
# directive, so the compiler reports its errors at the markdown line, and each error is then
# listed with the line of the block it is in.
#
# Usage: .ci/check-snippets.sh [MARKDOWN...]   (default: README.md and every Guides/**/*.md)
#   SNIPPETS_DIR=DIR to put the scratch package elsewhere.
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
trap 'rm -f "$log" "$log.all"' EXIT
if ! swift build --package-path "$out" -Xswiftc -warnings-as-errors >"$log" 2>&1; then
  # SwiftPM stops at the first target that fails: build each one alone to report every file.
  status=1
  : >"$log.all"
  for dir in "$out"/Sources/*/; do
    target=$(basename "$dir")
    if ! swift build --package-path "$out" --target "$target" -Xswiftc -warnings-as-errors \
      >"$log" 2>&1; then
      cat "$log" >&2
      cat "$log" >>"$log.all"
    fi
  done
  echo "== swift blocks that do not compile, by markdown file and line" >&2
  python3 .ci/snippets.py explain "$root" "$out" <"$log.all" >&2
fi

if [[ $status -ne 0 ]]; then
  echo "check-snippets: FAILED (see CONTRIBUTING.md, \"Code blocks in the README and the guides\")" >&2
  exit 1
fi
echo "check-snippets: every swift block compiles, every from= block matches its file"
