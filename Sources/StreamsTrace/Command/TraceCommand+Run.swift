// One run of the command line: dispatch, help, and reading and writing files.

/// One run: the environment and what it printed.
struct Run {
  let environment: TraceCommand.Environment
  var output = ""
  var error = ""
  /// The folders `--sources` named: every dump read is named from them.
  var sources: [String] = []

  init(environment: TraceCommand.Environment) {
    self.environment = environment
  }

  mutating func dispatch(_ arguments: [String]) throws(CommandError) -> TraceCommand.Status {
    guard let command = arguments.first else {
      throw .usage("no command given", command: nil)
    }
    if command == "--help" || command == "-h" || command == "help" {
      if arguments.count > 1, command == "help" {
        return try help(for: arguments[1])
      }
      output += Self.overview
      return .success
    }
    guard TraceCommand.commands.contains(where: { $0.name == command }) else {
      throw .usage("unknown command '\(command)'", command: nil)
    }
    var rest = arguments.dropFirst()
    if Self.asksForHelp(rest, command: command) {
      return try help(for: command)
    }
    (sources, rest) = try Self.sources(in: rest, command: command)
    switch command {
    case "map":
      // The command line of the tools package answers `map` itself; a host of `TraceCommand`
      // without SwiftSyntax sends the user there.
      throw CommandError(
        message: "map reads source with SwiftSyntax, which StreamsTrace does not depend on; run:\n"
          + "  \(TraceCommand.mapCommand) \(rest.first ?? "FOLDER")",
        status: .usage)
    case "summary": return try summary(rest)
    case "graph": return try graph(rest)
    case "perfetto": return try perfetto(rest)
    case "coupling": return try coupling(rest)
    case "report": return try report(rest)
    case "path": return try path(rest)
    case "reach": return try reach(rest)
    case "cycles": return try cycles(rest)
    case "leaks": return try leaks(rest)
    case "chain": return try chain(rest)
    default: return try diff(rest)
    }
  }

  /// The options of each command that take a value: `--output --help` writes to a file named
  /// `--help`, it does not ask for help.
  static let valuedOptions: [String: Set<String>] = [
    "graph": ["--format", "--focus", "--depth", "--collapse", "--output"],
    "perfetto": ["--output"], "coupling": ["--format", "--output"],
    "report": ["--output", "--title"], "path": ["--from", "--to"],
    "chain": ["--files"],
  ]

