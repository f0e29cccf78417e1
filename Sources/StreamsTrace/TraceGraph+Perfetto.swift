extension TraceGraph {
  /// Writes the graph in Chrome's JSON trace-event format, for the Perfetto UI
  /// (ui.perfetto.dev) and `chrome://tracing`: a timeline of the recorded deliveries, one track
  /// per node, with an arrow from each delivery to each delivery it caused.
  ///
  /// ```swift
  /// let graph = TraceRecorder.record(configuration: TraceConfiguration(timeline: true)) {
  ///   // ... run the code to look at ...
  /// }
  /// try graph.chromeTrace().write(toFile: "app.trace.json", atomically: true, encoding: .utf8)
  /// // Open app.trace.json in ui.perfetto.dev.
  /// ```
  ///
  /// With the default configuration the graph keeps only the sends into subjects and relays, so
  /// the timeline shows those; record with `TraceConfiguration(timeline: true)` to see every
  /// delivery between nodes.
  ///
  /// What the trace shows:
  /// - **Tracks.** One process per source file (`pid` 1, 2, ... in the order the files first
  ///   appear in ``nodes``; `process_name` is the file), and in it one thread per node
  ///   (`thread_name` is the node's name when it has one, its kind, file:line, owner and `#id`),
  ///   sorted by line. Receivers and subscribers that ``nodes`` lacks get a track in a last
  ///   process named `(not in the graph)`. Thread ids follow the process ids, so no `tid` equals
  ///   a `pid`.
  /// - **Slices.** One `X` slice per entry of ``deliveries``, on the track of the node that
  ///   received it (``Delivery/to``; for a send into a subject, the subject). Its name is the
  ///   event kind and, when recorded, the value (`next: apple`, cut at 100 characters); its
  ///   `args` hold the `delivery` id, the `event`, the `from` and `to` ids, the sender's
  ///   description (`from_node`), the `cause`, the `hop` and its `queue` (after a hop, where the
  ///   scheduler says), the recorder's `thread` number, the
  ///   recorded `time_ns`, the full `value`, and `end` (which rule below gave its end).
  /// - **Flows.** An arrow (`s` and `f` events with `"bp":"e"` and a unique `id`, named after the
  ///   effect's hop: `direct`, `scheduler` or `task`, category `cause`) from each delivery to each
  ///   delivery whose ``Delivery/cause`` it is: one arrow per effect, so a fan-out draws several.
  ///   Both ends sit at the start of their slice, which is where Perfetto (the topmost slice open
  ///   on the track) and `chrome://tracing` (the slice enclosing the time) bind them.
  /// - **Subscribe instants.** A thread-scoped `i` instant on the subscriber's track at the first
  ///   time of each subscription and control edge (`subscribe to ...`), and one more at its last
  ///   time when the edge counts two or more subscriptions; `args` give the counts and, for a live
  ///   terminal subscription, its owner and whether the owner is gone (a leak).
  /// - **Live-subscription counters.** A `C` counter (`<kind> #<id> subscriptions`, series
  ///   `live`) for each node whose live count is known at every moment: every subscription to it
  ///   is on a subscription or control edge, none was disposed, and each edge counts at most two
  ///   subscriptions (so that its first and last times are all of them). The counter is 0 until
  ///   the first subscription and steps up at each.
  ///
  /// What it does not show, because the recorder does not keep it:
  /// - **No recorded durations.** A delivery's end is not recorded; each slice ends at the latest
  ///   of: the end of the last delivery it caused directly on its own thread (`end: effects`:
  ///   those ran inside it), and its start plus 1 µs, cut short by the start of the next delivery
  ///   on the same thread that it did not cause (`end: next`: by then it had returned) or not
  ///   (`end: minimum`). Slices on one thread therefore nest as the calls did.
  /// - **No dispose times**, so no counter for nodes whose subscriptions were disposed, and no
  ///   instant for subscriptions between an edge's first and last; edges whose first time is 0
  ///   (a hand-made graph) get no instant.
  /// - Deliveries the bounded ring dropped, and arrows from them: a delivery whose cause is gone
  ///   starts without an arrow (its `args.cause` still names it). An arrow whose effect is timed
  ///   before its cause (a hand-made graph) is left out.
  ///
  /// Times: `ts` and `dur` are microseconds, as the format requires, counted from the earliest
  /// time the trace shows (`otherData.clockBaseNs` gives it in the recorder's clock), written
  /// exactly to the nanosecond: a reader that multiplies by 1000 and truncates, as Perfetto
  /// does, gets the nanosecond back (up to 2^53 ns, some 104 days, after the earliest time).
  /// Deliveries that share a clock reading (common with the default configuration's coarse
  /// clock) are spread 1 ns apart in the order they happened (by time, then id), so every slice
  /// starts at a time of its own and their order and nesting survive. When slices on one node's
  /// track would overlap without nesting (deliveries to one node on two threads at once), the
  /// later ones go to extra tracks named `... [overlap 2]`. `displayTimeUnit` is `"ns"`: how
  /// `chrome://tracing` shows times (Perfetto ignores it).
  ///
  /// The document is UTF-8 JSON: an object with `displayTimeUnit`, `otherData` and
  /// `traceEvents`, one event per line; strings are escaped as ``dump()`` escapes them; ids and
  /// times above 2^53 are written as strings of digits, to stay exact in readers with double
  /// numbers. Events are in the order Perfetto reads them (by time; at one time, slices before
  /// arrows, arrows before instants and counters), metadata first; `ts` is every timed event's
  /// second key, so that even older Perfetto versions read it before any escaped string.
  ///
  /// - Returns: The trace as a JSON document. Writing it has no side effects; it cannot fail.
  /// - Complexity: O(*d* log *d* + *n* log *n* + *e* + *s*) in the numbers of deliveries,
  ///   nodes, edges and live subscriptions, plus O(*d* × *k*) when a node needs *k* overlap
  ///   tracks.
  public func chromeTrace() -> String {
    ChromeTraceExport(self).render()
  }
}

