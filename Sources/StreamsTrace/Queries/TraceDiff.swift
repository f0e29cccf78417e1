/// What changed between two traces of the same code (``StreamsTraceRecording/TraceGraph/diff(from:)``), by stable key.
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
  /// `+ cycle` for a new cycle; `no differences` when empty (after the coverage, between a map
  /// and a recording). Nodes read `kind file:line (owner)`.
  public var description: String {
    guard !isEmpty else {
      return coverage.map { "static map against recorded trace: \($0)\nno differences" }
        ?? "no differences"
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
