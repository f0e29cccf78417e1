#!/usr/bin/env python3
"""Extracts the Swift code blocks of the README and the guides; the helper of check-snippets.sh.

The convention (CONTRIBUTING.md, "Code blocks in the README and the guides"):
- a block fenced ```swift is compiled: all such blocks of one markdown file, in file order, make
  the main.swift of one executable target of a scratch package that depends on this repository
  by path (so a file's blocks form one program);
- a block fenced ```swift no-compile is skipped, and the paragraph right before it (the text
  lines above the fence, up to a blank line) must say why, with the words "not compiled" or
  "not meant to compile";
- a block fenced ```swift from=<repo-relative path> must appear verbatim (after trimming the
  trailing whitespace of each line) in that file;
- blocks in other languages are not touched; any other word after ```swift is an error.

Each compiled block is preceded in main.swift by `#sourceLocation(file: "<markdown>", line: N)`,
so the compiler reports errors and warnings at the markdown file and line of the code itself.

Usage:
  snippets.py generate ROOT OUT MARKDOWN...   write the scratch package into OUT; check the
                                              no-compile reasons and the from= blocks; print the
                                              problems found and exit 1 if there are any
  snippets.py explain ROOT OUT < BUILD_LOG     name the markdown file and block of each compiler
                                              diagnostic in the log
"""

import json
import os
import re
import sys

OPEN = re.compile(r"^( *)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*?)\s*$")
REASONS = ("not compiled", "not meant to compile")


class Block:
  def __init__(self, path, fence_line, info, lines):
    self.path = path  # repo-relative markdown path
    self.fence_line = fence_line  # 1-based line of the opening fence
    self.info = info  # the words after ```swift
    self.lines = lines  # the code, with the fence's indentation removed

  @property
  def first_code_line(self):
    return self.fence_line + 1

  @property
  def last_line(self):
    return self.fence_line + len(self.lines) + 1  # the closing fence


def parse(root, path):
  """Returns the swift blocks of one markdown file, and the problems of its fences."""
  text = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
  blocks, problems = [], []
  i = 0
  while i < len(text):
    m = OPEN.match(text[i])
    if not m:
      i += 1
      continue
    indent, fence, lang, info = len(m.group(1)), m.group(2), m.group(3), m.group(4)
    start = i
    body = []
    i += 1
    closed = False
    while i < len(text):
      line = text[i]
      stripped = line.strip()
      if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
        closed = True
        break
      body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
      i += 1
    i += 1
    if not closed:
      problems.append(f"{path}:{start + 1}: the code block opened here is never closed")
      continue
    if lang != "swift":
      continue
    block = Block(path, start + 1, info, body)
    if info == "no-compile":
      reason = []
      j = start - 1
      while j >= 0 and text[j].strip() == "":
        j -= 1
      while j >= 0 and text[j].strip() != "" and not OPEN.match(text[j]):
        reason.insert(0, text[j])
        j -= 1
      words = " ".join(" ".join(reason).split()).lower()
      if not any(r in words for r in REASONS):
        problems.append(
          f"{path}:{start + 1}: a ```swift no-compile block needs the paragraph right before it"
          f" to say why it is not compiled (with the words \"not compiled\" or \"not meant to"
          f" compile\")")
    elif info.startswith("from="):
      source = info[len("from="):]
      full = os.path.join(root, source)
      if not os.path.isfile(full):
        problems.append(f"{path}:{start + 1}: from={source}: no such file in the repository")
      else:
        haystack = [l.rstrip() for l in open(full, encoding="utf-8").read().split("\n")]
        needle = [l.rstrip() for l in body]
        while needle and needle[-1] == "":
          needle.pop()
        found = any(
          haystack[k:k + len(needle)] == needle for k in range(len(haystack) - len(needle) + 1))
        if not found:
          problems.append(
            f"{path}:{start + 1}: the ```swift from={source} block (lines {start + 2}-{i - 1})"
            f" does not appear verbatim in {source}")
    elif info != "":
      problems.append(
        f"{path}:{start + 1}: unknown ```swift option \"{info}\" (use no-compile or from=PATH)")
    blocks.append(block)
  return blocks, problems


def target_name(path):
  return "Snippets_" + re.sub(r"[^A-Za-z0-9]", "_", path[:-len(".md")] if path.endswith(".md")
                              else path)