// MARK: - Layout

/// The graph laid out for the trace-event format: slice times, tracks, arrows, instants,
/// counters.
private struct ChromeTraceExport {
  /// The shortest slice, in nanoseconds, when nothing on the thread cuts it shorter.
  static let minimumDuration: UInt64 = 1000
  /// The longest slice name; the full value stays in the slice's `args`.
  static let nameLimit = 100

  let graph: TraceGraph
  /// The first node of each id, and those nodes in the graph's order.
  private var nodes: [UInt64: TraceGraph.Node] = [:]
  private var distinctNodes: [TraceGraph.Node] = []
  /// The position in ``TraceGraph/deliveries`` of each delivery id (the first, should one
  /// repeat).
  private var positions: [UInt64: Int] = [:]
  /// The time every timestamp counts from.
  private var base: UInt64 = 0
  /// Each delivery's slice: start and end in nanoseconds since `base`, which rule ended it, and
  /// its lane on the receiver's tracks.
  private var starts: [UInt64] = []
  private var ends: [UInt64] = []
  private var endings: [Ending] = []
  private var lanes: [Int] = []
  /// The arrows, as (cause, effect) positions in ``TraceGraph/deliveries``.
  private var flows: [(cause: Int, effect: Int)] = []
  private var instants: [Instant] = []
  private var counters: [CounterSample] = []
  /// The tracks of each node id: process, and one thread per lane.
  private var tracks: [UInt64: NodeTracks] = [:]
  /// Process names by pid (pid = index + 1).
  private var processes: [String] = []
  /// Every thread track, in the order its metadata is written.
  private var threads: [ThreadTrack] = []

  enum Ending: String {
    case effects, next, minimum
  }

  struct Instant {
    var time: UInt64
    var node: UInt64
    var name: String
    var edge: TraceGraph.Edge
    var which: String
    var owner: String?
    var ownerGone: Bool?
  }

  struct CounterSample {
    var time: UInt64
    var node: UInt64
    var live: Int
  }

  struct NodeTracks {
    var pid: Int
    var tids: [Int]
  }

