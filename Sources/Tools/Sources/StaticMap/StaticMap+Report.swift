import StreamsTrace

extension StaticMap {
  /// What `streams-trace map` prints: the counts, the share of references resolved, the
  /// cross-file chains, the cycles, fan-in and fan-out, the leak candidates, the migration table,
  /// what was not resolved and the warnings.
  public var summary: String {
    var nodesByID: [UInt64: TraceGraph.Node] = [:]
    for node in graph.nodes { nodesByID[node.id] = node }
    let nodeFile = nodesByID.mapValues(\.file)
    func label(_ id: UInt64) -> String { TraceGraph.describe(nodesByID[id], id: id) }
    var lines: [String] = []
    let rxFiles = files.filter { !$0.imports.isEmpty }
    let terminals = graph.nodes.filter { $0.role == .terminal }.count
    let streams = files.reduce(0) { $0 + $1.streams }
    let chains = graph.edges.filter { $0.kind == .chain }
    lines.append(
      "static map: \(Self.count(files.count, "file")) (\(rxFiles.count) import Rx or Streams), "
        + "\(Self.count(streams, "stream")), \(Self.count(terminals, "subscription")), "
        + "\(Self.count(chains.count, "chain edge"))")
    let percent = references.isEmpty ? 100 : resolvedCount * 100 / references.count
    lines.append("references resolved: \(resolvedCount) of \(references.count) (\(percent)%)")

    let crossing = chains.filter { nodeFile[$0.from] != nodeFile[$0.to] }
    lines.append("")
    lines.append(
      "cross-file chains (a subscriber in one file sends into a stream of another): "
        + "\(crossing.count)")
    for edge in crossing {
      lines.append("  \(label(edge.from)) => \(label(edge.to))")
    }

    let findings = graph.cycleFindings()
    lines.append("")
    lines.append("cycles: \(findings.count)")
    for finding in findings {
      lines.append(contentsOf: finding.description.split(separator: "\n").map { "  " + $0 })
    }

    lines.append("")
    lines.append(contentsOf: fanLines(title: "written from several files (fan-in)", writers, label))
    lines.append(contentsOf: fanLines(title: "read from several files (fan-out)", readers, label))

    lines.append("")
    lines.append("leak candidates: \(leakCandidates.count)")
    for candidate in leakCandidates {
      lines.append("  \(candidate.site): \(candidate.reason)")
    }

    lines.append("")
    lines.append(contentsOf: migrationTable)

    let unresolved = references.filter { !$0.resolved }
    if !unresolved.isEmpty {
      lines.append("")
      lines.append("not resolved (\(unresolved.count); the map has no edge for these):")
      for reference in unresolved.prefix(40) {
        lines.append("  \(reference.file):\(reference.line): \(reference.text)")
      }
      if unresolved.count > 40 { lines.append("  … and \(unresolved.count - 40) more") }
    }
    if !warnings.isEmpty {
      lines.append("")
      lines.append("warnings:")
      lines.append(contentsOf: warnings.map { "  " + $0 })
    }
    return lines.joined(separator: "\n")
  }

  private func fanLines(
    title: String, _ byNode: [UInt64: Set<String>], _ label: (UInt64) -> String
  ) -> [String] {
    let several = byNode.filter { $0.value.count > 1 }.sorted {
      ($0.value.count, $1.key) > ($1.value.count, $0.key)
    }
    var lines = ["\(title): \(several.count)"]
    for (node, files) in several.prefix(20) {
      lines.append("  \(label(node)): \(files.sorted().joined(separator: ", "))")
    }
    return lines
  }

  /// Per file: what it imports, its streams and subscriptions, its chains out and in; then the
  /// files free of Rx and the owners with no cross-file chain (the ones to move first).
  public var migrationTable: [String] {
    var lines = ["migration: file, imports, streams, subscriptions, chains out/in"]
    let width = min(60, files.map(\.path.count).max() ?? 0)
    for file in files {
      let imports = file.imports.isEmpty ? "-" : file.imports.joined(separator: ",")
      lines.append(
        "  " + file.path.padding(toLength: max(width, file.path.count), withPad: " ", startingAt: 0)
          + "  " + imports.padding(toLength: 22, withPad: " ", startingAt: 0)
          + "  \(Self.count(file.streams, "stream")), "
          + "\(Self.count(file.subscriptions, "subscription")), "
          + "chains \(file.chainsOut)/\(file.chainsIn)")
    }
    let free = files.filter { !$0.imports.contains { Vocabulary.rxModules.contains($0) } }
    lines.append("files free of Rx: \(free.count) of \(files.count)")
    lines.append(
      "owners with no edge to another file (move first): "
        + (ownersWithoutCrossFileEdges.isEmpty
          ? "none" : ownersWithoutCrossFileEdges.joined(separator: ", ")))
    return lines
  }

  /// The owners (types the source declares, ``declaredTypes``) that hold streams or
  /// subscriptions but no edge to or from another file: nothing of another file subscribes to
  /// their streams or sends into them, and they neither subscribe nor send across files, so they
  /// can move to Streams alone.
  public var ownersWithoutCrossFileEdges: [String] {
    var byID: [UInt64: TraceGraph.Node] = [:]
    for node in graph.nodes { byID[node.id] = node }
    var owners = Set(graph.nodes.compactMap(\.owner)).intersection(declaredTypes)
    for edge in graph.edges {
      guard let from = byID[edge.from], let to = byID[edge.to], from.file != to.file else {
        continue
      }
      if let owner = from.owner { owners.remove(owner) }
      if let owner = to.owner { owners.remove(owner) }
    }
    return owners.sorted()
  }

  /// `1 stream`, `2 streams`.
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }
}
