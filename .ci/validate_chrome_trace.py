#!/usr/bin/env python3
"""Validates Chrome JSON trace-event files (the format Perfetto UI and chrome://tracing read).

Usage:
  validate_chrome_trace.py FILE.trace.json...   check files (each with FILE.expect.json, if any)
  validate_chrome_trace.py --self-test FILE...  check that broken copies of valid FILEs fail

The real consumer, Perfetto's trace processor, cannot run where this is used (its Python package
downloads a prebuilt binary at run time), so this script checks the format's documented rules
and emulates how Perfetto's JSON importer reads them (src/trace_processor/importers/json and
common/{slice,flow}_tracker.cc):

- the document: strict JSON, no duplicate keys, an object with a "traceEvents" array, only
  top-level keys Perfetto knows (it ignores the rest of the file after an unknown one),
  displayTimeUnit "ms" or "ns";
- each event: the fields its phase requires, with their types; pid and tid unsigned 32-bit
  integers; ts a number, dur a number >= 0; in timed events, no key before "ts" holds an array,
  an object or a string that needs escaping (older Perfetto tokenizers read the keys before
  "ts" with a reader that rejects those);
- times as Perfetto reads them: an integer is microseconds times 1000, a fraction is
  trunc(value * 1000.0) nanoseconds; a value whose trunc and round disagree loses a nanosecond;
- metadata: every pid has a process_name, every (pid, tid) with thread events a thread_name,
  declared once; a tid belongs to one pid and never equals another process's pid (Perfetto
  would take it for that process's main thread);
- slices: on each (pid, tid) track, "X" slices and thread-scoped instants, in Perfetto's
  processing order (by time; at one time, longest slice first, then other events in file
  order), are nested or disjoint, never overlapping without nesting (Perfetto drops those);
- flows ("s"/"t"/"f", version 1): one start per (id, cat, name), each start has a finish and
  each finish a start with the same id, cat and name, the finish read after the start; each end
  binds to a slice both as Perfetto binds it (the topmost slice open on the track when the event
  is read; "f" without "bp":"e" binds to the next slice that begins) and as chrome://tracing
  binds it (the deepest slice on the track enclosing the time), and both find the same slice;
- counters: "C" events with numeric args;
- expectations (FILE.expect.json, written by the Swift tests from the graph they exported): the
  number of slices, the slices each flow joins (by their args.delivery), the track each
  delivery's slice is on, the number of instants (and of counter samples, when given), the
  process names in pid order.

Exits 1 when a file breaks a rule, printing each problem; prints one line per valid file.
"""

import collections
import json
import math
import os
import sys

KNOWN_TOP_LEVEL = {
    "traceEvents", "displayTimeUnit", "otherData", "metadata", "systemTraceEvents",
    "stackFrames", "samples", "controllerTraceDataKey",
}
PHASES = set("BEXiIsCtfMPObenNDR")
UINT32_MAX = 2**32 - 1


class Problems:
    def __init__(self):
        self.items = []

    def add(self, message):
        if len(self.items) < 50:
            self.items.append(message)
        elif len(self.items) == 50:
            self.items.append("... (more problems left out)")

    def __bool__(self):
        return bool(self.items)


def strict_object(pairs):
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        raise ValueError("duplicate keys %s" % duplicates)
    result = dict(pairs)
    # Remembers the key order, which older Perfetto tokenizers depend on.
    result["\0order"] = keys
    return result


def reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and (
        not isinstance(value, float) or math.isfinite(value))


def to_ns(value):
    """Nanoseconds as Perfetto's CoerceToTs reads microseconds."""
    if isinstance(value, int):
        return value * 1000
    return int(value * 1000.0)


def needs_escape(text):
    return any(ch in "\"\\" or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text)


def check_uint32(problems, where, event, key, required):
    if key not in event:
        if required:
            problems.add("%s: no %r" % (where, key))
        return None
    value = event[key]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= UINT32_MAX:
        problems.add("%s: %r is %r, not an unsigned 32-bit integer" % (where, key, value))
        return None
    return value