  struct ThreadTrack {
    var pid: Int
    var tid: Int
    var name: String
    var sortIndex: Int
  }

  init(_ graph: TraceGraph) {
    self.graph = graph
    for node in graph.nodes where nodes[node.id] == nil {
      nodes[node.id] = node
      distinctNodes.append(node)
    }
    for (position, delivery) in graph.deliveries.enumerated()
    where positions[delivery.id] == nil {
      positions[delivery.id] = position
    }
    collectInstantsAndCounters()
    base = earliestTime()
    startCountersAtZero()
    layOutSlices()
    assignLanes()
    collectFlows()
    assignTracks()
  }

  // MARK: Instants and counters

  private mutating func collectInstantsAndCounters() {
    var liveSubscriptions: [EdgeEnds: [TraceGraph.Subscription]] = [:]
    for subscription in graph.subscriptions {
      liveSubscriptions[EdgeEnds(subscription.node, subscription.subscriber), default: []]
        .append(subscription)
    }
    for edge in graph.edges where edge.kind == .subscription || edge.kind == .control {
      guard edge.firstTime > 0 else { continue }
      let live = liveSubscriptions[EdgeEnds(edge.from, edge.to)] ?? []
      let owner = live.lazy.compactMap(\.owner).first
      let ownerGone = live.isEmpty ? nil : live.contains { $0.ownerGone }
      let what = edge.kind == .control ? "subscribe (control) to " : "subscribe to "
      let name = what + TraceGraph.describe(nodes[edge.from], id: edge.from)
      instants.append(
        Instant(
          time: edge.firstTime, node: edge.to, name: name, edge: edge, which: "first",
          owner: owner, ownerGone: ownerGone))
      if edge.count >= 2, edge.lastTime > 0, edge.lastTime != edge.firstTime {
        instants.append(
          Instant(
            time: edge.lastTime, node: edge.to, name: name + " (latest of \(edge.count))",
            edge: edge, which: "latest", owner: owner, ownerGone: ownerGone))
      }
    }

    var edgesFrom: [UInt64: [TraceGraph.Edge]] = [:]
    for edge in graph.edges where edge.kind == .subscription || edge.kind == .control {
      edgesFrom[edge.from, default: []].append(edge)
    }
    for node in distinctNodes {
      guard let edges = edgesFrom[node.id]?.filter({ $0.count > 0 }), !edges.isEmpty else {
        continue
      }
      let exact = edges.allSatisfy { edge in
        edge.live == edge.count && edge.count <= 2 && edge.firstTime > 0
          && (edge.count == 1 || edge.lastTime >= edge.firstTime)
      }
      guard exact, edges.reduce(0, { $0 + $1.count }) == node.subscriptionCount else { continue }
      var times: [UInt64] = []
      for edge in edges {
        times.append(edge.firstTime)
        if edge.count == 2 { times.append(edge.lastTime) }
      }
      times.sort()
      var live = 0
      for time in times {
        live += 1
        if let last = counters.last, last.node == node.id, last.time == time {
          counters[counters.count - 1].live = live
        } else {
          counters.append(CounterSample(time: time, node: node.id, live: live))
        }
      }
    }
  }

  /// Puts a 0 sample at the trace's start before each counter that starts later: every
  /// subscription to its node is accounted for, so there was none before.
  private mutating func startCountersAtZero() {
    var samples: [CounterSample] = []
    for sample in counters {
      if samples.last?.node != sample.node, sample.time > base {
        samples.append(CounterSample(time: base, node: sample.node, live: 0))
      }
      samples.append(sample)
    }
    counters = samples
  }

  /// The earliest time any event of the trace has; 0 for a trace without timed events.
  private func earliestTime() -> UInt64 {
    let times = graph.deliveries.map(\.time) + instants.map(\.time) + counters.map(\.time)
    return times.min() ?? 0
  }

  // MARK: Slices

