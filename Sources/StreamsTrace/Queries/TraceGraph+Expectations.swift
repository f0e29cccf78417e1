// The checks behind the test API (`expectEdge`, `expectNoCycle`, `expectEmissionCount`,
// `expectNoLiveSubscriptions` in StreamsTest, for Swift Testing and XCTest): each returns the
// failure message, or `nil` when the check passes, so the logic and the messages are written and
// tested once. A message states what was expected and what was found, then prints the part of the
// graph that explains it: the nodes the selectors match with their edges in and out, the nodes
// and edges of a cycle, the live subscriptions with their subscribe sites.

extension TraceGraph {
  /// The failure message of `expectEdge`: `nil` when some node that `from` matches has an edge
  /// of `kind` (any kind when `nil`) to some node that `to` matches.
  ///
  /// ```swift
  /// // subject(1) -> subscribe(2), both owned by Feed
  /// graph.edgeFailure(from: .kind("PublishSubject"), to: "Feed", kind: .subscription)  // nil
  /// print(graph.edgeFailure(from: "Feed", to: "Header")!)
  /// // Prints "expected an edge from owner or name "Feed" to owner or name "Header", found none
  /// //   ..." and the nodes `from` matches with their edges
  /// ```
  ///
  /// - Parameters:
  ///   - from: The nodes the edge may start at.
  ///   - to: The nodes the edge may end at.
  ///   - kind: The edge's kind; `nil` accepts any.
  /// - Returns: `nil` when such an edge exists; otherwise what was expected, the edges of other
  ///   kinds between the two sets if any, and each set's nodes with their edges in and out (or,
  ///   when a selector matches nothing, the owners and names the trace has).
  public func edgeFailure(
    from: NodeSelector, to: NodeSelector, kind: EdgeKind? = nil
  ) -> String? {
    let excerpt = GraphExcerpt(self)
    let sources = excerpt.ids(matching: from)
    let targets = excerpt.ids(matching: to)
    let sourceSet = Set(sources)
    let targetSet = Set(targets)
    let between = edges.filter { sourceSet.contains($0.from) && targetSet.contains($0.to) }
    if between.contains(where: { kind == nil || $0.kind == kind }) { return nil }
    let what = kind.map { "a \($0.rawValue) edge" } ?? "an edge"
    var lines = ["expected \(what) from \(from) to \(to), found none"]
    if !between.isEmpty {
      lines.append("edges of other kinds between them:")
      lines += excerpt.groupedEdges(between).map { "  \($0)" }
    }
    lines += excerpt.matches(from, ids: sources, role: "from")
    lines += excerpt.matches(to, ids: targets, role: "to")
    return lines.joined(separator: "\n")
  }

  /// The failure message of `expectNoCycle`: `nil` when the data-flow graph has no cycle through
  /// a node `through` matches, and no re-entrant delivery to one.
  ///
  /// Cycles are those of ``structuralCycles()``; re-entrant deliveries those of
  /// ``dynamicCycles()``. Each cycle found is printed with its nodes, its files, the edges
  /// between its nodes (the chain edges among them are what closes it) and the re-entrant
  /// deliveries on it.
  ///
  /// ```swift
  /// // subject(1) -> subscribe(2) -chain-> subject(1)
  /// print(graph.cycleFailure()!)
  /// // Prints "expected no cycle, found 1:
  /// //   cycle of 2 nodes across A.swift: ..."
  /// ```
  ///
  /// - Parameter through: The nodes a cycle must contain to count; ``NodeSelector/any`` (the
  ///   default) counts every cycle.
  /// - Returns: `nil` when there is no such cycle; otherwise each one with its nodes, files,
  ///   edges and re-entrant deliveries.
  public func cycleFailure(through: NodeSelector = .any) -> String? {
    let excerpt = GraphExcerpt(self)
    let selected = Set(excerpt.ids(matching: through))
    func counts(_ id: UInt64) -> Bool { through == .any || selected.contains(id) }
    let cycles = structuralCycles().filter { $0.nodes.contains(where: counts) }
    let dynamic = dynamicCycles()
    var onCycles: Set<UInt64> = []
    for cycle in cycles {
      onCycles.formUnion(cycle.nodes)
    }
    // A re-entrant delivery implies a cycle of recorded edges, so one off every structural
    // cycle only happens in a hand-made graph; it fails the check too.
    let stray = dynamic.filter { !onCycles.contains($0.node) && counts($0.node) }
    guard !cycles.isEmpty || !stray.isEmpty else { return nil }

    let scope = through == .any ? "" : " through \(through)"
    let count = cycles.count + stray.count
    var lines = ["expected no cycle\(scope), found \(count):"]
    for cycle in cycles {
      let members = Set(cycle.nodes)
      lines += cycle.description.split(separator: "\n").map { "  \($0)" }
      let inside = edges.filter {
        $0.kind != .control && members.contains($0.from) && members.contains($0.to)
      }
      lines.append("    edges on the cycle (chain edges close it):")
      lines += excerpt.groupedEdges(inside).map { "      \($0)" }
      let reentrant = dynamic.filter { members.contains($0.node) }
      if !reentrant.isEmpty {
        lines.append("    re-entrant deliveries on it:")
        lines += reentrant.map { "      \($0)" }
      }
    }
    lines += stray.map { "  \($0)" }
    return lines.joined(separator: "\n")
  }