  /// Takes every `--sources DIR` (or `--sources=DIR`) out of `arguments`, which any command
  /// accepts, before `--`.
  static func sources(in arguments: ArraySlice<String>, command: String) throws(CommandError)
    -> ([String], ArraySlice<String>)
  {
    var folders: [String] = []
    var rest: [String] = []
    var index = arguments.startIndex
    let valued = valuedOptions[command] ?? []
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        rest += arguments[(index - 1)...]
        break
      }
      if valued.contains(argument), index < arguments.endIndex {
        rest += [argument, arguments[index]]
        index += 1
      } else if argument == "--sources" {
        guard index < arguments.endIndex else {
          throw .usage("--sources needs a value", command: command)
        }
        folders.append(arguments[index])
        index += 1
      } else if argument.hasPrefix("--sources=") {
        folders.append(String(argument.dropFirst("--sources=".count)))
      } else {
        rest.append(argument)
      }
    }
    return (folders, rest[...])
  }

  /// Whether `--help` or `-h` is among the arguments, not as an option's value nor after `--`.
  static func asksForHelp(_ arguments: ArraySlice<String>, command: String) -> Bool {
    let valued = valuedOptions[command] ?? []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      if argument == "--" { return false }
      if argument == "--help" || argument == "-h" { return true }
      index += valued.contains(argument) ? 2 : 1
    }
    return false
  }

  static var overview: String {
    var text = """
      streams-trace: questions and exports over StreamsTrace dumps (TraceGraph.dump()).

      usage: streams-trace COMMAND ARGUMENTS   (streams-trace COMMAND --help for one command)

      commands:

      """
    for command in TraceCommand.commands {
      text += "  " + command.name.padding(to: 10) + command.summary + "\n"
    }
    text += """

      NODE is `#12` or `12` (an id), `File.swift:40` (a call site; leading folders optional),
      `map@File.swift:40` (a kind at a call site), or an owner type or a node's name
      (`CartBadge`, `CartStore.added`, or `added` when only one owner has it). DUMP is a file,
      or `-` for standard input. Every command takes `--sources DIR` (repeatable): the app's
      source folder, read to name the nodes of a dump recorded elsewhere by the properties that
      hold them (`let added = PublishSubject<Item>()` in `CartStore` is `CartStore.added`).

      exit status: 0 success (nothing found for cycles, leaks, diff); 1 something found (a
      cycle, a leak, a difference) or no path; 64 bad command line; 65 a dump that does not
      read; 66 a file that cannot be read; 73 a file that cannot be written.

      """
    return text
  }

  mutating func help(for command: String) throws(CommandError) -> TraceCommand.Status {
    guard let entry = TraceCommand.commands.first(where: { $0.name == command }) else {
      throw .usage("unknown command '\(command)'", command: nil)
    }
    output += "usage: \(entry.usage)\n\n\(entry.help)\n"
    return .success
  }

  // MARK: Reading and writing

  func load(_ path: String) throws(CommandError) -> TraceGraph {
    let name = path == "-" ? "standard input" : path
    let graph: TraceGraph
    if let open = environment.open {
      graph = try read(path, name: name, in: open)
    } else {
      let text: String
      do {
        text = try environment.read(path)
      } catch {
        throw Self.cannotRead(path, error)
      }
      if let problem = Self.notADump(String(text.prefix(512))) {
        throw .data("\(name): \(problem)")
      }
      do {
        graph = try TraceGraph(dump: text)
      } catch {
        throw .data("\(name): \(error)")
      }
    }
    if let missing = Self.missingNode(in: graph) { throw .data("\(name): \(missing)") }
    return sources.isEmpty ? graph : graph.namedFromSources(in: sources)
  }

  /// Reads the dump at `path` a chunk at a time: a file that is not a dump is turned away on
  /// its first bytes, and a dump is read in bounded memory (``TraceGraph/init(readingDump:)``).
  private func read(
    _ path: String, name: String,
    in open: @Sendable (String) throws(TraceFile.Error) -> TraceCommand.Environment.Chunks
  ) throws(CommandError) -> TraceGraph {
    let next: TraceCommand.Environment.Chunks
    var head: [UInt8] = []
    do {
      next = try open(path)
      while head.count < 512, let chunk = try next() { head += chunk }
    } catch {
      throw Self.cannotRead(path, error)
    }
    if let problem = Self.notADump(String(decoding: head.prefix(512), as: UTF8.self)) {
      throw .data("\(name): \(problem)")
    }
    var pending: [UInt8]? = head
    do {
      return try TraceGraph(readingDump: { () throws(TraceFile.Error) in
        if let chunk = pending {
          pending = nil
          return chunk
        }
        return try next()
      })
    } catch {
      switch error {
      case .file(let failure): throw Self.cannotRead(path, failure)
      case .dump(let problem): throw .data("\(name): \(problem)")
      }
    }
  }

  private static func cannotRead(_ path: String, _ error: TraceFile.Error) -> CommandError {
    CommandError(message: "cannot read '\(path)': \(error.message)", status: .noInput)
  }

  /// Why a file that starts with `prefix` is not a trace dump, or `nil` when it may be one.
  static func notADump(_ prefix: String) -> String? {
    let start = prefix.drop {
      $0 == "\u{FEFF}" || $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t"
    }
    if start.isEmpty { return nil }  // an empty file: the parser says so
    if start.contains("\"traceEvents\"") || start.hasPrefix("{\"displayTimeUnit\"") {
      return "this is a Perfetto export (Chrome trace events); give the dump (.dump.json) that "
        + "TraceGraph.dump() wrote instead"
    }
    guard start.hasPrefix("{") else {
      let shown = start.prefix(20).map {
        $0.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } ? String($0) : "·"
      }
      return "not a trace dump: it starts with '\(shown.joined())', where a dump starts with "
        + "'{\"format\":\"streams-trace\"'"
    }
    return nil
  }

  /// The first edge or subscription that names a node the dump does not have.
  static func missingNode(in graph: TraceGraph) -> String? {
    let ids = Set(graph.nodes.map(\.id))
    for (number, edge) in graph.edges.enumerated() {
      for end in [edge.from, edge.to] where !ids.contains(end) {
        return "edges[\(number)] (\(edge.kind.rawValue) from \(edge.from) to \(edge.to)) names "
          + "node \(end), which the dump's nodes do not have: the dump is damaged or hand-edited"
      }
    }
    for (number, subscription) in graph.subscriptions.enumerated() {
      for end in [subscription.node, subscription.subscriber] where !ids.contains(end) {
        return "subscriptions[\(number)] names node \(end), which the dump's nodes do not have: "
          + "the dump is damaged or hand-edited"
      }
    }
    return nil
  }

  mutating func emit(_ text: String, to path: String?) throws(CommandError) {
    guard let path, path != "-" else {
      output += text.hasSuffix("\n") ? text : text + "\n"
      return
    }
    do {
      try environment.write(path, text)
    } catch {
      throw CommandError(
        message: "cannot write '\(path)': \(error.message)", status: .cannotWrite)
    }
    self.error += "wrote \(path)\n"
  }

  /// The nodes `text` selects; a usage error naming `option` when none.
  func nodes(_ text: String, in graph: TraceGraph, for option: String, command: String)
    throws(CommandError) -> [TraceGraph.Node]
  {
    let matches = graph.nodes(matching: TraceCommand.selector(text))
    guard !matches.isEmpty else {
      throw .usage("\(option) '\(text)' matches no node of the trace", command: command)
    }
    return Array(matches)
  }

  /// The one node `text` selects; a usage error listing the candidates when several match.
  func node(_ text: String, in graph: TraceGraph, for option: String, command: String)
    throws(CommandError) -> TraceGraph.Node
  {
    let matches = try nodes(text, in: graph, for: option, command: command)
    guard matches.count == 1 else {
      let listed = matches.prefix(10).map { "  #\($0.id) \(graph.describe(node: $0.id))" }
      let more = matches.count > 10 ? ["  ... and \(matches.count - 10) more"] : []
      throw CommandError(
        message: "\(option) '\(text)' matches \(matches.count) nodes; pick one by id:\n"
          + (listed + more).joined(separator: "\n"),
        status: .usage)
    }
    return matches[0]
  }
}

extension String {
  /// This text padded with spaces to `width` characters, and at least one space after it.
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