  /// Gives each delivery a start of its own (spread 1 ns apart where readings tie) and an end.
  private mutating func layOutSlices() {
    let deliveries = graph.deliveries
    let count = deliveries.count
    starts = [UInt64](repeating: 0, count: count)
    let byTime = deliveries.indices.sorted {
      (deliveries[$0].time, deliveries[$0].id, $0) < (deliveries[$1].time, deliveries[$1].id, $1)
    }
    var previous: UInt64?
    for position in byTime {
      var start = deliveries[position].time - base
      if let previous, start <= previous {
        start = saturatingSum(previous, 1)
      }
      starts[position] = start
      previous = start
    }

    // The cause a delivery ran inside: same thread, no hop, started before it.
    var parents = [Int?](repeating: nil, count: count)
    var children = [[Int]](repeating: [], count: count)
    for (position, delivery) in deliveries.enumerated() {
      guard let cause = delivery.cause, let parent = positions[cause], parent != position,
        delivery.hop == .direct, deliveries[parent].thread == delivery.thread,
        starts[parent] < starts[position]
      else { continue }
      parents[position] = parent
      children[parent].append(position)
    }

    // The start of the next delivery on the same thread that a delivery did not cause: by then
    // it had returned.
    var threads: [UInt32: [Int]] = [:]
    for position in byTime {
      threads[deliveries[position].thread, default: []].append(position)
    }
    var next = [UInt64?](repeating: nil, count: count)
    for (_, sequence) in threads {
      var stack: [Int] = []
      for position in sequence {
        while let top = stack.last, top != parents[position] {
          next[top] = starts[position]
          stack.removeLast()
        }
        stack.append(position)
      }
    }

    // Children start after their parents, so the latest start first sees every child first.
    ends = [UInt64](repeating: 0, count: count)
    endings = [Ending](repeating: .minimum, count: count)
    for position in byTime.reversed() {
      var end = saturatingSum(starts[position], Self.minimumDuration)
      var ending = Ending.minimum
      if let cut = next[position], cut < end {
        end = cut
        ending = .next
      }
      for child in children[position] where ends[child] > end {
        end = ends[child]
        ending = .effects
      }
      ends[position] = end
      endings[position] = ending
    }
  }

  /// Puts each slice on the first lane of its receiver where it nests in, or follows, what is
  /// there (as Perfetto stacks slices); a slice that would overlap without nesting opens a lane.
  private mutating func assignLanes() {
    lanes = [Int](repeating: 0, count: graph.deliveries.count)
    var byReceiver: [UInt64: [Int]] = [:]
    for position in graph.deliveries.indices {
      byReceiver[graph.deliveries[position].to, default: []].append(position)
    }
    for (receiver, members) in byReceiver {
      let ordered = members.sorted {
        (starts[$0], UInt64.max - ends[$0], $0) < (starts[$1], UInt64.max - ends[$1], $1)
      }
      var open: [[(start: UInt64, end: UInt64)]] = []
      for position in ordered {
        let start = starts[position]
        let end = ends[position]
        var chosen: Int?
        for lane in open.indices {
          while let top = open[lane].last, top.end <= start {
            open[lane].removeLast()
          }
          if let top = open[lane].last, top.start >= start || top.end < end { continue }
          chosen = lane
          break
        }
        let lane = chosen ?? open.count
        if lane == open.count { open.append([]) }
        open[lane].append((start, end))
        lanes[position] = lane
      }
      tracks[receiver] = NodeTracks(pid: 0, tids: [Int](repeating: 0, count: max(open.count, 1)))
    }
  }

  /// One arrow per delivery whose cause the graph holds and that starts after it.
  private mutating func collectFlows() {
    for (position, delivery) in graph.deliveries.enumerated() {
      guard let cause = delivery.cause, let parent = positions[cause], parent != position,
        starts[parent] < starts[position]
      else { continue }
      flows.append((parent, position))
    }
  }

  // MARK: Tracks

