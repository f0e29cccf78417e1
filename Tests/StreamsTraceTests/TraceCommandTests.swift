import Streams
import StreamsTrace
import Synchronization
import Testing

/// Files in memory for the command: what it reads, and what it wrote.
final class CommandFiles: Sendable {
  let contents: Mutex<[String: String]>

  init(_ contents: [String: String]) {
    self.contents = Mutex(contents)
  }

  var environment: TraceCommand.Environment {
    TraceCommand.Environment(
      read: { [self] path throws(TraceFile.Error) -> String in
        guard let text = contents.withLock({ $0[path] }) else {
          throw TraceFile.Error("No such file or directory")
        }
        return text
      },
      write: { [self] path, text throws(TraceFile.Error) in
        guard !path.hasPrefix("/readonly/") else {
          throw TraceFile.Error("Read-only file system")
        }
        contents.withLock { $0[path] = text }
      })
  }

  subscript(path: String) -> String? { contents.withLock { $0[path] } }
}

@Suite("streams-trace command line", .serialized)
struct TraceCommandTests {
  /// The sprawl fixture's dump, and a hand-made graph without cycles or leaks.
  let files: CommandFiles
  let sprawl: TraceGraph

  init() {
    sprawl = TraceRecorderTests.Sprawl().graph
    let quiet = TraceGraph(
      nodes: [
        .init(id: 1, kind: "PublishSubject", role: .subject, file: "App/A.swift", line: 3),
        .init(id: 2, kind: "map", role: .operator, file: "App/A.swift", line: 4, upstreams: [1]),
        .init(id: 3, kind: "subscribe", role: .terminal, file: "App/B.swift", line: 9),
        .init(id: 4, kind: "map", role: .operator, file: "App/B.swift", line: 12, upstreams: [1]),
      ],
      edges: [
        .init(from: 1, to: 2, kind: .subscription, count: 1, live: 1),
        .init(from: 2, to: 3, kind: .subscription, count: 1, live: 1),
        .init(from: 1, to: 2, kind: .emission, count: 5),
        .init(from: 1, to: 4, kind: .subscription, count: 1, live: 1),
      ])
    var changed = quiet
    changed.edges[2].count = 9
    var map = quiet
    map.edges.remove(at: 2)
    map.origin = .static
    files = CommandFiles([
      "sprawl.json": sprawl.dump(), "quiet.json": quiet.dump(), "changed.json": changed.dump(),
      "map.json": map.dump(),
      "broken.json": "{\"format\": \"streams-trace\", \"version\": 1, \"nodes\": [",
    ])
  }

  func run(_ arguments: String...) -> TraceCommand.Result {
    TraceCommand.run(arguments, environment: files.environment)
  }

  @Test("--help lists every command and the exit statuses; COMMAND --help shows its usage")
  func help() {
    let overview = run("--help")
    #expect(overview.status == .success)
    for command in [
      "summary", "graph", "perfetto", "path", "reach", "cycles", "leaks", "chain", "diff",
    ] {
      #expect(overview.output.contains("\n  \(command) "), "\(command) in the overview")
      let help = TraceCommand.run([command, "--help", "x"], environment: files.environment)
      #expect(help.status == .success)
      #expect(help.output.hasPrefix("usage: streams-trace \(command)"))
    }
    #expect(overview.output.contains("64 bad command line; 65 a dump"))
    #expect(run("help", "path").output.hasPrefix("usage: streams-trace path"))
    // An option's value is not a request for help.
    let named = run("graph", "quiet.json", "--format", "dot", "--output", "--help")
    #expect(named.status == .success)
    #expect(files["--help"]?.contains("digraph \"StreamsTrace\"") == true)
  }

