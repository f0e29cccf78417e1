extension TraceGraph {
  /// The graph as Graphviz DOT, for `dot -Tsvg`: a box per node (or per owner or file, see
  /// ``GraphExportOptions/collapse``) inside nested clusters per module and file, and one edge
  /// per kind between two boxes, labelled with its counts.
  ///
  /// - Boxes read `owner · kind` (or `owner · name` for a node named with
  ///   ``/StreamsTraceRecording/TraceRecorder/name(_:_:owner:)``) over `File.swift:line`; their tooltip is
  ///   ``describe(node:)``. Subjects are ellipses, sources houses, operators rounded boxes,
  ///   terminal subscribers filled boxes, merged boxes 3D boxes; an id that only an edge names is a
  ///   dashed box.
  /// - Edges: subscription edges grey with a hollow head (`1 live / 2 ever`), emission edges black
  ///   (`3 events`), control edges dashed (`live / ever`), chain edges bold blue (`3 events`).
  /// - Cycles: the nodes and edges of ``structuralCycles()`` are red, exactly what `cycles`
  ///   lists; a chain edge on a cycle stays the heaviest line. A re-entrant delivery runs along
  ///   those edges and marks nothing more.
  /// - Leaks: the subscriber of each of ``leaks()`` and its subscription edge are purple and
  ///   dashed.
  /// - A merged box is marked by what it holds: a red or purple border, and its second line
  ///   says how many of its nodes are on a cycle or leaked.
  /// - A legend cluster explains the shapes, lines and marks.
  /// - Every id is generated (`n<node id>`, `g<number>`, `cluster_<number>`) and quoted; every
  ///   string escapes `"`, `\`, newlines and `&`, so any name reads as written.
  ///
  /// ```swift
  /// try graph.dot(GraphExportOptions(focus: "CartBadge", depth: 1))
  ///   .write(toFile: "cart-badge.dot", atomically: true, encoding: .utf8)
  /// // dot -Tsvg cart-badge.dot -o cart-badge.svg
  /// ```
  ///
  /// - Parameter options: What to draw; by default the whole graph, one box per node.
  /// - Returns: A `digraph`, one statement a line.
  /// - Complexity: O(*n* log *n* + *e* log *e*).
  public func dot(_ options: GraphExportOptions = GraphExportOptions()) -> String {
    let selection = ExportSelection(self, focus: options.focus, depth: options.depth)
    return DOTWriter(layout: selection.layout(ExportGrouping(options.collapse))).text
  }

  /// How many boxes and edges ``dot(_:)`` draws with `options`, without writing it.
  func drawingSize(_ options: GraphExportOptions) -> (boxes: Int, edges: Int) {
    let layout = ExportSelection(self, focus: options.focus, depth: options.depth)
      .layout(ExportGrouping(options.collapse))
    return (layout.boxes.count, layout.links.count)
  }
}

/// Spells an ``ExportLayout`` in Graphviz's DOT language.
struct DOTWriter {
  let layout: ExportLayout

