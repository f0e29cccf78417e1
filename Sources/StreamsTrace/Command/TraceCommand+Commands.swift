// The command line's commands, one function each.

extension Run {
  mutating func summary(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(command: "summary", rest, options: [], flags: [])
    try arguments.expectPositional(["DUMP"])
    let graph = try load(arguments.positional[0])
    try emit(graph.summary, to: nil)
    return .success
  }

  mutating func graph(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(
      command: "graph", rest,
      options: ["--format", "--focus", "--depth", "--collapse", "--output"],
      flags: ["--force"])
    try arguments.expectPositional(["DUMP"])
    guard let format = arguments.options["--format"] else {
      throw .usage("missing --format dot|mermaid", command: "graph")
    }
    guard format == "dot" || format == "mermaid" else {
      throw .usage("--format must be dot or mermaid, not '\(format)'", command: "graph")
    }
    var options = GraphExportOptions()
    if let depth = arguments.options["--depth"] {
      guard let value = Int(depth), value >= 0 else {
        throw .usage("--depth must be a whole number ≥ 0, not '\(depth)'", command: "graph")
      }
      options.depth = value
    }
    if let collapse = arguments.options["--collapse"] {
      switch collapse {
      case "file": options.collapse = .file
      case "owner": options.collapse = .owner
      case "none": options.collapse = .none
      default:
        throw .usage(
          "--collapse must be file, owner or none, not '\(collapse)'", command: "graph")
      }
    }
    let graph = try load(arguments.positional[0])
    if let focus = arguments.options["--focus"] {
      _ = try nodes(focus, in: graph, for: "--focus", command: "graph")
      options.focus = TraceCommand.selector(focus)
    }
    if format == "dot", !arguments.flags.contains("--force"),
      case (let boxes, let edges) = graph.drawingSize(options),
      boxes > Self.dotBoxLimit || edges > Self.dotEdgeLimit
    {
      throw CommandError(
        message: "the drawing has \(boxes) boxes and \(edges) edges, more than Graphviz lays out "
          + "in reasonable time (\(Self.dotBoxLimit) boxes, \(Self.dotEdgeLimit) edges); nothing "
          + "written. Draw less:\n"
          + "  streams-trace coupling DUMP --format dot   one box per owner type\n"
          + "  --focus NODE --depth 2                     a node and its neighbourhood\n"
          + "  --collapse owner                           one box per owner, edges by kind\n"
          + "or pass --force to write it anyway.",
        status: .usage)
    }
    let text = format == "dot" ? graph.dot(options) : graph.mermaid(options)
    try emit(text, to: arguments.options["--output"])
    return .success
  }

  /// The most boxes and edges a DOT drawing may have without `--force`: about what `dot` lays
  /// out in a minute.
  static let dotBoxLimit = 1_500
  static let dotEdgeLimit = 3_000

  mutating func report(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(
      command: "report", rest, options: ["--output", "--title"], flags: [])
    try arguments.expectPositional(["DUMP"])
    guard let folder = arguments.options["--output"], folder != "-", !folder.isEmpty else {
      throw .usage("missing --output DIR (the folder to write index.html into)", command: "report")
    }
    let graph = try load(arguments.positional[0])
    let title = arguments.options["--title"] ?? "StreamsTrace report"
    do throws(TraceFile.Error) {
      try environment.makeFolder?(folder)
    } catch {
      throw CommandError(
        message: "cannot make '\(folder)': \(error.message)", status: .cannotWrite)
    }
    try emit(graph.htmlReport(title: title), to: folder + "/index.html")
    try emit(graph.couplingMap().dot(), to: folder + "/coupling.dot")
    self.error +=
      "open \(folder)/index.html; for the map's picture: dot -Tsvg \(folder)/coupling.dot -o "
      + "\(folder)/coupling.svg\n"
    return .success
  }