  /// The events that went from nodes `from` matches to nodes `to` matches: the counts of the
  /// emission edges between them (events delivered, once per receiving subscriber) and of the
  /// chain edges (events a subscriber sent into a subject or relay).
  ///
  /// ```swift
  /// // subject(1) -> subscribe(2): 3 events; subscribe(2) -chain-> relay(3): 3 sends
  /// graph.emissionCount(from: .id(1))  // 3
  /// graph.emissionCount(to: .id(3))    // 3
  /// graph.emissionCount()              // 6
  /// ```
  ///
  /// - Parameters:
  ///   - from: The senders; ``NodeSelector/any`` (the default) counts every sender.
  ///   - to: The receivers; ``NodeSelector/any`` (the default) counts every receiver.
  /// - Returns: The sum of the counts of those emission and chain edges.
  public func emissionCount(from: NodeSelector = .any, to: NodeSelector = .any) -> Int {
    let excerpt = GraphExcerpt(self)
    return emissionEdges(
      from: Set(excerpt.ids(matching: from)), to: Set(excerpt.ids(matching: to))
    )
    .reduce(0) { $0 + $1.count }
  }

  /// The failure message of `expectEmissionCount`: `nil` when ``emissionCount(from:to:)`` is
  /// `expected`.
  ///
  /// ```swift
  /// // subject(1) -> subscribe(2): 3 events
  /// graph.emissionCountFailure(3, from: .id(1), to: .id(2))  // nil
  /// print(graph.emissionCountFailure(2, from: .id(1))!)
  /// // Prints "expected 2 emissions from id 1, found 3:
  /// //   PublishSubject A.swift:1 -> subscribe A.swift:2: emission ×3
  /// //   ..."
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The number of events expected.
  ///   - from: The senders; ``NodeSelector/any`` (the default) counts every sender.
  ///   - to: The receivers; ``NodeSelector/any`` (the default) counts every receiver.
  /// - Returns: `nil` when the count is `expected`; otherwise both numbers, the edges counted,
  ///   and the nodes each selector matches with their edges.
  public func emissionCountFailure(
    _ expected: Int, from: NodeSelector = .any, to: NodeSelector = .any
  ) -> String? {
    let excerpt = GraphExcerpt(self)
    let sources = excerpt.ids(matching: from)
    let targets = excerpt.ids(matching: to)
    let counted = emissionEdges(from: Set(sources), to: Set(targets))
    let found = counted.reduce(0) { $0 + $1.count }
    guard found != expected else { return nil }
    var scope = ""
    if from != .any { scope += " from \(from)" }
    if to != .any { scope += " to \(to)" }
    let noun = expected == 1 ? "emission" : "emissions"
    var lines = ["expected \(expected) \(noun)\(scope), found \(found)" + (found > 0 ? ":" : "")]
    lines += excerpt.groupedEdges(counted).prefix(GraphExcerpt.limit).map { "  \($0)" }
    if counted.count > GraphExcerpt.limit {
      lines.append("  ... and more")
    }
    if from != .any { lines += excerpt.matches(from, ids: sources, role: "from") }
    if to != .any { lines += excerpt.matches(to, ids: targets, role: "to") }
    return lines.joined(separator: "\n")
  }