  var text: String {
    var lines = [
      "// StreamsTrace graph: \(layout.boxes.count) boxes, \(layout.links.count) edges"
    ]
    lines += layout.notes.map { "// \($0)" }
    lines.append("digraph \(Self.quote("StreamsTrace")) {")
    lines.append(
      "  graph "
        + Self.attributes([
          ("rankdir", "LR"), ("fontname", "Helvetica"), ("fontsize", "11"),
          ("labeljust", "l"),
        ]))
    lines.append(
      "  node "
        + Self.attributes([("fontname", "Helvetica"), ("fontsize", "10"), ("shape", "box")]))
    lines.append("  edge " + Self.attributes([("fontname", "Helvetica"), ("fontsize", "9")]))
    if let message = layout.emptyMessage {
      lines.append(
        "  \(Self.quote("empty")) "
          + Self.attributes([("shape", "plaintext"), ("label", message)]))
    }
    var clusterCount = 0
    write(layout.clusters(), depth: 0, into: &lines, clusterCount: &clusterCount)
    for link in layout.links {
      lines.append(
        "  \(Self.quote(layout.boxes[link.from].id)) -> \(Self.quote(layout.boxes[link.to].id)) "
          + Self.attributes(Self.attributes(of: link)))
    }
    lines += legend(clusterNumber: clusterCount)
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The legend: one sample box per shape and mark, one sample line per edge kind.
  private func legend(clusterNumber: Int) -> [String] {
    let boxes: [(String, [(String, String)])] = [
      ("subject or relay", [("shape", "ellipse")]),
      ("operator", [("shape", "box"), ("style", "rounded")]),
      ("subscriber", [("shape", "box"), ("style", "rounded,filled"), ("fillcolor", "gray92")]),
      (
        "on a cycle", [("shape", "box"), ("color", "red"), ("fontcolor", "red"), ("penwidth", "2")]
      ),
      (
        "leaked subscriber",
        [("shape", "box"), ("style", "dashed"), ("color", "purple"), ("penwidth", "2")]
      ),
    ]
    let links: [(String, [(String, String)])] = [
      ("subscribes", [("color", "gray50"), ("arrowhead", "empty")]),
      ("emits", [("color", "black")]),
      ("sends into (chain)", [("style", "bold"), ("color", "blue"), ("penwidth", "2")]),
      ("control", [("style", "dashed"), ("color", "gray30")]),
    ]
    var lines = [
      "  subgraph \(Self.quote("cluster_\(clusterNumber)")) {",
      "    graph "
        + Self.attributes([("label", "legend"), ("style", "rounded"), ("color", "gray70")]),
    ]
    for (number, (label, style)) in boxes.enumerated() {
      lines.append(
        "    \(Self.quote("legend\(number)")) "
          + Self.attributes([("label", label), ("tooltip", label)] + style))
    }
    for (number, (label, style)) in links.enumerated() {
      let from = Self.quote("legend_from\(number)")
      let to = Self.quote("legend_to\(number)")
      let point = Self.attributes([("shape", "point"), ("width", "0.05"), ("label", "")])
      lines.append("    \(from) \(point)")
      lines.append("    \(to) \(point)")
      lines.append(
        "    \(from) -> \(to) " + Self.attributes([("label", label), ("tooltip", label)] + style))
    }
    lines.append("  }")
    return lines
  }

  /// Writes `cluster`'s boxes, then its child clusters as `subgraph "cluster_N"` blocks.
  private func write(
    _ cluster: ExportLayout.Cluster, depth: Int, into lines: inout [String],
    clusterCount: inout Int
  ) {
    let indent = String(repeating: "  ", count: depth + 1)
    for number in cluster.boxes {
      let box = layout.boxes[number]
      lines.append(indent + Self.quote(box.id) + " " + Self.attributes(Self.attributes(of: box)))
    }
    for child in cluster.children {
      lines.append(indent + "subgraph \(Self.quote("cluster_\(clusterCount)")) {")
      clusterCount += 1
      let inner = indent + "  "
      lines.append(
        inner + "graph "
          + Self.attributes([
            ("label", child.label), ("style", depth == 0 ? "rounded" : "rounded,dashed"),
            ("color", depth == 0 ? "gray40" : "gray60"),
            ("tooltip", child.label),
          ]))
      write(child, depth: depth + 1, into: &lines, clusterCount: &clusterCount)
      lines.append(indent + "}")
    }
  }

  private static func attributes(of box: ExportLayout.Box) -> [(String, String)] {
    var result = [("label", box.title + "\n" + box.detail), ("tooltip", box.tooltip)]
    if !box.isKnown {
      result += [("shape", "box"), ("style", "dashed"), ("color", "gray50")]
    } else if box.isGroup {
      result += [("shape", "box3d")]
    } else {
      switch box.role {
      case .subject: result += [("shape", "ellipse")]
      case .source: result += [("shape", "house")]
      case .terminal:
        result += [("shape", "box"), ("style", "rounded,filled"), ("fillcolor", "gray92")]
      case .operator, nil: result += [("shape", "box"), ("style", "rounded")]
      }
    }
    if box.leaked {
      let style = result.last { $0.0 == "style" }?.1
      result += [
        ("color", "purple"), ("penwidth", "2"),
        ("style", style.map { $0 + ",dashed" } ?? "dashed"),
      ]
    }
    if box.onCycle {
      // A merged box's text stays black: its second line says how many of its nodes are marked.
      result += [("color", "red"), ("penwidth", "2")]
      if !box.isGroup { result.append(("fontcolor", "red")) }
    }
    return result
  }

  private static func attributes(of link: ExportLayout.Link) -> [(String, String)] {
    var result: [(String, String)] = []
    if !link.label.isEmpty {
      result.append(("label", link.label))
    }
    result.append(("tooltip", link.kind.rawValue))
    switch link.kind {
    case .subscription:
      result += [("color", "gray50"), ("fontcolor", "gray40"), ("arrowhead", "empty")]
    case .emission: result += [("color", "black")]
    case .control: result += [("style", "dashed"), ("color", "gray30"), ("fontcolor", "gray30")]
    case .chain:
      result += [("style", "bold"), ("color", "blue"), ("fontcolor", "blue"), ("penwidth", "2")]
    }
    if link.onCycle {
      // A chain edge stays the heaviest line on a cycle.
      result += [
        ("color", "red"), ("fontcolor", "red"), ("penwidth", link.kind == .chain ? "3" : "2"),
      ]
    }
    if link.leaked {
      result += [("color", "purple"), ("fontcolor", "purple"), ("style", "dashed")]
      result.append(("tooltip", "leaked subscription"))
    }
    return result
  }

  /// `[key="value", ...]`; a key set twice keeps its last value.
  static func attributes(_ pairs: [(String, String)]) -> String {
    var order: [String] = []
    var values: [String: String] = [:]
    for (key, value) in pairs {
      if values[key] == nil {
        order.append(key)
      }
      values[key] = value
    }
    return "[" + order.map { "\($0)=\(quote(values[$0]!))" }.joined(separator: ", ") + "]"
  }

  /// `text` as a DOT quoted string: `"` and `\` escaped with a backslash, a newline as `\n` (a
  /// line break in a label), other control characters as the visible text `\u{…}`, and `&` as
  /// `&amp;`, since Graphviz reads entities such as `&lt;` in labels. Everything else, non-ASCII
  /// included, is kept as UTF-8, Graphviz's default charset.
  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "&": result += "&amp;"
      default:
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
          result += "\\\\u{\(String(value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
