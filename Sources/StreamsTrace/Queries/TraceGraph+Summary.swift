extension TraceGraph {
  /// What the trace holds, in a few lines: nodes by role, edges by kind, files, the busiest hubs,
  /// and how many cycles, leaks and long chains there are (what `streams-trace summary` prints).
  ///
  /// ```swift
  /// let graph = TraceGraph(nodes: [
  ///   .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/A.swift", line: 3)
  /// ])
  /// print(graph.summary.split(separator: "\n")[0])
  /// // Prints "nodes: 1 (0 source, 0 operator, 1 subject, 0 terminal)"
  /// ```
  public var summary: String {
    var lines: [String] = []
    let roles = Role.allCases.map { role in
      "\(nodes.filter { $0.role == role }.count) \(role.rawValue)"
    }
    lines.append("nodes: \(nodes.count) (\(roles.joined(separator: ", ")))")
    let kinds = EdgeKind.allCases.map { kind in
      "\(edges.filter { $0.kind == kind }.count) \(kind.rawValue)"
    }
    lines.append("edges: \(edges.count) (\(kinds.joined(separator: ", ")))")
    lines.append(
      "files: \(Set(nodes.map(\.file).filter { !$0.isEmpty }).count); live subscriptions: \(subscriptions.count);"
        + " deliveries kept: \(deliveries.count)")
    let fanIn = topFanIn(5).filter { $0.count > 1 }
    if !fanIn.isEmpty {
      lines.append("top fan-in:")
      lines += fanIn.map { "  \($0)" }
    }
    let fanOut = topFanOut(5).filter { $0.count > 1 }
    if !fanOut.isEmpty {
      lines.append("top fan-out:")
      lines += fanOut.map { "  \($0)" }
    }
    lines.append(
      "cycles: \(cycleNodeIDs().count) structural, \(dynamicCycles().count) dynamic")
    lines.append("leaks: \(leaks().count); kept in another type's bag: \(heldElsewhere().count)")
    lines.append("chains across 3 files or more: \(chainsCrossingFiles(atLeast: 3).count)")
    return lines.joined(separator: "\n")
  }
}
