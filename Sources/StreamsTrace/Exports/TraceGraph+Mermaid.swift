extension TraceGraph {
  /// The graph as a Mermaid `flowchart LR`, for a Markdown file, an issue or a pull request: a box
  /// per node (or per owner or file, see ``GraphExportOptions/collapse``) inside subgraphs per
  /// module and file, and one edge per kind between two boxes, labelled with its counts.
  ///
  /// - Boxes read `owner · kind` (or `owner · name`) over `File.swift:line`. Subjects are
  ///   stadiums, sources asymmetric flags, operators rectangles, terminal subscribers subroutine
  ///   boxes, merged boxes hexagons; an id that only an edge names is dashed.
  /// - Edges: subscription edges end in a circle (`1 live / 2 ever`), emission edges in an arrow
  ///   (`3 events`), control edges are dotted, chain edges thick and blue (thicker and red on a
  ///   cycle).
  /// - Cycles: the nodes and edges of ``structuralCycles()`` and of ``dynamicCycles()``'
  ///   deliveries are red.
  /// - When more than 50 edges cross subgraphs, the boxes (which name their file) are drawn
  ///   without subgraphs and a `%%` comment says so: Mermaid's dagre layout throws on some
  ///   clustered graphs with more.
  /// - The text always renders with Mermaid's default limits (500 edges, 50,000 characters).
  ///   When the graph is too big, it is collapsed further (by owner, then by file, then by
  ///   module), and if that is not enough the edges with the lowest counts are dropped (cycle
  ///   edges last), then the boxes with the least traffic; a `%%` comment says what was done.
  /// - Every id is generated (`n<node id>`, `g<number>`, `s<number>`), so no name can be a
  ///   keyword such as `end`; every label is quoted, and every character other than letters,
  ///   digits and `.,_/()+=*!?@$~'^` and spaces is written as an entity code (`#quot;`, `#45;`),
  ///   so a name holding `-->`, `|`, brackets or quotes reads as written.
  ///
  /// ```swift
  /// print(graph.mermaid(GraphExportOptions(collapse: .owner)))
  /// // Prints "flowchart LR\n  %% StreamsTrace graph: ..."
  /// ```
  ///
  /// - Parameter options: What to draw; by default the whole graph, one box per node.
  /// - Returns: The flowchart, one statement a line.
  /// - Complexity: O((*n* log *n* + *e* log *e*) log *e*) at worst, when edges must be dropped.
  public func mermaid(_ options: GraphExportOptions = GraphExportOptions()) -> String {
    let selection = ExportSelection(self, focus: options.focus, depth: options.depth)
    return MermaidWriter.fitted(selection, requested: ExportGrouping(options.collapse))
  }
}

/// Spells an ``ExportLayout`` as a Mermaid flowchart, and shrinks it to Mermaid's limits.
struct MermaidWriter {
  /// Mermaid's default `maxEdges`: a flowchart with more edges fails to render.
  static let maxEdges = 500
  /// Mermaid's default `maxTextSize`: a longer text renders as an error message. The text must
  /// stay below it, in UTF-16 code units (the writer only writes ASCII).
  static let maxTextSize = 50_000

  /// How many edges may cross subgraphs before the boxes are drawn without them: Mermaid's
  /// dagre layout throws on some clustered graphs with more (with 80 edges between 200 boxes
  /// in 40 subgraphs, one random graph in ten; with 150 edges of a real graph's shape, always).
  static let maxCrossingEdges = 50

  let layout: ExportLayout

