extension TraceGraph {
  /// The cycles of the data-flow graph: its strongly connected components of more than one
  /// node, and single nodes with an edge to themselves.
  ///
  /// The edges are those of ``reachable(from:includingControl:)`` without control edges. In an Rx
  /// graph subscriptions alone cannot close a cycle: an operator subscribes to upstreams that
  /// exist before it, and emissions follow subscriptions. A cycle closes only through a chain
  /// edge: a subscriber downstream of a subject sends into that subject (or into another subject
  /// upstream of itself), so one element can come round again. Each cycle found therefore holds
  /// at least one chain edge, often across files.
  ///
  /// ```swift
  /// // subject(1) -> subscribe(2) -chain-> subject(3) -> subscribe(4) -chain-> subject(1)
  /// print(graph.structuralCycles())
  /// // Prints "[cycle of 4 nodes across A.swift, B.swift: ...]"
  /// ```
  ///
  /// - Returns: The cycles, each with its node ids ascending, ordered by their smallest id.
  /// - Complexity: O(*n* + *e* log *e*); Tarjan's algorithm, iterative.
  public func structuralCycles() -> [StructuralCycle] {
    let index = TraceGraphIndex(self)
    return index.cycles().map { component in
      StructuralCycle(
        nodes: component.map { index.ids[$0] },
        labels: component.map(index.label),
        files: Array(Set(component.compactMap(index.file))).sorted())
    }
  }

  /// The node ids of each structural cycle, without the labels (``structuralCycles()``).
  func cycleNodeIDs() -> [[UInt64]] {
    let index = TraceGraphIndex(self)
    return index.cycles().map { component in component.map { index.ids[$0] } }
  }

  /// Re-entrant deliveries: a delivery to a node made, directly on the same thread, while an
  /// earlier delivery to that same node was still running.
  ///
  /// A delivery to node X is re-entrant when its cause chain, followed through `.direct` hops
  /// only, holds an earlier delivery to X: X's subscriber sent an element that came back round
  /// to X before X returned (RxSwift warns about it at run time; the element order is then
  /// surprising). Hops through a scheduler or a task end the walk: they are not re-entrant.
  ///
  /// ```swift
  /// // #1 -> X, #2 (caused by #1) -> S, #3 (caused by #2) -> X
  /// print(graph.dynamicCycles())
  /// // Prints "[re-entrant delivery to subscribe A.swift:3 (A): #1 -> #2 -> #3 across A.swift, B.swift]"
  /// ```
  ///
  /// - Returns: One cycle per node, the one whose re-entrant delivery has the smallest id, by
  ///   ascending node id.
  /// - Complexity: O(*d* log *d*) in the number of deliveries, plus the length of the cycles
  ///   reported.
  public func dynamicCycles() -> [DynamicCycle] {
    var positions: [UInt64: Int] = [:]
    for (position, delivery) in deliveries.enumerated() where positions[delivery.id] == nil {
      positions[delivery.id] = position
    }
    // The direct cause forest: an edge from a cause to each delivery it made directly.
    var links: [(Int, Int)] = []
    var isChild = [Bool](repeating: false, count: deliveries.count)
    for (position, delivery) in deliveries.enumerated() where delivery.hop == .direct {
      if let cause = delivery.cause, let parent = positions[cause], parent != position {
        links.append((parent, position))
        isChild[position] = true
      }
    }
    let children = Adjacency(count: deliveries.count, pairs: links)

    var best: [UInt64: [Int]] = [:]  // node → the cycle's delivery positions
    var path: [Int] = []  // the deliveries running, outermost first
    var active: [UInt64: [Int]] = [:]  // node → indices in `path` of deliveries to it
    var frames: [(delivery: Int, next: Int)] = []
    for root in deliveries.indices where !isChild[root] {
      frames.append((root, children.start(root)))
      enter(root, path: &path, active: &active, best: &best)
      while let (delivery, next) = frames.last {
        if next < children.end(delivery) {
          frames[frames.count - 1].next = next + 1
          let child = children.target(at: next)
          frames.append((child, children.start(child)))
          enter(child, path: &path, active: &active, best: &best)
          continue
        }
        frames.removeLast()
        path.removeLast()
        active[deliveries[delivery].to]!.removeLast()
      }
    }

    var byID: [UInt64: Node] = [:]
    for node in nodes where byID[node.id] == nil {
      byID[node.id] = node
    }
    return best.sorted { $0.key < $1.key }.map { node, cycle in
      var files: [String] = []
      if let file = byID[node]?.file {
        files.append(file)
      }
      for position in cycle.dropFirst() {
        for end in [deliveries[position].from, deliveries[position].to] {
          if let file = byID[end]?.file {
            files.append(file)
          }
        }
      }
      return DynamicCycle(
        node: node, label: Self.describe(byID[node], id: node),
        deliveries: cycle.map { deliveries[$0].id }, files: Self.distinct(files))
    }
  }

  /// Pushes the delivery at `position` onto the running `path`, first recording the cycle it
  /// closes when an outer running delivery went to the same node.
  private func enter(
    _ position: Int, path: inout [Int], active: inout [UInt64: [Int]], best: inout [UInt64: [Int]]
  ) {
    let node = deliveries[position].to
    if let outer = active[node]?.last {
      let id = deliveries[position].id
      if best[node].map({ id < deliveries[$0[$0.count - 1]].id }) ?? true {
        best[node] = Array(path[outer...]) + [position]
      }
    }
    active[node, default: []].append(path.count)
    path.append(position)
  }
}

extension TraceGraph {
  /// A cycle of the data-flow graph (``TraceGraph/structuralCycles()``).
  public struct StructuralCycle: Sendable, Equatable, CustomStringConvertible {
    /// The ids of the nodes on the cycle, ascending.
    public var nodes: [UInt64]
    /// Those nodes as ``TraceGraph/describe(node:)`` prints them.
    public var labels: [String]
    /// The distinct files of those nodes, sorted.
    public var files: [String]

    /// A header line with the files, then one node a line.
    public var description: String {
      (["cycle of \(nodes.count) node\(nodes.count == 1 ? "" : "s") across \(list(files)):"]
        + labels.map { "  \($0)" }).joined(separator: "\n")
    }
  }

  /// A re-entrant delivery (``TraceGraph/dynamicCycles()``).
  public struct DynamicCycle: Sendable, Equatable, CustomStringConvertible {
    /// The node delivered to again while its earlier delivery was running.
    public var node: UInt64
    /// That node as ``TraceGraph/describe(node:)`` prints it.
    public var label: String
    /// The deliveries from the earlier delivery to `node` to the re-entrant one, each caused
    /// directly by the one before.
    public var deliveries: [UInt64]
    /// The distinct files of the nodes on the cycle, in the order the deliveries touch them,
    /// starting with `node`'s.
    public var files: [String]

    /// One line: the node, the deliveries, the files.
    public var description: String {
      "re-entrant delivery to \(label): "
        + deliveries.map { "#\($0)" }.joined(separator: " -> ") + " across \(list(files))"
    }
  }
}

/// `a, b, c`, or `no known file`.
private func list(_ files: [String]) -> String {
  files.isEmpty ? "no known file" : files.joined(separator: ", ")
}
