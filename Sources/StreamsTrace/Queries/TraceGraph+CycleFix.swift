// Cycles as a developer fixes them: each loop as the named edges it runs along, shortest first,
// and the few sends whose removal breaks every loop of a component, with their call sites.

extension TraceGraph {
  /// The structural cycles with what it takes to fix them, shortest loops first.
  ///
  /// For each strongly connected component (``structuralCycles()``) it lists up to `loops`
  /// distinct loops, each the shortest one through one of the component's chain edges, as the
  /// named edges it runs along; then the chain edges whose removal breaks every loop of the
  /// component (found greedily: the edge on the most loops first, until no loop is left), each a
  /// send made by a subscriber at a call site; then the re-entrant deliveries that ran on it.
  ///
  /// ```swift
  /// for finding in graph.cycleFindings() { print(finding) }
  /// // cycle of 4 nodes across A.swift, B.swift: 1 loop
  /// //   loop of 4 edges: A.taps -> subscribe A.swift:9 =send=> B.items -> ...
  /// //   to break it, remove 1 send:
  /// //     subscribe B.swift:12 (B) sends into A.taps
  /// ```
  ///
  /// - Parameter loops: How many loops to print per component at most.
  /// - Returns: One finding per component, the one with the shortest loop first.
  /// - Complexity: O(*c* × (*n* + *e*)) per component, for *c* chain edges in it.
  public func cycleFindings(loops: Int = 5) -> [CycleFinding] {
    let index = TraceGraphIndex(self)
    let dynamic = dynamicCycles()
    var chainEdges: [Int: [Int]] = [:]  // from → to, by position
    for edge in edges where edge.kind == .chain {
      guard let from = index.position(of: edge.from), let to = index.position(of: edge.to)
      else { continue }
      chainEdges[from, default: []].append(to)
    }
    let findings = index.cycles().map { component -> CycleFinding in
      let members = Set(component)
      let closing = component.flatMap { from in
        (chainEdges[from] ?? []).filter(members.contains).map { (from, $0) }
      }
      var found: [[Int]] = []
      var seen: Set<[Int]> = []
      for (from, to) in closing {
        guard let path = index.shortestPath(from: to, to: from, within: members) else { continue }
        let loop = path  // to ... from; the chain edge from → to closes it
        let key = loop.sorted()
        if seen.insert(key).inserted { found.append(loop) }
      }
      found.sort { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
      let cuts = Self.breakingSends(closing, members: members, index: index)
      let ids = Set(component.map { index.ids[$0] })
      return CycleFinding(
        cycle: StructuralCycle(
          nodes: component.map { index.ids[$0] }, labels: component.map(index.label),
          files: Array(Set(component.compactMap(index.file))).sorted()),
        loops: found.prefix(max(0, loops)).map { loop in loop.map { index.ids[$0] } },
        loopLines: found.prefix(max(0, loops)).map {
          Self.loopLine($0, index: index, chain: chainEdges)
        },
        loopCount: found.count,
        breakingSends: cuts.map { (index.ids[$0.0], index.ids[$0.1]) }.map {
          BreakingSend(subscriber: $0.0, subject: $0.1)
        },
        breakingLines: cuts.map {
          "\(index.label($0.0)) sends into \(index.shortLabel($0.1))"
        },
        reentrant: dynamic.filter { ids.contains($0.node) })
    }
    func key(_ finding: CycleFinding) -> (Int, UInt64) {
      (finding.loops.first?.count ?? .max, finding.cycle.nodes.first ?? 0)
    }
    return findings.sorted { key($0) < key($1) }
  }

  /// The chain edges to remove so that no loop is left in the component: repeatedly the one on
  /// the most shortest loops.
  private static func breakingSends(
    _ closing: [(Int, Int)], members: Set<Int>, index: TraceGraphIndex
  ) -> [(Int, Int)] {
    var removed: [(Int, Int)] = []
    var excluded: Set<EdgePair> = []
    var remaining = Set(closing.map { EdgePair($0.0, $0.1) })
    // Each round is a search per remaining send; the rounds are capped so that a component of
    // thousands of sends still answers (the cut is then a start, which the output says).
    while !remaining.isEmpty, removed.count < maxCuts {
      var counts: [EdgePair: Int] = [:]
      for send in remaining.sorted() {
        guard
          let path = index.shortestPath(
            from: send.to, to: send.from, within: members, excluding: excluded)
        else {
          // No way back now: cutting edges never makes one, so this send is done with.
          remaining.remove(send)
          continue
        }
        // Every send on this loop (the closing one and those inside it) breaks it.
        let loop = path + [send.to]
        for step in zip(loop, loop.dropFirst()) {
          let pair = EdgePair(step.0, step.1)
          if remaining.contains(pair) { counts[pair, default: 0] += 1 }
        }
      }
      guard let best = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { break }
      removed.append((best.key.from, best.key.to))
      excluded.insert(best.key)
      remaining.remove(best.key)
    }
    return removed
  }

  /// The most sends ``cycleFindings(loops:)`` proposes to cut in one component.
  static let maxCuts = 20

  /// `A.taps -> subscribe A.swift:9 =send=> B.items -> ... => A.taps`: the loop `path` (from the
  /// subject a chain edge enters, back to the subscriber that sends into it).
  private static func loopLine(_ path: [Int], index: TraceGraphIndex, chain: [Int: [Int]])
    -> String
  {
    var text = index.shortLabel(path[0])
    for (from, to) in zip(path, path.dropFirst() + [path[0]]) {
      let arrow = chain[from]?.contains(to) == true ? " =send=> " : " -> "
      text += arrow + index.shortLabel(to)
    }
    return "loop of \(path.count) edge\(path.count == 1 ? "" : "s"): " + text
  }

  /// A send to remove to break a cycle: the subscriber (a terminal at its subscribe site) whose
  /// code sends into the subject.
  public struct BreakingSend: Sendable, Equatable {
    /// The subscriber that sends.
    public var subscriber: UInt64
    /// The subject or relay it sends into.
    public var subject: UInt64

    /// The send from `subscriber` into `subject`.
    public init(subscriber: UInt64, subject: UInt64) {
      self.subscriber = subscriber
      self.subject = subject
    }
  }

  /// A structural cycle with its loops and the sends that break it (``cycleFindings(loops:)``).
  public struct CycleFinding: Sendable, Equatable, CustomStringConvertible {
    /// The component.
    public var cycle: StructuralCycle
    /// Up to the requested number of loops, shortest first, each as node ids from a subject
    /// that a send enters back to the subscriber that makes that send.
    public var loops: [[UInt64]]
    /// Those loops as one line each, with `=send=>` for a chain edge.
    public var loopLines: [String]
    /// How many distinct loops were found (one per closing send at most).
    public var loopCount: Int
    /// The sends whose removal breaks every loop of the component.
    public var breakingSends: [BreakingSend]
    /// Those sends as one line each, naming the subscriber's call site.
    public var breakingLines: [String]
    /// The re-entrant deliveries that ran on the component.
    public var reentrant: [DynamicCycle]

    public var description: String {
      let shown = loopLines.count < loopCount ? ", the \(loopLines.count) shortest shown" : ""
      var lines = [
        "cycle of \(cycle.nodes.count) nodes across \(cycle.files.joined(separator: ", ")): "
          + "\(loopCount) loop\(loopCount == 1 ? "" : "s")\(shown)"
      ]
      lines += loopLines.map { "  \($0)" }
      let count = breakingLines.count
      if count == 0 {
        lines.append("  no send closes it: a node lists itself as its own upstream")
      } else {
        let atLeast =
          count == TraceGraph.maxCuts ? "at least these \(count) sends (the first)" : nil
        lines.append(
          "  to break it, remove "
            + (atLeast ?? (count == 1 ? "this send" : "these \(count) sends")) + ":")
      }
      lines += breakingLines.map { "    \($0)" }
      if !reentrant.isEmpty {
        lines.append("  re-entrant deliveries that ran on it:")
        lines += reentrant.map { "    \($0)" }
      }
      return lines.joined(separator: "\n")
    }
  }
}

extension TraceGraphIndex {
  /// A node as a loop shows it: its name, or `kind File.swift:line`.
  func shortLabel(_ position: Int) -> String {
    guard let node = nodes[position] else { return "node #\(ids[position])" }
    if let name = node.name { return name }
    let file = node.file.split(separator: "/").last.map(String.init) ?? node.file
    return "\(node.kind) \(file):\(node.line)"
  }

  /// A shortest data-flow path from `source` to `destination` through `members` only, leaving
  /// out the edges `excluding` names; positions, `source` first.
  func shortestPath(
    from source: Int, to destination: Int, within members: Set<Int>,
    excluding: Set<EdgePair> = []
  ) -> [Int]? {
    if source == destination { return [source] }
    var parent: [Int: Int] = [source: source]
    var queue = [source]
    var head = 0
    while head < queue.count {
      let current = queue[head]
      head += 1
      for slot in dataOut.start(current)..<dataOut.end(current) {
        let next = dataOut.target(at: slot)
        guard members.contains(next), parent[next] == nil,
          !excluding.contains(EdgePair(current, next))
        else { continue }
        parent[next] = current
        if next == destination {
          var path = [next]
          var step = next
          while step != source {
            step = parent[step]!
            path.append(step)
          }
          return path.reversed()
        }
        queue.append(next)
      }
    }
    return nil
  }
}

/// An edge between two positions of a ``TraceGraphIndex``.
struct EdgePair: Hashable, Comparable {
  var from: Int
  var to: Int

  init(_ from: Int, _ to: Int) {
    self.from = from
    self.to = to
  }

  static func < (lhs: EdgePair, rhs: EdgePair) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }
}
