/// The nodes and edges an export draws, before grouping: the focus and its neighbourhood, one
/// edge per (from, to, kind) pair with its counts, and the cycle marks.
struct ExportSelection {
  /// An edge between two drawn nodes, by position in ``index``.
  struct Edge {
    var from: Int
    var to: Int
    var kind: TraceGraph.EdgeKind
    /// Summed counts of the recorded edges (events, or subscriptions ever made).
    var count: Int
    var live: Int
    /// `false` when only a node's upstream list names the edge: it has no counts.
    var recorded: Bool
    /// Whether the edge lies on a structural cycle (``TraceGraph/structuralCycles()``).
    var onCycle: Bool
    /// Whether the edge is a leaked subscription (``TraceGraph/leaks()``).
    var leaked: Bool
  }

  let index: TraceGraphIndex
  /// The positions drawn, ascending.
  let positions: [Int]
  /// Whether the node at each position lies on a structural cycle: exactly the nodes `cycles`
  /// lists.
  let cyclic: [Bool]
  /// Whether the node at each position is the subscriber of a leaked subscription: exactly the
  /// subscribers `leaks` lists.
  let leaked: [Bool]
  /// The edges between drawn nodes, by (from, to, kind).
  let edges: [Edge]
  /// What the selection did, for the writers' comments (never user text).
  let notes: [String]
  /// Whether a focus was given and matched no node.
  let focusMissed: Bool

  init(_ graph: TraceGraph, focus: TraceGraph.NodeSelector?, depth: Int?) {
    let index = TraceGraphIndex(graph)
    self.index = index

    var drawn = [Bool](repeating: focus == nil, count: index.count)
    var notes: [String] = []
    if let focus {
      // As the queries select: a property alone (`added`) selects `….added`.
      let seeds = Set(graph.nodes(matching: focus).compactMap { index.position(of: $0.id) })
      // Breadth-first over every kind of edge, both ways, up to `depth` hops.
      var queue = seeds.sorted()
      var distance = [Int](repeating: -1, count: index.count)
      for seed in queue {
        distance[seed] = 0
        drawn[seed] = true
      }
      let limit = depth.map { max(0, $0) }
      var head = 0
      while head < queue.count {
        let position = queue[head]
        head += 1
        if let limit, distance[position] >= limit { continue }
        for forward in [true, false] {
          index.forEachNeighbour(of: position, forward: forward, includingControl: true) {
            if distance[$0] < 0 {
              distance[$0] = distance[position] + 1
              drawn[$0] = true
              queue.append($0)
            }
          }
        }
      }
      let around = limit.map { "within \($0) edge\($0 == 1 ? "" : "s")" } ?? "connected"
      notes.append(
        "focus: \(seeds.count) node\(seeds.count == 1 ? "" : "s") matched; "
          + "\(queue.count) of \(index.count) nodes \(around)")
      focusMissed = seeds.isEmpty
    } else {
      focusMissed = false
    }
    positions = (0..<index.count).filter { drawn[$0] }

    // Cycles: the structural components, as `cycles` lists them. A re-entrant delivery runs
    // along a component's edges, so it marks nothing more.
    var component = [Int](repeating: -1, count: index.count)
    var cyclic = [Bool](repeating: false, count: index.count)
    for (number, cycle) in graph.cycleNodeIDs().enumerated() {
      for id in cycle {
        if let position = index.position(of: id) {
          component[position] = number
          cyclic[position] = true
        }
      }
    }
    self.cyclic = cyclic
    // Leaks: each leaked subscription's subscriber, and its subscription edge.
    var leaked = [Bool](repeating: false, count: index.count)
    var leakedEdges: Set<Pair> = []
    for leak in graph.leaks() {
      guard let subscriber = index.position(of: leak.subscriber) else { continue }
      leaked[subscriber] = true
      if let node = index.position(of: leak.node) {
        leakedEdges.insert(Pair(from: node, to: subscriber))
      }
    }
    self.leaked = leaked

    // One edge per (from, to, kind): the recorded edges, then the upstream lists' edges that no
    // recorded edge stands for.
    var slots: [EdgeKey: Int] = [:]
    var edges: [Edge] = []
    func add(
      _ from: Int, _ to: Int, _ kind: TraceGraph.EdgeKind, count: Int, live: Int, recorded: Bool
    ) {
      guard drawn[from], drawn[to] else { return }
      let key = EdgeKey(from: from, to: to, kind: kind)
      if let slot = slots[key] {
        guard recorded else { return }
        edges[slot].count += count
        edges[slot].live += live
        edges[slot].recorded = true
        return
      }
      let onCycle = kind != .control && component[from] >= 0 && component[from] == component[to]
      slots[key] = edges.count
      edges.append(
        Edge(
          from: from, to: to, kind: kind, count: count, live: live, recorded: recorded,
          onCycle: onCycle,
          leaked: kind == .subscription && leakedEdges.contains(Pair(from: from, to: to))))
    }
    for edge in graph.edges {
      if let from = index.position(of: edge.from), let to = index.position(of: edge.to) {
        add(from, to, edge.kind, count: edge.count, live: edge.live, recorded: true)
      }
    }
    for node in graph.nodes {
      guard let target = index.position(of: node.id) else { continue }
      for upstream in node.upstreams {
        if let source = index.position(of: upstream) {
          add(source, target, .subscription, count: 0, live: 0, recorded: false)
        }
      }
      for upstream in node.controlUpstreams {
        if let source = index.position(of: upstream) {
          add(source, target, .control, count: 0, live: 0, recorded: false)
        }
      }
    }
    self.edges = edges.sorted(by: ExportSelection.order)
    self.notes = notes
  }

