extension TraceGraph {
  /// What changed from an older trace of the same code to this one, compared by identity
  /// (``identityKeys()``: the name, or the owner and the operator chain, and the kind), since ids
  /// differ from run to run and lines move when code is edited.
  ///
  /// It leads with what changed in meaning: cycles removed and added, leaks removed and added,
  /// pairs of owners newly or no longer connected (``couplingMap()``); then the detail. Nodes
  /// the recorder merged by shape (a subject made on one line for every cell) are one node, and
  /// nodes that share an identity are told apart by file and line order. Edges are compared as (from key, to key, kind) with the sum of their counts.
  /// Cycles are those of ``structuralCycles()``, compared as sets of keys.
  ///
  /// When either graph is a static map (``origin`` `.static`), only the shape is compared:
  /// subscription and chain edges without their counts (a map has no emissions and counts
  /// places, not events), and no leaks (a map has no live subscriptions); ``TraceDiff/coverage``
  /// then says how much of the recorded graph the map has, and how many of its chain edges the
  /// run exercised.
  ///
  /// ```swift
  /// let diff = afterFix.diff(from: beforeFix)
  /// if !diff.isEmpty { print(diff) }
  /// // Prints "- edge subscribe A.swift:9 (A) -> PublishSubject B.swift:3 (B) (chain)"
  /// ```
  ///
  /// - Parameter old: The earlier trace.
  /// - Returns: Nodes and edges added and removed, edges whose count changed, and cycles this
  ///   trace has that `old` has not; empty when the two traces have the same shape and counts.
  /// - Complexity: O((*n* + *e*) log (*n* + *e*)) over both traces.
  public func diff(from old: TraceGraph) -> TraceDiff {
    var keys = StableKeys(capacity: nodes.count + old.nodes.count)
    let shapeOnly = origin == .static || old.origin == .static
    let before = DiffSide(old, keys: &keys, shapeOnly: shapeOnly)
    let after = DiffSide(self, keys: &keys, shapeOnly: shapeOnly)
    var coverage: TraceDiff.Coverage?
    if shapeOnly, origin != old.origin {
      let (map, run) = origin == .static ? (after, before) : (before, after)
      let recorded = Set(run.edgeCounts.keys)
      let mapped = Set(map.edgeCounts.keys)
      let mapChains = mapped.filter { $0.kind == .chain }
      coverage = TraceDiff.Coverage(
        recordedEdges: recorded.count, recordedEdgesMapped: recorded.intersection(mapped).count,
        mappedChains: mapChains.count,
        mappedChainsRecorded: mapChains.intersection(recorded).count)
    }

    var added: [NumberedEdge] = []
    var removed: [NumberedEdge] = []
    var changed: [(edge: NumberedEdge, old: Int, new: Int)] = []
    for (edge, count) in after.edgeCounts {
      if let oldCount = before.edgeCounts[edge] {
        if oldCount != count {
          changed.append((edge, oldCount, count))
        }
      } else {
        added.append(edge)
      }
    }
    for edge in before.edgeCounts.keys where after.edgeCounts[edge] == nil {
      removed.append(edge)
    }
    let addedNodes = after.nodes.subtracting(before.nodes)
    let removedNodes = before.nodes.subtracting(after.nodes)
    let newCycles = after.cycles.subtracting(before.cycles)
    let removedCycles = before.cycles.subtracting(after.cycles)

    // Labels only for the keys the diff names.
    var named = Set(addedNodes).union(removedNodes)
    for edge in added + removed + changed.map(\.edge) {
      named.insert(edge.from)
      named.insert(edge.to)
    }
    named.formUnion(newCycles.joined())
    named.formUnion(removedCycles.joined())
    var labels: [String: String] = [:]
    for number in named {
      labels[keys.name(number)] = keys.label(number)
    }

    return TraceDiff(
      addedNodes: addedNodes.map(keys.name).sorted(),
      removedNodes: removedNodes.map(keys.name).sorted(),
      addedEdges: added.map(keys.edge).sorted(), removedEdges: removed.map(keys.edge).sorted(),
      changedCounts: changed.map {
        TraceDiff.CountChange(edge: keys.edge($0.edge), old: $0.old, new: $0.new)
      }
      .sorted { $0.edge < $1.edge },
      newCycles: newCycles.map { $0.map(keys.name).sorted() }
        .sorted { $0.lexicographicallyPrecedes($1) },
      removedCycles: removedCycles.map { $0.map(keys.name).sorted() }
        .sorted { $0.lexicographicallyPrecedes($1) },
      addedLeaks: after.leaks.subtracting(before.leaks).sorted(),
      removedLeaks: before.leaks.subtracting(after.leaks).sorted(),
      addedOwnerLinks: after.ownerLinks.subtracting(before.ownerLinks).sorted(),
      removedOwnerLinks: before.ownerLinks.subtracting(after.ownerLinks).sorted(),
      coverage: coverage, labels: labels)
  }

