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
}
