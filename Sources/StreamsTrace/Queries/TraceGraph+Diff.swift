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
  /// When either graph is a static map (``/StreamsTraceRecording/TraceGraph/origin`` `.static`), only the shape is compared:
  /// subscription and chain edges without their counts (a map has no emissions and counts
  /// places, not events), and no leaks (a map has no live subscriptions); nodes without a name
  /// are keyed by owner, kind and place (file name and line), so the map and the recording must
  /// be of the same revision of the code; ``TraceDiff/coverage``
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

extension TraceGraph {
  /// Each node's identity between a static map and a recorded trace, by node id: the name for a
  /// named node, as in ``identityKeys()``; for the others the owner, the kind and the place
  /// (`TopViewModel: flatMapLatest TopViewModel.swift:21`). A map has one node for each place in
  /// the code, where a run has one for each instance and a chain from the instance's own
  /// upstream: a place is what the two have in common. The file is compared by its name, since a
  /// map names files by folder and a recording by module.
  func placeKeys() -> [UInt64: String] {
    var keys: [UInt64: String] = [:]
    for node in nodes where keys[node.id] == nil {
      if let name = node.name {
        keys[node.id] = "\(name) [\(node.kind)]"
      } else {
        let owner = node.owner ?? RecorderState.ownerFromFile(node.file) ?? "(unknown owner)"
        let file = node.file.split(separator: "/").last.map(String.init) ?? node.file
        keys[node.id] = "\(owner): \(node.kind) \(file):\(node.line)"
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
    let identities = shapeOnly ? graph.placeKeys() : graph.identityKeys()
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
