#!/usr/bin/env python3
"""Extracts and compiles the Swift code blocks of the README and the guides; the helper of
check-snippets.sh.

The convention (CONTRIBUTING.md, "Code blocks in the README and the guides"):
- a block fenced ```swift is compiled on its own: it is the whole main.swift of a program of its
  own, which imports what the block imports and nothing else (no implicit import, no declaration
  of another block), compiled by swiftc against the library modules of this package (Streams,
  StreamsTest, StreamsState, StreamsTrace) as `swift build` built them;
- a block fenced ```swift continues is compiled together with the block it continues: the nearest
  compiled block before it in the same file, and so on back to the nearest compiled block without
  `continues` (the program is those blocks, in file order, then this one); the prose around it
  must say so, since GitHub does not show the fence's words;
- a block fenced ```swift continues=NAME continues the earlier block fenced with `id=NAME` in the
  same file instead (its program is that block's program, then this one); `id=NAME` may be added
  to any compiled block, and names one block per file;
- a block fenced ```swift no-compile is skipped, and the paragraph right before it (the text
  lines above the fence, up to a blank line) must say why, with the words "not compiled" or
  "not meant to compile";
- a block fenced ```swift from=<repo-relative path> must appear verbatim (after trimming the
  trailing whitespace of each line) in that file;
- blocks in other languages are not touched; any other word after ```swift is an error, and so is
  a `continues` with nothing before it to continue.

Every compiled block is one unit: a folder OUT/units/<file>_<hash>_L<line>/ whose main.swift holds the
block's program, each block preceded by `#sourceLocation(file: "<markdown>", line: N)`, so that
the compiler reports errors and warnings at the markdown file and line of the code itself. A
block that others continue is also compiled alone (with what it continues), as its own unit.
check-snippets.sh gives `compile` the compiler and its flags (Swift 6 mode, warnings as errors,
-DDEBUG, the package's module folder); `compile` adds `-module-name Snippet -c main.swift`, so
that the SIL diagnostics run too (an object file, not linked), and a main.swift's top-level code
is main-actor code.

Usage:
  snippets.py generate ROOT OUT MARKDOWN...  write the units into OUT; check the fences, the
                                             no-compile reasons and the from= blocks; print the
                                             problems found and exit 1 if there are any
  snippets.py compile OUT SWIFTC [ARG...]    compile every unit with SWIFTC ARG... (in parallel:
                                             SNIPPETS_JOBS, default the number of CPUs); print the
                                             compiler's output of each unit that fails, after a
                                             line "== unit PATH:LINE ...", and exit 1 if any fails
  snippets.py explain ROOT OUT < LOG         name the markdown file and block of each compiler
                                             diagnostic in the log that `compile` printed
"""

import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

OPEN = re.compile(r"^( *)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*?)\s*$")
REASONS = ("not compiled", "not meant to compile")
NAME = re.compile(r"^[A-Za-z0-9_-]+$")
UNIT_HEADER = re.compile(r"^== unit (\S+):(\d+) ")


class Block:
  def __init__(self, path, fence_line, info, lines):
    self.path = path  # repo-relative markdown path
    self.fence_line = fence_line  # 1-based line of the opening fence
    self.info = info  # the words after ```swift
    self.lines = lines  # the code, with the fence's indentation removed
    self.compiled = False
    self.ident = None  # its id=NAME
    self.continues = None  # the Block it continues, for a ```swift continues block

  @property
  def first_code_line(self):
    return self.fence_line + 1

  @property
  def last_line(self):
    return self.fence_line + len(self.lines) + 1  # the closing fence

  def program(self):
    """The blocks compiled for this one: what it continues, in file order, then itself."""
    chain = []
    block = self
    while block is not None:
      chain.insert(0, block)
      block = block.continues
    return chain


def paragraph_before(text, start):
  """The text lines right above line index `start`, up to a blank line or another fence."""
  lines = []
  j = start - 1
  while j >= 0 and text[j].strip() == "":
    j -= 1
  while j >= 0 and text[j].strip() != "" and not OPEN.match(text[j]):
    lines.insert(0, text[j])
    j -= 1
  return " ".join(" ".join(lines).split()).lower()


