// The coupling map: one box per owner type, one edge per pair of owners that the trace connects,
// labelled with how many subscriptions and sends it stands for. It is the picture that still
// renders, and still reads, at the size of an app of hundreds of screens.

extension TraceGraph {
  /// Which owner types subscribe to or send into which: the trace at the level of the objects a
  /// team talks about.
  ///
  /// A node's owner is ``/StreamsTraceRecording/TraceGraph/Node/owner``, or the type its file names. A subscription from a node of
  /// owner A to a subscriber of owner B counts for the pair A → B; so does a send (a chain edge)
  /// from a subscriber of A into a subject of B. Pairs inside one owner are left out.
  ///
  /// ```swift
  /// let map = graph.couplingMap()
  /// print(map.links.count)
  /// try TraceFile.write(map.dot(), to: "coupling.dot")  // dot -Tsvg coupling.dot
  /// ```
  ///
  /// - Complexity: O(*n* + *e* log *e*).
  public func couplingMap() -> CouplingMap {
    var ownerOfNode: [UInt64: String] = [:]
    for node in nodes where ownerOfNode[node.id] == nil {
      ownerOfNode[node.id] =
        node.owner ?? RecorderState.ownerFromFile(node.file) ?? "(unknown owner)"
    }
    var owners: [String: CouplingMap.Owner] = [:]
    for node in nodes {
      let name = ownerOfNode[node.id]!
      owners[name, default: .init(name: name)].nodes += 1
      if node.role == .subject { owners[name]!.subjects += 1 }
      if !node.file.isEmpty { owners[name]!.files.insert(node.file) }
    }
    var component: [UInt64: Int] = [:]
    for (number, cycle) in cycleNodeIDs().enumerated() {
      for id in cycle { component[id] = number }
    }
    for id in component.keys {
      if let name = ownerOfNode[id] { owners[name]?.onCycle += 1 }
    }
    for leak in leaks() {
      if let name = ownerOfNode[leak.subscriber] { owners[name]?.leaked += 1 }
    }
    var links: [String: CouplingMap.Link] = [:]
    for edge in edges where edge.kind == .subscription || edge.kind == .chain {
      guard let from = ownerOfNode[edge.from], let to = ownerOfNode[edge.to], from != to
      else { continue }
      let key = from + "\u{0}" + to
      var link = links[key] ?? CouplingMap.Link(from: from, to: to)
      if edge.kind == .subscription {
        link.subscriptions += max(edge.count, edge.live)
      } else {
        link.sends += edge.count
      }
      // On a cycle: both ends in the same strongly connected component.
      if let from = component[edge.from], from == component[edge.to] { link.onCycle = true }
      links[key] = link
    }
    return CouplingMap(
      owners: owners.values.sorted { $0.name < $1.name },
      links: links.values.sorted { ($0.from, $0.to) < ($1.from, $1.to) })
  }

  /// One box per owner, one edge per pair (``TraceGraph/couplingMap()``).
  public struct CouplingMap: Sendable, Equatable {
    /// An owner type and what it holds.
    public struct Owner: Sendable, Equatable {
      public var name: String
      /// Its nodes, subjects among them.
      public var nodes = 0
      public var subjects = 0
      /// Its nodes on a structural cycle, and its leaked subscribers.
      public var onCycle = 0
      public var leaked = 0
      /// The files its nodes were made in.
      public var files: Set<String> = []

      public init(name: String) { self.name = name }
    }

    /// The subscriptions and sends from one owner's nodes to another's.
    public struct Link: Sendable, Equatable {
      public var from: String
      public var to: String
      /// Subscriptions made from `from`'s nodes by `to`'s subscribers.
      public var subscriptions = 0
      /// Elements `from`'s subscribers sent into `to`'s subjects.
      public var sends = 0
      /// Whether the pair lies on a structural cycle.
      public var onCycle = false

      public init(from: String, to: String) {
        self.from = from
        self.to = to
      }