  /// The subscriptions still live whose owner is `owner` (see ``/StreamsTraceRecording/TraceGraph/Subscription/owner``), by
  /// ascending id.
  public func liveSubscriptions(owner: String) -> [Subscription] {
    subscriptions.filter { $0.owner == owner }.sorted { $0.id < $1.id }
  }

  /// The failure message of `expectNoLiveSubscriptions`: `nil` when no subscription owned by
  /// `owner` is live.
  ///
  /// A subscription's owner is its `subscribe(with:)` object's type or, for the others, the
  /// type named by the subscribe call's file (`CartBadge.swift` → `CartBadge`). Each live one is
  /// printed with its subscriber, the node it listens to and that node's upstreams (what keeps
  /// it alive), its subscribe site, and whether its owner is gone (a leak).
  ///
  /// ```swift
  /// banner = nil
  /// print(graph.liveSubscriptionsFailure(owner: "PromoBanner")!)
  /// // Prints "expected no live subscriptions owned by PromoBanner, found 1:
  /// //   subscribe(with:) App/PromoBanner.swift:9 (PromoBanner) subscribes to filter ...,
  /// //     subscribed at App/PromoBanner.swift:9; the owner is gone: a leak
  /// //     upstream: filter ... <- PublishSubject App/Catalog.swift:5 (Catalog)"
  /// ```
  ///
  /// - Parameter owner: The owner's type name, as the recorder writes it.
  /// - Returns: `nil` when there is none; otherwise each live subscription.
  public func liveSubscriptionsFailure(owner: String) -> String? {
    let live = liveSubscriptions(owner: owner)
    guard !live.isEmpty else { return nil }
    let excerpt = GraphExcerpt(self)
    var lines = ["expected no live subscriptions owned by \(owner), found \(live.count):"]
    for subscription in live {
      lines.append(
        "  \(excerpt.label(subscription.subscriber)) subscribes to "
          + "\(excerpt.label(subscription.node)),")
      lines.append(
        "    subscribed at \(subscription.file):\(subscription.line)"
          + (subscription.ownerGone ? "; the owner is gone: a leak" : ""))
      lines.append("    upstream: " + excerpt.upstreamPath(from: subscription.node))
    }
    if live.contains(where: { !$0.ownerGone }) {
      lines.append(
        "(whether the owner is gone is known for `subscribe(with:)` only; other owners are "
          + "named by their file)")
    }
    return lines.joined(separator: "\n")
  }

  /// The failure message of `expectNoLiveSubscriptions` for the owner type `owner`, named as
  /// the recorder names it (`String(describing:)`).
  public func liveSubscriptionsFailure(owner: Any.Type) -> String? {
    liveSubscriptionsFailure(owner: typeName(owner))
  }

  /// The emission and chain edges from one set of nodes to another.
  private func emissionEdges(from sources: Set<UInt64>, to targets: Set<UInt64>) -> [Edge] {
    edges.filter {
      ($0.kind == .emission || $0.kind == .chain) && sources.contains($0.from)
        && targets.contains($0.to)
    }
  }
}

/// The part of a graph a failure message prints: nodes with their edges in and out, grouped by
/// neighbour, capped so that a hub with a thousand subscribers still prints a readable message.
struct GraphExcerpt {
  /// How many nodes, and how many neighbours per direction, a message lists at most.
  static let limit = 12

  private let graph: TraceGraph
  private var byID: [UInt64: TraceGraph.Node] = [:]
  private var outgoing: [UInt64: [TraceGraph.Edge]] = [:]
  private var incoming: [UInt64: [TraceGraph.Edge]] = [:]

  init(_ graph: TraceGraph) {
    self.graph = graph
    for node in graph.nodes where byID[node.id] == nil {
      byID[node.id] = node
    }
    for edge in graph.edges {
      outgoing[edge.from, default: []].append(edge)
      incoming[edge.to, default: []].append(edge)
    }
  }

  /// The ids of the nodes `selector` matches, ascending.
  func ids(matching selector: TraceGraph.NodeSelector) -> [UInt64] {
    graph.nodes.filter(selector.matches).map(\.id).sorted()
  }

  /// `describe(node:)` of `id`.
  func label(_ id: UInt64) -> String { TraceGraph.describe(byID[id], id: id) }