def validate(text, expectations=None):
    """Returns (problems, summary) for one trace's text."""
    problems = Problems()
    try:
        document = json.loads(text, object_pairs_hook=strict_object,
                              parse_constant=reject_constant)
    except ValueError as error:
        problems.add("not valid JSON: %s" % error)
        return problems, None
    if not isinstance(document, dict):
        problems.add("the top level is not an object with traceEvents")
        return problems, None
    for key in document.get("\0order", []):
        if key not in KNOWN_TOP_LEVEL:
            problems.add("unknown top-level key %r (Perfetto stops reading there)" % key)
    unit = document.get("displayTimeUnit")
    if unit is not None and unit not in ("ms", "ns"):
        problems.add("displayTimeUnit is %r, not \"ms\" or \"ns\"" % unit)
    events = document.get("traceEvents")
    if not isinstance(events, list):
        problems.add("traceEvents is not an array")
        return problems, None

    process_names = {}
    thread_names = {}
    pid_of_tid = {}
    thread_events = set()
    timed = []  # (ts_ns, sort_key, index, event)
    for index, event in enumerate(events):
        where = "traceEvents[%d]" % index
        if not isinstance(event, dict):
            problems.add("%s is not an object" % where)
            continue
        phase = event.get("ph")
        if not isinstance(phase, str) or phase not in PHASES:
            problems.add("%s: ph is %r" % (where, phase))
            continue
        where += " (%s)" % phase
        pid = check_uint32(problems, where, event, "pid", True)
        tid = check_uint32(problems, where, event, "tid", False)
        if "args" in event and not isinstance(event["args"], dict):
            problems.add("%s: args is not an object" % where)
        if pid is not None and tid is not None:
            owner = pid_of_tid.setdefault(tid, pid)
            if owner != pid:
                problems.add("%s: tid %d is used with pid %d and pid %d" % (where, tid, owner, pid))
        if phase == "M":
            name = event.get("name")
            args = event.get("args") if isinstance(event.get("args"), dict) else {}
            if name in ("process_name", "thread_name"):
                if not isinstance(args.get("name"), str) or not args["name"]:
                    problems.add("%s: %s without a name in args" % (where, name))
                    continue
            if name in ("process_sort_index", "thread_sort_index"):
                value = args.get("sort_index")
                if not isinstance(value, int) or isinstance(value, bool):
                    problems.add("%s: %s without an integer args.sort_index" % (where, name))
            if name in ("thread_name", "thread_sort_index") and tid is None:
                problems.add("%s: %s without a tid" % (where, name))
                continue
            if name == "process_name" and pid is not None:
                if pid in process_names:
                    problems.add("%s: a second process_name for pid %d" % (where, pid))
                process_names[pid] = args["name"]
            elif name == "thread_name" and pid is not None:
                if (pid, tid) in thread_names:
                    problems.add("%s: a second thread_name for %d/%d" % (where, pid, tid))
                thread_names[(pid, tid)] = args["name"]
            elif name not in ("process_sort_index", "thread_sort_index", "process_labels"):
                problems.add("%s: unknown metadata %r" % (where, name))
            continue

        # Timed events.
        if "ts" not in event or not is_number(event["ts"]):
            problems.add("%s: ts is %r, not a number" % (where, event.get("ts")))
            continue
        order = event["\0order"]
        for key in order[: order.index("ts")]:
            value = event[key]
            if isinstance(value, (list, dict)) or (isinstance(value, str) and needs_escape(value)):
                problems.add("%s: key %r before ts holds %r (older Perfetto cannot read it)"
                             % (where, key, value))
        ts = event["ts"]
        ts_ns = to_ns(ts)
        if isinstance(ts, float) and round(ts * 1000.0) != ts_ns:
            problems.add("%s: ts %r reads as %d ns truncated but %d rounded"
                         % (where, ts, ts_ns, round(ts * 1000.0)))
        key = 2**63 - 1
        if phase == "X":
            dur = event.get("dur")
            if not is_number(dur) or dur < 0:
                problems.add("%s: dur is %r, not a number >= 0" % (where, dur))
                continue
            dur_ns = to_ns(dur)
            if isinstance(dur, float) and round(dur * 1000.0) != dur_ns:
                problems.add("%s: dur %r reads as %d ns truncated but %d rounded"
                             % (where, dur, dur_ns, round(dur * 1000.0)))
            key = 2**63 - 1 - dur_ns
        elif phase == "E":
            key = -(2**63)
        if phase in "XBEsft" and tid is None:
            problems.add("%s: no tid" % where)
            continue
        if phase in "XBEi" and not isinstance(event.get("name", ""), str):
            problems.add("%s: name is not a string" % where)
        if phase in "Xi" and "name" not in event:
            problems.add("%s: no name" % where)
        if phase in "iI":
            scope = event.get("s", "t")
            if scope not in ("g", "p", "t"):
                problems.add("%s: instant scope %r" % (where, scope))
            if scope == "t" and tid is None:
                problems.add("%s: thread instant without a tid" % where)
                continue
        if phase in "sft":
            flow_id = event.get("id")
            if not (isinstance(flow_id, str) or (isinstance(flow_id, int)
                                                  and not isinstance(flow_id, bool))):
                problems.add("%s: flow id is %r" % (where, flow_id))
                continue
            if not isinstance(event.get("name"), str) or not isinstance(event.get("cat"), str):
                problems.add("%s: a flow event needs a string name and cat" % where)
                continue
            if phase == "f" and event.get("bp", "e") != "e":
                problems.add("%s: bp is %r" % (where, event.get("bp")))
        if phase == "C":
            args = event.get("args")
            if not isinstance(args, dict) or not any(
                    is_number(value) for key_, value in args.items() if key_ != "\0order"):
                problems.add("%s: a counter needs numeric args" % where)
            if not all(is_number(value) for key_, value in (args or {}).items()
                       if key_ != "\0order"):
                problems.add("%s: a counter arg is not a number" % where)
        if tid is not None and phase in "XBEsftiIC":
            thread_events.add((pid, tid))
        timed.append((ts_ns, key, index, event))

    for pid, tid in sorted(thread_events):
        if (pid, tid) not in thread_names:
            problems.add("track %d/%d has events but no thread_name" % (pid, tid))
    pids = {pid for pid, _ in thread_events} | {pid for pid, _ in thread_names}
    for pid in sorted(pids):
        if pid not in process_names:
            problems.add("pid %d has no process_name" % pid)
    for tid, pid in sorted(pid_of_tid.items()):
        if tid in process_names and tid != pid:
            problems.add("tid %d (of pid %d) equals another process's pid" % (tid, pid))

    summary = replay(problems, timed)
    if expectations is not None and summary is not None:
        check_expectations(problems, summary, expectations, thread_names, process_names)
    return problems, summary