  /// By from, to, then the order of ``TraceGraph/EdgeKind/allCases``.
  static func order(_ lhs: Edge, _ rhs: Edge) -> Bool {
    if lhs.from != rhs.from { return lhs.from < rhs.from }
    if lhs.to != rhs.to { return lhs.to < rhs.to }
    return kindRank(lhs.kind) < kindRank(rhs.kind)
  }

  static func kindRank(_ kind: TraceGraph.EdgeKind) -> Int {
    TraceGraph.EdgeKind.allCases.firstIndex(of: kind)!
  }

  /// The boxes and edges to draw with nodes grouped by `grouping`.
  func layout(_ grouping: ExportGrouping) -> ExportLayout {
    var boxes: [ExportLayout.Box] = []
    var boxOf = [Int](repeating: -1, count: index.count)
    var groupSlots: [String: Int] = [:]
    var groupMembers: [[Int]] = []
    for position in positions {
      let node = index.nodes[position]
      guard let node, let key = Self.groupKey(of: node, grouping) else {
        boxOf[position] = boxes.count
        boxes.append(nodeBox(position))
        groupMembers.append([])
        continue
      }
      if let slot = groupSlots[key] {
        boxOf[position] = slot
        groupMembers[slot].append(position)
      } else {
        groupSlots[key] = boxes.count
        boxOf[position] = boxes.count
        // Filled in below, once every member is known.
        boxes.append(nodeBox(position))
        groupMembers.append([position])
      }
    }
    if grouping != .node {
      for slot in boxes.indices where !groupMembers[slot].isEmpty {
        boxes[slot] = groupBox(groupMembers[slot], grouping, number: slot)
      }
    }

    var slots: [EdgeKey: Int] = [:]
    var links: [ExportLayout.Link] = []
    for edge in edges {
      let from = boxOf[edge.from]
      let to = boxOf[edge.to]
      // Edges inside a merged box are left out; a node's edge to itself stays.
      if from == to && boxes[from].isGroup { continue }
      let key = EdgeKey(from: from, to: to, kind: edge.kind)
      if let slot = slots[key] {
        links[slot].count += edge.count
        links[slot].live += edge.live
        links[slot].recorded = links[slot].recorded || edge.recorded
        links[slot].onCycle = links[slot].onCycle || edge.onCycle
        links[slot].leaked = links[slot].leaked || edge.leaked
      } else {
        slots[key] = links.count
        links.append(
          ExportLayout.Link(
            from: from, to: to, kind: edge.kind, count: edge.count, live: edge.live,
            recorded: edge.recorded, onCycle: edge.onCycle, leaked: edge.leaked))
      }
    }
    links.sort {
      if $0.from != $1.from { return $0.from < $1.from }
      if $0.to != $1.to { return $0.to < $1.to }
      return Self.kindRank($0.kind) < Self.kindRank($1.kind)
    }
    var notes = self.notes
    if grouping != .node {
      notes.append("collapsed \(grouping.phrase): \(positions.count) nodes in \(boxes.count) boxes")
    }
    return ExportLayout(
      boxes: boxes, links: links, grouping: grouping, notes: notes,
      emptyMessage: positions.isEmpty
        ? (focusMissed ? "no node matches the focus" : "the trace has no node") : nil)
  }

