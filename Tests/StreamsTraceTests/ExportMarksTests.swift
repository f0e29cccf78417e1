import Streams
import StreamsTrace
import Testing

/// A music player, a fixture in another domain than the cart of the seed and the sprawl: a
/// cycle through the queue and a leaked lyrics panel.
struct PlayerFixture {
  let graph: TraceGraph

  init() {
    let recorder = TraceRecorder()
    graph = Tracing.withTracer(recorder) {
      let queue = PlaybackQueue()
      let player = NowPlaying(queue: queue)
      let scrobbler = Scrobbler(player: player, queue: queue)
      var panel: LyricsPanel? = LyricsPanel(player: player)
      panel = nil  // closed; its subscription stays in the player's bag
      queue.upNext.accept(["jingle", "song"])
      defer { withExtendedLifetime((scrobbler, panel)) {} }
      return recorder.graph
    }
  }
}

@Suite("Export marks equal the findings")
struct ExportMarksTests {
  @Test("the player fixture: names Owner.property, a cycle and a leak")
  func playerNames() throws {
    let graph = PlayerFixture().graph
    for name in [
      "PlaybackQueue.upNext", "PlaybackQueue.skipped", "NowPlaying.track", "NowPlaying.title",
    ] {
      #expect(graph.nodes(matching: .named(name)).count == 1, "\(name)")
    }
    #expect(graph.structuralCycles().count == 1)
    #expect(graph.leaks().count == 1)
    #expect(graph.leaks()[0].owner == "LyricsPanel")
    // Every terminal has a call site in the fixture's files.
    #expect(
      graph.nodes.filter { $0.role == .terminal }.allSatisfy {
        $0.file.hasPrefix("StreamsTraceTests/") && $0.line > 0
      })
  }

  @Test("red boxes and edges are exactly the cycles' nodes and edges; purple the leaks'")
  func marks() throws {
    for graph in [PlayerFixture().graph, TraceRecorderTests.Sprawl().graph] {
      let dot = graph.dot()
      let cycleNodes = Set(graph.structuralCycles().flatMap(\.nodes).map { "n\($0)" })
      let leakNodes = Set(graph.leaks().map { "n\($0.subscriber)" })
      #expect(!cycleNodes.isEmpty)
      #expect(!leakNodes.isEmpty)
      var red: Set<String> = []
      var purple: Set<String> = []
      for line in dot.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
      where line.hasPrefix("\"n") && !line.contains(" -> ") {
        let id = String(line.dropFirst().prefix { $0 != "\"" })
        if line.contains("color=\"red\"") { red.insert(id) }
        if line.contains("purple") { purple.insert(id) }
      }
      #expect(red == cycleNodes)
      // A leaked subscriber on a cycle is drawn red and dashed; its dashes remain.
      #expect(purple.union(leakNodes.intersection(cycleNodes)) == leakNodes)
      // The Mermaid text marks the same boxes.
      let mermaid = graph.mermaid()
      let classed = mermaid.split(separator: "\n").filter {
        $0.hasPrefix("  class ") && ($0.hasSuffix(" cycle") || $0.hasSuffix(" cycleLeak"))
      }.flatMap { $0.dropFirst("  class ".count).split(separator: " ")[0].split(separator: ",") }
      #expect(Set(classed.map(String.init)) == cycleNodes)
    }
  }
}
