import Foundation
import Streams
import StreamsTrace
import Testing

/// Every trace is read back with Foundation's `JSONSerialization`, and its slices, arrows and
/// instants are replayed the way Perfetto's JSON importer reads them (in time order, each arrow
/// end bound to the topmost slice open on its track) and the way `chrome://tracing` binds arrows
/// (the deepest slice enclosing the time). With `STREAMS_EXPORT_DIR` set, each trace is also
/// written there as `NAME.trace.json`, with what the test expects of it in `NAME.expect.json`,
/// for `.ci/check-perfetto-exports.sh` to check.
@Suite("TraceGraph Chrome trace export", .serialized)
struct TraceGraphPerfettoTests {
  // MARK: Hand-made graphs

  @Test("one process per file, one thread per node, named and sorted by line")
  func tracks() throws {
    let graph = chromeTwoFiles
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-two-files", trace, graph)
    #expect(trace.processNames == [1: "App/Feed.swift", 2: "App/Header.swift"])
    #expect(trace.processSortIndex == [1: 1, 2: 2])
    let names = trace.threadNames
    #expect(
      names == [
        ChromeTrack(1, 3): "Feed.items (PublishSubject App/Feed.swift:10, FeedViewModel) #1",
        ChromeTrack(1, 4): "map App/Feed.swift:12 (FeedViewModel) #2",
        ChromeTrack(2, 5): "BehaviorRelay App/Header.swift:3 (Header) #4",
        ChromeTrack(2, 6): "subscribe App/Header.swift:5 (Header) #3",
      ])
    #expect(
      trace.threadSortIndex == [
        ChromeTrack(1, 3): 1, ChromeTrack(1, 4): 2, ChromeTrack(2, 5): 3, ChromeTrack(2, 6): 4,
      ])
    #expect(trace.displayTimeUnit == "ns")
    #expect(trace.clockBase == "1000000")
  }

  @Test("a slice per delivery on the receiver's track, timed to the nanosecond, with its args")
  func slices() throws {
    let graph = chromeTwoFiles
    let trace = try ChromeTraceReading(graph.chromeTrace())
    #expect(trace.slices.count == graph.deliveries.count)
    let byDelivery = Dictionary(uniqueKeysWithValues: trace.slices.map { ($0.delivery, $0) })
    let expected: [(UInt64, ChromeTrack, Int64, Int64, String, String)] = [
      (10, ChromeTrack(1, 3), 0, 1700, "next: a", "effects"),
      (11, ChromeTrack(1, 4), 250, 1700, "next: a", "effects"),
      (12, ChromeTrack(2, 6), 400, 1700, "next: A", "effects"),
      (13, ChromeTrack(2, 5), 700, 1700, "next: A", "minimum"),
      (14, ChromeTrack(1, 3), 5000, 6100, "completed", "effects"),
      (15, ChromeTrack(1, 4), 5100, 6100, "completed", "minimum"),
    ]
    for (id, track, start, end, name, ending) in expected {
      let slice = try #require(byDelivery[id])
      #expect(slice.track == track, "delivery \(id)")
      #expect(slice.start == start && slice.end == end, "delivery \(id): \(slice)")
      #expect(slice.name == name)
      #expect(slice.args["end"] as? String == ending, "delivery \(id)")
    }
    let send = try #require(byDelivery[13])
    #expect(send.args["from"] as? Int == 3)
    #expect(send.args["to"] as? Int == 4)
    #expect(send.args["cause"] as? Int == 12)
    #expect(send.args["hop"] as? String == "direct")
    #expect(send.args["thread"] as? Int == 1)
    #expect(send.args["time_ns"] as? Int == 1_000_700)
    #expect(send.args["value"] as? String == "A")
    #expect(send.args["from_node"] as? String == "subscribe App/Header.swift:5 (Header)")
    #expect(byDelivery[10]?.args["cause"] == nil)
    #expect(byDelivery[14]?.args["value"] == nil)
  }

  @Test("durations: until the last effect on the thread, cut by the next delivery, else 1 µs")
  func durations() throws {
    let graph = chromeDurationGraph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-durations", trace, graph)
    let byDelivery = Dictionary(uniqueKeysWithValues: trace.slices.map { ($0.delivery, $0) })
    let expected: [(UInt64, Int64, Int64, String)] = [
      (1, 0, 1500, "effects"),  // the root: until C, the last it caused directly
      (2, 200, 500, "next"),  // A: C starts at 500, so A had returned
      (3, 300, 500, "next"),  // B: inside A, cut by C too
      (4, 500, 1500, "minimum"),  // C: 1 µs
      (5, 4000, 5000, "minimum"),  // D: after a hop to thread 2, not inside C
      (6, 9000, 10000, "minimum"),  // E: another root
    ]
    for (id, start, end, ending) in expected {
      let slice = try #require(byDelivery[id])
      #expect(slice.start == start && slice.end == end, "delivery \(id): \(slice)")
      #expect(slice.args["end"] as? String == ending, "delivery \(id)")
    }
    try expectConsistent(trace, graph)
  }

  @Test("readings that tie are spread 1 ns apart in order, so a re-entrant send still nests")
  func ties() throws {
    let graph = chromeTiedGraph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-ties", trace, graph)
    let starts = graph.deliveries.map { delivery in
      trace.slices.first { $0.delivery == delivery.id }?.start
    }
    #expect(starts == [0, 1, 2, 3])
    // Both sends into the subject are on its track, the second inside the first.
    let subject = trace.slices.filter { $0.track == ChromeTrack(1, 2) }
    #expect(subject.map(\.delivery) == [1, 3])
    #expect(subject.map(\.end) == [1003, 1003])
    try expectConsistent(trace, graph)
  }

  @Test("an arrow per cause, a fan-out draws several, and both ends bind to the right slices")
  func flows() throws {
    let graph = chromeFanOutGraph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-fan-out", trace, graph)
    #expect(trace.flowStarts.count == 5)
    #expect(trace.flowEnds.count == 5)
    let pairs = try trace.boundFlows()
    #expect(pairs == [[1, 2], [1, 3], [1, 4], [3, 5], [5, 6]])
    #expect(Set(trace.flowStarts.values.map(\.name)) == ["direct", "scheduler"])
    #expect(try trace.timeBoundFlows() == pairs)
    try expectConsistent(trace, graph)
  }

  @Test("deliveries to one node on two threads at once go to an overlap track")
  func overlapLanes() throws {
    let graph = chromeConcurrentGraph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-overlap", trace, graph)
    let first = try #require(trace.slices.first { $0.delivery == 1 })
    let second = try #require(trace.slices.first { $0.delivery == 2 })
    #expect(first.start == 0 && first.end == 1000)
    #expect(second.start == 500 && second.end == 2700)
    #expect(first.track != second.track && first.track.pid == second.track.pid)
    let label = "PublishSubject A.swift:1 #1"
    #expect(trace.threadNames[first.track] == label)
    #expect(trace.threadNames[second.track] == label + " [overlap 2]")
    try expectConsistent(trace, graph)
  }

  @Test("subscribe instants at the edges' times; counters where the live count is known")
  func subscriptions() throws {
    let graph = chromeSubscriptionGraph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-subscriptions", trace, graph)
    let instants = trace.instants.map { "\($0.time) \($0.track.tid) \($0.name)" }
    // The subscriber's track: node n is on tid n + 1 (one process, tids after the pid).
    #expect(
      instants == [
        "0 6 subscribe to interval A.swift:7",
        "500 4 subscribe to node #8",
        "600 4 subscribe to node #8 (latest of 2)",
        "1000 3 subscribe to S A.swift:1",
        "1500 4 subscribe to map A.swift:2",
        "2000 5 subscribe to S A.swift:1",
        "2500 6 subscribe (control) to PublishSubject A.swift:6",
        "3000 5 subscribe to S A.swift:1 (latest of 2)",
        "5000 6 subscribe to interval A.swift:7 (latest of 3)",
      ])
    let leak = try #require(trace.instants.first { $0.name == "subscribe to map A.swift:2" })
    #expect(leak.args["owner"] as? String == "Screen")
    #expect(leak.args["ownerGone"] as? Bool == true)
    #expect(leak.args["subscriptions"] as? Int == 1)
    #expect(leak.args["which"] as? String == "first")
    // Nodes 7 (three subscriptions), 8 (one disposed), 9 (no time) and 3, 4, 5 (never
    // subscribed to) get no counter.
    let counters = trace.counters.map { "\($0.name) \($0.time)=\($0.live)" }
    #expect(
      counters == [
        "S #1 subscriptions 0=0", "map #2 subscriptions 0=0",
        "PublishSubject #6 subscriptions 0=0", "S #1 subscriptions 1000=1",
        "map #2 subscriptions 1500=1", "S #1 subscriptions 2000=2",
        "PublishSubject #6 subscriptions 2500=1", "S #1 subscriptions 3000=3",
      ])
    #expect(trace.counters.allSatisfy { trace.threadNames[$0.track] != nil })
    try expectConsistent(trace, graph)
  }

  @Test("hostile names and values are escaped, and read back exactly")
  func hostileStrings() throws {
    let graph = chromeHostileGraph
    let text = graph.chromeTrace()
    let trace = try ChromeTraceReading(text)
    try chromeExport("hostile", trace, graph)
    #expect(trace.processNames[1] == chromeAwkward)
    #expect(
      trace.threadNames.values.contains(
        "\(chromeAwkward) (\(chromeAwkward) \(chromeAwkward):7, \(chromeAwkward)) #1"))
    let slice = try #require(trace.slices.first)
    #expect(slice.args["value"] as? String == chromeLongAwkward)
    #expect(slice.name == "next: " + chromeLongAwkward.prefix(100) + "…")
    #expect(
      slice.args["from_node"] as? String
        == "\(chromeAwkward) (\(chromeAwkward) \(chromeAwkward):7, \(chromeAwkward))")
    // The raw text escapes every control character, as the dump escapes strings.
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let dump = TraceGraph(
      nodes: [.init(id: 1, kind: chromeAwkward, role: .source, file: "", line: 0)]
    ).dump()
    let kind = try #require(dump.range(of: #""kind":""#))
    let role = try #require(dump.range(of: #"","role":"#))
    #expect(text.contains(dump[kind.upperBound..<role.lowerBound]))
    #expect(text.contains(#"\u0000\u0001\b\t\n\u000b\f\r\u001b\u001f"#))
    try expectConsistent(trace, graph)
  }

  @Test("an empty graph is an empty trace")
  func empty() throws {
    let trace = try ChromeTraceReading(TraceGraph().chromeTrace())
    #expect(trace.events.isEmpty)
    #expect(trace.clockBase == "0")
  }

  @Test("receivers the nodes lack get a track in a process of their own")
  func strangers() throws {
    let graph = TraceGraph(
      nodes: [.init(id: 1, kind: "PublishSubject", role: .subject, file: "A.swift", line: 1)],
      edges: [.init(from: 1, to: 42, kind: .subscription, count: 1, live: 1, firstTime: 10)],
      deliveries: [
        .init(id: 1, from: 1, to: 1, event: .next, time: 20),
        .init(id: 2, from: 1, to: 7, event: .next, cause: 1, time: 30),
      ])
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-strangers", trace, graph)
    #expect(trace.processNames == [1: "A.swift", 2: "(not in the graph)"])
    let stranger = try #require(trace.slices.first { $0.delivery == 2 })
    #expect(trace.threadNames[stranger.track] == "node #7 (not in the graph)")
    #expect(trace.instants.map { trace.threadNames[$0.track] } == ["node #42 (not in the graph)"])
    try expectConsistent(trace, graph)
  }

  @Test("malformed causes and extreme ids draw no wrong arrow and do not trap")
  func malformed() throws {
    let big = UInt64.max
    let graph = TraceGraph(
      nodes: [
        .init(id: 1, kind: "PublishSubject", role: .subject, file: "A.swift", line: 1),
        .init(id: 1, kind: "duplicate", role: .operator, file: "B.swift", line: 2),
        .init(id: big, kind: "map", role: .operator, file: "A.swift", line: 3),
      ],
      deliveries: [
        .init(id: 1, from: 1, to: 1, event: .next, cause: 1, time: 100),  // its own cause
        .init(id: 2, from: 1, to: big, event: .next, cause: 99, time: 200),  // cause not held
        .init(id: 3, from: 1, to: 1, event: .next, cause: 4, time: 300),  // cause timed later
        .init(id: 4, from: 1, to: big, event: .next, time: 400),
        .init(id: 4, from: 1, to: big, event: .error, cause: 1, time: 500),  // repeated id
        .init(id: big, from: big, to: 1, event: .completed, cause: 4, time: 600),
      ])
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-malformed", trace, graph)
    #expect(trace.processNames == [1: "A.swift"])
    #expect(trace.threadNames.count == 2)
    #expect(trace.slices.count == 6)
    #expect(try trace.boundFlows() == [[1, 4], [4, big]])
    let last = try #require(trace.slices.last)
    #expect(last.args["delivery"] as? String == String(big))
    #expect(last.args["from"] as? String == String(big))
    try expectConsistent(trace, graph)

    let extreme = TraceGraph(
      nodes: [.init(id: 1, kind: "map", role: .operator, file: "A.swift", line: 1)],
      deliveries: [
        .init(id: 1, from: 1, to: 1, event: .next, time: 0),
        .init(id: 2, from: 1, to: 1, event: .next, cause: 1, time: .max),
        .init(id: 3, from: 1, to: 1, event: .next, cause: 2, time: .max),
      ])
    let read = try ChromeTraceReading(extreme.chromeTrace())
    #expect(read.slices.count == 3)
  }

  @Test("times read back to the nanosecond as Perfetto reads them: µs × 1000, truncated")
  func exactTimes() throws {
    // 3001 deliveries 7 ns apart: every fraction of a microsecond a reading can end in, some of
    // which (1.001 µs) a double carries only as 1000.999… ns.
    let deliveries = (0...3000).map { index in
      TraceGraph.Delivery(
        id: UInt64(index + 1), from: 1, to: 1, event: .next, time: 5_000_000_000 + UInt64(index) * 7
      )
    }
    let graph = TraceGraph(
      nodes: [.init(id: 1, kind: "interval", role: .source, file: "A.swift", line: 1)],
      deliveries: deliveries)
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("handmade-exact-times", trace, graph)
    #expect(trace.inexactTimes.isEmpty, "\(trace.inexactTimes.prefix(5))")
    try expectConsistent(trace, graph)
    for slice in trace.slices {
      #expect(slice.start == Int64(slice.delivery - 1) * 7)
      // Each is cut by the next on the thread; the last lasts the minimal 1 µs.
      #expect(slice.end == slice.start + (slice.delivery == 3001 ? 1000 : 7))
    }
    #expect(trace.slices.count == 3001)
  }

  // MARK: The Sprawl fixture

  @Test("the Sprawl fixture with a timeline: every delivery, arrow and subscription")
  func sprawlTimeline() throws {
    let sprawl = TraceRecorderTests.Sprawl(configuration: TraceConfiguration(timeline: true))
    let graph = sprawl.graph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("sprawl-timeline", trace, graph)
    try expectConsistent(trace, graph)
    #expect(trace.slices.count > 20)
    #expect(trace.flowStarts.count == chromeExpectedFlows(graph).count)
    #expect(trace.processNames.count == 5)
    // The user's action is one slice on the selection relay, and everything it set off on the
    // thread runs inside it.
    let selection = sprawl.node("PublishSubject", owner: "CatalogViewModel")
    let root = try #require(
      graph.deliveries.first { $0.cause == nil && $0.to == selection.id && $0.from == $0.to })
    let rootSlice = try #require(trace.slices.first { $0.delivery == root.id })
    let chain = try #require(graph.chain(of: root.id))
    for delivery in chain.deliveries where delivery.thread == root.thread {
      let slice = try #require(trace.slices.first { $0.delivery == delivery.id })
      #expect(slice.start >= rootSlice.start && slice.end <= rootSlice.end)
    }
    #expect(rootSlice.args["end"] as? String == "effects")
    // The cycle: analytics sends into the selection relay inside the selection's own delivery,
    // so the relay's track holds a slice inside a slice.
    let relay = trace.slices.filter { $0.args["to"] as? Int == Int(selection.id) }
    #expect(relay.count == 2)
    #expect(relay[1].start > relay[0].start && relay[1].end <= relay[0].end)
    #expect(!trace.instants.isEmpty)
    #expect(!trace.counters.isEmpty)
  }

  @Test("the Sprawl fixture as recorded by default: the sends into subjects and relays")
  func sprawlSends() throws {
    let sprawl = TraceRecorderTests.Sprawl()
    let graph = sprawl.graph
    let trace = try ChromeTraceReading(graph.chromeTrace())
    try chromeExport("sprawl-sends", trace, graph)
    try expectConsistent(trace, graph)
    let subjects = Set(graph.nodes.filter { $0.role == .subject }.map(\.id))
    #expect(
      trace.slices.allSatisfy { slice in
        (slice.args["to"] as? Int).map { subjects.contains(UInt64($0)) } ?? false
      })
    #expect(trace.flowStarts.count == chromeExpectedFlows(graph).count)
    #expect(trace.flowStarts.count >= 7)
  }

  // MARK: Checks every trace passes

  /// Checks what every trace of `graph` must satisfy, as a consumer reads it.
  private func expectConsistent(_ trace: ChromeTraceReading, _ graph: TraceGraph) throws {
    #expect(trace.inexactTimes.isEmpty, "\(trace.inexactTimes.prefix(5))")
    #expect(trace.unsortedEvents.isEmpty, "\(trace.unsortedEvents.prefix(5))")
    #expect(trace.overlaps.isEmpty, "\(trace.overlaps.prefix(5))")
    #expect(trace.keyOrderProblems.isEmpty, "\(trace.keyOrderProblems.prefix(5))")
    // Tracks: one pid per file, one tid per track, never a pid.
    var files: [String] = []
    var ids: Set<UInt64> = []
    for node in graph.nodes where ids.insert(node.id).inserted && !files.contains(node.file) {
      files.append(node.file)
    }
    #expect(
      Array(trace.processNames.values.sorted().filter { $0 != "(not in the graph)" })
        == files.sorted())
    #expect(Set(trace.threadNames.keys.map(\.tid)).isDisjoint(with: trace.processNames.keys))
    #expect(Set(trace.threadNames.keys.map(\.tid)).count == trace.threadNames.count)
    for id in ids {
      #expect(trace.threadNames.values.contains(chromeLabel(graph, id)), "node \(id)")
    }
    // A slice per delivery, on its receiver's track (or an overlap track of it).
    #expect(trace.slices.count == graph.deliveries.count)
    #expect(trace.slices.map(\.delivery).sorted() == graph.deliveries.map(\.id).sorted())
    for slice in trace.slices {
      let name = try #require(trace.threadNames[slice.track])
      let receiver = try #require(ChromeTraceReading.id(slice.args["to"]))
      let expected = chromeLabel(graph, receiver)
      #expect(name == expected || name.hasPrefix(expected + " [overlap "), "\(slice)")
      #expect(slice.end >= slice.start)
    }
    // Slices start in the order the deliveries happened (by time, then id), each at a time of
    // its own, at its recorded time or just after.
    let base = Int64(trace.clockBase ?? "") ?? -1
    let ordered = graph.deliveries.sorted { ($0.time, $0.id) < ($1.time, $1.id) }
    var slicesByID = Dictionary(grouping: trace.slices, by: \.delivery)
      .mapValues { $0.sorted { $0.start < $1.start } }
    var startsInOrder: [Int64] = []
    for delivery in ordered {
      let slice = try #require(slicesByID[delivery.id]?.first, "no slice for #\(delivery.id)")
      slicesByID[delivery.id]?.removeFirst()
      startsInOrder.append(slice.start)
      #expect(slice.args["time_ns"] as? Int == Int(delivery.time))
      let recorded = Int64(delivery.time) - base
      #expect(slice.start >= recorded && slice.start - recorded < Int64(ordered.count))
    }
    #expect(zip(startsInOrder, startsInOrder.dropFirst()).allSatisfy { $0 < $1 })
    // Every arrow joins a cause to its effect, bound the same way by Perfetto and by time.
    let flows = try trace.boundFlows()
    #expect(flows == chromeExpectedFlows(graph))
    #expect(try trace.timeBoundFlows() == flows)
    #expect(trace.instants.count == chromeExpectedInstants(graph))
  }
}