def parse(root, path):
  """Returns the swift blocks of one markdown file, and the problems of its fences."""
  text = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
  blocks, problems = [], []
  ids = {}  # NAME -> Block
  previous = None  # the last compiled block so far
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
    where = f"{path}:{start + 1}"
    words = info.split()
    if words == ["no-compile"]:
      if not any(r in paragraph_before(text, start) for r in REASONS):
        problems.append(
          f"{where}: a ```swift no-compile block needs the paragraph right before it to say why"
          f" it is not compiled (with the words \"not compiled\" or \"not meant to compile\")")
    elif len(words) == 1 and words[0].startswith("from="):
      source = words[0][len("from="):]
      full = os.path.join(root, source)
      if not os.path.isfile(full):
        problems.append(f"{where}: from={source}: no such file in the repository")
      else:
        haystack = [l.rstrip() for l in open(full, encoding="utf-8").read().split("\n")]
        needle = [l.rstrip() for l in body]
        while needle and needle[-1] == "":
          needle.pop()
        found = any(
          haystack[k:k + len(needle)] == needle for k in range(len(haystack) - len(needle) + 1))
        if not found:
          problems.append(
            f"{where}: the ```swift from={source} block (lines {start + 2}-{i - 1})"
            f" does not appear verbatim in {source}")
    else:
      block.compiled = True
      continues = None  # "" for a plain continues, else the NAME of continues=NAME
      ok = True
      for word in words:
        key, _, value = word.partition("=")
        if word == "continues" and continues is None:
          continues = ""
        elif key == "continues" and value and continues is None and NAME.match(value):
          continues = value
        elif key == "id" and value and block.ident is None and NAME.match(value):
          block.ident = value
        else:
          problems.append(
            f"{where}: unknown ```swift option \"{word}\" in \"{info}\" (use no-compile,"
            f" from=PATH, or continues, continues=NAME and id=NAME, each once; a NAME is"
            f" letters, digits, - and _)")
          ok = False
      if block.ident is not None:
        if block.ident in ids:
          problems.append(
            f"{where}: id={block.ident} already names the ```swift block at line"
            f" {ids[block.ident].fence_line}")
        else:
          ids[block.ident] = block
      if ok and continues == "":
        if previous is None:
          problems.append(
            f"{where}: this ```swift continues block has no compiled ```swift block before it"
            f" in {path} to continue")
        block.continues = previous
      elif ok and continues:
        if continues not in ids:
          problems.append(
            f"{where}: continues={continues}: no ```swift block before this one in {path} has"
            f" id={continues}")
        block.continues = ids.get(continues)
      previous = block
    blocks.append(block)
  return blocks, problems


def blocks_at(lines):
  if len(lines) == 1:
    return f"the block at line {lines[0]}"
  return f"the blocks at lines {', '.join(map(str, lines))}"


def unit_name(block):
  stem = block.path[:-len(".md")] if block.path.endswith(".md") else block.path
  # The path's hash keeps `A-B.md` and `A_B.md` apart once both read `A_B`.
  digest = hashlib.sha1(block.path.encode("utf-8")).hexdigest()[:6]
  return re.sub(r"[^A-Za-z0-9]", "_", stem) + f"_{digest}_L{block.fence_line}"


def generate(root, out, paths):
  problems, units = [], []
  index = {}
  for path in paths:
    blocks, found = parse(root, path)
    problems += found
    index[path] = [[b.fence_line, b.last_line] for b in blocks]
    absolute = os.path.join(root, path)
    for block in (b for b in blocks if b.compiled):
      program = block.program()
      others = [b.fence_line for b in program[:-1]]
      with_text = f", with {blocks_at(others)} it continues" if others else ""
      main = [f"// Generated by .ci/check-snippets.sh from {path}, the ```swift block at line"
              f" {block.fence_line}{with_text}; do not edit."]
      for b in program:
        main.append(f"#sourceLocation(file: {json.dumps(absolute, ensure_ascii=False)}, line: {b.first_code_line})")
        main += b.lines
        main.append("#sourceLocation()")
      name = unit_name(block)
      directory = os.path.join(out, "units", name)
      os.makedirs(directory, exist_ok=True)
      write_if_changed(os.path.join(directory, "main.swift"), "\n".join(main) + "\n")
      units.append({"path": path, "line": block.fence_line, "continues": others, "dir": name})
  # The scratch package of the former check (one executable target per markdown file), if any.
  manifest = os.path.join(out, "Package.swift")
  if os.path.isfile(manifest) and "Generated by .ci/check-snippets.sh" in open(
      manifest, encoding="utf-8").read():
    os.remove(manifest)
    for old in ("Sources", ".build", "Package.resolved"):
      path = os.path.join(out, old)
      if os.path.isdir(path):
        shutil.rmtree(path)
      elif os.path.exists(path):
        os.remove(path)
  # Units of blocks that are gone (or moved) would still be compiled: remove them.
  names = {u["dir"] for u in units}
  folder = os.path.join(out, "units")
  if os.path.isdir(folder):
    for name in os.listdir(folder):
      if name not in names:
        shutil.rmtree(os.path.join(folder, name))
  with open(os.path.join(out, "blocks.json"), "w", encoding="utf-8") as f:
    json.dump({"root": root, "blocks": index, "units": units}, f)
  for p in problems:
    print(p)
  chained = sum(1 for u in units if u["continues"])
  print(f"check-snippets: {sum(len(v) for v in index.values())} swift blocks in {len(paths)}"
        f" markdown files; {len(units)} to compile, {chained} of them with the blocks they"
        f" continue", file=sys.stderr)
  return 1 if problems else 0