  @Test("bad command lines: exit 64 with a message naming the argument and the usage")
  func usageErrors() {
    let cases: [([String], String)] = [
      ([], "no command given"),
      (["frobnicate"], "unknown command 'frobnicate'"),
      (["summary"], "missing DUMP"),
      (["summary", "a.json", "b.json"], "unexpected argument 'b.json'"),
      (["cycles", "sprawl.json", "--verbose"], "unknown option '--verbose' for cycles"),
      (["graph", "quiet.json"], "missing --format dot|mermaid"),
      (["graph", "quiet.json", "--format", "svg"], "--format must be dot or mermaid, not 'svg'"),
      (["graph", "quiet.json", "--format", "dot", "--depth", "-1"], "--depth must be"),
      (["graph", "quiet.json", "--format", "dot", "--format", "dot"], "--format given twice"),
      (["graph", "quiet.json", "--format"], "--format needs a value"),
      (["graph", "quiet.json", "--format=dot", "--collapse", "module"], "--collapse must be"),
      (["path", "quiet.json", "--to", "1"], "missing --from NODE"),
      (["path", "quiet.json", "--from", "Nobody", "--to", "1"], "--from 'Nobody' matches no node"),
      (["chain", "quiet.json", "x12"], "EVENT must be a delivery id"),
      (["chain", "quiet.json", "--files", "0"], "--files must be"),
      (["diff", "quiet.json"], "missing NEW"),
      (["path", "quiet.json", "--from", "@A.swift:3", "--to", "1"], "matches no node"),
    ]
    for (arguments, message) in cases {
      let result = TraceCommand.run(arguments, environment: files.environment)
      #expect(result.status == .usage, "\(arguments)")
      #expect(result.error.contains(message), "\(arguments): \(result.error)")
      #expect(result.error.hasPrefix("streams-trace: "), "\(arguments)")
      #expect(result.output.isEmpty, "\(arguments)")
    }
  }

  @Test("files that cannot be read, dumps that do not parse, files that cannot be written")
  func inputErrors() {
    let missing = run("summary", "nope.json")
    #expect(missing.status == .noInput)
    #expect(missing.error == "streams-trace: cannot read 'nope.json': No such file or directory\n")
    let broken = run("summary", "broken.json")
    #expect(broken.status == .badInput)
    #expect(broken.error.hasPrefix("streams-trace: broken.json: "))
    #expect(broken.error.contains("offset"))
    let unwritable = run("graph", "quiet.json", "--format", "dot", "--output", "/readonly/g.dot")
    #expect(unwritable.status == .cannotWrite)
    #expect(unwritable.error.contains("cannot write '/readonly/g.dot': Read-only file system"))
  }

  @Test("summary, cycles and leaks on the sprawl fixture")
  func findings() {
    let summary = run("summary", "sprawl.json")
    #expect(summary.status == .success)
    #expect(summary.output == sprawl.summary + "\n")
    let cycles = run("cycles", "sprawl.json")
    #expect(cycles.status == .found)
    #expect(cycles.output.contains("structural cycles"))
    #expect(cycles.output.contains("re-entrant deliveries that ran on it"))
    #expect(cycles.output.contains("CatalogViewModel.swift"))
    // The loop as named edges, and the send to remove with its call site.
    #expect(cycles.output.contains("=send=> CatalogViewModel.selection"))
    #expect(cycles.output.contains("to break it, remove this send:"))
    let leaks = run("leaks", "sprawl.json")
    #expect(leaks.status == .found)
    #expect(leaks.output.contains("PromoBanner"))
    #expect(run("cycles", "quiet.json").output == "no cycles\n")
    #expect(run("cycles", "quiet.json").status == .success)
    #expect(run("leaks", "quiet.json").status == .success)
  }