  /// The key of the merged box `node` goes in, or `nil` for a box of its own.
  private static func groupKey(of node: TraceGraph.Node, _ grouping: ExportGrouping) -> String? {
    switch grouping {
    case .node: nil
    case .owner: node.owner.map { "owner\u{0}\($0)" } ?? "file\u{0}\(node.file)"
    case .file: "file\u{0}\(node.file)"
    case .module: "module\u{0}\(ExportText.module(of: node.file) ?? node.file)"
    }
  }

  /// The box of one node: `owner · kind` (or `owner · name`), then its file and line.
  private func nodeBox(_ position: Int) -> ExportLayout.Box {
    let id = index.ids[position]
    guard let node = index.nodes[position] else {
      return ExportLayout.Box(
        id: "n\(id)", title: "node #\(id)", detail: "not in the trace",
        tooltip: TraceGraph.describe(nil, id: id), role: nil, isGroup: false, isKnown: false,
        module: nil, file: nil, onCycle: cyclic[position], leaked: leaked[position])
    }
    // `CartStore.added`, or `owner · kind` (`owner · name` for a name that does not say the owner).
    let shown = node.name ?? node.kind
    let owner = node.owner.flatMap { shown.hasPrefix($0 + ".") ? nil : $0 }
    let title = [owner, shown].compactMap { $0 }.map(ExportText.clean).joined(separator: " · ")
    let site = ExportText.clean(ExportText.fileName(of: node.file)) + ":\(node.line)"
    let detail = node.name == nil ? site : ExportText.clean(node.kind) + "  " + site
    let tooltip = TraceGraph.describe(node, id: id)
    return ExportLayout.Box(
      id: "n\(id)", title: title, detail: detail, tooltip: tooltip, role: node.role,
      isGroup: false, isKnown: true, module: ExportText.module(of: node.file), file: node.file,
      onCycle: cyclic[position], leaked: leaked[position])
  }

  /// The box of the nodes at `members`, merged by `grouping`.
  private func groupBox(
    _ members: [Int], _ grouping: ExportGrouping, number: Int
  ) -> ExportLayout.Box {
    let nodes = members.compactMap { index.nodes[$0] }
    let first = nodes[0]
    let files = Set(nodes.map(\.file))
    let modules = Set(nodes.map { ExportText.module(of: $0.file) })
    let title: String
    switch grouping {
    case .owner: title = first.owner ?? ExportText.fileName(of: first.file)
    case .file: title = ExportText.fileName(of: first.file)
    case .node, .module: title = ExportText.module(of: first.file) ?? first.file
    }
    var detail = "\(nodes.count) node\(nodes.count == 1 ? "" : "s")"
    if grouping == .owner {
      detail +=
        files.count == 1 ? " in " + ExportText.fileName(of: first.file) : " in \(files.count) files"
    }
    // A merged box is marked only by what it holds, and says how much.
    let cycleCount = members.filter { cyclic[$0] }.count
    let leakCount = members.filter { leaked[$0] }.count
    if cycleCount > 0 { detail += "\n\(cycleCount) on a cycle" }
    if leakCount > 0 { detail += (cycleCount > 0 ? ", " : "\n") + "\(leakCount) leaked" }
    let listed = members.prefix(12).map(index.label)
    let tooltip = (listed + (members.count > 12 ? ["... and \(members.count - 12) more"] : []))
      .joined(separator: "\n")
    // A file's box sits in its module's cluster; a module's box at the top.
    let module = grouping == .module || modules.count != 1 ? nil : ExportText.module(of: first.file)
    let file = grouping == .owner && files.count == 1 ? first.file : nil
    return ExportLayout.Box(
      id: "g\(number)", title: ExportText.clean(title), detail: ExportText.clean(detail),
      tooltip: tooltip, role: nil, isGroup: true, isKnown: true, module: module, file: file,
      onCycle: cycleCount > 0, leaked: leakCount > 0)
  }

  private struct Pair: Hashable {
    let from: Int
    let to: Int
  }

  private struct EdgeKey: Hashable {
    let from: Int
    let to: Int
    let kind: TraceGraph.EdgeKind
  }
}