  /// The nodes a selector matched, each with its edges; or, when it matched none, the owners
  /// and names the trace has.
  func matches(_ selector: TraceGraph.NodeSelector, ids: [UInt64], role: String) -> [String] {
    guard !ids.isEmpty else {
      var lines = ["\(role): no node matches \(selector)"]
      let owners = Set(graph.nodes.compactMap(\.owner)).sorted()
      let names = Set(graph.nodes.compactMap(\.name)).sorted()
      lines.append("  owners in the trace: " + list(owners))
      if !names.isEmpty {
        lines.append("  names in the trace: " + list(names))
      }
      return lines
    }
    let plural = ids.count == 1 ? "node matches" : "nodes match"
    var lines = ["\(role): \(ids.count) \(plural) \(selector):"]
    for id in ids.prefix(Self.limit) {
      lines += neighbourhood(of: id).map { "  \($0)" }
    }
    if ids.count > Self.limit {
      lines.append("  ... and \(ids.count - Self.limit) more")
    }
    return lines
  }

  /// A node's label, then its edges in and out, one line per neighbour.
  func neighbourhood(of id: UInt64) -> [String] {
    var lines = [label(id)]
    let edgesIn = grouped(incoming[id] ?? [], by: \.from)
    let edgesOut = grouped(outgoing[id] ?? [], by: \.to)
    if edgesIn.isEmpty && edgesOut.isEmpty {
      lines.append("  (no edges)")
    }
    for (direction, arrow, groups) in [("in: ", "<-", edgesIn), ("out:", "->", edgesOut)] {
      for (neighbour, text) in groups.prefix(Self.limit) {
        lines.append("  \(direction) \(arrow) \(label(neighbour)): \(text)")
      }
      if groups.count > Self.limit {
        lines.append("  \(direction) ... and \(groups.count - Self.limit) more")
      }
    }
    return lines
  }

  /// `from -> to: kind ×count, ...`, one line per pair of nodes, in the edges' order.
  func groupedEdges(_ edges: [TraceGraph.Edge]) -> [String] {
    var order: [Pair] = []
    var byPair: [Pair: [TraceGraph.Edge]] = [:]
    for edge in edges {
      let pair = Pair(from: edge.from, to: edge.to)
      if byPair[pair] == nil {
        order.append(pair)
      }
      byPair[pair, default: []].append(edge)
    }
    return order.map { pair in
      "\(label(pair.from)) -> \(label(pair.to)): \(counts(byPair[pair]!))"
    }
  }

  /// The node's first upstreams, outermost last: `filter A.swift:9 <- PublishSubject B.swift:5`.
  func upstreamPath(from id: UInt64) -> String {
    var path = [label(id)]
    var seen: Set<UInt64> = [id]
    var current = byID[id]
    while let node = current, let next = node.upstreams.first, path.count < 16 {
      guard seen.insert(next).inserted else { break }
      var step = label(next)
      if node.upstreams.count > 1 {
        path[path.count - 1] += " (first of \(node.upstreams.count) upstreams)"
      }
      if byID[next] == nil {
        step += " (not in the trace)"
      }
      path.append(step)
      current = byID[next]
    }
    return path.joined(separator: " <- ")
  }

  private struct Pair: Hashable {
    let from: UInt64
    let to: UInt64
  }

  /// Edges grouped by the neighbour `key` names, in ascending neighbour order, with their counts.
  private func grouped(
    _ edges: [TraceGraph.Edge], by key: KeyPath<TraceGraph.Edge, UInt64>
  ) -> [(UInt64, String)] {
    let groups = Dictionary(grouping: edges) { $0[keyPath: key] }
    return groups.keys.sorted().map { ($0, counts(groups[$0]!)) }
  }

  /// `subscription ×1 (1 live), emission ×3`, in the order of ``TraceGraph/EdgeKind``.
  private func counts(_ edges: [TraceGraph.Edge]) -> String {
    TraceGraph.EdgeKind.allCases.flatMap { kind in
      edges.filter { $0.kind == kind }.map { edge in
        var text = "\(kind.rawValue) ×\(edge.count)"
        if kind == .subscription || kind == .control {
          text += " (\(edge.live) live)"
        }
        return text
      }
    }
    .joined(separator: ", ")
  }

  private func list(_ items: [String]) -> String {
    guard !items.isEmpty else { return "none" }
    let shown = items.prefix(Self.limit * 2).joined(separator: ", ")
    return items.count > Self.limit * 2
      ? shown + ", ... and \(items.count - Self.limit * 2) more" : shown
  }
}
