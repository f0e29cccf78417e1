import StreamsTest
import StreamsTrace
import Testing

@Suite("The command line at app scale")
struct TraceCommandScaleTests {
  /// Files in memory, opened in chunks of 4 KiB; `chunksRead` counts the chunks handed out,
  /// `wholeReads` the files read whole.
  final class Files: @unchecked Sendable {
    var contents: [String: String]
    var wholeReads = 0
    var chunksRead = 0
    init(_ contents: [String: String]) { self.contents = contents }

    var environment: TraceCommand.Environment {
      TraceCommand.Environment(
        read: { path throws(TraceFile.Error) in
          self.wholeReads += 1
          guard let text = self.contents[path] else { throw TraceFile.Error("No such file") }
          return text
        },
        write: { path, text throws(TraceFile.Error) in self.contents[path] = text },
        open: { path throws(TraceFile.Error) in
          guard let text = self.contents[path] else { throw TraceFile.Error("No such file") }
          var rest = Array(text.utf8)[...]
          return { () throws(TraceFile.Error) -> [UInt8]? in
            guard !rest.isEmpty else { return nil }
            self.chunksRead += 1
            defer { rest = rest.dropFirst(4096) }
            return Array(rest.prefix(4096))
          }
        })
    }
  }

  static let app = GeneratedAppTrace.make(screens: 60, subscriptionsPerScreen: 25)

  @Test("a file that is not a dump is turned away on its first chunk; a dump is read by chunks")
  func firstBytes() {
    let files = Files([
      "app.trace.json": Self.app.chromeTrace(),
      "big.bin": String(repeating: "\u{1}garbage", count: 100_000),
    ])
    let perfetto = TraceCommand.run(["summary", "app.trace.json"], environment: files.environment)
    #expect(perfetto.status == .badInput)
    #expect(perfetto.error.contains("this is a Perfetto export"))
    #expect(perfetto.error.contains("give the dump (.dump.json)"))
    let garbage = TraceCommand.run(["cycles", "big.bin"], environment: files.environment)
    #expect(garbage.status == .badInput)
    #expect(garbage.error.contains("not a trace dump: it starts with '·garbage"))
    #expect(files.wholeReads == 0)
    #expect(files.chunksRead == 2)  // one chunk of each file
    // A dump is read through, chunk by chunk, never whole.
    let dump = Self.app.dump()
    files.contents["app.dump.json"] = dump
    let summary = TraceCommand.run(["summary", "app.dump.json"], environment: files.environment)
    #expect(summary.status == .success)
    #expect(files.wholeReads == 0)
    #expect(files.chunksRead == 2 + (dump.utf8.count + 4095) / 4096)
  }

  @Test("a dump whose edges name a node it does not have is rejected")
  func missingNodes() {
    var graph = TraceGraph(nodes: [
      .init(id: 1, kind: "map", role: .operator, file: "A.swift", line: 1)
    ])
    graph.edges = [.init(from: 1, to: 7, kind: .emission, count: 1)]
    let files = Files(["bad.json": graph.dump()])
    let result = TraceCommand.run(["summary", "bad.json"], environment: files.environment)
    #expect(result.status == .badInput)
    #expect(
      result.error.contains(
        "edges[0] (emission from 1 to 7) names node 7, which the dump's nodes do not have"))
  }

  @Test("the coupling map in text, busiest pair first; a full DOT too big to lay out is refused")
  func couplingAndRefusal() throws {
    let files = Files(["app.json": Self.app.dump()])
    let coupling = TraceCommand.run(["coupling", "app.json"], environment: files.environment)
    #expect(coupling.status == .success)
    #expect(coupling.output.hasPrefix("70 owners, "))
    #expect(coupling.output.contains("owners on a cycle or holding a leak:"))
    #expect(coupling.output.contains("Screen3ViewModel: "))
    let dot = TraceCommand.run(
      ["coupling", "app.json", "--format", "dot", "--output", "c.dot"],
      environment: files.environment)
    #expect(dot.status == .success)
    #expect(files.contents["c.dot"]?.hasPrefix("// StreamsTrace coupling map: 70 owners") == true)

    let full = TraceCommand.run(
      ["graph", "app.json", "--format", "dot", "--output", "full.dot"],
      environment: files.environment)
    #expect(full.status == .usage)
    #expect(full.error.contains("more than Graphviz lays out in reasonable time"))
    #expect(full.error.contains("streams-trace coupling DUMP --format dot"))
    #expect(files.contents["full.dot"] == nil)
    // Just past the limit, --force writes it.
    files.contents["medium.json"] = GeneratedAppTrace.make(screens: 30, subscriptionsPerScreen: 25)
      .dump()
    let refused = TraceCommand.run(
      ["graph", "medium.json", "--format", "dot"], environment: files.environment)
    #expect(refused.status == .usage)
    let forced = TraceCommand.run(
      ["graph", "medium.json", "--format", "dot", "--force", "--output", "medium.dot"],
      environment: files.environment)
    #expect(forced.status == .success)
    #expect(files.contents["medium.dot"]?.contains("digraph") == true)
    let focused = TraceCommand.run(
      ["graph", "app.json", "--format", "dot", "--focus", "CartStore.added", "--depth", "1"],
      environment: files.environment)
    #expect(focused.status == .success)
  }

  @Test("names select nodes in the generated app: path from a store to a screen")
  func namedPath() {
    let files = Files(["app.json": Self.app.dump()])
    let path = TraceCommand.run(
      ["path", "app.json", "--from", "CartStore.added", "--to", "Screen0ViewModel.input"],
      environment: files.environment)
    #expect(path.status == .success, "\(path.error)")
    #expect(path.output.contains("CartStore.added (PublishSubject Stores/CartStore.swift:8)"))
  }
}