def replay(problems, timed):
    """Reads the events in Perfetto's order: slices, their nesting, and the flows' ends."""
    timed.sort(key=lambda item: (item[0], item[1], item[2]))
    stacks = {}        # track -> [slice]
    slices = []        # dicts: track, start, end, dur, event
    by_track = {}      # track -> [slice]
    flow_starts = {}   # (id, cat, name) -> (slice or None, ts, track)
    flow_ends = {}     # (id, cat, name) -> [[slice or None, ts, track, bind_enclosing]]
    pending = {}       # track -> [(flow, end record)] for "f" binding to the next slice
    instants = 0
    counters = 0
    for ts_ns, _, index, event in timed:
        phase = event["ph"]
        track = (event.get("pid"), event.get("tid"))
        if phase == "X" or (phase in "iI" and event.get("s", "t") == "t"):
            dur = to_ns(event["dur"]) if phase == "X" else 0
            stack = stacks.setdefault(track, [])
            while stack:
                top = stack[-1]
                if top["end"] < ts_ns or (top["end"] == ts_ns and not (top["dur"] == 0
                                                                       and dur == 0)):
                    stack.pop()
                    continue
                if ts_ns < top["end"] < ts_ns + dur:
                    problems.add(
                        "traceEvents[%d]: slice %r [%d, %d] ns overlaps %r [%d, %d] ns on "
                        "track %d/%d without nesting" % (
                            index, event.get("name"), ts_ns, ts_ns + dur, top["event"].get("name"),
                            top["start"], top["end"], track[0], track[1]))
                break
            record = {"track": track, "start": ts_ns, "end": ts_ns + dur, "dur": dur,
                      "event": event, "index": index, "depth": len(stack), "kind": phase}
            stack.append(record)
            if phase == "X":
                slices.append(record)
                by_track.setdefault(track, []).append(record)
                for flow, end in pending.pop(track, []):
                    end[0] = record
            else:
                instants += 1
        elif phase in "iI":
            instants += 1
        elif phase == "C":
            counters += 1
        elif phase in "sft":
            flow = (event["id"], event["cat"], event["name"])
            stack = stacks.get(track) or []
            top = stack[-1] if stack else None
            if phase == "s":
                if flow in flow_starts:
                    problems.add("traceEvents[%d]: a second flow start with id %r" % (
                        index, event["id"]))
                    continue
                flow_starts[flow] = (top, ts_ns, track)
                if top is None:
                    problems.add("traceEvents[%d]: flow start %r binds to no slice on %d/%d"
                                 % (index, event["id"], track[0], track[1]))
            elif phase == "f":
                if flow not in flow_starts:
                    problems.add("traceEvents[%d]: flow finish %r read before any start with "
                                 "that id, cat and name" % (index, event["id"]))
                    continue
                bind_enclosing = event.get("bp") == "e"
                end = [top if bind_enclosing else None, ts_ns, track, bind_enclosing]
                flow_ends.setdefault(flow, []).append(end)
                if bind_enclosing and top is None:
                    problems.add("traceEvents[%d]: flow finish %r binds to no slice on %d/%d"
                                 % (index, event["id"], track[0], track[1]))
                if not bind_enclosing:
                    pending.setdefault(track, []).append((flow, end))

    for flow in flow_starts:
        if flow not in flow_ends:
            problems.add("flow %r starts but never finishes" % (flow,))

    # chrome://tracing binds a flow end to the deepest slice on its track enclosing its time:
    # slices cover [start, end) (a slice without duration covers its start), and of those that
    # enclose a time, nested as they must be, the deepest is the one that starts last.
    def enclosing(track, ts_ns):
        best = None
        for record in by_track.get(track, []):
            if record["start"] <= ts_ns and (ts_ns < record["end"] or record["dur"] == 0
                                             and ts_ns == record["start"]):
                if best is None or (record["start"], -record["end"]) > (best["start"],
                                                                        -best["end"]):
                    best = record
        return best

    def next_slice(track, ts_ns):
        later = [record for record in by_track.get(track, []) if record["start"] >= ts_ns]
        return min(later, key=lambda record: (record["start"], record["index"])) if later else None

    bound = []
    for flow, (source, source_ts, source_track) in flow_starts.items():
        time_source = enclosing(source_track, source_ts)
        if source is not None and time_source is not source:
            problems.add("flow %r: its start binds to %s in Perfetto but to %s by time" % (
                flow, describe(source), describe(time_source)))
        for target, target_ts, track, bind_enclosing in flow_ends.get(flow, []):
            time_target = (enclosing(track, target_ts) if bind_enclosing
                           else next_slice(track, target_ts))
            if target is None:
                problems.add("flow %r: its finish binds to no slice" % (flow,))
                continue
            if time_target is not target:
                problems.add("flow %r: its finish binds to %s in Perfetto but to %s by time" % (
                    flow, describe(target), describe(time_target)))
            if source is not None and source is target:
                problems.add("flow %r joins a slice to itself" % (flow,))
            if source is not None:
                bound.append((source, target))
    return {"slices": slices, "flows": bound, "instants": instants, "counters": counters}