  /// The text of `selection` at the `requested` grouping, or the finest coarser one that fits,
  /// or, when none does, with the least important edges and then boxes left out.
  static func fitted(_ selection: ExportSelection, requested: ExportGrouping) -> String {
    let limits = "Mermaid's limits (\(maxEdges) edges, \(maxTextSize) characters)"
    var tried: [ExportLayout] = []
    for grouping in ExportGrouping.allCases where grouping >= requested {
      var layout = selection.layout(grouping)
      if grouping != requested {
        layout.notes.append("auto-collapsed \(grouping.phrase) to stay within \(limits)")
      }
      let text = MermaidWriter(layout: layout).text
      if fits(text, layout) { return text }
      tried.append(layout)
    }

    // Of the groupings whose boxes fit on their own, the one that keeps the most edges (the
    // finer on a tie) keeps as many as fit: the edges on cycles first, then by count.
    var best: (text: String, kept: Int)?
    for layout in tried {
      let ranked = layout.links.indices.sorted {
        let (lhs, rhs) = (layout.links[$0], layout.links[$1])
        if lhs.onCycle != rhs.onCycle { return lhs.onCycle }
        if lhs.count != rhs.count { return lhs.count > rhs.count }
        return $0 < $1
      }
      func text(keeping kept: Int) -> (String, ExportLayout) {
        var smaller = layout.keeping(links: Array(ranked.prefix(kept)))
        let dropped = ranked.count - kept
        let lowest = kept > 0 ? layout.links[ranked[kept - 1]].count : 0
        smaller.notes.append(
          "dropped \(dropped) of \(ranked.count) edges with the lowest counts to stay within "
            + "\(limits); the edges kept count at least \(lowest), cycle edges kept first")
        return (MermaidWriter(layout: smaller).text, smaller)
      }
      let bare = text(keeping: 0)
      guard fits(bare.0, bare.1) else { continue }
      let kept = largest(upTo: ranked.count) {
        let (candidate, smaller) = text(keeping: $0)
        return fits(candidate, smaller)
      }
      if kept > best?.kept ?? -1 {
        best = (text(keeping: kept).0, kept)
      }
      if kept == maxEdges { break }  // no coarser grouping keeps more
    }
    if let best { return best.text }

    // Even the coarsest grouping's boxes are too many: keep the boxes on cycles, then the boxes
    // with the most traffic, and the heaviest edges between them.
    let layout = tried[tried.count - 1]
    var traffic = [Int](repeating: 0, count: layout.boxes.count)
    for link in layout.links {
      traffic[link.from] += link.count
      traffic[link.to] += link.count
    }
    let ranked = layout.boxes.indices.sorted {
      let (lhs, rhs) = (layout.boxes[$0], layout.boxes[$1])
      if lhs.onCycle != rhs.onCycle { return lhs.onCycle }
      if traffic[$0] != traffic[$1] { return traffic[$0] > traffic[$1] }
      return $0 < $1
    }
    func text(keeping kept: Int) -> (String, ExportLayout) {
      var smaller = layout.keeping(boxes: Array(ranked.prefix(kept)))
      let edges = smaller.links.indices.sorted {
        let (lhs, rhs) = (smaller.links[$0], smaller.links[$1])
        if lhs.onCycle != rhs.onCycle { return lhs.onCycle }
        if lhs.count != rhs.count { return lhs.count > rhs.count }
        return $0 < $1
      }
      smaller = smaller.keeping(links: Array(edges.prefix(maxEdges)))
      smaller.notes.append(
        "dropped \(ranked.count - kept) of \(ranked.count) boxes with the least traffic, and "
          + "their edges, to stay within \(limits)")
      return (MermaidWriter(layout: smaller).text, smaller)
    }
    let kept = largest(upTo: ranked.count) {
      let (candidate, smaller) = text(keeping: $0)
      return fits(candidate, smaller)
    }
    return text(keeping: kept).0
  }

  /// Whether Mermaid renders `text`, which spells `layout`, with its default limits.
  static func fits(_ text: String, _ layout: ExportLayout) -> Bool {
    layout.links.count <= maxEdges && text.utf16.count < maxTextSize
  }