  /// Each node's identity across runs, by node id: `CartStore.added [PublishSubject]` for a
  /// named node; for the others the owner and the operator chain from the nearest named
  /// upstream, `CartBadge: CartStore.items > map > distinctUntilChanged > subscribe`. Keys that
  /// several nodes share get `#2`, `#3`, ... by file and line, so that a moved line keeps its
  /// key.
  ///
  /// - Complexity: O(*n* × *d*) for chains *d* operators long.
  public func identityKeys() -> [UInt64: String] {
    var byID: [UInt64: Node] = [:]
    for node in nodes where byID[node.id] == nil { byID[node.id] = node }
    func owner(_ node: Node) -> String {
      node.owner ?? RecorderState.ownerFromFile(node.file) ?? "(unknown owner)"
    }
    var paths: [UInt64: String] = [:]
    // The chain that leads to `node` and its kind; a named upstream stands for all above it, and
    // an upstream of another owner says whose it is. Iterative: chains can be long.
    func path(_ node: Node) -> String {
      if let known = paths[node.id] { return known }
      var chain: [Node] = [node]
      var seen: Set<UInt64> = [node.id]
      while let up = chain.last!.upstreams.first, let upstream = byID[up], upstream.name == nil,
        paths[up] == nil, seen.insert(up).inserted
      {
        chain.append(upstream)
      }
      for link in chain.reversed() {
        var prefix = ""
        if let up = link.upstreams.first, let upstream = byID[up], up != link.id {
          var above = upstream.name ?? paths[up] ?? upstream.kind
          // Keys stay short on long chains: the last 8 steps above say where a node sits.
          let steps = above.split(separator: " > ", omittingEmptySubsequences: false)
          if steps.count > 8 { above = "… > " + steps.suffix(8).joined(separator: " > ") }
          let whose =
            upstream.name == nil && owner(upstream) != owner(link) ? owner(upstream) + ": " : ""
          prefix = whose + above + " > "
        }
        paths[link.id] = prefix + link.kind
      }
      return paths[node.id]!
    }
    var keys: [UInt64: String] = [:]
    for node in nodes {
      keys[node.id] = node.name.map { "\($0) [\(node.kind)]" } ?? "\(owner(node)): \(path(node))"
    }
    // Repeated keys: numbered in file and line order.
    var groups: [String: [Node]] = [:]
    for node in byID.values { groups[keys[node.id]!, default: []].append(node) }
    for (key, members) in groups where members.count > 1 {
      let ordered = members.sorted { ($0.file, $0.line, $0.id) < ($1.file, $1.line, $1.id) }
      for (index, node) in ordered.enumerated() where index > 0 {
        keys[node.id] = key + " #\(index + 1)"
      }
    }
    return keys
  }
}

/// The stable keys of two traces, numbered so that comparing them compares integers.
private struct StableKeys {
  private var numbers: [String: Int] = [:]
  private var names: [String] = []
  /// The first node seen with each key (`nil` for an id no node has), for its label.
  private var representatives: [(node: TraceGraph.Node?, id: UInt64)] = []

  /// The number of `key`, made on first sight.
  mutating func number(_ key: String, node: TraceGraph.Node?, id: UInt64) -> Int {
    if let number = numbers[key] { return number }
    numbers[key] = names.count
    names.append(key)
    representatives.append((node, id))
    return names.count - 1
  }

  init(capacity: Int) {
    numbers.reserveCapacity(capacity)
    names.reserveCapacity(capacity)
    representatives.reserveCapacity(capacity)
  }

  func name(_ number: Int) -> String { names[number] }

  /// `describe(node:)` of the first node seen with the key.
  func label(_ number: Int) -> String {
    TraceGraph.describe(representatives[number].node, id: representatives[number].id)
  }

  func edge(_ edge: NumberedEdge) -> TraceDiff.Edge {
    TraceDiff.Edge(from: names[edge.from], to: names[edge.to], kind: edge.kind)
  }
}