  /// Numbers the processes (files) and the threads (nodes and their lanes).
  private mutating func assignTracks() {
    var pids: [String: Int] = [:]
    var members: [[UInt64]] = []
    for node in distinctNodes {
      if pids[node.file] == nil {
        processes.append(node.file)
        pids[node.file] = processes.count
        members.append([])
      }
      members[pids[node.file]! - 1].append(node.id)
    }
    var strangers: Set<UInt64> = []
    for delivery in graph.deliveries where nodes[delivery.to] == nil {
      strangers.insert(delivery.to)
    }
    for instant in instants where nodes[instant.node] == nil {
      strangers.insert(instant.node)
    }
    if !strangers.isEmpty {
      processes.append("(not in the graph)")
      members.append(strangers.sorted())
    }

    var tid = processes.count
    for (index, ids) in members.enumerated() {
      let pid = index + 1
      let ordered = ids.sorted {
        (nodes[$0]?.line ?? 0, $0) < (nodes[$1]?.line ?? 0, $1)
      }
      for id in ordered {
        var nodeTracks = tracks[id] ?? NodeTracks(pid: 0, tids: [0])
        nodeTracks.pid = pid
        let label = Self.label(nodes[id], id: id)
        for lane in nodeTracks.tids.indices {
          tid += 1
          nodeTracks.tids[lane] = tid
          threads.append(
            ThreadTrack(
              pid: pid, tid: tid, name: lane == 0 ? label : "\(label) [overlap \(lane + 1)]",
              sortIndex: threads.count + 1))
        }
        tracks[id] = nodeTracks
      }
    }
  }

  /// A node's track name: its given name, kind, call site, owner and id.
  static func label(_ node: TraceGraph.Node?, id: UInt64) -> String {
    guard let node else { return "node #\(id) (not in the graph)" }
    return TraceGraph.describe(node, id: id) + " #\(id)"
  }

  // MARK: Writing

  /// The timed events in the order Perfetto reads them.
  private enum Timed {
    case slice(Int)
    case flowStart(Int)
    case flowEnd(Int)
    case instant(Int)
    case counter(Int)
  }

  func render() -> String {
    var writer = ChromeTraceWriter()
    writer.raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":")
    writer.string("StreamsTrace TraceGraph.chromeTrace()")
    writer.raw(",\"clockBaseNs\":")
    writer.string(String(base))
    writer.raw("},\n\"traceEvents\":[")
    var first = true
    func separate(_ writer: inout ChromeTraceWriter) {
      writer.raw(first ? "\n" : ",\n")
      first = false
    }
    for (index, process) in processes.enumerated() {
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(index + 1)
      writer.raw(",\"name\":\"process_name\",\"args\":{\"name\":")
      writer.string(process)
      writer.raw("}}")
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(index + 1)
      writer.raw(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":")
      writer.int(index + 1)
      writer.raw("}}")
    }
    for thread in threads {
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(thread.pid)
      writer.raw(",\"tid\":")
      writer.int(thread.tid)
      writer.raw(",\"name\":\"thread_name\",\"args\":{\"name\":")
      writer.string(thread.name)
      writer.raw("}}")
      separate(&writer)
      writer.raw("{\"ph\":\"M\",\"pid\":")
      writer.int(thread.pid)
      writer.raw(",\"tid\":")
      writer.int(thread.tid)
      writer.raw(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":")
      writer.int(thread.sortIndex)
      writer.raw("}}")
    }
    for event in timedEvents() {
      separate(&writer)
      write(event, to: &writer)
    }
    writer.raw(first ? "]}" : "\n]}")
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Every timed event, sorted by time; at one time slices first (longest first), then arrow
  /// starts, arrow ends, instants and counter samples, each in the order they were made.
  private func timedEvents() -> [Timed] {
    var keyed: [(time: UInt64, rank: Int, length: UInt64, order: Int, event: Timed)] = []
    for position in graph.deliveries.indices {
      let length = ends[position] - starts[position]
      keyed.append((starts[position], 0, UInt64.max - length, position, .slice(position)))
    }
    for (index, flow) in flows.enumerated() {
      keyed.append((starts[flow.cause], 1, 0, index, .flowStart(index)))
      keyed.append((starts[flow.effect], 2, 0, index, .flowEnd(index)))
    }
    for (index, instant) in instants.enumerated() {
      keyed.append((instant.time - base, 3, 0, index, .instant(index)))
    }
    for (index, sample) in counters.enumerated() {
      keyed.append((sample.time - base, 4, 0, index, .counter(index)))
    }
    keyed.sort {
      ($0.time, $0.rank, $0.length, $0.order) < ($1.time, $1.rank, $1.length, $1.order)
    }
    return keyed.map(\.event)
  }

