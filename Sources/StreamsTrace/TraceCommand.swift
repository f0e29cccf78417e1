/// The `streams-trace` command line: questions and exports over trace dumps.
///
/// The executable is a thin shell around ``run(_:environment:)``, so that the parsing, every
/// message and every exit status are tested here. It reads and writes files only through the
/// ``Environment`` it is given.
///
/// ```swift
/// let result = TraceCommand.run(["cycles", "app.trace.json"], environment: files)
/// print(result.output, terminator: "")
/// ```
public enum TraceCommand {
  /// Exit statuses, as documented in `--help`.
  public enum Status: Int32, Sendable {
    /// Success; for `cycles`, `leaks` and `diff`, nothing was found.
    case success = 0
    /// `cycles` found a cycle, `leaks` a leak, `diff` a difference, `path` no path.
    case found = 1
    /// Bad command line (EX_USAGE).
    case usage = 64
    /// A dump that does not read (EX_DATAERR).
    case badInput = 65
    /// A file that cannot be read (EX_NOINPUT).
    case noInput = 66
    /// A file that cannot be written (EX_CANTCREAT).
    case cannotWrite = 73
  }

  /// What a run printed and how it ended.
  public struct Result: Sendable, Equatable {
    /// What goes to standard output.
    public var output: String
    /// What goes to standard error.
    public var error: String
    public var status: Status
  }

  /// How the command reaches files.
  public struct Environment: Sendable {
    /// Reads the file at a path (`-` is standard input); throws the system's message.
    public var read: @Sendable (String) throws(TraceFile.Error) -> String
    /// Writes text to the file at a path; throws the system's message.
    public var write: @Sendable (String, String) throws(TraceFile.Error) -> Void
    /// Reads at most the given number of bytes from the start of the file at a path, to turn
    /// away a file that is not a dump before reading it whole; `nil`: the first bytes are
    /// checked after `read`.
    public var readPrefix: (@Sendable (String, Int) throws(TraceFile.Error) -> String)?
    /// Makes a folder and those above it (for `report`); `nil` where folders need no making.
    public var makeFolder: (@Sendable (String) throws(TraceFile.Error) -> Void)?

    public init(
      read: @escaping @Sendable (String) throws(TraceFile.Error) -> String,
      write: @escaping @Sendable (String, String) throws(TraceFile.Error) -> Void,
      readPrefix: (@Sendable (String, Int) throws(TraceFile.Error) -> String)? = nil,
      makeFolder: (@Sendable (String) throws(TraceFile.Error) -> Void)? = nil
    ) {
      self.read = read
      self.write = write
      self.readPrefix = readPrefix
      self.makeFolder = makeFolder
    }

    /// The file system, through ``TraceFile``.
    public static var files: Environment {
      Environment(
        read: { path throws(TraceFile.Error) in try TraceFile.read(path) },
        write: { path, text throws(TraceFile.Error) in try TraceFile.write(text, to: path) },
        readPrefix: { path, count throws(TraceFile.Error) in
          try TraceFile.read(path, upTo: count)
        },
        makeFolder: { path throws(TraceFile.Error) in try TraceFile.makeFolder(path) })
    }
  }

  /// Runs the command line `arguments` (without the program name).
  public static func run(_ arguments: [String], environment: Environment) -> Result {
    var run = Run(environment: environment)
    let status: Status
    do {
      status = try run.dispatch(arguments)
    } catch {
      run.error += "streams-trace: \(error.message)\n"
      if error.status == .usage, let hint = error.hint {
        run.error += hint + "\n"
      }
      status = error.status
    }
    return Result(output: run.output, error: run.error, status: status)
  }

