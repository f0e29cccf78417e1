extension TraceGraph {
  /// A node as people read it: its name first when it has one, then `kind file:line`, then the
  /// owner when the name does not say it: `FeedViewModel.items (PublishSubject
  /// Feed/FeedViewModel.swift:14)`, or `map Feed/FeedViewModel.swift:20 (FeedViewModel)`.
  ///
  /// Every description the queries print names nodes this way.
  ///
  /// ```swift
  /// let graph = TraceGraph(nodes: [
  ///   .init(id: 1, kind: "map", role: .operator, file: "App/Feed.swift", line: 12, owner: "Feed")
  /// ])
  /// print(graph.describe(node: 1))
  /// // Prints "map App/Feed.swift:12 (Feed)"
  /// ```
  ///
  /// - Parameter id: A node id; one the graph does not have reads `node #id`.
  /// - Returns: The node's kind, call site and owner (left out when unknown).
  /// - Complexity: O(*n*) in the number of nodes.
  public func describe(node id: UInt64) -> String {
    Self.describe(nodes.first { $0.id == id }, id: id)
  }

  /// The one formatter behind ``describe(node:)`` and every query's description, for a caller
  /// that has the node at hand (``describe(node:)`` looks it up).
  ///
  /// - Parameters:
  ///   - node: The node, or `nil` for one the graph does not have.
  ///   - id: Its id, for `node #id` when `node` is `nil`.
  /// - Returns: `CartStore.added (PublishSubject App/CartStore.swift:7)`, or the kind, call site
  ///   and owner of an unnamed node.
  public static func describe(_ node: Node?, id: UInt64) -> String {
    guard let node else { return "node #\(id)" }
    let site = "\(node.kind) \(node.file):\(node.line)"
    guard let name = node.name else {
      return node.owner.map { "\(site) (\($0))" } ?? site
    }
    if let owner = node.owner, !name.hasPrefix(owner + ".") {
      return "\(name) (\(site), \(owner))"
    }
    return "\(name) (\(site))"
  }

  /// `items` without repeats, in first-seen order.
  static func distinct(_ items: [String]) -> [String] {
    var seen: Set<String> = []
    return items.filter { seen.insert($0).inserted }
  }
}

/// The adjacency of one trace's data-flow and control graphs, built once per query.
///
/// Nodes are numbered densely (positions `0..<count`) in ascending id order, so every walk that
/// visits neighbours in position order breaks ties by id. The index holds every id the graph
/// names: its nodes, and ids that only an edge or an upstream list names (a node the recorder
/// evicted or a hand-built graph left out), which read `node #id`.
///
/// Data flow is what the queries follow by default: subscription edges (upstream → subscriber),
/// emission edges, chain edges (subscriber → subject), and each node's `upstreams`. Control flow
/// is control edges and each node's `controlUpstreams`.
struct TraceGraphIndex {
  /// The id of each position, ascending.
  let ids: [UInt64]
  /// The node at each position; `nil` for an id that only an edge names.
  let nodes: [TraceGraph.Node?]
  /// Data-flow successors and predecessors, without repeats.
  let dataOut: Adjacency
  let dataIn: Adjacency
  /// Control successors and predecessors, without repeats.
  let controlOut: Adjacency
  let controlIn: Adjacency

  init(_ graph: TraceGraph) {
    var all = graph.nodes.map(\.id)
    for edge in graph.edges {
      all.append(edge.from)
      all.append(edge.to)
    }
    for node in graph.nodes {
      all += node.upstreams
      all += node.controlUpstreams
    }
    all.sort()
    var ids: [UInt64] = []
    ids.reserveCapacity(all.count)
    for id in all where ids.last != id {
      ids.append(id)
    }
    func position(_ id: UInt64) -> Int { Self.search(ids, for: id)! }
    var nodes = [TraceGraph.Node?](repeating: nil, count: ids.count)
    for node in graph.nodes {
      let slot = position(node.id)
      if nodes[slot] == nil {
        nodes[slot] = node
      }
    }

    var data: [(Int, Int)] = []
    var control: [(Int, Int)] = []
    for edge in graph.edges {
      let pair = (position(edge.from), position(edge.to))
      switch edge.kind {
      case .subscription, .emission, .chain: data.append(pair)
      case .control: control.append(pair)
      }
    }
    for node in graph.nodes {
      let target = position(node.id)
      for upstream in node.upstreams {
        data.append((position(upstream), target))
      }
      for upstream in node.controlUpstreams {
        control.append((position(upstream), target))
      }
    }

    self.ids = ids
    self.nodes = nodes
    dataOut = Adjacency(count: ids.count, pairs: data)
    dataIn = Adjacency(count: ids.count, pairs: data.map { ($0.1, $0.0) })
    controlOut = Adjacency(count: ids.count, pairs: control)
    controlIn = Adjacency(count: ids.count, pairs: control.map { ($0.1, $0.0) })
  }

  /// How many positions there are.
  var count: Int { ids.count }

  /// The position of `id`, if the graph names it.
  func position(of id: UInt64) -> Int? { Self.search(ids, for: id) }