  private func write(_ event: Timed, to writer: inout ChromeTraceWriter) {
    switch event {
    case .slice(let position):
      writeSlice(position, to: &writer)
    case .flowStart(let index):
      writeFlow(index, start: true, to: &writer)
    case .flowEnd(let index):
      writeFlow(index, start: false, to: &writer)
    case .instant(let index):
      writeInstant(instants[index], to: &writer)
    case .counter(let index):
      writeCounter(counters[index], to: &writer)
    }
  }

  private func writeSlice(_ position: Int, to writer: inout ChromeTraceWriter) {
    let delivery = graph.deliveries[position]
    writer.raw("{\"ph\":\"X\",\"ts\":")
    writer.microseconds(starts[position])
    writer.raw(",\"dur\":")
    writer.microseconds(ends[position] - starts[position])
    writeTrack(delivery.to, lane: lanes[position], to: &writer)
    writer.raw(",\"name\":")
    var name = delivery.event.rawValue
    if let value = delivery.value {
      name += ": "
      name += value.count > Self.nameLimit ? String(value.prefix(Self.nameLimit)) + "…" : value
    }
    writer.string(name)
    writer.raw(",\"cat\":\"delivery\",\"args\":{\"delivery\":")
    writer.id(delivery.id)
    writer.raw(",\"event\":")
    writer.string(delivery.event.rawValue)
    writer.raw(",\"from\":")
    writer.id(delivery.from)
    writer.raw(",\"from_node\":")
    writer.string(TraceGraph.describe(nodes[delivery.from], id: delivery.from))
    writer.raw(",\"to\":")
    writer.id(delivery.to)
    if let cause = delivery.cause {
      writer.raw(",\"cause\":")
      writer.id(cause)
    }
    writer.raw(",\"hop\":")
    writer.string(delivery.hop.rawValue)
    if let queue = delivery.queue {
      writer.raw(",\"queue\":")
      writer.string(queue)
    }
    writer.raw(",\"thread\":")
    writer.int(Int(delivery.thread))
    writer.raw(",\"time_ns\":")
    writer.id(delivery.time)
    writer.raw(",\"end\":")
    writer.string(endings[position].rawValue)
    if let value = delivery.value {
      writer.raw(",\"value\":")
      writer.string(value)
    }
    writer.raw("}}")
  }

  private func writeFlow(_ index: Int, start: Bool, to writer: inout ChromeTraceWriter) {
    let flow = flows[index]
    let position = start ? flow.cause : flow.effect
    writer.raw(start ? "{\"ph\":\"s\",\"ts\":" : "{\"ph\":\"f\",\"ts\":")
    writer.microseconds(starts[position])
    writeTrack(graph.deliveries[position].to, lane: lanes[position], to: &writer)
    writer.raw(",\"name\":")
    writer.string(graph.deliveries[flow.effect].hop.rawValue)
    writer.raw(",\"cat\":\"cause\",\"id\":")
    writer.int(index + 1)
    if !start {
      writer.raw(",\"bp\":\"e\"")
    }
    writer.raw("}")
  }

  private func writeInstant(_ instant: Instant, to writer: inout ChromeTraceWriter) {
    writer.raw("{\"ph\":\"i\",\"ts\":")
    writer.microseconds(instant.time - base)
    writeTrack(instant.node, lane: 0, to: &writer)
    writer.raw(",\"s\":\"t\",\"name\":")
    writer.string(instant.name)
    writer.raw(",\"cat\":\"subscription\",\"args\":{\"from\":")
    writer.id(instant.edge.from)
    writer.raw(",\"to\":")
    writer.id(instant.edge.to)
    writer.raw(",\"kind\":")
    writer.string(instant.edge.kind.rawValue)
    writer.raw(",\"which\":")
    writer.string(instant.which)
    writer.raw(",\"subscriptions\":")
    writer.int(instant.edge.count)
    writer.raw(",\"live\":")
    writer.int(instant.edge.live)
    writer.raw(",\"time_ns\":")
    writer.id(instant.time)
    if let owner = instant.owner {
      writer.raw(",\"owner\":")
      writer.string(owner)
    }
    if let ownerGone = instant.ownerGone {
      writer.raw(ownerGone ? ",\"ownerGone\":true" : ",\"ownerGone\":false")
    }
    writer.raw("}}")
  }