// MARK: - Expectations

/// A node's track name, as the trace names it.
private func chromeLabel(_ graph: TraceGraph, _ id: UInt64) -> String {
  guard graph.nodes.contains(where: { $0.id == id }) else {
    return "node #\(id) (not in the graph)"
  }
  return graph.describe(node: id) + " #\(id)"
}

/// The (cause, effect) delivery ids of the arrows: every delivery whose cause the graph holds
/// (its first entry of that id) and happened before it, by time, then id, then position.
private func chromeExpectedFlows(_ graph: TraceGraph) -> [[UInt64]] {
  var positions: [UInt64: Int] = [:]
  for (position, delivery) in graph.deliveries.enumerated() where positions[delivery.id] == nil {
    positions[delivery.id] = position
  }
  var pairs: [[UInt64]] = []
  for (position, delivery) in graph.deliveries.enumerated() {
    guard let cause = delivery.cause, let parent = positions[cause], parent != position else {
      continue
    }
    let before = graph.deliveries[parent]
    if (before.time, before.id, parent) < (delivery.time, delivery.id, position) {
      pairs.append([cause, delivery.id])
    }
  }
  return pairs.sorted { $0.lexicographicallyPrecedes($1) }
}

/// One instant per subscription or control edge with a first time, and one more for its last
/// time when it counts two or more subscriptions.
private func chromeExpectedInstants(_ graph: TraceGraph) -> Int {
  graph.edges.reduce(0) { count, edge in
    guard edge.kind == .subscription || edge.kind == .control, edge.firstTime > 0 else {
      return count
    }
    let latest = edge.count >= 2 && edge.lastTime > 0 && edge.lastTime != edge.firstTime
    return count + (latest ? 2 : 1)
  }
}

