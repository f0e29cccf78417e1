import Streams
import StreamsTrace

/// The graph the map builds, in the shape of a recorded trace: nodes with their upstreams,
/// subscription edges (upstream → subscriber) and chain edges (the node whose delivery runs a
/// send → the subject it sends into).
struct MapGraph {
  private(set) var nodes: [TraceGraph.Node] = []
  private var edgeCounts: [EdgeKey: Int] = [:]
  private var edgeOrder: [EdgeKey] = []
  /// The files that send into each node, and those that subscribe to it.
  private(set) var writers: [UInt64: Set<String>] = [:]
  private(set) var readers: [UInt64: Set<String>] = [:]

  struct EdgeKey: Hashable {
    let from: UInt64
    let to: UInt64
    let kind: TraceGraph.EdgeKind
  }

  /// A new node; its id is its place, from 1.
  mutating func add(
    kind: String, role: TraceGraph.Role, file: String, line: UInt, owner: String?,
    name: String? = nil
  ) -> UInt64 {
    let id = UInt64(nodes.count + 1)
    nodes.append(
      TraceGraph.Node(
        id: id, kind: kind, role: role, file: file, line: line, owner: owner, name: name))
    return id
  }

  func node(_ id: UInt64) -> TraceGraph.Node { nodes[Int(id) - 1] }

  /// Names the node `name` unless it has a name already; `false` when it had one.
  @discardableResult
  mutating func name(_ id: UInt64, _ name: String) -> Bool {
    guard nodes[Int(id) - 1].name == nil else { return false }
    nodes[Int(id) - 1].name = name
    return true
  }

  /// `subscriber` takes elements from `upstream`: an upstream and a subscription edge; for an
  /// operator that takes its elements from its first upstream only (`withLatestFrom`,
  /// `take(until:)`: ``TraceNode/controlKinds``), a control upstream and a control edge.
  mutating func subscribe(_ subscriber: UInt64, to upstream: UInt64) {
    let node = nodes[Int(subscriber) - 1]
    guard subscriber != upstream, !node.upstreams.contains(upstream),
      !node.controlUpstreams.contains(upstream)
    else { return }
    if TraceNode.controlKinds.contains(node.kind), !node.upstreams.isEmpty {
      nodes[Int(subscriber) - 1].controlUpstreams.append(upstream)
      addEdge(EdgeKey(from: upstream, to: subscriber, kind: .control))
    } else {
      nodes[Int(subscriber) - 1].upstreams.append(upstream)
      addEdge(EdgeKey(from: upstream, to: subscriber, kind: .subscription))
    }
    nodes[Int(upstream) - 1].subscriptionCount += 1
    readers[upstream, default: []].insert(nodes[Int(subscriber) - 1].file)
  }

  /// Code that runs during a delivery to `sender` sends into `subject`, in `file`.
  mutating func chain(from sender: UInt64, to subject: UInt64, file: String) {
    addEdge(EdgeKey(from: sender, to: subject, kind: .chain))
    writers[subject, default: []].insert(file)
  }

  /// Code outside any delivery sends into `subject`, in `file`.
  mutating func rootSend(to subject: UInt64, file: String) {
    writers[subject, default: []].insert(file)
  }

  private mutating func addEdge(_ key: EdgeKey) {
    if edgeCounts[key] == nil { edgeOrder.append(key) }
    edgeCounts[key, default: 0] += 1
  }

  /// The trace graph: each edge once, its count the number of places that make it. A node of
  /// `passThrough` (a stream parameter, a holder of a stream property) fed from at least one place is left out: its
  /// subscribers take from every place that feeds it, as the recorded traces of the instances
  /// show it together (the map is one graph for all instances of a type).
  func graph(passThrough: Set<UInt64>) -> TraceGraph {
    var replaced: [UInt64: [UInt64]] = [:]
    for id in passThrough.sorted() where !nodes[Int(id) - 1].upstreams.isEmpty {
      replaced[id] = nodes[Int(id) - 1].upstreams
    }
    // The nodes that stand for `id`: itself, or what feeds it when it is left out, followed
    // through parameters handed on to other parameters (a loop of them stands for nothing).
    var resolved: [UInt64: [UInt64]] = [:]
    func resolve(_ id: UInt64) -> [UInt64] {
      guard replaced[id] != nil else { return [id] }
      if let known = resolved[id] { return known }
      var result: [UInt64] = []
      var seen: Set<UInt64> = [id]
      var pending = replaced[id]!
      while let next = pending.popLast() {
        guard seen.insert(next).inserted else { continue }
        if let feeders = replaced[next] { pending += feeders } else { result.append(next) }
      }
      result.sort()
      resolved[id] = result
      return result
    }
    var counts: [EdgeKey: Int] = [:]
    var order: [EdgeKey] = []
    for key in edgeOrder {
      // The edge into a node left out is the one its subscribers now take.
      if key.kind == .subscription, replaced[key.to] != nil { continue }
      for from in resolve(key.from) {
        for to in resolve(key.to) where from != to {
          let mapped = EdgeKey(from: from, to: to, kind: key.kind)
          if counts[mapped] == nil { order.append(mapped) }
          counts[mapped, default: 0] += edgeCounts[key]!
        }
      }
    }
    var subscriptions: [UInt64: Int] = [:]
    for key in order where key.kind != .chain {
      subscriptions[key.from, default: 0] += counts[key]!
    }
    let kept = nodes.filter { replaced[$0.id] == nil }.map { node in
      var node = node
      node.subscriptionCount = subscriptions[node.id] ?? 0
      var upstreams: [UInt64] = []
      for upstream in node.upstreams.flatMap(resolve) where !upstreams.contains(upstream) {
        upstreams.append(upstream)
      }
      node.upstreams = upstreams
      node.controlUpstreams = node.controlUpstreams.flatMap(resolve)
      return node
    }
    let edges = order.map { key in
      TraceGraph.Edge(
        from: key.from, to: key.to, kind: key.kind, count: counts[key]!,
        live: key.kind == .subscription ? counts[key]! : 0)
    }
    var graph = TraceGraph(nodes: kept, edges: edges)
    graph.origin = .static
    return graph
  }
}
