// The layer shared by the graph exports (`dot(_:)` in TraceGraph+DOT.swift, `mermaid(_:)` in
// TraceGraph+Mermaid.swift): which nodes to draw (a focus and a depth around it), how to group
// them into boxes (one per node, per owner, per file), one edge per (from, to, kind) pair of boxes
// with its counts summed, and which boxes and edges lie on a cycle. The writers only spell the
// result in their syntax, so both formats always draw the same picture.

/// What part of a trace ``TraceGraph/dot(_:)`` and ``TraceGraph/mermaid(_:)`` draw, and how.
///
/// ```swift
/// // The cart badge and everything within two edges of it, one box per owner.
/// let options = GraphExportOptions(focus: "CartBadge", depth: 2, collapse: .owner)
/// print(graph.dot(options))
/// ```
public struct GraphExportOptions: Sendable, Equatable {
  /// How nodes merge into boxes.
  public enum Collapse: String, Sendable, CaseIterable {
    /// One box per node.
    case none
    /// One box per file (`#fileID`): every node made in the file.
    case file
    /// One box per owner type; nodes without an owner merge by file.
    case owner
  }

  /// The nodes to centre on; `nil` draws the whole graph.
  public var focus: TraceGraph.NodeSelector?
  /// How many edges away from the focus to draw, following every kind of edge in both
  /// directions; `nil` draws everything connected to the focus. 0 draws the focus alone. Without
  /// a focus the whole graph is drawn and the depth is not used.
  public var depth: Int?
  /// How nodes merge into boxes; edges between the merged boxes add their counts up, and edges
  /// inside one merged box are left out.
  public var collapse: Collapse

  /// Options with the given fields: by default the whole graph, one box per node.
  public init(
    focus: TraceGraph.NodeSelector? = nil, depth: Int? = nil, collapse: Collapse = .none
  ) {
    self.focus = focus
    self.depth = depth
    self.collapse = collapse
  }
}

/// How an export groups nodes into boxes, finest first: the public ``GraphExportOptions/Collapse``
/// levels, and the module level that the Mermaid export falls back to when a graph is too big.
enum ExportGrouping: Int, Comparable, CaseIterable {
  case node, owner, file, module

  init(_ collapse: GraphExportOptions.Collapse) {
    switch collapse {
    case .none: self = .node
    case .owner: self = .owner
    case .file: self = .file
    }
  }

  /// How a note names it: "by owner".
  var phrase: String {
    switch self {
    case .node: "node by node"
    case .owner: "by owner"
    case .file: "by file"
    case .module: "by module"
    }
  }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

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

/// What an export draws: boxes (nodes or merged groups of nodes) and one link per (from, to,
/// kind) pair of boxes, with the cycle marks and the clusters the boxes sit in.
struct ExportLayout {
  /// One box of the drawing.
  struct Box {
    /// The writers' identifier: `n<node id>` for a node, `g<number>` for a merged box.
    var id: String
    /// The first line: `owner · kind`, `owner · name`, or the group's owner, file or module.
    var title: String
    /// The second line: the kind (when named) and `File.swift:line`, or the group's size.
    var detail: String
    /// The node as ``TraceGraph/describe(node:)`` prints it, or the merged nodes one a line.
    var tooltip: String
    /// The node's role; `nil` for a merged box and for a node the trace does not have.
    var role: TraceGraph.Role?
    var isGroup: Bool
    /// `false` for an id that only an edge or an upstream list names.
    var isKnown: Bool
    /// The module cluster the box sits in, if any.
    var module: String?
    /// The `#fileID` of the file cluster the box sits in, if any (inside its module's).
    var file: String?
    /// Whether the box holds a node on a cycle.
    var onCycle: Bool
    /// Whether the box holds the subscriber of a leaked subscription.
    var leaked: Bool
  }