/// Writes the trace and what a consumer must find in it to `STREAMS_EXPORT_DIR`, if set.
private func chromeExport(_ name: String, _ trace: ChromeTraceReading, _ graph: TraceGraph) throws {
  guard let directory = ProcessInfo.processInfo.environment["STREAMS_EXPORT_DIR"],
    !directory.isEmpty
  else { return }
  let folder = URL(fileURLWithPath: directory, isDirectory: true)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try trace.text.write(
    to: folder.appendingPathComponent("\(name).trace.json"), atomically: true, encoding: .utf8)
  var tracks: [String: String] = [:]
  for delivery in graph.deliveries {
    tracks[String(delivery.id)] = chromeLabel(graph, delivery.to)
  }
  // The files in the order their first nodes come, then one process for nodes the graph lacks.
  var processes: [String] = []
  var known: Set<UInt64> = []
  for node in graph.nodes where known.insert(node.id).inserted && !processes.contains(node.file) {
    processes.append(node.file)
  }
  let subscribers = graph.edges.filter {
    ($0.kind == .subscription || $0.kind == .control) && $0.firstTime > 0
  }.map(\.to)
  if !(graph.deliveries.map(\.to) + subscribers).allSatisfy(known.contains) {
    processes.append("(not in the graph)")
  }
  let expectations: [String: Any] = [
    "slices": graph.deliveries.count,
    "flows": chromeExpectedFlows(graph).map { $0.map { $0 <= 1 << 53 ? $0 as Any : String($0) } },
    "slice_tracks": tracks,
    "instants": chromeExpectedInstants(graph),
    "processes": processes,
  ]
  let data = try JSONSerialization.data(
    withJSONObject: expectations, options: [.sortedKeys, .prettyPrinted])
  try data.write(to: folder.appendingPathComponent("\(name).expect.json"))
}