  static let commands: [(name: String, summary: String, usage: String, help: String)] = [
    (
      "summary", "what the trace holds: nodes, edges, hubs, cycles, leaks, long chains",
      "streams-trace summary DUMP",
      "Counts the nodes by role and the edges by kind, lists the top fan-in and fan-out\n"
        + "nodes, and counts cycles, leaks and chains that cross three files or more."
    ),
    (
      "graph", "the graph as Graphviz DOT or Mermaid",
      "streams-trace graph DUMP --format dot|mermaid [--focus NODE] [--depth N]\n"
        + "                    [--collapse file|owner|none] [--output FILE] [--force]",
      "Writes the who-emits-to-whom graph. --focus keeps the nodes NODE selects and those\n"
        + "within --depth hops of them (both ways); --collapse draws one box per file or owner.\n"
        + "A DOT drawing past \(Run.dotBoxLimit) boxes or \(Run.dotEdgeLimit) edges, which Graphviz does not\n"
        + "lay out in reasonable time, is refused with what to do instead (--force writes it)."
    ),
    (
      "coupling", "which owner types subscribe to or send into which: one box per owner",
      "streams-trace coupling DUMP [--format dot|text] [--output FILE]",
      "Writes the coupling map: one box per owner type (its nodes, subjects, marks) and one\n"
        + "edge per pair of owners, labelled with the subscriptions and sends it stands for;\n"
        + "pairs on a cycle red. It renders in seconds for an app of hundreds of screens\n"
        + "(`dot -Tsvg`). --format text (the default) prints one pair a line, busiest first."
    ),
    (
      "report", "one offline HTML page: coupling map, cycles, leaks, chains, owners",
      "streams-trace report DUMP --output DIR [--title TEXT]",
      "Writes DIR/index.html, a page to open in a browser (no network): the coupling map, the\n"
        + "cycles with the sends that break them, the leaks, the longest chains with their values\n"
        + "and a section per owner with its streams and neighbours, searchable by name; and\n"
        + "DIR/coupling.dot: `dot -Tsvg DIR/coupling.dot -o DIR/coupling.svg` puts the map's\n"
        + "picture in the page (a table of owner pairs reads without it)."
    ),
    (
      "perfetto", "the deliveries as a Chrome trace-event file for ui.perfetto.dev",
      "streams-trace perfetto DUMP [--output FILE]",
      "Writes a JSON trace: a track per node grouped by file, a slice per delivery, flow\n"
        + "arrows from each delivery to those it caused. Open it at https://ui.perfetto.dev\n"
        + "or chrome://tracing."
    ),
    (
      "path", "the shortest path between two nodes",
      "streams-trace path DUMP --from NODE --to NODE [--control]",
      "Prints the nodes on a shortest path and its hop count; exits 1 when there is none.\n"
        + "--control follows control edges (take(until:) triggers, samplers) too."
    ),
    (
      "reach", "what a node reaches, or what reaches it",
      "streams-trace reach DUMP NODE [--upstream] [--control]",
      "Lists every node NODE's elements can reach (with --upstream: every node that can\n"
        + "reach NODE)."
    ),
    (
      "cycles", "structural and dynamic cycles",
      "streams-trace cycles DUMP",
      "Lists the cycles among subjects and relays and the re-entrant deliveries that ran;\n"
        + "exits 1 when there is one."
    ),
    (
      "leaks", "live subscriptions whose owner is gone",
      "streams-trace leaks DUMP",
      "Lists each leaked subscription with its owner and subscribe site, then the live\n"
        + "subscriptions kept in another type's DisposeBag (leaks waiting for their maker to go);\n"
        + "exits 1 when there is a leak."
    ),
    (
      "chain", "what one event set off, across files",
      "streams-trace chain DUMP EVENT | --files N",
      "Prints every delivery the delivery EVENT (an id, `42` or `#42`) caused, with the files\n"
        + "it crossed. --files N prints every chain that crosses N files or more instead."
    ),
    (
      "diff", "what changed between two traces of the same code",
      "streams-trace diff OLD NEW",
      "Compares by identity (a node's name, or its owner and operator chain, and its kind), so\n"
        + "moved lines match. Leads with what changed in meaning (cycles removed or added, leaks\n"
        + "fixed or new, owners newly or no longer connected), then nodes, edges and counts;\n"
        + "exits 1 when they differ."
    ),
  ]

  /// A node on the command line: `#12` or `12` (an id), `File.swift:40` (a call site, with as
  /// many leading path components as needed), `kind@File.swift:40`, or an owner or name.
  static func selector(_ text: String) -> TraceGraph.NodeSelector {
    var body = Substring(text)
    if body.hasPrefix("#") { body = body.dropFirst() }
    if !body.isEmpty, body.allSatisfy(\.isNumber), let id = UInt64(body) {
      return TraceGraph.NodeSelector(id: id)
    }
    var kind: String?
    var site = Substring(text)
    if let at = text.lastIndex(of: "@"), at != text.startIndex {
      kind = String(text[..<at])
      site = text[text.index(after: at)...]
    }
    if let colon = site.lastIndex(of: ":"), let line = UInt(site[site.index(after: colon)...]),
      site[..<colon].hasSuffix(".swift")
    {
      return TraceGraph.NodeSelector(kind: kind, file: String(site[..<colon]), line: line)
    }
    return kind.map { TraceGraph.NodeSelector(kind: $0, ownerOrName: String(site)) }
      ?? TraceGraph.NodeSelector(ownerOrName: text)
  }
}