  /// One edge of the drawing: every edge of one kind between two boxes, counts summed.
  struct Link {
    /// Indices in ``ExportLayout/boxes``.
    var from: Int
    var to: Int
    var kind: TraceGraph.EdgeKind
    var count: Int
    var live: Int
    var recorded: Bool
    var onCycle: Bool
    var leaked: Bool

    /// `3 events` for emission and chain edges, `1 live / 2 ever` for subscription and control
    /// edges; empty when no recorded edge stands for it (only an upstream list names it).
    var label: String {
      guard recorded else { return "" }
      switch kind {
      case .emission, .chain: return "\(count) event\(count == 1 ? "" : "s")"
      case .subscription, .control: return "\(live) live / \(count) ever"
      }
    }
  }

  /// A cluster: a module holding file clusters, or a file holding boxes.
  struct Cluster {
    var label: String
    var boxes: [Int]
    var children: [Cluster]
  }

  var boxes: [Box]
  var links: [Link]
  var grouping: ExportGrouping
  /// What the export did, for the writers' comments (never user text).
  var notes: [String]
  /// When there is nothing to draw, what the one placeholder box says.
  var emptyMessage: String?

  /// The drawing's top level: boxes outside any cluster, then one cluster per module holding a
  /// cluster per file, then clusters of files without a module; each sorted by name.
  func clusters() -> Cluster {
    var loose: [Int] = []
    var modules: [String: [String: [Int]]] = [:]
    var moduleBoxes: [String: [Int]] = [:]
    var moduleless: [String: [Int]] = [:]
    for (number, box) in boxes.enumerated() {
      switch (box.module, box.file) {
      case (let module?, let file?): modules[module, default: [:]][file, default: []].append(number)
      case (let module?, nil):
        moduleBoxes[module, default: []].append(number)
        if modules[module] == nil { modules[module] = [:] }
      case (nil, let file?): moduleless[file, default: []].append(number)
      case (nil, nil): loose.append(number)
      }
    }
    // A cluster's label is never empty: Mermaid rejects an empty quoted title.
    func label(_ text: String) -> String {
      text.isEmpty ? "(no file name)" : ExportText.clean(text)
    }
    var children: [Cluster] = modules.keys.sorted().map { module in
      let files = modules[module]!
      return Cluster(
        label: label(module), boxes: moduleBoxes[module] ?? [],
        children: files.keys.sorted().map {
          Cluster(label: label(ExportText.fileName(of: $0)), boxes: files[$0]!, children: [])
        })
    }
    children += moduleless.keys.sorted().map {
      Cluster(label: label($0), boxes: moduleless[$0]!, children: [])
    }
    return Cluster(label: "", boxes: loose, children: children)
  }

  /// This layout with only the links at `kept` (indices in ``links``), in their order.
  func keeping(links kept: [Int]) -> ExportLayout {
    var copy = self
    copy.links = kept.sorted().map { links[$0] }
    return copy
  }
}

/// Text helpers shared by the writers.
enum ExportText {
  /// How many Unicode scalars of one name, kind or owner a label shows.
  static let limit = 60

  /// The module of a `#fileID`: its first path component, when it has more than one.
  static func module(of file: String) -> String? {
    guard let slash = file.firstIndex(of: "/"), slash != file.startIndex else { return nil }
    return String(file[..<slash])
  }

  /// A `#fileID` without its module: `TopViewModel.swift` for `ScreenDemo/TopViewModel.swift`.
  static func fileName(of file: String) -> String {
    guard module(of: file) != nil, let slash = file.firstIndex(of: "/") else { return file }
    return String(file[file.index(after: slash)...])
  }

  /// `text` as a label shows it: control characters other than newlines written as `\u{…}`,
  /// and cut to ``limit`` scalars with an ellipsis.
  static func clean(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        result.append("…")
        break
      }
      count += 1
      let value = scalar.value
      if scalar == "\n" {
        result.append(scalar)
      } else if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
      {
        result.append(contentsOf: "\\u{\(String(value, radix: 16))}".unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