  /// Where `id` is in the ascending `ids`: a binary search, cheaper than hashing here.
  private static func search(_ ids: [UInt64], for id: UInt64) -> Int? {
    var low = 0
    var high = ids.count
    while low < high {
      let middle = (low + high) / 2
      if ids[middle] < id {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low < ids.count && ids[low] == id ? low : nil
  }

  /// `describe(node:)` of the node at `position`.
  func label(_ position: Int) -> String {
    TraceGraph.describe(nodes[position], id: ids[position])
  }

  /// The file of the node at `position`, if the node is known.
  func file(_ position: Int) -> String? { nodes[position]?.file }

  /// Calls `body` with each neighbour of `position`: successors when `forward`, else
  /// predecessors; data flow first, then control flow when `includingControl`.
  func forEachNeighbour(
    of position: Int, forward: Bool, includingControl: Bool, _ body: (Int) -> Void
  ) {
    for next in (forward ? dataOut : dataIn)[position] {
      body(next)
    }
    if includingControl {
      for next in (forward ? controlOut : controlIn)[position] {
        body(next)
      }
    }
  }

  /// The ids of the positions reachable from `id` by one edge or more (so `id` itself only when
  /// it lies on a cycle), ascending. Breadth-first, iterative.
  func reach(from id: UInt64, forward: Bool, includingControl: Bool) -> [UInt64] {
    guard let start = position(of: id) else { return [] }
    var seen = [Bool](repeating: false, count: count)
    var queue = [start]
    var head = 0
    while head < queue.count {
      let position = queue[head]
      head += 1
      forEachNeighbour(of: position, forward: forward, includingControl: includingControl) {
        if !seen[$0] {
          seen[$0] = true
          queue.append($0)
        }
      }
    }
    return ids.indices.filter { seen[$0] }.map { ids[$0] }
  }

  /// The cycles of the data-flow graph: its strongly connected components of more than one
  /// position or with an edge to itself, each ascending, ordered by their first position.
  func cycles() -> [[Int]] {
    stronglyConnectedComponents()
      .filter { $0.count > 1 || dataOut.contains($0[0], $0[0]) }
      .sorted { $0[0] < $1[0] }
  }

  /// The strongly connected components of the data-flow graph, each ascending, in the order
  /// Tarjan's algorithm closes them. Iterative, so deep graphs cannot overflow the stack.
  func stronglyConnectedComponents() -> [[Int]] {
    var order = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    // Each frame is a node being visited and the next of its successors to look at.
    var frames: [(node: Int, next: Int)] = []
    var counter = 0
    var components: [[Int]] = []

    for root in 0..<count where order[root] < 0 {
      order[root] = counter
      low[root] = counter
      counter += 1
      stack.append(root)
      onStack[root] = true
      frames.append((root, dataOut.start(root)))
      while let (node, next) = frames.last {
        if next < dataOut.end(node) {
          frames[frames.count - 1].next = next + 1
          let successor = dataOut.target(at: next)
          if order[successor] < 0 {
            order[successor] = counter
            low[successor] = counter
            counter += 1
            stack.append(successor)
            onStack[successor] = true
            frames.append((successor, dataOut.start(successor)))
          } else if onStack[successor] {
            low[node] = min(low[node], order[successor])
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last {
          low[parent.node] = min(low[parent.node], low[node])
        }
        if low[node] == order[node] {
          var component: [Int] = []
          while let member = stack.popLast() {
            onStack[member] = false
            component.append(member)
            if member == node { break }
          }
          components.append(component.sorted())
        }
      }
    }
    return components
  }
}

/// Compressed adjacency lists: the sorted, repeat-free targets of every position, in one array.
struct Adjacency {
  /// Where each position's targets start in `targets`; one entry more than there are positions.
  private let starts: [Int]
  private let targets: [Int]

  /// The adjacency of `count` positions with the given (source, target) pairs; repeats are
  /// dropped and each position's targets come out ascending.
  init(count: Int, pairs: [(Int, Int)]) {
    var keys = pairs.map { $0.0 * count + $0.1 }
    keys.sort()
    var starts = [Int](repeating: 0, count: count + 1)
    var targets: [Int] = []
    targets.reserveCapacity(keys.count)
    var previous = -1
    for key in keys where key != previous {
      previous = key
      starts[key / count + 1] += 1
      targets.append(key % count)
    }
    for position in 0..<count {
      starts[position + 1] += starts[position]
    }
    self.starts = starts
    self.targets = targets
  }

  /// The targets of `position`, ascending.
  subscript(position: Int) -> ArraySlice<Int> { targets[starts[position]..<starts[position + 1]] }

  /// How many distinct targets `position` has.
  func degree(_ position: Int) -> Int { starts[position + 1] - starts[position] }

  /// The first slot of `position`'s targets.
  func start(_ position: Int) -> Int { starts[position] }

  /// One past the last slot of `position`'s targets.
  func end(_ position: Int) -> Int { starts[position + 1] }

  /// The target in `slot`.
  func target(at slot: Int) -> Int { targets[slot] }

  /// Whether `position` has `target` among its targets.
  func contains(_ position: Int, _ target: Int) -> Bool {
    self[position].contains(target)
  }
}
