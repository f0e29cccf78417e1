/// The graph laid out for the trace-event format: slice times, tracks, arrows, instants,
/// counters.
struct ChromeTraceExport {
  /// The shortest slice, in nanoseconds, when nothing on the thread cuts it shorter.
  static let minimumDuration: UInt64 = 1000
  /// The longest slice name; the full value stays in the slice's `args`.
  static let nameLimit = 100

  let graph: TraceGraph
  /// The first node of each id, and those nodes in the graph's order.
  var nodes: [UInt64: TraceGraph.Node] = [:]
  var distinctNodes: [TraceGraph.Node] = []
  /// The position in ``TraceGraph/deliveries`` of each delivery id (the first, should one
  /// repeat).
  var positions: [UInt64: Int] = [:]
  /// The time every timestamp counts from.
  var base: UInt64 = 0
  /// Each delivery's slice: start and end in nanoseconds since `base`, which rule ended it, and
  /// its lane on the receiver's tracks.
  var starts: [UInt64] = []
  var ends: [UInt64] = []
  var endings: [Ending] = []
  var lanes: [Int] = []
  /// The arrows, as (cause, effect) positions in ``TraceGraph/deliveries``.
  var flows: [(cause: Int, effect: Int)] = []
  var instants: [Instant] = []
  var counters: [CounterSample] = []
  /// The tracks of each node id: process, and one thread per lane.
  var tracks: [UInt64: NodeTracks] = [:]
  /// Process names by pid (pid = index + 1).
  var processes: [String] = []
  /// Every thread track, in the order its metadata is written.
  var threads: [ThreadTrack] = []

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

  mutating func collectInstantsAndCounters() {
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
  mutating func startCountersAtZero() {
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
  func earliestTime() -> UInt64 {
    let times = graph.deliveries.map(\.time) + instants.map(\.time) + counters.map(\.time)
    return times.min() ?? 0
  }

  // MARK: Slices

  /// Gives each delivery a start of its own (spread 1 ns apart where readings tie) and an end.
  mutating func layOutSlices() {
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
  mutating func assignLanes() {
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
  mutating func collectFlows() {
    for (position, delivery) in graph.deliveries.enumerated() {
      guard let cause = delivery.cause, let parent = positions[cause], parent != position,
        starts[parent] < starts[position]
      else { continue }
      flows.append((parent, position))
    }
  }

  // MARK: Tracks

  /// Numbers the processes (files) and the threads (nodes and their lanes).
  mutating func assignTracks() {
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
}