// MARK: - Reading a trace back

/// A process and thread.
private struct ChromeTrack: Hashable, CustomStringConvertible {
  var pid: Int
  var tid: Int

  init(_ pid: Int, _ tid: Int) {
    self.pid = pid
    self.tid = tid
  }

  var description: String { "\(pid)/\(tid)" }
}

/// A trace read back with `JSONSerialization`, with its slices, arrows, instants and counters
/// replayed as Perfetto's JSON importer reads them.
private struct ChromeTraceReading {
  struct Slice: CustomStringConvertible {
    var index: Int
    var track: ChromeTrack
    var start: Int64
    var end: Int64
    var name: String
    var args: [String: Any]
    var delivery: UInt64

    var description: String { "#\(delivery) \(name) [\(start), \(end)] on \(track)" }
  }

  struct FlowEnd {
    var index: Int
    var track: ChromeTrack
    var time: Int64
    var name: String
    var category: String
  }

  struct Instant {
    var index: Int
    var track: ChromeTrack
    var time: Int64
    var name: String
    var args: [String: Any]
  }

  struct Counter {
    var track: ChromeTrack
    var time: Int64
    var name: String
    var live: Int
  }

  let text: String
  let events: [[String: Any]]
  var displayTimeUnit: String?
  var clockBase: String?
  var processNames: [Int: String] = [:]
  var processSortIndex: [Int: Int] = [:]
  var threadNames: [ChromeTrack: String] = [:]
  var threadSortIndex: [ChromeTrack: Int] = [:]
  var slices: [Slice] = []
  var flowStarts: [Int: FlowEnd] = [:]
  var flowEnds: [Int: FlowEnd] = [:]
  var instants: [Instant] = []
  var counters: [Counter] = []
  /// Times whose truncated and rounded nanoseconds differ.
  var inexactTimes: [String] = []
  /// Events out of Perfetto's reading order.
  var unsortedEvents: [String] = []
  /// Slices overlapping without nesting on one track.
  var overlaps: [String] = []
  /// Timed events whose `ts` is not the second key.
  var keyOrderProblems: [String] = []
  /// The slice (position in `slices`) each arrow's start and finish bind to in Perfetto.
  var perfettoBinding: [Int: (source: Int?, target: Int?)] = [:]