  mutating func coupling(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(
      command: "coupling", rest, options: ["--format", "--output"], flags: [])
    try arguments.expectPositional(["DUMP"])
    let format = arguments.options["--format"] ?? "text"
    guard format == "dot" || format == "text" else {
      throw .usage("--format must be dot or text, not '\(format)'", command: "coupling")
    }
    let map = try load(arguments.positional[0]).couplingMap()
    if format == "dot" {
      try emit(map.dot(), to: arguments.options["--output"])
      return .success
    }
    let busiest = map.links.sorted {
      ($0.subscriptions + $0.sends, $1.from, $1.to) > ($1.subscriptions + $1.sends, $0.from, $0.to)
    }
    var lines = ["\(map.owners.count) owners, \(map.links.count) pairs; busiest first:"]
    lines += busiest.map {
      "  \($0.from) -> \($0.to): \($0.label)" + ($0.onCycle ? " (on a cycle)" : "")
    }
    let marked = map.owners.filter { $0.onCycle > 0 || $0.leaked > 0 }
    if !marked.isEmpty {
      lines.append("owners on a cycle or holding a leak:")
      lines += marked.map {
        "  \($0.name): \(TraceGraph.CouplingMap.detail($0).replacingNewlines(with: "; "))"
      }
    }
    try emit(lines.joined(separator: "\n"), to: arguments.options["--output"])
    return .success
  }

  mutating func perfetto(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(command: "perfetto", rest, options: ["--output"], flags: [])
    try arguments.expectPositional(["DUMP"])
    let graph = try load(arguments.positional[0])
    try emit(graph.chromeTrace(), to: arguments.options["--output"])
    return .success
  }

  mutating func path(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(
      command: "path", rest, options: ["--from", "--to"], flags: ["--control"])
    try arguments.expectPositional(["DUMP"])
    guard let from = arguments.options["--from"] else {
      throw .usage("missing --from NODE", command: "path")
    }
    guard let to = arguments.options["--to"] else {
      throw .usage("missing --to NODE", command: "path")
    }
    let graph = try load(arguments.positional[0])
    let source = try node(from, in: graph, for: "--from", command: "path")
    let destination = try node(to, in: graph, for: "--to", command: "path")
    let control = arguments.flags.contains("--control")
    guard
      let path = graph.shortestPath(
        from: source.id, to: destination.id, includingControl: control)
    else {
      try emit(
        "no path from \(graph.describe(node: source.id)) to \(graph.describe(node: destination.id))",
        to: nil)
      return .found
    }
    var lines = ["\(path.count - 1) hop\(path.count == 2 ? "" : "s"):"]
    lines += path.map { "  #\($0) \(graph.describe(node: $0))" }
    try emit(lines.joined(separator: "\n"), to: nil)
    return .success
  }

  mutating func reach(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(
      command: "reach", rest, options: [], flags: ["--upstream", "--control"])
    try arguments.expectPositional(["DUMP", "NODE"])
    let graph = try load(arguments.positional[0])
    let starts = try nodes(arguments.positional[1], in: graph, for: "NODE", command: "reach")
    let upstream = arguments.flags.contains("--upstream")
    let control = arguments.flags.contains("--control")
    var seen = Set(starts.map(\.id))
    var found: [UInt64] = []
    for start in starts {
      let ids =
        upstream
        ? graph.reaching(start.id, includingControl: control)
        : graph.reachable(from: start.id, includingControl: control)
      for id in ids where seen.insert(id).inserted { found.append(id) }
    }
    let heading =
      starts.count == 1
      ? graph.describe(node: starts[0].id)
      : "the \(starts.count) nodes of '\(arguments.positional[1])'"
    var lines = [
      "\(found.count) node\(found.count == 1 ? "" : "s") \(upstream ? "reach" : "reached from") \(heading):"
    ]
    lines += found.map { "  #\($0) \(graph.describe(node: $0))" }
    try emit(lines.joined(separator: "\n"), to: nil)
    return .success
  }