      /// `3 subscriptions, 2 sends`.
      public var label: String {
        var parts: [String] = []
        if subscriptions > 0 {
          parts.append("\(subscriptions) sub\(subscriptions == 1 ? "" : "s")")
        }
        if sends > 0 { parts.append("\(sends) send\(sends == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
      }
    }

    public var owners: [Owner]
    public var links: [Link]

    /// The map as Graphviz DOT: boxes with their counts, subscriptions grey, sends blue and bold,
    /// pairs on a cycle red; a legend. Laid out left to right without clusters, so that
    /// `dot -Tsvg` draws hundreds of owners in seconds.
    public func dot() -> String {
      var lines = [
        "// StreamsTrace coupling map: \(owners.count) owners, \(links.count) pairs",
        "digraph \(DOTWriter.quote("coupling")) {",
        "  graph "
          + DOTWriter.attributes([
            ("rankdir", "LR"), ("fontname", "Helvetica"), ("fontsize", "11"),
            ("ranksep", "1.2"), ("nodesep", "0.15"), ("outputorder", "edgesfirst"),
          ]),
        "  node "
          + DOTWriter.attributes([
            ("fontname", "Helvetica"), ("fontsize", "10"), ("shape", "box"), ("style", "rounded"),
          ]),
        "  edge "
          + DOTWriter.attributes([
            ("fontname", "Helvetica"), ("fontsize", "8"), ("arrowsize", "0.6"),
          ]),
      ]
      var number: [String: Int] = [:]
      for (index, owner) in owners.enumerated() {
        number[owner.name] = index
        var attributes = [
          ("label", owner.name + "\n" + Self.detail(owner)), ("tooltip", owner.name),
        ]
        if owner.onCycle > 0 { attributes += [("color", "red"), ("penwidth", "2")] }
        if owner.leaked > 0 && owner.onCycle == 0 {
          attributes += [("color", "purple"), ("penwidth", "2"), ("style", "rounded,dashed")]
        }
        lines.append("  \(DOTWriter.quote("o\(index)")) " + DOTWriter.attributes(attributes))
      }
      for link in links {
        guard let from = number[link.from], let to = number[link.to] else { continue }
        var attributes = [("label", link.label), ("tooltip", "\(link.from) → \(link.to)")]
        if link.sends > 0 {
          attributes += [("color", "blue"), ("style", "bold")]
        } else {
          attributes += [("color", "gray50"), ("arrowhead", "empty")]
        }
        if link.onCycle { attributes += [("color", "red"), ("fontcolor", "red")] }
        lines.append(
          "  \(DOTWriter.quote("o\(from)")) -> \(DOTWriter.quote("o\(to)")) "
            + DOTWriter.attributes(attributes))
      }
      lines.append(
        "  \(DOTWriter.quote("legend")) "
          + DOTWriter.attributes([
            ("shape", "note"),
            (
              "label",
              "legend\nbox: an owner type, its nodes and subjects\n"
                + "grey arrow A -> B: B's subscribers subscribe to A's nodes\n"
                + "blue, bold arrow A -> B: A's subscribers send into B's subjects\n"
                + "red: on a cycle; purple, dashed: holds a leaked subscriber"
            ),
          ]))
      lines.append("}")
      return lines.joined(separator: "\n") + "\n"
    }

    /// `12 nodes, 3 subjects`, then what is marked.
    static func detail(_ owner: Owner) -> String {
      var text =
        "\(owner.nodes) node\(owner.nodes == 1 ? "" : "s"), "
        + "\(owner.subjects) subject\(owner.subjects == 1 ? "" : "s")"
      if owner.onCycle > 0 { text += "\n\(owner.onCycle) on a cycle" }
      if owner.leaked > 0 { text += (owner.onCycle > 0 ? ", " : "\n") + "\(owner.leaked) leaked" }
      return text
    }
  }
}