/// An edge between two numbered stable keys.
private struct NumberedEdge: Hashable {
  var from: Int
  var to: Int
  var kind: TraceGraph.EdgeKind
}

/// One trace seen by numbered stable key.
private struct DiffSide {
  var nodes: Set<Int> = []
  var edgeCounts: [NumberedEdge: Int] = [:]
  /// Each structural cycle as the sorted numbers of its keys.
  var cycles: Set<[Int]> = []
  /// The leaked subscriptions, as `subscriber key <- node key`.
  var leaks: Set<String> = []
  /// The pairs of owners the coupling map connects, as `from -> to`.
  var ownerLinks: Set<String> = []

  /// `shapeOnly`: subscription and chain edges only, each counted once, and no leaks.
  init(_ graph: TraceGraph, keys: inout StableKeys, shapeOnly: Bool) {
    let index = TraceGraphIndex(graph)
    let identities = graph.identityKeys()
    let numbers = (0..<index.count).map { position in
      let id = index.ids[position]
      let node = index.nodes[position]
      return keys.number(identities[id] ?? "node #\(id)", node: node, id: id)
    }
    for leak in graph.leaks() where !shapeOnly {
      let subscriber = identities[leak.subscriber] ?? "node #\(leak.subscriber)"
      leaks.insert("\(subscriber) <- \(identities[leak.node] ?? "node #\(leak.node)")")
    }
    for link in graph.couplingMap().links {
      ownerLinks.insert("\(link.from) -> \(link.to)" + (link.sends > 0 ? " (sends)" : ""))
    }
    for position in 0..<index.count where index.nodes[position] != nil {
      nodes.insert(numbers[position])
    }
    edgeCounts.reserveCapacity(graph.edges.count)
    for edge in graph.edges where !shapeOnly || edge.kind != .emission {
      let numbered = NumberedEdge(
        from: numbers[index.position(of: edge.from)!], to: numbers[index.position(of: edge.to)!],
        kind: edge.kind)
      edgeCounts[numbered] = shapeOnly ? 1 : edgeCounts[numbered, default: 0] + edge.count
    }
    for cycle in index.cycles() {
      cycles.insert(Set(cycle.map { numbers[$0] }).sorted())
    }
  }
}

/// What changed between two traces of the same code (``TraceGraph/diff(from:)``), by stable key.
///
/// ```swift
/// let diff = newTrace.diff(from: oldTrace)
/// #expect(diff.newCycles.isEmpty, "\(diff)")
/// ```
public struct TraceDiff: Sendable, Equatable, CustomStringConvertible {
  /// An edge between two stable keys.
  public struct Edge: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The stable key of the node elements come from.
    public var from: String
    /// The stable key of the node they go to.
    public var to: String
    /// What the edge stands for.
    public var kind: TraceGraph.EdgeKind

    /// Creates an edge between two stable keys.
    public init(from: String, to: String, kind: TraceGraph.EdgeKind) {
      self.from = from
      self.to = to
      self.kind = kind
    }

    /// By `from`, `to`, then kind.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      (lhs.from, lhs.to, lhs.kind.rawValue) < (rhs.from, rhs.to, rhs.kind.rawValue)
    }