def describe(record):
    if record is None:
        return "no slice"
    return "%r at %d ns on %d/%d" % (record["event"].get("name"), record["start"],
                                     record["track"][0], record["track"][1])


def delivery_of(record):
    args = record["event"].get("args")
    return args.get("delivery") if isinstance(args, dict) else None


def check_expectations(problems, summary, expected, thread_names, process_names):
    slices = summary["slices"]
    if "slices" in expected and len(slices) != expected["slices"]:
        problems.add("%d slices, expected %d" % (len(slices), expected["slices"]))
    if "flows" in expected:
        found = sorted(([delivery_of(source), delivery_of(target)]
                        for source, target in summary["flows"]), key=repr)
        wanted = sorted((list(pair) for pair in expected["flows"]), key=repr)
        if found != wanted:
            found_count = collections.Counter(map(repr, found))
            wanted_count = collections.Counter(map(repr, wanted))
            missing = list((wanted_count - found_count).elements())
            extra = list((found_count - wanted_count).elements())
            problems.add("bound flows differ from the expected cause pairs: missing %s, extra %s"
                         % (missing[:10], extra[:10]))
    if "slice_tracks" in expected:
        for record in slices:
            delivery = delivery_of(record)
            want = expected["slice_tracks"].get(str(delivery))
            name = thread_names.get(record["track"], "")
            if want is None:
                problems.add("slice of delivery %r is not expected" % (delivery,))
            elif name != want and not name.startswith(want + " [overlap "):
                problems.add("slice of delivery %r is on %r, expected %r" % (delivery, name, want))
    for key in ("instants", "counters"):
        if key in expected and summary[key] != expected[key]:
            problems.add("%d %s, expected %d" % (summary[key], key, expected[key]))
    if "processes" in expected:
        names = [process_names[pid] for pid in sorted(process_names)]
        if names != expected["processes"]:
            problems.add("processes %r, expected %r" % (names, expected["processes"]))


