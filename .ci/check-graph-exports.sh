#!/usr/bin/env bash
# Renders the graph exports that the StreamsTrace tests write with the real tools, and fails on
# any complaint:
#   - every DIR/*.dot with Graphviz (`dot -Tsvg`): a non-zero exit or anything on stderr
#     (warnings included) fails;
#   - every DIR/*.mmd with Mermaid (mermaid.min.js 11.16.0) in headless Chromium: `mermaid.parse`
#     and `mermaid.render` must succeed, the text must be within Mermaid's default maxTextSize
#     (50,000 characters; above it Mermaid draws an error message instead of throwing), and the
#     SVG must not be one of Mermaid's error pictures.
# A file NAME.expect.json beside an export lists texts (a JSON array of strings) that its rendered
# SVG must show literally: the hostile-name tests use it to prove escaping round-trips.
#
# Usage:
#   STREAMS_EXPORT_DIR=/tmp/exports swift test --skip-build --no-parallel \
#     --filter 'TraceGraphDOTTests|TraceGraphMermaidTests'
#   .ci/check-graph-exports.sh /tmp/exports
#
# Installs what is missing: Debian's graphviz, chromium and python3 (apt-get), and Mermaid itself
# from PyPI: the `artoo-mermaid` wheel vendors the official mermaid.min.js. The wheel declares
# Python >= 3.12 and depends on the artoo site generator, neither of which the check needs, so it
# is downloaded (not installed) with pip and the one file is taken out of it, checked against
# the SHA-256 of Mermaid's release, and cached in $STREAMS_TOOLS_CACHE (default
# ~/.cache/streams-graph-exports).
set -euo pipefail

MERMAID_VERSION=11.16.0
MERMAID_SHA256=74d7c46dabca328c2294733910a8aa1ed0c37451776e8d5295da38a2b758fb9b

if [[ $# -ne 1 || ! -d $1 ]]; then
  echo "usage: $0 DIR (a directory of *.dot and *.mmd files)" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)
cache=${STREAMS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/streams-graph-exports}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- tools -----------------------------------------------------------------------------------

. "$(dirname "$0")/lib.sh"
need_graph_tools pip

mermaid_js=$cache/mermaid-$MERMAID_VERSION/mermaid.min.js
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
if [[ ! -f $mermaid_js || $(sha_of "$mermaid_js") != "$MERMAID_SHA256" ]]; then
  echo "== fetching mermaid $MERMAID_VERSION (PyPI: artoo-mermaid)"
  mkdir -p "$(dirname "$mermaid_js")"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --dest "$work/wheel" "artoo-mermaid==$MERMAID_VERSION"
  python3 - "$work/wheel" "$mermaid_js.tmp" <<'PY'
import pathlib, sys, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("artoo_mermaid-*.whl"))
with zipfile.ZipFile(wheel) as archive:
    pathlib.Path(sys.argv[2]).write_bytes(archive.read("artoo_mermaid/assets/mermaid.min.js"))
PY
  if [[ $(sha_of "$mermaid_js.tmp") != "$MERMAID_SHA256" ]]; then
    echo "mermaid.min.js from artoo-mermaid does not have the SHA-256 of Mermaid $MERMAID_VERSION" >&2
    exit 1
  fi
  mv "$mermaid_js.tmp" "$mermaid_js"
fi
echo "== tools: $(dot -V 2>&1), $("$chromium" --version 2>/dev/null), mermaid $MERMAID_VERSION"