def generate(root, out, paths):
  problems, targets = [], []
  index = {}
  for path in paths:
    blocks, found = parse(root, path)
    problems += found
    compiled = [b for b in blocks if b.info == ""]
    index[path] = [[b.fence_line, b.last_line] for b in blocks]
    if not compiled:
      continue
    name = target_name(path)
    targets.append(name)
    main = [f"// Generated by .ci/check-snippets.sh from {path}; do not edit."]
    absolute = os.path.join(root, path)
    for b in compiled:
      main.append(f'#sourceLocation(file: {json.dumps(absolute)}, line: {b.first_code_line})')
      main += b.lines
      main.append("#sourceLocation()")
    directory = os.path.join(out, "Sources", name)
    os.makedirs(directory, exist_ok=True)
    write_if_changed(os.path.join(directory, "main.swift"), "\n".join(main) + "\n")
  # Targets of markdown files that no longer have blocks would still be built: remove them.
  sources = os.path.join(out, "Sources")
  if os.path.isdir(sources):
    for name in os.listdir(sources):
      if name not in targets:
        for f in os.listdir(os.path.join(sources, name)):
          os.remove(os.path.join(sources, name, f))
        os.rmdir(os.path.join(sources, name))
  identity = os.path.basename(os.path.normpath(root)).lower()
  products = ["Streams", "StreamsTest", "StreamsState", "StreamsTrace"]
  deps = ", ".join(f'.product(name: "{p}", package: "{identity}")' for p in products)
  manifest = [
    "// swift-tools-version: 6.2",
    "// Generated by .ci/check-snippets.sh; do not edit.",
    "import PackageDescription",
    "",
    "let package = Package(",
    '  name: "Snippets",',
    "  platforms: [.macOS(.v14)],",
    f"  dependencies: [.package(path: {json.dumps(root)})],",
    "  targets: [",
  ]
  manifest += [f'    .executableTarget(name: "{t}", dependencies: [{deps}]),' for t in targets]
  manifest += ["  ],", "  swiftLanguageModes: [.v6]", ")", ""]
  os.makedirs(out, exist_ok=True)
  write_if_changed(os.path.join(out, "Package.swift"), "\n".join(manifest))
  with open(os.path.join(out, "blocks.json"), "w", encoding="utf-8") as f:
    json.dump({"root": root, "blocks": index}, f)
  for p in problems:
    print(p)
  print(f"check-snippets: {sum(len(v) for v in index.values())} swift blocks in {len(paths)}"
        f" markdown files; {len(targets)} files have blocks to compile", file=sys.stderr)
  return 1 if problems else 0


def write_if_changed(path, text):
  if os.path.exists(path) and open(path, encoding="utf-8").read() == text:
    return
  with open(path, "w", encoding="utf-8") as f:
    f.write(text)


DIAGNOSTIC = re.compile(r"^(/[^:]+\.md):(\d+):(\d+): (error|warning): (.*)$")


def explain(root, out):
  """Lists, block by block, the errors (warnings are errors here) that the log reports in the
  markdown files: each block with its first three errors and the number of the others."""
  index = json.load(open(os.path.join(out, "blocks.json"), encoding="utf-8"))["blocks"]
  errors = {}  # (path, block line) -> [messages], in the log's order
  for line in sys.stdin:
    m = DIAGNOSTIC.match(line.rstrip("\n"))
    if not m:
      continue
    path = os.path.relpath(m.group(1), root)
    number = int(m.group(2))
    block = next((b[0] for b in index.get(path, []) if b[0] < number < b[1]), 0)
    message = f"{path}:{number}:{m.group(3)}: {m.group(5)}"
    found = errors.setdefault((path, block), [])
    if message not in found:
      found.append(message)
  for (path, block), messages in sorted(errors.items()):
    print(f"{path}:{block}: the ```swift block at line {block} does not compile:")
    for message in messages[:3]:
      print(f"  {message}")
    if len(messages) > 3:
      print(f"  ... and {len(messages) - 3} more")
  if not errors:
    print("no error points into a markdown file: see the build log above")
  return len(errors)


def main(argv):
  if len(argv) >= 3 and argv[0] == "generate":
    root, out = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    return generate(root, out, argv[3:])
  if len(argv) == 3 and argv[0] == "explain":
    explain(os.path.abspath(argv[1]), os.path.abspath(argv[2]))
    return 0
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