  init(_ text: String) throws {
    self.text = text
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let root = try #require(object as? [String: Any])
    displayTimeUnit = root["displayTimeUnit"] as? String
    clockBase = (root["otherData"] as? [String: Any])?["clockBaseNs"] as? String
    events = try #require(root["traceEvents"] as? [[String: Any]])
    for line in text.split(separator: "\n") where line.hasPrefix("{\"ph\":\"") {
      if !line.hasPrefix("{\"ph\":\"M\""), !line.dropFirst(8).hasPrefix("\",\"ts\":") {
        keyOrderProblems.append(String(line))
      }
    }
    try read()
    replay()
  }

  /// Nanoseconds as Perfetto reads microseconds: × 1000, truncated.
  private mutating func nanoseconds(_ value: Any?, _ what: String) throws -> Int64 {
    let number = try #require(value as? NSNumber, "\(what) is not a number")
    let scaled = number.doubleValue * 1000
    if scaled.rounded(.towardZero) != scaled.rounded() {
      inexactTimes.append("\(what): \(number)")
    }
    guard let nanoseconds = Int64(exactly: scaled.rounded(.towardZero)) else {
      inexactTimes.append("\(what): \(number) is out of range")
      return .max
    }
    return nanoseconds
  }

  private func track(_ event: [String: Any]) throws -> ChromeTrack {
    ChromeTrack(try #require(event["pid"] as? Int), try #require(event["tid"] as? Int))
  }

  private mutating func read() throws {
    var lastKey: (Int64, Int64, Int)?
    for (index, event) in events.enumerated() {
      let phase = try #require(event["ph"] as? String)
      let args = event["args"] as? [String: Any] ?? [:]
      if phase == "M" {
        let pid = try #require(event["pid"] as? Int)
        switch event["name"] as? String {
        case "process_name": processNames[pid] = args["name"] as? String
        case "process_sort_index": processSortIndex[pid] = args["sort_index"] as? Int
        case "thread_name": threadNames[try track(event)] = args["name"] as? String
        case "thread_sort_index": threadSortIndex[try track(event)] = args["sort_index"] as? Int
        default: Issue.record("unknown metadata \(event)")
        }
        continue
      }
      let time = try nanoseconds(event["ts"], "ts of event \(index)")
      let name = try #require(event["name"] as? String)
      var key = Int64.max
      switch phase {
      case "X":
        let duration = try nanoseconds(event["dur"], "dur of event \(index)")
        key = .max - duration
        slices.append(
          Slice(
            index: index, track: try track(event), start: time, end: time + duration,
            name: name, args: args,
            delivery: try #require(Self.id(args["delivery"]), "slice without a delivery")))
      case "s", "f":
        let end = FlowEnd(
          index: index, track: try track(event), time: time, name: name,
          category: try #require(event["cat"] as? String))
        let id = try #require(event["id"] as? Int)
        if phase == "s" {
          #expect(flowStarts.updateValue(end, forKey: id) == nil, "flow \(id) starts twice")
        } else {
          #expect(flowEnds.updateValue(end, forKey: id) == nil, "flow \(id) ends twice")
          #expect(event["bp"] as? String == "e", "flow \(id) binds to the enclosing slice")
        }
      case "i":
        #expect(event["s"] as? String == "t")
        instants.append(
          Instant(index: index, track: try track(event), time: time, name: name, args: args))
      case "C":
        counters.append(
          Counter(
            track: try track(event), time: time, name: name,
            live: try #require(args["live"] as? Int)))
      default:
        Issue.record("unexpected phase \(phase)")
      }
      // Perfetto reads events by time; at one time, the longest slice first, then the rest in
      // file order.
      let current = (time, key, index)
      if let lastKey, lastKey > current {
        unsortedEvents.append("event \(index) at \(time) ns after one at \(lastKey.0) ns")
      }
      lastKey = current
    }
  }

  /// Replays the events in file order (Perfetto's reading order, checked in `read()`): a slice
  /// or thread instant first closes the slices of its track that ended, then opens; an arrow
  /// end binds to the topmost open slice of its track.
  private mutating func replay() {
    var opened: [Int: (slice: Int?, track: ChromeTrack, start: Int64, end: Int64)] = [:]
    for (position, slice) in slices.enumerated() {
      opened[slice.index] = (position, slice.track, slice.start, slice.end)
    }
    for instant in instants {
      opened[instant.index] = (nil, instant.track, instant.time, instant.time)
    }
    var arrowEnds: [Int: (id: Int, start: Bool, track: ChromeTrack)] = [:]
    for (id, start) in flowStarts {
      arrowEnds[start.index] = (id, true, start.track)
    }
    for (id, end) in flowEnds {
      arrowEnds[end.index] = (id, false, end.track)
    }
    var stacks: [ChromeTrack: [(slice: Int?, start: Int64, end: Int64)]] = [:]
    for index in events.indices {
      if let (slice, track, start, end) = opened[index] {
        var stack = stacks[track] ?? []
        while let top = stack.last {
          let bothInstants = top.end == top.start && end == start
          if top.end < start || (top.end == start && !bothInstants) {
            stack.removeLast()
            continue
          }
          if start < top.end && end > top.end {
            overlaps.append("event \(index) [\(start), \(end)] overlaps [\(top.start), \(top.end)]")
          }
          break
        }
        stack.append((slice, start, end))
        stacks[track] = stack
      } else if let arrow = arrowEnds[index] {
        let top = stacks[arrow.track]?.last?.slice
        if arrow.start {
          perfettoBinding[arrow.id, default: (nil, nil)].source = top
        } else {
          perfettoBinding[arrow.id, default: (nil, nil)].target = top
        }
      }
    }
  }

  /// The (cause, effect) delivery ids of the arrows as Perfetto binds them, sorted.
  func boundFlows() throws -> [[UInt64]] {
    #expect(Set(flowStarts.keys) == Set(flowEnds.keys), "every start has a finish")
    var pairs: [[UInt64]] = []
    for (id, binding) in perfettoBinding {
      let source = try #require(binding.source, "flow \(id) starts on no slice")
      let target = try #require(binding.target, "flow \(id) finishes on no slice")
      #expect(source != target)
      #expect(flowStarts[id]?.name == flowEnds[id]?.name)
      #expect(flowStarts[id]?.category == flowEnds[id]?.category)
      #expect(try #require(flowStarts[id]).index < (try #require(flowEnds[id])).index)
      pairs.append([slices[source].delivery, slices[target].delivery])
    }
    return pairs.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The (cause, effect) delivery ids of the arrows as `chrome://tracing` binds them: the
  /// deepest slice on the track that encloses the time (the latest-starting one, as they nest),
  /// slices covering [start, end), or their start when they last no time.
  func timeBoundFlows() throws -> [[UInt64]] {
    func enclosing(_ end: FlowEnd) throws -> Slice {
      let candidates = slices.filter {
        $0.track == end.track && $0.start <= end.time
          && (end.time < $0.end || $0.start == $0.end && end.time == $0.start)
      }
      return try #require(candidates.max { ($0.start, -$0.end) < ($1.start, -$1.end) })
    }
    var pairs: [[UInt64]] = []
    for (id, start) in flowStarts {
      let end = try #require(flowEnds[id])
      pairs.append([try enclosing(start).delivery, try enclosing(end).delivery])
    }
    return pairs.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// A delivery id from the args: a number, or a string of digits above 2^53.
  static func id(_ value: Any?) -> UInt64? {
    if let string = value as? String { return UInt64(string) }
    return (value as? NSNumber)?.uint64Value
  }
}

// MARK: - Fixtures

/// Two files, a named subject, a chain through a map and a terminal into a relay, then a
/// completion.
private let chromeTwoFiles = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: "PublishSubject", role: .subject, file: "App/Feed.swift", line: 10,
      owner: "FeedViewModel", name: "Feed.items"),
    .init(
      id: 2, kind: "map", role: .operator, file: "App/Feed.swift", line: 12,
      owner: "FeedViewModel", upstreams: [1]),
    .init(
      id: 3, kind: "subscribe", role: .terminal, file: "App/Header.swift", line: 5,
      owner: "Header", upstreams: [2]),
    .init(
      id: 4, kind: "BehaviorRelay", role: .subject, file: "App/Header.swift", line: 3,
      owner: "Header"),
  ],
  edges: [.init(from: 1, to: 2, kind: .subscription, count: 1, live: 1)],
  deliveries: [
    .init(id: 10, from: 1, to: 1, event: .next, time: 1_000_000, value: "a"),
    .init(id: 11, from: 1, to: 2, event: .next, cause: 10, time: 1_000_250, value: "a"),
    .init(id: 12, from: 2, to: 3, event: .next, cause: 11, time: 1_000_400, value: "A"),
    .init(id: 13, from: 3, to: 4, event: .next, cause: 12, time: 1_000_700, value: "A"),
    .init(id: 14, from: 1, to: 1, event: .completed, time: 1_005_000),
    .init(id: 15, from: 1, to: 2, event: .completed, cause: 14, time: 1_005_100),
  ])

private func chromeChainNodes(_ kinds: [String]) -> [TraceGraph.Node] {
  kinds.enumerated().map { index, kind in
    TraceGraph.Node(
      id: UInt64(index + 1), kind: kind, role: index == 0 ? .subject : .operator,
      file: "A.swift", line: UInt(index + 1))
  }
}

/// R sets off A (which sets off B) and C on its thread, C hops D to thread 2; E comes later.
private let chromeDurationGraph = TraceGraph(
  nodes: chromeChainNodes(["PublishSubject", "map", "filter", "observe(on:)", "subscribe"]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, time: 1000),
    .init(id: 2, from: 1, to: 2, event: .next, cause: 1, time: 1200),
    .init(id: 3, from: 2, to: 3, event: .next, cause: 2, time: 1300),
    .init(id: 4, from: 1, to: 4, event: .next, cause: 1, time: 1500),
    .init(id: 5, from: 4, to: 5, event: .next, cause: 4, hop: .scheduler, thread: 2, time: 5000),
    .init(id: 6, from: 1, to: 1, event: .next, time: 10000),
  ])

/// Four deliveries at one coarse reading: a send, a delivery, a send back into the same subject
/// from inside it, and its delivery.
private let chromeTiedGraph = TraceGraph(
  nodes: chromeChainNodes(["PublishSubject", "subscribe", "map"]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, time: 5000),
    .init(id: 2, from: 1, to: 2, event: .next, cause: 1, time: 5000),
    .init(id: 3, from: 2, to: 1, event: .next, cause: 2, time: 5000),
    .init(id: 4, from: 1, to: 3, event: .next, cause: 3, time: 5000),
  ])

/// A send fanned out to three subscribers; the second sends on, which hops to another thread.
private let chromeFanOutGraph = TraceGraph(
  nodes: chromeChainNodes([
    "PublishSubject", "subscribe", "map", "filter", "BehaviorRelay", "drive",
  ]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, time: 100),
    .init(id: 2, from: 1, to: 2, event: .next, cause: 1, time: 150),
    .init(id: 3, from: 1, to: 3, event: .next, cause: 1, time: 300),
    .init(id: 5, from: 3, to: 5, event: .next, cause: 3, time: 400),
    .init(id: 4, from: 1, to: 4, event: .next, cause: 1, time: 900),
    .init(id: 6, from: 5, to: 6, event: .next, cause: 5, hop: .scheduler, thread: 2, time: 950),
  ])

/// Two threads deliver to node 1 at once.
private let chromeConcurrentGraph = TraceGraph(
  nodes: chromeChainNodes(["PublishSubject", "map"]),
  deliveries: [
    .init(id: 1, from: 1, to: 1, event: .next, thread: 1, time: 1000),
    .init(id: 2, from: 1, to: 1, event: .next, thread: 2, time: 1500),
    .init(id: 3, from: 1, to: 2, event: .next, cause: 2, thread: 2, time: 2700),
  ])

/// Subscription and control edges: exactly known live counts for nodes 1, 2 and 6; three
/// subscriptions (7), a disposed one (8) and one without a time (9) for the others.
private let chromeSubscriptionGraph = TraceGraph(
  nodes: [
    .init(id: 1, kind: "S", role: .subject, file: "A.swift", line: 1, subscriptionCount: 3),
    .init(id: 2, kind: "map", role: .operator, file: "A.swift", line: 2, subscriptionCount: 1),
    .init(id: 3, kind: "subscribe", role: .terminal, file: "A.swift", line: 3, owner: "Screen"),
    .init(id: 4, kind: "subscribe", role: .terminal, file: "A.swift", line: 4),
    .init(
      id: 5, kind: "take(until:)", role: .operator, file: "A.swift", line: 5,
      controlUpstreams: [6]),
    .init(
      id: 6, kind: "PublishSubject", role: .subject, file: "A.swift", line: 6,
      subscriptionCount: 1),
    .init(id: 7, kind: "interval", role: .source, file: "A.swift", line: 7, subscriptionCount: 3),
  ],
  edges: [
    .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1, firstTime: 2000, lastTime: 2000),
    .init(from: 1, to: 4, kind: .subscription, count: 2, live: 2, firstTime: 3000, lastTime: 4000),
    .init(from: 2, to: 3, kind: .subscription, count: 1, live: 1, firstTime: 2500, lastTime: 2500),
    .init(from: 6, to: 5, kind: .control, count: 1, live: 1, firstTime: 3500, lastTime: 3500),
    .init(from: 7, to: 5, kind: .subscription, count: 3, live: 3, firstTime: 1000, lastTime: 6000),
    .init(from: 8, to: 3, kind: .subscription, count: 2, live: 1, firstTime: 1500, lastTime: 1600),
    .init(from: 9, to: 3, kind: .subscription, count: 1, live: 1),
  ],
  subscriptions: [
    .init(id: 1, node: 2, subscriber: 3, owner: "Screen", ownerGone: true, file: "A.swift", line: 3)
  ])

/// Quotes, backslashes, every kind of control character, emoji, non-BMP scalars and the
/// separators JavaScript chokes on (the dump tests' string).
private let chromeAwkward = TraceGraphDumpTests.awkward

private let chromeLongAwkward = String(repeating: chromeAwkward, count: 4)

private let chromeHostileGraph = TraceGraph(
  nodes: [
    .init(
      id: 1, kind: chromeAwkward, role: .subject, file: chromeAwkward, line: 7,
      owner: chromeAwkward, name: chromeAwkward
    )
  ],
  edges: [.init(from: 1, to: 1, kind: .subscription, count: 1, live: 1, firstTime: 5)],
  deliveries: [.init(id: 1, from: 1, to: 1, event: .next, time: 10, value: chromeLongAwkward)])