def write_if_changed(path, text):
  if os.path.exists(path) and open(path, encoding="utf-8").read() == text:
    return
  with open(path, "w", encoding="utf-8") as f:
    f.write(text)


def compile_units(out, command):
  """Compiles every unit with `command` (swiftc and its arguments); prints the output of the
  units that fail, in file order, and returns how many failed."""
  units = json.load(open(os.path.join(out, "blocks.json"), encoding="utf-8"))["units"]
  jobs = int(os.environ.get("SNIPPETS_JOBS", "0")) or os.cpu_count() or 1

  def run(unit):
    directory = os.path.join(out, "units", unit["dir"])
    if os.path.exists(os.path.join(directory, "main.o")):
      os.remove(os.path.join(directory, "main.o"))
    result = subprocess.run(
      command + ["-module-name", "Snippet", "-c", "main.swift", "-o", "main.o"],
      cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout

  started = time.monotonic()
  with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    results = list(pool.map(run, units))
  failed = 0
  for unit, (status, output) in zip(units, results):
    if status == 0:
      continue
    failed += 1
    others = unit["continues"]
    with_text = f" with {blocks_at(others)} it continues" if others else " on its own"
    print(f"== unit {unit['path']}:{unit['line']} (the ```swift block at line {unit['line']},"
          f"{with_text}): swiftc exited with {status}")
    print(output.rstrip("\n"))
  print(f"check-snippets: compiled {len(units)} blocks in {time.monotonic() - started:.1f} s"
        f" ({jobs} at a time); {failed} failed", file=sys.stderr)
  return failed


DIAGNOSTIC = re.compile(r"^(?:(.+?):(\d+):(?:(\d+):)? )?(error|warning): (.*)$")


def explain(root, out):
  """Lists, block by block, the errors (warnings are errors here) of the log that `compile`
  printed: each block with its first three errors and the number of the others. An error that
  points at no markdown line (a missing module, say) is listed under the block whose unit it
  came from."""
  index = json.load(open(os.path.join(out, "blocks.json"), encoding="utf-8"))["blocks"]
  errors = {}  # (path, block line) -> [messages], in the log's order
  unit = None  # (path, block line) of the unit whose output is being read
  for line in sys.stdin:
    line = line.rstrip("\n")
    header = UNIT_HEADER.match(line)
    if header:
      unit = (header.group(1), int(header.group(2)))
      continue
    m = DIAGNOSTIC.match(line)
    if not m:
      continue
    if m.group(1) and m.group(1).endswith(".md"):
      path = os.path.relpath(m.group(1), root)
      number = int(m.group(2))
      block = next((b[0] for b in index.get(path, []) if b[0] < number < b[1]), 0)
      key = (path, block)
      column = f"{m.group(3)}:" if m.group(3) else ""
      message = f"{path}:{number}:{column} {m.group(5)}"
    elif unit is not None:
      key = unit
      at = f" (at {m.group(1)}:{m.group(2)})" if m.group(1) else ""
      message = f"{unit[0]}:{unit[1]}: {m.group(5)}{at}"
    else:
      continue
    found = errors.setdefault(key, [])
    if message not in found:
      found.append(message)
  for (path, block), messages in sorted(errors.items()):
    print(f"{path}:{block}: the ```swift block at line {block} does not compile:")
    for message in messages[:3]:
      print(f"  {message}")
    if len(messages) > 3:
      print(f"  ... and {len(messages) - 3} more")
  if not errors:
    print("no error points into a markdown file: see the compiler output above")
  return len(errors)


def main(argv):
  if len(argv) >= 3 and argv[0] == "generate":
    root, out = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    return generate(root, out, argv[3:])
  if len(argv) >= 3 and argv[0] == "compile":
    return 1 if compile_units(os.path.abspath(argv[1]), argv[2:]) else 0
  if len(argv) == 3 and argv[0] == "explain":
    explain(os.path.abspath(argv[1]), os.path.abspath(argv[2]))
    return 0
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