  @Test("path and reach by id, call site, kind at a call site, owner")
  func paths() {
    let path = run("path", "quiet.json", "--from", "#1", "--to", "B.swift:9")
    #expect(path.status == .success)
    #expect(
      path.output == """
        2 hops:
          #1 PublishSubject App/A.swift:3
          #2 map App/A.swift:4
          #3 subscribe App/B.swift:9

        """)
    let none = run("path", "quiet.json", "--from", "3", "--to", "1")
    #expect(none.status == .found)
    #expect(none.output.hasPrefix("no path from subscribe App/B.swift:9"))
    let ambiguous = run("path", "quiet.json", "--from", "1", "--to", "map@A.swift:4")
    #expect(ambiguous.status == .success)
    let several = TraceCommand.run(
      ["path", "quiet.json", "--from", "1", "--to", "App/B.swift:12"],
      environment: files.environment)
    #expect(several.status == .success)
    let reach = run("reach", "quiet.json", "1")
    #expect(reach.output.hasPrefix("3 nodes reached from PublishSubject App/A.swift:3:"))
    let upstream = run("reach", "quiet.json", "3", "--upstream")
    #expect(upstream.output.contains("#1 PublishSubject"))
    #expect(upstream.output.contains("#2 map"))
  }

  @Test("a selector matching several nodes asks for an id and lists them")
  func ambiguousSelector() {
    let result = run("path", "sprawl.json", "--from", "CartViewModel", "--to", "1")
    #expect(result.status == .usage)
    #expect(result.error.contains("--from 'CartViewModel' matches"))
    #expect(result.error.contains("pick one by id"))
  }

  @Test("chain by delivery id, and every chain across N files")
  func chains() throws {
    let root = try #require(sprawl.deliveries.first { $0.cause == nil && $0.value == "apple" })
    let chain = run("chain", "sprawl.json", "#\(root.id)")
    #expect(chain.status == .success)
    #expect(chain.output == sprawl.chain(of: root.id)!.description + "\n")
    let crossing = run("chain", "sprawl.json", "--files", "4")
    #expect(crossing.output.hasPrefix("chain from #\(root.id) across"))
    let unknown = run("chain", "sprawl.json", "999999")
    #expect(unknown.status == .usage)
    #expect(unknown.error.contains("the trace keeps no delivery #999999"))
  }

  @Test("leaks and chain on a static map say what it lacks and where to look")
  func staticMap() {
    let leaks = run("leaks", "map.json")
    #expect(leaks.status == .success)
    #expect(
      leaks.output.hasPrefix("this dump is a static map (streams-trace map): it has no live "))
    #expect(leaks.output.contains("record a run"))
    let chain = run("chain", "map.json", "1")
    #expect(chain.status == .usage)
    #expect(chain.error.contains("it has no deliveries to follow a chain from"))
    // Against the recording it was made beside: the coverage, then the verdict.
    let diff = run("diff", "map.json", "quiet.json")
    #expect(diff.status == .success)
    #expect(diff.output.hasPrefix("static map against recorded trace: the map has 3 of 3 "))
    #expect(diff.output.hasSuffix("\nno differences\n"))
  }

  @Test("diff: nothing, then a changed count")
  func diff() {
    let same = run("diff", "quiet.json", "quiet.json")
    #expect(same.status == .success)
    #expect(same.output == "no differences\n")
    let changed = run("diff", "quiet.json", "changed.json")
    #expect(changed.status == .found)
    #expect(changed.output.contains("5"))
    #expect(changed.output.contains("9"))
  }

  @Test("graph and perfetto write to standard output or to --output")
  func exports() throws {
    let dot = run("graph", "sprawl.json", "--format", "dot")
    #expect(dot.status == .success)
    #expect(dot.output == sprawl.dot() + (sprawl.dot().hasSuffix("\n") ? "" : "\n"))
    let mermaid = run(
      "graph", "sprawl.json", "--format=mermaid", "--collapse", "file", "--output", "g.mmd")
    #expect(mermaid.status == .success)
    #expect(mermaid.output.isEmpty)
    #expect(mermaid.error == "wrote g.mmd\n")
    var options = GraphExportOptions()
    options.collapse = .file
    #expect(files["g.mmd"] == sprawl.mermaid(options))
    let focused = run(
      "graph", "sprawl.json", "--format", "dot", "--focus", "CartBadge", "--depth", "1")
    #expect(focused.status == .success)
    #expect(focused.output.count < dot.output.count)
    let perfetto = run("perfetto", "sprawl.json", "--output", "t.json")
    #expect(perfetto.status == .success)
    #expect(files["t.json"] == sprawl.chromeTrace())
  }
}