    /// `from -> to (kind)`, by stable key.
    public var description: String { "\(from) -> \(to) (\(kind.rawValue))" }
  }

  /// An edge present in both traces whose count changed.
  public struct CountChange: Sendable, Equatable, CustomStringConvertible {
    /// The edge.
    public var edge: Edge
    /// Its count in the old trace and in the new one.
    public var old: Int
    public var new: Int

    /// `edge: old -> new`.
    public var description: String { "\(edge): \(old) -> \(new)" }
  }

  /// Stable keys of the nodes only the new trace has, sorted.
  public var addedNodes: [String]
  /// Stable keys of the nodes only the old trace has, sorted.
  public var removedNodes: [String]
  /// The edges only the new trace has, sorted.
  public var addedEdges: [Edge]
  /// The edges only the old trace has, sorted.
  public var removedEdges: [Edge]
  /// The edges in both whose count changed, sorted by edge.
  public var changedCounts: [CountChange]
  /// The structural cycles only the new trace has, each as its sorted stable keys.
  public var newCycles: [[String]]
  /// The cycles the old trace had that this one has not, as sets of keys.
  public var removedCycles: [[String]]
  /// Leaked subscriptions (`subscriber <- node`, by key) this trace has and the old had not,
  /// and the reverse.
  public var addedLeaks: [String]
  public var removedLeaks: [String]
  /// Pairs of owners (`CartBadge -> Analytics (sends)`) newly connected, and no longer.
  public var addedOwnerLinks: [String]
  public var removedOwnerLinks: [String]
  /// Between a static map and a recorded trace: how much of each the other has.
  public var coverage: Coverage?

  /// How a static map and a recorded trace of the same code compare, by identity.
  public struct Coverage: Sendable, Equatable, CustomStringConvertible {
    /// The recorded trace's subscription and chain edges, and how many of them the map has
    /// (the map's recall).
    public var recordedEdges: Int
    public var recordedEdgesMapped: Int
    /// The map's chain edges, and how many of them the run exercised (a lower bound of the
    /// map's precision: a run exercises only some paths).
    public var mappedChains: Int
    public var mappedChainsRecorded: Int

    /// `the map has 41 of 45 recorded subscription and chain edges (91%); ...`.
    public var description: String {
      func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : "\(part * 100 / whole)%"
      }
      return "the map has \(recordedEdgesMapped) of \(recordedEdges) recorded subscription and "
        + "chain edges (\(percent(recordedEdgesMapped, recordedEdges))); the run exercised "
        + "\(mappedChainsRecorded) of the map's \(mappedChains) chain edges "
        + "(\(percent(mappedChainsRecorded, mappedChains)))"
    }
  }
  /// `describe(node:)` of each key, for the description.
  private var labels: [String: String]

  init(
    addedNodes: [String], removedNodes: [String], addedEdges: [Edge], removedEdges: [Edge],
    changedCounts: [CountChange], newCycles: [[String]], removedCycles: [[String]],
    addedLeaks: [String], removedLeaks: [String], addedOwnerLinks: [String],
    removedOwnerLinks: [String], coverage: Coverage? = nil, labels: [String: String]
  ) {
    self.coverage = coverage
    self.removedCycles = removedCycles
    self.addedLeaks = addedLeaks
    self.removedLeaks = removedLeaks
    self.addedOwnerLinks = addedOwnerLinks
    self.removedOwnerLinks = removedOwnerLinks
    self.addedNodes = addedNodes
    self.removedNodes = removedNodes
    self.addedEdges = addedEdges
    self.removedEdges = removedEdges
    self.changedCounts = changedCounts
    self.newCycles = newCycles
    self.labels = labels
  }

  /// Whether the two traces have the same nodes, edges, counts and cycles.
  public var isEmpty: Bool {
    addedNodes.isEmpty && removedNodes.isEmpty && addedEdges.isEmpty && removedEdges.isEmpty
      && changedCounts.isEmpty && newCycles.isEmpty && removedCycles.isEmpty
      && addedLeaks.isEmpty && removedLeaks.isEmpty && addedOwnerLinks.isEmpty
      && removedOwnerLinks.isEmpty
  }

  /// One change a line: `+`/`-` for added and removed nodes and edges, `~` for a changed count,
  /// `+ cycle` for a new cycle; `no changes` when empty. Nodes read `kind file:line (owner)`.
  public var description: String {
    guard !isEmpty else {
      return coverage.map { "static map against recorded trace: \($0)\nno changes" }
        ?? "no changes"
    }
    func node(_ key: String) -> String { labels[key] ?? key }
    func edge(_ edge: Edge) -> String {
      "\(node(edge.from)) -> \(node(edge.to)) (\(edge.kind.rawValue))"
    }
    var lines: [String] = coverage.map { ["static map against recorded trace: \($0)"] } ?? []
    // What changed in meaning first.
    lines += removedCycles.map { "- cycle (removed): " + $0.map(node).joined(separator: ", ") }
    lines += newCycles.map { "+ cycle (new): " + $0.map(node).joined(separator: ", ") }
    lines += removedLeaks.map { "- leak (fixed): \($0)" }
    lines += addedLeaks.map { "+ leak (new): \($0)" }
    lines += removedOwnerLinks.map { "- owners no longer connected: \($0)" }
    lines += addedOwnerLinks.map { "+ owners newly connected: \($0)" }
    if !lines.isEmpty { lines.append("detail:") }
    lines += addedNodes.map { "+ node \(node($0))" }
    lines += removedNodes.map { "- node \(node($0))" }
    lines += addedEdges.map { "+ edge \(edge($0))" }
    lines += removedEdges.map { "- edge \(edge($0))" }
    lines += changedCounts.map { "~ edge \(edge($0.edge)): \($0.old) -> \($0.new)" }
    return lines.joined(separator: "\n")
  }
}