extension String {
  /// This text with every newline replaced by `separator`.
  func replacingNewlines(with separator: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
  }
}

extension TraceGraph {
  /// `lines` without repeats, in first-seen order, a repeated one marked `(×3)`.
  static func counted(_ lines: [String]) -> [String] {
    var counts: [String: Int] = [:]
    for line in lines { counts[line, default: 0] += 1 }
    return distinct(lines).map { line in
      counts[line, default: 1] > 1 ? "\(line) (×\(counts[line]!))" : line
    }
  }
}

/// A failed command: its message, status and the usage line to show.
struct CommandError: Error {
  var message: String
  var status: TraceCommand.Status
  var hint: String?

  static func usage(_ message: String, command: String?) -> CommandError {
    let usage = TraceCommand.commands.first { $0.name == command }.map { "usage: \($0.usage)" }
    return CommandError(
      message: message, status: .usage,
      hint: usage ?? "run `streams-trace --help` for the commands")
  }
}

/// The parsed arguments of one command: positional arguments and options.
struct Arguments {
  var command: String
  var positional: [String] = []
  var options: [String: String] = [:]
  var flags: Set<String> = []

  /// Splits `arguments` (after the command) into positional ones, options taking a value and
  /// flags; anything else is a usage error naming the argument.
  init(
    command: String, _ arguments: ArraySlice<String>, options valued: Set<String>,
    flags known: Set<String>
  ) throws(CommandError) {
    self.command = command
    var index = arguments.startIndex
    var onlyPositional = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositional = true
        continue
      }
      var name = argument
      var inline: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      if valued.contains(name) {
        guard options[name] == nil else {
          throw .usage("\(name) given twice", command: command)
        }
        if let inline {
          options[name] = inline
        } else if index < arguments.endIndex {
          options[name] = arguments[index]
          index += 1
        } else {
          throw .usage("\(name) needs a value", command: command)
        }
      } else if known.contains(name), inline == nil {
        flags.insert(name)
      } else {
        throw .usage("unknown option '\(argument)' for \(command)", command: command)
      }
    }
  }

  /// Exactly `count` positional arguments named `names`.
  func expectPositional(_ names: [String]) throws(CommandError) {
    if positional.count < names.count {
      throw .usage("missing \(names[positional.count])", command: command)
    }
    if positional.count > names.count {
      throw .usage(
        "unexpected argument '\(positional[names.count])'", command: command)
    }
  }
}

extension CommandError {
  static func data(_ message: String) -> CommandError {
    CommandError(message: message, status: .badInput)
  }
}

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
    // A file that is not a dump is turned away on its first bytes, before it is read whole.
    if path != "-", let readPrefix = environment.readPrefix, let prefix = try? readPrefix(path, 512)
    {
      if let problem = Self.notADump(prefix) { throw .data("\(name): \(problem)") }
    }
    let text: String
    do {
      text = try environment.read(path)
    } catch {
      throw CommandError(message: "cannot read '\(path)': \(error.message)", status: .noInput)
    }
    if let problem = Self.notADump(String(text.prefix(512))) { throw .data("\(name): \(problem)") }
    let graph: TraceGraph
    do {
      graph = try TraceGraph(dump: text)
    } catch {
      throw .data("\(name): \(error)")
    }
    if let missing = Self.missingNode(in: graph) { throw .data("\(name): \(missing)") }
    return sources.isEmpty ? graph : graph.namedFromSources(in: sources)
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
        $0.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) } ? String($0) : "·"
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

  // MARK: Commands

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
    guard let folder = arguments.options["--output"], folder != "-" else {
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
    let leaks = graph.leaks()
    var lines =
      leaks.isEmpty
      ? ["no leaks"]
      : ["leaked subscriptions (owner gone, still live):"]
        + TraceGraph.counted(leaks.map(\.description)).map { "  \($0)" }
    // A leak already says which bag keeps it; the rest wait for their maker to go.
    let leaked = Set(leaks.map { "\($0.file):\($0.line) \($0.subscriberLabel) \($0.nodeLabel)" })
    let held = graph.heldElsewhere().filter {
      !leaked.contains("\($0.file):\($0.line) \($0.subscriberLabel) \($0.nodeLabel)")
    }
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
        message: "the trace keeps no delivery #\(id)"
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
    try emit(difference.isEmpty ? "no differences" : difference.description, to: nil)
    return difference.isEmpty ? .success : .found
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