  /// The largest `k` in `0...limit` for which `accepts(k)` holds, given that it holds for 0 and
  /// that once it fails it fails for every larger `k`: a binary search.
  private static func largest(upTo limit: Int, _ accepts: (Int) -> Bool) -> Int {
    var low = 0  // accepted
    var high = limit + 1  // rejected (or past the end)
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if accepts(middle) {
        low = middle
      } else {
        high = middle
      }
    }
    return low
  }

  var text: String {
    var lines = [
      "flowchart LR",
      "  %% StreamsTrace graph: \(layout.boxes.count) boxes, \(layout.links.count) edges",
    ]
    lines += layout.notes.map { "  %% \($0)" }
    if let message = layout.emptyMessage, layout.boxes.isEmpty {
      lines.append("  placeholder[\"\(Self.escape(message))\"]")
    }
    // Mermaid's dagre layout fails ("Cannot set properties of undefined (setting 'order')",
    // dagre issue 234) on some graphs whose subgraphs many edges cross; past a bound the boxes,
    // which name their file anyway, are drawn without subgraphs.
    let crossing = layout.links.filter {
      let (from, to) = (layout.boxes[$0.from], layout.boxes[$0.to])
      return from.module != to.module || from.file != to.file
    }
    var subgraphCount = 0
    if crossing.count > Self.maxCrossingEdges {
      lines.append(
        "  %% no subgraphs: \(crossing.count) edges cross files, over the "
          + "\(Self.maxCrossingEdges) that Mermaid's layout handles reliably with subgraphs")
      let flat = ExportLayout.Cluster(label: "", boxes: Array(layout.boxes.indices), children: [])
      write(flat, depth: 0, into: &lines, subgraphCount: &subgraphCount)
    } else {
      write(layout.clusters(), depth: 0, into: &lines, subgraphCount: &subgraphCount)
    }

    var red: [Int] = []
    var redChains: [Int] = []
    var blue: [Int] = []
    var purple: [Int] = []
    for (number, link) in layout.links.enumerated() {
      let arrow: String
      switch link.kind {
      case .subscription: arrow = "--o"
      case .emission: arrow = "-->"
      case .control: arrow = "-.->"
      case .chain: arrow = "==>"
      }
      let label = link.label.isEmpty ? "" : "|\"\(Self.escape(link.label))\"|"
      lines.append(
        "  \(layout.boxes[link.from].id) \(arrow)\(label) \(layout.boxes[link.to].id)")
      if link.leaked {
        purple.append(number)
      } else if link.onCycle && link.kind == .chain {
        redChains.append(number)
      } else if link.onCycle {
        red.append(number)
      } else if link.kind == .chain {
        blue.append(number)
      }
    }

    for (name, style, boxes) in [
      ("merged", "stroke-width:2px", layout.boxes.filter(\.isGroup)),
      ("missing", "stroke-dasharray:4 3", layout.boxes.filter { !$0.isKnown }),
      (
        "cycle", "stroke:red,stroke-width:2px,color:red",
        layout.boxes.filter { $0.onCycle && !$0.leaked && !$0.isGroup }
      ),
      (
        "cycleLeak", "stroke:red,stroke-width:2px,color:red,stroke-dasharray:5 3",
        layout.boxes.filter { $0.onCycle && $0.leaked && !$0.isGroup }
      ),
      // A merged box's text stays black: its second line says how many nodes are marked.
      (
        "holdsCycle", "stroke:red,stroke-width:3px",
        layout.boxes.filter { $0.onCycle && $0.isGroup }
      ),
      (
        "leak", "stroke:purple,stroke-width:2px,stroke-dasharray:5 3",
        layout.boxes.filter { $0.leaked && !$0.onCycle && !$0.isGroup }
      ),
      (
        "holdsLeak", "stroke:purple,stroke-width:3px,stroke-dasharray:5 3",
        layout.boxes.filter { $0.leaked && !$0.onCycle && $0.isGroup }
      ),
    ] where !boxes.isEmpty {
      lines.append("  classDef \(name) \(style)")
      lines.append("  class \(boxes.map(\.id).joined(separator: ",")) \(name)")
    }
    // Thick chain links keep their weight in red, above the red of the other links.
    for (numbers, style) in [
      (blue, "stroke:blue,color:blue"), (red, "stroke:red,stroke-width:2px,color:red"),
      (redChains, "stroke:red,stroke-width:4px,color:red"),
      (purple, "stroke:purple,stroke-dasharray:5 3,color:purple"),
    ] where !numbers.isEmpty {
      lines.append("  linkStyle \(numbers.map(String.init).joined(separator: ",")) \(style)")
    }
    // The legend: one box, no link, so that the link numbers above stay the drawing's.
    let legend =
      "legend. Shapes: rounded, a subject or relay; box, an operator; double box, a subscriber; "
      + "hexagon, merged nodes. Lines: --o subscribes, --> emits, ==> sends into a subject (blue), "
      + "-.-> control. Red: on a cycle. Purple, dashed: a leaked subscriber."
    lines.append("  legend[\"\(Self.escape(legend))\"]")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes `cluster`'s boxes, then its child clusters as `subgraph sN["label"] ... end` blocks.
  private func write(
    _ cluster: ExportLayout.Cluster, depth: Int, into lines: inout [String],
    subgraphCount: inout Int
  ) {
    let indent = String(repeating: "  ", count: depth + 1)
    for number in cluster.boxes {
      let box = layout.boxes[number]
      let label = "\"" + Self.escape(box.title) + "<br/>" + Self.escape(box.detail) + "\""
      let shape: String
      if box.isGroup {
        shape = "{{\(label)}}"
      } else {
        switch box.role {
        case .subject: shape = "([\(label)])"
        case .source: shape = ">\(label)]"
        case .terminal: shape = "[[\(label)]]"
        case .operator, nil: shape = "[\(label)]"
        }
      }
      lines.append(indent + box.id + shape)
    }
    for child in cluster.children {
      lines.append(indent + "subgraph s\(subgraphCount)[\"\(Self.escape(child.label))\"]")
      subgraphCount += 1
      write(child, depth: depth + 1, into: &lines, subgraphCount: &subgraphCount)
      lines.append(indent + "end")
    }
  }

  /// `text` for inside a quoted Mermaid label: letters, digits, spaces and `.,_/()+=*!?@$~'^`
  /// as they are, a newline as `<br/>`, `"` `&` `<` `>` as `#quot;` `#amp;` `#lt;` `#gt;`, and
  /// every other character, non-ASCII included, as its decimal entity code (`#45;` for `-`).
  /// The result is ASCII: no name can end the string, start a link (`-->`, `---o`), close a shape,
  /// hold a directive (`%%{`) or an entity Mermaid would decode (`#quot;`), or contain the
  /// `style ...:...#...;` pattern Mermaid rewrites.
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", " ", ".", ",", "_", "/", "(", ")", "+", "=", "*", "!",
        "?", "@", "$", "~", "'", "^":
        result.unicodeScalars.append(scalar)
      case "\n": result += "<br/>"
      case "\"": result += "#quot;"
      case "&": result += "#amp;"
      case "<": result += "#lt;"
      case ">": result += "#gt;"
      default: result += "#\(scalar.value);"
      }
    }
    return result
  }
}

extension ExportLayout {
  /// This layout with only the boxes at `kept` (indices in ``boxes``), in their order, and the
  /// links between them.
  func keeping(boxes kept: [Int]) -> ExportLayout {
    var copy = self
    var renumbered = [Int](repeating: -1, count: boxes.count)
    copy.boxes = []
    for number in kept.sorted() {
      renumbered[number] = copy.boxes.count
      copy.boxes.append(boxes[number])
    }
    copy.links = links.compactMap { link in
      guard renumbered[link.from] >= 0, renumbered[link.to] >= 0 else { return nil }
      var moved = link
      moved.from = renumbered[link.from]
      moved.to = renumbered[link.to]
      return moved
    }
    return copy
  }
}