  mutating func cycles(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(command: "cycles", rest, options: [], flags: [])
    try arguments.expectPositional(["DUMP"])
    let graph = try load(arguments.positional[0])
    let findings = graph.cycleFindings()
    let onStructural = Set(findings.flatMap { $0.reentrant.map(\.node) })
    let dynamic = graph.dynamicCycles().filter { !onStructural.contains($0.node) }
    guard !findings.isEmpty || !dynamic.isEmpty else {
      try emit("no cycles", to: nil)
      return .success
    }
    var lines: [String] = []
    if !findings.isEmpty {
      lines.append(
        "structural cycles (subjects and relays that can feed themselves), shortest loops first:")
      lines += findings.map { "  " + $0.description.replacingNewlines(with: "\n  ") }
    }
    if !dynamic.isEmpty {
      lines.append("re-entrant deliveries outside those cycles:")
      lines += dynamic.map { "  \($0)" }
    }
    try emit(lines.joined(separator: "\n"), to: nil)
    return .found
  }

  mutating func leaks(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(command: "leaks", rest, options: [], flags: [])
    try arguments.expectPositional(["DUMP"])
    let graph = try load(arguments.positional[0])
    if graph.origin == .static {
      try emit(TraceGraph.staticMapNote("no live subscriptions to find leaks in"), to: nil)
      return .success
    }
    let leaks = graph.leaks()
    var lines =
      leaks.isEmpty
      ? ["no leaks"]
      : ["leaked subscriptions (owner gone, still live):"]
        + TraceGraph.counted(leaks.map(\.description)).map { "  \($0)" }
    // A leak already says which bag keeps it; the rest wait for their maker to go.
    let leaked = Set(leaks.map(\.subscription))
    let held = graph.heldElsewhere().filter { !leaked.contains($0.subscription) }
    if !held.isEmpty {
      lines += ["kept in another type's bag (they live as long as that object):"]
      lines += TraceGraph.counted(held.map(\.description)).map { "  \($0)" }
    }
    try emit(lines.joined(separator: "\n"), to: nil)
    return leaks.isEmpty ? .success : .found
  }

  mutating func chain(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(command: "chain", rest, options: ["--files"], flags: [])
    if let files = arguments.options["--files"] {
      try arguments.expectPositional(["DUMP"])
      guard let count = Int(files), count >= 1 else {
        throw .usage("--files must be a whole number ≥ 1, not '\(files)'", command: "chain")
      }
      let graph = try load(arguments.positional[0])
      let chains = graph.chainsCrossingFiles(atLeast: count)
      try emit(
        chains.isEmpty
          ? "no chain crosses \(count) file\(count == 1 ? "" : "s") or more"
          : chains.map(\.description).joined(separator: "\n\n"), to: nil)
      return .success
    }
    try arguments.expectPositional(["DUMP", "EVENT"])
    var text = Substring(arguments.positional[1])
    if text.hasPrefix("#") { text = text.dropFirst() }
    guard let id = UInt64(text) else {
      throw .usage(
        "EVENT must be a delivery id such as 42 or #42, not '\(arguments.positional[1])'",
        command: "chain")
    }
    let graph = try load(arguments.positional[0])
    guard let chain = graph.chain(of: id) else {
      let range = graph.deliveries.first.map {
        "#\($0.id)…#\(graph.deliveries[graph.deliveries.count - 1].id)"
      }
      throw CommandError(
        message: graph.origin == .static
          ? TraceGraph.staticMapNote("no deliveries to follow a chain from")
          : "the trace keeps no delivery #\(id)"
            + (range.map { " (it keeps \($0))" } ?? " (it keeps none)"),
        status: .usage)
    }
    try emit(chain.description, to: nil)
    return .success
  }

  mutating func diff(_ rest: ArraySlice<String>) throws(CommandError) -> TraceCommand.Status {
    let arguments = try Arguments(command: "diff", rest, options: [], flags: [])
    try arguments.expectPositional(["OLD", "NEW"])
    let old = try load(arguments.positional[0])
    let new = try load(arguments.positional[1])
    let difference = new.diff(from: old)
    try emit(difference.description, to: nil)
    return difference.isEmpty ? .success : .found
  }
}

extension TraceGraph {
  /// What a command that needs a run says of a static map: what it lacks, and where to look.
  static func staticMapNote(_ lacking: String) -> String {
    "this dump is a static map (streams-trace map): it has \(lacking). The map's own output "
      + "lists its leak candidates and cross-file chains; record a run (Guides/Tracing.md, "
      + "\"Turning it on\") to see what happens."
  }
}