def check_file(path):
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return ["not UTF-8: %s" % error], None
    expectations = None
    if path.endswith(".trace.json"):
        sidecar = path[: -len(".trace.json")] + ".expect.json"
        if os.path.exists(sidecar):
            with open(sidecar, encoding="utf-8") as handle:
                expectations = json.load(handle)
    problems, summary = validate(text, expectations)
    return problems.items, (summary, expectations)


def broken_copies(text):
    """Copies of a valid trace, each breaking one rule: (name, text, words the problem that rule
    reports contains)."""
    document = json.loads(text)
    events = document["traceEvents"]
    copies = []

    def variant(name, reason, mutate, needs_slices=False):
        if needs_slices and not slices:
            return
        copy = json.loads(text)
        if mutate(copy) is not False:
            copies.append((name, json.dumps(copy), reason))


    slices = [i for i, event in enumerate(events) if event["ph"] == "X"]
    finishes = [i for i, event in enumerate(events) if event["ph"] == "f"]

    def drop_finish(copy):
        if not finishes:
            return False
        del copy["traceEvents"][finishes[0]]

    def move_finish(copy):
        # To a time no slice of its track covers: after everything else.
        if not finishes:
            return False
        event = copy["traceEvents"][finishes[0]]
        event["ts"] = max(e.get("ts", 0) + e.get("dur", 0) for e in copy["traceEvents"]) + 5

    def rename_finish(copy):
        if not finishes:
            return False
        copy["traceEvents"][finishes[0]]["cat"] = "other"

    def overlap(copy):
        # A slice that starts inside a slice of its track and ends after it.
        target = max(slices, key=lambda i: events[i]["dur"])
        event = dict(events[target])
        event["ts"] = events[target]["ts"] + events[target]["dur"] / 2
        event["dur"] = events[target]["dur"] * 2 + 1
        event["name"] = "overlapping"
        copy["traceEvents"].append(event)

    def drop_thread_name(copy):
        track = (events[slices[0]]["pid"], events[slices[0]]["tid"])
        copy["traceEvents"] = [e for e in copy["traceEvents"] if not (
            e["ph"] == "M" and e["name"] == "thread_name" and (e["pid"], e.get("tid")) == track)]

    def string_dur(copy):
        copy["traceEvents"][slices[0]]["dur"] = "1"

    def negative_dur(copy):
        copy["traceEvents"][slices[0]]["dur"] = -1

    def tid_in_two_processes(copy):
        event = dict(copy["traceEvents"][slices[0]])
        event["pid"] = event["pid"] + 1000
        copy["traceEvents"].append(event)

    def unknown_top_level(copy):
        copy["extra"] = 1

    def bad_unit(copy):
        copy["displayTimeUnit"] = "us"

    def rebind_finish(copy):
        # Structurally fine, but the arrow now ends on another slice of its track: only the
        # expectations catch it.
        for index in finishes:
            event = copy["traceEvents"][index]
            others = [events[i] for i in slices
                      if (events[i]["pid"], events[i]["tid"]) == (event["pid"], event["tid"])
                      and events[i]["ts"] != event["ts"] and events[i]["ts"] > max(
                          e["ts"] for e in events if e["ph"] == "s" and e["id"] == event["id"])]
            if others:
                event["ts"] = others[0]["ts"]
                copy["traceEvents"].sort(key=lambda e: (e.get("ts", -1), e["ph"] != "X"))
                return None
        return False

    def move_slice(copy):
        # A slice on the track of a node without slices: only the expectations catch it when no
        # arrow ends on it.
        used = {(events[i]["pid"], events[i]["tid"]) for i in slices}
        empty = sorted({(e["pid"], e["tid"]) for e in events if e["ph"] == "M"
                        and e["name"] == "thread_name"} - used)
        arrows = {(e["pid"], e["tid"], e["ts"]) for e in events if e["ph"] in "sf"}
        candidates = sorted(slices, key=lambda i: (events[i]["pid"], events[i]["tid"],
                                                   events[i]["ts"]) in arrows)
        if not empty or not candidates:
            return False
        event = copy["traceEvents"][candidates[0]]
        event["pid"], event["tid"] = empty[0]

    def lossy_ts(copy):
        # 1.001 µs reads as 1000.999... ns: Perfetto truncates it to 1000.
        copy["traceEvents"][slices[0]]["ts"] = 1.001

    variant("a flow start without its finish", "never finishes", drop_finish)
    variant("a flow finish outside any slice", "by time", move_finish)
    variant("a flow finish with another category", "read before any start", rename_finish)
    variant("slices overlapping without nesting", "without nesting", overlap, needs_slices=True)
    variant("a track without thread_name", "no thread_name", drop_thread_name, needs_slices=True)
    variant("a string dur", "dur is", string_dur, needs_slices=True)
    variant("a negative dur", "dur is", negative_dur, needs_slices=True)
    variant("a tid in two processes", "is used with pid", tid_in_two_processes, needs_slices=True)
    variant("an unknown top-level key", "unknown top-level key", unknown_top_level)
    variant("displayTimeUnit \"us\"", "displayTimeUnit is", bad_unit)
    variant("a ts that loses a nanosecond", "truncated but", lossy_ts, needs_slices=True)
    variant("an arrow bound to another slice of its track", "bound flows differ",
            rebind_finish)
    variant("a slice on another node's track", "is on", move_slice)
    copies.append(("truncated JSON", text[: len(text) // 2], "not valid JSON"))
    copies.append(("a raw control character in a string",
                   text.replace("\"thread_name\"", "\"thread\u0001name\"", 1), "not valid JSON"))
    return copies


# A small trace every way of breaking applies to: two nested slices joined by an arrow, a second
# slice after them on the outer track, and a track without slices.
EXAMPLE_TRACE = json.dumps({"displayTimeUnit": "ns", "traceEvents": [
    {"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "A.swift"}},
    {"ph": "M", "pid": 1, "tid": 2, "name": "thread_name", "args": {"name": "a"}},
    {"ph": "M", "pid": 1, "tid": 3, "name": "thread_name", "args": {"name": "b"}},
    {"ph": "M", "pid": 1, "tid": 4, "name": "thread_name", "args": {"name": "c"}},
    {"ph": "X", "ts": 0, "dur": 2, "pid": 1, "tid": 2, "name": "x", "args": {"delivery": 1}},
    {"ph": "s", "ts": 0, "pid": 1, "tid": 2, "name": "direct", "cat": "cause", "id": 1},
    {"ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 3, "name": "y", "args": {"delivery": 2}},
    {"ph": "f", "ts": 1, "pid": 1, "tid": 3, "name": "direct", "cat": "cause", "id": 1,
     "bp": "e"},
    {"ph": "X", "ts": 3, "dur": 1, "pid": 1, "tid": 3, "name": "z", "args": {"delivery": 3}},
]})


def self_test(paths):
    """Breaks each valid trace in every way that applies to it; fails unless every broken copy is
    rejected by the rule it breaks, and every way of breaking applied to some trace."""
    applied = collections.Counter()
    failures = 0
    for path in paths:
        result = self_test_one(path, applied)
        if result is None:
            return 1
        failures += result
    names = [name for name, _, _ in broken_copies(EXAMPLE_TRACE)]
    unused = [name for name in names if applied[name] == 0]
    if unused:
        print("self-test: never applied to these traces: %s" % ", ".join(unused))
        return 1
    if failures:
        print("self-test: %d broken traces were not rejected for what broke them" % failures)
        return 1
    print("self-test: all %d broken traces were rejected (%d ways of breaking, %d traces)" % (
        sum(applied.values()), len(names), len(paths)))
    return 0


def self_test_one(path, applied):
    """Returns how many broken copies of `path` were missed, or None if it is invalid."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    expectations = None
    sidecar = path[: -len(".trace.json")] + ".expect.json"
    if path.endswith(".trace.json") and os.path.exists(sidecar):
        with open(sidecar, encoding="utf-8") as handle:
            expectations = json.load(handle)
    problems, _ = validate(text, expectations)
    if problems:
        print("self-test: %s is not valid to start with:" % path)
        for problem in problems.items:
            print("  " + problem)
        return None
    failures = 0
    for name, broken, reason in broken_copies(text):
        applied[name] += 1
        problems, _ = validate(broken, expectations)
        caught = [problem for problem in problems.items if reason in problem]
        if caught:
            print("self-test: %s: rejected %s: %s" % (os.path.basename(path), name, caught[0]))
        else:
            print("self-test: %s: MISSED %s (no problem says %r; found %s)" % (
                os.path.basename(path), name, reason, problems.items[:2]))
            failures += 1
    return failures


def main(arguments):
    if len(arguments) >= 2 and arguments[0] == "--self-test":
        return self_test(arguments[1:])
    if not arguments or arguments[0].startswith("-"):
        print(__doc__)
        return 2
    failed = 0
    for path in arguments:
        problems, (summary, expectations) = check_file(path)
        if problems:
            failed += 1
            print("INVALID %s" % path)
            for problem in problems:
                print("  " + problem)
            continue
        print("valid %s: %d slices, %d flows bound, %d instants, %d counter samples%s" % (
            path, len(summary["slices"]), len(summary["flows"]), summary["instants"],
            summary["counters"], ", as expected" if expectations is not None else ""))
    print("%d of %d trace files valid" % (len(arguments) - failed, len(arguments)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