shopt -s nullglob
dots=("$dir"/*.dot)
mermaids=("$dir"/*.mmd)
if ((${#dots[@]} + ${#mermaids[@]} == 0)); then
  echo "no *.dot or *.mmd file in $dir" >&2
  exit 1
fi
failures=0

# --- Graphviz --------------------------------------------------------------------------------

for file in "${dots[@]}"; do
  name=$(basename "$file")
  svg=$work/${name%.dot}.svg
  if ! dot -Tsvg "$file" -o "$svg" 2>"$work/stderr" || [[ -s $work/stderr ]]; then
    echo "FAIL $name: dot -Tsvg:"
    sed 's/^/    /' "$work/stderr"
    failures=$((failures + 1))
    continue
  fi
  if [[ -f $file.expect.json ]]; then
    # The SVG's text, one <text> element (one label line) a line, must show each literal.
    if ! python3 - "$svg" "$file.expect.json" >"$work/missing" <<'PY'; then
import json, sys, xml.etree.ElementTree as tree
svg = tree.parse(sys.argv[1]).getroot()
# Graphviz keeps runs of spaces visible by writing every second one as a no-break space.
shown = "\n".join(
    "".join(node.itertext()) for node in svg.iter("{http://www.w3.org/2000/svg}text")
).replace("\u00a0", " ")
missing = [text for text in json.load(open(sys.argv[2], encoding="utf-8")) if text not in shown]
for text in missing:
    print(json.dumps(text, ensure_ascii=False))
sys.exit(1 if missing else 0)
PY
      echo "FAIL $name: the SVG does not show:"
      sed 's/^/    /' "$work/missing"
      failures=$((failures + 1))
      continue
    fi
  fi
  echo "ok   $name"
done

# --- Mermaid ---------------------------------------------------------------------------------

if ((${#mermaids[@]} > 0)); then
  # One page renders every diagram in turn and writes the results into the DOM, which Chromium
  # prints once the page is idle (--virtual-time-budget lets the async rendering finish).
  python3 - "$mermaid_js" "$work/check.html" "${mermaids[@]}" <<'PY'
import json, pathlib, sys
script, page, *files = sys.argv[1:]
diagrams = []
for name in files:
    path = pathlib.Path(name)
    expect = pathlib.Path(name + ".expect.json")
    diagrams.append({
        "name": path.name,
        "text": path.read_text(encoding="utf-8"),
        "expect": json.loads(expect.read_text(encoding="utf-8")) if expect.exists() else [],
    })
data = json.dumps(diagrams).replace("<", "\\u003c")
pathlib.Path(page).write_text(f"""<!doctype html>
<html><head><meta charset="utf-8"><title>mermaid check</title></head><body>
<pre id="result">PENDING</pre>
<script src="{pathlib.Path(script).as_uri()}"></script>
<script>
const diagrams = {data};
(async () => {{
  const results = [];
  try {{
    mermaid.initialize({{ startOnLoad: false }});
    const limit = mermaid.mermaidAPI?.getConfig?.()?.maxTextSize ?? 50000;
    for (const [index, diagram] of diagrams.entries()) {{
      const result = {{ name: diagram.name }};
      try {{
        if (diagram.text.length > limit)
          throw new Error(`${{diagram.text.length}} characters, over maxTextSize ${{limit}}`);
        await mermaid.parse(diagram.text);
        const {{ svg }} = await mermaid.render(`diagram${{index}}`, diagram.text);
        const holder = document.createElement("div");
        holder.innerHTML = svg;
        const shown = holder.textContent.replace(/\u00a0/g, " ");
        if (/Syntax error in text|Maximum text size in diagram exceeded/.test(shown))
          throw new Error("Mermaid rendered its error picture");
        const missing = diagram.expect.filter((text) => !shown.includes(text));
        if (missing.length > 0) throw new Error("the SVG does not show: " + JSON.stringify(missing));
        result.nodes = holder.querySelectorAll("g.node").length;
        result.edges = holder.querySelectorAll(".edgePaths path").length;
        result.ok = true;
      }} catch (error) {{
        result.error = String((error && (error.message || error.str)) || error);
      }}
      results.push(result);
    }}
  }} catch (error) {{
    results.push({{ name: "(setup)", error: String(error) }});
  }}
  document.getElementById("result").textContent = "RESULT " + JSON.stringify(results);
}})();
</script></body></html>
""", encoding="utf-8")
PY
  if ! timeout 600 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --allow-file-access-from-files --virtual-time-budget=600000 --dump-dom \
    "file://$work/check.html" >"$work/dom.html" 2>"$work/chromium.log"; then
    echo "FAIL chromium did not finish:"
    tail -20 "$work/chromium.log" | sed 's/^/    /'
    failures=$((failures + 1))
  elif ! python3 - "$work/dom.html" "${#mermaids[@]}" >"$work/report" <<'PY'; then
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
match = re.search(r'<pre id="result">RESULT (.*?)</pre>', dom, re.S)
if not match:
    print("FAIL the page did not finish rendering (no result in the DOM)")
    sys.exit(1)
results = json.loads(html.unescape(match.group(1)))
failed = 0
for result in results:
    if result.get("ok"):
        print(f"ok   {result['name']} ({result['nodes']} nodes, {result['edges']} edges)")
    else:
        failed += 1
        print(f"FAIL {result['name']}: {result.get('error')}")
if len(results) != int(sys.argv[2]):
    failed += 1
    print(f"FAIL {len(results)} results for {sys.argv[2]} diagrams")
sys.exit(1 if failed else 0)
PY
    cat "$work/report"
    failures=$((failures + $(grep -c '^FAIL' "$work/report" || true)))
  else
    cat "$work/report"
  fi
fi

total=$((${#dots[@]} + ${#mermaids[@]}))
echo "$((total - failures)) passed, $failures failed"
((failures == 0))
