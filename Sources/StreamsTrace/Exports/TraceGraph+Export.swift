// The layer shared by the graph exports (`dot(_:)` in TraceGraph+DOT.swift, `mermaid(_:)` in
// TraceGraph+Mermaid.swift): which nodes to draw (a focus and a depth around it), how to group
// them into boxes (one per node, per owner, per file), one edge per (from, to, kind) pair of boxes
// with its counts summed, and which boxes and edges lie on a cycle. The writers only spell the
// result in their syntax, so both formats always draw the same picture.

/// What part of a trace ``StreamsTraceRecording/TraceGraph/dot(_:)`` and ``StreamsTraceRecording/TraceGraph/mermaid(_:)`` draw, and how.
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