  private func writeCounter(_ sample: CounterSample, to writer: inout ChromeTraceWriter) {
    writer.raw("{\"ph\":\"C\",\"ts\":")
    writer.microseconds(sample.time - base)
    writeTrack(sample.node, lane: 0, to: &writer)
    writer.raw(",\"name\":")
    writer.string("\(nodes[sample.node]?.kind ?? "node") #\(sample.node) subscriptions")
    writer.raw(",\"args\":{\"live\":")
    writer.int(sample.live)
    writer.raw("}}")
  }

  private func writeTrack(_ node: UInt64, lane: Int, to writer: inout ChromeTraceWriter) {
    let nodeTracks = tracks[node]!
    writer.raw(",\"pid\":")
    writer.int(nodeTracks.pid)
    writer.raw(",\"tid\":")
    writer.int(nodeTracks.tids[lane])
  }
}

/// The two ends of a subscription or control edge.
private struct EdgeEnds: Hashable {
  var node: UInt64
  var subscriber: UInt64

  init(_ node: UInt64, _ subscriber: UInt64) {
    self.node = node
    self.subscriber = subscriber
  }
}

/// `a + b`, or `UInt64.max` when that overflows.
private func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? .max : sum
}

// MARK: - JSON

/// Writes JSON bytes for the trace.
private struct ChromeTraceWriter {
  private(set) var bytes: [UInt8] = []

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func int(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  /// An id or a time: a number up to 2^53, where doubles are exact; a string of digits above.
  mutating func id(_ value: UInt64) {
    if value <= 1 << 53 {
      bytes.append(contentsOf: String(value).utf8)
    } else {
      string(String(value))
    }
  }

  /// `nanoseconds` as microseconds, written so that `trunc(µs × 1000)` and `round(µs × 1000)`
  /// in doubles (how Perfetto and scripts read `ts` and `dur`) give the nanoseconds back.
  mutating func microseconds(_ nanoseconds: UInt64) {
    bytes.append(contentsOf: microsecondsText(nanoseconds).utf8)
  }

  /// Appends `value` as a JSON string, escaped as ``TraceGraph/dump()`` escapes.
  mutating func string(_ value: String) {
    appendJSONString(value, to: &bytes)
  }
}

/// `nanoseconds` as a decimal number of microseconds that reads back exactly: the plain
/// three-decimal form when doubles carry it, else that form with a sub-nanosecond tail
/// (`1.001` reads as 1000.999… ns, so it is written `1.00101`).
private func microsecondsText(_ nanoseconds: UInt64) -> String {
  let whole = String(nanoseconds / 1000)
  let fraction = nanoseconds % 1000
  if fraction == 0 { return whole }
  let digits = String(fraction)
  let exact = whole + "." + String(repeating: "0", count: 3 - digits.count) + digits
  var trimmed = exact
  while trimmed.hasSuffix("0") { trimmed.removeLast() }
  for candidate in [trimmed, exact + "01", exact + "1"] where readsBack(candidate, nanoseconds) {
    return candidate
  }
  return trimmed
}

/// Whether `text`, read as a double and multiplied by 1000, truncates and rounds to
/// `nanoseconds`.
private func readsBack(_ text: String, _ nanoseconds: UInt64) -> Bool {
  guard let value = Double(text) else { return false }
  let scaled = value * 1000
  let target = Double(nanoseconds)
  return scaled.rounded(.towardZero) == target && scaled.rounded() == target
}
