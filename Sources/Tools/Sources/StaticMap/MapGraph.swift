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

  /// `subscriber` takes elements from `upstream`: an upstream and a subscription edge.
  mutating func subscribe(_ subscriber: UInt64, to upstream: UInt64) {
    guard subscriber != upstream, !nodes[Int(subscriber) - 1].upstreams.contains(upstream) else {
      return
    }
    nodes[Int(subscriber) - 1].upstreams.append(upstream)
    nodes[Int(upstream) - 1].subscriptionCount += 1
    addEdge(EdgeKey(from: upstream, to: subscriber, kind: .subscription))
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

  /// The trace graph: each edge once, its count the number of places that make it.
  var graph: TraceGraph {
    let edges = edgeOrder.map { key in
      TraceGraph.Edge(
        from: key.from, to: key.to, kind: key.kind, count: edgeCounts[key]!,
        live: key.kind == .subscription ? edgeCounts[key]! : 0)
    }
    var graph = TraceGraph(nodes: nodes, edges: edges)
    graph.origin = .static
    return graph
  }
}
