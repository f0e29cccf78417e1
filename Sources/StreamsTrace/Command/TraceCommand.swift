/// The `streams-trace` command line: questions and exports over trace dumps.
///
/// The executable is a thin shell around ``run(_:environment:)``, so that the parsing, every
/// message and every exit status are tested here. It reads and writes files only through the
/// ``Environment`` it is given.
///
/// ```swift
/// let result = TraceCommand.run(["cycles", "app.dump.json"], environment: files)
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
    /// Gives the next chunk of an open file, `nil` at its end; throws the system's message.
    public typealias Chunks = () throws(TraceFile.Error) -> [UInt8]?

    /// Reads the file at a path (`-` is standard input); throws the system's message.
    public var read: @Sendable (String) throws(TraceFile.Error) -> String
    /// Writes text to the file at a path; throws the system's message.
    public var write: @Sendable (String, String) throws(TraceFile.Error) -> Void
    /// Opens the file at a path (`-` is standard input) to read it a chunk at a time, giving
    /// what returns the next chunk (`nil` at the end): a dump is then read in bounded memory,
    /// and a file that is not a dump is turned away on its first chunk. `nil`: dumps are read
    /// whole with `read`.
    public var open: (@Sendable (String) throws(TraceFile.Error) -> Chunks)?
    /// Makes a folder and those above it (for `report`); `nil` where folders need no making.
    public var makeFolder: (@Sendable (String) throws(TraceFile.Error) -> Void)?

    /// An environment of the given file operations.
    ///
    /// - Parameters:
    ///   - read: Reads a whole file (used for dumps when `open` is `nil`).
    ///   - write: Writes a file.
    ///   - open: Opens a file to read a chunk at a time; `nil` to read dumps whole.
    ///   - makeFolder: Makes a folder and those above it; `nil` where none need making.
    public init(
      read: @escaping @Sendable (String) throws(TraceFile.Error) -> String,
      write: @escaping @Sendable (String, String) throws(TraceFile.Error) -> Void,
      open: (@Sendable (String) throws(TraceFile.Error) -> Chunks)? = nil,
      makeFolder: (@Sendable (String) throws(TraceFile.Error) -> Void)? = nil
    ) {
      self.read = read
      self.write = write
      self.open = open
      self.makeFolder = makeFolder
    }

    /// The file system, through ``/StreamsTraceRecording/TraceFile``.
    public static var files: Environment {
      Environment(
        read: { path throws(TraceFile.Error) in try TraceFile.read(path) },
        write: { path, text throws(TraceFile.Error) in try TraceFile.write(text, to: path) },
        open: { path throws(TraceFile.Error) in
          let file = try TraceFile.chunks(path)
          return { () throws(TraceFile.Error) in try file.next() }
        },
        makeFolder: { path throws(TraceFile.Error) in try TraceFile.makeFolder(path) })
    }
  }

  /// How to run `map`, which the tools package (`Sources/Tools`) answers.
  static let mapCommand = "swift run --package-path Sources/Tools streams-trace map"

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
      "map", "the static map of an app's source, before anything changes (the tools package)",
      "streams-trace map FOLDER [--exclude NAME]... [--output FILE]",
      "Reads every Swift file under FOLDER (RxSwift, RxCocoa and Streams code alike) into the\n"
        + "graph a recorded trace gives: streams named Owner.property, who subscribes, who sends\n"
        + "into what from a subscriber's closure (the cross-file chains); prints the chains,\n"
        + "cycles, fan-in and fan-out, leak candidates, the migration table and what it could\n"
        + "not resolve, and writes a dump (map.dump.json) that every other command reads.\n"
        + "It reads source with SwiftSyntax, so it lives in the developer tools package:\n"
        + "  \(mapCommand) FOLDER\n"
        + "which also answers every other command."
    ),
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
